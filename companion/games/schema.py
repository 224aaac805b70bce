"""Action schemas: which keys each action of a game takes, and of what type.

Every game declares in ``companion/games/<game>/actions.py`` one ``ActionSchema`` per
action name (``ACTIONS``); the engine carries them (``Engine.actions``) and the table
checks each action a phone, the host or the command line sends before the rules see it:
an unknown action or key is refused, and a value of the wrong type or out of range is
refused with a sentence naming the key. Nothing unknown is ever stored.

The rules still decide everything else (whose turn, which card): a schema only says what
an action may look like. ``Key()`` is any plain JSON (bounded where it came in): the rules
check what it means. ``tests/core/test_action_schemas.py`` checks that every action of a
game has an entry, that every key a handler reads is declared, and that every recorded
game still passes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from companion.games.base import IllegalAction

Kind = Literal["int", "number", "bool", "str", "ints", "strs", "json"]

#: how long a text value may be, and how many items a list may hold
MAX_TEXT = 200
MAX_LIST = 64
#: the largest amount or count any action carries
MAX = 10**9


@dataclass(frozen=True)
class Key:
    """One key of an action: its type, and bounds for numbers (values) or lists (items)."""

    kind: Kind = "json"
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()

    def problem(self, name: str, value: Any) -> str | None:
        """What is wrong with ``value`` for this key, naming it; None when it fits."""
        if value is None:
            return None  # absent: the rules say whether it is needed
        if self.kind == "json":
            return None  # plain, bounded JSON already (checked where it came in)
        if self.kind in ("ints", "strs"):
            if not isinstance(value, list | tuple):
                return f'"{name}" must be a list'
            if len(value) > MAX_LIST:
                return f'"{name}" has too many items (at most {MAX_LIST})'
            item = Key("int" if self.kind == "ints" else "str", self.minimum, self.maximum,
                       self.choices)
            for v in value:
                problem = item.problem(name, v)
                if problem:
                    return problem + " (each item)"
            return None
        if self.kind == "bool":
            return None if isinstance(value, bool) else f'"{name}" must be true or false'
        if self.kind == "str":
            if not isinstance(value, str):
                return f'"{name}" must be a text'
            if len(value) > MAX_TEXT:
                return f'"{name}" is too long (at most {MAX_TEXT} characters)'
            if self.choices and value not in self.choices:
                return f'"{name}" must be one of ' + ", ".join(self.choices)
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            return f'"{name}" must be a number'
        if self.kind == "int" and not (isinstance(value, int) or value.is_integer()):
            return f'"{name}" must be a whole number'
        if self.minimum is not None and value < self.minimum:
            return f'"{name}" must be at least {self.minimum:g}'
        if self.maximum is not None and value > self.maximum:
            return f'"{name}" must be at most {self.maximum:g}'
        return None


#: an action's keys besides ``do``
ActionSchema = Mapping[str, Key]

#: keys every action may carry: the table fills in a phone's own seat
COMMON: ActionSchema = {"seat": Key("int", 0, 11)}


def check_action(schemas: Mapping[str, ActionSchema], action: Mapping[str, Any],
                 game: str = "This game") -> dict[str, Any]:
    """``action`` as a new dict when it fits its schema; ``IllegalAction`` names the key."""
    do = action.get("do")
    if not isinstance(do, str) or do not in schemas:
        shown = str(do)[:40]
        raise IllegalAction(f'{game} has no action "{shown}": use one of '
                            + ", ".join(sorted(schemas)) + ".")
    schema = schemas[do]
    for name, value in action.items():
        if name == "do":
            continue
        key = schema.get(name) or COMMON.get(name)
        if key is None:
            known = sorted(set(schema) | set(COMMON))
            raise IllegalAction(f'"{do}" does not take "{str(name)[:40]}": it takes '
                                + ", ".join(f'"{k}"' for k in known) + ".")
        problem = key.problem(name, value)
        if problem:
            raise IllegalAction(f"{problem[0].upper()}{problem[1:]}.")
    return dict(action)


__all__ = ["COMMON", "ActionSchema", "Key", "Kind", "check_action"]
