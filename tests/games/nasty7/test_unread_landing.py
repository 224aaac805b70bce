"""A card the camera saw land on the pile but could not read (issue 36: a lamp's glare).

The camera says so (``companion.inputs.CardLanded``); the table hands it to a game with
the ``unread_landings`` feature as a tag with no card and no serial; The Nasty 7 puts it
to the host ("which card?") and the hesitation clock waits for the answer. Injected
clocks only.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.base import IllegalAction, TagInput
from companion.games.nasty7 import engine
from companion.games.nasty7.moves import LANDED_QUESTION
from companion.inputs import HOST, CardLanded, Command, TagSeen
from companion.store import MemoryStore
from companion.table import Table
from tests.games.nasty7.helpers import act, start


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _table(game: str = "nasty7") -> tuple[Table, _Clock]:
    clock = _Clock()
    table = Table(MemoryStore(), clock=clock)
    players = ["Ann", "Ben", "Cy"] if game == "nasty7" else ["Ann", "Ben", "Cy", "Dee"]
    res = table.process(Command("start", {"game": game, "players": players}))
    assert res.accepted, res.reason
    return table, clock


def _kinds(table: Table) -> list[str]:
    assert table.info is not None
    return [e.type for e in table.store.events(table.info.game_id) if e.type != "ActionTaken"]


def _payloads(table: Table, kind: str) -> list[dict[str, Any]]:
    assert table.info is not None
    return [e.payload for e in table.store.events(table.info.game_id) if e.type == kind]


def _seen(table: Table, card: str, serial: int, at: float) -> None:
    res = table.process(TagSeen(f"p{serial}", at=at, zone="pile", status="ok", game="nasty7",
                                card=card, serial=serial))
    assert res.accepted, res.reason


def test_an_unread_landing_on_the_pile_becomes_the_hosts_question() -> None:
    unread = TagInput(seen=True, card=None, serial=None, zone="pile", t=2.0)
    state = act(start(3), {"do": "play", "card": "racketeer", "serial": 5}, 1.0)
    action = engine.action_for_input(state, unread)
    assert action is not None and action.to_json() == {"do": "landed_unread", "at": 2.0}
    state = engine.run(state, action, 2.0)[0]
    assert [(u.seat, u.at) for u in state.unread] == [(1, 2.0)]
    assert engine.next_deadline(state) is None  # the clock waits for the host
    assert LANDED_QUESTION in engine.waiting(state).why
    assert engine.action_for_input(state, TagInput(True, None, None, None, 2.0)) is None


def test_the_host_names_the_card_it_joins_the_pile_when_it_landed() -> None:
    state = act(start(3), {"do": "play", "card": "racketeer", "serial": 5}, 1.0)
    state = act(state, {"do": "landed_unread"}, 2.0)
    state, events = engine.run(state, {"do": "name_landed", "card": "gun", "which": 0}, 9.0)
    assert [type(e).__name__ for e in events] == ["LandingNamed", "MissedCardAdded"]
    assert state.unread == () and state.pile == ("racketeer", "gun") and state.turn == 2
    assert state.landed == (1.0, 2.0)  # booked at its landing, not at the host's answer
    assert engine.next_deadline(state) == pytest.approx(12.0, abs=1e-5)  # from the answer


def test_the_host_says_nothing_landed_and_the_clock_runs_again() -> None:
    state = act(start(3), {"do": "play", "card": "racketeer", "serial": 5}, 1.0)
    state = act(state, {"do": "landed_unread"}, 2.0)
    state = act(state, {"do": "name_landed", "which": 0}, 3.0)
    assert state.unread == () and state.pile == ("racketeer",)
    assert engine.next_deadline(state) == pytest.approx(4.0, abs=1e-5)
    with pytest.raises(IllegalAction, match="No card that the camera could not read"):
        act(state, {"do": "name_landed", "card": "gun"}, 4.0)


def test_the_hosts_moves_ask_which_card_and_offer_nothing_landed() -> None:
    state = act(start(3), {"do": "play", "card": "racketeer", "serial": 5}, 1.0)
    state = act(state, {"do": "landed_unread"}, 7.0)
    moves = [m for m in engine.moves(state, None) if m.do == "name_landed"]
    labels = [m.label for m in moves]
    assert labels == ["Which card did Ben play at 0:07?", "Nothing landed at 0:07"]
    assert "_" not in " ".join(labels)  # no ids shown


def test_later_plays_do_not_clear_the_question_and_no_penalty_while_it_waits() -> None:
    table, clock = _table()
    _seen(table, "racketeer", 5, 100.5)
    clock.now = 101.0
    assert table.process(CardLanded(101.0, "pile")).accepted
    _seen(table, "gun", 6, 101.6)  # the next card is read: the question stays
    assert table.process(CardLanded(101.2, "pile")).accepted  # told late, landed before
    assert _payloads(table, "CardLandedUnread")[-1]["at"] == pytest.approx(1.2)
    for step in range(40):  # 20 s without a card: no automatic penalty while it waits
        clock.now = 102.0 + step * 0.5
        table.tick()
    kinds = _kinds(table)
    assert kinds.count("CardLandedUnread") == 2 and "PileTaken" not in kinds
    res = table.process(Command("action", {"action": {"do": "name_landed", "card": "phone",
                                                      "which": 0}}, source=HOST))
    assert res.accepted, res.reason
    assert _payloads(table, "MissedCardAdded")[0]["landed"] == pytest.approx(1.6)


def test_a_game_without_the_feature_ignores_an_unread_landing() -> None:
    table, _ = _table("illegal")
    res = table.process(CardLanded(101.0, "pile"))
    assert res.accepted and res.ignored
    assert "CardLandedUnread" not in _kinds(table)
