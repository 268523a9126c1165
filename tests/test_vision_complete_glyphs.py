"""Which whole-card outlines a taught card read "unknown" is read again from
(`vision.pipeline.Recognizer._completed`): one whose corner regions show no glyph is judged
by the wider regions reading searches then (an outline cut by the photo's edge), at one
more glyph level than a first read (COMPLETE_LEVELS: a card half under a book), and one
whose glyph is too small for it (COMPLETE_HEIGHT of the taught glyphs' height,
`DeckProfile.glyph_height`) is not read (an outline of two overlapping cards completed to
a card half as large again); a card none of them reads is read from its outline grown
(GROWN_OUTLINE). The real photos and outlines are bench/realphotos_read.py's
first teaching draw's (the shared folder beside the repository; CI has a copy there)."""
import numpy as np
import pytest

from vision import pipeline, reader
from tests.realphoto_helpers import PHOTOS, read_outline, taught_draw

pytestmark = pytest.mark.skipif(not (PHOTOS / "labels.csv").exists(),
                                reason=f"the real photos are not at {PHOTOS} (the shared folder beside the repository)")


def _reading(file: str, outline: list) -> tuple[str, float]:
    return read_outline(file, outline, seed=0)


def test_the_taught_glyphs_height_is_the_decks_index():
    _, _, profile = taught_draw(0)
    # the deck's rank glyphs are about a ninth of the card's height
    assert 0.09 <= profile.glyph_height <= 0.13


def test_an_ace_cut_by_the_photos_corner_reads_from_the_wider_regions(monkeypatch):
    # the finder's outline of the ace of clubs in the photo's top-left corner (label box 1, 1,
    # 56, 98): the card goes on past the photo's edges, its index shows at the bottom right
    outline = [[0.0, 0.0], [52.96, 0.0], [44.71, 97.13], [0.0, 93.35]]
    label, confidence = _reading("images/train_IMG_2642.jpg", outline)
    assert label == "A" and confidence >= pipeline.COMPLETE_BAR
    monkeypatch.setattr(pipeline, "_wide_rows",   # no glyph in any wider region asked for
                        lambda frame, whole, which=(0, 1): ([np.zeros((0, 1))] * len(which), [0] * len(which)))
    assert _reading("images/train_IMG_2642.jpg", outline)[0] == "unknown"   # as before


def test_two_overlapping_cards_are_not_completed_to_one_with_the_others_index(monkeypatch):
    # the finder's outline of the queen of clubs (label box 130, 130, 352, 393) holds the nine of
    # clubs she overlaps too: completed along its long side it reads the nine's index
    outline = [[33.1, 322.75], [75.31, 100.73], [350.9, 208.43], [263.81, 388.14]]
    assert _reading("images/train_IMG_2661.jpg", outline)[0] == "unknown"
    monkeypatch.setattr(pipeline, "COMPLETE_HEIGHT", 0.0)   # any glyph's height, as before
    label, confidence = _reading("images/train_IMG_2661.jpg", outline)
    assert label == "9" and confidence >= pipeline.COMPLETE_BAR


def test_a_queen_whose_outline_cuts_her_index_reads_from_the_outline_grown(monkeypatch):
    # the finder's outline of the queen of spades (label box 74, 195, 201, 386) lies a little
    # inside the card: her corner index cut at the top, no completion reads her
    outline = [[76.25, 233.81], [182.88, 211.45], [206.93, 364.99], [113.89, 384.87]]
    label, confidence = _reading("images/train_IMG_2556.jpg", outline)
    assert label == "Q" and confidence >= pipeline.COMPLETE_BAR
    monkeypatch.setattr(pipeline, "GROWN_OUTLINE", 1.0)   # the outline as found, as before
    assert _reading("images/train_IMG_2556.jpg", outline)[0] == "unknown"


def test_a_king_half_under_a_book_reads_from_the_completions_higher_glyph_level(monkeypatch):
    # the king of hearts half under a book (label box 66, 146, 229, 336): the finder's tenth
    # pass outlines the part that shows, a triangle with the card's bottom-left corner; the
    # card completed from that corner shows its index at the bottom right beside the card's
    # edge, where the shade along the edge joins it to the dark wood at every lower level
    outline = [[92.92, 332.32], [67.72, 152.77], [223.65, 288.22], [223.65, 315.0]]
    label, confidence = _reading("images/train_IMG_2518.jpg", outline)
    assert label == "K" and confidence >= pipeline.COMPLETE_BAR
    monkeypatch.setattr(pipeline, "COMPLETE_LEVELS", reader.GLYPH_LEVELS)   # as before
    assert _reading("images/train_IMG_2518.jpg", outline)[0] == "unknown"
