"""Illegal: camera tags and table buttons turned into actions."""

from __future__ import annotations

import dataclasses

import pytest

from companion.games.base import ButtonInput, IllegalAction, TagInput
from companion.games.illegal import engine
from tests.games.illegal.helpers import run, table, with_seat


def test_inputs_become_actions() -> None:
    state = table(None)
    seen = TagInput(seen=True, card="raid", serial=70, zone="play", t=1.0)
    assert engine.action_for_input(state, seen) == {"do": "play", "seat": 0, "card": "raid"}
    state = with_seat(state, 2, market_open=True)
    pending = run(state, engine.action_for_input(state, seen) or {})
    assert pending.seats[0].pending == "raid"
    press = ButtonInput(role="seat", seat=2, hold=False, t=2.0)
    action = engine.action_for_input(pending, press)
    assert action == {"do": "play", "seat": 0, "card": "raid", "target": 2}
    assert run(pending, action).seats[2].hassle == "raid"
    with pytest.raises(IllegalAction, match="not an Illegal card"):
        engine.action_for_input(state, dataclasses.replace(seen, card="suitcase"))


def test_reveal_card_by_card_from_the_camera() -> None:
    state = with_seat(table(None), 0, hand=3)  # 2 left after the Day of Accounting
    state = run(state, {"do": "play", "seat": 0, "card": "day_of_accounting"})
    seen = TagInput(seen=True, card="weapons", serial=40, zone="play", t=9.0)
    action = engine.action_for_input(state, seen)
    assert action == {"do": "reveal_card", "seat": 0, "card": "weapons"}
    state = run(state, action)
    assert state.seats[0].revealed == ("weapons",)
    assert engine.action_for_input(state, dataclasses.replace(seen, card="alibi")) == {
        "do": "reveal_card",
        "seat": 0,
        "card": "alibi",
    }


def tag(card: str, zone: str | None = "play") -> TagInput:
    return TagInput(seen=True, card=card, serial=1, zone=zone, t=1.0)


def test_a_magnum_in_the_play_zone_asks_whose_and_the_seat_button_claims_it() -> None:
    state = with_seat(table("raid"), 1, hassle=None)
    action = engine.action_for_input(state, tag("magnum"))
    assert action == {"do": "magnum_shown"}  # never silently the active seat's
    asked = run(state, action)
    assert asked.unclaimed and asked.seats[0].hand == 7
    press = engine.action_for_input(asked, ButtonInput("seat", 1, False, 2.0))
    assert press == {"do": "play", "seat": 1, "card": "magnum"}
    done = run(asked, press)
    assert not done.unclaimed and done.seats[1].hand == 6 and done.seats[0].hand == 7
    assert done.seats[0].hassle is None and done.turn == 0


def test_a_magnum_in_a_seat_zone_is_that_seats() -> None:
    state = with_seat(table("raid"), 1, hassle=None)
    action = engine.action_for_input(state, tag("magnum", "seat:2"))
    assert action == {"do": "play", "seat": 2, "card": "magnum"}


def test_seat_zones_name_the_victim_or_the_player() -> None:
    state = table(None)
    assert engine.action_for_input(state, tag("raid", "seat:1")) == {
        "do": "play",
        "seat": 0,
        "card": "raid",
        "target": 1,
    }
    assert engine.action_for_input(state, tag("gambling", "seat:1")) == {
        "do": "play",
        "seat": 1,
        "card": "gambling",
    }
    assert engine.action_for_input(state, tag("gambling", "board:Casablanca")) is None
    assert engine.action_for_input(state, tag("gambling", "seat:9")) is None


def test_the_card_after_a_bribe_is_its_cost() -> None:
    state = table("tax_inspection")
    pending = run(state, engine.action_for_input(state, tag("bribe")) or {})
    assert pending.seats[0].pending_needs == "discard"
    cost = engine.action_for_input(pending, tag("gambling"))
    assert cost == {"do": "play", "seat": 0, "card": "bribe", "discard": "gambling"}
    done = run(pending, cost)
    assert done.seats[0].hassle is None and done.seats[0].businesses == ("merchandise", "brokering")
    assert done.discards[-1] == "gambling" and done.turn == 0


def test_the_card_after_a_takeover_is_the_business_taken() -> None:
    state = with_seat(table(None), 2, market_open=True, businesses=("pimps",))
    pending = run(state, engine.action_for_input(state, tag("hostile_takeover")) or {})
    assert pending.seats[0].pending == "hostile_takeover"
    take = engine.action_for_input(pending, tag("weapons"))
    assert take == {"do": "play", "seat": 0, "card": "hostile_takeover", "take": "weapons"}
    done = run(pending, take)
    assert done.seats[0].businesses[-1] == "weapons" and "weapons" not in done.seats[1].businesses


def test_the_discard_zone_discards_a_playable_card_and_gathers_a_triple() -> None:
    state = table(None)
    one = engine.action_for_input(state, tag("tropical_fish", "discard"))
    assert one == {"do": "discard_card", "seat": 0, "card": "tropical_fish"}
    gathered = run(state, one)
    assert gathered.gathered == ("tropical_fish",) and gathered.seats[0].businesses == (
        "merchandise",
        "brokering",
    )
    ended = run(
        gathered, engine.action_for_input(gathered, ButtonInput("confirm", None, False, 3.0)) or {}
    )
    assert ended.discards == ("tropical_fish",) and ended.turn == 1
    triple = run(state, *[{"do": "discard_card", "seat": 0, "card": "alibi"}] * 3)
    assert triple.discards == ("alibi",) * 3 and triple.seats[0].hand == 4
    assert triple.phase == "more" and triple.gathered == ()
    with pytest.raises(IllegalAction, match="Two Alibi"):
        engine.decide(
            run(state, *[{"do": "discard_card", "seat": 0, "card": "alibi"}] * 2),
            {"do": "end_turn", "seat": 0},
            0.0,
        )


def test_reveal_skips_empty_hands_and_seat_zones_name_the_seat() -> None:
    state = with_seat(table(None), 0, hand=1)
    state = run(state, {"do": "play", "seat": 0, "card": "day_of_accounting"})
    assert state.seats[0].hand == 0
    assert engine.action_for_input(state, tag("weapons")) == {
        "do": "reveal_card",
        "seat": 1,
        "card": "weapons",
    }
    assert engine.action_for_input(state, tag("weapons", "seat:2")) == {
        "do": "reveal_card",
        "seat": 2,
        "card": "weapons",
    }
    tapped = run(state, {"do": "reveal", "seat": 0, "hand": []})
    assert tapped.seats[0].revealed == ()


def test_a_card_the_open_turn_cannot_take_is_the_next_players() -> None:
    state = run(table(None), {"do": "play", "seat": 0, "card": "weapons"})
    assert state.phase == "more"
    assert engine.action_for_input(state, tag("politics")) == {
        "do": "play",
        "seat": 0,
        "card": "politics",
    }
    assert engine.action_for_input(state, tag("raid", "seat:0")) == {
        "do": "play",
        "seat": 1,
        "card": "raid",
        "target": 0,
    }
    assert engine.action_for_input(state, tag("gambling")) == {
        "do": "play",
        "seat": 1,
        "card": "gambling",
    }


def test_a_claimed_magnum_waiting_for_its_target_is_no_longer_unclaimed() -> None:
    state = with_seat(table("raid"), 1, hassle="tax_inspection")
    asked = run(state, {"do": "magnum_shown"})
    claimed = run(asked, {"do": "play", "seat": 1, "card": "magnum"})
    assert claimed.seats[1].pending == "magnum" and not claimed.unclaimed
    cancelled = run(claimed, {"do": "cancel"})
    assert cancelled.seats[1].pending is None and cancelled.seats[1].hand == 7


def test_cards_scanned_in_front_of_an_inspected_player_lay_the_hand_open() -> None:
    state = run(table(None), {"do": "play", "seat": 0, "card": "tax_inspection", "target": 1})
    state = with_seat(state, 1, hand=2)
    assert state.turn == 1 and state.seats[1].hassle == "tax_inspection"
    state = with_seat(dataclasses.replace(state, turn=2), 1)  # Cy's turn: Ben scans
    scan = engine.action_for_input(state, tag("pimps", "seat:1"))
    assert scan == {"do": "show_card", "seat": 1, "card": "pimps"}
    state = run(state, scan, {"do": "show_card", "seat": 1, "card": "alibi"})
    assert state.seats[1].shown == ("pimps", "alibi")
    assert engine.action_for_input(state, tag("gambling", "seat:1")) == {
        "do": "play",
        "seat": 1,
        "card": "gambling",
    }  # the open hand is complete: a card there is Ben's play again (and refused)
    coat = engine.action_for_input(state, tag("white_coat", "seat:1"))
    assert coat is not None and coat["target"] == 1  # a solution there is a play on Ben


def test_an_unfinished_move_is_called_off_after_the_timeout_option() -> None:
    plain = table("tax_inspection")
    shown, _ = engine.run(plain, {"do": "play", "seat": 0, "card": "bribe"}, 10.0)
    assert shown.waiting_since == 10.0 and engine.next_deadline(shown) is None  # option off
    timed = dataclasses.replace(
        shown, options=dataclasses.replace(shown.options, move_timeout_s=30.0)
    )
    assert engine.next_deadline(timed) == 40.0
    after, events = engine.run(timed, {"do": "deadline"}, 40.0)
    assert after.seats[0].pending is None and after.waiting_since is None
    assert engine.next_deadline(after) is None and events
    # one card on the discard zone is booked as the turn's discard when the time is up
    gathered, _ = engine.run(
        dataclasses.replace(plain, options=timed.options),
        {"do": "discard_card", "seat": 0, "card": "alibi"},
        5.0,
    )
    assert engine.next_deadline(gathered) == 35.0
    booked, _ = engine.run(gathered, {"do": "deadline"}, 35.0)
    assert booked.discards == ("alibi",) and booked.gathered == () and booked.phase == "more"
