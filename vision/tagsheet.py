"""Printable tags: PDF sticker sheets (a QR code and the card's name) and a calibration card.

``write_tag_pdf`` lays out one sticker per physical card, edge to edge in a grid with
cut marks, then one calibration page: the same code at several sizes, labelled in mm,
with a 50 mm bar to check that the printer did not scale the page. Codes come from
segno (QR version 1, level M, alphanumeric) and are drawn as vector squares. Each code
keeps a 4-module quiet zone inside its sticker; nothing is printed there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import segno
from reportlab.lib.colors import Color, black
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from vision.calibration import CALIBRATION_SIZES

PAPERS: dict[str, tuple[float, float]] = {"a4": A4, "letter": LETTER}
#: the smallest and largest code side (mm) a sticker sheet accepts
SIZE_RANGE = (6.0, 60.0)
QR_MODULES = 21
QUIET_MODULES = 4
MARGIN = 12 * mm
HEADER = 12 * mm
FOOTER = 9 * mm
GREY = Color(0.45, 0.45, 0.45)
MARK = Color(0.55, 0.55, 0.55)
FONT = "Helvetica"
BOLD = "Helvetica-Bold"


class TagSheetError(ValueError):
    """Options that cannot make a sheet; the message says which and what to use."""


@dataclass(frozen=True)
class Sticker:
    """One sticker: the QR text, the card's name, and small lines under it."""

    payload: str
    title: str
    details: tuple[str, ...] = ()


@dataclass(frozen=True)
class Layout:
    """Where the stickers of one page go (all lengths in PDF points)."""

    cell_w: float
    cell_h: float
    cols: int
    rows: int
    x0: float
    top: float

    def origin(self, index: int) -> tuple[float, float]:
        """Bottom-left corner of the ``index``-th cell of the page (row by row)."""
        row, col = divmod(index, self.cols)
        return self.x0 + col * self.cell_w, self.top - (row + 1) * self.cell_h


def qr_matrix(payload: str) -> list[list[bool]]:
    """The 21x21 modules (True = dark) of ``payload``; TagSheetError if it does not fit."""
    try:
        code = segno.make_qr(payload, version=1, error="m", boost_error=False)
    except segno.DataOverflowError as exc:
        raise TagSheetError(
            f"{payload!r} does not fit a QR version 1 code at level M; use at most 20 "
            "uppercase letters and digits"
        ) from exc
    return [[bool(v) for v in row] for row in code.matrix_iter(border=0)]


def draw_qr(canvas: Canvas, payload: str, x: float, y: float, side: float) -> None:
    """Draw the code of ``payload`` with its bottom-left corner at (x, y), ``side`` wide.

    Dark runs of a row are one rectangle and the whole code one path, so renderers
    leave no hairline seams between modules.
    """
    unit = side / QR_MODULES
    path = canvas.beginPath()
    for r, row in enumerate(qr_matrix(payload)):
        top = y + side - (r + 1) * unit
        c = 0
        while c < QR_MODULES:
            if not row[c]:
                c += 1
                continue
            start = c
            while c < QR_MODULES and row[c]:
                c += 1
            path.rect(x + start * unit, top, (c - start) * unit, unit)
    canvas.setFillColor(black)
    canvas.drawPath(path, stroke=0, fill=1)


def page_size(paper: str) -> tuple[float, float]:
    """Width and height in points of ``paper`` ("a4" or "letter")."""
    try:
        return PAPERS[paper.lower()]
    except KeyError:
        raise TagSheetError(f"unknown paper {paper!r}; use a4 or letter") from None


def sticker_layout(size_mm: float, paper: str) -> Layout:
    """The grid of stickers with codes ``size_mm`` wide on ``paper``."""
    lo, hi = SIZE_RANGE
    if not lo <= size_mm <= hi:
        raise TagSheetError(f"code size {size_mm:g} mm is out of range; use {lo:g} to {hi:g} mm")
    width, height = page_size(paper)
    side = size_mm * mm
    quiet = side * QUIET_MODULES / QR_MODULES
    cell_h = side + 2 * quiet
    cell_w = cell_h + max(26 * mm, 1.5 * side)
    cols = int((width - 2 * MARGIN) // cell_w)
    rows = int((height - 2 * MARGIN - HEADER - FOOTER) // cell_h)
    if cols < 1 or rows < 1:
        raise TagSheetError(f"a {size_mm:g} mm code does not fit on {paper}; use a smaller --size")
    x0 = (width - cols * cell_w) / 2
    return Layout(cell_w, cell_h, cols, rows, x0, height - MARGIN - HEADER)


def _font_size(side: float) -> float:
    return float(max(6.0, min(10.0, side / mm * 0.6)))


def draw_sticker(canvas: Canvas, sticker: Sticker, x: float, y: float, lay: Layout) -> None:
    """One sticker in the cell whose bottom-left corner is (x, y)."""
    quiet = (lay.cell_h) * QUIET_MODULES / (QR_MODULES + 2 * QUIET_MODULES)
    side = lay.cell_h - 2 * quiet
    draw_qr(canvas, sticker.payload, x + quiet, y + quiet, side)
    text_x = x + lay.cell_h
    text_w = lay.cell_w - lay.cell_h - 2 * mm
    size = _font_size(side)
    lines = simpleSplit(sticker.title, BOLD, size, text_w)[:3]
    small = max(5.0, size * 0.7)
    details = [_fit(d, small, text_w) for d in sticker.details[:2]]
    block = len(lines) * size * 1.15 + len(details) * small * 1.25
    line_y = y + lay.cell_h / 2 + block / 2 - size
    canvas.setFillColor(black)
    canvas.setFont(BOLD, size)
    for line in lines:
        canvas.drawString(text_x, line_y, line)
        line_y -= size * 1.15
    canvas.setFillColor(GREY)
    canvas.setFont(FONT, small)
    for detail in details:
        line_y -= small * 0.1
        canvas.drawString(text_x, line_y, detail)
        line_y -= small * 1.15


def _fit(text: str, size: float, width: float) -> str:
    """``text`` cut (with an ellipsis) to fit ``width`` at ``size`` points."""
    if stringWidth(text, FONT, size) <= width:
        return text
    while text and stringWidth(text + "…", FONT, size) > width:
        text = text[:-1]
    return text + "…"


def draw_cut_marks(canvas: Canvas, lay: Layout, rows: int) -> None:
    """Cut marks outside the grid at every cell edge, small crosses where cells meet."""
    canvas.setStrokeColor(MARK)
    canvas.setLineWidth(0.3)
    left, right = lay.x0, lay.x0 + lay.cols * lay.cell_w
    top, bottom = lay.top, lay.top - rows * lay.cell_h
    gap, length, arm = 1.5 * mm, 5 * mm, 1.0 * mm
    for c in range(lay.cols + 1):
        x = left + c * lay.cell_w
        canvas.line(x, top + gap, x, top + gap + length)
        canvas.line(x, bottom - gap, x, bottom - gap - length)
    for r in range(rows + 1):
        y = top - r * lay.cell_h
        canvas.line(left - gap, y, left - gap - length, y)
        canvas.line(right + gap, y, right + gap + length, y)
    for c in range(1, lay.cols):
        for r in range(1, rows):
            x, y = left + c * lay.cell_w, top - r * lay.cell_h
            canvas.line(x - arm, y, x + arm, y)
            canvas.line(x, y - arm, x, y + arm)


def _header(canvas: Canvas, left: str, right: str, paper: str) -> None:
    width, height = page_size(paper)
    canvas.setFillColor(black)
    canvas.setFont(BOLD, 11)
    canvas.drawString(MARGIN, height - MARGIN - 5 * mm, left)
    canvas.setFont(FONT, 9)
    canvas.drawRightString(width - MARGIN, height - MARGIN - 5 * mm, right)


def _footer(canvas: Canvas, text: str) -> None:
    canvas.setFillColor(GREY)
    canvas.setFont(FONT, 8)
    canvas.drawString(MARGIN, MARGIN, text)


def _chunks(items: Sequence[Sticker], size: int) -> Iterable[Sequence[Sticker]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def draw_sticker_pages(
    canvas: Canvas, stickers: Sequence[Sticker], title: str, size_mm: float, paper: str
) -> int:
    """Sticker pages for every sticker, in order; returns how many pages were drawn."""
    lay = sticker_layout(size_mm, paper)
    per_page = lay.cols * lay.rows
    pages = list(_chunks(stickers, per_page))
    for number, page in enumerate(pages, start=1):
        _header(canvas, title, f"code {size_mm:g} mm · page {number} of {len(pages) + 1}", paper)
        for index, sticker in enumerate(page):
            draw_sticker(canvas, sticker, *lay.origin(index), lay)
        draw_cut_marks(canvas, lay, -(-len(page) // lay.cols))
        _footer(
            canvas,
            "Print at 100 % (actual size). Cut along the marks; stick each code flat on the "
            "card named beside it.",
        )
        canvas.showPage()
    return len(pages)


CALIBRATION_STEPS = (
    "1. Print this page at 100 % (actual size): the bar below must measure 50 mm.",
    "2. Lay it on the table where the cards land (the farthest place the camera must read),",
    "    under the camera as it is mounted, at the resolution you will play with.",
    "3. Open the dashboard's camera page, or photograph it with the table camera and run",
    "    'companion scan PHOTO': it says which --size to print for this camera, e.g.",
    "    'the camera sees 5.6 px a mm here: print the stickers with --size 16'.",
    "4. Print the stickers with that --size ('companion tags GAME --deck NAME --size MM').",
    "These codes are the deck's calibration code: the table knows it and ignores it in play.",
)


def _flow(sizes: Sequence[float], width: float) -> list[list[tuple[float, float]]]:
    """Codes of ``sizes`` (mm) in rows no wider than ``width``: (x offset, side) each."""
    gap = 6 * mm
    rows: list[list[tuple[float, float]]] = [[]]
    x = 0.0
    for size in sizes:
        cell = size * mm * (QR_MODULES + 2 * QUIET_MODULES) / QR_MODULES
        if rows[-1] and x + cell > width:
            rows.append([])
            x = 0.0
        rows[-1].append((x, size))
        x += cell + gap
    return rows


def _scale_bar(canvas: Canvas, x: float, y: float) -> None:
    canvas.setStrokeColor(black)
    canvas.setLineWidth(0.6)
    canvas.line(x, y, x + 50 * mm, y)
    canvas.setFont(FONT, 7)
    canvas.setFillColor(black)
    for tick in range(6):
        tx = x + tick * 10 * mm
        canvas.line(tx, y, tx, y + (3 if tick % 5 == 0 else 2) * mm)
        canvas.drawCentredString(tx, y - 3 * mm, f"{tick * 10}")
    canvas.drawString(x + 53 * mm, y - 1 * mm, "mm: this bar must measure 50 mm")


def draw_calibration_page(
    canvas: Canvas, payload: str, title: str, paper: str, sizes: Sequence[float] = CALIBRATION_SIZES
) -> None:
    """The calibration page: ``payload`` at every size in ``sizes`` (mm), largest first."""
    width, height = page_size(paper)
    _header(canvas, f"Calibration card · {title}", "code sizes in mm", paper)
    y = height - MARGIN - HEADER - 2 * mm
    canvas.setFont(FONT, 9.5)
    for line in CALIBRATION_STEPS:
        y -= 4.6 * mm
        canvas.drawString(MARGIN, y, line)
    _scale_bar(canvas, MARGIN, y - 10 * mm)
    y -= 20 * mm
    for row in _flow(sorted(sizes, reverse=True), width - 2 * MARGIN):
        row_h = max(side for _, side in row) * mm * (QR_MODULES + 2 * QUIET_MODULES) / QR_MODULES
        base = y - row_h  # codes stand on one line, each labelled just under its sticker
        for x, size in row:
            side = size * mm
            quiet = side * QUIET_MODULES / QR_MODULES
            draw_qr(canvas, payload, MARGIN + x + quiet, base + quiet, side)
            canvas.setFont(BOLD, 9)
            canvas.setFillColor(black)
            canvas.drawCentredString(MARGIN + x + quiet + side / 2, base - 2 * mm, f"{size:g} mm")
        y = base - 10 * mm
    canvas.showPage()


def write_tag_pdf(
    out: Path,
    stickers: Sequence[Sticker],
    calibration_payload: str,
    title: str,
    size_mm: float = 12.0,
    paper: str = "a4",
) -> int:
    """Write the sticker pages and the calibration page to ``out``; returns the page count.

    Raises TagSheetError for a size or paper it cannot lay out, or a payload that does
    not fit QR version 1 level M. The PDF is byte-for-byte reproducible.
    """
    canvas = Canvas(str(out), pagesize=page_size(paper), invariant=True)
    canvas.setTitle(title)
    canvas.setCreator("Table Companion")
    pages = draw_sticker_pages(canvas, stickers, title, size_mm, paper)
    draw_calibration_page(canvas, calibration_payload, title, paper)
    canvas.save()
    return pages + 1
