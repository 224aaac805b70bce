"""The admin's fixes without SQL, through the admin pages on a real PostgreSQL: a game
left out by the rater shown with its reason and freed by changing a seat's player, a
game voided and restored (who, when and why shown), players added before their first
game and their card sheet (a PDF whose QR codes hold the league's --url)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import segno

from companion.results import GameResult, SeatResult
from league import queries, store
from league.auth import admin_token
from league.cards import card_url, cards_pdf
from tests.league.conftest import joined, result


def _admin(lg: Any) -> tuple[Any, str]:
    c = lg.client
    assert c.get(f"/admin?token={admin_token(lg.folder)}").status_code == 302
    html = c.get("/admin").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([0-9a-f]+)"', html)
    assert token is not None
    return c, token.group(1)


def test_left_out_void_restore_and_a_seat_on_the_admin_page(league: Any) -> None:
    key, token = joined(league)
    for i, names in enumerate((["Ana", "Ben"], ["Ben", "Cem"])):
        league.client.post("/api/v1/results", json=result(f"g{i}", names, [1, 2],
                                                          t=1.7e9 + i * 60),
                           headers={"Authorization": f"Bearer {token}"})
    old = GameResult("dup", "nasty7", (SeatResult("Ana", 1), SeatResult("ANA", 2)), 1.7e9 + 9, 3)
    store.push(league.pool, store.TableAuth(1, key, "Window table"), old)
    league.app.extensions["league"].rate_now()
    c, csrf = _admin(league)
    html = c.get("/admin").get_data(as_text=True)
    assert "Two of its seats are the same player" in html
    assert "<title>League admin · " in html and html.count("Games left out") == 1
    refs = sorted({int(r) for r in re.findall(r'/admin/games/(\d+)/seat', html)})
    assert len(refs) == 1
    ids = dict(re.findall(r'<option value="(\d+)">(\w+)</option>', html))
    cem = next(i for i, n in ids.items() if n == "Cem")
    no_why = c.post(f"/admin/games/{refs[0]}/seat", data={
        "csrf_token": csrf, "seat": "1", "player": cem, "who": "Sam", "why": ""})
    assert no_why.status_code == 400 and "who you are and why" in no_why.get_data(as_text=True)
    fixed = c.post(f"/admin/games/{refs[0]}/seat", data={
        "csrf_token": csrf, "seat": "1", "player": cem, "who": "Sam", "why": "it was Cem"})
    assert fixed.status_code == 200
    league.app.extensions["league"].rate_now()
    html = c.get("/admin").get_data(as_text=True)
    assert "the rater rated every game" in html

    void = re.findall(r'/admin/games/(\d+)/void', html)[0]
    r = c.post(f"/admin/games/{void}/void", data={"csrf_token": csrf, "who": "Sam",
                                                  "why": "a test game"})
    assert r.status_code == 200 and "The game is void" in r.get_data(as_text=True)
    again = c.post(f"/admin/games/{void}/void", data={"csrf_token": csrf, "who": "Sam",
                                                      "why": "twice"})
    assert again.status_code == 400 and "void already" in again.get_data(as_text=True)
    league.app.extensions["league"].rate_now()
    html = c.get("/admin").get_data(as_text=True)
    assert "Voided by Sam on " in html and ": a test game" in html
    r = c.post(f"/admin/games/{void}/restore", data={"csrf_token": csrf, "who": "Sam",
                                                     "why": "it was real"})
    assert r.status_code == 200 and "counts again" in r.get_data(as_text=True)
    assert "Voided by" not in c.get("/admin").get_data(as_text=True)


def test_players_before_their_first_game_and_their_cards(league: Any) -> None:
    league.app.extensions["league"].public_url = "http://club-laptop:8090"
    c, csrf = _admin(league)
    for name in ("Ana", "Ben Okafor"):
        r = c.post("/admin/players", data={"csrf_token": csrf, "name": name})
        assert r.status_code == 200 and "is in the league" in r.get_data(as_text=True)
    dup = c.post("/admin/players", data={"csrf_token": csrf, "name": " ana "})
    assert dup.status_code == 400 and "in the league already" in dup.get_data(as_text=True)
    nul = c.post("/admin/players", data={"csrf_token": csrf, "name": "A\x00B"})
    assert nul.status_code == 400 and "control characters" in nul.get_data(as_text=True)
    pdf = c.get("/admin/cards.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    assert pdf.data.startswith(b"%PDF")
    # the card page's QR holds the league's --url, not the host this request used
    code = store_card(league, "Ana")
    want = segno.make(card_url("http://club-laptop:8090/", code), error="m").svg_inline(
        scale=5, dark="#000", light="#fff")
    ids = {n: i for i, n in queries.find_players(league.pool)}
    assert want in c.get(f"/players/{ids['Ana']}/card").get_data(as_text=True)


def store_card(lg: Any, name: str) -> str:
    return dict(queries.player_cards(lg.pool))[name]


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="needs pdftoppm (poppler-utils)")
def test_the_card_sheet_holds_each_players_qr(tmp_path: Path) -> None:
    """The printed sheet's QR codes read back (poppler renders it, zxing-cpp reads it)."""
    zxingcpp = pytest.importorskip("zxingcpp")
    from PIL import Image

    pdf = tmp_path / "cards.pdf"
    pdf.write_bytes(cards_pdf([(f"Player {i}", f"code{i:02d}") for i in range(9)],
                              "http://club:8090"))
    subprocess.run(["pdftoppm", "-r", "100", "-gray", "-png", str(pdf), str(tmp_path / "p")],
                   check=True)
    pages = sorted(tmp_path.glob("p*.png"))
    assert len(pages) == 2  # eight to a page
    found = {r.text for r in zxingcpp.read_barcodes(Image.open(pages[0]))}
    assert found == {f"http://club:8090/c/code{i:02d}" for i in range(8)}
