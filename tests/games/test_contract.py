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
from companion.games.moves import SEAT_VIEW_KEYS
from companion.records import parse_header
from companion.session import Session
from tests.games.walk import parts, replay

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


def sessions(engine: AnyEngine, part: int = 0, of: int = 1) -> Iterator[Session]:
    """A session after every step of every recorded game of ``engine`` (refusals skipped);
    with ``of`` > 1, of every ``of``-th record from the ``part``-th. Read from the walks'
    shared replay (``tests/games/walk.py``), which replays each record once per run."""
    for path in records_of(engine.name)[part::of]:
        yield from replay(path).sessions


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
    """Keys only seats' secrets have: every key nested in them that the public view
    never uses (``seat``, which names the owner, aside)."""
    public = engine.public_view(state)
    public_keys = {k for node in walk(public) for k in node}
    keys: set[str] = set()
    for seat in range(n):
        secrets = engine.secrets(state, seat)
        keys |= {k for node in walk(secrets) for k in node} - public_keys
    return keys - {"seat"}


def walk(value: Any) -> list[Mapping[str, Any]]:
    """Every mapping nested in ``value`` (itself included), outermost first. Iterative:
    a recursive generator here was half of the views test's time."""
    found: list[Mapping[str, Any]] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, Mapping):
            found.append(v)
            stack.extend(v.values())
        elif isinstance(v, list | tuple):
            stack.extend(v)
    return found


def check_views(engine: AnyEngine, state: Any, n: int, private: set[str]) -> None:
    public = engine.public_view(state)
    json.dumps(public, allow_nan=False)
    for node in walk(public):
        leaked = private & set(node)
        assert not leaked, f"the public view carries private keys {leaked}"
    table = engine.table_view(state)
    json.dumps(table, allow_nan=False)
    for node in walk(table):
        leaked = private & set(node)
        assert not leaked, f"the table view carries private keys {leaked}"
    for seat in range(n):
        view = engine.seat_view(state, seat)
        json.dumps(view, allow_nan=False)
        check_envelope(engine, state, view, seat, n, public)
        for node in walk(view):
            owner = node.get("seat")
            if node is view or not isinstance(owner, int) or owner == seat:
                continue
            leaked = private & set(node)
            assert not leaked, f"seat {seat} sees seat {owner}'s private keys {leaked}"


def check_envelope(engine: AnyEngine, state: Any, view: Mapping[str, Any], seat: int,
                   n: int, public: Any = None) -> None:
    """The one seat-view shape, the same for every game (``companion.games.moves``)."""
    assert tuple(view) == SEAT_VIEW_KEYS, f"{engine.name}: seat view keys {list(view)}"
    assert view["seat"] == seat
    attention = view["attention"]
    assert set(attention) == {"act", "on", "why"} and isinstance(attention["act"], bool)
    assert isinstance(attention["on"], str) and isinstance(attention["why"], str)
    waiting = engine.waiting(state)
    assert attention["act"] == (seat in waiting.seats), "attention must follow waiting()"
    assert all(0 <= s < n for s in waiting.seats), f"waiting names seats {waiting.seats}"
    assert waiting.why, f"{engine.name}: waiting() says no why"
    if attention["act"]:
        assert any(m["allowed"] for m in view["moves"]) or waiting.on in ("camera", "reveal"), (
            f"{engine.name}: seat {seat} must act ({waiting.why}) but has no allowed move "
            "(where the table waits for a physical card, waiting.on is 'camera')")
    for move in view["moves"]:
        assert {"do", "label", "fixed", "params", "group", "allowed"} <= set(move)
    # the public view of this very state (made by the caller when it has one: views are
    # pure functions of the state)
    assert view["public"] == (engine.public_view(state) if public is None else public)
    assert isinstance(view["secrets"], dict)
    assert isinstance(view["log"], list) and all(isinstance(x, str) for x in view["log"])
    scores = view["scores"]
    if scores is not None:
        assert set(scores) == {"totals", "hands", "unit", "target", "lower_wins"}
        assert len(scores["totals"]) == n and all(len(h) == n for h in scores["hands"])


@pytest.mark.parametrize(("engine", "part"), parts(ENGINES, 3))
def test_views_are_json_and_private_keys_stay_with_their_seat(engine: AnyEngine,
                                                              part: int) -> None:
    steps = 0
    for session in sessions(engine, part, 3):
        n = session.setup.n_seats
        check_views(engine, session.state, n, private_keys(engine, session.state, n))
        steps += 1
    for n in range(engine.min_seats, engine.max_seats + 1) if part == 0 else ():
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


# --- typed actions ----------------------------------------------------------------------


def _has_any(hint: Any) -> bool:
    if hint is Any or hint is object:
        return True
    return any(_has_any(a) for a in typing.get_args(hint))


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_every_action_is_a_typed_value_declared_once(engine: AnyEngine) -> None:
    from companion.games.actions import ActionSet, GameAction, fields_of

    assert isinstance(engine.actions, ActionSet), f"{engine.name} declares no ActionSet"
    module = f"companion.games.{engine.name}.actions"
    for kind in engine.actions:
        assert issubclass(kind, GameAction) and dataclasses.is_dataclass(kind)
        assert kind.__dataclass_params__.frozen, kind  # type: ignore[attr-defined]
        if kind.do == "deadline":
            continue
        assert kind.__module__ == module, f"{kind.__name__} is declared in {kind.__module__}"
        assert kind.label and kind.__doc__, f"{kind.__name__} needs a label and a docstring"
        assert kind.by in ("seat", "host", "table")
        for f in fields_of(kind):
            assert not _has_any(f.type), f"{kind.__name__}.{f.name} is untyped (Any)"
            assert "_" not in f.label, f"{kind.__name__}.{f.name}: label {f.label!r}"
    json.dumps(engine.actions.json_schema())


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_recorded_actions_parse_and_write_back_unchanged(engine: AnyEngine) -> None:
    assert engine.actions is not None
    checked = 0
    for path in records_of(engine.name):
        for raw in _lines(path)[1:]:
            line = json.loads(raw)
            line.pop("t")
            if line.get("do") in ("undo", "time"):
                continue
            try:
                typed = engine.actions.parse(line)
            except IllegalAction:
                continue  # a line the record shows refused
            assert typed.to_json() == line, f"{path.name}: {line} came back as {typed.to_json()}"
            assert engine.actions.parse(typed.to_json()) == typed
            checked += 1
    assert checked > 0


# --- one role, one place, one name ---------------------------------------------------------

#: (attribute of the engine, module it must be defined in) -- docs/architecture.md's table
ROLES = (("start", "state"), ("upgrade_options", "state"), ("decide", "decide"),
         ("outcome", "decide"), ("next_deadline", "decide"), ("apply", "fold"),
         ("moves", "moves"), ("waiting", "moves"), ("public_view", "views"),
         ("secrets", "views"), ("state_json", "views"), ("signals", "views"),
         ("log", "views"), ("scores", "views"), ("action_for_input", "inputs"),
         ("describe", "describe"))


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_every_role_lives_in_its_module_under_its_name(engine: AnyEngine) -> None:
    import importlib
    import inspect

    package = f"companion.games.{engine.name}"
    _roles_of(engine)
    state = importlib.import_module(f"{package}.state")
    for name in ("Options", "DEFAULT_OPTIONS", "parse_options", "State"):
        assert hasattr(state, name), f"{package}.state has no {name}"
    assert list(inspect.signature(state.parse_options).parameters) == ["raw", "n_seats"]
    assert hasattr(state.State, "over"), f"{package}.state.State has no 'over'"
    assert "log" in {f.name for f in dataclasses.fields(state.State)}, "the log is 'log'"
    decide = importlib.import_module(f"{package}.decide")
    handlers = decide._HANDLERS
    assert engine.actions is not None
    assert set(handlers) == set(engine.actions), f"{engine.name}: _HANDLERS by action class"
    fold = importlib.import_module(f"{package}.fold")
    assert isinstance(fold._APPLY, dict) and set(fold._APPLY) == set(engine.event_types.values())
    actions = importlib.import_module(f"{package}.actions")
    assert actions.ACTIONS is engine.actions


def test_the_role_check_can_fail() -> None:
    """A role defined elsewhere is named: tally's functions live in tests.core.tally."""
    from tests.core import tally

    with pytest.raises(AssertionError, match="start is defined in tests.core.tally"):
        _roles_of(tally.engine)


def _roles_of(engine: AnyEngine) -> None:
    package = f"companion.games.{engine.name}"
    for attr, module in ROLES:
        fn = getattr(engine, attr)
        assert fn is not None, f"{engine.name}: no {attr}"
        assert fn.__module__ == f"{package}.{module}", (
            f"{engine.name}: {attr} is defined in {fn.__module__}, not {package}.{module}")
        assert fn.__name__ == attr, f"{engine.name}: {attr} is called {fn.__name__}"


# --- features belong to the engine ---------------------------------------------------------

#: where a game may be named: the games, their templates and page code, the tests
NAMED_OK = ("companion/games/", "web/templates/games/", "web/static/games/", "tests/")
SCANNED = ("companion", "web", "vision", "hardware")


def game_names() -> set[str]:
    names: set[str] = set()
    for engine in games.ENGINES:
        names |= {engine.name, *(games.normalise(a) for a in engine.aliases)}
    return names


def named_games(path: Path, names: set[str]) -> list[str]:
    """Where the text of ``path`` names a game: Python string constants (docstrings
    aside) and quoted words in templates and page code."""
    import ast
    import re

    text = path.read_text(encoding="utf-8")
    found = []
    if path.suffix == ".py":
        tree = ast.parse(text)
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in docstrings):
                words = set(re.findall(r"[a-z0-9_]+", node.value))
                hits = words & names
                if hits:
                    found.append(f"{path}:{node.lineno}: {sorted(hits)}")
    else:
        for n, line in enumerate(text.splitlines(), start=1):
            for word in re.findall(r"[\"'/ ]([a-z0-9_]+)[\"'/ ]", line):
                if word in names:
                    found.append(f"{path}:{n}: {word}")
    return found


def test_no_game_is_named_outside_the_games() -> None:
    names = game_names()
    found = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*")):
            rel = path.relative_to(ROOT).as_posix()
            if path.suffix not in (".py", ".html", ".js") or rel.startswith(NAMED_OK):
                continue
            found += named_games(path, names)
    assert not found, "a game named outside companion/games (ask the engine for a feature):\n" \
        + "\n".join(found)


def test_the_name_check_can_fail(tmp_path: Path) -> None:
    bad = tmp_path / "page.py"
    bad.write_text('"""Casablanca is fine in a docstring."""\nGAME = "casablanca"\n')
    assert named_games(bad, game_names()) == [f"{bad}:2: ['casablanca']"]


def test_the_shape_check_can_fail() -> None:
    """A view without its log, or whose attention disagrees with waiting(), is caught."""
    from tests.core import tally

    engine = tally.engine
    state = engine.new_game(Setup(("A", "B")))
    check_envelope(engine, state, engine.seat_view(state, 0), 0, 2)
    view = engine.seat_view(state, 0)
    del view["log"]
    with pytest.raises(AssertionError, match="seat view keys"):
        check_envelope(engine, state, view, 0, 2)
    view = engine.seat_view(state, 1)
    view["attention"] = {**view["attention"], "act": True}
    with pytest.raises(AssertionError, match="attention must follow waiting"):
        check_envelope(engine, state, view, 1, 2)
