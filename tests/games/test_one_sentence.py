"""Each sentence a game says is written once in its package.

A refusal written in two modules drifts: one copy gets fixed, the other keeps saying
the old thing (and usually means a rule is checked twice). This reads every game
package's source and lists each sentence-like string (plain or the literal parts of
an f-string, docstrings left out) that appears in more than one place.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

from companion import games

GAMES_DIR = Path(games.__file__).resolve().parent
#: a piece of text this long, with spaces, is a sentence (shorter ones are labels)
MIN_LEN = 28


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def sentences(source: str) -> list[tuple[str, int]]:
    """(text, line) of every sentence-like string constant in ``source``."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            text = node.value.strip()
            if len(text) >= MIN_LEN and " " in text:
                out.append((text, node.lineno))
    return out


def repeated(package: Path) -> dict[str, list[str]]:
    """Each sentence found in more than one place of ``package``: where it is."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(package.glob("*.py")):
        for text, line in sentences(path.read_text(encoding="utf-8")):
            where[text].append(f"{path.name}:{line}")
    return {text: places for text, places in where.items() if len(places) > 1}


PACKAGES = sorted(p for p in GAMES_DIR.iterdir() if (p / "__init__.py").exists()
                  and p.name != "__pycache__")


@pytest.mark.parametrize("package", PACKAGES, ids=[p.name for p in PACKAGES])
def test_every_sentence_of_a_game_is_written_once(package: Path) -> None:
    twice = repeated(package)
    assert not twice, "\n".join(f"{text!r}: {', '.join(places)}" for text, places in twice.items())


def test_a_sentence_written_twice_is_found(tmp_path: Path) -> None:
    once = 'def a():\n    raise X("Finish the attack in progress first (roll or back out).")\n'
    (tmp_path / "one.py").write_text(once)
    (tmp_path / "two.py").write_text(once.replace("def a", "def b"))
    (tmp_path / "three.py").write_text('def c():\n    """A docstring that is long enough."""\n'
                                       '    return f"{who} may add a legal business, or end"\n')
    assert list(repeated(tmp_path)) == [
        "Finish the attack in progress first (roll or back out)."]
