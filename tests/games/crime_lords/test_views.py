"""Crime Lords views: showdown hands and treasuries stay private."""

from __future__ import annotations

from companion.games.crime_lords import engine
from tests.games.crime_lords.helpers import Table, deep_mobs, find_amounts, two_mobs


def test_showdown_is_secret_until_all_hands_are_in() -> None:
    t = deep_mobs()
    t.do(do="attack", seat=0, kind="recruit", attacker="crook_01", target="crook_07")
    t.do(do="showdown", seat=0, amount=17)
    t.do(do="showdown", seat=2, amount=9, side="for")
    public = engine.public_view(t.state)
    assert find_amounts(public, 17) == [] and find_amounts(public, 9) == []
    assert public["attack"]["committed"] == [0, 2]
    assert find_amounts(engine.seat_view(t.state, 1), 17) == []
    assert find_amounts(engine.seat_view(t.state, 1), 9) == []
    assert engine.seat_view(t.state, 0)["secrets"]["showdown"] == {"amount": 17, "side": "for"}
    assert engine.seat_view(t.state, 2)["secrets"]["showdown"] == {"amount": 9, "side": "for"}
    assert find_amounts(engine.seat_view(t.state, 2), 17) == []
    t.do(do="showdown", seat=1, amount=4)
    revealed = engine.public_view(t.state)["attack"]["revealed"]
    assert {(r["seat"], r["amount"], r["side"]) for r in revealed} == {
        (0, 17, "for"), (1, 4, "against"), (2, 9, "for")}


def test_treasuries_are_private() -> None:
    t = deep_mobs()
    assert t.money(0) == 37  # 50 - 13
    assert find_amounts(engine.public_view(t.state), 37) == []
    assert engine.seat_view(t.state, 0)["secrets"]["money"] == 37
    assert "money" not in str(engine.public_view(t.state)["mobs"])


def _attention(t: Table) -> list[bool]:
    return [engine.seat_view(t.state, seat)["attention"]["act"]
            for seat in range(len(t.state.seats))]


def test_attention_is_the_seat_on_turn_and_the_stats_of_its_draw() -> None:
    t = two_mobs()
    assert _attention(t) == [True, False]  # Ann's turn: collect
    t.do(do="collect", seat=0)
    t.do(do="draw", seat=0, card="crook_20")
    assert _attention(t) == [True, False]  # Ann enters the stats of her card
    t.do(do="stats", seat=0, card="crook_20", stats={"power": 1, "resistance": 1})
    t.do(do="give", seat=0, to=1, card="crook_02")
    assert _attention(t) == [False, True]  # Ben takes the Crook offered or says no
    t.do(do="refuse_crook", seat=1)
    t.do(do="end_turn", seat=0)
    assert _attention(t) == [False, True]


def test_attention_follows_the_attack_stages_and_the_gang_war() -> None:
    t = deep_mobs()
    assert _attention(t) == [True, False, False]
    t.do(do="attack", seat=0, kind="takeover", attacker="crook_01", target="racket_02")
    assert _attention(t) == [False, True, False]  # Ben names a protector
    t.do(do="protect", seat=1, card=None)
    assert _attention(t) == [True, True, True]  # every hand is still to come
    t.do(do="showdown", seat=0, amount=3)
    t.do(do="showdown", seat=2, amount=0, side="against")
    assert _attention(t) == [False, True, False]  # only Ben's hand is missing
    t.do(do="showdown", seat=1, amount=0)
    assert _attention(t) == [True, False, False]  # Ann rolls the dice
    t.do(do="roll", seat=0, dice=[6, 6])
    assert _attention(t) == [True, False, False]
    t.do(do="attack", seat=0, kind="hit", attacker="crook_02", target="crook_03", money=5)
    t.do(do="modify", seat=0, value=20, why="test")
    t.do(do="roll", seat=0, dice=[1, 1])
    assert t.state.war is not None and t.state.war.turn == 1
    assert _attention(t) == [False, True, False]  # Ben: a new Boss, then his war turn
    t.do(do="leave", seat=1)
    assert _attention(t) == [False, False, True]


def test_no_attention_in_setup_or_once_the_game_is_over() -> None:
    t = Table(2)
    assert _attention(t) == [False, False]
    t = deep_mobs()
    t.do(do="leave", seat=1)
    t.do(do="leave", seat=2)
    assert t.state.winners == (0,) and _attention(t) == [False, False, False]


def test_a_drawn_cards_stats_come_first_on_the_drawers_phone() -> None:
    t = two_mobs()
    t.do(do="collect", seat=0)
    t.do(do="draw", seat=0, card="crook_20")
    assert engine.seat_view(t.state, 0)["attention"]["why"] == (
        "Enter the stats printed on the card you drew: your turn goes on once they are in.")
    assert engine.table_view(t.state)["waiting"]["why"] == (
        "Ann drew a new card: its stats are needed.")
