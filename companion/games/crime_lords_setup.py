"""Crime Lords before the first turn and the ledger's shared helpers: cards, seats, Crooks.

Setup actions record what happened at the table: each player's Mob card, the auction
(25 G of bidding money each), the Boss, the starting Mob, the first uncontrolled cards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import Action, IllegalAction, get_int, get_str, require
from companion.games.cards import catalog
from companion.games.crime_lords_events import (
    BossChosen,
    CardBought,
    CardEntered,
    CenterAdded,
    CrookPlaced,
    GameStarted,
    MobTaken,
)
from companion.games.crime_lords_rules import Builder, placement_problem, power
from companion.games.crime_lords_state import State


def seat_of(state: State, action: Action, key: str = "seat") -> int:
    seat = get_int(action, key, lo=0, hi=len(state.seats) - 1)
    require(not state.mobs[seat].out, f"{state.seats[seat]} is out of the game.")
    return seat


def kind_of(card: str) -> str:
    """The catalog kind of a card id (mob, crook, racket, special)."""
    try:
        return catalog("crime_lords").by_id(card).kind
    except KeyError:
        raise IllegalAction(
            f"There is no Crime Lords card {card!r}: cards are mob_01..08, crook_01..36, "
            "racket_01..52 and special_01..16."
        ) from None


def in_play(state: State, card: str) -> bool:
    return (
        state.owner(card) is not None
        or state.in_center(card)
        or card in state.discard
        or any(card in m.specials or card == m.mob_card for m in state.mobs)
    )


def enter(b: Builder, card: str, kind: str, action: Action) -> None:
    """Register a Crook's or Racket's stats the first time the card comes into play."""
    if b.state.known(card) or kind not in ("crook", "racket"):
        return
    stats = action.get("stats")
    require(
        isinstance(stats, Mapping),
        f"{card} comes into play for the first time: send its stats, e.g. "
        + ('{"power": 4, "resistance": 2}' if kind == "crook" else
           '{"income": 3, "resistance": 4, "district": "north side"}'),
    )
    assert isinstance(stats, Mapping)
    need = ("power", "resistance") if kind == "crook" else ("income", "resistance")
    for key in need:
        value = stats.get(key)
        require(
            isinstance(value, int) and not isinstance(value, bool) and value >= 0,
            f"The stats of {card} need '{key}' as a whole number (read it off the card).",
        )
    b.emit(CardEntered(card, kind, dict(stats)))


def own_crook(state: State, seat: int, action: Action, key: str = "card") -> str:
    card = get_str(action, key)
    require(
        state.mobs[seat].crook(card) is not None,
        f"{state.label(card)} is not a Crook in {state.seats[seat]}'s Mob.",
    )
    return card


def setup_action(state: State, do: str, action: Action) -> list[Any]:
    require(state.phase == "setup", "The game has started: setup actions are over.")
    b = Builder(state)
    if do == "take_mob":
        _take_mob(b, action)
    elif do == "buy":
        _buy(b, action)
    elif do == "uncontrolled":
        card = get_str(action, "card")
        kind = kind_of(card)
        require(kind in ("crook", "racket"), "Only Crooks and Rackets lie in the center.")
        require(not in_play(state, card), f"{state.label(card)} is already in play.")
        enter(b, card, kind, action)
        b.emit(CenterAdded(card))
    else:
        _start(b, action)
    return b.events


def _take_mob(b: Builder, action: Action) -> None:
    seat = seat_of(b.state, action)
    card = get_str(action, "card")
    require(kind_of(card) == "mob", f"{card} is not a Mob card.")
    require(b.state.mobs[seat].mob_card is None, "You already run a Mob.")
    require(not in_play(b.state, card), "Another player already runs that Mob.")
    stats = action.get("stats") or {}
    require(isinstance(stats, Mapping), "'stats' must be an object like {\"boss_bonus\": 3}.")
    bonus = stats.get("boss_bonus", 0)
    require(
        isinstance(bonus, int) and not isinstance(bonus, bool) and bonus >= 0,
        "'boss_bonus' (the Power on the Mob's Boss token) must be a whole number.",
    )
    name = stats.get("name") if isinstance(stats.get("name"), str) else card
    b.emit(MobTaken(seat, card, str(name), bonus))


def _buy(b: Builder, action: Action) -> None:
    seat = seat_of(b.state, action)
    card = get_str(action, "card")
    kind = kind_of(card)
    require(kind != "mob", "Mob cards are drawn, not auctioned: use take_mob.")
    require(not in_play(b.state, card), f"{b.state.label(card)} is already in play.")
    left = b.state.mobs[seat].auction_money
    price = get_int(action, "price", lo=0)
    require(
        price <= left,
        f"{b.state.seats[seat]} has only {left} G of bidding money left, not {price}.",
    )
    enter(b, card, kind, action)
    b.emit(CardBought(seat, card, kind, price))


def _start(b: Builder, action: Action) -> None:
    first = seat_of(b.state, action, "first")
    for seat, mob in enumerate(b.state.mobs):
        who = b.state.seats[seat]
        require(bool(mob.crooks), f"{who} must have at least one Crook to start.")
        require(mob.boss is not None, f"{who} has to choose a Boss (choose_boss) first.")
        loose = [c.card for c in mob.crooks if c.superior is None and c.card != mob.boss]
        require(
            not loose,
            f"{who} must place {', '.join(b.state.label(c) for c in loose)} under a superior "
            "(place) first.",
        )
    b.emit(GameStarted(first, b.state.options.starting_money))


def choose_boss(state: State, action: Action) -> list[Any]:
    seat = seat_of(state, action)
    card = own_crook(state, seat, action)
    mob = state.mobs[seat]
    require(
        mob.boss is None,
        f"{state.label(mob.boss or '')} is the Boss: change Bosses by retirement or a "
        "double-cross.",
    )
    return [BossChosen(seat, card)]


def place(state: State, action: Action) -> list[Any]:
    """Put an unplaced Crook (new, or whose superior is gone) under a superior: free."""
    seat = seat_of(state, action)
    card = own_crook(state, seat, action)
    mob = state.mobs[seat]
    crook = mob.crook(card)
    assert crook is not None
    require(card != mob.boss, "The Boss has no superior.")
    require(
        state.phase == "setup" or crook.superior is None,
        f"{state.label(card)} already has a place: moving him costs his Action (move).",
    )
    under = get_str(action, "under")
    require(under != card and under not in mob.below(card),
            "A Crook cannot be placed under himself or his own subordinates.")
    problem = placement_problem(state, seat, power(state, seat, card), under)
    require(problem is None, problem or "")
    return [CrookPlaced(seat, card, under)]
