"""Illegal: the keys each action takes (``companion.games.schema``).

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
