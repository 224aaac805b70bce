"""Which action keys each handler of a game reads, found in its source (``ast``).

A key is read where the source says ``action.get("k")``, ``action["k"]``, ``"k" in action``
or passes ``action`` and the literal ``"k"`` to a call (``get_int(action, "k")``). A
handler reads its own keys and those of every function of the game it calls (by name,
transitively). Types: ``get_int`` means ``int``, ``get_str`` means ``str``, else ``json``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEY = re.compile(r"^[a-z_][a-z0-9_]{0,24}$")
ACTION_NAMES = ("action", "act", "a")


@dataclass
class Reads:
    keys: dict[str, str] = field(default_factory=dict)  # key -> kind
    calls: set[str] = field(default_factory=set)


def _is_action(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id in ACTION_NAMES


def _literal(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and KEY.match(node.value):
        return node.value
    return None


def _reads(fn: ast.AST) -> Reads:
    out = Reads()

    def note(key: str | None, kind: str = "json") -> None:
        if key is not None and key != "do":
            if out.keys.get(key, "json") == "json":
                out.keys[key] = kind

    if isinstance(fn, ast.FunctionDef) and any(a.arg in ACTION_NAMES for a in fn.args.args):
        for default in fn.args.defaults + [d for d in fn.args.kw_defaults if d is not None]:
            note(_literal(default))  # def own_crook(state, seat, action, key="card")
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else "")
            if name:
                out.calls.add(name)
            if isinstance(func, ast.Attribute) and func.attr == "get" and _is_action(func.value):
                note(_literal(node.args[0]) if node.args else None)
            elif any(_is_action(a) for a in node.args):
                kind = {"get_int": "int", "get_str": "str"}.get(name, "json")
                for a in node.args:
                    note(_literal(a), kind)
        elif isinstance(node, ast.Subscript) and _is_action(node.value):
            note(_literal(node.slice))
        elif isinstance(node, ast.Compare) and len(node.comparators) == 1 \
                and _is_action(node.comparators[0]) and isinstance(node.ops[0], ast.In | ast.NotIn):
            note(_literal(node.left))
    return out


def _functions(package: Path) -> dict[str, ast.AST]:
    found: dict[str, ast.AST] = {}
    for path in sorted(package.glob("*.py")):
        if path.name in ("actions.py", "views.py", "fold.py", "inputs.py"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                found.setdefault(node.name, node)
    return found


def _handler_names(package: Path) -> dict[str, str]:
    """Action name -> handler function name: ``_HANDLERS`` or ``ACTIONS`` in decide.py, and
    the names ``decide`` itself handles (``if do == "deal"``)."""
    tree = ast.parse((package / "decide.py").read_text(encoding="utf-8"))
    found = _table_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name == "decide":
            for sub in ast.walk(node):
                if isinstance(sub, ast.Compare) and isinstance(sub.left, ast.Name) \
                        and sub.left.id == "do" and isinstance(sub.ops[0], ast.Eq):
                    name = _literal(sub.comparators[0])
                    if name and name != "deadline" and name not in found:
                        found[name] = "decide"
    return found


def _table_names(tree: ast.AST) -> dict[str, str]:
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        value: ast.expr | None = None
        if isinstance(node, ast.Assign):
            targets, value = list(node.targets), node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        names = {t.id for t in targets if isinstance(t, ast.Name)}
        if not names & {"_HANDLERS", "ACTIONS"} or value is None:
            continue
        if isinstance(value, ast.Dict):
            out = {}
            for k, v in zip(value.keys, value.values, strict=True):
                if isinstance(k, ast.Constant) and isinstance(k.value, str):
                    out[k.value] = _callee(v)
            return out
        if isinstance(value, ast.Tuple | ast.List | ast.Set):
            return {e.value: "decide" for e in value.elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)}
    raise AssertionError("decide.py has no _HANDLERS or ACTIONS")


def _callee(value: ast.expr) -> str:
    """The function a handler entry names: ``f``, ``module.f`` or ``lambda s, a: f(...)``."""
    if isinstance(value, ast.Name):
        return value.id
    if isinstance(value, ast.Attribute):
        return value.attr
    if isinstance(value, ast.Lambda) and isinstance(value.body, ast.Call):
        return _callee(value.body.func)
    return "decide"


def _constant_names(package: Path) -> dict[str, tuple[str, ...]]:
    """Module-level tuples of action names (``CAMERA_ACTIONS = ("seen", ...)``)."""
    out: dict[str, tuple[str, ...]] = {}
    for path in sorted(package.glob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Tuple | ast.Set):
                vals = tuple(e.value for e in node.value.elts
                             if isinstance(e, ast.Constant) and isinstance(e.value, str))
                for t in node.targets:
                    if isinstance(t, ast.Name) and vals:
                        out[t.id] = vals
    return out


def handler_keys(game: str) -> dict[str, dict[str, str]]:
    """Action name -> {key: kind} that its handler (and what it calls) reads."""
    package = ROOT / "companion" / "games" / game
    functions = _functions(package)
    reads = {name: _reads(fn) for name, fn in functions.items()}

    def closure(start: str) -> dict[str, str]:
        seen: set[str] = set()
        todo = [start]
        keys: dict[str, str] = {}
        while todo:
            name = todo.pop()
            if name in seen or name not in reads:
                continue
            seen.add(name)
            for k, kind in reads[name].keys.items():
                if keys.get(k, "json") == "json":
                    keys[k] = kind
            todo.extend(reads[name].calls)
        return keys

    return {action: closure(handler) for action, handler in _handler_names(package).items()}


def action_names(game: str) -> set[str]:
    return set(_handler_names(ROOT / "companion" / "games" / game))


def games() -> Iterable[str]:
    return ("nasty7", "illegal", "casablanca", "crime_lords")
