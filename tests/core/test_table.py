"""The table loop: decide, commit, then publish; refusals visible; deadlines on time."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from companion.inputs import HOST, ButtonPressed, Command, Source, TagSeen
from companion.snapshot import Snapshot
from companion.store import EventStore, MemoryStore, NewEvent, StoredEvent, StoreError
from companion.table import Table


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def start(table: Table, **args: Any) -> None:
    args.setdefault("game", "tally")
    args.setdefault("players", ["Ann", "Ben", "Cy"])
    res = table.process(Command("start", args))
    assert res.accepted, res.reason


def act(table: Table, action: dict[str, Any], source: Source = HOST) -> Any:
    return table.process(Command("action", {"action": action}, source=source))


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def table(clock: FakeClock) -> Table:
    t = Table(MemoryStore(), clock=clock)
    start(t)
    return t


def test_accepted_action_is_stored_then_published(table: Table) -> None:
    seen: list[tuple[Snapshot, list[Any]]] = []
    table.subscribe(lambda s, sig: seen.append((s, sig)))
    before = table.hub.latest().seq
    res = act(table, {"do": "add", "n": 4})
    assert res.accepted and res.seq == 2  # ActionTaken + Added
    assert table.info is not None
    rows = table.store.events(table.info.game_id)
    assert [r.type for r in rows] == ["ActionTaken", "Added"]
    snap = table.hub.latest()
    assert snap.seq == before + 1 and snap.public["total"] == 4
    assert seen[-1][1] == [("card", 0)]


def test_refusal_is_published_with_reason_and_changes_nothing(table: Table) -> None:
    res = act(table, {"do": "add", "n": 4, "seat": 2})
    assert not res.accepted and "turn" in (res.reason or "")
    snap = table.hub.latest()
    assert snap.refusal is not None and "seat 1's turn" in snap.refusal.reason
    assert snap.public["total"] == 0
    assert table.info is not None and table.store.events(table.info.game_id) == []


def test_garbage_from_a_phone_is_refused_clearly(table: Table) -> None:
    for junk in ({"action": "x"}, {"action": {"n": 1}}, {}, {"action": {"do": "deadline"}}):
        res = table.process(Command("action", junk, source=Source.of_seat(0)))
        assert not res.accepted and res.reason
    res = table.process(Command("teleport", {}, source=HOST))
    assert not res.accepted and "Unknown command" in (res.reason or "")


def test_seat_can_only_act_for_itself(table: Table) -> None:
    assert act(table, {"do": "add", "n": 1}, source=Source.of_seat(0)).accepted
    res = act(table, {"do": "secret", "seat": 0, "value": 5}, source=Source.of_seat(1))
    assert not res.accepted and "own seat" in (res.reason or "")
    assert not table.process(Command("undo", source=Source.of_seat(1))).accepted
    assert not table.process(Command("start", {"game": "tally"}, source=Source.of_seat(1))).accepted


def test_private_view_only_in_its_seat_slot(table: Table) -> None:
    act(table, {"do": "secret", "seat": 1, "value": 4242})
    snap = table.hub.latest()
    assert "4242" not in str(snap.public_json())
    assert "4242" not in str(snap.seat_json(0))
    assert snap.seat_json(1)["private"]["secrets"] == {"secret": 4242}


def test_deadline_is_delivered_on_time(table: Table, clock: FakeClock) -> None:
    act(table, {"do": "add", "n": 1})  # at t=0, seat 1 (index 1) must play by t=2
    clock.now += 1.9
    table.tick()
    assert table.hub.latest().public["turn"] == 1
    clock.now += 0.2
    table.tick()
    snap = table.hub.latest()
    assert snap.public["turn"] == 2
    assert table.session is not None and table.session.batches[-1].kind == "deadline"
    assert table.session.batches[-1].t == pytest.approx(2.0)


def test_deadline_before_a_late_input_comes_first(table: Table, clock: FakeClock) -> None:
    act(table, {"do": "add", "n": 1})
    clock.now += 5.0  # the loop was busy: the deadline at 2.0 is still delivered first
    res = act(table, {"do": "add", "n": 1, "seat": 1})
    assert not res.accepted  # seat 1 lost its turn at t=2.0 ...
    assert table.hub.latest().public["turn"] == 0  # ... and seat 2 at t=4.0


def test_tag_input_uses_capture_time(table: Table, clock: FakeClock) -> None:
    captured = clock.now + 0.25
    clock.now += 0.5
    res = table.process(TagSeen("P", at=captured, zone="pile", status="ok", game="tally",
                                card="x", serial=3))
    assert res.accepted
    assert table.session is not None and table.session.batches[-1].t == pytest.approx(0.25)


def test_unknown_tag_and_other_deck_are_refused(table: Table, clock: FakeClock) -> None:
    res = table.process(TagSeen("HTTP://X", at=clock.now, status="unknown"))
    assert not res.accepted and "Unknown tag" in (res.reason or "")
    res = table.process(TagSeen("P", at=clock.now, status="ok", game="illegal", card="x"))
    assert not res.accepted and "illegal" in (res.reason or "")


def test_undo_is_a_new_event_and_the_fold_honours_it(table: Table, clock: FakeClock) -> None:
    act(table, {"do": "add", "n": 5})
    clock.now += 1
    act(table, {"do": "add", "n": 6})
    assert table.hub.latest().public["total"] == 11
    clock.now += 1.5  # t=2.5: the restored state's deadline (2.0) is already past
    assert table.process(Command("undo")).accepted
    assert table.hub.latest().public["total"] == 5
    assert table.info is not None
    types = [r.type for r in table.store.events(table.info.game_id)]
    assert types == ["ActionTaken", "Added", "ActionTaken", "Added", "Undone"]
    # the undone deadline is not re-imposed: seat index 1 plays again, long after
    clock.now += 10
    table.tick()
    assert table.hub.latest().public["turn"] == 1


def test_host_long_press_is_undo(table: Table, clock: FakeClock) -> None:
    table.process(ButtonPressed("seat", at=clock.now, seat=0))
    assert table.hub.latest().public["total"] == 1
    table.process(ButtonPressed("undo", at=clock.now, hold=True))
    assert table.hub.latest().public["total"] == 0


def test_restart_rebuilds_the_open_game(clock: FakeClock) -> None:
    store = MemoryStore()
    first = Table(store, clock=clock)
    start(first)
    act(first, {"do": "add", "n": 3})
    act(first, {"do": "secret", "seat": 2, "value": 9})
    clock.now += 2.5
    first.tick()
    first.process(Command("undo"))
    act(first, {"do": "add", "n": 2, "seat": 1})
    again = Table(store, clock=clock)
    assert again.session is not None and first.session is not None
    assert again.session.state == first.session.state
    assert again.hub.latest().public == first.hub.latest().public
    # and it goes on from there with the right seq numbers
    assert act(again, {"do": "add", "n": 1, "seat": 2}).accepted


class FailingStore(MemoryStore):
    fail = False

    def append(
        self, game_id: str, events: Sequence[NewEvent], expect_seq: int | None = None
    ) -> list[StoredEvent]:
        if self.fail:
            raise StoreError("disk full")
        return super().append(game_id, events, expect_seq)


def test_nothing_is_acknowledged_when_the_store_fails(clock: FakeClock) -> None:
    store = FailingStore()
    table = Table(store, clock=clock)
    start(table)
    store.fail = True
    res = act(table, {"do": "add", "n": 3})
    assert not res.accepted and "Not saved" in (res.reason or "")
    assert table.hub.latest().public["total"] == 0
    store.fail = False
    assert act(table, {"do": "add", "n": 3}).accepted
    assert table.hub.latest().public["total"] == 3


def test_threaded_loop_answers_after_commit(clock: FakeClock) -> None:
    store: EventStore = MemoryStore()
    table = Table(store, clock=clock)
    table.start()
    try:
        assert table.submit(Command("start", {"game": "tally", "players": 2})).result(300).accepted
        futs = [table.submit(Command("action", {"action": {"do": "add", "n": 1}}))
                for _ in range(5)]
        results = [f.result(300) for f in futs]
        assert all(r.accepted for r in results)
        assert table.info is not None
        assert len(store.events(table.info.game_id)) == 10
        snap = table.hub.wait_newer(0, 300)
        assert snap is not None and snap.public["total"] == 5
    finally:
        table.stop()
    late = table.submit(Command("action", {"action": {"do": "add", "n": 1}}))
    assert not late.result(300).accepted


def test_start_refuses_bad_setups(table: Table) -> None:
    for args in ({"game": "chess"}, {"game": "tally", "players": ["solo"]},
                 {"game": "tally", "options": {"speed": 2}}, {"game": "tally", "players": 99}):
        res = table.process(Command("start", args))
        assert not res.accepted and res.reason


def test_history_hides_private_keys(table: Table) -> None:
    act(table, {"do": "secret", "seat": 0, "value": 777})
    hist = table.history()
    assert hist[-1]["action"] == {"do": "secret", "seat": 0}
    assert "777" not in str(hist)


def test_record_lines_replay_to_same_state(table: Table, clock: FakeClock) -> None:
    from companion.records import replay_lines

    act(table, {"do": "add", "n": 3})
    clock.now += 3
    act(table, {"do": "add", "n": 4, "seat": 2})
    table.process(Command("undo"))
    act(table, {"do": "secret", "seat": 1, "value": 5})
    result = replay_lines(table.record_lines())
    assert table.session is not None
    assert result.session.state == table.session.state


def test_snapshot_json_is_plain(table: Table) -> None:
    import json

    data: Mapping[str, Any] = table.hub.latest().public_json()
    assert json.loads(json.dumps(data))["game"] == "tally"


def test_a_seats_refusal_reaches_only_that_seat(table: Table) -> None:
    res = act(table, {"do": "add", "n": 99}, source=Source.of_seat(0))
    assert not res.accepted
    snap = table.hub.latest()
    assert snap.public_json()["refusal"] is None
    assert snap.seat_json(1)["refusal"] is None
    assert "between 1 and 9" in snap.seat_json(0)["refusal"]["reason"]
    act(table, {"do": "add", "n": 99})  # the host's refusal is for everyone
    assert table.hub.latest().public_json()["refusal"] is not None


def test_a_second_writer_is_refused_and_nothing_is_doubled(clock: FakeClock) -> None:
    store = MemoryStore()
    first = Table(store, clock=clock)
    start(first)
    second = Table(store, clock=clock)  # a second companion on the same store
    assert act(second, {"do": "add", "n": 2}).accepted
    act(first, {"do": "add", "n": 1})  # seq 1 expected, 3 found
    clock.now += 10
    for _ in range(5):
        first.tick()  # the deadline cannot be stored either, and is not retried in a loop
    assert first.info is not None
    assert len(store.events(first.info.game_id)) == 2
    refusal = first.hub.latest().refusal
    assert refusal is not None and "another companion" in refusal.reason
