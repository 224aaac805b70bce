"""Frame sources behind one small interface: cameras, files and (in ``synthetic``) a fake table.

A ``FrameSource`` opens on demand: ``read()`` opens the device if needed and returns the
next ``Frame``, ``None`` at the end of a file (or once closed), and raises
``CameraError`` when a camera fails. After an error the caller may ``close()`` and
``read()`` again later: that reopens the device (the pipeline retries with backoff).
``close()`` is safe twice. ``cv2`` and ``picamera2`` are imported inside the adapters.
``Frame`` and ``FrameSource`` live in ``vision.frames`` (re-exported here); the synthetic
table is imported only by ``open_source``, so ``vision.synthetic`` never imports this module.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from vision.frames import Frame, FrameSource, Image

if TYPE_CHECKING:
    from companion.config import CameraConfig

__all__ = [
    "IMAGE_SUFFIXES",
    "CameraError",
    "Clock",
    "FileSource",
    "Frame",
    "FrameSource",
    "Image",
    "OpenCVSource",
    "PiCamera2Source",
    "image_size",
    "iter_video",
    "open_source",
    "read_image",
    "yuv_frame",
]

Clock = Callable[[], float]

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp")


class CameraError(RuntimeError):
    """A camera that cannot be opened or stopped delivering frames; says what to check."""


class OpenCVSource:
    """A USB/V4L2 camera through ``cv2.VideoCapture`` at the configured size and fps."""

    def __init__(self, device: int | str = 0, width: int = 1280, height: int = 720,
                 fps: float = 30.0, clock: Clock = time.monotonic) -> None:
        self.device, self.width, self.height, self.fps = device, width, height, fps
        self._clock = clock
        self._cap: Any = None
        self._index = 0

    def _open(self) -> Any:
        import cv2

        cap = cv2.VideoCapture(self.device)
        if not cap.isOpened():
            cap.release()
            raise CameraError(
                f"cannot open camera {self.device!r}: check that it is plugged in "
                "(`ls /dev/video*`) and that no other program is using it"
            )
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        cap.set(cv2.CAP_PROP_FPS, self.fps)
        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not a stale queue
        return cap

    def read(self) -> Frame | None:
        if self._cap is None:
            self._cap = self._open()
        ok, image = self._cap.read()
        at = self._clock()
        if not ok or image is None:
            raise CameraError(
                f"camera {self.device!r} stopped delivering frames: check its cable; "
                "the table keeps retrying"
            )
        self._index += 1
        return Frame(image, at, self._index - 1)

    def close(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class PiCamera2Source:
    """The Raspberry Pi camera (Camera Module 3, HQ camera): one ``width`` x ``height``
    YUV420 stream; its Y plane is what is decoded (no colour conversion, one copy).

    Camera Module 3 sensor modes: 1536x864 (120 fps), 2304x1296 (56 fps), 4608x2592
    (14 fps); HQ camera: 2028x1080 (50 fps), 2028x1520 (40 fps), 4056x3040 (10 fps).
    libcamera picks the smallest mode that covers the size asked for. A full-size colour
    picture for the live view (``Frame.display``) is made only while ``want_display()``
    says someone watches (``VisionPipeline`` sets it); otherwise nothing else is copied.
    ``picamera2`` is imported only here.
    """

    def __init__(self, width: int = 1280, height: int = 720, fps: float = 30.0,
                 clock: Clock = time.monotonic) -> None:
        self.width, self.height, self.fps = width, height, fps
        self._clock = clock
        self._cam: Any = None
        self._index = 0
        self.want_display: Callable[[], bool] = lambda: False

    def _open(self) -> Any:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError(
                "picamera2 is not available: on Raspberry Pi OS run "
                "`sudo apt-get install python3-picamera2` (the venv must see system packages)"
            ) from exc
        try:
            cam = Picamera2()
            config = cam.create_video_configuration(
                main={"size": (self.width, self.height), "format": "YUV420"},
                controls={"FrameRate": self.fps}, buffer_count=4,
            )
            cam.configure(config)
            cam.start()
        except Exception as exc:  # libcamera raises plain RuntimeError/IndexError
            raise CameraError(f"cannot start the Pi camera ({exc}): check its ribbon cable") from exc
        return cam

    def read(self) -> Frame | None:
        if self._cam is None:
            self._cam = self._open()
        from picamera2 import MappedArray

        try:
            with self._cam.captured_request() as request:
                at = self._clock()
                with MappedArray(request, "main") as mapped:
                    yuv = mapped.array  # the camera's buffer: copy only what is used
                    gray, display = yuv_frame(yuv, self.width, self.height, self.want_display())
        except Exception as exc:
            raise CameraError(f"the Pi camera stopped delivering frames ({exc})") from exc
        self._index += 1
        return Frame(gray, at, self._index - 1, display=display)

    def close(self) -> None:
        if self._cam is not None:
            try:
                self._cam.stop()
                self._cam.close()
            finally:
                self._cam = None


def yuv_frame(yuv: Image, width: int, height: int, colour: bool) -> tuple[Image, Image | None]:
    """From a YUV420 (I420) buffer: a copy of its Y plane, and a BGR picture if ``colour``.

    The buffer's rows may be padded (stride > width): only ``width`` columns are kept.
    """
    gray: Image = np.ascontiguousarray(yuv[:height, :width])
    if not colour:
        return gray, None
    import cv2

    if yuv.shape[1] != width:  # padded rows interleave the chroma planes: show the Y plane
        grey: Image = cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)
        return gray, grey
    i420 = np.ascontiguousarray(yuv[: height * 3 // 2])
    bgr: Image = cv2.cvtColor(i420, cv2.COLOR_YUV2BGR_I420)
    return gray, bgr


def _image_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)


#: the largest picture decoded, in pixels: a 4608x2592 camera frame is 12 MP, a phone photo
#: up to 50 MP; the header is checked first, so a file that only claims more costs nothing
MAX_PIXELS = 64_000_000


def image_size(path: Path) -> tuple[int, int] | None:
    """(width, height) from the file's header, without decoding it; None if unknown.

    ``ValueError`` when the header claims more than Pillow will open at all.
    """
    import warnings

    from PIL import Image as PILImage

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PILImage.DecompressionBombWarning)
            with PILImage.open(path) as im:
                width, height = im.size
                return int(width), int(height)
    except PILImage.DecompressionBombError as exc:
        raise ValueError(_too_large(path, None)) from exc
    except (OSError, ValueError, SyntaxError):  # not a format Pillow knows: OpenCV decides
        return None


def _too_large(path: Path, size: tuple[int, int] | None) -> str:
    claim = f"{size[0]}x{size[1]} pixels" if size else "far more pixels than a photo"
    return (f"{path} is too large to read ({claim}; the limit is "
            f"{MAX_PIXELS // 1_000_000} megapixels): scale it down first")


def read_image(path: Path) -> Image:
    """An image file as a BGR array; ``ValueError`` naming the file when it cannot be read.

    The pixel count in the header is checked against ``MAX_PIXELS`` before decoding.
    """
    import cv2

    size = image_size(path)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise ValueError(_too_large(path, size))
    data = np.fromfile(str(path), dtype=np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size >= 64 else None
    if image is None:
        image = _read_with_pillow(path)  # e.g. tiny WebP files OpenCV refuses
    if image is None:
        raise ValueError(f"{path} is not an image that can be read (jpg, png, webp)")
    out: Image = image
    return out


def _read_with_pillow(path: Path) -> Image | None:
    try:
        from PIL import Image as PILImage
    except ImportError:
        return None
    try:
        with PILImage.open(path) as im:
            rgb = np.asarray(im.convert("RGB"))
    except (OSError, ValueError):
        return None
    out: Image = np.ascontiguousarray(rgb[:, :, ::-1])
    return out


def iter_video(path: Path) -> Iterator[Image]:
    """Every frame of a video file; ``ValueError`` when it cannot be opened."""
    import cv2

    cap = cv2.VideoCapture(str(path))
    if not cap.isOpened():
        raise ValueError(f"{path} is not a video OpenCV can open (mp4, mkv, avi, webm)")
    try:
        while True:
            ok, image = cap.read()
            if not ok:
                return
            yield image
    finally:
        cap.release()


class FileSource:
    """A video file, one image or a folder of images, optionally paced at ``fps``.

    ``loop`` starts again at the end (a demo feed); otherwise ``read()`` returns None.
    """

    def __init__(self, path: str | Path, fps: float | None = None, loop: bool = False,
                 clock: Clock = time.monotonic) -> None:
        self.path = Path(path)
        if not self.path.exists():
            raise CameraError(f"camera file {self.path} does not exist: fix camera.path")
        self.fps, self.loop = fps, loop
        self._clock = clock
        self._frames: Iterator[Image] | None = None
        self._index = 0
        self._last: float | None = None
        self._closed = threading.Event()

    def _iterate(self) -> Iterator[Image]:
        if self.path.is_dir():
            return (read_image(p) for p in _image_files(self.path))
        if self.path.suffix.lower() in IMAGE_SUFFIXES:
            return iter([read_image(self.path)])
        return iter_video(self.path)

    def read(self) -> Frame | None:
        if self._closed.is_set():
            return None
        if self._frames is None:
            self._frames = self._iterate()
        image = next(self._frames, None)
        if image is None and self.loop and self._index > 0:
            self._frames = self._iterate()
            image = next(self._frames, None)
        if image is None:
            return None
        if self.fps and self._last is not None:
            wait = self._last + 1 / self.fps - self._clock()
            if wait > 0 and self._closed.wait(wait):
                return None
        self._last = at = self._clock()
        self._index += 1
        return Frame(image, at, self._index - 1)

    def close(self) -> None:
        self._closed.set()


def open_source(config: CameraConfig, payloads: list[str] | None = None) -> FrameSource:
    """The frame source ``config`` names ("auto": a Pi camera, else V4L2, else synthetic).

    ``payloads`` are the tags a synthetic table plays (the demo deck).
    """
    kind = config.source
    if kind == "auto":
        from companion.hwprobe import has_camera

        kind = "opencv" if has_camera() else "synthetic"
        if kind == "opencv" and Path("/dev/video0").exists() is False:
            kind = "picamera2"
    if kind == "opencv":
        return OpenCVSource(config.device, config.width, config.height, config.fps)
    if kind == "picamera2":
        return PiCamera2Source(config.width, config.height, config.fps)
    if kind == "file":
        if not config.path:
            raise CameraError("camera.source is 'file' but camera.path is not set: set it")
        return FileSource(config.path, fps=config.fps, loop=True)
    from vision.synthetic import SyntheticTable

    demo = payloads or [f"DEMO{i:04d}" for i in range(1, 22)]
    return SyntheticTable(demo, width=config.width, height=config.height, fps=config.fps,
                          loop=True)
