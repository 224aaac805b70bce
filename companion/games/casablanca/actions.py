"""Casablanca: the keys each action takes (``companion.games.schema``).

One entry per action ``decide`` handles.
"""

from __future__ import annotations

from companion.games.schema import ActionSchema, Key

#: the keys of every Casablanca action: the handlers share one reader of the action
_KEYS: ActionSchema = {
    "agent": Key(),
    "amounts": Key(),
    "suitcase": Key(),
    "tag": Key("str"),
    "target": Key(),
    "to": Key(),
    "zone": Key("str"),
}

ACTIONS: dict[str, ActionSchema] = {name: _KEYS for name in (
    "bribe",
    "compare",
    "concede",
    "eliminate",
    "left",
    "move",
    "protest",
    "resolve",
    "seen",
)}
