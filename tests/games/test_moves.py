"""``moves()`` and ``decide`` in step, for every engine (python-chess's legal_moves test).

Over every state reached by every recorded game and by random games driven by moves():

- every complete action built from an allowed move is accepted by ``decide``;
- every recorded action of a seat or the host that ``decide`` accepted, whose fields are
  all closed (no ``Spec(open=True)`` field), is offered by one of its sender's moves;
- every move is well formed: labels in words, a reason when it is not allowed, params
  with choices (or bounds), fixed values of the action's own fields.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion import games
from companion.games.actions import GameAction, fields_of
from companion.games.engine import AnyEngine
from companion.games.moves import Move
from companion.records import VERSION
from tests.games.crime_lords.test_moves import never_seen
from tests.games.walk import PARTS, all_moves, parts, random_game, recorded_steps, refusal

ENGINES = list(games.ENGINES)
IDS = [e.name for e in ENGINES]
#: random games per seat count, and their length
SEEDS = 3
STEPS = 150


def remembering(engine: AnyEngine) -> AnyEngine:
    """``engine`` with ``moves(state, who)`` computed once per state (for one random game):
    the walk asks the waited-on senders' moves to choose its next action, and the checks
    ask every sender's moves of the same state again. States are immutable and kept alive
    by the cache, so an ``id`` names one state while it is there."""
    import dataclasses

    told: dict[tuple[int, int | None], tuple[Any, list[Move]]] = {}
    ask = engine.moves

    def moves(state: Any, who: int | None) -> list[Move]:
        kept = told.get((id(state), who))
        if kept is not None and kept[0] is state:
            return kept[1]
        out = ask(state, who)
        told[(id(state), who)] = (state, out)
        return out

    return dataclasses.replace(engine, moves=moves)


def _check_moves(engine: AnyEngine, state: Any, n: int, t: float, where: str) -> list[str]:
    problems = []
    for who, move in all_moves(engine, state, n):
        problems += [f"{where}: {p}" for p in _shape(engine, move)]
        if not move.allowed:
            continue
        for action in move.actions(limit=40):
            refused = refusal(engine, state, action, t)
            if refused is not None:
                problems.append(f"{where}: {'host' if who is None else f'seat {who}'} was "
                                f"offered {action} but decide refused it: {refused}")
    return problems


def _shape(engine: AnyEngine, move: Move) -> list[str]:
    assert engine.actions is not None
    kind = engine.actions.kinds.get(move.do)
    if kind is None:
        return [f"a move names an unknown action {move.do!r}"]
    names = {f.key for f in fields_of(kind)}
    out = []
    if not move.label or "_" in move.label:
        out.append(f"move {move.do} has no label in words: {move.label!r}")
    if not move.allowed and not move.why:
        out.append(f"move {move.label!r} is not allowed but says no why")
    for key in [*move.fixed, *(p.name for p in move.params)]:
        if key not in names:
            out.append(f"move {move.do} sets {key!r}, which the action does not have")
    for p in move.params:
        if p.kind in ("one", "some", "split") and not p.choices and move.allowed:
            out.append(f"move {move.label!r}: parameter {p.name!r} offers no choice")
        if not p.label or any(not c.label or "_" in c.label for c in p.choices):
            out.append(f"move {move.label!r}: parameter {p.name!r} has a choice without words")
    return out


def _closed(kind: type[GameAction], action: dict[str, Any]) -> bool:
    return not any(f.spec.open and action.get(f.key) is not None for f in fields_of(kind))


#: every recorded state (or a long random game): CI and ./run test; not --quick
@pytest.mark.slow
@pytest.mark.parametrize(("engine", "part"), parts(ENGINES))
def test_every_move_of_every_recorded_state_is_accepted(engine: AnyEngine, part: int) -> None:
    problems: list[str] = []
    steps = 0
    for step in recorded_steps(engine, part, PARTS):
        steps += 1
        problems += _check_moves(engine, step.session.state, step.session.setup.n_seats,
                                 step.t, step.where)
    assert steps > 10
    assert not problems, f"{len(problems)} problems, first ones:\n" + "\n".join(problems[:12])


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_every_accepted_recorded_action_is_offered(engine: AnyEngine) -> None:
    assert engine.actions is not None
    problems, checked = [], 0
    for step in recorded_steps(engine):
        kind = engine.actions.kinds.get(str(step.action.get("do")))
        if not step.accepted or kind is None or kind.by == "table" or step.version < VERSION:
            continue  # an older record follows its own format's meaning, not today's moves
        if not _closed(kind, step.action):
            continue
        state, n = step.session.state, step.session.setup.n_seats
        if engine.name == "crime_lords" and never_seen(state, dict(step.action)):
            continue  # a card never seen is named by its tag; by hand it is "a new Crook"
        seat = step.action.get("seat")
        who: list[int | None] = [None] if kind.by == "host" else (
            [seat] if isinstance(seat, int) else [*range(n), None])
        offered = any(m.offers(step.action) for w in who for m in engine.moves(state, w))
        checked += 1
        if not offered:
            problems.append(f"{step.where}: {step.action} was accepted but no move offers it")
    assert checked > 0, f"no recorded {engine.name} action of a seat or the host was checked"
    assert not problems, f"{len(problems)} problems, first ones:\n" + "\n".join(problems[:12])


#: every recorded state (or a long random game): CI and ./run test; not --quick
@pytest.mark.slow
@pytest.mark.parametrize(("engine", "n"), [
    pytest.param(e, n, id=f"{e.name}-{n}seats")
    for e in ENGINES for n in range(e.min_seats, e.max_seats + 1)])
def test_random_games_built_from_moves_are_accepted(engine: AnyEngine, n: int) -> None:
    problems: list[str] = []
    played = 0
    for seed in range(SEEDS):
        same = remembering(engine)  # the walk's moves are the checks' moves: asked once
        walk = random_game(same, n, seed * 100 + n, STEPS)
        problems += walk.refused
        for session, t in walk.states:
            problems += _check_moves(same, session.state, n, t, f"random {n}/{seed}")
        played += len(walk.states)
    assert played > 20, "the random games made no progress from moves() alone"
    assert not problems, f"{len(problems)} problems, first ones:\n" + "\n".join(problems[:12])


def test_the_checks_can_fail() -> None:
    """A move offering a number the rules refuse, or a move without words, is reported;
    an accepted action no move offers is not offered."""
    import dataclasses

    from companion.games.base import Setup
    from companion.games.moves import Choice, Param
    from tests.core import tally

    too_much = Param("n", "How much?", choices=(Choice(10, "ten"),))
    bad = Move("add", "Add ten", {"seat": 0}, (too_much,))
    nameless = Move("add", "add_ten", {"seat": 0}, allowed=False)
    engine = dataclasses.replace(tally.engine, moves=lambda state, who: [bad, nameless])
    state = engine.new_game(Setup(("A", "B")))
    problems = _check_moves(engine, state, 2, 0.0, "tally")
    assert any("decide refused it" in p for p in problems)
    assert any("no label in words" in p for p in problems)
    assert any("says no why" in p for p in problems)
    assert not bad.offers({"do": "add", "seat": 0, "n": 3})
    good = tally.engine
    assert not _check_moves(good, good.new_game(Setup(("A", "B"))), 2, 0.0, "tally")


@pytest.mark.parametrize("seed", range(2))
def test_every_move_of_the_illegal_random_hands_is_accepted(seed: int) -> None:
    """The random hands of tests/games/illegal/test_sim.py (a physical table with hidden
    hands, its own fuzzer) walked through moves(): every state they reach."""
    from companion.session import Session
    from tests.games.illegal.test_sim import Table as SimTable

    engine = games.get("illegal")
    sim = SimTable(2 + seed, seed, {})
    sim.play_hand()
    session, problems = Session.start(engine, sim.setup), []
    for i, action in enumerate(sim.actions):
        t = 4.0 * (i + 1)
        problems += _check_moves(engine, session.state, sim.setup.n_seats, t, f"sim {seed}:{i}")
        session, _ = session.preview(action, t)
    assert len(sim.actions) > 10
    assert not problems, f"{len(problems)} problems, first ones:\n" + "\n".join(problems[:12])


def test_text_and_fields_params_build_and_hold_their_values() -> None:
    from companion.games.moves import Param

    power = Param("power", "Power?", "number", minimum=0, maximum=6)
    name = Param("name", "Name on the card?", "text", minimum=1, maximum=40, fewest=0)
    stats = Param("stats", "The card's stats", "fields", fields=(power, name))
    assert stats.samples() == [{"power": 0}, {"power": 6, "name": "Slim"}]
    assert all(stats.holds(v) for v in stats.samples())
    assert not stats.holds({"power": 7}) and not stats.holds({"name": "A"})
    assert not stats.holds({"power": 1, "colour": "red"})
    assert not name.holds("") and not name.holds("x" * 41) and name.holds("Big Tony")
    assert stats.to_json()["fields"][1]["kind"] == "text"


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_the_parts_hold_every_record_once(engine: AnyEngine) -> None:
    """The walks split in ``PARTS`` test cases still walk every record, each once."""
    from tests.games.walk import records_of

    every = records_of(engine.name)
    split = [p for k in range(PARTS) for p in records_of(engine.name, k, PARTS)]
    assert sorted(split) == sorted(every) and len(every) >= PARTS
    assert all(records_of(engine.name, k, PARTS) for k in range(PARTS))
