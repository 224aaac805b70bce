"""Illegal: what the dashboard, each phone and ``companion replay`` see (JSON-ready dicts).

The state holds no hidden hand, so ``public_view`` is safe for everyone; ``seat_view``
adds what only matters to that seat (which card types it may play now, and why not).
The keys are documented in ``companion/games/illegal/__init__.py``. ``signals`` answers
the buzzer and LEDs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.base import SignalOut
from companion.games.illegal.accounting import working
from companion.games.illegal.deck import card, card_ids, value
from companion.games.illegal.events import (
    BusinessLost,
    BusinessTaken,
    CardPlayed,
    CardsDiscarded,
    Event,
    HandScored,
    TurnStarted,
)
from companion.games.illegal.fold import euros
from companion.games.illegal.legality import play_reason
from companion.games.illegal.state import CHOOSE, MORE, OVER, State


def card_json(card_id: str) -> dict[str, Any]:
    c = card(card_id)
    return {
        "id": c.id,
        "name": c.label("en"),
        "name_de": c.label("de"),
        "kind": c.kind,
        "value": c.value,
    }


def _seat_json(state: State, i: int) -> dict[str, Any]:
    s = state.seats[i]
    return {
        "seat": i,
        "name": s.name,
        "active": state.phase != OVER and i == state.turn,
        "market_open": s.market_open,
        "hassle": card_json(s.hassle) if s.hassle else None,
        "businesses": [card_json(b) for b in s.businesses],
        "open_total": sum(value(b) for b in s.businesses),
        "hand": s.hand,
        "skips": s.skips,
        "shown": [card_json(c) for c in s.shown],
        "revealed": None if s.revealed is None else [card_json(c) for c in s.revealed],
        "pending": s.pending,
    }


def _awaiting(state: State) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    a = state.awaiting
    if a is not None and state.phase == CHOOSE:
        out.append(
            {
                "seat": a.seat,
                "name": state.name(a.seat),
                "what": "lose",
                "choices": [card_json(c) for c in a.choices],
                "because": card_json(a.because),
                "prompt": f"{state.name(a.seat)}: choose the business the "
                f"{card(a.because).label()} takes",
            }
        )
    for i, s in enumerate(state.seats):
        if s.pending:
            out.append(
                {
                    "seat": i,
                    "name": s.name,
                    "what": "complete_play",
                    "card": card_json(s.pending),
                    "prompt": f"{s.name}: choose the target or choice for {card(s.pending).label()}",
                }
            )
    if state.phase == OVER:
        for i, s in enumerate(state.seats):
            if s.revealed is None or len(s.revealed) < s.hand:
                out.append(
                    {
                        "seat": i,
                        "name": s.name,
                        "what": "reveal",
                        "cards": s.hand,
                        "prompt": f"{s.name}: show your {s.hand} cards",
                    }
                )
    return out


def status(state: State) -> str:
    """A short human line about what happens now."""
    who = state.name(state.turn)
    if state.phase == OVER:
        if state.scores is None:
            return f"Hand {state.hand_no} is over: show your hands for the accounting"
        names = " and ".join(state.name(w) for w in state.winners)
        if state.match_over and state.options.match_to > 0:
            best = max(state.totals)
            return f"{names} win(s) the match with {euros(best)}"
        if state.match_over:
            return f"{names} win(s) with {euros(max(state.scores))}"
        return f"{names} win(s) hand {state.hand_no}; deal the next hand"
    if state.phase == CHOOSE and state.awaiting is not None:
        return f"{state.name(state.awaiting.seat)} must choose a business to lose"
    pending = state.seats[state.turn].pending
    if pending:
        return f"{who}: choose the target or choice for {card(pending).label()}"
    if state.phase == MORE:
        if "illegal_business" in state.turn_done:
            return f"{who} may add a legal business, or end the turn"
        return f"{who} may discard three identical cards, or end the turn"
    return f"{who}'s turn: play or discard a card"


def _accounting(state: State) -> dict[str, Any] | None:
    if state.scores is None:
        return None
    return {
        "scores": list(state.scores),
        "working": [working(s) for s in state.seats],
        "winners": list(state.winners),
    }


def public_view(state: State) -> dict[str, Any]:
    """What every phone and the table screen may see (module doc of ``illegal``)."""
    last = state.last_takeover
    return {
        "game": "illegal",
        "hand_no": state.hand_no,
        "dealer": state.dealer,
        "turn": state.turn,
        "phase": state.phase,
        "status": status(state),
        "draw_pile": state.draw_pile,
        "discard_pile": {
            "count": len(state.discards),
            "top": card_json(state.discards[-1]) if state.discards else None,
        },
        "seats": [_seat_json(state, i) for i in range(state.n)],
        "awaiting": _awaiting(state),
        "takeover": None
        if last is None
        else {"taker": last.taker, "victim": last.victim, "card": card_json(last.card)},
        "ended_by": state.ended_by,
        "accounting": _accounting(state),
        "match": {
            "to": state.options.match_to,
            "totals": list(state.totals),
            "hands": [list(h) for h in state.history],
            "over": state.match_over,
            "winners": list(state.winners) if state.match_over else [],
        },
        "log": list(state.notes),
    }


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """``public_view`` plus ``me``: this seat's playable card types and why not."""
    view = public_view(state)
    playable = []
    for cid in card_ids():
        reason = play_reason(state, seat, cid)
        playable.append({"card": card_json(cid), "ok": reason is None, "reason": reason})
    s = state.seats[seat]
    mine = [a for a in view["awaiting"] if a["seat"] == seat]
    view["me"] = {
        "seat": seat,
        "name": s.name,
        "hand": s.hand,
        "your_turn": state.phase != OVER and state.turn == seat,
        "can_end_turn": state.phase == MORE and state.turn == seat and not s.pending,
        "awaiting": mine,
        "playable": playable,
    }
    return view


def state_json(state: State) -> dict[str, Any]:
    """Everything, for ``companion replay --json`` (ids, not names)."""
    return {
        "hand_no": state.hand_no,
        "dealer": state.dealer,
        "turn": state.turn,
        "phase": state.phase,
        "draw_pile": state.draw_pile,
        "discards": list(state.discards),
        "seats": [
            {
                "name": s.name,
                "market_open": s.market_open,
                "hassle": s.hassle,
                "businesses": list(s.businesses),
                "hand": s.hand,
                "skips": s.skips,
                "shown": list(s.shown),
                "revealed": None if s.revealed is None else list(s.revealed),
                "pending": s.pending,
            }
            for s in state.seats
        ],
        "awaiting": None
        if state.awaiting is None
        else {
            "seat": state.awaiting.seat,
            "what": state.awaiting.what,
            "choices": list(state.awaiting.choices),
            "because": state.awaiting.because,
        },
        "ended_by": state.ended_by,
        "scores": None if state.scores is None else list(state.scores),
        "totals": list(state.totals),
        "history": [list(h) for h in state.history],
        "match_over": state.match_over,
        "status": status(state),
    }


def signals(state: State, events: Sequence[Event]) -> list[SignalOut]:
    """Buzzer/LED signals: a card accepted, a business lost or taken, whose turn, game over."""
    out: list[SignalOut] = []
    for e in events:
        if isinstance(e, CardPlayed | CardsDiscarded):
            out.append(("card", e.seat))
        elif isinstance(e, BusinessLost):
            out.append(("penalty", e.seat))
        elif isinstance(e, BusinessTaken):
            out.append(("penalty", e.victim))
        elif isinstance(e, TurnStarted):
            out.append(("turn", e.seat))
        elif isinstance(e, HandScored) and e.match_over:
            out.append(("game_over", None))
    return out
