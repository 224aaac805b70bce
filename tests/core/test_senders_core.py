"""Who may send an action: one check in the engine core (``ActionSet.admit``), before
any game handler, from each action's declared ``by`` and the sender the table gives it.

The Nasty 7 has actions of all three kinds: ``play`` (the table's: its camera),
``rule`` (the host's) and ``accuse`` (a seat's, with the accusers in ``by``, a field
declared ``Spec(actor=True)``).
"""

from __future__ import annotations

from typing import Any

import pytest

from companion import games
from companion.games.actions import ActionError, GameAction
from companion.inputs import HOST, TABLE, ButtonPressed, Command, Source
from companion.store import MemoryStore
from companion.table import Table

SEAT0, SEAT1 = Source.of_seat(0), Source.of_seat(1)
CAMERA_ONLY = "Play a card: only the table itself can do that (its camera, buttons or clock)."
HOST_ONLY = "Rule on the accusation: only the host can do that."
OWN_SEAT = "A phone can only act for its own seat."
RULING = "Only the host can give the ruling: send it without, and the host will."


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def send(table: Table, action: dict[str, Any], source: Source) -> Any:
    return table.process(Command("action", {"action": action}, source=source))


def stored(table: Table) -> int:
    assert table.info is not None
    return len(table.store.events(table.info.game_id))


@pytest.fixture
def table() -> Table:
    """A Nasty 7 game of three with one card on the pile (Ann's), no clock running out."""
    t = Table(MemoryStore(), clock=Clock())
    start = Command("start", {"game": "nasty7", "players": ["Ann", "Ben", "Cy"],
                              "options": {"hesitation_s": 60.0}})
    assert t.process(start).accepted
    assert send(t, {"do": "play", "card": "racketeer"}, TABLE).accepted
    return t


def refused(table: Table, action: dict[str, Any], source: Source) -> str:
    """The reason ``action`` from ``source`` is refused; nothing may be stored."""
    before = stored(table)
    res = send(table, action, source)
    assert not res.accepted and res.reason
    assert stored(table) == before
    return str(res.reason)


# --- by = "table" ----------------------------------------------------------------------


def test_a_table_action_from_a_phone_or_the_host_is_refused(table: Table) -> None:
    play = {"do": "play", "card": "racketeer"}
    assert refused(table, play, SEAT1) == CAMERA_ONLY
    assert refused(table, play, HOST) == CAMERA_ONLY
    assert refused(table, play, Source("cli")) == CAMERA_ONLY
    assert send(table, play, TABLE).accepted
    assert send(table, play, Source("camera")).accepted


def test_the_sender_is_refused_before_any_field_is_read(table: Table) -> None:
    # a missing card, an unknown key: the phone hears it may not play at all
    assert refused(table, {"do": "play"}, SEAT1) == CAMERA_ONLY
    assert refused(table, {"do": "play", "card": "ace", "x": 1}, HOST) == CAMERA_ONLY
    assert refused(table, {"do": "rule"}, SEAT0) == HOST_ONLY


# --- by = "host" -----------------------------------------------------------------------


def test_a_host_action_from_a_phone_is_refused_and_from_the_host_or_table_accepted(
        table: Table) -> None:
    assert send(table, {"do": "accuse", "by": 1, "against": 0}, SEAT1).accepted
    ruling = {"do": "rule", "upheld": False}
    assert refused(table, ruling, SEAT1) == HOST_ONLY
    assert refused(table, {**ruling, "seat": 1}, SEAT1) == HOST_ONLY
    assert send(table, ruling, HOST).accepted
    # the host's confirm button: the table itself sends the ruling
    assert send(table, {"do": "play", "card": "racketeer"}, TABLE).accepted  # Ben's
    assert send(table, {"do": "accuse", "by": 2, "against": 1}, Source.of_seat(2)).accepted
    press = table.process(ButtonPressed("confirm", 100.0))
    assert press.accepted and not press.ignored


def test_undo_is_the_hosts(table: Table) -> None:
    res = table.process(Command("undo", source=SEAT0))
    assert not res.accepted and res.reason == "Undo: only the host can do that."
    assert table.process(Command("undo", source=HOST)).accepted


# --- by = "seat" -----------------------------------------------------------------------


def test_a_phone_acts_only_for_its_own_seat(table: Table) -> None:
    # seat 0 accusing in seat 1's name: refused, whether as a number or in a list
    assert refused(table, {"do": "accuse", "by": 1, "against": 0}, SEAT0) == OWN_SEAT
    assert refused(table, {"do": "accuse", "by": [2, 1], "against": 0}, SEAT1) == OWN_SEAT
    assert refused(table, {"do": "accuse", "by": 1, "seat": 2, "against": 0},
                   SEAT1) == OWN_SEAT
    assert send(table, {"do": "accuse", "by": [1], "against": 0}, SEAT1).accepted
    assert table.session is not None
    last = table.session.batches[-1]
    assert last.action.seat == 1 and last.sender == 1  # the phone's seat, filled in


def test_the_host_may_enter_a_seats_action_and_it_says_so(table: Table) -> None:
    assert send(table, {"do": "accuse", "by": 2, "against": 0}, HOST).accepted
    assert table.session is not None
    last = table.session.batches[-1]
    assert last.sender == "host" and last.action.seat is None
    assert table.history()[-1]["sent_by"] == "host"
    assert "seat" not in last.action.to_json()  # the record line is as it always was


def test_a_seat_button_is_the_table_acting_for_that_seat(table: Table) -> None:
    res = table.process(ButtonPressed("seat", 100.0, seat=2))
    assert res.accepted and not res.ignored
    assert table.session is not None
    last = table.session.batches[-1]
    assert last.sender == "table" and last.action.acting_seats() == (2,)


# --- the check itself, without a table -------------------------------------------------


@pytest.mark.parametrize(("action", "sender", "reason"), [
    ({"do": "play", "card": "gun"}, 0, CAMERA_ONLY),
    ({"do": "play", "card": "gun"}, "host", CAMERA_ONLY),
    ({"do": "play", "card": "gun"}, "table", None),
    ({"do": "rule", "upheld": True}, 1, HOST_ONLY),
    ({"do": "rule", "upheld": True}, "host", None),
    ({"do": "rule", "upheld": True}, "table", None),
    ({"do": "accuse", "by": 1, "against": 0}, 0, OWN_SEAT),
    ({"do": "accuse", "by": [0, 1], "against": 2}, 0, OWN_SEAT),
    ({"do": "accuse", "by": 0, "against": 1, "seat": 1}, 0, OWN_SEAT),
    ({"do": "accuse", "by": 0, "against": 1}, 0, None),
    ({"do": "accuse", "by": 0, "against": 1, "upheld": True}, 0, RULING),
    ({"do": "accuse", "by": [0], "against": 1, "upheld": False}, 0, RULING),
    ({"do": "accuse", "by": [0, 1], "against": 2, "upheld": True}, "host", None),
    ({"do": "accuse", "by": [0, 1], "against": 2}, "host", None),
    ({"do": "accuse", "by": [0, 1], "against": 2}, "table", None),
    ({"do": "word", "text": "hello", "seat": 2}, 1, OWN_SEAT),
    ({"do": "word", "text": "hello"}, 2, None),
])
def test_admit_by_sender(action: dict[str, Any], sender: Any, reason: str | None) -> None:
    engine = games.get("nasty7")
    if reason is not None:
        with pytest.raises(ActionError) as caught:
            engine.admit(action, sender)
        assert caught.value.reason == reason
        return
    admitted = engine.admit(action, sender)
    assert isinstance(admitted, GameAction) and admitted.do == action["do"]
    if isinstance(sender, int):
        assert set(admitted.acting_seats()) == {sender}
    else:  # the host and the table enter it as it was sent
        assert admitted.to_json() == {k: v for k, v in action.items()}


def test_a_phone_cannot_settle_its_own_accusation(table: Table) -> None:
    """The ruling an accusation may carry is the host's (``Spec(host=True)``): a phone
    accusing with one is refused before the game reads it, and nothing is stored."""
    action = {"do": "accuse", "by": [1], "against": 0, "upheld": True}
    assert refused(table, action, SEAT1) == RULING
    assert send(table, action, HOST).accepted  # the host enters the whole accusation


def test_the_hosts_ruling_stands_whatever_seat_it_names(table: Table) -> None:
    """Only ``admit`` asks who sent an action: the game's own checks used to read a
    ``seat`` on a host's ruling as a phone's and refused the host."""
    assert send(table, {"do": "accuse", "by": [1], "against": 0}, SEAT1).accepted
    assert send(table, {"do": "rule", "upheld": True, "seat": 0}, HOST).accepted
    assert table.session is not None and table.session.state.accusation is None


def test_a_typed_action_is_checked_too() -> None:
    engine = games.get("nasty7")
    play = engine.parse({"do": "play", "card": "gun"})
    with pytest.raises(ActionError) as caught:
        engine.admit(play, "host")
    assert caught.value.reason == CAMERA_ONLY
    assert engine.admit(play, "table") is play
    accuse = engine.parse({"do": "accuse", "by": [1], "against": 0})
    assert engine.admit(accuse, 1).seat == 1
