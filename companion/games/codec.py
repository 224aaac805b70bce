"""Events as stored JSON: ``(type name, payload)`` and back (lists become tuples)."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any

from companion.games.base import JSON


def event_type_name(event: Any) -> str:
    return type(event).__name__


def event_to_json(event: Any) -> tuple[str, dict[str, Any]]:
    """``(type name, payload)`` of an event dataclass, payload JSON-ready."""
    if not dataclasses.is_dataclass(event) or isinstance(event, type):
        raise TypeError(f"not an event dataclass: {event!r}")
    payload = {f.name: _to_json(getattr(event, f.name)) for f in dataclasses.fields(event)}
    return event_type_name(event), payload


def _to_json(value: Any) -> JSON:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_to_json(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _to_json(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def _from_json(value: JSON) -> Any:
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    return value


def event_from_json(types: Mapping[str, type], name: str, payload: Mapping[str, Any]) -> Any:
    """Rebuild an event from its stored type name and payload (lists become tuples)."""
    cls = types.get(name)
    if cls is None:
        raise ValueError(f"unknown event type {name!r}")
    return cls(**{k: _from_json(v) if isinstance(v, list) else v for k, v in payload.items()})
