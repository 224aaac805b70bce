"""Crime Lords: the keys each action takes (``companion.games.schema``).

One entry per action ``decide`` handles.
"""

from __future__ import annotations

from companion.games.schema import MAX, ActionSchema, Key

ACTIONS: dict[str, ActionSchema] = {
    "accept_crook": {"under": Key("str")},
    "adjust": {
        "card": Key(),
        "delta": Key("int", -MAX, MAX),
        "what": Key("str"),
        "why": Key("str"),
    },
    "assist": {"card": Key("str")},
    "attack": {
        "actions": Key(),
        "attacker": Key(),
        "card": Key(),
        "kind": Key("str"),
        "money": Key("int", -MAX, MAX),
        "target": Key("str"),
    },
    "buy": {"card": Key("str"), "first": Key(), "price": Key("int", -MAX, MAX), "stats": Key()},
    "choose_boss": {"card": Key()},
    "claim": {"from": Key("int", -MAX, MAX), "rackets": Key(), "tokens": Key()},
    "collect": {"actions": Key(), "pay_order": Key()},
    "deck_empty": {"actions": Key()},
    "defend": {"card": Key("str")},
    "draw": {"actions": Key(), "card": Key("str"), "stats": Key()},
    "drop": {"actions": Key(), "card": Key()},
    "end_turn": {"actions": Key()},
    "give": {"card": Key("str"), "money": Key("int", -MAX, MAX), "to": Key()},
    "leave": {},
    "modify": {"value": Key("int", -MAX, MAX), "why": Key("str")},
    "move": {"actions": Key(), "card": Key(), "under": Key("str")},
    "now": {},
    "pass": {},
    "pass_turn": {"actions": Key()},
    "place": {"card": Key(), "under": Key("str")},
    "play_special": {"card": Key("str")},
    "protect": {"card": Key()},
    "refuse_crook": {},
    "retire_boss": {"actions": Key(), "card": Key()},
    "roll": {"dice": Key(), "under": Key()},
    "share": {"agree": Key()},
    "showdown": {"amount": Key("int", -MAX, MAX), "side": Key("str")},
    "start": {"card": Key("str"), "first": Key(), "price": Key("int", -MAX, MAX), "stats": Key()},
    "stats": {"card": Key("str"), "stats": Key()},
    "take_mob": {
        "card": Key("str"),
        "first": Key(),
        "price": Key("int", -MAX, MAX),
        "stats": Key(),
    },
    "uncontrolled": {
        "card": Key("str"),
        "first": Key(),
        "price": Key("int", -MAX, MAX),
        "stats": Key(),
    },
    "visit": {"actions": Key(), "card": Key(), "racket": Key("str")},
    "withdraw": {},
}
