"""The host's corrections and rulings: reassign, replace_card, missed_card, hesitation,
accusations that name what they allege, disputes for the clip, Undo's note, variants."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.base import IllegalAction, SetupError
from companion.games.moves import Move
from companion.games.nasty7 import State, engine
from companion.games.nasty7.events import CardReassigned, PileTaken
from tests.games.nasty7.helpers import act, plays, run, start


def test_reassigning_to_the_skipped_seat_gives_it_the_pile() -> None:
    state = run(start(3), plays("racketeer", "twin_racketeer", "gun"))  # gun booked to Ann
    assert state.last_player == 0
    events = engine.decide(state, {"do": "reassign", "by": 2}, 3.5)
    assert events[:2] == [
        CardReassigned(2, False),
        PileTaken((2,), (3,), 2, "played_when_skipping", 2, 3.5),
    ]
    after = engine.fold(state, events)
    assert after.stacks == (35, 35, 38) and after.turn == 2 and after.round_no == 2
    assert "Cy played instead of skipping" in engine.public_view(after)["status"]


def test_a_reassigned_card_keeps_its_landing_time() -> None:
    state = run(start(3), plays("racketeer", "racketeer"))  # Ben's card at 2.0
    after = act(state, {"do": "reassign", "by": 0}, 2.5)  # it was Ann's: out of turn
    assert after.stacks == (36, 36, 36) and after.turn == 0
    with pytest.raises(IllegalAction, match="Only the last card can be corrected"):
        act(after, {"do": "reassign", "by": 1}, 3.0)


@pytest.mark.parametrize("action, words", [
    ({"do": "reassign", "by": 1}, "already booked to Ben"),
    ({"do": "replace_card", "card": "racketeer"}, "already a Racketeer"),
    ({"do": "replace_card", "card": "joker"}, "The card is not one of the choices"),
    ({"do": "missed_card", "card": "gun", "at": 1.5}, "after the last card"),
    ({"do": "missed_card", "card": "gun", "at": 9.0}, "not after now"),
    ({"do": "hesitation", "against": 0}, r"Only the player to play \(Cy\)"),
])  # fmt: skip
def test_corrections_are_refused_with_a_reason(action: dict[str, Any], words: str) -> None:
    state = run(start(3), plays("racketeer", "racketeer"))
    with pytest.raises(IllegalAction, match=words):
        act(state, action, 2.5)


@pytest.mark.parametrize("action", [{"do": "reassign", "by": 2},
                                    {"do": "replace_card", "card": "gun"},
                                    {"do": "missed_card", "card": "gun"}])  # fmt: skip
def test_a_phone_cannot_correct_a_card(action: dict[str, Any]) -> None:
    """Corrections are the host's: ``admit`` refuses them from a phone (who sends is
    checked there only; tests/core/test_senders_core.py)."""
    with pytest.raises(IllegalAction, match="only the host can do that"):
        engine.admit(action, 2)


def test_replacing_a_misread_card_recounts_and_moves_the_turn() -> None:
    state = run(start(3), plays("racketeer", "racketeer"))
    after = act(state, {"do": "replace_card", "card": "twin_phone"}, 2.5)
    assert after.pile == ("racketeer", "twin_phone") and after.figures == 3
    assert after.turn == 0 and after.skipped == 2 and after.pile_serials == (None, None)
    assert engine.next_deadline(after) == 5.000001  # the clock still runs from the landing
    assert engine.public_view(after)["last_move"] == (
        "the host corrected the last card: it was Twin mobile phones")


def test_a_missed_card_starts_the_next_clock_when_it_is_entered() -> None:
    """With ``hand_entry_timing`` "clock"; by default ("host_rules") no clock runs."""
    state = run(start(3, hand_entry_timing="clock"), plays("racketeer"))
    after = act(state, {"do": "missed_card", "card": "racketeer", "at": 2.0}, 3.5)
    assert after.last_player == 1 and after.turn == 2 and after.figures == 2
    assert engine.next_deadline(after) == 6.500001
    fixed = act(after, {"do": "replace_card", "card": "gun"}, 3.8)  # it can be corrected too
    assert fixed.pile[-1] == "gun" and engine.next_deadline(fixed) == 6.500001
    ruled = act(run(start(3), plays("racketeer")),
                {"do": "missed_card", "card": "racketeer", "at": 2.0}, 3.5)
    assert ruled.landed[-1] == 2.0 and engine.next_deadline(ruled) is None
    fixed = act(ruled, {"do": "replace_card", "card": "gun"}, 3.8)
    assert fixed.pile[-1] == "gun" and engine.next_deadline(fixed) is None


def test_a_hesitation_recorded_by_hand_is_a_dispute() -> None:
    state = run(start(3), plays("racketeer", "racketeer"))
    after = act(state, {"do": "hesitation"}, 5.5)
    assert after.stacks == (35, 35, 38) and after.turn == 2
    dispute = engine.public_view(after)["dispute"]
    assert dispute["kind"] == "hesitation" and dispute["name"] == "Cy"
    assert (dispute["start"], dispute["end"], dispute["seconds"]) == (2.0, 5.5, 3.5)


def test_the_clock_penalty_is_a_dispute_from_the_last_landing() -> None:
    state = run(start(3), plays("racketeer", "racketeer"))
    state = run(state, [(9.0, {"do": "play", "card": "gun"})])  # Cy was penalised at 5.0
    dispute = engine.public_view(state)["dispute"]
    assert dispute["n"] == 1 and dispute["seat"] == 2
    assert (dispute["start"], dispute["end"]) == (2.0, 5.000001)
    assert dispute["title"] == "Cy: no card within 3 s"


def test_an_accusation_names_what_it_alleges_and_shows_the_gap() -> None:
    state = run(start(3), [(1.0, {"do": "play", "card": "racketeer"}),
                           (3.9, {"do": "play", "card": "racketeer"})])  # fmt: skip
    state = act(state, {"do": "accuse", "by": [2], "against": 1, "kind": "hesitation"}, 4.5)
    view = engine.public_view(state)
    assert view["accusation"]["gap"] == 2.9
    assert view["status"].startswith("Cy accuses Ben of hesitating: the count was 2,")
    with pytest.raises(IllegalAction, match="already accused of hesitating: join that"):
        act(state, {"do": "accuse", "by": [0], "against": 1, "kind": "wrong_word"}, 4.6)
    joined = act(state, {"do": "accuse", "by": [0], "against": 1, "kind": "hesitation"}, 4.6)
    assert joined.accusation is not None and joined.accusation.by == (2, 0)
    ruled = act(joined, {"do": "rule", "upheld": False}, 6.0)
    dispute = engine.public_view(ruled)["dispute"]
    assert (dispute["start"], dispute["end"], dispute["seconds"]) == (1.0, 6.0, 2.9)
    assert dispute["title"] == "Ben accused of hesitating: not upheld (2.9 s after the card before)"


def _accuse(state: State, seat: int) -> list[Move]:
    return [m for m in engine.moves(state, seat) if m.do == "accuse"]


def test_a_seat_is_told_why_it_cannot_accuse() -> None:
    state = start(3)
    [off] = _accuse(state, 1)
    assert not off.allowed and off.why.startswith("No card is on the pile")
    state = act(state, {"do": "play", "card": "racketeer"}, 1.0)
    state = act(state, {"do": "accuse", "by": [1], "against": 0}, 1.5)
    assert _accuse(state, 0)[0].why == "Ann played the last card and cannot accuse themselves."
    assert _accuse(state, 1)[0].why == "Ben already accused Ann: the host must now rule."
    [join] = _accuse(state, 2)  # may join (the accusation names no mistake)
    assert join.allowed and join.label == "Join the accusation against Ann"
    assert join.fixed == {"seat": 2, "by": [2], "against": 0}


def test_undo_names_the_last_move() -> None:
    state = run(start(3), plays("racketeer", "twin_racketeer"))
    assert engine.public_view(state)["last_move"] == "Ben played Twin racketeers"
    state = act(state, {"do": "mistake", "seat": 1, "kind": "wrong_number"}, 2.5)
    assert engine.public_view(state)["last_move"] == (
        "Ben said the wrong number: Ben took the pile (2 cards)"
    )


def test_describe_uses_names_never_ids() -> None:
    state = run(start(3), plays("racketeer", "twin_racketeer", "gun"))
    action = {"do": "reassign", "by": 2}
    events = engine.decide(state, action, 3.5)
    assert engine.describe is not None
    text = engine.describe(action, events, ["Ann", "Ben", "Cy"])
    assert text == (
        "The host gave the last card to Cy; Cy played instead of skipping: Cy took the pile "
        "(3 cards)"
    )
    play = engine.describe({"do": "play"}, engine.decide(start(3), {"do": "play",
                           "card": "twin_phone"}, 1.0), ["Ann", "Ben", "Cy"])  # fmt: skip
    assert play == "Ann played Twin mobile phones"


@pytest.mark.parametrize("options, each, box", [
    ({}, 36, 2),
    ({"no_twins": True}, 28, 1),  # 85 cards without the 25 twins
    ({"no_twins": True, "deck_size": 60}, 20, 0),
])  # fmt: skip
def test_the_deck_follows_the_variant(options: dict[str, Any], each: int, box: int) -> None:
    state = start(3, **options)
    assert state.stacks == (each,) * 3 and state.out_of_game == box


@pytest.mark.parametrize("value, nasty_from", [
    ("off", 0), (False, 0), ("first_round", 1), (True, 1), ("second_round", 2),
])  # fmt: skip
def test_the_nasty_option_is_a_labelled_choice(value: Any, nasty_from: int) -> None:
    assert start(3, nasty=value).options.nasty_from == nasty_from
    offered = [v for v, _ in engine.option_specs["nasty"].choices]
    assert value in offered or isinstance(value, bool)


def test_a_bad_nasty_value_is_refused() -> None:
    with pytest.raises(SetupError, match="nasty must be one of off, first_round, second_round"):
        start(3, nasty="always")


def test_every_option_has_a_label_and_help() -> None:
    # late_at_limit and seen_one_at_a_time are for older records only (upgrade_options),
    # not a setup choice
    assert set(engine.option_specs) == set(engine.default_options) - {
        "late_at_limit", "seen_one_at_a_time"}
    assert all(spec.label and spec.help for spec in engine.option_specs.values())


@pytest.mark.parametrize("action, expected", [
    ({"do": "reassign", "by": 0}, [("penalty", 0), ("turn", 0)]),
    ({"do": "replace_card", "card": "gun"}, [("card", 1), ("turn", 2)]),
    ({"do": "hesitation"}, [("hesitation", 2), ("turn", 2)]),
    ({"do": "mistake", "seat": 0, "kind": "wrong_word"}, [("penalty", 0), ("turn", 0)]),
])  # fmt: skip
def test_every_host_ruling_has_a_signal(action: dict[str, Any], expected: list[Any]) -> None:
    state = run(start(3), plays("racketeer", "racketeer"))  # Ben played last, Cy to play
    after, events = engine.run(state, action, 3.5)
    assert engine.signals(after, events) == expected


def test_a_missed_card_flashes_its_player() -> None:
    state = run(start(3), plays("racketeer"))
    after, events = engine.run(state, {"do": "missed_card", "card": "gun"}, 1.5)
    assert engine.signals(after, events) == [("card", 1), ("turn", 2)]


@pytest.mark.parametrize("first", ["racketeer", "twin_phone", "gun"])
@pytest.mark.parametrize("right", ["twin_racketeer", "phone", "racketeer"])
def test_a_replaced_card_is_as_if_the_right_card_was_played(first: str, right: str) -> None:
    base = run(start(4), plays("racketeer", "twin_phone"))
    direct = act(base, {"do": "play", "card": right}, 3.0)
    if first == right:
        return
    fixed = act(act(base, {"do": "play", "card": first}, 3.0),
                {"do": "replace_card", "card": right}, 3.4)
    assert engine.state_json(fixed) == engine.state_json(direct)


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_reassigned_card_is_as_if_that_seat_had_played_it(seat: int) -> None:
    base = run(start(4), plays("racketeer", "twin_phone"))  # Cy skips, Dee to play
    booked = act(base, {"do": "play", "card": "gun"}, 3.0)
    if seat == 3:
        with pytest.raises(IllegalAction, match="already booked to Dee"):
            act(booked, {"do": "reassign", "by": seat}, 3.4)
        return
    fixed = act(booked, {"do": "reassign", "by": seat}, 3.4)
    direct = act(base, {"do": "play", "card": "gun", "seat": seat}, 3.0)
    assert engine.state_json(fixed) == engine.state_json(direct)
    reason = "played_when_skipping" if seat == 2 else "out_of_turn"
    assert fixed.reveal is not None and fixed.reveal.why == reason


def test_a_ruling_reads_as_one_sentence() -> None:
    state = run(start(3), plays("racketeer", "racketeer"))
    state = act(state, {"do": "accuse", "by": [2], "against": 1}, 2.5)
    action = {"do": "rule", "upheld": False}
    assert engine.describe is not None
    text = engine.describe(action, engine.decide(state, action, 3.0), ["Ann", "Ben", "Cy"])
    assert text == "The accusation against Ben was not upheld: Cy took the pile (2 cards)"


def test_a_missed_card_may_have_landed_seconds_ago() -> None:
    state = run(start(3), plays("racketeer"))  # Ann's card at 1.0
    after = act(state, {"do": "missed_card", "card": "gun", "ago": 2}, 4.5)
    assert after.landed == (1.0, 2.5) and after.timer_from == 4.5
    early = act(state, {"do": "missed_card", "card": "gun", "ago": 5}, 4.5)
    assert early.landed == (1.0, 1.0)  # not before the card it followed
    with pytest.raises(IllegalAction, match="The time since it landed must be between 0 and 60"):
        act(state, {"do": "missed_card", "card": "gun", "ago": -1}, 4.5)
