"""Crime Lords: setup, income and pay-off worked by hand, Unhappy markers, turns, victory."""

from __future__ import annotations

import pytest

from companion import games
from companion.games.base import IllegalAction, Setup, SetupError
from companion.games.crime_lords import engine
from companion.games.crime_lords.mob import racket_score
from tests.games.crime_lords.helpers import ANITA, Table, two_mobs


def test_found_by_name_and_aliases() -> None:
    for alias in ("crime_lords", "crimelords", "Crime Lords", "crime_lords_sjg"):
        assert games.get(alias) is engine


def test_rackets_to_win_follow_the_table() -> None:
    assert engine.new_game(Setup(("a", "b", "c", "d"), {})).options.rackets_to_win == 10
    long4 = engine.new_game(Setup(("a", "b", "c", "d"), {"game_length": "long"}))
    assert long4.options.rackets_to_win == 13
    assert engine.new_game(Setup(tuple("abcdef"), {})).options.rackets_to_win == 8
    with pytest.raises(SetupError):
        engine.new_game(Setup(("a", "b"), {"game_length": "medium"}))


def test_auction_money_is_limited() -> None:
    t = Table()
    t.do(do="buy", seat=0, card="crook_01", price=20, stats=ANITA)
    with pytest.raises(IllegalAction, match="only 5 G of bidding money"):
        t.do(do="buy", seat=0, card="crook_02", price=6, stats=ANITA)


def test_first_stats_are_required() -> None:
    t = Table()
    with pytest.raises(IllegalAction, match="enter the stats printed on it"):
        t.do(do="buy", seat=0, card="crook_01", price=1)


def test_income_and_full_pay_off() -> None:
    # Ann: 50 + 4 (Casinos) = 54; Mom 6 + 3 (Boss token) = 9, Bro 4: 54 - 13 = 41.
    t = two_mobs()
    t.do(do="collect", seat=0)
    assert t.money(0) == 41
    assert t.crook(0, "crook_01").unhappy == 0 and t.crook(0, "crook_02").unhappy == 0


def test_boss_first_then_short_pay() -> None:
    # 8 + 4 income = 12: Mom gets her 9, Bro gets 3 of 4 (one marker).
    t = two_mobs(starting_money=8)
    t.do(do="collect", seat=0)
    assert t.money(0) == 0
    assert t.crook(0, "crook_01").unhappy == 0
    assert t.crook(0, "crook_02").unhappy == 1


def test_short_boss_gets_one_marker_and_nobody_else_gets_anything() -> None:
    # 1 + 4 = 5 < 9: Mom gets 5 (one marker); Bro gets nothing (two markers).
    t = two_mobs(starting_money=1)
    events = t.do(do="collect", seat=0)
    paid = {e.card: (e.owed, e.paid) for e in events if type(e).__name__ == "CrookPaid"}
    assert paid == {"crook_01": (9, 5), "crook_02": (4, 0)}
    assert t.crook(0, "crook_01").unhappy == 1
    assert t.crook(0, "crook_02").unhappy == 2


def test_third_marker_from_pay_goes_uncontrolled() -> None:
    t = two_mobs(starting_money=1)
    t.do(do="adjust", seat=0, what="unhappy", card="crook_02", delta=1, why="test: earlier")
    t.do(do="collect", seat=0)
    assert t.crook(0, "crook_02") is None
    assert t.state.in_center("crook_02")
    assert "crook_02" not in t.state.discard


def test_pay_order_chooses_who_is_short() -> None:
    t = two_mobs(starting_money=8)
    t.do(do="collect", seat=0, pay_order=["crook_02"])
    assert t.crook(0, "crook_02").unhappy == 1  # only Bro to pay after the Boss
    with pytest.raises(IllegalAction, match="not one of your Crooks"):
        two_mobs().do(do="collect", seat=0, pay_order=["crook_03"])


def test_turns_go_counterclockwise_and_pass_pays_ten() -> None:
    t = Table(3)
    for seat, card in enumerate(("crook_01", "crook_02", "crook_03")):
        t.do(do="buy", seat=seat, card=card, price=0, stats=ANITA)
        t.do(do="choose_boss", seat=seat, card=card)
    t.do(do="start", first=0)
    t.do(do="collect", seat=0)  # 50 - 3
    t.do(do="pass_turn", seat=0)
    assert t.money(0) == 57
    assert t.state.turn == 2  # seats are clockwise; play goes counterclockwise
    t.do(do="collect", seat=2)
    t.do(do="draw", seat=2, card="special_01")  # drawing is not an action
    t.do(do="attack", seat=2, kind="hit", attacker="crook_03", target="crook_01")
    # 3 - 3 - 10 (a Boss): no chance, so no dice, no marker, no Gang War (warning shot)
    t.do(do="roll", seat=2)
    assert t.crook(0, "crook_01").unhappy == 0 and t.state.war is None
    with pytest.raises(IllegalAction):
        t.do(do="pass_turn", seat=2)


def test_not_your_turn() -> None:
    t = two_mobs()
    with pytest.raises(IllegalAction, match="Ann's turn"):
        t.do(do="collect", seat=1)


def test_promotion_marker_each_turn() -> None:
    t = two_mobs()
    t.do(do="collect", seat=0)
    t.do(do="attack", seat=0, kind="recruit", attacker="crook_01", target="crook_05")
    t.do(do="now", seat=0)
    t.do(do="roll", seat=0, dice=[1, 1], under="crook_02")
    assert t.crook(0, "crook_05").superior == "crook_02"
    t.do(do="adjust", seat=0, what="power", card="crook_05", delta=2, why="a Special")
    t.do(do="end_turn", seat=0)
    t.do(do="collect", seat=1)
    t.do(do="end_turn", seat=1)
    t.do(do="collect", seat=0)  # Anita (5) has more Power than Bro (4): she wants promotion
    assert t.crook(0, "crook_05").unhappy == 1
    assert t.crook(0, "crook_02").unhappy == 0


def test_victory_counts_type_and_district_bonuses() -> None:
    t = Table(2, auction_rackets=5)
    kinds = [("North Side", "Casinos"), ("North Side", "Casinos"), ("North Side", "Casinos"),
             ("North Side", "Numbers")]
    for i, (district, kind) in enumerate(kinds, start=1):
        t.do(do="buy", seat=0, card=f"racket_{i:02d}", price=0,
             stats={"income": 1, "resistance": 1, "district": district, "type": kind})
    t.do(do="buy", seat=1, card="racket_09", price=0,
         stats={"income": 1, "resistance": 1, "district": "North Side", "type": "Numbers"})
    # 4 Rackets, +1 (3 Casinos, nobody else has one), +2 (4 North Side, Ben has just one)
    assert racket_score(t.state, 0) == 7
    t.do(do="buy", seat=1, card="racket_10", price=0,
         stats={"income": 1, "resistance": 1, "district": "North Side", "type": "Casinos"})
    assert racket_score(t.state, 0) == 4  # Ben now has a Casino and two North Side Rackets


def test_game_won_at_end_of_turn() -> None:
    t = two_mobs(rackets_to_win=1)
    t.do(do="collect", seat=0)
    assert engine.outcome(t.state) is None  # only at the end of a turn
    t.do(do="end_turn", seat=0)
    out = engine.outcome(t.state)
    assert out is not None and out.winners == (0, 1)
    assert out.termination.value == "shared"
    with pytest.raises(IllegalAction, match="over"):
        t.do(do="collect", seat=1)


def test_retokening_at_end_of_turn_only() -> None:
    t = two_mobs()
    t.do(do="collect", seat=0)
    t.do(do="attack", seat=0, kind="recruit", attacker="crook_02", target="crook_05")
    assert not t.crook(0, "crook_02").token
    t.do(do="showdown", seat=0, amount=0)
    t.do(do="showdown", seat=1, amount=0, side="against")
    t.do(do="roll", seat=0, dice=[6, 6])
    assert not t.crook(0, "crook_02").token
    with pytest.raises(IllegalAction, match="no Action Token"):
        t.do(do="attack", seat=0, kind="recruit", attacker="crook_02", target="crook_05")
    t.do(do="end_turn", seat=0)
    assert t.crook(0, "crook_02").token
