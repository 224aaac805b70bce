"""Writes thousand_cards.jsonl + .expected.json: a 4-player game of 1,000 played cards.

The expected state comes from this script's own small model of the rules (not from the
engine), so the record checks the engine against an independent count. Run it from the
repository root: ``.venv/bin/python tests/records/nasty7/make_thousand.py``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
SEATS = ["Ann", "Ben", "Cy", "Dee"]
CARDS = {"racketeer": 1, "twin_racketeer": 2, "phone": 1, "twin_phone": 2, "gun": 1}
WEIGHTS = [60, 15, 15, 10, 10]  # the catalog's default split
CYCLE = [1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2]  # the count repeats every 12 racketeers


class Model:
    """Counts only: stacks, pile, racketeers, turn (the rules as the issue states them)."""

    def __init__(self) -> None:
        self.stacks = [110 // len(SEATS)] * len(SEATS)
        self.pile = 0
        self.figures = 0
        self.turn = 0
        self.last: int | None = None
        self.top_twin = False
        self.round = 1
        self.plays = 0

    def play(self, seat: int, card: str) -> None:
        self.stacks[seat] -= 1
        self.pile += 1
        self.figures += CARDS[card]
        self.last = seat
        self.top_twin = CARDS[card] == 2
        self.plays += 1
        self.turn = (seat + (2 if CARDS[card] == 2 else 1)) % len(SEATS)

    def take(self, seat: int) -> None:
        self.stacks[seat] += self.pile
        self.pile = self.figures = 0
        self.turn = seat
        self.last = None
        self.top_twin = False
        self.round += 1

    def state(self) -> dict[str, Any]:
        count = CYCLE[(self.figures - 1) % 12] if self.figures else 0
        return {"figures": self.figures, "count": count, "pile": self.pile,
                "stacks": self.stacks, "next": self.turn, "round": self.round,
                "plays": self.plays, "over": False}


def _step(m: Model, rng: random.Random, t: float, out: list[dict[str, Any]]) -> float:
    """Append the next line(s) to ``out``; returns the new game time."""
    card = rng.choices(list(CARDS), WEIGHTS)[0]
    roll = rng.random()
    if m.pile and roll < 0.05:  # the seat to play hesitates: the deadline penalises it
        m.take(m.turn)
        t += 3.5
    elif m.top_twin and m.last is not None and roll < 0.3:
        skipped = (m.last + 1) % len(SEATS)  # a twin lies on top: the skipped seat plays
        t += 0.5
        out.append({"t": round(t, 3), "do": "play", "card": card, "seat": skipped})
        m.play(skipped, card)
        m.take(skipped)
        return t
    t += rng.choice([0.4, 0.9, 1.3, 2.1, 2.9])
    seat = m.turn
    out.append({"t": round(t, 3), "do": "play", "card": card})
    m.play(seat, card)
    if m.stacks[seat] == 0:  # never let it end: the last card is wrongly counted
        t += 0.3
        out.append({"t": round(t, 3), "do": "accuse", "by": [(seat + 1) % len(SEATS)],
                    "against": seat, "upheld": True})
        m.take(seat)
    elif m.pile > 3 and rng.random() < 0.03:  # a false accusation by the next seat
        t += 0.3
        accuser = (seat + 1) % len(SEATS)
        out.append({"t": round(t, 3), "do": "accuse", "by": [accuser], "against": seat,
                    "upheld": False})
        m.take(accuser)
    return t


def main() -> None:
    rng = random.Random(7)
    m = Model()
    lines: list[dict[str, Any]] = []
    t = 0.0
    while m.plays < 1000:
        t = _step(m, rng, t, lines)
    header = {"record": "table-companion", "version": 3, "game": "nasty7", "seats": SEATS,
              "options": {}}
    text = "\n".join(json.dumps(x) for x in [header, *lines]) + "\n"
    (HERE / "thousand_cards.jsonl").write_text(text, encoding="utf-8")
    expected = {"state": m.state(), "outcome": None}
    (HERE / "thousand_cards.expected.json").write_text(json.dumps(expected, indent=1) + "\n")


if __name__ == "__main__":
    main()
