"""A Mob that goes out never leaves the table waiting for it (the issue's dead end).

"If a player loses his last Crook, he is out." Out players are skipped: a Mob that goes
out on its own turn (its last Crook quits for want of pay, an ability gives him his third
marker) ends that turn, a Gang War turn passes on, an offer or a shared win that waits
for it is off, and the last Mob standing wins at once. The record
tests/records/crime_lords/out_on_own_turn.jsonl is the issue's game in short.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.base import IllegalAction
from companion.games.crime_lords import State, engine
from tests.games.crime_lords.helpers import Table

NAMES = ("Ann", "Ben", "Cy", "Di")


def one_crook_mobs(seats: int, first: int, **options: Any) -> Table:
    """Every Mob has one Crook, its Boss (Power 3, Boss token +1); nobody has money, so
    every Boss goes unpaid (two markers) at his first pay-off."""
    t = Table(seats, **{"draw_rule": "count", "starting_money": 0, **options})
    for seat in range(seats):
        t.do(do="take_mob", seat=seat, card=f"mob_0{seat + 1}", stats={"boss_bonus": 1})
        t.do(do="buy", seat=seat, card=f"crook_0{seat + 1}", price=0,
             stats={"name": f"Boss {NAMES[seat]}", "power": 3, "resistance": 2})
        t.do(do="choose_boss", seat=seat, card=f"crook_0{seat + 1}")
    t.do(do="start", first=first)
    return t


def stuck(state: State, seats: int) -> bool:
    """No outcome, no deadline, and no seat and no host with an allowed move."""
    if engine.outcome(state) is not None or engine.next_deadline(state) is not None:
        return False
    return not any(m.allowed for who in [*range(seats), None]
                   for m in engine.moves(state, who))


def ben_goes_out_on_his_turn(seats: int) -> Table:
    """Ben's Boss has an Unhappy marker (an ability); Ben collects, cannot pay him, and
    his only Crook quits: Ben is out, on his own turn."""
    t = one_crook_mobs(seats, first=1)
    t.do(do="adjust", seat=1, what="unhappy", card="crook_02", delta=1, why="The Snitch")
    t.do(do="collect", seat=1)
    assert t.state.mobs[1].out
    return t


def test_an_out_mob_on_its_own_turn_passes_the_turn_on() -> None:
    t = ben_goes_out_on_his_turn(4)
    assert engine.outcome(t.state) is None
    assert t.state.turn == 0 and t.state.step == "collect"  # Ann is next (counterclockwise)
    assert not stuck(t.state, 4)
    assert "Ben" not in engine.waiting(t.state).why
    assert engine.moves(t.state, 1) == []
    assert any(m.do == "collect" and m.allowed for m in engine.moves(t.state, 0))
    t.do(do="collect", seat=0)
    assert t.state.turn == 0 and not t.state.mobs[0].out


def test_the_last_mob_standing_wins_at_once() -> None:
    t = ben_goes_out_on_his_turn(2)
    outcome = engine.outcome(t.state)
    assert outcome is not None and outcome.winners == (0,)


def test_a_record_of_version_1_keeps_the_old_turn() -> None:
    """Version-1 records replay as then (``out_keeps_turn``): the turn stayed with Ben."""
    t = one_crook_mobs(4, first=1, out_keeps_turn=True)
    t.do(do="adjust", seat=1, what="unhappy", card="crook_02", delta=1, why="The Snitch")
    t.do(do="collect", seat=1)
    assert t.state.mobs[1].out and t.state.turn == 1


def test_an_out_mob_in_a_gang_war_passes_its_war_turn() -> None:
    """Cy Hits Ben's Boss (a Gang War starts, Ben's war turn); Ben's own ability gives his
    Boss his third marker: Ben is out, and the war (Cy against nobody) ends."""
    t = one_crook_mobs(3, first=2, starting_money=50)
    t.do(do="collect", seat=2)
    t.do(do="draw", seat=2, card="racket_01", stats={"income": 1, "resistance": 1,
                                                      "district": "Central"})
    t.do(do="draw", seat=2, card="racket_02", stats={"income": 1, "resistance": 1,
                                                      "district": "Central"})
    t.do(do="draw", seat=2, card="racket_03", stats={"income": 1, "resistance": 1,
                                                      "district": "Central"})
    t.do(do="draw", seat=2, card="racket_04", stats={"income": 1, "resistance": 1,
                                                      "district": "Central"})
    t.do(do="attack", seat=2, kind="hit", attacker="crook_03", target="crook_02")
    t.do(do="modify", seat=2, value=20, why="The Great Zebrini")
    t.do(do="roll", seat=2, dice=[6, 6])  # 12 always fails: Ben's Boss survives, marked
    assert t.state.war is not None and t.state.war.turn == 1
    t.do(do="adjust", seat=1, what="unhappy", card="crook_02", delta=2, why="The Snitch")
    assert t.state.mobs[1].out
    assert t.state.war is None
    assert not stuck(t.state, 3)


def test_an_attack_whose_attacker_is_gone_is_off() -> None:
    """Cy's Boss attacks Ben's; an ability gives Cy's Boss his third marker before the
    roll: Cy is out, the attack is off and Ben's turn begins."""
    t = one_crook_mobs(3, first=2, starting_money=50, draw_rule="free")
    t.do(do="collect", seat=2)
    t.do(do="attack", seat=2, kind="hit", attacker="crook_03", target="crook_02")
    t.do(do="adjust", seat=2, what="unhappy", card="crook_03", delta=3, why="The Snitch")
    assert t.state.mobs[2].out
    assert t.state.attack is None and t.state.war is None
    assert t.state.turn == 1
    assert not stuck(t.state, 3)


def test_an_attack_whose_defender_goes_out_is_off() -> None:
    """Cy tries to take over Ben's Racket; while Ben names a protector, his own ability
    gives his only Crook a third marker: Ben is out, his Racket goes uncontrolled and
    the attack is off (the table waited on Ben, who had no move left)."""
    t = Table(3, starting_money=50)
    for seat in range(3):
        t.do(do="take_mob", seat=seat, card=f"mob_0{seat + 1}", stats={"boss_bonus": 1})
        t.do(do="buy", seat=seat, card=f"crook_0{seat + 1}", price=0,
             stats={"name": f"Boss {NAMES[seat]}", "power": 3, "resistance": 2})
        t.do(do="choose_boss", seat=seat, card=f"crook_0{seat + 1}")
    t.do(do="buy", seat=1, card="racket_01", price=0,
         stats={"name": "Central Casinos", "income": 1, "resistance": 1, "district": "Central"})
    t.do(do="start", first=2)
    t.do(do="collect", seat=2)
    t.do(do="attack", seat=2, kind="takeover", attacker="crook_03", target="racket_01")
    assert t.state.attack is not None and t.state.attack.stage == "protector"
    t.do(do="adjust", seat=1, what="unhappy", card="crook_02", delta=3, why="The Snitch")
    assert t.state.mobs[1].out
    assert t.state.attack is None
    assert t.state.in_center("racket_01")
    assert t.state.turn == 2
    assert not stuck(t.state, 3)


# --- the setup ------------------------------------------------------------------------


def _sold(t: Table, seat: int, card: str, name: str, power: int) -> None:
    t.do(do="buy", seat=seat, card=card, price=0,
         stats={"name": name, "power": power, "resistance": 1})


def setup_with_a_crook_who_fits_nowhere() -> Table:
    """Ann's Boss is Bro (Power 4, +1: 5); Mom (Power 6) fits under nobody. Ben's Boss
    is Judge (Power 5)."""
    t = Table(2)
    t.do(do="take_mob", seat=0, card="mob_01", stats={"boss_bonus": 1})
    t.do(do="take_mob", seat=1, card="mob_02", stats={"boss_bonus": 2})
    _sold(t, 0, "crook_01", "Mom Parker", 6)
    _sold(t, 0, "crook_02", "Bro Bronson", 4)
    _sold(t, 1, "crook_03", "Judge Cohen", 5)
    t.do(do="choose_boss", seat=0, card="crook_02")
    t.do(do="choose_boss", seat=1, card="crook_03")
    return t


def allowed(state: State, who: int | None, do: str) -> list[Any]:
    return [m for m in engine.moves(state, who) if m.do == do and m.allowed]


def test_the_setup_waits_on_the_players_who_still_have_a_step() -> None:
    """The host enters the setup, but choosing a Boss and placing Crooks are the
    players' moves: the table names them (with what each still does) beside the host."""
    t = Table(2)
    t.do(do="take_mob", seat=0, card="mob_01", stats={"boss_bonus": 1})
    _sold(t, 0, "crook_01", "Mom Parker", 6)
    _sold(t, 0, "crook_02", "Bro Bronson", 4)
    w = engine.waiting(t.state)
    assert w.host and w.seats == (0,)
    assert "Choose your Boss" in w.attention(0)["why"]
    assert not w.attention(1)["act"]
    t.do(do="choose_boss", seat=0, card="crook_01")
    w = engine.waiting(t.state)
    assert w.seats == (0,) and w.attention(0)["why"] == "Place Bro Bronson under a superior."
    assert allowed(t.state, 0, "place")
    t.do(do="place", seat=0, card="crook_02", under="crook_01")
    w = engine.waiting(t.state)
    assert w.host and w.seats == ()


def test_a_crook_who_fits_nowhere_is_dropped_in_the_setup() -> None:
    """Before: Start refused, Mom's place refused, nothing else for anyone (the record
    setup_crook_fits_nowhere). Now Ann is asked to drop her, may, and the game starts."""
    t = setup_with_a_crook_who_fits_nowhere()
    start = [m for m in engine.moves(t.state, None) if m.do == "start"]
    assert start and not start[0].allowed
    w = engine.waiting(t.state)
    assert w.seats == (0,) and "drop him to the center" in w.attention(0)["why"]
    assert "Mom Parker" in w.attention(0)["why"]
    drops = allowed(t.state, 0, "drop")
    assert [m.fixed["card"] for m in drops] == ["crook_01"]
    assert not stuck(t.state, 2)
    t.do(**drops[0].fixed, do="drop")
    assert t.state.in_center("crook_01") and t.state.mobs[0].crook("crook_01") is None
    assert engine.waiting(t.state).seats == ()
    t.do(do="start", first=0)
    assert t.state.phase == "turn"


def test_in_the_setup_only_a_crook_who_fits_nowhere_is_dropped() -> None:
    t = setup_with_a_crook_who_fits_nowhere()
    _sold(t, 0, "crook_04", "Kid", 1)
    assert [m.fixed["card"] for m in allowed(t.state, 0, "drop")] == ["crook_01"]
    for card, words in (("crook_04", "place him instead"), ("crook_02", "drop your Boss")):
        with pytest.raises(IllegalAction, match=words):
            t.do(do="drop", seat=0, card=card)
    t.do(do="place", seat=0, card="crook_04", under="crook_02")
    with pytest.raises(IllegalAction, match="has a place in your Mob"):
        t.do(do="drop", seat=0, card="crook_04")


def test_a_crook_dropped_in_the_setup_still_counts_toward_the_auction() -> None:
    """Six Crooks for two players: the one Ann dropped was sold all the same."""
    t = setup_with_a_crook_who_fits_nowhere()
    for i, card in enumerate(("crook_04", "crook_05", "crook_06")):
        _sold(t, 1, card, f"Goon {i + 1}", 1)
    t.do(do="drop", seat=0, card="crook_01")
    with pytest.raises(IllegalAction, match="sold its 6 Crooks"):
        _sold(t, 1, "crook_07", "Goon 4", 1)


def test_a_player_without_a_crook_still_gets_one() -> None:
    """"You **must** have at least one Crook!": when the auction has sold its Crooks and
    Ben has none, one more Crook is sold to him (to him only), from the deck or from the
    center; then the game starts."""
    t = Table(2)
    t.do(do="take_mob", seat=0, card="mob_01", stats={"boss_bonus": 1})
    t.do(do="take_mob", seat=1, card="mob_02", stats={"boss_bonus": 1})
    for i in range(6):
        _sold(t, 0, f"crook_0{i + 1}", f"Goon {i + 1}", 6 - i if i < 5 else 1)
    t.do(do="uncontrolled", card="crook_07", stats={"name": "Slim", "power": 2,
                                                     "resistance": 1})
    with pytest.raises(IllegalAction, match="sold its 6 Crooks"):
        _sold(t, 0, "crook_08", "Goon 7", 1)
    sales = [m for m in engine.moves(t.state, None) if m.do == "buy" and m.fixed["seat"] == 1]
    offered = {c.value for m in sales for p in m.params if p.name == "card" for c in p.choices}
    assert "crook_07" in offered
    assert any(m.fixed.get("card", "").startswith("crook_") for m in sales)
    t.do(do="buy", seat=1, card="crook_07", price=0)
    assert not t.state.in_center("crook_07") and t.state.mobs[1].crook("crook_07")
    with pytest.raises(IllegalAction, match="sold its 6 Crooks"):
        _sold(t, 1, "crook_08", "Goon 7", 1)
