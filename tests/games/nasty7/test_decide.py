"""The Nasty 7 rules: the count, deal, skips, hesitation, accusations, penalties, the end."""

from __future__ import annotations

import json
from typing import Any

import pytest

from companion.games.base import IllegalAction, Setup, SetupError, Termination
from companion.games.codec import event_from_json, event_to_json
from companion.games.nasty7 import State, engine, number_for
from companion.games.nasty7.events import (
    AccusationOpened,
    AccusationRuled,
    AccusationWithdrawn,
    AccusersJoined,
    CardLandedUnread,
    CardPlayed,
    CardReassigned,
    CardReplaced,
    CardSeenBeside,
    GameEnded,
    LandingNamed,
    MissedCardAdded,
    PenaltyCardsGiven,
    PileSightChanged,
    PileTaken,
    SeenCardSettled,
    WordSet,
)
from tests.games.nasty7.helpers import act, plays, run, start

# --- the seed's worked example (the first test) -----------------------------------

#: (player, card, number(s) said in the seed's example, seat that skips next or None)
WORKED_EXAMPLE = [
    ("Abby", "racketeer", [1], None),
    ("Beth", "racketeer", [2], None),
    ("Carter", "phone", [3], None),
    ("Debbie", "racketeer", [4], None),
    ("Abby", "gun", [5], None),
    ("Beth", "racketeer", [6], None),
    ("Carter", "twin_racketeer", [7, 6], "Debbie"),
    ("Abby", "racketeer", [5], None),
    ("Beth", "twin_phone", [4, 3], "Carter"),
    ("Debbie", "racketeer", [2], None),
]


def test_the_seeds_worked_example_replays_exactly() -> None:
    seats = ("Abby", "Beth", "Carter", "Debbie")
    state = engine.new_game(Setup(seats))
    for i, (player, card, said, skipper) in enumerate(WORKED_EXAMPLE):
        assert seats[state.turn] == player, f"card {i + 1}: expected {player} to play"
        before = state.figures
        state = act(state, {"do": "play", "card": card}, float(i + 1))
        assert [number_for(n) for n in range(before + 1, state.figures + 1)] == said
        assert state.count == said[-1]
        assert (seats[state.skipped] if state.skipped is not None else None) == skipper
    assert (state.figures, state.count, len(state.pile)) == (12, 2, 10)
    assert state.stacks == (24, 24, 25, 25) and seats[state.turn] == "Abby"


# --- the count --------------------------------------------------------------------


def test_the_count_runs_up_to_seven_and_down_without_repeating_seven_or_one() -> None:
    said = [number_for(n) for n in range(1, 26)]
    assert said == [1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1]
    assert number_for(0) == 0
    assert all(number_for(n) == number_for(n + 12) for n in range(1, 100))


@pytest.mark.parametrize(
    "cards, figures",
    [
        (["racketeer"], 1),
        (["phone", "gun"], 2),
        (["twin_racketeer"], 2),
        (["twin_phone", "racketeer"], 3),
        (["gun", "phone", "twin_phone"], 4),
    ],
)
def test_every_figure_on_a_card_counts(cards: list[str], figures: int) -> None:
    state = run(start(4), plays(*cards))
    assert state.figures == figures and state.count == number_for(figures)


# --- setup ------------------------------------------------------------------------


@pytest.mark.parametrize("seats, each, left", [(2, 55, 0), (3, 36, 2), (4, 27, 2), (5, 22, 0),
                                               (6, 18, 2)])  # fmt: skip
def test_the_deck_is_dealt_evenly_and_leftovers_leave_the_game(
    seats: int, each: int, left: int
) -> None:
    state = start(seats)
    assert state.stacks == (each,) * seats and state.out_of_game == left


def test_deck_size_option_changes_the_deal() -> None:
    assert start(3, deck_size=20).stacks == (6, 6, 6)


def test_starter_option_chooses_who_plays_first() -> None:
    state = start(4, starter=2)
    assert state.turn == 2
    assert run(state, plays("racketeer")).stacks == (27, 27, 26, 27)


@pytest.mark.parametrize(
    "seats, options, words",
    [
        (1, {}, "2 to 6"),
        (7, {}, "2 to 6"),
        (3, {"colour": "red"}, "unknown option"),
        (3, {"hesitation_s": 0}, "hesitation_s"),
        (3, {"hesitation_s": True}, "hesitation_s"),
        (3, {"deck_size": 2}, "deck_size"),
        (3, {"starter": 3}, "starter"),
        (3, {"nasty": "yes"}, "nasty"),
        (3, {"word": " "}, "word"),
    ],
)
def test_bad_setups_say_what_to_change(seats: int, options: dict[str, Any], words: str) -> None:
    names = tuple(f"P{i}" for i in range(seats))
    with pytest.raises(SetupError, match=words):
        engine.new_game(Setup(names, options))


# --- turns and twins ----------------------------------------------------------------


@pytest.mark.parametrize(
    "seats, cards, turns",
    [
        (3, ["racketeer", "racketeer", "racketeer"], [1, 2, 0]),
        (3, ["twin_racketeer", "racketeer"], [2, 0]),
        (4, ["racketeer", "twin_phone", "racketeer"], [1, 3, 0]),
        (2, ["twin_racketeer", "twin_phone", "racketeer"], [0, 0, 1]),
    ],
)
def test_a_twin_makes_the_next_seat_skip(seats: int, cards: list[str], turns: list[int]) -> None:
    state = start(seats)
    for card, turn in zip(cards, turns, strict=True):
        state = act(state, {"do": "play", "card": card}, 1.0)
        assert state.turn == turn


def test_no_twins_refuses_twin_cards() -> None:
    with pytest.raises(IllegalAction, match="without twins"):
        act(start(3, no_twins=True), {"do": "play", "card": "twin_phone"})


@pytest.mark.parametrize("action, words, field", [
    ({"do": "play", "card": "joker"}, "The card is not one of the choices", "card"),
    ({"do": "play", "card": "gun", "seat": 5}, "This game has 3 players, not 6", ""),
    ({"do": "play", "card": "gun", "seat": 12}, "Who played it must be between 0 and 11", "seat"),
    ({"do": "dance"}, "not something anyone can do in The Nasty 7", "dance"),
    ({"do": "mistake", "seat": 0, "kind": "sneezed"}, "The mistake is not one of", "kind"),
    ({"do": "play", "card": {"x": [1]}}, "The card is not one of the choices", "card"),
    ({"do": "accuse", "by": [1], "against": 0, "kind": {}}, "What is alleged is not", "kind"),
    ({"do": "word", "text": ["a"]}, "The word must be text", "text"),
    ({"do": "missed_card", "card": "gun", "ago": -1e-300}, "between 0 and 60", "ago"),
    ({"do": "play", "card": "gun", "colour": "red"}, "does not take", "colour"),
])  # fmt: skip
def test_malformed_actions_are_refused_in_words(
    action: dict[str, Any], words: str, field: str
) -> None:
    """The parser refuses wrong values inside known keys; the key goes to the log only."""
    state = run(start(3), plays("racketeer"))
    with pytest.raises(IllegalAction, match=words) as refused:
        act(state, action, 1.5)
    assert "'" + field not in refused.value.reason and "{" not in refused.value.reason
    assert field in getattr(refused.value, "detail", "")


def test_a_skipped_seat_that_plays_takes_the_pile_with_its_card() -> None:
    events: list[Any] = []
    state = run(start(3), plays("racketeer", "twin_racketeer"), events)
    state = run(state, [(2.5, {"do": "play", "card": "gun", "seat": 2})], events)
    assert state.stacks == (35, 35, 36 - 1 + 3)
    assert (state.turn, state.pile, state.figures, state.round_no) == (2, (), 0, 2)
    taken = [e for e in events if isinstance(e, PileTaken)]
    assert taken == [PileTaken((2,), (3,), 2, "played_when_skipping", 2, 2.5)]


def test_any_out_of_turn_play_takes_the_pile() -> None:
    state = run(start(4), plays("racketeer"))
    state = act(state, {"do": "play", "card": "racketeer", "seat": 3}, 1.5)
    assert state.stacks == (26, 27, 27, 28) and state.turn == 3


def test_the_same_physical_card_cannot_be_played_twice_on_the_pile() -> None:
    state = act(start(3), {"do": "play", "card": "gun", "serial": 9}, 1.0)
    with pytest.raises(IllegalAction, match="#9 is already on the pile"):
        act(state, {"do": "play", "card": "gun", "serial": 9}, 1.5)
    state = act(state, {"do": "mistake", "seat": 1, "kind": "spoke_on_gun"}, 2.0)
    assert act(state, {"do": "play", "card": "gun", "serial": 9}, 3.0).pile_serials == (9,)


# --- hesitation ---------------------------------------------------------------------


# "hesitate more than 3 seconds": a card at exactly 3.000 s is in time, 3.001 s is late
@pytest.mark.parametrize("gap, penalised", [(2.9, False), (2.999, False), (3.0, False),
                                            (3.001, True), (3.1, True)])  # fmt: skip
def test_hesitation_after_three_seconds_gives_the_seat_to_play_the_pile(
    gap: float, penalised: bool
) -> None:
    events: list[Any] = []
    state = run(start(3), [(1.2, {"do": "play", "card": "racketeer"}),
                           (1.2 + gap, {"do": "play", "card": "racketeer"})], events)  # fmt: skip
    hesitations = [e for e in events if isinstance(e, PileTaken) and e.why == "hesitation"]
    assert bool(hesitations) is penalised
    if penalised:
        assert hesitations == [PileTaken((1,), (1,), 1, "hesitation", 1, 4.200001)]
        assert state.stacks == (35, 36, 36) and state.round_no == 2 and state.turn == 2
    else:
        assert state.stacks == (35, 35, 36) and state.figures == 2


def test_no_deadline_before_a_rounds_first_card() -> None:
    state = start(3)
    assert engine.next_deadline(state) is None
    state = act(state, {"do": "play", "card": "racketeer"}, 5.0)
    assert engine.next_deadline(state) == 8.000001
    state = act(state, {"do": "deadline"}, 8.000001)
    assert engine.next_deadline(state) is None and state.turn == 1


def test_the_deadline_follows_the_hesitation_option_and_the_skip() -> None:
    state = run(start(3, hesitation_s=2.0), plays("twin_racketeer", start_t=1.5))
    assert engine.next_deadline(state) == 3.500001
    state = act(state, {"do": "deadline"}, 3.500001)
    assert state.reveal is not None and state.reveal.seat == 2  # seat 1 skipped; seat 2 waited


def test_a_deadline_that_is_not_due_is_refused() -> None:
    state = run(start(3), plays("racketeer"))
    with pytest.raises(IllegalAction, match="No deadline"):
        act(state, {"do": "deadline"}, 3.9)


# --- accusations --------------------------------------------------------------------


def test_an_upheld_accusation_gives_the_accused_the_pile() -> None:
    state = run(start(3), plays("racketeer", "racketeer"))
    state = act(state, {"do": "accuse", "by": [2], "against": 1, "upheld": True}, 2.5)
    assert state.stacks == (35, 37, 36) and state.turn == 1 and state.pile == ()


@pytest.mark.parametrize(
    "seats, against, accusers, pile, shares, starter",
    [
        (3, 1, [0], 2, {0: 2}, 0),
        (5, 1, [4, 0, 2], 7, {2: 3, 4: 2, 0: 2}, 2),
        (5, 1, [0, 2, 4], 6, {2: 2, 4: 2, 0: 2}, 0),
        (5, 1, [0, 2, 4], 8, {2: 3, 4: 3, 0: 2}, 4),
        (4, 3, [0, 2], 1, {0: 1, 2: 0}, 0),
        (6, 0, [5, 1, 3], 4, {1: 2, 3: 1, 5: 1}, 1),
    ],
)
def test_a_false_accusation_deals_the_pile_to_the_accusers_from_the_accused_left(
    seats: int, against: int, accusers: list[int], pile: int, shares: dict[int, int],
    starter: int,
) -> None:  # fmt: skip
    state = start(seats, starter=(against - pile + 1) % seats)
    state = run(state, plays(*["racketeer"] * pile))
    assert state.last_player == against
    before = state.stacks
    state = act(state, {"do": "accuse", "by": accusers, "against": against, "upheld": False}, 9)
    gained = {s: state.stacks[s] - before[s] for s in range(seats) if state.stacks[s] != before[s]}
    assert gained == {s: n for s, n in shares.items() if n}
    assert state.turn == starter and state.round_starter == starter


def test_a_pending_accusation_stops_the_clock_collects_accusers_and_is_ruled() -> None:
    state = run(start(4), plays("racketeer", "racketeer", "racketeer"))
    state = act(state, {"do": "accuse", "by": [0], "against": 2}, 3.5)
    assert engine.next_deadline(state) is None and state.reveal is not None
    state = act(state, {"do": "accuse", "by": [3, 0], "against": 2}, 4.0)
    assert state.accusation is not None and state.accusation.by == (0, 3)
    with pytest.raises(IllegalAction, match="host must rule first"):
        act(state, {"do": "play", "card": "gun"}, 20.0)
    state = act(state, {"do": "rule", "upheld": False}, 30.0)
    assert state.stacks == (27 - 1 + 1, 26, 26, 27 + 2) and state.turn == 3  # Dee: last card


def test_a_withdrawn_accusation_restarts_the_clock_without_penalty() -> None:
    state = run(start(3), plays("racketeer"))
    state = act(state, {"do": "accuse", "by": [2], "against": 0}, 1.5)
    state = act(state, {"do": "withdraw"}, 10.0)
    assert state.accusation is None and state.reveal is None
    assert engine.next_deadline(state) == 13.000001 and state.stacks == (35, 36, 36)


@pytest.mark.parametrize("action, words", [
    ({"do": "accuse", "by": [1], "against": 2, "upheld": True}, "Only the player of the last"),
    ({"do": "accuse", "by": [0], "against": 0, "upheld": True}, "cannot accuse themselves"),
    ({"do": "accuse", "by": [], "against": 0}, "Choose who accuses"),
    ({"do": "accuse", "by": [1, 1], "against": 0}, "twice"),
    ({"do": "accuse", "by": [1], "against": 0, "upheld": "yes"}, "The ruling must be yes or no"),
    ({"do": "rule", "upheld": True}, "No accusation is waiting"),
    ({"do": "withdraw"}, "nothing to withdraw"),
])  # fmt: skip
def test_bad_accusations_are_refused(action: dict[str, Any], words: str) -> None:
    state = run(start(3), plays("racketeer"))
    with pytest.raises(IllegalAction, match=words):
        act(state, action, 1.5)


def test_nobody_can_be_accused_before_a_card_lies_on_the_pile() -> None:
    with pytest.raises(IllegalAction, match="No card is on the pile"):
        act(start(3), {"do": "accuse", "by": [1], "against": 0, "upheld": True})


@pytest.mark.parametrize("action, seat", [({"do": "rule", "upheld": False}, 0),
                                          ({"do": "withdraw"}, 1)])  # fmt: skip
def test_only_the_host_rules(action: dict[str, Any], seat: int) -> None:
    """Who sends is ``admit``'s to check (tests/core/test_senders_core.py): a phone's
    ruling or withdrawal never reaches the game."""
    with pytest.raises(IllegalAction, match="only the host can do that"):
        engine.admit(action, seat)
    state = run(start(3), plays("racketeer"))
    state = act(state, {"do": "accuse", "by": [1], "against": 0}, 1.5)
    assert act(state, action, 1.6).accusation is None  # the host's


def test_a_second_accusation_against_another_seat_waits_for_the_first() -> None:
    state = run(start(3), plays("racketeer"))
    state = act(state, {"do": "accuse", "by": [1], "against": 0}, 1.5)
    with pytest.raises(IllegalAction, match="waits for the host"):
        act(state, {"do": "accuse", "by": [2], "against": 1}, 1.6)
    with pytest.raises(IllegalAction, match="already accused"):
        act(state, {"do": "accuse", "by": [1], "against": 0}, 1.7)


def test_upheld_given_while_pending_merges_and_settles() -> None:
    state = run(start(4), plays("racketeer", "racketeer"))
    state = act(state, {"do": "accuse", "by": [3], "against": 1}, 2.5)
    state = act(state, {"do": "accuse", "by": [0], "against": 1, "upheld": False}, 3.0)
    assert state.stacks == (27, 26, 27, 28)  # Cy is nearest Ben's left but did not accuse


# --- mistakes -----------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["wrong_number", "wrong_word", "spoke_on_gun"])
def test_a_mistake_gives_the_pile_to_that_seat_who_starts_again(kind: str) -> None:
    state = run(start(3), plays("racketeer", "phone", "gun"))
    state = act(state, {"do": "mistake", "seat": 1, "kind": kind}, 3.5)
    assert state.stacks == (35, 38, 35) and state.turn == 1 and state.figures == 0
    assert state.reveal is not None and (state.reveal.why, state.reveal.figures) == (kind, 3)


def test_a_mistake_needs_a_card_on_the_pile() -> None:
    with pytest.raises(IllegalAction, match="only after a card"):
        act(start(3), {"do": "mistake", "seat": 0, "kind": "wrong_number"})


# --- the nasty rules ----------------------------------------------------------------


def test_the_first_phone_of_a_round_chooses_the_word_for_the_round() -> None:
    state = run(start(3, nasty=True), plays("racketeer", "phone", "phone"))
    with pytest.raises(IllegalAction, match="Only Ben"):
        act(state, {"do": "word", "text": "ouch", "seat": 2}, 3.2)
    state = act(state, {"do": "word", "text": " ouch ", "seat": 1}, 3.2)
    assert state.word == "ouch"
    with pytest.raises(IllegalAction, match="already 'ouch'"):
        act(state, {"do": "word", "text": "pfft"}, 3.3)
    state = act(state, {"do": "mistake", "seat": 0, "kind": "wrong_word"}, 3.4)
    assert state.word == "hmmmrrr" and not state.word_set


@pytest.mark.parametrize("options, cards, words", [
    ({}, ["phone"], "nasty rule is off"),
    ({"nasty": True}, ["racketeer"], "No phone has been played"),
    ({"nasty": True, "word": "brrr"}, [], "No phone"),
])  # fmt: skip
def test_the_word_is_refused_without_the_nasty_rule_or_a_phone(
    options: dict[str, Any], cards: list[str], words: str
) -> None:
    state = run(start(3, **options), plays(*cards))
    with pytest.raises(IllegalAction, match=words):
        act(state, {"do": "word", "text": "ouch"}, 1.5)


def test_even_nastier_the_starter_wrong_on_the_first_card_gets_a_card_from_each() -> None:
    events: list[Any] = []
    state = start(4, even_nastier=True, starter=1)
    state = run(state, plays("twin_racketeer"), events)
    state = run(state, [(1.5, {"do": "accuse", "by": [3], "against": 1, "upheld": True})], events)
    assert PenaltyCardsGiven(1, (0, 2, 3)) in events
    assert state.stacks == (26, 27 - 1 + 1 + 3, 26, 26)


@pytest.mark.parametrize("options, cards, offender", [
    ({"even_nastier": False}, ["racketeer"], 0),  # the option is off
    ({"even_nastier": True}, ["racketeer", "racketeer"], 1),  # not the starter
    ({"even_nastier": True}, ["racketeer", "racketeer", "racketeer", "racketeer"], 0),  # 2nd card
])  # fmt: skip
def test_even_nastier_only_for_the_starters_first_card(
    options: dict[str, Any], cards: list[str], offender: int
) -> None:
    state = run(start(3, **options), plays(*cards))
    pile = len(state.pile)
    events = engine.decide(state, {"do": "mistake", "seat": offender, "kind": "wrong_number"}, 9)
    assert not any(isinstance(e, PenaltyCardsGiven) for e in events)
    assert PileTaken((offender,), (pile,), offender, "wrong_number", offender, 9) in events


def test_even_nastier_does_not_apply_to_hesitation() -> None:
    events: list[Any] = []
    state = run(start(2, even_nastier=True), plays("twin_racketeer"), events)
    run(state, [(10.0, {"do": "play", "card": "gun"})], events)
    assert not any(isinstance(e, PenaltyCardsGiven) for e in events)


def test_even_nastier_a_seat_robbed_of_its_last_card_wins() -> None:
    state = start(3, even_nastier=True, deck_size=6)  # 2 cards each
    state = run(state, plays("racketeer", "racketeer"))
    state = act(state, {"do": "mistake", "seat": 1, "kind": "wrong_number"}, 2.5)
    state = act(state, {"do": "play", "card": "gun"}, 3.0)  # Ben starts round 2
    assert state.stacks == (1, 2, 2)
    state = act(state, {"do": "mistake", "seat": 1, "kind": "spoke_on_gun"}, 3.5)
    assert state.over and state.winners == (0,) and state.stacks == (0, 2 + 1 + 2, 1)


# --- the end ------------------------------------------------------------------------


def _last_card() -> State:
    """Ben starts a 2-cards-each game and plays his last card (4th on the pile) at 4.0 s."""
    state = start(3, deck_size=6, starter=1)
    state = run(state, plays("racketeer", "racketeer", "phone", "gun"))
    assert state.stacks == (1, 0, 1)
    return state


def test_the_last_card_wins_at_the_next_play() -> None:
    state = _last_card()
    assert state.finisher == 1 and engine.outcome(state) is None
    events: list[Any] = []
    state = run(state, [(4.5, {"do": "play", "card": "racketeer"})], events)
    assert events == [GameEnded((1,))]
    outcome = engine.outcome(state)
    assert outcome is not None and outcome.winners == (1,)
    assert outcome.termination is Termination.WON
    assert outcome.to_json()["winner"] == 1


def test_the_last_card_wins_when_nobody_contests_it_in_time() -> None:
    state = _last_card()
    assert engine.next_deadline(state) == 7.000001
    state = act(state, {"do": "deadline"}, 7.000001)
    assert state.over and state.winners == (1,) and state.stacks[2] == 1


@pytest.mark.parametrize("action", [
    {"do": "accuse", "by": [2], "against": 1, "upheld": True},
    {"do": "mistake", "seat": 1, "kind": "wrong_number"},
])  # fmt: skip
def test_an_upheld_accusation_or_mistake_against_the_finisher_keeps_the_game_going(
    action: dict[str, Any],
) -> None:
    state = act(_last_card(), action, 5.5)
    assert not state.over and state.finisher is None and state.stacks[1] == 4
    assert state.turn == 1


@pytest.mark.parametrize("action", [
    {"do": "accuse", "by": [2], "against": 1, "upheld": False},
    {"do": "mistake", "seat": 2, "kind": "spoke_on_gun"},
])  # fmt: skip
def test_a_false_accusation_or_anothers_mistake_ends_the_game(action: dict[str, Any]) -> None:
    state = act(_last_card(), action, 5.5)
    assert state.over and state.winners == (1,) and state.stacks[2] == 1 + 4


def test_nothing_is_accepted_after_the_game_is_over() -> None:
    state = act(_last_card(), {"do": "deadline"}, 7.000001)
    assert engine.next_deadline(state) is None
    with pytest.raises(IllegalAction, match="game is over: Ben won"):
        act(state, {"do": "play", "card": "gun"}, 9.0)


def test_a_ruling_event_is_followed_by_the_pile_move() -> None:
    state = run(start(3), plays("racketeer"))
    events = engine.decide(state, {"do": "accuse", "by": [1, 2], "against": 0, "upheld": False}, 2)
    assert [type(e) for e in events] == [AccusationOpened, AccusationRuled, PileTaken]
    assert events[2] == PileTaken((1, 2), (1, 0), 1, "not_upheld", 0, 2)


def test_card_played_records_time_turn_and_serial() -> None:
    events = engine.decide(start(3), {"do": "play", "card": "gun", "serial": 4}, 1.25)
    assert events == [CardPlayed(0, "gun", 1.25, True, 4)]


# --- events are stored as JSON --------------------------------------------------------

SAMPLE_EVENTS = [
    CardPlayed(2, "twin_phone", 12.25, False, 17),
    CardPlayed(0, "gun", 1.0),
    AccusationOpened((0, 3), 1),
    AccusersJoined((2,)),
    AccusationRuled(False, 9.0),
    AccusationWithdrawn(9.5),
    PileTaken((2, 4, 0), (3, 2, 2), 2, "not_upheld", 1, 9.0),
    CardReassigned(2, False),
    CardReplaced("twin_phone"),
    MissedCardAdded(1, "gun", 4.5, 6.25),
    MissedCardAdded(1, "gun", 4.5, 6.25, 31),
    CardSeenBeside(2, "twin_racketeer", 3.5, 40),
    SeenCardSettled(True, 7.0),
    CardLandedUnread(1, 2.5),
    LandingNamed("gun", 5.0, 0),
    LandingNamed(None, 5.5),
    PileSightChanged(True, 6.0),
    PenaltyCardsGiven(1, (0, 2, 3)),
    WordSet(1, "peek-a-boo"),
    GameEnded((1,)),
]


def test_the_samples_cover_every_event_type() -> None:
    assert {type(e).__name__ for e in SAMPLE_EVENTS} == set(engine.event_types)


@pytest.mark.parametrize("event", SAMPLE_EVENTS, ids=lambda e: type(e).__name__)
def test_events_round_trip_through_json(event: Any) -> None:
    name, payload = event_to_json(event)
    stored = json.loads(json.dumps(payload))
    assert event_from_json(engine.event_types, name, stored) == event
