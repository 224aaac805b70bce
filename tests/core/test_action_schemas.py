"""Action schemas: one per handler and no other, every key a handler reads declared, every
recorded game still valid, and unknown keys refused before anything is stored."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.games.base import IllegalAction
from companion.games.schema import COMMON, ActionSchema, Key, check_action
from companion.inputs import HOST, Command, Source
from companion.store import MemoryStore
from companion.table import Table
from tests.core import tally
from tests.core.action_keys import ROOT, action_names, handler_keys

GAMES = ("nasty7", "illegal", "casablanca", "crime_lords")


def schemas(game: str) -> dict[str, ActionSchema]:
    module = importlib.import_module(f"companion.games.{game}.actions")
    found: dict[str, ActionSchema] = module.ACTIONS
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_handler_has_a_schema_and_every_schema_a_handler(game: str) -> None:
    have, want = set(schemas(game)), action_names(game)
    assert not want - have, f"{game}/actions.py lacks a schema for {sorted(want - have)}"
    assert not have - want, f"{game}/actions.py has schemas without a handler: {sorted(have - want)}"


@pytest.mark.parametrize("game", GAMES)
def test_every_key_a_handler_reads_is_declared(game: str) -> None:
    declared = schemas(game)
    missing = {action: sorted(set(keys) - set(declared.get(action, {})) - set(COMMON))
               for action, keys in handler_keys(game).items()}
    missing = {a: k for a, k in missing.items() if k}
    assert not missing, f"{game}/actions.py: keys read but not declared: {missing}"


def _recorded_actions(game: str) -> list[tuple[str, dict[str, Any]]]:
    files = sorted((ROOT / "tests" / "records" / game).glob("*.jsonl"))
    demo = ROOT / "companion" / "demos" / f"{game}.jsonl"
    if demo.exists():
        files.append(demo)
    out = []
    for path in files:
        lines = [ln for ln in path.read_text(encoding="utf-8").splitlines()
                 if ln.strip() and not ln.startswith("#")]
        for n, line in enumerate(lines[1:], start=2):
            action = {k: v for k, v in json.loads(line).items() if k != "t"}
            if action.get("do") not in ("undo", "time", "deadline"):
                out.append((f"{path.name}:{n}", action))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_recorded_action_fits_its_schema(game: str) -> None:
    declared = schemas(game)
    refused = []
    for where, action in _recorded_actions(game):
        try:
            check_action(declared, action, game)
        except IllegalAction as exc:
            refused.append(f"{where}: {exc.reason}")
    assert not refused, "\n".join(refused[:20])


def test_unknown_keys_and_bad_values_are_refused_naming_the_key() -> None:
    declared: dict[str, ActionSchema] = {"play": {"card": Key("str"), "n": Key("int", 1, 9),
                                                  "cards": Key("strs"), "ok": Key("bool")}}
    assert check_action(declared, {"do": "play", "card": "x", "n": 3, "seat": 1}) == {
        "do": "play", "card": "x", "n": 3, "seat": 1}
    cases = [
        ({"do": "fly"}, 'has no action "fly"'),
        ({"do": "play", "junk": "x" * 60000}, '"play" does not take "junk"'),
        ({"do": "play", "n": 10}, '"n" must be at most 9'),
        ({"do": "play", "n": 2.5}, '"n" must be a whole number'),
        ({"do": "play", "n": True}, '"n" must be a number'),
        ({"do": "play", "card": 7}, '"card" must be a text'),
        ({"do": "play", "card": "x" * 500}, '"card" is too long'),
        ({"do": "play", "cards": "a"}, '"cards" must be a list'),
        ({"do": "play", "cards": ["a", 1]}, '"cards" must be a text'),
        ({"do": "play", "ok": 1}, '"ok" must be true or false'),
        ({"do": "play", "seat": -1}, '"seat" must be at least 0'),
    ]
    for action, reason in cases:
        with pytest.raises(IllegalAction) as info:
            check_action(declared, action)
        assert reason in info.value.reason, (action, info.value.reason)


def test_the_table_refuses_unknown_keys_before_storing(monkeypatch: pytest.MonkeyPatch) -> None:
    from dataclasses import replace

    engine = replace(tally.engine, actions={"add": {"n": Key("int", 1, 9)},
                                            "secret": {"value": Key("int", 0, 10**6)}})
    games.register(engine)
    try:
        table = Table(MemoryStore())
        assert table.process(Command("start", {"game": "tally", "players": ["A", "B"]})).accepted
        res = table.process(Command("action", {"action": {"do": "add", "n": 1,
                                                          "junk": "x" * 65000}}))
        assert not res.accepted and '"junk"' in (res.reason or "")
        res = table.process(Command("action", {"action": {"do": "add", "n": "lots"}},
                                    source=Source.of_seat(0)))
        assert not res.accepted and '"n" must be a number' in (res.reason or "")
        assert table.history() == []
        ok = table.process(Command("action", {"action": {"do": "add", "n": 2}}, source=HOST))
        assert ok.accepted
        # a phone's own seat is filled in by the table: always allowed
        assert table.process(Command("action", {"action": {"do": "add", "n": 1}},
                                     source=Source.of_seat(1))).accepted
    finally:
        games.register(tally.engine)


@pytest.mark.parametrize("game", GAMES)
def test_each_engine_carries_its_schemas(game: str) -> None:
    assert games.get(game).actions is schemas(game)


def test_every_game_has_an_actions_module() -> None:
    for game in GAMES:
        assert (Path(ROOT) / "companion" / "games" / game / "actions.py").exists()


@pytest.mark.parametrize("game", GAMES)
def test_no_game_gives_every_action_the_same_keys(game: str) -> None:
    """One shared list of keys lets any action carry another's keys into the record."""
    declared = schemas(game)
    with_keys = [dict(keys) for keys in declared.values() if keys]
    assert len(with_keys) < 2 or any(k != with_keys[0] for k in with_keys[1:]), (
        f"{game}/actions.py gives every action the same keys")


def test_a_casablanca_action_cannot_carry_another_actions_keys() -> None:
    table = Table(MemoryStore())
    assert table.process(Command("start", {"game": "casablanca",
                                           "players": ["Ann", "Bo", "Cy"]})).accepted
    before = table.history()
    cases = [
        ({"do": "bribe", "amounts": [{"agent": "red", "amount": 500}], "zone": "x" * 100},
         '"bribe" does not take "zone"'),
        ({"do": "protest", "agent": "red"}, '"protest" does not take "agent"'),
        ({"do": "left", "tag": "red", "zone": "board"}, '"left" does not take "zone"'),
        ({"do": "move", "agent": "red", "to": "home", "suitcase": "yes"},
         '"suitcase" must be true or false'),
        ({"do": "eliminate", "agent": "red", "target": 3}, '"target" must be a text'),
    ]
    for action, reason in cases:
        res = table.process(Command("action", {"action": action}, source=HOST))
        assert not res.accepted and reason in (res.reason or ""), (action, res.reason)
    assert table.history() == before
