"""Passing for the bonus (issue 25): only what the seat whose turn it is does counts.

The rulebook: "A player may elect to take NO actions (not even free actions or special
actions) and collect an extra 10 Gs." Another player's Special, leaving the game, or an
any-time ability on their own Crook during your turn is not your action.
"""

from __future__ import annotations

import pytest

from companion.games.base import IllegalAction
from tests.games.crime_lords.helpers import ANITA, BRO, JUDGE, MOM, SHYSTER, Table


def three_mobs() -> Table:
    """Ann (Mom over Bro), Ben (Judge over Shyster, a Special), Cy (Anita); Ann's turn,
    income collected."""
    t = Table(3)
    for seat, mob in enumerate(("mob_01", "mob_02", "mob_03")):
        t.do(do="take_mob", seat=seat, card=mob, stats={"boss_bonus": 2})
    for seat, card, stats in ((0, "crook_01", MOM), (0, "crook_02", BRO),
                              (1, "crook_03", JUDGE), (1, "crook_04", SHYSTER),
                              (2, "crook_05", ANITA)):
        t.do(do="buy", seat=seat, card=card, price=0, stats=stats)
    t.do(do="buy", seat=1, card="special_01", price=0)
    for seat, boss in ((0, "crook_01"), (1, "crook_03"), (2, "crook_05")):
        t.do(do="choose_boss", seat=seat, card=boss)
    t.do(do="place", seat=0, card="crook_02", under="crook_01")
    t.do(do="place", seat=1, card="crook_04", under="crook_03")
    t.do(do="start", first=0)
    t.do(do="collect", seat=0)
    return t


@pytest.mark.parametrize("other", [
    {"do": "play_special", "seat": 1, "card": "special_01"},
    {"do": "leave", "seat": 2},
    {"do": "adjust", "seat": 1, "what": "unhappy", "card": "crook_04", "delta": 1,
     "why": "his own ability"},
    {"do": "adjust", "seat": 2, "what": "money", "delta": 3, "why": "a Special"},
    {"do": "give", "seat": 1, "to": 2, "money": 5},
], ids=["special", "leave", "ability", "money", "gift"])
def test_another_players_action_does_not_cost_the_pass_bonus(other: dict[str, object]) -> None:
    t = three_mobs()
    money = t.money(0)
    t.do(**other)
    t.do(do="pass_turn", seat=0)
    assert t.money(0) == money + 10
    assert t.state.turn != 0


def test_the_players_own_free_action_costs_the_pass_bonus() -> None:
    t = three_mobs()
    t.do(do="adjust", seat=0, what="money", delta=1, why="an ability")
    with pytest.raises(IllegalAction, match="already took an action"):
        t.do(do="pass_turn", seat=0)
