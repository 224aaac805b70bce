"""Game records: JSON Lines, a header then one action a line (docs/records.md).

``replay_lines`` runs every action through the same ``Session`` (and so the same
engine, deadlines and undo) as the live table. A malformed or refused line raises
``RecordError`` naming its line number and the reason.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import games
from companion.games.base import IllegalAction, Setup, SetupError
from companion.games.engine import AnyEngine
from companion.inputs import load_json
from companion.session import Session
from companion.store import EventStore

RECORD = "table-companion"
#: how deeply a record line may nest (a real one nests 3 or 4 levels)
MAX_LINE_DEPTH = 32
#: the newest format this code writes; every older one is still read, with the meaning it
#: had when written (``Engine.upgrade_options``; docs/records.md, "Versions").
#: 2: Casablanca protests wait for concede/compare and moves follow the board; Crime
#: Lords draws are recorded and auctions have limits (each game's ``upgrade_options``).
#: 3: The Nasty 7's ``hand_entry_timing`` (a card the host entered by hand starts no
#: clock unless the header says ``"clock"``; before 3 it always started the clock) and
#: its queue of cards seen beside the pile (before 3: one at a time, dropped by a play).
VERSION = 3


class RecordError(ValueError):
    """A record that cannot be replayed: ``line`` (1-based) and ``reason``."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


@dataclass(frozen=True)
class Header:
    game: str
    seats: tuple[str, ...]
    options: Mapping[str, Any]
    seed: int = 0
    version: int = VERSION

    def to_json(self) -> dict[str, Any]:
        return {
            "record": RECORD,
            "version": self.version,
            "game": self.game,
            "seats": list(self.seats),
            "options": dict(self.options),
            "seed": self.seed,
        }

    def setup(self) -> Setup:
        """The game's setup, with the options this record's format version implies."""
        options = games.get(self.game).upgrade_options(self.version, self.options)
        return Setup(self.seats, options, self.seed)


@dataclass(frozen=True)
class Replay:
    """The end of a replay, JSON-ready: what ``companion replay --json`` prints."""

    game: str
    state: dict[str, Any]
    outcome: dict[str, Any] | None
    session: Session

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "state": self.state, "outcome": self.outcome}


def seat_names(seats: Any) -> tuple[str, ...]:
    """``seats`` as names: a list of names, or a count (names become "Seat 1"...)."""
    if isinstance(seats, bool):
        raise ValueError("'seats' must be a list of player names or a number of seats")
    if isinstance(seats, int):
        if not 1 <= seats <= 12:
            raise ValueError(f"'seats' must be between 1 and 12, got {seats}")
        return tuple(f"Seat {i + 1}" for i in range(seats))
    if isinstance(seats, list) and seats and all(isinstance(s, str) and s for s in seats):
        return tuple(seats)
    raise ValueError("'seats' must be a list of player names or a number of seats")


def parse_header(obj: Any) -> Header:
    """The header line as a ``Header``; ``ValueError`` says what is wrong with it."""
    if not isinstance(obj, dict):
        raise ValueError("the first line must be the header object")
    if obj.get("record") != RECORD:
        raise ValueError(f"the header must have \"record\": \"{RECORD}\"")
    version = obj.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError("the header needs a \"version\" (a whole number)")
    if version > VERSION:
        raise ValueError(
            f"record format version {version} is newer than this companion reads ({VERSION}); "
            "update Table Companion"
        )
    game = obj.get("game")
    if not isinstance(game, str):
        raise ValueError("the header needs a \"game\" name")
    options = obj.get("options", {})
    if not isinstance(options, dict):
        raise ValueError("\"options\" must be an object")
    seed = obj.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError("\"seed\" must be a whole number")
    engine = games.get(game)  # UnknownGameError is a LookupError with a clear message
    return Header(engine.name, seat_names(obj.get("seats")), options, seed, version)


def _parse_line(text: str) -> Any:
    try:
        return load_json(text, MAX_LINE_DEPTH)
    except ValueError as exc:
        cause = exc.__cause__ or exc.__context__
        if isinstance(cause, json.JSONDecodeError):
            raise ValueError(f"not valid JSON ({cause.msg} at column {cause.colno})") from None
        raise


def _action(obj: Any, last_t: float) -> tuple[float, dict[str, Any]]:
    if not isinstance(obj, dict):
        raise ValueError("an action line must be a JSON object")
    t = obj.get("t")
    if isinstance(t, bool) or not isinstance(t, int | float):
        raise ValueError("an action needs \"t\": seconds since the start of the game")
    if t < last_t:
        raise ValueError(f"\"t\" goes back in time ({t} after {last_t})")
    if not isinstance(obj.get("do"), str):
        raise ValueError("an action needs \"do\": what happened")
    return float(t), {k: v for k, v in obj.items() if k != "t"}


def _as_read_then(engine: AnyEngine, version: int, action: dict[str, Any]) -> dict[str, Any]:
    """A line of a record of an older format ``version``, as that version read it: keys
    its action does not declare were ignored in version 1, and each game may upcast
    the line itself (``Engine.upgrade_action``)."""
    if version < 2 and engine.actions is not None:
        action = engine.actions.declared(action)
    return dict(engine.upgrade_action(version, action))


def replay_lines(lines: Iterable[str]) -> Replay:
    """Replay a record given as lines of text; raises ``RecordError``."""
    session: Session | None = None
    header: Header | None = None
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            obj = _parse_line(text)
            if header is None:
                header = parse_header(obj)
                session = Session.start(games.get(header.game), header.setup())
                continue
            assert session is not None
            t, action = _action(obj, session.last_t)
            if header.version < VERSION:
                action = _as_read_then(session.engine, header.version, action)
            session, _ = session.preview_deadlines(t)
            session, _ = session.preview(action, t)
        except IllegalAction as exc:
            raise RecordError(number, f"refused by the rules: {exc.reason}") from None
        except (ValueError, LookupError, SetupError) as exc:
            raise RecordError(number, str(exc).strip("'\"")) from None
        except (TypeError, AttributeError, ArithmeticError, RecursionError) as exc:
            raise RecordError(number, f"the game cannot use this line ({exc})") from None
    if header is None or session is None:
        raise RecordError(1, "the record is empty: it needs a header line")
    return finish(header.game, session)


def finish(game: str, session: Session) -> Replay:
    """The JSON-ready end of a session: full state and outcome."""
    engine = session.engine
    # An engine may settle what the end of a record means (Casablanca: an announced
    # action nobody protested takes effect); the session itself stays as recorded.
    state = engine.settle_record(session.state)
    outcome = engine.outcome(state)
    return Replay(game, engine.state_json(state), outcome.to_json() if outcome else None, session)


def replay_path(path: Path) -> Replay:
    """Replay the record in ``path``; raises ``RecordError`` (``OSError`` if unreadable)."""
    with path.open("rb") as f:
        return replay_lines(_text_lines(f))


def _text_lines(lines: Iterable[bytes]) -> Iterable[str]:
    """Lines of UTF-8 text; ``RecordError`` names the first line that is not."""
    for number, raw in enumerate(lines, start=1):
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError(number, "this line is not UTF-8 text: a record is a text file "
                                      "(save it as UTF-8)") from None


def record_lines(header: Header, actions: Sequence[Mapping[str, Any]]) -> list[str]:
    """A record as lines of text (without newlines)."""
    out = [json.dumps(header.to_json(), ensure_ascii=False)]
    out.extend(json.dumps(dict(a), ensure_ascii=False) for a in actions)
    return out


def export_lines(store: EventStore, game_id: str) -> list[str]:
    """The record of a stored game, header first; raises ``StoreError`` or ``LookupError``."""
    info = store.game(game_id)
    engine = games.get(info.game)
    header = Header(info.game, info.seats, info.options, info.seed)
    session = Session.rebuild(engine, header.setup(), store.events(game_id))
    return record_lines(header, session.record_actions())
