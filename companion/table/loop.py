"""The table's one thread: inputs queued, handled one at a time, and a loop that never dies.

``TableLoop`` owns the thread of the one writer (``companion.table.Table``): ``submit``
queues an input with a future; the thread takes one at a time and hands it to
``process``, or calls ``tick`` when none came before the next deadline (``_wait_time``).
An input's failure is answered and logged; a failure of the loop itself is logged and the
game is folded again from the store (``_recover``); a thread that ended anyway (a
``SystemExit``, a bug) is started again by the next ``submit`` or by systemd's watchdog
(``companion.sdnotify``: ``ensure_running``, and ``heartbeat``, set on every turn). At
``stop`` what is still queued is answered, never silently dropped.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future

from companion.inputs import Input, Result

log = logging.getLogger(__name__)

Clock = Callable[[], float]

#: the answer to an input whose handling failed in a way nobody foresaw (logged in full)
UNEXPECTED = ("Something went wrong with that request and nothing changed; the game goes "
              "on. Try again, or tell the host if it keeps happening.")
#: the answer to an input that came while the table stops
SHUTTING_DOWN = "The table is shutting down; try again."


class TableLoop:
    """The loop thread of the one writer; the table fills in what a turn does."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._queue: queue.Queue[tuple[Input | None, Future[Result]]] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        #: when the loop last turned (the watchdog pings systemd only while it is recent)
        self.heartbeat = clock()
        #: no store retry before this (a failing disk or tick must not make a busy loop)
        self._store_retry_at = 0.0
        self.restarts = 0  # how often the loop thread was started again after it ended
        self._revive_lock = threading.Lock()

    # --- what a turn does: the table's ---------------------------------------------

    def process(self, inp: Input) -> Result:
        """Handle one input; never raises."""
        raise NotImplementedError

    def tick(self) -> None:
        """Deliver the deadlines that are due now."""
        raise NotImplementedError

    def _wait_time(self) -> float:
        """How long the loop may wait for an input before the next deadline is due."""
        raise NotImplementedError

    def _recover(self) -> None:
        """Fold the running game again from the store (the store is the truth)."""
        raise NotImplementedError

    # --- the thread ------------------------------------------------------------------

    def start(self) -> None:
        """Run the loop in its own thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="table-loop", daemon=True)
            self._thread.start()

    def ensure_running(self) -> bool:
        """Start the loop again, from the store, if its thread ended; True if it had to.

        The loop answers every failure itself, so this is the last resort; ``submit`` and
        the watchdog call it.
        """
        with self._revive_lock:  # two callers at once must not start two writers
            thread = self._thread
            if thread is None or thread.is_alive() or self._stopping.is_set():
                return False
            log.error("the table loop had stopped: starting it again from the store")
            self.restarts += 1
            self._recover()
            self._thread = None
            self.start()
            return True

    def loop_alive(self) -> bool:
        """Whether the loop thread runs (the watchdog also checks that it turns)."""
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop after the input being handled; later inputs are refused, never half-done."""
        self._stopping.set()
        self._queue.put((None, Future()))
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def submit(self, inp: Input) -> Future[Result]:
        """Queue an input; the future resolves after its events are committed."""
        fut: Future[Result] = Future()
        if self._stopping.is_set():
            fut.set_result(Result(False, reason=SHUTTING_DOWN))
            return fut
        self._queue.put((inp, fut))
        self.ensure_running()
        return fut

    def _run(self) -> None:
        while not self._stopping.is_set():
            self.heartbeat = self.clock()
            try:
                if not self._turn():
                    break
            except Exception:  # the loop must not die: log it, fold again from the store
                log.exception("the table loop failed; it goes on from the store")
                self._store_retry_at = self.clock() + 1.0  # no busy loop on a broken tick
                self._recover()
        while True:  # answer what is still queued: nothing is silently dropped
            try:
                _, fut = self._queue.get_nowait()
            except queue.Empty:
                break
            if not fut.done():
                fut.set_result(Result(False, reason=SHUTTING_DOWN))

    def _turn(self) -> bool:
        """One turn of the loop: one input, or the deadlines when none came; False at stop."""
        try:
            inp, fut = self._queue.get(timeout=self._wait_time())
        except queue.Empty:
            self.tick()
            return True
        if inp is None:
            fut.set_result(Result(False, reason="stopped"))
            return False
        try:
            result = self.process(inp)
        except BaseException:
            if not fut.done():
                fut.set_result(Result(False, reason=UNEXPECTED))
            raise
        fut.set_result(result)
        return True
