"""Casablanca at the table: camera tags and buttons turned into engine actions.

Each agent stand and the suitcase carry a tag. A tag seen in a zone becomes
``{"do": "seen", "tag": agent or "suitcase", "zone": zone}``, a tag that left sight
(or stands outside every zone) ``{"do": "left", "tag": ...}``: the engine remembers
since when each tag stands where, and announces a move only once the stand has been
seen steadily in a new space for ``settle_s`` seconds (``next_deadline``), so a hand
passing over the board announces nothing. The suitcase settling in the same space with
the agent means it was taken along. A seat's button protests what is announced; the
confirm button resolves it (or asks for the comparison of an open protest).
"""

from __future__ import annotations

from companion.games.actions import GameAction
from companion.games.base import ButtonInput, TableInput, TagInput
from companion.games.casablanca import legality
from companion.games.casablanca.actions import Left, Protest, Resolve, Seen
from companion.games.casablanca.state import SUITCASE, State


def action_for_input(state: State, inp: TableInput) -> GameAction | None:
    """A stand's or the suitcase's tag as a sighting; seat buttons protest."""
    if state.over:
        return None
    if isinstance(inp, ButtonInput):
        return _button_action(state, inp)
    if not isinstance(inp, TagInput):
        return None
    tag = inp.card
    if tag is None or (tag != SUITCASE and tag not in {a.id for a in state.agents}):
        return None
    zone = inp.zone if inp.seen and isinstance(inp.zone, str) and inp.zone else None
    last = state.sighting(tag)
    if zone is None:
        if last is None or last.zone is None:
            return None
        return Left(tag=tag)
    if last is not None and last.zone == zone:
        return None  # still there
    return Seen(tag=tag, zone=zone)


def _button_action(state: State, inp: ButtonInput) -> GameAction | None:
    role = inp.role
    if role == "confirm" and legality.resolve_reason(state) is None:
        return Resolve()
    seat = inp.seat
    if role == "seat" and legality.announcement_reason(state) is None and isinstance(seat, int):
        return Protest(seat=seat)
    return None
