"""``companion.games.frozen.replace`` builds what ``dataclasses.replace`` builds.

The engines fold every event with it; here every call a whole recorded game of each
engine makes is done both ways and compared, and the classes it must leave to
``dataclasses.replace`` (``__post_init__``, slots, ClassVar, fields outside ``__init__``)
are checked to get the same answer through it. (An action has ClassVars, so it takes
``dataclasses.replace``; every state must take the fast copy.)
"""

from __future__ import annotations

import dataclasses
import functools
import sys
from typing import Any, ClassVar

import pytest

from companion import games
from companion.games import frozen
from companion.games.actions import GameAction
from tests.games.walk import random_game, records_of, replay

ENGINES = list(games.ENGINES)


@pytest.mark.parametrize("engine", ENGINES, ids=[e.name for e in ENGINES])
def test_every_replace_of_a_recorded_game_matches_dataclasses(
        engine: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[type] = []
    problems: list[str] = []

    def both(obj: Any, /, **changes: Any) -> Any:
        fast = frozen.replace(obj, **changes)
        slow = dataclasses.replace(obj, **changes)
        calls.append(type(obj))
        if type(fast) is not type(slow) or fast != slow or vars(fast) != vars(slow):
            problems.append(f"{type(obj).__name__} with {sorted(changes)}: {fast!r} != {slow!r}")
        return fast

    users = [m for name, m in list(sys.modules.items())
             if name.startswith(f"companion.games.{engine.name}")
             and getattr(m, "replace", None) is frozen.replace]
    assert users, f"no module of {engine.name} uses companion.games.frozen.replace"
    for module in users:
        monkeypatch.setattr(module, "replace", both)
    # replayed here, not read from the walks' shared replay: the calls are the point
    steps = sum(len(replay.__wrapped__(path).steps) for path in records_of(engine.name))
    walk = random_game(engine, engine.min_seats, seed=7, steps=60)
    assert steps > 10 and walk.states
    assert len(calls) > 50, f"only {len(calls)} replace calls in {engine.name}'s games"
    assert not problems, "\n".join(problems[:10])
    slow = sorted({t.__name__ for t in calls
                   if not frozen._plain(t) and not issubclass(t, GameAction)})
    assert not slow, f"{engine.name}'s states that miss the fast copy: {slow}"


@dataclasses.dataclass(frozen=True)
class Plain:
    a: int
    b: tuple[int, ...] = ()


@dataclasses.dataclass(frozen=True)
class Checked:
    a: int
    seen: list[int] = dataclasses.field(default_factory=list, compare=False)

    def __post_init__(self) -> None:
        self.seen.append(self.a)


@dataclasses.dataclass(frozen=True, slots=True)
class Slotted:
    a: int


@dataclasses.dataclass(frozen=True)
class WithClassVar:
    a: int
    LIMIT: ClassVar[int] = 3


@dataclasses.dataclass(frozen=True)
class Derived:
    a: int
    twice: int = dataclasses.field(init=False, default=0)


def test_a_plain_state_is_copied_and_the_original_is_untouched() -> None:
    old = Plain(1, (2,))
    new = frozen.replace(old, b=(3,))
    assert new == Plain(1, (3,)) and old == Plain(1, (2,)) and new is not old
    assert frozen._plain(Plain)


def test_an_unknown_field_is_refused_as_dataclasses_refuses_it() -> None:
    with pytest.raises(TypeError, match="'c'"):
        frozen.replace(Plain(1), c=2)


@dataclasses.dataclass(frozen=True)
class Cached:
    a: int

    @functools.cached_property
    def twice(self) -> int:
        return 2 * self.a


@pytest.mark.parametrize("cls", [Checked, Slotted, WithClassVar, Derived, Cached])
def test_classes_that_are_more_than_their_fields_go_through_dataclasses(cls: type) -> None:
    assert not frozen._plain(cls)
    old = cls(1)
    assert frozen.replace(old, a=2) == dataclasses.replace(old, a=2)


def test_a_cached_value_is_not_carried_into_the_copy() -> None:
    old = Cached(1)
    assert old.twice == 2
    assert frozen.replace(old, a=5).twice == 10


def test_post_init_still_runs() -> None:
    seen: list[int] = []
    frozen.replace(Checked(1, seen), a=5)
    assert seen == [1, 5]  # once for the original, once for the copy
