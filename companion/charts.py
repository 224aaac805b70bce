"""Charts drawn on the server as small accessible SVGs (no script, no CDN).

``places_svg``: a player's place in each game over time; ``bars_svg``: a value per
label (win rate per game); ``histogram_svg``: how scores are spread.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from companion.results import GameResult, SeatResult

GOLD, BLUE, GREY = "#f2c14e", "#5fb4f0", "#666"


def _frame(title: str, width: int, height: int, body: list[str]) -> str:
    t = escape(title)
    return (f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{t}"><title>{t}</title>' + "".join(body) + "</svg>")


def _nth(n: int) -> str:
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n if n < 20 else n % 10, 'th') }"


def places_svg(places: Sequence[int], seats: Sequence[int], width: int = 360,
               height: int = 160) -> str:
    """Place (1 at the top) in each game, oldest left; the dot is gold for a win."""
    n = len(places)
    worst = max([2, *seats])
    pad = 30

    def x(i: int) -> float:
        return pad + (width - 2 * pad) * (i / max(1, n - 1))

    def y(p: int) -> float:
        return pad + (height - 2 * pad) * ((p - 1) / max(1, worst - 1))

    body = [f'<line x1="{pad}" y1="{y(1):.1f}" x2="{width - pad}" y2="{y(1):.1f}" '
            f'stroke="{GREY}" stroke-dasharray="4 4"/>',
            f'<text x="2" y="{y(1) + 4:.1f}" fill="#bbb" font-size="11">1st</text>',
            f'<text x="2" y="{y(worst) + 4:.1f}" fill="#bbb" font-size="11">{_nth(worst)}</text>']
    if n > 1:
        pts = " ".join(f"{x(i):.1f},{y(p):.1f}" for i, p in enumerate(places))
        body.append(f'<polyline points="{pts}" fill="none" stroke="{BLUE}" stroke-width="2"/>')
    for i, p in enumerate(places):
        colour = GOLD if p == 1 else BLUE
        body.append(f'<circle cx="{x(i):.1f}" cy="{y(p):.1f}" r="4" fill="{colour}"/>')
    return _frame(f"Place in each of {n} games, oldest first (top: won)", width, height, body)


def bars_svg(items: Sequence[tuple[str, float]], title: str, width: int = 360) -> str:
    """One horizontal bar per label, values from 0 to 1."""
    row = 30
    height = row * max(1, len(items)) + 8
    body = []
    for i, (label, value) in enumerate(items):
        y = 4 + i * row
        w = max(2.0, (width - 180) * max(0.0, min(1.0, value)))  # room for "100 %"
        body.append(f'<text x="0" y="{y + 19}" fill="#ddd" font-size="14">{escape(label)}</text>')
        body.append(f'<rect x="120" y="{y + 4}" width="{w:.1f}" height="20" fill="{GOLD}"/>')
        body.append(f'<text x="{124 + w:.1f}" y="{y + 19}" fill="#ddd" font-size="13">'
                    f'{100 * value:.0f}\u00a0%</text>')
    return _frame(title, width, height, body)


def histogram_svg(values: Sequence[float], title: str, bins: int = 8, width: int = 360,
                  height: int = 140) -> str:
    """How ``values`` are spread over ``bins`` equal ranges."""
    if not values:
        return _frame(title, width, height, [])
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, int((v - lo) / span * bins))] += 1
    top = max(counts)
    bw = (width - 20) / bins
    body = []
    for i, c in enumerate(counts):
        h = (height - 34) * c / top
        body.append(f'<rect x="{10 + i * bw:.1f}" y="{height - 20 - h:.1f}" '
                    f'width="{bw - 3:.1f}" height="{h:.1f}" fill="{BLUE}">'
                    f'<title>{c} game(s) from {lo + i * span / bins:g}</title></rect>')
    body.append(f'<text x="10" y="{height - 4}" fill="#bbb" font-size="12">{lo:g}</text>')
    body.append(f'<text x="{width - 10}" y="{height - 4}" fill="#bbb" font-size="12" '
                f'text-anchor="end">{hi:g}</text>')
    return _frame(title, width, height, body)


def player_charts(plays: Sequence[tuple[GameResult, SeatResult]],
                  title: Callable[[str], str]) -> dict[str, Any]:
    """A player's charts from their plays (oldest first, with their own seat): places over
    the last 60 games, win rate per game, and a score histogram per game with scores
    (scores of different games are not comparable)."""
    recent = list(plays)[-60:]
    rates: dict[str, tuple[int, int]] = {}
    scores: dict[str, list[float]] = {}
    for r, s in plays:
        w, n = rates.get(r.game, (0, 0))
        rates[r.game] = (w + (1 if s.won else 0), n + 1)
        if s.score is not None:
            scores.setdefault(r.game, []).append(s.score)
    return {
        "places": places_svg([s.place for _, s in recent], [len(r.seats) for r, _ in recent]),
        "rates": bars_svg([(title(g), w / n) for g, (w, n) in sorted(rates.items())],
                          "Win rate per game"),
        "scores": [(title(g), histogram_svg(v, f"Final scores in {title(g)}"))
                   for g, v in sorted(scores.items())],
    }


__all__ = ["bars_svg", "histogram_svg", "places_svg", "player_charts"]
