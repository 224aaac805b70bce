"""The result of a finished game, as a league or the table's own statistics see it.

A ``GameResult`` holds only what the table showed everyone at the end: each seat's name,
place and final score (the engine's public ``scores``), who won, and when the game
began (its first stored event: ``started_at``, 0.0 when not known) and ended (its last:
``finished_at``), both by the table's clock. Nothing a seat kept secret goes in:
Casablanca's bribe sheets and Crime Lords' showdown money count only as far as the
public scores reveal them. ``result_of_store`` reads a stored game
through the store's public API; ``result_of_record`` replays an exported record; both
give the same value for the same game.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion import games
from companion.records import Header, replay_lines
from companion.session import Session
from companion.store import EventStore

#: the result format version a table pushes (league/api.py checks it)
RESULT_VERSION = 1
MAX_SEATS = 12
MAX_NAME = 40
#: the code of a league player card (``league``: 12 hex digits; up to 40 letters, digits,
#: '-' and '_')
_CARD = re.compile(r"[A-Za-z0-9_-]{1,40}")


@dataclass(frozen=True)
class SeatResult:
    """One seat at the end: its player's name, place (1 = won; ties share) and score;
    ``card``: the league player card the seat was picked by (the league then knows the
    player by the card, whatever the name)."""

    name: str
    place: int
    score: float | None = None
    card: str | None = None

    @property
    def won(self) -> bool:
        return self.place == 1


@dataclass(frozen=True)
class GameResult:
    """A finished game: which game, who sat where, their places and scores, when."""

    game_id: str
    game: str
    seats: tuple[SeatResult, ...]
    finished_at: float  # seconds since the epoch, the table's clock
    seq: int = 0  # the last stored event's seq (a game pushed again with more is newer)
    lower_wins: bool = False
    unit: str = ""
    final: bool = True  # False: the game is still being played (places so far)
    #: seconds since the epoch, the table's clock: the game's first stored event; 0.0:
    #: not known (a result from before tables sent it)
    started_at: float = 0.0

    @property
    def duration_s(self) -> float | None:
        """Seconds from the first stored event to the end, or None when the start is
        not known."""
        return self.finished_at - self.started_at if self.started_at else None

    def to_json(self) -> dict[str, Any]:
        """The result as a table pushes it; ``started_at`` only when it is known."""
        started = {"started_at": round(self.started_at, 3)} if self.started_at else {}
        return {"version": RESULT_VERSION, "game_id": self.game_id, "game": self.game,
                **started, "finished_at": round(self.finished_at, 3), "seq": self.seq,
                "lower_wins": self.lower_wins, "unit": self.unit, "final": self.final,
                "seats": [{"name": s.name, "place": s.place, "score": s.score}
                          | ({"card": s.card} if s.card else {}) for s in self.seats]}

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> GameResult:
        """The result in ``obj``; ``ValueError`` says what is wrong with it."""
        if not isinstance(obj, Mapping):
            raise ValueError("a result must be an object")
        if obj.get("version") != RESULT_VERSION:
            raise ValueError(f"this league reads result version {RESULT_VERSION}; "
                             "update the table or the league so they match")
        game_id, game = obj.get("game_id"), obj.get("game")
        if not isinstance(game_id, str) or not 1 <= len(game_id) <= 64:
            raise ValueError("'game_id' must be a text of 1 to 64 characters")
        if not isinstance(game, str):
            raise ValueError("'game' must be the name of a game")
        name = games.get(game).name  # a LookupError names the games there are
        seats = _seats(obj.get("seats"))
        finished, seq = obj.get("finished_at"), obj.get("seq", 0)
        if not isinstance(finished, int | float) or not _number(finished) or \
                not 0 <= finished < 1e11:
            raise ValueError("'finished_at' must be a time in seconds since 1970")
        started = obj.get("started_at", 0.0)  # absent: an older table, start not known
        if not _number(started) or not 0 <= started < 1e11:
            raise ValueError("'started_at' must be a time in seconds since 1970")
        if started > finished:
            raise ValueError("'started_at' is after 'finished_at': a game ends after it "
                             "begins, so check the table's clock and push again")
        if not isinstance(seq, int) or isinstance(seq, bool) or not 0 <= seq < 2**31:
            raise ValueError("'seq' must be a whole number from 0")
        unit = obj.get("unit", "")
        if not isinstance(unit, str) or len(unit) > 20:
            raise ValueError("'unit' must be a short text")
        final = obj.get("final", True)
        if not isinstance(final, bool):
            raise ValueError("'final' must be true or false")
        return cls(game_id, name, seats, float(finished), seq, bool(obj.get("lower_wins")),
                   unit, final, float(started))


def _number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and x == x \
        and abs(x) < 1e15


def _seats(raw: Any) -> tuple[SeatResult, ...]:
    if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_SEATS:
        raise ValueError(f"'seats' must list 1 to {MAX_SEATS} players")
    out: list[SeatResult] = []
    for i, s in enumerate(raw, start=1):
        if not isinstance(s, Mapping):
            raise ValueError(f"seat {i} must be an object with a name and a place")
        name, place, score = s.get("name"), s.get("place"), s.get("score")
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise ValueError(f"seat {i} needs a player name of 1 to {MAX_NAME} characters")
        if not isinstance(place, int) or isinstance(place, bool) or \
                not 1 <= place <= len(raw):
            raise ValueError(f"seat {i}'s place must be from 1 to {len(raw)}")
        if score is not None and not _number(score):
            raise ValueError(f"seat {i}'s score must be a number")
        card = s.get("card")
        if card is not None and (not isinstance(card, str) or not _CARD.fullmatch(card)):
            raise ValueError(f"seat {i}'s player card must be the code on a league card")
        out.append(SeatResult(name.strip(), place, None if score is None else float(score),
                              card or None))
    names = [s.name.casefold() for s in out]
    if len(set(names)) != len(names):
        raise ValueError("two seats have the same player name: each player sits once")
    return tuple(out)


def places(winners: Sequence[int], totals: Sequence[float] | None, n: int,
           lower_wins: bool = False) -> list[int]:
    """Each seat's place: winners 1st; the others by score (ties share), or all 2nd."""
    won = set(winners)
    others = [i for i in range(n) if i not in won]
    out = [1 if i in won else (2 if won else 1) for i in range(n)]
    if totals is None or len(totals) < n:
        return out
    sign = 1.0 if lower_wins else -1.0
    ordered = sorted(others, key=lambda i: sign * totals[i])
    first = 1 + (1 if won else 0)
    for k, i in enumerate(ordered):
        same = k > 0 and totals[ordered[k - 1]] == totals[i]
        out[i] = out[ordered[k - 1]] if same else first + k
    return out


def _result(game_id: str, session: Session, finished_at: float, seq: int,
            live: bool = False, started_at: float = 0.0) -> GameResult | None:
    engine = session.engine
    state = engine.settle_record(session.state)
    outcome = engine.outcome(state)
    finished = outcome is not None and bool(outcome.winners)
    if not finished and not live:
        return None
    scores = engine.table_view(state)["scores"]
    totals = scores.get("totals") if isinstance(scores, Mapping) else None
    lower = bool(scores.get("lower_wins")) if isinstance(scores, Mapping) else False
    unit = str(scores.get("unit", "")) if isinstance(scores, Mapping) else ""
    names = session.setup.seats
    numbers = [float(x) for x in totals] if isinstance(totals, list) else None
    at = places(outcome.winners if outcome is not None and finished else (), numbers,
                len(names), lower)
    seats = tuple(SeatResult(name, at[i], numbers[i] if numbers and i < len(numbers) else None)
                  for i, name in enumerate(names))
    return GameResult(game_id, engine.name, seats, finished_at, seq, lower, unit[:20],
                      final=finished, started_at=started_at)


def result_of_store(store: EventStore, game_id: str, live: bool = False) -> GameResult | None:
    """The result of a stored game, or None while it is not finished; with ``live``, a
    game still being played gives its places so far (``final`` False)."""
    info = store.game(game_id)
    engine = games.get(info.game)
    rows = store.events(game_id)
    header = Header(info.game, info.seats, info.options, info.seed)
    session = Session.rebuild(engine, header.setup(), rows)
    seq = rows[-1].seq if rows else 0
    started = info.created + rows[0].t if rows else 0.0  # the first stored event
    return _result(game_id, session, info.created + session.last_t, seq, live, started)


def result_of_record(game_id: str, lines: Iterable[str], created: float,
                     seq: int = 0) -> GameResult | None:
    """The result of an exported record (``companion export``) of a game created at
    ``created`` (the store's ``GameInfo.created``), or None if unfinished."""
    replay = replay_lines(lines)
    batches = replay.session.batches
    started = created + batches[0].t if batches else 0.0  # the first event
    return _result(game_id, replay.session, created + replay.session.last_t, seq,
                   started_at=started)


__all__ = ["GameResult", "RESULT_VERSION", "SeatResult", "places", "result_of_record",
           "result_of_store"]
