"""Crime Lords' attacks: target numbers with every modifier, the showdown, the roll.

An attack goes announce -> (protector) -> showdown (not for Hits) -> support
(assist/defend/modify) -> roll. ``breakdown`` lists every term of the success
number, so a dispute is settled by reading it.
"""

from __future__ import annotations

from typing import get_args

from companion.games.base import require
from companion.games.crime_lords import vocab
from companion.games.crime_lords.actions import Roll
from companion.games.crime_lords.events import (
    AttackRolled,
    CrookKilled,
    CrookMoved,
    Event,
    PowerRaised,
    RacketMoved,
)
from companion.games.crime_lords.mob import (
    check_out,
    first_place,
    is_lieutenant,
    own_power,
    placement_problem,
    power,
    unhappy,
)
from companion.games.crime_lords.state import Attack, AttackKind, HelpSide, State
from companion.games.emit import Emitter

AUTO_FAIL = 11  # 11 or 12 always fails
KINDS: tuple[AttackKind, ...] = get_args(AttackKind)


def likes(weakness: tuple[str, ...], racket_type: str) -> bool:
    """Whether a Weakness matches a Racket type ("casino" matches "Casinos")."""
    t = vocab.key(racket_type)
    return any(not vocab.is_other(w) and (vocab.key(w) == t or (
        len(w) > 3 and w.lower() in racket_type.lower())) for w in weakness)


def _same(a: str, b: str) -> bool:
    """Two stats naming the same type or district ("casinos" is "Casinos")."""
    return bool(b) and vocab.key(a) == vocab.key(b)


def _rackets(n: int) -> str:
    return f"{n} Racket" + ("s" if n != 1 else "")


def _rackets_matching(state: State, seat: int | None, weakness: tuple[str, ...]) -> int:
    if seat is None:
        return 0
    return sum(likes(weakness, state.card(h.card).type) for h in state.mobs[seat].rackets)


def breakdown(state: State, attack: Attack) -> list[tuple[str, int]]:
    """Every term of the success number, in the rulebook's order; the sum is the number."""
    a = attack
    terms = [(f"Power of {state.label(a.attacker)}", power(state, a.seat, a.attacker))]
    terms += {"recruit": _recruit_terms, "takeover": _takeover_terms, "hit": _hit_terms}[
        a.kind
    ](state, a)
    for seat, amount, side in a.revealed or ():
        if amount:
            sign = 1 if side == "for" else -1
            terms.append((f"{state.seats[seat]} spent {amount} G {side}", sign * amount))
    for seat, card, helps in a.helpers:
        terms.append(helper_term(state, a, seat, card, helps))
    terms += [(why, value) for value, why in a.modifiers]
    return terms


def helper_term(
    state: State, a: Attack, seat: int, card: str, side: HelpSide
) -> tuple[str, int]:
    if a.kind == "hit" and side == "defense":
        return (f"{state.label(card)} hides out", -3)
    strength = power(state, seat, card) if state.mobs[seat].crook(card) else state.card(card).power
    verb = "aids" if side == "attack" else "defends"
    return (f"{state.label(card)} {verb} (Power {strength})", strength if side == "attack"
            else -strength)


def _recruit_terms(state: State, a: Attack) -> list[tuple[str, int]]:
    target = state.card(a.target)
    terms = [(f"Resistance of {target.name}", -target.resistance)]
    if a.defender is not None:
        mob = state.mobs[a.defender]
        crook = mob.crook(a.target)
        if is_lieutenant(mob, a.target):
            terms.append(("target is a Lieutenant", -10))
        elif crook and crook.superior and is_lieutenant(mob, crook.superior):
            terms.append(("target is controlled by a Lieutenant", -5))
        if crook and crook.unhappy:
            markers = "marker" if crook.unhappy == 1 else "markers"
            if state.options.wording == "v1":  # as version 1 said it
                markers = "marker(s)"
            terms.append((f"{crook.unhappy} Unhappy {markers} on the target",
                           2 * crook.unhappy))
    if target.weakness:
        mine = _rackets_matching(state, a.seat, target.weakness)
        theirs = _rackets_matching(state, a.defender, target.weakness)
        if mine > theirs:
            terms.append((f"more Rackets matching his Weakness ({mine} to {theirs})", 4))
        elif theirs > mine:
            terms.append((f"his Mob has more Rackets matching his Weakness ({theirs} to "
                          f"{mine})", -4))
    return terms


def _takeover_terms(state: State, a: Attack) -> list[tuple[str, int]]:
    target = state.card(a.target)
    terms = [(f"Resistance of {target.name}", -target.resistance)]
    if a.protector is not None and a.defender is not None:
        p = power(state, a.defender, a.protector)
        terms.append((f"protected by {state.label(a.protector)} (Power {p})", -p))
    v1 = state.options.wording == "v1"  # as version 1 said it
    mine, theirs = ("you have", "defender has") if v1 else ("the attacker has",
                                                              "the defender has")
    for seat, sign, who in ((a.seat, 2, mine), (a.defender, -2, theirs)):
        if seat is None:
            continue
        others = [state.card(h.card) for h in state.mobs[seat].rackets if h.card != a.target]
        same_type = sum(1 for c in others if _same(c.type, target.type))
        same_district = sum(1 for c in others if _same(c.district, target.district))
        if same_type:
            what = (f"{same_type} Racket(s) of type" if v1
                    else f"{_rackets(same_type)} of the type")
            terms.append((f"{who} {what} {target.type}", sign * same_type))
        if same_district:
            what = f"{same_district} Racket(s)" if v1 else _rackets(same_district)
            terms.append((f"{who} {what} in {target.district}", sign * same_district))
    return terms


def _hit_terms(state: State, a: Attack) -> list[tuple[str, int]]:
    tp = power(state, a.defender, a.target)
    terms = [(f"Power of {state.label(a.target)}", -tp)]
    if a.defender is not None:
        mob = state.mobs[a.defender]
        subs = mob.subordinates(a.target)
        if mob.boss == a.target:
            terms.append(("target is a Boss", -10))
        elif subs:
            terms.append(("target has subordinates", -5))
        for sub in subs:
            if state.card(sub.card).bodyguard:
                terms.append((f"Bodyguard {state.label(sub.card)}", -5))
    if a.money:
        terms.append((f"{a.money} G spent on the Hit", a.money))
    if a.war:
        terms.append(("Gang War", state.options.gang_war_bonus))
    return terms


# --- the roll ----------------------------------------------------------------------


def dice_of(action: Roll, needed: int) -> tuple[int, ...]:
    """The two dice from a roll action; none are needed when the attack cannot succeed."""
    if action.dice is None and needed < 2:
        return ()
    require(action.dice is not None and len(action.dice) == 2,
            "Enter the two dice, each from 1 to 6.")
    assert action.dice is not None
    return action.dice


def roll(b: Emitter[State, Event], action: Roll) -> Attack:
    """Roll for the pending attack and apply what its success or failure means."""
    a = b.state.attack
    assert a is not None
    terms = tuple(breakdown(b.state, a))
    needed = sum(v for _, v in terms)
    dice = dice_of(action, needed)
    counted = needed >= 2
    success = counted and sum(dice) <= min(needed, AUTO_FAIL - 1)
    under = _recruit_place(b.state, a, action) if success and a.kind == "recruit" else None
    b.emit(AttackRolled(a.seat, dice, needed, success, counted, terms))
    if a.kind == "recruit" and success:
        _recruited(b, a, under)
    elif a.kind == "takeover" and success:
        _taken_over(b, a)
    elif a.kind == "hit" and success:
        hit_succeeded(b, a.seat, a.attacker, a.defender, a.target)
    elif a.kind == "hit" and counted and a.defender is not None:
        unhappy(b, a.defender, a.target, 1, "survived an attempted Hit", "discard", a.seat)
    return a


def _recruit_place(state: State, a: Attack, action: Roll) -> str | None:
    target_power = own_power(state, a.defender, a.target)
    under = action.under
    if under is None:
        return first_place(state, a.seat, target_power, a.attacker)
    require(
        under == a.attacker or under in state.mobs[a.seat].below(a.attacker),
        f"A recruit goes under {state.label(a.attacker)} or one of his subordinates.",
    )
    problem = placement_problem(state, a.seat, target_power, under)
    require(problem is None, problem or "")
    return under


def _recruited(b: Emitter[State, Event], a: Attack, under: str | None) -> None:
    if under is None:
        return  # he fits nowhere: he stays where he was and the actions are lost
    b.emit(CrookMoved(a.defender, a.seat, a.target, under))
    if a.defender is not None:
        unhappy(b, a.seat, a.target, -1, "moved to another Mob", "discard")
        check_out(b, a.defender, a.seat)
    if under == b.state.mobs[a.seat].boss:
        unhappy(b, a.seat, a.target, -1, "became a Lieutenant", "discard")


def _taken_over(b: Emitter[State, Event], a: Attack) -> None:
    b.emit(RacketMoved(a.defender, a.seat, a.target))
    kind = b.state.card(a.target).type
    for crook in b.state.mobs[a.seat].crooks:
        if likes(b.state.card(crook.card).weakness, kind):
            unhappy(b, a.seat, crook.card, -1, "his Mob took over a Racket he likes", "discard")


def hit_succeeded(b: Emitter[State, Event], seat: int, attacker: str, victim_seat: int | None,
                  target: str) -> None:
    """The target is discarded; his superior and subordinates (the whole Mob, for a Boss)
    get a marker; the attacker gains Power (+2 if the victim was stronger)."""
    victim_power = own_power(b.state, victim_seat, target)
    gain = 2 if victim_power > own_power(b.state, seat, attacker) else 1
    if victim_seat is None:
        b.emit(CrookKilled(None, target))
    else:
        mob = b.state.mobs[victim_seat]
        crook = mob.crook(target)
        assert crook is not None
        was_boss = mob.boss == target
        near = [c.card for c in mob.subordinates(target)]
        if crook.superior:
            near.insert(0, crook.superior)
        b.emit(CrookKilled(victim_seat, target))
        if was_boss:
            near = [c.card for c in b.state.mobs[victim_seat].crooks]
        why = "the Boss was Hit" if was_boss else f"{b.state.label(target)} was Hit"
        for card in near:
            unhappy(b, victim_seat, card, 1, why, "discard", seat)
    if b.state.mobs[seat].crook(attacker) is not None and own_power(b.state, seat, attacker) < 6:
        b.emit(PowerRaised(seat, attacker, gain))
    if victim_seat is not None:
        check_out(b, victim_seat, seat if seat != victim_seat else None)
