"""docs/records.md and docs/schemas/ say what the action dataclasses say.

- every action of every game has an example line in its game's section of
  docs/records.md, and every example there parses as that game's typed action (so a key
  or a type the dataclasses do not have cannot stay in the docs);
- ``docs/schemas/<game>.schema.json`` is the game's ``ActionSet.json_schema()``.

``python -m tests.games.test_action_docs`` rewrites the schema files.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.games.actions import ActionError
from companion.games.engine import AnyEngine

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "records.md"
SCHEMAS = ROOT / "docs" / "schemas"
ENGINES = list(games.ENGINES)
IDS = [e.name for e in ENGINES]
#: actions no record line is written for: the clock's
UNWRITTEN = {"deadline"}


def section(engine: AnyEngine) -> str:
    """The game's section of docs/records.md (from its heading to the next one)."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"\n### {engine.title}\n")
    end = text.find("\n### ", start + 1)
    return text[start:end if end != -1 else len(text)]


def examples(text: str) -> list[dict[str, Any]]:
    """Every inline code span of ``text`` that is a JSON object with ``do``."""
    out = []
    for span in re.findall(r"`(\{[^`]*\})`", text):
        try:
            value = json.loads(span)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict) and isinstance(value.get("do"), str):
            out.append(value)
    return out


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_every_action_has_an_example_that_parses(engine: AnyEngine) -> None:
    assert engine.actions is not None
    found = examples(section(engine))
    wrong = []
    for line in found:
        line = {k: v for k, v in line.items() if k != "t"}
        try:
            engine.actions.parse(line)
        except ActionError as exc:
            wrong.append(f"{line}: {exc.reason} ({exc.detail})")
    assert not wrong, "docs/records.md examples the dataclasses refuse:\n" + "\n".join(wrong)
    missing = {k.do for k in engine.actions} - {e["do"] for e in found} - UNWRITTEN
    assert not missing, f"docs/records.md has no example of {engine.title}'s {sorted(missing)}"


def schema_text(engine: AnyEngine) -> str:
    assert engine.actions is not None
    return json.dumps(engine.actions.json_schema(), indent=2, sort_keys=True) + "\n"


@pytest.mark.parametrize("engine", ENGINES, ids=IDS)
def test_the_json_schema_file_is_the_dataclasses(engine: AnyEngine) -> None:
    path = SCHEMAS / f"{engine.name}.schema.json"
    assert path.exists() and path.read_text(encoding="utf-8") == schema_text(engine), (
        f"{path} is not what the dataclasses say: run python -m tests.games.test_action_docs")


def test_an_example_with_a_wrong_key_is_caught() -> None:
    engine = ENGINES[0]
    assert engine.actions is not None
    kind = next(k for k in engine.actions if k.do not in UNWRITTEN)
    with pytest.raises(ActionError):
        engine.actions.parse({"do": kind.do, "no_such_key": 1})
    assert examples('`{"do": "x", "a": 1}` and `{"t": 2}`') == [{"do": "x", "a": 1}]


if __name__ == "__main__":
    SCHEMAS.mkdir(exist_ok=True)
    for e in ENGINES:
        (SCHEMAS / f"{e.name}.schema.json").write_text(schema_text(e), encoding="utf-8")
    sys.exit(0)
