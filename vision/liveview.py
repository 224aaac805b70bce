"""The live view: a camera picture with the zones drawn and every tag outlined and labelled."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from vision.frames import Detection, Image, Point

OK_COLOUR = (60, 200, 60)  # BGR: a tag of one of our decks
UNKNOWN_COLOUR = (40, 40, 230)  # a tag that is refused ("unknown")
ZONE_COLOUR = (230, 180, 40)


def annotate(
    image: Image,
    detections: Sequence[tuple[Detection, str, bool]],
    zones: Mapping[str, Sequence[Point]],
    source_size: tuple[int, int] | None = None,
    max_width: int = 960,
) -> Image:
    """A BGR copy of ``image`` (scaled to at most ``max_width``) with zones and tags drawn.

    ``detections``: (detection, label, known) with corners in ``source_size`` pixels
    (default: the size of ``image``); ``known`` tags are green, others red.
    """
    canvas = image if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    h, w = canvas.shape[:2]
    scale = min(1.0, max_width / w)
    if scale < 1.0:
        canvas = cv2.resize(canvas, (round(w * scale), round(h * scale)),
                            interpolation=cv2.INTER_AREA)
    else:
        canvas = canvas.copy()
    out_h, out_w = canvas.shape[:2]
    # outlines only: the camera page labels each zone in words over the picture ("Ann",
    # "Discard pile"), never with its stored name ("seat:0")
    for polygon in zones.values():
        pts = np.array([(x * out_w, y * out_h) for x, y in polygon], np.int32)
        cv2.polylines(canvas, [pts], True, ZONE_COLOUR, 2)
    sw, sh = source_size or (w, h)
    fx, fy = out_w / sw, out_h / sh
    for det, label, known in detections:
        pts = np.array([(x * fx, y * fy) for x, y in det.corners], np.int32)
        colour = OK_COLOUR if known else UNKNOWN_COLOUR
        cv2.polylines(canvas, [pts], True, colour, 2)
        x, y = pts.min(axis=0)
        cv2.putText(canvas, label, (int(x), max(12, int(y) - 6)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.5, (0, 0, 0), 3)
        cv2.putText(canvas, label, (int(x), max(12, int(y) - 6)), cv2.FONT_HERSHEY_SIMPLEX,
                    0.5, colour, 1)
    return canvas


def encode_jpeg(image: Image, quality: int = 80) -> bytes:
    """``image`` as JPEG bytes."""
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError("OpenCV could not encode the live view as JPEG")
    return bytes(buf.tobytes())
