"""The refit at the frame's size looks for edges only in a strip along each side
(`sidefit._refined_strips`) where the strips cost less than the quad's whole box
(`sidefit._refined_box`, the old way, kept for the others).

What is the same: each pixel's edge depends on the picture within 3 pixels of it (the
blur, the gradient and the thinning), and each strip holds the part of its side that is
fitted and STRIP_GROW pixels more (or meets the box's own border there). What may
differ: Canny's hysteresis keeps a weak edge pixel joined to a strong one through any
pixel of the picture it is given, and a strip holds less of the box (measured on the real
photos in docs/vision-history.md, "The whole new frame, session 18": the same readings)."""
import math

import cv2
import numpy as np

from vision import sidefit
from vision.sidefit import REFIT_STEP, STRIP_GROW, refined, _refined_box, _refined_strips, _strips
from vision.warp import along_and_across


def random_quads(rng, count, shape=(240, 320)):
    h, w = shape
    for _ in range(count):
        centre = rng.uniform((w * 0.2, h * 0.2), (w * 0.8, h * 0.8))
        a, b, angle = rng.uniform(30, 110), rng.uniform(40, 150), rng.uniform(0, np.pi)
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        corners = np.array([[-a, -b], [a, -b], [a, b], [-a, b]]) / 2 + rng.normal(0, 3, (4, 2))
        yield (centre + corners @ rot.T).astype(np.float32)


def box_of(quad, reach, shape):
    h, w = shape
    x0, y0 = np.maximum(np.floor(quad.min(axis=0) - reach - 2), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0) + reach + 3), (w, h)).astype(int)
    return int(x0), int(y0), int(x1), int(y1)


def test_each_strip_holds_its_sides_fitted_pixels_and_three_more_all_round():
    """Every pixel a side's fit may pick (within the reach across, 15 % to 85 % along) is
    listed (inside the side's listed rectangle) and lies STRIP_GROW pixels inside that
    side's strip, or the strip runs to the box's border there (where the box's picture
    ends too)."""
    rng = np.random.default_rng(12)
    shape = (240, 320)
    ys, xs = np.mgrid[0:shape[0], 0:shape[1]]
    pixels = np.stack((xs.ravel(), ys.ravel()), axis=1).astype(np.float32)
    for quad in random_quads(rng, 80, shape):
        reach = float(rng.choice([1.5, 3.0, 4.7]))
        box = box_of(quad, reach, shape)
        for i, ((x0, y0, x1, y1), (lx0, ly0, lx1, ly1)) in enumerate(_strips(quad, reach, box)):
            length, _, along, across = along_and_across(pixels, quad[i], quad[(i + 1) % 4])
            near = (np.abs(across) <= reach) & (along > 0.15 * length) & (along < 0.85 * length)
            px, py = pixels[near, 0], pixels[near, 1]
            assert ((px >= lx0) & (px < lx1) & (py >= ly0) & (py < ly1)).all()
            assert x0 <= lx0 and y0 <= ly0 and lx1 <= x1 and ly1 <= y1
            assert ((px - STRIP_GROW >= x0) | (x0 == box[0])).all()
            assert ((py - STRIP_GROW >= y0) | (y0 == box[1])).all()
            assert ((px + STRIP_GROW < x1) | (x1 == box[2])).all()
            assert ((py + STRIP_GROW < y1) | (y1 == box[3])).all()


def test_a_strips_edges_are_the_boxs_three_pixels_in_from_its_cut_borders():
    """Without hysteresis (both thresholds the same) the strip's edges are the box's, bit for
    bit, wherever they lie STRIP_GROW pixels in from a border the strip cut (at the box's
    own borders both pictures end alike): STRIP_GROW is enough."""
    rng = np.random.default_rng(13)
    for trial in range(40):
        gray = cv2.GaussianBlur((rng.random((90, 120)) * 255).astype(np.uint8), (0, 0), rng.uniform(0.5, 3))
        def edges(picture):
            return cv2.Canny(cv2.GaussianBlur(picture, (3, 3), 0), 30, 30, L2gradient=True)
        whole = edges(gray)
        x0, y0 = rng.integers(0, 50), rng.integers(0, 40)
        x1, y1 = rng.integers(x0 + 8, 121), rng.integers(y0 + 8, 91)
        part = edges(np.ascontiguousarray(gray[y0:y1, x0:x1]))
        inner = np.ones(part.shape, bool)
        if x0 > 0:
            inner[:, :STRIP_GROW] = False
        if y0 > 0:
            inner[:STRIP_GROW] = False
        if x1 < 120:
            inner[:, part.shape[1] - STRIP_GROW:] = False
        if y1 < 90:
            inner[part.shape[0] - STRIP_GROW:] = False
        assert np.array_equal(part[inner], whole[y0:y1, x0:x1][inner])


def card_picture(quad, shape=(480, 640), seed=0):
    """A white card with a grey print on a dark cloth, a little noise."""
    rng = np.random.default_rng(seed)
    picture = np.full(shape + (3,), (60, 70, 50), np.uint8)
    cv2.fillConvexPoly(picture, np.round(quad * 16).astype(np.int32), (235, 240, 238), cv2.LINE_AA, 4)
    centre = quad.mean(axis=0)
    inner = centre + (quad - centre) * 0.5
    cv2.fillConvexPoly(picture, np.round(inner * 16).astype(np.int32), (90, 40, 160), cv2.LINE_AA, 4)
    noise = rng.normal(0, 4, picture.shape)
    return np.clip(picture + noise, 0, 255).astype(np.uint8)


def test_a_card_apart_refits_the_same_from_its_strips_as_from_its_box():
    """A card on a plain cloth (its print well inside): no edge a side fits is joined to a
    strong one only through the box's middle, so the strips give the box's corners bit for
    bit; the quad given is the card's true outline shifted and a little off."""
    rng = np.random.default_rng(14)
    shape = (480, 640)
    tried = 0
    for true in random_quads(rng, 30, shape):
        if true.min() < 10 or (true[:, 0].max() > 630) or (true[:, 1].max() > 470):
            continue
        picture = card_picture(true, shape, tried)
        given = true + rng.normal(0, 1.0, (4, 2)).astype(np.float32)
        reach = 3.0
        strips = _strips(given, reach, box_of(given, reach, shape))
        assert np.array_equal(_refined_strips(picture, given, reach, strips), _refined_box(picture, given, reach))
        tried += 1
    assert tried >= 15


def test_the_refit_takes_the_strips_only_when_they_cost_less_than_the_box():
    """`refined` runs the strips when their pixels are fewer than the box's, else the box."""
    shape = (480, 640)
    calls = []
    plain_strips, plain_box = sidefit._refined_strips, sidefit._refined_box
    try:
        sidefit._refined_strips = lambda *a: calls.append("strips") or a[1]
        sidefit._refined_box = lambda *a: calls.append("box") or a[1]
        upright = np.float32([[100, 100], [250, 100], [250, 310], [100, 310]])
        refined(np.zeros(shape + (3,), np.uint8), upright, 3.0)
        # a small card turned 45 degrees: each side's strip is nearly a square of the box
        c, r = np.float32([320, 240]), 14
        turned = np.float32([c + (0, -r), c + (r, 0), c + (0, r), c + (-r, 0)])
        refined(np.zeros(shape + (3,), np.uint8), turned, 3.0)
    finally:
        sidefit._refined_strips, sidefit._refined_box = plain_strips, plain_box
    assert calls == ["strips", "box"]
    assert math.isfinite(float(upright.sum()))


def plain_refined_strips(frame, quad, reach, strips):
    """`_refined_strips` side by side as first written: each side's points placed by
    `along_and_across` alone."""
    from vision.arrays import moved
    from vision.lines import corners_of

    lines = []
    for i, ((x0, y0, x1, y1), (lx0, ly0, lx1, ly1)) in enumerate(strips):
        points = np.empty((0, 2), np.float32)
        if lx1 > lx0 and ly1 > ly0:
            roi = cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
            edges = cv2.Canny(cv2.GaussianBlur(roi, (3, 3), 0), 30, 90, L2gradient=True)
            found = cv2.findNonZero(np.ascontiguousarray(edges[ly0 - y0:ly1 - y0, lx0 - x0:lx1 - x0]))
            if found is not None:
                points = moved(found.reshape(-1, 2).astype(np.float32), lx0, ly0)
        length, u, along, across = along_and_across(points, quad[i], quad[(i + 1) % 4])
        near = (np.abs(across) <= reach) & (along > 0.15 * length) & (along < 0.85 * length)
        if np.count_nonzero(near) < 0.3 * length:
            lines.append((quad[i], u))
            continue
        vx, vy, px, py = cv2.fitLine(points[near], cv2.DIST_HUBER, 0, REFIT_STEP, REFIT_STEP).ravel()
        lines.append((np.array((px, py), np.float32), np.array((vx, vy), np.float32)))
    refined = corners_of(lines, 1e-3)
    if refined is None or np.abs(refined - quad).max() > 2 * reach:
        return quad
    return refined


def test_the_four_sides_placed_at_once_fit_as_each_side_alone():
    """The sides' points placed along and across their sides all at once (float32 steps
    element by element) give each side's fit the points `along_and_across` gives it: the
    same corners, on cards apart and cards with a print, a neighbour and noise about them,
    quads off by up to 3 px and running off the picture."""
    rng = np.random.default_rng(15)
    shape = (480, 640)
    for n, true in enumerate(random_quads(rng, 40, shape)):
        picture = card_picture(true, shape, n)
        if n % 2:   # a neighbour's edge and dark strokes across the sides
            cv2.line(picture, tuple(int(v) for v in true[0] - 30), tuple(int(v) for v in true[2] + 30),
                     (20, 20, 20), 2)
            picture = cv2.add(picture, (rng.random(picture.shape) * 40).astype(np.uint8))
        given = true + rng.normal(0, 1.5, (4, 2)).astype(np.float32)
        for reach in (3.0, 4.5):
            strips = _strips(given, reach, box_of(given, reach, shape))
            assert np.array_equal(_refined_strips(picture, given, reach, strips),
                                  plain_refined_strips(picture, given, reach, strips))


def test_the_huber_fit_stopped_at_the_refit_step_answers_as_at_the_old_one_nearly_always():
    """OpenCV's Huber fit answers the line of least summed distance among all its refits;
    stopped once a refit moves the line less than REFIT_STEP (0.1 px and rad) instead of
    0.01 it answers the same line bit for bit on nearly every side (edge points of a
    straight side, a pixel's jitter, some points of a print or a neighbour beside it), and
    a line a small part of a pixel away on the others."""
    rng = np.random.default_rng(16)
    same, moved = 0, []
    for trial in range(300):
        n = int(rng.integers(20, 400))
        length = rng.uniform(40, 300)
        angle = rng.uniform(0, np.pi)
        u, normal = np.array((np.cos(angle), np.sin(angle))), np.array((-np.sin(angle), np.cos(angle)))
        along = rng.uniform(0, length, n)
        across = rng.normal(0, rng.uniform(0.3, 1.0), n)
        stray = rng.random(n) < rng.uniform(0, 0.25)
        across[stray] = rng.uniform(-3, 3, stray.sum())
        points = np.round(rng.uniform(50, 400, 2) + along[:, None] * u + across[:, None] * normal).astype(np.float32)
        old = cv2.fitLine(points, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        new = cv2.fitLine(points, cv2.DIST_HUBER, 0, REFIT_STEP, REFIT_STEP).ravel()
        if np.array_equal(old, new):
            same += 1
            continue
        # the two lines apart at the side's ends
        centre = points.mean(axis=0)
        ends = [centre + t * old[:2] for t in (-length / 2, length / 2)]
        moved.append(max(abs(float(new[0] * (e - new[2:])[1] - new[1] * (e - new[2:])[0])) for e in ends))
    assert same >= 0.97 * 300   # 297 of 300
    assert max(moved, default=0.0) < 0.1   # at most 0.02 px
