"""The score chart across a match: running totals per seat after each round, drawn by
the server as an inline SVG (the browser never computes a score)."""
from __future__ import annotations

from html import escape
from typing import Sequence


def running_totals(history: Sequence[Sequence[int]], seats: int) -> list[list[int]]:
    """Per seat, the total after round 0 (zero), 1, 2, ..."""
    lines = [[0] for _ in range(seats)]
    for scores in history:
        for s in range(seats):
            lines[s].append(lines[s][-1] + (scores[s] if s < len(scores) else 0))
    return lines


def score_chart(history: Sequence[Sequence[int]], names: Sequence[str], colours: Sequence[str],
                width: int = 320, height: int = 180, title: str = "") -> str:
    """An SVG line chart of running totals; empty string before the first round."""
    if not history or not names:
        return ""
    lines = running_totals(history, len(names))
    lo = min(0, *(min(line) for line in lines))
    hi = max(1, *(max(line) for line in lines))
    pad_l, pad_r, pad_t, pad_b = 34, 8, 8, 18
    w, h = width - pad_l - pad_r, height - pad_t - pad_b
    steps = len(history)

    def x(i: int) -> float:
        return pad_l + w * i / steps

    def y(v: int) -> float:
        return pad_t + h * (hi - v) / (hi - lo)

    parts = [f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{escape(title)}" xmlns="http://www.w3.org/2000/svg">']
    for v in (lo, 0, hi) if lo < 0 else (0, hi):
        parts.append(f'<line x1="{pad_l}" x2="{width - pad_r}" y1="{y(v):.1f}" y2="{y(v):.1f}" '
                     f'class="grid"/><text x="{pad_l - 4}" y="{y(v) + 4:.1f}" '
                     f'text-anchor="end" class="axis">{v}</text>')
    for i in range(1, steps + 1):
        parts.append(f'<text x="{x(i):.1f}" y="{height - 4}" text-anchor="middle" '
                     f'class="axis">{i}</text>')
    for line, name, colour in zip(lines, names, colours):
        pts = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(line))
        parts.append(f'<polyline points="{pts}" fill="none" stroke="{escape(colour)}" '
                     f'stroke-width="3" stroke-linejoin="round"><title>{escape(name)}: '
                     f'{line[-1]}</title></polyline>')
        parts.append(f'<circle cx="{x(steps):.1f}" cy="{y(line[-1]):.1f}" r="4" '
                     f'fill="{escape(colour)}"/>')
    parts.append("</svg>")
    return "".join(parts)
