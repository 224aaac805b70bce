"""Casablanca's camera: stands settling in a zone, and the protest window's clock.

The camera reports ``seen``/``left`` for each agent stand and the suitcase; a stand seen
steadily in a new space for ``settle_s`` seconds announces its move when the deadline
falls due (``decide.next_deadline``), the suitcase settling with it is taken along, and
with ``protest_s`` an unprotested announcement takes effect by itself.
"""

from __future__ import annotations

from companion.games.base import IllegalAction, require
from companion.games.casablanca import legality
from companion.games.casablanca.actions import Left, Move, Seen
from companion.games.casablanca.board import MAX_NAME, clip
from companion.games.casablanca.commit import commit_pending
from companion.games.casablanca.events import (
    Event,
    MoveAnnounced,
    SightingSettled,
    TagMoved,
    TurnPassed,
)
from companion.games.casablanca.fold import apply
from companion.games.casablanca.rules import decide_move
from companion.games.casablanca.state import SUITCASE, Sighting, State
from companion.games.emit import Emitter


def _stand(state: State, tag: str, seat: int | None) -> str:
    """The agent stand or suitcase a camera report names."""
    require(seat is None, "Only the camera reports where a stand is.")
    tags = [a.id for a in state.agents] + [SUITCASE]
    require(tag in tags, "That tag is not an agent stand or the suitcase of this game.")
    return tag


def decide_seen(state: State, action: Seen, now: float) -> list[Event]:
    tag = _stand(state, action.tag, action.seat)
    require(0 < len(action.zone) <= MAX_NAME, f"A zone name has 1 to {MAX_NAME} characters.")
    return [TagMoved(tag, action.zone, now)]


def decide_left(state: State, action: Left, now: float) -> list[Event]:
    return [TagMoved(_stand(state, action.tag, action.seat), None, now)]


def _due(state: State, s: Sighting) -> float | None:
    """When a sighting has settled (an agent waits for the suitcase landing with it)."""
    if s.done or s.zone is None:
        return None
    due = s.since + state.options.settle_s
    case = state.sighting(SUITCASE)
    if s.tag != SUITCASE and case is not None and not case.done and case.zone == s.zone:
        due = max(due, case.since + state.options.settle_s)
    return due


def window_due(state: State) -> float | None:
    """When the unprotested announcement takes effect by itself (``protest_s``), if ever."""
    pending = state.pending
    if (
        state.options.protest_s <= 0
        or pending is None
        or pending.at is None
        or pending.open is not None
        or pending.protests
    ):
        return None
    return pending.at + state.options.protest_s


def dues(state: State) -> list[float]:
    """Every time something of the camera falls due (none while a protest is open)."""
    found = [window_due(state)]
    if state.pending is None or state.pending.open is None:
        found += [_due(state, s) for s in state.sightings]
    return [d for d in found if d is not None]


def decide_deadline(state: State, now: float) -> list[Event]:
    out: Emitter[State, Event] = Emitter(state, apply)
    window = window_due(state)
    if window is not None and window <= now:
        out.emit(*commit_pending(state))
    order = sorted(out.state.sightings, key=lambda s: (s.tag == SUITCASE, s.since))
    for s in order:
        due = _due(out.state, s)
        if out.state.over or (out.state.pending and out.state.pending.open is not None):
            break
        if due is not None and due <= now:
            out.emit(*_settle_sighting(out.state, s.tag, now))
    if not out.events:  # never a deadline without an event: settle what fell due
        out.emit(*(SightingSettled(s.tag, "") for s in state.sightings
                   if (d := _due(state, s)) is not None and d <= now))
    return out.events


def _settle_sighting(state: State, tag: str, now: float) -> list[Event]:
    """What a settled sighting means: a move announced, the suitcase taken, or a note."""
    s = state.sighting(tag)
    assert s is not None and s.zone is not None
    space = state.options.board.find(s.zone)
    if tag == SUITCASE:
        return _suitcase_settled(state, space, s.zone)
    label = state.name(tag)
    if space is None:
        return [SightingSettled(tag, f"{label} stands on {clip(s.zone)!r}, which is not a "
                                     "space of the board: put it on a space.")]
    pending = state.pending
    if pending is not None and pending.kind == "move" and (pending.agent, pending.to) == (
        tag, space
    ):
        return [SightingSettled(tag, "")]  # announced already (from a phone)
    out: Emitter[State, Event] = Emitter(state, apply)
    if pending is not None:
        out.emit(*commit_pending(state))
    after = out.state
    if after.over or after.agent(tag).space == space:
        return out.events + [SightingSettled(tag, "")]
    if not after.agent(tag).active:
        return out.events + [SightingSettled(tag, f"{label} is out of the game: "
                                                  "take its stand off the board.")]
    if after.follow_up is not None:
        out.emit(TurnPassed(after.turn, after.next_seat(after.turn)))
        after = out.state
    return out.events + _announce(after, tag, space, now)


def _announce(state: State, tag: str, space: str, now: float) -> list[Event]:
    """The move the camera saw, announced for the seat on turn (or a note why not)."""
    here = state.agent(tag).space
    case = state.sighting(SUITCASE)
    carried = (
        state.suitcase_at() == here
        and case is not None
        and case.zone is not None
        and state.options.board.find(case.zone) == space
        and case.since + state.options.settle_s <= now
    )
    action = Move(seat=state.turn, agent=tag, to=space, suitcase=carried)
    try:
        moved = decide_move(state, state.turn, action, now)
    except IllegalAction as exc:
        return [SightingSettled(tag, f"Not moved: {exc.reason} Put {state.name(tag)} back on "
                                     f"{state.space_name(here)}.")]
    done = [SightingSettled(tag, "")]
    if carried:
        done.append(SightingSettled(SUITCASE, ""))
    return moved + done


def _suitcase_settled(state: State, space: str | None, zone: str) -> list[Event]:
    pending = state.pending
    if pending is not None:
        pending = legality.amendable(state, pending.seat, pending.agent)
    if (
        pending is not None
        and pending.to == space
        and not pending.suitcase
        and legality.suitcase_reason(state, pending.agent, True) is None
    ):
        return [
            MoveAnnounced(pending.seat, pending.agent, pending.to, True, pending.at),
            SightingSettled(SUITCASE, ""),
        ]
    if space is not None and space == state.suitcase_at():
        return [SightingSettled(SUITCASE, "")]
    where = state.space_name(state.suitcase_at())
    return [SightingSettled(SUITCASE, f"The suitcase is seen on {clip(zone)!r}, but it is on "
                                      f"{where}: put it back (an agent takes it along).")]
