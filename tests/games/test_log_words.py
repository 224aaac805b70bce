"""Crime Lords and Illegal say what happened in plain words, never in ids or ``None``.

Every sentence a player reads from these two engines is walked: each log line
(``engine.log``), the history's sentence of each accepted action (``engine.describe``, fed
only the action's public keys as the dashboard feeds it), what the table waits for
(``waiting(state).why`` and each seat's ``asks``) and every move's label and reason, in
every state the recorded games reach (the shared ``replay`` of tests/games/walk.py) and in
a few random games per seat count. None may hold ``None``, a card id (``crook_07``) or a
catalog slot (``Crook 07``, ``Special 03``), a snake_case word, an empty slot ("for  G",
": ."), an unwritten plural ("turn(s)"), or a success number no roll can meet ("needs
-43"). ``test_each_check_can_fail`` shows each check catches what it is about.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from companion import games
from companion.games.engine import AnyEngine
from companion.session import Session
from companion.tableview import PUBLIC_ACTION_KEYS
from tests.games.test_moves import remembering
from tests.games.walk import random_game, records_of, replay, senders

GAMES = [g for g in ("crime_lords", "illegal") if g in games.available()]

#: what a plain sentence never holds: name -> pattern
CHECKS: dict[str, re.Pattern[str]] = {
    "None": re.compile(r"\bNone\b"),
    "a card id": re.compile(r"\b(?:crook|racket|special|mob)_\d+\b", re.IGNORECASE),
    "a catalog slot": re.compile(r"\b(?:Crook|Racket|Special|Mob) \d+\b"),
    "a snake_case word": re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b"),
    "an empty slot": re.compile(r"  | [.,;:!?)]|: [.,]|\(\s*\)|for\s+G\b"),
    "a (s) plural": re.compile(r"\(s\)"),
    "a number no roll meets": re.compile(r"\bneed(?:s|ed)? (?:-\d+|[01])\b"),
}


def problems(text: str, skip: frozenset[str] = frozenset()) -> list[str]:
    """What is wrong with ``text``: "None: …Dee: None.…" (empty when it reads plainly);
    the checks named in ``skip`` are left out."""
    out = []
    for what, pattern in CHECKS.items():
        if what in skip:
            continue
        for m in pattern.finditer(text):
            out.append(f"{what}: …{text[max(0, m.start() - 40):m.end() + 40]}…")
    return out


def state_texts(engine: AnyEngine, state: Any, n_seats: int) -> Iterator[tuple[str, str]]:
    """(kind, text) of every sentence a state shows: log, waiting, asks, move labels/why."""
    for line in engine.log(state):
        yield "log", line
    waiting = engine.waiting(state)
    yield "waiting", waiting.why
    for ask in waiting.asks.values():
        yield "asks", ask
    for who in senders(n_seats):
        for move in engine.moves(state, who):
            yield "move", move.label
            if move.why:
                yield "move why", move.why


def history_texts(session: Session) -> Iterator[tuple[str, str]]:
    """(kind, text) of each accepted action's history sentence, as the dashboard asks it."""
    engine, players = session.engine, list(session.setup.seats)
    if engine.describe is None:
        return
    for batch in session.batches:
        if batch.kind == "undo":
            continue
        line = batch.action.to_json()
        action = {k: line[k] for k in PUBLIC_ACTION_KEYS if k in line}
        text = engine.describe(action, batch.events, players)
        if text is not None:
            yield f"history of {action.get('do')}", text


def sessions_of(game: str) -> Iterator[tuple[str, Session]]:
    """Every session the recorded games and a few random games go through."""
    for path in records_of(game):
        for session in replay(path).sessions:
            yield path.name, session
    engine = games.get(game)
    for n in range(engine.min_seats, engine.max_seats + 1):
        for seed in range(2):
            # its sessions' engine tells each state's moves once: the walk asked the
            # waited-on senders' moves to choose its next action, state_texts asks again
            same = remembering(engine)
            for session, _ in random_game(same, n, seed, steps=120).states:
                yield f"random {n} seats, seed {seed}", session


def kept_words(state: Any) -> frozenset[str]:
    """The checks a state is exempt from: a Crime Lords record of format 1 keeps the
    catalog slots ("Crook 07") its log and replay were written with (``wording`` "v1",
    docs/rules/crime_lords.md), and some of them typed "Crook 14" as a card's name;
    every other check still holds for it."""
    wording = getattr(getattr(state, "options", None), "wording", None)
    return frozenset({"a catalog slot"}) if wording == "v1" else frozenset()


def found_in(game: str) -> list[str]:
    """Each distinct bad sentence of ``game``, with where it was first met."""
    seen: set[str] = set()
    found: list[str] = []

    def check(where: str, kind: str, text: str, skip: frozenset[str] = frozenset()) -> None:
        if text in seen:
            return
        seen.add(text)
        found.extend(f"{where} {kind}: {p}" for p in problems(text, skip))

    last: dict[str, Session] = {}
    for where, session in sessions_of(game):
        skip = kept_words(session.state)
        for kind, text in state_texts(session.engine, session.state, len(session.setup.seats)):
            check(where, kind, text, skip)
        last[where] = session
    for where, session in last.items():  # the last session holds every batch
        for kind, text in history_texts(session):
            check(where, kind, text, kept_words(session.state))
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_sentence_reads_plainly(game: str) -> None:
    found = found_in(game)
    assert not found, f"{len(found)} problems, e.g.:\n" + "\n".join(found[:40])


@pytest.mark.parametrize(("text", "what"), [
    ("Dee won Ace in the auction for None G.", "None"),
    ("Dee gave crook_07 to Cy.", "a card id"),
    ("Hit Crook 05 with Special 03", "a catalog slot"),
    ("Dee: reveal_card Weapons", "a snake_case word"),
    ("Dee won Ace in the auction for  G.", "an empty slot"),
    ("Dee: .", "an empty slot"),
    ("Dee sits out 1 turn(s)", "a (s) plural"),
    ("Ace hits Bo (needs -43)", "a number no roll meets"),
    ("Enter the dice (needs 1 or less)", "a number no roll meets"),
])
def test_each_check_can_fail(text: str, what: str) -> None:
    assert any(p.startswith(what + ":") for p in problems(text)), problems(text)


def test_plain_sentences_pass() -> None:
    for text in ("Dee won Ace in the auction for 5 G.", "Dee sits out 2 turns.",
                 "Ace hits Bo (needs 10 or less).", "Rolled 5+3, needed 7 or less: the "
                 "attack fails.", "Show the Hostile Takeover now, choose its target next"):
        assert problems(text) == [], text


def space_ids(state: Any) -> frozenset[str]:
    """The ids of the spaces of a Casablanca state's board that a sentence must never
    show: every id of a board read as the host gave it (a ``{space: [neighbours]}`` map
    names a space only by its id: its words are the id read as words, "Souk"). A
    version-1 board read exactly (``exact_names``: "Gate" and "gate" are two spaces) keeps
    its names as that version wrote them, and a free board's spaces are what was typed."""
    board = state.options.board
    if board.exact or board.free:
        return frozenset()
    return frozenset(board.ids())


def ids_in(text: str, ids: frozenset[str]) -> list[str]:
    """Each space id ``text`` holds as a word, as written (case counts: "Souk" is a name)."""
    return [f"a space id: …{text[max(0, m.start() - 40):m.end() + 40]}…"
            for i in sorted(ids) for m in re.finditer(rf"(?<![\w'’]){re.escape(i)}(?![\w'’])",
                                                      text)]


@pytest.mark.skipif("casablanca" not in games.available(), reason="casablanca is not installed")
def test_casablanca_names_every_space_by_its_name() -> None:
    """Casablanca's log, history, what the table waits for and every move say a space by
    its printed name, or, on a board that gives none, by its id read as words ("moved to
    Souk", never "moved to souk")."""
    seen: set[tuple[str, frozenset[str]]] = set()
    found: list[str] = []
    last: dict[str, Session] = {}
    for where, session in sessions_of("casablanca"):
        ids = space_ids(session.state)
        texts = list(state_texts(session.engine, session.state, len(session.setup.seats)))
        last[where] = session
        for kind, text in texts:
            if (text, ids) not in seen:
                seen.add((text, ids))
                found += [f"{where} {kind}: {p}" for p in ids_in(text, ids)]
    for where, session in last.items():
        ids = space_ids(session.state)
        found += [f"{where} {kind}: {p}" for kind, text in history_texts(session)
                  for p in ids_in(text, ids)]
    unique = sorted(set(found), key=found.index)
    assert not unique, f"{len(unique)} problems, e.g.:\n" + "\n".join(unique[:30])


def test_a_space_id_is_caught() -> None:
    ids = frozenset({"souk", "ricks_cafe"})
    assert ids_in("Agent Green moved to souk.", ids)
    assert ids_in("Agent Red moves to ricks_cafe.", ids)
    assert ids_in("Agent Green moved to Souk. Rick's Café", ids) == []
