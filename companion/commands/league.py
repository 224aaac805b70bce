"""``companion league ...``: the league server (PostgreSQL), and the admin's fixes.

``serve`` runs the server; ``games`` lists the games the rater left out (with why), the
void ones and the recent ones, each with the league's number for it (``#12``); ``void``
and ``restore`` a game by that number, ``seat`` changes who sat at one of its seats (who
and why kept); ``merge`` makes two names one player; ``add-player`` before game
night; ``cards`` prints every player's card (PDF, QR codes on ``--url``); ``export``
writes the whole league as a BG Stats play file.

The only module of companion/web/vision/hardware that imports ``league``: the Pi never
loads it. ``--db`` (or ``LEAGUE_DATABASE_URL``) names the PostgreSQL database; the
league's secrets (admin token, cookie key) live in ``--dir``.
"""

from __future__ import annotations

import argparse
import getpass
import logging
import os
import sys
from pathlib import Path
from typing import Any

from companion.paths import state_dir


def _db(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=os.environ.get("LEAGUE_DATABASE_URL", ""),
                   help="PostgreSQL, e.g. postgresql://league@localhost/league "
                        "(default: $LEAGUE_DATABASE_URL)")


def _change(p: argparse.ArgumentParser) -> None:
    _db(p)
    p.add_argument("game", help="the game's number, as 'companion league games' shows it (#12)")
    p.add_argument("--why", required=True, help="why (kept with the change)")
    p.add_argument("--by", default=getpass.getuser(), help="who (default: your user name)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="league_command", metavar="ACTION")
    serve = sub.add_parser("serve", help="run the league server")
    _db(serve)
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on")
    serve.add_argument("--port", type=int, default=8090, help="port (default 8090)")
    serve.add_argument("--dir", type=Path, default=None,
                       help="folder for the league's secrets (default: the state folder)")
    serve.add_argument("--url", default="",
                       help="the address tables reach the league at (for join codes)")
    serve.add_argument("--threads", type=int, default=16, help="request threads")
    _db(sub.add_parser("games", help="games left out by the rater, void ones, recent ones"))
    _change(sub.add_parser("void", help="leave a game out of every standing"))
    _change(sub.add_parser("restore", help="count a void game again"))
    seat = sub.add_parser("seat", help="change who sat at a seat of a game")
    _change(seat)
    seat.add_argument("--seat", type=int, required=True,
                      help="the seat, counted from 1 in the order 'companion league games' "
                           "lists the players")
    seat.add_argument("--player", required=True, help="who sat there: a league player's name")
    merge = sub.add_parser("merge", help="two names that are one player: keep one")
    _db(merge)
    merge.add_argument("gone", help="the name to merge away (its games become the other's)")
    merge.add_argument("--into", required=True, help="the name to keep")
    add = sub.add_parser("add-player", help="a player before their first game")
    _db(add)
    add.add_argument("name")
    cards = sub.add_parser("cards", help="every player's card as a PDF to print")
    _db(cards)
    cards.add_argument("--url", required=True,
                       help="the address phones reach the league at (in the QR codes)")
    cards.add_argument("--out", type=Path, required=True, help="the PDF to write")
    export = sub.add_parser("export", help="the whole league as a BG Stats play file")
    _db(export)
    export.add_argument("--out", type=Path, required=True, help="the .bgsplay file to write")


def run(args: argparse.Namespace) -> int:
    action = getattr(args, "league_command", None)
    if action is None:
        print("usage: companion league {serve,games,void,restore,seat,merge,add-player,cards,export} "
              "--db postgresql://...", file=sys.stderr)
        return 2
    if not args.db:
        print(f"companion league {action}: say which PostgreSQL database to use with --db "
              "postgresql://user@host/dbname (or set LEAGUE_DATABASE_URL)", file=sys.stderr)
        return 2
    if action != "serve":
        return _admin(action, args)
    logging.basicConfig(level=logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from league.app import create_app
    from league.auth import admin_token
    from league.db import DatabaseError, open_pool
    from league.server import READ_THREADS, serve

    folder = args.dir or state_dir() / "league"
    try:  # a connection for each writer thread, each reader thread and the rater
        pool = open_pool(args.db, size=max(4, min(args.threads, 32)) + READ_THREADS + 1)
    except DatabaseError as exc:
        print(f"companion league serve: {exc}", file=sys.stderr)
        return 1
    app = create_app(pool, folder, public_url=args.url.rstrip("/"))
    shown = args.host if args.host not in ("", "0.0.0.0", "::") else "localhost"

    def ready(port: int) -> None:
        print(f"League: http://{shown}:{port}/", flush=True)
        print(f"Admin: http://{shown}:{port}/admin?token={admin_token(folder)}", flush=True)

    try:
        serve(app, args.host, args.port, threads=args.threads, on_ready=ready)
    finally:
        pool.close()
    return 0


def _admin(action: str, args: argparse.Namespace) -> int:
    from league.db import DatabaseError, open_pool
    from league.store import ChangeError

    try:
        pool = open_pool(args.db, size=1)
    except DatabaseError as exc:
        print(f"companion league {action}: {exc}", file=sys.stderr)
        return 1
    try:
        return _ADMIN[action](pool, args)
    except (ChangeError, ValueError) as exc:
        print(f"companion league {action}: {exc}", file=sys.stderr)
        return 1
    finally:
        pool.close()


def _number(text: str) -> int:
    try:
        return int(text.lstrip("#"))
    except ValueError:
        raise ValueError(f"'{text}' is not a game's number: 'companion league games' "
                         "lists them (#12)") from None


def _games(pool: Any, args: argparse.Namespace) -> int:
    from companion.exports import title
    from league.app import when
    from league.queries import admin_games

    for which, heading in (("quarantined", "Left out by the rater"), ("void", "Void"),
                           ("recent", "Recent")):
        found = admin_games(pool, which)
        print(f"{heading}: {len(found) or 'none'}")
        for g in found:
            seats = ", ".join(f"{n} ({q})" for n, q in zip(g.names, g.places, strict=True))
            print(f"  #{g.ref}  {title(g.game)} at {g.table}, {when(g.finished_at)}: {seats}")
            if g.quarantine:
                print(f"        {g.quarantine}")
            if g.voided and g.change:
                print(f"        voided by {g.change[1]} on {when(g.change[3])}: {g.change[2]}")
    return 0


def _void(pool: Any, args: argparse.Namespace) -> int:
    from league.store import void

    void(pool, _number(args.game), args.by, args.why)
    print(f"Game #{_number(args.game)} is void; the league's rater rates from it again.")
    return 0


def _restore(pool: Any, args: argparse.Namespace) -> int:
    from league.store import restore

    restore(pool, _number(args.game), args.by, args.why)
    print(f"Game #{_number(args.game)} counts again.")
    return 0


def _player(pool: Any, name: str) -> int:
    from league.queries import player_named

    found = player_named(pool, name)
    if found is None:
        raise ValueError(f"Nobody called '{' '.join(name.split())}' is in the league: "
                         "'companion league games' shows the names (or add the player "
                         "with 'companion league add-player').")
    return found


def _seat(pool: Any, args: argparse.Namespace) -> int:
    from league.store import set_seat

    ref = _number(args.game)
    set_seat(pool, ref, args.seat - 1, _player(pool, args.player), args.by, args.why)
    print(f"Seat {args.seat} of game #{ref} is {' '.join(args.player.split())}'s; the "
          "league's rater rates the game again.")
    return 0


def _merge(pool: Any, args: argparse.Namespace) -> int:
    from league.store import merge

    merge(pool, _player(pool, args.into), _player(pool, args.gone))
    print(f"{' '.join(args.gone.split())}'s games are {' '.join(args.into.split())}'s now; "
          "the league's rater rates them again.")
    return 0


def _add_player(pool: Any, args: argparse.Namespace) -> int:
    from league.store import add_player

    add_player(pool, args.name)
    print(f"{' '.join(args.name.split())} is in the league; 'companion league cards' prints "
          "their card.")
    return 0


def _cards(pool: Any, args: argparse.Namespace) -> int:
    from league.cards import cards_pdf
    from league.queries import player_cards

    if not args.url.startswith(("http://", "https://")):
        raise ValueError("--url must be the league's address as phones reach it, like "
                         "http://club-laptop:8090")
    args.out.write_bytes(cards_pdf(player_cards(pool), args.url))
    print(f"Player cards: {args.out}")
    return 0


def _export(pool: Any, args: argparse.Namespace) -> int:
    from companion.exports import bgstats_league_text
    from league.queries import everything_named

    args.out.write_text(bgstats_league_text(everything_named(pool)), encoding="utf-8")
    print(f"BG Stats play file: {args.out}")
    return 0


_ADMIN = {"games": _games, "void": _void, "restore": _restore, "seat": _seat,
          "merge": _merge, "add-player": _add_player,
          "cards": _cards, "export": _export}
