"""A deck's card stats as a CSV sheet: exported so a club types them once, imported whole.

One row per physical card: ``card`` (the name printed beside its tag, "Crook 07"),
``kind``, then every stats field the game has (empty when not entered). ``import_sheet``
checks every row before it keeps anything: a bad row is refused with its row number and
what is wrong; nothing is half-imported. A value of a pick-list (Crime Lords' district,
Racket type, Weakness) must be one of the list (any case: "casino" is kept as "Casinos").
"""

from __future__ import annotations

import csv
import importlib
import io
from typing import Any

from companion import games
from companion.decks.deck import Deck
from companion.decks.errors import DeckError
from companion.decks.games import stats_choices, stats_fields

#: rows at most in one import (a deck has about a hundred cards)
MAX_ROWS = 2000


def sheet_columns(game: str) -> list[str]:
    """``card``, ``kind``, then every stats field of ``game`` (each once, in order)."""
    fields: list[str] = []
    for kind_fields in stats_fields(game).values():
        fields += [f for f in kind_fields if f not in fields]
    # the name first, numbers next, long texts last: the order a card is read in
    first = [f for f in ("name", "power", "resistance", "income", "district", "type",
                         "weakness") if f in fields]
    return ["card", "kind", *first, *(f for f in fields if f not in first)]


def export_sheet(deck: Deck) -> str:
    """Every physical card of ``deck`` with its stats, as CSV text."""
    columns = sheet_columns(deck.game)
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    for serial, card in deck.physical():
        stats = deck.card_stats(serial) or {}
        writer.writerow({"card": card.label(), "kind": card.kind,
                         **{k: stats.get(k, "") for k in columns[2:]}})
    return out.getvalue()


def import_sheet(deck: Deck, text: str) -> int:
    """Keep the stats of every row of the CSV ``text`` in ``deck``; how many cards got
    stats. DeckError names the first bad row (its number as a spreadsheet shows it) and
    what is wrong; then nothing is kept."""
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    if not rows or not any(cell.strip() for cell in rows[0]):
        raise DeckError("The file is empty: export the sheet first, fill it in, then "
                        "import it.")
    header = [h.strip().lower() for h in rows[0]]
    allowed = sheet_columns(deck.game)
    unknown = [h for h in header if h and h not in allowed]
    if "card" not in header or unknown:
        what = f"unknown column {unknown[0]!r}" if unknown else "no 'card' column"
        raise DeckError(f"Row 1: {what}. The columns are: {', '.join(allowed)}.")
    if len(rows) > MAX_ROWS:
        raise DeckError(f"The file has {len(rows)} rows: at most {MAX_ROWS}.")
    by_label: dict[str, int] = {}
    for serial, card in deck.physical():
        by_label.setdefault(card.label().lower(), serial)
    found: dict[int, dict[str, Any]] = {}
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        values = {h: (row[i].strip() if i < len(row) else "") for i, h in enumerate(header) if h}
        serial = by_label.get(values.pop("card", "").lower(), 0)
        if not serial:
            raise DeckError(f"Row {number}: no card named {row[header.index('card')][:40]!r} "
                            "in this deck (write it as the sheet does, e.g. 'Crook 07').")
        if serial in found:
            raise DeckError(f"Row {number}: {deck.card_name(serial)} is already on an "
                            "earlier row.")
        found[serial] = _row_stats(deck, serial, values, number)
    try:
        deck.set_many_stats({s: v for s, v in found.items() if v})
    except DeckError as exc:
        raise DeckError(f"Nothing was imported: {exc}") from exc
    return sum(1 for v in found.values() if v)


def _row_stats(deck: Deck, serial: int, values: dict[str, str], number: int) -> dict[str, Any]:
    card = deck.card(serial)
    assert card is not None
    where = f"Row {number} ({card.label()})"
    kind = values.pop("kind", "")
    if kind and kind.lower() != card.kind:
        raise DeckError(f"{where}: this card is a {card.kind}, not a {kind[:20]!r}.")
    fields = stats_fields(deck.game).get(card.kind, {})
    stats: dict[str, Any] = {}
    for key, raw in values.items():
        if raw == "":
            continue
        if key not in fields:
            raise DeckError(f"{where}: a {card.kind} has no {key.replace('_', ' ')} "
                            "(leave that cell empty).")
        if fields[key] == "int":
            try:
                stats[key] = int(raw)
            except ValueError:
                raise DeckError(f"{where}: the {key.replace('_', ' ')} must be a whole "
                                f"number, not {raw[:20]!r}.") from None
            continue
        problem, stats[key] = _picked(deck.game, key, raw)
        if problem:
            raise DeckError(f"{where}: {problem}")
    return stats


def _picked(game: str, key: str, raw: str) -> tuple[str | None, str]:
    """A pick-list value checked and spelt as the list does; other text as typed."""
    if key not in stats_choices(game):
        return None, raw
    # the game's own words (``companion/games/<game>/vocab.py``, where its cards have
    # pick-lists): how a value is checked and spelt is the game's business
    vocab = importlib.import_module(f"companion.games.{games.canonical(game)}.vocab")
    return vocab.choice_problem(key, raw), vocab.tidy(key, raw)
