"""The shape of vision's imports: no cycles (lazy imports count), and no camera libs needed.

Read with ``ast``, so an import inside a function or under ``TYPE_CHECKING`` counts as
much as one at the top (import-linter's grimp sees those too).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

VISION = Path(__file__).resolve().parents[2] / "vision"


def _imported(tree: ast.AST) -> set[str]:
    """Every module name an import statement anywhere in ``tree`` names (absolute only)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def vision_graph() -> dict[str, set[str]]:
    """Each vision module -> the vision modules it imports (anywhere in its source)."""
    modules = {p.stem: p for p in VISION.glob("*.py") if p.stem != "__init__"}
    graph = {}
    for name, path in sorted(modules.items()):
        imported = _imported(ast.parse(path.read_text(encoding="utf-8")))
        graph[name] = {m.split(".")[1] for m in imported
                       if m.startswith("vision.") and m.split(".")[1] in modules} - {name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path (first module repeated at the end), or None."""
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (cycle := visit(nxt)) is not None:
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)) is not None:
            return cycle
    return None


def test_vision_modules_import_each_other_without_cycles() -> None:
    graph = vision_graph()
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])
    assert graph["frames"] == set()  # the shared types depend on no other vision module
    assert "decoding" not in graph["retry"] and "decoding" not in graph["backends"]
    assert "sources" not in graph["synthetic"]


def test_the_cycle_check_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_core_vision_modules_import_without_camera_libraries() -> None:
    code = """
import importlib.abc, sys
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"cv2", "picamera2", "pyzbar", "zxingcpp"}:
            raise ModuleNotFoundError(name, name=name)
sys.meta_path.insert(0, Block())
import vision.frames, vision.backends, vision.decoding, vision.sources
import vision.tracking, vision.pipeline, vision.bench
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=VISION.parent, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
