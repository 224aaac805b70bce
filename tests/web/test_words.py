"""Every state the recorded games reach, rendered as players read it, in plain words.

For each state of each record of ``tests/records/`` (``tests/games/walk.py``), the pages a
player reads are rendered from the snapshot the live table would publish: the table (the
TV and every phone's Table page), each seat's page, the host's controls, and the
history's sentences. Their visible text must never hold a ``{``, a ``"do"``, an id like
``crook_07``, a seat counted from 0 ("seat 0", "player 0"), a Casablanca space's id where
its name belongs ("moved to souk": ``test_log_words.space_ids``), and the shared screens (the
table, the history) never say "you": the whole table reads them. A refused line of a
record is rendered with its refusal, as the table shows it.
``test_a_planted_bad_string_is_caught`` shows each check can fail.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from companion import games
from companion.config import WebConfig
from companion.games.engine import AnyEngine
from companion.inputs import HOST, Source
from companion.snapshot import Refusal, Snapshot
from companion.store import MemoryStore
from companion.table import Table
from tests.games.test_log_words import ids_in, space_ids
from tests.games.walk import PARTS, Step, parts, recorded_steps
from web import create_app, render
from web.public import session_entries

GAMES = [g for g in ("nasty7", "illegal", "casablanca", "crime_lords") if g in games.available()]

#: what a player must never read, on any page
EVERYWHERE = {
    "a brace": re.compile(r"[{}]"),
    'a "do"': re.compile(r'"do"'),
    "an id": re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b"),
    "a seat counted from 0": re.compile(r"\b(?:seat|player)\s+0\b", re.IGNORECASE),
}
#: what a shared screen (the table, the TV, the history) must never say
SHARED = {"a \"you\"": re.compile(r"\byou(?:r|rs|rself)?\b", re.IGNORECASE)}

_TAGS = re.compile(r"<(script|style)\b.*?</\1>|<[^>]+>", re.S | re.I)


def visible_text(fragment: str) -> str:
    """The words of an HTML fragment as a reader sees them (tags and scripts gone)."""
    return re.sub(r"\s+", " ", html.unescape(_TAGS.sub(" ", fragment)))


def problems(text: str, shared: bool) -> list[str]:
    """What is wrong in ``text``: "an id: crook_07", ... (empty when it reads plainly)."""
    checks = {**EVERYWHERE, **(SHARED if shared else {})}
    out = []
    for what, pattern in checks.items():
        for m in pattern.finditer(text):
            start = max(0, m.start() - 40)
            out.append(f"{what}: …{text[start:m.end() + 40]}…")
    return out


def snapshot(step: Step, seq: int) -> Snapshot:
    """The snapshot the table publishes in ``step``'s state (``Table._snapshot``'s shape),
    with the step's line's refusal when the rules refused it."""
    session = step.session
    engine, state = session.engine, session.state
    waiting = engine.waiting(state)
    table = engine.table_view(state, waiting)
    outcome = engine.outcome(state)
    refusal = None
    if not step.accepted:
        from companion.games.base import IllegalAction

        try:
            session.preview(step.action, step.t)
        except IllegalAction as exc:
            seat = step.action.get("seat")
            source = Source.of_seat(seat) if isinstance(seat, int) else HOST
            refusal = Refusal(str(exc), source, step.t)
    players = tuple(session.setup.seats)
    return Snapshot(
        seq=seq, epoch="words", game_id="g", game=engine.name, title=engine.title,
        players=players, options=dict(session.setup.options), public=table["public"],
        waiting=table["waiting"], log=tuple(table["log"]), scores=table["scores"],
        private=tuple(engine.own_view(state, i, waiting) for i in range(len(players))),
        host=engine.own_view(state, None, waiting),
        outcome=outcome.to_json() if outcome is not None else None,
        now=step.t, deadline=session.next_deadline(), refusal=refusal,
        can_undo=session.undoable() is not None)


def pages(snap: Snapshot) -> Iterator[tuple[str, str, bool]]:
    """``(page, visible text, shared?)`` of every page a player reads in ``snap``."""
    yield "table", visible_text(render.fragment("table", render.public_payload(snap))), True
    for seat in range(len(snap.players)):
        payload = render.seat_payload(snap, seat)
        yield f"seat {seat + 1}", visible_text(render.fragment("seat", payload, seat=seat)), False
    yield "host", visible_text(render.fragment("host", render.host_payload(snap))), False


@pytest.fixture
def app(state_dir: Path) -> Iterator[Flask]:
    table = Table(MemoryStore())
    app = create_app(table, web_config=WebConfig(port=8080), state_dir=state_dir, testing=True)
    with app.test_request_context("/"):
        yield app


def check_step(step: Step, seq: int) -> list[str]:
    casablanca = step.session.engine.name == "casablanca"
    ids = space_ids(step.session.state) if casablanca else frozenset()
    found = []
    for page, text, shared in pages(snapshot(step, seq)):
        found += [f"{step.where} {page}: {p}" for p in problems(text, shared) + ids_in(text, ids)]
    for entry in session_entries(step.session)[:1]:  # the newest sentence of the history
        found += [f"{step.where} history: {p}"
                  for p in problems(entry["text"], True) + ids_in(entry["text"], ids)]
    return found


@pytest.mark.slow
@pytest.mark.parametrize(("engine", "part"), parts([games.get(g) for g in GAMES]))
def test_every_recorded_state_reads_plainly(engine: AnyEngine, part: int, app: Flask) -> None:
    found: list[str] = []
    seen = 0
    for seq, step in enumerate(recorded_steps(engine, part, PARTS), start=1):
        seen += 1
        found += check_step(step, seq)
    assert seen > 10, f"{engine.name}: the records reached too few states"
    unique = sorted(set(found), key=found.index)
    assert not unique, f"{len(unique)} problems, e.g.:\n" + "\n".join(unique[:25])


def test_a_planted_bad_string_is_caught(app: Flask) -> None:
    """Each check fails on a line that breaks it, on the page it is about."""
    step = next(recorded_steps(games.get("casablanca")))
    bad = 'Ann: your turn with crook_07 {"do": "move"} for seat 0'
    snap = snapshot(step, 1)
    planted = Snapshot(**{**{f: getattr(snap, f) for f in snap.__dataclass_fields__},
                          "log": (*snap.log, bad)})
    text = dict((page, t) for page, t, _ in pages(planted))["table"]
    assert bad in text  # the table shows its log: the planted line is on the page
    found = " | ".join(problems(text, shared=True))
    for what in (*EVERYWHERE, *SHARED):
        assert what + ":" in found, f"{what} was not caught in {found}"
    assert not any("you" in p for p in problems("Your move: bribe Agent Red.", shared=False))
    assert problems(visible_text("<p>Ann &amp; Ben</p><script>{x}</script>"), True) == []
