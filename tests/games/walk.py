"""Every state the recorded games reach, and random games driven by ``moves()`` alone.

Shared by the move property test (``test_moves.py``) and the refusal wording test
(``test_refusals.py``): ``recorded_steps`` replays every record of ``tests/records/`` (and
the demos) through a ``Session`` and yields each state with the line that follows it;
``random_games`` plays games whose every action is built from ``engine.moves``.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion import games
from companion.games.base import IllegalAction
from companion.games.engine import AnyEngine
from companion.games.moves import Move
from companion.records import VERSION, _as_read_then, parse_header
from companion.session import Session

ROOT = Path(__file__).resolve().parents[2]


#: the walks over every recorded state are split into this many test cases per game, so
#: that no one case runs for minutes on a loaded Raspberry Pi or under emulation (the
#: per-test safety net is 600 s; a whole game's walk took 4 minutes here under load)
PARTS = 6


def records_of(game: str, part: int = 0, of: int = 1) -> list[Path]:
    """Every record of ``game``: tests/records (the frozen v1 set included) and the demo;
    with ``of`` > 1, only part ``part`` of them (the parts hold about as many lines)."""
    paths = sorted((ROOT / "tests" / "records").glob("**/*.jsonl"))
    paths += sorted((ROOT / "companion" / "demos").glob("*.jsonl"))
    mine = [p for p in paths if games.canonical(parse_header(json.loads(lines(p)[0])).game)
            == game]
    if of == 1:
        return mine
    bins: list[list[Path]] = [[] for _ in range(of)]
    sizes = [0] * of
    for path in sorted(mine, key=lambda p: (-len(lines(p)), p.name)):
        lightest = sizes.index(min(sizes))
        bins[lightest].append(path)
        sizes[lightest] += len(lines(path))
    return sorted(bins[part])


def parts(engines: list[AnyEngine], of: int = PARTS) -> list[Any]:
    """``pytest.param(engine, part)`` for every part of every engine's records."""
    import pytest

    return [pytest.param(e, k, id=f"{e.name}-{k + 1}of{of}")
            for e in engines for k in range(of)]


def lines(path: Path) -> list[str]:
    return [x for x in path.read_text(encoding="utf-8").splitlines()
            if x.strip() and not x.lstrip().startswith("#")]


@dataclass(frozen=True)
class Step:
    """A state reached by a record, the next line's action and time, and whether the
    rules accepted that line."""

    where: str
    session: Session
    action: dict[str, Any]
    t: float
    accepted: bool
    #: the record's format version (an older record is read with its own meaning)
    version: int = VERSION


@dataclass(frozen=True)
class Replay:
    """One record replayed once: its steps (``recorded_steps``) and every session it goes
    through (the start, then after each line the rules accepted, undo and time included)."""

    steps: tuple[Step, ...]
    sessions: tuple[Session, ...]


#: Every walk reads the records through this one replay per record and test process
#: (an xdist worker replays only the records its tests ask for). Bounded: all 196
#: records and the demos, 8,337 steps with their sessions, hold about 36 MB (tracemalloc,
#: 2026-11-28); sessions are immutable, so sharing them between tests is safe.
@functools.cache
def replay(path: Path) -> Replay:
    text = lines(path)
    header = parse_header(json.loads(text[0]))
    engine = games.get(games.canonical(header.game))
    try:
        session = Session.start(engine, header.setup())
    except ValueError:
        return Replay((), ())  # a record whose header is refused on purpose
    steps: list[Step] = []
    sessions = [session]
    for n, raw in enumerate(text[1:], start=2):
        action = json.loads(raw)
        t = float(action.pop("t"))
        if header.version < VERSION:
            action = _as_read_then(engine, header.version, action)
        session, _ = session.preview_deadlines(t)
        if action.get("do") in ("undo", "time"):
            session, _ = session.preview(action, t)
            sessions.append(session)
            continue
        try:
            after, _ = session.preview(action, t)
        except IllegalAction:
            steps.append(Step(f"{path.name}:{n}", session, action, t, False, header.version))
            continue
        steps.append(Step(f"{path.name}:{n}", session, action, t, True, header.version))
        session = after
        sessions.append(session)
    return Replay(tuple(steps), tuple(sessions))


def recorded_steps(engine: AnyEngine, part: int = 0, of: int = 1) -> Iterator[Step]:
    """Each state of each recorded game of ``engine`` (or of part ``part`` of ``of`` of
    them), with the action that follows it (from the shared ``replay``)."""
    for path in records_of(engine.name, part, of):
        yield from replay(path).steps


def refusal(engine: AnyEngine, state: Any, action: dict[str, Any], t: float) -> str | None:
    """None when ``decide`` accepts ``action`` (parsed as the table parses it), else why not."""
    try:
        engine.decide(state, engine.parse(action), t)
    except IllegalAction as exc:
        return exc.reason
    return None


def senders(n_seats: int) -> list[int | None]:
    """Every seat, then the host (``None``)."""
    return [*range(n_seats), None]


def all_moves(engine: AnyEngine, state: Any, n_seats: int) -> list[tuple[int | None, Move]]:
    """Every move of every seat and of the host."""
    return [(who, m) for who in senders(n_seats) for m in engine.moves(state, who)]


@dataclass
class Walk:
    """One random game: its states, and the actions built from moves that were refused."""

    states: list[tuple[Session, float]]
    refused: list[str]
    #: the indexes of ``states`` where a sender the table waited on had an allowed move
    #: (found while choosing the next action: test_dead_ends need not ask again)
    acted: set[int] = field(default_factory=set)


def random_game(engine: AnyEngine, n_seats: int, seed: int, steps: int = 150) -> Walk:
    """A game whose every action is one ``moves()`` offered: prefer the seats the table
    waits for; deliver deadlines when nobody may act; stop at the end or when stuck."""
    rng = random.Random(seed)
    session = Session.start(engine, _setup(engine, n_seats, seed))
    t, walk = 0.0, Walk([], [])
    for _ in range(steps):
        walk.states.append((session, t))
        if engine.outcome(session.state) is not None:
            break
        choices, waited = _candidates(engine, session.state, n_seats)
        if waited:
            walk.acted.add(len(walk.states) - 1)
        if not choices:
            due = session.next_deadline()
            if due is None:
                break
            t = max(t, due)
            session, _ = session.preview_deadlines(t)
            continue
        who, move = rng.choice(choices)
        actions = list(move.actions(limit=60))
        if not actions:
            continue
        action = rng.choice(actions)
        t += rng.choice((0.3, 0.8, 1.5))
        session, _ = session.preview_deadlines(t)
        try:
            session, _ = session.preview(action, t)
        except IllegalAction as exc:
            walk.refused.append(f"seed {seed}, {who}: {action} refused: {exc}")
    return walk


def _setup(engine: AnyEngine, n_seats: int, seed: int) -> Any:
    from companion.games.base import Setup

    return Setup(tuple(f"P{i + 1}" for i in range(n_seats)), {}, seed)


def _candidates(engine: AnyEngine, state: Any,
                n_seats: int) -> tuple[list[tuple[int | None, Move]], bool]:
    """The moves to choose from, and whether they are the waited-on senders' own."""
    waiting = engine.waiting(state)
    wanted: list[int | None] = list(waiting.seats) + ([None] if waiting.host else [])
    # the waited-on senders' moves first (in all_moves' order), every sender's only when
    # none of them may act: the same choices, without asking every seat every step
    first = [(w, m) for w in senders(n_seats) if w in wanted
             for m in engine.moves(state, w) if m.allowed and m.do != "undo"]
    if first:
        return first, True
    return [(w, m) for w, m in all_moves(engine, state, n_seats) if m.allowed], False
