"""Casablanca's judging: what each action causes (``decide``), the end, and the clock.

``decide`` parses the action into its typed value and hands it to its handler in
``_HANDLERS``; every handler has one signature ``(state, action, now) -> events``. The
checks themselves are in ``rules.py`` (shared with ``moves.py``), the camera's in
``camera.py``. A move or elimination is only *announced* (``MoveAnnounced``/
``EliminationAnnounced``) and takes effect through ``commit.commit_pending`` when the next
action that is not a protest arrives, on the host's ``resolve``, when the protest window
closes, or at the end of a record (never while a protest is open). Refusal reasons never
name a bribe amount.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.games.actions import Deadline, GameAction
from companion.games.base import Outcome, require
from companion.games.casablanca import camera, rules
from companion.games.casablanca.actions import (
    ACTIONS,
    Bribe,
    Compare,
    Concede,
    Eliminate,
    Left,
    Move,
    Protest,
    Resolve,
    Seen,
)
from companion.games.casablanca.events import Event
from companion.games.casablanca.state import State

Handler = Callable[[State, Any, float], list[Event]]


def decide(state: State, action: Mapping[str, Any] | GameAction, now: float) -> list[Event]:
    """The events ``action`` causes; ``IllegalAction`` says why it is refused."""
    action = ACTIONS.parse(action)
    if isinstance(action, Deadline):
        return camera.decide_deadline(state, now)
    require(not state.over, "The game is over: start a new game to play again.")
    return _HANDLERS[type(action)](state, action, now)


def _bribe(state: State, action: Bribe, now: float) -> list[Event]:
    done, state, seat = rules.before_turn(state, action.seat)
    return done + rules.decide_bribe(state, seat, action)


def _move(state: State, action: Move, now: float) -> list[Event]:
    amended = rules.amended_move(state, action, now)
    if amended:
        return amended
    done, state, seat = rules.before_turn(state, action.seat)
    return done + rules.decide_move(state, seat, action, now)


def _eliminate(state: State, action: Eliminate, now: float) -> list[Event]:
    done, state, seat = rules.before_turn(state, action.seat)
    return done + rules.decide_eliminate(state, seat, action, now)


def _protest(state: State, action: Protest, now: float) -> list[Event]:
    return rules.decide_protest(state, action.seat)


def _concede(state: State, action: Concede, now: float) -> list[Event]:
    return rules.decide_settle(state, action.seat, concede=True)


def _compare(state: State, action: Compare, now: float) -> list[Event]:
    return rules.decide_settle(state, action.seat, concede=False)


def _resolve(state: State, action: Resolve, now: float) -> list[Event]:
    return rules.decide_resolve(state)


def _deadline(state: State, action: Deadline, now: float) -> list[Event]:
    return camera.decide_deadline(state, now)


#: Each action's handler, by its class.
_HANDLERS: dict[type[GameAction], Handler] = {
    Bribe: _bribe,
    Move: _move,
    Eliminate: _eliminate,
    Protest: _protest,
    Concede: _concede,
    Compare: _compare,
    Resolve: _resolve,
    Seen: camera.decide_seen,
    Left: camera.decide_left,
    Deadline: _deadline,
}


def outcome(state: State) -> Outcome | None:
    """The winner(s) once an agent carried the suitcase home; ``None`` before."""
    if state.winners is None:
        return None
    return Outcome.of(state.winners, {"agent": state.winning_agent, "moved_by": state.mover})


def next_deadline(state: State) -> float | None:
    """When a stand has settled, or an unprotested announcement's window closes."""
    if state.over:
        return None
    found = camera.dues(state)
    return min(found) if found else None
