"""Crime Lords attacks: target numbers worked by hand, showdown, Gang War."""

from __future__ import annotations

import pytest

from companion.games.base import IllegalAction
from companion.games.crime_lords import engine, fight
from tests.games.crime_lords.helpers import Table, deep_mobs, two_mobs


def needed(t: Table) -> int:
    view = engine.public_view(t.state)["attack"]
    assert sum(v for _, v in view["breakdown"]) == view["needed"]
    return int(view["needed"])


def terms(t: Table) -> dict[str, int]:
    return {why: v for why, v in engine.public_view(t.state)["attack"]["breakdown"]}


def test_recruit_uncontrolled_with_weakness() -> None:
    t = two_mobs()
    t.do(do="collect", seat=0)
    t.do(do="attack", seat=0, kind="recruit", attacker="crook_01", target="crook_05")
    # Mom 6 + 3 (Boss) - Anita's Resistance 1 + 4 (Ann has a Casino, nobody else does)
    assert needed(t) == 12
    assert terms(t)["more Rackets matching his Weakness (1 to 0)"] == 4


def test_recruit_a_lieutenant_and_below() -> None:
    t = deep_mobs()
    t.do(do="adjust", seat=1, what="unhappy", card="crook_04", delta=2, why="unpaid")
    t.do(do="attack", seat=0, kind="recruit", attacker="crook_01", target="crook_04")
    # 9 - 1 - 10 (Lieutenant) + 4 (2 Unhappy markers) - 4 (Ben has Numbers, Ann none) = -2
    assert needed(t) == -2
    t.do(do="showdown", seat=0, amount=20)
    t.do(do="showdown", seat=1, amount=5)
    t.do(do="showdown", seat=2, amount=10, side="against")
    assert needed(t) == 3  # +20 - 5 - 10
    t.do(do="defend", seat=1, card="crook_03")  # his superior Judge: -7
    assert needed(t) == -4
    t.do(do="roll", seat=0)  # no chance: no dice needed
    assert t.state.mobs[1].crook("crook_04") is not None


def test_recruit_controlled_by_lieutenant_is_minus_five() -> None:
    t = deep_mobs()
    t.do(do="attack", seat=0, kind="recruit", attacker="crook_02", target="crook_07")
    assert needed(t) == 4 - 0 - 5
    assert terms(t)["target is controlled by a Lieutenant"] == -5


def test_recruit_refusals() -> None:
    t = deep_mobs()
    with pytest.raises(IllegalAction, match="Boss cannot be recruited"):
        t.do(do="attack", seat=0, kind="recruit", attacker="crook_01", target="crook_03")
    t.do(do="adjust", seat=1, what="power", card="crook_08", delta=1, why="a Special")
    with pytest.raises(IllegalAction, match="needs more Power"):  # Bro 4 vs Tiny 4
        t.do(do="attack", seat=0, kind="recruit", attacker="crook_02", target="crook_08")


def test_hit_modifiers_and_bodyguard() -> None:
    t = deep_mobs()
    t.do(do="attack", seat=0, kind="hit", attacker="crook_01", target="crook_03", money=5)
    # 9 - 7 (Judge as Boss) - 10 (Boss) - 5 (Bodyguard Tiny) + 5 G = -8
    assert needed(t) == -8
    assert terms(t)["Bodyguard Tiny"] == -5
    t.do(do="assist", seat=0, card="crook_02")
    assert needed(t) == -4
    attack = t.state.attack
    assert attack is not None
    assert fight._aid_problem(t.state, attack, 0, "crook_02") == (
        "Only one Crook may aid a recruitment or a Hit.")


def test_hit_money_is_limited_to_five() -> None:
    t = deep_mobs()
    with pytest.raises(IllegalAction, match="At most 5 G"):
        t.do(do="attack", seat=0, kind="hit", attacker="crook_01", target="crook_04", money=6)


def test_hit_success_unhappiness_and_power() -> None:
    t = deep_mobs()
    t.do(do="attack", seat=0, kind="hit", attacker="crook_02", target="crook_04")
    # Bro 4 - Shyster 2 - 5 (he has a subordinate) = -3; Mom aids? Only Crooks under Bro.
    assert needed(t) == -3
    t.do(do="modify", seat=0, value=8, why="Smoothie Smythe: +5 on Hits, and more")
    t.do(do="defend", seat=1, card="crook_04")  # hides out: -3
    assert needed(t) == 2
    t.do(do="roll", seat=0, dice=[1, 1])
    assert t.state.mobs[1].crook("crook_04") is None
    assert t.state.mobs[1].crook("crook_03").unhappy == 1  # his superior
    assert t.state.mobs[1].crook("crook_07").unhappy == 1  # his subordinate
    assert t.state.mobs[1].crook("crook_07").superior is None  # Ben must place him
    assert t.state.mobs[1].crook("crook_08").unhappy == 0
    assert t.state.mobs[0].crook("crook_02").plus == 1  # Shyster was weaker: +1
    t.do(do="place", seat=1, card="crook_07", under="crook_08")


def test_failed_hit_makes_target_unhappy() -> None:
    t = deep_mobs()
    t.do(do="attack", seat=0, kind="hit", attacker="crook_02", target="crook_08")
    assert needed(t) == 1  # 4 - 3: a warning shot that does not count
    t.do(do="roll", seat=0)
    assert t.state.mobs[1].crook("crook_08").unhappy == 0
    t.do(do="attack", seat=0, kind="hit", attacker="crook_01", target="crook_08")
    assert needed(t) == 6
    t.do(do="roll", seat=0, dice=[6, 6])
    assert t.state.mobs[1].crook("crook_08").unhappy == 1


def test_takeover_with_protector_and_districts() -> None:
    t = deep_mobs()
    t.do(do="attack", seat=0, kind="takeover", attacker="crook_01", target="racket_02")
    t.do(do="protect", seat=1, card="crook_04")
    # 9 - 3 (Resistance) - 2 (protector Shyster) - 2 (Ben's other East Side Racket) = 2
    assert needed(t) == 2
    t.do(do="showdown", seat=0, amount=6)
    t.do(do="showdown", seat=1, amount=0)
    t.do(do="showdown", seat=2, amount=0, side="for")
    t.do(do="assist", seat=0, card="crook_02")
    t.do(do="defend", seat=1, card="crook_07")  # under the protector
    with pytest.raises(IllegalAction, match="under the named protector"):
        t.do(do="defend", seat=1, card="crook_08")
    assert needed(t) == 2 + 6 + 4 - 1
    t.do(do="roll", seat=0, dice=[5, 5])
    assert [h.card for h in t.state.mobs[0].rackets] == ["racket_02"]
    assert t.money(0) == 50 - 9 - 4 - 6


def test_showdown_limits_and_withdraw() -> None:
    t = deep_mobs()
    t.do(do="attack", seat=0, kind="recruit", attacker="crook_01", target="crook_07")
    with pytest.raises(IllegalAction, match="at most 10 G"):
        t.do(do="showdown", seat=2, amount=11, side="against")
    with pytest.raises(IllegalAction, match="always for the attack"):
        t.do(do="showdown", seat=0, amount=1, side="against")
    with pytest.raises(IllegalAction, match="side"):
        t.do(do="showdown", seat=2, amount=1)
    t.do(do="withdraw", seat=0)
    assert t.state.attack is None and t.state.mobs[0].crook("crook_01").token


def test_gang_war() -> None:
    t = deep_mobs()
    t.do(do="attack", seat=0, kind="hit", attacker="crook_01", target="crook_03")
    t.do(do="modify", seat=0, value=20, why="a Special: +20")
    t.do(do="roll", seat=0, dice=[6, 6])  # counted, failed: Gang War
    war = engine.public_view(t.state)["war"]
    assert war == {"origin": 0, "seats": [0, 1], "turn": 1, "passes": 0}
    assert t.state.mobs[1].crook("crook_03").unhappy == 1
    assert t.state.mobs[0].crook("crook_01").token  # Ann retokened her Crooks
    with pytest.raises(IllegalAction, match="Gang War"):
        t.do(do="end_turn", seat=0)
    t.do(do="attack", seat=1, kind="hit", attacker="crook_03", target="crook_09")
    assert needed(t) == 7 - 3 - 10 + 5
    t.do(do="modify", seat=1, value=10, why="test")
    t.do(do="roll", seat=1, dice=[3, 3])  # Cy's Boss is Hit: Cy joins, Cy is out
    assert t.state.mobs[2].out
    assert engine.public_view(t.state)["war"]["turn"] == 0
    t.do(do="pass", seat=0)
    t.do(do="pass", seat=1)
    assert t.state.war is None and t.state.turn == 2 - 1 and t.state.step == "collect"


def test_double_cross() -> None:
    t = deep_mobs()
    t.do(do="attack", seat=0, kind="hit", attacker="crook_02", target="crook_01")
    mob = t.state.mobs[0]
    assert mob.boss == "crook_02" and mob.crook("crook_01") is None
    assert mob.crook("crook_02").plus == 2 and mob.crook("crook_02").unhappy == 0
    assert t.state.war is None


def test_wiping_out_a_mob_and_claiming_its_rackets() -> None:
    t = deep_mobs()
    t.do(do="give", seat=1, to=2, card="racket_02")
    t.do(do="give", seat=1, to=2, card="racket_05")
    t.do(do="attack", seat=0, kind="hit", attacker="crook_01", target="crook_09")
    t.do(do="modify", seat=0, value=10, why="a Special")
    t.do(do="roll", seat=0, dice=[1, 1])  # Cy's only Crook, his Boss: Cy is out, no war
    assert t.state.mobs[2].out and t.state.war is None
    with pytest.raises(IllegalAction, match="One Racket is free"):
        t.do(do="claim", seat=0, **{"from": 2}, rackets=["racket_02", "racket_05"])
    t.do(do="claim", seat=0, **{"from": 2}, rackets=["racket_02", "racket_05"],
         tokens=["crook_02"])
    assert [h.card for h in t.state.mobs[0].rackets] == ["racket_02", "racket_05"]
    assert not t.state.mobs[0].crook("crook_02").token


def test_unclaimed_rackets_go_uncontrolled_at_end_of_turn() -> None:
    t = deep_mobs()
    t.do(do="give", seat=1, to=2, card="racket_02")
    t.do(do="attack", seat=0, kind="hit", attacker="crook_01", target="crook_09")
    t.do(do="modify", seat=0, value=10, why="a Special")
    t.do(do="roll", seat=0, dice=[1, 1])
    t.do(do="end_turn", seat=0)
    assert t.state.in_center("racket_02") and not t.state.mobs[2].rackets
    assert t.state.turn == 1  # Cy (seat 2) is out: after Ann comes Ben
