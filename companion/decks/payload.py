"""The text inside a card's QR code: opaque, keyed per deck, 20 uppercase characters.

A payload is ``"T"`` + the deck id (4 characters) + a card tag (15 characters), all in
the RFC 4648 base32 alphabet (``A-Z2-7``) so that it fits QR version 1 at error level M
in alphanumeric mode (at most 20 characters). The card tag is HMAC-SHA256 over the deck
id and the card's serial, truncated to 75 bits: a phone's QR app learns nothing from it
(not even the serial), and a code cannot be made without the deck's key. The serial is
found again by the deck that printed it (it knows every tag it printed), see ``Deck``.
The deck id is itself derived from the key, so two decks only share an id by chance.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

#: first character of every payload: the format version
PREFIX = "T"
DECK_ID_LEN = 4
TAG_LEN = 15
PAYLOAD_LEN = len(PREFIX) + DECK_ID_LEN + TAG_LEN
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
_ALPHABET_SET = frozenset(ALPHABET)
#: serial 0 is the calibration code (the calibration card), never a playing card
CALIBRATION_SERIAL = 0
MAX_SERIAL = 0xFFFF


@dataclass(frozen=True)
class Payload:
    """A payload split into its parts; says nothing yet about whether it is genuine."""

    deck_id: str
    tag: str


def _base32(value: int, length: int) -> str:
    chars = []
    for _ in range(length):
        chars.append(ALPHABET[value & 31])
        value >>= 5
    return "".join(reversed(chars))


def _digest_chars(key: bytes, message: bytes, length: int) -> str:
    digest = hmac.new(key, message, hashlib.sha256).digest()
    return _base32(int.from_bytes(digest, "big") >> (256 - 5 * length), length)


def deck_id_for(key: bytes) -> str:
    """The public 4-character id of the deck whose secret key is ``key``."""
    return _digest_chars(key, b"table-companion deck id", DECK_ID_LEN)


def card_tag(key: bytes, deck_id: str, serial: int) -> str:
    """The 15-character MAC of ``serial`` in the deck ``deck_id`` with key ``key``."""
    if not 0 <= serial <= MAX_SERIAL:
        raise ValueError(f"serial {serial} is out of range 0..{MAX_SERIAL}")
    message = b"table-companion card\x00" + deck_id.encode("ascii") + serial.to_bytes(4, "big")
    return _digest_chars(key, message, TAG_LEN)


def encode_with_key(key: bytes, serial: int) -> str:
    """The payload of card ``serial`` in the deck with secret ``key``."""
    deck_id = deck_id_for(key)
    return PREFIX + deck_id + card_tag(key, deck_id, serial)


def parse_payload(text: object) -> Payload | None:
    """``text`` split into deck id and card tag, or None when it is not a payload at all.

    Accepts any object (a decoder may hand over bytes or None); surrounding whitespace
    and lower case are forgiven, nothing else. Never raises.
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("ascii")
        except UnicodeDecodeError:
            return None
    if not isinstance(text, str) or len(text) > 4 * PAYLOAD_LEN:
        return None
    clean = text.strip().upper()
    if len(clean) != PAYLOAD_LEN or not clean.startswith(PREFIX):
        return None
    body = clean[len(PREFIX) :]
    if not _ALPHABET_SET.issuperset(body):
        return None
    return Payload(deck_id=body[:DECK_ID_LEN], tag=body[DECK_ID_LEN:])

