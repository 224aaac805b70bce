"""The Nasty 7 at the table: camera tags and buttons become actions (or refusals)."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.actions import GameAction
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


def _json(action: GameAction | None) -> dict[str, Any] | None:
    """A typed action as the record line it stands for (``None`` stays ``None``)."""
    return None if action is None else action.to_json()


def test_a_card_still_on_the_pile_seen_again_is_no_play_and_no_refusal() -> None:
    """A hand rested over the pile longer than the leave time: the camera sees #5 again."""
    state = _played()
    assert engine.action_for_input(state, tag("racketeer", 5)) is None
    assert engine.action_for_input(state, tag("racketeer", 5, zone=None)) is None  # type: ignore[arg-type]
    state = act(state, {"do": "play", "card": "gun", "serial": 6}, 2.0)
    assert engine.action_for_input(state, tag("racketeer", 5)) is None  # under the top card
    state = act(state, {"do": "mistake", "seat": 1, "kind": "spoke_on_gun"}, 3.0)
    # the pile was taken: #5 is gathered up with it, no play (one life per round)
    assert engine.action_for_input(state, tag("racketeer", 5)) is None


def test_a_card_seen_outside_every_zone_is_put_to_the_host() -> None:
    state = _played()
    seen = engine.action_for_input(state, tag("gun", 8, zone=None))  # type: ignore[arg-type]
    assert _json(seen) == {"do": "seen_beside", "card": "gun", "serial": 8}
    state = act(state, seen or {}, 1.5)
    assert [s.seat for s in state.seen_beside] == [1]
    waiting = engine.waiting(state)
    assert waiting.host and "Ben's card (Gun) was seen beside the pile: count it?" in waiting.why
    labels = [m.label for m in engine.moves(state, None) if m.do == "count_seen"]
    assert labels == ["Count it: Ben played a Gun", "Ignore it: not a card played"]
    assert engine.next_deadline(state) is None  # nobody is penalised while the host decides
    counted = act(state, {"do": "count_seen", "count": True}, 9.0)
    assert counted.pile_serials == (5, 8) and counted.turn == 2 and counted.seen_beside == ()
    assert counted.landed[-1] == 1.5 and counted.timer_from == 9.0
    assert engine.next_deadline(counted) is not None
    ignored = act(state, {"do": "count_seen", "count": False}, 9.0)
    assert ignored.seen_beside == () and ignored.pile_serials == (5,)
    assert engine.next_deadline(ignored) == pytest.approx(4.0)  # the hesitation stands


def test_the_cards_of_a_pile_being_picked_up_are_not_put_to_the_host() -> None:
    state = act(_played(), {"do": "mistake", "seat": 1, "kind": "spoke_on_gun"}, 2.0)
    assert state.swept == (5,)
    assert engine.action_for_input(state, tag("racketeer", 5, zone=None)) is None  # type: ignore[arg-type]
    seen = engine.action_for_input(state, tag("gun", 8, zone=None))  # type: ignore[arg-type]
    assert _json(seen) == {"do": "seen_beside", "card": "gun", "serial": 8}


def test_a_card_on_the_pile_settles_a_card_seen_beside_it() -> None:
    state = _played()
    state = act(state, {"do": "seen_beside", "card": "gun", "serial": 8}, 1.5)
    state = act(state, {"do": "play", "card": "gun", "serial": 8}, 1.6)  # it slid onto the pile
    assert state.seen_beside == () and state.turn == 2
    with pytest.raises(IllegalAction, match="No card seen beside the pile"):
        act(state, {"do": "count_seen", "count": True}, 2.0)


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
    again = table.process(_seen(clock, "racketeer", 11))  # a hand rested on the pile
    assert again.accepted and again.ignored
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


def test_a_card_in_time_that_the_camera_confirms_late_is_no_hesitation() -> None:
    """The table holds a deadline for the camera's delay (``input_delay_s``): a card that
    landed in time and reaches the table after the deadline is a play, not a penalty."""
    from companion.inputs import TagSeen

    table, clock = _table()
    table.input_delay_s = 1.0
    assert table.process(_seen(clock, "racketeer", 11)).accepted  # game time 0.0
    clock.now += 3.5  # Ben's deadline was 3.0 s; his card landed at 2.5 s
    table.tick()
    assert table.hub.latest().public["revealed"] is None  # nobody penalised yet
    late = TagSeen("P", at=clock.now - 1.0, zone="pile", status="ok", game="nasty7",
                   card="gun", serial=12)
    assert table.process(late).accepted
    public = table.hub.latest().public
    assert public["pile"] == 2 and public["turn"] == 2 and public["revealed"] is None
    clock.now += 3.5  # Cy's deadline (5.5 s) passed more than the delay ago: now due
    table.tick()
    assert table.hub.latest().public["revealed"]["why"] == "hesitation"
