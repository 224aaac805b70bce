"""Crime Lords before the first turn: Mobs, the auction, the Boss, the starting Mob.

Setup actions record what happened at the table: each player's Mob card, the auction
(25 G of bidding money each), the Boss, the starting Mob, the first uncontrolled cards.
``choose_boss`` and ``place`` are also used later, when a Mob lost its Boss or a Crook
his superior.
"""

from __future__ import annotations

from companion.games.base import IllegalAction, require
from companion.games.crime_lords.actions import (
    Buy,
    ChooseBoss,
    LoadDeck,
    Place,
    Start,
    Stats,
    TakeMob,
    Uncontrolled,
)
from companion.games.crime_lords.events import (
    BossChosen,
    CardBought,
    CenterAdded,
    CrookPlaced,
    DeckLoaded,
    Event,
    GameStarted,
    MobTaken,
)
from companion.games.crime_lords.fold import emitter
from companion.games.crime_lords.ledger import (
    NEEDED,
    enter,
    in_play,
    in_play_reason,
    kind_of,
    own_crook,
    seat_of,
    slot,
    stats_problem,
)
from companion.games.crime_lords.legality import require_ok
from companion.games.crime_lords.mob import lieutenants, placement_problem, power, promoted
from companion.games.crime_lords.state import State


def _in_setup(state: State) -> None:
    require(state.phase == "setup", "The game has started: setup actions are over.")


def load_deck(state: State, action: LoadDeck, now: float) -> list[Event]:
    """The stats the table's deck holds, for the cards not entered in this game yet.

    A card whose stats lack what the rules need first (a Crook's Power...) or name no
    district of the city is left out: it is asked for (with the pick-lists) when it comes
    into play. Nothing new: no event."""
    cards: dict[str, dict[str, object]] = {}
    for entry in action.cards:
        kind = kind_of(entry.card)
        stats = entry.stats.as_dict()
        if stats_problem(entry.stats) or any(
                stats.get(key) is None for key, _ in NEEDED.get(kind, ())):
            continue
        if not state.known(entry.card) and state.registered_stats(entry.card) != stats:
            cards[entry.card] = stats
    return [DeckLoaded(cards)] if cards else []


def uncontrolled(state: State, action: Uncontrolled, now: float) -> list[Event]:
    """The events of ``Uncontrolled`` (its docstring says what it is)."""
    _in_setup(state)
    card = action.card
    kind = kind_of(card)
    require(kind in ("crook", "racket"), "Only Crooks and Rackets lie in the center.")
    require_ok(in_play_reason(state, card))
    b = emitter(state)
    enter(b, card, kind, action.stats)
    b.emit(CenterAdded(card))
    return b.events


def take_mob(state: State, action: TakeMob, now: float) -> list[Event]:
    """A player's Mob card: its name, Boss token bonus and extra draws."""
    _in_setup(state)
    seat = seat_of(state, action.seat)
    card = action.card
    require(kind_of(card) == "mob", f"{slot(card)} is not a Mob card.")
    require(state.mobs[seat].mob_card is None, f"{state.seats[seat]} already runs a Mob.")
    require(not in_play(state, card), "Another player already runs that Mob.")
    stats = action.stats
    if stats is None and state.registered_stats(card):
        stats = Stats(**state.registered_stats(card) or {})
    bonus = stats.boss_bonus if stats is not None and stats.boss_bonus is not None else 0
    name = stats.name if stats is not None and stats.name is not None else card
    extra = stats.extra_draws if stats is not None and stats.extra_draws else 0
    if not extra and "downtowner" in name.lower():
        extra = 1  # the rulebook: "The Downtowners Mob always draws one extra"
    return [MobTaken(seat, card, name, bonus, extra)]


def buy(state: State, action: Buy, now: float) -> list[Event]:
    """A card won in the auction, paid with bidding money."""
    _in_setup(state)
    seat = seat_of(state, action.seat)
    card = action.card
    kind = kind_of(card)
    require(kind != "mob", "Mob cards are drawn, not auctioned.")
    rescue = kind == "crook" and crookless(state, seat)
    if not (rescue and state.in_center(card)):
        require_ok(in_play_reason(state, card))
    if not rescue:
        _auction_limit(state, kind)
    left = state.mobs[seat].auction_money
    price = action.price
    require(
        price <= left,
        f"{state.seats[seat]} has only {left} G of bidding money left, not {price}.",
    )
    b = emitter(state)
    enter(b, card, kind, action.stats)
    b.emit(CardBought(seat, card, kind, price))
    return b.events


def crookless(state: State, seat: int) -> bool:
    """A player still without a Crook ("you **must** have at least one Crook!"): the
    auction's Crook limit does not stop a sale to him, and a Crook turned up in the
    center may still be sold to him (docs/rules/crime_lords.md, Setup)."""
    return state.phase == "setup" and not state.mobs[seat].crooks


def auctioned(state: State, kind: str) -> int:
    """How many Crooks or Rackets the auction has sold so far."""
    if kind == "crook":
        return sum(len(m.crooks) for m in state.mobs) + state.dropped_in_setup
    return sum(len(m.rackets) for m in state.mobs) if kind == "racket" else 0


def auction_limit(state: State, kind: str) -> int | None:
    """How many of ``kind`` the auction sells: 3 Crooks and 2 Rackets per player."""
    per = {"crook": state.options.auction_crooks, "racket": state.options.auction_rackets}
    most = per.get(kind)
    return None if most is None else most * len(state.seats)


def _auction_limit(state: State, kind: str) -> None:
    most = auction_limit(state, kind)
    if most is not None and auctioned(state, kind) >= most:
        raise IllegalAction(
            f"The auction has sold its {most} {kind.title()}s: set this card aside and turn "
            "the next one."
        )


def start_game(state: State, action: Start, now: float) -> list[Event]:
    """Every Mob has a Boss and its Crooks placed: the first turn begins."""
    _in_setup(state)
    first = seat_of(state, action.first)
    problem = start_problem(state)
    require(problem is None, problem or "")
    return [GameStarted(first, state.options.starting_money)]


def start_problem(state: State) -> str | None:
    """What keeps the game from starting (a Mob without Crooks, Boss or places), or None."""
    for seat, mob in enumerate(state.mobs):
        who = state.seats[seat]
        if not mob.crooks:
            return f"{who} must have at least one Crook to start."
        if mob.boss is None:
            return f"{who} has to choose a Boss first."
        loose = [c.card for c in mob.crooks if c.superior is None and c.card != mob.boss]
        if loose:
            return (f"{who} must place {', '.join(state.label(c) for c in loose)} under a "
                    "superior first.")
    return None


def choose_boss(state: State, action: ChooseBoss, now: float) -> list[Event]:
    """The events of ``ChooseBoss`` (its docstring says what it is)."""
    seat = seat_of(state, action.seat)
    card = own_crook(state, seat, action.card)
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


def place(state: State, action: Place, now: float) -> list[Event]:
    """Put an unplaced Crook (new, or whose superior is gone) under a superior: free."""
    seat = seat_of(state, action.seat)
    card = own_crook(state, seat, action.card)
    mob = state.mobs[seat]
    crook = mob.crook(card)
    assert crook is not None
    require(card != mob.boss, "The Boss has no superior.")
    require(
        state.phase == "setup" or crook.superior is None,
        f"{state.label(card)} already has a place: moving him costs his Action.",
    )
    under = action.under
    require(under != card and under not in mob.below(card),
            "A Crook cannot be placed under himself or his own subordinates.")
    problem = placement_problem(state, seat, power(state, seat, card), under)
    require(problem is None, problem or "")
    b = emitter(state)
    before = lieutenants(mob)
    b.emit(CrookPlaced(seat, card, under))
    promoted(b, seat, before)
    return b.events
