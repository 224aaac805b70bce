"""The Nasty 7 demo director plays the host who corrects a skipped player's card."""

from __future__ import annotations

from companion.demo import Director
from companion.inputs import TABLE, Command
from companion.table import Table
from tests.web import conftest as web

table = web.table  # a running table on a memory store (the web tests' fixture)


def play(table: Table, card: str) -> None:
    play = Command("action", {"action": {"do": "play", "card": card}}, source=TABLE)
    assert table.submit(play).result(300).accepted  # the camera's play


def test_the_director_gives_the_card_after_a_twin_to_the_skipped_player(table: Table) -> None:
    assert table.submit(Command("start", {"game": "nasty7", "players": 3})).result(300).accepted
    director = Director(table, None)
    play(table, "racketeer")
    assert not director.reassign_skipped(table.hub.latest().public)
    play(table, "twin_racketeer")  # Player 3 skips
    assert not director.reassign_skipped(table.hub.latest().public)
    play(table, "racketeer")  # booked to Player 1
    assert director.reassign_skipped(table.hub.latest().public)
    view = table.hub.latest().public
    assert [s["cards"] for s in view["seats"]] == [35, 35, 38] and view["turn"] == 2
    assert "played instead of skipping" in view["status"]
    assert not director.reassign_skipped(view)  # once per twin
