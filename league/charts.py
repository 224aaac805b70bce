"""The league's own chart: a player's rating over time, drawn on the server as SVG
(the other charts are ``companion.charts``, shared with the table's statistics)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from html import escape

BLUE, GREY, LABEL = "#5fb4f0", "#666", "#bbb"


def _day(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).strftime("%d %b %Y")


def rating_svg(points: Sequence[tuple[float, float]], width: int = 360,
               height: int = 170) -> str:
    """The rating (mu - 3 sigma) after each game, ``points`` = (when, rating), oldest
    first; the first and last days under the line, the lowest and highest on the left."""
    n = len(points)
    title = f"Rating after each of the last {n} games, oldest first"
    t = escape(title)
    head = (f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{t}"><title>{t}</title>')
    if not points:
        return head + "</svg>"
    values = [r for _, r in points]
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    left, right, top, bottom = 44, 10, 12, 30

    def x(i: int) -> float:
        return left + (width - left - right) * (i / max(1, n - 1))

    def y(v: float) -> float:
        return top + (height - top - bottom) * (1 - (v - lo) / span)

    body = [f'<line x1="{left}" y1="{y(hi):.1f}" x2="{width - right}" y2="{y(hi):.1f}" '
            f'stroke="{GREY}" stroke-dasharray="4 4"/>',
            f'<line x1="{left}" y1="{y(lo):.1f}" x2="{width - right}" y2="{y(lo):.1f}" '
            f'stroke="{GREY}" stroke-dasharray="4 4"/>',
            f'<text x="2" y="{y(hi) + 4:.1f}" fill="{LABEL}" font-size="12">{hi:.1f}</text>',
            f'<text x="2" y="{y(lo) + 4:.1f}" fill="{LABEL}" font-size="12">{lo:.1f}</text>',
            f'<text x="{left}" y="{height - 6}" fill="{LABEL}" font-size="12">'
            f'{_day(points[0][0])}</text>',
            f'<text x="{width - right}" y="{height - 6}" fill="{LABEL}" font-size="12" '
            f'text-anchor="end">{_day(points[-1][0])}</text>']
    if n > 1:
        pts = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        body.append(f'<polyline points="{pts}" fill="none" stroke="{BLUE}" stroke-width="2"/>')
    last = values[-1]
    body.append(f'<circle cx="{x(n - 1):.1f}" cy="{y(last):.1f}" r="4" fill="{BLUE}">'
                f'<title>now {last:.1f}</title></circle>')
    return head + "".join(body) + "</svg>"


__all__ = ["rating_svg"]
