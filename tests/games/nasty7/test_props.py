"""The Nasty 7 under random play: invariants, event round trips, the count never leaks."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from hypothesis import event as note
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalAction
from companion.games.codec import event_from_json, event_to_json
from companion.games.nasty7 import CARDS, FIGURES, MISTAKES, State, engine, number_for
from companion.games.nasty7.events import PileTaken
from tests.games.nasty7.helpers import start

PLAY = st.builds(lambda c: {"do": "play", "card": c}, st.sampled_from(CARDS))
ACTIONS = st.one_of(
    PLAY, PLAY, PLAY, PLAY, PLAY,
    st.builds(lambda c, s: {"do": "play", "card": c, "seat": s}, st.sampled_from(CARDS),
              st.integers(0, 5)),
    st.builds(lambda b, u: {"do": "accuse", "by": b, "upheld": u},
              st.lists(st.integers(0, 5), min_size=1, max_size=3, unique=True),
              st.sampled_from([True, False, None])),
    st.builds(lambda u: {"do": "rule", "upheld": u}, st.booleans()),
    st.just({"do": "withdraw"}),
    st.builds(lambda s, k: {"do": "mistake", "seat": s, "kind": k}, st.integers(0, 5),
              st.sampled_from(MISTAKES)),
    st.builds(lambda w: {"do": "word", "text": w}, st.sampled_from(["pfft", "ouch", "3/4"])),
    st.builds(lambda b: {"do": "reassign", "by": b}, st.integers(0, 5)),
    st.builds(lambda c: {"do": "replace_card", "card": c}, st.sampled_from(CARDS)),
    st.builds(lambda c: {"do": "missed_card", "card": c}, st.sampled_from(CARDS)),
    st.just({"do": "hesitation"}),
    st.builds(lambda b, k: {"do": "accuse", "by": b, "upheld": None, "kind": k},
              st.lists(st.integers(0, 5), min_size=1, max_size=2, unique=True),
              st.sampled_from(["wrong_number", "wrong_word", "spoke_on_gun", "hesitation"])),
)  # fmt: skip
GAMES = st.tuples(
    st.integers(2, 6),
    st.fixed_dictionaries({"deck_size": st.integers(6, 24),
                           "nasty": st.sampled_from([False, True, "second_round"]),
                           "even_nastier": st.booleans()}),
    st.lists(st.tuples(st.sampled_from([0.3, 1.0, 2.9, 3.5, 8.0]), ACTIONS), min_size=10, max_size=150),
)  # fmt: skip


def _check(state: State) -> None:
    """What must hold after every step of any game."""
    assert sum(state.stacks) + len(state.pile) + state.out_of_game == state.options.deck_size
    assert state.figures == sum(FIGURES[c] for c in state.pile)
    assert state.count == number_for(state.figures)
    assert len(state.pile) == len(state.pile_serials)
    if not state.pile:
        assert engine.next_deadline(state) is None
    if not state.over:
        assert all(n > 0 for s, n in enumerate(state.stacks) if s != state.finisher)
    view = engine.public_view(state)
    assert json.loads(json.dumps(view)) == view
    if state.reveal is None:  # the running count is not on the table
        assert engine.public_view(replace(state, figures=state.figures + 5)) == view


def _round_trip(events: list[Any]) -> None:
    for event in events:
        name, payload = event_to_json(event)
        stored = json.loads(json.dumps(payload))
        assert event_from_json(engine.event_types, name, stored) == event


@settings(max_examples=150, deadline=None)
@given(GAMES)
def test_random_games_keep_every_invariant(game: tuple[int, dict[str, Any], list[Any]]) -> None:
    seats, options, steps = game
    state = start(seats, **options)
    t = 0.0
    all_events: list[Any] = []
    for gap, action in steps:
        t += gap
        state = engine.deliver_deadlines(state, t, lambda _t, evs: all_events.extend(evs))
        if action["do"] == "accuse":
            action = {**action, "against": state.last_player or 0}
            if action["upheld"] is None:
                del action["upheld"]
        try:
            events = engine.decide(state, action, t)
        except IllegalAction as exc:
            assert len(exc.reason) > 10
            continue
        all_events.extend(events)
        state = engine.fold(state, events)
        _check(state)
        if state.over:
            assert engine.outcome(state) is not None
            assert all(state.stacks[w] == 0 for w in state.winners)
            break
    note("game over" if state.over else "game goes on")
    note(f"{sum(isinstance(e, PileTaken) for e in all_events) // 3 * 3}+ pile moves")
    _round_trip(all_events)
    assert engine.fold(start(seats, **options), all_events) == state  # events alone rebuild it
