"""What the table loop publishes: ``Snapshot`` (the table as it is now, public part and
one private part per seat), ``Refusal`` (an input it refused, and who may see why) and
``Hub`` (the latest snapshot, and a way to wait for a newer one).

The loop (``companion.table``) is the only writer; the dashboard, the buttons' LEDs and
the clip keeper only read snapshots. ``Snapshot.public_json`` and ``seat_json`` are the
one place the refusal-privacy rule is applied.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from companion.inputs import Source


@dataclass(frozen=True)
class Refusal:
    """An input the table refused, with its reason, sender and game time."""

    reason: str
    source: Source
    t: float

    def visible_to(self, seat: int | None) -> bool:
        """A seat's own refusal can reveal its secrets ("you need $1,000 on Red"): it goes
        to that seat only; refusals of the camera, host or table go to everyone."""
        return self.source.seat is None or self.source.seat == seat

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "source": str(self.source), "t": self.t}


@dataclass(frozen=True)
class Snapshot:
    """The table as it is now. ``private[n]`` must only ever reach seat n's phone."""

    seq: int
    epoch: str
    game_id: str | None = None
    game: str | None = None
    title: str | None = None
    players: tuple[str, ...] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    public: Mapping[str, Any] = field(default_factory=dict)
    #: what the table waits for (``companion.games.moves.Waiting.to_json``), the game's
    #: log and scores: the shared part of every seat view, sent once
    waiting: Mapping[str, Any] | None = None
    log: tuple[str, ...] = ()
    scores: Mapping[str, Any] | None = None
    #: per seat: its ``attention``, ``moves`` and ``secrets`` (the rest of its seat view)
    private: tuple[Mapping[str, Any], ...] = ()
    #: the host's ``attention`` and ``moves`` (rulings, corrections): the host page only
    host: Mapping[str, Any] | None = None
    outcome: Mapping[str, Any] | None = None
    now: float = 0.0
    deadline: float | None = None
    refusal: Refusal | None = None
    can_undo: bool = False
    #: set on a snapshot that only tells one seat of its refusal: it differs from the
    #: snapshot ``public_seq`` for that seat alone, so nobody else is sent anything
    private_to: int | None = None
    public_seq: int | None = None

    def version_for(self, seat: int | None) -> int:
        """The seq of the latest change that ``seat`` (None: everyone, the host) can see.

        A stream sends a snapshot only when this grows: a seat's refusal reaches that
        seat's phone and no other (one guest posting garbage moved 1 GB to 500 phones).
        """
        if self.private_to is None or self.public_seq is None or seat == self.private_to:
            return self.seq
        return self.public_seq

    def told_only(self, seq: int, refusal: Refusal) -> Snapshot:
        """This snapshot as seq ``seq``, with ``refusal`` for its seat's eyes only."""
        assert refusal.source.seat is not None
        return replace(self, seq=seq, refusal=refusal, private_to=refusal.source.seat,
                       public_seq=self.version_for(None))

    def public_json(self) -> dict[str, Any]:
        """Everything anyone may see (the ``/api/state`` body)."""
        return {
            "seq": self.version_for(None),
            "epoch": self.epoch,
            "game_id": self.game_id,
            "game": self.game,
            "title": self.title,
            "players": list(self.players),
            "options": dict(self.options),
            "view": dict(self.public),
            "waiting": dict(self.waiting) if self.waiting is not None else None,
            "log": list(self.log),
            "scores": dict(self.scores) if self.scores is not None else None,
            "outcome": dict(self.outcome) if self.outcome is not None else None,
            "now": self.now,
            "deadline": self.deadline,
            "refusal": self._refusal_for(None),
            "can_undo": self.can_undo,
        }

    def _refusal_for(self, seat: int | None) -> dict[str, Any] | None:
        if self.refusal is None or not self.refusal.visible_to(seat):
            return None
        return self.refusal.to_json()

    def host_json(self) -> dict[str, Any]:
        """The public part plus the host's own ``attention`` and ``moves``; host only."""
        data = self.public_json()
        data["host"] = dict(self.host) if self.host is not None else None
        return data

    def seat_json(self, seat: int) -> dict[str, Any]:
        """Seat ``seat``'s private view plus the public part; only for that seat."""
        data = self.public_json()
        data["seq"] = self.version_for(seat)
        data["seat"] = seat
        data["refusal"] = self._refusal_for(seat)
        data["private"] = dict(self.private[seat]) if 0 <= seat < len(self.private) else None
        return data


class Hub:
    """The latest snapshot, and a way to wait for a newer one (latest wins)."""

    def __init__(self, first: Snapshot) -> None:
        self._latest = first
        self._cond = threading.Condition()

    def publish(self, snap: Snapshot) -> None:
        with self._cond:
            self._latest = snap
            self._cond.notify_all()

    def latest(self) -> Snapshot:
        with self._cond:
            return self._latest

    def wait_newer(self, seq: int, timeout: float) -> Snapshot | None:
        """The latest snapshot once its seq differs from ``seq``; None on timeout."""
        with self._cond:
            self._cond.wait_for(lambda: self._latest.seq != seq, timeout)
            return self._latest if self._latest.seq != seq else None


__all__ = ["Hub", "Refusal", "Snapshot"]
