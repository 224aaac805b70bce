"""Sliding cards: finding a motion-blurred code zxing-cpp did not locate, and sharpening it.

A card slid onto the pile is smeared along its motion. At 3 px modules a 6 px smear wipes
out the finder patterns' 1:1:3:1:1 rhythm along that direction, so zxing-cpp often does not
even *locate* the code, and no crop of a located code can help. Two steps rescue it:

1. **Where.** ``code_blobs`` finds code-sized patches full of edges (a QR code is the
   densest texture on a card table): the morphological gradient of the half-size frame,
   averaged over a few modules, thresholded at three levels (so a code touching a busy
   neighbour separates at a higher one); blobs of a code's size and squareness are kept.
2. **How.** ``blur_direction`` reads the smear's direction from the patch's gradients (a
   motion blur removes gradients along the motion: the structure tensor's weakest
   direction) and how one-sided they are (``anisotropy``: 1 for a sharp code, whose module
   edges run both ways; lower for a smeared one). Only a patch within ``ANISOTROPY`` is
   sharpened: ``wiener`` undoes a ``LENGTH`` px line blur along that direction (a Wiener
   filter, noise-to-signal ``NSR``), and zxing-cpp reads the result upscaled 2x.

A sharp patch costs one structure tensor (about 0.05 ms); a smeared one one Wiener filter
and one zxing-cpp call on the crop (about 0.5 ms). The constants were chosen on the tuning
split of ``companion bench vision`` (``bench.vision_hardset``), never on the held-apart one.
Nothing here guesses a text: zxing-cpp's error correction decides whether a code was read.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.frames import Corners, Image

#: the line blur undone (pixels): the middle of the smears that defeat zxing-cpp (4-7 px)
LENGTH = 5.5
#: the smear lengths looked for (px): shorter ones zxing-cpp reads through
LENGTHS = (3, 9)
#: how far (degrees) the smear's direction is looked for around the structure tensor's
TURN = 15
#: the Wiener filter's noise-to-signal ratio (higher: less ringing, less sharpening)
NSR = 0.03
#: a patch is sharpened only when its weakest gradient direction has this share of the
#: strongest one's energy: sharp codes have 0.65-1.0, smeared ones 0.13-0.6 (a code
#: smeared along its own grid the least), a patch that is one straight edge (a card's
#: border, a finger) under 0.1
ANISOTROPY = (0.1, 0.62)
#: edge density thresholds (mean 3x3 gradient of the half-size frame, 0-255)
LEVELS = (60, 90, 120)
#: a code's patch is edge-dense all over: its mean density is at least this
DENSE = 60
#: a code patch's side in full-frame pixels: 21 modules of 2-7 px, tilted
MIN_SIDE, MAX_SIDE = 35, 160
#: a patch's bounding box is at most this much longer than wide
SQUARENESS = 2.0


def code_blobs(gray: Image) -> list[Corners]:
    """Code-sized, edge-dense patches of ``gray`` (axis-aligned outlines, frame pixels)."""
    if min(gray.shape[:2]) < MIN_SIDE:
        return []  # no code-sized patch fits
    half = cv2.resize(gray, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    edges = cv2.morphologyEx(half, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    # averaged down to a quarter of the frame, then over ~2 modules more: edge density
    density = cv2.blur(cv2.resize(edges, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA),
                       (5, 5))
    boxes: list[tuple[int, int, int, int]] = []
    lo, hi = (MIN_SIDE // 4) ** 2, (MAX_SIDE // 4) ** 2
    for level in LEVELS:
        mask = cv2.threshold(density, level, 255, cv2.THRESH_BINARY)[1]
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            x, y, w, h = cv2.boundingRect(c)
            if not lo <= w * h <= hi or max(w, h) > SQUARENESS * min(w, h):
                continue
            if float(density[y:y + h, x:x + w].mean()) < DENSE:
                continue  # a few strong edges (a card's corner, its picture), not a code
            if any(_shared(x, y, w, h, b) > 0.6 * min(w * h, b[2] * b[3]) for b in boxes):
                continue  # the same patch, found again at a higher level
            boxes.append((x, y, w, h))
    return [((4.0 * x, 4.0 * y), (4.0 * (x + w), 4.0 * y), (4.0 * (x + w), 4.0 * (y + h)),
             (4.0 * x, 4.0 * (y + h))) for x, y, w, h in boxes]


def _shared(x: int, y: int, w: int, h: int, b: tuple[int, int, int, int]) -> int:
    bx, by, bw, bh = b
    return max(0, min(x + w, bx + bw) - max(x, bx)) * max(0, min(y + h, by + bh) - max(y, by))


def look(patch: Image) -> tuple[str, float, float]:
    """What ``patch`` is by its anisotropy (``"edge"``, ``"smeared"`` or ``"sharp"``), the
    smear's direction (radians) and the anisotropy."""
    angle, anisotropy = blur_direction(patch)
    lo, hi = ANISOTROPY
    kind = "edge" if anisotropy < lo else "smeared" if anisotropy <= hi else "sharp"
    return kind, angle, anisotropy


def blur_direction(crop: Image) -> tuple[float, float]:
    """The smear's direction (radians, image axes) and the patch's anisotropy (0-1)."""
    if min(crop.shape[:2]) < 3:
        return 0.0, 0.0  # too small to say: treated as an edge, never sharpened
    gx = cv2.Sobel(crop, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(crop, cv2.CV_32F, 0, 1, ksize=3)
    a, b, d = float(np.vdot(gx, gx)), float(np.vdot(gy, gy)), float(np.vdot(gx, gy))
    r = math.hypot((a - b) / 2, d)
    strongest = (a + b) / 2 + r
    if strongest <= 0:
        return 0.0, 0.0  # a flat patch: nothing to sharpen (an "edge", never tried)
    return 0.5 * math.atan2(2 * d, a - b) + math.pi / 2, ((a + b) / 2 - r) / strongest


def blur_length(patch: Image, angle: float) -> tuple[float, float]:
    """The smear's direction and length (px): the cepstrum's deepest dip near ``angle``.

    A line blur of length L multiplies the spectrum by a sinc with zeros every 1/L; in
    the cepstrum (the inverse transform of the log spectrum) that shows as a negative
    peak L pixels from the origin, along the smear. The structure tensor's direction
    (``blur_direction``) is pulled a few degrees towards the code's own grid, so the dip
    is looked for within ``TURN`` degrees of it, lengths in 0.5 px steps.
    """
    p = patch.astype(np.float32)
    p -= float(p.mean())
    h, w = p.shape
    p *= np.outer(np.hanning(h), np.hanning(w)).astype(np.float32)
    spectrum = cv2.dft(p, flags=cv2.DFT_COMPLEX_OUTPUT)
    log = np.log(cv2.magnitude(spectrum[..., 0], spectrum[..., 1]) + 1e-3)
    cepstrum = cv2.idft(np.dstack([log, np.zeros_like(log)]),
                        flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE)
    turns = np.radians(np.arange(-TURN, TURN + 1, 5.0))[:, None] + angle
    radii = np.arange(2 * LENGTHS[0], 2 * LENGTHS[1] + 1)[None, :] / 2.0
    xs, ys = (radii * np.cos(turns)) % w, (radii * np.sin(turns)) % h
    dips = cv2.remap(cepstrum, xs.astype(np.float32), ys.astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_WRAP)
    i, j = np.unravel_index(int(np.argmin(dips)), dips.shape)
    return float(turns[i, 0]), float(radii[0, j])


def smears(patch: Image, angle: float) -> list[tuple[float, float]]:
    """Guesses at the smear (direction, length) of a patch whose tensor direction is ``angle``.

    Best first, as chosen on the tuning split: the cepstrum's direction at ``LENGTH``, the
    tensor's direction turned 5 degrees at 6 px, the cepstrum's own direction and length.
    """
    turn, length = blur_length(patch, angle)
    return [(turn, LENGTH), (angle - math.radians(5), 6.0), (turn, length - 0.5)]


def line_psf(length: float, angle: float, shape: tuple[int, int]) -> np.ndarray:
    """A ``length`` px line blur along ``angle``, anti-aliased, centred on (0, 0), wrapped."""
    s = 4  # drawn at 4x, then averaged down: sub-pixel lengths and angles
    n = int(length * s) + 2 * s + 1
    big = np.zeros((n, n), np.float32)
    c = n // 2
    dx, dy = math.cos(angle) * (length - 1) * s / 2, math.sin(angle) * (length - 1) * s / 2
    cv2.line(big, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, s,
             cv2.LINE_AA)
    m = (n + s - 1) // s
    k = cv2.resize(big, (m, m), interpolation=cv2.INTER_AREA)
    psf = np.zeros(shape, np.float32)
    psf[:m, :m] = k / float(k.sum())
    rolled: np.ndarray = np.roll(psf, (-(m // 2), -(m // 2)), (0, 1))
    return rolled


def wiener(crop: Image, length: float = LENGTH, angle: float = 0.0, nsr: float = NSR) -> Image:
    """``crop`` with a ``length`` px line blur along ``angle`` undone (Wiener filter)."""
    h, w = crop.shape[:2]
    fh, fw = cv2.getOptimalDFTSize(h), cv2.getOptimalDFTSize(w)
    padded = cv2.copyMakeBorder(crop.astype(np.float32), 0, fh - h, 0, fw - w,
                                cv2.BORDER_REPLICATE)
    f = cv2.dft(padded, flags=cv2.DFT_COMPLEX_OUTPUT)
    k = cv2.dft(line_psf(length, angle, (fh, fw)), flags=cv2.DFT_COMPLEX_OUTPUT)
    den = k[..., 0] ** 2 + k[..., 1] ** 2 + nsr
    num = cv2.mulSpectrums(f, k, 0, conjB=True) / den[..., None]
    out = cv2.idft(num.astype(np.float32), flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE)[:h, :w]
    sharp: Image = np.clip(out, 0, 255).astype(np.uint8)
    return sharp
