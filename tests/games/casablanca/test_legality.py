"""Casablanca's legality is written once: every refusal sentence lives in one place, and
the judging (``rules.py``), the phone's options (``moves.py``) and the table's buttons
(``inputs.py``) ask ``legality.py`` instead of restating a rule."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

import companion.games.casablanca as package

PACKAGE = Path(package.__file__).parent
#: the history's sentences are not refusals (and describe.py is another helper's)
SKIP = {"describe.py"}
#: modules that must ask legality.py rather than write a refusal themselves
ASKERS = ("rules.py", "moves.py", "inputs.py")


def _sentences(tree: ast.AST) -> list[str]:
    """Every string literal that reads as a sentence (f-strings with ``{}`` for their
    values), docstrings left out."""
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, ast.Module | ast.FunctionDef | ast.ClassDef) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    inner = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    out = []
    for node in ast.walk(tree):
        if id(node) in docs or id(node) in inner:
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            text = node.value
        elif isinstance(node, ast.JoinedStr):
            text = "".join(str(v.value) if isinstance(v, ast.Constant) else "{}"
                           for v in node.values)
        else:
            continue
        if len(text) >= 25 and " " in text:
            out.append(text)
    return out


def _trees() -> dict[str, ast.Module]:
    return {p.name: ast.parse(p.read_text("utf-8")) for p in sorted(PACKAGE.glob("*.py"))
            if p.name not in SKIP}


def test_no_refusal_sentence_is_written_twice() -> None:
    trees = _trees()
    legal = Counter(_sentences(trees["legality.py"]))
    assert legal, "no sentence found: the scan itself is broken"
    assert not [s for s, n in legal.items() if n > 1]
    elsewhere = {name: set(_sentences(tree)) & set(legal) for name, tree in trees.items()
                 if name != "legality.py"}
    assert not any(elsewhere.values()), elsewhere


def test_judging_phone_and_buttons_ask_legality_for_every_refusal() -> None:
    trees = _trees()
    for name in ASKERS:
        for node in ast.walk(trees[name]):
            if isinstance(node, ast.Call):
                called = ast.unparse(node.func)
                assert called not in ("require", "IllegalAction"), (
                    f"{name}:{node.lineno}: {called}(...) writes a refusal: ask legality.py")
                for kw in node.keywords:
                    written = isinstance(kw.value, ast.Constant | ast.JoinedStr)
                    assert not (kw.arg == "why" and written), (
                        f"{name}:{node.lineno}: a 'why' written here: ask legality.py")
    refusals = [s for s in _sentences(trees["legality.py"]) if s.endswith(".")]
    assert len(refusals) >= 20, refusals
