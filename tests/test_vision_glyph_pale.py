"""The corner index glyph found where it is printed pale (`vision.reader.find_glyph`,
GLYPH_LOW and GLYPH_LEVELS): on webcam photos a court card's red index lies at a third of
the corner region's strongest ink (the pip below it, the picture's frame beside it), and
at one level alone its strokes fell apart or vanished, so the index read another rank.
The photos stay in the shared folder beside the repository (CI has a copy there)."""

import cv2
import numpy as np
import pytest

from vision.reader import INDEX_PIXELS, find_glyph, index_regions, region_ink
from tests.realphoto_helpers import PHOTOS, read_bench


# court cards alone on the table in webcam photos, by their label box: before, neither
# corner region of the finder's outline showed a glyph
PALE = (("images/train_cam_image12.jpg", (362, 149, 560, 389)),     # K of diamonds
        ("images/train_cam_image13.jpg", (349, 142, 550, 388)),     # J
        ("images/train_cam_image43.jpg", (749, 234, 886, 415)),     # J of clubs
        ("images/train_cam_image47.jpg", (513, 17, 712, 258)))      # J


@pytest.mark.skipif(not (PHOTOS / "labels.csv").exists(),
                    reason=f"the real photos are not at {PHOTOS} (the shared folder beside the repository)")
@pytest.mark.parametrize("file, box", PALE)
def test_a_pale_court_index_is_found_in_both_corners(file, box):
    bench = read_bench()
    image = cv2.imread(str(PHOTOS / file))
    inks = region_ink(index_regions(image, bench.box_outline(image, box)))
    glyphs = [find_glyph(ink) for ink in inks]
    assert all(glyph is not None for glyph in glyphs), file
    # a letter, not a stroke of one (J, K: about 0.5-0.8 of its height wide)
    assert all(0.4 <= aspect <= 0.9 for _, aspect in glyphs), [aspect for _, aspect in glyphs]


def _region(bar_level: int) -> np.ndarray:
    """Paper with a dark K whose foot joins a bar of fainter ink running to the region's
    lower side (`bar_level`: its grey; 188 is about a third of the K's ink)."""
    w, h = INDEX_PIXELS
    region = np.full((h, w, 3), 235, np.uint8)
    cv2.rectangle(region, (10, 24), (14, h - 1), (bar_level,) * 3, -1)
    cv2.putText(region, "K", (6, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (30, 30, 30), 2)
    return region


def test_a_glyph_joined_to_faint_ink_at_the_regions_side_is_found_at_its_own_level():
    joined = region_ink(_region(188)[None])[0]
    alone = region_ink(_region(235)[None])[0]
    found, plain = find_glyph(joined), find_glyph(alone)
    assert found is not None and plain is not None
    # the K cut to its own box (the faint bar, joined, would make it a tall stroke or
    # touch the side: nothing found at all at the lower level alone)
    assert abs(found[1] - plain[1]) < 0.1


def _region_under_dark_band(band: bool) -> np.ndarray:
    """Paper with a K whose stem is printed paler than its arms (a blurred red index),
    and, when `band`, the dark table along the region's top side (an outline a pixel or
    two outside the card)."""
    w, h = INDEX_PIXELS
    region = np.full((h, w, 3), 235, np.uint8)
    cv2.rectangle(region, (10, 10), (12, 32), (205,) * 3, -1)
    cv2.line(region, (13, 21), (24, 10), (150,) * 3, 2)
    cv2.line(region, (13, 21), (24, 32), (150,) * 3, 2)
    if band:
        region[:2] = 20
    return region


def test_a_glyph_paler_than_the_table_past_the_outline_is_found_whole():
    """The region's strongest ink is the table's, and at its levels the pale stem fell
    off the K (its arms alone are another glyph); the glyph is searched again at its own strongest
    ink (`vision.reader.GLYPH_OWN`)."""
    under, clean = (region_ink(_region_under_dark_band(band)[None])[0] for band in (True, False))
    found, alone = find_glyph(under), find_glyph(clean)
    assert found is not None and alone is not None
    assert abs(found[1] - alone[1]) < 0.05, (found[1], alone[1])
    assert found[1] >= 0.6   # stem and arms: about 14 pixels wide, 23 high


@pytest.mark.skipif(not (PHOTOS / "labels.csv").exists(),
                    reason=f"the real photos are not at {PHOTOS} (the shared folder beside the repository)")
def test_a_pale_jack_under_the_tables_edge_is_found_whole():
    # the finder's outline of a jack of spades on a webcam photo (label box 570, 230, 734,
    # 424): its bottom-right corner region holds the table's edge, darker than the index;
    # at the region's levels only a stroke of the J was found (0.23 of its height wide)
    image = cv2.imread(str(PHOTOS / "images/train_cam_image43.jpg"))
    outline = np.float32([[574.0, 259.8], [697.6, 227.6], [733.5, 389.6], [614.8, 420.8]])
    glyph = find_glyph(region_ink(index_regions(image, outline))[1])
    assert glyph is not None and 0.4 <= glyph[1] <= 0.7, glyph and glyph[1]
