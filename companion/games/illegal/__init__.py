"""Illegal (ElPadre / Ars Ludii): the rules engine (German original rules win).

Builds the game's ``companion.games.engine.Engine`` (``engine``). The engine never knows
a hidden hand: it keeps hand sizes, tableaux, the draw pile count and the face-up discard
pile; seats reveal their hands after the hand ended, and the outcome appears once every
seat revealed. Interpretations of the rules are in docs/rules/illegal.md; actions in
docs/records.md. Modules: ``state`` (state, options, ``start``), ``deck`` (card data),
``actions``, ``events``, ``decide`` (with ``plays``, ``turns``, ``legality``,
``accounting``), ``fold``, ``moves`` (``moves``, ``waiting``), ``views``, ``describe``,
``inputs``.

Actions (record lines without ``t``): ``play`` (``seat``, ``card``, and where needed
``target``, ``take``, ``discard``, ``lose``, ``cancel``), ``discard`` (``cards``: 1 or 3
identical ids), ``discard_card`` (``card``: one card in the camera's discard zone),
``lose`` (``card``), ``end_turn``, ``trade`` (``with``, ``give``, ``get``),
``magnum_shown`` (a Magnum nobody claimed yet), ``cancel`` (optional ``seat``: an
unfinished move), ``show`` (a Tax Inspection hand laid open), ``reveal`` (``hand``),
``reveal_card`` (``card``), ``deal``. Camera zones: ``inputs`` (``play``, ``discard``,
``seat:N``).

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
    ``because``; "complete_play" with ``card``, ``needs`` and ``step`` (the next step in
    words); "claim_magnum" (``seat`` null); "discarding" with ``cards``; "reveal" with
    ``cards`` count), ``prompt``}; ``unclaimed_magnum`` (bool); ``gathered`` (cards held
    on the discard zone); ``forms``: per seat what its controls offer (``controls`` in
    ``views``: targets, takeable businesses, trade partners, reasons why not); ``cards``
    (every card type);
    ``takeover`` ({``taker``, ``victim``, ``card``} a Magnum may still stop, or null);
    ``ended_by`` ("day_of_accounting" | "draw_pile_empty" | "hand_empty" | null);
    ``accounting`` (null until every hand is revealed, then {``scores``, ``working``: per
    seat {``open``, ``paranoia``, ``highest_in_hand``, ``total``}, ``winners``});
    ``match`` {``to``, ``totals``, ``hands`` (scores per hand, for the chart), ``over``,
    ``winners``}; ``log`` (the last few human sentences).
    A card is {``id``, ``name`` (English), ``name_de``, ``kind``, ``value`` (Euros)}.
``seat_view(state, seat)`` = ``public_view`` + ``me`` {``seat``, ``name``, ``hand``,
    ``your_turn``, ``attention`` (must act now: the phone's turn alert), ``can_end_turn``,
    ``awaiting`` (this seat's entries), ``playable``: per
    card type {``card``, ``ok``, ``reason`` (why not, or null)}}.

``outcome`` (once every seat revealed): ``winners`` = the hand's best score, or at the
end of a match the best total; ``detail``: ``scores`` (this hand, per seat), ``match``
(running totals), ``hand``, ``match_over`` (False between hands of a match: ``deal``
goes on), ``match_to``, ``hands`` (every hand's scores).
"""

from __future__ import annotations

from companion.games.engine import Engine
from companion.games.illegal.actions import ACTIONS
from companion.games.illegal.decide import decide, next_deadline, outcome
from companion.games.illegal.describe import OPTION_SPECS, describe
from companion.games.illegal.events import EVENT_TYPES, Event
from companion.games.illegal.fold import apply
from companion.games.illegal.inputs import action_for_input
from companion.games.illegal.legality import play_reason
from companion.games.illegal.moves import moves, waiting
from companion.games.illegal.state import (
    CHOOSE,
    DEFAULT_OPTIONS,
    MORE,
    OVER,
    TURN,
    Options,
    Phase,
    SeatState,
    State,
    start,
    upgrade_options,
)
from companion.games.illegal.views import (
    log,
    public_view,
    scores,
    secrets,
    signals,
    state_json,
)

engine: Engine[State, Event] = Engine(
    name="illegal",
    title="Illegal",
    aliases=("illegal_elpadre",),
    min_seats=2,
    max_seats=6,
    default_options=DEFAULT_OPTIONS,
    event_types=EVENT_TYPES,
    start=start,
    decide=decide,
    apply=apply,
    outcome=outcome,
    next_deadline=next_deadline,
    public_view=public_view,
    secrets=secrets,
    waiting=waiting,
    state_json=state_json,
    signals=signals,
    action_for_input=action_for_input,
    describe=describe,
    option_specs=OPTION_SPECS,
    actions=ACTIONS,
    moves=moves,
    log=log,
    scores=scores,
    upgrade_options=upgrade_options,
    features=frozenset(),
)

__all__ = [
    "CHOOSE",
    "EVENT_TYPES",
    "MORE",
    "OVER",
    "TURN",
    "Event",
    "Options",
    "Phase",
    "SeatState",
    "State",
    "engine",
    "play_reason",
]
