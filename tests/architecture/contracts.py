"""Two import-linter contract types the built-in ones do not cover (see pyproject.toml).

- ``stdlib_only``: the source packages import only the standard library and the listed
  internal packages (the games: pure rules, no third-party code, no other layer).
- ``no_cycles``: no module of the listed packages imports a module that imports it back,
  directly or through a chain (function-level imports count: grimp sees them).

import-linter loads these from ``[tool.importlinter] contract_types``; ``lint-imports``
runs them with the built-in contracts in ``./run test``.
"""

from __future__ import annotations

import sys
from typing import Any

from grimp import ImportGraph
from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck

_STDLIB = frozenset(sys.stdlib_module_names) | {"__future__"}


def _modules_of(graph: ImportGraph, packages: list[Any]) -> set[str]:
    found: set[str] = set()
    for package in packages:
        name = package.name
        found.add(name)
        found |= graph.find_descendants(name)
    return found


def _line(graph: ImportGraph, importer: str, imported: str) -> str:
    details = graph.get_import_details(importer=importer, imported=imported)
    lines = ", ".join(str(d["line_number"]) for d in details)
    return f"{importer} -> {imported} (l. {lines})" if lines else f"{importer} -> {imported}"


class StdlibOnlyContract(Contract):
    """Source packages may import the standard library and ``allowed_modules`` only."""

    type_name = "stdlib_only"
    source_modules = fields.ListField(subfield=fields.ModuleField())
    allowed_modules = fields.ListField(subfield=fields.ModuleField(), required=False)

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        allowed = [m.name for m in self.source_modules]  # type: ignore[attr-defined]
        allowed += [m.name for m in self.allowed_modules or []]  # type: ignore[attr-defined]
        bad: list[str] = []
        for module in sorted(_modules_of(graph, self.source_modules)):  # type: ignore[arg-type]
            for imported in sorted(graph.find_modules_directly_imported_by(module)):
                if graph.is_module_squashed(imported):  # an external package
                    ok = imported.split(".")[0] in _STDLIB
                else:
                    ok = any(imported == a or imported.startswith(a + ".") for a in allowed)
                if not ok:
                    bad.append(_line(graph, module, imported))
        return ContractCheck(kept=not bad, metadata={"bad": bad})

    def render_broken_contract(self, check: ContractCheck) -> None:
        output.print("Only the standard library (and the listed packages) may be imported:")
        for line in check.metadata["bad"]:
            output.print(f"- {line}")
        output.new_line()


class NoCyclesContract(Contract):
    """No import cycle between any two modules of ``packages``."""

    type_name = "no_cycles"
    packages = fields.ListField(subfield=fields.ModuleField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        modules = _modules_of(graph, self.packages)  # type: ignore[arg-type]
        edges = {m: sorted(graph.find_modules_directly_imported_by(m) & modules)
                 for m in modules}
        cycles = [self._describe(graph, c, edges) for c in _strongly_connected(edges)
                  if len(c) > 1 or c[0] in edges[c[0]]]
        return ContractCheck(kept=not cycles, metadata={"cycles": cycles})

    @staticmethod
    def _describe(graph: ImportGraph, component: list[str], edges: dict[str, list[str]]) -> str:
        """One cycle through the component's first module, import by import."""
        start = min(component)
        inside = set(component)
        path, seen = [start], {start}
        while True:  # walk inside the component until we are back at the start
            here = path[-1]
            nexts = [m for m in edges[here] if m in inside]
            if start in nexts:
                path.append(start)
                break
            step = next((m for m in nexts if m not in seen), nexts[0])
            path.append(step)
            seen.add(step)
        return "\n  ".join(_line(graph, a, b) for a, b in zip(path, path[1:], strict=False))

    def render_broken_contract(self, check: ContractCheck) -> None:
        output.print("These modules import each other (a module may not import one that "
                     "imports it back):")
        for cycle in check.metadata["cycles"]:
            output.print(f"- {cycle}")
        output.new_line()


def _strongly_connected(edges: dict[str, list[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, iterative (no recursion limit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            children = edges[node]
            if i < len(children):
                work.append((node, i + 1))
                child = children[i]
                if child not in index:
                    work.append((child, 0))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                out.append(sorted(component))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return out
