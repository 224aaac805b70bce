"""Casablanca rules: setup, bribes, moves, eliminations, protests, the winner."""

from __future__ import annotations

import pytest

from companion.games import get
from companion.games.base import IllegalAction, Setup, SetupError, Termination
from companion.games.casablanca import State, end_of_record, engine, settled
from tests.games.casablanca.helpers import (
    RESOLVE,
    bribe,
    eliminate,
    move,
    play,
    protest,
    start,
)


def refused(state: State, action: dict[str, object], *words: str) -> str:
    """Assert ``action`` is refused; return the reason (checked to contain ``words``)."""
    with pytest.raises(IllegalAction) as info:
        engine.decide(state, action, 0.0)
    for word in words:
        assert word in info.value.reason
    return info.value.reason


# --- setup -----------------------------------------------------------------------


def test_registry_finds_the_engine_by_name_and_alias() -> None:
    assert get("casablanca") is engine
    assert get("Casa") is engine


def test_opening_takes_agents_and_homebases_from_the_catalog() -> None:
    state = start()
    assert engine.default_options["agents"]["white_hotel"] == "hotel"
    assert engine.default_options["agents"]["white_police"] == "police"
    assert len(state.agents) == 8
    assert all(a.space == state.options.spec(a.id).homebase for a in state.agents)
    assert state.suitcase_at() == "basar"
    assert state.left == (10_000, 10_000, 10_000)
    assert state.turn == 0


def test_setup_refuses_bad_headers_with_what_to_change() -> None:
    with pytest.raises(SetupError, match="2 to 8"):
        start(seats=("Solo",))
    with pytest.raises(SetupError, match="unknown option"):
        start(colours=True)
    with pytest.raises(SetupError, match="multiple of 'step'"):
        start(budget=10_050)
    with pytest.raises(SetupError, match="agents"):
        start(agents={"red": "airport"})
    with pytest.raises(SetupError, match="protest_reveal"):
        start(protest_reveal="everything")


def test_custom_agents_option_sets_ids_and_homebases() -> None:
    state = start(
        agents={"red": "airport", "blue": "hotel", "spy": "embassy"},
        board={"basar": ["airport", "hotel", "embassy"]},
    )
    assert [a.id for a in state.agents] == ["red", "blue", "spy"]
    assert state.agent("spy").space == "embassy"
    assert state.name("spy") == "Agent Spy"


# --- bribes ----------------------------------------------------------------------


def test_bribe_spends_budget_and_passes_the_turn() -> None:
    state = play(start(), bribe(0, red=3000, blue=500))
    assert state.bribe(0, "red") == 3000 and state.bribe(0, "blue") == 500
    assert state.left[0] == 6500
    assert state.turn == 1


def test_bribes_only_ever_rise() -> None:
    state = play(start(), bribe(0, red=300), bribe(1, red=100), bribe(2, red=100))
    state = play(
        state,
        {
            "do": "bribe",
            "seat": 0,
            "amounts": [{"agent": "red", "amount": 200}, {"agent": "red", "amount": 400}],
        },
    )
    assert state.bribe(0, "red") == 900
    assert state.left[0] == 10_000 - 900
    for amount in (-100, 0):
        refused(state, bribe(1, red=amount), "positive multiple of $100")


def test_bribes_come_in_steps() -> None:
    refused(start(), bribe(0, red=250), "multiple of $100")
    state = play(start(step=500, budget=5_000), bribe(0, red=1_000))
    assert state.left[0] == 4_000
    refused(play(state, bribe(1, red=500)), bribe(2, red=700), "multiple of $500")


def test_budget_is_never_exceeded() -> None:
    state = play(start(), bribe(0, red=9_000), bribe(1, red=100), bribe(2, red=100))
    reason = refused(state, bribe(0, blue=600, green=500), "more than you have left")
    assert "9" not in reason and "1,000" not in reason  # no amount in a refusal
    state = play(state, bribe(0, blue=500, green=500))
    assert state.left[0] == 0
    assert sum(state.bribes[0]) == 10_000


def test_bribe_checks_turn_agents_and_shape() -> None:
    state = start()
    refused(state, bribe(1, red=100), "Ann's turn")
    refused(state, bribe(0, nobody=100), "no such agent", "Agent Red")
    refused(state, {"do": "bribe", "seat": 0, "amounts": []}, "at least one agent")
    refused(state, {"do": "bribe", "seat": 0, "amounts": [5]}, "not filled in the right way")
    refused(state, {"do": "bribe", "seat": 7, "amounts": [{"agent": "red", "amount": 100}]},
            "no such player")
    refused(state, {"do": "dance", "seat": 0}, "not something anyone can do")


# --- moves -----------------------------------------------------------------------


def test_move_is_announced_then_committed_by_the_next_action() -> None:
    state = play(start(), move(0, "red", "basar"))
    assert state.pending is not None and state.agent("red").space == "airport"
    assert engine.outcome(state) is None
    state = play(state, bribe(1, red=100))
    assert state.pending is None and state.agent("red").space == "basar"
    assert state.turn == 2


def test_resolve_commits_and_end_of_record_commits_what_is_pending() -> None:
    state = play(start(), move(0, "red", "basar"), RESOLVE)
    assert state.agent("red").space == "basar" and state.turn == 1
    pending = play(state, move(1, "blue", "basar"))
    done = settled(pending)
    assert done.agent("blue").space == "basar"
    assert end_of_record(done) == []
    assert done.follow_up == "blue"  # red is there too: blue may still eliminate
    closed = play(done, RESOLVE)
    assert closed.follow_up is None and closed.turn == 2
    refused(closed, RESOLVE, "nothing to confirm")


def test_home_means_the_agents_own_homebase() -> None:
    state = play(start(), move(0, "red", "basar"), move(1, "red", "home"), RESOLVE)
    assert state.agent("red").space == "airport"


def test_move_preconditions() -> None:
    state = start()
    refused(state, move(0, "red", "airport"), "already at Airport")
    refused(state, move(0, "red", "market", suitcase=True), "suitcase is not at Airport")
    refused(state, {"do": "move", "seat": 0, "agent": "red", "to": "basar", "suitcase": 1},
            "yes or no")


def test_suitcase_travels_with_its_carrier_and_can_be_left_or_taken() -> None:
    state = play(start(), move(0, "red", "basar"), move(1, "red", "market", suitcase=True))
    state = play(state, move(2, "blue", "market"), RESOLVE)
    assert state.suitcase_agent == "red" and state.suitcase_at() == "market"
    # blue takes it from red without eliminating it
    state = play(state, move(0, "blue", "souk", suitcase=True), RESOLVE)
    assert state.suitcase_agent == "blue"
    # blue walks on without it: it stays in the souk
    state = play(state, move(1, "blue", "hotel"), RESOLVE)
    assert state.suitcase_agent is None and state.suitcase_at() == "souk"


def test_board_option_checks_adjacency() -> None:
    board = {"basar": ["airport", "hotel", "police", "ricks_cafe"]}
    state = start(board=board)
    # a board given as a map names its spaces by their ids read as words, never the ids
    refused(state, move(0, "red", "hotel"), "Hotel is not next to Airport", "go to Basar")
    state = play(state, move(0, "red", "basar"), RESOLVE)
    assert state.agent("red").space == "basar"
    with pytest.raises(SetupError, match="no space"):
        start(board={"basar": ["airport"]})


# --- eliminations ----------------------------------------------------------------


def _meeting() -> State:
    """Ann has 1,000 on red, Ben 500 on blue; red and blue both on the basar."""
    state = play(start(), bribe(0, red=1000), bribe(1, blue=500, red=200), bribe(2, green=100))
    return play(state, move(0, "red", "basar"), RESOLVE, move(1, "blue", "basar"), RESOLVE)


def test_elimination_costs_1000_of_the_actors_bribe_and_loses_the_targets_bribes() -> None:
    state = _meeting()
    state = play(state, bribe(2, yellow=100))  # Cy closes Ben's follow-up window
    state = play(state, eliminate(0, "red", "blue"), RESOLVE)
    assert state.agent("blue").active is False
    assert state.bribe(0, "red") == 0  # 1,000 paid
    assert state.bribe(1, "blue") == 0  # lost with the agent
    assert state.bribe(1, "red") == 200  # untouched
    assert state.left == (9_000, 9_300, 9_800)  # paid money never comes back
    assert state.turn == 1
    refused(state, move(1, "blue", "hotel"), "eliminated")
    refused(state, bribe(1, blue=100), "eliminated")


def test_elimination_needs_1000_on_the_eliminating_agent() -> None:
    state = play(start(), bribe(0, red=900), bribe(1, red=1000), bribe(2, red=100))
    state = play(state, move(0, "red", "basar"), RESOLVE, move(1, "blue", "basar"))
    state = play(state, RESOLVE, bribe(2, red=100))
    refused(state, eliminate(0, "red", "blue"), "at least $1,000")
    state = play(state, bribe(0, red=100), move(1, "green", "souk"), RESOLVE)
    state = play(state, bribe(2, red=100), eliminate(0, "red", "blue"), RESOLVE)
    assert state.agent("blue").active is False and state.bribe(0, "red") == 0


def test_elimination_preconditions() -> None:
    state = play(start(), bribe(0, red=2000, brown=2000), bribe(1, red=100))
    state = play(state, bribe(2, red=100))
    refused(state, eliminate(0, "red", "blue"), "not on Agent Red's space")
    refused(state, eliminate(0, "red", "red"), "cannot eliminate itself")
    refused(state, eliminate(0, "red", "brown"), "in its homebase")
    allowed = play(start(eliminate_in_home=True), bribe(0, red=2000), bribe(1, red=100))
    allowed = play(allowed, bribe(2, red=100), eliminate(0, "red", "brown"), RESOLVE)
    assert allowed.agent("brown").active is False


def test_eliminated_carrier_drops_the_suitcase_on_its_space() -> None:
    state = play(start(), bribe(0, red=1000), move(1, "blue", "basar"), RESOLVE)
    state = play(state, move(2, "blue", "souk", suitcase=True), RESOLVE)
    state = play(state, move(0, "red", "souk"), RESOLVE)  # follow-up: red may eliminate now
    assert state.follow_up == "red" and state.turn == 0
    state = play(state, eliminate(0, "red", "blue"), RESOLVE)
    assert state.suitcase_agent is None and state.suitcase_at() == "souk"


def test_move_then_eliminate_window_and_option() -> None:
    state = play(start(), bribe(0, red=1000), move(1, "blue", "basar"), RESOLVE)
    state = play(state, bribe(2, red=100), move(0, "red", "basar"), RESOLVE)
    assert state.follow_up == "red" and state.turn == 0
    refused(state, bribe(0, red=100), "already moved")
    refused(state, move(0, "green", "souk"), "already moved")
    refused(state, eliminate(0, "blue", "red"), "only eliminate with Agent Red")
    closed = play(state, bribe(1, red=100))  # Ben plays on: the window closes
    assert closed.follow_up is None and closed.turn == 2
    off = play(start(move_then_eliminate=False), bribe(0, red=1000), move(1, "blue", "basar"))
    off = play(off, RESOLVE, bribe(2, red=100), move(0, "red", "basar"), RESOLVE)
    assert off.follow_up is None and off.turn == 1


# --- protests --------------------------------------------------------------------


def _protest_table(**options: object) -> State:
    """Ann 500 on red, Ben 300, Cy 500; Dee 100; Ann announces a red move."""
    state = start(seats=("Ann", "Ben", "Cy", "Dee"), **options)
    state = play(state, bribe(0, red=500), bribe(1, red=300), bribe(2, red=500))
    return play(state, bribe(3, red=100), move(0, "red", "basar"))


def test_higher_bribe_wins_a_protest_and_cancels_the_move() -> None:
    state = play(start(), bribe(0, red=300), bribe(1, red=400), bribe(2, red=100))
    state = play(state, move(0, "red", "basar"), protest(1))
    assert state.pending is None and state.agent("red").space == "airport"
    assert state.last is not None and state.last.result == "cancelled"
    assert state.last.protests[0].upheld and state.last.protests[0].called == 400
    assert state.turn == 0 and state.no_bribe
    refused(state, protest(2), "nothing to protest")  # no protest against a protest


def test_tie_goes_to_the_actor_and_others_may_still_protest() -> None:
    state = play(_protest_table(), protest(2))  # Cy 500 vs Ann 500
    assert state.pending is not None and not state.pending.protests[0].upheld
    assert state.pending.protests[0].called == 500
    state = play(state, protest(3))  # Dee 100 < 500
    assert state.pending is not None and len(state.pending.protests) == 2
    state = play(state, RESOLVE)
    assert state.agent("red").space == "basar"


def test_protest_order_is_clockwise_from_the_actor() -> None:
    state = play(_protest_table(), protest(2))
    reason = refused(state, protest(1), "Cy sits after you", "has passed")
    assert "300" not in reason
    refused(state, protest(2), "already protested")
    refused(state, protest(0), "your own action")


def test_protester_needs_at_least_100_on_the_agent() -> None:
    state = play(start(), bribe(0, red=300), bribe(1, blue=100), bribe(2, red=100))
    state = play(state, move(0, "red", "basar"))
    refused(state, protest(1), "at least $100")
    state = play(state, protest(2))  # exactly 100: allowed, and lost
    assert state.pending is not None and not state.pending.protests[0].upheld
    assert state.pending.protests[0].called == 100


def test_minimum_call_is_100_even_when_the_actor_has_nothing() -> None:
    state = play(start(), bribe(0, blue=300), bribe(1, red=700), bribe(2, red=100))
    state = play(state, move(0, "red", "basar"), protest(1))
    assert state.last is not None and state.last.protests[0].called == 100
    assert state.last.protests[0].upheld


def test_winner_only_reveal_hides_the_called_amount() -> None:
    state = play(_protest_table(protest_reveal="winner"), protest(2), protest(3))
    assert state.pending is not None
    assert [p.called for p in state.pending.protests] == [None, None]


def test_successful_protest_forbids_a_bribe_but_not_another_action() -> None:
    state = play(start(), bribe(0, red=300), bribe(1, red=400), bribe(2, red=100))
    state = play(state, move(0, "red", "basar"), protest(1))
    refused(state, bribe(0, blue=100), "may not bribe this turn")
    refused(state, move(0, "red", "basar"), "announce a different action")
    state = play(state, move(0, "blue", "basar"), RESOLVE)
    assert state.agent("blue").space == "basar" and state.turn == 1
    assert not state.no_bribe


def test_successful_protest_against_an_elimination_keeps_the_target() -> None:
    state = play(start(), bribe(0, red=1000), bribe(1, red=1100), move(2, "blue", "basar"))
    state = play(state, RESOLVE, move(0, "red", "basar"), RESOLVE, eliminate(0, "red", "blue"))
    state = play(state, protest(1))
    assert state.agent("blue").active and state.bribe(0, "red") == 1000
    assert state.follow_up == "red"  # the move stands; Ann may try another elimination
    refused(state, eliminate(0, "red", "blue"), "different action")


# --- the end ---------------------------------------------------------------------


def _pass_until(state: State, seat: int) -> State:
    """Other seats shuffle Agent Green between two empty spaces until ``seat`` is on turn."""
    while state.turn != seat:
        to = "kasbah" if state.agent("green").space == "souk" else "souk"
        state = play(state, move(state.turn, "green", to), RESOLVE)
    return state


def _carry_home(*bribes: dict[str, object], mover: int = 0) -> State:
    """Four seats bribe; ``mover`` walks red to the suitcase and announces carrying it home."""
    state = play(start(seats=("Ann", "Ben", "Cy", "Dee")), *bribes)
    state = play(_pass_until(state, mover), move(mover, "red", "basar"), RESOLVE)
    state = play(_pass_until(state, mover), move(mover, "red", "gate", suitcase=True), RESOLVE)
    return play(_pass_until(state, mover), move(mover, "red", "home", suitcase=True))


def test_highest_bribe_on_the_carrier_wins() -> None:
    state = _carry_home(bribe(0, red=500), bribe(1, red=900), bribe(2, red=100), bribe(3, blue=100))
    assert engine.outcome(state) is None  # announced, not yet committed
    state = play(state, RESOLVE)
    result = engine.outcome(state)
    assert result is not None and result.winners == (1,)
    assert result.termination is Termination.WON
    assert result.to_json()["winner"] == [1] and result.detail["agent"] == "red"
    refused(state, bribe(1, red=100), "game is over")


def test_tie_with_the_mover_goes_to_the_mover() -> None:
    state = _carry_home(
        bribe(0, red=900), bribe(1, red=900), bribe(2, red=100), bribe(3, red=100), mover=1
    )
    result = engine.outcome(play(state, RESOLVE))
    assert result is not None and result.winners == (1,)


def test_tie_without_the_mover_is_a_shared_win() -> None:
    state = _carry_home(
        bribe(0, red=900), bribe(1, red=900), bribe(2, red=100), bribe(3, red=100), mover=2
    )
    result = engine.outcome(play(state, RESOLVE))
    assert result is not None and result.winners == (0, 1)
    assert result.termination is Termination.SHARED


def test_suitcase_in_another_homebase_does_not_end_the_game() -> None:
    state = play(start(), move(0, "red", "basar"), RESOLVE, move(1, "red", "hotel", suitcase=True))
    state = play(state, RESOLVE)
    assert engine.outcome(state) is None and state.suitcase_agent == "red"


def test_play_on_after_a_winning_announcement_asks_to_confirm() -> None:
    state = _carry_home(bribe(0, red=500), bribe(1, red=900), bribe(2, red=100), bribe(3, blue=100))
    refused(state, bribe(1, blue=100), "ends the game", "the host confirms it")
    state = play(state, protest(1))  # Ben 900 > Ann 500: the winning move is stopped
    assert engine.outcome(state) is None and state.agent("red").space == "gate"


def test_new_game_accepts_a_setup_seed() -> None:
    state = engine.new_game(Setup(seats=("A", "B"), options={}, seed=7))
    assert state.seats == ("A", "B")


def test_end_of_record_commits_a_pending_winning_move() -> None:
    state = _carry_home(bribe(0, red=500), bribe(1, red=900), bribe(2, red=100), bribe(3, red=100))
    events = end_of_record(state)
    assert [type(e).__name__ for e in events] == ["MoveCommitted", "GameEnded"]
    result = engine.outcome(settled(state))
    assert result is not None and result.winners == (1,)
    assert engine.outcome(state) is None  # the live table still waits for protests
