"""Casablanca (Amigo): secret bribe sheets, protests settled blind, eliminations, the winner.

The engine is ``engine`` below (``companion.games.engine.Engine``). Rules choices:
docs/rules/casablanca.md; record actions: docs/records.md. Seats are in clockwise order
and seat 0 starts.

Actions (a record line without ``t``)::

    {"do": "bribe", "seat": s, "amounts": [{"agent": a, "amount": 500}, ...]}
    {"do": "move", "seat": s, "agent": a, "to": space or "home", "suitcase": bool}
    {"do": "eliminate", "seat": s, "agent": a, "target": b}
    {"do": "protest", "seat": p}       against the pending move/elimination
    {"do": "concede", "seat": s}       the actor or the open protest's protester gives way
    {"do": "compare", "seat": s}       ... or asks for the blind comparison (both must)
    {"do": "resolve"}                  commit the pending action / end a follow-up window
                                       (with an open protest: compare now)
    {"do": "seen", "tag": t, "zone": z} the camera saw a stand (or "suitcase") in a zone
    {"do": "left", "tag": t}           the camera lost sight of it

``to`` is a space of the board (its id or name) or ``"home"``; a move goes only to a
neighbouring space. The board is option ``board`` (``board.py``; default
``data/board.json``). With option ``concessions`` a protest stays *open* until one of
the two concedes (nothing revealed) or both ask for the comparison. A stand seen in a
new space for ``settle_s`` seconds announces its move (``next_deadline``); the suitcase
settling with it is taken along; with ``protest_s`` an unprotested announcement takes
effect by itself after that many seconds.

A move or elimination is *announced* (pending) and takes effect when the next action
that is not a protest arrives (its events come first, then that action's), on
``{"do": "resolve"}`` (the table's confirm button), or at the end of a record:
replay folds ``end_of_record(state)`` after the last line (not while a protest is open:
the announcement then stays announced). ``outcome`` never treats a
pending action as done, so the live table does not end a game before its protests.
With ``move_then_eliminate`` a committed move whose agent shares its space with an
agent it could eliminate leaves a *follow-up window*: the mover may still announce an
elimination with that agent; the next seat's action (or ``resolve``) closes it.

Privacy: amounts leave only through ``secrets`` of their seat, and through
``public_view`` once the game is over. Refusal reasons never contain a bribe amount,
but a refusal of a seat's own bribe/protest/elimination says something about its
sheet: send it to that seat's phone only. ``BribesPlaced`` events carry the amounts,
so raw events must never be sent to clients.

``public_view(state)`` keys:
  ``game``, ``title``, ``status`` (one human line), ``seats`` (names), ``turn`` (seat
  on turn, ``None`` when over), ``phase`` (``"turn"`` | ``"pending"`` | ``"follow_up"``
  | ``"over"``), ``agents`` (list of ``{id, name, colour, homebase, homebase_name, space,
  space_name, at_home, status: "active"|"eliminated", suitcase: bool, neighbours: [{id,
  name}], targets: [agents it could eliminate where it stands]}``), ``board``
  (``{spaces: [{id, name, kind, x, y, agents, suitcase}], streets: [[a, b]], drawn}``),
  ``suitcase`` (``{space, space_name, agent, agent_name}``),
  ``pending`` (``None`` or an announcement: ``{kind: "move"|"eliminate", seat, agent,
  agent_name, colour, to, to_name, suitcase, target, target_name, text, protests: [{seat,
  upheld, called, conceded}], may_protest: [seats whose turn to protest has not passed],
  result, open: the protester of the open protest or None, firm: [who asked for the
  comparison]}``), ``last`` (the last announcement,
  same shape, ``result`` ``"pending"``|``"done"``|``"cancelled"``), ``may_bribe`` (the
  seat on turn has not lost a protest this turn), ``follow_up`` (agent id or ``None``),
  ``log`` (recent public lines), ``camera_note`` (what the camera saw that means nothing,
  e.g. a stand on a space that is not next to it, or ``None``), ``options`` (``budget``, ``step``,
  ``elimination_cost``, ``eliminate_in_home``, ``move_then_eliminate``,
  ``protest_reveal``), ``over``, ``winners`` (seats or ``None``), ``reveal`` (``None``
  until the end, then ``{bribes: [{agent: amount}] per seat, left: [per seat], agent,
  agent_name, deciding: [each seat's bribe on the winning agent], chart: {turns, budget,
  series: [{seat, total, points}]}}``).
``called`` is the last amount called in the bidding ritual (``None`` with
``protest_reveal: "winner"``).

``secrets(state, seat)``: only that seat's sheet: ``{bribes: {agent: amount} for every
agent, left, spent}``. ``moves(state, seat)`` (``moves.py``) says what the seat may do now
(and why not), ``waiting(state)`` what the table waits for: the one sentence the table
screen and every phone show (also during a protest and after the game).

Records: version 1 meant ``concessions: false`` and, with ``board: null``, no board at all
(any named space, any move): ``upgrade_options`` gives a version-1 record those options
(``board: "free"``).

Modules: ``state`` (options, the state, ``start``, ``upgrade_options``), ``actions``
(typed actions), ``events``, ``decide`` (dispatch, the end, the clock), ``rules`` (the
checks), ``commit`` (an announcement taking effect), ``camera``, ``fold`` (``apply``),
``moves`` (legal moves, what the table waits for), ``views`` (views and signals),
``inputs`` (camera tags and buttons) and ``describe`` (history sentences).
"""

from __future__ import annotations

from companion.games.casablanca.actions import ACTIONS
from companion.games.casablanca.commit import can_follow_up, end_of_record, settled, winners
from companion.games.casablanca.decide import decide, next_deadline, outcome
from companion.games.casablanca.describe import OPTION_SPECS, describe
from companion.games.casablanca.events import EVENT_TYPES, Event
from companion.games.casablanca.fold import apply
from companion.games.casablanca.inputs import action_for_input
from companion.games.casablanca.legality import bribe_reason
from companion.games.casablanca.moves import moves, waiting
from companion.games.casablanca.state import DEFAULT_OPTIONS, State, start, upgrade_options
from companion.games.casablanca.views import (
    log,
    public_view,
    scores,
    secrets,
    signals,
    state_json,
)
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
    secrets=secrets,
    waiting=waiting,
    state_json=state_json,
    signals=signals,
    action_for_input=action_for_input,
    end_of_record=end_of_record,
    describe=describe,
    option_specs=OPTION_SPECS,
    actions=ACTIONS,
    moves=moves,
    log=log,
    scores=scores,
    upgrade_options=upgrade_options,
    features=frozenset({"board_editor"}),
)

__all__ = [
    "ACTIONS",
    "Event",
    "State",
    "bribe_reason",
    "can_follow_up",
    "end_of_record",
    "engine",
    "settled",
    "winners",
]
