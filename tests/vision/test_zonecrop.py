"""Zones decoded as full-resolution crops; the Pi camera's Y plane; pictures only while watched."""

from __future__ import annotations

import numpy as np
import pytest

from companion.config import TrackingConfig, ZonesConfig
from tests.vision.conftest import FakeClock, qr_image
from vision.decoding import default_decoder
from vision.frames import Detection, Frame, Image
from vision.pipeline import VisionPipeline
from vision.pipeview import WATCH_S
from vision.sources import yuv_frame
from vision.zonecrop import ZoneDecoder, area_share, zone_boxes

ZONES = {"pile": [(0.4, 0.4), (0.6, 0.4), (0.6, 0.6), (0.4, 0.6)],
         "seat": [(0.0, 0.8), (0.2, 0.8), (0.2, 1.0), (0.0, 1.0)]}


def test_boxes_cover_the_zones_with_a_margin() -> None:
    boxes = zone_boxes(ZONES, (1000, 500), margin=0.05)
    assert boxes == [(350, 150, 651, 351), (0, 350, 251, 500)], boxes
    assert area_share(boxes, (1000, 500)) == (301 * 201 + 251 * 150) / 500_000


def test_only_codes_in_the_zones_are_read_with_frame_corners() -> None:
    frame = np.full((1000, 2000), 255, np.uint8)
    inside, outside = qr_image("INZONE01", module=4), qr_image("OUTSIDE1", module=4)
    frame[450:450 + inside.shape[0], 950:950 + inside.shape[1]] = inside
    frame[50:50 + outside.shape[0], 1700:1700 + outside.shape[1]] = outside
    assert sorted(d.text for d in default_decoder().decode(frame)) == ["INZONE01", "OUTSIDE1"]
    found = ZoneDecoder(default_decoder(), lambda: ZONES).decode(frame)
    assert [d.text for d in found] == ["INZONE01"]
    xs = [p[0] for p in found[0].corners]
    assert 950 < min(xs) < max(xs) < 950 + inside.shape[1]  # in frame pixels, not the crop's


def test_a_code_in_two_overlapping_boxes_is_reported_once() -> None:
    frame = np.full((400, 400), 255, np.uint8)
    code = qr_image("TWICE001", module=4)
    frame[150:150 + code.shape[0], 150:150 + code.shape[1]] = code
    zones = {"a": [(0.3, 0.3), (0.7, 0.3), (0.7, 0.7)], "b": [(0.35, 0.35), (0.7, 0.35), (0.7, 0.7)]}
    assert [d.text for d in ZoneDecoder(default_decoder(), lambda: zones).decode(frame)] == [
        "TWICE001"]


def test_yuv_gives_the_y_plane_and_colour_only_when_asked() -> None:
    yuv = np.zeros((6, 4), np.uint8)  # a 4x4 I420 picture: 4 rows of Y, 2 of U and V
    yuv[:4] = 200
    yuv[4:] = 128
    gray, display = yuv_frame(yuv, 4, 4, colour=False)
    assert display is None and gray.shape == (4, 4) and (gray == 200).all()
    gray, display = yuv_frame(yuv, 4, 4, colour=True)
    assert display is not None and display.shape == (4, 4, 3)


class WatchedSource:
    """Records whether each frame was asked for with a display picture."""

    def __init__(self, n: int) -> None:
        self.n, self.i = n, 0
        self.want_display = lambda: False
        self.asked: list[bool] = []

    def read(self) -> Frame | None:
        if self.i >= self.n:
            return None
        self.asked.append(self.want_display())
        self.i += 1
        return Frame(np.zeros((10, 10), np.uint8), float(self.i), self.i - 1)

    def close(self) -> None:
        pass


class Nothing:
    name = "nothing"

    def decode(self, image: Image) -> list[Detection]:
        return []


def test_the_live_view_is_open_only_while_someone_asks() -> None:
    clock = FakeClock()
    source = WatchedSource(0)
    pipeline = VisionPipeline(source, Nothing(), TrackingConfig(), ZonesConfig(), lambda e: None,
                              clock=clock)
    assert source.want_display() is False  # the pipeline took over the hook: nobody watches
    pipeline.live_jpeg()
    assert source.want_display() is True
    clock.advance(WATCH_S + 0.1)
    assert source.want_display() is False


class FakeRequest:
    def __init__(self, yuv: Image) -> None:
        self.yuv = yuv

    def __enter__(self) -> FakeRequest:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


class FakeMapped:
    def __init__(self, request: FakeRequest, stream: str) -> None:
        assert stream == "main"
        self.array = request.yuv

    def __enter__(self) -> FakeMapped:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


class FakePicamera2:
    configured: dict[str, object] = {}

    def __init__(self) -> None:
        self.yuv = np.zeros((6, 4), np.uint8)
        self.yuv[:4] = 90

    def create_video_configuration(self, **kw: object) -> dict[str, object]:
        return kw

    def configure(self, config: dict[str, object]) -> None:
        FakePicamera2.configured = config

    def start(self) -> None:
        pass

    def captured_request(self) -> FakeRequest:
        return FakeRequest(self.yuv)

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_the_pi_camera_decodes_the_y_plane_and_colours_only_when_watched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sys
    import types

    fake = types.ModuleType("picamera2")
    fake.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    fake.MappedArray = FakeMapped  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", fake)
    from vision.sources import PiCamera2Source

    source = PiCamera2Source(4, 4, 30.0)
    frame = source.read()
    assert frame is not None and frame.display is None  # nobody watches: only the Y plane
    assert frame.image.shape == (4, 4) and (frame.image == 90).all()
    assert FakePicamera2.configured["main"] == {"size": (4, 4), "format": "YUV420"}
    assert "lores" not in FakePicamera2.configured
    source.want_display = lambda: True
    frame = source.read()
    assert frame is not None and frame.display is not None and frame.display.shape == (4, 4, 3)
    source.close()
