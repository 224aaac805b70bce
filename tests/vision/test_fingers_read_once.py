"""A card read once and then covered by the next is booked when the camera saw it lie on
the pile (issue 36, the ``fingers`` condition: a fingertip stays on the tag until just
after the card landed, lifts, and a frame later the next card slides over the tag).

Drawn 320x240 frames (``tests.vision.scenes``) through ``VisionPipeline._process`` one by
one at 30 fps, with a decoder that reads what the scene says is readable in each frame:
the tracker confirms a tag read in 2 of 3 frames, so a single read is a candidate only;
the landing watch saw the card settle card-sized on the pile, with that read in it, and
the tracker confirms it at the time the card landed. A card held in a hand over the
pile, read once as it passes, never settles there: nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import pytest

from companion.config import TrackingConfig, ZonesConfig
from companion.inputs import CardLanded, TagSeen
from tests.vision.scenes import FPS, PILE, READ, TAG, card, hand, landings, table, tag_at
from vision.frames import Detection, Frame, Image
from vision.pipeline import CameraEvent, VisionPipeline

T0 = 100.0  # the first frame's capture time
SLIDE = range(6, 10)  # X slides in on these frames ...
LANDS = 10  # ... and lies still from this one on
X_AT = (110.0, 125.0)
LIFT = 22  # the fingertip over X's tag lifts: X's tag is read on this frame only
Y_SLIDE = range(LIFT + 1, LIFT + 5)  # the next card slides over X's tag ...
Y_LANDS = LIFT + 5  # ... and lies still from this frame on
Y_AT = (120.0, 135.0)
Y_READ = Y_LANDS + 8  # Y's own tag is read steadily from this frame on
FRAMES = 80


def fingertip(image: Image, centre: tuple[float, float]) -> None:
    """A fingertip: a flat, skin-gray blob a little larger than the tag."""
    cv2.ellipse(image, (int(centre[0]), int(centre[1])), (int(TAG * 0.7), int(TAG * 0.6)),
                0, 0, 360, 150, -1)


def slid(start: tuple[float, float], end: tuple[float, float], k: int, n: int) -> tuple[float, float]:
    """Where a card sliding from ``start`` to ``end`` in ``n`` frames is on its ``k``-th."""
    f = (k + 1) / (n + 1)
    return start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f


class Script:
    """The decoder: reads, frame by frame, what ``reads(i)`` says (text, tag centre)."""

    name = "script"

    def __init__(self, reads: dict[int, list[tuple[str, tuple[float, float]]]]) -> None:
        self.reads = reads
        self.frame = 0

    def decode(self, image: Image) -> list[Detection]:
        found = [Detection(READ[0], tuple(READ[1]), "script")]
        found += [Detection(text, tuple(tag_at(c)), "script")
                  for text, c in self.reads.get(self.frame, [])]
        self.frame += 1
        return found


Draw = Callable[[int, Image], None]


def run(draw: Draw, reads: dict[int, list[tuple[str, tuple[float, float]]]],
        frames: int = FRAMES) -> list[CameraEvent]:
    events: list[CameraEvent] = []
    pipeline = VisionPipeline(
        source=None,  # type: ignore[arg-type]  # frames are handed to _process
        decoder=Script(reads), tracker_config=TrackingConfig(),
        zones=ZonesConfig(polygons={"pile": PILE}), on_event=events.append, landings=True)
    for i in range(frames):
        image = table(i)
        card(image, (212.0, 42.0), 0)  # a card lying on the pile, read in every frame (its size)
        draw(i, image)
        pipeline._process(Frame(image, T0 + i / FPS, i))
    return events


def covered(i: int, image: Image) -> None:
    """X slides in and lies still from ``LANDS``; a fingertip rests on its tag from
    halfway through its slide until ``LIFT``; Y slides over X's tag from ``LIFT + 1``."""
    if i in SLIDE:
        card(image, slid((30.0, 200.0), X_AT, i - SLIDE[0], len(SLIDE)), 35.0)
    elif i >= LANDS:
        card(image, X_AT, 35.0)
    if i in Y_SLIDE:
        card(image, slid((260.0, 210.0), Y_AT, i - Y_SLIDE[0], len(Y_SLIDE)), 10.0, (225, 60))
    elif i >= Y_LANDS:
        card(image, Y_AT, 10.0, (225, 60))
    if SLIDE[len(SLIDE) // 2] <= i < LIFT:
        fingertip(image, X_AT)


def seen(events: list[CameraEvent]) -> list[TagSeen]:
    return [e for e in events if isinstance(e, TagSeen) and e.payload != READ[0]]


def test_a_card_read_once_then_covered_is_seen_once_at_its_landing_time() -> None:
    reads = {LIFT: [("X", X_AT)], **{i: [("Y", Y_AT)] for i in range(Y_READ, FRAMES)}}
    events = run(covered, reads)
    x = [e for e in seen(events) if e.payload == "X"]
    assert len(x) == 1
    assert x[0].zone == "pile"
    assert x[0].at == pytest.approx(T0 + LANDS / FPS, abs=1.5 / FPS)  # landed, not read
    y = [e for e in seen(events) if e.payload == "Y"]
    assert y == [TagSeen("Y", at=T0 + Y_READ / FPS, zone="pile")]
    assert not any(isinstance(e, CardLanded) for e in events)  # no question either


def dropped(i: int, image: Image) -> None:
    """X drops at ``LANDS`` with no finger on it; Y drops over most of it at frame 23."""
    if i >= LANDS:
        card(image, X_AT, 35.0)
    if i >= 23:
        card(image, (X_AT[0] + 6, X_AT[1] + 8), 40.0, (225, 60))


def test_read_once_while_it_waits_for_its_tag_then_covered_at_once() -> None:
    """X lies still, card-sized, waiting for its tag (the watch remembers it); its tag is
    read once on its unmoved cells (frame 22, between two of the watch's looks at its
    groups) and Y lands over most of it on the next frame: X is seen, at its landing."""
    # Y's tag is read from frame 34, within the watch's wait (``WAIT_S``) after Y settled:
    # read later than that, Y would rightly be asked about first, then answered by its read
    reads = {22: [("X", X_AT)], **{i: [("Y", (X_AT[0] + 6, X_AT[1] + 8))]
                                    for i in range(34, FRAMES)}}
    events = run(dropped, reads)
    x = [e for e in seen(events) if e.payload == "X"]
    assert len(x) == 1 and x[0].zone == "pile"
    assert x[0].at == pytest.approx(T0 + LANDS / FPS, abs=1.5 / FPS)
    assert [e.payload for e in seen(events)] == ["X", "Y"]
    assert not any(isinstance(e, CardLanded) for e in events)


def under_a_hand(i: int, image: Image) -> None:
    """Tuning fingers 78 #85, drawn: X lands (frame ``LANDS``) under a dark sleeve that
    covers its left third and reaches far beyond it (with it, never card-sized), until
    ``LIFT``; a frame later the next card slides over X's middle and tag. What the watch
    sees of X once the sleeve lifts is a third of a card, beside what moves."""
    at = (120.0, 125.0)
    if 6 <= i < LANDS:
        card(image, slid((40.0, 215.0), at, i - 6, LANDS - 6), 0.0)
    elif i >= LANDS:
        card(image, at, 0.0)
    if LIFT + 1 <= i < LIFT + 5:
        card(image, slid((20.0, 220.0), (at[0] - 14, at[1] + 6), i - LIFT - 1, 4), 0.0, (225, 60))
    elif i >= LIFT + 5:
        card(image, (at[0] - 14, at[1] + 6), 0.0, (225, 60))
    if 8 <= i < LIFT:
        cv2.ellipse(image, (int(at[0] - 50), int(at[1])), (46, 38), 0, 0, 360, 30, -1)


def test_read_once_on_the_part_of_a_card_left_in_view_is_seen() -> None:
    """X's tag is read once (``LIFT``) in the part of X left in view between the sleeve
    lifting and the next card covering it: that part is no card-sized change, but it is
    what is left of a card the next one covers (``vision.landrest.rest_of_card``), so a
    card lay there: X is seen at its landing time. (Without that rule the read explained
    the part and said no card lay there: X was neither seen nor asked about.)"""
    x_at = (120.0, 125.0)
    y_at = (x_at[0] - 14, x_at[1] + 6)
    reads = {LIFT: [("X", x_at)], **{i: [("Y", y_at)] for i in range(LIFT + 13, FRAMES)}}
    events = run(under_a_hand, reads)
    assert [(e.payload, e.zone) for e in seen(events)] == [("X", "pile"), ("Y", "pile")]
    assert seen(events)[0].at == pytest.approx(T0 + LANDS / FPS, abs=1.5 / FPS)
    assert not any(isinstance(e, CardLanded) for e in events)


def held_at(i: int, still: range) -> tuple[float, float]:
    """Where the held card is on frame ``i``: 4 px a frame to the right from frame 5, but
    not on the frames ``still``."""
    return 20.0 + 4 * (i - 5 - max(0, min(i, still.stop - 1) - still.start)), 125.0


def held(still: range) -> Draw:
    """A card held in a hand, its tag up, carried across the pile from the left and away
    to the right (``held_at``), held still over the pile on the frames ``still``."""
    def draw(i: int, image: Image) -> None:
        if 5 <= i < 75:
            x, y = held_at(i, still)
            hand(image, (x - 20, y + 25))
            card(image, (x, y), 15.0)
    return draw


@pytest.mark.parametrize("still", [range(0), range(28, 33)], ids=["carried", "a pause"])
def test_a_card_in_a_hand_over_the_pile_read_once_is_nothing(still: range) -> None:
    """The same single read, of a card carried in a hand across the pile (or paused over
    it for 5 frames, shorter than anything takes to settle) that then leaves: it never
    lay on the pile, so it is never seen, and nothing landed. (A card held still over the
    pile is read on every frame it is still: the tracker's two reads of three.)"""
    events = run(held(still), {30: [("X", held_at(30, still))]})
    assert seen(events) == []
    assert not any(isinstance(e, CardLanded) for e in events)


def test_the_watch_says_which_reads_lay_on_the_pile() -> None:
    """``LandingWatch.settled_reads``: a tag read once (frame 20) in a card that settled
    (frame 10) gives its text and the card's landing time; the same read on a palm
    resting there (1.6 times a card's sides) explains that change but gives no time (None:
    that read is no card's that lay there; the pipeline confirms nothing with it)."""
    def lands(i: int, image: Image) -> None:
        if i >= LANDS:
            card(image, X_AT, 35.0)

    def rests(i: int, image: Image) -> None:
        if i >= LANDS:  # a palm resting there, 1.6 times a card's sides
            cv2.ellipse(image, (int(X_AT[0]), int(X_AT[1])), (int(TAG * 1.6), int(TAG * 2.1)),
                        0, 0, 360, 160, -1)

    def once(i: int) -> list[tuple[str, list[tuple[float, float]]]]:
        return [READ, ("X", tag_at(X_AT))] if i == 20 else [READ]

    found, watch = landings(40, lands, once)  # type: ignore[arg-type]  # scenes: (text, quad)
    assert found == [] and list(watch.settled_reads) == ["X"]
    assert watch.settled_reads["X"] == pytest.approx(LANDS / FPS, abs=1.5 / FPS)
    found, watch = landings(200, rests, once)  # type: ignore[arg-type]
    assert found == [] and watch.settled_reads == {"X": None}  # read there: no card's
