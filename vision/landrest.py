"""What is left in view of a card the next one covered before it was judged (issue 36,
round 9: tuning glare 37 #75, 42 #85, 43 #93, covered 7-10 frames after they landed, before
they had settled card-sized).

The landing watch (``vision.landing``) judges a settled group too small for a card as
**the rest of a covered card** when it shows print (``PRINT``; half of it inside too,
where it has an inside of ``TINY`` cells: a flat hand's rim mixes it with the cards
around it, round 10, tuning hands 7 and 10), ``SEEN`` of a card at least, holds no
waiting card's unmoved cells (``landmemory.covered`` judges those), and a change that
settled after it (``SAME_S`` later) touches it: what covered it (``rest_of_card``).
Unless its own tag was read near it (``read_near``: within a card of its centre, not on
the card under it nor on its cover), it is a landing, at its own time, asked about once
with the other parts of that card (``landmemory.asked``); a tag read later in its box,
``NEWER`` of it on what settled after it then (``cover``, ``Reported.cover``), is its
cover's, never its answer; one read on the rest of it, where nothing moved since, is its
own (round 14: tuning glare 592 #14, its tag half under the lamp, read 2.5 s later). A
tag read once in such a part says a card lay there (``LandingWatch.settled_reads``, round
10: tuning fingers 78 #85).

**A read card's part back in view** (round 10: tuning fingers 9): what a
read explained is remembered with its card (``explain``: its cells, and what lay on it
then in its box). A group that landed after that card, ``BACK`` of it where that card's
reads explained the change, is that card's part coming back into view as a fingertip or
a hand lifts (``uncovered``) when the card's tag has been read since, where it lay.

Pure: arrays in, a yes or no out; no clock.
"""

from __future__ import annotations

import math

import numpy as np

from vision.frames import Image, Point
from vision.landmemory import (
    CELL,
    NEWER,
    SAME_S,
    SEEN,
    Zone,
    cells_centre,
    lay_first,
    on_another,
    printed,
)

__all__ = ["cover", "explain", "read_near", "rest_of_card", "uncovered"]

#: a settled group is a read card's part back in view when this share of its cells lay
#: where that card's reads explained the change (``uncovered``)
BACK = 0.8


def rest_of_card(zone: Zone, cells: Image, near: Image, changed: Image, small: Image,
                 card: tuple[float, float]) -> bool:
    """Whether a settled group (``cells``; ``near``: them and their neighbours) is what
    is left in view of a card covered before it was judged: printed (inside too, where it
    has one), ``SEEN`` of a card (``card``: its sides, px), no waiting card's unmoved
    cells, and a change (``changed``) that settled ``SAME_S`` after it touches it (the
    watch waits while that moves)."""
    if (int(np.count_nonzero(cells)) * CELL * CELL < SEEN * card[0] * card[1]
            or not printed(cells, small) or lay_first(zone, cells)):
        return False
    return int(np.count_nonzero(near & cover(zone, cells, changed))) >= 3


def cover(zone: Zone, cells: Image, changed: Image) -> Image:
    """What changed (``changed``) and settled ``SAME_S`` after a settled group (``cells``):
    what may lie on it now (a card that covered it, a hand that came after)."""
    latest = float(np.max(zone.still_since[cells]))
    return changed & ~cells & (zone.still_since > latest + SAME_S)


def read_near(zone: Zone, cells: Image, reads: dict[str, tuple[float, Point]], since: float,
              span: tuple[float, float], reach: float) -> bool:
    """Whether a tag read since ``since`` (``reads``: text -> its last read, centre px)
    lies within ``reach`` px of the centre of ``cells`` (settled over ``span``) and on
    their card: not on another (``on_another``: the card under it), nor on what covered
    them (the cells under it, at its first read, settled ``SAME_S`` after them). Their
    card was read."""
    x, y = cells_centre(cells)
    cx, cy = zone.box[0] + x * CELL, zone.box[1] + y * CELL
    for text, (when, centre) in reads.items():
        rests = zone.rests.get(text)
        if when < since or on_another(rests, span) or math.dist(centre, (cx, cy)) > reach:
            continue
        if rests is None or not rests[0].size or float(
                np.mean(rests[0] > span[1] + SAME_S)) < NEWER:
            return True
    return False


def explain(zone: Zone, text: str, cells: Image, centre: Point, at: float) -> None:
    """A read of ``text`` (its tag's centre, px) explained ``cells``, its card landed at
    ``at``: remembered with what its reads explained before while its tag lies where it
    lay (``CELL``), at the first of their times."""
    before = zone.explained.get(text)
    if before is not None and math.dist(before[1], centre) <= CELL:
        cells, at = cells | before[0], min(at, before[2])
    zone.explained[text] = (cells.copy(), centre, at)


def uncovered(zone: Zone, cells: Image, reads: dict[str, tuple[float, Point]],
              landed: float, settled: float) -> bool:
    """Whether a group that settled at ``settled`` is a part of a card read before, back in
    view as what lay on it lifts (a fingertip: tuning fingers 9): ``BACK`` of its cells lie
    where that card's reads explained the change (its card and what lay on it then), it
    landed (``landed``: its cells' median time) after that card, and that card's tag has
    been read since the group settled, where it lay (``reads``: text -> its last read,
    centre px). Not a card that landed on it: it hides that card's tag, or lies beyond the
    card and its hand; not a card that lay there unread before it (tuning glare 2 #50, in
    the box of the card read after it)."""
    n = int(np.count_nonzero(cells))
    for text, (where, centre, when) in zone.explained.items():
        read = reads.get(text)
        if (landed >= when and read is not None and read[0] >= settled
                and math.dist(read[1], centre) <= CELL
                and np.count_nonzero(cells & where) >= BACK * n):
            return True
    return False
