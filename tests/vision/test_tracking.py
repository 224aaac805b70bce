from __future__ import annotations

from typing import Any

from companion.config import TrackingConfig, ZonesConfig
from companion.inputs import TagLeft, TagSeen
from vision.frames import Detection
from vision.tracking import TagTracker, Zones, point_in_polygon

SIZE = (1000, 1000)
ZONES = ZonesConfig(polygons={
    "pile": [(0.4, 0.4), (0.6, 0.4), (0.6, 0.6), (0.4, 0.6)],
    "seat1": [(0.0, 0.8), (1.0, 0.8), (1.0, 1.0), (0.0, 1.0)],
})
PILE = (500.0, 500.0)
SEAT1 = (500.0, 900.0)
ELSEWHERE = (100.0, 100.0)


def det(text: str, at: tuple[float, float] = PILE) -> Detection:
    x, y = at
    return Detection(text, ((x - 10, y - 10), (x + 10, y - 10), (x + 10, y + 10), (x - 10, y + 10)),
                     "test")


def tracker(**kw: Any) -> TagTracker:
    return TagTracker(TrackingConfig(**kw), ZONES)


def test_seen_after_two_of_three_frames_at_the_first_frames_time() -> None:
    t = tracker()
    assert t.update(10.0, [det("A")], SIZE) == []
    assert t.update(10.033, [], SIZE) == []
    assert t.update(10.066, [det("A")], SIZE) == [TagSeen("A", at=10.0, zone="pile")]


def test_a_single_flicker_is_no_card() -> None:
    t = tracker()
    events = t.update(1.0, [det("GHOST")], SIZE)
    for i in range(2, 40):
        events += t.update(i * 0.033 + 1.0, [], SIZE)
    assert events == []


def test_first_time_is_the_first_frame_of_the_confirming_run() -> None:
    t = tracker()
    t.update(1.0, [det("A")], SIZE)  # an isolated sighting, then gone
    t.update(1.1, [], SIZE)
    t.update(1.2, [], SIZE)
    t.update(1.3, [], SIZE)
    t.update(1.4, [det("A")], SIZE)
    assert t.update(1.5, [det("A")], SIZE) == [TagSeen("A", at=1.4, zone="pile")]


def test_a_card_held_for_minutes_is_one_event() -> None:
    t = tracker()
    events = []
    for i in range(30 * 60 * 3):  # three minutes at 30 fps, missed now and then
        frame = [] if i % 7 == 3 else [det("A")]
        events += t.update(i / 30, frame, SIZE)
    assert events == [TagSeen("A", at=0.0, zone="pile")]


def test_left_after_the_configured_time_with_last_seen_time() -> None:
    t = tracker(left_after_s=0.5, left_after_zone={})
    for i in range(5):
        t.update(i * 0.1, [det("A")], SIZE)
    assert t.update(0.8, [], SIZE) == []
    assert t.update(0.9, [], SIZE) == [TagLeft("A", at=0.4, zone="pile")]
    assert t.visible() == {}


def test_a_hand_resting_on_the_pile_for_two_seconds_is_no_leaving() -> None:
    """The pile keeps its cards longer (3 s by default): a hand hides the top card."""
    t = tracker()
    events = []
    for i in range(120):  # 4 s at 30 fps; a hand over the pile from 1.0 to 3.0 s
        t_now = i / 30
        hidden = 1.0 <= t_now < 3.0
        events += t.update(t_now, [] if hidden else [det("A"), det("B", SEAT1)], SIZE)
    assert events.count(TagSeen("A", at=0.0, zone="pile")) == 1
    assert [e for e in events if isinstance(e, TagLeft)] == [TagLeft("B", at=29 / 30,
                                                                     zone="seat1")]
    assert tracker().leave_time("pile") == 3.0 and tracker().leave_time(None) == 1.0


def test_no_frames_no_leaving() -> None:
    """A camera that stops delivering frames does not make cards leave."""
    t = tracker(left_after_s=0.5)
    for i in range(3):
        t.update(i * 0.1, [det("A")], SIZE)
    # ten seconds without frames (camera unplugged), then it is back and the card is there
    assert t.update(10.0, [det("A")], SIZE) == []
    assert t.visible() == {"A": "pile"}


def test_several_cards_at_once_are_several_events() -> None:
    t = tracker()
    frame = [det("A"), det("B", SEAT1), det("C", ELSEWHERE)]
    t.update(0.0, frame, SIZE)
    events = t.update(0.033, frame, SIZE)
    assert sorted(events, key=lambda e: e.payload) == [
        TagSeen("A", at=0.0, zone="pile"),
        TagSeen("B", at=0.0, zone="seat1"),
        TagSeen("C", at=0.0, zone=None),
    ]


def test_damaged_and_empty_reads_are_ignored() -> None:
    t = tracker(seen_in=1, of_last=1)
    assert t.update(0.0, [Detection("", (), "x", damaged=True), det("")], SIZE) == []


def test_moving_to_another_zone_leaves_and_is_seen_again() -> None:
    t = tracker()
    t.update(0.0, [det("A", SEAT1)], SIZE)
    t.update(0.1, [det("A", SEAT1)], SIZE)
    assert t.update(0.2, [det("A")], SIZE) == []  # one frame in the pile: not settled
    assert t.update(0.3, [det("A")], SIZE) == [
        TagLeft("A", at=0.1, zone="seat1"),
        TagSeen("A", at=0.2, zone="pile"),
    ]


def test_seen_in_one_of_one_is_immediate() -> None:
    t = tracker(seen_in=1, of_last=1)
    assert t.update(5.0, [det("A")], SIZE) == [TagSeen("A", at=5.0, zone="pile")]


def test_impossible_thresholds_are_refused() -> None:
    import pytest

    with pytest.raises(ValueError, match="lower seen_in"):
        tracker(seen_in=4, of_last=3)


def test_point_in_polygon() -> None:
    square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    assert point_in_polygon((0.5, 0.5), square)
    assert not point_in_polygon((1.5, 0.5), square)
    triangle = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)]
    assert not point_in_polygon((0.8, 0.8), triangle)
    assert Zones({"t": triangle}).zone_of((0.1, 0.1)) == "t"
