"""The benchmark's machinery on a few frames (its figures are for `companion bench vision`)."""

from __future__ import annotations

import pytest

from vision import bench


def test_scores_every_decoder_on_a_few_frames(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "SETS", ((640, 360, 8),))
    results = bench.run_frames(bench._decoders(), lambda msg: None)
    scores = results["640x360"]
    assert set(scores) == {"shipped", "zxing", "pyzbar", "opencv", "naive-pyzbar"}
    assert scores["shipped"]["frames"] == 8 and scores["opencv"]["frames"] == 2
    assert scores["shipped"]["visible"] > 8
    assert scores["shipped"]["read"] <= scores["shipped"]["visible"]
    assert all(s["false_reads"] == 0 for s in scores.values())


def test_latency_run_reports_every_figure() -> None:
    live = bench.latency_child(seconds=3.0)
    assert live["cards"] == 3 and live["seen"] == 3
    assert live["from_first_frame_ms"]["median"] is not None
    assert live["peak_rss_mb"] > 0


def test_payloads_look_like_deck_tags() -> None:
    payloads = bench.bench_payloads()
    assert len(set(payloads)) == len(payloads) == 64
    assert all(len(p) == 12 and p.isalnum() and p.upper() == p for p in payloads)
