"""The Nasty 7: the keys each action takes (``companion.games.schema``).

One entry per action ``decide`` handles.
"""

from __future__ import annotations

from companion.games.schema import MAX, ActionSchema, Key

ACTIONS: dict[str, ActionSchema] = {
    "accuse": {"against": Key(), "by": Key(), "kind": Key("str"), "upheld": Key()},
    "deadline": {},
    "hesitation": {"against": Key()},
    "missed_card": {"ago": Key(), "at": Key(), "card": Key("str")},
    "mistake": {"kind": Key("str")},
    "play": {"card": Key("str"), "serial": Key("int", -MAX, MAX)},
    "reassign": {"by": Key()},
    "replace_card": {"card": Key("str")},
    "rule": {"upheld": Key()},
    "withdraw": {},
    "word": {"text": Key("str")},
}
