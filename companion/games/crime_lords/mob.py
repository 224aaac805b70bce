"""Crime Lords' arithmetic of a Mob: Power, control, pay-off, Unhappy markers, Racket counts.

The functions that decide a cascade (no pay -> third marker -> the Crook leaves -> his
subordinates lose their place) take an ``Emitter`` (``fold.emitter``) and emit one step
at a time, each seeing the state the earlier steps led to.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from companion.games.base import IllegalAction
from companion.games.crime_lords.events import (
    CrookLeft,
    CrookPaid,
    CrookPlaced,
    Event,
    GameWon,
    PlayerOut,
    RacketMoved,
    ShareOffered,
    UnhappyChanged,
)
from companion.games.crime_lords.state import MAX_POWER, Destination, Mob, State
from companion.games.emit import Emitter

LEAVE_AT = 3  # the third Unhappy marker makes a Crook quit


# --- Power and control -------------------------------------------------------------


def own_power(state: State, seat: int | None, card: str) -> int:
    """A Crook's Power without the Boss bonus (printed + Hit markers, at most 6)."""
    base = state.card(card).power
    if seat is None:
        plus = dict(state.center).get(card, 0)
    else:
        crook = state.mobs[seat].crook(card)
        plus = crook.plus if crook else 0
    return min(base + plus, max(base, MAX_POWER))


def power(state: State, seat: int | None, card: str) -> int:
    """A Crook's total Power: the Boss counts his Mob's Boss bonus."""
    bonus = 0
    if seat is not None and state.mobs[seat].boss == card:
        bonus = state.mobs[seat].boss_bonus
    return own_power(state, seat, card) + bonus


def room(state: State, seat: int, under: str) -> int:
    """How many more subordinates ``under`` may take (Boss: Lieutenants)."""
    mob = state.mobs[seat]
    most = state.options.max_lieutenants if mob.boss == under else state.options.max_subordinates
    return most - len(mob.subordinates(under))


def placement_problem(state: State, seat: int, card_power: int, under: str) -> str | None:
    """Why a Crook of ``card_power`` cannot go under ``under`` in ``seat``'s Mob, or None."""
    mob = state.mobs[seat]
    crook = mob.crook(under)
    if crook is None:
        return f"{state.label(under)} is not in your Mob."
    if crook.superior is None and mob.boss != under:
        return f"{state.label(under)} has no place in the Mob yet: place him first."
    if power(state, seat, under) <= card_power:
        return (
            f"{state.label(under)} (Power {power(state, seat, under)}) cannot control a Crook "
            f"of Power {card_power}: a superior needs more Power than his subordinates."
        )
    if room(state, seat, under) <= 0:
        return f"{state.label(under)} has no open side left for another subordinate."
    return None


def first_place(state: State, seat: int, card_power: int, top: str) -> str | None:
    """The first Crook at or under ``top`` who can take a Crook of ``card_power``."""
    for under in (top, *state.mobs[seat].below(top)):
        if placement_problem(state, seat, card_power, under) is None:
            return under
    return None


def is_lieutenant(mob: Mob, card: str) -> bool:
    crook = mob.crook(card)
    return crook is not None and mob.boss is not None and crook.superior == mob.boss


def placed(mob: Mob) -> tuple[str, ...]:
    """The Boss and every Crook with a path of control to him."""
    return (mob.boss, *mob.below(mob.boss)) if mob.boss else ()


def places_for(state: State, seat: int, card: str) -> list[str]:
    """The Crooks of ``seat``'s Mob who could take ``card`` under them now (with the
    Power and an open side; never himself or a Crook under him)."""
    mob = state.mobs[seat]
    strength = power(state, seat, card)
    below = mob.below(card)
    return [u for u in placed(mob) if u != card and u not in below
            and placement_problem(state, seat, strength, u) is None]


# --- Unhappy markers ---------------------------------------------------------------


def unhappy(
    b: Emitter[State, Event], seat: int, card: str, delta: int, reason: str, to: Destination,
    by: int | None = None,
) -> None:
    """Add (or remove) markers; the third marker makes the Crook quit (``to``: where).

    ``by``: the rival whose attack caused the marker; if the Crook was the Mob's last,
    that player wiped the Mob out (and may claim its Rackets)."""
    crook = b.state.mobs[seat].crook(card)
    if crook is None or delta == 0 or (delta < 0 and crook.unhappy == 0):
        return
    delta = max(delta, -crook.unhappy)
    b.emit(UnhappyChanged(seat, card, delta, reason))
    if crook.unhappy + delta >= LEAVE_AT:
        b.emit(CrookLeft(seat, card, to, "third Unhappy marker"))
        check_out(b, seat, by if by != seat else None)


def check_out(b: Emitter[State, Event], seat: int, by: int | None) -> None:
    """A Mob that lost its last Crook is out (``by``: the seat that wiped it out)."""
    mob = b.state.mobs[seat]
    if not mob.crooks and not mob.out and b.state.phase == "turn":
        b.emit(PlayerOut(seat, by))
        if by is None:
            release_rackets(b, seat)


def release_rackets(b: Emitter[State, Event], seat: int) -> None:
    """An eliminated Mob's Rackets that nobody claimed go to the uncontrolled area."""
    for holding in b.state.mobs[seat].rackets:
        b.emit(RacketMoved(seat, None, holding.card))


def lieutenants(mob: Mob) -> set[str]:
    """The Lieutenants, counting those unplaced because their Boss just left."""
    return {c.card for c in mob.crooks if is_lieutenant(mob, c.card) or c.was_lieutenant}


def promoted(b: Emitter[State, Event], seat: int, before: set[str]) -> None:
    """One marker off every Crook who became a Lieutenant since ``before``."""
    mob = b.state.mobs[seat]
    for crook in mob.crooks:
        if is_lieutenant(mob, crook.card) and crook.card not in before:
            unhappy(b, seat, crook.card, -1, "became a Lieutenant", "discard")


# --- pay-off -----------------------------------------------------------------------


def pay_order(state: State, seat: int, asked: Sequence[str]) -> tuple[str, ...]:
    """The Boss first, then ``asked`` (the player's order), then everyone else."""
    mob = state.mobs[seat]
    rest = [c.card for c in mob.crooks if c.card != mob.boss]
    for card in asked:
        if card not in rest:
            raise IllegalAction(
                f"{state.label(card)} is not one of your Crooks besides the Boss: "
                "pay only your own Crooks."
            )
    order = [c for c in asked] + [c for c in rest if c not in asked]
    return ((mob.boss,) if mob.boss else ()) + tuple(order)


def pay_off(b: Emitter[State, Event], seat: int, order: Sequence[str]) -> None:
    """Step 2: pay each Crook his total Power in ``order``; short pay makes him Unhappy.

    Until the Boss is paid in full nobody else gets anything. A Crook paid less than he
    is owed gets one marker, two if he gets nothing (and leaves for the uncontrolled area
    if that is his third).
    """
    boss_short = False
    for card in order:
        mob = b.state.mobs[seat]
        if mob.crook(card) is None:
            continue  # he already left in this pay-off
        owed = power(b.state, seat, card)
        paid = 0 if boss_short else min(owed, max(0, mob.money))
        b.emit(CrookPaid(seat, card, owed, paid))
        if card == mob.boss and paid < owed:
            boss_short = True
        if paid < owed:
            markers = 2 if paid == 0 else 1
            why = "not paid" if paid == 0 else f"paid {paid} of {owed} G"
            unhappy(b, seat, card, markers, why, "center")


def promotion_markers(b: Emitter[State, Event], seat: int) -> None:
    """A Crook with more Power than his superior wants a promotion: a marker a turn."""
    for crook in b.state.mobs[seat].crooks:
        live = b.state.mobs[seat].crook(crook.card)
        if live is None or live.superior is None:
            continue
        if power(b.state, seat, live.card) > power(b.state, seat, live.superior):
            unhappy(b, seat, live.card, 1, "more Power than his superior", "discard")


# --- victory -----------------------------------------------------------------------


def racket_score(state: State, seat: int) -> int:
    """Rackets controlled, +1 per type of 3+ nobody else has, +2 per district of 4+ held
    while nobody else has more than one there."""
    def counts(attr: str) -> list[Counter[str]]:
        return [
            Counter(getattr(state.card(h.card), attr) for h in m.rackets) for m in state.mobs
        ]

    types, districts = counts("type"), counts("district")
    others = [x for x in range(len(state.mobs)) if x != seat]
    score = len(state.mobs[seat].rackets)
    for kind, n in types[seat].items():
        if kind and n >= 3 and all(types[o][kind] == 0 for o in others):
            score += 1
    for district, n in districts[seat].items():
        if district and n >= 4 and all(districts[o][district] <= 1 for o in others):
            score += 2
    return score


def cards_held(state: State, seat: int) -> int:
    """Crooks and Rackets of a Mob (the seriously long game counts them)."""
    mob = state.mobs[seat]
    return len(mob.crooks) + len(mob.rackets)


def check_victory(b: Emitter[State, Event]) -> None:
    """At the end of a turn or of a Gang War: who wins under the game's victory rule.

    "rackets": everyone with enough Rackets wins together; if nobody has, Mobs that are
    each exactly one short are asked to share ("share_one_short"). "most_cards": a Mob
    with more Crooks and Rackets than all its foes together. The last Mob standing wins
    in every variant."""
    for seat, mob in enumerate(b.state.mobs):
        if mob.out and mob.rackets:
            release_rackets(b, seat)
    state = b.state
    opts = state.options
    live = [x for x, m in enumerate(state.mobs) if not m.out]
    scores = tuple(racket_score(state, x) for x in range(len(state.seats)))
    winners: tuple[int, ...] = ()
    if opts.victory == "rackets":
        winners = tuple(x for x in live if scores[x] >= opts.rackets_to_win)
    elif opts.victory == "most_cards":
        held = {x: cards_held(state, x) for x in live}
        winners = tuple(x for x in live if held[x] > sum(held.values()) - held[x])
    if len(live) == 1:
        winners = tuple(live)
    if winners:
        b.emit(GameWon(winners, scores))
        return
    short = tuple(x for x in live if scores[x] == opts.rackets_to_win - 1)
    if opts.victory == "rackets" and opts.share_one_short and len(short) >= 2:
        b.emit(ShareOffered(short))


def orphan_cleanup(b: Emitter[State, Event], seat: int) -> None:
    """Unplaced Crooks of ``seat`` go to the first legal place, else uncontrolled."""
    mob = b.state.mobs[seat]
    if mob.boss is None:
        return
    before = lieutenants(mob)
    for crook in mob.crooks:
        live = b.state.mobs[seat].crook(crook.card)
        if live is None or live.superior is not None or live.card == b.state.mobs[seat].boss:
            continue
        spot = first_place(b.state, seat, power(b.state, seat, live.card), mob.boss)
        if spot is not None:
            b.emit(CrookPlaced(seat, live.card, spot))
        else:
            for card in (*b.state.mobs[seat].below(live.card), live.card):
                b.emit(CrookLeft(seat, card, "center", "no place in the Mob"))
    promoted(b, seat, before)
    check_out(b, seat, None)
