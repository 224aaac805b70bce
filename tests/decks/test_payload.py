"""Payload format: short, uppercase alphanumeric, QR version 1 level M, opaque."""

from __future__ import annotations

import re

import pytest
import segno

from companion.decks import payload as pl

KEY_A = bytes(range(32))
KEY_B = bytes(range(1, 33))


def test_payload_is_20_uppercase_alphanumeric_chars() -> None:
    for serial in (0, 1, 7, 110, pl.MAX_SERIAL):
        text = pl.encode_with_key(KEY_A, serial)
        assert len(text) == 20
        assert re.fullmatch(r"[A-Z2-7]{20}", text), text


def test_payload_fits_qr_version_1_level_m_in_alphanumeric_mode() -> None:
    code = segno.make_qr(pl.encode_with_key(KEY_A, 42), version=1, error="m", boost_error=False)
    assert (code.version, code.error, code.mode) == (1, "M", "alphanumeric")


def test_payload_starts_with_version_and_deck_id() -> None:
    text = pl.encode_with_key(KEY_A, 3)
    assert text[0] == pl.PREFIX
    assert text[1:5] == pl.deck_id_for(KEY_A)


def test_serials_and_keys_give_distinct_payloads() -> None:
    texts = {pl.encode_with_key(KEY_A, s) for s in range(500)}
    assert len(texts) == 500
    assert pl.encode_with_key(KEY_A, 1) != pl.encode_with_key(KEY_B, 1)
    assert pl.encode_with_key(KEY_A, 1) == pl.encode_with_key(KEY_A, 1)


def test_consecutive_serials_share_no_visible_structure() -> None:
    """Opaque: the card part of neighbouring serials differs in most positions."""
    tags = [pl.encode_with_key(KEY_A, s)[5:] for s in range(1, 60)]
    for a, b in zip(tags, tags[1:], strict=False):
        same = sum(x == y for x, y in zip(a, b, strict=True))
        assert same <= 6, (a, b)


def test_out_of_range_serial_is_refused() -> None:
    with pytest.raises(ValueError, match="out of range"):
        pl.encode_with_key(KEY_A, pl.MAX_SERIAL + 1)
    with pytest.raises(ValueError, match="out of range"):
        pl.encode_with_key(KEY_A, -1)


def test_parse_splits_a_payload_and_forgives_case_and_whitespace() -> None:
    text = pl.encode_with_key(KEY_A, 9)
    parsed = pl.parse_payload(f"  {text.lower()}\n")
    assert parsed == pl.Payload(deck_id=text[1:5], tag=text[5:])
    assert pl.parse_payload(text.encode("ascii")) == parsed


@pytest.mark.parametrize(
    "text",
    [
        "",
        "T",
        "https://example.com/T2FPRAAAAAAAAAAAAAAA",
        "X" + "A" * 19,  # wrong version character
        "T" + "A" * 18,  # too short
        "T" + "A" * 20,  # too long
        "T" + "A" * 18 + "1",  # 1 is not base32
        "T" + "A" * 18 + "-",
        "T" * 10_000,
        None,
        12345,
        b"\xff\xfe",
    ],
)
def test_parse_refuses_what_is_not_a_payload(text: object) -> None:
    assert pl.parse_payload(text) is None
