"""The Nasty 7 at a real table (issue 36, the game's side): a card is one play, once; a
card's time is when it landed; a question about a card seen beside the pile waits for its
answer; cards the host enters by hand are not timed by the host's fingers.

Everything runs on an injected clock: the table's (``_Clock``) and the camera's frame
times; frames are handed to the tracker one by one, and ``Table.tick`` is called after
each as the table loop would (it delivers the deadlines that are due).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from companion.config import TrackingConfig, ZonesConfig
from companion.games.base import IllegalAction, TagInput
from companion.games.nasty7 import State, engine
from companion.inputs import HOST, Command, Result, TagLeft, TagSeen
from companion.store import MemoryStore
from companion.table import Table
from tests.games.nasty7.helpers import act, plays, run, start
from vision.frames import Detection
from vision.tracking import TagTracker

# --- helpers --------------------------------------------------------------------------


class _Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _table(**options: Any) -> tuple[Table, _Clock]:
    clock = _Clock()
    table = Table(MemoryStore(), clock=clock)
    res = table.process(Command("start", {"game": "nasty7", "players": ["Ann", "Ben", "Cy"],
                                          "options": options}))
    assert res.accepted, res.reason
    return table, clock


def _host(table: Table, clock: _Clock, line: dict[str, Any]) -> Result:
    return table.process(Command("action", {"action": line}, source=HOST, at=clock.now))


def _tag(card: str, serial: int, zone: str | None = "pile") -> TagInput:
    return TagInput(seen=True, card=card, serial=serial, zone=zone, t=1.0)


def _events(table: Table) -> list[tuple[str, dict[str, Any]]]:
    assert table.info is not None
    return [(e.type, e.payload) for e in table.store.events(table.info.game_id)
            if e.type != "ActionTaken"]  # the game's events, not the store's action lines


def _hesitations(table: Table) -> list[dict[str, Any]]:
    return [p for kind, p in _events(table) if kind == "PileTaken" and p["why"] == "hesitation"]


# --- a card is one play, once -----------------------------------------------------------


def test_a_taken_pile_gathered_up_is_seen_again_in_the_pile_zone_and_books_nothing() -> None:
    """#5 played, Ben's mistake: he takes the pile (rightly). As he gathers it, the camera
    reads #5 and #6 again on the pile's zone, and beside it: nothing is booked."""
    state = act(start(3), {"do": "play", "card": "racketeer", "serial": 5}, 1.0)
    state = act(state, {"do": "play", "card": "gun", "serial": 6}, 2.0)
    state = act(state, {"do": "mistake", "seat": 1, "kind": "spoke_on_gun"}, 3.0)
    assert state.swept == (5, 6) and state.turn == 1 and not state.pile
    for zone in ("pile", "play", None):
        for serial, card in ((5, "racketeer"), (6, "gun")):
            assert engine.action_for_input(state, _tag(card, serial, zone)) is None, (zone, serial)
    # a card of Ben's own stack is his new round's first card
    action = engine.action_for_input(state, _tag("phone", 9))
    assert action is not None and action.to_json() == {"do": "play", "card": "phone", "serial": 9}


def test_at_the_table_the_gathered_pile_gives_no_second_play() -> None:
    """The observed log: CardPlayed #N, PileTaken (a right penalty), CardPlayed #N again for
    the penalised seat as the pile is gathered. Now the last line never comes."""
    table, clock = _table()
    seen = TagSeen("P11", at=clock.now, zone="pile", status="ok", game="nasty7",
                   card="racketeer", serial=11)
    assert table.process(seen).accepted
    clock.now += 1.0
    assert _host(table, clock, {"do": "mistake", "seat": 0, "kind": "wrong_number"}).accepted
    clock.now += 0.5  # Ann gathers the pile: her hand lifts #11 off the pile and back
    assert table.process(TagLeft("P11", at=clock.now, zone="pile", status="ok", game="nasty7",
                                 card="racketeer", serial=11)).accepted
    again = table.process(dataclasses.replace(seen, at=clock.now + 0.2))
    assert again.accepted and again.ignored
    kinds = [kind for kind, _ in _events(table)]
    assert kinds == ["CardPlayed", "PileTaken"]


def test_a_taker_without_cards_of_its_own_plays_the_taken_ones() -> None:
    """Ann's last card is accused and the accusation upheld: the pile is all she has, so
    its cards are her next plays, not a pile being gathered."""
    state = run(start(2, deck_size=2), plays("racketeer"))  # Ann: 0 cards, the finisher
    state = act(state, {"do": "accuse", "by": [1], "against": 0, "upheld": True}, 1.5)
    assert state.stacks == (1, 1) and state.turn == 0 and state.swept == ()
    action = engine.action_for_input(state, _tag("racketeer", 5))
    assert action is not None and action.to_json()["do"] == "play"


def test_a_taker_plays_the_taken_cards_once_its_own_are_played() -> None:
    """The pile goes to the bottom of the taker's stack (the rules): once Ben has played
    the cards he held before taking it, his next cards are the taken ones, real plays
    (they were ignored for the rest of the round: a card missed)."""
    state = act(start(3, deck_size=15), {"do": "play", "card": "racketeer", "serial": 5}, 1.0)
    state = act(state, {"do": "play", "card": "gun", "serial": 6}, 2.0)
    state = act(state, {"do": "mistake", "seat": 1, "kind": "spoke_on_gun"}, 3.0)
    assert state.stacks == (4, 6, 5) and state.swept == (5, 6) and state.turn == 1
    t = 3.5
    for serial in range(100, 109):  # Ben, Cy, Ann, three times: 3 of Ben's 4 own cards
        if state.turn == 1:
            assert engine.action_for_input(state, _tag("racketeer", 5)) is None  # gathered
        state = act(state, {"do": "play", "card": "racketeer", "serial": serial}, t)
        t += 0.5
    assert state.turn == 1 and state.stacks == (1, 3, 2) and state.swept == (5, 6)
    assert engine.action_for_input(state, _tag("racketeer", 5)) is None  # one own card left
    state = act(state, {"do": "play", "card": "racketeer", "serial": 109}, t)  # his last own
    assert state.swept == () and state.stacks[1] == 2  # the two taken cards, to be played
    action = engine.action_for_input(state, _tag("racketeer", 5))
    assert action is not None and action.to_json() == {"do": "play", "card": "racketeer",
                                                       "serial": 5}


# --- a card's time is when it landed ---------------------------------------------------


SIZE = (1000, 1000)


def _det(text: str) -> Detection:
    x = y = 500.0
    return Detection(text, ((x - 10, y - 10), (x + 10, y - 10), (x + 10, y + 10),
                            (x - 10, y + 10)), "test")


def _camera(table: Table, clock: _Clock, frames: list[tuple[float, list[str]]],
            cards: dict[str, tuple[str, int]]) -> None:
    """Frames at game time ``t`` (the camera's clock is the table's): each decoded by the
    tracker, its events sent to the table, then the table loop's tick at that time."""
    tracker = TagTracker(TrackingConfig(), ZonesConfig())  # the default pile covers the table
    start = clock.now
    for t, payloads in frames:
        clock.now = start + t
        for event in tracker.update(clock.now, [_det(p) for p in payloads], SIZE):
            card, serial = cards[event.payload]
            res = table.process(dataclasses.replace(event, status="ok", game="nasty7",
                                                    card=card, serial=serial))
            assert res.accepted, res.reason
        table.tick()


def test_a_card_held_under_fingers_for_two_seconds_is_timed_from_when_it_landed() -> None:
    """Ann's card lands at 0.0. Ben's lands at 1.5, and his fingers stay on its tag until
    3.5: through them it is read now and then (1.5, 1.9, 2.4, 2.9, 3.3), steadily once the
    hand lifts. His card landed 1.5 s after Ann's: no hesitation (3 s rule), and the play
    carries the landing time."""
    table, clock = _table()
    table.input_delay_s = 1.0  # as ``companion serve`` sets it (the camera's delay)
    fps = 10
    through_fingers = {15, 19, 24, 29, 33}
    frames: list[tuple[float, list[str]]] = []
    for i in range(0, 60):
        t = i / fps
        on_table = ["A"]
        if i in through_fingers or i >= 35:
            on_table.append("B")
        frames.append((t, on_table))
    _camera(table, clock, frames, {"A": ("racketeer", 1), "B": ("racketeer", 2)})
    played = [p for kind, p in _events(table) if kind == "CardPlayed"]
    assert [(p["seat"], p["serial"]) for p in played] == [(0, 1), (1, 2)]
    assert played[0]["at"] == pytest.approx(0.0) and played[1]["at"] == pytest.approx(1.5)
    # the only hesitation is Cy's: his clock ran from Ben's landing (1.5), and by 5.9 s
    # (the last frame) his 3 s had long gone
    assert [(p["offender"], p["at"]) for p in _hesitations(table)] == [(2, 4.500001)]


def test_a_single_read_long_before_is_not_taken_for_the_landing() -> None:
    """One isolated read is no landing (a card carried over the pile): the time is the
    first frame of the run that confirmed it, as before."""
    tracker = TagTracker(TrackingConfig(), ZonesConfig())
    events = []
    for i in range(30):
        t = i / 10
        events += tracker.update(t, [_det("B")] if i == 3 or i >= 20 else [], SIZE)
    assert [(type(e).__name__, e.at) for e in events] == [("TagSeen", 2.0)]


# --- a question waits for its answer --------------------------------------------------


def test_two_cards_seen_beside_the_pile_both_wait_and_the_host_answers_each() -> None:
    state = act(start(3), {"do": "play", "card": "racketeer", "serial": 5}, 1.0)
    first = engine.action_for_input(state, _tag("gun", 8, None))
    assert first is not None
    state = act(state, first, 1.5)
    assert engine.action_for_input(state, _tag("gun", 8, None)) is None  # asked once
    second = engine.action_for_input(state, _tag("phone", 9, None))
    assert second is not None
    state = act(state, second, 2.5)
    assert [(s.card, s.at, s.seat) for s in state.seen_beside] == [("gun", 1.5, 1),
                                                                   ("phone", 2.5, 1)]
    # a play does not clear them, nor does the clock penalise anyone while they wait
    state = act(state, {"do": "play", "card": "racketeer", "serial": 6}, 3.0)
    assert len(state.seen_beside) == 2 and state.turn == 2
    assert engine.next_deadline(state) is None
    events: list[Any] = []
    state = run(state, [(60.0, {"do": "play", "card": "racketeer", "serial": 7})], events)
    assert not [e for e in events if type(e).__name__ == "PileTaken"]
    assert len(state.seen_beside) == 2 and state.turn == 0
    # the host's card: both questions, each with its landing time
    host = [m for m in engine.moves(state, None) if m.do == "count_seen"]
    assert [m.label for m in host] == [
        "Count it: Ann played a Gun (seen at 0:01)", "Ignore a Gun (seen at 0:01): not a card played",
        "Count it: Ann played a Mobile phone (seen at 0:02)",
        "Ignore a Mobile phone (seen at 0:02): not a card played",
    ]
    assert engine.waiting(state).host
    assert "2 cards were seen beside the pile: count or ignore each one." in engine.waiting(state).why
    view = engine.public_view(state)
    assert [(c["card_name"], c["clock"], c["name"]) for c in view["seen_beside"]] == [
        ("Gun", "0:01", "Ben"), ("Mobile phone", "0:02", "Ben")]
    # the host ignores the phone (the second), then counts the gun (the first)
    state = act(state, host[3].actions().__next__(), 61.0)
    assert [s.card for s in state.seen_beside] == ["gun"]
    assert engine.next_deadline(state) is None  # the gun still waits
    (count, _ignore) = [m for m in engine.moves(state, None) if m.do == "count_seen"]
    assert count.label == "Count it: Ann played a Gun"
    state = act(state, next(count.actions()), 62.0)
    assert state.seen_beside == () and state.pile_serials == (5, 6, 7, 8)
    assert state.stacks == (34, 35, 35) and state.turn == 1
    assert engine.next_deadline(state) == pytest.approx(65.0)  # nothing waits: Ben's clock


def test_a_record_answers_the_latest_card_without_saying_which() -> None:
    """``count_seen`` without ``which`` answers the latest (what it meant when one card
    waited at most); a ``which`` that does not wait is refused with a sentence."""
    state = act(start(3), {"do": "play", "card": "racketeer"}, 1.0)
    state = act(state, {"do": "seen_beside", "card": "gun", "serial": 8}, 1.5)
    state = act(state, {"do": "seen_beside", "card": "phone", "serial": 9}, 1.6)
    with pytest.raises(IllegalAction, match="already waits for the host's answer"):
        act(state, {"do": "seen_beside", "card": "gun", "serial": 8}, 1.7)
    with pytest.raises(IllegalAction, match="no longer waits for an answer"):
        act(state, {"do": "count_seen", "count": False, "which": 2}, 2.0)
    state = act(state, {"do": "count_seen", "count": False}, 2.0)
    assert [s.card for s in state.seen_beside] == ["gun"]


# --- cards entered by hand ---------------------------------------------------------------


def _by_hand(table: Table, clock: _Clock, cards: list[str], typing_s: float) -> None:
    for card in cards:
        clock.now += typing_s  # the host looks up, taps, finds the card's button
        table.tick()
        res = _host(table, clock, {"do": "missed_card", "card": card})
        assert res.accepted, res.reason


def test_cards_entered_by_hand_give_no_automatic_hesitation_penalty() -> None:
    """No camera: the host types in every card, 4 to 6 s apart. Nobody hesitated: the
    time between two entries is the host's typing."""
    table, clock = _table(deck_size=30)
    _by_hand(table, clock, ["racketeer", "phone", "racketeer", "gun", "racketeer"], 5.0)
    clock.now += 30.0
    table.tick()
    assert _hesitations(table) == []
    public = table.hub.latest().public
    assert public["pile"] == 5 and public["deadline"] is None and public["untimed"]
    # the host rules on hesitation: the button is there
    assert _host(table, clock, {"do": "hesitation"}).accepted
    assert len(_hesitations(table)) == 1


def test_with_the_clock_option_the_host_entries_are_timed_as_before() -> None:
    table, clock = _table(deck_size=30, hand_entry_timing="clock")
    _by_hand(table, clock, ["racketeer", "phone", "racketeer"], 5.0)
    assert len(_hesitations(table)) == 2


def test_the_camera_starts_the_clock_again_after_a_card_entered_by_hand() -> None:
    state = act(start(3), {"do": "missed_card", "card": "racketeer"}, 1.0)
    assert engine.next_deadline(state) is None
    state = act(state, {"do": "play", "card": "racketeer", "serial": 4}, 2.0)
    assert engine.next_deadline(state) == pytest.approx(5.0)


def test_who_played_it_the_seat_to_play_first_out_of_turn_asks_once_more() -> None:
    state: State = run(start(3), plays("racketeer"))  # Ben to play
    host = engine.moves(state, None)
    hand = [m for m in host if m.do == "missed_card" and m.group in ("card", "out_of_turn")]
    assert [(m.label, m.group, m.costly) for m in hand] == [
        ("Ben played a card", "card", False),
        ("Ann played out of turn (takes the pile)", "out_of_turn", True),
        ("Cy played out of turn (takes the pile)", "out_of_turn", True),
    ]
    assert hand[1].to_json()["costly"] is True and "costly" not in hand[0].to_json()
    assert [p.name for p in hand[0].params] == ["card"]
    sure = hand[2].params[1]
    assert sure.label == ("Cy played out of turn: Cy takes the pile (2 cards with this one) "
                          "and starts the next round. Is that right?")
    assert [(c.value, c.label, c.costly) for c in sure.choices] == [
        (2, "Yes: Cy takes the pile", True), (1, "No: Ben played it", False)]
    taken = act(state, {"do": "missed_card", "card": "gun", "by": 2}, 2.0)
    assert taken.stacks == (35, 36, 37) and taken.turn == 2 and not taken.pile
    assert taken.reveal is not None and taken.reveal.why == "out_of_turn"
    no = act(state, {"do": "missed_card", "card": "gun", "by": 1}, 2.0)
    assert no.stacks == (35, 35, 36) and no.turn == 2 and no.pile == ("racketeer", "gun")


def test_a_card_seen_beside_the_pile_while_an_accusation_waits_is_asked_about_too() -> None:
    """The camera reports a card once: dropped during an accusation, it would be lost."""
    state = act(start(3), {"do": "play", "card": "racketeer", "serial": 5}, 1.0)
    state = act(state, {"do": "accuse", "by": [2], "against": 0}, 1.5)
    seen = engine.action_for_input(state, _tag("gun", 8, None))
    assert seen is not None
    state = act(state, seen, 2.0)
    assert [s.card for s in state.seen_beside] == ["gun"] and state.accusation is not None
    host = [m.label for m in engine.moves(state, None) if m.do == "count_seen"]
    assert host == ["Ignore it: not a card played"]  # counting it waits for the ruling
    state = act(state, {"do": "rule", "upheld": False}, 3.0)
    assert [s.card for s in state.seen_beside] == ["gun"]
