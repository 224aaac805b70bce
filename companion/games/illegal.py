"""Illegal (ElPadre / Ars Ludii): the rules engine (German original rules win).

Follows ``companion.games.base.Engine``. The engine never knows a hidden hand: it keeps
hand sizes, tableaux, the draw pile count and the face-up discard pile; seats reveal
their hands after the hand ended, and the outcome appears once every seat revealed.
Interpretations of the rules are in docs/rules/illegal.md; actions in docs/records.md.

Actions (record lines without ``t``): ``play`` (``seat``, ``card``, and where needed
``target``, ``take``, ``discard``, ``lose``, ``cancel``), ``discard`` (``cards``: 1 or 3
identical ids), ``lose`` (``card``), ``end_turn``, ``show`` (a Tax Inspection hand laid
open), ``reveal`` (``hand``), ``reveal_card`` (``card``), ``deal``.

``public_view(state)`` keys (everything there is public):
    ``game`` "illegal"; ``hand_no``; ``dealer``; ``turn`` (seat); ``phase`` ("turn": play
    or discard, "more": may add a legal business / a triple discard or end the turn,
    "choose": a loss must be chosen, "over": hand ended); ``status`` (a human line);
    ``draw_pile`` (count); ``discard_pile`` {``count``, ``top``: card or null};
    ``seats``: list of {``seat``, ``name``, ``active``, ``market_open`` (bool), ``hassle``
    (card or null), ``businesses`` (cards, in play order), ``open_total`` (Euros),
    ``hand`` (size), ``skips`` (turns still to sit out), ``shown`` (cards of a hand laid
    open under Tax Inspection), ``revealed`` (cards or null), ``pending`` (id of a card
    shown whose target/choice is missing, or null)};
    ``awaiting``: list of {``seat``, ``name``, ``what`` ("lose" with ``choices`` and
    ``because``; "complete_play" with ``card``; "reveal" with ``cards`` count), ``prompt``};
    ``takeover`` ({``taker``, ``victim``, ``card``} a Magnum may still stop, or null);
    ``ended_by`` ("day_of_accounting" | "draw_pile_empty" | "hand_empty" | null);
    ``accounting`` (null until every hand is revealed, then {``scores``, ``working``: per
    seat {``open``, ``paranoia``, ``highest_in_hand``, ``total``}, ``winners``});
    ``match`` {``to``, ``totals``, ``hands`` (scores per hand, for the chart), ``over``,
    ``winners``}; ``log`` (the last few human sentences).
    A card is {``id``, ``name`` (English), ``name_de``, ``kind``, ``value`` (Euros)}.
``seat_view(state, seat)`` = ``public_view`` + ``me`` {``seat``, ``name``, ``hand``,
    ``your_turn``, ``can_end_turn``, ``awaiting`` (this seat's entries), ``playable``: per
    card type {``card``, ``ok``, ``reason`` (why not, or null)}}.

``outcome`` (once every seat revealed): ``winners`` = the hand's best score, or at the
end of a match the best total; ``detail``: ``scores`` (this hand, per seat), ``match``
(running totals), ``hand``, ``match_over`` (False between hands of a match: ``deal``
goes on), ``match_to``, ``hands`` (every hand's scores).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import Any

from companion.games import illegal_flow, illegal_views
from companion.games.base import (
    Action,
    IllegalAction,
    Outcome,
    Setup,
    SetupError,
    check_options,
    check_seats,
)
from companion.games.illegal_fold import apply_event
from companion.games.illegal_model import (
    EVENT_TYPES,
    HAND_SIZE,
    OVER,
    BusinessLost,
    BusinessTaken,
    CardPlayed,
    CardsDiscarded,
    HandDealt,
    HandScored,
    Options,
    SeatState,
    State,
    TurnStarted,
    card_ids,
)

name = "illegal"
aliases: tuple[str, ...] = ("illegal_elpadre",)
title = "Illegal"
min_seats = 2
max_seats = 6
default_options: Mapping[str, Any] = {
    "dealer": None,  # seat index; None = the last seat, so seat 0 starts
    "match_to": 0,  # 0 = a single hand; else 500000 or 1000000 (any positive amount)
    "draw": "one",  # "one" card after a turn (German text) | "refill" to 7 (translator)
    "hassle_leaves": "end_of_turn",  # when an empty Raid/Protection goes: | "at_once"
    "magnum_restores_hassle": False,  # a Magnum stopping Relatives also undoes its relief
}
event_types: Mapping[str, type] = EVENT_TYPES

_CHOICES = {"draw": ("one", "refill"), "hassle_leaves": ("end_of_turn", "at_once")}


def _options(setup: Setup) -> Options:
    raw = check_options(_self(), setup.options)
    n = setup.n_seats
    dealer = n - 1 if raw["dealer"] is None else raw["dealer"]
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < n:
        raise SetupError(f"illegal: option dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
    match_to = raw["match_to"]
    if isinstance(match_to, bool) or not isinstance(match_to, int) or match_to < 0:
        raise SetupError(
            f"illegal: option match_to must be 0 (one hand) or a positive amount such as "
            f"500000, not {match_to!r}"
        )
    for key, allowed in _CHOICES.items():
        if raw[key] not in allowed:
            raise SetupError(f"illegal: option {key} must be one of {', '.join(allowed)}")
    if not isinstance(raw["magnum_restores_hassle"], bool):
        raise SetupError("illegal: option magnum_restores_hassle must be true or false")
    return Options(
        dealer, match_to, raw["draw"], raw["hassle_leaves"], raw["magnum_restores_hassle"]
    )


def _self() -> Any:
    return sys.modules[__name__]  # this module is the engine (base.Engine)


def new_game(setup: Setup) -> State:
    """The first hand dealt: 7 cards each, the seat left of the dealer starts."""
    check_seats(_self(), setup)
    opts = _options(setup)
    n = setup.n_seats
    blank = State(
        options=opts,
        seats=tuple(SeatState(name=s) for s in setup.seats),
        hand_no=0,
        dealer=opts.dealer,
        turn=0,
        phase=OVER,
        turn_done=(),
        draw_pile=0,
        totals=tuple(0 for _ in range(n)),
    )
    first = (opts.dealer + 1) % n
    state = apply_event(blank, HandDealt(1, opts.dealer, first, 108 - HAND_SIZE * n))
    return apply_event(state, TurnStarted(first))


def decide(state: State, action: Action, now: float) -> list[Any]:
    """The events ``action`` causes; ``IllegalAction`` with the rule that forbids it."""
    return illegal_flow.decide(state, action)


def apply(state: State, event: Any) -> State:
    return apply_event(state, event)


def outcome(state: State) -> Outcome | None:
    """The hand's (or the match's) result once every seat revealed its hand."""
    if state.scores is None:
        return None
    return Outcome.of(
        state.winners,
        {
            "scores": list(state.scores),
            "match": list(state.totals),
            "hand": state.hand_no,
            "match_over": state.match_over,
            "match_to": state.options.match_to,
            "hands": [list(h) for h in state.history],
        },
    )


def next_deadline(state: State) -> float | None:
    return None  # Illegal has no timed rule


def public_view(state: State) -> dict[str, Any]:
    return illegal_views.public_view(state)


def seat_view(state: State, seat: int) -> dict[str, Any]:
    return illegal_views.seat_view(state, seat)


def state_json(state: State) -> dict[str, Any]:
    return illegal_views.state_json(state)


def signals(state: State, events: Sequence[Any]) -> list[tuple[str, int | None]]:
    """Buzzer/LED signals: a card accepted, a business lost or taken, whose turn, game over."""
    out: list[tuple[str, int | None]] = []
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


PLAY_ZONES = ("play", "pile", None)


def action_for_input(state: State, inp: Mapping[str, Any]) -> Action | None:
    """A table input as an action (see module doc); ``None`` when it means nothing now.

    A card shown in the play zone is played by the seat whose turn it is (a Magnum too;
    its player's phone then completes it with the right seat). After the hand, cards
    shown are the hand of the first seat still to reveal. The confirm button ends an
    open turn; a seat button names the target of a pending play; "next" deals.
    """
    kind = inp.get("kind")
    if kind == "tag_seen" and inp.get("zone") in PLAY_ZONES:
        card = inp.get("card")
        if card not in card_ids():
            raise IllegalAction("That tag is not an Illegal card: show a card of this deck")
        if state.phase == OVER:
            for i, s in enumerate(state.seats):
                if s.revealed is None or len(s.revealed) < s.hand:
                    return {"do": "reveal_card", "seat": i, "card": card}
            return None
        return {"do": "play", "seat": state.turn, "card": card}
    if kind != "button":
        return None
    return _button(state, inp)


def _button(state: State, inp: Mapping[str, Any]) -> Action | None:
    role, seat = inp.get("role"), inp.get("seat")
    if role == "next" and state.phase == OVER and state.scores is not None:
        return {"do": "deal"}
    if state.phase == OVER:
        return None
    if role == "confirm" and state.phase == "more":
        return {"do": "end_turn", "seat": state.turn}
    active = state.seats[state.turn]
    if role == "seat" and isinstance(seat, int) and active.pending:
        return {"do": "play", "seat": state.turn, "card": active.pending, "target": seat}
    return None
