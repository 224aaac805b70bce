"""The benchmark's machinery on a few frames (its figures are for `companion bench vision`)."""

from __future__ import annotations

from bench import vision_decode as benchdecode
from bench import vision_kit as benchkit
from bench import vision_live as benchlive
from bench import vision_videos as benchvideos


def test_scores_the_shipped_decoder_against_zxing_alone() -> None:
    scores = benchdecode.run_split("held", 4, benchdecode._decoders())
    assert set(scores) == {"shipped", "zxing"}
    for s in scores.values():
        assert s["frames"] == 4 and s["visible"] >= 4
        assert s["read"] <= s["visible"] and s["false_reads"] == 0
        assert sum(int(v.split("/")[1]) for k, v in s["by_hazard"].items()
                   if k.startswith("modules")) == s["visible"]


def test_retry_variants_are_each_measured() -> None:
    from vision.retry import VARIANTS

    result = benchdecode.run_variants("tune", 3)
    assert set(result["variants"]) == {*VARIANTS, "shipped order"}
    for v in result["variants"].values():
        assert v["attempts"] == result["located_unread"] and v["rescued"] <= v["attempts"]


def test_a_video_gives_per_card_events() -> None:
    videos = benchvideos.run_videos("held", 1, {"zxing": benchdecode._decoders()["zxing"]},
                                    640, 360, cards=4)
    r = videos["zxing"]
    assert r["cards"] == 4 and r["events_exact"] <= r["cards"]
    assert r["seen_after_landing_ms"]["median"] is not None


def test_latency_run_reports_every_figure() -> None:
    live = benchlive.latency_child(seconds=3.0, realtime=False, width=640, height=360)  # lockstep
    assert live["cards"] == 3 and live["seen"] == 3 and live["dropped"] == 0
    assert live["from_first_frame_ms"]["median"] is not None
    assert live["peak_rss_mb"] > 0


def test_payloads_look_like_deck_tags() -> None:
    payloads = benchkit.bench_payloads()
    assert len(set(payloads)) == len(payloads) == 64
    assert all(len(p) == 12 and p.isalnum() and p.upper() == p for p in payloads)
