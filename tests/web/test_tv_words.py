"""The words the TV and the phones print around the games' own sentences: a list of names
as a sentence lists it ("Ann, Ben and Cy", ``companion.games.words.listed``, the Jinja
filter ``listed``), a term of a sum with a true minus ("−2", ``money.signed``, the filter
``signed``), and the winner of The Nasty 7 said once ("Ben wins!", not again as "Game
over. Winner: Ben"). Without a browser: the TV's page and a seat's fragment as the
server renders them, at moments of recorded games (``tests/web/tv_states.py``)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from flask import Flask

import web
from companion import games
from companion.table import Table
from tests.web.conftest import as_host
from tests.web.tv_states import play, still_table
from web import render

table = pytest.fixture(still_table, name="table")  # a table whose clock stands still

TEMPLATES = Path(web.__file__).resolve().parent / "templates"
MINUS = "\u2212"

#: a list joined by hand in a template: ``{{ ', ' if not loop.last }}`` or ``' and '``
#: (a list of names is written by ``listed``, a list of values by ``join``)
HAND_JOINED = re.compile(r"""\{\{\s*(['"])(, | and )\1\s+if\s+not\s+loop\.last\s*\}\}""")


def text_of(page: str) -> str:
    """A page's words as a reader sees them: no tags, no scripts, entities read."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page)))


def test_no_template_joins_a_list_by_hand() -> None:
    found = [f"{path.relative_to(TEMPLATES)}: {m.group(0)}"
             for path in sorted(TEMPLATES.rglob("*.html"))
             for m in HAND_JOINED.finditer(path.read_text("utf-8"))]
    assert found == [], "a list joined by hand (use the filter listed):\n" + "\n".join(found)


def test_the_listed_filter_writes_seats_as_names() -> None:
    names = ["Ann", "Ben", "Cy", "Dee"]
    assert render._listed([2], names) == "Cy"
    assert render._listed([0, 3], names) == "Ann and Dee"
    assert render._listed((x for x in (0, 1, 2)), names) == "Ann, Ben and Cy"
    assert render._listed(["Weapons", "Gambling", "Pimps"]) == "Weapons, Gambling and Pimps"
    assert render._listed([], names) == "" and render._listed(None) == ""


def test_the_nasty7_end_names_the_winner_once(app: Flask, table: Table) -> None:
    if "nasty7" not in games.available():
        pytest.skip("nasty7 is not installed")
    play(table, "nasty7", "full_game", "end")
    snap = table.hub.latest()
    assert snap.outcome is not None
    winner = snap.players[snap.outcome["winner"]]
    tv = text_of(app.test_client().get("/?tv=1").get_data(as_text=True))
    with app.test_request_context():
        phone = text_of(render.fragment("seat", render.seat_payload(snap, 1), seat=1))
    for where, text in (("the TV", tv), ("a phone", phone)):
        assert text.count(f"{winner} wins!") == 1, f"{where}: {text}"
        assert "Winner:" not in text and "Game over" not in text, \
            f"{where} names the winner twice: {text}"


def test_the_records_list_names_the_game_as_the_box_prints_it(app: Flask, table: Table,
                                                              state_dir: Path) -> None:
    """Issue 38: the host's records list said "Nasty7" and "Crime lords"."""
    if "nasty7" not in games.available():
        pytest.skip("nasty7 is not installed")
    play(table, "nasty7", "full_game", "end")
    page = text_of(as_host(app, state_dir).get("/host").get_data(as_text=True))
    assert "Game records" in page and "The Nasty 7 ·" in page, page
    assert "Nasty7" not in page and "nasty7" not in page.lower().replace("the nasty 7", "")


def test_an_attacks_terms_are_signed_with_a_true_minus(app: Flask, table: Table) -> None:
    if "crime_lords" not in games.available():
        pytest.skip("crime_lords is not installed")
    play(table, "crime_lords", "war_one_hit", "roll")
    page = app.test_client().get("/?tv=1").get_data(as_text=True)
    terms = re.search(r'<table class="terms".*?</table>', page, re.S)
    assert terms is not None, "no attack on the TV"
    values = [text_of(v).strip() for v in re.findall(r'<td class="v">(.*?)</td>', terms.group(0))]
    assert values and all(re.fullmatch(rf"[+{MINUS}]\d+|0", v) for v in values), values
    assert any(v.startswith(MINUS) for v in values), f"no term against the attack: {values}"
    needed = re.search(r'id="attack-needed">(.*?)</span>', page, re.S)
    assert needed is not None and re.fullmatch(rf"{MINUS}?\d+", text_of(needed.group(1)).strip())
