"""From a decoded QR text to a card: every deck in the state directory is asked.

``resolve_tag`` is called by the camera pipeline for every code it reads; it never
raises and keeps decks in memory, re-reading a deck file only when it changed.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from companion import paths
from companion.decks import payload as pl
from companion.decks.deck import Deck, decks_dir
from companion.decks.errors import DeckError
from companion.decks.games import canonical_game

log = logging.getLogger(__name__)

TagStatus = Literal["ok", "unknown", "forged", "malformed"]
#: the card id reported for the calibration code (serial 0); never a playing card
CALIBRATION_CARD = "calibration"


@dataclass(frozen=True)
class TagInfo:
    """What a QR text is: a card of a known deck ("ok") or why it is refused.

    ``unknown``: a well-formed code of a deck that is not in the state directory (for
    example another owner's deck). ``forged``: it names one of our decks but its MAC is
    wrong (made without the key, or a damaged read). ``malformed``: not a tag at all
    (a URL, random text). Only "ok" fills ``card`` and ``serial``; ``card`` is
    "calibration" with serial 0 for the calibration card. ``stats``: the printed stats
    entered for this physical card (Crime Lords), if any.
    """

    status: TagStatus
    game: str | None = None
    card: str | None = None
    serial: int | None = None
    deck: str | None = None
    name: str | None = None
    stats: Mapping[str, Any] | None = None


def encode_payload(deck: Deck, serial: int) -> str:
    """The QR text of card ``serial`` of ``deck`` (0: the calibration code)."""
    if not 0 <= serial <= deck.total():
        raise DeckError(f"deck {deck.name!r} has cards 1..{deck.total()}, not #{serial}")
    return pl.encode_with_key(deck.key, serial)


def tag_info(deck: Deck, serial: int) -> TagInfo:
    """The "ok" TagInfo of card ``serial`` of ``deck``."""
    card = deck.card(serial)
    card_id = card.id if card is not None else CALIBRATION_CARD
    return TagInfo("ok", deck.game, card_id, serial, deck.name, deck.card_name(serial),
                   deck.card_stats(serial))


class _DeckCache:
    """Decks by file, re-read when a file's size or mtime changes; thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._files: dict[Path, tuple[tuple[int, int], Deck | None]] = {}

    def decks(self, state_dir: Path) -> list[Deck]:
        folder = decks_dir(state_dir)
        with self._lock:
            seen: dict[Path, tuple[tuple[int, int], Deck | None]] = {}
            for path in folder.glob("*.json"):
                try:
                    st = path.stat()
                except OSError:
                    continue
                stamp = (st.st_mtime_ns, st.st_size)
                cached = self._files.get(path)
                seen[path] = cached if cached and cached[0] == stamp else (stamp, _read(path))
            self._files = {p: v for p, v in self._files.items() if p.parent != folder} | seen
            return [deck for _, deck in seen.values() if deck is not None]


def _read(path: Path) -> Deck | None:
    try:
        return Deck.from_file(path)
    except DeckError as exc:
        log.warning("%s", exc)
        return None


_cache = _DeckCache()


def resolve_tag(payload: object, state_dir: Path | None = None) -> TagInfo:
    """What the QR text ``payload`` is, asking every deck in the state directory.

    Never raises, whatever the input (a problem reading the state directory counts
    as "unknown" and is logged).
    """
    try:
        parsed = pl.parse_payload(payload)
        if parsed is None:
            return TagInfo("malformed")
        folder = state_dir if state_dir is not None else paths.state_dir()
        candidates = [d for d in _cache.decks(folder) if d.deck_id == parsed.deck_id]
        for deck in candidates:
            serial = deck.serial_of_tag(parsed.tag)
            if serial is not None:
                return tag_info(deck, serial)
        if candidates:
            return TagInfo("forged", game=candidates[0].game, deck=candidates[0].name)
        return TagInfo("unknown")
    except Exception:  # the camera thread must never die on a tag
        log.exception("resolving a tag failed")
        return TagInfo("unknown")


def demo_key(game: str) -> bytes:
    """The fixed, public key of the demo deck of ``game`` (anyone can forge its codes)."""
    return hashlib.sha256(f"table-companion demo deck v1:{game}".encode()).digest()


def demo_deck(game: str, state_dir: Path | None = None) -> Deck:
    """The demo deck ``demo-<game>`` with its documented public key, made on demand."""
    game = canonical_game(game)
    name = f"demo-{game}"
    if not (decks_dir(state_dir) / f"{name}.json").exists():
        try:
            return Deck.new(game, name, state_dir, key=demo_key(game))
        except DeckError:
            pass  # made by another thread or process meanwhile: load it below
    deck = Deck.load(name, state_dir)
    if deck.key != demo_key(game):
        raise DeckError(f"deck {name!r} exists but is not the demo deck; rename or remove it")
    return deck
