"""The host page lists each game that has not reached the league yet (issue 37): the
league's refusal in its own words (kept, never sent again), or the last try's problem
and when the table tries again; on a phone, by the host."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask

from companion.outbox import Link, Outbox, outbox_path
from companion.table import Table
from tests.browser import BROWSER, shot, too_wide
from tests.league.tables import store_finished
from tests.web.conftest import as_host
from web.auth import host_token

REFUSED = "a league game needs at least 2 players: this one has 1"
AWAY = "the league cannot be reached (connection refused)"


def _waiting(table: Table, state_dir: Path, tmp_path: Path) -> None:
    """Three finished games in the table's outbox: one refused, two waiting."""
    from companion.store import SqliteStore

    games = store_finished(SqliteStore(tmp_path / "events.sqlite3"))
    box = Outbox(outbox_path(state_dir, table.store))
    try:
        assert box.collect(games) == 3
        box.set_link(Link("http://192.168.1.20:8090", "t1", "token", "Window table"), 0.0)
        answers = iter([(422, REFUSED), (0, "")])

        def send(url: str, token: str, body: dict[str, Any]) -> tuple[int, str]:
            code, reason = next(answers)
            if code == 0:
                raise ConnectionRefusedError("connection refused")
            return code, reason

        assert box.push_due(time.time(), send) == 0
    finally:
        box.close()
        games.close()


def test_the_host_page_lists_games_not_in_the_league(app: Flask, table: Table,
                                                     state_dir: Path, tmp_path: Path) -> None:
    _waiting(table, state_dir, tmp_path)
    page = as_host(app, state_dir).get("/host/league").get_data(as_text=True)
    assert "Not in the league yet" in page
    assert f"Refused by the league: {REFUSED} (kept here; it will not be sent again)" in page
    # the league away: the round stops at the first game, and both wait for the next
    assert page.count(f"Last try: {AWAY}.") == 1
    assert len(re.findall(r"Next try (in \d+ min|at the next round)", page)) == 2
    assert "Ana" in page and "Ben" in page


@BROWSER[0]
@BROWSER[1]
def test_on_a_phone_the_host_reads_them(live_url: str, table: Table, state_dir: Path,
                                        tmp_path: Path, phone: Callable[..., Any]) -> None:
    from playwright.sync_api import expect

    _waiting(table, state_dir, tmp_path)
    page = phone()
    page.goto(f"{live_url}/host?token={host_token(state_dir)}")
    page.goto(f"{live_url}/host/league")
    expect(page.get_by_role("heading", name="Not in the league yet")).to_be_visible()
    expect(page.get_by_text(REFUSED)).to_be_visible()
    expect(page.get_by_role("button", name="Push now")).to_be_visible()
    assert too_wide(page) == []
    body = page.inner_text("body")
    assert "{" not in body and "t1" not in body.split()  # no JSON, no table key
    shot(page, "host-league-waiting-phone")
