"""``TagTracker.confirm``: a tag read once on the pile whose card the landing watch saw
settle there is seen, at the card's landing time, once (issue 36, the fingers condition:
a fingertip lifts off the tag and the next card covers it a frame later)."""

from __future__ import annotations

from companion.config import TrackingConfig
from companion.inputs import TagLeft, TagSeen
from tests.vision.test_tracking import ELSEWHERE, SIZE, ZONES, det
from tests.vision.test_tracking import SEAT1 as SEAT
from vision.frames import Detection
from vision.tracking import TagEvent, TagTracker

PILES = ["pile"]


def frames(t: TagTracker, start: int, stop: int,
           read: dict[int, list[Detection]] | None = None) -> list[TagEvent]:
    """Frames ``start..stop-1`` at 30 fps, with what ``read`` says was read in each."""
    events: list[TagEvent] = []
    for i in range(start, stop):
        events += t.update(i / 30, (read or {}).get(i, []), SIZE)
    return events


def test_a_tag_read_once_on_the_pile_is_seen_at_its_landing_time_once() -> None:
    t = TagTracker(TrackingConfig(), ZONES)
    assert frames(t, 0, 15, {10: [det("X")]}) == []  # one read: a candidate, nothing seen
    assert "X" not in t.visible()
    assert t.confirm("X", 0.25, PILES) == [TagSeen("X", at=0.25, zone="pile")]
    assert t.visible() == {"X": "pile"}
    assert t.confirm("X", 0.25, PILES) == []  # asked again: nothing more
    # read again steadily later (the card above lifted): still the same card, no event
    assert frames(t, 15, 40, {i: [det("X")] for i in range(20, 30)}) == []
    # then covered for good: it leaves the pile's leave time (3 s) after its last read
    left = frames(t, 40, 130)
    assert left == [TagLeft("X", at=29 / 30, zone="pile")]


def test_it_leaves_from_its_single_read() -> None:
    t = TagTracker(TrackingConfig(), ZONES)
    frames(t, 0, 12, {10: [det("X")]})
    assert t.confirm("X", 0.3, PILES) == [TagSeen("X", at=0.3, zone="pile")]
    events = frames(t, 12, 110)
    assert events == [TagLeft("X", at=10 / 30, zone="pile")]


def test_a_tag_already_seen_gives_nothing() -> None:
    t = TagTracker(TrackingConfig(), ZONES)
    seen = frames(t, 0, 5, {1: [det("A")], 2: [det("A")]})
    assert seen == [TagSeen("A", at=1 / 30, zone="pile")]
    assert t.confirm("A", 0.0, PILES) == []
    assert frames(t, 5, 10, {i: [det("A")] for i in range(5, 10)}) == []


def test_a_confirmed_tag_read_again_in_two_of_three_frames_is_not_seen_twice() -> None:
    t = TagTracker(TrackingConfig(), ZONES)
    frames(t, 0, 3, {0: [det("X")]})
    assert t.confirm("X", 0.0, PILES) == [TagSeen("X", at=0.0, zone="pile")]
    assert frames(t, 3, 8, {3: [det("X")], 4: [det("X")], 6: [det("X")]}) == []


def test_nothing_for_a_tag_never_read_or_forgotten() -> None:
    t = TagTracker(TrackingConfig(), ZONES)
    assert t.confirm("NEVER", 1.0, PILES) == []
    frames(t, 0, 2, {0: [det("X")]})
    # not read for the pile's leave time (3 s): the candidate is forgotten
    frames(t, 2, 100)
    assert t.confirm("X", 0.0, PILES) == []
    assert t.visible() == {}


def test_only_a_read_in_a_pile_zone() -> None:
    """A tag last read in a seat's zone or outside every zone is not the pile's card; nor
    is a pile zone the caller does not name (a zone where hands rest that does not grow)."""
    t = TagTracker(TrackingConfig(left_after_zone={"pile": 3.0, "seat1": 3.0}), ZONES)
    frames(t, 0, 2, {0: [det("S", SEAT)], 1: [det("E", ELSEWHERE), det("P")]})
    assert t.confirm("S", 0.0, PILES) == []
    assert t.confirm("E", 0.0, PILES) == []
    assert t.confirm("P", 0.0, ["play"]) == []
    assert t.confirm("P", 0.0, PILES) == [TagSeen("P", at=0.0, zone="pile")]
    assert t.visible() == {"P": "pile"}


def test_the_zone_of_its_last_read_counts() -> None:
    """Read once on the pile, then once beside it: not the pile's (it moved away)."""
    t = TagTracker(TrackingConfig(), ZONES)
    frames(t, 0, 5, {0: [det("X")], 3: [det("X", ELSEWHERE)]})
    assert t.confirm("X", 0.0, PILES) == []


def test_never_later_than_its_first_read_there() -> None:
    """The watch's group may hold what settled after the card (the next one): the card lay
    on the pile by its first read there at the latest."""
    t = TagTracker(TrackingConfig(), ZONES)
    frames(t, 0, 12, {10: [det("X")]})
    assert t.confirm("X", 0.5, PILES) == [TagSeen("X", at=10 / 30, zone="pile")]
