"""``companion tags GAME --deck NAME --out FILE.pdf``: printable stickers and a calibration card."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from companion import games
from companion.decks import CALIBRATION_SERIAL, Deck, DeckError, canonical_game, encode_payload
from companion.decks.games import game_title

if TYPE_CHECKING:
    from vision.tagsheet import Sticker


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``companion tags``."""
    parser.add_argument("game", help=games.names_text())
    parser.add_argument(
        "--deck", required=True, metavar="NAME", help="the deck (companion deck list)"
    )
    parser.add_argument(
        "--out", required=True, type=Path, metavar="FILE.pdf", help="the PDF to write"
    )
    parser.add_argument(
        "--size",
        type=float,
        default=12.0,
        metavar="MM",
        help="side of each code in mm, without its white margin (default 12; see the calibration card)",
    )
    parser.add_argument(
        "--paper", choices=("a4", "letter"), default="a4", help="paper size (default a4)"
    )
    parser.add_argument(
        "--lang", choices=("en", "de"), default="en", help="language of the card names (default en)"
    )


def stickers(deck: Deck, lang: str = "en") -> list[Sticker]:
    """One sticker per physical card of ``deck``: its code, its name, its number."""
    from vision.tagsheet import Sticker

    other = "de" if lang == "en" else "en"
    out = []
    total = deck.total()
    for serial, card in deck.physical():
        details = [f"No. {serial} of {total}"]
        alt = card.name.get(other)
        if alt and alt != card.label(lang):
            details.insert(0, alt)
        name = deck.card_name(serial, lang)
        out.append(Sticker(encode_payload(deck, serial), name, tuple(details)))
    return out


def run(args: argparse.Namespace) -> int:
    """Write the PDF; 1 with a message on stderr when the deck or options are wrong."""
    from vision.tagsheet import TagSheetError, write_tag_pdf

    try:
        game = canonical_game(args.game)
        deck = Deck.load(args.deck)
        if deck.game != game:
            raise DeckError(
                f"deck {deck.name!r} is a {deck.game} deck, not {game}; "
                f"run 'companion tags {deck.game} --deck {deck.name} ...'"
            )
        items = stickers(deck, args.lang)
        title = f"{game_title(game)} · deck {deck.name} ({deck.deck_id})"
        calibration = encode_payload(deck, CALIBRATION_SERIAL)
        pages = write_tag_pdf(args.out, items, calibration, title, args.size, args.paper)
    except (DeckError, TagSheetError) as exc:
        print(f"companion tags: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(
            f"companion tags: cannot write {args.out}: {exc.strerror}; choose another --out path",
            file=sys.stderr,
        )
        return 1
    print(
        f"wrote {args.out}: {len(items)} stickers on {pages - 1} page(s) and a calibration "
        f"card ({args.size:g} mm codes, {args.paper.upper()}). Print at 100 % (actual size)."
    )
    return 0
