from __future__ import annotations

import numpy as np
import pytest

from tests.vision.conftest import FakeClock
from vision.decoding import default_decoder
from vision.synthetic import CardPlay, SyntheticTable, random_scene
from vision.synthrender import Renderer
from vision.synthscript import demo_script


def test_same_seed_same_pixels_and_truth(payloads: list[str]) -> None:
    a = SyntheticTable(payloads, seed=3, realtime=False).render(75)
    b = SyntheticTable(payloads, seed=3, realtime=False).render(75)
    c = SyntheticTable(payloads, seed=4, realtime=False).render(75)
    assert np.array_equal(a.image, b.image) and a.truth == b.truth
    assert not np.array_equal(a.image, c.image)


def test_script_timing_and_truth(payloads: list[str]) -> None:
    script = [CardPlay(payloads[0], at=1.0, zone="pile", removed_at=2.0)]
    table = SyntheticTable(payloads, script, fps=10, seed=1, realtime=False)
    assert table.render(5).truth == ()  # before it slides in
    sliding = table.render(8).truth  # 0.8 s: sliding in
    assert len(sliding) == 1 and not sliding[0].landed
    landed = table.render(10).truth[0]
    assert landed.fully_visible and landed.zone == "pile"
    assert table.render(20).truth == ()  # removed


def test_truth_corners_match_what_the_decoder_reads(payloads: list[str]) -> None:
    frame = random_scene(Renderer(1280, 720, seed=2), payloads, 4, seed=9)
    found = {d.text: np.array(d.corners) for d in default_decoder().decode(frame.image)}
    for truth in frame.truth:
        assert truth.payload in found
        # the same four points (the decoder may start at another corner of the code)
        got = found[truth.payload]
        for point in np.array(truth.corners):
            assert np.min(np.linalg.norm(got - point, axis=1)) < 6


def test_a_covered_tag_is_not_fully_visible(payloads: list[str]) -> None:
    script = [CardPlay(payloads[0], at=0.0, position=(0.5, 0.5), angle=0, slide_s=0.01),
              CardPlay(payloads[1], at=0.5, position=(0.5, 0.55), angle=0, slide_s=0.01)]
    table = SyntheticTable(payloads, script, fps=10, seed=1, realtime=False)
    under, top = table.render(10).truth
    assert under.payload == payloads[0] and under.visible < 0.5
    assert top.fully_visible


def test_off_frame_tag_is_not_fully_visible(payloads: list[str]) -> None:
    script = [CardPlay(payloads[0], at=0.0, position=(0.99, 0.5), slide_s=0.01)]
    truth = SyntheticTable(payloads, script, fps=10, realtime=False).render(5).truth[0]
    assert truth.visible < 0.9


def test_frame_source_paces_and_ends(payloads: list[str]) -> None:
    clock = FakeClock()
    table = SyntheticTable(payloads, [CardPlay(payloads[0], at=0.1)], fps=20, width=320,
                           height=240, realtime=True, clock=clock, sleep=clock.sleep)
    frames = []
    while (frame := table.read()) is not None:
        frames.append(frame)
    assert frames[0].image.shape == (240, 320, 3)
    assert [f.index for f in frames] == list(range(len(frames)))
    # paced exactly at 20 fps on the injected clock: frame i is captured at start + i / 20
    assert [f.at for f in frames] == pytest.approx([100.0 + i / 20 for i in range(len(frames))])
    assert len(frames) == int(table.duration * 20) + 1
    assert table.captured[frames[3].index] == frames[3].at


def test_a_slow_reader_skips_frames_like_a_camera(payloads: list[str]) -> None:
    clock = FakeClock()
    table = SyntheticTable(payloads, fps=10, width=160, height=120, realtime=True,
                           clock=clock, sleep=clock.sleep)
    first = table.read()
    clock.advance(0.35)  # the reader was busy for three and a half frame periods
    second = table.read()
    assert first is not None and second is not None
    assert (first.index, second.index) == (0, 3)
    assert second.at == pytest.approx(100.35)  # late frames are delivered at once, no wait


def test_without_realtime_frame_times_follow_the_index(payloads: list[str]) -> None:
    table = SyntheticTable(payloads, fps=25, width=160, height=120, realtime=False,
                           clock=FakeClock(7.0))
    frames = [table.read() for _ in range(4)]
    assert [f.at for f in frames if f is not None] == [7.0, 7.04, 7.08, 7.12]


def test_close_ends_the_feed(payloads: list[str]) -> None:
    table = SyntheticTable(payloads, fps=30, width=320, height=240, loop=True)
    assert table.read() is not None
    table.close()
    assert table.read() is None


def test_demo_script_clears_the_pile() -> None:
    script = demo_script([f"P{i}" for i in range(8)], interval=1.0, pile_size=7)
    assert [p.removed_at for p in script[:7]] == [7.5] * 7
    assert script[7].removed_at == 14.5


def test_needs_payloads() -> None:
    with pytest.raises(ValueError, match="payloads"):
        SyntheticTable([])


def test_a_lamps_pool_brightens_the_table_and_leaves_print_dark(payloads: list[str]) -> None:
    from vision.synthetic import Patch

    script = [CardPlay(payloads[0], at=0.0, position=(0.5, 0.5), angle=0, tag_px=100,
                       slide_s=0.01)]
    plain = SyntheticTable(payloads, script, seed=2, realtime=False).render(3)
    lamp = Patch("lamp", 0.0, 9.0, (0.5, 0.5), 0.3, 1.0)
    lit = SyntheticTable(payloads, script, seed=2, realtime=False, patches=[lamp]).render(3)
    (x0, y0), _, (x1, y1), _ = np.array(lit.truth[0].corners).astype(int)
    centre = (slice(300, 420), slice(400, 480))  # the table left of the card
    assert lit.image[centre].mean() > 1.6 * plain.image[centre].mean()
    assert np.percentile(lit.image[y0:y1, x0:x1], 5) < 60  # black print stays dark
    assert payloads[0] in {d.text for d in default_decoder().decode(lit.image)}
    assert lit.truth == plain.truth


def test_a_weak_glare_veils_without_washing_out(payloads: list[str]) -> None:
    from vision.synthetic import Patch

    strong = Patch("glare", 0.0, 9.0, (0.5, 0.5), 0.08)
    weak = Patch("glare", 0.0, 9.0, (0.5, 0.5), 0.08, 0.7)
    a = SyntheticTable(payloads, [], seed=2, realtime=False, patches=[strong]).render(3)
    b = SyntheticTable(payloads, [], seed=2, realtime=False, patches=[weak]).render(3)
    assert a.image[360, 640].min() == 255
    assert 150 < b.image[360, 640].max() < 200


def test_options_left_alone_render_as_before(payloads: list[str]) -> None:
    """Options were added to ``Patch``; a scene with none of them is the same pixels as
    before they were (the digest was taken from the renderer before the change)."""
    import hashlib

    from vision.synthetic import Bump, Patch

    cards = [f"K7Q2M9XH{i:04d}" for i in range(8)]
    table = SyntheticTable(cards, seed=3, realtime=False,
                           patches=[Patch("glare", 0, 9, (0.6, 0.6), 0.07),
                                    Patch("hand", 1, 2, (0.4, 0.5))],
                           table=(0.08, 0.1, 0.92, 0.9), bumps=[Bump(2.0, (30.0, 10.0), 1.0)])
    pixels = b"".join(table.render(i).image.tobytes() for i in (10, 45, 80))
    assert hashlib.sha256(pixels).hexdigest() == \
        "a6cac5c47e4b78b9f3af2c7eed757c89d5b208e9f78ba5dd187f7aeca0b0b0e0"
