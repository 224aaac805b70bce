"""The Nasty 7's legality is written once: ``companion/games/nasty7/legality.py``.

- Every refusal sentence of the package is written in ``legality.py``, once: no other
  module gives ``IllegalAction``, ``require`` or a move's ``why`` a sentence of its own,
  and no two sentences of ``legality.py`` are the same (an f-string counts as its
  template, each field a ``{}``).
- ``moves()`` offers nothing the legality functions refuse: on a few states that reach
  every kind of move, every action an allowed move builds is accepted by ``decide``, a
  move that is not allowed shows the sentence ``decide`` refuses it with, and every
  accusation or phone word ``decide`` accepts from a seat is offered to that seat.

Cheap on purpose: the walks over every recorded and random state are
tests/games/test_moves.py's.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.games.base import IllegalAction
from companion.games.moves import Move
from companion.games.nasty7 import State, engine
from companion.games.nasty7.legality import accuse_reason, accused
from companion.games.nasty7.state import ACCUSE_KINDS
from tests.games.nasty7.helpers import act, plays, run, start

PACKAGE = Path(__file__).resolve().parents[3] / "companion" / "games" / "nasty7"
LEGALITY = PACKAGE / "legality.py"


def _template(node: ast.AST) -> str | None:
    """A string literal's text (an f-string's fields as ``{}``), or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def _literal_refusals(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """The sentences a module hands to ``IllegalAction``, ``require`` or ``why=`` itself."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", getattr(node.func, "attr", ""))
        given = [k.value for k in node.keywords if k.arg == "why"]
        if name == "IllegalAction":
            given += node.args[:1]
        if name == "require":
            given += node.args[1:2]
        for arg in given:
            parts = list(ast.walk(arg))
            inner = {id(v) for p in parts if isinstance(p, ast.JoinedStr) for v in p.values}
            for part in parts:
                text = None if id(part) in inner else _template(part)
                if text and " " in text:
                    yield node.lineno, text


def _sentences(tree: ast.Module) -> list[str]:
    """Every sentence ``tree`` writes outside its docstrings (templates ending in a full
    stop, of three words or more)."""
    nodes = list(ast.walk(tree))
    docs = {id(n.value) for n in nodes if isinstance(n, ast.Expr)}
    docs |= {id(v) for n in nodes if isinstance(n, ast.JoinedStr) for v in n.values}
    out = []
    for node in nodes:
        text = None if id(node) in docs else _template(node)
        if text and text.endswith(".") and len(text.split()) >= 3:
            out.append(text)
    return out


@pytest.mark.parametrize("module", sorted(p.name for p in PACKAGE.glob("*.py")
                                          if p != LEGALITY))  # fmt: skip
def test_no_other_module_writes_a_refusal(module: str) -> None:
    tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
    found = [f"{module}:{line}: {text!r}" for line, text in _literal_refusals(tree)]
    assert not found, "refusals written outside legality.py:\n" + "\n".join(found)


def test_every_refusal_sentence_is_written_once() -> None:
    sentences = _sentences(ast.parse(LEGALITY.read_text(encoding="utf-8")))
    twice = [s for s, n in Counter(sentences).items() if n > 1]
    assert len(sentences) > 30 and not twice, twice


def test_the_checks_can_fail() -> None:
    """A module that refuses in its own words is found; a sentence written twice is."""
    own = ast.parse('require(ok, f"{name} has no cards left to play.")\n'
                    'Move("x", "X", allowed=False, why="Wait for the host.")\n'
                    'raise IllegalAction("Nope, not now.")')  # fmt: skip
    assert [t for _, t in _literal_refusals(own)] == [
        "{} has no cards left to play.", "Wait for the host.", "Nope, not now."]
    relayed = ast.parse("raise IllegalAction(why)\nMove('x', 'X', allowed=False, why=why)")
    assert not list(_literal_refusals(relayed))
    twice = ast.parse('A = f"{x} has no cards."\n\ndef f():\n    """Docs say it."""\n'
                      '    return f"{y} has no cards."')  # fmt: skip
    assert _sentences(twice) == ["{} has no cards.", "{} has no cards."]


# --- moves() and legality ------------------------------------------------------------------


def _states() -> dict[str, tuple[State, float]]:
    """States that reach every kind of move (and ``t``, a moment to judge them at)."""
    played = run(start(4), plays("racketeer", "twin_racketeer"))  # Dee skips, Ann to play
    kinded = act(played, {"do": "accuse", "by": [2], "against": 1, "kind": "hesitation"}, 2.5)
    kindless = act(played, {"do": "accuse", "by": [2], "against": 1}, 2.5)
    seen = act(played, {"do": "seen_beside", "card": "gun", "serial": 9}, 2.5)
    seen_accused = act(seen, {"do": "accuse", "by": [3], "against": 1}, 2.6)
    nasty = run(start(3, nasty="first_round"), plays("racketeer", "phone"))
    finisher = run(start(2, deck_size=4), plays("racketeer", "racketeer", "gun"))
    assert finisher.finisher == 0 and not finisher.over
    return {
        "the first card": (start(3), 0.5),
        "after a twin": (played, 2.5),
        "an accusation of hesitating": (kinded, 2.8),
        "an accusation naming nothing": (kindless, 2.8),
        "a card beside the pile": (seen, 2.8),
        "a card beside the pile, then an accusation": (seen_accused, 2.8),
        "the phone word": (nasty, 2.5),
        "a finisher's last card": (finisher, 3.5),
        "without twins": (run(start(3, no_twins=True), plays("racketeer")), 1.5),
        "over": (run(start(2, deck_size=2), plays("racketeer", "racketeer")), 3.0),
    }


STATES = _states()


def _refusal(state: State, action: dict[str, Any], t: float) -> str | None:
    try:
        engine.decide(state, action, t)
    except IllegalAction as exc:
        return exc.reason
    return None


#: a move that is not allowed, made a complete action (to ask ``decide`` about it)
COMPLETE: dict[str, Callable[[State, Move], dict[str, Any]]] = {
    "accuse": lambda st, m: {"by": [m.fixed["seat"]], "against": accused(st)},
    "missed_card": lambda st, m: {"card": "racketeer"},
}


@pytest.mark.parametrize("name", STATES)
def test_moves_offer_only_what_legality_allows(name: str) -> None:
    state, t = STATES[name]
    problems, allowed, refused = [], 0, 0
    for who in [*range(state.n_seats), None]:
        for move in engine.moves(state, who):
            if move.allowed:
                for action in move.actions(limit=60):
                    allowed += 1
                    why = _refusal(state, action, t)
                    if why is not None:
                        problems.append(f"{who}: offered {action}, refused: {why}")
                continue
            refused += 1
            action = {"do": move.do, **move.fixed, **COMPLETE[move.do](state, move)}
            if move.why != _refusal(state, action, t):
                problems.append(f"{who}: {move.label!r} says {move.why!r}, decide says "
                                f"{_refusal(state, action, t)!r}")  # fmt: skip
    assert not problems, "\n".join(problems)
    assert allowed or state.over


@pytest.mark.parametrize("name", STATES)
def test_what_decide_accepts_from_a_seat_is_offered(name: str) -> None:
    """A seat's accusations (plain or naming a mistake) and phone words."""
    state, t = STATES[name]
    against = accused(state)
    pending = state.accusation
    for seat in range(state.n_seats):
        probes: list[dict[str, Any]] = [{"do": "word", "seat": seat, "text": "ouch"}]
        for kind in ("", *ACCUSE_KINDS):
            if pending is not None and not pending.kind and kind:
                continue  # accepted and dropped: joiners of such an accusation name nothing
            probes.append({"do": "accuse", "seat": seat, "by": [seat], "against": against,
                           **({"kind": kind} if kind else {})})  # fmt: skip
        moves = engine.moves(state, seat)
        for action in probes:
            if _refusal(state, action, t) is None:
                assert any(m.offers(action) for m in moves), f"{action} is not offered"
            else:
                assert not any(m.offers(action) for m in moves), f"{action} is offered"


def test_a_seat_and_its_button_hear_the_sentence_decide_says() -> None:
    """The phone's greyed-out Accuse, the seat's button and the posted accusation agree."""
    from companion.games.base import ButtonInput

    state, t = STATES["an accusation of hesitating"]
    for seat in range(4):
        why = accuse_reason(state, (seat,), accused(state))
        (first, *_) = engine.moves(state, seat)
        action = {"do": "accuse", "seat": seat, "by": [seat], "against": 1}
        assert why == _refusal(state, action, t) == (None if first.allowed else first.why)
        if why is None:
            continue
        with pytest.raises(IllegalAction) as pressed:
            engine.action_for_input(state, ButtonInput("seat", seat, False, t))
        assert pressed.value.reason == why
