"""Card symbols drawn with OpenCV primitives: scissors, arrows, hand, snowflake, ...

Each icon is drawn into a `Canvas` centred on (cx, cy) within a square of side `s`
(canonical units), in one colour unless the symbol itself is multicoloured.
"""
from __future__ import annotations

import numpy as np

from vision.render.canvas import Canvas


def scissors(cv: Canvas, cx, cy, s, colour) -> None:
    r = s * 0.13
    t = s * 0.07
    cv.circle((cx - s * 0.2, cy + s * 0.3), r, colour, t)
    cv.circle((cx + s * 0.2, cy + s * 0.3), r, colour, t)
    cv.line((cx - s * 0.13, cy + s * 0.2), (cx + s * 0.22, cy - s * 0.45), colour, t * 1.2)
    cv.line((cx + s * 0.13, cy + s * 0.2), (cx - s * 0.22, cy - s * 0.45), colour, t * 1.2)
    cv.circle((cx, cy + s * 0.02), s * 0.04, colour)


def turn_arrows(cv: Canvas, cx, cy, s, colour) -> None:
    """Two curved arrows chasing each other round a circle (flip / change direction)."""
    r = s * 0.34
    t = s * 0.08
    for start in (200, 20):
        cv.ellipse((cx, cy), (r, r), 0, start, start + 130, colour, t)
        a = np.radians(start + 130)
        tip = np.array([cx + r * np.cos(a), cy + r * np.sin(a)])
        tangent = np.array([-np.sin(a), np.cos(a)])
        cv.arrow(tip - tangent * s * 0.05, tip + tangent * s * 0.12, colour, t, s * 0.22)


def opposite_arrows(cv: Canvas, cx, cy, s, colour) -> None:
    """Two straight arrows pointing opposite ways, one above the other (swap)."""
    t = s * 0.08
    cv.arrow((cx - s * 0.4, cy - s * 0.15), (cx + s * 0.4, cy - s * 0.15), colour, t, s * 0.24)
    cv.arrow((cx + s * 0.4, cy + s * 0.18), (cx - s * 0.4, cy + s * 0.18), colour, t, s * 0.24)


def prohibition(cv: Canvas, cx, cy, s, colour) -> None:
    r = s * 0.4
    t = s * 0.1
    cv.circle((cx, cy), r, colour, t)
    d = r * 0.7
    cv.line((cx - d, cy - d), (cx + d, cy + d), colour, t)


def hand(cv: Canvas, cx, cy, s, colour) -> None:
    """An open hand, palm down (slap!)."""
    cv.ellipse((cx, cy + s * 0.15), (s * 0.22, s * 0.25), 0, 0, 360, colour)
    t = s * 0.1
    for dx, top in ((-0.17, -0.25), (-0.06, -0.38), (0.06, -0.4), (0.17, -0.3)):
        cv.line((cx + s * dx, cy), (cx + s * dx * 1.1, cy + s * top), colour, t)
        cv.circle((cx + s * dx * 1.1, cy + s * top), t / 2, colour)
    cv.line((cx - s * 0.18, cy + s * 0.2), (cx - s * 0.42, cy - s * 0.02), colour, t)


def colour_wheel(cv: Canvas, cx, cy, s, colours, start: float = 0.0) -> None:
    """A disc of four quarters, one per playing colour."""
    for i, c in enumerate(colours):
        a = start + i * 90
        cv.ellipse((cx, cy), (s * 0.42, s * 0.42), 0, a, a + 90, c)


def card_stack(cv: Canvas, cx, cy, s, colour, n: int, face) -> None:
    """n overlapping small cards fanned to the right (take cards / flip three)."""
    w, h = s * 0.34, s * 0.48
    for i in range(n):
        ox = cx - s * 0.22 + i * s * 0.18 - (n - 2) * s * 0.05
        oy = cy - s * 0.06 * i + s * 0.05 * (n - 1)
        cv.rounded_rect(ox - w / 2, oy - h / 2, ox + w / 2, oy + h / 2, s * 0.05, face)
        cv.rounded_rect(ox - w / 2, oy - h / 2, ox + w / 2, oy + h / 2, s * 0.05, colour, s * 0.05)


def snowflake(cv: Canvas, cx, cy, s, colour) -> None:
    r = s * 0.45
    t = s * 0.06
    for k in range(6):
        a = np.radians(k * 60 + 90)
        d = np.array([np.cos(a), np.sin(a)])
        n = np.array([-d[1], d[0]])
        c = np.array([cx, cy])
        cv.line(c, c + d * r, colour, t)
        for f in (0.5, 0.75):
            b = c + d * r * f
            cv.line(b, b + (d - n) * r * 0.2, colour, t)
            cv.line(b, b + (d + n) * r * 0.2, colour, t)


def heart(cv: Canvas, cx, cy, s, colour) -> None:
    r = s * 0.22
    cv.circle((cx - r * 0.95, cy - r * 0.5), r, colour)
    cv.circle((cx + r * 0.95, cy - r * 0.5), r, colour)
    cv.poly([(cx - r * 1.95, cy - r * 0.25), (cx + r * 1.95, cy - r * 0.25), (cx, cy + r * 2.0)], colour)


def coin(cv: Canvas, cx, cy, s, colour, rim) -> None:
    cv.circle((cx, cy), s * 0.45, colour)
    cv.circle((cx, cy), s * 0.38, rim, s * 0.04)


def star(cv: Canvas, cx, cy, s, colour) -> None:
    pts = []
    for k in range(10):
        r = s * (0.45 if k % 2 == 0 else 0.2)
        a = np.radians(-90 + k * 36)
        pts.append((cx + r * np.cos(a), cy + r * np.sin(a)))
    cv.poly(pts, colour)
