"""Casablanca (Amigo): secret bribe sheets, protests settled blind, eliminations, the winner.

The engine is ``engine`` below (``companion.games.engine.Engine``). Rules choices:
docs/rules/casablanca.md; record actions: docs/records.md. Seats are in clockwise order
and seat 0 starts.

Actions (a record line without ``t``)::

    {"do": "bribe", "seat": s, "amounts": [{"agent": a, "amount": 500}, ...]}
    {"do": "move", "seat": s, "agent": a, "to": space or "home", "suitcase": bool}
    {"do": "eliminate", "seat": s, "agent": a, "target": b}
    {"do": "protest", "seat": p}       against the pending move/elimination
    {"do": "resolve"}                  commit the pending action / end a follow-up window

A move or elimination is *announced* (pending) and takes effect when the next action
that is not a protest arrives (its events come first, then that action's), on
``{"do": "resolve"}`` (the table's confirm button), or at the end of a record:
replay folds ``end_of_record(state)`` after the last line. ``outcome`` never treats a
pending action as done, so the live table does not end a game before its protests.
With ``move_then_eliminate`` a committed move whose agent shares its space with an
agent it could eliminate leaves a *follow-up window*: the mover may still announce an
elimination with that agent; the next seat's action (or ``resolve``) closes it.

Privacy: amounts leave only through ``seat_view`` of their seat, and through
``public_view`` once the game is over. Refusal reasons never contain a bribe amount,
but a refusal of a seat's own bribe/protest/elimination says something about its
sheet: send it to that seat's phone only. ``BribesPlaced`` events carry the amounts,
so raw events must never be sent to clients.

``public_view(state)`` keys:
  ``game``, ``title``, ``status`` (one human line), ``seats`` (names), ``turn`` (seat
  on turn, ``None`` when over), ``phase`` (``"turn"`` | ``"pending"`` | ``"follow_up"``
  | ``"over"``), ``agents`` (list of ``{id, name, colour, homebase, space, at_home,
  status: "active"|"eliminated", suitcase: bool}``), ``suitcase`` (``{space, agent}``),
  ``pending`` (``None`` or an announcement: ``{kind: "move"|"eliminate", seat, agent,
  to, suitcase, target, text, protests: [{seat, upheld, called}], may_protest: [seats
  whose turn to protest has not passed], result}``), ``last`` (the last announcement,
  same shape, ``result`` ``"pending"``|``"done"``|``"cancelled"``), ``may_bribe`` (the
  seat on turn has not lost a protest this turn), ``follow_up`` (agent id or ``None``),
  ``log`` (recent public lines), ``options`` (``budget``, ``step``,
  ``elimination_cost``, ``eliminate_in_home``, ``move_then_eliminate``,
  ``protest_reveal``), ``over``, ``winners`` (seats or ``None``), ``reveal`` (``None``
  until the end, then ``{bribes: [{agent: amount}] per seat, left: [per seat]}``).
``called`` is the last amount called in the bidding ritual (``None`` with
``protest_reveal: "winner"``).

``seat_view(state, seat)``: the public view plus ``me``: ``{seat, name, bribes: {agent:
amount} for every agent, left, spent, can_bribe, why_not_bribe, can_protest,
why_not_protest, can_move, can_eliminate_with: [agents with enough bribe], on_turn}``.

Modules: ``state`` (options, the state, ``start``), ``events``, ``decide`` (the rules,
commits and the end), ``fold`` (``apply``), ``views`` (views and signals) and
``inputs`` (camera tags and buttons).
"""

from __future__ import annotations

from companion.games.casablanca.decide import (
    ACTIONS,
    bribe_barred,
    can_follow_up,
    decide,
    end_of_record,
    next_deadline,
    outcome,
    settled,
    winners,
)
from companion.games.casablanca.events import EVENT_TYPES, Event
from companion.games.casablanca.fold import apply
from companion.games.casablanca.inputs import action_for_input
from companion.games.casablanca.state import DEFAULT_OPTIONS, State, start
from companion.games.casablanca.views import public_view, seat_view, signals, state_json
from companion.games.engine import Engine

engine: Engine[State, Event] = Engine(
    name="casablanca",
    title="Casablanca",
    aliases=("casa", "casablanca_amigo"),
    min_seats=2,
    max_seats=8,
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
    end_of_record=end_of_record,
)

__all__ = [
    "ACTIONS",
    "Event",
    "State",
    "bribe_barred",
    "can_follow_up",
    "end_of_record",
    "engine",
    "settled",
    "winners",
]
