"""Drawing in a card's canonical coordinates (200 x 280) at any pixel scale.

A `Canvas` wraps a BGR image and a scale factor so that card layouts and icons are written
once, in canonical units, and come out crisp at 200 px or at 744 px (a 300 dpi print).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

_SHIFT = 4
_ONE = 1 << _SHIFT


@dataclass(frozen=True)
class Canvas:
    image: np.ndarray
    k: float  # pixels per canonical unit

    def _p(self, xy) -> tuple[int, int]:
        return (int(round(xy[0] * self.k * _ONE)), int(round(xy[1] * self.k * _ONE)))

    def _pts(self, pts) -> np.ndarray:
        a = np.asarray(pts, dtype=np.float64) * self.k * _ONE
        return np.round(a).astype(np.int32).reshape(-1, 1, 2)

    def _t(self, thickness: float) -> int:
        return -1 if thickness < 0 else max(1, int(round(thickness * self.k)))

    def line(self, a, b, colour, thickness: float = 2.0) -> None:
        cv2.line(self.image, self._p(a), self._p(b), colour, self._t(thickness), cv2.LINE_AA, _SHIFT)

    def circle(self, c, r: float, colour, thickness: float = -1) -> None:
        cv2.circle(self.image, self._p(c), int(round(r * self.k * _ONE)), colour,
                   self._t(thickness), cv2.LINE_AA, _SHIFT)

    def ellipse(self, c, axes, angle: float, start: float, end: float, colour,
                thickness: float = -1) -> None:
        ax = (int(round(axes[0] * self.k * _ONE)), int(round(axes[1] * self.k * _ONE)))
        cv2.ellipse(self.image, self._p(c), ax, angle, start, end, colour, self._t(thickness),
                    cv2.LINE_AA, _SHIFT)

    def poly(self, pts, colour, thickness: float = -1, closed: bool = True) -> None:
        p = self._pts(pts)
        if thickness < 0:
            cv2.fillPoly(self.image, [p], colour, cv2.LINE_AA, _SHIFT)
        else:
            cv2.polylines(self.image, [p], closed, colour, self._t(thickness), cv2.LINE_AA, _SHIFT)

    def rounded_rect(self, x0, y0, x1, y1, r: float, colour, thickness: float = -1) -> None:
        """A rectangle with rounded corners, filled (thickness < 0) or outlined."""
        pts = rounded_rect_points(x0, y0, x1, y1, r)
        self.poly(pts, colour, thickness)

    def arrow(self, a, b, colour, thickness: float = 4.0, head: float = 12.0) -> None:
        a = np.asarray(a, float)
        b = np.asarray(b, float)
        d = b - a
        d /= max(np.hypot(*d), 1e-6)
        n = np.array([-d[1], d[0]])
        self.line(a, b - d * head * 0.6, colour, thickness)
        self.poly([b, b - d * head + n * head * 0.6, b - d * head - n * head * 0.6], colour)

    def text(self, s: str, centre, box_w: float, box_h: float, colour, font: int,
             weight: float = 0.12, italic: bool = False) -> None:
        """Hershey text scaled to fit a box (canonical units) and centred on `centre`.

        weight: stroke thickness as a fraction of the text height.
        """
        f = font | (cv2.FONT_ITALIC if italic else 0)
        (w1, h1), _ = cv2.getTextSize(s, f, 1.0, 1)
        scale_units = min(box_w / max(w1, 1), box_h / max(h1, 1))
        h_units = h1 * scale_units
        thick_units = max(weight * h_units, 0.8)
        scale_px = scale_units * self.k
        thick_px = max(1, int(round(thick_units * self.k)))
        (w, h), _ = cv2.getTextSize(s, f, scale_px, thick_px)
        cx, cy = centre[0] * self.k, centre[1] * self.k
        org = (int(round(cx - w / 2)), int(round(cy + h / 2)))
        cv2.putText(self.image, s, org, f, scale_px, colour, thick_px, cv2.LINE_AA)


def rounded_rect_points(x0, y0, x1, y1, r, per_corner: int = 8) -> np.ndarray:
    pts = []
    for cx, cy, a0 in ((x1 - r, y0 + r, -90), (x1 - r, y1 - r, 0), (x0 + r, y1 - r, 90),
                       (x0 + r, y0 + r, 180)):
        for t in np.linspace(a0, a0 + 90, per_corner):
            pts.append((cx + r * np.cos(np.radians(t)), cy + r * np.sin(np.radians(t))))
    return np.asarray(pts, dtype=np.float64)
