"""Finished games for the league's tests: the repository's finished records, stored in
a table's real event store under the names a test chooses."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

from companion.records import replay_lines
from companion.store import EventStore, GameInfo

RECORDS = Path(__file__).resolve().parents[1] / "records"
#: finished records (their outcome names a winner) with their seat counts
FINISHED = [("casablanca", "full_game"), ("crime_lords", "full_game"),
            ("illegal", "full_hand"), ("casablanca", "shared_win"),
            ("crime_lords", "most_cards")]


def record_lines(game: str, name: str, players: Sequence[str] | None = None) -> list[str]:
    """The record's lines, its seats renamed to ``players`` (as many as it has)."""
    text = (RECORDS / game / f"{name}.jsonl").read_text(encoding="utf-8")
    lines = [x for x in text.splitlines() if x.strip() and not x.startswith("#")]
    header = json.loads(lines[0])
    n = len(header["seats"]) if isinstance(header["seats"], list) else int(header["seats"])
    if players is not None:
        header["seats"] = list(players)[:n]
    return [json.dumps(header), *lines[1:]]


def seats_of(game: str, name: str) -> int:
    header = json.loads(record_lines(game, name)[0])
    seats = header["seats"]
    return len(seats) if isinstance(seats, list) else int(seats)


def store_game(store: EventStore, lines: Sequence[str], close: bool = True) -> GameInfo:
    """Play ``lines`` into ``store`` as the table would have stored it."""
    replay = replay_lines(lines)
    session = replay.session
    header = json.loads(lines[0])
    info = store.create_game(replay.game, header["seats"], header.get("options", {}),
                             int(header.get("seed", 0)))
    for rows in session.rows_for(session.batches, 1):
        store.append(info.game_id, rows)
    if close:
        store.close_game(info.game_id)
    return info


S = TypeVar("S", bound=EventStore)

#: the players the finished games of ``store_finished`` seat, in turn
NAMES = ["Ana", "Ben", "Cem", "Dee", "Eli", "Fay"]


def store_finished(store: S, count: int = 3) -> S:
    """The first ``count`` games of ``FINISHED`` stored in ``store``, each seating the
    next players of ``NAMES`` (game i starts at the i-th name, wrapping around)."""
    for i, (game, name) in enumerate(FINISHED[:count]):
        n = seats_of(game, name)
        store_game(store, record_lines(game, name, NAMES[i:i + n] + NAMES[:max(0, i + n - 6)]))
    return store
