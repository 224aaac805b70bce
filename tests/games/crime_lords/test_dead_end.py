"""A Mob that goes out never leaves the table waiting for it (the issue's dead end).

"If a player loses his last Crook, he is out." Out players are skipped: a Mob that goes
out on its own turn (its last Crook quits for want of pay, an ability gives him his third
marker) ends that turn, a Gang War turn passes on, an offer or a shared win that waits
for it is off, and the last Mob standing wins at once. The record
tests/records/crime_lords/out_on_own_turn.jsonl is the issue's game in short.
"""

from __future__ import annotations

from typing import Any

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
