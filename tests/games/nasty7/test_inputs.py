"""The Nasty 7 at the table: camera tags and buttons become actions (or refusals)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from companion.games.base import ButtonInput, ButtonRole, IllegalAction, TableInput, TagInput
from companion.games.nasty7 import State, engine
from tests.games.nasty7.helpers import act, plays, run, start


def tag(card: str, serial: int | None = 5, zone: str = "pile", seen: bool = True) -> TagInput:
    return TagInput(seen=seen, card=card, serial=serial, zone=zone, t=1.0)


def button(seat: int | None, role: ButtonRole = "seat") -> ButtonInput:
    return ButtonInput(role=role, seat=seat, hold=False, t=1.0)


def _played() -> State:
    """Ann played card #5 (a racketeer); Ben is to play."""
    return act(start(3), {"do": "play", "card": "racketeer", "serial": 5}, 1.0)


@pytest.mark.parametrize(
    "inp, action",
    [
        (tag("gun", 8), {"do": "play", "card": "gun", "serial": 8}),
        (tag("twin_phone", None), {"do": "play", "card": "twin_phone"}),
        (tag("gun", 8, zone="hand"), None),
        (tag("gun", 8, seen=False), None),
        (tag("gun", 5, seen=False), None),
        (button(2), {"do": "accuse", "by": [2], "against": 0}),
        (button(None), None),
        (button(None, "confirm"), None),
        (button(None, "next"), None),
        (button(None, "undo"), None),
    ],
)
def test_inputs_become_actions(inp: TableInput, action: dict[str, Any] | None) -> None:
    assert _json(engine.action_for_input(_played(), inp)) == action


def _json(action: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A typed action as the record line it stands for (``None`` stays ``None``)."""
    return None if action is None else dict(action)


def test_the_same_card_seen_again_on_the_pile_is_refused() -> None:
    with pytest.raises(IllegalAction, match="#5 is already on the pile"):
        engine.action_for_input(_played(), tag("racketeer", 5))


def test_a_card_of_another_game_is_refused() -> None:
    with pytest.raises(IllegalAction, match="not a card of The Nasty 7"):
        engine.action_for_input(_played(), tag("market_open", 1))


def test_a_camera_play_runs_through_the_engine() -> None:
    state = _played()
    action = engine.action_for_input(state, tag("twin_racketeer", 9))
    assert action is not None
    state = act(state, action, 2.0)
    assert state.pile_serials == (5, 9) and state.turn == 0


def test_buttons_open_join_and_settle_an_accusation() -> None:
    state = _played()
    state = act(state, engine.action_for_input(state, button(1)) or {}, 1.5)
    joined = engine.action_for_input(state, button(2))
    assert _json(joined) == {"do": "accuse", "by": [2], "against": 0}
    state = act(state, joined, 1.6)
    assert state.accusation is not None and state.accusation.by == (1, 2)
    confirm = engine.action_for_input(state, button(None, "confirm"))
    assert _json(confirm) == {"do": "rule", "upheld": True}
    ruling = engine.action_for_input(state, button(None, "next"))
    assert ruling is not None and _json(ruling) == {"do": "rule", "upheld": False}
    state = act(state, ruling, 5.0)
    assert state.stacks == (35, 37, 36)  # 1 card: Ben is nearest Ann's left


@pytest.mark.parametrize("state_fn, seat, words", [
    (lambda: start(3), 1, "No card is on the pile"),
    (_played, 0, "cannot accuse themselves"),
])  # fmt: skip
def test_a_seat_button_that_cannot_accuse_is_refused(state_fn: Any, seat: int, words: str) -> None:
    with pytest.raises(IllegalAction, match=words):
        engine.action_for_input(state_fn(), button(seat))


def test_nothing_happens_after_the_game_is_over() -> None:
    state = run(start(2, deck_size=2), plays("racketeer", "racketeer"))
    assert state.over
    assert engine.action_for_input(state, tag("gun", 3)) is None
    assert engine.action_for_input(state, button(0)) is None


# --- through the real table loop (memory store, fake clock) -------------------------


class _Clock:
    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


def _table() -> tuple[Any, _Clock]:
    from companion.inputs import Command
    from companion.store import MemoryStore
    from companion.table import Table

    clock = _Clock()
    table = Table(MemoryStore(), clock=clock)
    res = table.process(Command("start", {"game": "fiese7", "players": ["Ann", "Ben", "Cy"]}))
    assert res.accepted, res.reason
    return table, clock


def _seen(clock: _Clock, card: str, serial: int) -> Any:
    from companion.inputs import TagSeen

    return TagSeen("P", at=clock.now, zone="pile", status="ok", game="nasty7", card=card,
                   serial=serial)  # fmt: skip


def test_the_table_turns_camera_cards_into_plays_and_times_hesitation() -> None:
    table, clock = _table()
    signals: list[Any] = []
    table.subscribe(lambda _snap, sig: signals.extend(sig))
    assert table.process(_seen(clock, "racketeer", 11)).accepted
    clock.now += 1.0
    assert table.process(_seen(clock, "gun", 12)).accepted
    again = table.process(_seen(clock, "racketeer", 11))
    assert not again.accepted and "#11 is already on the pile" in (again.reason or "")
    public = table.hub.latest().public
    assert public["pile"] == 2 and public["revealed_count"] is None and public["turn"] == 2
    clock.now += 3.5
    table.tick()
    public = table.hub.latest().public
    assert public["revealed"] == {"count": 2, "figures": 2, "why": "hesitation", "seat": 2}
    assert [s["cards"] for s in public["seats"]] == [35, 35, 38]
    assert ("hesitation", 2) in signals


def test_seat_buttons_and_the_hosts_ruling_at_the_table() -> None:
    from companion.inputs import ButtonPressed

    table, clock = _table()
    table.process(_seen(clock, "racketeer", 1))
    assert table.process(ButtonPressed("seat", at=clock.now + 0.5, seat=2)).accepted
    assert table.hub.latest().public["revealed_count"] == 1
    clock.now += 10  # the clock is stopped while the host thinks
    table.tick()
    assert table.hub.latest().public["accusation"] == {"by": [2], "against": 0, "kind": "", "alleged": "", "gap": None}
    assert table.process(ButtonPressed("confirm", at=clock.now)).accepted
    public = table.hub.latest().public
    assert public["accusation"] is None and public["revealed"]["why"] == "upheld"
    assert [s["cards"] for s in public["seats"]] == [36, 36, 36]
