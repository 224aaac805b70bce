"""``Session.step``: one input whole — the deadlines due by its time, then its own batch —
stored in one go and published once by the table."""

from __future__ import annotations

from companion import games
from companion.games.base import Setup
from companion.inputs import Command, Source
from companion.session import Session
from companion.store import MemoryStore
from companion.table import Table


def after_one_add() -> Session:
    session = Session.start(games.get("tally"), Setup(("Ann", "Ben")))
    session, _ = session.preview({"do": "add", "seat": 0, "n": 1}, 1.0, 0)
    return session  # Ben's 2 seconds run out at 3.0: his turn is lost, Ann is on again


def test_a_step_is_the_deadlines_then_the_action() -> None:
    step = after_one_add().step({"do": "add", "seat": 0, "n": 2}, 4.0, 0)
    assert step.refused is None
    assert [(b.kind, b.t) for b in step.batches] == [("deadline", 3.0), ("action", 4.0)]
    assert step.session.state.total == 3 and step.session.state.timeouts == 1


def test_a_refused_step_keeps_the_deadlines_that_fell_before_it() -> None:
    step = after_one_add().step({"do": "add", "seat": 1, "n": 2}, 4.0, 1)
    assert step.refused is not None and "turn" in step.refused.reason
    assert [b.kind for b in step.batches] == ["deadline"]
    assert step.session.state.total == 1 and step.session.state.turn == 0


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_the_table_stores_a_step_at_once_and_publishes_it_once() -> None:
    clock = Clock()
    table = Table(MemoryStore(), clock=clock, reactions=[])
    assert table.process(Command("start", {"game": "tally", "players": ["Ann", "Ben"]})).accepted
    ann = Source.of_seat(0)
    assert table.process(Command("action", {"action": {"do": "add", "n": 1}}, source=ann,
                                 at=101.0)).accepted
    before = table.hub.latest().seq
    clock.t = 104.0  # Ben's deadline (103.0) passed; the loop did not tick
    result = table.process(Command("action", {"action": {"do": "add", "n": 2}}, source=ann,
                                   at=104.0))
    assert result.accepted, result.reason
    assert table.hub.latest().seq == before + 1  # the deadline and the add: one snapshot
    assert table.session is not None
    assert [b.kind for b in table.session.batches] == ["action", "deadline", "action"]
    assert len(table.store.events(table.info.game_id if table.info else "")) == 2 + 2 + 2
