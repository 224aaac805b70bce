"""A deck: one set of physical cards of one game, with its own secret key.

A deck lives in ``<state dir>/decks/<name>.json`` (mode 0600: it holds the key). It
records which physical cards it has (card id -> count, in serial order, frozen when
the deck is made so that printed stickers keep their meaning), the stats the owner
entered for Crime Lords cards, and the split between kinds for The Nasty 7.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from companion import paths
from companion.decks import payload as pl
from companion.decks.errors import DeckError
from companion.decks.games import (
    EDITABLE_COUNTS,
    base_catalog,
    canonical_game,
    check_stats,
)
from companion.games.cards import CardType, Catalog

FORMAT = 1
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")
_write_lock = threading.Lock()


def decks_dir(state_dir: Path | None = None) -> Path:
    """The directory holding the deck files (created, mode 0700)."""
    path = (state_dir if state_dir is not None else paths.state_dir()) / "decks"
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def check_name(name: str) -> str:
    """``name`` if it is usable as a deck name, else DeckError saying what is allowed."""
    if not NAME_RE.match(name):
        raise DeckError(
            f"bad deck name {name!r}: use 1-40 letters, digits, '-' or '_', "
            "starting with a letter or digit (e.g. 'home' or 'club-2')"
        )
    return name


class Deck:
    """One physical deck: its key, its cards by serial, its owner-entered data.

    Make one with ``Deck.new``, open one with ``Deck.load``. Methods that change the
    deck (``set_card_stats``, ``set_counts``) save it at once.
    """

    def __init__(
        self,
        name: str,
        game: str,
        key: bytes,
        counts: dict[str, int],
        stats: dict[int, dict[str, Any]] | None = None,
        created: str = "",
        path: Path | None = None,
    ) -> None:
        self.name = check_name(name)
        self.game = game
        self.key = key
        self.deck_id = pl.deck_id_for(key)
        self.created = created
        self.path = path
        self._counts = dict(counts)
        self._stats = dict(stats or {})
        self._rebuild()

    def _rebuild(self) -> None:
        base = base_catalog(self.game)
        known = {c.id: c for c in base.cards} if base else {}
        types = []
        for card_id, count in self._counts.items():
            card = known.get(card_id) or CardType(id=card_id, name={"en": card_id}, kind=card_id)
            types.append(CardType(card.id, card.name, card.kind, card.value, count, card.extra))
        self._catalog = Catalog(game=self.game, cards=tuple(types))
        self._physical = dict(self._catalog.physical())
        self._tags = {
            pl.card_tag(self.key, self.deck_id, s): s for s in range(0, len(self._physical) + 1)
        }

    # -- making and storing ---------------------------------------------------------

    @classmethod
    def new(
        cls, game: str, name: str, state_dir: Path | None = None, key: bytes | None = None
    ) -> Deck:
        """Make and save a deck of ``game`` called ``name`` with a fresh random key.

        Raises DeckError when the game has no catalog or the name is taken. ``key`` is
        for the demo decks only (a fixed, public key).
        """
        game = canonical_game(game)
        catalog = base_catalog(game)
        if catalog is None:
            raise DeckError(f"no card list for {game!r} is installed; cannot make its deck")
        check_name(name)
        folder = decks_dir(state_dir)
        target = folder / f"{name}.json"
        if target.exists():
            raise DeckError(f"a deck named {name!r} exists already ({target}); choose another name")
        taken = {d.deck_id for d in list_decks(state_dir)}
        if key is None:
            key = secrets.token_bytes(32)
            while pl.deck_id_for(key) in taken:  # ids are 20 bits: rare, but possible
                key = secrets.token_bytes(32)
        elif pl.deck_id_for(key) in taken:
            raise DeckError(f"deck id {pl.deck_id_for(key)} is in use by another deck")
        counts = {c.id: c.count for c in catalog.cards}
        created = datetime.now(UTC).isoformat(timespec="seconds")
        deck = cls(name, game, key, counts, created=created, path=target)
        deck.save()
        return deck

    @classmethod
    def load(cls, name: str, state_dir: Path | None = None) -> Deck:
        """The deck called ``name`` in the state directory; DeckError if there is none."""
        check_name(name)
        path = decks_dir(state_dir) / f"{name}.json"
        if not path.exists():
            raise DeckError(
                f"no deck named {name!r} in {path.parent}; make one with "
                f"'companion deck new GAME --name {name}' or see 'companion deck list'"
            )
        return cls.from_file(path)

    @classmethod
    def from_file(cls, path: Path) -> Deck:
        """The deck stored in ``path``; DeckError naming the file if it is unreadable."""
        try:
            data = json.loads(path.read_text("utf-8"))
            if data.get("format") != FORMAT:
                raise ValueError(f"unsupported format {data.get('format')!r}")
            return cls(
                name=str(data["name"]),
                game=str(data["game"]),
                key=bytes.fromhex(str(data["key"])),
                counts={str(k): int(v) for k, v in data["counts"].items()},
                stats={int(k): dict(v) for k, v in data.get("stats", {}).items()},
                created=str(data.get("created", "")),
                path=path,
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError, DeckError) as exc:
            raise DeckError(
                f"deck file {path} is damaged or unreadable ({exc}); restore it from a backup "
                "or make a new deck and print new tags"
            ) from exc

    def to_json(self) -> dict[str, Any]:
        """The deck file's content (includes the secret key)."""
        return {
            "format": FORMAT,
            "name": self.name,
            "game": self.game,
            "deck_id": self.deck_id,
            "key": self.key.hex(),
            "created": self.created,
            "counts": dict(self._counts),
            "stats": {str(k): v for k, v in sorted(self._stats.items())},
        }

    def save(self) -> None:
        """Write the deck file (mode 0600, atomically)."""
        if self.path is None:
            raise DeckError(f"deck {self.name!r} has no file to save to")
        with _write_lock:
            paths.write_secret(self.path, json.dumps(self.to_json(), indent=2) + "\n", what=f"the deck {self.name}")

    # -- the cards ------------------------------------------------------------------

    def catalog(self) -> Catalog:
        """This deck's cards: the game's catalog with this deck's counts."""
        return self._catalog

    def physical(self) -> tuple[tuple[int, CardType], ...]:
        """``(serial, card type)`` of every physical card, serials from 1."""
        return tuple(self._physical.items())

    def total(self) -> int:
        """How many physical cards the deck has."""
        return len(self._physical)

    def card(self, serial: int) -> CardType | None:
        """The card type of ``serial``, None when the deck has no such card."""
        return self._physical.get(serial)

    def serial_of_tag(self, tag: str) -> int | None:
        """The serial whose MAC is ``tag`` (0: the calibration code), else None."""
        return self._tags.get(tag)

    def card_name(self, serial: int, lang: str = "en") -> str:
        """A person's name for card ``serial``: the owner's name for it if entered."""
        if serial == pl.CALIBRATION_SERIAL:
            return "Calibration card"
        card = self.card(serial)
        if card is None:
            return f"#{serial}"
        entered = self._stats.get(serial, {}).get("name")
        label = card.label(lang)
        return f"{label}: {entered}" if entered else label

    # -- owner-entered data ---------------------------------------------------------

    def card_stats(self, serial: int) -> dict[str, Any] | None:
        """The stats the owner entered for card ``serial``, None if not entered yet."""
        stats = self._stats.get(serial)
        return dict(stats) if stats is not None else None

    def set_card_stats(self, serial: int, stats: dict[str, Any]) -> None:
        """Record the printed stats of card ``serial`` (Crime Lords) and save the deck.

        Raises DeckError when the card does not exist or a field is unknown or of the
        wrong type (the message lists the fields of that kind of card).
        """
        card = self.card(serial)
        if card is None:
            raise DeckError(f"deck {self.name!r} has no card #{serial}")
        try:
            clean = check_stats(self.game, card.kind, stats)
        except ValueError as exc:
            raise DeckError(f"card #{serial} ({card.label()}): {exc}") from exc
        self._stats[serial] = clean
        self.save()

    def set_many_stats(self, stats: dict[int, dict[str, Any]]) -> None:
        """Record the stats of several cards at once (an import): every card is checked
        first; one bad card raises DeckError and nothing is kept. Saved once."""
        clean: dict[int, dict[str, Any]] = {}
        for serial, values in stats.items():
            card = self.card(serial)
            if card is None:
                raise DeckError(f"deck {self.name!r} has no card #{serial}")
            try:
                clean[serial] = check_stats(self.game, card.kind, values)
            except ValueError as exc:
                raise DeckError(f"card #{serial} ({card.label()}): {exc}") from exc
        self._stats.update(clean)
        self.save()

    def counts(self) -> dict[str, int]:
        """Card id -> number of physical cards, in serial order."""
        return dict(self._counts)

    def set_counts(self, counts: dict[str, int]) -> None:
        """Change how many cards of each kind the deck has (The Nasty 7) and save it.

        Serials follow the counts, so tags printed before the change name other
        cards: print the tags again afterwards.
        """
        if self.game not in EDITABLE_COUNTS:
            raise DeckError(f"the {self.game} deck's card counts are fixed by the game")
        unknown = sorted(set(counts) - set(self._counts))
        if unknown:
            kinds = ", ".join(self._counts)
            raise DeckError(f"unknown card kind(s) {', '.join(unknown)}; the kinds are {kinds}")
        merged = {k: int(counts.get(k, v)) for k, v in self._counts.items()}
        if any(v < 0 for v in merged.values()) or sum(merged.values()) == 0:
            raise DeckError("counts must be 0 or more, and the deck must have at least one card")
        if sum(merged.values()) > pl.MAX_SERIAL:
            raise DeckError(f"a deck holds at most {pl.MAX_SERIAL} cards")
        self._counts = merged
        self._rebuild()
        self.save()


def list_decks(state_dir: Path | None = None) -> list[Deck]:
    """Every readable deck in the state directory, by name (damaged files are skipped)."""
    decks = []
    for path in sorted(decks_dir(state_dir).glob("*.json")):
        try:
            decks.append(Deck.from_file(path))
        except DeckError:
            continue
    return decks
