"""Decks: made with a random key stored 0600, loaded back, owner-edited data kept."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from companion.decks import Deck, DeckError, demo_deck, demo_key, encode_payload, list_decks
from companion.decks import deck as deck_module


def test_new_deck_is_saved_with_mode_0600_and_loads_back(state_dir: Path) -> None:
    deck = Deck.new("nasty7", "home")
    path = state_dir / "decks" / "home.json"
    assert deck.path == path
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again = Deck.load("home")
    assert (again.name, again.game, again.key, again.deck_id) == (
        "home",
        "nasty7",
        deck.key,
        deck.deck_id,
    )
    assert again.total() == 110
    assert len(deck.key) == 32


def test_two_decks_get_different_keys() -> None:
    a = Deck.new("illegal", "a")
    b = Deck.new("illegal", "b")
    assert a.key != b.key
    assert encode_payload(a, 1) != encode_payload(b, 1)


def test_deck_ids_never_collide_in_one_state_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    keys = iter([b"\x01" * 32, b"\x01" * 32, b"\x02" * 32])
    monkeypatch.setattr(deck_module.secrets, "token_bytes", lambda n: next(keys))
    a = Deck.new("casablanca", "a")
    b = Deck.new("casablanca", "b")
    assert a.key == b"\x01" * 32
    assert b.key == b"\x02" * 32
    assert a.deck_id != b.deck_id


def test_game_aliases_and_serials_follow_the_catalog() -> None:
    deck = Deck.new("Die-Fiesen-7", "club")
    assert deck.game == "nasty7"
    assert deck.card(1) is not None and deck.card(1).id == "racketeer"  # type: ignore[union-attr]
    last = deck.card(110)
    assert last is not None and last.id == "gun"
    assert deck.card(111) is None
    assert deck.card(0) is None


@pytest.mark.parametrize(
    ("game", "name", "message"),
    [
        ("chess", "x", "unknown game 'chess'"),
        ("illegal", "bad name", "bad deck name"),
        ("illegal", "../escape", "bad deck name"),
        ("illegal", "", "bad deck name"),
    ],
)
def test_new_refuses_bad_game_or_name(game: str, name: str, message: str) -> None:
    with pytest.raises(DeckError, match=message):
        Deck.new(game, name)


def test_new_refuses_a_taken_name() -> None:
    Deck.new("illegal", "home")
    with pytest.raises(DeckError, match="exists already"):
        Deck.new("nasty7", "home")


def test_load_of_a_missing_deck_says_how_to_make_it() -> None:
    with pytest.raises(DeckError, match="companion deck new GAME --name nope"):
        Deck.load("nope")


def test_damaged_deck_file_is_named_and_skipped_by_list(state_dir: Path) -> None:
    Deck.new("illegal", "good")
    (state_dir / "decks" / "bad.json").write_text("{not json")
    with pytest.raises(DeckError, match=r"bad\.json is damaged"):
        Deck.load("bad")
    assert [d.name for d in list_decks()] == ["good"]


def test_crime_lords_stats_are_checked_and_persisted() -> None:
    deck = Deck.new("crime_lords", "cl")
    crook = 8 + 7  # mobs first: serial 15 is crook_07
    assert deck.card(crook) is not None and deck.card(crook).id == "crook_07"  # type: ignore[union-attr]
    assert deck.card_stats(crook) is None
    deck.set_card_stats(crook, {"name": "Mom Parker", "power": 6, "resistance": 12})
    again = Deck.load("cl")
    assert again.card_stats(crook) == {"name": "Mom Parker", "power": 6, "resistance": 12}
    assert again.card_name(crook) == "Crook 07: Mom Parker"


@pytest.mark.parametrize(
    ("stats", "message"),
    [
        ({"income": 3}, "unknown field 'income'"),
        ({"power": "six"}, "power must be a whole number"),
        ({"power": True}, "power must be a whole number"),
        ({"name": 5}, "name must be a text"),
        ({"name": "x" * 201}, "name must be a text"),
    ],
)
def test_bad_crime_lords_stats_are_refused(stats: dict[str, object], message: str) -> None:
    deck = Deck.new("crime_lords", "cl")
    with pytest.raises(DeckError, match=message):
        deck.set_card_stats(15, stats)
    assert deck.card_stats(15) is None


def test_stats_for_a_missing_card_or_a_game_without_stats_are_refused() -> None:
    with pytest.raises(DeckError, match="no card #999"):
        Deck.new("crime_lords", "cl").set_card_stats(999, {"name": "x"})
    with pytest.raises(DeckError, match="no stats"):
        Deck.new("illegal", "il").set_card_stats(1, {"name": "x"})


def test_nasty7_split_is_editable_and_kept_in_the_deck_file(state_dir: Path) -> None:
    deck = Deck.new("nasty7", "home")
    assert sum(deck.counts().values()) == 110
    deck.set_counts({"racketeer": 50, "gun": 20})
    raw = json.loads((state_dir / "decks" / "home.json").read_text())
    assert raw["counts"]["racketeer"] == 50 and raw["counts"]["gun"] == 20
    again = Deck.load("home")
    assert again.counts()["gun"] == 20
    assert again.total() == 110 - 10 + 10
    assert again.card(50) is not None and again.card(50).id == "racketeer"  # type: ignore[union-attr]
    assert again.card(51) is not None and again.card(51).id == "twin_racketeer"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("counts", "message"),
    [({"joker": 3}, "unknown card kind"), ({"racketeer": -1}, "0 or more")],
)
def test_bad_splits_are_refused(counts: dict[str, int], message: str) -> None:
    deck = Deck.new("nasty7", "home")
    with pytest.raises(DeckError, match=message):
        deck.set_counts(counts)
    assert deck.total() == 110


def test_split_of_a_fixed_deck_is_refused() -> None:
    with pytest.raises(DeckError, match="fixed by the game"):
        Deck.new("illegal", "il").set_counts({"magnum": 9})


def test_demo_deck_has_the_documented_public_key() -> None:
    deck = demo_deck("illegal")
    assert deck.name == "demo-illegal"
    assert deck.key == demo_key("illegal")
    assert demo_deck("illegal").key == deck.key  # made once, then loaded
    assert demo_key("illegal") != demo_key("nasty7")
