"""While the camera says a lamp's glare hides part of the pile, the 3-second clock
penalises nobody by itself (issue 36: four cards landed in a row inside a reflection, no
frame read them, and a player who had played three times since was penalised). The host
rules on hesitation meanwhile; the clock starts again when the camera sees the whole pile.
Option ``glare_timing`` (docs/rules/nasty7.md)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.actions import GameAction
from companion.games.base import IllegalAction, Setup, SightInput
from companion.games.nasty7 import engine
from companion.games.nasty7.events import PileTaken
from companion.games.nasty7.state import deadline
from companion.inputs import HOST, Command, PileSight, Source
from companion.session import Session
from companion.store import MemoryStore
from companion.table import Table
from tests.camera_rig import Clock
from tests.games.nasty7.helpers import NAMES, act, plays, run, start

BLIND = {"do": "pile_sight", "blind": True}
CLEAR = {"do": "pile_sight", "blind": False}


def until(state: Any, t: float, events: list[Any]) -> Any:
    """The clock runs to ``t``: every deadline due by then is delivered."""
    return engine.deliver_deadlines(state, t, lambda _t, evs: events.extend(evs))


def test_no_deadline_while_the_pile_is_blind_and_the_clock_starts_again_when_it_is_seen() -> None:
    events: list[Any] = []
    state = until(run(start(), [*plays("racketeer"), (2.0, BLIND)], events), 9.0, events)
    assert state.blind and deadline(state) is None
    assert not any(isinstance(e, PileTaken) for e in events)  # 4.0 passed: nobody penalised
    state = run(state, [(10.0, CLEAR)], events)
    assert deadline(state) == 13.000001  # from when the camera saw the whole pile again
    state = until(state, 13.5, events)
    taken = [e for e in events if isinstance(e, PileTaken)]
    assert [(e.offender, e.why, e.at) for e in taken] == [(1, "hesitation", 13.000001)]


def test_a_card_seen_while_blind_is_played_and_timed_from_its_landing() -> None:
    state = run(start(), [*plays("racketeer"), (1.5, BLIND), (2.5, {"do": "play", "card": "gun"})])
    assert state.plays == 2 and deadline(state) is None  # still blind: the host rules
    state = act(state, CLEAR, 3.0)
    assert deadline(state) == 6.000001  # the later of the card's landing and the clear


def test_with_the_clock_option_glare_changes_nothing() -> None:
    events: list[Any] = []
    state = run(start(glare_timing="clock"), [*plays("racketeer"), (2.0, BLIND)], events)
    assert deadline(state) == 4.000001
    until(state, 4.5, events)
    assert [e.why for e in events if isinstance(e, PileTaken)] == ["hesitation"]


def test_a_bad_glare_timing_is_refused_with_its_choices() -> None:
    with pytest.raises(Exception, match="glare_timing must be one of host_rules, clock"):
        start(glare_timing="sometimes")


def test_the_host_rules_on_hesitation_while_blind() -> None:
    state = run(start(), [*plays("racketeer"), (2.0, BLIND)])
    state = act(state, {"do": "hesitation"}, 8.0)
    assert state.round_no == 2 and state.stacks[1] > state.stacks[0]


def test_only_the_camera_sends_it() -> None:
    for sender in (0, "host"):
        with pytest.raises(IllegalAction):
            engine.admit(BLIND, sender)
    assert engine.admit(BLIND, "table") is not None


def test_undo_passes_over_the_cameras_notice() -> None:
    session = Session.start(engine, _setup())
    session, _ = session.preview({"do": "play", "card": "racketeer"}, 1.0, "table")
    session, _ = session.preview(BLIND, 2.0, "table")
    session, _ = session.preview({"do": "undo"}, 3.0, "host")
    assert session.state.plays == 0  # the card was taken back, not the camera's word
    assert session.state.blind


def test_a_correction_after_the_notice_keeps_it() -> None:
    state = run(start(), [*plays("racketeer"), (1.5, BLIND)])
    state = act(state, {"do": "replace_card", "card": "gun"}, 2.0)  # the last card, misread
    assert state.pile == ("gun",) and state.blind
    assert state.log[-1] == "the host corrected the last card: it was a Gun"


def test_the_input_turns_only_when_the_view_turns() -> None:
    state = run(start(), plays("racketeer"))
    assert engine.action_for_input(state, SightInput(False, 2.0)) is None
    action = engine.action_for_input(state, SightInput(True, 2.0))
    assert isinstance(action, GameAction) and action.to_json() == BLIND
    state = act(state, BLIND, 2.0)
    assert engine.action_for_input(state, SightInput(True, 3.0)) is None


def test_the_table_passes_the_cameras_word_on_and_a_new_game_starts_blind() -> None:
    clock = Clock()
    table = Table(MemoryStore(), clock=clock)
    assert table.process(PileSight(0.5, True)).ignored  # no game yet: kept for the next one
    start_game = {"game": "nasty7", "players": list(NAMES[:3])}
    assert table.process(Command("start", start_game)).accepted
    assert table.session is not None and table.session.state.blind
    clock.now = 10.0
    table.tick()
    assert table.session.state.plays == 0  # no card yet: no clock to run anyway
    assert table.process(PileSight(10.0, False)).accepted
    assert not table.session.state.blind
    assert table.process(PileSight(10.5, False)).ignored  # the same view again: nothing


def test_other_games_ignore_it() -> None:
    table = Table(MemoryStore(), clock=Clock())
    start_game = {"game": "illegal", "players": list(NAMES[:3])}
    assert table.process(Command("start", start_game, source=HOST)).accepted
    assert table.process(PileSight(1.0, True)).ignored
    assert table.pile_blind


def test_a_phone_posting_it_is_refused() -> None:
    table = Table(MemoryStore(), clock=Clock())
    table.process(Command("start", {"game": "nasty7", "players": list(NAMES[:3])}))
    post = Command("action", {"action": BLIND}, source=Source.of_seat(0))
    res = table.process(post)
    assert not res.accepted and res.reason
    res = table.process(Command("action", {"action": BLIND}, source=HOST))
    assert not res.accepted and res.reason
    assert table.session is not None and not table.session.state.blind


def _setup() -> Setup:
    return Setup(NAMES[:3], {})


def test_a_game_resumed_blind_is_told_the_camera_sees_the_whole_pile() -> None:
    """After a power cut the camera starts again and says only when glare hides the pile:
    the resumed game's clock must not stay off for good."""
    store, clock = MemoryStore(), Clock()
    table = Table(store, clock=clock)
    table.process(Command("start", {"game": "nasty7", "players": list(NAMES[:3])}))
    table.process(PileSight(0.5, True))
    assert table.session is not None and table.session.state.blind
    again = Table(store, clock=clock)  # the restart: the game is rebuilt from the store
    assert again.session is not None and not again.session.state.blind
    assert [b.action.to_json() for b in again.session.batches][-1] == CLEAR
    third = Table(store, clock=clock).session  # nothing more to say
    assert third is not None and len(third.batches) == len(again.session.batches)
