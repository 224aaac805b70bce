"""A printable sheet of player cards (PDF): one card per player, with a QR code of the
card's address on the league (``<league address>/c/<code>``) and the player's name.

The address is the league's public one (``companion league serve --url``, or ``companion
league cards --url``), never the host a browser happened to use: a sheet printed from
``localhost`` must still open the league from a phone. Eight cards to an A4 page (two
columns, four rows, 85 × 60 mm each, cut lines drawn).
"""

from __future__ import annotations

import io
from collections.abc import Sequence

import segno
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

CARD_W, CARD_H = 85 * mm, 60 * mm
COLUMNS, ROWS = 2, 4
#: the QR code's side: room beside it for the name, a phone still reads it at arm's length
QR = 44 * mm


def card_url(base: str, code: str) -> str:
    """What a card's QR code holds: the card's page on the league."""
    return f"{base.rstrip('/')}/c/{code}"


def _qr(c: Canvas, text: str, x: float, y: float, size: float) -> None:
    """The QR code of ``text``, ``size`` wide, its lower left corner at (x, y)."""
    matrix = [list(row) for row in segno.make(text, error="m").matrix]
    n = len(matrix) + 8  # the quiet zone: 4 modules each side
    cell = size / n
    c.setFillColorRGB(0, 0, 0)
    for r, row in enumerate(matrix):
        for k, dark in enumerate(row):
            if dark:
                c.rect(x + (k + 4) * cell, y + size - (r + 5) * cell, cell, cell,
                       stroke=0, fill=1)


def _lines(c: Canvas, text: str, font: str, width: float, most: int) -> tuple[float, list[str]]:
    """``text`` wrapped to ``width`` in at most ``most`` lines: the font size (18 down to
    8 points) and the lines. A word too long even at 8 points is cut into pieces."""
    size = 18.0
    while True:
        lines = simpleSplit(text, font, size, width)
        fits = all(c.stringWidth(line, font, size) <= width for line in lines)
        if (fits and len(lines) <= most) or size <= 8:
            break
        size -= 1
    out: list[str] = []
    for line in lines:  # one word wider than the card at 8 points: cut it
        while c.stringWidth(line, font, size) > width:
            k = len(line)
            while k > 1 and c.stringWidth(line[:k], font, size) > width:
                k -= 1
            out.append(line[:k])
            line = line[k:]
        out.append(line)
    return size, out


HELP = "Show this card to the table's camera, or scan it to see your games."


def cards_pdf(players: Sequence[tuple[str, str]], base: str, league: str = "League") -> bytes:
    """The PDF of a card for each ``(name, card code)``; ``base`` is the league's public
    address."""
    if not players:
        raise ValueError("No players yet: add them on the admin page first.")
    out = io.BytesIO()
    c = Canvas(out, pagesize=A4, pageCompression=1)
    c.setTitle(f"{league}: player cards")
    page_w, page_h = A4
    left = (page_w - COLUMNS * CARD_W) / 2
    top = (page_h + ROWS * CARD_H) / 2
    per_page = COLUMNS * ROWS
    for i, (name, code) in enumerate(players):
        if i and i % per_page == 0:
            c.showPage()
        slot = i % per_page
        x = left + (slot % COLUMNS) * CARD_W
        y = top - (slot // COLUMNS + 1) * CARD_H
        c.setStrokeColorRGB(0.6, 0.6, 0.6)
        c.setDash(3, 3)
        c.rect(x, y, CARD_W, CARD_H, stroke=1, fill=0)
        c.setDash()
        qr = QR
        _qr(c, card_url(base, code), x + 3 * mm, y + (CARD_H - qr) / 2, qr)
        text_x = x + 6 * mm + qr
        width = CARD_W - qr - 9 * mm  # 3 mm of margin each side of the QR and text
        c.setFillColorRGB(0, 0, 0)
        size, lines = _lines(c, name, "Helvetica-Bold", width, 3)
        top_y = y + CARD_H - 12 * mm
        c.setFont("Helvetica-Bold", size)
        for k, line in enumerate(lines):
            c.drawString(text_x, top_y - k * size * 1.15, line)
        c.setFont("Helvetica", 8)
        below = top_y - len(lines) * size * 1.15 - 4 * mm
        for k, line in enumerate([league, *simpleSplit(HELP, "Helvetica", 8, width)]):
            c.drawString(text_x, below - k * 10, line)
    c.showPage()
    c.save()
    return out.getvalue()


__all__ = ["card_url", "cards_pdf"]
