"""Casablanca: the keys each action takes (``companion.games.schema``).

One entry per action ``decide`` handles. A bribe's ``amounts`` is a list of
``{"agent": ..., "amount": ...}`` that the rules check item by item; a move's ``to`` is a
space's id or name, or ``home``.
"""

from __future__ import annotations

from companion.games.schema import ActionSchema, Key

ACTIONS: dict[str, ActionSchema] = {
    "bribe": {"amounts": Key()},
    "move": {"agent": Key("str"), "to": Key("str"), "suitcase": Key("bool")},
    "eliminate": {"agent": Key("str"), "target": Key("str")},
    "protest": {},
    "concede": {},
    "compare": {},
    "resolve": {},
    "seen": {"tag": Key("str"), "zone": Key("str")},
    "left": {"tag": Key("str")},
}
