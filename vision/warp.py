"""Card geometry: putting a quadrilateral's corners in a fixed order and warping the card
it outlines to an upright image.

A card outline is four image points. `order_corners` returns them clockwise starting at
the top-left of the upright face (TL, TR, BR, BL) with TL-TR a short side, so the warp
gives a portrait image. Which short side is "top" cannot be told from the outline alone;
the classifier reads both 180-degree orientations. Nothing here finds or reads cards.
"""
from __future__ import annotations

import cv2
import numpy as np

from vision.arrays import less

CARD_ASPECT = 88 / 63            # height / width of a standard playing card
CANONICAL_SIZE = (200, 280)      # (w, h) of the canonical upright face


def order_corners(corners: np.ndarray) -> np.ndarray:
    """The four points clockwise (in image coordinates, y down) as TL, TR, BR, BL of a
    portrait card: TL-TR is a short side, and of the two short sides the one nearer the
    top of the image comes first."""
    pts = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    pts = pts[np.argsort(angles)]  # clockwise on screen because y points down
    step = pts - pts[[1, 2, 3, 0]]                                        # np.roll(pts, -1, axis=0)
    sides = np.sqrt(np.add.reduce(step * step, axis=1))                   # np.linalg.norm(step, axis=1)
    # sides[i] joins pts[i] and pts[i+1]; a short side should start the order.
    if sides[0] + sides[2] > sides[1] + sides[3]:
        pts = pts[[1, 2, 3, 0]]
    # Of the two short sides (0-1 and 2-3), put the upper one first.
    if pts[0, 1] + pts[1, 1] > pts[2, 1] + pts[3, 1]:
        pts = pts[[2, 3, 0, 1]]
    return pts


def order_corners_of(quads: np.ndarray) -> np.ndarray:
    """`order_corners` of each of several quads (n x 4 x 2) at once, the same points in
    the same order: the same float32 steps, element by element, without a dozen small
    numpy calls a quad."""
    pts = np.asarray(quads, dtype=np.float32).reshape(-1, 4, 2)
    centre = pts.mean(axis=1, keepdims=True)
    angles = np.arctan2(pts[:, :, 1] - centre[:, :, 1], pts[:, :, 0] - centre[:, :, 0])
    pts = np.take_along_axis(pts, np.argsort(angles, axis=1)[:, :, None], axis=1)
    step = pts - np.roll(pts, -1, axis=1)
    sides = np.sqrt(step[:, :, 0] * step[:, :, 0] + step[:, :, 1] * step[:, :, 1])
    start = np.where(sides[:, 0] + sides[:, 2] > sides[:, 1] + sides[:, 3], 1, 0)
    first = np.arange(4)
    pts = pts[np.arange(len(pts))[:, None], (start[:, None] + first) % 4]
    upper = pts[:, 0, 1] + pts[:, 1, 1] > pts[:, 2, 1] + pts[:, 3, 1]
    return pts[np.arange(len(pts))[:, None], (np.where(upper, 2, 0)[:, None] + first) % 4]


# A card photographed steeply is foreshortened along the direction it is seen in: one
# 50-65 degrees from overhead seen along its length looks square or wider than long, and
# ordered as a portrait card by its apparent sides (`order_corners`) its face lies on its
# side. Perspective says which way it was foreshortened: the two sides that run away from
# the camera converge, the two across do not. Measured on bench/protocols.py --stress
# oblique's misread cards: the apparent short sides converge 20-42 degrees more than the
# long ones where the card lay turned, and less (or within 2) everywhere else.
TURN_RATIO = 1.45
TURN_CONVERGE = 10.0


def may_lie_turned(corners: np.ndarray) -> bool:
    """Whether the outline may be a card seen steeply along its length, lying across
    the way it looks: less than TURN_RATIO times as long as wide (its sides summed),
    and its short sides converging at least TURN_CONVERGE degrees more than its long
    sides (they run away from the camera)."""
    pts = np.asarray(corners, np.float64).reshape(4, 2)
    step = pts[[1, 2, 3, 0]] - pts
    length = np.sqrt((step * step).sum(axis=1))
    if length.min() <= 0:
        return False
    unit = step / length[:, None]
    # opposite sides run opposite ways round the outline: parallel ones give cos -1
    apart = [float(np.degrees(np.arccos(np.clip(-(unit[i] * unit[i + 2]).sum(), -1.0, 1.0)))) for i in (0, 1)]
    pairs = (length[0] + length[2], length[1] + length[3])
    short = 0 if pairs[0] <= pairs[1] else 1
    return max(pairs) < TURN_RATIO * min(pairs) and apart[short] >= apart[1 - short] + TURN_CONVERGE


def side_lengths(corners: np.ndarray) -> tuple[float, float]:
    """(short, long): the quad's two pairs of opposite sides, each averaged (which
    roughly undoes a mild perspective)."""
    pts = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    step = pts - pts[[1, 2, 3, 0]]
    sides = np.sqrt(step[:, 0] * step[:, 0] + step[:, 1] * step[:, 1])   # np.linalg.norm's steps
    first, second = float(sides[0] + sides[2]) / 2, float(sides[1] + sides[3]) / 2
    return min(first, second), max(first, second)


def warp_card(image: np.ndarray, corners: np.ndarray,
              size: tuple[int, int] = CANONICAL_SIZE) -> np.ndarray:
    """The card outlined by `corners` (TL, TR, BR, BL) as an upright image of `size`
    (w, h). The corners go to the picture's outer pixel edges (pixel centres are whole
    numbers, so the edges lie at -0.5 and w - 0.5): a card warped from its corners
    turned by a half is the same picture turned, not shifted a pixel."""
    w, h = size
    target = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32) - 0.5
    matrix = cv2.getPerspectiveTransform(np.asarray(corners, dtype=np.float32), target)
    return cv2.warpPerspective(image, matrix, (w, h), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def warp_card_averaged(image: np.ndarray, corners: np.ndarray,
                       size: tuple[int, int] = CANONICAL_SIZE) -> np.ndarray:
    """`warp_card`, with each pixel of the result the mean of the picture's pixels it
    covers when the card is at least twice `size` in the picture: the card's box is first
    shrunk by a whole factor (block means), then warped. A warp samples a few pixels per
    result pixel and keeps the camera's noise at full strength; averaging the k x k pixels
    a result pixel covers cuts it k times, and a dim camera's noise no longer drowns a
    pale ink's fine detail (the holes of an 8 on a light yellow face under a very warm
    dim lamp). A card under twice `size` is warped as by `warp_card`."""
    pts = np.asarray(corners, dtype=np.float32).reshape(4, 2)
    short, _ = side_lengths(pts)
    k = int(short / size[0])
    if k < 2:
        return warp_card(image, pts, size)
    h, w = image.shape[:2]
    x0 = max(int(np.floor(pts[:, 0].min())) - k, 0)
    y0 = max(int(np.floor(pts[:, 1].min())) - k, 0)
    x1 = min(int(np.ceil(pts[:, 0].max())) + k + 1, w)
    y1 = min(int(np.ceil(pts[:, 1].max())) + k + 1, h)
    cols, rows = (x1 - x0) // k, (y1 - y0) // k
    if cols < 2 or rows < 2:
        return warp_card(image, pts, size)
    box = image[y0:y0 + rows * k, x0:x0 + cols * k]
    small = cv2.resize(box, (cols, rows), interpolation=cv2.INTER_AREA)
    # small pixel i holds the mean of box pixels k i .. k i + k - 1, centred at k i + (k - 1) / 2
    return warp_card(small, (pts - np.float32([x0, y0]) - (k - 1) / 2) / k, size)


def length_of(vector: np.ndarray) -> np.floating:
    """`np.linalg.norm(vector)` of a float vector, the same float by numpy's own steps
    (the vector's dot with itself, its square root) without norm's argument handling:
    ~3 us a call, and an outline's fit makes about twenty."""
    flat = vector.ravel(order="K")
    return np.sqrt(flat.dot(flat))


def along_and_across(points: np.ndarray, a: np.ndarray, b: np.ndarray):
    """The side from a to b: its length and unit direction, and each point's distance
    along it from a and across it (signed)."""
    direction = b - a
    length = float(length_of(direction))
    u = direction / max(length, 1e-6)
    rel = less(points, a)   # (`points - a`, the same floats for less)
    return length, u, rel @ u, rel[:, 0] * u[1] - rel[:, 1] * u[0]



def quad_contains(corners: np.ndarray, point: tuple[float, float]) -> bool:
    contour = np.asarray(corners, dtype=np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0


def quad_overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Area of the intersection of two convex quads over the smaller one's area."""
    pa = np.asarray(a, dtype=np.float32).reshape(4, 2)
    pb = np.asarray(b, dtype=np.float32).reshape(4, 2)
    area, _ = cv2.intersectConvexConvex(pa, pb)
    smaller = min(cv2.contourArea(pa), cv2.contourArea(pb))
    return float(area) / smaller if smaller > 0 else 0.0


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    pa = np.asarray(a, dtype=np.float32).reshape(4, 2)
    pb = np.asarray(b, dtype=np.float32).reshape(4, 2)
    area, _ = cv2.intersectConvexConvex(pa, pb)
    union = cv2.contourArea(pa) + cv2.contourArea(pb) - area
    return float(area) / union if union > 0 else 0.0
