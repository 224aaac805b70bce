"""Templates are compiled once per process, not once per app (``web.app.COMPILED``).

Every ``create_app`` makes a new Jinja environment; without the shared bytecode cache each
one compiled every template again (most of the Python time of the browser tests). A
template whose source changes is compiled again: the cache keeps code only for the source
it was made from.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from jinja2 import DictLoader, Environment

from companion.config import WebConfig
from companion.store import MemoryStore
from companion.table import Table
from web import create_app
from web.app import COMPILED, CompiledTemplates


def _compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    seen: list[str] = []
    compile_ = Environment.compile

    def counting(self: Environment, source: Any, name: str | None = None,
                 filename: str | None = None, raw: bool = False, defer_init: bool = False) -> Any:
        seen.append(str(name))
        return compile_(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(Environment, "compile", counting)
    return seen


def test_a_second_app_compiles_no_template_again(state_dir: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(MemoryStore())
    pages = []
    for _ in range(2):
        app = create_app(table, web_config=WebConfig(port=8080), state_dir=state_dir,
                         testing=True)
        assert app.jinja_env.bytecode_cache is COMPILED
        pages.append(app.test_client().get("/").get_data(as_text=True))
        if len(pages) == 1:
            seen = _compiles(monkeypatch)  # the first app compiled what it needed
    assert all("<html" in page.lower() and "{{" not in page for page in pages)
    assert seen == [], f"compiled again for the second app: {seen}"


def test_a_changed_template_is_compiled_again(monkeypatch: pytest.MonkeyPatch) -> None:
    cache = CompiledTemplates()
    seen = _compiles(monkeypatch)
    first = Environment(loader=DictLoader({"t.html": "one {{ x }}"}), bytecode_cache=cache)
    again = Environment(loader=DictLoader({"t.html": "one {{ x }}"}), bytecode_cache=cache)
    changed = Environment(loader=DictLoader({"t.html": "two {{ x }}"}), bytecode_cache=cache)
    assert first.get_template("t.html").render(x=1) == "one 1"
    assert again.get_template("t.html").render(x=2) == "one 2"
    assert changed.get_template("t.html").render(x=3) == "two 3"
    assert seen == ["t.html", "t.html"]  # the first and the changed one, not the same again
