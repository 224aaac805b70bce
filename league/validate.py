"""The push checked at the door: every field typed, nothing coerced, nothing unknown.

``check(body, now)`` returns the ``GameResult`` and the table's clock offset, or raises
``RefusedError`` whose message is one sentence saying what was wrong and what to do; the
API answers it with ``400`` and stores nothing. What is refused:

- a key the league does not know (top level or in a seat), a value of the wrong type
  (``"lower_wins": "no"`` is not a boolean; ``"2"`` is not a place);
- text with a control character (NUL, newlines, ...) or an unpaired surrogate;
- fewer than 2 seats or more than 12, two seats that are one player after the league's
  own name folding (``companion.stats.key_of``: "Ana B" and "ana  b" are one), or the
  same player card twice;
- places that are not 1 to the number of seats, with nobody first, or with a gap that
  no tie explains ([1, 3] for two seats);
- a game the league does not know;
- a time in the future: the push may carry ``sent_at``, the table's clock when it sent
  it. A table whose clock is off by more than ``MAX_SKEW_S`` has its times corrected by
  the difference (the offset is kept with the game, and the admin page shows it); a game
  that still ends more than ``MAX_SKEW_S`` after the league's own clock is refused;
- a ``started_at`` (optional: the table's clock at the game's first event; older tables
  do not send it) that is not a time, or is after ``finished_at`` (``GameResult.from_json``
  says so). It is corrected by the
  same offset as ``finished_at``.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from companion import games
from companion.results import MAX_NAME, MAX_SEATS, RESULT_VERSION, GameResult
from companion.stats import key_of
from league.rater import MAX_SKEW_S

KEYS = {"version", "game_id", "game", "started_at", "finished_at", "seq", "lower_wins",
        "unit", "final", "seats", "sent_at"}
REQUIRED = {"version", "game_id", "game", "finished_at", "seats"}
SEAT_KEYS = {"name", "place", "score", "card"}
#: no result ends before this (2000-01-01): a table whose clock was never set
EARLIEST = 946684800.0
_CARD = re.compile(r"[A-Za-z0-9_-]{1,40}")


class RefusedError(ValueError):
    """A push the league refuses; the message is a sentence for the table's host."""


def clean_text(value: str) -> bool:
    """Whether ``value`` has no control character, line separator or lone surrogate."""
    return not any(unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") for c in value)


def _number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def _int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _text(obj: Mapping[str, Any], key: str, what: str, lo: int, hi: int) -> str:
    value = obj.get(key)
    if not isinstance(value, str) or not lo <= len(value) <= hi:
        raise RefusedError(f"'{key}' must be {what} of {lo} to {hi} characters")
    if not clean_text(value):
        raise RefusedError(f"'{key}' holds a control character: send plain text")
    return value


def _unknown(keys: Any, allowed: set[str], where: str) -> None:
    extra = sorted(str(k) for k in keys if k not in allowed)
    if extra:
        raise RefusedError(f"{where} has fields the league does not know ({', '.join(extra)}): "
                           "update the table or the league so they match")


def _seat(i: int, s: Any, n: int) -> None:
    if not isinstance(s, Mapping):
        raise RefusedError(f"seat {i} must be an object with a name and a place")
    _unknown(s.keys(), SEAT_KEYS, f"seat {i}")
    name = s.get("name")
    if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
        raise RefusedError(f"seat {i} needs a player name of 1 to {MAX_NAME} characters")
    if not clean_text(name):
        raise RefusedError(f"seat {i}'s player name holds a control character: type the "
                           "name again")
    place = s.get("place")
    if not isinstance(place, int) or isinstance(place, bool) or not 1 <= place <= n:
        raise RefusedError(f"seat {i}'s place must be a whole number from 1 to {n}")
    score = s.get("score")
    if score is not None and (not _number(score) or abs(score) >= 1e15):
        raise RefusedError(f"seat {i}'s score must be a number or null")
    card = s.get("card")
    if card is not None and (not isinstance(card, str) or not _CARD.fullmatch(card)):
        raise RefusedError(f"seat {i}'s player card must be the code on a league card")


def _places(places: list[int]) -> None:
    if 1 not in places:
        raise RefusedError("nobody has place 1: the winner's place is 1")
    for p in set(places):
        ahead = sum(1 for q in places if q < p)
        if p > 1 + ahead:
            raise RefusedError(f"place {p} follows only {ahead} player(s) ahead: places "
                               "go 1, 2, 3 ... and tied players share one")


def _seats(raw: Any) -> None:
    if not isinstance(raw, list) or not 2 <= len(raw) <= MAX_SEATS:
        raise RefusedError(f"'seats' must list 2 to {MAX_SEATS} players: a league game "
                           "needs at least two")
    for i, s in enumerate(raw, start=1):
        _seat(i, s, len(raw))
    keys = [key_of(s["name"]) for s in raw]
    if len(set(keys)) < len(keys):
        raise RefusedError("two seats have the same player name (the league ignores case "
                           "and extra spaces): each player sits once")
    cards = [s["card"] for s in raw if s.get("card") is not None]
    if len(set(cards)) < len(cards):
        raise RefusedError("two seats have the same player card: each player sits once")
    _places([s["place"] for s in raw])


def _types(body: Mapping[str, Any]) -> None:
    if body.get("version") != RESULT_VERSION or not _int(body.get("version")):
        raise RefusedError(f"this league reads result version {RESULT_VERSION}; update the "
                           "table or the league so they match")
    _text(body, "game_id", "a text", 1, 64)
    game = _text(body, "game", "the name of a game", 1, 40)
    try:
        games.get(game)
    except LookupError:
        raise RefusedError(f"the league does not know the game '{game}' (it knows "
                           f"{', '.join(sorted(games.available()))}): update the league"
                           ) from None
    if "seq" in body and (not _int(body["seq"]) or not 0 <= body["seq"] < 2**31):
        raise RefusedError("'seq' must be a whole number from 0")
    for key in ("lower_wins", "final"):
        if key in body and not isinstance(body[key], bool):
            raise RefusedError(f"'{key}' must be true or false")
    if "unit" in body:
        _text(body, "unit", "a text", 0, 20)
    for key in ("started_at", "finished_at", "sent_at"):
        if key in body and (not _number(body[key]) or not 0 <= body[key] < 1e11):
            raise RefusedError(f"'{key}' must be a time in seconds since 1970")


def check(body: Any, now: float) -> tuple[GameResult, float]:
    """The result in ``body`` and the offset added to the table's times (0 when its
    clock is within ``MAX_SKEW_S`` of the league's); ``RefusedError`` says what is wrong."""
    if not isinstance(body, Mapping):
        raise RefusedError("send one JSON object")
    _unknown(body.keys(), KEYS, "the result")
    missing = sorted(REQUIRED - set(body))
    if missing:
        raise RefusedError(f"the result lacks {', '.join(missing)}: update the table")
    _types(body)
    _seats(body["seats"])
    offset = 0.0
    if "sent_at" in body and abs(now - body["sent_at"]) > MAX_SKEW_S:
        offset = now - float(body["sent_at"])
    finished = float(body["finished_at"]) + offset
    if finished > now + MAX_SKEW_S:
        raise RefusedError(f"the game ends {_ahead(finished - now)} in the future by the "
                           "league's clock: set the table's clock (date and time) and push "
                           "again")
    if finished < EARLIEST:
        raise RefusedError("the game ends before the year 2000: set the table's clock "
                           "(date and time) and push again")
    fields = {k: v for k, v in body.items() if k != "sent_at"}
    try:
        result = GameResult.from_json(fields)
    except ValueError as exc:
        raise RefusedError(str(exc)) from None
    except LookupError as exc:  # a KeyError's words come quoted
        raise RefusedError(str(exc).strip("'")) from None
    if offset:
        result = replace(result, finished_at=finished,
                         started_at=result.started_at + offset if result.started_at else 0.0)
    return result, offset


def _ahead(s: float) -> str:
    if s < 7200:
        return f"{s / 60:.0f} minutes"
    if s < 3 * 86400:
        return f"{s / 3600:.0f} hours"
    return f"{s / 86400:.0f} days"


__all__ = ["EARLIEST", "KEYS", "RefusedError", "check", "clean_text"]
