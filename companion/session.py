"""One game as a fold over batches of events: shared by the live table and replay.

A *batch* is what one input produced: an action and its engine events, the events of
a deadline the clock delivered, or an undo. The state is the engine's fold over every
batch that was not undone. ``Session`` never does I/O: the table loop asks it to
``preview`` an input (which may raise ``IllegalAction`` and changes nothing), stores
the resulting batches, then ``commit``s them.

Undo is a batch of its own that names the batch it takes back; the fold skips the
taken-back events and nothing is ever deleted. A deadline that was already due when
an undo happened is not delivered again (otherwise undoing a wrong hesitation
penalty would re-impose it at once); the clock starts again with the next action.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, Literal

from companion.games.actions import (
    ActionError,
    Deadline,
    GameAction,
    Sender,
    SentBy,
    check_sender,
)
from companion.games.base import IllegalAction, Setup
from companion.games.codec import event_from_json, event_to_json
from companion.games.engine import AnyEngine
from companion.store import NewEvent, StoredEvent

ACTION = "ActionTaken"  # first event of an action batch: the action as recorded
DEADLINE_EVENT = "DeadlineReached"  # first event of a deadline batch
UNDONE = "Undone"  # an undo batch: {"batch": first seq of the batch taken back}
TABLE_EVENTS = (ACTION, DEADLINE_EVENT, UNDONE)
#: what produced a batch
BatchKind = Literal["action", "deadline", "undo"]
_KIND_OF_HEAD: dict[str, BatchKind] = {ACTION: "action", DEADLINE_EVENT: "deadline",
                                       UNDONE: "undo"}
#: a record line that only says the clock reached ``t`` (deadlines after the last action)
CLOCK = "time"


@dataclass(frozen=True, kw_only=True)
class Undo(GameAction):
    """The host takes back the latest input: the table's action, not a game's (no game's
    ``ActionSet`` parses it; the fold skips what it takes back)."""

    do: ClassVar[str] = "undo"
    label: ClassVar[str] = "Undo"
    by: ClassVar[Sender] = "host"


@dataclass(frozen=True)
class Batch:
    """What one input produced; ``kind`` is ``action``, ``deadline`` or ``undo``.

    ``sender`` is who sent the action live (a seat's phone, ``"host"`` — who may enter a
    seat's action for it —, or ``"table"``); ``None`` when the batch was read back from
    the store or a record, which do not say.
    """

    kind: BatchKind
    t: float
    action: GameAction
    events: tuple[Any, ...] = ()
    undoes: int | None = None  # index (in the session's batches) of the batch taken back
    sender: SentBy | None = field(default=None, compare=False)

    def to_new_events(self, index_to_batch_seq: Sequence[int]) -> list[NewEvent]:
        """The rows to store for this batch (its header row, then the engine events)."""
        if self.kind == "undo":
            assert self.undoes is not None
            return [NewEvent(self.t, UNDONE, {"batch": index_to_batch_seq[self.undoes]})]
        head = ACTION if self.kind == "action" else DEADLINE_EVENT
        rows = [NewEvent(self.t, head, self.action.to_json())]
        for event in self.events:
            name, payload = event_to_json(event)
            rows.append(NewEvent(self.t, name, payload))
        return rows


@dataclass(frozen=True)
class Step:
    """What one input does to a session: the deadlines due by its time, then its own
    batch, to be stored at once (``Session.step``). ``refused``: the rules or the sender
    check refused the input; ``batches`` then holds only the deadlines, which happened."""

    session: Session
    batches: list[Batch]
    refused: IllegalAction | None = None


@dataclass(frozen=True)
class Session:
    """A game in progress: engine, setup, every batch, and the folded state."""

    engine: AnyEngine
    setup: Setup
    state: Any
    batches: tuple[Batch, ...] = ()
    undone: frozenset[int] = frozenset()
    last_t: float = 0.0
    quiet_until: float = -1.0  # deadlines due at or before this time are not delivered
    stored_seqs: tuple[int, ...] = field(default=(), compare=False)

    @classmethod
    def start(cls, engine: AnyEngine, setup: Setup) -> Session:
        """A new game; raises ``SetupError`` when seats or options do not fit."""
        return cls(engine, setup, engine.new_game(setup))

    # --- inputs ---------------------------------------------------------------------

    def preview(self, action: Mapping[str, Any] | GameAction, t: float,
                sender: SentBy | None = None) -> tuple[Session, list[Batch]]:
        """The session after ``action`` at game time ``t``, and the batch it adds.

        ``sender`` (a seat, the host or the table) sent ``action`` live: it is checked
        first (``Engine.admit``, the one check of who may do what) and parsed once. With
        no sender, ``action`` is a record line (or an action already admitted): parsed,
        nobody's permission checked. Call ``preview_deadlines(t)`` first and keep its
        batches: a deadline that fell before ``t`` happened even if this action is then
        refused. Raises ``IllegalAction`` (the session is unchanged) when the sender may
        not send it or the rules refuse it.
        """
        t = max(t, self.last_t)
        if isinstance(action, Undo) or (isinstance(action, Mapping)
                                        and action.get("do") == Undo.do):
            return self._preview_undo(t, sender)
        if isinstance(action, Mapping) and action.get("do") == CLOCK:
            return self, []  # only the time passed: its deadlines are already in
        # ActionError (an IllegalAction) says who may not send it, or what is wrong
        typed = self.engine.parse(action) if sender is None \
            else self.engine.admit(action, sender)
        events = self.engine.decide(self.state, typed, t)
        state = self.engine.fold(self.state, events)
        batch = Batch("action", t, typed, tuple(events), sender=sender)
        return self._with(state, batch), [batch]

    def step(self, action: Mapping[str, Any] | GameAction, t: float,
             sender: SentBy | None = None) -> Step:
        """One input, whole: the deadlines due by ``t``, then ``action`` sent by ``sender``
        (``preview``); the table stores ``Step.batches`` in one go and publishes once.
        Never raises ``IllegalAction``: a refusal is ``Step.refused``, with the deadlines
        that fell before it still to store."""
        session, batches = self.preview_deadlines(t)
        try:
            after, added = session.preview(action, t, sender)
        except IllegalAction as exc:
            return Step(session, batches, exc)
        return Step(after, batches + added)

    def preview_deadlines(self, until: float) -> tuple[Session, list[Batch]]:
        """The session after every deadline due at or before ``until``."""
        batches: list[Batch] = []

        def keep(due: float, events: list[Any]) -> None:
            batches.append(Batch("deadline", due, Deadline(), tuple(events), sender="table"))

        state = self.engine.deliver_deadlines(self.state, until, keep, after=self.quiet_until)
        if not batches:
            return self, []
        return replace(self, state=state, batches=(*self.batches, *batches),
                       last_t=batches[-1].t), batches

    def next_deadline(self) -> float | None:
        """When the clock must next deliver a deadline (game time), if ever."""
        due = self.engine.next_deadline(self.state)
        if due is None or due <= self.quiet_until:
            return None
        return float(due)

    def _preview_undo(self, t: float, sender: SentBy | None) -> tuple[Session, list[Batch]]:
        if sender is not None:
            check_sender(Undo, sender)  # the host's (or the table's: a long press)
        target = self.undoable()
        if target is None:
            raise IllegalAction("There is nothing to undo.")
        undone = self.undone | {target}
        state = self._refold(undone)
        batch = Batch("undo", t, Undo(), undoes=target, sender=sender)
        session = replace(
            self,
            state=state,
            batches=(*self.batches, batch),
            undone=undone,
            last_t=t,
            quiet_until=t,
        )
        return session, [batch]

    def undoable(self) -> int | None:
        """Index of the latest batch an undo would take back, or None: never a notice
        (``GameAction.notice``: what the camera can see is no one's move to take back)."""
        for i in range(len(self.batches) - 1, -1, -1):
            b = self.batches[i]
            if b.kind != "undo" and i not in self.undone and not b.action.notice:
                return i
        return None

    def _refold(self, undone: frozenset[int]) -> Any:
        state = self.engine.new_game(self.setup)
        for i, b in enumerate(self.batches):
            if i not in undone:
                state = self.engine.fold(state, b.events)
        return state

    def _with(self, state: Any, batch: Batch) -> Session:
        return replace(self, state=state, batches=(*self.batches, batch), last_t=batch.t)

    # --- storage --------------------------------------------------------------------

    def rows_for(self, batches: Sequence[Batch], first_seq: int) -> list[list[NewEvent]]:
        """The rows to store for new ``batches``, given the next free seq number."""
        seqs = list(self.stored_seqs)
        out = []
        for b in batches:
            seqs.append(first_seq)
            rows = b.to_new_events(seqs)
            out.append(rows)
            first_seq += len(rows)
        return out

    def with_stored(self, batch_seqs: Sequence[int]) -> Session:
        """Remember the first seq of each newly stored batch (undo names batches by it)."""
        return replace(self, stored_seqs=(*self.stored_seqs, *batch_seqs))

    @classmethod
    def rebuild(cls, engine: AnyEngine, setup: Setup, rows: Sequence[StoredEvent]) -> Session:
        """The session stored in ``rows`` (a power cut, a restart): fold, never re-decide."""
        session = cls.start(engine, setup)
        by_seq: dict[int, int] = {}
        heads: list[tuple[BatchKind, StoredEvent]] = []
        events: list[list[Any]] = []
        undone: dict[int, int] = {}  # batch index of an undo -> index it takes back
        quiet = -1.0
        for row in rows:
            if row.type in TABLE_EVENTS:
                by_seq[row.seq] = len(heads)
                if row.type == UNDONE:
                    undone[len(heads)] = by_seq[int(row.payload["batch"])]
                    quiet = row.t
                heads.append((_KIND_OF_HEAD[row.type], row))
                events.append([])
            else:
                events[-1].append(event_from_json(engine.event_types, row.type, row.payload))
        batches = tuple(
            Batch(kind, row.t, _stored_action(engine, kind, row.payload), tuple(evs),
                  undone.get(i))
            for i, ((kind, row), evs) in enumerate(zip(heads, events, strict=True))
        )
        session = replace(
            session,
            batches=batches,
            undone=frozenset(undone.values()),
            last_t=rows[-1].t if rows else 0.0,
            quiet_until=quiet,
            stored_seqs=tuple(row.seq for _, row in heads),
        )
        return replace(session, state=session._refold(session.undone))

    # --- records --------------------------------------------------------------------

    def record_actions(self) -> list[dict[str, Any]]:
        """Every action as a record line (``t`` first); deadlines follow from ``t``."""
        lines: list[dict[str, Any]] = []
        for b in self.batches:
            if b.kind == "deadline":
                continue
            lines.append({"t": b.t, **b.action.to_json()})
        if self.batches and self.batches[-1].kind == "deadline":
            lines.append({"t": self.batches[-1].t, "do": CLOCK})  # the clock ran on after
        return lines


def _stored_action(engine: AnyEngine, kind: BatchKind, payload: Mapping[str, Any],
                   ) -> GameAction:
    """A stored batch's action as the typed value (the store keeps its JSON).

    A row an older release stored may carry keys its action no longer declares (format
    version 1 ignored them): those are dropped, as a record of that version is read.
    """
    if kind == "undo":
        return Undo()
    if kind == "deadline":
        return Deadline()
    try:
        return engine.parse(payload)
    except ActionError:
        return engine.parse(engine.actions.declared(payload))
