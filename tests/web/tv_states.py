"""Bring a live table to a moment of a recorded game: the TV tests' states.

``play(table, game, record, until)`` starts the record's game on ``table`` (a ``Table``
with a ``FrozenClock``) and sends the record's actions as the host, each at its recorded
time, up to the first state where the table waits ``on`` that (``until="end"``: every
line; ``"start"``: none; a number: that many lines). Deadlines due between two lines are
committed by the next line, as in a replay; the frozen clock never fires one by itself.
``play_on(table, game, record, untils)`` brings one game to several moments in turn
(one replay for all of them). ``crowded_crime_lords(n, crooks, rackets)``: a Crime Lords
game of ``n`` Mobs (up to the game's eight) of that many Crooks and Rackets each, set up
as the auction leaves it, as record lines. ``random_lines(game, n, seed)``: a seeded game
of ``n`` seats built from ``moves()`` alone, as record lines (``start_random`` starts it).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from companion import games
from companion.demo import source_of
from companion.games.base import IllegalAction
from companion.inputs import HOST, Command
from companion.records import VERSION, _as_read_then, parse_header
from companion.session import Session
from companion.store import MemoryStore
from companion.table import Table
from tests.games.walk import lines, random_game
from tests.wait import SAFETY  # a safety net of minutes

RECORDS = Path(__file__).resolve().parents[1] / "records"


class FrozenClock:
    """A clock that stands still: the table's deadlines come only with the next line."""

    def __call__(self) -> float:
        return 1000.0


def _actions(game: str, record: str) -> tuple[Any, list[dict[str, Any]]]:
    text = lines(RECORDS / game / f"{record}.jsonl")
    header = parse_header(json.loads(text[0]))
    out = []
    for raw in text[1:]:
        action = json.loads(raw)
        if header.version < VERSION:
            action = _as_read_then(games.get(game), header.version, action)
        out.append(action)
    return header, out


def kept_lines(game: str, record: str) -> tuple[Any, list[dict[str, Any]], list[str]]:
    """The record's header, the lines the rules accept (a record may hold refusals), and
    what the table waits ``on`` before the first of them and after each (one more than
    the lines)."""
    header, actions = _actions(game, record)
    engine = games.get(game)
    session = Session.start(engine, header.setup())
    kept: list[dict[str, Any]] = []
    ons = [engine.waiting(session.state).on]
    for action in actions:
        a = dict(action)
        t = float(a.pop("t"))
        session, _ = session.preview_deadlines(t)
        try:
            session, _ = session.preview(a, t)
        except IllegalAction:
            continue
        kept.append(action)
        ons.append(engine.waiting(session.state).on)
    return header, kept, ons


#: a moment of a record: a ``waiting.on``, "start", "end", or a number of lines played
Until = str | int


def moment(record: str, kept: list[dict[str, Any]], ons: list[str], until: Until,
           after: int = 0) -> int:
    """How many of the ``kept`` lines bring the game to ``until`` (a ``waiting.on``: the
    first state at or after ``after`` lines that waits on it)."""
    if until == "start":
        return 0
    if until == "end":
        return len(kept)
    if isinstance(until, int):
        assert 0 <= until <= len(kept), f"{record} has {len(kept)} lines, not {until}"
        return until
    if until not in ons[after:-1]:  # waited on before a line
        raise AssertionError(f"{record} never waits on {until!r} after {after} lines")
    return ons.index(until, after)


def lines_until(game: str, record: str, until: Until) -> tuple[Any, list[dict[str, Any]]]:
    """The record's header and its actions up to the first state waiting ``on`` ``until``."""
    header, kept, ons = kept_lines(game, record)
    return header, kept[:moment(record, kept, ons, until)]


def still_table() -> Iterator[Table]:
    """A table whose clock stands still (the TV tests' states come from records): a test
    module takes it as its ``table`` fixture (``table = pytest.fixture(still_table,
    name="table")``)."""
    t = Table(MemoryStore(), clock=FrozenClock())
    t.start()
    yield t
    t.stop()


def play(table: Table, game: str, record: str, until: Until) -> None:
    """Start ``record``'s game on ``table`` and play it up to ``until`` (see the module)."""
    header, actions = lines_until(game, record, until)
    send_lines(table, game, actions, start_record(table, game, header))


def play_on(table: Table, game: str, record: str,
            untils: Sequence[Until]) -> Iterator[tuple[Until, int]]:
    """Start ``record``'s game on ``table`` and bring it to each of ``untils`` in turn
    (each after the one before), yielding it and how many lines were played: one replay
    for every moment, none from the start again."""
    header, kept, ons = kept_lines(game, record)
    origin, done = start_record(table, game, header), 0
    for until in untils:
        n = moment(record, kept, ons, until, done)
        assert n >= done, f"{record}: {until!r} comes before the moment shown last"
        send_lines(table, game, kept[done:n], origin)
        done = n
        yield until, n


def start_record(table: Table, game: str, header: Any) -> float:
    """Start the record's game on ``table``; the table's time of the record's 0."""
    res = table.submit(Command("start", {"game": game, "players": list(header.seats),
                                         "options": dict(header.options),
                                         "seed": header.seed})).result(SAFETY)
    assert res.accepted, res.reason
    return table.clock() - table.now()


def send_lines(table: Table, game: str, actions: list[dict[str, Any]],
               origin: float) -> None:
    """Send each record line by its sender (its ``by``; an undo by the host) at its
    recorded time after ``origin``; a ``time`` line only moves the clock."""
    for action in actions:
        a = dict(action)
        t = float(a.pop("t"))
        if a.get("do") == "time":
            continue
        cmd = Command("undo") if a.get("do") == "undo" else Command("action", {"action": a})
        sender = HOST if cmd.name == "undo" else source_of(a, game)  # by each action's `by`
        res = table.submit(Command(cmd.name, cmd.args, source=sender, at=origin + t)
                           ).result(SAFETY)
        assert res.accepted, f"{game}: {a} refused: {res.reason}"


#: the players of a crowded table (names of several lengths, as a real table has)
CROWD = ("Ann", "Benedikt", "Cy", "Dee", "Evangeline", "Finn", "Gus", "Hal")
_MOBS = ("The Old Family", "The Syndicate", "The Tongs", "The Downtowners",
         "The Purple Gang", "The Westies", "The Black Hand", "The Outfit")
_CROOKS = ("Mom Parker", "Bro Bronson", "Anita Callahan", "Judge Cohen", "Shyster Shatner",
           "Kid Rocco", "Tony Two-Tone", "Sal the Fish", "Gimpy", "Big Louie Vitale",
           "Fast Eddie", "Mad Dog Malone", "Lucky Lucille", "Knuckles O'Hara",
           "Doc Holloway", "The Professor", "Johnny Ice", "Sweet Sue", "Benny the Blade",
           "Countess Orlova", "Fat Tony", "Slim Jimmy", "Mickey Two-Guns", "Velvet Vera",
           "Iron Mike", "Baby Face Nelson", "Sister Agatha", "Nicky Nails", "Old Man Moran",
           "Legs Diamond", "Dutch Schultz", "Frankie Yale", "Bugsy Goldstein", "Machine Gun Jack",
           "Polly Adler", "Cockeyed Louie")
_DISTRICTS = ("North Side", "South Side", "East Side", "West Side", "Central")
_TYPES = ("Casinos", "Crooked Precinct", "Loan Shark", "Numbers", "Protection", "Street Gang")
#: each Mob's Crooks, k-th of them: (Power, price, the one he is placed under): a Boss,
#: his Lieutenant, a Crook under that Lieutenant, a second Lieutenant, a Crook under him
_CROOK_PLAN = ((6, 10, None), (4, 5, 0), (2, 2, 1), (3, 1, 0), (1, 1, 3))


def crowded_crime_lords(n: int = 8, crooks: int = 3, rackets: int = 2,
                        ) -> tuple[list[str], dict[str, Any], list[dict[str, Any]]]:
    """The players, options and record lines of a Crime Lords game of ``n`` Mobs as the
    auction leaves it: each Mob ``crooks`` Crooks in a tree (a Boss, a Lieutenant, a Crook
    under him; from four on a second Lieutenant and a Crook under him: ``_CROOK_PLAN``)
    and ``rackets`` Rackets (eight Mobs of four Crooks and six Rackets: most of the deck's
    36 Crooks and 52 Rackets, the Mobs of a late game), three cards in the center, the
    game started, the first player's income collected; then a recruitment of an
    uncontrolled Crook (its showdown waits on every player: the busiest table)."""
    assert crooks <= len(_CROOK_PLAN) and crooks * n + 2 <= len(_CROOKS)
    lines: list[dict[str, Any]] = []

    def add(**action: Any) -> None:
        lines.append({"t": float(len(lines) + 1), **action})

    def crook(seat: int, k: int) -> str:
        return f"crook_{crooks * seat + k + 1:02d}"

    racket = iter(range(1, 53))
    for seat in range(n):
        add(do="take_mob", seat=seat, card=f"mob_{seat + 1:02d}",
            stats={"name": _MOBS[seat], "boss_bonus": 1 + seat % 3})
    for seat in range(n):
        for k, (power, price, _) in enumerate(_CROOK_PLAN[:crooks]):
            add(do="buy", seat=seat, card=crook(seat, k), price=price,
                stats={"name": _CROOKS[crooks * seat + k],
                       "power": max(0, power - (seat + k) % 2),
                       "resistance": 1 + (seat + 2 * k) % 6})
        for price in (4, 3, 1, 1, 1, 1)[:rackets]:
            r = next(racket)
            add(do="buy", seat=seat, card=f"racket_{r:02d}", price=price,
                stats={"name": f"{_DISTRICTS[r % 5]} {_TYPES[r % 6]}", "type": _TYPES[r % 6],
                       "income": 1 + r % 5, "resistance": 1 + r % 4,
                       "district": _DISTRICTS[r % 5]})
    for seat in range(n):
        add(do="choose_boss", seat=seat, card=crook(seat, 0))
        for k, (_, _, under) in enumerate(_CROOK_PLAN[1:crooks], start=1):
            add(do="place", seat=seat, card=crook(seat, k), under=crook(seat, under or 0))
    for k in range(2):
        add(do="uncontrolled", card=f"crook_{crooks * n + k + 1:02d}",
            stats={"name": _CROOKS[crooks * n + k], "power": 3 + k, "resistance": 2})
    r = next(racket)
    add(do="uncontrolled", card=f"racket_{r:02d}",
        stats={"name": f"{_DISTRICTS[r % 5]} {_TYPES[r % 6]}", "type": _TYPES[r % 6],
               "income": 3, "resistance": 2, "district": _DISTRICTS[r % 5]})
    add(do="start", first=0)
    add(do="collect", seat=0)
    add(do="attack", seat=0, kind="recruit", attacker=crook(0, 0),
        target=f"crook_{crooks * n + 1:02d}")
    options: dict[str, Any] = {"draw_rule": "free"}
    if crooks > 3 or rackets > 2:  # more than the auction's limits and money allow
        options.update(auction_crooks=None, auction_rackets=None, auction_money=100)
    return list(CROWD[:n]), options, lines


def random_lines(game: str, n_seats: int, seed: int, steps: int = 3000,
                 ) -> list[dict[str, Any]]:
    """The record lines of a seeded game of ``n_seats`` whose every line is a move
    ``moves()`` offered (``tests/games/walk.py``'s ``random_game``: the seats the table
    waits for first), played to its end or ``steps`` choices; start it with
    ``start_random`` (the same seed deals the same cards)."""
    walk = random_game(games.get(game), n_seats, seed, steps)
    return walk.states[-1][0].record_actions()


def start_random(table: Table, game: str, players: Sequence[str], seed: int) -> float:
    """Start ``game`` of ``players`` (default options) with ``seed`` on ``table``, as
    ``random_lines`` played it; the table's time of the lines' 0."""
    res = table.submit(Command("start", {"game": game, "players": list(players),
                                         "options": {}, "seed": seed})).result(SAFETY)
    assert res.accepted, res.reason
    return table.clock() - table.now()
