"""Crime Lords' fold: ``apply(state, event)`` records what an event says happened.

``emitter(state)`` collects events while folding them, so a cascade (no pay -> third
marker -> the Crook leaves -> his subordinates lose their place) is decided one step
at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.games.crime_lords.events import (
    AttackAnnounced,
    AttackRolled,
    AttackWithdrawn,
    BossChosen,
    CardBought,
    CardDrawn,
    CardEntered,
    CenterAdded,
    CrookKilled,
    CrookLeft,
    CrookMoved,
    CrookOffered,
    CrookPaid,
    CrookPlaced,
    DeckEmptied,
    DeckLoaded,
    Event,
    GameStarted,
    GameWon,
    GangWarEnded,
    GangWarJoined,
    GangWarStarted,
    Given,
    Helped,
    IncomeCollected,
    MobTaken,
    ModifierAdded,
    MoneyChanged,
    OfferClosed,
    PayOffDone,
    PlayerLeft,
    PlayerOut,
    PowerRaised,
    ProtectorNamed,
    RacketMoved,
    Retokened,
    ShareAnswered,
    ShareOffered,
    ShowdownCommitted,
    ShowdownRevealed,
    SpecialDiscarded,
    SpecialDrawn,
    StatsAsked,
    TokenRestored,
    TokenSpent,
    TurnActed,
    TurnEnded,
    UnhappyChanged,
    WarTurnPassed,
)
from companion.games.crime_lords.state import (
    CENTER_FILL,
    MAX_POWER,
    Attack,
    Crook,
    Holding,
    Mob,
    State,
    War,
    card_from_stats,
    war_begins,
)
from companion.games.emit import Emitter
from companion.games.frozen import replace
from companion.games.money import signed
from companion.games.words import listed


def apply(state: State, event: Event) -> State:
    """The state after ``event``."""
    new: State = _APPLY[type(event)](state, event)
    return new


def emitter(state: State) -> Emitter[State, Event]:
    """An ``Emitter`` that folds each event it emits into ``state`` at once."""
    return Emitter(state, apply)


def _mob(state: State, seat: int) -> Mob:
    return state.mobs[seat]


def _set_crook(state: State, seat: int, card: str, **changes: Any) -> State:
    mob = _mob(state, seat)
    crook = mob.crook(card)
    assert crook is not None, card
    return state.with_mob(seat, mob.with_crook(replace(crook, **changes)))


def _mob_taken(s: State, e: MobTaken) -> State:
    mob = replace(_mob(s, e.seat), mob_card=e.card, mob_name=e.name, boss_bonus=e.boss_bonus,
                  extra_draws=e.extra_draws)
    return s.with_mob(e.seat, mob).logged(f"{s.seats[e.seat]} runs {e.name}.")


def _card_entered(s: State, e: CardEntered) -> State:
    card = card_from_stats(e.card, e.kind, e.stats, lower=s.options.wording == "v1")
    return replace(s, cards=s.cards + (card,))


def _deck_loaded(s: State, e: DeckLoaded) -> State:
    kept = tuple((c, st) for c, st in s.registered if c not in e.cards)
    new = tuple((c, tuple(sorted(stats.items()))) for c, stats in e.cards.items())
    return replace(s, registered=kept + new)


def _card_bought(s: State, e: CardBought) -> State:
    mob = _mob(s, e.seat)
    mob = replace(mob, auction_money=mob.auction_money - e.price)
    if e.kind == "crook":
        mob = replace(mob, crooks=mob.crooks + (Crook(e.card),))
        # a Crook from the center goes to a player who has none (setup.crookless)
        s = replace(s, center=tuple(x for x in s.center if x[0] != e.card))
    elif e.kind == "racket":
        mob = replace(mob, rackets=mob.rackets + (Holding(e.card),))
    else:
        mob = replace(mob, specials=mob.specials + (e.card,))
    what = "a Special" if e.kind == "special" else s.label(e.card)
    return s.with_mob(e.seat, mob).logged(f"{s.seats[e.seat]} bought {what} for {e.price} G.")


def _center_added(s: State, e: CenterAdded) -> State:
    return replace(s, center=s.center + ((e.card, 0),)).logged(
        f"{s.label(e.card)} is now uncontrolled."
    )


def _special_drawn(s: State, e: SpecialDrawn) -> State:
    mob = _mob(s, e.seat)
    mob = replace(mob, specials=mob.specials + (e.card,))
    return s.with_mob(e.seat, mob).logged(f"{s.seats[e.seat]} drew a Special.")


def _special_discarded(s: State, e: SpecialDiscarded) -> State:
    mob = _mob(s, e.seat)
    mob = replace(mob, specials=tuple(c for c in mob.specials if c != e.card))
    return replace(s.with_mob(e.seat, mob), discard=s.discard + (e.card,)).logged(
        f"{s.seats[e.seat]} played a Special ({e.card})."
    )


def _boss_chosen(s: State, e: BossChosen) -> State:
    s = _set_crook(s, e.seat, e.card, superior=None, unhappy=0, was_lieutenant=False)
    s = s.with_mob(e.seat, replace(_mob(s, e.seat), boss=e.card))
    return s.logged(f"{s.label(e.card)} is the Boss of {s.seats[e.seat]}'s Mob.")


def _crook_placed(s: State, e: CrookPlaced) -> State:
    return _set_crook(s, e.seat, e.card, superior=e.under, was_lieutenant=False)


def _game_started(s: State, e: GameStarted) -> State:
    mobs = tuple(
        replace(
            m, money=e.money, auction_money=0,
            crooks=tuple(replace(c, token=True) for c in m.crooks),
            rackets=tuple(replace(h, token=s.card(h.card).power > 0) for h in m.rackets),
        )
        for m in s.mobs
    )
    s = replace(s, mobs=mobs, phase="turn", step="collect", turn=e.first)
    return s.logged(war_begins(s.seats[e.first]))


def _income(s: State, e: IncomeCollected) -> State:
    mob = _mob(s, e.seat)
    s = s.with_mob(e.seat, replace(mob, money=mob.money + e.amount))
    n = len(mob.rackets)
    if s.options.wording == "v1":  # as version 1 said it
        return s.logged(f"{s.seats[e.seat]} collected income from {n} Racket(s).")
    return s.logged(f"{s.seats[e.seat]} collected income from {n} Racket{'' if n == 1 else 's'}.")


def _payoff_done(s: State, e: PayOffDone) -> State:
    s = replace(s, step="actions", acted=False, drawn=0, filled=False, extra_drawn=0)
    return s.logged(f"{s.seats[e.seat]} paid off the gang.")


def _paid(s: State, e: CrookPaid) -> State:
    mob = _mob(s, e.seat)
    return s.with_mob(e.seat, replace(mob, money=mob.money - e.paid))


def _unhappy(s: State, e: UnhappyChanged) -> State:
    crook = _mob(s, e.seat).crook(e.card)
    assert crook is not None
    s = _set_crook(s, e.seat, e.card, unhappy=max(0, crook.unhappy + e.delta))
    word = "gets an Unhappy marker" if e.delta > 0 else "loses an Unhappy marker"
    if abs(e.delta) > 1:
        word = f"gets {e.delta} Unhappy markers" if e.delta > 0 else "loses his Unhappy markers"
    return s.logged(f"{s.label(e.card)} {word} ({e.reason}).")


def _crook_left(s: State, e: CrookLeft) -> State:
    mob = _mob(s, e.seat)
    gone = mob.crook(e.card)
    assert gone is not None
    boss = mob.boss == e.card
    crooks = tuple(
        replace(c, superior=None, was_lieutenant=boss) if c.superior == e.card else c
        for c in mob.crooks
        if c.card != e.card
    )
    mob = replace(mob, crooks=crooks, boss=None if mob.boss == e.card else mob.boss)
    s = s.with_mob(e.seat, mob)
    if s.phase == "setup":
        s = replace(s, dropped_in_setup=s.dropped_in_setup + 1)
    if e.to == "center":
        s = replace(s, center=s.center + ((e.card, gone.plus),))
        where = "goes uncontrolled"
    else:
        s = replace(s, discard=s.discard + (e.card,))
        where = "leaves town"
    return s.logged(f"{s.label(e.card)} {where} ({e.reason}).")


def _holding_token(s: State, seat: int, card: str, token: bool) -> State:
    mob = _mob(s, seat)
    if mob.crook(card) is not None:
        return _set_crook(s, seat, card, token=token)
    rackets = tuple(replace(h, token=token) if h.card == card else h for h in mob.rackets)
    return s.with_mob(seat, replace(mob, rackets=rackets))


def _token_spent(s: State, e: TokenSpent) -> State:
    return _holding_token(s, e.seat, e.card, False)


def _token_restored(s: State, e: TokenRestored) -> State:
    return _holding_token(s, e.seat, e.card, True)


def _retokened(s: State, e: Retokened) -> State:
    mob = _mob(s, e.seat)
    crooks = tuple(replace(c, token=True) for c in mob.crooks)
    rackets = mob.rackets
    if e.rackets:
        rackets = tuple(replace(h, token=s.card(h.card).power > 0) for h in rackets)
    return s.with_mob(e.seat, replace(mob, crooks=crooks, rackets=rackets))


def _money(s: State, e: MoneyChanged) -> State:
    mob = _mob(s, e.seat)
    return s.with_mob(e.seat, replace(mob, money=mob.money + e.delta))


def _announced(s: State, e: AttackAnnounced) -> State:
    attack = Attack(
        seat=e.seat, kind=e.kind, attacker=e.attacker, target=e.target, defender=e.defender,
        stage=e.stage, money=e.money, war=e.war,
    )
    verb = {"recruit": "recruit", "takeover": "take over", "hit": "Hit"}[e.kind]
    s = replace(s, attack=attack)
    return s.logged(f"{s.label(e.attacker)} attempts to {verb} {s.label(e.target)}.")


def _attack(s: State) -> Attack:
    assert s.attack is not None
    return s.attack


def _protector(s: State, e: ProtectorNamed) -> State:
    s = replace(s, attack=replace(_attack(s), protector=e.card, stage="showdown"))
    if e.card is None:
        return s.logged(f"{s.seats[e.seat]} names no protector.")
    return s.logged(f"{s.label(e.card)} protects {s.label(_attack(s).target)}.")


def _committed(s: State, e: ShowdownCommitted) -> State:
    a = _attack(s)
    committed = tuple(c for c in a.committed if c[0] != e.seat) + ((e.seat, e.amount, e.side),)
    return replace(s, attack=replace(a, committed=committed)).logged(
        f"{s.seats[e.seat]} has a hand on the table."
    )


def _revealed(s: State, e: ShowdownRevealed) -> State:
    for seat, amount, _side in e.amounts:
        mob = _mob(s, seat)
        s = s.with_mob(seat, replace(mob, money=mob.money - amount))
    shown = ", ".join(f"{s.seats[seat]} {amount} G {side}" for seat, amount, side in e.amounts)
    s = replace(s, attack=replace(_attack(s), revealed=e.amounts, committed=(), stage="support"))
    return s.logged(f"Showdown: {shown or 'nobody spent anything'}.")


def _helped(s: State, e: Helped) -> State:
    a = _attack(s)
    s = replace(s, attack=replace(a, helpers=a.helpers + ((e.seat, e.card, e.side),)))
    verb = "aids the attack" if e.side == "attack" else "defends"
    if a.kind == "hit" and e.side == "defense":
        verb = "hides out"
    return s.logged(f"{s.label(e.card)} {verb}.")


def _modifier(s: State, e: ModifierAdded) -> State:
    a = _attack(s)
    s = replace(s, attack=replace(a, modifiers=a.modifiers + ((e.value, e.why),)))
    return s.logged(f"{signed(e.value)}: {e.why}.")


def _withdrawn(s: State, e: AttackWithdrawn) -> State:
    return replace(s, attack=None).logged(f"{s.seats[e.seat]} backs out of the attack.")


def _rolled(s: State, e: AttackRolled) -> State:
    result = "succeeds" if e.success else "fails"
    roll = "+".join(str(d) for d in e.dice) or "no roll"
    last = (("dice", e.dice), ("needed", e.needed), ("success", e.success),
            ("counted", e.counted), ("breakdown", e.breakdown))
    s = replace(s, attack=None, last_roll=last)
    return s.logged(f"Rolled {roll}, needed {e.needed} or less: the attack {result}.")


def _subtree(mob: Mob, card: str) -> tuple[Crook, ...]:
    keep = {card, *mob.below(card)}
    return tuple(c for c in mob.crooks if c.card in keep)


def _crook_moved(s: State, e: CrookMoved) -> State:
    if e.from_seat is None:
        plus = dict(s.center).get(e.card, 0)
        s = replace(s, center=tuple(x for x in s.center if x[0] != e.card))
        moving: tuple[Crook, ...] = (Crook(e.card, e.under, 0, False, plus),)
    else:
        old = _mob(s, e.from_seat)
        moving = _subtree(old, e.card)
        names = {c.card for c in moving}
        old = replace(old, crooks=tuple(c for c in old.crooks if c.card not in names))
        s = s.with_mob(e.from_seat, old)
        moving = tuple(replace(c, superior=e.under) if c.card == e.card else c for c in moving)
    mob = _mob(s, e.to_seat)
    s = s.with_mob(e.to_seat, replace(mob, crooks=mob.crooks + moving))
    if e.from_seat == e.to_seat:
        return s.logged(f"{s.label(e.card)} moves under {s.label(e.under or '')}.")
    return s.logged(f"{s.label(e.card)} joins {s.seats[e.to_seat]}'s Mob.")


def _racket_moved(s: State, e: RacketMoved) -> State:
    token = False
    if e.from_seat is None:
        s = replace(s, center=tuple(x for x in s.center if x[0] != e.card))
    else:
        old = _mob(s, e.from_seat)
        token = any(h.card == e.card and h.token for h in old.rackets)
        old = replace(old, rackets=tuple(h for h in old.rackets if h.card != e.card))
        s = s.with_mob(e.from_seat, old)
    if e.to_seat is None:
        return replace(s, center=s.center + ((e.card, 0),)).logged(
            f"{s.label(e.card)} is now uncontrolled."
        )
    mob = _mob(s, e.to_seat)
    s = s.with_mob(e.to_seat, replace(mob, rackets=mob.rackets + (Holding(e.card, token),)))
    return s.logged(f"{s.seats[e.to_seat]} controls {s.label(e.card)}.")


def _killed(s: State, e: CrookKilled) -> State:
    if e.seat is None:
        s = replace(s, center=tuple(x for x in s.center if x[0] != e.card))
        return replace(s, discard=s.discard + (e.card,)).logged(f"{s.label(e.card)} was Hit.")
    s = _crook_left(s, CrookLeft(e.seat, e.card, "discard", "Hit"))
    return replace(s, log=s.log[:-1] + (f"{s.label(e.card)} was Hit.",))


def _power(s: State, e: PowerRaised) -> State:
    crook = _mob(s, e.seat).crook(e.card)
    assert crook is not None
    plus = min(crook.plus + e.by, max(0, MAX_POWER - s.card(e.card).power))
    s = _set_crook(s, e.seat, e.card, plus=plus)
    return s.logged(f"{s.label(e.card)} gains {e.by} Power for the Hit.")


def _turn_ended(s: State, e: TurnEnded) -> State:
    s = replace(s, turn=e.next, step="collect", acted=False)
    return s.logged(f"{s.seats[e.seat]}'s turn ends; {s.seats[e.next]} is next.")


def _war_started(s: State, e: GangWarStarted) -> State:
    s = replace(s, war=War(e.origin, e.seats, e.turn), turn=e.turn, step="war")
    return s.logged("Gang War! " + listed(s.seats[x] for x in e.seats) + " are at war.")


def _war_joined(s: State, e: GangWarJoined) -> State:
    war = s.war
    assert war is not None
    seats = tuple(x for x in range(len(s.seats)) if x in war.seats or x == e.seat)
    return replace(s, war=replace(war, seats=seats)).logged(
        f"{s.seats[e.seat]} is drawn into the Gang War."
    )


def _war_turn(s: State, e: WarTurnPassed) -> State:
    war = s.war
    assert war is not None
    passes = war.passes + 1 if e.passed else 0
    s = replace(s, war=replace(war, turn=e.to, passes=passes), turn=e.to)
    return s.logged(f"{s.seats[e.seat]} passes.") if e.passed else s


def _war_ended(s: State, e: GangWarEnded) -> State:
    if e.seat is not None and s.options.wording != "v1":  # version 1 did not log it
        s = s.logged(f"{s.seats[e.seat]} passes.")
    s = replace(s, war=None, turn=e.next, step="collect", acted=False)
    return s.logged(f"The Gang War is over; {s.seats[e.next]} is next.")


def _player_out(s: State, e: PlayerOut) -> State:
    mob = replace(_mob(s, e.seat), out=True, wiped_by=e.by)
    return s.with_mob(e.seat, mob).logged(f"{s.seats[e.seat]} has no Crook left and is out.")


def _won(s: State, e: GameWon) -> State:
    names = listed(s.seats[x] for x in e.winners)
    verb = "controls" if len(e.winners) == 1 else "share"
    return replace(s, winners=e.winners, scores=e.scores, phase="over", attack=None).logged(
        f"{names} {verb} the city!"
    )


def _card_drawn(s: State, e: CardDrawn) -> State:
    s = replace(s, drawn=s.drawn + 1, pending=None)
    if s.filled:
        return replace(s, extra_drawn=s.extra_drawn + 1)
    return replace(s, filled=len(s.center) >= CENTER_FILL)


def _stats_asked(s: State, e: StatsAsked) -> State:
    what = "a Crook" if e.kind == "crook" else "a Racket"
    return replace(s, pending=(e.seat, e.card, e.kind)).logged(
        f"{s.seats[e.seat]} drew {what} seen for the first time: its stats are needed."
    )


def _deck_emptied(s: State, e: DeckEmptied) -> State:
    return replace(s, deck_empty=True).logged("The deck is used up: no more draws.")


def _given(s: State, e: Given) -> State:
    giver, taker = _mob(s, e.seat), _mob(s, e.to)
    who, to = s.seats[e.seat], s.seats[e.to]
    if e.money:
        s = s.with_mob(e.seat, replace(giver, money=giver.money - e.money))
        s = s.with_mob(e.to, replace(taker, money=taker.money + e.money))
        if s.options.wording == "v1":  # version 1 did not log money gifts
            return s
        return s.logged(f"{who} gave money to {to}.")
    card = e.card or ""
    if card in giver.specials:
        s = s.with_mob(e.seat, replace(giver, specials=tuple(c for c in giver.specials
                                                             if c != card)))
        s = s.with_mob(e.to, replace(taker, specials=taker.specials + (card,)))
        return s.logged(f"{who} gave a Special to {to}.")
    s = _racket_moved(s, RacketMoved(e.seat, e.to, card))
    if s.options.wording == "v1":  # "Ben controls Racket_04." as version 1 said
        return s
    return replace(s, log=s.log[:-1]).logged(f"{who} gave {s.label(card)} to {to}.")


def _offered(s: State, e: CrookOffered) -> State:
    return replace(s, offer=(e.seat, e.to, e.card)).logged(
        f"{s.seats[e.seat]} offers {s.label(e.card)} to {s.seats[e.to]}."
    )


def _offer_closed(s: State, e: OfferClosed) -> State:
    offer = s.offer
    s = replace(s, offer=None)
    if offer is None or e.accepted:
        return s
    giver, to, card = offer
    if s.mobs[giver].crook(card) is None:
        return s.logged(f"{s.label(card)} is gone: the offer is off.")
    if s.mobs[e.seat].out:
        return s.logged(f"{s.seats[e.seat]} is out: the offer of {s.label(card)} is off.")
    return s.logged(f"{s.seats[e.seat]} turns down {s.label(card)}.")


def _player_left(s: State, e: PlayerLeft) -> State:
    s = s.with_mob(e.seat, replace(_mob(s, e.seat), left=True))
    return s.logged(f"{s.seats[e.seat]} leaves the game.")


def _share_offered(s: State, e: ShareOffered) -> State:
    names = listed(s.seats[x] for x in e.seats)
    return replace(s, share=(e.seats, ())).logged(
        f"{names} are each one Racket short: they may agree to share the win."
    )


def _share_answered(s: State, e: ShareAnswered) -> State:
    if s.share is None:
        return s
    if not e.agree and s.mobs[e.seat].out:
        return replace(s, share=None).logged(
            f"{s.seats[e.seat]} is out and cannot share the win: the game goes on."
        )
    if not e.agree:
        return replace(s, share=None).logged(
            f"{s.seats[e.seat]} will not share the win: the game goes on."
        )
    asked, agreed = s.share
    return replace(s, share=(asked, agreed + (e.seat,))).logged(
        f"{s.seats[e.seat]} agrees to share the win."
    )


def _acted(s: State, e: TurnActed) -> State:
    return replace(s, acted=True)


_APPLY: dict[type, Callable[[State, Any], State]] = {
    MobTaken: _mob_taken, CardEntered: _card_entered, CardBought: _card_bought,
    CenterAdded: _center_added, SpecialDrawn: _special_drawn,
    SpecialDiscarded: _special_discarded, BossChosen: _boss_chosen, CrookPlaced: _crook_placed,
    GameStarted: _game_started, IncomeCollected: _income, CrookPaid: _paid,
    UnhappyChanged: _unhappy, CrookLeft: _crook_left, TokenSpent: _token_spent,
    TokenRestored: _token_restored, Retokened: _retokened, MoneyChanged: _money,
    AttackAnnounced: _announced, ProtectorNamed: _protector, ShowdownCommitted: _committed,
    ShowdownRevealed: _revealed, Helped: _helped, ModifierAdded: _modifier,
    AttackWithdrawn: _withdrawn, AttackRolled: _rolled, CrookMoved: _crook_moved,
    RacketMoved: _racket_moved, CrookKilled: _killed, PowerRaised: _power,
    TurnEnded: _turn_ended, GangWarStarted: _war_started, GangWarJoined: _war_joined,
    WarTurnPassed: _war_turn, GangWarEnded: _war_ended, PlayerOut: _player_out, GameWon: _won,
    DeckLoaded: _deck_loaded, PayOffDone: _payoff_done, CardDrawn: _card_drawn, StatsAsked: _stats_asked,
    DeckEmptied: _deck_emptied, Given: _given, CrookOffered: _offered,
    OfferClosed: _offer_closed, PlayerLeft: _player_left, ShareOffered: _share_offered,
    ShareAnswered: _share_answered, TurnActed: _acted,
}
