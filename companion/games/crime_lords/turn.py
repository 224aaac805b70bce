"""Crime Lords' regular turn: income and pay-off, draws, free and token actions, the end.

Every function takes the state and the action and returns the events (collected with
``fold.emitter``).
"""

from __future__ import annotations

from companion.games.base import Action, get_int, get_str, require
from companion.games.crime_lords.attack import likes
from companion.games.crime_lords.events import (
    BossChosen,
    CenterAdded,
    CrookLeft,
    CrookPlaced,
    Event,
    IncomeCollected,
    MoneyChanged,
    PayOffDone,
    PowerRaised,
    RacketMoved,
    Retokened,
    SpecialDiscarded,
    SpecialDrawn,
    TokenSpent,
    TurnEnded,
)
from companion.games.crime_lords.fold import emitter
from companion.games.crime_lords.ledger import enter, in_play, kind_of, own_crook, seat_of
from companion.games.crime_lords.mob import (
    check_out,
    check_victory,
    is_lieutenant,
    orphan_cleanup,
    pay_off,
    pay_order,
    placement_problem,
    power,
    promotion_markers,
    release_rackets,
    unhappy,
)
from companion.games.crime_lords.state import State, Step
from companion.games.emit import Emitter


def on_turn(state: State, action: Action, step: Step | None = "actions") -> int:
    """The acting seat, which must be the seat on turn (in ``step``, when given)."""
    seat = seat_of(state, action)
    require(state.war is None, "A Gang War is on: only war Hits and passes until it ends.")
    require(
        seat == state.turn,
        f"It is {state.seats[state.turn]}'s turn, not {state.seats[seat]}'s.",
    )
    if step == "actions":
        require(
            state.step == "actions",
            f"{state.seats[seat]} must first collect income and pay off the gang (collect).",
        )
    require(state.attack is None, "Finish the attack in progress first (roll or withdraw).")
    return seat


def income(state: State, seat: int) -> int:
    return sum(state.card(h.card).income for h in state.mobs[seat].rackets)


def collect(state: State, action: Action) -> list[Event]:
    """Steps 1 and 2: income from every Racket, then pay every Crook, the Boss first."""
    seat = on_turn(state, action, None)
    require(state.step == "collect", "You already collected income this turn.")
    mob = state.mobs[seat]
    require(mob.boss is not None, "Choose a new Boss first (choose_boss).")
    asked = action.get("pay_order") or []
    require(
        isinstance(asked, list | tuple) and all(isinstance(c, str) for c in asked),
        "'pay_order' must be a list of your Crooks' card ids.",
    )
    order = pay_order(state, seat, tuple(asked))
    b = emitter(state)
    promotion_markers(b, seat)
    b.emit(IncomeCollected(seat, income(b.state, seat)))
    pay_off(b, seat, [c for c in order if b.state.mobs[seat].crook(c) is not None])
    b.emit(PayOffDone(seat))
    check_out(b, seat, None)
    return b.events


def draw(state: State, action: Action) -> list[Event]:
    """Step 3: a Crook or Racket goes to the center; a Special to the player's hand."""
    seat = on_turn(state, action)
    card = get_str(action, "card")
    kind = kind_of(card)
    require(kind != "mob", "Mob cards are not in the deck.")
    require(not in_play(state, card), f"{state.label(card)} is already in play.")
    b = emitter(state)
    if kind == "special":
        b.emit(SpecialDrawn(seat, card))
    else:
        enter(b, card, kind, action)
        b.emit(CenterAdded(card))
    return b.events


def end_turn(state: State, action: Action) -> list[Event]:
    """Step 5: retoken every card of the seat; then check who controls the city."""
    seat = on_turn(state, action)
    b = emitter(state)
    _end(b, seat)
    return b.events


def _end(b: Emitter[State, Event], seat: int) -> None:
    for other in range(len(b.state.seats)):
        orphan_cleanup(b, other)
    b.emit(Retokened(seat, True))
    b.emit(TurnEnded(seat, b.state.next_seat(seat)))
    check_victory(b)


def pass_turn(state: State, action: Action) -> list[Event]:
    """No action of any sort this turn: collect the pass bonus (10 G) and end the turn."""
    seat = on_turn(state, action)
    require(not state.acted, "You already took an action this turn: end your turn instead.")
    b = emitter(state)
    b.emit(MoneyChanged(seat, state.options.pass_bonus, "passed"))
    _end(b, seat)
    return b.events


def move(state: State, action: Action) -> list[Event]:
    """Move a placed Crook (with everyone under him) to a new superior: his Action."""
    seat = on_turn(state, action)
    card = own_crook(state, seat, action)
    mob = state.mobs[seat]
    crook = mob.crook(card)
    assert crook is not None
    require(card != mob.boss, "The Boss does not move.")
    require(crook.token, f"{state.label(card)} has no Action Token left this turn.")
    under = get_str(action, "under")
    require(under != crook.superior, f"{state.label(card)} is already there.")
    require(under not in mob.below(card), "A Crook cannot move under his own subordinates.")
    problem = placement_problem(state, seat, power(state, seat, card), under)
    require(problem is None, problem or "")
    b = emitter(state)
    was_lt = is_lieutenant(mob, card)
    b.emit(TokenSpent(seat, card, "moved"), CrookPlaced(seat, card, under))
    now_lt = is_lieutenant(b.state.mobs[seat], card)
    if was_lt and not now_lt:
        unhappy(b, seat, card, 1, "demoted from Lieutenant", "discard")
    elif now_lt and not was_lt:
        unhappy(b, seat, card, -1, "became a Lieutenant", "discard")
    return b.events


def drop(state: State, action: Action) -> list[Event]:
    """Free action: a Crook and everyone under him go back to the uncontrolled area."""
    seat = on_turn(state, action)
    card = own_crook(state, seat, action)
    mob = state.mobs[seat]
    require(card != mob.boss, "You cannot drop your Boss.")
    b = emitter(state)
    for gone in (*reversed(mob.below(card)), card):
        b.emit(CrookLeft(seat, gone, "center", "dropped"))
    return b.events


def visit(state: State, action: Action) -> list[Event]:
    """A Crook spends his Action visiting a Racket of his Weakness: one marker less."""
    seat = on_turn(state, action)
    card = own_crook(state, seat, action)
    crook = state.mobs[seat].crook(card)
    assert crook is not None
    racket = get_str(action, "racket")
    require(any(h.card == racket for h in state.mobs[seat].rackets),
            f"{state.label(racket)} is not one of your Rackets.")
    require(likes(state.card(card).weakness, state.card(racket).type),
            f"{state.label(racket)} does not match {state.label(card)}'s Weakness.")
    require(crook.token, f"{state.label(card)} has no Action Token left this turn.")
    require(crook.unhappy > 0, f"{state.label(card)} is not Unhappy.")
    b = emitter(state)
    b.emit(TokenSpent(seat, card, f"visited {state.label(racket)}"))
    unhappy(b, seat, card, -1, f"visited {state.label(racket)}", "discard")
    return b.events


def retire_boss(state: State, action: Action) -> list[Event]:
    """Retirement: a Lieutenant spends his Action, the Boss is paid twice his Power and
    discarded, and the Lieutenant becomes Boss. Nobody gets a marker."""
    seat = on_turn(state, action)
    card = own_crook(state, seat, action)
    mob = state.mobs[seat]
    require(is_lieutenant(mob, card), f"{state.label(card)} is not a Lieutenant.")
    crook = mob.crook(card)
    assert crook is not None and mob.boss is not None
    require(crook.token, f"{state.label(card)} has no Action Token left this turn.")
    price = 2 * power(state, seat, mob.boss)
    require(mob.money >= price, f"The going-away present is {price} G: you do not have it.")
    b = emitter(state)
    b.emit(TokenSpent(seat, card, "retirement"), MoneyChanged(seat, -price, "retirement"))
    b.emit(CrookLeft(seat, mob.boss, "discard", "retired"), BossChosen(seat, card))
    return b.events


def give(state: State, action: Action) -> list[Event]:
    """Free: money, a Racket or a Special to another player (never during an attack)."""
    seat = seat_of(state, action)
    require(state.attack is None, "No gifts or trades while an attack is in progress.")
    require(state.phase == "turn", "Gifts are made during the game.")
    to = seat_of(state, action, "to")
    require(to != seat, "Give to another player.")
    b = emitter(state)
    if "money" in action:
        amount = get_int(action, "money", lo=1)
        require(amount <= state.mobs[seat].money, "You do not have that much money.")
        b.emit(MoneyChanged(seat, -amount, "gift"), MoneyChanged(to, amount, "gift"))
        return b.events
    card = get_str(action, "card")
    if kind_of(card) == "racket":
        require(state.owner(card) == seat, f"{state.label(card)} is not yours to give.")
        b.emit(RacketMoved(seat, to, card))
    else:
        require(card in state.mobs[seat].specials, f"{card} is not one of your Specials.")
        b.emit(SpecialDiscarded(seat, card), SpecialDrawn(to, card))
    return b.events


def play_special(state: State, action: Action) -> list[Event]:
    seat = seat_of(state, action)
    card = get_str(action, "card")
    require(card in state.mobs[seat].specials, f"{card} is not one of your Specials.")
    return [SpecialDiscarded(seat, card)]


ADJUSTABLE = ("money", "unhappy", "power", "token")


def adjust(state: State, action: Action) -> list[Event]:
    """What a Special or a special ability does to money, markers, Power or tokens."""
    seat = seat_of(state, action)
    what = get_str(action, "what", ADJUSTABLE)
    why = get_str(action, "why")
    require(bool(why.strip()), "Say why ('why'): the card or ability that does this.")
    delta = get_int(action, "delta", lo=-100, hi=100)
    b = emitter(state)
    if what == "money":
        require(state.mobs[seat].money + delta >= 0, "Money cannot go below 0.")
        b.emit(MoneyChanged(seat, delta, why))
        return b.events
    card = own_crook(state, seat, action)
    if what == "unhappy":
        unhappy(b, seat, card, delta, why, "discard")
    elif what == "power":
        require(delta > 0, "Power markers only go up ('delta' above 0).")
        b.emit(PowerRaised(seat, card, delta))
    else:
        b.emit(TokenSpent(seat, card, why))
    return b.events


def claim(state: State, action: Action) -> list[Event]:
    """The player who wiped out a Mob takes one of its Rackets, one more per Action Token
    spent now; the rest go to the uncontrolled area."""
    seat = seat_of(state, action)
    gone = get_int(action, "from", lo=0, hi=len(state.seats) - 1)
    mob = state.mobs[gone]
    require(mob.out and mob.wiped_by == seat and bool(mob.rackets),
            f"{state.seats[seat]} has no Rackets of {state.seats[gone]}'s Mob to claim.")
    rackets, tokens = action.get("rackets"), action.get("tokens") or []
    owned = {h.card for h in mob.rackets}
    require(isinstance(rackets, list) and set(rackets) <= owned and len(set(rackets)) ==
            len(rackets), "'rackets' must list Rackets of the wiped-out Mob.")
    require(isinstance(tokens, list), "'tokens' must list your cards that spend a token.")
    assert isinstance(rackets, list) and isinstance(tokens, list)
    require(len(rackets) <= 1 + len(tokens),
            "One Racket is free; each more needs an Action Token spent ('tokens').")
    b = emitter(state)
    mine = state.mobs[seat]
    for card in tokens:
        crook = mine.crook(card)
        holding = next((h for h in mine.rackets if h.card == card), None)
        require(bool(crook.token if crook else holding and holding.token),
                f"{state.label(card)} has no Action Token to spend.")
        b.emit(TokenSpent(seat, card, "claiming a Racket"))
    for card in rackets:
        b.emit(RacketMoved(gone, seat, card))
    release_rackets(b, gone)
    return b.events
