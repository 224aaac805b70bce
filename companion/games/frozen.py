"""``replace`` for the engines' frozen states, without ``dataclasses.replace``'s cost.

Every event an engine folds makes new states with ``replace`` (three or four per event in
*Illegal*), and ``decide`` folds its events to check them: profiling *Illegal*'s recorded
states put two thirds of ``decide`` in ``dataclasses.replace``, which reads every field by
name and calls ``__init__``. A plain frozen dataclass (no ``__post_init__``, every field
in ``__init__``, a ``__dict__``, no ``cached_property`` whose stale value a copy would
carry) is its fields, so a copy of that dict with the changes is the same object
``dataclasses.replace`` would build, in a fraction of the time. Any other class goes
through ``dataclasses.replace`` itself. ``tests/games/test_frozen.py`` holds both to the
same answers over every recorded game.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, TypeVar

T = TypeVar("T")

#: class -> whether its fields are all of it (see the module's docstring)
_PLAIN: dict[type, bool] = {}


def _plain(cls: type) -> bool:
    known = _PLAIN.get(cls)
    if known is None:
        every = getattr(cls, "__dataclass_fields__", None)
        real = dataclasses.fields(cls) if every is not None else ()
        # a ClassVar or InitVar is in __dataclass_fields__ but not in fields(): not plain
        known = (every is not None and {f.name for f in real} == set(every)
                 and all(f.init for f in real)
                 and not hasattr(cls, "__post_init__") and not hasattr(cls, "__slots__")
                 and not any(isinstance(v, functools.cached_property)
                             for klass in cls.__mro__ for v in vars(klass).values()))
        _PLAIN[cls] = known
    return known


def replace(obj: T, /, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)``: a new ``obj`` with ``changes``."""
    cls = type(obj)
    if not _plain(cls):
        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    fields = cls.__dataclass_fields__  # type: ignore[attr-defined]
    for key in changes:
        if key not in fields:
            raise TypeError(f"{cls.__name__}.__init__() got an unexpected keyword argument "
                            f"{key!r}")
    new = object.__new__(cls)
    mine = new.__dict__
    mine.update(obj.__dict__)
    mine.update(changes)
    return new


__all__ = ["replace"]
