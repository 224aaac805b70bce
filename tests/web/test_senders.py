"""Who may send an action, over HTTP as a player would: a phone is refused every action its
game declares ``by = "host"`` or ``by = "table"``, in a sentence that says who may, and
nothing is booked; a phone acts only for its own seat.

Each action is a real one where a record has it: the record (tests/records/<game>/) is
replayed on the table up to just before that line, the line is posted from the phone of
the seat it names (the first seat's when it names none) and refused, then sent by its rightful
sender (the host over HTTP, or the table itself) and accepted: the refusal is about the
sender, not about the action. A kind no record has is posted bare from a phone: the
sender is checked before the fields are read.

The agreed wording: ``"<label>: only the table itself can do that (its camera, buttons
or clock)."`` to a phone or the host for a table action, ``"<label>: only the host can do
that."`` to a phone for a host action, ``"A phone can only act for its own seat."``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import games
from companion.games.actions import ActionSet, GameAction
from companion.inputs import HOST, TABLE, Command, Source
from companion.records import VERSION, Header, parse_header
from companion.table import Table
from tests.core import tally
from tests.web.conftest import FakeClock, as_host, join, post_json, wait_for

RECORDS = Path(__file__).parents[1] / "records"
GAMES = sorted(name for name in games.available() if name != tally.engine.name)
TABLE_ONLY = "only the table itself can do that (its camera, buttons or clock)"
HOST_ONLY = "only the host can do that"
OWN_SEAT = "A phone can only act for its own seat."


@dataclass(frozen=True)
class Line:
    """One action line of a record and the lines before it (``t`` and the action)."""

    record: str
    header: Header
    before: tuple[tuple[float, dict[str, Any]], ...]
    t: float
    action: dict[str, Any]


def record_actions(path: Path) -> tuple[Header, list[tuple[float, dict[str, Any]]]]:
    lines = [s for s in path.read_text("utf-8").splitlines()
             if s.strip() and not s.lstrip().startswith("#")]
    header = parse_header(json.loads(lines[0]))
    out = []
    for text in lines[1:]:
        obj = json.loads(text)
        out.append((float(obj.pop("t")), obj))
    return header, out


def first_line(game: str, do: str) -> Line | None:
    """The record line of kind ``do`` with the fewest lines before it (None: no record)."""
    best: Line | None = None
    for path in sorted((RECORDS / game).glob("*.jsonl")):
        header, actions = record_actions(path)
        if header.version != VERSION:
            continue
        at = next((i for i, (_, a) in enumerate(actions) if a["do"] == do), None)
        if at is not None and (best is None or at < len(best.before)):
            best = Line(path.name, header, tuple(actions[:at]), *actions[at])
    return best


def action_set(game: str) -> ActionSet:
    actions = games.get(game).actions
    assert actions is not None, game
    return actions


def kinds(game: str, by: str) -> list[type[GameAction]]:
    return [k for k in action_set(game) if k.by == by]


# --- the table, driven as a record is replayed --------------------------------------------


def start(table: Table, header: Header) -> None:
    res = table.submit(Command("start", {"game": header.game, "players": list(header.seats),
                                         "options": dict(header.options),
                                         "seed": header.seed})).result(300)
    assert res.accepted, res.reason


def at(table: Table, t: float) -> None:
    """Game time ``t`` on the table's clock, and every deadline due by then delivered (the
    loop delivers them; nothing is left for a refused post to find)."""
    clock = table.clock
    assert isinstance(clock, FakeClock)
    clock.advance(t - table.now())

    def nothing_due() -> bool:
        session = table.session
        due = session.next_deadline() if session is not None else None
        return due is None or due > table.now() - table.input_delay_s

    wait_for(nothing_due, "the deadlines due by then")


def rightful(game: str, action: dict[str, Any]) -> Source:
    kind = action_set(game).kinds[action["do"]]
    return TABLE if kind.by == "table" else HOST


def replay(table: Table, line: Line) -> None:
    """The record up to just before ``line``, each action from its rightful sender."""
    start(table, line.header)
    for t, action in line.before:
        at(table, t)
        res = table.submit(Command("action", {"action": action},
                                   source=rightful(line.header.game, action))).result(300)
        assert res.accepted, f"{line.record}: {action}: {res.reason}"
    at(table, line.t)


def booked(table: Table) -> tuple[int, tuple[str, ...]]:
    """What the game has booked: its stored events and its record."""
    game_id = table.hub.latest().game_id or ""
    return len(table.store.events(game_id)), tuple(table.record_lines())


def refused(resp: Any, *words: str) -> str:
    """'' when ``resp`` is a refusal whose reason holds every one of ``words``; else what
    came instead."""
    body = resp.get_json(silent=True) or {}
    reason = str(body.get("reason"))
    if resp.status_code == 409 and body.get("accepted") is False \
            and all(w in reason for w in words):
        return ""
    return f"answered {resp.status_code}, accepted={body.get('accepted')}: {reason!r}"


def phone_seat(action: dict[str, Any]) -> int:
    """The seat whose phone posts ``action``: the seat it names, so only the sender is
    wrong (the first seat when it names none)."""
    seat = action.get("seat")
    return seat if isinstance(seat, int) else 0


# --- every host and table action of every game, from a phone --------------------------------


def check_recorded(app: Flask, table: Table, host: FlaskClient, kind: type[GameAction],
                   line: Line) -> list[str]:
    """The problems with ``line`` (a ``kind`` action) sent by a phone, by the host (a table
    action) and by its rightful sender; [] when all is as agreed."""
    problems = []
    game, action = line.header.game, line.action
    where = f"{game} {kind.do} ({line.record}, after {len(line.before)} lines)"
    replay(table, line)
    seat = phone_seat(action)
    phone = join(app, host, seat)
    sentence = TABLE_ONLY if kind.by == "table" else HOST_ONLY
    before, public = booked(table), table.hub.latest().public_json()
    why = refused(post_json(phone, f"/api/seat/{seat}/action", {"action": action}),
                  kind.label, sentence)
    if why:
        problems.append(f"{where}: from seat {seat + 1}'s phone {why}")
    if booked(table) != before or table.hub.latest().public_json() != public:
        problems.append(f"{where}: the phone's post changed the game")
        return problems  # the rest would judge another game
    if kind.by == "table":
        problems += host_refused(table, host, kind, action, where, before)
        if booked(table) != before:
            return problems  # the rest would judge another game
        res = table.submit(Command("action", {"action": action}, source=TABLE)).result(300)
        accepted, reason = res.accepted, res.reason
    else:
        body = post_json(host, "/api/host/action", {"action": action}).get_json()
        accepted, reason = body["accepted"], body["reason"]
    if not accepted:
        problems.append(f"{where}: refused from its rightful sender: {reason!r}")
    elif booked(table)[1][:-1] != before[1] or \
            json.loads(booked(table)[1][-1])["do"] != kind.do:
        problems.append(f"{where}: accepted from its rightful sender but not booked as one "
                        f"line {kind.do}")
    return problems


def game_shown(table: Table) -> Any:
    """What every screen shows of the game, without the last refusal's notice: that notice
    is the newest input's (a phone's refused post replaces the host's refused one before
    it), not the game."""
    shown = dict(table.hub.latest().public_json())
    shown.pop("refusal", None)
    return shown


def check_bare(table: Table, host: FlaskClient, phone: FlaskClient,
               kind: type[GameAction]) -> list[str]:
    """The problems with a bare ``kind`` action posted by the first seat's ``phone`` (and by
    the host, for a table action); [] when all is as agreed."""
    problems = []
    where = f"{table.info.game if table.info else '?'} {kind.do} (no record has it)"
    action = {"do": kind.do}
    sentence = TABLE_ONLY if kind.by == "table" else HOST_ONLY
    before, public = booked(table), game_shown(table)
    why = refused(post_json(phone, "/api/seat/0/action", {"action": action}),
                  kind.label, sentence)
    if why:
        problems.append(f"{where}: from the first seat's phone {why}")
    if booked(table) != before or game_shown(table) != public:
        problems.append(f"{where}: the phone's post changed the game")
    if kind.by == "table":
        problems += host_refused(table, host, kind, action, where, before)
    return problems


def host_refused(table: Table, host: FlaskClient, kind: type[GameAction],
                 action: dict[str, Any], where: str, before: Any) -> list[str]:
    """The problems with the host posting table action ``action`` (refused, nothing booked)."""
    problems = []
    why = refused(post_json(host, "/api/host/action", {"action": action}),
                  kind.label, TABLE_ONLY)
    if why:
        problems.append(f"{where}: from the host {why}")
    if booked(table) != before:
        problems.append(f"{where}: the host's post changed the game")
    return problems


@pytest.mark.parametrize("game", GAMES)
def test_a_phone_is_refused_every_host_and_table_action_and_nothing_is_booked(
        app: Flask, table: Table, state_dir: Path, game: str) -> None:
    host = as_host(app, state_dir)
    sent = [k for k in (*kinds(game, "host"), *kinds(game, "table")) if k.do != "deadline"]
    assert sent, f"{game} declares no host or table action"
    problems: list[str] = []
    bare = []
    for kind in sent:
        line = first_line(game, kind.do)
        if line is None:
            bare.append(kind)
        else:
            problems += check_recorded(app, table, host, kind, line)
    if bare:
        any_record = sorted((RECORDS / game).glob("*.jsonl"))[0]
        start(table, record_actions(any_record)[0])
        phone = join(app, host, 0)
        for kind in bare:
            problems += check_bare(table, host, phone, kind)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("game", GAMES)
def test_only_the_table_delivers_the_clock(app: Flask, table: Table, state_dir: Path,
                                           game: str) -> None:
    """``deadline`` (every game's, ``by = "table"``): refused from a phone and from the host
    with the table's sentence, nothing booked."""
    host = as_host(app, state_dir)
    clock = action_set(game).kinds["deadline"]
    assert clock.by == "table"
    start(table, record_actions(sorted((RECORDS / game).glob("*.jsonl"))[0])[0])
    assert check_bare(table, host, join(app, host, 0), clock) == []


# --- a phone acts only for its own seat ---------------------------------------------------------


def test_a_phone_cannot_accuse_in_another_seats_name(app: Flask, table: Table,
                                                     state_dir: Path) -> None:
    """The Nasty 7's accusers (``by``, ``Spec(actor=True)``) are acting seats: Ann's phone
    may not accuse in Ben's name; Ben's own phone may, the same post."""
    host = as_host(app, state_dir)
    header, actions = record_actions(RECORDS / "nasty7" / "accuse_of_hesitation.jsonl")
    t, first = actions[0]
    assert first["do"] == "play"  # Ann plays the first card
    replay(table, Line("accuse_of_hesitation.jsonl", header, ((t, first),), t + 0.5, {}))
    accuse = {"do": "accuse", "by": 1, "against": 0}
    ann, ben = join(app, host, 0), join(app, host, 1)
    before, public = booked(table), table.hub.latest().public_json()
    assert refused(post_json(ann, "/api/seat/0/action", {"action": accuse}), OWN_SEAT) == ""
    assert booked(table) == before and table.hub.latest().public_json() == public
    resp = post_json(ben, "/api/seat/1/action", {"action": accuse})
    assert resp.status_code == 200 and resp.get_json()["accepted"], resp.get_json()
    assert json.loads(booked(table)[1][-1])["do"] == "accuse"
