"""A completed outline is read from its corner index only when a corner showing the glyph
is one the first outline had (`vision.complete.seen_corner`, SEEN): a glyph at a corner
the completion drew was the table or a wire mesh read as an index, and a queen's strip
was completed onto the table and read as a ten for sure. The real photo is bench/
realphotos_read.py's first teaching draw's (the shared folder beside the repository; CI
has a copy there)."""
import numpy as np
import pytest

from vision import complete, pipeline
from vision.complete import seen_corner
from tests.realphoto_helpers import PHOTOS, taught_draw

CARD = np.float32([[100, 100], [200, 100], [200, 240], [100, 240]])


def test_a_glyph_at_a_corner_of_the_first_outline_counts():
    strip = CARD.copy()
    strip[[1, 2], 0] = 150                      # the card's left half
    assert seen_corner(CARD, strip, [0])        # top-left: the strip's own corner
    assert not seen_corner(CARD, strip, [2])    # bottom-right: drawn half a card away
    assert seen_corner(CARD, strip, [0, 2])
    assert not seen_corner(CARD, strip, [])     # no glyph anywhere


def test_a_corner_a_little_off_the_first_outline_still_counts():
    moved = CARD + np.float32([0.3 * 100, 0])   # under SEEN of the short side away
    assert seen_corner(CARD, moved, [0])
    assert not seen_corner(CARD, CARD + np.float32([0.5 * 100, 0]), [0])


@pytest.mark.skipif(not (PHOTOS / "labels.csv").exists(),
                    reason=f"the real photos are not at {PHOTOS} (the shared folder beside the repository)")
def test_a_queens_strip_is_not_completed_onto_the_table(monkeypatch):
    import cv2
    from vision.pipeline import Recognizer
    _, _, profile = taught_draw(0)
    image = cv2.imread(str(PHOTOS / "images/train_IMG_2570.jpg"))
    # the finder's outline of the queen of hearts (label box 196, 245, 344, 373): a strip
    # cut along a diagonal across the court picture
    outline = np.float32([[222.22, 253.35], [329.20, 244.36], [340.40, 348.32], [287.19, 356.69]])
    recognizer = Recognizer.create(profile)
    reading, used = recognizer.reading(image, outline)
    assert reading.label == "Q", reading
    monkeypatch.setattr(complete, "SEEN", 1e9)   # any corner counts, as before
    # (the completion onto the table also shows a glyph too small for it: that gate off too)
    monkeypatch.setattr(pipeline, "COMPLETE_HEIGHT", 0.0)
    before, _ = recognizer.reading(image, outline)
    assert before.label == "10" and before.confidence >= 0.9
