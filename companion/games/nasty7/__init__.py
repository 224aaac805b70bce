"""The Nasty 7 (*Die fiesen 7*): the count, skips, the 3-second rule, accusations, stacks.

A pure engine (``engine``, a ``companion.games.engine.Engine``); the rules and every
interpretation are in ``docs/rules/nasty7.md``. Actions (record lines without ``t``):

- ``{"do": "play", "card": id}`` by the seat whose turn it is; optional ``"seat"`` (a
  different seat marks an out-of-turn play: that seat takes the pile) and ``"serial"``
  (the physical card, so the same card cannot be played twice while on the pile).
- ``{"do": "accuse", "by": [seats], "against": seat, "upheld": bool}`` settles at once;
  without ``upheld`` it opens a pending accusation (the count is revealed, the clock
  stops) that more seats may join with further ``accuse`` actions, settled by
  ``{"do": "rule", "upheld": bool}`` or dropped by ``{"do": "withdraw"}``.
  An accusation may name what it alleges: ``"kind"`` ``wrong_number``, ``wrong_word``,
  ``spoke_on_gun`` or ``hesitation``.
- ``{"do": "mistake", "seat": s, "kind": "wrong_number"|"wrong_word"|"spoke_on_gun"}``.
- Host corrections (never from a phone): ``{"do": "reassign", "by": s}`` (the last card
  was played by ``s``: a seat that was not to play takes the pile), ``{"do":
  "replace_card", "card": id}`` (the last card was misread), ``{"do": "missed_card",
  "card": id}`` (optional ``"at"``: when it landed; the camera missed a card of the seat
  to play), ``{"do": "hesitation"}`` (optional ``"against"``: the seat to play hesitated,
  recorded by hand).
- ``{"do": "word", "text": "..."}`` (option ``nasty``; optional ``"seat"``).
- ``{"do": "deadline"}`` at ``next_deadline``: the hesitation rule (or, after a seat's
  last card, the end of the game).

Views: ``public_view`` (the table: ``status``, ``seats`` with card counts, ``turn``,
``skipping``, ``pile``, ``top``, ``word``, ``deadline``/``timer`` for the hesitation bar,
``accusation``, ``revealed_count``/``revealed`` only on an accusation or a penalty, never
the running count during play), ``seat_view`` (adds ``you``, ``your_cards``,
``your_turn``, ``you_skip``, ``can_accuse``, ``choose_word``) and ``state_json`` (the
referee: everything). Every key is documented in ``companion.games.nasty7.views``.

The package: ``state`` (options, ``State``, the count), ``events``, ``decide`` (the
rules and penalties), ``fold`` (``apply``), ``views`` and ``inputs`` (camera tags and
buttons).
"""

from __future__ import annotations

from companion.games.engine import Engine
from companion.games.nasty7.actions import ACTIONS
from companion.games.nasty7.decide import decide, next_deadline, outcome
from companion.games.nasty7.describe import OPTION_SPECS, describe
from companion.games.nasty7.events import EVENT_TYPES, Event
from companion.games.nasty7.fold import apply
from companion.games.nasty7.inputs import action_for_input
from companion.games.nasty7.state import (
    CARDS,
    DEFAULT_OPTIONS,
    FIGURES,
    MISTAKES,
    PILE_REASONS,
    MistakeKind,
    PileReason,
    Rules,
    State,
    number_for,
    start,
)
from companion.games.nasty7.views import public_view, seat_view, signals, state_json

__all__ = [
    "CARDS",
    "FIGURES",
    "MISTAKES",
    "PILE_REASONS",
    "Event",
    "MistakeKind",
    "PileReason",
    "Rules",
    "State",
    "engine",
    "number_for",
]

engine: Engine[State, Event] = Engine(
    name="nasty7",
    title="The Nasty 7",
    aliases=("fiese7", "fiese_7", "die_fiesen_7", "the_nasty_7", "nasty_7"),
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
    seat_view=seat_view,
    state_json=state_json,
    signals=signals,
    action_for_input=action_for_input,
    describe=describe,
    option_specs=OPTION_SPECS,
    actions=ACTIONS,
)
