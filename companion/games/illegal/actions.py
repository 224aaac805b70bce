"""Illegal: the keys each action takes (``companion.games.schema``).

One entry per action ``decide`` handles.
"""

from __future__ import annotations

from companion.games.schema import MAX, ActionSchema, Key

ACTIONS: dict[str, ActionSchema] = {
    "cancel": {"card": Key()},
    "deal": {"card": Key()},
    "discard": {"cards": Key()},
    "discard_card": {"card": Key("str")},
    "end_turn": {},
    "lose": {"card": Key("str")},
    "magnum_shown": {"card": Key()},
    "play": {
        "cancel": Key(),
        "card": Key("str"),
        "discard": Key("str"),
        "lose": Key("str"),
        "take": Key("str"),
        "target": Key(),
    },
    "reveal": {"card": Key("str"), "hand": Key()},
    "reveal_card": {"card": Key("str"), "hand": Key()},
    "show": {"hand": Key()},
    "show_card": {"card": Key("str")},
    "trade": {
        "get": Key("int", -MAX, MAX),
        "give": Key("int", -MAX, MAX),
        "with": Key("int", -MAX, MAX),
    },
}
