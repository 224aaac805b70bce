"""Crime Lords before the first turn: Mobs, the auction, the Boss, the starting Mob.

Setup actions record what happened at the table: each player's Mob card, the auction
(25 G of bidding money each), the Boss, the starting Mob, the first uncontrolled cards.
``choose_boss`` and ``place`` are also used later, when a Mob lost its Boss or a Crook
his superior.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.games.base import Action, IllegalAction, get_int, get_str, require
from companion.games.crime_lords.events import (
    BossChosen,
    CardBought,
    CenterAdded,
    CrookPlaced,
    Event,
    GameStarted,
    MobTaken,
)
from companion.games.crime_lords.fold import emitter
from companion.games.crime_lords.ledger import enter, in_play, kind_of, own_crook, seat_of
from companion.games.crime_lords.mob import lieutenants, placement_problem, power, promoted
from companion.games.crime_lords.state import State
from companion.games.emit import Emitter


def setup_action(state: State, do: str, action: Action) -> list[Event]:
    require(state.phase == "setup", "The game has started: setup actions are over.")
    b = emitter(state)
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


def _take_mob(b: Emitter[State, Event], action: Action) -> None:
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
    extra = stats.get("extra_draws", 0)
    if not extra and "downtowner" in str(name).lower():
        extra = 1  # the rulebook: "The Downtowners Mob always draws one extra"
    require(isinstance(extra, int) and not isinstance(extra, bool) and 0 <= extra <= 5,
            "'extra_draws' (cards the Mob draws beyond the rule) must be 0 to 5.")
    b.emit(MobTaken(seat, card, str(name), bonus, extra))


def _buy(b: Emitter[State, Event], action: Action) -> None:
    seat = seat_of(b.state, action)
    card = get_str(action, "card")
    kind = kind_of(card)
    require(kind != "mob", "Mob cards are drawn, not auctioned: use take_mob.")
    require(not in_play(b.state, card), f"{b.state.label(card)} is already in play.")
    _auction_limit(b.state, kind)
    left = b.state.mobs[seat].auction_money
    price = get_int(action, "price", lo=0)
    require(
        price <= left,
        f"{b.state.seats[seat]} has only {left} G of bidding money left, not {price}.",
    )
    enter(b, card, kind, action)
    b.emit(CardBought(seat, card, kind, price))


def auctioned(state: State, kind: str) -> int:
    """How many Crooks or Rackets the auction has sold so far."""
    if kind == "crook":
        return sum(len(m.crooks) for m in state.mobs)
    return sum(len(m.rackets) for m in state.mobs) if kind == "racket" else 0


def auction_limit(state: State, kind: str) -> int | None:
    """How many of ``kind`` the auction sells: 3 Crooks and 2 Rackets per player."""
    per = {"crook": state.options.auction_crooks, "racket": state.options.auction_rackets}
    return per[kind] * len(state.seats) if kind in per else None


def _auction_limit(state: State, kind: str) -> None:
    most = auction_limit(state, kind)
    if most is not None and auctioned(state, kind) >= most:
        raise IllegalAction(
            f"The auction has sold its {most} {kind.title()}s: set this card aside and turn "
            "the next one."
        )


def _start(b: Emitter[State, Event], action: Action) -> None:
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


def choose_boss(state: State, action: Action) -> list[Event]:
    seat = seat_of(state, action)
    card = own_crook(state, seat, action)
    mob = state.mobs[seat]
    require(
        mob.boss is None,
        f"{state.label(mob.boss or '')} is the Boss: change Bosses by retirement or a "
        "double-cross.",
    )
    b = emitter(state)
    before = lieutenants(mob)
    b.emit(BossChosen(seat, card))
    promoted(b, seat, before)
    return b.events


def place(state: State, action: Action) -> list[Event]:
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
    b = emitter(state)
    before = lieutenants(mob)
    b.emit(CrookPlaced(seat, card, under))
    promoted(b, seat, before)
    return b.events
