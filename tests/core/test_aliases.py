"""Every name of every game works in every command: one registry, no second alias table."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest

from companion import games
from companion.cli import main
from companion.demo import has_demo_record
from tests.demo_server import demo_server
from tests.wait import SAFETY, until

BUILT_IN = [e for e in games.ENGINES]
NAMES = [(e.name, alias) for e in BUILT_IN for alias in (e.name, *e.aliases)]
SPELLINGS = [(e.name, spelling) for e in BUILT_IN
             for spelling in (e.title, e.name.upper(), e.name.replace("_", "-"))]


def ids(pairs: list[tuple[str, str]]) -> list[str]:
    return [alias for _, alias in pairs]


def test_every_game_has_aliases_and_none_is_shared() -> None:
    seen: dict[str, str] = {}
    for engine in BUILT_IN:
        for name in (engine.name, *engine.aliases):
            key = games.normalise(name)
            assert seen.setdefault(key, engine.name) == engine.name, f"{name} names two games"
    assert len(seen) > len(BUILT_IN)  # the aliases are really there


@pytest.mark.parametrize(("game", "name"), NAMES + SPELLINGS, ids=ids(NAMES + SPELLINGS))
def test_registry_resolves(game: str, name: str) -> None:
    assert games.get(name).name == game
    assert games.canonical(name) == game


def test_unknown_game_names_the_games() -> None:
    with pytest.raises(games.UnknownGameError, match="installed games: casablanca"):
        games.get("chess")


@pytest.mark.parametrize(("game", "alias"), NAMES, ids=ids(NAMES))
def test_replay_reads_any_alias_in_the_header(
    game: str, alias: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = games.get(game)
    header = {"record": "table-companion", "version": 1, "game": alias,
              "seats": ["Ann", "Ben", "Cy"][: max(2, engine.min_seats)], "options": {}}
    record = tmp_path / "game.jsonl"
    record.write_text(json.dumps(header) + "\n", encoding="utf-8")
    assert main(["replay", str(record), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["game"] == game


@pytest.mark.parametrize(("game", "alias"), NAMES, ids=ids(NAMES))
def test_deck_new_and_tags_take_any_alias(
    game: str, alias: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = main(["deck", "new", alias, "--name", "x"])
    assert made == 0, capsys.readouterr().err
    capsys.readouterr()
    assert main(["deck", "list", "--json"]) == 0
    decks = json.loads(capsys.readouterr().out)
    assert [d["game"] for d in decks] == [game]
    pdf = tmp_path / "x.pdf"
    assert main(["tags", alias, "--deck", "x", "--out", str(pdf)]) == 0, capsys.readouterr().err
    assert pdf.read_bytes().startswith(b"%PDF")


#: ``serve --game`` is tried with a demo table, which Crime Lords does not have yet
DEMO_ALIASES = [(e.name, e.aliases[0]) for e in BUILT_IN
                if e.name == "nasty7" or has_demo_record(e.name)]


def _running_game(url: str) -> str | None:
    with urllib.request.urlopen(f"{url}/api/state", timeout=SAFETY) as answer:
        game: str | None = json.loads(answer.read())["game"]
    return game


@pytest.mark.slow
@pytest.mark.parametrize(("game", "alias"), DEMO_ALIASES, ids=ids(DEMO_ALIASES))
def test_serve_game_takes_an_alias(game: str, alias: str, state_dir: Path) -> None:
    with demo_server(state_dir, game=alias) as server:
        # the demo starts its game right after start-up, however slowly
        assert until(lambda: _running_game(server.url), "the demo's game") == game
