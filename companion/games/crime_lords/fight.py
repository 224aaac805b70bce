"""Crime Lords' attack actions (announce, protector, showdown, support, roll) and Gang War.

Showdown money is secret until every player still in the game has committed (or the
attacker says "now"): ``ShowdownCommitted`` events carry amounts, so raw events never
go to clients; views show only the seat's own hand.
"""

from __future__ import annotations

from companion.games.base import require
from companion.games.crime_lords.actions import (
    Assist,
    Defend,
    Modify,
    Now,
    Protect,
    Roll,
    Showdown,
    WarPass,
    Withdraw,
)
from companion.games.crime_lords.actions import Attack as AttackAction
from companion.games.crime_lords.attack import hit_succeeded, roll
from companion.games.crime_lords.events import (
    AttackAnnounced,
    AttackWithdrawn,
    BossChosen,
    Event,
    GangWarEnded,
    GangWarJoined,
    GangWarStarted,
    Helped,
    ModifierAdded,
    MoneyChanged,
    ProtectorNamed,
    Retokened,
    ShowdownCommitted,
    ShowdownRevealed,
    TokenRestored,
    TokenSpent,
    WarTurnPassed,
)
from companion.games.crime_lords.fold import emitter
from companion.games.crime_lords.ledger import own_crook, seat_of
from companion.games.crime_lords.legality import (
    attack_reason,
    collect_reason,
    money_reason,
    require_ok,
    token_reason,
    turn_reason,
    war_turn_reason,
)
from companion.games.crime_lords.mob import (
    check_victory,
    is_lieutenant,
    lieutenants,
    power,
    promoted,
)
from companion.games.crime_lords.state import (
    Attack,
    AttackKind,
    HelpSide,
    Side,
    Stage,
    State,
)
from companion.games.crime_lords.turn import on_turn
from companion.games.emit import Emitter


def _attacker_seat(state: State, sender: int) -> int:
    seat = seat_of(state, sender)
    require_ok(attack_reason(state))
    if state.war is not None:
        require_ok(war_turn_reason(state, seat))
        return seat
    require_ok(turn_reason(state, seat))
    require_ok(collect_reason(state))
    return on_turn(state, sender)


def announce(state: State, action: AttackAction, now: float) -> list[Event]:
    """Name the attacking Crook, the kind of attack and the target; he spends his Action."""
    seat = _attacker_seat(state, action.seat)
    kind = action.kind
    require(state.war is None or kind == "hit", "A Gang War turn is one attempted Hit.")
    attacker = own_crook(state, seat, action.attacker)
    crook = state.mobs[seat].crook(attacker)
    assert crook is not None
    require_ok(token_reason(state, attacker, crook.token))
    target = action.target
    defender = state.owner(target)
    check_target(state, seat, kind, attacker, target, defender)
    limit = state.options.hit_money_limit
    money = action.money if kind == "hit" and action.money is not None else 0
    require(money <= limit, f"At most {limit} G may be spent on a Hit.")
    require_ok(money_reason(state, seat, money))
    b = emitter(state)
    b.emit(TokenSpent(seat, attacker, f"{kind} attempt"))
    if defender == seat:
        _own_hit(b, seat, attacker, target)
        if (state.war is not None and b.state.war is not None
                and not state.options.own_hit_keeps_war_turn):
            b.emit(WarTurnPassed(seat, _next_in_war(b.state, seat), False))
        return b.events
    if money:
        b.emit(MoneyChanged(seat, -money, "money on a Hit"))
    stage: Stage = "support" if kind == "hit" else (
        "protector" if kind == "takeover" and defender is not None else "showdown")
    b.emit(AttackAnnounced(seat, kind, attacker, target, defender, stage, money,
                           state.war is not None))
    return b.events


def check_target(state: State, seat: int, kind: AttackKind, attacker: str, target: str,
                  defender: int | None) -> None:
    where = defender is not None or state.in_center(target)
    want = "racket" if kind == "takeover" else "crook"
    require(where and state.known(target) and state.card(target).kind == want,
            f"{state.label(target)} is not a {want.title()} in play to {kind}.")
    require(target != attacker, "No Crook may attack himself.")
    if kind == "hit":
        if defender == seat and state.mobs[seat].boss == target:
            require(is_lieutenant(state.mobs[seat], attacker),
                    "Only a Lieutenant can double-cross the Boss.")
        return
    require(defender != seat, f"You already control {state.label(target)}.")
    if kind == "recruit":
        require(defender is None or state.mobs[defender].boss != target,
                "A rival Boss cannot be recruited.")
        require(power(state, seat, attacker) > power(state, defender, target),
                f"{state.label(attacker)} needs more Power than {state.label(target)} to "
                "recruit him.")


def _own_hit(b: Emitter[State, Event], seat: int, attacker: str, target: str) -> None:
    """Rubbing out your own Crook succeeds without a roll; a Lieutenant who Hits the Boss
    takes his place (double-cross), and his subordinates, now Lieutenants, lose a marker."""
    was_boss = b.state.mobs[seat].boss == target
    before = lieutenants(b.state.mobs[seat])
    hit_succeeded(b, seat, attacker, seat, target)
    if was_boss and b.state.mobs[seat].crook(attacker) is not None:
        b.emit(BossChosen(seat, attacker))
        promoted(b, seat, before)


def _attack(state: State) -> Attack:
    require(state.attack is not None, "No attack is in progress.")
    assert state.attack is not None
    return state.attack


def protect(state: State, action: Protect, now: float) -> list[Event]:
    """The defender of a Racket names a protector (or none)."""
    a = _attack(state)
    seat = seat_of(state, action.seat)
    require(a.stage == "protector" and seat == a.defender,
            "Only the owner of the attacked Racket names a protector, before the showdown.")
    if action.card is None:
        return [ProtectorNamed(seat, None)]
    card = own_crook(state, seat, action.card)
    crook = state.mobs[seat].crook(card)
    require(crook is not None and crook.token, f"{state.label(card)} has no Action Token.")
    return [TokenSpent(seat, card, "protector"), ProtectorNamed(seat, card)]


def showdown(state: State, action: Showdown, now: float) -> list[Event]:
    """A hand on the table: the amount and the side stay secret until the reveal."""
    a = _attack(state)
    seat = seat_of(state, action.seat)
    require(a.stage == "showdown", "There is no showdown now.")
    amount = action.amount
    side: Side
    if action.side is not None:
        side = action.side
    else:
        require(seat in (a.seat, a.defender),
                "Choose a side: for or against the attack.")
        side = "for" if seat == a.seat else "against"
    require(seat != a.seat or side == "for", "The attacker's money is always for the attack.")
    require(seat != a.defender or side == "against",
            "The defender's money is always against the attack.")
    if seat not in (a.seat, a.defender):
        limit = state.options.showdown_limit
        require(amount <= limit, f"Players outside the attack may spend at most {limit} G.")
    require_ok(money_reason(state, seat, amount))
    b = emitter(state)
    b.emit(ShowdownCommitted(seat, amount, side))
    live = [x for x, m in enumerate(state.mobs) if not m.out]
    attack = b.state.attack
    assert attack is not None
    if {x for x, _, _ in attack.committed} >= set(live):
        b.emit(ShowdownRevealed(tuple(sorted(attack.committed))))
    return b.events


def now(state: State, action: Now, t: float) -> list[Event]:
    """The attacker says "Now": every hand is turned over (no hand counts as 0)."""
    a = _attack(state)
    require(seat_of(state, action.seat) == a.seat, "Only the attacker shows the hands early.")
    require(a.stage == "showdown", "There is no showdown to reveal.")
    return [ShowdownRevealed(tuple(sorted(a.committed)))]


def withdraw(state: State, action: Withdraw, now: float) -> list[Event]:
    """The attacker backs out before the reveal: spent Action Tokens go back."""
    a = _attack(state)
    seat = seat_of(state, action.seat)
    require(seat == a.seat, "Only the attacker can back out.")
    require(a.stage in ("protector", "showdown"),
            "Too late to back out: the showdown was revealed.")
    events: list[Event] = [TokenRestored(a.seat, a.attacker)]
    if a.protector is not None and a.defender is not None:
        events.append(TokenRestored(a.defender, a.protector))
    return events + [AttackWithdrawn(seat)]


def assist(state: State, action: Assist, now: float) -> list[Event]:
    """The events of ``Assist`` (its docstring says what it is)."""
    return _support(state, action.seat, action.card, "attack")


def defend(state: State, action: Defend, now: float) -> list[Event]:
    """A card of the defender spends its Action to defend."""
    return _support(state, action.seat, action.card, "defense")


def _support(state: State, sender: int | None, card: str, side: HelpSide) -> list[Event]:
    """A card spends its Action to aid (``side`` "attack") or defend ("defense")."""
    a = _attack(state)
    seat = seat_of(state, sender)
    require(a.stage == "support", "Aid and defense come after the showdown.")
    mob = state.mobs[seat]
    crook = mob.crook(card)
    holding = next((h for h in mob.rackets if h.card == card), None)
    require(crook is not None or holding is not None,
            f"{state.label(card)} is not one of your cards.")
    require_ok(token_reason(state, card, bool(crook.token if crook else holding and holding.token)))
    problem = support_problem(state, a, seat, card, side)
    require(problem is None, problem or "")
    return [TokenSpent(seat, card, side), Helped(seat, card, side)]


def support_problem(state: State, a: Attack, seat: int, card: str, side: HelpSide) -> str | None:
    """Why ``card`` of ``seat`` may not aid (``side`` "attack") or defend, or None."""
    return (_aid_problem if side == "attack" else _defense_problem)(state, a, seat, card)


def _same_district_racket(state: State, a: Attack, card: str) -> bool:
    c = state.card(card)
    return c.kind == "racket" and c.power > 0 and c.district == state.card(a.target).district


def _aid_problem(state: State, a: Attack, seat: int, card: str) -> str | None:
    if seat != a.seat:
        return ("Only the attacker's cards can aid (for a special ability, change the "
                "success number instead).")
    if a.kind == "takeover" and _same_district_racket(state, a, card):
        return None
    if card not in state.mobs[seat].below(a.attacker):
        return f"Only Crooks under {state.label(a.attacker)} can aid his attack."
    if a.kind != "takeover" and any(s == "attack" for _, _, s in a.helpers):
        return "Only one Crook may aid a recruitment or a Hit."
    return None


def _defense_problem(state: State, a: Attack, seat: int, card: str) -> str | None:
    if seat != a.defender:
        return ("Only the defending Mob's cards can defend (for a special ability, change "
                "the success number instead).")
    mob = state.mobs[seat]
    if a.kind == "hit":
        return None if card == a.target else "Against a Hit only the target hides out."
    if a.kind == "recruit":
        target = mob.crook(a.target)
        ok = target is not None and card == target.superior
        return None if ok else "Only the target's superior can defend against recruitment."
    if _same_district_racket(state, a, card):
        return None
    if a.protector is None or card not in mob.below(a.protector):
        return "Only Crooks under the named protector can defend this Racket."
    return None


def modify(state: State, action: Modify, now: float) -> list[Event]:
    """A special ability or Special card changes the success number (say which)."""
    _attack(state)
    seat = seat_of(state, action.seat)
    value, why = action.value, action.why
    require(bool(why.strip()), "Say which ability or card gives this change.")
    return [ModifierAdded(seat, value, why)]


def roll_dice(state: State, action: Roll, now: float) -> list[Event]:
    """The attacker's dice decide the attack; a Boss Hit starts a Gang War."""
    a = _attack(state)
    require(seat_of(state, action.seat) == a.seat, "The attacker rolls the dice.")
    require(a.stage == "support", "Finish the showdown before rolling.")
    b = emitter(state)
    roll(b, action)
    if b.state.phase != "turn":
        return b.events
    boss_hit = a.kind == "hit" and a.defender is not None and a.defender != a.seat and (
        state.mobs[a.defender].boss == a.target)
    counted = b.state.last_roll is not None and dict(b.state.last_roll)["counted"]
    if a.war:
        _war_after_hit(b, a, bool(counted))
    elif boss_hit and counted and a.defender is not None and not b.state.mobs[a.defender].out:
        _war_starts(b, a.seat, a.defender)
    return b.events


def _war_starts(b: Emitter[State, Event], attacker: int, defender: int) -> None:
    b.emit(Retokened(attacker, False), Retokened(defender, False))
    b.emit(GangWarStarted(attacker, tuple(sorted((attacker, defender))), defender))


def _war_after_hit(b: Emitter[State, Event], a: Attack, counted: bool) -> None:
    war = b.state.war
    assert war is not None
    if counted and a.defender is not None and a.defender not in war.seats:
        b.emit(GangWarJoined(a.defender), Retokened(a.defender, False))
    b.emit(WarTurnPassed(a.seat, _next_in_war(b.state, a.seat), False))


def _next_in_war(state: State, seat: int) -> int:
    war = state.war
    assert war is not None
    n = len(state.seats)
    for step in range(1, n + 1):
        other = (seat - step) % n
        if other in war.seats and not state.mobs[other].out:
            return other
    return seat


def war_pass(state: State, action: WarPass, now: float) -> list[Event]:
    """Pass a Gang War turn; when everyone in the war passes in a row, it is over."""
    war = state.war
    require(war is not None, "There is no Gang War: end your turn instead.")
    assert war is not None
    seat = seat_of(state, action.seat)
    require_ok(war_turn_reason(state, seat))
    require(state.attack is None, "Finish the attack in progress first.")
    live = [x for x in war.seats if not state.mobs[x].out]
    b = emitter(state)
    if war.passes + 1 >= len(live):
        for other in range(len(state.seats)):
            if not state.mobs[other].out:
                b.emit(Retokened(other, False))
        b.emit(GangWarEnded(state.next_seat(war.origin), seat))
        check_victory(b)
    else:
        b.emit(WarTurnPassed(seat, _next_in_war(state, seat), True))
    return b.events
