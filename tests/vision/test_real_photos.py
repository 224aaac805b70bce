"""The shipped decoder on real photos: each folder's read count at least as measured, no false reads."""

from __future__ import annotations

from typing import Any

import pytest

from tests.vision.realphotos import DATA, load_expectations, score
from vision.decoding import default_decoder

EXPECTED = load_expectations()

pytestmark = pytest.mark.skipif(
    not DATA.is_dir(), reason=f"the shared real photos are not at {DATA}"
)


def test_every_folder_has_an_expectation() -> None:
    folders = {p.name for p in (DATA / "zxing-cpp").iterdir() if p.is_dir()}
    assert folders == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_folder_read_rate_and_no_false_reads(name: str) -> None:
    spec: dict[str, Any] = EXPECTED[name]
    s = score(default_decoder(), DATA / spec["folder"], spec)
    assert s.false_reads == []
    assert s.total == spec["total"]
    assert s.read >= spec["min_read"], f"{name}: read {s.read}/{s.total}, expected {spec['min_read']}"


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_companion_scans_decoder_reads_at_least_as_many(name: str) -> None:
    """``companion scan`` retries every located code, pyzbar too: never fewer reads."""
    from vision.retry import RetryDecoder

    spec: dict[str, Any] = EXPECTED[name]
    s = score(RetryDecoder(report_damaged=True), DATA / spec["folder"], spec)
    assert s.false_reads == []
    assert s.read >= spec.get("scan_min_read", spec["min_read"])
