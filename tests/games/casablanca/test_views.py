"""Casablanca's views, signals and replay state."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.base import IllegalAction
from companion.games.casablanca import State, engine
from companion.games.casablanca.events import EliminationCommitted
from tests.games.casablanca.helpers import (
    RESOLVE,
    bribe,
    eliminate,
    move,
    play,
    protest,
    start,
)

PUBLIC_KEYS = {
    "game",
    "title",
    "status",
    "seats",
    "turn",
    "phase",
    "agents",
    "board",
    "suitcase",
    "pending",
    "last",
    "may_bribe",
    "follow_up",
    "log",
    "camera_note",
    "options",
    "over",
    "winners",
    "reveal",
}


def test_public_view_has_the_documented_keys_and_is_json() -> None:
    state = play(start(), bribe(0, red=500), move(1, "red", "basar"))
    view = engine.public_view(state)
    assert set(view) == PUBLIC_KEYS
    json.dumps(view)
    assert view["phase"] == "pending" and view["turn"] == 1
    assert view["pending"]["text"] == "Agent Red moves to Basar."
    assert view["pending"]["may_protest"] == [2, 0]
    assert "Ben" in view["status"] and "Protest" in view["status"]
    red = next(a for a in view["agents"] if a["id"] == "red")
    assert red["space_name"] == red["homebase_name"] == "Airport"
    assert red["targets"] == []  # Brown shares the Airport, but it is Brown's homebase
    assert {"id": "basar", "name": "Basar"} in red["neighbours"]
    red = {k: v for k, v in red.items()
           if k not in ("space_name", "homebase_name", "targets", "neighbours")}
    assert red == {
        "id": "red",
        "name": "Agent Red",
        "colour": "red",
        "homebase": "airport",
        "space": "airport",
        "at_home": True,
        "status": "active",
        "suitcase": False,
    }
    assert view["reveal"] is None


def allowed(state: State, seat: int, do: str) -> bool:
    """Whether ``seat`` has an allowed move ``do`` now."""
    return any(m.allowed for m in engine.moves(state, seat) if m.do == do)


def why_not(state: State, seat: int, do: str) -> str:
    """Why ``seat``'s move ``do`` is not allowed now (its first refused option)."""
    return next(m.why for m in engine.moves(state, seat) if m.do == do and not m.allowed)


def test_seat_view_says_what_the_seat_may_do() -> None:
    state = play(start(), bribe(0, red=500), move(1, "red", "basar"))
    ann = engine.seat_view(state, 0)["secrets"]
    assert ann == {"bribes": ann["bribes"], "left": 9500, "spent": 500}
    assert ann["bribes"]["red"] == 500
    assert allowed(state, 0, "protest")
    assert not allowed(state, 2, "protest") and "at least $100" in why_not(state, 2, "protest")
    assert not allowed(state, 1, "protest") and "own action" in why_not(state, 1, "protest")
    # Cy plays next once Ben's move stands: Cy may already bribe and move
    assert allowed(state, 2, "bribe") and allowed(state, 2, "move")
    assert not allowed(state, 0, "bribe") and "Cy's turn" in why_not(state, 0, "bribe")
    stopped = play(play(start(), bribe(0, red=500), bribe(1, red=100)), move(2, "red", "basar"))
    stopped = play(stopped, protest(0))
    assert allowed(stopped, 2, "move") and not allowed(stopped, 2, "bribe")
    assert "may not bribe" in why_not(stopped, 2, "bribe")


def test_seat_view_lists_agents_the_seat_can_eliminate_with() -> None:
    state = play(start(), bribe(0, red=1000, blue=900), move(1, "blue", "gate"), RESOLVE)
    state = play(state, bribe(2, red=100))
    state = play(state, move(0, "red", "gate"), RESOLVE)  # Red joins Blue: Ann may eliminate
    offers = [m for m in engine.moves(state, 0) if m.do == "eliminate"]
    assert [(m.label, m.allowed) for m in offers] == [("Agent Red", True)]
    assert [c.label for c in offers[0].params[0].choices] == ["Agent Blue"]
    # Ben's action would close the window: he has no money on Red or Blue to eliminate
    ben = [m for m in engine.moves(state, 1) if m.do == "eliminate"]
    assert ben and not any(m.allowed for m in ben) and "at least $1,000" in ben[0].why


def test_state_json_has_the_replay_keys() -> None:
    state = play(start(), bribe(0, red=1000), move(1, "blue", "basar"), RESOLVE)
    state = play(state, move(2, "blue", "souk", suitcase=True), RESOLVE)
    state = play(state, move(0, "red", "souk"), RESOLVE, eliminate(0, "red", "blue"), RESOLVE)
    out = engine.state_json(state)
    assert out["agents"]["blue"] == {
        "status": "eliminated",
        "suitcase": False,
        "space": "souk",
        "homebase": "hotel",
    }
    assert out["bribes"] == [{}, {}, {}]  # the 1,000 paid for the elimination
    assert out["left"] == [9000, 10_000, 10_000]
    assert out["suitcase"] == {"space": "souk", "agent": None}
    json.dumps(out)


def test_signals_for_protests_turns_and_the_end() -> None:
    state = play(start(), bribe(0, red=500))
    state = play(state, move(1, "red", "basar"))
    state, events = engine.run(state, protest(0), 0.0)
    assert engine.signals(state, events) == [("upheld", 0)]
    state, events = engine.run(state, move(1, "blue", "basar"), 0.0)
    assert engine.signals(state, events) == []
    state, events = engine.run(state, RESOLVE, 0.0)
    assert engine.signals(state, events) == [("turn", 2)]
    assert engine.next_deadline(state) is None


# --- invariants over random play -------------------------------------------------

AGENTS = ("red", "blue", "green")
SPACES = ("basar", "souk", "home")
actions = st.one_of(
    st.builds(
        lambda s, a, n: bribe(s, **{a: n}),
        st.integers(0, 2),
        st.sampled_from(AGENTS),
        st.sampled_from([100, 500, 1000, 2500, 4000]),
    ),
    st.builds(
        move, st.integers(0, 2), st.sampled_from(AGENTS), st.sampled_from(SPACES), st.booleans()
    ),
    st.builds(eliminate, st.integers(0, 2), st.sampled_from(AGENTS), st.sampled_from(AGENTS)),
    st.builds(protest, st.integers(0, 2)),
    st.just(RESOLVE),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(actions, max_size=60))
def test_money_is_never_created_and_bribes_never_fall_but_by_elimination(
    script: list[dict[str, object]],
) -> None:
    state: State = start()
    gone = [0, 0, 0]  # money paid for eliminations or lost with an eliminated agent
    for action in script:
        try:
            after, events = engine.run(state, action, 0.0)
        except IllegalAction:
            continue
        eliminations = [e for e in events if isinstance(e, EliminationCommitted)]
        for e in eliminations:
            for seat in range(3):
                gone[seat] += state.bribe(seat, e.target) + (e.cost if seat == e.seat else 0)
        for seat in range(3):
            assert after.left[seat] >= 0
            assert after.left[seat] + sum(after.bribes[seat]) + gone[seat] == 10_000
            if not eliminations:
                assert all(
                    b >= a for a, b in zip(state.bribes[seat], after.bribes[seat], strict=True)
                )
        if after.winners is None:
            assert engine.public_view(after)["reveal"] is None
        state = after


def test_seat_view_says_when_the_budget_is_spent() -> None:
    state = play(start(budget=1000), bribe(0, red=1000), bribe(1, red=100), bribe(2, red=100))
    assert not allowed(state, 0, "bribe") and "whole budget" in why_not(state, 0, "bribe")
    assert allowed(state, 0, "move")
    assert engine.seat_view(state, 0)["secrets"]["left"] == 0
    assert engine.seat_view(state, 0)["secrets"]["spent"] == 1000


def test_attention_is_on_for_the_seat_that_must_act_now() -> None:
    def attention(state: State) -> list[bool]:
        return [engine.seat_view(state, s)["attention"]["act"] for s in range(3)]

    state = start(concessions=True)
    assert attention(state) == [True, False, False]  # Ann's turn
    state = play(state, bribe(0, red=900), bribe(1, red=500))
    assert attention(state) == [False, False, True]
    # Cy announces: Ann plays on (or anyone protests: each phone's protest move says
    # whether it may; the table cannot say who, as that depends on secret sheets)
    state = play(state, move(2, "red", "gate"))
    assert attention(state) == [True, False, False]
    assert allowed(state, 0, "protest") and allowed(state, 1, "protest")
    # Ben protests: the actor and the protester must concede or compare; Ann waits
    state = play(state, protest(1))
    assert attention(state) == [False, True, True]
    state = play(state, {"do": "compare", "seat": 2})  # Cy asked: Ben still must answer
    assert attention(state) == [False, True, False]
    state = play(state, {"do": "concede", "seat": 1}, RESOLVE)
    assert attention(state) == [True, False, False]
    # the suitcase carried home: nobody is asked for anything any more
    state = play(state, move(0, "blue", "basar"), RESOLVE, move(1, "blue", "hotel", True), RESOLVE)
    assert state.winners is not None
    assert attention(state) == [False, False, False]
    assert engine.waiting(state).on == "over" and engine.moves(state, 0) == []
