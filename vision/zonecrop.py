"""Decoding only the zones, as full-resolution crops: the cost follows zone area, not frame size.

A whole-table camera (Camera Module 3 at 2304x1296, the HQ camera at 4056x3040) gives
small codes enough pixels, but decoding every pixel of such a frame costs 3-12x a
1280x720 one. ``ZoneDecoder`` decodes only the bounding box of each zone (plus a margin,
so a code whose centre is in the zone is whole in the crop) and maps the corners back to frame pixels. Nothing is downscaled.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from vision.frames import Decoder, Detection, Image, Point
from vision.quads import overlap

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in pixels (x1, y1 exclusive)

#: how far a crop reaches beyond its zone, as a share of the frame's width
MARGIN = 0.05


def zone_boxes(polygons: Mapping[str, Sequence[Point]], size: tuple[int, int],
               margin: float = MARGIN) -> list[Box]:
    """Pixel boxes around the zones (normalised polygons) of a ``size`` frame.

    Boxes may overlap (a code in both is read twice and reported once): merging them
    into one box would grow it far beyond the zones when they sit in a ring.
    """
    w, h = size
    pad = margin * w
    boxes: list[Box] = []
    for points in polygons.values():
        xs = [p[0] * w for p in points]
        ys = [p[1] * h for p in points]
        box = (max(0, int(min(xs) - pad)), max(0, int(min(ys) - pad)),
               min(w, int(max(xs) + pad) + 1), min(h, int(max(ys) + pad) + 1))
        if box not in boxes:
            boxes.append(box)
    return boxes


def area_share(boxes: Sequence[Box], size: tuple[int, int]) -> float:
    """The share of the frame's pixels the boxes decode (an overlap counts twice)."""
    return sum((b[2] - b[0]) * (b[3] - b[1]) for b in boxes) / (size[0] * size[1])


class ZoneDecoder:
    """``decoder`` applied to each zone's crop of the frame; corners in frame pixels.

    ``polygons()`` returns the zones now (the dashboard may redraw them). With no zone,
    the whole frame is decoded.
    """

    def __init__(self, decoder: Decoder,
                 polygons: Callable[[], Mapping[str, Sequence[Point]]]) -> None:
        self.decoder, self._polygons = decoder, polygons
        self.name = f"{decoder.name}+zones"

    def decode(self, image: Image) -> list[Detection]:
        size = (image.shape[1], image.shape[0])
        polygons = self._polygons()
        if not polygons:
            return self.decoder.decode(image)
        found: list[Detection] = []
        for x0, y0, x1, y1 in zone_boxes(polygons, size):
            for d in self.decoder.decode(image[y0:y1, x0:x1]):
                moved = replace(d, corners=tuple((x + x0, y + y0) for x, y in d.corners))
                if not any(f.text == d.text and overlap(f.corners, moved.corners) for f in found):
                    found.append(moved)
        return found
