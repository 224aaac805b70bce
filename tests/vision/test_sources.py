from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.config import CameraConfig
from tests.vision.conftest import qr_image
from vision.sources import CameraError, FileSource, OpenCVSource, open_source, read_image
from vision.synthetic import SyntheticTable


def test_folder_of_images_in_name_order(tmp_path: Path) -> None:
    for i in (2, 1, 3):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((10, 20, 3), i * 40, np.uint8))
    (tmp_path / "notes.txt").write_text("not an image")
    source = FileSource(tmp_path)
    frames = []
    while (frame := source.read()) is not None:
        frames.append(frame)
    assert [int(f.image[0, 0, 0]) for f in frames] == [40, 80, 120]
    assert [f.index for f in frames] == [0, 1, 2]
    source.close()
    source.close()


def test_video_file_and_loop(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for i in range(4):
        writer.write(np.full((48, 64, 3), i * 50, np.uint8))
    writer.release()
    source = FileSource(path, loop=True)
    got = [source.read() for _ in range(6)]
    assert all(f is not None for f in got)
    assert [f.index for f in got if f is not None] == list(range(6))


def test_missing_file_says_what_to_fix(tmp_path: Path) -> None:
    with pytest.raises(CameraError, match="camera.path"):
        FileSource(tmp_path / "nope.mp4")


def test_unreadable_image_names_the_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"not a png at all" * 10)
    with pytest.raises(ValueError, match="bad.png"):
        read_image(bad)


def test_webp_and_tiny_images(tmp_path: Path) -> None:
    path = tmp_path / "code.webp"
    cv2.imwrite(str(path), qr_image("WEBP1"), [cv2.IMWRITE_WEBP_QUALITY, 101])
    assert read_image(path).ndim == 3
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), np.zeros((1, 1), np.uint8))
    assert read_image(tiny).shape == (1, 1, 3)


def test_absent_camera_raises_camera_error() -> None:
    source = OpenCVSource("/dev/no-such-camera")
    with pytest.raises(CameraError, match="plugged in"):
        source.read()
    source.close()


def test_open_source_synthetic_and_file(tmp_path: Path) -> None:
    synthetic = open_source(CameraConfig(source="synthetic", width=320, height=240))
    assert isinstance(synthetic, SyntheticTable)
    synthetic.close()
    with pytest.raises(CameraError, match="camera.path"):
        open_source(CameraConfig(source="file"))
