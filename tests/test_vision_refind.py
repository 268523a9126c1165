"""A taught card whose outline runs along a shadow's edge and holds no corner of the card
is read from the outline the finder gives on a window around it (`vision.refind`,
`vision.pipeline.Recognizer`). The real photos and outlines are bench/realphotos_read.py's
second teaching draw's (the finder's outlines on the whole photo; the shared folder
beside the repository)."""
import cv2
import numpy as np
import pytest

from vision import refind
from vision.classify import card_features
from tests.realphoto_helpers import PHOTOS, read_outline, taught_draw

pytestmark = pytest.mark.skipif(not (PHOTOS / "labels.csv").exists(),
                                reason=f"the real photos are not at {PHOTOS} (the shared folder beside the repository)")

# the nine of spades in a sunbeam (label box 126, 200, 265, 365): the outline runs along the
# shadow's edge across the card, holding its middle and some carpet, neither corner index
SUNBEAM_NINE = [[245.18155, 197.94942], [285.32468, 293.7588], [142.86295, 350.73892], [104.29093, 254.30118]]
# the ten of hearts half under a case (label box 176, 309, 265, 473): the outline stops at
# the case on the left and above the bottom corner's index
TEN_UNDER_CASE = [[188.0082, 310.33704], [261.45, 318.15], [255.21297, 437.90076], [187.99458, 428.28006]]


@pytest.mark.parametrize("file, outline, rank", [("images/train_IMG_2458.jpg", SUNBEAM_NINE, "9"),
                                                 ("images/train_IMG_2529.jpg", TEN_UNDER_CASE, "10")])
def test_a_card_outlined_across_light_and_shade_is_read_from_the_outline_around_it(monkeypatch, file, outline, rank):
    label, confidence = read_outline(file, outline, seed=1)
    assert label == rank and confidence >= 0.9
    monkeypatch.setattr(refind, "worth_a_look", lambda features: False)   # as before
    assert read_outline(file, outline, seed=1)[0] == "unknown"


def test_the_outline_found_around_holds_a_corner_index():
    from vision.pipeline import Recognizer
    _, _, profile = taught_draw(1)
    image = cv2.imread(str(PHOTOS / "images/train_IMG_2458.jpg"))
    first = np.float32(SUNBEAM_NINE)
    assert refind.worth_a_look(card_features(image, first, profile))
    found = refind.around(image, first, Recognizer.create(profile).settings)
    assert found
    # the whole card: a corner index shows a glyph, and it is not worth another look
    whole = card_features(image, found[0], profile)
    assert len(whole.index_rows) >= 1 and not refind.worth_a_look(whole)



def test_a_card_looked_around_in_vain_is_not_looked_around_again_while_its_window_lies_unchanged(monkeypatch):
    """At the table (`StillFrames`): train_IMG_2520's outline (no corner of a card in it)
    is looked around in vain on the first frame; a hand at the photo's other side changes
    the frame but not the window searched, so the card keeps its reading (the same as read
    afresh) with no second look; a hand over the window brings the look back."""
    from vision.pipeline import Recognizer, StillFrames
    _, _, profile = taught_draw(1)
    photo = cv2.imread(str(PHOTOS / "images/train_IMG_2520.jpg"))
    looks = []
    real = Recognizer._found_around

    def counted(self, frame, corners, first, *search):
        looks.append(refind.window(corners, frame.shape))
        return real(self, frame, corners, first, *search)

    monkeypatch.setattr(Recognizer, "_found_around", counted)
    recognizer = Recognizer.create(profile)
    loop = StillFrames()
    loop.read(recognizer, photo)
    assert looks == [(11, 148, 127, 226)]
    far = photo.copy()
    cv2.ellipse(far, (320, 420), (40, 50), 30, 0, 360, (120, 150, 200), -1)   # a hand at the right
    seen = loop.read(recognizer, far)
    assert len(looks) == 1
    fresh = recognizer.read(far)
    assert len(looks) == 2   # read afresh, it is looked around again: the same reading
    assert [(c.label, c.confidence, c.corners.tobytes()) for c in seen.cards] == \
        [(c.label, c.confidence, c.corners.tobytes()) for c in fresh.cards]
    near = photo.copy()
    cv2.ellipse(near, (120, 150), (12, 12), 0, 0, 360, (120, 150, 200), -1)   # inside the window, off the card
    loop.read(recognizer, near)
    assert len(looks) == 3
