"""The finder's code made quicker for a whole new frame gives what the plain code it replaced
gave, bit for bit (the plain versions: tests/realfind_reference.py), on the regions of real
train_ photos of ../shared/realphotos/cards-edje and on drawn shapes made to reach every
branch."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import partial
from vision.realfind import RealSettings
from vision.realmaps import mapped_regions, whiteness

from tests import realfind_reference
from tests.realphoto_helpers import PHOTOS

needs_photos = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"the shared photos are not at {PHOTOS}")
TRAIN = ("train_IMG_2458", "train_IMG_2505", "train_IMG_2548", "train_IMG_2590", "train_IMG_2630",
         "train_IMG_2692")


def _small(name: str) -> np.ndarray:
    """The photo at the finder's 320 pixels, smoothed as the finder smooths it."""
    image = cv2.imread(str(PHOTOS / "images" / f"{name}.jpg"), cv2.IMREAD_COLOR)
    h, w = image.shape[:2]
    scale = 320 / max(h, w)
    small = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (3, 3), 0)


def _photo_hulls() -> list[np.ndarray]:
    """The convex hulls of every region of a card's size or more on the train_ photos."""
    hulls = []
    for name in TRAIN:
        smooth = _small(name)
        gray = cv2.cvtColor(smooth, cv2.COLOR_BGR2GRAY)
        edges = cv2.dilate(cv2.Canny(gray, 30, 90, L2gradient=True), np.ones((3, 3), np.uint8))
        whites, edged = mapped_regions(whiteness(smooth), edges, RealSettings())
        hulls += [cv2.convexHull(c) for c in whites + edged if cv2.contourArea(c) >= 100]
    return hulls


def _cut_cards(count: int) -> list[np.ndarray]:
    """Drawn cards, turned and stretched, one corner cut off (and some cut twice, or not
    at all), as hulls of whole pixels."""
    rng = np.random.default_rng(12)
    hulls = []
    for _ in range(count):
        w, h = rng.uniform(20, 90), rng.uniform(20, 130)
        card = np.float32(((0, 0), (w, 0), (w, h), (0, h)))
        turn = cv2.getRotationMatrix2D((0, 0), rng.uniform(0, 360), 1.0)[:, :2]
        card = card @ turn.T.astype(np.float32) * np.float32((1, rng.uniform(0.7, 1.3))) + 160
        points = []
        cuts = rng.choice(4, size=rng.integers(0, 3), replace=False)
        for i in range(4):
            if i in cuts:
                a, b, c = card[i - 1], card[i], card[(i + 1) % 4]
                points += [b + rng.uniform(0.05, 0.5) * (a - b), b + rng.uniform(0.05, 0.5) * (c - b)]
            else:
                points.append(card[i])
        hull = cv2.convexHull(np.round(np.float32(points) + rng.normal(0, 0.6, (len(points), 2))).astype(np.int32))
        hulls.append(hull)
    return hulls


def _same(a, b) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and a.dtype == b.dtype
                                         and np.array_equal(a, b))


@needs_photos
def test_the_restored_corner_is_the_plain_ones_on_real_regions():
    hulls = _photo_hulls()
    restored = 0
    for hull in hulls:
        plain = realfind_reference.restored_corner(hull, 88 / 63)
        assert _same(partial.restored_corner(hull, 88 / 63), plain)
        area, perimeter = cv2.contourArea(hull), cv2.arcLength(hull, True)
        assert _same(partial.restored_corner(hull, 88 / 63, area, perimeter), plain)
        restored += plain is not None
    assert len(hulls) > 250 and restored >= 5


def test_the_restored_corner_is_the_plain_ones_on_cut_cards():
    hulls = _cut_cards(3000)
    found = 0
    for hull in hulls:
        plain = realfind_reference.restored_corner(hull, 88 / 63)
        area, perimeter = cv2.contourArea(hull), cv2.arcLength(hull, True)
        assert _same(partial.restored_corner(hull, 88 / 63, area, perimeter), plain)
        found += plain is not None
    assert found > 300   # the shapes reach the corners put back, not only the refusals


def test_a_hulls_area_and_perimeter_are_the_same_from_its_points_as_floats():
    """`gates` hands `restored_corner` the hull's own area and perimeter (whole pixels),
    which it took from the points made float32."""
    for hull in _cut_cards(2000):
        points = hull.reshape(-1, 2).astype(np.float32)
        assert cv2.contourArea(points) == cv2.contourArea(hull)
        assert cv2.arcLength(points, True) == cv2.arcLength(hull, True)


def _pictures() -> list[np.ndarray]:
    """Whiteness maps: the train_ photos', and noise, steps and flat pictures (every value
    and the borders reached)."""
    rng = np.random.default_rng(5)
    out = [whiteness(_small(name)) for name in TRAIN] if PHOTOS.is_dir() else []
    out += [rng.integers(0, 256, (240, 320), dtype=np.uint8) for _ in range(3)]
    blocks = cv2.resize(rng.integers(0, 256, (12, 16), dtype=np.uint8), (320, 240), interpolation=cv2.INTER_NEAREST)
    out += [blocks, cv2.GaussianBlur(blocks, (0, 0), 3), np.full((97, 131), 255, np.uint8), np.zeros((50, 70), np.uint8)]
    return out


@pytest.mark.parametrize("settings", [RealSettings(), RealSettings(local_offsets=(0, 1, 15, 30, 50, 254, 255)),
                                      RealSettings(levels=(0.0, 0.5, 0.79, 0.8, 1.0), unopened_level=0.8),
                                      RealSettings(local_offsets=(-3, 15)), RealSettings(local_offsets=())])
def test_the_opened_masks_are_the_plain_ones(settings):
    from vision.realmaps import opened_masks
    for white in _pictures():
        quick, plain = opened_masks(white, settings), realfind_reference.opened_masks(white, settings)
        assert len(quick) == len(plain)
        for q, p in zip(quick, plain):
            assert q.dtype == p.dtype and np.array_equal(q, p)


def _warped_edges(count: int) -> list[np.ndarray]:
    """64 x 64 pictures as `_cut_along` warps an outline's edges: noise of every density,
    straight lines across at every slant (ties among the lines), blank and full."""
    rng = np.random.default_rng(7)
    out = [np.zeros((64, 64), np.uint8), np.full((64, 64), 255, np.uint8)]
    for i in range(count):
        picture = ((rng.random((64, 64)) < rng.uniform(0, 0.6)) * rng.integers(1, 256)).astype(np.uint8)
        for _ in range(rng.integers(0, 4)):
            x0, x1 = rng.integers(-5, 70, 2)
            cv2.line(picture, (int(x0), 0), (int(x1), 63), 255, int(rng.integers(1, 3)))
        out += [picture, np.ascontiguousarray(picture.T), picture.T]
    return out


@pytest.mark.parametrize("settings", [RealSettings(), RealSettings(cut_least=0.1, cut_tilt=0.3),
                                      RealSettings(cut_least=0.4, cut_tilt=0.02)])
def test_the_best_line_across_is_the_plain_ones(settings):
    from vision.linecuts import _best_line
    for warped in _warped_edges(300):
        quick, plain = _best_line(warped, settings), realfind_reference.best_line(warped, settings)
        assert quick == plain and type(quick[0]) is type(plain[0])



def test_contour_areas_of_specks_alone_are_opencvs():
    """`contour_areas` leaves contours of one or two points out of its sum (they enclose
    nothing): on specks alone, and mixed in, its areas are still OpenCV's."""
    from vision.realmaps import contour_areas
    specks = [np.int32([[[3, 4]]]), np.int32([[[5, 6]], [[6, 6]]]), np.int32([[[9, 1]], [[9, 2]]])]
    lengths, areas = contour_areas(specks)
    assert lengths.tolist() == [1, 2, 2] and areas.tolist() == [0.0, 0.0, 0.0] and areas.dtype == np.float64
    mixed = specks[:1] + [np.int32([[[0, 0]], [[0, 5]], [[7, 5]]])] + specks[1:] + [np.int32([[[1, 1]], [[4, 1]], [[4, 3]], [[1, 3]]])]
    lengths, areas = contour_areas(mixed)
    assert areas.tolist() == [cv2.contourArea(c) for c in mixed] == [0.0, 17.5, 0.0, 0.0, 6.0]


def test_the_sides_running_on_are_the_plain_ones_all_at_once():
    """`shadedcards.continued_sides` of a frame's kept outlines at once is each outline's
    own plain `_continued_sides` (tests/realfind_reference.py)."""
    from vision.shadedcards import ShadedSettings, continued_sides
    rng = np.random.default_rng(9)
    maps = [cv2.dilate(cv2.Canny(cv2.cvtColor(_small(name), cv2.COLOR_BGR2GRAY), 30, 90, L2gradient=True),
                       np.ones((3, 3), np.uint8)) for name in TRAIN[:3]] if PHOTOS.is_dir() else []
    maps += [((rng.random((240, 320)) < density) * 255).astype(np.uint8) for density in (0.05, 0.3, 0.7)]
    some = 0
    for settings in (ShadedSettings(), ShadedSettings(reach=0.6, min_run=0.5)):
        for edges in maps:
            h, w = edges.shape
            for count in (1, 2, 7):
                pieces = [(rng.uniform((-20, -20), (w + 20, h + 20), (4, 2))).astype(np.float32) for _ in range(count)]
                pieces += [cv2.boxPoints(((float(rng.uniform(0, w)), float(rng.uniform(0, h))),
                                          (float(rng.uniform(10, 90)), float(rng.uniform(10, 90))),
                                          float(rng.uniform(0, 90)))).astype(np.float32) for _ in range(count)]
                plain = [realfind_reference.continued_sides_plain(p, edges, settings) for p in pieces]
                assert continued_sides(pieces, edges, settings) == plain
                some += sum(map(len, plain))
            mixed = [pieces[0].astype(np.float64), pieces[1]]
            assert continued_sides(mixed, edges, settings) == \
                [realfind_reference.continued_sides_plain(p, edges, settings) for p in mixed]
    assert continued_sides([], maps[0], ShadedSettings()) == [] and some > 50


def _edge_maps() -> list[np.ndarray]:
    """The finder's dilated edges of a few train_ photos (when at hand) and of random
    pictures dense enough to leave lone pixels, pairs and lines between the edges."""
    rng = np.random.default_rng(16)
    maps = [cv2.dilate(cv2.Canny(cv2.cvtColor(_small(name), cv2.COLOR_BGR2GRAY), 30, 90, L2gradient=True),
                       np.ones((3, 3), np.uint8)) for name in TRAIN] if PHOTOS.is_dir() else []
    for density in (0.05, 0.15, 0.3, 0.5):
        dots = ((rng.random((120, 160)) < density) * 255).astype(np.uint8)
        maps.append(cv2.dilate(dots, np.ones((3, 3), np.uint8)))
        maps.append(255 - dots)   # (lone pixels on the picture's border and corners too)
    return maps


def _specks_by_hand(mask: np.ndarray) -> np.ndarray:
    """Where `without_specks` should clear, worked out region by region: the pixels of
    every region lying in a 5 x 5 window (centred inside the picture) whose 7 x 7 ring
    around it holds no set pixel."""
    h, w = mask.shape
    count, labels = cv2.connectedComponents((mask > 0).astype(np.uint8), connectivity=8)
    padded = np.pad(mask > 0, 3)
    clear = np.zeros((h, w), bool)
    for y in range(h):
        for x in range(w):
            window = padded[y:y + 7, x:x + 7]
            clear[y, x] = not window[0].any() and not window[-1].any() and not window[:, 0].any() \
                and not window[:, -1].any()
    cleared = np.zeros((h, w), bool)
    for label in range(1, count):
        ys, xs = np.nonzero(labels == label)
        for y in range(max(ys.max() - 2, 0), min(ys.min() + 2, h - 1) + 1):
            for x in range(max(xs.max() - 2, 0), min(xs.min() + 2, w - 1) + 1):
                if clear[y, x]:   # the region's box lies in the window centred here
                    cleared[ys, xs] = True
                    break
            else:
                continue
            break
    return cleared


def test_without_specks_clears_whole_small_regions_and_no_other():
    """`without_specks` clears exactly the regions a 5 x 5 window with a clear ring holds
    (worked out by hand, region by region, on small random masks, the picture's border
    included), each at most 5 x 5 pixels."""
    from vision.realmaps import without_specks
    rng = np.random.default_rng(3)
    cleared = kept = 0
    for density in (0.02, 0.05, 0.1, 0.2, 0.4):
        mask = ((rng.random((36, 48)) < density) * 255).astype(np.uint8)
        mask = cv2.dilate(mask, np.ones((2, 2), np.uint8)) if density < 0.1 else mask
        clean = without_specks(mask)
        gone = (mask > 0) & (clean == 0)
        assert np.array_equal(gone, _specks_by_hand(mask)) and np.array_equal(clean > 0, (mask > 0) & ~gone)
        cleared += int(gone.sum())
        kept += int((clean > 0).sum())
    assert cleared > 200 and kept > 200


def test_without_specks_the_cells_contours_are_the_same_but_the_specks():
    """The cells traced after `without_specks` are every contour of the cells traced
    before but the cleared regions' (outer borders and their holes), point for point, in
    the same order, each kept as outer border or hole; what is cleared encloses at most
    `SPECK_AREA`, less than the smallest card's area."""
    from vision.realmaps import SPECK_AREA, without_specks
    assert RealSettings().min_short_side ** 2 > SPECK_AREA
    cleared = 0
    for edges in _edge_maps():
        cells = cv2.bitwise_not(edges)
        clean = without_specks(cells)
        count, labels = cv2.connectedComponents(cells, connectivity=8)
        gone = set(np.unique(labels[(cells > 0) & (clean == 0)]).tolist())
        before, held = cv2.findContours(cells, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
        after, holds = cv2.findContours(clean, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)

        def region(i: int) -> int:   # the region whose border contour i is (a hole's: its parent's)
            c = before[i] if held[0][i][3] == -1 else before[held[0][i][3]]
            return int(labels[c[0, 0, 1], c[0, 0, 0]])

        kept = [(before[i], held[0][i][3] == -1) for i in range(len(before)) if region(i) not in gone]
        assert all(cv2.contourArea(before[i]) <= SPECK_AREA for i in range(len(before)) if region(i) in gone)
        assert len(kept) == len(after)
        assert all(np.array_equal(c, d) and outer == (h[3] == -1)
                   for (c, outer), d, h in zip(kept, after, [] if holds is None else holds[0]))
        cleared += len(before) - len(after)
    assert cleared > 300


def test_contour_areas_are_the_plain_ones_on_real_regions():
    """`contour_areas` (doubles, one buffer) gives the int64 version's lengths and areas
    bit for bit on every region of real photos and random masks, and takes arrays of
    other kinds (not contiguous, int64) the slower way."""
    from vision.realmaps import contour_areas
    for edges in _edge_maps():
        contours = list(cv2.findContours(cv2.bitwise_not(edges), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)[0])
        contours += cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)[0]
        lengths, areas = contour_areas(contours)
        plain = realfind_reference.contour_areas(contours)
        assert np.array_equal(lengths, plain[0]) and np.array_equal(areas, plain[1]) and areas.dtype == np.float64
    odd = [np.int64([[[0, 0]], [[0, 5]], [[7, 5]]]), np.int32([[[1, 1], [4, 1]], [[4, 3], [1, 3]]])[:, :1],
           np.int32([[[2, 2]]])]
    assert contour_areas(odd)[1].tolist() == [17.5, 0.0, 0.0]
    strided = np.int32([[[1, 1]], [[9, 9]], [[4, 1]], [[9, 9]], [[4, 3]], [[9, 9]], [[1, 3]]])[::2]
    assert contour_areas([strided])[1].tolist() == [6.0]


def _quads(count: int, size: tuple[int, int]) -> list[np.ndarray]:
    """Random float32 quads: cards turned and stretched, some across or along the border,
    some degenerate, some with corners exactly on the border's lines."""
    rng = np.random.default_rng(21)
    w, h = size
    quads = []
    for n in range(count):
        centre = rng.uniform((-20, -20), (w + 20, h + 20))
        card = cv2.boxPoints(((float(centre[0]), float(centre[1])), (float(rng.uniform(0.5, 120)),
                              float(rng.uniform(0.5, 160))), float(rng.uniform(0, 180))))
        card = card + rng.normal(0, rng.choice((0.0, 3.0, 15.0)), (4, 2))
        if n % 7 == 0:   # corners exactly at the border's cuts
            card[rng.integers(0, 4)] = rng.choice((1.0, 2.0, 3.0, w - 3.0, w - 2.0)), rng.choice((2.0, h - 3.0))
        quads.append(card.astype(np.float32))
    return quads


def test_the_shape_gates_are_the_plain_ones():
    """`shape_ok` unrolled gives the plain version's answers on random quads (corners on
    and across the border, degenerate ones), with every set of gates the finder uses."""
    from vision.quadgates import shape_ok
    settings = RealSettings()
    gates = [(None, None), (settings.covered_ratio, settings.covered_angles),
             (settings.line_ratio, settings.line_angles), (settings.field_side_ratio, settings.field_angles),
             (settings.covered_ratio, None)]
    passed = 0
    for quad in _quads(4000, (320, 240)):
        for longest, angles in gates:
            plain = realfind_reference.shape_ok(quad, settings, longest, angles)
            assert shape_ok(quad, settings, longest, angles) is plain
            passed += plain
    assert passed > 1000


def _colour_pictures() -> list[np.ndarray]:
    """BGR pictures as the finder stretches them: the train_ photos at 320 pixels, noise of
    every size down to one pixel, flat pictures (every channel's range empty), few levels
    (percentiles falling on a histogram's steps) and one channel's range narrow."""
    rng = np.random.default_rng(17)
    out = [_small_colour(name) for name in TRAIN] if PHOTOS.is_dir() else []
    out += [rng.integers(0, 256, (int(rng.integers(1, 70)), int(rng.integers(1, 70)), 3), dtype=np.uint8)
            for _ in range(200)]
    out += [np.full((20, 30, 3), v, np.uint8) for v in (0, 1, 128, 254, 255)]
    out += [(rng.integers(0, 3, (50, 40, 3)) * 100).astype(np.uint8) for _ in range(40)]
    narrow = rng.integers(0, 256, (60, 80, 3), dtype=np.uint8)
    narrow[..., 1] = rng.integers(100, 104, (60, 80), dtype=np.uint8)
    return out + [narrow]


def _small_colour(name: str) -> np.ndarray:
    small = _small(name)
    return small if small.ndim == 3 else cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)


def test_the_stretched_channels_are_the_plain_ones():
    """The three channels' tables made at once give the plain code's stretched channels
    bit for bit (session 17)."""
    from vision.realmaps import stretched
    for image in _colour_pictures():
        quick, plain = stretched(image), realfind_reference.stretched(image)
        assert len(quick) == 3
        for q, p in zip(quick, plain):
            assert q.dtype == p.dtype == np.uint8 and np.array_equal(q, p)


def test_the_cut_side_is_the_plain_ones():
    """`cut_side` unrolled gives the plain version's answers (session 17) on random quads:
    corners on, just inside and just past each border's cut, across two borders, NaN."""
    from vision.quadgates import cut_side, _cut_side_plain
    answers = set()
    for size in ((320, 240), (240, 320), (5, 4)):
        quads = _quads(3000, size)
        w, h = size
        rng = np.random.default_rng(23)
        for quad in quads[:600]:   # corners snapped onto the borders' cut lines
            snapped = quad.copy()
            for k in rng.choice(4, int(rng.integers(1, 5)), replace=False):
                snapped[k] = rng.choice((1.0, 2.0, 1.99, w - 3.0, w - 3.01, w - 2.0)), \
                    rng.choice((1.0, 2.0, 2.01, h - 3.0, h - 2.99, h - 2.0))
            quads.append(snapped)
        quads.append(np.float32([[np.nan, 1], [5, 1], [5, 5], [1, 5]]))
        for quad in quads:
            plain = _cut_side_plain(quad, size)
            assert cut_side(quad, size) == plain
            answers.add(plain)
    assert answers == {-1, -2, 0, 1, 2, 3, None}


def test_the_outline_shares_are_the_plain_ones():
    """The outline checks with x and y apart give the plain version's shares (session 17):
    every frame's quads at once, with a side left out, past the border, degenerate, on the
    train_ photos' maps and on noise maps where a pixel's move changes a count, with and
    without the colour step."""
    from vision.outlinecheck import outline_shares
    rng = np.random.default_rng(29)
    maps = []
    for name in TRAIN[:3] if PHOTOS.is_dir() else ():
        smooth = _small(name)
        gray = cv2.cvtColor(smooth, cv2.COLOR_BGR2GRAY)
        maps.append((cv2.dilate(cv2.Canny(gray, 30, 90, L2gradient=True), np.ones((3, 3), np.uint8)),
                     whiteness(smooth), cv2.split(smooth)))
    for shape in ((240, 320), (320, 240), (7, 9)):
        maps.append(((rng.random(shape) < 0.3).astype(np.uint8) * 255, rng.integers(0, 256, shape, dtype=np.uint8),
                     [rng.integers(0, 256, shape, dtype=np.uint8) for _ in range(3)]))
    differ = 0
    for edges, white, channels in maps:
        h, w = edges.shape
        quads = _quads(600, (w, h))
        for start in range(0, len(quads), 40):
            group = quads[start:start + int(rng.integers(1, 40))]
            skips = [int(rng.choice((-2, -1, -1, 0, 1, 2, 3))) for _ in group]
            for colour in (None, channels):
                quick = outline_shares(group, skips, edges, white, 12, colour, 20 if colour else 0)
                plain = realfind_reference.outline_shares(group, skips, edges, white, 12, colour, 20 if colour else 0)
                assert quick == plain
                differ += len(set(quick)) > 1
    assert outline_shares([], [], maps[-1][0], maps[-1][1], 12) == []
    assert differ > 20
