"""companion deck / companion tags from the command line."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from companion.cli import main
from companion.decks import Deck


def test_deck_new_then_list(state_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "new", "illegal", "--name", "home"]) == 0
    out = capsys.readouterr().out
    assert "made deck 'home'" in out and "companion tags illegal --deck home" in out
    path = state_dir / "decks" / "home.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert main(["deck", "list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    deck = Deck.load("home")
    assert rows == [
        {
            "name": "home",
            "game": "illegal",
            "id": deck.deck_id,
            "cards": 108,
            "created": deck.created,
        }
    ]
    assert main(["deck", "list"]) == 0
    listing = capsys.readouterr().out
    assert "home" in listing and deck.key.hex() not in listing


def test_deck_list_when_empty_says_how_to_start(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "list"]) == 0
    assert "companion deck new GAME --name NAME" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["deck", "new", "chess", "--name", "x"], "unknown game 'chess'"),
        (["deck", "new", "illegal", "--name", "demo-illegal"], "kept for the demo decks"),
        (["deck", "split", "nope"], "no deck named 'nope'"),
        (["tags", "illegal", "--deck", "nope", "--out", "x.pdf"], "no deck named 'nope'"),
    ],
)
def test_errors_say_what_to_do(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 1
    assert message in capsys.readouterr().err


def test_deck_without_action_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck"]) == 2
    assert "new, list, split, export-stats or import-stats" in capsys.readouterr().err


def test_deck_split_shows_and_sets_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "new", "nasty7", "--name", "club"]) == 0
    capsys.readouterr()
    assert main(["deck", "split", "club", "racketeer=55", "gun=15"]) == 0
    out = capsys.readouterr().out
    assert "print this deck's tags again" in out
    assert Deck.load("club").counts()["racketeer"] == 55
    assert main(["deck", "split", "club", "gun=lots"]) == 1
    assert "KIND=N" in capsys.readouterr().err


def test_tags_refuses_a_deck_of_another_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Deck.new("nasty7", "home")
    out = tmp_path / "x.pdf"
    assert main(["tags", "illegal", "--deck", "home", "--out", str(out)]) == 1
    assert "is a nasty7 deck, not illegal" in capsys.readouterr().err
    assert not out.exists()


def test_tags_reports_bad_size_and_unwritable_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Deck.new("casablanca", "c")
    assert main(["tags", "casablanca", "--deck", "c", "--out", "x.pdf", "--size", "2"]) == 1
    assert "use 6 to 60 mm" in capsys.readouterr().err
    missing = tmp_path / "no" / "such" / "x.pdf"
    assert main(["tags", "casablanca", "--deck", "c", "--out", str(missing)]) == 1
    assert "choose another --out path" in capsys.readouterr().err


def test_tags_writes_a_pdf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Deck.new("crime_lords", "cl")
    out = tmp_path / "cl.pdf"
    assert main(["tags", "crime_lords", "--deck", "cl", "--out", str(out)]) == 0
    assert out.read_bytes().startswith(b"%PDF")
    assert "112 stickers on 2 page(s) and a calibration card" in capsys.readouterr().out


def test_deck_stats_go_out_and_back_as_a_sheet(
        state_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck = Deck.new("crime_lords", "home", state_dir)
    deck.set_card_stats(9, {"name": "Mom Parker", "power": 6, "resistance": 4})
    Deck.new("crime_lords", "club", state_dir)
    sheet = tmp_path / "home.csv"
    assert main(["deck", "export-stats", "home", "--out", str(sheet)]) == 0
    assert "Crook 01,crook,Mom Parker,6,4" in sheet.read_text()
    bad = tmp_path / "bad.csv"
    bad.write_text(sheet.read_text().replace("Crook 02,crook,,", "Crook 02,crook,,x", 1))
    capsys.readouterr()
    assert main(["deck", "import-stats", "club", str(bad)]) == 1
    assert "Row 11 (Crook 02): the power must be a whole number, not 'x'" in (
        capsys.readouterr().err)
    assert Deck.load("club", state_dir).card_stats(9) is None
    assert main(["deck", "import-stats", "club", str(sheet)]) == 0
    assert "imported the stats of 1 card into deck 'club'" in capsys.readouterr().out
    assert Deck.load("club", state_dir).card_stats(9) == {
        "name": "Mom Parker", "power": 6, "resistance": 4}
