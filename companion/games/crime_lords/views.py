"""Crime Lords' views: public (everyone), per seat (that seat's phone) and replay (all),
and the buzzer/LED signals.

Hidden: each treasury (the rulebook lets players hide their Gs), Special card names and
showdown hands before the reveal. They leave only through ``seat_view`` of their seat,
and through ``state_json`` (replay knows everything).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.base import SignalOut
from companion.games.crime_lords.attack import breakdown
from companion.games.crime_lords.events import (
    AttackRolled,
    Event,
    GameWon,
    GangWarStarted,
    PayOffDone,
    PlayerOut,
    TurnEnded,
    UnhappyChanged,
    WarTurnPassed,
)
from companion.games.crime_lords.mob import is_lieutenant, own_power, power, racket_score
from companion.games.crime_lords.state import Attack, State


def _crooks(state: State, seat: int) -> list[dict[str, Any]]:
    mob = state.mobs[seat]
    return [
        {
            "card": c.card, "name": state.label(c.card), "power": power(state, seat, c.card),
            "own_power": own_power(state, seat, c.card),
            "resistance": state.card(c.card).resistance, "unhappy": c.unhappy,
            "token": c.token, "superior": c.superior, "boss": c.card == mob.boss,
            "lieutenant": is_lieutenant(mob, c.card),
            "placed": c.superior is not None or c.card == mob.boss,
            "weakness": list(state.card(c.card).weakness),
        }
        for c in mob.crooks
    ]


def _rackets(state: State, seat: int) -> list[dict[str, Any]]:
    out = []
    for h in state.mobs[seat].rackets:
        card = state.card(h.card)
        out.append({"card": h.card, "name": card.name, "income": card.income,
                    "type": card.type, "district": card.district,
                    "power": card.power, "token": h.token})
    return out


def _mob(state: State, seat: int) -> dict[str, Any]:
    mob = state.mobs[seat]
    rackets = _rackets(state, seat)
    return {
        "seat": seat, "name": state.seats[seat], "mob": mob.mob_name or mob.mob_card,
        "boss_bonus": mob.boss_bonus, "boss": mob.boss, "crooks": _crooks(state, seat),
        "rackets": rackets, "income": sum(r["income"] for r in rackets),
        "payroll": sum(power(state, seat, c.card) for c in mob.crooks),
        "specials": len(mob.specials), "score": racket_score(state, seat), "out": mob.out,
    }


def _attack(state: State, a: Attack | None, reveal_hands: bool) -> dict[str, Any] | None:
    if a is None:
        return None
    terms = breakdown(state, a)
    view: dict[str, Any] = {
        "seat": a.seat, "kind": a.kind, "attacker": a.attacker, "target": a.target,
        "defender": a.defender, "stage": a.stage, "protector": a.protector, "war": a.war,
        "breakdown": [[why, value] for why, value in terms],
        "needed": sum(v for _, v in terms),
        "committed": sorted(seat for seat, _, _ in a.committed),
        "revealed": None if a.revealed is None else [
            {"seat": seat, "amount": amount, "side": side} for seat, amount, side in a.revealed
        ],
    }
    if reveal_hands:
        view["hands"] = [{"seat": s, "amount": n, "side": side} for s, n, side in a.committed]
    return view


def _status(state: State) -> str:
    if state.phase == "setup":
        return "Setting up: Mobs, the auction, Bosses."
    if state.winners is not None:
        verb = " controls" if len(state.winners) == 1 else " share"
        return " and ".join(state.seats[x] for x in state.winners) + verb + " the city."
    who = state.seats[state.turn]
    if state.war is not None:
        return f"Gang War: {who}'s turn to Hit or pass."
    if state.attack is not None:
        return f"{state.seats[state.attack.seat]} is attacking ({state.attack.stage})."
    if state.step == "collect":
        return f"{who}: collect income and pay off the gang."
    return f"{who}'s turn: draw and act."


def public_view(state: State) -> dict[str, Any]:
    """What everyone may see (no treasury, no hidden hand); keys in the package docstring."""
    last = None if state.last_roll is None else {
        k: ([list(t) for t in v] if k == "breakdown" else (list(v) if k == "dice" else v))
        for k, v in state.last_roll
    }
    return {
        "game": "crime_lords", "title": "Crime Lords", "status": _status(state),
        "seats": list(state.seats), "phase": state.phase, "step": state.step,
        "turn": None if state.phase != "turn" else state.turn,
        "rackets_to_win": state.options.rackets_to_win,
        "mobs": [_mob(state, seat) for seat in range(len(state.seats))],
        "center": [
            {"card": c, "name": state.label(c), "kind": state.card(c).kind,
             "power": state.card(c).power + plus, "resistance": state.card(c).resistance,
             "income": state.card(c).income}
            for c, plus in state.center
        ],
        "attack": _attack(state, state.attack, False),
        "war": None if state.war is None else {
            "origin": state.war.origin, "seats": list(state.war.seats),
            "turn": state.war.turn, "passes": state.war.passes,
        },
        "last_roll": last,
        "winners": None if state.winners is None else list(state.winners),
        "log": list(state.log[-12:]),
    }


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """The public view plus ``me``: the seat's money, Specials and showdown hand."""
    view = public_view(state)
    mob = state.mobs[seat]
    hand = None
    if state.attack is not None:
        hand = next(
            ({"amount": n, "side": side} for s, n, side in state.attack.committed if s == seat),
            None,
        )
    view["me"] = {
        "seat": seat, "name": state.seats[seat], "money": mob.money,
        "auction_money": mob.auction_money, "specials": list(mob.specials), "showdown": hand,
    }
    return view


def state_json(state: State) -> dict[str, Any]:
    """Everything, for ``companion replay --json``."""
    view = public_view(state)
    view["attack"] = _attack(state, state.attack, True)
    view["money"] = [m.money for m in state.mobs]
    view["specials"] = [list(m.specials) for m in state.mobs]
    view["discard"] = list(state.discard)
    view["log"] = list(state.log)
    view["ledger"] = {state.seats[seat]: _ledger(state, seat) for seat in range(len(state.seats))}
    return view


def _ledger(state: State, seat: int) -> dict[str, Any]:
    """One Mob keyed by card, so a record's expectation can name just what it checks."""
    mob = state.mobs[seat]
    return {
        "money": mob.money, "score": racket_score(state, seat), "boss": mob.boss,
        "out": mob.out, "rackets": [h.card for h in mob.rackets],
        "crooks": {
            c.card: {"power": power(state, seat, c.card), "unhappy": c.unhappy,
                     "superior": c.superior, "token": c.token}
            for c in mob.crooks
        },
    }


def signals(state: State, events: Sequence[Event]) -> list[SignalOut]:
    """Buzzer/LED cues: the turn passing, attacks that succeed or fail, penalties, the end."""
    out: list[SignalOut] = []
    for event in events:
        if isinstance(event, TurnEnded):
            out.append(("turn", event.next))
        elif isinstance(event, WarTurnPassed | GangWarStarted):
            out.append(("turn", event.to if isinstance(event, WarTurnPassed) else event.turn))
        elif isinstance(event, AttackRolled):
            out.append(("upheld" if event.success else "not_upheld", event.seat))
        elif isinstance(event, UnhappyChanged) and event.delta > 0:
            out.append(("penalty", event.seat))
        elif isinstance(event, PlayerOut):
            out.append(("penalty", event.seat))
        elif isinstance(event, PayOffDone):
            out.append(("card", event.seat))
        elif isinstance(event, GameWon):
            out.append(("game_over", None))
    return out
