"""Zones grown as cards land (``vision.zonegrow`` and the pipeline): the geometry, the
bounds, and the pipeline growing its pile with frames delivered in lockstep (no timing)."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from companion.config import TrackingConfig, ZonesConfig
from companion.inputs import TagSeen
from vision.frames import Detection, Frame, Image
from vision.pipeline import VisionPipeline
from vision.quads import point_in_polygon
from vision.zonegrow import (
    GAP,
    MAX_GROWTH,
    SPREAD,
    ZoneGrower,
    card_box,
    clip_short_of,
    polygon_area,
    polygons_overlap,
)

W, H = 1280, 720
PILE = [(0.3, 0.3), (0.6, 0.3), (0.6, 0.7), (0.3, 0.7)]
SEAT = [(0.75, 0.3), (0.95, 0.3), (0.95, 0.7), (0.75, 0.7)]


def box_at(x: float, y: float, side: float = 40.0) -> list[tuple[float, float]]:
    """The card box of a tag of ``side`` px centred at normalised (x, y)."""
    cx, cy = x * W, y * H
    corners = [(cx - side / 2, cy - side / 2), (cx + side / 2, cy - side / 2),
               (cx + side / 2, cy + side / 2), (cx - side / 2, cy + side / 2)]
    return card_box(corners, (W, H))


def test_geometry() -> None:
    assert polygon_area(PILE) == pytest.approx(0.12)
    assert not polygons_overlap(PILE, SEAT)
    assert polygons_overlap(PILE, [(0.5, 0.5), (0.7, 0.5), (0.7, 0.6)])  # an edge crossing
    assert polygons_overlap(PILE, [(0.4, 0.4), (0.5, 0.4), (0.5, 0.5)])  # inside


def test_a_card_on_the_piles_stack_grows_it_a_card_merely_beside_it_does_not() -> None:
    grower = ZoneGrower({"pile": PILE})
    zones = {"pile": PILE}
    on_pile = {"pile": [box_at(0.58, 0.5)]}  # a card lying at the pile's right edge
    for _ in range(3):  # beside the pile, touching none of its cards: never grows
        assert grower.landed(zones, box_at(0.66, 0.3), on_pile) is None
        assert grower.landed(zones, box_at(0.65, 0.7), {}) is None
    grown = grower.landed(zones, box_at(0.615, 0.5), on_pile)  # over the edge card
    assert grown is not None and grown[0] == "pile"
    assert point_in_polygon((0.615, 0.5), grown[1]) and point_in_polygon((0.45, 0.5), grown[1])
    assert polygon_area(PILE) < polygon_area(grown[1]) <= MAX_GROWTH * polygon_area(PILE)


def test_beside_cards_next_to_a_seat_never_grow_the_pile_into_or_towards_it() -> None:
    seat = [(0.66, 0.3), (0.95, 0.3), (0.95, 0.7), (0.66, 0.7)]
    zones = {"pile": PILE, "seat:1": seat}
    grower = ZoneGrower(zones)
    on_pile = {"pile": [box_at(0.58, y) for y in (0.35, 0.5, 0.65)]}
    current = dict(zones)
    for y in (0.35, 0.45, 0.55, 0.65, 0.4, 0.6):  # cards between the pile and the seat
        for found in (grower.landed(current, box_at(0.625, y), on_pile),
                      grower.counted(current, box_at(0.625, y))):
            if found is not None:
                assert found[0] == "pile"
                current[found[0]] = found[1]
    assert current["seat:1"] == seat  # the seat's zone never grows
    right = max(x for x, _ in current["pile"])
    assert right <= 0.66 - GAP + 1e-6  # short of the seat by the gap, however many came
    assert not polygons_overlap(current["pile"], seat)


def test_a_seat_zone_never_grows() -> None:
    seat = [(0.75, 0.3), (0.95, 0.3), (0.95, 0.7), (0.75, 0.7)]
    discard = [(0.05, 0.05), (0.2, 0.05), (0.2, 0.2), (0.05, 0.2)]
    zones = {"seat:0": seat, "discard": discard}
    grower = ZoneGrower(zones)
    on = {"seat:0": [box_at(0.77, 0.5)], "discard": [box_at(0.18, 0.12)]}
    for x, y in ((0.72, 0.5), (0.73, 0.4), (0.22, 0.12), (0.21, 0.18)):
        assert grower.counted(zones, box_at(x, y)) is None
        assert grower.landed(zones, box_at(x, y), on) is None
    assert grower.grown(zones, "seat:0", [box_at(0.72, 0.5)]) is None


def test_undo_gives_the_zones_as_drawn() -> None:
    zones = {"pile": PILE, "seat:1": SEAT}
    grower = ZoneGrower(zones)
    found = grower.counted(zones, box_at(0.64, 0.5))
    assert found is not None and found[1] != PILE
    assert grower.undo() == {"pile": PILE, "seat:1": SEAT}


def test_clip_short_of_keeps_the_drawing_and_the_gap() -> None:
    grown = [(0.3, 0.3), (0.9, 0.3), (0.9, 0.7), (0.3, 0.7)]
    clipped = clip_short_of(grown, PILE, [SEAT])
    assert clipped is not None
    assert max(x for x, _ in clipped) == pytest.approx(0.75 - GAP)
    assert all(point_in_polygon(p, clipped) for p in ((0.31, 0.31), (0.59, 0.69)))
    assert clip_short_of(grown, PILE, [[(0.5, 0.5), (0.8, 0.5), (0.8, 0.6)]]) is None  # overlap


def test_a_card_far_from_every_zone_or_inside_one_grows_nothing() -> None:
    grower = ZoneGrower({"pile": PILE})
    zones = {"pile": PILE}
    for _ in range(3):
        assert grower.landed(zones, box_at(0.9, 0.1)) is None  # far away
        assert grower.landed(zones, box_at(0.45, 0.5)) is None  # inside the pile
    assert grower.counted(zones, box_at(0.95, 0.95)) is None


def test_never_over_another_zone() -> None:
    zones = {"pile": PILE, "seat": [(0.63, 0.3), (0.95, 0.3), (0.95, 0.7), (0.63, 0.7)]}
    grower = ZoneGrower(zones)
    # a card between the pile and the seat, nearer the pile: growing would cover the seat
    assert grower.counted(zones, box_at(0.615, 0.5)) is None


def test_with_no_seat_zone_drawn_the_pile_never_grows_into_a_players_area() -> None:
    """Issue 36 (the conditions' tuning split): the host counted a card that landed in the
    right-hand player's area, no seat zone drawn, and the pile grew over that area. Players
    sit all round the table: past a pile's drawn edge lies someone's place, drawn or not."""
    pile = [(0.3, 0.25), (0.6, 0.25), (0.6, 0.75), (0.3, 0.75)]  # as the bench draws it
    area = [(0.72, 0.3), (0.95, 0.3), (0.95, 0.7), (0.72, 0.7)]  # a player's, not drawn
    grower = ZoneGrower({"pile": pile})
    current = {"pile": pile}
    for x, y in ((0.70, 0.5), (0.76, 0.4), (0.8, 0.55), (0.86, 0.45), (0.68, 0.6),
                 (0.74, 0.35), (0.9, 0.5)):  # cards the host counted, towards the player
        found = grower.counted(current, box_at(x, y))
        if found is not None:
            current[found[0]] = found[1]
        found = grower.landed(current, box_at(x, y), {"pile": [box_at(x - 0.04, y)]})
        if found is not None:
            current[found[0]] = found[1]
    assert not polygons_overlap(current["pile"], area)
    assert max(x for x, _ in current["pile"]) <= 0.65 + 1e-6  # never far past the drawing
    # a card counted half over the pile's edge still grows it to take the card in
    found = grower.counted({"pile": pile}, box_at(0.625, 0.5))
    assert found is not None and point_in_polygon((0.625, 0.5), found[1])


def test_spread_is_measured_from_the_drawing_where_the_table_moved_it() -> None:
    """A knocked camera, followed: the zones moved 0.1 right; the pile's SPREAD is counted
    from the drawing as moved (the pipeline passes it: ``VisionPipeline._drawn_now``)."""
    grower = ZoneGrower({"pile": PILE})
    moved = [(x + 0.1, y) for x, y in PILE]
    card = box_at(0.73, 0.5)  # 0.03 past the moved pile's edge
    assert grower.counted({"pile": moved}, card) is None  # from the unmoved drawing: too far
    found = grower.counted({"pile": moved}, card, {"pile": moved})
    assert found is not None and point_in_polygon((0.73, 0.5), found[1])
    assert max(x for x, _ in found[1]) <= 0.7 + SPREAD + 1e-6


def test_growth_is_bounded_by_the_drawn_area() -> None:
    zones = {"pile": PILE}
    grower = ZoneGrower(zones)
    current = dict(zones)
    grew = 0
    for step in range(12):  # cards creeping ever further right
        found = grower.counted(current, box_at(0.62 + 0.03 * step, 0.5))
        if found is None:
            break
        current[found[0]] = found[1]
        grew += 1
    assert grew >= 1
    assert polygon_area(current["pile"]) <= MAX_GROWTH * polygon_area(PILE) + 1e-9
    assert not point_in_polygon((0.62 + 0.03 * 11, 0.5), current["pile"])


# -- the pipeline ----------------------------------------------------------------------


class Frames:
    """``n`` frames at 30 fps, one after the decoder took the last (lockstep by hand)."""

    def __init__(self, n: int) -> None:
        self.n, self.i = n, 0
        self.turn = threading.Semaphore(1)

    def read(self) -> Frame | None:
        if self.i >= self.n:
            return None
        assert self.turn.acquire(timeout=120)  # a safety net, never a measurement
        image = np.zeros((H // 10, W // 10), np.uint8)
        image[0, 0], image[0, 1] = divmod(self.i, 256)
        self.i += 1
        return Frame(image, (self.i - 1) / 30, self.i - 1, display=None)

    def close(self) -> None:
        pass


@dataclass(frozen=True)
class Info:
    status: str = "ok"
    game: str | None = "nasty7"
    card: str | None = "7"
    serial: int | None = 1


class Cards:
    """Card ``text`` at normalised ``(x, y)`` in the frames of ``frames`` (by index)."""

    name = "fake"

    def __init__(self, source: Frames, cards: list[tuple[str, float, float, range]]) -> None:
        self.source, self.cards = source, cards

    def decode(self, image: Image) -> list[Detection]:
        index = int(image[0, 0]) * 256 + int(image[0, 1])
        self.source.turn.release()
        w, h = image.shape[1], image.shape[0]
        side = 4.0
        out = []
        for text, x, y, frames in self.cards:
            if index in frames:
                cx, cy = x * w, y * h
                quad = ((cx - side / 2, cy - side / 2), (cx + side / 2, cy - side / 2),
                        (cx + side / 2, cy + side / 2), (cx - side / 2, cy + side / 2))
                out.append(Detection(text, quad, "fake"))
        return out


def run(cards: list[tuple[str, float, float, range]], n: int,
        after: list[tuple[int, str]] | None = None) -> tuple[VisionPipeline, list[object],
                                                             list[dict[str, list[tuple[float, float]]]]]:
    source = Frames(n)
    events: list[object] = []
    saved: list[dict[str, list[tuple[float, float]]]] = []
    pipeline = VisionPipeline(source, Cards(source, cards), TrackingConfig(),
                              ZonesConfig(polygons={"pile": PILE, "seat": SEAT}), events.append,
                              resolve=lambda _payload: Info(), lockstep=True,
                              on_zones=saved.append)
    with pipeline:
        assert pipeline.wait_ended(timeout=120)
    return pipeline, events, saved


def seen(events: list[object]) -> list[tuple[str, str | None]]:
    return [(e.payload, e.zone) for e in events if isinstance(e, TagSeen)]


def test_cards_beside_the_pile_grow_nothing_a_card_on_its_stack_does() -> None:
    # A and B land just right of the pile, touching no card of it: no growth (the host
    # is asked). D lies at the pile's edge; C lands half over it: the pile takes C in.
    cards = [("A", 0.68, 0.4, range(0, 200)), ("B", 0.69, 0.55, range(10, 200)),
             ("D", 0.57, 0.5, range(20, 200)), ("C", 0.62, 0.5, range(30, 200))]
    pipeline, events, saved = run(cards, 60)
    assert seen(events) == [("A", None), ("B", None), ("D", "pile"), ("C", None)]
    assert len(saved) == 1  # saved once, when C landed on the stack
    grown = saved[0]["pile"]
    assert point_in_polygon((0.62, 0.5), grown)
    assert not point_in_polygon((0.68, 0.4), grown) and not point_in_polygon((0.69, 0.55), grown)
    assert saved[0]["seat"] == SEAT and not polygons_overlap(grown, SEAT)
    assert pipeline.zones.polygons["pile"] == grown  # the live view draws these
    assert pipeline.grown_zones() == {"pile": grown}
    assert pipeline.status()["grown"]["polygon"] == [list(p) for p in grown]
    # the card seen beside it is in it now, without another event
    assert pipeline.tracker.visible() == {"A": None, "B": None, "C": "pile", "D": "pile"}
    assert pipeline.status()["grown"]["zone"] == "pile"
    # the host undoes it: the zones as drawn, saved
    assert pipeline.undo_growth() == {"pile": PILE, "seat": SEAT}
    assert saved[-1] == {"pile": PILE, "seat": SEAT} and pipeline.grown_zones() == {}
    assert pipeline.zones.polygons["pile"] == PILE


def test_the_host_counting_a_card_grows_the_pile_never_the_seat() -> None:
    # counted, a card grows the pile only, short of the seat and never far past the
    # drawing: one nearer the seat than the pile lies in the player's area (issue 36)
    pipeline, events, saved = run([("A", 0.64, 0.5, range(0, 200)),
                                   ("B", 0.74, 0.4, range(0, 200)),
                                   ("C", 0.7, 0.55, range(0, 200))], 10)
    assert seen(events) == [("A", None), ("B", None), ("C", None)]
    assert pipeline.count_beside("B") is None  # within the gap: the pile cannot take it in
    assert pipeline.count_beside("C") is None  # past SPREAD: the player's side
    assert saved == []
    assert pipeline.count_beside("A") == "pile"
    assert saved[-1]["seat"] == SEAT
    assert max(x for x, _ in saved[-1]["pile"]) <= 0.6 + SPREAD + 1e-6


def test_the_host_counting_a_card_grows_its_nearest_zone() -> None:
    pipeline, events, saved = run([("A", 0.64, 0.5, range(0, 200))], 10)
    assert seen(events) == [("A", None)] and saved == []
    assert pipeline.count_beside() == "pile"
    assert point_in_polygon((0.64, 0.5), saved[-1]["pile"])
    assert pipeline.count_beside() is None  # counted once


def test_a_new_drawing_is_the_new_base(tmp_path: Path) -> None:
    pipeline, _events, saved = run([("A", 0.64, 0.5, range(0, 200))], 10)
    pipeline.set_zones({"pile": PILE})
    assert pipeline.grower.areas == {"pile": pytest.approx(polygon_area(PILE))}
    assert saved == []


def test_the_grown_zones_are_saved_atomically(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.commands.serve import ZONES_FILE, ZoneSaver

    monkeypatch.setenv("TABLE_COMPANION_STATE", str(tmp_path))

    class Pipeline:
        counted = 0

        def count_beside(self) -> str | None:
            self.counted += 1
            return "pile"

    pipe = Pipeline()
    saver = ZoneSaver(pipe)
    saver.save_grown({"pile": [(0.3, 0.3), (0.7, 0.3), (0.7, 0.7)]})
    assert json.loads((tmp_path / ZONES_FILE).read_text()) == {
        "pile": [[0.3, 0.3], [0.7, 0.3], [0.7, 0.7]]}
    assert [p.name for p in tmp_path.iterdir() if p.is_file()] == [ZONES_FILE]  # no temporary
    assert (tmp_path / ZONES_FILE).stat().st_mode & 0o777 == 0o600
    # a counted card reaching the camera: tests/core/test_reactions.py (any source)


def test_the_drawn_base_outlives_a_restart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A zone that grew and was saved is bounded by the host's drawing after a restart too:
    growth never compounds from one restart to the next."""
    from companion.commands.serve import (
        DRAWN_ZONES_FILE,
        ZONES_FILE,
        ZoneSaver,
        drawn_zones,
        saved_zones,
    )
    from companion.config import Config

    monkeypatch.setenv("TABLE_COMPANION_STATE", str(tmp_path))
    drawn = ZonesConfig(polygons={"pile": PILE, "seat": SEAT})
    pipeline, _events, _saved = run([("A", 0.64, 0.5, range(0, 200))], 10)
    saver = ZoneSaver(pipeline, drawn)
    pipeline.on_zones = saver.save_grown
    assert pipeline.count_beside() == "pile"
    grown = pipeline.zones.polygons["pile"]
    assert polygon_area(grown) > polygon_area(PILE)
    assert json.loads((tmp_path / DRAWN_ZONES_FILE).read_text())["pile"] == [list(p) for p in PILE]
    # a restart: the pipeline starts on the grown zones, its bound still the drawing's
    config = Config()
    restarted = VisionPipeline(Frames(1), Cards(Frames(1), []), TrackingConfig(),
                               saved_zones(config), lambda _e: None,
                               resolve=lambda _payload: Info(), lockstep=True)
    assert restarted.zones.polygons["pile"] == grown
    ZoneSaver(restarted, drawn_zones(saved_zones(config)))
    assert restarted.grower.areas["pile"] == pytest.approx(polygon_area(PILE))
    # the host draws again: that drawing is the base, the kept one goes
    saver.set_zones({"pile": PILE, "seat": SEAT})
    assert not (tmp_path / DRAWN_ZONES_FILE).exists()
    assert (tmp_path / ZONES_FILE).exists()
