"""The quicker code for reading a card gives the numbers of the plain code it replaced.

Each test keeps the plain version (as it was before it was made quicker) and compares on
faces that matter: rendered cards under coloured and uneven light, camera-like views of
them, and noise. Bit for bit where the quicker code promises it (the paper's fit feeds
OpenCV's float Lab conversion, whose output moves in steps: any change of the fit's last
bit moves every feature after it)."""
import math

import cv2
import numpy as np
import pytest

from vision import edgequads
from vision.classify import (SHIFT, SHIFTS, TEMPLATE_SIZE, WORK_SIZE, _BASIS, face_features,
                             ink_planes, paper_light, shifted_templates)
from vision.colour import median
from vision.reader import BINS, CELL, INDEX_CELL, hog_cells
from vision.outlinecheck import near_band
from vision.warp import along_and_across
from vision.render.cards import render_card


def plain_paper_light(inner, step=2):
    """`step`: the grid the paper is sampled on (every other pixel; a taught deck's
    `vision.classify.PAPER_STEP`)."""
    x = _BASIS[::step, ::step].reshape(-1, 3)
    values = inner[::step, ::step].reshape(-1, 3)
    bright = values.sum(axis=1)
    paper = bright >= np.partition(bright, int(bright.size * 0.75))[int(bright.size * 0.75)]
    for _ in range(2):
        coef, *_ = np.linalg.lstsq(x[paper], values[paper], rcond=None)
        paper = bright >= 0.88 * (x @ coef).sum(axis=1)
    return np.maximum(_BASIS @ coef, 0.05)


def plain_ink_planes(face):
    w, h = WORK_SIZE
    face = cv2.resize(face, WORK_SIZE, interpolation=cv2.INTER_AREA)
    inner = face[3:h - 3, 3:w - 3].astype(np.float32) * (1 / 255)
    paper = plain_paper_light(inner)
    balanced = np.minimum(inner / paper, 1.0).astype(np.float32)
    lab = cv2.cvtColor(balanced, cv2.COLOR_BGR2Lab)
    lightness, a, b = lab[..., 0], lab[..., 1], lab[..., 2]
    ink = np.sqrt((100.0 - lightness) ** 2 + a * a + b * b)
    return lightness, a, b, ink, paper.reshape(-1, 3).mean(axis=0)


def plain_shifted_templates(ink):
    padded = cv2.copyMakeBorder(ink, SHIFT, SHIFT, SHIFT, SHIFT, cv2.BORDER_REPLICATE)
    ih, iw = ink.shape
    return np.asarray([cv2.resize(padded[SHIFT + dy:SHIFT + dy + ih, SHIFT + dx:SHIFT + dx + iw],
                                  TEMPLATE_SIZE, interpolation=cv2.INTER_AREA).ravel()
                       for dx, dy in SHIFTS], np.float32)


def plain_hog_cells(image, size=CELL):
    gx = cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=1)
    magnitude, angle = cv2.cartToPolar(gx, gy, angleInDegrees=True)
    position = (angle.ravel() % 180.0) * (BINS / 180.0) - 0.5
    low = np.floor(position)
    share = position - low
    low = low.astype(np.int64) % BINS
    h, w = image.shape
    ys, xs = np.mgrid[0:h, 0:w]
    cell = ((ys // size) * (w // size) + xs // size).ravel() * BINS
    index = np.concatenate([cell + low, cell + (low + 1) % BINS])
    strength = magnitude.ravel()
    weights = np.concatenate([strength * (1 - share), strength * share])
    counts = np.bincount(index, weights, minlength=(h // size) * (w // size) * BINS)
    return counts.reshape(h // size, w // size, BINS).astype(np.float32)


def faces():
    """Rendered cards under warm, dim and uneven light, turned a little, and noise."""
    rng = np.random.default_rng(7)
    out = []
    for game, code in (("solo", "G5"), ("solo", "Y-SWAP"), ("flip7", "12"), ("raj", "P8")):
        face = render_card(game, code).astype(np.float32)
        for gains in ((1.0, 1.0, 1.0), (0.7, 0.9, 1.25), (0.45, 0.5, 0.5)):
            fall_off = np.linspace(1.0, 0.6, face.shape[1], dtype=np.float32)[None, :, None]
            lit = np.clip(face * np.float32(gains) * fall_off + rng.normal(0, 4, face.shape), 0, 255)
            turn = cv2.getRotationMatrix2D((100, 140), float(rng.uniform(-4, 4)), 1.0)
            out.append(cv2.warpAffine(lit.astype(np.uint8), turn, (200, 280), borderMode=cv2.BORDER_REPLICATE))
    out += [(rng.random((92, 66, 3)) * 255).astype(np.uint8) for _ in range(3)]
    out += [np.full((92, 66, 3), v, np.uint8) for v in (0, 255)]
    return out


FACES = faces()


@pytest.mark.parametrize("index", range(len(FACES)))
def test_the_ink_planes_are_the_plain_ones_bit_for_bit(index):
    quick, plain = ink_planes(FACES[index]), plain_ink_planes(FACES[index])
    for q, p in zip(quick[:4], plain[:4]):           # lightness, a, b, ink: the same bits
        assert q.dtype == p.dtype and np.array_equal(q, p)
    assert np.allclose(quick[4], plain[4], rtol=0, atol=1e-5)   # the paper's mean colour


def test_the_paper_fit_is_the_plain_one_bit_for_bit():
    for face in FACES:
        inner = cv2.resize(face, WORK_SIZE, interpolation=cv2.INTER_AREA)[3:-3, 3:-3].astype(np.float32) / 255
        assert np.array_equal(paper_light(inner), plain_paper_light(inner))


def test_shifted_templates_are_nine_shrinks_bit_for_bit():
    for face in FACES:
        ink = face_features(face).ink
        for capped in (ink, np.minimum(ink, 60.0)):
            assert np.array_equal(shifted_templates(capped), plain_shifted_templates(capped))
    # a size the column trick does not fit falls back to the nine shrinks
    odd = np.random.default_rng(3).random((70, 47)).astype(np.float32)
    assert np.array_equal(shifted_templates(odd), plain_shifted_templates(odd))


@pytest.mark.parametrize("size, cell", [((48, 72), CELL), ((32, 48), CELL), ((16, 24), INDEX_CELL)])
def test_hog_cells_are_the_plain_ones(size, cell):
    rng = np.random.default_rng(5)
    images = [cv2.resize(face_features(f).ink, size, interpolation=cv2.INTER_AREA) for f in FACES]
    images += [rng.random(size[::-1]).astype(np.float32) * 80 for _ in range(3)]
    # gradients pointing exactly along the bins' edges (0, 90, 180 degrees) and none at all
    w, h = size
    across = np.tile(np.arange(w, dtype=np.float32), (h, 1))
    down = np.tile(np.arange(h, dtype=np.float32)[:, None], (1, w))
    images += [across, -across, down, np.zeros((h, w), np.float32)]
    for image in images:
        assert np.array_equal(hog_cells(image, cell), plain_hog_cells(image, cell))


def test_the_median_is_numpys_to_the_bit():
    rng = np.random.default_rng(11)
    for n in (1, 2, 3, 4, 5, 100, 101, 1241):
        for values in (rng.random(n).astype(np.float32) * 100, np.round(rng.random(n) * 4).astype(np.float32)):
            assert median(values) == float(np.median(values))


def test_the_band_of_edge_points_a_side_can_pick_holds_every_pixel_within_reach():
    """`sidefit.refined` lists only the edge points inside `near_band`: it must hold every
    pixel a side would pick from the whole picture (within the reach across the side,
    between 15 % and 85 % along it)."""
    rng = np.random.default_rng(2)
    ys, xs = np.mgrid[0:120, 0:160]
    pixels = np.stack((xs.ravel(), ys.ravel()), axis=1).astype(np.float32)
    for _ in range(60):
        centre = rng.uniform((40, 30), (120, 90))
        w, h, angle = rng.uniform(20, 70), rng.uniform(30, 90), rng.uniform(0, np.pi)
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        quad = (centre + (np.array([[-w, -h], [w, -h], [w, h], [-w, h]]) / 2 + rng.normal(0, 2, (4, 2))) @ rot.T)
        quad = quad.astype(np.float32)
        reach = float(rng.choice([1.5, 3.0, 4.7]))
        band = near_band((120, 160), quad, reach).ravel() > 0
        for i in range(4):
            length, _, along, across = along_and_across(pixels, quad[i], quad[(i + 1) % 4])
            near = (np.abs(across) <= reach) & (along > 0.15 * length) & (along < 0.85 * length)
            assert band[near].all()


def test_the_symbol_class_lookup_answers_as_isin():
    """`classify._members` replaced `np.isin` for the symbol classes that compete: the same
    answer for every built-in deck's classes and any subset of them."""
    from test_vision_support import profile
    from vision.classify import _members

    rng = np.random.default_rng(3)
    for game in ("solo", "raj"):
        classes = profile(game).symbol_class
        for _ in range(50):
            chosen = classes[rng.random(len(classes)) < rng.random()]
            assert np.array_equal(_members(classes, chosen), np.isin(classes, chosen))


def test_contour_areas_are_opencvs_to_the_bit():
    """`realmaps.contour_areas` replaced a `cv2.contourArea` call a region: the same
    lengths and areas for contours of every kind findContours gives (specks, lines, holes)."""
    from vision.realmaps import contour_areas

    rng = np.random.default_rng(4)
    for trial in range(60):
        mask = ((rng.random((60, 80)) > rng.uniform(0.3, 0.9)) * 255).astype(np.uint8)
        how = (cv2.CHAIN_APPROX_SIMPLE, cv2.CHAIN_APPROX_NONE)[trial % 2]
        contours = list(cv2.findContours(mask, cv2.RETR_LIST, how)[0])
        lengths, areas = contour_areas(contours)
        assert lengths.tolist() == [len(c) for c in contours]
        assert areas.tolist() == [cv2.contourArea(c) for c in contours]
    assert contour_areas([])[1].size == 0


def test_find_non_zero_lists_the_points_as_numpy_does():
    """`sidefit.refined` lists the edge points with `cv2.findNonZero`: the same points
    in the same order as `np.nonzero` (the side fits see them in that order)."""
    rng = np.random.default_rng(6)
    for shape in ((1, 1), (37, 53), (120, 90)):
        for share in (0.0, 0.01, 0.5):
            mask = ((rng.random(shape) < share) * 255).astype(np.uint8)
            found = cv2.findNonZero(mask)
            ys, xs = np.nonzero(mask)
            listed = np.empty((0, 2), np.int32) if found is None else found.reshape(-1, 2)
            assert np.array_equal(listed, np.stack((xs, ys), axis=1))


def plain_outline_share(quad, edges, white, min_step, skip_side=-1):
    """`outlinecheck.outline_share` as it was before it was made quicker."""
    from vision.outlinecheck import _NEXT, _SAMPLES, _T

    h, w = edges.shape
    quad = quad.astype(np.float32, copy=False)
    direction = quad[_NEXT] - quad
    normal = direction[:, ::-1] * np.float32((1, -1))
    normal /= np.maximum(np.sqrt((normal * normal).sum(axis=1, keepdims=True)), 1e-6)
    flip = ((quad.mean(axis=0) - quad) * normal).sum(axis=1) > 0
    normal[flip] *= -1
    points = quad[:, None, :] + _T * direction[:, None, :]
    away = 3 * normal[:, None, :]
    n = 4 * _SAMPLES
    every = np.concatenate((points, points - away, points + away)).reshape(-1, 2)
    xs, ys = every[:, 0], every[:, 1]
    inside_frame = (xs[:n] >= 0) & (xs[:n] < w) & (ys[:n] >= 0) & (ys[:n] < h)
    if skip_side >= 0:
        inside_frame[skip_side * _SAMPLES:(skip_side + 1) * _SAMPLES] = False
    xi = np.minimum(np.maximum(xs + 0.5, 0), w - 1).astype(np.int32)
    yi = np.minimum(np.maximum(ys + 0.5, 0), h - 1).astype(np.int32)
    on_edge = edges[yi[:n], xi[:n]] > 0
    shades = white[yi[n:], xi[n:]].astype(np.int16)
    good = (on_edge | (shades[:n] - shades[n:] >= min_step)) & inside_frame
    return float(np.count_nonzero(good)) / max(int(np.count_nonzero(inside_frame)), 1)


def test_the_outline_share_is_the_plain_one():
    """Quads of every kind (past the border, on whole pixels, a side of no length) on
    random edge maps: the same share as the plain code, for every side left out."""
    from vision.outlinecheck import outline_share

    rng = np.random.default_rng(8)
    for trial in range(1500):
        h, w = ((240, 320), (37, 53), (480, 640))[trial % 3]
        edges = ((rng.random((h, w)) > rng.uniform(0.3, 0.95)) * 255).astype(np.uint8)
        white = rng.integers(0, 256, (h, w), dtype=np.uint8)
        quad = rng.uniform(-20, max(h, w) + 20, (4, 2)).astype(np.float32)
        if trial % 5 == 0:
            quad = np.round(quad)
        if trial % 7 == 0:
            quad[1] = quad[0]
        for skip in (-1, trial % 4):
            step = int(rng.integers(0, 40))
            assert outline_share(quad, edges, white, step, skip) == \
                plain_outline_share(quad, edges, white, step, skip)



def test_the_outline_shares_of_many_quads_at_once_are_each_ones_own():
    """The frame's outline checks done together (each with its own side left out, quads
    of float64 too, as a framed field's grown outline is) give each quad the share the
    plain code gives it alone."""
    from vision.outlinecheck import outline_shares

    rng = np.random.default_rng(9)
    for trial in range(300):
        h, w = ((240, 320), (37, 53), (480, 640))[trial % 3]
        edges = ((rng.random((h, w)) > rng.uniform(0.3, 0.95)) * 255).astype(np.uint8)
        white = rng.integers(0, 256, (h, w), dtype=np.uint8)
        quads = [rng.uniform(-20, max(h, w) + 20, (4, 2)).astype((np.float32, np.float64)[k % 2])
                 for k in range(int(rng.integers(1, 12)))]
        skips = [int(rng.integers(-2, 4)) for _ in quads]
        step = int(rng.integers(0, 40))
        assert outline_shares(quads, skips, edges, white, step) == \
            [plain_outline_share(q, edges, white, step, k) for q, k in zip(quads, skips)]
    assert outline_shares([], [], edges, white, 12) == []

def plain_local_masks(white, settings):
    """`realmaps.mapped_regions`'s masks above the local mean, as they were taken (in int16)."""
    h, w = white.shape
    block = int(min(h, w) * settings.local_block) | 1
    mean = cv2.blur(white, (block, block), borderType=cv2.BORDER_REPLICATE).astype(np.int16)
    return [cv2.compare(white.astype(np.int16), mean + offset, cv2.CMP_GT) for offset in settings.local_offsets]


def test_the_masks_above_the_local_mean_are_the_plain_ones():
    """Taken in uint8 now (the mean plus the offset saturating at 255): the same masks,
    on pictures with whites near 255 and on noise."""
    from vision.realfind import RealSettings
    from vision.realmaps import above_local_mean

    settings = RealSettings(local_offsets=(0, 1, 15, 30, 50, 254, 255))
    rng = np.random.default_rng(9)
    pictures = [rng.integers(0, 256, (60, 80), dtype=np.uint8), np.full((60, 80), 255, np.uint8),
                np.clip(rng.normal(235, 25, (120, 90)), 0, 255).astype(np.uint8)]
    pictures += [cv2.min(cv2.min(face[..., 0], face[..., 1]), face[..., 2]) for face in FACES]
    for white in pictures:
        for quick, plain in zip(above_local_mean(white, settings), plain_local_masks(white, settings)):
            assert quick.dtype == plain.dtype and np.array_equal(quick, plain)


def plain_corners(segs, settings):
    a, b = segs[:, :2], segs[:, 2:]
    d = b - a
    length = np.maximum(np.hypot(d[:, 0], d[:, 1]), 1e-6)
    u = d / length[:, None]
    every = np.multiply.outer(u[:, 0], u[:, 1]) - np.multiply.outer(u[:, 1], u[:, 0])
    i, j = np.nonzero(np.triu(np.abs(every) >= math.sin(math.radians(settings.corner_angles[0])), 1))
    cross = every[i, j]
    rel = a[j] - a[i]
    t = (rel[:, 0] * u[j, 1] - rel[:, 1] * u[j, 0]) / cross
    s = (rel[:, 0] * u[i, 1] - rel[:, 1] * u[i, 0]) / cross
    reach_i = np.maximum(settings.corner_gap * length[i], settings.corner_reach)
    reach_j = np.maximum(settings.corner_gap * length[j], settings.corner_reach)
    start_i, end_i = np.abs(t) <= reach_i, np.abs(t - length[i]) <= reach_i
    start_j, end_j = np.abs(s) <= reach_j, np.abs(s - length[j]) <= reach_j
    keep = (start_i | end_i) & (start_j | end_j)
    i, j, t = i[keep], j[keep], t[keep]
    sign_i = np.where(start_i[keep], 1.0, -1.0)[:, None]
    sign_j = np.where(start_j[keep], 1.0, -1.0)[:, None]
    points = a[i] + t[:, None] * u[i]
    return points.astype(np.float32), (sign_i * u[i]).astype(np.float32), (sign_j * u[j]).astype(np.float32)


def test_the_segments_corners_are_the_plain_ones_bit_for_bit():
    # chains of segments whose ends nearly meet (corners at every reach), and scattered ones
    settings = edgequads.QuadSettings()
    rng = np.random.default_rng(5)
    found = 0
    for n in range(300):
        p = rng.uniform(0, 640, (int(rng.integers(1, 40)), 2))
        q = p + rng.normal(0, rng.uniform(5, 150), p.shape)
        r = q + rng.normal(0, rng.uniform(5, 150), p.shape)
        segs = np.concatenate([np.hstack([p, q]), np.hstack([q + rng.normal(0, 3, q.shape), r]),
                               rng.uniform(0, 640, (int(rng.integers(0, 20)), 4))]).astype(np.float32)
        quick, plain = edgequads.corners(segs, settings), plain_corners(segs, settings)
        for a, b in zip(quick, plain):
            assert a.dtype == b.dtype and np.array_equal(a, b)
        found += len(plain[0])
    assert found > 1000
