"""A card running off the photo's edge: its outline, and the whole card it is part of.

The finder outlines the part of such a card that is in view (its side along the frame's
border is the border, `vision.quadgates.cut_side`). Read as a whole face, that part is
a face squashed along the cut direction: "unknown", or worse a wrong card read surely
(a 5 cut across its length read as a 0). A taught deck knows its cards' shape, so the
outline is grown past the border to it: the side opposite the border is the card's
whole side, the two sides running to the border are grown to the card's length (its
long side when the whole side is the short one, else its short side). The part beyond
the border is replicated border pixels, nothing the reader can read; the reader reads
the corner index that is in view (`vision.pipeline.Recognizer`). Grown so, flat, a steep
card's far end lies wrong: its sides to the border converge. `grown_in_plane` grows them
in the card's plane instead, from their vanishing point and a phone camera's focal length.

A card with only one corner off the frame (its tip cut) is outlined with that corner on
the border, the outline's two sides to it cutting across the face; its own two sides are
found as the lines the edges follow from the corners beside it to the border, and the
corner off the frame is where they meet (`tip_completed`): no card shape is assumed, so
a steep view is completed as well as an overhead one.

Geometry, and the edges along a line (`tip_completed`); nothing here reads a card.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from vision.warp import order_corners

BORDER = 2.0   # pixels at the finder's working size: a corner this near the border lies on it
# An outline whose sides to the border are at least this share of the card's length
# there is the whole card (a card lying against the frame's edge, not running off it).
WHOLE = 0.95


def on_border(corners: np.ndarray, size: tuple[int, int], tolerance: float) -> int:
    """How many corners of the outline lie within `tolerance` pixels of the border of a
    frame of `size` (w, h)."""
    w, h = size
    return sum(x < tolerance or y < tolerance or x > w - 1 - tolerance or y > h - 1 - tolerance
               for x, y in np.asarray(corners, np.float32).reshape(4, 2).tolist())


def border_run(corners: np.ndarray, size: tuple[int, int], tolerance: float) -> tuple[int, set[int]] | None:
    """(i, borders) when corners i and i + 1 of the outline (and no other) lie within
    `tolerance` pixels of the frame's border (a frame of `size` (w, h)); `borders` are the
    borders both lie on (0 left, 1 top, 2 right, 3 bottom), empty when they lie on two
    different ones. None otherwise."""
    w, h = size
    pts = np.asarray(corners, np.float32).reshape(4, 2).tolist()
    on = [{b for b, hit in enumerate((x < tolerance, y < tolerance, x > w - 1 - tolerance, y > h - 1 - tolerance))
           if hit} for x, y in pts]
    touching = [i for i in range(4) if on[i]]
    if len(touching) != 2:
        return None
    i, j = touching
    if (i, j) == (0, 3):
        i, j = 3, 0
    elif j - i != 1:
        return None
    return i, on[i] & on[j]


def border_side(corners: np.ndarray, size: tuple[int, int], tolerance: float) -> int | None:
    """i when corners i and i + 1 of the outline (and no other) lie within `tolerance`
    pixels of the same border of a frame of `size` (w, h): side i is the frame's border;
    None otherwise."""
    run = border_run(corners, size, tolerance)
    return run[0] if run is not None and run[1] else None


def grown_past(corners: np.ndarray, side: int, aspect: float) -> np.ndarray | None:
    """The whole-card outline (TL, TR, BR, BL, float32) of a card `aspect` (long / short)
    in shape that the outline `corners` is part of, its side `side` (corners side,
    side + 1) being the frame's border; None when the outline is as long as such a card
    already (within WHOLE)."""
    quad = np.asarray(corners, np.float32).reshape(4, 2)
    a, b = side, (side + 1) % 4          # on the border
    c, d = (side + 2) % 4, (side + 3) % 4  # b-c and d-a run to the border; c-d is whole
    whole = float(np.hypot(*(quad[c] - quad[d])))
    run_b, run_a = quad[b] - quad[c], quad[a] - quad[d]
    partial = (float(np.hypot(*run_b)) + float(np.hypot(*run_a))) / 2
    if whole < 1.0 or partial < 1.0:
        return None
    # the whole side is the short one when the part in view is longer than it (a card cut
    # across its length keeps 70-100 % of 1.5 widths), else the long one
    length = whole * aspect if partial >= whole else whole / aspect
    if partial >= WHOLE * length:
        return None
    grown = quad.copy()
    grown[b] = quad[c] + run_b * (length / max(float(np.hypot(*run_b)), 1e-6))
    grown[a] = quad[d] + run_a * (length / max(float(np.hypot(*run_a)), 1e-6))
    return order_corners(grown)


# A card whose one corner runs off the frame (its tip cut): the finder's outline holds
# the three corners in view and a fourth on the border, between the two points where the
# card's sides leave the frame, so its two sides to that corner cut across the face. The
# card's sides from the two neighbouring corners run straight to the border, outside
# those chords: each is found as the line from near its corner that an edge follows
# furthest (`_edge_ray`), and the corner off the frame is where the two meet (exact under
# any perspective, where the parallelogram on the three corners in view is not).
TIP_SWEEP = 40.0     # degrees outward of the chord to the tip a side is looked for
TIP_COARSE = 1.0     # degrees between the lines tried first
TIP_STEP = 0.125     # degrees between the lines tried then, near the best
TIP_SHIFT = 3        # pixels either way of the corner a line may pass (the corner's error)
TIP_FOLLOWED = 0.7   # share of a line's length in view an edge must follow
TIP_FROM = 0.08      # a line is looked at from this share of its length in view on
TIP_SAMPLES = 64     # points looked at along a line
# When no such line is followed, or the card so completed is not read surely (`slid`): the
# finder fits four corners to what is in view of such a card (five corners: three of the
# card's and two where its sides leave the frame), so the corners beside the tip may lie a
# few percent of a side off the card's, where no line within TIP_SHIFT pixels of them can
# be the card's side; and the outline's corner on the border may lie beyond the card's
# sides, so the card's side may turn inward of the chord to it. Then the line starts from
# points along the outline's side from the corner opposite the tip, within TIP_SLIDE of
# that side's length either way of the corner (TIP_SLIDES of them each way, the nearest
# the corner first), and turns TIP_INWARD degrees inward of the chord too (the smallest
# turn first); the corner beside the tip is moved to where the line found meets that side.
TIP_SLIDE = 0.1
TIP_SLIDES = 10
TIP_INWARD = 20.0
TIP_SLID_COARSE = 2.0   # degrees between the lines tried first so (then every TIP_STEP near the best)


def tip_corner(corners: np.ndarray, size: tuple[int, int], tolerance: float) -> int | None:
    """i when corner i of the outline, and no other, lies within `tolerance` pixels of
    the border of a frame of `size` (w, h)."""
    w, h = size
    pts = np.asarray(corners, np.float32).reshape(4, 2).tolist()
    on = [i for i, (x, y) in enumerate(pts)
          if x < tolerance or y < tolerance or x > w - 1 - tolerance or y > h - 1 - tolerance]
    return on[0] if len(on) == 1 else None


def tip_completed(frame: np.ndarray, corners: np.ndarray, tip: int, slid: bool = False) -> np.ndarray | None:
    """The whole-card outline (TL, TR, BR, BL, float32) of a card whose corner `tip` of
    the outline `corners` lies on the frame's border (`tip_corner`): the corner off the
    frame where the card's sides from the tip's two neighbours, each followed by an edge
    to the border, meet. None when either side is not followed so, or they meet on the
    near side of the outline's tip. `slid`: each side looked for from points slid along
    the outline's side from the opposite corner, turned inward too (TIP_SLIDE, TIP_INWARD),
    the neighbour moved onto the line found."""
    quad = np.asarray(corners, np.float32).reshape(4, 2)
    a, c, d, k = quad[(tip - 1) % 4], quad[(tip + 1) % 4], quad[(tip + 2) % 4], quad[tip]
    h, w = frame.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)) - 4, 0).astype(int)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)) + 5, (w, h)).astype(int)
    # the sides leave the frame beyond the outline's box along the tip's border
    if k[0] < 4 or k[0] > w - 5:
        y0, y1 = 0, h
    if k[1] < 4 or k[1] > h - 5:
        x0, x1 = 0, w
    roi = frame[y0:y1, x0:x1]
    if roi.ndim == 3:
        roi = cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY)
    edges = cv2.dilate(cv2.Canny(cv2.GaussianBlur(roi, (3, 3), 0), 30, 90, L2gradient=True),
                       np.ones((3, 3), np.uint8))
    centre = quad.mean(axis=0)
    lines = []
    for start in (a, c):
        along = (start - d) / max(float(np.hypot(*(start - d))), 1e-6) if slid else None
        slide = TIP_SLIDE * float(np.hypot(*(start - d))) / TIP_SLIDES if slid else 0.0
        line = _edge_ray(edges, start - (x0, y0), k - start, centre - start, along, slide)
        if line is None:
            return None
        lines.append(line)
    (p, r), (q, s) = lines
    cross = float(r[0] * s[1] - r[1] * s[0])
    if abs(cross) < 0.05:
        return None
    along_r = float((q[0] - p[0]) * s[1] - (q[1] - p[1]) * s[0]) / cross
    corner = p + along_r * r + (x0, y0)
    # the corner found lies beyond the outline's tip (off the frame, or on its border),
    # nearer it than the card's other diagonal is long; slid, the outline's tip may lie
    # beyond the card's corner: that corner lies off the frame (or on its border)
    beyond = min(corner[0], corner[1], w - 1 - corner[0], h - 1 - corner[1]) < 1.0 if slid \
        else float(np.dot(corner - k, k - d)) >= 0
    if not beyond or along_r <= 0 or float(np.hypot(*(corner - k))) > float(np.hypot(*(a - c))):
        return None
    whole = quad.copy()
    whole[tip] = corner
    if slid:   # each corner beside the tip where its line meets its side from the opposite corner
        for i, (point, u) in zip(((tip - 1) % 4, (tip + 1) % 4), lines):
            side = quad[i] - d
            cross = float(u[0] * side[1] - u[1] * side[0])
            if abs(cross) < 0.05 * float(np.hypot(*side)):
                return None
            from_point = d - (point + (x0, y0))
            whole[i] = point + (x0, y0) + float(from_point[0] * side[1] - from_point[1] * side[0]) / cross * u
    return order_corners(whole)


def _edge_ray(edges: np.ndarray, start: np.ndarray, chord: np.ndarray, inward: np.ndarray,
              along: np.ndarray | None = None, slide: float = 0.0):
    """(a point, unit direction) of the line from within TIP_SHIFT pixels of `start`,
    0-TIP_SWEEP degrees from `chord` turned away from `inward`, that the edge map `edges`
    follows for the largest share of its length in the map (from TIP_FROM of it on, at
    TIP_SAMPLES points), when that share is at least TIP_FOLLOWED; else None. Looked for
    every TIP_COARSE degrees, then every TIP_STEP within TIP_COARSE of the best. `along`
    (a unit direction): the line may also start from `start` moved along it by up to
    TIP_SLIDES steps of `slide` pixels either way, and turn up to TIP_INWARD degrees
    towards `inward`; of lines followed as far, the one starting nearest `start`, then
    turned least, is taken."""
    base = math.atan2(float(chord[1]), float(chord[0]))
    # turning towards positive angles moves the direction away from the inside when the
    # inside lies on the chord's negative side
    away = -1.0 if float(chord[0] * inward[1] - chord[1] * inward[0]) > 0 else 1.0
    least, coarse = (0.0, TIP_COARSE) if along is None else (-TIP_INWARD, TIP_SLID_COARSE)
    turns = np.arange(least, TIP_SWEEP + 1e-6, coarse)
    turns = turns[np.argsort(np.abs(turns), kind="stable")]
    if along is None:
        point, u, share = _best_line(edges, start, base + away * np.radians(turns))
    else:
        steps = np.arange(-TIP_SLIDES, TIP_SLIDES + 1)
        point, u, share = None, None, -1.0
        for step in steps[np.argsort(np.abs(steps), kind="stable")].tolist():
            found = _best_line(edges, start + step * slide * along, base + away * np.radians(turns))
            if found[2] > share:
                point, u, share = found
    turn = math.degrees(away * (math.atan2(float(u[1]), float(u[0])) - base))
    turn = (turn + 180.0) % 360.0 - 180.0
    fine = np.arange(max(turn - coarse, least), min(turn + coarse, TIP_SWEEP) + 1e-6, TIP_STEP)
    if along is not None:
        start = point   # (the start found; a point within TIP_SHIFT of it, as before)
        fine = fine[np.argsort(np.abs(fine - turn), kind="stable")]
    point, u, share = _best_line(edges, start, base + away * np.radians(fine))
    return (point, u) if share >= TIP_FOLLOWED else None


def _best_line(edges: np.ndarray, start: np.ndarray, angles: np.ndarray):
    """Of the lines in the directions `angles` through points within TIP_SHIFT pixels of
    `start` (across them), the one the edge map follows for the largest share of its
    length in the map: (point, unit direction, share). Every line at once."""
    h, w = edges.shape
    u = np.stack([np.cos(angles), np.sin(angles)], axis=1)                      # (a, 2)
    shifts = np.arange(-TIP_SHIFT, TIP_SHIFT + 1, dtype=np.float64)
    normal = np.stack([-u[:, 1], u[:, 0]], axis=1)
    points = np.asarray(start, np.float64)[None, None, :] + shifts[None, :, None] * normal[:, None, :]  # (a, s, 2)
    ux, uy = u[:, None, 0], u[:, None, 1]
    px, py = points[..., 0], points[..., 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        to_x = np.where(ux > 1e-6, (w - 1 - px) / ux, np.where(ux < -1e-6, -px / ux, np.inf))
        to_y = np.where(uy > 1e-6, (h - 1 - py) / uy, np.where(uy < -1e-6, -py / uy, np.inf))
    reach = np.minimum(to_x, to_y)                                              # (a, s)
    inside = (px >= 0) & (px <= w - 1) & (py >= 0) & (py <= h - 1) & (reach >= 12)
    t = reach[..., None] * np.linspace(TIP_FROM, 1.0, TIP_SAMPLES)[None, None, :]  # (a, s, n)
    xs = np.clip(np.rint(px[..., None] + t * ux[..., None]), 0, w - 1).astype(np.intp)
    ys = np.clip(np.rint(py[..., None] + t * uy[..., None]), 0, h - 1).astype(np.intp)
    share = np.where(inside, np.count_nonzero(edges[ys, xs], axis=2) / TIP_SAMPLES, 0.0)
    best = np.unravel_index(int(np.argmax(share)), share.shape)
    return np.float32(points[best]), np.float32(u[best[0]]), float(share[best])


# An outline with one corner on the border may be no tip: a card running off the frame along
# a whole side that the finder closed with one corner beyond the border and its neighbour
# just inside it. Then the card's side through that neighbour runs on past it to the
# border, where past a tip's corner in view lies the table: `runs_on` looks for an edge
# following the side's line on from the corner, turned up to RUN_ON_TURN degrees either way
# (through points within TIP_SHIFT pixels of the corner), for TIP_FOLLOWED of the way.
RUN_ON_TURN = 2.0
RUN_ON_STEP = 0.5


def runs_on(frame: np.ndarray, corners: np.ndarray, corner: int, behind: int) -> bool:
    """Whether the outline's side from its corner `behind` to its corner `corner` runs on
    past `corner` to the frame's border: an edge follows the line on from `corner` in that
    direction (within RUN_ON_TURN degrees) for TIP_FOLLOWED of its length in view."""
    quad = np.asarray(corners, np.float32).reshape(4, 2)
    h, w = frame.shape[:2]
    start, run = quad[corner], quad[corner] - quad[behind]
    length = float(np.hypot(*run))
    if length < 1.0 or not (0 <= start[0] <= w - 1 and 0 <= start[1] <= h - 1):
        return False
    u = run / length
    with np.errstate(divide="ignore"):
        reach = min(((w - 1 - start[0]) / u[0]) if u[0] > 1e-6 else (-start[0] / u[0]) if u[0] < -1e-6 else np.inf,
                    ((h - 1 - start[1]) / u[1]) if u[1] > 1e-6 else (-start[1] / u[1]) if u[1] < -1e-6 else np.inf)
    end = start + float(reach) * u
    margin = TIP_SHIFT + 6
    x0, y0 = np.maximum(np.floor(np.minimum(start, end)) - margin, 0).astype(int)
    x1, y1 = np.minimum(np.ceil(np.maximum(start, end)) + margin + 1, (w, h)).astype(int)
    roi = frame[y0:y1, x0:x1]
    if roi.ndim == 3:
        roi = cv2.cvtColor(roi, cv2.COLOR_BGR2GRAY)
    edges = cv2.dilate(cv2.Canny(cv2.GaussianBlur(roi, (3, 3), 0), 30, 90, L2gradient=True),
                       np.ones((3, 3), np.uint8))
    base = math.atan2(float(u[1]), float(u[0]))
    turns = np.radians(np.arange(-RUN_ON_TURN, RUN_ON_TURN + 1e-6, RUN_ON_STEP))
    return _best_line(edges, start - (x0, y0), base + turns)[2] >= TIP_FOLLOWED


# A phone's main camera sees about 70 degrees across its long side (26 mm in 35 mm
# terms on a 4:3 sensor): its focal length is about this share of the photo's long side.
PHONE_FOCAL = 0.75


def grown_in_plane(corners: np.ndarray, side: int, aspect: float, size: tuple[int, int],
                   focal: float = PHONE_FOCAL) -> np.ndarray | None:
    """`grown_past` in perspective: the outline's two sides to the border (side `side`)
    are the card's, and converge in the photo as the card tilts; with the camera's focal
    length (`focal` of the long side of a frame of `size` (w, h), the centre its axis),
    their vanishing point gives their direction on the table, the whole side's direction
    is the one square to it in the plane through the whole side, and the two span the
    card's plane. The whole side's two corners are put in that plane, the sides are grown
    there to the card's length for `aspect` (long / short) and the far corners projected
    back. None when the outline is as long as such a card already (within WHOLE) in the
    plane, or the geometry is degenerate (the card seen edge on)."""
    quad = np.asarray(corners, np.float64).reshape(4, 2)
    w, h = size
    f = focal * max(w, h)
    centre = np.array([w / 2.0, h / 2.0])
    ray = np.column_stack([(quad - centre) / f, np.ones(4)])   # each corner's viewing ray
    a, b = side, (side + 1) % 4
    c, d = (side + 2) % 4, (side + 3) % 4
    # the card's sides to the border meet (in 3-D: their common direction) at
    run = np.cross(np.cross(ray[d], ray[a]), np.cross(ray[c], ray[b]))
    if np.linalg.norm(run) < 1e-12:
        return None
    run /= np.linalg.norm(run)
    across = np.cross(run, np.cross(ray[d], ray[c]))   # square to the sides, along d-c
    normal = np.cross(run, across)
    if np.linalg.norm(across) < 1e-9 or np.linalg.norm(normal) < 1e-9:
        return None
    normal /= np.linalg.norm(normal)
    depth = ray @ normal
    if np.any(np.abs(depth) < 1e-9) or np.sign(depth).min() != np.sign(depth).max():
        return None
    points = ray / depth[:, None]          # the corners in the plane normal . X = 1
    if np.sign(float(np.dot(points[a] - points[d], run))) < 0:
        run = -run                         # pointing from the whole side to the border
    whole = float(np.linalg.norm(points[c] - points[d]))
    partial = (float(np.dot(points[a] - points[d], run)) + float(np.dot(points[b] - points[c], run))) / 2
    if whole < 1e-9 or partial <= 0:
        return None
    length = whole * aspect if partial >= whole else whole / aspect
    if partial >= WHOLE * length:
        return None
    grown = quad.copy()
    for near, far in ((d, a), (c, b)):
        tip = points[near] + run * length
        if tip[2] <= 1e-6:
            return None                    # behind the camera
        grown[far] = tip[:2] / tip[2] * f + centre
    return order_corners(np.float32(grown))
