"""A player's plays as files other tools read: a BG Stats play file and CSV.

BG Stats ("Board Game Stats", the app people log plays in) reads a JSON "Play file"
with the lists ``players``, ``locations``, ``games`` and ``plays``; each play names its
game and location by ``gameRefId``/``locationRefId`` and its seats in ``playerScores``
(``playerRefId``, ``score``, ``winner``, ``rank``, ``seatOrder``...). docs/league.md
("BG Stats export") compares every field with a file the app exported and with the
third-party readers and writers of the format, and cites them. Ids inside the file are
small numbers; ``uuid``s are derived from the names, so the same play exported twice is
the same play to the app (no duplicates).
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from companion import games
from companion.results import GameResult
from companion.stats import key_of

ABOUT = ("This is a Play file that can be read by Board Game Stats. If you see this text, try "
         "to use a share, export or open-in function to open it with Board Game Stats.")
_NS = uuid.UUID("6f1c2a8e-7d8a-4c41-9d3f-2b0f3b1a9c55")
CSV_FIELDS = ("date", "game", "where", "player", "place", "score", "won", "players")


def _when(t: float) -> str:
    """Local time as BG Stats writes it ("2026-11-28 20:15:00", the device's zone)."""
    return datetime.fromtimestamp(t, UTC).astimezone().strftime("%Y-%m-%d %H:%M:%S")


def _ymd(t: float) -> int:
    """The local date as a number (20261128): BG Stats' ``playDateYmd``."""
    return int(datetime.fromtimestamp(t, UTC).astimezone().strftime("%Y%m%d"))


def _iso(t: float) -> str:
    """Local time with its offset ("2026-11-28T20:15:00+01:00"): the CSV's dates."""
    return datetime.fromtimestamp(t, UTC).astimezone().isoformat(timespec="seconds")


def _minutes(r: GameResult) -> int:
    """Whole minutes the game took, rounded to the nearest (half a minute up), at least
    1; 0 only when its start is not known (a result from before tables sent
    ``started_at``): BG Stats reads 0 as "no duration"."""
    seconds = r.duration_s
    return 0 if seconds is None else max(1, int((max(0.0, seconds) + 30) // 60))


def _uid(*parts: str) -> str:
    return str(uuid.uuid5(_NS, "\x1f".join(parts)))


def bgg_id(game: str) -> int:
    """The BoardGameGeek id of ``game`` (its engine name or an alias): the engine's
    ``bgg_id``, only where a source we can cite shows it for that very game (docs/league.md,
    "BG Stats export", names each source and what was searched for the others); 0, which
    BG Stats reads as "not linked", when none is confirmed or the game is unknown."""
    try:
        return games.get(game).bgg_id
    except LookupError:
        return 0


def title(game: str) -> str:
    """A game's name for people ("Crime Lords", not crime_lords)."""
    try:
        return games.get(game).title
    except LookupError:
        return game


def _score(x: float | None) -> str:
    if x is None:
        return ""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def bgstats(plays: Sequence[tuple[str, GameResult]], me: str, location: str) -> dict[str, Any]:
    """The BG Stats play file of ``me``'s plays (``(where, result)`` pairs: ``where`` is
    the table's name, the play's location); ``me`` empty: a whole league's plays.

    A game is ``noPoints`` only when none of its plays has a score; a play without
    scores leaves each seat's score empty. Nobody is marked start player (the result
    does not say who began). ``playDate`` and ``entryDate`` are when the game ended
    (the app dates a play by when it is entered, as its own export shows),
    ``durationMin`` the whole minutes from the result's ``started_at`` to its
    ``finished_at`` (0: the start not known). The fields the app writes for every play
    with "none" values (a BoardGameGeek play id, a NemeStats id, an import id, a rating,
    photos, expansions) are written with those values; the ones it writes only when set
    (``board``, ``comments``, a seat's ``role`` or ``team``) are left out."""
    players: dict[str, dict[str, Any]] = {}
    places: dict[str, dict[str, Any]] = {}
    kinds: dict[str, dict[str, Any]] = {}
    out: list[dict[str, Any]] = []
    now = _when(max((r.finished_at for _, r in plays), default=0.0))
    for where, r in plays:
        where = where or location
        loc = places.setdefault(where, {"uuid": _uid("location", where), "id": len(places) + 1,
                                        "name": where, "modificationDate": now})
        kind = kinds.setdefault(r.game, {
            "uuid": _uid("game", r.game), "id": len(kinds) + 1, "name": title(r.game),
            "modificationDate": now, "cooperative": False, "highestWins": not r.lower_wins,
            "noPoints": True, "usesTeams": False, "bggId": bgg_id(r.game)})
        if any(s.score is not None for s in r.seats):
            kind["noPoints"] = False
        scores = []
        for seat, s in enumerate(r.seats):
            p = players.setdefault(key_of(s.name), {
                "uuid": _uid("player", key_of(s.name)), "id": len(players) + 1,
                "name": s.name, "isAnonymous": False, "modificationDate": now,
                "bggUsername": ""})
            scores.append({"score": _score(s.score), "winner": s.won, "newPlayer": False,
                           "startPlayer": False, "playerRefId": p["id"], "rank": s.place,
                           "seatOrder": seat + 1})
        out.append({"uuid": _uid("play", where, r.game_id), "modificationDate": now,
                    "entryDate": _when(r.finished_at), "playDate": _when(r.finished_at),
                    "playDateYmd": _ymd(r.finished_at), "usesTeams": False,
                    "durationMin": _minutes(r), "ignored": False, "manualWinner": False,
                    "rounds": 0, "locationRefId": loc["id"], "gameRefId": kind["id"],
                    "scoringSetting": 0, "bggId": 0, "nemestatsId": 0, "importPlayId": 0,
                    "rating": 0, "playImages": "[]", "expansionPlays": [],
                    "playerScores": scores})
    mine = players.get(key_of(me)) if me else None
    return {"about": ABOUT, "players": list(players.values()),
            "locations": list(places.values()), "games": list(kinds.values()),
            "plays": out, "userInfo": {"meRefId": mine["id"] if mine else 0}}


def bgstats_text(plays: Sequence[tuple[str, GameResult]], me: str, location: str) -> str:
    return json.dumps(bgstats(plays, me, location), ensure_ascii=False, indent=1)


def bgstats_league_text(plays: Sequence[tuple[str, GameResult]]) -> str:
    """Every play of a league (``(table name, result)`` pairs) as one BG Stats file."""
    return bgstats_text(plays, "", "League")


def csv_text(plays: Sequence[tuple[str, GameResult]], me: str) -> str:
    """``me``'s plays, one row each: date, game, where, place, score, won, who played."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    k = key_of(me)
    for where, r in plays:
        for s in r.seats:
            if key_of(s.name) != k:
                continue
            writer.writerow([_iso(r.finished_at), title(r.game), where, s.name, s.place,
                             _score(s.score), "yes" if s.won else "no",
                             "; ".join(x.name for x in r.seats)])
    return buf.getvalue()


__all__ = ["ABOUT", "CSV_FIELDS", "bgg_id", "bgstats", "bgstats_league_text",
           "bgstats_text", "csv_text", "title"]
