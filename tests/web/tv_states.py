"""Bring a live table to a moment of a recorded game: the TV tests' states.

``play(table, game, record, until)`` starts the record's game on ``table`` (a ``Table``
with a ``FrozenClock``) and sends the record's actions as the host, each at its recorded
time, up to the first state where the table waits ``on`` that (``until="end"``: every
line; ``"start"``: none). Deadlines due between two lines are committed by the next line,
as in a replay; the frozen clock never fires one by itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
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
from tests.games.walk import lines
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


def lines_until(game: str, record: str, until: str) -> tuple[Any, list[dict[str, Any]]]:
    """The record's header and its actions up to the first state waiting ``on`` ``until``."""
    header, kept, ons = kept_lines(game, record)
    if until == "start":
        return header, []
    if until == "end":
        return header, kept
    if until not in ons[:-1]:  # waited on before a line
        raise AssertionError(f"{record} never waits on {until!r}")
    return header, kept[:ons.index(until)]


def still_table() -> Iterator[Table]:
    """A table whose clock stands still (the TV tests' states come from records): a test
    module takes it as its ``table`` fixture (``table = pytest.fixture(still_table,
    name="table")``)."""
    t = Table(MemoryStore(), clock=FrozenClock())
    t.start()
    yield t
    t.stop()


def play(table: Table, game: str, record: str, until: str) -> None:
    """Start ``record``'s game on ``table`` and play it up to ``until`` (see the module)."""
    header, actions = lines_until(game, record, until)
    send_lines(table, game, actions, start_record(table, game, header))


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
