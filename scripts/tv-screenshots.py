"""The TV of every game at every moment, as PNGs to look at: 1920×1080 and 1280×720.

    python scripts/tv-screenshots.py OUT_DIR [--game crime_lords ...]

Run from a checkout's root (it imports the checkout it is run in). First the idle TV (no
game yet), then, for a recorded game of each of the four games (``tests/records/<game>/``,
``RECORDS`` below), the TV at several moments: the start (no line played), the first
state of each kind of wait the record goes through (``waiting.on``: a turn, a protest, an
attack's showdown, a Gang War, a ruling...; each kind of panel shows there), the middle
of the game and its end; then a Crime Lords table of the game's most Mobs (eight) after
the first income and in a showdown, with Mobs as the auction leaves them and as big as a
late game's (four Crooks, six Rackets each); and Illegal with six players (the game's
most) in the middle of a hand and at its end, a seeded game built from ``moves()``. The record's lines are replayed on a live table whose clock
stands still, each line sent by its own sender (``tests/web/tv_states.py``'s way: the
table's plays, the host's rulings, the seats' moves); a line the rules refused in the
record is left out. The TV is the dashboard's own page (``/?tv=1``) in Debian's Chromium,
the host signed in (so the join codes show as on the host's TV), dark, fonts loaded.

Files: ``OUT_DIR/idle-<width>.png`` and ``OUT_DIR/<game>-<record>-<n>-<moment>-<width>.png``
(``n``: how many of the record's lines were played; ``<record>`` is ``8-mobs-<crooks>-<rackets>``
or ``6-players`` for the built games), and ``OUT_DIR/index.txt`` listing
each file with the scale ``static/tv.js`` drew the page at (below 1: the table did not
fit the screen, every word smaller than the TV's type sizes) and what the table waited
for then.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path.cwd()))  # the checkout it is run in, before any installed one

from companion import games  # noqa: E402
from companion.config import WebConfig  # noqa: E402
from companion.inputs import Command  # noqa: E402
from companion.store import MemoryStore  # noqa: E402
from companion.table import Table  # noqa: E402
from tests.browser import launch  # noqa: E402
from tests.web.tv_states import (  # noqa: E402
    CROWD,
    FrozenClock,
    crowded_crime_lords,
    kept_lines,
    random_lines,
    send_lines,
    start_random,
    start_record,
)
from web import create_app  # noqa: E402
from web.auth import host_token  # noqa: E402
from web.server import make_server, stop  # noqa: E402

SIZES = [(1920, 1080), (1280, 720)]
#: the recorded games replayed, per game (the longest of each, and Crime Lords' Gang War)
RECORDS = {
    "nasty7": ["full_game"],
    "illegal": ["three_hand_match"],
    "casablanca": ["full_game", "board_moves"],  # the second on the default board: drawn
    "crime_lords": ["full_game", "war_one_hit"],
}
#: how long a page may take to show the table (a safety net, never what is measured)
SAFETY_MS = 120_000


def moments(ons: list[str]) -> list[tuple[int, str]]:
    """(lines played, name): the start, the first state of each kind of wait, the
    middle, the end."""
    out: dict[int, str] = {0: "start"}
    seen: set[str] = set()
    for i, on in enumerate(ons, start=1):
        if on not in seen:
            seen.add(on)
            out.setdefault(i, on or "waiting")
    out.setdefault(len(ons) // 2, "middle")
    out[len(ons)] = "end"
    return sorted(out.items())


@contextmanager
def served(state_dir: Path) -> Iterator[tuple[Table, str]]:
    """A table whose clock stands still and the dashboard serving it on loopback."""
    table = Table(MemoryStore(), clock=FrozenClock())
    table.start()
    app = create_app(table, web_config=WebConfig(port=8080), state_dir=state_dir,
                     testing=True)
    server = make_server(app, "127.0.0.1", 0, 24)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    try:
        yield table, f"http://127.0.0.1:{server.bind_addr[1]}"
    finally:
        stop(app, server)
        thread.join(60)
        table.stop()


class Screens:
    """One dark browser window per TV size, signed in as the host."""

    def __init__(self, browser: Any, url: str, state_dir: Path) -> None:
        self.pages = []
        for width, height in SIZES:
            ctx = browser.new_context(viewport={"width": width, "height": height},
                                      color_scheme="dark")
            ctx.set_default_timeout(SAFETY_MS)
            page = ctx.new_page()
            page.goto(f"{url}/host?token={host_token(state_dir)}")
            self.pages.append((width, page))
        self.url = url

    def save(self, out: Path, stem: str, seq: int | None) -> list[tuple[Path, str]]:
        """Each size's screenshot and the scale ``static/tv.js`` fitted the page to (below
        1: the table did not fit and every word is drawn that much smaller)."""
        files = []
        for width, page in self.pages:
            page.goto(f"{self.url}/?tv=1")
            page.wait_for_function("document.documentElement.dataset.tvScale !== undefined")
            if seq is not None:
                page.wait_for_selector("#conn.live")
            page.evaluate("() => document.fonts.ready.then(() => null)")
            path = out / f"{stem}-{width}.png"
            page.screenshot(path=str(path))
            files.append((path, str(page.evaluate(
                "document.documentElement.dataset.tvScale"))))
        return files

    def close(self) -> None:
        for _, page in self.pages:
            page.context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the folder the PNGs go to")
    parser.add_argument("--game", action="append", choices=sorted(RECORDS),
                        help="only this game (may be given again); default: all four")
    args = parser.parse_args(argv)
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    index: list[str] = []
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p, tempfile.TemporaryDirectory() as tmp:
        browser = launch(p)
        with served(Path(tmp) / "idle") as (_, url):
            screens = Screens(browser, url, Path(tmp) / "idle")
            index += [f"{f.name}\tscale {k}\tno game yet"
                      for f, k in screens.save(out, "idle", None)]
            screens.close()
        for game in args.game or list(RECORDS):
            if game not in games.available():
                print(f"{game} is not installed: skipped", file=sys.stderr)
                continue
            for record in RECORDS[game]:
                header, lines, ons = kept_lines(game, record)
                ons = ons[1:]  # what it waits on after each line
                state_dir = Path(tmp) / f"{game}-{record}"
                with served(state_dir) as (table, url):
                    screens = Screens(browser, url, state_dir)
                    done, origin = 0, None
                    for n, name in moments(ons):
                        origin = replay_to(table, game, header, lines, done, n, origin)
                        done = n
                        waits = ons[n - 1] if n else "the first move"
                        stem = f"{game}-{record}-{n:03d}-{name}"
                        files = screens.save(out, stem, table.hub.latest().seq)
                        index += [f"{f.name}\tscale {k}\t{n} of {len(lines)} lines; "
                                  f"waits on {waits}" for f, k in files]
                        print(f"{stem}: {n} of {len(lines)} lines", flush=True)
                    screens.close()
        chosen = args.game or list(RECORDS)
        if "crime_lords" in chosen and "crime_lords" in games.available():
            for crooks, rackets in ((3, 2), (4, 6)):
                index += crowded(browser, out, Path(tmp) / f"crowded-{crooks}", crooks, rackets)
        if "illegal" in chosen and "illegal" in games.available():
            index += six_players(browser, out, Path(tmp) / "illegal-6")
        browser.close()
    (out / "index.txt").write_text("\n".join(index) + "\n", encoding="utf-8")
    print(f"{len(index)} screenshots in {out}")
    return 0


def crowded(browser: Any, out: Path, state_dir: Path, crooks: int, rackets: int) -> list[str]:
    """Crime Lords with the game's most Mobs (``tv_states.crowded_crime_lords``) of
    ``crooks`` Crooks and ``rackets`` Rackets each: after the first player's income and
    during a recruitment's showdown."""
    engine = games.get("crime_lords")
    players, options, lines = crowded_crime_lords(engine.max_seats, crooks, rackets)
    with served(state_dir) as (table, url):
        res = table.submit(Command("start", {"game": "crime_lords", "players": players,
                                             "options": options})).result(SAFETY_MS / 1000)
        assert res.accepted, res.reason
        origin = table.clock() - table.now()
        screens = Screens(browser, url, state_dir)
        index = shoot_steps(table, screens, out, "crime_lords", lines, origin,
                            ((len(lines) - 1, "turn"), (len(lines), "showdown")),
                            f"crime_lords-{len(players)}-mobs-{crooks}-{rackets}")
        screens.close()
    return index


def six_players(browser: Any, out: Path, state_dir: Path) -> list[str]:
    """Illegal with the game's most players (``tv_states.random_lines``, seed 6): the
    middle of the hand and its end (the Day of Accounting)."""
    n = games.get("illegal").max_seats
    lines = random_lines("illegal", n, seed=n)
    with served(state_dir) as (table, url):
        origin = start_random(table, "illegal", CROWD[:n], seed=n)
        screens = Screens(browser, url, state_dir)
        index = shoot_steps(table, screens, out, "illegal", lines, origin,
                            ((len(lines) // 2, "middle"), (len(lines), "end")),
                            f"illegal-{n}-players")
        screens.close()
    return index


def shoot_steps(table: Any, screens: Screens, out: Path, game: str,
                lines: list[dict[str, Any]], origin: float,
                steps: tuple[tuple[int, str], ...], prefix: str) -> list[str]:
    """Send ``lines`` up to each step's count and save the TV there as
    ``<prefix>-<count>-<name>``; the index lines of the screenshots saved."""
    index: list[str] = []
    done = 0
    for n, name in steps:
        send_lines(table, game, lines[done:n], origin)
        done = n
        stem = f"{prefix}-{n:03d}-{name}"
        index += [f"{f.name}\tscale {k}\t{n} of {len(lines)} lines; {name}"
                  for f, k in screens.save(out, stem, table.hub.latest().seq)]
        print(f"{stem}: {n} of {len(lines)} lines", flush=True)
    return index


def replay_to(table: Table, game: str, header: Any, lines: list[dict[str, Any]],
              done: int, until: int, origin: float | None) -> float:
    """Bring ``table`` from ``done`` lines played to ``until``, each line sent by its
    sender at its recorded time (``origin``: the table's time of the record's 0; None:
    start the game first). Returns ``origin``."""
    if origin is None:
        origin = start_record(table, game, header)
    send_lines(table, game, lines[done:until], origin)
    return origin


if __name__ == "__main__":
    sys.exit(main())
