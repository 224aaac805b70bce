"""The engine contract, checked over every engine in ``games.available()``.

- every event type survives a JSON round trip (built from its type hints, and every
  event that the game's recorded games produce);
- ``public_view`` and every ``seat_view`` serialise to JSON at every step of every
  recorded game and in a new game of every seat count;
- no seat's view carries another seat's private keys, and the public view carries none;
- the engine object is well formed (names, seats, options, event types, catalog).
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.games.base import IllegalAction, Setup
from companion.games.codec import event_from_json, event_to_json
from companion.games.engine import AnyEngine
from companion.records import parse_header
from companion.session import Session

ROOT = Path(__file__).resolve().parents[2]
ENGINES = list(games.ENGINES)
IDS = [e.name for e in ENGINES]


def records_of(game: str) -> list[Path]:
    paths = sorted((ROOT / "tests" / "records").glob("*/*.jsonl"))
    paths += sorted((ROOT / "companion" / "demos").glob("*.jsonl"))
    return [p for p in paths if games.canonical(parse_header(json.loads(_lines(p)[0])).game)
            == game]


def _lines(path: Path) -> list[str]:
    return [x for x in path.read_text(encoding="utf-8").splitlines()
            if x.strip() and not x.lstrip().startswith("#")]


def sessions(engine: AnyEngine) -> Iterator[Session]:
    """A session after every step of every recorded game of ``engine`` (refusals skipped)."""
    for path in records_of(engine.name):
        lines = _lines(path)
        header = parse_header(json.loads(lines[0]))
        session = Session.start(engine, header.setup())
        yield session
        for raw in lines[1:]:
            action = json.loads(raw)
            t = float(action.pop("t"))
            session, _ = session.preview_deadlines(t)
            try:
                session, _ = session.preview(action, t)
            except IllegalAction:
                continue
            yield session


# --- events ---------------------------------------------------------------------------


def sample(hint: Any, depth: int = 0) -> Any:
    """A value of type ``hint`` (enough to build any event dataclass)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is bool:
        return True
    if hint is int:
        return 2
    if hint is float:
        return 1.5
    if hint is str:
        return "x"
    if hint is Any or hint is object:
        return "any"
    if hint is type(None):
        return None
    if origin is typing.Literal:
        return args[0]
    if origin in (typing.Union, types.UnionType):
        return sample(next(a for a in args if a is not type(None)), depth)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return (sample(args[0], depth + 1),)
        return tuple(sample(a, depth + 1) for a in args)
    if origin in (list,):
        return [sample(args[0], depth + 1)] if args else []
    if origin in (dict, Mapping):
        return {"k": sample(args[1], depth + 1)} if args else {}
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return next(iter(hint))
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        return build(hint, depth + 1)
    raise AssertionError(f"no sample for {hint!r}")


def build(cls: type, depth: int = 0) -> Any:
    hints = typing.get_type_hints(cls)
    return cls(**{f.name: sample(hints[f.name], depth) for f in dataclasses.fields(cls)})


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_every_event_type_round_trips_through_json(engine: AnyEngine) -> None:
    assert engine.event_types, f"{engine.name} declares no event types"
    for name, cls in engine.event_types.items():
        assert cls.__name__ == name
        event = build(cls)
        stored = json.loads(json.dumps(event_to_json(event)))
        assert event_from_json(engine.event_types, *stored) == event, name


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_recorded_events_round_trip_and_cover_most_types(engine: AnyEngine) -> None:
    seen: set[str] = set()
    for session in sessions(engine):
        for batch in session.batches[-1:]:
            for event in batch.events:
                stored = json.loads(json.dumps(event_to_json(event)))
                assert event_from_json(engine.event_types, *stored) == event
                seen.add(type(event).__name__)
    assert seen <= set(engine.event_types), seen - set(engine.event_types)
    assert seen, f"no recorded game of {engine.name} produced an event"


# --- views ----------------------------------------------------------------------------


def private_keys(engine: AnyEngine, state: Any, n: int) -> set[str]:
    """Keys only seat views have: their own top-level keys and every key nested in them
    that the public view never uses (``seat``, which names the owner, aside)."""
    public = engine.public_view(state)
    public_keys = {k for node in walk(public) for k in node}
    keys: set[str] = set()
    for seat in range(n):
        view = engine.seat_view(state, seat)
        for key, value in view.items():
            if key not in public or public[key] != value:
                keys |= ({key} | {k for node in walk(value) for k in node}) - public_keys
    return keys - {"seat"}


def walk(value: Any) -> Iterator[Mapping[str, Any]]:
    if isinstance(value, Mapping):
        yield value
        for v in value.values():
            yield from walk(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from walk(v)


def check_views(engine: AnyEngine, state: Any, n: int, private: set[str]) -> None:
    public = engine.public_view(state)
    json.dumps(public, allow_nan=False)
    for node in walk(public):
        leaked = private & set(node)
        assert not leaked, f"the public view carries private keys {leaked}"
    for seat in range(n):
        view = engine.seat_view(state, seat)
        json.dumps(view, allow_nan=False)
        for node in walk(view):
            owner = node.get("seat")
            if node is view or not isinstance(owner, int) or owner == seat:
                continue
            leaked = private & set(node)
            assert not leaked, f"seat {seat} sees seat {owner}'s private keys {leaked}"


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_views_are_json_and_private_keys_stay_with_their_seat(engine: AnyEngine) -> None:
    steps = 0
    for session in sessions(engine):
        n = session.setup.n_seats
        check_views(engine, session.state, n, private_keys(engine, session.state, n))
        steps += 1
    for n in range(engine.min_seats, engine.max_seats + 1):
        state = engine.new_game(Setup(tuple(f"P{i}" for i in range(n))))
        check_views(engine, state, n, private_keys(engine, state, n))
    assert steps > 1


# --- the engine object ----------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_engine_object_is_well_formed(engine: AnyEngine) -> None:
    assert games.get(engine.name) is engine
    assert engine.title and engine.name == games.normalise(engine.name)
    assert 1 <= engine.min_seats <= engine.max_seats
    engine.check_options({})
    assert engine.catalog.cards, f"{engine.name} has no cards"
    assert engine.catalog.game == engine.name
    state = engine.new_game(Setup(tuple(f"P{i}" for i in range(engine.min_seats))))
    assert json.dumps(engine.state_json(state))
    assert engine.outcome(state) is None


def test_registry_is_the_four_games() -> None:
    assert [e.name for e in games.ENGINES] == ["nasty7", "illegal", "casablanca", "crime_lords"]
    assert set(games.available()) >= set(IDS)


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_every_event_of_the_union_can_be_loaded(engine: AnyEngine) -> None:
    """An event type missing from ``EVENT_TYPES`` is stored but cannot be read back."""
    import importlib

    module = importlib.import_module(f"companion.games.{engine.name}.events")
    union = {cls.__name__ for cls in typing.get_args(module.Event)}
    assert union == set(engine.event_types), sorted(union ^ set(engine.event_types))
