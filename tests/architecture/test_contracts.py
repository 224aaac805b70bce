"""The layering contracts of pyproject.toml catch what they promise to catch.

``./run test`` runs ``lint-imports`` on the real tree (it must keep every contract);
here each contract is shown to break on a copy of the tree with one bad import added.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("companion", "vision", "hardware", "web", "league", "bench")
LINT = Path(sys.executable).with_name("lint-imports")

#: (contract id, file to change, line to add, what the report must say)
BAD_IMPORTS = [
    ("games-pure", "companion/games/nasty7/fold.py", "import numpy",
     "companion.games.nasty7.fold -> numpy"),
    ("games-pure", "companion/games/casablanca/views.py", "import companion.table",
     "companion.games.casablanca.views -> companion.table"),
    ("games-no-io", "companion/games/illegal/decide.py", "import time",
     "companion.games.illegal.decide -> time"),
    ("games-independent", "companion/games/nasty7/views.py",
     "import companion.games.illegal.deck", "companion.games.nasty7.views"),
    ("web-no-hardware", "web/render.py", "import vision.frames", "web.render -> vision.frames"),
    ("web-no-game-internals", "web/seat.py", "import companion.games.crime_lords.mob",
     "web.seat -> companion.games.crime_lords.mob"),
    ("edges-not-table-loop", "vision/tracking.py", "import companion.table",
     "vision.tracking -> companion.table"),
    ("vision-frames-shared", "vision/frames.py", "import vision.decoding",
     "vision.frames -> vision.decoding"),
    ("runtime-not-bench", "vision/pipeline.py", "import bench.vision_kit",
     "vision.pipeline -> bench.vision_kit"),
    ("core-not-edges", "companion/table/__init__.py", "import web.render", "companion.table -> web"),
    ("league-edges", "league/pages.py", "import web.render", "league.pages -> web.render"),
    ("nothing-imports-league", "web/stats.py", "import league.queries",
     "web.stats -> league.queries"),
    ("no-cycles", "companion/games/nasty7/state.py", "import companion.games.nasty7.decide",
     "companion.games.nasty7.decide -> companion.games.nasty7"),
    # the table uses the decks (stats of a drawn card); decks reaching back to the table
    # makes the sibling packages companion.decks and companion.table a cycle
    ("siblings-acyclic", "companion/decks/resolve.py", "import companion.table",
     "No cycles are allowed in companion."),
    ("runtime-not-bench", "web/render.py", "import bench.store", "web.render -> bench.store"),
    ("runtime-not-bench", "companion/commands/serve.py", "import bench",
     "companion.commands.serve -> bench"),
]


def copy_tree(dest: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, dest / package, ignore=ignore)
    shutil.copytree(ROOT / "tests" / "architecture", dest / "tests" / "architecture",
                    ignore=ignore)
    (dest / "tests" / "__init__.py").write_text("", encoding="utf-8")
    shutil.copy(ROOT / "pyproject.toml", dest / "pyproject.toml")


def lint(tree: Path, contract: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run([str(LINT), "--no-logo", "--no-cache", "--contract", contract],
                          cwd=tree, env=env, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(("contract", "path", "line", "report"), BAD_IMPORTS,
                         ids=[f"{c}:{p}" for c, p, _, _ in BAD_IMPORTS])
def test_a_bad_import_breaks_its_contract(
    tmp_path: Path, contract: str, path: str, line: str, report: str
) -> None:
    copy_tree(tmp_path)
    kept = lint(tmp_path, contract)
    assert kept.returncode == 0, kept.stdout + kept.stderr  # the copy keeps it as it is
    target = tmp_path / path
    target.write_text(target.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")
    broken = lint(tmp_path, contract)
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "BROKEN" in broken.stdout and report in broken.stdout, broken.stdout
