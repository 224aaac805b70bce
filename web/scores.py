"""Scores across the hands of a match, and a chart of them as an inline SVG.

Every game reports scores in one shape (``companion.games.moves.Scores``): the payload's
``scores.hands`` is a list with one list of numbers (one per seat) per hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

#: colours that stay apart on a dark background and for common colour blindness
PALETTE = ("#f2c14e", "#5fb4f0", "#f07a5f", "#8fd694", "#c79cf2", "#f2f2f2", "#48c9b0",
           "#ff9ecb")


def _numbers(row: Any) -> list[float] | None:
    if not isinstance(row, list | tuple):
        return None
    if not all(isinstance(x, int | float) and not isinstance(x, bool) for x in row):
        return None
    return [float(x) for x in row]


def hand_scores(payload: Mapping[str, Any]) -> list[list[float]] | None:
    """The per-hand scores of a payload's ``scores`` (one row per hand), or None."""
    found = payload.get("scores")
    hands = found.get("hands") if isinstance(found, Mapping) else None
    if isinstance(hands, list | tuple) and hands:
        rows = [_numbers(r) for r in hands]
        if all(r is not None for r in rows):
            return [r for r in rows if r is not None]
    return None


def totals(hands: Sequence[Sequence[float]]) -> list[float]:
    """Each seat's sum over the hands."""
    width = max((len(h) for h in hands), default=0)
    return [sum(h[i] for h in hands if i < len(h)) for i in range(width)]


def _running(hands: Sequence[Sequence[float]], seat: int) -> list[float]:
    out, total = [0.0], 0.0
    for h in hands:
        total += h[seat] if seat < len(h) else 0.0
        out.append(total)
    return out


def chart_svg(hands: Sequence[Sequence[float]], names: Sequence[str],
              width: int = 360, height: int = 220) -> str:
    """A line chart of each seat's running total after each hand (accessible SVG)."""
    seats = max((len(h) for h in hands), default=0)
    lines = [_running(hands, s) for s in range(seats)]
    lo = min(0.0, *(min(line) for line in lines)) if lines else 0.0
    hi = max(1.0, *(max(line) for line in lines)) if lines else 1.0
    pad_l, pad_r, pad_t, pad_b = 8, 8, 10, 22
    n = len(hands)

    def x(i: int) -> float:
        return pad_l + (width - pad_l - pad_r) * (i / max(1, n))

    def y(v: float) -> float:
        return pad_t + (height - pad_t - pad_b) * (1 - (v - lo) / (hi - lo))

    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
        f'aria-labelledby="chart-title"><title id="chart-title">Running totals after '
        f'{"the one hand" if n == 1 else f"each of {n} hands"}</title>',
        f'<line x1="{pad_l}" y1="{y(0):.1f}" x2="{width - pad_r}" y2="{y(0):.1f}" '
        'stroke="#666" stroke-width="1"/>',
    ]
    for i in range(1, n + 1):
        parts.append(f'<text x="{x(i):.1f}" y="{height - 6}" fill="#bbb" font-size="12" '
                     f'text-anchor="middle">{i}</text>')
    for s, line in enumerate(lines):
        colour = PALETTE[s % len(PALETTE)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(line))
        name = escape(names[s] if s < len(names) else f"Seat {s + 1}")
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                     f'stroke-width="3"><title>{name}</title></polyline>')
        parts.append(f'<circle cx="{x(n):.1f}" cy="{y(line[-1]):.1f}" r="4" fill="{colour}"/>')
    parts.append("</svg>")
    return "".join(parts)
