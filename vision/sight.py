"""Whether glare hides the pile: the camera's ``PileSight`` (issue 36).

A lamp's reflection over the pile can hide every tag that lands under it: no frame reads
them and the landing watch (``vision.landing``) sees nothing settle (white before, white
after). A game that times players from the cards the camera sees (The Nasty 7's
3-second rule) cannot time a card it cannot see, so the camera says when that is so.

The pre-game check (``vision.check.CheckMeter``) tries a drawn tag in each part of each
zone on one sample in ``EVERY * TRY_EVERY`` frames (``glare_parts``: ``"lost"`` where it
does not read, ``"barely"`` where it reads only without a little more glare).
``PileSightWatch`` is fed every such trial (the frame's capture time and the check's
parts) and says when the pile turns blind or clear:

- **blind** once ``BLIND_AFTER`` (2) trials in a row find the same part of a pile zone
  ``"lost"`` (``PILE_ZONES``);
- **clear** only after ``CLEAR_AFTER`` (2) trials in a row find no ``"lost"`` part over
  the pile (``"barely"`` is no lost part: the tag reads there). A lamp's reflection
  flickers between ``"lost"`` and ``"barely"`` from one sample to the next: one good
  sample is not enough.

Why ``BLIND_AFTER`` is 2, not 1: the check took the white stock of a card whose tag is
not read (a fingertip on it as it lands) for a reflection, so such a card was "lost" on
the trial that fell on it, and the pile turned blind for 2-4 s on 3 of the 6 ``fingers``
videos of the bench's conditions (docs/vision.md). A reflection stays in its part from
trial to trial; cards under fingers come and go: with 2, none of those 18 videos (glare,
fingers, hands) turned blind but the glare ones, one trial later (frame 30 instead of
0). Even so, an unread white card lying still took 2 trials in a row (a held-apart
``beside`` video: blind 3 s, no glare): now the check says "lost" only where a tag would
lie in a spot washed out to white, which a card's stock is not (``glare_parts``), and where
paper itself clips to white, a card's blank margin is no such spot: the light is measured
over 12 modules of the largest codes read, not the median's (tuning ``beside-no-seats`` 38
and ``beside`` 42: blind 1.4 s and 1.2 s, a larger card's margin). A reflection
that appears during play is said 1-2 s after it appears (a trial every 30 frames at 30
fps), before a hesitation deadline it could cause: the last card seen before it gives
``hesitation_s`` (3 s) plus the camera's delay (1 s).

Clear is the default: nothing is said at start, and nothing while no pile zone is drawn
(a pile zone no longer drawn counts as a trial that found nothing lost over it). The
time of a ``PileSight`` is the capture time of the frame the trial was made on (the
clock of ``TagSeen.at``). Pure: no clock, no threads, no images.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.inputs import PileSight
from vision.zonegrow import GROWS

__all__ = ["BLIND_AFTER", "CLEAR_AFTER", "PILE_ZONES", "PileSightWatch", "lost_parts"]

#: the pile's zones: where cards are played (The Nasty 7's ``PILE_ZONES``), the zones
#: that grow (``vision.zonegrow.GROWS``): named once, there
PILE_ZONES = GROWS
#: trials in a row with no lost part over the pile before it is clear again
CLEAR_AFTER = 2
#: trials in a row that find the same part of the pile lost before it is blind (1 took
#: an unread card's white stock under a fingertip for a reflection: module doc)
BLIND_AFTER = 2


def lost_parts(parts: Mapping[str, Mapping[str, str]]) -> frozenset[tuple[str, str]]:
    """The (zone, part) of the pile where the check's glare ``parts`` ({zone: {part:
    "lost" | "barely"}}) say a tag would not read."""
    return frozenset((zone, part) for zone, states in parts.items() if zone in PILE_ZONES
                     for part, state in states.items() if state == "lost")


class PileSightWatch:
    """Fed each glare trial of the check; ``trial`` returns a ``PileSight`` when the pile
    turns blind or clear, else None. ``blind``: the pile's sight now."""

    def __init__(self, clear_after: int = CLEAR_AFTER, blind_after: int = BLIND_AFTER) -> None:
        self.clear_after, self.blind_after = clear_after, blind_after
        self.blind = False
        self._clean = 0  # trials in a row with no lost part over the pile, while blind
        #: the parts lost in each of the last trials in a row (``blind_after`` of them)
        self._lost: list[frozenset[tuple[str, str]]] = []

    def trial(self, at: float, parts: Mapping[str, Mapping[str, str]]) -> PileSight | None:
        """One trial, made on the frame captured at ``at``: its parts under glare."""
        lost = lost_parts(parts)
        self._lost = [*self._lost, lost][-self.blind_after:] if lost else []
        if lost:
            self._clean = 0
            if self.blind:
                return None
            if len(self._lost) < self.blind_after or not frozenset.intersection(*self._lost):
                return None  # not the same part lost in enough trials in a row yet
            self.blind = True
            return PileSight(at, blind=True)
        if not self.blind:
            return None
        self._clean += 1
        if self._clean < self.clear_after:
            return None
        self.blind, self._clean = False, 0
        return PileSight(at, blind=False)
