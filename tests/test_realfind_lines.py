"""Cards whose paper is about as bright as what they lie on (a light tray, a counter), or
whose whiteness is cut by something lying across them, found from straight line segments
(`vision.edgequads`, hooked into `vision.realfind`). Real photographs of
../shared/realphotos/cards-edje, read where they lie, through the bench's own matching."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision import edgequads
from vision.detect import DetectSettings
from vision.pipeline import to_working_size
from vision.realfind import RealSettings, _unexplained_paper
from vision.realmaps import whiteness

from tests.realphoto_helpers import PHOTOS, bench, score

pytestmark = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"the shared photos are not at {PHOTOS}")

WITHOUT_LINES = replace(DetectSettings(), real=replace(RealSettings(), line_quads=False))


@pytest.mark.parametrize("name, alone", [
    ("train_IMG_2484", True),    # a queen on a light tray printed with flowers
    ("train_IMG_2509", False),   # a king on a light kitchen counter (a mug's base is also
                                 # outlined, without the line segments too)
    ("train_IMG_2537", True),    # a scraper's handle across a card on brick
])
def test_a_card_the_whiteness_merges_or_cuts_is_found_from_its_straight_sides(name, alone):
    with_lines = score(name, DetectSettings())
    assert with_lines.found == with_lines.labels, f"{name}: found {with_lines.found} of {with_lines.labels}"
    if alone:
        assert with_lines.false == 0 and with_lines.duplicates == 0
    # the evidence is new: without the line segments the card is not found
    assert score(name, WITHOUT_LINES).found < with_lines.labels


def _small(name: str) -> np.ndarray:
    image = cv2.imread(str(PHOTOS / "images" / f"{name}.jpg"), cv2.IMREAD_COLOR)
    small = to_working_size(image)[0]
    return cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2), interpolation=cv2.INTER_AREA)


def test_segments_are_looked_for_only_around_paper_no_outline_explains():
    """The search costs a few milliseconds, so it runs only around paper-white that no
    well-followed outline of a card's shape holds: none on a lone card on carpet once its
    outline is known, the card's own box when it is not."""
    small = _small("train_IMG_2385")   # one card on carpet
    white = whiteness(cv2.GaussianBlur(small, (3, 3), 0))
    settings = RealSettings()
    h, w = white.shape
    assert _unexplained_paper(white, [], settings) is not None
    found = edgequads.find(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), white, (0, 0, w, h),
                           (settings.min_short_side, max(w, h)), lambda quad, kept: True)
    assert found, "the card's straight sides make an outline"
    cover, _, quad = found[0]
    assert cover >= edgequads.QuadSettings().min_cover
    module = bench()
    label = module.load_labels(PHOTOS)["images/train_IMG_2385.jpg"][0]
    image = cv2.imread(str(PHOTOS / "images" / "train_IMG_2385.jpg"), cv2.IMREAD_COLOR)
    scale = small.shape[1] / image.shape[1]
    assert module.iou(module.outline_box(quad / scale), label) >= 0.5
    assert _unexplained_paper(white, [(0.95, cv2.contourArea(quad), quad)], settings) is None
