"""The winner is said once at every game's end: on the TV, on every phone and on the host
page, one sentence names who won (the game's status, drawn as the outcome by the one
macro ``_macros.html``'s ``status``), and no other sentence says it again ("Game over.
Winner: Ann", "Winner: Ann, with the highest bribe on Agent Red", a second "Ben wins!").

The pages are rendered by the server at the end of recorded games
(``tests/web/tv_states.py``); a "sentence" is the text of one block of the page (a
paragraph, a heading, a list item, a cell). The history's lists (the log, the TV's last
events) are left out: they tell what happened, the last of them the winning move; so are
buttons (a control's label, "Undo: Ben won", names the move it takes back).
``test_a_second_winner_sentence_is_caught`` shows the check can fail.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask import Flask

from companion import games
from companion.table import Table
from tests.web.conftest import as_host
from tests.web.tv_states import play, still_table
from web import render

table = pytest.fixture(still_table, name="table")  # a table whose clock stands still

#: each game's ends: (game, record), every one played to its last line
ENDS = [("nasty7", "full_game"), ("illegal", "three_hand_match"),
        ("casablanca", "full_game"), ("casablanca", "shared_win"),
        ("casablanca", "board_moves"), ("crime_lords", "full_game")]

#: a sentence that says who won: the words a win is said with
WIN = re.compile(r"\b(?:won|wins|winners?)\b|\bgame over\b|\bcontrols the city\b", re.I)
BLOCKS = {"p", "li", "h1", "h2", "h3", "h4", "dt", "dd", "td", "th", "caption",
          "figcaption", "summary", "div", "section", "aside", "ul", "ol", "table", "tr",
          "details", "header", "footer", "main", "nav", "form", "label", "button", "br"}
VOID = {"br", "img", "input", "meta", "link", "hr", "source", "wbr", "area", "col", "embed"}
#: the history's lists: what happened, not what the end says
HISTORY = {"log", "events"}


class _Sentences(HTMLParser):
    """The text of each block of a page, outside scripts, the head and the history."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[str] = []
        self._now: list[str] = []
        self._stack: list[tuple[str, bool]] = []  # (tag, skipped)

    def _skipping(self) -> bool:
        return any(skip for _, skip in self._stack)

    def _cut(self) -> None:
        text = re.sub(r"\s+", " ", "".join(self._now)).strip()
        if text:
            self.blocks.append(text)
        self._now = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in BLOCKS:
            self._cut()
        if tag in VOID:
            return
        classes = set((dict(attrs).get("class") or "").split())
        skip = (tag in ("script", "style", "head", "template", "button")
                or bool(classes & HISTORY))
        self._stack.append((tag, skip))

    def handle_endtag(self, tag: str) -> None:
        if tag in BLOCKS:
            self._cut()
        for i in range(len(self._stack) - 1, -1, -1):
            if self._stack[i][0] == tag:
                del self._stack[i:]
                break

    def handle_data(self, data: str) -> None:
        if not self._skipping():
            self._now.append(data)


def sentences(page: str) -> list[str]:
    parser = _Sentences()
    parser.feed(page)
    parser.close()
    parser._cut()
    return parser.blocks


def winner_sentences(page: str, winners: list[str]) -> dict[str, list[str]]:
    """Each winner's name -> the sentences that name them with a word of winning."""
    blocks = sentences(page)
    return {w: [b for b in blocks if re.search(rf"\b{re.escape(w)}\b", b) and WIN.search(b)]
            for w in winners}


def said_once(where: str, page: str, winners: list[str]) -> list[str]:
    """What is wrong: a winner named in no sentence of winning, or in two."""
    out = []
    for name, found in winner_sentences(page, winners).items():
        if len(found) != 1:
            out.append(f"{where}: {name} is named as the winner in {len(found)} sentences: "
                       f"{found}")
    return out


def end_pages(app: Flask, table: Table, state_dir: Path) -> dict[str, str]:
    """The TV's page, every seat's phone (the seat's live part) and the host's page."""
    snap = table.hub.latest()
    pages = {"the TV": app.test_client().get("/?tv=1").get_data(as_text=True),
             "the host page": as_host(app, state_dir).get("/host").get_data(as_text=True)}
    with app.test_request_context():
        for seat, name in enumerate(snap.players):
            pages[f"{name}'s phone"] = render.fragment(
                "seat", render.seat_payload(snap, seat), seat=seat)
    return pages


@pytest.mark.parametrize(("game", "record"), ENDS, ids=[f"{g}-{r}" for g, r in ENDS])
def test_the_winner_is_said_once(app: Flask, table: Table, state_dir: Path, game: str,
                                 record: str) -> None:
    if game not in games.available():
        pytest.skip(f"{game} is not installed")
    play(table, game, record, "end")
    snap = table.hub.latest()
    assert snap.outcome is not None, f"{game} {record} does not end"
    w = snap.outcome["winner"]
    winners = [snap.players[x] for x in (w if isinstance(w, list) else [w])]
    assert winners, snap.outcome
    wrong = [p for where, page in end_pages(app, table, state_dir).items()
             for p in said_once(where, page, winners)]
    assert not wrong, "\n".join(wrong)


def test_a_second_winner_sentence_is_caught() -> None:
    once = ('<p class="status outcome">Ann controls the city.</p>'
            '<ol class="log"><li>Ann controls the city!</li></ol>'
            '<div class="mob"><h3>Ann</h3><p>3 of 3 Rackets to win</p></div>')
    assert said_once("page", once, ["Ann"]) == []
    twice = once + '<p class="outcome"><b>Game over.</b> Winner: Ann</p>'
    assert len(said_once("page", twice, ["Ann"])) == 1
    assert len(said_once("page", "<p>Ann: 3 Rackets</p>", ["Ann"])) == 1  # never said
