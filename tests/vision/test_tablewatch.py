"""A knocked camera (``vision.tablewatch`` and the pipeline): synthetic frames of a table
whose camera is knocked after the zones were drawn; every frame rendered from a seed, no
clock and no timing."""

from __future__ import annotations

import numpy as np
import pytest

from companion.config import TrackingConfig, ZonesConfig
from vision.frames import Frame
from vision.pipeline import VisionPipeline
from vision.synthetic import Bump, CardPlay, SyntheticTable
from vision.tablewatch import EVERY, MOVED, TableWatch

PILE = [(0.3, 0.25), (0.7, 0.25), (0.7, 0.75), (0.3, 0.75)]
SEAT = [(0.75, 0.3), (0.95, 0.3), (0.95, 0.7), (0.75, 0.7)]
TABLE = (0.08, 0.1, 0.92, 0.9)
PAYLOADS = [f"K7Q2M9XH{i:04d}" for i in range(8)]


def table(seed: int, bump: Bump | None, edge: tuple[float, float, float, float] = TABLE
          ) -> SyntheticTable:
    script = [CardPlay(p, at=0.3 + 0.5 * i, zone="pile") for i, p in enumerate(PAYLOADS[:6])]
    return SyntheticTable(PAYLOADS, script, seed=seed, realtime=False, table=edge,
                          zones={"pile": PILE}, bumps=[] if bump is None else [bump])


def pixels(polygon: list[tuple[float, float]]) -> np.ndarray:
    return np.array([(x * 1280, y * 720) for x, y in polygon])


def moved_by(m: np.ndarray, polygon: list[tuple[float, float]]) -> np.ndarray:
    pts = np.c_[pixels(polygon), np.ones(len(polygon))] @ m.T
    out: np.ndarray = pts[:, :2] / pts[:, 2:]
    return out


@pytest.mark.parametrize(("seed", "shift", "angle"), [
    (11, (50.0, 0.0), 1.5), (12, (-80.0, 60.0), -3.0), (13, (110.0, -30.0), 2.2),
    (15, (-100.0, -50.0), -2.0)])
def test_a_knocked_camera_is_followed(seed: int, shift: tuple[float, float], angle: float) -> None:
    scene = table(seed, Bump(2.0, shift, angle))
    watch = TableWatch()
    watch.reference(scene.render(45).image)  # the zones drawn with three cards on the pile
    found = watch.check(scene.render(120).image, [PILE])  # knocked, six cards on the pile
    assert found.state == "followed"
    truth = scene.bump(4.0)
    assert truth is not None
    err = np.abs(moved_by(found.transform, PILE) - moved_by(truth, PILE)).max()
    assert err < 3.0  # the zones follow the table within a few pixels
    assert found.turn_deg == pytest.approx(-angle, abs=0.2)


def test_a_still_camera_is_steady_while_cards_land() -> None:
    scene = table(14, None)
    watch = TableWatch()
    watch.reference(scene.render(45).image)
    for i in (90, 120, 150):
        found = watch.check(scene.render(i).image, [PILE])
        assert found.state == "steady" and found.shift_px < 1.5


def test_a_scene_with_no_match_is_reported_after_two_misses() -> None:
    watch = TableWatch()
    watch.reference(table(16, None).render(45).image)
    other = table(17, None, (0.05, 0.15, 0.9, 0.95))  # another table: nothing matches
    assert watch.check(other.render(45).image, [PILE]).state == "moved"  # no state yet: said
    watch.reference(table(16, None).render(45).image)
    assert watch.check(table(16, None).render(60).image, [PILE]).state == "steady"
    assert watch.check(other.render(60).image, [PILE]).state == "steady"  # one miss: an arm?
    lost = watch.check(other.render(61).image, [PILE])
    assert lost.state == "moved" and lost.to_json()["sentence"] == MOVED


class Frames:
    """The scene's frames ``indices`` in order (frame time from the index)."""

    def __init__(self, scene: SyntheticTable, indices: list[int]) -> None:
        self.scene, self.indices = scene, list(indices)

    def read(self) -> Frame | None:
        if not self.indices:
            return None
        i = self.indices.pop(0)
        return Frame(self.scene.render(i).image, i / 30, i)

    def close(self) -> None:
        pass


class NoCodes:
    name = "none"

    def decode(self, image: np.ndarray) -> list[object]:
        return []


def run(scene: SyntheticTable, indices: list[int]) -> tuple[VisionPipeline, list[object]]:
    saved: list[object] = []
    pipeline = VisionPipeline(Frames(scene, indices), NoCodes(), TrackingConfig(),  # type: ignore[arg-type]
                              ZonesConfig(polygons={"pile": PILE, "seat": SEAT}),
                              lambda _e: None, lockstep=True, on_zones=saved.append)
    with pipeline:
        assert pipeline.wait_ended(timeout=120)  # a safety net, never a measurement
    return pipeline, saved


def test_the_pipelines_zones_move_with_the_table() -> None:
    scene = table(18, Bump(2.0, (-70.0, 40.0), 2.5))
    # the first frame is the reference; the table is looked at every EVERY frames
    pipeline, saved = run(scene, [45] + [120] * EVERY)
    truth = scene.bump(4.0)
    assert truth is not None
    assert pipeline.status()["table"]["state"] == "followed"
    for name, drawn in (("pile", PILE), ("seat", SEAT)):
        now = pixels(pipeline.zones.polygons[name])
        assert np.abs(now - moved_by(truth, drawn)).max() < 3.0
    assert saved and saved[-1] == pipeline.zones.polygons
    assert MOVED not in pipeline.status()["check"]["warnings"]


def test_the_pipeline_says_the_camera_moved_and_leaves_the_zones() -> None:
    other = table(20, None, (0.05, 0.15, 0.9, 0.95))
    frames = [(table(19, None), 45)] + [(other, 60 + i) for i in range(3 * EVERY)]

    class Mixed(Frames):
        def read(self) -> Frame | None:
            if not frames:
                return None
            scene, i = frames.pop(0)
            return Frame(scene.render(i).image, i / 30, i)

    saved: list[object] = []
    pipeline = VisionPipeline(Mixed(other, []), NoCodes(), TrackingConfig(),  # type: ignore[arg-type]
                              ZonesConfig(polygons={"pile": PILE, "seat": SEAT}),
                              lambda _e: None, lockstep=True, on_zones=saved.append)
    with pipeline:
        assert pipeline.wait_ended(timeout=120)
    status = pipeline.status()
    assert status["table"]["state"] == "moved" and status["table"]["sentence"] == MOVED
    assert status["check"]["level"] == "red" and status["check"]["warnings"][0] == MOVED
    assert pipeline.zones.polygons == {"pile": PILE, "seat": SEAT} and saved == []


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_a_still_camera_over_a_plain_table_never_moves_while_cards_land(seed: int) -> None:
    """A plain tablecloth (no edge in view: ECC has little to lock on to), the camera never
    touched, cards landing every 0.4 s: with the zones drawn the table is steady at every
    check (never "moved", never "followed" a few pixels); with none drawn yet there is
    nothing to follow and nothing to draw again. Found on the camera page's test rig."""
    script = [CardPlay(p, at=0.3 + 0.4 * i, zone="pile") for i, p in enumerate(PAYLOADS)]
    scene = SyntheticTable(PAYLOADS, script, width=960, height=540, fps=10, seed=seed,
                           realtime=False, zones={"pile": PILE})
    for zones in ([PILE], []):
        watch = TableWatch()
        watch.reference(scene.render(0).image)
        found = [watch.check(scene.render(i).image, zones) for i in range(5, 60, 5)]
        assert {f.state for f in found} == {"steady"}, [(f.state, f.score) for f in found]


@pytest.mark.parametrize(("seed", "shift", "angle"), [
    (32, (-39.6, 35.6), -2.1), (38, (14.5, 101.2), 2.8), (40, (-73.9, 31.1), -1.8),
    (41, (24.0, -65.2), -2.0)])
def test_a_knock_is_still_followed_once_the_pile_holds_many_cards(
        seed: int, shift: tuple[float, float], angle: float) -> None:
    """Issue 36's conditions: the knocked camera was followed while the pile held a few
    cards, then lost (ECC's mask is the new frame's: it left the moved pile in, and a
    growing pile was compared with the bare table). Checked every ``EVERY`` frames, as
    the pipeline does, until ten cards lie on the pile. Knocks from a sweep of twelve
    (seeds 31-42, 50-110 px, 1.5-3 degrees): before, none was followed at the end and
    eight were lost once the pile grew; now eight are followed at the end (these four
    among them), none wrongly; the others are reported moved (the host is told)."""
    pile = [(0.3, 0.25), (0.6, 0.25), (0.6, 0.75), (0.3, 0.75)]
    script = [CardPlay(p, at=0.5 + 0.45 * i, position=(0.38 + 0.02 * (i % 7),
                                                        0.35 + 0.04 * (i % 8)))
              for i, p in enumerate([*PAYLOADS, *PAYLOADS[:2]])]
    scene = SyntheticTable(PAYLOADS, script, seed=seed, realtime=False,
                           table=(0.04, 0.06, 0.96, 0.94), zones={"pile": pile},
                           bumps=[Bump(1.2, shift, angle)])
    truth = scene.bump(9.0)
    assert truth is not None
    watch = TableWatch()
    watch.reference(scene.render(0).image)
    states = []
    for i in range(45, int(scene.duration * 30), EVERY):
        found = watch.check(scene.render(i).image, [pile])
        err = np.abs(moved_by(found.transform, pile) - moved_by(truth, pile)).max()
        states.append((found.state, round(float(err), 1)))
    assert states[-1][0] == "followed" and states[-1][1] < 5.0, states
    assert all(s == "moved" or e < 5.0 for s, e in states), states  # never a wrong follow


@pytest.mark.parametrize(("turn", "shift", "followed"), [
    (37.0, (0.0, 0.0), False),  # tuning glare 554: ECC turned the table 37 degrees
    (0.0, (400.0, 0.0), False),  # a third of the frame away
    (2.5, (90.0, -40.0), True),  # a knock
], ids=["turned 37 degrees", "moved 400 px", "a knock"])
def test_a_match_no_knock_could_make_is_no_match(
        monkeypatch: pytest.MonkeyPatch, turn: float, shift: tuple[float, float],
        followed: bool) -> None:
    """Round 14, tuning glare 554: over a plain table a card flying in gave ECC a match
    (correlation over ``MATCH``) that turned the table 37 degrees; for half a second the
    pile's zone lay off the pile, and a card that landed then was never seen. A match a
    knock could not make (``TURN_DEG``, ``SHIFT``) is a miss: one is outlived (the last
    state holds), two in a row say the camera moved, and the zones never follow it."""
    import math

    import vision.tablewatch as tablewatch

    scene = table(12, Bump(2.0, (-80.0, 60.0), -3.0))  # knocked: ECC is asked
    watch = TableWatch()
    watch.reference(scene.render(45).image)
    scale = 1280 / tablewatch.WIDTH
    c, s_ = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    motion = np.array([[c, -s_, shift[0] / scale], [s_, c, shift[1] / scale], [0, 0, 1.0]])
    monkeypatch.setattr(tablewatch, "register", lambda *a, **k: (motion, 0.95))
    first = watch.check(scene.render(120).image, [PILE])
    second = watch.check(scene.render(135).image, [PILE])
    if followed:
        assert first.state == second.state == "followed"
        assert first.turn_deg == pytest.approx(turn, abs=0.01)
    else:
        assert watch.last is not None and second.state == "moved"
        assert np.allclose(second.transform, np.eye(3))
        assert first.state != "followed"
