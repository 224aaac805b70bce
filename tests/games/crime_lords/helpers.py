"""Shared helpers for the Crime Lords tests: a table with named cards, actions in a row."""

from __future__ import annotations

from typing import Any

from companion.games.base import Setup
from companion.games.codec import event_from_json, event_to_json
from companion.games.crime_lords import State, engine

MOM = {"name": "Mom Parker", "power": 6, "resistance": 4, "weakness": "Casinos"}
BRO = {"name": "Bro Bronson", "power": 4, "resistance": 2}
ANITA = {"name": "Anita Callahan", "power": 3, "resistance": 1, "weakness": "Casinos"}
JUDGE = {"name": "Judge Cohen", "power": 5, "resistance": 5}
SHYSTER = {"name": "Shyster Shatner", "power": 2, "resistance": 1, "weakness": "Numbers"}
CASINO_N = {"name": "North Side Casinos", "type": "Casinos", "income": 4, "resistance": 5,
            "district": "North Side"}
NUMBERS_E = {"name": "East Side Numbers", "type": "Numbers", "income": 3, "resistance": 3,
             "district": "East Side"}


class Table:
    """A game driven action by action; every event goes through the JSON codec."""

    def __init__(self, seats: int = 2, **options: Any) -> None:
        names = tuple(["Ann", "Ben", "Cy", "Di", "Ed", "Flo"][:seats])
        options.setdefault("draw_rule", "free")  # draws are tested on their own
        self.state: State = engine.new_game(Setup(names, options))
        self.events: list[Any] = []
        self.t = 0.0

    def do(self, **action: Any) -> list[Any]:
        self.t += 1.0
        self.state, events = engine.run(self.state, action, self.t)
        for event in events:
            name, payload = event_to_json(event)
            assert event_from_json(engine.event_types, name, payload) == event
        self.events.extend(events)
        return events

    def crook(self, seat: int, card: str) -> Any:
        return self.state.mobs[seat].crook(card)

    def money(self, seat: int) -> int:
        return self.state.mobs[seat].money


def two_mobs(**options: Any) -> Table:
    """Ann: The Old Family (+3), Boss Mom Parker (6) over Bro Bronson (4), North Side
    Casinos. Ben: +2 Boss token, Boss Judge Cohen (5) over Shyster Shatner (2), East Side
    Numbers. Anita Callahan (3/1) is uncontrolled. Ann plays first."""
    t = Table(**options)
    t.do(do="take_mob", seat=0, card="mob_01", stats={"name": "The Old Family", "boss_bonus": 3})
    t.do(do="take_mob", seat=1, card="mob_02", stats={"boss_bonus": 2})
    t.do(do="buy", seat=0, card="crook_01", price=10, stats=MOM)
    t.do(do="buy", seat=0, card="crook_02", price=5, stats=BRO)
    t.do(do="buy", seat=0, card="racket_01", price=5, stats=CASINO_N)
    t.do(do="buy", seat=1, card="crook_03", price=12, stats=JUDGE)
    t.do(do="buy", seat=1, card="crook_04", price=3, stats=SHYSTER)
    t.do(do="buy", seat=1, card="racket_02", price=6, stats=NUMBERS_E)
    t.do(do="choose_boss", seat=0, card="crook_01")
    t.do(do="place", seat=0, card="crook_02", under="crook_01")
    t.do(do="choose_boss", seat=1, card="crook_03")
    t.do(do="place", seat=1, card="crook_04", under="crook_03")
    t.do(do="uncontrolled", card="crook_05", stats=ANITA)
    t.do(do="start", first=0)
    return t


def deep_mobs() -> Table:
    """Ann: Mom (Boss, +3) over Bro; Cy is a third Mob. Ben: Judge (Boss, +2) over Shyster
    (2) over Kid (1), Bodyguard Tiny (3) under Judge; two East Side Rackets."""
    t = Table(3)
    t.do(do="take_mob", seat=0, card="mob_01", stats={"boss_bonus": 3})
    t.do(do="take_mob", seat=1, card="mob_02", stats={"boss_bonus": 2})
    t.do(do="buy", seat=0, card="crook_01", price=0, stats=MOM)
    t.do(do="buy", seat=0, card="crook_02", price=0, stats=BRO)
    t.do(do="buy", seat=1, card="crook_03", price=0, stats=JUDGE)
    t.do(do="buy", seat=1, card="crook_04", price=0, stats=SHYSTER)
    t.do(do="buy", seat=1, card="crook_07", price=0,
         stats={"name": "Kid", "power": 1, "resistance": 0})
    t.do(do="buy", seat=1, card="crook_08", price=0,
         stats={"name": "Tiny", "power": 3, "resistance": 2, "ability": "Bodyguard."})
    t.do(do="buy", seat=1, card="racket_02", price=0, stats=NUMBERS_E)
    t.do(do="buy", seat=1, card="racket_05", price=0,
         stats={"name": "East Side Casinos", "type": "Casinos", "income": 2,
                "resistance": 4, "district": "East Side"})
    t.do(do="buy", seat=2, card="crook_09", price=0, stats=ANITA)
    for seat, boss in ((0, "crook_01"), (1, "crook_03"), (2, "crook_09")):
        t.do(do="choose_boss", seat=seat, card=boss)
    t.do(do="place", seat=0, card="crook_02", under="crook_01")
    t.do(do="place", seat=1, card="crook_04", under="crook_03")
    t.do(do="place", seat=1, card="crook_08", under="crook_03")
    t.do(do="place", seat=1, card="crook_07", under="crook_04")
    t.do(do="start", first=0)
    t.do(do="collect", seat=0)
    return t


def find_amounts(view: Any, amount: int) -> list[str]:
    """Paths in a view where a hand of ``amount`` or a treasury could show."""
    found: list[str] = []

    def walk(node: Any, path: str) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("amount", "money") and value == amount:
                    found.append(f"{path}.{key}")
                walk(value, f"{path}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{path}[{i}]")

    walk(view, "")
    return found
