"""No dead ends: whenever a game is not over, someone the table waits on can act.

The property, for every engine, over random games built from ``moves()`` alone (every
seat count) and over every recorded state: when ``outcome`` is ``None``, at least one
of the senders ``waiting()`` names has an allowed move, or a deadline is due (the
clock will act). A table that waits on the camera (``on == "camera"``: a card must
land) must still let the host go on without it: the host then has an allowed move
(entering the card by hand).

A state that fails is a table where everybody looks at the screen and nothing can be
tapped: the game is lost to a rules bug. The random games here use their own seeds,
apart from those of ``test_moves`` (which checks that each move is accepted).
"""

from __future__ import annotations

from typing import Any

import pytest

from companion import games
from companion.games.engine import AnyEngine
from companion.games.moves import Waiting
from companion.records import VERSION
from tests.games.walk import PARTS, parts, random_game, records_of, replay

ENGINES = list(games.ENGINES)
#: random games per engine, spread over its seat counts (--quick plays the first
#: QUICK of them); and their length
GAMES = 240
QUICK = 24
STEPS = 150
#: this file's seeds: apart from test_moves' (seed * 100 + seats)
SEED_BASE = 7_000_003


def waited_on(waiting: Waiting) -> list[int | None]:
    """The senders the table waits on: its seats, and the host (``None``) when named or
    when the table waits on the camera (the host enters what the camera missed)."""
    host = waiting.host or waiting.on == "camera"
    return [*waiting.seats, *([None] if host else [])]


def dead_end(engine: AnyEngine, state: Any) -> str | None:
    """Why ``state`` is a dead end (nobody the table waits on can act), or None."""
    if engine.outcome(state) is not None or engine.next_deadline(state) is not None:
        return None
    waiting = engine.waiting(state)
    senders = waited_on(waiting)
    for who in senders:
        if any(m.allowed for m in engine.moves(state, who)):
            return None
    names = ", ".join("the host" if w is None else f"seat {w}" for w in senders) or "nobody"
    return (f"the table waits ({waiting.on}: {waiting.why!r}) on {names}, "
            "and none of them has an allowed move")


def _games(engine: AnyEngine, part: int, of: int) -> list[tuple[int, int]]:
    """(seats, seed) of this part's random games: every seat count, GAMES in all."""
    counts = list(range(engine.min_seats, engine.max_seats + 1))
    every = [(counts[i % len(counts)], SEED_BASE + i) for i in range(GAMES)]
    return every[part::of]


def _check_games(engine: AnyEngine, chosen: list[tuple[int, int]]) -> None:
    problems: list[str] = []
    states = 0
    for n, seed in chosen:
        walk = random_game(engine, n, seed, STEPS)
        for i, (session, _t) in enumerate(walk.states):
            states += 1
            if i in walk.acted:
                continue  # a sender it waits on had an allowed move: the walk took one
            why = dead_end(engine, session.state)
            if why is not None:
                problems.append(f"{n} players, seed {seed}, after {len(session.batches)} "
                                f"steps: {why}")
                break  # one per game: the walk stops there anyway
    assert states > 10 * len(chosen), "the random games made no progress"
    assert not problems, f"{len(problems)} dead ends, first ones:\n" + "\n".join(problems[:8])


@pytest.mark.parametrize("engine", ENGINES, ids=[e.name for e in ENGINES])
def test_a_few_random_games_never_reach_a_dead_end(engine: AnyEngine) -> None:
    _check_games(engine, [(n, seed) for n, seed in _games(engine, 0, 1)][:QUICK])


#: hundreds of games per engine: CI and ./run test; not --quick
@pytest.mark.slow
@pytest.mark.parametrize(("engine", "part"), parts(ENGINES))
def test_random_games_never_reach_a_dead_end(engine: AnyEngine, part: int) -> None:
    _check_games(engine, _games(engine, part, PARTS)[QUICK // PARTS:])


#: every recorded state: CI and ./run test; not --quick
@pytest.mark.slow
@pytest.mark.parametrize(("engine", "part"), parts(ENGINES))
def test_no_recorded_state_is_a_dead_end(engine: AnyEngine, part: int) -> None:
    problems = []
    checked = 0
    paths = records_of(engine.name, part, PARTS)
    for path in paths:
        done = replay(path)
        if done.steps and done.steps[0].version < VERSION:
            continue  # replayed with an older release's meaning, its dead ends included
        for i, session in enumerate(done.sessions):
            checked += 1
            why = dead_end(engine, session.state)
            if why is not None:
                problems.append(f"{path.name}, after {i} lines: {why}")
    assert checked > 0 or paths, "no record to check"
    assert not problems, f"{len(problems)} dead ends, first ones:\n" + "\n".join(problems[:8])


def test_the_property_sees_a_dead_end() -> None:
    """A state where the table waits on a seat that has nothing allowed is reported; the
    same state with a deadline due, or with one allowed move, is not."""
    from dataclasses import replace

    from companion.games.moves import Move

    engine = games.get("nasty7")
    state = engine.new_game(_setup(engine, 3))
    nothing = replace(engine, moves=lambda s, who: [], next_deadline=lambda s: None,
                      waiting=lambda s: Waiting((1,), "turn", "P2's turn."))
    assert dead_end(nothing, state) is not None
    assert dead_end(replace(nothing, next_deadline=lambda s: 5.0), state) is None
    one = Move("accuse", "Accuse", {})
    assert dead_end(replace(nothing, moves=lambda s, who: [one] if who == 1 else []),
                    state) is None
    # waiting on the camera: the host must be able to enter the card
    camera = replace(nothing, waiting=lambda s: Waiting((1,), "camera", "P2 plays."))
    assert dead_end(camera, state) is not None
    assert dead_end(replace(camera, moves=lambda s, who: [one] if who is None else []),
                    state) is None


def _setup(engine: AnyEngine, n: int) -> Any:
    from companion.games.base import Setup

    return Setup(tuple(f"P{i + 1}" for i in range(n)), {}, 1)
