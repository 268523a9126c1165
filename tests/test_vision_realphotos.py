"""Finding cards in real photographs (../shared/realphotos/cards-edje, read where it lies,
never copied here): a handful of photos on carpet, dark cloth, a cluttered desk, four
or five cards at once, cards side by side, overlapping, partly covered and running off
the frame; every labelled card is found (its outline's bounding box has IoU >= 0.5 with
the label's box) and nothing else is. bench/realphotos_find.py measures all 357 photos.
Also: real tables as the renderer's backgrounds."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detect import DetectSettings, FoundCard, find_cards
from vision.pipeline import Recognizer, to_working_size

from tests.realphoto_helpers import bench as _bench  # its labels, matching and scoring

ROOT = Path(__file__).resolve().parents[1]
PHOTOS = ROOT.parent / "shared" / "realphotos" / "cards-edje"
pytestmark = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"the shared photos are not at {PHOTOS}")




@pytest.mark.parametrize("name", [
    "train_IMG_2385",      # one card on carpet
    "train_IMG_2415",      # one card on dark crumpled cloth
    "train_IMG_2499",      # a cluttered desk: a bowl, a pen, a sheet of paper
    "train_IMG_2480",      # on a drum pad, amid cables
    "train_IMG_2558",      # four cards
    "train_IMG_2612",      # five cards, two overlapping, one running off the frame
    "train_cam_image48",   # a webcam frame, five cards
    "train_cam_image3",    # four cards in a block: each card, not the block's outline
    "train_IMG_2609",      # four cards on black, two corners' tips cut by the frame's border
    "train_IMG_2608",      # four cards, one running off the top of the frame
    "train_IMG_2628",      # two cards overlapping: one shape, cut between its dents
    "train_IMG_2665",      # the same on striped cloth
    "train_IMG_2610",      # five cards, two of them overlapping
    "train_IMG_2535",      # a card half under a book: its visible part, longer than a card
    "train_IMG_2542",      # a card half under a rug's edge
    "train_IMG_2619",      # a queen lying over a ten on wood: one card-like shape, cut
                           # along the queen's edge into the queen and the ten's strip
    "train_IMG_2599",      # the same on black cloth (a king under a jack)
    "train_IMG_2616",      # five cards, two pairs of them lying one over the other
    "train_IMG_2687",      # an ace over a ten, white on white: the faint edge between
    "train_IMG_2664",      # the same, only a narrow strip of the lower ace showing
    "train_IMG_2515",      # a jack whose picture leaves a piece of white edged all round:
                           # the whole card is reported, not the piece
    "train_IMG_2637",      # the same for a nine of spades running off the frame
    "train_IMG_2545",      # a shoe over a card's corner: the corner put back
    "train_IMG_2503",      # a knife across a card: what shows, cut on the slant
    "train_IMG_2452",      # a comb over a card on a certificate: the same
    "train_IMG_2642",      # five cards, one lying over the frame's top left corner
    "train_IMG_2667",      # an ace partly under a ten, white on white side by side: the
                           # edge between them only at Canny 3
])
def test_every_labelled_card_is_found_and_nothing_else(name):
    bench = _bench()
    labels = bench.load_labels(PHOTOS)[f"images/{name}.jpg"]
    image = cv2.imread(str(PHOTOS / "images" / f"{name}.jpg"), cv2.IMREAD_COLOR)
    boxes, _, _, _ = bench.find_in_photo(image, DetectSettings())
    score = bench.score_photo(labels, boxes)
    assert score.found == len(labels), f"{name}: found {score.found} of {len(labels)}"
    assert score.false == 0 and score.duplicates == 0, f"{name}: {score.false} false outlines"


def test_an_outline_longer_than_a_card_is_no_yardstick_for_the_smallest_card():
    """Outlines under a fifth of the largest are dropped (specks beside a card), but not
    beside an outline far from a card's shape: a jack beside a long envelope six times
    its size is found (the envelope, white and well edged, is still reported)."""
    bench = _bench()
    labels = bench.load_labels(PHOTOS)["images/train_IMG_2481.jpg"]
    image = cv2.imread(str(PHOTOS / "images" / "train_IMG_2481.jpg"), cv2.IMREAD_COLOR)
    boxes, _, _, _ = bench.find_in_photo(image, DetectSettings())
    assert bench.score_photo(labels, boxes).found == 1


def test_a_game_case_among_the_cards_is_no_yardstick_for_them():
    """Nor beside an outline of a card's shape that is not paper-white: a game case
    lying among four cards on carpet, outlined much larger than a card, does not drop the
    cards beside it (all four were dropped)."""
    bench = _bench()
    labels = bench.load_labels(PHOTOS)["images/train_IMG_2584.jpg"]
    image = cv2.imread(str(PHOTOS / "images" / "train_IMG_2584.jpg"), cv2.IMREAD_COLOR)
    boxes, _, _, _ = bench.find_in_photo(image, DetectSettings())
    assert bench.score_photo(labels, boxes).found >= 2


def test_a_large_photo_is_searched_at_the_working_size():
    """A 2000-pixel photo is read in the working size's pixels (one resize), and what is
    found comes back in the photo's own pixels."""
    image = cv2.imread(str(PHOTOS / "images" / "train_IMG_2385.jpg"), cv2.IMREAD_COLOR)
    big = cv2.resize(image, (image.shape[1] * 4, image.shape[0] * 4), interpolation=cv2.INTER_LINEAR)
    small, scale = to_working_size(big)
    assert max(small.shape[:2]) == 640 and scale == pytest.approx(640 / big.shape[0])
    from vision.profile import builtin_profile
    reading = Recognizer.create(builtin_profile("solo")).read(big)
    found = find_cards(to_working_size(image)[0])
    assert len(reading.cards) == len(found) == 1
    assert reading.size == (big.shape[1], big.shape[0])
    assert np.abs(reading.cards[0].corners.mean(axis=0) - found[0].corners.mean(axis=0) * 4).max() < 8


def test_real_tables_are_the_renderers_backgrounds_on_request():
    """Rendered scenes on real tables (cut from the photos around their cards): every
    whole card is still found where it lies."""
    from test_vision_support import match
    from vision.render.scene import random_scene
    from vision.render.table import TEXTURE_SIZE, photo_patches, table_texture

    assert len(photo_patches()) > 100
    assert table_texture("photo", 3).shape == (TEXTURE_SIZE[1], TEXTURE_SIZE[0], 3)
    rng = np.random.default_rng(7)
    for _ in range(3):
        scene = random_scene("flip7", rng, n_cards=3, photo_tables=True)
        assert scene.spec.table == "photo"
        whole = [c for c in scene.cards if c.visible > 0.999 and c.top]
        found = find_cards(scene.image)
        missed = [card.code for card, seen in match(found, whole, among=scene.cards) if seen is None]
        assert len(missed) <= 1, missed


def test_outlines_found_at_half_size_are_refitted_to_the_cards_edges():
    """The real-table search runs on a half-size copy; each outline's sides are then
    fitted to the frame's own edges, which brings its corners closer to the card's (the
    reader needs them to a pixel or two). Rendered scenes, where the true corners are
    known, with no empty-table picture."""
    from test_vision_support import match, quad_gap
    from vision.realfind import RealSettings, find_outlines
    from vision.render.scene import random_scene

    rng = np.random.default_rng(3)
    refitted, coarse = [], []
    for i in range(6):
        scene = random_scene(("solo", "flip7", "hitthedeck")[i % 3], rng, n_cards=4)
        whole = [c for c in scene.cards if c.visible > 0.999 and c.top]
        for gaps, reach in ((refitted, RealSettings().refine_reach), (coarse, 1e-6)):
            found = [FoundCard(q) for q in find_outlines(scene.image, RealSettings(refine_reach=reach))]
            gaps += [quad_gap(seen.corners, card.corners)
                     for card, seen in match(found, whole, among=scene.cards) if seen is not None]
    assert len(refitted) == len(coarse) >= 8
    assert np.median(refitted) < np.median(coarse) - 0.3 and np.median(refitted) < 3.5, (refitted, coarse)
