"""The learned reader's probabilities: a card scoring low for every taught class loses its
probability to the doubt instead of making the least unlikely class sure of itself; and
its corner index block: the glyph found wherever the outline put it."""
from pathlib import Path

import numpy as np
import pytest

from vision.reader import LinearReader


def reader(doubt):
    classes = np.array([0, 1, 2, -1])
    return LinearReader(classes, np.zeros(4, np.float32), np.eye(4, dtype=np.float32),
                        np.zeros(4, np.float32), 20.0, doubt)


def test_a_card_like_none_of_the_taught_ones_is_doubtful():
    unlike = np.array([0.25, 0.05, 0.0, 0.0])     # best score a quarter of a taught view's
    sure_without = reader(-np.inf).probabilities(unlike)
    with_doubt = reader(0.5).probabilities(unlike)
    assert sure_without[0] > 0.95 and abs(sure_without.sum() - 1) < 1e-6  # softmax alone: "sure"
    assert with_doubt[0] < 0.01 and with_doubt.sum() < 0.01                # the doubt takes it


def test_a_card_like_a_taught_one_keeps_its_probability():
    like = np.array([0.95, 0.1, 0.0, 0.0])
    p = reader(0.5).probabilities(like)
    assert p[0] > 0.99 and p.argmax() == 0


def test_turned_cards_score_by_their_better_orientation():
    r = reader(0.5)
    pair = np.array([[0.1, 0.0, 0.0, 0.0], [0.0, 0.9, 0.0, 0.0]], np.float32)
    scores, turned = r.scores(pair)
    assert scores[1] == np.float32(0.9) and turned[1] and not turned[0]


def corner_region(glyph: str, dx: int, dy: int) -> np.ndarray:
    """A corner region at INDEX_PIXELS: paper with the index glyph drawn a few pixels
    from where a perfect outline would put it, and the table along its outer sides."""
    import cv2

    from vision.reader import INDEX_PIXELS

    w, h = INDEX_PIXELS
    region = np.full((h, w, 3), 235, np.uint8)
    cv2.putText(region, glyph, (6 + dx, 26 + dy), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (30, 30, 170), 2)
    region[:, :2] = region[:2, :] = (60, 90, 40)      # the table beyond an outline that missed
    return region


def test_the_index_glyph_is_found_wherever_the_outline_put_it():
    from vision.reader import find_glyph, region_ink

    glyphs = {(g, dx, dy): find_glyph(region_ink(corner_region(g, dx, dy)[None])[0])
              for g in ("J", "K") for dx, dy in ((0, 0), (4, 3), (-3, 5))}
    assert all(found is not None for found in glyphs.values())

    def distance(a, b):
        return float(np.abs(glyphs[a][0] - glyphs[b][0]).mean())

    # cut to its own box, a glyph moved by a few pixels is the same picture; another isn't
    assert distance(("K", 0, 0), ("K", 4, 3)) < 0.3 * distance(("K", 0, 0), ("J", 0, 0))
    assert distance(("J", -3, 5), ("J", 0, 0)) < 0.3 * distance(("J", 0, 0), ("K", 0, 0))


def test_a_corner_with_no_index_gives_an_empty_block():
    from vision.reader import INDEX_DIM, index_features

    plain = np.full((2, 45, 40, 3), 200, np.uint8)
    block = index_features(plain)
    assert block.shape == (INDEX_DIM,) and not block.any()


def test_the_index_block_does_not_depend_on_the_cards_orientation():
    import cv2

    from vision.reader import index_features, index_regions

    card = np.full((280, 200, 3), 235, np.uint8)
    cv2.putText(card, "Q", (8, 40), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (30, 30, 30), 3)
    card[:] = np.minimum(card, cv2.rotate(card, cv2.ROTATE_180))   # the index in both corners
    corners = np.float32([[0, 0], [200, 0], [200, 280], [0, 280]])
    up = index_features(index_regions(card, corners))
    turned = index_features(index_regions(card, np.roll(corners, 2, axis=0)))
    assert up.any() and np.allclose(up, turned)


PHOTOS = Path(__file__).resolve().parents[1].parent / "shared" / "realphotos" / "cards-edje"


def test_a_glyph_the_outline_cut_off_is_found_in_the_wider_corner_region():
    """A real photo's king, outlined as the finder once outlined it: the corner regions cut
    the K at their side (no glyph found); the wider regions find it."""
    import cv2

    from vision.classify import learned_features
    from vision.reader import INDEX_DIM, INDEX_WIDE, WIDE_GLYPH_ASPECT, index_features, index_regions

    photo = PHOTOS / "images" / "train_IMG_2645.jpg"
    if not photo.exists():
        pytest.skip(f"the real photos are not at {PHOTOS} (the shared folder beside the repository)")
    image = cv2.imread(str(photo))
    outline = np.float32([[227.5, 240.0], [313.4, 322.9], [197.6, 456.2], [104.7, 370.3]])
    corner_regions = index_regions(image, outline)
    assert not index_features(corner_regions).any()
    block = index_features(corner_regions, lambda: index_regions(image, outline, INDEX_WIDE))
    assert block.any() and 0.4 < block[-1] <= WIDE_GLYPH_ASPECT   # a letter's width / height
    # training views are read without the wider search (it taught the block noise there)
    assert not learned_features(image, outline)[:, -INDEX_DIM:].any()


def test_the_wider_corner_region_takes_a_letter_not_a_pip():
    """Beyond the corner region (where a card's pips begin) a blob as wide as high is a
    pip, not the index: an outline over parts of two cards must not read it as one."""
    import cv2

    from vision.reader import INDEX_WIDE, index_features, index_regions

    corners = np.float32([[0, 0], [200, 0], [200, 280], [0, 280]])

    def block(face, wider=True):
        return index_features(index_regions(face, corners),
                              (lambda: index_regions(face, corners, INDEX_WIDE)) if wider else None)

    def card(mark):
        face = np.full((280, 200, 3), 235, np.uint8)
        mark(face)
        return np.minimum(face, cv2.rotate(face, cv2.ROTATE_180))   # the same in both corners

    pip = card(lambda face: cv2.circle(face, (64, 74), 13, (40, 40, 200), -1))
    letter = card(lambda face: cv2.rectangle(face, (58, 60), (70, 88), (40, 40, 200), -1))   # an "I"
    for face in (pip, letter):   # both lie outside the corner regions, inside the wider ones
        assert not block(face, wider=False).any()
    assert not block(pip).any()
    assert block(letter).any()
