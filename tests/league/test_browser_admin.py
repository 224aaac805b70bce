"""Real Chromium on the league's admin page, on a real PostgreSQL, as an admin on game
night would use it: void a game by its visible, labelled controls (with a reason), see
the standings change, restore it and see them come back; add a player before any game
and open the printed card sheet (a PDF whose QR code opens the league at its ``--url``,
never the address the admin's browser used); the standings on a 390 px phone with long
names. Screenshots in artifacts/screenshots/league-admin-*.png.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from league.auth import admin_token
from tests.browser import BROWSER, SAFETY_MS, SHOTS, shot, too_wide
from tests.league.conftest import PUBLIC, joined, result

pytestmark = BROWSER

LONG = ("Maximiliana Konstantinopoulou-Wittgenst",  # 40 characters, the most a table sends
        "Bartholomew Featherstonehaugh-Cholmondel",
        "Sebastianoooooooooooooooooooooooooooooo")  # one word that cannot break


def _push(lg: Any, games: list[tuple[list[str], list[int]]]) -> None:
    """A table joins and pushes ``games`` (names, places), an hour apart; all are rated."""
    _, token = joined(lg)
    for i, (names, places) in enumerate(games):
        r = lg.client.post("/api/v1/results", json=result(f"g{i}", names, places,
                                                          t=1.7e9 + i * 3600),
                           headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 201, r.get_json()
    lg.app.extensions["league"].rate_now()


def _until(page: Any, url: str, ok: Callable[[Any], bool]) -> None:
    """Reload ``url`` until ``ok(page)``: the server answers the standings from memory,
    drawn again by its rater thread after a change. A safety net only, never a deadline
    the test is about."""
    waited = 0
    while True:
        page.goto(url)
        if ok(page):
            return
        assert waited < SAFETY_MS, f"{url} never showed what was expected"
        page.wait_for_timeout(250)
        waited += 250


def _shown(page: Any) -> list[list[str]]:
    """The standings as the page shows them: place, player, rating, won, played."""
    return [[c.strip() for c in row][:5] for row in page.locator(
        "table.standings tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.innerText))")]


def _expected(lg: Any) -> list[list[str]]:
    """The standings as the database has them, as the page should show them."""
    from league import queries

    return [[str(i), s.name, f"{s.rating:.1f}", str(s.wins), str(s.played)]
            for i, s in enumerate(queries.standings(lg.pool), 1)]


def _row(page: Any, name: str) -> Any:
    return page.locator("table.standings tbody tr", has_text=name)


def _cells(page: Any, name: str) -> list[str]:
    """The standings line of ``name``: place, player, rating, won, played (as shown)."""
    row = _row(page, name)
    if row.count() != 1:
        return []
    return [c.strip() for c in row.locator("td").all_inner_texts()][:5]


def _outside_the_card(pdf: Path) -> list[str]:
    """The words on the sheet's first page that reach past their card's cut lines
    (poppler's box of each word, in points from the page's top left corner)."""
    from league.cards import CARD_H, CARD_W, COLUMNS, ROWS

    html = subprocess.run(["pdftotext", "-bbox", "-f", "1", "-l", "1", str(pdf), "-"],
                          check=True, capture_output=True, text=True).stdout
    page = re.search(r'<page width="([\d.]+)" height="([\d.]+)"', html)
    assert page is not None
    left = (float(page.group(1)) - COLUMNS * CARD_W) / 2
    top = (float(page.group(2)) - ROWS * CARD_H) / 2
    out = []
    for x0, y0, x1, y1, word in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<',
            html):
        col, row = (float(x0) - left) // CARD_W, (float(y0) - top) // CARD_H
        if not (0 <= col < COLUMNS and 0 <= row < ROWS
                and float(x1) <= left + (col + 1) * CARD_W
                and float(y1) <= top + (row + 1) * CARD_H):
            out.append(f"{word} ({float(x0):.0f}..{float(x1):.0f} pt)")
    return out


def _admin(make: Any, lg: Any) -> Any:
    page = make()
    page.goto(f"{lg.url}/admin?token={admin_token(lg.folder)}")
    expect(page.get_by_role("heading", name="League admin", exact=True)).to_be_visible()
    return page


def test_void_a_game_from_the_admin_page_then_restore_it(served: Any, phone: Any) -> None:
    _push(served, [(["Ana", "Ben"], [1, 2]), (["Ana", "Cem"], [1, 2]),
                   (["Ben", "Cem"], [1, 2])])
    reader = phone()
    before = _expected(served)
    assert [c[1] for c in before] == ["Ana", "Ben", "Cem"]
    assert [c[3:] for c in before] == [["2", "2"], ["1", "2"], ["0", "2"]]
    _until(reader, served.url + "/", lambda p: _shown(p) == before)
    shot(reader, "league-admin-standings-before-void")

    admin = _admin(phone, served)
    game = admin.locator("section.games-recent li", has_text="Ana (1st), Cem (2nd)")
    expect(game).to_have_count(1)
    game.get_by_text("Void this game").click()
    game.get_by_label("Your name").fill("Sam")
    game.get_by_label("Why").fill("Cem was not there: a test game")
    shot(admin, "league-admin-void-form")
    game.get_by_role("button", name="Void").click()
    expect(admin.get_by_role("status")).to_contain_text("The game is void")
    voided = admin.locator("section.games-voided li", has_text="Ana (1st), Cem (2nd)")
    expect(voided).to_contain_text("Voided by Sam on ")
    expect(voided).to_contain_text("Cem was not there: a test game")
    assert too_wide(admin) == []
    shot(admin, "league-admin-voided")

    # the standings without that game: Ana won one of one, Cem lost one of one
    _until(reader, served.url + "/", lambda p: _cells(p, "Cem")[3:] == ["0", "1"])
    after = {c[1]: c for c in _shown(reader)}
    assert after["Ana"][3:] == ["1", "1"] and after["Ben"][3:] == ["1", "2"]
    assert after["Ana"][2] != before[0][2]  # her rating too
    assert _shown(reader) == _expected(served)
    shot(reader, "league-admin-standings-voided")

    expect(voided.get_by_label("Your name")).to_have_value("Sam")  # kept from the void
    voided.get_by_label("Why").fill("It was real after all")
    voided.get_by_role("button", name="Restore").click()
    expect(admin.get_by_role("status")).to_contain_text("The game counts again")
    expect(admin.locator("section.games-voided")).to_have_count(0)
    expect(admin.locator("section.games-recent li", has_text="Ana (1st), Cem (2nd)")).to_have_count(1)
    shot(admin, "league-admin-restored")

    _until(reader, served.url + "/", lambda p: _shown(p) == before)


@pytest.mark.skipif(shutil.which("pdftoppm") is None or shutil.which("pdftotext") is None,
                    reason="needs pdftoppm and pdftotext (poppler-utils)")
def test_add_a_player_before_any_game_and_print_their_card(
        served: Any, phone: Any, tv: Any, tmp_path: Path) -> None:
    zxingcpp = pytest.importorskip("zxingcpp")
    from PIL import Image

    admin = _admin(tv, served)
    expect(admin.get_by_role("link", name="Print the player cards (PDF)")).to_have_count(0)
    admin.get_by_label("Player name").fill("  Zoë   Okafor-Lindqvist ")
    admin.get_by_role("button", name="Add the player").click()
    expect(admin.get_by_role("status")).to_contain_text("Zoë Okafor-Lindqvist is in the league")
    shot(admin, "league-admin-player-added")
    with admin.expect_download() as got:
        admin.get_by_role("link", name="Print the player cards (PDF)").click()
    pdf = tmp_path / "cards.pdf"
    got.value.save_as(pdf)
    assert got.value.suggested_filename == "player-cards.pdf"
    assert pdf.read_bytes().startswith(b"%PDF-")

    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], check=True,
                          capture_output=True, text=True).stdout
    pages = [" ".join(p.split()) for p in text.split("\f") if p.strip()]
    assert len(pages) == 1 and "Zoë Okafor-Lindqvist" in pages[0]  # maybe on two lines
    assert _outside_the_card(pdf) == []
    subprocess.run(["pdftoppm", "-r", "100", "-gray", "-png", str(pdf),
                    str(tmp_path / "page")], check=True)
    images = sorted(tmp_path.glob("page*.png"))
    assert len(images) == 1
    codes = [r.text for r in zxingcpp.read_barcodes(Image.open(images[0]))]
    assert len(codes) == 1 and codes[0].startswith(PUBLIC + "/c/"), codes
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(images[0], SHOTS / "league-admin-card-sheet.png")  # to look at

    # the QR opens the player's page on the league (here at the test's address)
    card = phone()
    card.goto(served.url + codes[0].removeprefix(PUBLIC))
    expect(card.locator("h1")).to_contain_text("Zoë Okafor-Lindqvist")
    expect(card.locator("main")).to_contain_text("has played no game yet")
    assert too_wide(card) == []
    shot(card, "league-admin-card-opened")


def test_standings_fit_a_phone_with_long_names(served: Any, phone: Any, tv: Any) -> None:
    _push(served, [([LONG[0], LONG[1], LONG[2], "Ana"], [1, 2, 3, 4]),
                   ([LONG[2], "Ana", LONG[0]], [1, 1, 3]),
                   ([LONG[1], "Ana"], [1, 2])])
    page = phone()
    want = _expected(served)
    assert len(want) == 4 and want[0][2] != "0.0"
    _until(page, served.url + "/", lambda p: _shown(p) == want)
    for name in LONG:
        expect(_row(page, name)).to_be_visible()
    assert too_wide(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "league-admin-standings-long-names-phone")
    page.get_by_role("link", name="The Nasty 7").click()
    expect(page.get_by_role("heading", name="Standings: The Nasty 7")).to_be_visible()
    assert too_wide(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    admin = _admin(phone, served)
    assert too_wide(admin) == []
    shot(admin, "league-admin-phone")
    big = tv()
    big.goto(served.url + "/")
    assert too_wide(big) == []
    shot(big, "league-admin-standings-long-names-tv")
