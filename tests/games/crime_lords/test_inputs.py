"""Crime Lords table inputs and signals: the "next" button, a card seen in the center."""

from __future__ import annotations

from typing import Any

from companion.games.base import ButtonInput, TagInput
from companion.games.crime_lords import engine
from tests.games.crime_lords.helpers import two_mobs


def test_signals_and_input() -> None:
    t = two_mobs()
    events = t.do(do="collect", seat=0)
    assert ("card", 0) in engine.signals(t.state, events)
    press = ButtonInput(role="next", seat=0, hold=False, t=1.0)
    assert _json(engine.action_for_input(t.state, press)) == {"do": "end_turn", "seat": 0}
    seen = TagInput(seen=True, card="racket_07", serial=1, zone="center", t=1.0)
    assert _json(engine.action_for_input(t.state, seen)) == {
        "do": "draw", "seat": 0, "card": "racket_07"}
    events = t.do(do="end_turn", seat=0)
    assert ("turn", 1) in engine.signals(t.state, events)


def _json(action: Any) -> dict[str, Any]:
    """A typed action as the record line it stands for (``None``: nothing)."""
    return {} if action is None else dict(action.to_json())
