"""The landing watch's memory (``vision.landmemory``), each rule tested where it lives.

Rules that until round 9 had no test of their own, only the tuning videos that showed
them (docs/vision.md: round 8's rules 5 and 6, round 9's (d) "a tag read later in a
rest's box is its cover's"). Each test here fails with its rule switched off.

The zone is drawn cell by cell (one cell = ``CELL`` px of the frame), a card about 20 x 28
cells as at 1280 x 720; times in seconds, no clock.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision.landmemory import (
    CELL,
    HOLD_S,
    Reported,
    Zone,
    covered,
    moved_card,
    on_another,
    read_later,
    read_pending,
    under,
)

SHAPE = (60, 80)
CARD = (160.0, 224.0)  # a card's sides, px: 20 x 28 cells


def zone() -> tuple[Zone, np.ndarray]:
    """An empty zone whose cells all settled at 0 s, and its picture."""
    small = np.full(SHAPE, 70.0, np.float32)
    return Zone((0, 0, SHAPE[1] * CELL, SHAPE[0] * CELL), small, 0.0), small


def box(x0: int, y0: int, x1: int, y1: int) -> tuple[np.ndarray, np.ndarray]:
    """Cells ``[y0:y1, x0:x1]`` and their box's corners (cell coordinates)."""
    cells = np.zeros(SHAPE, bool)
    cells[y0:y1, x0:x1] = True
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    return cells, corners


def tag(cx: float, cy: float) -> list[tuple[float, float]]:
    """A tag's outline, 4 x 4 cells, centred on cell (cx, cy), frame px."""
    x, y = cx * CELL, cy * CELL
    return [(x - 16, y - 16), (x + 16, y - 16), (x + 16, y + 16), (x - 16, y + 16)]


def test_a_tag_read_later_in_the_box_of_a_card_covered_as_it_waited_is_never_its_read() -> None:
    """A card covered whole while it waited for its tag (``Reported.covered``) has its own
    tag under its cover. A tag first read in its box after the report is the cover's,
    never the covered card's answer; the same read in the box of a card reported whole,
    its other cells as they were, is that card's."""
    for covered_, answered in ((True, {}), (False, {"T": 1.0})):
        z, small = zone()
        cells, corners = box(20, 20, 40, 48)
        small[cells] = 235.0
        z.still_since[cells] = 1.0
        z.reported.append(Reported(1.0, 1.5, cells, corners, covered=covered_))
        later: dict[str, float] = {}
        read_later(z, 3.0, [("T", tag(30, 34))], small, CARD, {"T": (3.0, (240.0, 272.0))}, later)
        assert later == answered


@pytest.mark.parametrize(("where", "answered"), [
    ((35.0, 41.0), False),  # on what covered it: the cover's tag
    ((26.0, 28.0), True),  # on the rest of it, nothing moved since: its own
], ids=["on its cover", "on the rest of it"])
def test_a_tag_read_later_on_the_rest_of_a_covered_card_is_its_read(
        where: tuple[float, float], answered: bool) -> None:
    """The rest of a card the next one covered in part is reported (L-shaped: its lower
    right corner under the cover, which settled after it, ``Reported.cover``). A tag read
    later in its box on what covered it is the cover's; one read on the rest of it, where
    nothing moved since, is its own (round 14: tuning glare 592 #14, its tag half under
    the lamp, read 2.5 s after it landed, just after the host named it: booked twice
    while every tag in such a rest's box was taken for its cover's)."""
    z, small = zone()
    cells, corners = box(20, 20, 40, 48)
    cells[34:48, 30:40] = False  # under the cover
    cover = np.zeros(SHAPE, bool)
    cover[34:48, 30:44] = True
    small[cells] = 235.0
    small[cover] = 225.0
    z.still_since[cells] = 1.0
    z.still_since[cover] = 1.3
    z.reported.append(Reported(1.0, 1.5, cells, corners, cover=cover))
    later: dict[str, float] = {}
    centre = (where[0] * CELL, where[1] * CELL)
    read_later(z, 3.0, [("T", tag(*where))], small, CARD, {"T": (3.0, centre)}, later)
    assert later == ({"T": 1.0} if answered else {})


def test_a_tag_where_a_card_waits_is_not_its_own_when_it_lies_on_another_card() -> None:
    """A card waits for its tag (``Zone.pending``). A tag is read on one of its cells that
    has not moved since it settled (white on white: the next card's tag can lie on a cell
    that looks the same). When most of the cells under that tag, at its first read,
    settled well after the waiting card, as part of a card that slid in, it is the next
    card's tag and settles nothing (round 8's rule 5: tuning glare 25); when they settled
    with the waiting card, it is its own."""
    for first_at, whole, own in ((3.0, True, False), (1.0, False, True)):
        z, small = zone()
        cells, corners = box(20, 20, 40, 48)
        z.still_since[cells] = 1.0
        z.pending.append(Reported(1.0, 1.0, cells, corners))
        under = np.full(16, first_at)
        z.rests["T"] = (under, under, whole)
        read = read_pending(z, [("T", tag(30, 34))])
        assert (read == [("T", 1.0)]) is own
        assert (z.pending == []) is own


def test_a_waiting_card_covered_in_part_is_a_landing_at_hold_s() -> None:
    """A card waits for its tag; the next card covers a third of it and lies still. What
    is left of it still looks card-sized, so it is left to its group's judgement, but
    only until ``HOLD_S`` after it settled: a group whose cells differ from its unmoved
    rest may never pass the group's test (round 8's rule 6: tuning glare 34 #33). Then
    it is a landing, at its own time."""
    z, small = zone()
    cells, corners = box(20, 16, 42, 46)  # 22 x 30 cells: a card
    small[cells] = 235.0
    z.ref = np.full(SHAPE, 70.0, np.float32)
    z.still_since[cells] = 1.0
    z.pending.append(Reported(1.0, 1.25, cells, corners))
    z.still_since[16:26, 20:42] = 1.6  # the next card on its top third, still since 1.6 s
    before = covered(z, small, 1.25 + HOLD_S - 0.1, CARD)
    assert before == [] and len(z.pending) == 1
    after = covered(z, small, 1.25 + HOLD_S + 0.1, CARD)
    assert [p.at for p in after] == [1.0]
    assert z.pending == []


def test_a_tag_read_late_on_a_card_that_slid_in_is_a_card_that_slid_in() -> None:
    """What moved with a tag is judged as of when the tag's cells settled, not when it was
    read: a card slid in and lay still at 2.27 s, its tag read only at 2.63 s (a lamp's
    glare washed a finder of it; read once the picture settled), one cell under it moved
    as it was read (the glare's edge): it is a card that slid in (tuning glare 399 #66:
    else it was taken for the tag of the card under it, never asked about). A fingertip
    lifted off a card's tag at 2.0 s moved only with a fingertip's cells: no card."""
    z, _ = zone()
    cells, _ = box(20, 20, 40, 48)
    z.still_since[cells] = 2.27
    quad = tag(30, 34)
    z.still_since[34, 30] = 2.63
    assert moved_card(z, under(z, quad), 2.63, CARD)

    z, _ = zone()
    z.still_since[cells] = 1.0  # the card landed at 1.0 s
    tip, _ = box(28, 32, 33, 37)
    z.still_since[tip] = 2.0  # the fingertip over its tag lifted at 2.0 s
    assert not moved_card(z, under(z, quad), 2.0, CARD)


def test_a_tag_that_lay_there_before_a_waiting_card_landed_is_not_its_own() -> None:
    """A card waits for its tag; a tag is read in its box, first read (late: a lamp's glare
    washed a finder of it) when every cell under it had settled long before the waiting
    card, and at its last read most of them still so: the tag of a card that lay there
    before, beside it (tuning glare 50 #89 took #55's question away). The same tag on a
    card moved since (its cells settled anew, with the group) is the group's own."""
    for last_old, own in ((0.58, False), (0.0, True)):
        z, small = zone()
        cells, corners = box(20, 20, 40, 48)
        z.still_since[cells] = 3.63
        z.pending.append(Reported(3.63, 3.63, cells, corners))
        first = np.full(16, 2.67)
        last = np.where(np.arange(16) < round(last_old * 16), 2.67, 3.63)
        z.rests["T"] = (first, last, True)
        read = read_pending(z, [("T", tag(30, 34))])
        assert (read == [("T", 3.63)]) is own


def test_a_tag_whose_cells_settled_well_after_a_group_landed_lies_on_another_card() -> None:
    """A group landed at 3.97 s (its cells' median) and its latest cells settled at 4.2 s. A
    tag read in its box whose cells, at its first read, settled at 4.37 s, with a card
    that slid in, is that card's: it landed ``LATER_S`` after the group, though not
    ``LATER_S`` after the group's latest cells (round 13: tuning glare 399 #48, "explained"
    by the tag of the card that covered part of it 0.35 s later). One whose cells settled
    with the group is its own."""
    for settled_at, other in ((4.37, True), (4.05, False)):
        first = np.full(16, settled_at)
        assert on_another((first, first, True), (3.97, 4.2)) is other
