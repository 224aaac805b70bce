"""``companion deck``: make, list and adjust decks (each with its own secret key)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from companion import games
from companion.decks import Deck, DeckError, decks_dir, list_decks
from companion.decks.games import game_title
from companion.decks.sheet import export_sheet, import_sheet


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``deck new``, ``deck list`` and ``deck split``."""
    sub = parser.add_subparsers(dest="deck_command", metavar="ACTION")
    new = sub.add_parser("new", help="make a deck with a fresh secret key")
    new.add_argument("game", help=games.names_text())
    new.add_argument("--name", required=True, help="the deck's name, e.g. 'home'")
    listing = sub.add_parser("list", help="the decks in the state directory")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    split = sub.add_parser(
        "split", help="show or set how many cards of each kind a Nasty 7 deck has"
    )
    split.add_argument("name", help="the deck")
    split.add_argument("counts", nargs="*", metavar="KIND=N", help="e.g. racketeer=60 gun=10")
    out = sub.add_parser("export-stats", help="a deck's card stats as a CSV sheet")
    out.add_argument("name", help="the deck")
    out.add_argument("--out", type=Path, help="the CSV file (default: standard output)")
    into = sub.add_parser("import-stats", help="card stats from a CSV sheet (all rows or none)")
    into.add_argument("name", help="the deck")
    into.add_argument("sheet", type=Path, help="the CSV file (as export-stats writes it)")


def run(args: argparse.Namespace) -> int:
    """Dispatch to the deck action; 1 with a message on stderr when it fails."""
    actions = {"new": _new, "list": _list, "split": _split, "export-stats": _export,
               "import-stats": _import}
    action = actions.get(args.deck_command or "")
    if action is None:
        print("companion deck: say what to do: new, list, split, export-stats or import-stats "
              "(see --help)", file=sys.stderr)
        return 2
    try:
        return action(args)
    except DeckError as exc:
        print(f"companion deck: {exc}", file=sys.stderr)
        return 1


def _new(args: argparse.Namespace) -> int:
    if args.name.startswith("demo-"):
        raise DeckError("names starting with 'demo-' are kept for the demo decks; choose another")
    deck = Deck.new(args.game, args.name)
    print(
        f"made deck {deck.name!r}: {game_title(deck.game)}, {deck.total()} cards, id {deck.deck_id}"
        f"\nits secret key is in {deck.path} (keep a backup: lost key = print new tags)"
        f"\nnext: companion tags {deck.game} --deck {deck.name} --out {deck.name}.pdf"
    )
    return 0


def _list(args: argparse.Namespace) -> int:
    decks = list_decks()
    if args.json:
        rows = [
            {
                "name": d.name,
                "game": d.game,
                "id": d.deck_id,
                "cards": d.total(),
                "created": d.created,
            }
            for d in decks
        ]
        print(json.dumps(rows, indent=2))
        return 0
    if not decks:
        print(f"no decks in {decks_dir()}; make one with 'companion deck new GAME --name NAME'")
        return 0
    for d in decks:
        print(
            f"{d.name:<20} {game_title(d.game):<12} id {d.deck_id}  {d.total():>4} cards  {d.created}"
        )
    return 0


def _split(args: argparse.Namespace) -> int:
    deck = Deck.load(args.name)
    if args.counts:
        wanted: dict[str, int] = {}
        for item in args.counts:
            kind, _, number = item.partition("=")
            if not number.strip().isdigit():
                raise DeckError(f"bad count {item!r}; write KIND=N, e.g. racketeer=60")
            wanted[kind.strip()] = int(number)
        deck.set_counts(wanted)
        print("changed: print this deck's tags again, the serials follow the counts")
    for kind, count in deck.counts().items():
        print(f"{kind:<16} {count:>4}")
    print(f"{'total':<16} {deck.total():>4}")
    return 0


def _export(args: argparse.Namespace) -> int:
    text = export_sheet(Deck.load(args.name))
    if args.out is None:
        sys.stdout.write(text)
        return 0
    args.out.write_text(text, encoding="utf-8")
    print(f"wrote the card stats of deck {args.name!r} to {args.out}")
    return 0


def _import(args: argparse.Namespace) -> int:
    try:
        text = args.sheet.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DeckError(f"cannot read {args.sheet}: {exc}") from exc
    count = import_sheet(Deck.load(args.name), text)
    print(f"imported the stats of {count} card{'' if count == 1 else 's'} into deck "
          f"{args.name!r}")
    return 0
