"""Readable cards from the renderer's truth, and what the table made of them (issue 36's
goal: exactly one pile event per readable card, counted whether or not the camera read it)."""

from __future__ import annotations

from typing import Any

import numpy as np

from bench.vision_readable import READABLE_FRAMES, Sightings
from bench.vision_tablecount import count_readable
from companion.games.nasty7.events import (
    CardPlayed,
    CardSeenBeside,
    LandingNamed,
    MissedCardAdded,
    SeenCardSettled,
)
from vision.synthetic import CardPlay, Patch, SyntheticTable, TagTruth

PAYLOADS = [f"K7Q2M9XH{i:04d}" for i in range(4)]
SQUARE = ((100.0, 100.0), (140.0, 100.0), (140.0, 140.0), (100.0, 140.0))


def tag(payload: str, visible: float = 1.0, landed: bool = True,
        glared: bool = False) -> TagTruth:
    return TagTruth(payload, SQUARE, visible, landed, "pile", 0.5 if glared else 0.0, glared)


def test_a_card_is_readable_once_fully_visible_in_two_frames_after_it_landed() -> None:
    s = Sightings()
    frames = [
        [tag("A", landed=False), tag("B", landed=False)],  # sliding in: not at rest
        [tag("A"), tag("B", 0.9), tag("C")],  # B a tenth covered; C visible once
        [tag("A", 0.2), tag("B"), tag("C", 0.0), tag("D", glared=True)],
        [tag("A"), tag("B", 0.5), tag("C", 0.0), tag("D", glared=True)],  # D washed out
    ]
    for i, truth in enumerate(frames):
        s.frame(i, truth, {"A"} if i == 1 else set())
    assert READABLE_FRAMES == 2
    assert s.readable() == {"A"}  # two frames, not in a row; B, C once; D never
    assert s.readable(1) == {"A", "B", "C"}
    why = s.why("C")
    assert (why["visible_frames"], why["read_frames"], why["landed_frame"]) == (1, 0, 1)
    a = s.why("A")
    assert (a["visible_frames"], a["visible_run"], a["read_while_visible"]) == (2, 1, 1)
    assert (a["reads_in_window"], a["read_at"]) == (1, [0])
    assert s.why("D")["glared_frames"] == 2 and s.why("D")["washed"] == 0.5


def test_a_card_read_while_sliding_counts_its_reads_after_landing_apart() -> None:
    s = Sightings()
    s.frame(0, [tag("A", landed=False)], {"A"})
    for i in range(1, 4):
        s.frame(i, [tag("A")], {"A"} if i != 2 else set())
    why = s.why("A")
    assert (why["read_frames"], why["read_after_landing"]) == (3, 2)
    assert (why["reads_in_window"], why["read_gaps"], why["read_at"]) == (2, [2], [0, 2])


def test_every_readable_card_counts_read_or_not() -> None:
    """Cards 1-6 readable: 1 booked once; 2 booked twice; 3 never booked nor asked (the
    camera never confirmed it: missed); 4 seen beside, the host counted it; 5 landed
    unread, named by the host; 6 in a seat's drawn zone, rightly booked to nobody."""
    events = [CardPlayed(0, "gun", 1.0, serial=1), CardPlayed(1, "gun", 1.5, serial=2),
              CardSeenBeside(2, "gun", 2.0, serial=4), SeenCardSettled(True, 3.5, 0),
              MissedCardAdded(2, "gun", 2.0, 3.5, serial=4, camera=True),
              LandingNamed("phone", 4.0, 0), MissedCardAdded(0, "phone", 3.0, 4.0, camera=True),
              CardPlayed(1, "gun", 6.0, serial=2)]
    c = count_readable(events, {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 0}, hand_named=[5],
                       asked=[5])
    assert (c.readable, c.once, c.twice, c.missed, c.asked) == (6, 4, 1, 1, 2)
    assert c.missed_serials == [3]


def test_a_question_the_camera_answered_or_left_open_is_no_miss() -> None:
    """Card 7 landed unread, and the camera read it later (its pile event says ``read``):
    asked and booked; card 8 seen beside the pile, not answered yet: not a miss (the
    table's count says unanswered); card 9 named by the host when the camera had booked
    it already: booked twice."""
    events = [MissedCardAdded(0, "gun", 1.0, 2.5, serial=7, camera=True, read=True),
              CardSeenBeside(1, "gun", 3.0, serial=8), CardPlayed(2, "gun", 4.0, serial=9)]
    c = count_readable(events, {7: 1, 8: 1, 9: 1}, hand_named=[9], asked=[9])
    assert (c.once, c.twice, c.missed, c.asked) == (1, 1, 0, 2)


def test_answers_close_the_question_at_their_place_in_the_queue() -> None:
    events = [CardSeenBeside(0, "gun", 1.0, serial=3), CardSeenBeside(0, "gun", 1.2, serial=4),
              SeenCardSettled(False, 2.5, 1)]  # the second: not counted, but answered
    c = count_readable(events, {3: 1, 4: 1})
    assert (c.once, c.asked, c.missed) == (0, 1, 0)


def test_the_truth_says_a_tag_under_a_reflections_core_is_not_visible() -> None:
    """A strong reflection paints its core pure white: a tag whose centre lies there is
    not fully visible (nothing of it could be read); under a veil (strength under 1:
    nothing washed out to white) it is; the pixels are the renderer's as before."""
    play = [CardPlay(PAYLOADS[0], at=0.0, position=(0.5, 0.5), angle=0, tag_px=80,
                     slide_s=0.01)]
    args: dict[str, Any] = {"width": 640, "height": 360, "fps": 10, "seed": 3,
                            "realtime": False}
    over = Patch("glare", 0.0, 9.0, (0.5, 0.47), 0.06)
    glare = SyntheticTable(PAYLOADS, play, patches=[over], **args)
    under = glare.render(3).truth[0]
    assert under.glared and under.washed > 0.5 and not under.fully_visible
    assert under.visible == 1.0  # nothing covers it: the reflection alone hides it
    core = glare.renderer.glare_core([over])
    assert core is not None
    spot = glare.render(3).image
    assert np.all(spot[core.astype(bool)] == 255)  # the core is what the frame paints white
    veil = Patch("glare", 0.0, 9.0, (0.5, 0.47), 0.06, 0.7)
    veiled = SyntheticTable(PAYLOADS, play, patches=[veil], **args)
    assert veiled.renderer.glare_core([veil]) is None
    assert veiled.render(3).truth[0].fully_visible
    aside = Patch("glare", 0.0, 9.0, (0.15, 0.2), 0.06)
    clear = SyntheticTable(PAYLOADS, play, patches=[aside], **args)
    assert clear.render(3).truth[0].fully_visible and clear.render(3).truth[0].washed == 0.0


def test_the_table_source_keeps_the_truth_of_the_frame_it_read() -> None:
    play = [CardPlay(PAYLOADS[0], at=0.2, position=(0.5, 0.5), slide_s=0.1)]
    table = SyntheticTable(PAYLOADS, play, width=320, height=240, fps=10, realtime=False,
                           clock=lambda: 0.0)
    before = table.last_truth
    for _ in range(4):
        frame = table.read()
    truth = table.last_truth
    assert before == () and frame is not None and frame.index == 3
    assert truth == table.render(3).truth and truth[0].fully_visible
