"""The BG Stats play file's format as docs/league.md ("BG Stats export") documents it:
each object's fields and JSON types, nothing more, nothing less (``check_format``), and
what the readers of the format cited there need to read a file (``readable``). Used by
tests/core/test_exports.py (files written from results) and the league's tests (the
files the league serves)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

#: the fields of each object and their JSON types, as docs/league.md ("BG Stats
#: export", "The fields written") lists them: nothing more, nothing less
TOP = {"about": str, "players": list, "locations": list, "games": list, "plays": list,
       "userInfo": dict}
USER_INFO = {"meRefId": int}
PLAYER = {"uuid": str, "id": int, "name": str, "isAnonymous": bool, "modificationDate": str,
          "bggUsername": str}
LOCATION = {"uuid": str, "id": int, "name": str, "modificationDate": str}
GAME = {"uuid": str, "id": int, "name": str, "modificationDate": str, "cooperative": bool,
        "highestWins": bool, "noPoints": bool, "usesTeams": bool, "bggId": int}
PLAY = {"uuid": str, "modificationDate": str, "entryDate": str, "playDate": str,
        "playDateYmd": int, "usesTeams": bool, "durationMin": int, "ignored": bool,
        "manualWinner": bool, "rounds": int, "locationRefId": int, "gameRefId": int,
        "scoringSetting": int, "bggId": int, "nemestatsId": int, "importPlayId": int,
        "rating": int, "playImages": str, "expansionPlays": list, "playerScores": list}
#: the "none" values the app writes for a play that has none of these
PLAY_NONE = {"bggId": 0, "nemestatsId": 0, "importPlayId": 0, "rating": 0,
             "playImages": "[]", "expansionPlays": [], "scoringSetting": 0,
             "usesTeams": False, "ignored": False, "manualWinner": False}
PLAYER_SCORE = {"score": str, "winner": bool, "newPlayer": bool, "startPlayer": bool,
                "playerRefId": int, "rank": int, "seatOrder": int}

#: the app's way of writing a time (the file it exports, docs/league.md)
WHEN = "%Y-%m-%d %H:%M:%S"


def shape(obj: Any, fields: dict[str, type], what: str) -> None:
    """``obj`` is a JSON object with exactly ``fields``, each of its JSON type (a whole
    number is not a boolean, a boolean is not a number)."""
    assert isinstance(obj, dict), what
    assert set(obj) == set(fields), (what, sorted(set(obj) ^ set(fields)))
    for key, kind in fields.items():
        value = obj[key]
        ok = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
        assert ok, (what, key, value, kind.__name__)


def check_format(data: Any) -> None:
    """``data`` (a parsed file) has exactly the documented fields, types and "none"
    values, and is ``readable``."""
    shape(data, TOP, "the file")
    shape(data["userInfo"], USER_INFO, "userInfo")
    for p in data["players"]:
        shape(p, PLAYER, "a player")
    for loc in data["locations"]:
        shape(loc, LOCATION, "a location")
    for g in data["games"]:
        shape(g, GAME, "a game")
    for play in data["plays"]:
        shape(play, PLAY, "a play")
        assert {k: play[k] for k in PLAY_NONE} == PLAY_NONE
        for s in play["playerScores"]:
            shape(s, PLAYER_SCORE, "a player's score")
    readable(data)


def readable(data: Any) -> None:
    """What the readers of the format cited in docs/league.md need: each play's
    ``locationRefId``, ``gameRefId`` and every ``playerRefId`` name an object of the
    file (theiam79/hermod-bot's ``PlayFile.MapToPlay`` throws otherwise), ids unique
    within their list, ``uuid``s that parse as uuids (hermod-bot reads them as Guid,
    and they must differ: they are what tells the app two plays apart), times as the
    app writes them (``WHEN``; hermod-bot reads DateTime), ``playDateYmd`` the date of
    ``playDate``, whole numbers for ids and minutes, and ``userInfo.meRefId`` one of
    the players or 0."""
    lists = {k: {o["id"]: o for o in data[k]} for k in ("players", "locations", "games")}
    for key, by_id in lists.items():
        assert len(by_id) == len(data[key]), (key, "ids repeat")
    everything = [o for k in ("players", "locations", "games", "plays") for o in data[k]]
    uids = [str(uuid.UUID(o["uuid"])) for o in everything]
    assert len(set(uids)) == len(uids), "uuids repeat"
    for o in everything:
        datetime.strptime(o["modificationDate"], WHEN)
    for play in data["plays"]:
        assert play["locationRefId"] in lists["locations"]
        assert play["gameRefId"] in lists["games"]
        assert play["playerScores"], "a play without seats"
        for s in play["playerScores"]:
            assert s["playerRefId"] in lists["players"]
        played = datetime.strptime(play["playDate"], WHEN)
        datetime.strptime(play["entryDate"], WHEN)
        assert play["playDateYmd"] == int(played.strftime("%Y%m%d"))
        assert play["durationMin"] >= 0 and play["rounds"] >= 0
    me = data["userInfo"]["meRefId"]
    assert me == 0 or me in lists["players"]
