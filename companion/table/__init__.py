"""The table loop: one thread turns every input into committed events and snapshots.

Camera, buttons and the dashboard ``submit`` inputs; the loop asks the game's engine
to decide, appends the events to the store (committed before anything is told),
folds them, and publishes a seq-numbered ``Snapshot``. A refused input is published
too, with its reason. Deadlines from the engine (the 3-second rule) are delivered on
time by the same thread, on the injected clock. After each committed batch the
reactions (``companion.reactions``) may send follow-up actions as the table, in the
same turn, and the edges hear the features' events (``on_feature_event``).
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion import games
from companion.checks import MAX_SEED as MAX_SEED
from companion.checks import require_host, seed_of
from companion.damage import not_resumed
from companion.games.actions import BY_TABLE, Deadline, GameAction, SentBy, check_sender
from companion.games.base import (
    IllegalAction,
    Setup,
    SetupError,
    SignalOut,
)
from companion.inputs import (
    TABLE,
    ButtonPressed,
    CardLanded,
    Command,
    Input,
    PileSight,
    Result,
    Source,
    TagLeft,
    TagSeen,
    json_problem,
    request_id_problem,
    source_of,
)
from companion.reactions import MAX_FOLLOW_UPS, Committed, Reaction, standard_reactions
from companion.records import seat_names
from companion.session import CLOCK, Batch, Session, Undo
from companion.snapshot import Hub, Notice, Refusal, Snapshot
from companion.store import EventStore, GameInfo, StoreError, latest_open_game
from companion.table.inputs import TableInputs
from companion.table.loop import UNEXPECTED, Clock, TableLoop
from companion.tableview import PUBLIC_ACTION_KEYS as PUBLIC_ACTION_KEYS
from companion.tableview import history_of, record_of, snapshot_of

log = logging.getLogger(__name__)

Listener = Callable[[Snapshot, list[SignalOut]], None]
#: an edge hearing one of a feature's events (``Table.on_feature_event``)
EventListener = Callable[[Any], None]

#: how many finished request ids the loop remembers in memory (the store keeps them all)
REMEMBERED_REQUESTS = 4096


class Table(TableInputs, TableLoop):
    """The one writer: inputs in, committed events and snapshots out (its thread:
    ``TableLoop``; what the camera and the buttons mean: ``TableInputs``)."""

    def __init__(self, store: EventStore, clock: Clock = time.monotonic,
                 notice: Notice | None = None,
                 reactions: Sequence[Reaction] | None = None) -> None:
        super().__init__(clock)
        self.store = store
        #: what the table does itself after a committed batch (None: the standard ones)
        self.reactions = list(standard_reactions() if reactions is None else reactions)
        self._feature_listeners: dict[str, list[EventListener]] = {}
        self.notice = notice  # said on the TV and host page while no game runs
        self.epoch = uuid.uuid4().hex[:8]
        self.info: GameInfo | None = None
        self.session: Session | None = None
        self._origin = clock()
        #: how late a camera input may reach the table after its own time (``tick``)
        self.input_delay_s = 0.0
        self.pile_blind = False
        self._seq = 0
        self._next_seq = 1
        self._refusal: Refusal | None = None
        self._listeners: list[Listener] = []
        self._done: dict[str, Result] = {}  # request id -> its answer (start, end)
        self.hub = Hub(Snapshot(0, self.epoch))
        self._resume()

    # --- life cycle -----------------------------------------------------------------

    def _resume(self) -> None:
        """Rebuild the latest open game from its events (after a restart or power cut)."""
        try:
            info = latest_open_game(self.store)
        except StoreError as exc:  # the table still starts: refusals will say why
            log.error("cannot read the stored games: %s", exc)
            info = None
        if info is not None:
            try:
                engine = games.get(info.game)
                rows = self.store.events(info.game_id)
                setup = Setup(info.seats, dict(info.options), info.seed)
                self.session = Session.rebuild(engine, setup, rows)
                self.info = info
                self._next_seq = (rows[-1].seq + 1) if rows else 1
                self._origin = self.clock() - self.session.last_t
                log.info("resumed game %s (%s) at seq %d", info.game_id, info.game, len(rows))
                self._sight_unknown()
            except (LookupError, SetupError, ValueError, KeyError, StoreError) as exc:
                log.error("cannot resume game %s: %s; it stays stored", info.game_id, exc)
                self.session, self.info = None, None
                self.notice = self.notice or not_resumed(info, exc)
        self._publish([])

    def _recover(self) -> None:
        """Fold the running game again from the store: the store is the truth.

        After an unforeseen failure the session in memory may be ahead of or behind what
        was committed; rebuilding it from the stored rows makes them agree again.
        """
        if self.info is None or self.session is None:
            return
        try:
            rows = self.store.events(self.info.game_id)
            self.session = Session.rebuild(self.session.engine, self.session.setup, rows)
            self._next_seq = (rows[-1].seq + 1) if rows else 1
        except Exception:
            log.exception("could not fold game %s again from the store", self.info.game_id)

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(snapshot, signals)`` on the loop thread after each change.

        Listeners must return quickly (hand slow work to another thread).
        """
        self._listeners.append(listener)

    def on_feature_event(self, feature: str, listener: EventListener) -> None:
        """Call ``listener(event)`` on the loop thread for each committed event that the
        running game's engine declares as ``feature``'s moment (``Engine.feature_events``),
        whoever sent the action (a phone, the host, a button, the camera, the demo).

        The event is the game's value; an edge need not read it. Listeners must return
        quickly; one that fails is logged and the game goes on.
        """
        self._feature_listeners.setdefault(feature, []).append(listener)

    # --- inputs ---------------------------------------------------------------------

    def now(self) -> float:
        """Game time: seconds since the start of the current game."""
        return self.clock() - self._origin

    def _wait_time(self) -> float:
        due = self.session.next_deadline() if self.session else None
        if due is None:
            return 0.5
        return max(0.0, min(0.5, due + self.input_delay_s - self.now()))

    def tick(self) -> None:
        """Deliver the deadlines that are due now (the loop calls it; tests may too).

        A deadline waits ``input_delay_s`` more: a card that landed in time reaches the
        table that much later (the camera confirms a tag over frames), and it must come
        first, or a player who played in time would be penalised.
        """
        if self.session is None:
            return
        if self.clock() < self._store_retry_at:
            return
        try:
            self._commit_deadlines(self.now() - self.input_delay_s)
        except StoreError as exc:
            self._store_retry_at = self.clock() + 1.0  # no busy loop on a failing disk
            log.error("could not store a deadline: %s", exc)
            self._refuse(f"Not saved, retrying: {exc}", TABLE)

    def process(self, inp: Input) -> Result:
        """Handle one input synchronously (on the loop thread, or in tests).

        Never raises: a refusal, a store failure and anything unforeseen all become a
        refused ``Result`` with a reason a person can act on (the last one logged in full).
        """
        try:
            return self._process(inp)
        except Exception:
            log.exception("handling %s failed", type(inp).__name__)
            self._recover()
            try:
                return self._refuse(UNEXPECTED, source_of(inp))
            except Exception:
                log.exception("could not publish the refusal")
                return Result(False, reason=UNEXPECTED)

    def _process(self, inp: Input) -> Result:
        try:
            if isinstance(inp, Command):
                return self._command(inp)
            if isinstance(inp, TagSeen | TagLeft):
                return self._tag(inp)
            if isinstance(inp, CardLanded):
                return self._landed(inp)
            if isinstance(inp, PileSight):
                return self._sight(inp.blind, self._t(inp.at))
            if isinstance(inp, ButtonPressed):
                return self._button(inp)
            return self._refuse(f"unknown input {type(inp).__name__}", TABLE)
        except IllegalAction as exc:
            detail = getattr(exc, "detail", "")  # an ActionError names the field, for the log
            if detail:
                log.info("refused %s: %s", source_of(inp), detail)
            return self._refuse(exc.reason, source_of(inp))
        except StoreError as exc:
            log.error("store failure: %s", exc)
            return self._refuse(f"Not saved, please repeat: {exc}", source_of(inp))

    def _t(self, at: float | None) -> float:
        return (self.now() if at is None else at - self._origin)

    def _command(self, cmd: Command) -> Result:
        rid = cmd.request_id
        problem = request_id_problem(rid) or json_problem(dict(cmd.args))
        if problem:
            raise IllegalAction(problem[0].upper() + problem[1:] + ".")
        if rid is not None:
            done = self._already_done(rid)
            if done is not None:
                return done
        result = self._run_command(cmd)
        if rid is not None and result.accepted and cmd.name in ("start", "end"):
            self._remember(rid, result)
        return result

    def _already_done(self, rid: str) -> Result | None:
        """The answer to a retried request that was done before (memory, then the store)."""
        found = self._done.get(rid)
        seq = found.seq if found is not None else self.store.request_seq(rid)
        if found is None and seq is None:
            return None
        return Result(True, seq=seq, already=True,
                      reason="Already done: that request was saved before.")

    def _remember(self, rid: str, result: Result) -> None:
        self._done[rid] = result
        while len(self._done) > REMEMBERED_REQUESTS:
            del self._done[next(iter(self._done))]

    def _run_command(self, cmd: Command) -> Result:
        rid = cmd.request_id
        if cmd.name == "start":
            require_host(cmd)
            return self._start_game(cmd.args)
        if cmd.name == "end":
            require_host(cmd)
            return self._end_game()
        if self.session is None:
            raise IllegalAction("No game is running: the host starts one first.")
        if cmd.name == "undo":  # the engine core checks who sent it, as a game action's
            return self._act(Undo(), self._t(cmd.at), cmd.source, rid)
        if cmd.name == "action":
            action = cmd.args.get("action")
            if not isinstance(action, Mapping) or not isinstance(action.get("do"), str):
                raise IllegalAction("An action must be an object with \"do\".")
            if action.get("do") in (Deadline.do, Undo.do):  # the clock's, the host's
                check_sender(Deadline if action.get("do") == Deadline.do else Undo,
                             cmd.source.sender)
            if action.get("do") in (Undo.do, Deadline.do, CLOCK):  # each has its own path
                raise IllegalAction(f"\"{action['do']}\" is not an action a player sends.")
            # who sent it is checked by the engine core (Session.preview: Engine.admit)
            return self._act(action, self._t(cmd.at), cmd.source, rid)
        raise IllegalAction(f"Unknown command {cmd.name!r}.")

    # --- the one place that changes the game ----------------------------------------

    def _act(self, action: Mapping[str, Any] | GameAction, t: float, source: Source,
             request_id: str | None = None, sender: SentBy | None = None) -> Result:
        """Run ``action`` sent by ``sender`` (by default: ``source``'s, ``Source.sender``)."""
        assert self.session is not None
        sent_by = source.sender if sender is None else sender
        # the deadlines due by t and the action, stored at once: one commit, one snapshot
        step = self.session.step(action, t, sent_by)
        if step.refused is not None:  # the sender may not, or the rules refuse: only the
            if step.batches:  # deadlines that fell before it are stored, then it is refused
                self._commit(step.session, step.batches)
                self._publish(self._signals(step.batches + self._follow_up(step.batches)))
            raise step.refused
        self._commit(step.session, step.batches, request_id)
        seq = self._next_seq - 1
        self._refusal = None
        self._publish(self._signals(step.batches + self._follow_up(step.batches)))
        return Result(True, seq=seq)

    def _commit_deadlines(self, t: float) -> None:
        assert self.session is not None
        session, batches = self.session.preview_deadlines(t)
        if batches:
            self._commit(session, batches)
            self._publish(self._signals(batches + self._follow_up(batches)))

    # --- reactions: what the table does itself after a batch ------------------------

    def _follow_up(self, batches: list[Batch], started: bool = False) -> list[Batch]:
        """Tell the edges the features' events, then run what the reactions send as the
        table, each committed like any action, until none sends more; their batches.

        Never raises: the input that caused them is stored already. A refused or failed
        follow-up is logged (a player then does by hand what it would have done).
        """
        added: list[Batch] = []
        todo = batches
        for _ in range(MAX_FOLLOW_UPS):
            self._announce(todo)
            actions = self._reactions_to(todo, started)
            started = False
            if not actions:
                return added
            todo = []
            for action in actions:
                todo += self._send_follow_up(action)
            added += todo
        log.error("the reactions went on for %d rounds; the table stopped them", MAX_FOLLOW_UPS)
        return added

    def _reactions_to(self, batches: list[Batch], started: bool) -> list[Mapping[str, Any]]:
        if self.session is None:
            return []
        done = [Committed(self.session.engine, self.session.state, b.events)
                for b in batches if b.kind != "undo"]  # what the host took back stays so
        if started:
            done.insert(0, Committed(self.session.engine, self.session.state, started=True))
        actions: list[Mapping[str, Any]] = []
        for committed in done:
            for reaction in self.reactions:
                try:
                    actions += reaction(committed)
                except Exception:
                    log.exception("a reaction failed; the game goes on")
        return actions

    def _send_follow_up(self, action: Mapping[str, Any]) -> list[Batch]:
        assert self.session is not None
        try:
            session, batches = self.session.preview(action, self.session.last_t, BY_TABLE)
            self._commit(session, batches)
        except IllegalAction as exc:
            log.info("the table's own %s was refused: %s", action.get("do"), exc.reason)
            return []
        except StoreError as exc:
            log.error("the table's own %s was not stored: %s", action.get("do"), exc)
            return []
        except Exception:
            log.exception("the table's own %s failed", action.get("do"))
            self._recover()
            return []
        return batches

    def _announce(self, batches: list[Batch]) -> None:
        """Each committed event a feature's edges listen for, to those edges."""
        if self.session is None or not self._feature_listeners:
            return
        declared = self.session.engine.feature_events
        for feature, listeners in self._feature_listeners.items():
            test = declared.get(feature)
            if test is None:
                continue
            for event in (e for b in batches if b.kind != "undo" for e in b.events):
                try:
                    heard = test(event)
                except Exception:
                    log.exception("the game's test of a %s event failed", feature)
                    continue
                for listener in list(listeners) if heard else []:
                    try:
                        listener(event)
                    except Exception:  # a broken camera must not stop the game
                        log.exception("the %s listener failed", feature)

    def _commit(self, session: Session, batches: list[Batch],
                request_id: str | None = None) -> None:
        """Store each batch (one transaction each), then adopt the new session.

        ``request_id`` goes with the last batch, in its transaction.
        """
        assert self.info is not None and self.session is not None
        firsts: list[int] = []
        all_rows = session.rows_for(batches, self._next_seq)
        try:
            for i, rows in enumerate(all_rows):
                extra = {"request_id": request_id} if request_id and i == len(all_rows) - 1 \
                    else {}
                stored = self.store.append(self.info.game_id, rows, expect_seq=self._next_seq,
                                           **extra)
                firsts.append(stored[0].seq)
                self._next_seq = stored[-1].seq + 1
        except StoreError:
            if firsts:  # part of it is stored: the store is the truth, fold it again
                stored_rows = self.store.events(self.info.game_id)
                self.session = Session.rebuild(
                    self.session.engine, self.session.setup, stored_rows
                )
            raise
        self.session = session.with_stored(firsts)

    def _start_game(self, args: Mapping[str, Any]) -> Result:
        try:
            engine = games.get(str(args.get("game", "")))
            players = seat_names(args.get("players") or args.get("seats") or 2)
            options = args.get("options") or {}
            if not isinstance(options, Mapping):
                raise SetupError("options must be an object")
            seed = seed_of(args.get("seed", 0))
            setup = Setup(players, dict(options), seed)
            session = Session.start(engine, setup)
        except (LookupError, SetupError, ValueError, TypeError) as exc:
            raise IllegalAction(f"Cannot start that game: {exc}") from None
        # The successor exists before its predecessor is closed: if the disk fails between
        # the two, a restart resumes the new game (the latest open one), never nothing.
        info = self.store.create_game(engine.name, players, dict(options), seed)
        if self.info is not None:
            try:
                self.store.close_game(self.info.game_id)
            except StoreError as exc:  # the new game is the latest open one: it is resumed
                log.error("could not close game %s: %s", self.info.game_id, exc)
        self.info = info
        self.session = session
        self._next_seq = 1
        self._origin = self.clock()
        self._refusal = None
        self.notice = None  # a new game: what could not be resumed has been read
        added = self._follow_up([], started=True)  # e.g. the deck's known cards
        self._publish(self._signals(added) if added else [])
        if self.pile_blind:  # the camera said so before this game began
            self._sight(True, 0.0)
        return Result(True, seq=0)

    def _end_game(self) -> Result:
        if self.info is None:
            raise IllegalAction("No game is running.")
        self.store.close_game(self.info.game_id)
        self.info, self.session = None, None
        self._publish([])
        return Result(True)

    def _refuse(self, reason: str, source: Source) -> Result:
        """Publish a refusal: to everyone when the camera, the host or the table made it;
        a seat's own refusal goes to that seat only (the views are not built again)."""
        self._refusal = Refusal(reason, source, round(self.now(), 3))
        if source.seat is None:
            self._publish([("refused", None)])
        else:
            self._seq += 1
            self._tell(self.hub.latest().told_only(self._seq, self._refusal),
                       [("refused", source.seat)])
        return Result(False, reason=reason)

    def _signals(self, batches: list[Batch]) -> list[SignalOut]:
        assert self.session is not None
        events = [e for b in batches for e in b.events]
        if any(b.kind == "undo" for b in batches):
            return []
        return list(self.session.engine.signals(self.session.state, events))

    # --- output ---------------------------------------------------------------------

    def _publish(self, signals: list[SignalOut]) -> None:
        self._seq += 1
        self._tell(self._snapshot(), signals)

    def _tell(self, snap: Snapshot, signals: list[SignalOut]) -> None:
        self.hub.publish(snap)
        for listener in list(self._listeners):
            try:
                listener(snap, signals)
            except Exception:  # a broken LED must not stop the game
                log.exception("snapshot listener failed")

    def _snapshot(self) -> Snapshot:
        # the notice (a game that could not be resumed) stays until a new game starts
        return replace(snapshot_of(self._seq, self.epoch, self.session, self.info,
                                   self._refusal, round(self.now(), 3)), notice=self.notice)

    def record_lines(self) -> list[str]:
        """The current game as a record (header + actions); empty with no game."""
        return record_of(self.session, self.info)

    def history(self) -> list[dict[str, Any]]:
        """The current game's inputs for everyone to see: time, public keys, undone."""
        return history_of(self.session)
