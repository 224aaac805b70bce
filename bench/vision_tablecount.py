"""The conditions' table: a real Nasty 7 table fed the camera's events, and its counting.

``TableRun`` drives a real ``companion.table.Table`` (The Nasty 7, in-memory store) on an
injected clock, ticked after every frame as its loop does, with a host who answers every
question ``HOST_ANSWER_S`` after it was asked. ``count_table`` counts, from the table's
committed events, what it made of the cards the camera read (``TableCount``);
``count_readable`` what it made of every card a camera *could* have read, says the
video's truth (``ReadableCount``: the goal of issue 36, "exactly one pile event per
readable card"; a card the camera never confirmed stays in the count as a miss).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: how long the host takes to answer a question about a card seen beside the pile
HOST_ANSWER_S = 1.5


class TableRun:
    """A real Nasty 7 table (``companion.table.Table``, in-memory store) on an injected
    clock (``now``: the time of the frame being handled), fed the pipeline's events of
    each frame in order and ticked after every frame, as the table loop does; a host who
    answers each question about a card seen beside the pile ``HOST_ANSWER_S`` after it
    was asked, counting the card (the player meant to play it)."""

    def __init__(self, seats: int = 3) -> None:
        from companion.inputs import HOST, Command
        from companion.store import MemoryStore
        from companion.table import Table

        self.now = 0.0
        self.table = Table(MemoryStore(), clock=self.clock)
        started = self.table.process(Command("start", {
            "game": "nasty7", "players": ["Ann", "Ben", "Cy", "Di"][:seats]}, source=HOST))
        if not started.accepted:
            raise RuntimeError(f"the bench could not start The Nasty 7: {started.reason}")
        self._heard = 0  # batches the host has looked at
        #: when the host answers each question heard, and its landing time (None: a card
        #: seen beside the pile)
        self._answers: list[tuple[float, float | None]] = []
        self.refused = 0  # camera inputs and host answers the table refused
        #: what the host saw land at a game time (the card's id), or None: nothing
        self.truth: Callable[[float], str | None] = lambda at: None
        self.invented = 0  # landings the host answered "no card landed"

    def clock(self) -> float:
        return self.now

    @property
    def hesitation_s(self) -> float:
        session = self.table.session
        options = getattr(getattr(session, "state", None), "options", None)
        return float(getattr(options, "hesitation_s", 3.0))

    def connect(self, pipeline: Any) -> None:
        """As ``companion serve`` wires them: deadlines wait for the camera's delay, and a
        card the host counted grows the zone nearest it."""
        from companion.commands.serve import grow_zones

        self.table.input_delay_s = pipeline.delay_s
        grow_zones(self.table, pipeline)

    def frame(self, inputs: Sequence[Any]) -> None:
        """One frame's events, in order, then the host, then the tick."""
        for inp in inputs:
            self.refused += not self.table.process(inp).accepted
        self._host()
        self.table.tick()

    def finish(self, step: float) -> None:
        """After the last frame: the clock runs on until the host answered every question."""
        while self._answers:
            self.now = min(self.now + step, max(self.now, self._answers[0][0]))
            self.frame([])

    def _host(self) -> None:
        from companion.inputs import HOST, Command

        session = self.table.session
        batches = session.batches if session is not None else ()
        for batch in batches[self._heard:]:
            self._answers += [(self.now + HOST_ANSWER_S, None) for e in batch.events
                              if type(e).__name__ == "CardSeenBeside"]
            self._answers += [(self.now + HOST_ANSWER_S, float(getattr(e, "at", 0.0)))
                              for e in batch.events if type(e).__name__ == "CardLandedUnread"]
        self._heard = len(batches)
        while self._answers and self._answers[0][0] <= self.now:
            _, landed = self._answers.pop(0)
            action: dict[str, Any] = {"do": "count_seen", "count": True}
            if landed is not None and not self._waiting(landed):
                continue  # the camera read it meanwhile: the host's card no longer asks
            if landed is not None:  # the oldest waiting landing: the host names its card
                card = self.truth(landed)
                self.invented += card is None
                action = {"do": "name_landed", "which": 0}
                if card is not None:
                    action["card"] = card
            answer = Command("action", {"action": action}, source=HOST)
            self.refused += not self.table.process(answer).accepted

    def _waiting(self, landed: float) -> bool:
        """Whether the landing at ``landed`` still waits for the host's answer."""
        session = self.table.session
        unread = getattr(getattr(session, "state", None), "unread", ())
        return any(abs(u.at - landed) < 1e-6 for u in unread)

    def events(self) -> list[Any]:
        """The game's committed events, in order (what an undo took back left out)."""
        session = self.table.session
        if session is None:
            return []
        return [e for i, b in enumerate(session.batches) if i not in session.undone
                for e in b.events]


@dataclass
class TableCount:
    """What a Nasty 7 table made of a video's cards (``count_table``)."""

    cards: int = 0  # cards the camera read
    right: int = 0  # ... with exactly the pile events they should have
    booked_twice: int = 0  # cards with two or more pile events
    questions: int = 0  # cards seen beside the pile put to the host
    unanswered: int = 0  # ... whose question went without an answer
    penalties: int = 0  # hesitation penalties
    false_penalties: int = 0  # ... where a card landed within hesitation_s before
    refused: int = 0  # camera inputs and host answers the table refused
    growths_into_other: int = 0  # the pile grown over another zone or the seat's area
    landed_unread: int = 0  # cards that landed unread put to the host ("which card?")
    invented: int = 0  # ... where no card of the video landed then at all
    read_later: int = 0  # ... of a card the camera read after all (the host: none other)
    unread_booked: int = 0  # ... named by the host: booked by hand, never read
    read_answered: int = 0  # ... answered by the camera reading the card after all
    wrong_answers: int = 0  # ... with a card that landed later (goal 0)
    blind_s: float = 0.0  # seconds the camera said glare hid part of the pile (clock off)
    hesitations_off: int = 0  # true hesitations (a gap over hesitation_s) due while blind


#: the events that book a card onto the pile (by its type's name: a game's events may
#: gain fields, the counting reads only what it needs)
PILE_EVENTS = ("CardPlayed", "MissedCardAdded")


def count_table(events: Sequence[Any], expected: dict[int | None, int],
                landings: Sequence[float], hesitation_s: float = 3.0,
                frame_s: float = 0.0) -> TableCount:
    """Count from a Nasty 7 table's committed ``events``, in order.

    ``expected``: each card the camera read (its serial) and how many pile events it
    should have (1; 0 for a card in a seat's drawn zone). ``landings``: when each card of
    the video's script that is a play landed (game time; not one put down in a seat's
    zone, ``bench.vision_conditions.played_at``). Questions are ``CardSeenBeside`` events, each
    answered by a later ``SeenCardSettled`` (the one naming its card or serial, if the
    answer names one; else the oldest open question) or by a pile event of its serial (the
    card slid onto the pile and was played: the game answers it so); one left open at the end was
    dropped unanswered; so is a card that landed unread (``CardLandedUnread``) that no
    ``LandingNamed`` answered. A hesitation penalty (``PileTaken`` ``why="hesitation"``) is
    false when a card landed in the ``hesitation_s`` before it, more than a frame
    (``frame_s``) inside: a camera knows a landing to its frame (cond-tune hands video 10:
    a card landed at 7.51 s, between frames; the camera dated it 7.50, the frame it was
    first seen in, and the right penalty came 3 s after that, 2.99 s after the truth). While the camera said
    glare hid part of the pile (``PileSightChanged``) the clock was off (``blind_s``); a
    gap of more than ``hesitation_s`` between two landings whose deadline fell then is a
    true hesitation the clock left to the host (``hesitations_off``).
    """
    out = TableCount(cards=len(expected))
    blind = _blind_spans(events, max(landings, default=0.0) + hesitation_s)
    out.blind_s = round(sum(b - a for a, b in blind), 2)
    ordered = sorted(landings)
    out.hesitations_off = sum(
        1 for a, b in zip(ordered, ordered[1:], strict=False) if b - a > hesitation_s
        and any(x <= a + hesitation_s < y for x, y in blind))
    booked: dict[int | None, int] = {}
    open_questions: list[tuple[Any, Any]] = []  # (serial, card) of each open question
    open_landings = 0  # cards landed unread the host has not named
    kinds = [type(e).__name__ for e in events]
    for i, e in enumerate(events):
        kind = kinds[i]
        answered_now = i > 0 and kinds[i - 1] == "LandingNamed"  # this books its answer
        if kind in PILE_EVENTS:
            serial = getattr(e, "serial", None)
            booked[serial] = booked.get(serial, 0) + 1
            if getattr(e, "read", False) and answered_now:  # the camera answered it
                out.unread_booked -= 1
                out.read_answered += 1
            # the card seen beside the pile that slid onto it: its play answers its question
            open_questions = [q for q in open_questions if serial is None or q[0] != serial]
        elif kind == "CardSeenBeside":
            out.questions += 1
            open_questions.append((getattr(e, "serial", None), getattr(e, "card", None)))
        elif kind == "SeenCardSettled" and open_questions:
            named = [i for i, (serial, card) in enumerate(open_questions)
                     if (getattr(e, "serial", None) is not None and
                         getattr(e, "serial", None) == serial) or
                     (getattr(e, "card", None) is not None and getattr(e, "card", None) == card)]
            open_questions.pop(named[0] if named else 0)
        elif kind == "CardLandedUnread":
            out.landed_unread += 1
            open_landings += 1
        elif kind == "LandingNamed":
            open_landings -= 1
            out.unread_booked += getattr(e, "card", None) is not None
        elif kind == "PileTaken" and getattr(e, "why", "") == "hesitation":
            out.penalties += 1
            at = float(getattr(e, "at", 0.0))
            out.false_penalties += any(at - hesitation_s + frame_s < t <= at for t in landings)
    out.unanswered = len(open_questions) + open_landings
    # a card the host named by hand has no serial: never "twice" (``unread_booked``)
    out.booked_twice = sum(1 for s, n in booked.items() if s is not None and n > 1)
    out.right = sum(1 for serial, n in expected.items() if booked.get(serial, 0) == n)
    return out


def _blind_spans(events: Sequence[Any], end: float) -> list[tuple[float, float]]:
    """When the table's clock was off for glare over the pile (``PileSightChanged``):
    ``(from, to)`` spans, the last one open until ``end``."""
    spans: list[tuple[float, float]] = []
    since: float | None = None
    for e in events:
        if type(e).__name__ != "PileSightChanged":
            continue
        at = float(getattr(e, "at", 0.0))
        if getattr(e, "blind", False) and since is None:
            since = at
        elif not getattr(e, "blind", False) and since is not None:
            spans.append((since, at))
            since = None
    if since is not None:
        spans.append((since, max(since, end)))
    return spans



@dataclass
class ReadableCount:
    """What a Nasty 7 table made of the cards a camera could have read (``count_readable``).

    A card is *readable* when its tag was fully visible (landed, uncovered, inside the
    frame, its centre out of a reflection's washed-out core) in enough frames after it
    landed (``bench.vision_conditions.READABLE_FRAMES``), says the video's truth, whether
    or not the camera read it."""

    readable: int = 0  # cards a camera could have read
    once: int = 0  # ... with exactly the pile events they should have (the goal, 99.5 %)
    twice: int = 0  # ... with two or more pile events (goal 0)
    #: ... no pile event and never put to the host: never booked, never asked (the worst;
    #: goal 0: at a real table a wrong count, and a wrong turn for the rest of the round)
    missed: int = 0
    asked: int = 0  # ... put to the host (seen beside, landed unread) and answered
    missed_serials: list[int] = field(default_factory=list)  # the missed cards


def count_readable(events: Sequence[Any], readable: Mapping[int, int],
                   hand_named: Sequence[int] = (), asked: Collection[int] = ()
                   ) -> ReadableCount:
    """Count from a Nasty 7 table's committed ``events``, in order, what became of each
    readable card: ``readable`` maps its serial to the pile events it should have (1; 0
    for a card whose tag lies in a seat's drawn zone). ``hand_named``: the serials of the
    cards the host named by hand when asked which card landed unread (each booked by a
    pile event without a serial); ``asked``: the serials of cards whose unread landing was
    put to the host and answered by it (named by hand, or "nothing else landed" as the
    camera had read it meanwhile); one the camera answered by reading the card later is
    a pile event with ``read``. A card seen beside the pile is asked when a
    ``CardSeenBeside`` names its serial and answered when a ``SeenCardSettled`` settles it
    (the one naming its serial, else its place in the queue ``which``, else the oldest)."""
    booked: dict[int, int] = {}
    for s in hand_named:
        booked[s] = booked.get(s, 0) + 1
    answered: set[int] = set()
    opened: list[int | None] = []
    beside: set[int] = set()  # put to the host, answered or not
    for e in events:
        kind = type(e).__name__
        serial = getattr(e, "serial", None)
        if kind in PILE_EVENTS and serial is not None:
            booked[serial] = booked.get(serial, 0) + 1
            if getattr(e, "read", False):  # an unread landing the camera answered, reading it
                answered.add(serial)
        elif kind == "CardSeenBeside":
            opened.append(serial)
            if serial is not None:
                beside.add(serial)
        elif kind == "SeenCardSettled" and opened:
            which = getattr(e, "which", None)
            i = (opened.index(serial) if serial is not None and serial in opened
                 else which if isinstance(which, int) and 0 <= which < len(opened) else 0)
            closed = opened.pop(i)
            if closed is not None:
                answered.add(closed)
    put = answered | set(asked)
    out = ReadableCount(readable=len(readable))
    for serial, n in readable.items():
        got = booked.get(serial, 0)
        out.once += got == n
        out.twice += got > 1
        out.asked += serial in put
        # a question left unanswered is no miss: ``count_table`` counts it (unanswered)
        if n > 0 and got == 0 and serial not in put | beside:
            out.missed += 1
            out.missed_serials.append(serial)
    return out
