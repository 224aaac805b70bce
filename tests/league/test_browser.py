"""Real Chromium on the league: the admin makes a join code, the host of a real table
joins with it from the host page and the table's finished games arrive; then the
standings, a player, head-to-head and the charts at phone (390×844) and TV size, and
the table's own statistics page. Screenshots in artifacts/screenshots/league-*.png.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from companion.config import WebConfig
from companion.store import SqliteStore
from companion.table import Table
from league.auth import admin_token
from tests.browser import BROWSER, shot, too_wide
from tests.league.table_child import plan
from tests.league.tables import store_game
from web import create_app as create_web
from web.auth import host_token
from web.server import make_server, stop

pytestmark = BROWSER

GAMES = 10


@pytest.fixture
def league_url(league: Any) -> Iterator[str]:
    from league.server import serve

    ready: list[int] = []
    got = threading.Event()
    done = threading.Event()

    def on_ready(port: int) -> None:
        ready.append(port)
        got.set()

    thread = threading.Thread(target=serve, args=(league.app, "127.0.0.1", 0, 4),
                              kwargs={"on_ready": on_ready, "stop": done}, daemon=True)
    thread.start()
    assert got.wait(120)
    yield f"http://127.0.0.1:{ready[0]}"
    done.set()
    thread.join(60)


@pytest.fixture
def table_url(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    folder = tmp_path / "table"
    events = SqliteStore(folder / "events.sqlite3")
    for k in range(GAMES):
        store_game(events, plan(k % 3, k))
    store_game(events, plan(0, 0)[:5], close=False)  # the game being played now
    table = Table(events)
    table.start()
    app = create_web(table, web_config=WebConfig(port=8080), state_dir=folder, testing=True)
    server = make_server(app, "127.0.0.1", 0, 8)
    server.prepare()
    thread = threading.Thread(target=server.serve, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.bind_addr[1]}", folder
    stop(app, server)
    thread.join(10)
    table.stop()
    events.close()


def test_join_from_the_host_page_then_walk_the_league(
        league: Any, league_url: str, table_url: tuple[str, Path], phone: Any, tv: Any) -> None:
    base, folder = table_url
    admin = tv()
    admin.goto(f"{league_url}/admin?token={admin_token(league.folder)}")
    admin.get_by_label("Table name").fill("Window table")
    admin.get_by_role("button", name="Make a join code").click()
    code = admin.locator(".big").inner_text().strip()
    assert re.fullmatch(r"[A-Z2-9]{8}", code)
    shot(admin, "league-admin-code")

    host = phone()
    host.goto(f"{base}/host?token={host_token(folder)}")
    if not host.locator("details.tools").evaluate("d => d.open"):  # a game runs: one tap
        host.get_by_text("Wi-Fi, league and the dashboard's code").click()
    expect(host.get_by_role("heading", name="League")).to_be_visible()
    host.get_by_role("link", name="Join a league").click()
    host.get_by_label("League address").fill(league_url)
    host.get_by_label("Join code").fill("wrong-code")
    host.get_by_role("button", name="Join the league").click()
    expect(host.get_by_role("alert")).to_contain_text("not known to the league")
    shot(host, "league-host-wrong-code")
    host.get_by_label("League address").fill(league_url)
    host.get_by_label("Join code").fill(code.lower())
    host.get_by_role("button", name="Join the league").click()
    expect(host.locator("main")).to_contain_text(f"{GAMES} game(s) sent")
    host.get_by_role("button", name="Show the game being played").click()
    expect(host.get_by_role("button", name="Stop showing the game being played")).to_be_visible()
    shot(host, "league-host-joined")
    league.app.extensions["league"].rate_now()

    for make, size in ((phone, "phone"), (tv, "tv")):
        page = make()
        page.goto(league_url + "/")
        expect(page.get_by_role("heading", name="Standings")).to_be_visible()
        assert page.locator("table.standings tbody tr").count() == 7
        expect(page.get_by_role("heading", name="Playing now")).to_be_visible()
        assert too_wide(page) == []
        shot(page, f"league-standings-{size}")
        page.get_by_role("link", name="Casablanca").click()
        expect(page.get_by_role("heading", name="Standings: Casablanca")).to_be_visible()
        page.locator("table.standings tbody a").first.click()
        expect(page.get_by_role("heading", name="Results over time")).to_be_visible()
        assert page.locator("svg.chart").count() >= 3
        assert too_wide(page) == []
        shot(page, f"league-player-{size}")
        page.locator("table.standings a[href*='/vs/']").first.click()
        expect(page.locator("h1")).to_contain_text(" against ")
        expect(page.locator("main")).to_contain_text("games together")
        shot(page, f"league-versus-{size}")

    # picking up league players: a seat's phone picks its league player on the join page
    host.goto(f"{base}/host?token={host_token(folder)}")
    link = host.locator("a", has_text="join link").first.get_attribute("href")
    assert link and "/join/" in link  # the table's address on its network: ours is local
    join_url = base + "/join/" + link.split("/join/", 1)[1]
    for make, size in ((phone, "phone"), (tv, "tv")):
        seat = make()
        seat.goto(join_url)
        expect(seat.get_by_role("heading", name="In the league")).to_be_visible()
        names = seat.get_by_label("League player").locator("option").all_inner_texts()
        assert len(names) >= 3 and names == sorted(names, key=str.casefold)
        seat.get_by_label("League player").select_option(label=names[1])
        seat.locator("form.league-pick button").click()  # "That's me", then "Change"
        expect(seat.locator(".league-picked")).to_contain_text(
            f"count in the league for {names[1]}")
        assert too_wide(seat) == []
        shot(seat, f"league-join-pick-{size}")
    # the setup page offers the league's players as the names to type
    for make, size in ((phone, "phone"), (tv, "tv")):
        setup = make()
        setup.goto(f"{base}/host?token={host_token(folder)}")
        setup.goto(f"{base}/host/setup")
        expect(setup.locator("#league-help")).to_contain_text("League players")
        assert setup.locator("datalist#league-players option").count() == len(names)
        assert setup.locator("#player-1").get_attribute("list") == "league-players"
        assert too_wide(setup) == []
        shot(setup, f"league-setup-players-{size}")

    stats = phone()
    stats.goto(base + "/stats")
    expect(stats.get_by_role("heading", name="This table's statistics")).to_be_visible()
    stats.locator("table.stats tbody a").first.click()
    expect(stats.get_by_role("heading", name="Results over time")).to_be_visible()
    assert too_wide(stats) == []
    shot(stats, "table-stats-player")
