"""Privacy is the feature: no view sends a seat's amounts to anyone else before the end."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from companion.games.casablanca import State, engine
from companion.games.casablanca.events import ProtestSettled
from companion.games.codec import event_from_json, event_to_json
from tests.games.casablanca.helpers import (
    RESOLVE,
    bribe,
    eliminate,
    move,
    protest,
    start,
)

#: A whole three-seat game with amounts that no public number (budget, step,
#: elimination cost, seat numbers) shares. Cy carries the suitcase home with Agent Blue.
GAME: list[dict[str, Any]] = [
    bribe(0, red=3700, blue=1300),
    bribe(1, red=2900, green=2400),
    bribe(2, blue=4400),
    move(0, "red", "basar"),
    protest(1),  # Ben 2,900 < Ann 3,700: not upheld
    move(1, "green", "basar"),  # commits Ann's move; green meets red
    eliminate(1, "green", "red"),  # Ben's follow-up
    bribe(2, white_hotel=700),  # commits: red is out, Ben pays 1,000 of green's 2,400
    move(0, "blue", "basar"),
    RESOLVE,
    RESOLVE,  # Ann does not eliminate with blue
    move(1, "green", "souk"),
    move(2, "blue", "home", suitcase=True),
    protest(0),  # Ann 1,300 < Cy 4,400: not upheld
    RESOLVE,
]

NUMBER = re.compile(r"\d[\d,]*")


def numbers(view: Any) -> set[int]:
    """Every number in a view, as JSON values or written in its text ("$3,700")."""
    return {int(m.replace(",", "")) for m in NUMBER.findall(json.dumps(view))}


def secrets(state: State, seat: int) -> set[int]:
    """What only ``seat`` may know: each bribe total and its unspent budget."""
    return {amount for amount in state.bribes[seat] if amount} | {state.left[seat]}


def walk(reveal: str) -> Iterator[tuple[State, list[Any]]]:
    """Every state of the game (with the events that led to it)."""
    state = start(protest_reveal=reveal)
    yield state, []
    for action in GAME:
        state, events = engine.run(state, action, 0.0)
        yield state, events


@pytest.mark.parametrize("reveal", ["called", "winner"])
def test_no_view_leaks_a_seats_amounts_before_the_end(reveal: str) -> None:
    public_numbers = {0, 1, 2, 100, 1000, 10_000}  # seats, step, cost, budget
    called: set[int] = set()  # amounts the bidding ritual revealed in public
    checked = 0
    for state, events in walk(reveal):
        called |= {e.called for e in events if isinstance(e, ProtestSettled) and e.called}
        if state.winners is not None:
            break
        public = numbers(engine.public_view(state))
        for seat in range(3):
            hidden = secrets(state, seat) - public_numbers - called
            own = numbers(engine.seat_view(state, seat))
            assert hidden <= own, "the seat's own sheet must show its amounts"
            assert not hidden & public, f"public view shows {hidden & public}"
            for other in range(3):
                if other != seat:
                    leaked = hidden & numbers(engine.seat_view(state, other))
                    assert not leaked, f"seat {other} sees seat {seat}'s {leaked}"
            checked += len(hidden)
    assert checked > 40  # the search really looked for amounts
    if reveal == "winner":
        assert called == set()
    else:
        assert called == {2900, 1300}  # the last calls of the two protests


def test_called_reveal_shows_only_the_last_call() -> None:
    states = [s for s, _ in walk("called")]
    after_protest = states[5]
    last = engine.public_view(after_protest)["pending"]
    assert last["protests"] == [{"seat": 1, "upheld": False, "called": 2900, "conceded": None}]
    assert 3700 not in numbers(engine.public_view(after_protest))


def test_everything_is_revealed_once_the_game_is_over() -> None:
    *_, (final, _) = walk("called")
    view = engine.public_view(final)
    assert view["over"] and view["winners"] == [2]
    assert view["reveal"]["bribes"][2] == {
        "green": 0,
        "purple": 0,
        "blue": 4400,
        "white_hotel": 700,
        "red": 0,
        "brown": 0,
        "yellow": 0,
        "white_police": 0,
    }
    assert view["reveal"]["bribes"][1]["green"] == 1400  # 2,400 less the elimination
    assert view["reveal"]["left"] == [5000, 4700, 4900]


def test_refusals_of_a_bribe_name_no_amount() -> None:
    state = start()
    state, _ = engine.run(state, bribe(0, red=9300), 0.0)
    state, _ = engine.run(state, bribe(1, red=100), 0.0)
    state, _ = engine.run(state, bribe(2, red=100), 0.0)
    with pytest.raises(Exception) as info:
        engine.decide(state, bribe(0, blue=800), 0.0)
    assert not numbers(str(info.value)) - {100}


def test_events_round_trip_through_json() -> None:
    kinds = set()
    for _, events in walk("called"):
        for event in events:
            name, payload = event_to_json(event)
            again = event_from_json(engine.event_types, name, json.loads(json.dumps(payload)))
            assert again == event
            kinds.add(name)
    camera_and_concessions = {
        "TagMoved", "SightingSettled", "ProtestRaised", "ProtestConceded", "StoodFirm"
    }
    assert kinds == set(engine.event_types) - camera_and_concessions
