"""Every refusal sentence of Crime Lords is written once (legality written once).

A sentence that refuses an action (``require``'s reason, an ``IllegalAction``, a move's
``why``, what a ``..._reason`` or ``..._problem`` check returns) lives in one place in the
package; ``decide``'s handlers and ``moves`` both ask that place (``legality.py`` and the
topic modules' checks), so a phone cannot say one thing and the referee another.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import companion.games.crime_lords as package

ROOT = Path(package.__file__).parent
#: the wording modules another helper owns; they refuse nothing
SKIP = {"describe.py", "views.py"}


def _text(node: ast.expr) -> str | None:
    """A string constant or an f-string as a template (``{}`` for each value)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(str(v.value) if isinstance(v, ast.Constant) else "{}"
                       for v in node.values)
    return None


def refusals(source: str) -> list[tuple[str, int]]:
    """The refusal sentences written in ``source``, with their lines."""
    out: list[tuple[str, int]] = []

    def add(node: ast.expr | None) -> None:
        if node is None:
            return
        text = _text(node)
        if text is not None and len(text) > 12:
            out.append((text, node.lineno))
        elif isinstance(node, ast.BoolOp | ast.IfExp):
            for part in ast.iter_child_nodes(node):
                if isinstance(part, ast.expr):
                    add(part)

    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            if name == "require" and len(node.args) > 1:
                add(node.args[1])
            if name == "IllegalAction" and node.args:
                add(node.args[0])
            for kw in node.keywords:
                if kw.arg == "why":
                    add(kw.value)
        if isinstance(node, ast.FunctionDef) and node.name.endswith(("_reason", "_problem")):
            for ret in ast.walk(node):
                if isinstance(ret, ast.Return):
                    add(ret.value)
    return out


def test_every_refusal_sentence_is_written_once() -> None:
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(ROOT.glob("*.py")):
        if path.name in SKIP:
            continue
        for text, line in refusals(path.read_text(encoding="utf-8")):
            where[text].append(f"{path.name}:{line}")
    assert len(where) > 50, "the scan found too few refusals: is it looking at the package?"
    twice = {text: places for text, places in where.items() if len(places) > 1}
    assert not twice, "refusals written more than once:\n" + "\n".join(
        f"{text!r}: {', '.join(places)}" for text, places in twice.items())


def test_the_scan_sees_a_sentence_written_twice() -> None:
    source = '''
def offer_reason(state):
    return "A Crook offered to another Mob is waiting for an answer."

def end_turn(state):
    require(state.offer is None, "A Crook offered to another Mob is waiting for an answer.")

def moves(state):
    return Move("end_turn", "End", allowed=False, why=f"It is {state.turn}'s turn now.")
'''
    found = [text for text, _ in refusals(source)]
    assert found.count("A Crook offered to another Mob is waiting for an answer.") == 2
    assert "It is {}'s turn now." in found


def _refusal(t: object, **action: object) -> str:
    import pytest

    from companion.games.base import IllegalAction

    with pytest.raises(IllegalAction) as err:
        t.do(**action)  # type: ignore[attr-defined]
    return str(err.value)


def test_moves_say_what_decide_says() -> None:
    """A move offered but not allowed shows decide's own sentence: the draws still owed,
    another player's turn, a drawn card waiting for its stats."""
    from companion.games.crime_lords import engine
    from tests.games.crime_lords.helpers import two_mobs

    t = two_mobs(draw_rule="count")
    t.do(do="collect", seat=0)

    def why(seat: int, do: str) -> str:
        found = [m for m in engine.moves(t.state, seat) if m.do == do and not m.allowed]
        assert found, f"no refused {do} move for seat {seat}"
        return found[0].why

    assert why(0, "end_turn") == _refusal(t, do="end_turn", seat=0)
    assert "must first draw" in why(0, "end_turn")
    assert why(1, "end_turn") == _refusal(t, do="end_turn", seat=1)
    t.do(do="draw", seat=0, card="crook_09")  # a new Crook: the game waits for its stats
    assert t.state.pending is not None
    assert why(0, "end_turn") == _refusal(t, do="end_turn", seat=0)
