"""Every refusal a player can meet reads as a sentence: no JSON, no keys, no ids.

The refusals come from the states the recorded games and the random games built from
``moves()`` reach: the recorded lines the rules refused, every move that is not allowed
now, every allowed move sent by another seat, and wrong or missing values in every
action of the game. A reason fails when it contains ``{``, ``"do"``, one of the game's
action or field names in quotes, a card id (``crook_07``, ``twin_racketeer``), a
snake_case word, or a seat counted from 0.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any

import pytest

from companion import games
from companion.games.actions import fields_of
from companion.games.engine import AnyEngine
from companion.session import Session
from tests.games.walk import PARTS, all_moves, parts, random_game, recorded_steps, refusal

ENGINES = list(games.ENGINES)
IDS = [e.name for e in ENGINES]
#: wrong values every field is sent with
WRONG = ({"x": [1, {"y": None}]}, {}, -1e-300, "", "crook_07", 10**12, [1, 2], True)
#: how many states of each engine are probed (spread over the recorded and random games)
STATES = 120

_SNAKE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")
_ZERO_SEAT = re.compile(r"\b(?:[Ss]eat|[Pp]layer) 0\b")


def problems_of(engine: AnyEngine, reason: str) -> list[str]:
    """What is wrong with ``reason`` as a sentence a player reads."""
    assert engine.actions is not None
    out = []
    if "{" in reason or "}" in reason:
        out.append("contains a brace")
    if '"do"' in reason:
        out.append('contains "do"')
    names = _names(engine)
    quoted = re.findall(r"[\"'\u2018\u201c]([a-z_]+)[\"'\u2019\u201d]", reason)
    keys = [q for q in quoted if q in names]
    if keys:
        out.append(f"names keys {keys}")
    ids = [w for w in _SNAKE.findall(reason)]
    if ids:
        out.append(f"contains ids {ids}")
    if _ZERO_SEAT.search(reason):
        out.append("counts a seat from 0")
    return out


@functools.cache
def _names(engine: AnyEngine) -> frozenset[str]:
    """Every action's name and every field's key of ``engine`` (the same for every reason)."""
    assert engine.actions is not None
    return frozenset({k.do for k in engine.actions}
                     | {f.key for k in engine.actions for f in fields_of(k)})


@functools.cache
def _states(engine: AnyEngine) -> list[tuple[Session, float]]:
    """The states probed (computed once per test process: the six parts share them)."""
    recorded = [(s.session, s.t) for s in recorded_steps(engine)]
    randoms = [st for n in range(engine.min_seats, engine.max_seats + 1)
               for st in random_game(engine, n, 7 + n, 80).states]
    every = recorded + randoms
    stride = max(1, len(every) // STATES)
    return every[::stride]


def _probes(engine: AnyEngine, state: Any, n: int) -> Iterator[dict[str, Any]]:
    """Actions a careless or hostile phone or host could send now."""
    assert engine.actions is not None
    for _, move in all_moves(engine, state, n):
        for i, action in enumerate(move.actions(limit=6)):
            yield action
            if "seat" in action:
                for other in range(n):
                    yield {**action, "seat": other}
            if i == 0:  # one wrong value at a time in an otherwise complete action
                for key in action:
                    if key != "do":
                        for wrong in WRONG:
                            yield {**action, key: wrong}
    for kind in engine.actions:
        yield {"do": kind.do}
        for f in fields_of(kind):
            for wrong in WRONG:
                yield {"do": kind.do, f.key: wrong}
    yield {"do": "no_such_action"}
    yield {"amounts": [{"agent": "red"}]}


#: every recorded state (or a long random game): CI and ./run test; not --quick
@pytest.mark.slow
@pytest.mark.parametrize(("engine", "part"), parts(ENGINES))
def test_every_reachable_refusal_is_a_sentence(engine: AnyEngine, part: int) -> None:
    bad: dict[str, str] = {}
    seen = 0
    for step in recorded_steps(engine, part, PARTS):
        if not step.accepted:
            reason = refusal(engine, step.session.state, step.action, step.t) or ""
            for p in problems_of(engine, reason):
                bad.setdefault(reason, f"{step.where}: {p}")
            seen += 1
    for session, t in _states(engine)[part::PARTS]:
        for action in _probes(engine, session.state, session.setup.n_seats):
            reason = refusal(engine, session.state, action, t)
            if reason is None:
                continue
            seen += 1
            for p in problems_of(engine, reason):
                bad.setdefault(reason, f"{action}: {p}")
    assert seen > 100
    listing = "\n".join(f"- {r!r} ({why})" for r, why in list(bad.items())[:25])
    assert not bad, f"{len(bad)} refusals a player cannot read:\n{listing}"


def test_the_check_catches_keys_ids_braces_and_seat_zero() -> None:
    from tests.core import tally

    engine = tally.engine
    assert problems_of(engine, 'A bribe needs a list like [{"agent": "red"}]')
    assert problems_of(engine, "'add' is not allowed now.")
    assert problems_of(engine, 'Send "value" as a number.')
    assert problems_of(engine, "Give crook_07 back.")
    assert problems_of(engine, "Seat 0 must play.")
    assert not problems_of(engine, "Ben must play a card first: it is his turn.")
