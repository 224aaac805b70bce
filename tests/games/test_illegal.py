"""Illegal engine: legality of every card against every hassle, end conditions, accounting."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from companion.games import illegal as g
from companion.games.base import IllegalAction, Setup, event_from_json, event_to_json
from companion.games.cards import catalog
from companion.games.illegal_model import OVER, SeatState, State

HASSLES = (None, "raid", "protection_money", "tax_inspection", "vacation_in_sweden")
ILLEGAL = ("gambling", "pimps", "merchandise", "weapons", "the_coup")
LEGAL = ("tropical_fish", "brokering", "politics")
SOLVES = {
    "informant": "raid",
    "mister_zero": "protection_money",
    "white_coat": "tax_inspection",
    "alibi": "vacation_in_sweden",
}


def new(n: int = 3, **options: Any) -> State:
    return g.new_game(Setup(tuple("ABCDEF"[:n]), options))


def run(state: State, *actions: dict[str, Any]) -> State:
    for action in actions:
        for event in g.decide(state, action, 0.0):
            state = g.apply(state, event)
    return state


def with_seat(state: State, seat: int, **changes: Any) -> State:
    seats = list(state.seats)
    seats[seat] = dataclasses.replace(seats[seat], **changes)
    return dataclasses.replace(state, seats=tuple(seats))


def table(hassle: str | None, market: bool = True) -> State:
    """Seat 0 to play; its Market Open (if any) carries ``hassle``; seat 1 open and rich."""
    state = new()
    state = with_seat(
        state,
        0,
        market_open=market,
        hassle=hassle if market else None,
        businesses=("merchandise", "brokering") if market else (),
    )
    return with_seat(state, 1, market_open=True, businesses=("weapons", "tropical_fish"))


def expected_refusal(card: str, hassle: str | None, market: bool) -> str | None:
    """The rules text, card by card: a substring of the refusal, or None when allowed."""
    if card == "market_open":
        return "one Market Open per hand" if market else None
    if card in ILLEGAL + LEGAL + ("day_of_accounting", "hostile_takeover", "relatives"):
        if not market:
            return "Play a Market Open first"
    if card in ILLEGAL and hassle:
        return "No illegal business while a"
    if card in LEGAL and hassle == "vacation_in_sweden":
        return "No business at all while a Vacation in Sweden"
    if card == "day_of_accounting" and hassle:
        return "No Day of Accounting while a"
    if card == "hostile_takeover" and hassle:
        return "No Hostile Takeover while a"
    if card in SOLVES:
        return None if SOLVES[card] == hassle else "for the"
    if card == "bribe":
        return None if hassle else "No hassle lies on any Market Open"
    if card == "magnum":
        return None if hassle else "the Magnum has no target"
    return None  # hassles (seat 1 is open), paranoia, relatives


def complete(card: str) -> dict[str, Any]:
    """A full play of ``card`` by seat 0, with every key the card may need."""
    action: dict[str, Any] = {"do": "play", "seat": 0, "card": card}
    kind = catalog("illegal").by_id(card).kind
    if kind == "hassle":
        action["target"] = 1
    elif kind in ("solution", "magnum"):
        action["target"] = 0
        if card == "bribe":
            action["discard"] = "gambling"
    elif kind == "takeover":
        action.update(target=1, take="weapons")
    elif card == "family_party":
        action["lose"] = "brokering"
    return action


CASES = [
    (card, hassle, market)
    for card in catalog("illegal").ids()
    for hassle in HASSLES
    for market in (True, False)
    if market or hassle is None
]


@pytest.mark.parametrize(("card", "hassle", "market"), CASES)
def test_every_card_against_every_hassle(card: str, hassle: str | None, market: bool) -> None:
    state = table(hassle, market)
    want = expected_refusal(card, hassle, market)
    if want is None:
        events = g.decide(state, complete(card), 0.0)
        assert type(events[0]).__name__ == "CardPlayed"
        assert events[0].card == card
    else:
        with pytest.raises(IllegalAction, match=want):
            g.decide(state, complete(card), 0.0)
    mine = {p["card"]["id"]: p for p in g.seat_view(state, 0)["me"]["playable"]}
    assert mine[card]["ok"] is (want is None)


def test_the_issue_example_refusal() -> None:
    with pytest.raises(IllegalAction) as err:
        g.decide(table("raid"), complete("weapons"), 0.0)
    assert err.value.reason == "No illegal business while a Raid lies on your Market Open"


def test_out_of_turn_only_magnum() -> None:
    state = table("raid")
    with pytest.raises(IllegalAction, match="It is A's turn"):
        g.decide(state, {"do": "play", "seat": 1, "card": "tropical_fish"}, 0.0)
    after = run(state, {"do": "play", "seat": 2, "card": "magnum", "target": 0})
    assert after.seats[0].hassle is None
    assert after.seats[2].hand == 6  # no draw for a Magnum out of turn
    assert after.turn == 0 and after.draw_pile == state.draw_pile


def test_hassle_needs_an_open_uncovered_opponent() -> None:
    state = table(None)
    with pytest.raises(IllegalAction, match="not yourself"):
        g.decide(state, {"do": "play", "seat": 0, "card": "raid", "target": 0}, 0.0)
    with pytest.raises(IllegalAction, match="C has no Market Open"):
        g.decide(state, {"do": "play", "seat": 0, "card": "raid", "target": 2}, 0.0)
    covered = with_seat(state, 1, hassle="tax_inspection")
    with pytest.raises(IllegalAction, match="one hassle at a time"):
        g.decide(
            with_seat(covered, 2, market_open=True),
            {"do": "play", "seat": 0, "card": "raid", "target": 1},
            0.0,
        )


# --- turns ---------------------------------------------------------------------------


def test_legal_may_follow_illegal_then_draw_one() -> None:
    state = table(None)
    after = run(state, {"do": "play", "seat": 0, "card": "weapons"})
    assert after.phase == "more" and after.turn == 0 and after.draw_pile == state.draw_pile
    with pytest.raises(IllegalAction, match="only a legal business"):
        g.decide(after, {"do": "play", "seat": 0, "card": "gambling"}, 0.0)
    after = run(after, {"do": "play", "seat": 0, "card": "politics"})
    assert after.turn == 1 and after.seats[0].hand == 6  # two played, one drawn
    assert after.draw_pile == state.draw_pile - 1
    assert after.seats[0].businesses == ("merchandise", "brokering", "weapons", "politics")


def test_next_seat_acting_ends_an_open_turn() -> None:
    state = run(table(None), {"do": "play", "seat": 0, "card": "weapons"})
    after = run(state, {"do": "play", "seat": 1, "card": "brokering"})
    assert after.seats[0].hand == 7 and after.turn == 2


def test_raid_loss_is_asked_and_the_raid_goes_when_empty() -> None:
    state = with_seat(table("raid"), 0, businesses=("merchandise", "gambling", "brokering"))
    after = run(state, {"do": "play", "seat": 0, "card": "tropical_fish"})
    assert after.phase == "choose" and after.awaiting is not None
    assert after.awaiting.choices == ("merchandise", "gambling")
    assert g.public_view(after)["awaiting"][0]["what"] == "lose"
    with pytest.raises(IllegalAction, match="takes one of"):
        g.decide(after, {"do": "lose", "seat": 0, "card": "brokering"}, 0.0)
    after = run(after, {"do": "lose", "seat": 0, "card": "merchandise"})
    assert after.seats[0].businesses == ("gambling", "brokering", "tropical_fish")
    assert after.turn == 1 and after.seats[0].hassle == "raid"
    # next time the last illegal business goes, and the Raid with it
    after = run(
        after,
        {"do": "discard", "seat": 1, "cards": ["alibi"]},
        {"do": "end_turn", "seat": 1},
        {"do": "discard", "seat": 2, "cards": ["alibi"]},
        {"do": "end_turn", "seat": 2},
        {"do": "play", "seat": 0, "card": "tropical_fish"},
    )
    assert after.seats[0].businesses == ("brokering", "tropical_fish", "tropical_fish")
    assert after.seats[0].hassle is None and "raid" in after.discards


def test_unchosen_loss_takes_the_cheapest_and_says_so() -> None:
    state = with_seat(table("protection_money"), 0, businesses=("weapons", "brokering"))
    after = run(
        state,
        {"do": "play", "seat": 0, "card": "tropical_fish"},
        {"do": "play", "seat": 1, "card": "tropical_fish"},
    )
    # Tropical Fish (1,000) is the cheapest of Weapons, Brokering and Tropical Fish
    assert after.seats[0].businesses == ("weapons", "brokering")
    assert any("cheapest" in note for note in after.notes)
    assert after.turn == 2


def test_paranoia_skips_loses_and_passes() -> None:
    state = with_seat(table(None), 0, businesses=("weapons", "merchandise", "the_coup"))
    after = run(state, {"do": "play", "seat": 0, "card": "loan_shark"})
    assert after.seats[0].businesses == ("weapons", "merchandise")
    assert after.seats[0].skips == 2 and after.seats[0].hand == 7
    assert [s.hand for s in after.seats] == [7, 7, 7]
    after = run(
        after,
        {"do": "discard", "seat": 1, "cards": ["alibi"]},
        {"do": "end_turn", "seat": 1},
        {"do": "discard", "seat": 2, "cards": ["alibi"]},
        {"do": "end_turn", "seat": 2},
    )
    assert after.turn == 1 and after.seats[0].skips == 1


def test_family_party_needs_a_choice_and_debris_takes_all() -> None:
    state = with_seat(table(None), 0, businesses=("weapons", "merchandise"))
    pending = run(state, {"do": "play", "seat": 0, "card": "family_party"})
    assert pending.seats[0].pending == "family_party" and pending.turn == 0
    done = run(pending, {"do": "play", "seat": 0, "card": "family_party", "lose": "weapons"})
    assert done.seats[0].businesses == ("merchandise",) and done.seats[0].skips == 1
    ash = run(state, {"do": "play", "seat": 0, "card": "debris_and_ash"})
    assert ash.seats[0].businesses == () and ash.seats[0].skips == 2


def test_takeover_and_magnum_cancel() -> None:
    state = table(None)
    after = run(
        state, {"do": "play", "seat": 0, "card": "hostile_takeover", "target": 1, "take": "weapons"}
    )
    assert after.seats[0].businesses[-1] == "weapons" and after.turn == 1
    back = run(after, {"do": "play", "seat": 2, "card": "magnum", "cancel": True})
    assert back.seats[1].businesses == ("tropical_fish", "weapons")
    assert "weapons" not in back.seats[0].businesses
    assert back.seats[2].hand == 6 and back.turn == 1
    stood = run(after, {"do": "play", "seat": 1, "card": "tropical_fish"})
    with pytest.raises(IllegalAction, match="no takeover to stop"):
        g.decide(stood, {"do": "play", "seat": 2, "card": "magnum", "cancel": True}, 0.0)


def test_relatives_lifts_own_hassle_and_takes() -> None:
    state = table("vacation_in_sweden")
    after = run(
        state, {"do": "play", "seat": 0, "card": "relatives", "target": 1, "take": "tropical_fish"}
    )
    assert after.seats[0].hassle is None
    assert after.seats[0].businesses[-1] == "tropical_fish"


def test_bribe_costs_a_business_card_from_hand() -> None:
    state = table("tax_inspection")
    with pytest.raises(IllegalAction, match="not one"):
        g.decide(
            state, {"do": "play", "seat": 0, "card": "bribe", "target": 0, "discard": "alibi"}, 0.0
        )
    after = run(
        state, {"do": "play", "seat": 0, "card": "bribe", "target": 0, "discard": "weapons"}
    )
    assert after.seats[0].hassle is None and after.seats[0].hand == 6  # 2 out, 1 drawn


def test_discard_rules() -> None:
    state = table(None)
    with pytest.raises(IllegalAction, match="only three identical"):
        g.decide(state, {"do": "discard", "seat": 0, "cards": ["loan_shark"]}, 0.0)
    with pytest.raises(IllegalAction, match="must be identical"):
        g.decide(state, {"do": "discard", "seat": 0, "cards": ["alibi", "alibi", "raid"]}, 0.0)
    after = run(
        state,
        {"do": "discard", "seat": 0, "cards": ["alibi"]},
        {"do": "discard", "seat": 0, "cards": ["family_party"] * 3},
    )
    assert after.turn == 1 and after.seats[0].hand == 4  # 4 discarded, 1 drawn


# --- the end of a hand ---------------------------------------------------------------


def test_day_of_accounting_ends_at_once_without_draw() -> None:
    state = table(None)
    after = run(state, {"do": "play", "seat": 0, "card": "day_of_accounting"})
    assert after.phase == OVER and after.ended_by == "day_of_accounting"
    assert after.seats[0].hand == 6 and after.draw_pile == state.draw_pile
    assert g.outcome(after) is None  # until every seat revealed


def test_empty_draw_pile_ends_the_hand() -> None:
    state = dataclasses.replace(table(None), draw_pile=0)
    after = run(state, {"do": "play", "seat": 0, "card": "tropical_fish"})
    assert after.phase == OVER and after.ended_by == "draw_pile_empty"


def test_empty_hand_after_discard_ends_the_hand() -> None:
    state = with_seat(table(None), 0, hand=3)
    after = run(state, {"do": "discard", "seat": 0, "cards": ["alibi"] * 3})
    assert after.phase == OVER and after.ended_by == "hand_empty"


def test_nothing_but_reveal_after_the_end() -> None:
    state = run(table(None), {"do": "play", "seat": 0, "card": "day_of_accounting"})
    with pytest.raises(IllegalAction, match="The hand is over"):
        g.decide(state, {"do": "play", "seat": 1, "card": "magnum", "target": 0}, 0.0)
    with pytest.raises(IllegalAction, match="reveal exactly 6"):
        g.decide(state, {"do": "reveal", "seat": 0, "hand": ["alibi"]}, 0.0)
    with pytest.raises(IllegalAction, match="Reveal every hand first"):
        g.decide(state, {"do": "deal"}, 0.0)


# --- accounting, worked by hand ------------------------------------------------------


def ended(businesses: list[tuple[str, ...]], hands: list[list[str]], **options: Any) -> State:
    state = new(len(hands), **options)
    for i, (b, h) in enumerate(zip(businesses, hands, strict=True)):
        state = with_seat(state, i, market_open=True, businesses=b, hand=len(h))
    state = dataclasses.replace(state, phase=OVER, ended_by="day_of_accounting")
    return run(state, *({"do": "reveal", "seat": i, "hand": h} for i, h in enumerate(hands)))


def test_accounting_examples() -> None:
    state = ended(
        [("weapons", "merchandise", "tropical_fish"), ("the_coup",), ()],
        [
            # 76,000 open - 50,000 Loan Shark - 10,000 Politics (highest business in hand)
            ["loan_shark", "gambling", "politics", "alibi"],
            # 100,000 - 25,000 - 100,000 paranoia - 50,000 Weapons in hand
            ["family_party", "debris_and_ash", "weapons", "weapons", "brokering"],
            # nothing open, nothing that counts in hand
            ["alibi", "raid", "magnum"],
        ],
    )
    result = g.outcome(state)
    assert result is not None
    assert result.detail["scores"] == [16000, -75000, 0]
    assert result.winners == (0,)
    assert result.to_json()["winner"] == [0]
    assert g.public_view(state)["accounting"]["working"][1] == {
        "open": 100000,
        "paranoia": 125000,
        "highest_in_hand": 50000,
        "total": -75000,
    }


def test_ties_share_the_win() -> None:
    state = ended(
        [("politics",), ("brokering", "brokering", "brokering", "tropical_fish")],
        [["alibi"], ["alibi"]],
    )
    result = g.outcome(state)
    assert result is not None and result.winners == (0, 1)
    assert result.termination.value == "shared"


def test_reveal_cannot_exceed_the_deck() -> None:
    state = new(2)
    state = with_seat(state, 0, market_open=True, businesses=("the_coup",), hand=1)
    state = dataclasses.replace(state, phase=OVER)
    with pytest.raises(IllegalAction, match="The deck has 1 The Coup"):
        g.decide(state, {"do": "reveal", "seat": 1, "hand": ["the_coup"] * 7}, 0.0)


def test_match_runs_to_target_with_rotating_dealer() -> None:
    state = ended([("the_coup",), ("politics",)], [["alibi"], ["alibi"]], match_to=150000)
    result = g.outcome(state)
    assert result is not None and result.detail["match_over"] is False
    assert result.detail["match"] == [100000, 10000]
    state = run(state, {"do": "deal"})
    assert state.hand_no == 2 and state.dealer == 0 and state.turn == 1
    assert state.draw_pile == 108 - 14 and state.seats[0].businesses == ()
    state = with_seat(state, 0, market_open=True, businesses=("weapons",), hand=1)
    state = with_seat(state, 1, hand=1)
    state = run(
        dataclasses.replace(state, phase=OVER),
        {"do": "reveal", "seat": 0, "hand": ["alibi"]},
        {"do": "reveal", "seat": 1, "hand": ["alibi"]},
    )
    result = g.outcome(state)
    assert result is not None and result.detail["match_over"] is True
    assert result.detail["match"] == [150000, 10000] and result.winners == (0,)
    with pytest.raises(IllegalAction, match="The match is over"):
        g.decide(state, {"do": "deal"}, 0.0)


# --- contract ------------------------------------------------------------------------


def test_setup_defaults_and_options() -> None:
    state = new(4)
    assert state.dealer == 3 and state.turn == 0 and state.draw_pile == 108 - 28
    assert [s.hand for s in state.seats] == [7] * 4
    assert new(3, dealer=0).turn == 1
    with pytest.raises(ValueError, match="dealer"):
        new(3, dealer=5)
    with pytest.raises(ValueError, match="2 to 6 players"):
        new(1)


def test_events_round_trip_through_json() -> None:
    state = table("raid")
    state = with_seat(state, 0, businesses=("merchandise", "gambling"))
    events = g.decide(state, {"do": "play", "seat": 0, "card": "tropical_fish"}, 0.0)
    for event in events:
        name, payload = event_to_json(event)
        payload = json.loads(json.dumps(payload))
        assert event_from_json(g.event_types, name, payload) == event
    assert set(g.event_types) >= {type(e).__name__ for e in events}


def test_views_are_json_and_hold_no_hand() -> None:
    state = run(table(None), {"do": "play", "seat": 0, "card": "weapons"})
    view = g.public_view(state)
    json.dumps(view)
    json.dumps(g.seat_view(state, 1))
    json.dumps(g.state_json(state))
    assert view["seats"][0]["businesses"][-1]["value"] == 50000
    assert view["seats"][0]["revealed"] is None and "me" not in view
    assert "A may add a legal business" in view["status"]


def test_inputs_become_actions() -> None:
    state = table(None)
    seen = {"kind": "tag_seen", "card": "raid", "serial": 70, "zone": "play", "t": 1.0}
    assert g.action_for_input(state, seen) == {"do": "play", "seat": 0, "card": "raid"}
    state = with_seat(state, 2, market_open=True)
    pending = run(state, g.action_for_input(state, seen) or {})
    assert pending.seats[0].pending == "raid"
    press = {"kind": "button", "role": "seat", "seat": 2, "hold": False, "t": 2.0}
    action = g.action_for_input(pending, press)
    assert action == {"do": "play", "seat": 0, "card": "raid", "target": 2}
    assert run(pending, action).seats[2].hassle == "raid"
    with pytest.raises(IllegalAction, match="not an Illegal card"):
        g.action_for_input(state, {**seen, "card": "suitcase"})


def test_engine_is_registered() -> None:
    from companion.games import get

    assert get("illegal") is g
    assert g.next_deadline(table(None)) is None
    assert isinstance(SeatState("x"), SeatState)


def test_tax_inspection_hand_is_shown_and_hidden_again() -> None:
    state = table("tax_inspection")
    with pytest.raises(IllegalAction, match="Only a seat under Tax Inspection"):
        g.decide(state, {"do": "show", "seat": 1, "hand": ["alibi"]}, 0.0)
    shown = run(state, {"do": "show", "seat": 0, "hand": ["white_coat", "alibi", "weapons"]})
    assert [c["id"] for c in g.public_view(shown)["seats"][0]["shown"]] == [
        "white_coat",
        "alibi",
        "weapons",
    ]
    after = run(shown, {"do": "play", "seat": 0, "card": "white_coat", "target": 0})
    assert after.seats[0].hassle is None and after.seats[0].shown == ()


def test_reveal_card_by_card_from_the_camera() -> None:
    state = with_seat(table(None), 0, hand=3)  # 2 left after the Day of Accounting
    state = run(state, {"do": "play", "seat": 0, "card": "day_of_accounting"})
    seen = {"kind": "tag_seen", "card": "weapons", "serial": 40, "zone": "play", "t": 9.0}
    action = g.action_for_input(state, seen)
    assert action == {"do": "reveal_card", "seat": 0, "card": "weapons"}
    state = run(state, action)
    assert state.seats[0].revealed == ("weapons",)
    assert g.action_for_input(state, {**seen, "card": "alibi"}) == {
        "do": "reveal_card",
        "seat": 0,
        "card": "alibi",
    }


def test_hassle_leaves_at_once_option() -> None:
    plain = table(None)
    at_once = dataclasses.replace(
        plain, options=dataclasses.replace(plain.options, hassle_leaves="at_once")
    )
    raid = {"do": "play", "seat": 0, "card": "raid", "target": 1}
    bare = with_seat(plain, 1, businesses=("tropical_fish",))
    assert run(bare, raid).seats[1].hassle == "raid"
    bare = with_seat(at_once, 1, businesses=("tropical_fish",))
    assert run(bare, raid).seats[1].hassle is None


def test_magnum_restores_hassle_option() -> None:
    take = {"do": "play", "seat": 0, "card": "relatives", "target": 1, "take": "weapons"}
    stop = {"do": "play", "seat": 2, "card": "magnum", "cancel": True}
    state = table("vacation_in_sweden")
    assert run(state, take, stop).seats[0].hassle is None
    state = dataclasses.replace(
        state, options=dataclasses.replace(state.options, magnum_restores_hassle=True)
    )
    after = run(state, take, stop)
    assert after.seats[0].hassle == "vacation_in_sweden"
    assert "vacation_in_sweden" not in after.discards


def test_signals() -> None:
    state = with_seat(table("raid"), 0, businesses=("merchandise",))
    events = g.decide(state, {"do": "play", "seat": 0, "card": "tropical_fish"}, 0.0)
    after = run(state, {"do": "play", "seat": 0, "card": "tropical_fish"})
    assert g.signals(after, events) == [("card", 0), ("penalty", 0), ("turn", 1)]
