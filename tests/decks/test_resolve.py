"""resolve_tag: every printed card found again, everything else refused, never an exception."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.decks import (
    CALIBRATION_CARD,
    Deck,
    TagInfo,
    demo_deck,
    encode_payload,
    resolve_tag,
)
from companion.decks import payload as pl
from companion.decks import resolve as resolve_module


def test_every_card_of_every_game_resolves_to_itself() -> None:
    for game in ("nasty7", "illegal", "casablanca", "crime_lords"):
        deck = Deck.new(game, f"d-{game}")
        for serial, card in deck.physical():
            info = resolve_tag(encode_payload(deck, serial))
            assert info == TagInfo("ok", game, card.id, serial, deck.name, card.label()), serial


def test_calibration_code_is_recognised_as_such() -> None:
    deck = Deck.new("illegal", "home")
    info = resolve_tag(encode_payload(deck, 0))
    assert (info.status, info.card, info.serial) == ("ok", CALIBRATION_CARD, 0)


def test_codes_of_deck_a_are_refused_by_deck_b(tmp_path: Path) -> None:
    """A code of a deck that is not in the state directory is "unknown"."""
    other_home = tmp_path / "other"
    a = Deck.new("illegal", "a", state_dir=other_home)
    Deck.new("illegal", "b")
    for serial in range(1, a.total() + 1):
        assert resolve_tag(encode_payload(a, serial)).status == "unknown"
    assert resolve_tag(encode_payload(a, 5), state_dir=other_home).status == "ok"


def test_a_code_naming_our_deck_without_its_key_is_forged() -> None:
    deck = Deck.new("nasty7", "home")
    fake = pl.PREFIX + deck.deck_id + "A" * pl.TAG_LEN
    assert resolve_tag(fake) == TagInfo("forged", game="nasty7", deck="home")
    real = encode_payload(deck, 12)
    flipped = real[:-1] + ("B" if real[-1] != "B" else "C")
    assert resolve_tag(flipped).status == "forged"


def test_a_serial_beyond_the_deck_is_forged() -> None:
    deck = Deck.new("casablanca", "c")
    assert resolve_tag(pl.encode_with_key(deck.key, deck.total() + 1)).status == "forged"


def test_new_decks_and_new_stats_are_seen_without_restart(state_dir: Path) -> None:
    first = Deck.new("illegal", "first")
    assert resolve_tag(encode_payload(first, 1)).status == "ok"
    second_key = Deck.new("crime_lords", "second", state_dir=state_dir / "elsewhere").key
    code = pl.encode_with_key(second_key, 15)
    assert resolve_tag(code).status == "unknown"
    second = Deck.new("crime_lords", "second", key=second_key)
    assert resolve_tag(code).status == "ok"
    second.set_card_stats(15, {"name": "Smoothie Smythe"})
    assert resolve_tag(code).name == "Crook 07: Smoothie Smythe"


def test_a_removed_deck_is_forgotten(state_dir: Path) -> None:
    deck = Deck.new("illegal", "gone")
    code = encode_payload(deck, 3)
    assert resolve_tag(code).status == "ok"
    os.remove(state_dir / "decks" / "gone.json")
    assert resolve_tag(code).status == "unknown"


def test_a_damaged_deck_file_does_not_hide_the_others(state_dir: Path) -> None:
    deck = Deck.new("illegal", "good")
    Deck.new("nasty7", "bad")
    (state_dir / "decks" / "bad.json").write_text('{"format": 1}')
    assert resolve_tag(encode_payload(deck, 1)).status == "ok"


def test_demo_deck_codes_resolve_like_any_deck() -> None:
    deck = demo_deck("casablanca")
    info = resolve_tag(encode_payload(deck, 9))
    assert (info.status, info.card, info.deck) == ("ok", "suitcase", "demo-casablanca")


def test_a_failure_inside_is_logged_and_reported_as_unknown(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    deck = Deck.new("illegal", "home")

    def broken(folder: Path) -> list[Deck]:
        raise PermissionError("state directory unreadable")

    monkeypatch.setattr(resolve_module._cache, "decks", broken)
    assert resolve_tag(encode_payload(deck, 1)) == TagInfo("unknown")
    assert "resolving a tag failed" in caplog.text


def test_malformed_inputs() -> None:
    for text in ("", "https://example.com", "T" + "A" * 19 + "!", "hello world"):
        assert resolve_tag(text) == TagInfo("malformed")


def _others() -> list[str]:
    keys = [bytes([i]) * 32 for i in range(5)]
    return [pl.encode_with_key(k, s) for k in keys for s in (0, 1, 50, 200)]


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(),
        st.text(alphabet=pl.ALPHABET + "T", min_size=18, max_size=22),
        st.binary(),
        st.builds(lambda s, n: s * n, st.text(min_size=1, max_size=40), st.integers(200, 2_000)),
        st.from_regex(r"https?://[a-z]{1,12}\.[a-z]{2,3}/[A-Za-z0-9/?=&]{0,40}", fullmatch=True),
        st.sampled_from(_others()),
        st.none(),
        st.integers(),
    )
)
def test_fuzz_never_raises_and_never_accepts_foreign_codes(text: object) -> None:
    demo_deck("nasty7")
    parsed = pl.parse_payload(text)  # no safety net in here: it must not raise either
    info = resolve_tag(text)
    assert info.status == ("malformed" if parsed is None else info.status)
    assert info.status in ("unknown", "forged", "malformed")
    assert info.card is None and info.serial is None


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 19), st.characters(codec="ascii"), st.integers(1, 110))
def test_fuzz_a_damaged_read_of_our_own_code_is_never_another_card(
    index: int, char: str, serial: int
) -> None:
    deck = demo_deck("nasty7")
    real = encode_payload(deck, serial)
    damaged = real[:index] + char + real[index + 1 :]
    info = resolve_tag(damaged)
    if damaged.strip().upper() == real:
        assert (info.status, info.serial) == ("ok", serial)
    else:
        assert info.status in ("unknown", "forged", "malformed")
