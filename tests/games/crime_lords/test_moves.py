"""Crime Lords' ``moves`` against ``decide``, over every state of every recorded game and of
random games played from ``moves`` alone.

- every complete action built from an allowed move is accepted by ``decide``;
- every accepted action of a seat or the host whose fields are all closed (no value the
  player types) is offered by some move of its sender;
- a move that is not allowed says why, and no label shows a card id.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games.actions import fields_of
from companion.games.base import IllegalAction, Setup
from companion.games.crime_lords import State, engine
from companion.games.crime_lords.actions import ACTIONS
from companion.games.moves import offered
from companion.records import VERSION, parse_header

ROOT = Path(__file__).resolve().parents[3]
def _first(path: Path) -> Any:
    return json.loads(next(x for x in path.read_text(encoding="utf-8").splitlines()
                            if x.strip() and not x.lstrip().startswith("#")))


#: records of today's format (an older record follows its own format's meaning; the
#: shared tests/games/test_moves.py walks those states too)
RECORDS = [p for p in sorted((ROOT / "tests" / "records").glob("**/crime_lords/*.jsonl")) + [
    ROOT / "companion" / "demos" / "crime_lords.jsonl"]
    if parse_header(_first(p)).version == VERSION]
CARD_ID = re.compile(r"\b(crook|racket|mob|special)_\d+\b")


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()
            if x.strip() and not x.lstrip().startswith("#")]


def steps() -> Iterator[tuple[State, dict[str, Any] | None]]:
    """(state, the next recorded action or None) over every recorded game."""
    for path in RECORDS:
        lines = _lines(path)
        header = parse_header(lines[0])
        state = engine.new_game(header.setup())
        for action in lines[1:]:
            t = float(action.pop("t"))
            yield state, action
            try:
                state, _ = engine.run(state, action, t)
            except IllegalAction:
                continue
        yield state, None


def sender(action: dict[str, Any]) -> int | None:
    kind = ACTIONS.kinds[action["do"]]
    return None if kind.by == "host" else action.get("seat")


def closed(action: dict[str, Any]) -> bool:
    kind = ACTIONS.kinds[action["do"]]
    return not any(i.spec.open and action.get(i.name) is not None for i in fields_of(kind))


def check_moves(state: State) -> int:
    """Every action built from every allowed move of every seat and the host is accepted."""
    built = 0
    for seat in (None, *range(len(state.seats))):
        for move in engine.moves(state, seat):
            assert not CARD_ID.search(move.label), move.label
            assert move.allowed or move.why, move
            if not move.allowed:
                continue
            for action in move.actions(limit=40):
                try:
                    engine.decide(state, action, 1.0)
                except IllegalAction as err:
                    raise AssertionError(f"{move.label}: {action} refused: {err}") from err
                built += 1
    return built


def test_every_move_is_accepted_and_every_recorded_action_offered() -> None:
    built = checked = 0
    for state, action in steps():
        built += check_moves(state)
        if action is None or action.get("do") not in ACTIONS:
            continue
        try:
            engine.decide(state, action, 1.0)
        except IllegalAction:
            continue
        parsed = ACTIONS.parse(action).to_json()
        if closed(parsed):
            moves = engine.moves(state, sender(parsed))
            assert offered(moves, parsed), f"{parsed} accepted but not offered"
            checked += 1
    assert built > 1000 and checked > 200, (built, checked)


@pytest.mark.parametrize("seed", range(6))
def test_random_games_played_from_moves(seed: int) -> None:
    rng = random.Random(seed)
    state = engine.new_game(Setup(("Ann", "Ben", "Cy"), {"draw_rule": "free"}))
    for card, seat in (("mob_01", 0), ("mob_02", 1), ("mob_03", 2)):
        state, _ = engine.run(state, {"do": "take_mob", "seat": seat, "card": card}, 0.0)
    stats = {"power": 3, "resistance": 2, "income": 3, "name": "Someone"}
    n = 0
    for seat in range(3):
        for _ in range(2):
            n += 1
            card = f"crook_{n:02d}"
            state, _ = engine.run(state, {"do": "buy", "seat": seat, "card": card, "price": 0,
                                          "stats": {**stats, "power": 1 + (n % 5)}}, 0.0)
        state, _ = engine.run(state, {"do": "buy", "seat": seat, "card": f"racket_{seat + 1:02d}",
                                      "price": 0, "stats": stats}, 0.0)
    for step in range(400):
        check_moves(state)
        options = [(seat, m) for seat in (None, *range(3)) for m in engine.moves(state, seat)
                   if m.allowed and m.do not in ("leave",)]
        if not options:
            break
        _, move = rng.choice(options)
        action = rng.choice(list(move.actions(limit=40)))
        if action["do"] == "draw" and not state.known(action["card"]):
            action["stats"] = stats
        state, _ = engine.run(state, action, float(step))
        if state.pending is not None:
            state, _ = engine.run(state, {"do": "stats", "seat": state.pending[0],
                                          "card": state.pending[1], "stats": stats}, float(step))
