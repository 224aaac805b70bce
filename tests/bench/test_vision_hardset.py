"""The hard benchmark set: fixed, seeded splits; hazards as stated; honest truth."""

from __future__ import annotations

import numpy as np
import pytest

from bench.vision_hardset import (
    SPLITS,
    HardTable,
    curved,
    hard_frame,
    hard_frame_hazards,
    pile_script,
)
from bench.vision_kit import bench_payloads
from vision.synthcard import card_image

PAYLOADS = bench_payloads()


def test_splits_are_fixed_and_apart() -> None:
    a = hard_frame("held", 3, PAYLOADS, 640, 360)
    b = hard_frame("held", 3, PAYLOADS, 640, 360)
    c = hard_frame("tune", 3, PAYLOADS, 640, 360)
    assert np.array_equal(a.image, b.image) and a.truth == b.truth
    assert not np.array_equal(a.image, c.image)
    assert SPLITS["held"] != SPLITS["tune"]
    with pytest.raises(ValueError, match="choose one of"):
        hard_frame("train", 0, PAYLOADS)


def test_hazards_stay_in_their_stated_ranges() -> None:
    modules, blurs = [], []
    for i in range(12):
        frame, hazards = hard_frame_hazards("tune", i, PAYLOADS)
        assert set(hazards) == {t.payload for t in frame.truth}
        modules += [h.module_px for h in hazards.values()]
        blurs += [h.blur_px for h in hazards.values()]
    assert 2.9 <= min(modules) and max(modules) <= 5.1
    assert max(blurs) <= 7.0 and any(b > 3 for b in blurs) and any(b == 0 for b in blurs)


def test_a_finger_over_a_code_makes_it_not_fully_visible() -> None:
    covered = [t for i in range(40) for t in hard_frame("tune", i, PAYLOADS, 640, 360).truth
               if t.visible < 0.999]
    assert covered  # fingers (and the frame's edge) do cover some codes


def test_a_curved_card_keeps_its_size_and_bends() -> None:
    flat = card_image("CURVE0001")
    bent = curved(flat, 0.5)
    assert bent.shape == flat.shape and not np.array_equal(bent, flat)


def test_nasty7_pace_each_card_over_the_previous() -> None:
    script = pile_script("held", 0, PAYLOADS)
    gaps = [b.at - a.at for a, b in zip(script, script[1:], strict=False)]
    assert len(script) == 21
    assert all(0.4 <= g <= 0.8 for i, g in enumerate(gaps) if (i + 1) % 7)  # not the sweeps
    near = [abs(a.position[0] - b.position[0]) for a, b in zip(script, script[1:], strict=False)
            if a.position and b.position]
    assert max(near) < 0.13  # every card lands on the pile, over the one before


def test_a_video_card_slides_in_lands_and_is_covered_by_the_next() -> None:
    table = HardTable("held", 0, PAYLOADS, width=640, height=360, realtime=False)
    play, following = table.script[0], table.script[1]
    sliding = table.render(int((play.at - 0.05) * table.fps))
    landed = table.render(round(play.at * table.fps) + 1)
    after = table.render(round((following.at + 0.1) * table.fps))
    assert len(sliding.truth) == 1 and not sliding.truth[0].landed
    assert landed.truth[0].landed
    assert [t.payload for t in after.truth] == [play.payload, following.payload]
