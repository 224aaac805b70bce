"""Crime Lords' regular turn: income and pay-off, draws, free and token actions, the end.

Every function takes the state and the action and returns the events (collected with
``fold.emitter``).
"""

from __future__ import annotations

from companion.games.base import require
from companion.games.crime_lords.actions import (
    AcceptCrook,
    Adjust,
    CardStatsEntered,
    Claim,
    Collect,
    DeckEmpty,
    Draw,
    Drop,
    EndTurn,
    Give,
    Leave,
    MoveCrook,
    PassTurn,
    PlaySpecial,
    RefuseCrook,
    RetireBoss,
    Share,
    Visit,
)
from companion.games.crime_lords.attack import likes
from companion.games.crime_lords.events import (
    AttackWithdrawn,
    BossChosen,
    CardDrawn,
    CenterAdded,
    CrookLeft,
    CrookMoved,
    CrookOffered,
    CrookPlaced,
    DeckEmptied,
    Event,
    GameWon,
    GangWarEnded,
    Given,
    IncomeCollected,
    MoneyChanged,
    OfferClosed,
    PayOffDone,
    PlayerLeft,
    PlayerOut,
    PowerRaised,
    RacketMoved,
    Retokened,
    ShareAnswered,
    SpecialDiscarded,
    SpecialDrawn,
    StatsAsked,
    TokenSpent,
    TurnEnded,
    WarTurnPassed,
)
from companion.games.crime_lords.fold import emitter
from companion.games.crime_lords.ledger import (
    enter,
    in_play_reason,
    kind_of,
    own_crook,
    seat_of,
)
from companion.games.crime_lords.legality import (
    attack_reason,
    boss_reason,
    collect_reason,
    drawn_all_reason,
    draws_reason,
    drop_reason,
    leave_reason,
    money_reason,
    offer_reason,
    offered_reason,
    pass_reason,
    pending_reason,
    player_reason,
    require_ok,
    retire_reason,
    share_reason,
    special_reason,
    token_reason,
    turn_reason,
)
from companion.games.crime_lords.mob import (
    check_out,
    check_victory,
    is_lieutenant,
    lieutenants,
    orphan_cleanup,
    own_power,
    pay_off,
    pay_order,
    placed,
    placement_problem,
    power,
    promoted,
    promotion_markers,
    racket_score,
    release_rackets,
    unhappy,
)
from companion.games.crime_lords.state import State, Step, is_card_kind
from companion.games.emit import Emitter


def on_turn(state: State, sender: int | None, step: Step | None = "actions",
            drawn: bool = True) -> int:
    """The acting seat, which must be the seat on turn (in ``step``, when given); with
    ``drawn``, the turn's draws must be done."""
    seat = seat_of(state, sender)
    require(state.war is None, "A Gang War is on: only war Hits and passes until it ends.")
    require_ok(turn_reason(state, seat))
    if step == "actions":
        require_ok(collect_reason(state))
    require_ok(attack_reason(state))
    require_ok(pending_reason(state))
    if drawn:
        require_ok(draws_reason(state))
    return seat




def income(state: State, seat: int) -> int:
    return sum(state.card(h.card).income for h in state.mobs[seat].rackets)


def collect(state: State, action: Collect, now: float) -> list[Event]:
    """Steps 1 and 2: income from every Racket, then pay every Crook, the Boss first."""
    seat = on_turn(state, action.seat, None, drawn=False)
    require(state.step == "collect", "You already collected income this turn.")
    require_ok(share_reason(state))
    require_ok(boss_reason(state, seat))
    order = pay_order(state, seat, action.pay_order or ())
    b = emitter(state)
    promotion_markers(b, seat)
    b.emit(IncomeCollected(seat, income(b.state, seat)))
    pay_off(b, seat, [c for c in order if b.state.mobs[seat].crook(c) is not None])
    b.emit(PayOffDone(seat))
    check_out(b, seat, None)
    return b.events


def draw(state: State, action: Draw, now: float) -> list[Event]:
    """Step 3: a Crook or Racket goes to the center; a Special to the player's hand. A
    Crook or Racket seen for the first time waits for its stats (``stats``)."""
    seat = on_turn(state, action.seat, drawn=False)
    card = action.card
    kind = kind_of(card)
    require(kind != "mob", "Mob cards are not in the deck.")
    require_ok(in_play_reason(state, card))
    require_ok(drawn_all_reason(state))
    b = emitter(state)
    if kind == "special":
        b.emit(SpecialDrawn(seat, card), CardDrawn(seat, card))
    elif is_card_kind(kind) and not state.ready(card) and action.stats is None:
        b.emit(StatsAsked(seat, card, kind))
    else:
        enter(b, card, kind, action.stats)
        b.emit(CenterAdded(card), CardDrawn(seat, card))
    return b.events


def card_stats(state: State, action: CardStatsEntered, now: float) -> list[Event]:
    """The printed stats of the card just drawn: it goes to the center."""
    require(state.pending is not None, "No drawn card is waiting for its stats.")
    assert state.pending is not None
    seat, card, kind = state.pending
    require(seat_of(state, action.seat) == seat,
            f"{state.seats[seat]} drew that card: the stats come from that phone or the host.")
    require(action.card == card,
            f"The card waiting for its stats is {state.label(card)}.")
    b = emitter(state)
    enter(b, card, kind, action.stats)
    b.emit(CenterAdded(card), CardDrawn(seat, card))
    return b.events


def deck_empty(state: State, action: DeckEmpty, now: float) -> list[Event]:
    """The deck is used up: no more draws are owed (the discards are not reshuffled)."""
    seat = on_turn(state, action.seat, drawn=False)
    require(not state.deck_empty, "The deck is already marked as used up.")
    return [DeckEmptied(seat)]


def end_turn(state: State, action: EndTurn, now: float) -> list[Event]:
    """Step 5: retoken every card of the seat; then check who controls the city."""
    seat = on_turn(state, action.seat)
    require_ok(offer_reason(state))
    b = emitter(state)
    _end(b, seat)
    return b.events


def _end(b: Emitter[State, Event], seat: int) -> None:
    for other in range(len(b.state.seats)):
        orphan_cleanup(b, other)
    b.emit(Retokened(seat, True))
    b.emit(TurnEnded(seat, b.state.next_seat(seat)))
    check_victory(b)


def pass_turn(state: State, action: PassTurn, now: float) -> list[Event]:
    """No action of any sort this turn: collect the pass bonus (10 G) and end the turn."""
    seat = on_turn(state, action.seat)
    require_ok(pass_reason(state))
    b = emitter(state)
    b.emit(MoneyChanged(seat, state.options.pass_bonus, "passed"))
    _end(b, seat)
    return b.events


def move(state: State, action: MoveCrook, now: float) -> list[Event]:
    """Move a placed Crook (with everyone under him) to a new superior: his Action."""
    seat = on_turn(state, action.seat)
    card = own_crook(state, seat, action.card)
    mob = state.mobs[seat]
    crook = mob.crook(card)
    assert crook is not None
    require(card != mob.boss, "The Boss does not move.")
    require_ok(token_reason(state, card, crook.token))
    under = action.under
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


def drop(state: State, action: Drop, now: float) -> list[Event]:
    """Free action: a Crook and everyone under him go back to the uncontrolled area."""
    if state.phase == "setup":  # a Crook sold at the auction who fits under nobody
        seat = seat_of(state, action.seat)
    else:
        seat = on_turn(state, action.seat)
    card = own_crook(state, seat, action.card)
    mob = state.mobs[seat]
    require_ok(drop_reason(state, seat, card))
    b = emitter(state)
    for gone in (*reversed(mob.below(card)), card):
        b.emit(CrookLeft(seat, gone, "center", "dropped"))
    return b.events


def visit(state: State, action: Visit, now: float) -> list[Event]:
    """The events of ``Visit`` (its docstring says what it is)."""
    seat = on_turn(state, action.seat)
    card = own_crook(state, seat, action.card)
    crook = state.mobs[seat].crook(card)
    assert crook is not None
    racket = action.racket
    require(any(h.card == racket for h in state.mobs[seat].rackets),
            f"{state.label(racket)} is not one of your Rackets.")
    require(likes(state.card(card).weakness, state.card(racket).type),
            f"{state.label(racket)} does not match {state.label(card)}'s Weakness.")
    require_ok(token_reason(state, card, crook.token))
    require(crook.unhappy > 0, f"{state.label(card)} is not Unhappy.")
    b = emitter(state)
    b.emit(TokenSpent(seat, card, f"visited {state.label(racket)}"))
    unhappy(b, seat, card, -1, f"visited {state.label(racket)}", "discard")
    return b.events


def retire_boss(state: State, action: RetireBoss, now: float) -> list[Event]:
    """Retirement: a Lieutenant spends his Action, the Boss is paid twice his Power and
    discarded, and the Lieutenant becomes Boss. Nobody gets a marker."""
    seat = on_turn(state, action.seat)
    card = own_crook(state, seat, action.card)
    mob = state.mobs[seat]
    require(is_lieutenant(mob, card), f"{state.label(card)} is not a Lieutenant.")
    crook = mob.crook(card)
    assert crook is not None and mob.boss is not None
    require_ok(token_reason(state, card, crook.token))
    price = 2 * power(state, seat, mob.boss)
    require_ok(retire_reason(state, seat, price))
    b = emitter(state)
    before = lieutenants(mob)
    b.emit(TokenSpent(seat, card, "retirement"), MoneyChanged(seat, -price, "retirement"))
    b.emit(CrookLeft(seat, mob.boss, "discard", "retired"), BossChosen(seat, card))
    promoted(b, seat, before)
    return b.events


def give(state: State, action: Give, now: float) -> list[Event]:
    """Free: money, a Racket or a Special to another player (never during an attack); a
    Crook is offered, on the giver's or the receiver's turn, and joins when accepted."""
    seat = seat_of(state, action.seat)
    require(state.attack is None, "No gifts or trades while an attack is in progress.")
    require(state.phase == "turn", "Gifts are made during the game.")
    require_ok(offer_reason(state))
    to = seat_of(state, action.to)
    require(to != seat, "Give to another player.")
    if action.money is not None:
        amount = action.money
        require_ok(money_reason(state, seat, amount))
        return [Given(seat, to, money=amount)]
    card = action.card
    require(card is not None, "Choose the money or the card to give.")
    assert card is not None
    kind = kind_of(card)
    if kind == "crook":
        return _offer_crook(state, seat, to, card)
    if kind == "racket":
        require(state.owner(card) == seat, f"{state.label(card)} is not yours to give.")
    else:
        require_ok(special_reason(state, seat, card))
    return [Given(seat, to, card=card)]


def _offer_crook(state: State, seat: int, to: int, card: str) -> list[Event]:
    mob = state.mobs[seat]
    crook = mob.crook(card)
    require(crook is not None, f"{state.label(card)} is not a Crook in your Mob.")
    assert crook is not None
    require(state.war is None, "Crooks are not given away during a Gang War.")
    require(state.turn in (seat, to),
            "A Crook changes Mobs only on the turn of the giver or the receiver.")
    require(card != mob.boss, "You cannot give away your Boss.")
    require(crook.token, f"{state.label(card)} has no Action Token left: a Crook given away "
            "spends his token.")
    return [CrookOffered(seat, to, card)]


def accept_crook(state: State, action: AcceptCrook, now: float) -> list[Event]:
    """The receiver takes the Crook offered (with his subordinates) and places him."""
    require_ok(offered_reason(state))
    assert state.offer is not None
    giver, to, card = state.offer
    seat = seat_of(state, action.seat)
    require(seat == to, f"{state.seats[to]} decides whether to take {state.label(card)}.")
    under = action.under
    problem = placement_problem(state, to, own_power(state, giver, card), under)
    require(problem is None, problem or "")
    mine = state.mobs[to]
    b = emitter(state)
    b.emit(TokenSpent(giver, card, "given away"), CrookMoved(giver, to, card, under))
    unhappy(b, to, card, -1, "moved to another Mob", "discard")
    if under == mine.boss:
        unhappy(b, to, card, -1, "became a Lieutenant", "discard")
    check_out(b, giver, None)
    b.emit(OfferClosed(seat, True))
    return b.events


def refuse_crook(state: State, action: RefuseCrook, now: float) -> list[Event]:
    """The receiver says no (or the giver takes the offer back)."""
    require_ok(offered_reason(state))
    assert state.offer is not None
    seat = seat_of(state, action.seat)
    require(seat in state.offer[:2], "Only the two players of the offer can call it off.")
    return [OfferClosed(seat, False)]


def leave(state: State, action: Leave, now: float) -> list[Event]:
    """A player drops out: his Crooks and Rackets go uncontrolled, his Specials to the
    discards, his Mob card out of play; the turn or war turn passes on."""
    seat = seat_of(state, action.seat)
    require(state.phase == "turn", "Players leave during the game (before it, just do not "
            "take a Mob).")
    require(state.attack is None, "Wait until the attack is resolved, then leave.")
    require_ok(leave_reason(state, seat))
    mob = state.mobs[seat]
    b = emitter(state)
    b.emit(PlayerLeft(seat))
    order = (*placed(mob), *[c.card for c in mob.crooks if c.card not in placed(mob)])
    for card in reversed(order):
        b.emit(CrookLeft(seat, card, "center", "his Mob left the game"))
    for holding in mob.rackets:
        b.emit(RacketMoved(seat, None, holding.card))
    for special in mob.specials:
        b.emit(SpecialDiscarded(seat, special))
    b.emit(PlayerOut(seat, None))
    _pass_on_after_leaving(b, seat)
    return b.events


def _pass_on_after_leaving(b: Emitter[State, Event], seat: int) -> None:
    state = b.state
    live = [x for x, m in enumerate(state.mobs) if not m.out]
    war = state.war
    if war is not None and seat in war.seats:
        at_war = [x for x in war.seats if not state.mobs[x].out]
        if len(at_war) < 2:
            for other in live:
                b.emit(Retokened(other, False))
            b.emit(GangWarEnded(state.next_seat(war.origin)))
        elif war.turn == seat:
            nxt = next(x for x in (((seat - k) % len(state.seats))
                                   for k in range(1, len(state.seats))) if x in at_war)
            b.emit(WarTurnPassed(seat, nxt, False))
    elif war is None and state.turn == seat:
        b.emit(TurnEnded(seat, state.next_seat(seat)))
    if len(live) <= 1:
        check_victory(b)


def after_out(state: State) -> list[Event]:
    """What follows when a Mob is out (no Crook left, or gone): "Out players are skipped
    in the turn order". An attack whose attacking Crook is gone, or whose defender is out
    (his Crooks and Rackets are gone from his Mob), is off; the Mob's own turn
    (or Gang War turn) ends, a Crook offer it is part of (or whose Crook is gone) is off,
    a shared win it was asked about is off (an out Mob cannot agree), and the last Mob
    standing wins at once ("you also win if all your rivals are eliminated"). Nothing
    when nothing is out of place or the game is not on."""
    if state.phase != "turn" or state.options.out_keeps_turn:
        return []
    b = emitter(state)
    a = state.attack
    if a is not None and (state.mobs[a.seat].crook(a.attacker) is None
                          or a.defender is not None and state.mobs[a.defender].out):
        b.emit(AttackWithdrawn(a.seat))
    if b.state.attack is not None:
        return b.events
    s = b.state
    mobs = s.mobs
    if s.offer is not None:
        giver, to, card = s.offer
        if mobs[giver].out or mobs[to].out or mobs[giver].crook(card) is None:
            b.emit(OfferClosed(to if mobs[to].out else giver, False))
    if s.share is not None:
        gone = [x for x in s.share[0] if mobs[x].out]
        if gone:
            b.emit(ShareAnswered(gone[0], False))
    live = [x for x, m in enumerate(mobs) if not m.out]
    if len(live) <= 1:
        check_victory(b)
    elif s.war is None and mobs[s.turn].out:
        for other in range(len(s.seats)):
            orphan_cleanup(b, other)
        b.emit(TurnEnded(s.turn, s.next_seat(s.turn)))
        check_victory(b)
    elif s.war is not None and mobs[s.war.turn].out:
        _pass_on_after_leaving(b, s.war.turn)
    return b.events


def share(state: State, action: Share, now: float) -> list[Event]:
    """A Mob one Racket short says whether it agrees to share the win; when all agree,
    they win together, when one says no the game goes on."""
    require(state.share is not None, "Nobody is being asked to share the win.")
    assert state.share is not None
    asked, agreed = state.share
    seat = seat_of(state, action.seat)
    require(seat in asked, f"{state.seats[seat]} is not one of the Mobs one Racket short.")
    require(seat not in agreed, f"{state.seats[seat]} already agreed.")
    agree = action.agree
    b = emitter(state)
    b.emit(ShareAnswered(seat, agree))
    if agree and set(agreed) | {seat} >= set(asked):
        scores = tuple(racket_score(b.state, x) for x in range(len(state.seats)))
        b.emit(GameWon(tuple(sorted(asked)), scores))
    return b.events


def play_special(state: State, action: PlaySpecial, now: float) -> list[Event]:
    """A Special is played (its effect is entered with ``adjust`` or ``modify``)."""
    seat = seat_of(state, action.seat)
    require_ok(special_reason(state, seat, action.card))
    return [SpecialDiscarded(seat, action.card)]


def adjust(state: State, action: Adjust, now: float) -> list[Event]:
    """What a Special or a special ability does to money, markers, Power or tokens."""
    seat = seat_of(state, action.seat)
    what, why, delta = action.what, action.why, action.delta
    require(bool(why.strip()), "Say which card or ability does this.")
    b = emitter(state)
    if what == "money":
        require(state.mobs[seat].money + delta >= 0, "Money cannot go below 0.")
        b.emit(MoneyChanged(seat, delta, why))
        return b.events
    card = own_crook(state, seat, action.card)
    if what == "unhappy":
        unhappy(b, seat, card, delta, why, "discard")
    elif what == "power":
        require(delta > 0, "Power markers only go up: enter a change above 0.")
        b.emit(PowerRaised(seat, card, delta))
    else:
        b.emit(TokenSpent(seat, card, why))
    return b.events


def claim(state: State, action: Claim, now: float) -> list[Event]:
    """The player who wiped out a Mob takes one of its Rackets, one more per Action Token
    spent now; the rest go to the uncontrolled area."""
    seat = seat_of(state, action.seat)
    gone = action.from_
    require_ok(player_reason(state, gone))
    mob = state.mobs[gone]
    require(mob.out and mob.wiped_by == seat and bool(mob.rackets),
            f"{state.seats[seat]} has no Rackets of {state.seats[gone]}'s Mob to claim.")
    rackets, tokens = action.rackets, action.tokens or ()
    owned = {h.card for h in mob.rackets}
    require(set(rackets) <= owned and len(set(rackets)) == len(rackets),
            "Choose Rackets of the wiped-out Mob, each once.")
    require(len(rackets) <= 1 + len(tokens),
            "One Racket is free; each more needs an Action Token spent.")
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
