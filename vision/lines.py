"""Straight lines in the picture: where consecutive sides of an outline meet."""
from __future__ import annotations

import numpy as np

Line = tuple[np.ndarray, np.ndarray]   # a point on the line, its direction


def corners_of(lines: list[Line], parallel: float) -> np.ndarray | None:
    """The corners where each side meets the one before it (side i-1 and side i make
    corner i), or None when two consecutive sides are nearer parallel than `parallel`
    (the cross product of their directions)."""
    corners = []
    for i in range(len(lines)):
        (p, r), (q, s) = lines[i - 1], lines[i]
        cross = float(r[0] * s[1] - r[1] * s[0])
        if abs(cross) < parallel:
            return None
        k = ((q[0] - p[0]) * s[1] - (q[1] - p[1]) * s[0]) / cross
        corners.append(p + k * r)
    return np.array(corners, np.float32)
