"""Casablanca: the keys each action takes (``companion.games.schema``).

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
    "bribe": {
        "agent": Key(),
        "amounts": Key(),
        "suitcase": Key(),
        "tag": Key("str"),
        "target": Key(),
        "to": Key(),
        "zone": Key("str"),
    },
    "compare": {
        "agent": Key(),
        "amounts": Key(),
        "suitcase": Key(),
        "tag": Key("str"),
        "target": Key(),
        "to": Key(),
        "zone": Key("str"),
    },
    "concede": {
        "agent": Key(),
        "amounts": Key(),
        "suitcase": Key(),
        "tag": Key("str"),
        "target": Key(),
        "to": Key(),
        "zone": Key("str"),
    },
    "eliminate": {
        "agent": Key(),
        "amounts": Key(),
        "suitcase": Key(),
        "tag": Key("str"),
        "target": Key(),
        "to": Key(),
        "zone": Key("str"),
    },
    "left": {
        "agent": Key(),
        "amounts": Key(),
        "suitcase": Key(),
        "tag": Key("str"),
        "target": Key(),
        "to": Key(),
        "zone": Key("str"),
    },
    "move": {
        "agent": Key(),
        "amounts": Key(),
        "suitcase": Key(),
        "tag": Key("str"),
        "target": Key(),
        "to": Key(),
        "zone": Key("str"),
    },
    "protest": {
        "agent": Key(),
        "amounts": Key(),
        "suitcase": Key(),
        "tag": Key("str"),
        "target": Key(),
        "to": Key(),
        "zone": Key("str"),
    },
    "resolve": {
        "agent": Key(),
        "amounts": Key(),
        "suitcase": Key(),
        "tag": Key("str"),
        "target": Key(),
        "to": Key(),
        "zone": Key("str"),
    },
    "seen": {
        "agent": Key(),
        "amounts": Key(),
        "suitcase": Key(),
        "tag": Key("str"),
        "target": Key(),
        "to": Key(),
        "zone": Key("str"),
    },
}
