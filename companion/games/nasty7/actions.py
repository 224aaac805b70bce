"""The Nasty 7: the keys each action takes (``companion.games.schema``).

One entry per action ``decide`` handles; the table refuses any other action or key
before the rules see it. ``Key()`` is any plain JSON (bounded where it came in):
the rules check what it means. ``tests/core/test_action_schemas.py`` checks that
every action has an entry, that every key a handler reads is declared, and that
every recorded game still passes.
"""

from __future__ import annotations

from companion.games.schema import ActionSchema, Key

#: the largest amount or count any action carries
MAX = 10**9

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
