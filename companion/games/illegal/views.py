"""Illegal: what the dashboard, each phone and ``companion replay`` see (JSON-ready dicts).

The state holds no hidden hand, so ``public_view`` is safe for everyone and ``secrets``
is empty; what a seat may do now is ``moves``. The keys are documented in
``companion/games/illegal/__init__.py``. ``log`` and ``scores`` are the shared shapes;
``signals`` answers the buzzer and LEDs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.games.base import SignalOut
from companion.games.illegal.accounting import working
from companion.games.illegal.deck import card, card_ids, is_business, label, value
from companion.games.illegal.events import (
    BusinessLost,
    BusinessTaken,
    CardPlayed,
    CardsDiscarded,
    Event,
    HandScored,
    TurnStarted,
)
from companion.games.illegal.legality import (
    discard_reason,
    empty_handed,
    hassle_targets,
    loss_choices,
    solution_targets,
    takeover_victims,
)
from companion.games.illegal.state import CHOOSE, MORE, OVER, TURN, State
from companion.games.money import euros
from companion.games.moves import Scores
from companion.games.words import listed, plurals

#: What a shown card still needs, as the table screen says it.
WAITING_FOR = {
    "discard": "the business card it costs",
    "target": "its target",
    "take": "the business taken over",
    "lose": "the business it costs",
}
_TAKE = "Now show the business you take over (or choose it here)"
_TAKE_WHOSE = "Now show the business you take over, or choose whose"
#: What a shown card still needs, as its player's phone says it.
NEXT_STEP = {
    ("bribe", "discard"): "Now show the business card your Bribe costs (or choose it here)",
    ("bribe", "target"): "Choose whose hassle your Bribe removes",
    ("hostile_takeover", "take"): _TAKE,
    ("hostile_takeover", "target"): _TAKE_WHOSE,
    ("relatives", "take"): _TAKE,
    ("relatives", "target"): _TAKE_WHOSE,
    ("magnum", "target"): "Choose what your Magnum does: remove a hassle or stop the takeover",
}


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
        "pending_card": card_json(s.pending) if s.pending else None,
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
    if state.unclaimed:
        out.append(
            {
                "seat": None,
                "name": None,
                "what": "claim_magnum",
                "prompt": 'Whose Magnum? Its player claims it on their phone or with their button',
            }
        )
    for i, s in enumerate(state.seats):
        if s.pending:
            step = NEXT_STEP.get(
                (s.pending, s.pending_needs or ""),
                f"choose the {s.pending_needs or 'target'} for {card(s.pending).label()}",
            )
            out.append(
                {
                    "seat": i,
                    "name": s.name,
                    "what": "complete_play",
                    "card": card_json(s.pending),
                    "needs": s.pending_needs,
                    "prompt": f"{s.name} shows a {card(s.pending).label()}: next, "
                    f"{WAITING_FOR.get(s.pending_needs or '', 'its target')}",
                    "step": step,
                }
            )
    if state.gathered and state.phase != OVER:
        name = state.name(state.turn)
        out.append(
            {
                "seat": state.turn,
                "name": name,
                "what": "discarding",
                "cards": [card_json(c) for c in state.gathered],
                "prompt": f"{name} is discarding {len(state.gathered)} × "
                f"{label(state.gathered[0])}: add identical cards for three, or end the turn",
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
                        "prompt": f"{s.name} shows their {s.hand} "
                        f"card{'' if s.hand == 1 else 's'}"
                        if s.hand
                        else f"{s.name} holds no cards: one tap reveals the empty hand",
                    }
                )
    return out


def status(state: State, money: Callable[[int], str] = euros, *, plain: bool = False) -> str:
    """A short human line about what happens now (amounts written by ``money``; ``plain``:
    the wording of ``companion replay --json``, which has not changed since format 1)."""
    who = state.name(state.turn)
    if state.phase == OVER and plain:
        return _plain_over(state, money)
    if state.phase == OVER:
        if state.scores is None:
            return f"Hand {state.hand_no} is over: every player shows their hand for the accounting"
        names = listed(state.name(w) for w in state.winners)
        win = "win" if len(state.winners) > 1 else "wins"
        if state.match_over and state.options.match_to > 0:
            return f"{names} {win} the match with {money(max(state.totals))}"
        if state.match_over:
            return f"{names} {win} with {money(max(state.scores))}"
        return f"{names} {win} hand {state.hand_no}; the host deals the next hand"
    if state.phase == CHOOSE and state.awaiting is not None:
        return f"{state.name(state.awaiting.seat)} must choose a business to lose"
    if state.unclaimed:
        return "Whose Magnum? Its player claims it"
    active = state.seats[state.turn]
    if active.pending and plain:
        return f"{who}: choose the target or choice for {card(active.pending).label()}"
    if active.pending:
        what = WAITING_FOR.get(active.pending_needs or "", "its target")
        return f"{who} shows a {card(active.pending).label()}: next, {what}"
    if state.phase == MORE:
        if "illegal_business" in state.turn_done:
            return f"{who} may add a legal business, or end the turn"
        return f"{who} may discard three identical cards, or end the turn"
    if empty_handed(state, state.turn):
        then = "the hand ends" if state.options.empty_hand == "ends" else "draws one card"
        return f"{who} holds no card: {who} ends the turn and {then}"
    return f"{who}'s turn: play or discard a card"


def _plain_over(state: State, money: Callable[[int], str]) -> str:
    """The end of a hand in ``companion replay --json``'s wording (unchanged since format 1)."""
    if state.scores is None:
        return f"Hand {state.hand_no} is over: show your hands for the accounting"
    names = listed(state.name(w) for w in state.winners)
    if state.match_over and state.options.match_to > 0:
        return f"{names} win(s) the match with {money(max(state.totals))}"
    if state.match_over:
        return f"{names} win(s) with {money(max(state.scores))}"
    return f"{names} win(s) hand {state.hand_no}; deal the next hand"


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
        "unclaimed_magnum": state.unclaimed,
        "forms": [controls(state, i) for i in range(state.n)],  # what each seat may choose
        "cards": [card_json(c) for c in card_ids()],
        "gathered": [card_json(c) for c in state.gathered],
        "accounting": _accounting(state),
        "match": {
            "to": state.options.match_to,
            "totals": list(state.totals),
            "hands": [list(h) for h in state.history],
            "over": state.match_over,
            "winners": list(state.winners) if state.match_over else [],
        },
        "log": log(state),
    }


def secrets(state: State, seat: int) -> dict[str, Any]:
    """Nothing: the engine never knows a hand's cards (its size is public)."""
    return {}


def log(state: State) -> list[str]:
    """The last few sentences of the hand (the dashboard's short log)."""
    return [plurals(line) for line in state.log]


def scores(state: State) -> Scores | None:
    """Every scored hand (one row per hand) and the match totals, in Euros."""
    if not state.history:
        return None
    target = state.options.match_to or None
    return Scores(tuple(float(t) for t in state.totals),
                  tuple(tuple(float(x) for x in h) for h in state.history), "€", target)


def _names(state: State, seats: Sequence[int]) -> list[dict[str, Any]]:
    return [{"seat": i, "name": state.name(i)} for i in seats]


def controls(state: State, seat: int) -> dict[str, Any]:
    """What the phone's (and the host's) forms for ``seat`` offer, each with why not."""
    s = state.seats[seat]
    others = [i for i in range(state.n) if i != seat]
    trade_reason = None
    if state.phase == OVER or state.turn != seat or state.phase not in (TURN, MORE):
        trade_reason = "Trade only on your own turn, before it ends"
    elif s.hand < 1:
        trade_reason = "You hold no card to give"
    one = discard_reason(state, seat, ("tropical_fish",))
    three = discard_reason(state, seat, ("market_open",) * 3)
    return {
        "targets": {
            "hassle": _names(state, hassle_targets(state, seat)),
            "solution": _names(state, solution_targets(state, "magnum")),
            "takeover": _names(state, takeover_victims(state, seat)),
        },
        "takeable": [
            {"seat": i, "name": state.name(i), "card": card_json(b)}
            for i in takeover_victims(state, seat)
            for b in dict.fromkeys(state.seats[i].businesses)
        ],
        "businesses": [card_json(c) for c in card_ids() if is_business(c)],
        "own_businesses": [card_json(b) for b in dict.fromkeys(s.businesses)],
        "partners": [
            {"seat": i, "name": state.name(i), "hand": state.seats[i].hand} for i in others
        ],
        "trade_reason": trade_reason,
        # the reasons that do not depend on the card: the form lists every card
        "discard_reason": _turn_only(one),
        "triple_reason": _turn_only(three),
        "may_lose_now": state.phase == MORE
        and state.turn == seat
        and len(loss_choices(state, seat)) > 1,
        "loss_choices": [card_json(c) for c in loss_choices(state, seat)],
        "can_claim_magnum": state.unclaimed and s.hand > 0,
        "reveal_left": 0 if s.revealed is not None and len(s.revealed) >= s.hand else s.hand,
        "show_open": s.hassle == "tax_inspection" and state.phase != OVER,
    }


def _turn_only(reason: str | None) -> str | None:
    """A discard refusal that holds for every card (not the card's own rule)."""
    if reason is None or "paranoia" in reason or "deck has" in reason or "identical" in reason:
        return None
    return reason


def plain_euros(amount: int) -> str:
    """An amount in plain text, as the rules write it: "65.000 €"."""
    return f"{amount:,} €".replace(",", ".")


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
        # plain "10.000 €" as the rules text writes amounts, and a shown card's wording, as
        # replay --json always did
        "status": status(state, plain_euros, plain=True),
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
