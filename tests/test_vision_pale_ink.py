"""A light ink seen with little contrast: protocol 1's very warm dim webcam (bench/protocols.py),
where the stand-in deck's yellow field lies only 15-20 Lab units from its white after
white balance and the camera's noise is a third of the blue channel's signal. The symbol
and the colour must survive it:

* a card much larger in the photo than the reader's work size is averaged down, not
  sampled (`vision.warp.warp_card_averaged`): the noise falls, the picture stays in place;
* the ink is the face's own: the colour's ink bar is relative to the face's strongest
  ink (`vision.colour.ink_bar`), and the reader's ink density counts ink up to it
  (`vision.reader.hog_pair`), so a pale print reads as a dark one does."""
import cv2
import numpy as np

from vision.classify import WORK_SIZE, face_features
from vision.colour import INK, ink_bar
from vision.reader import DENSITY_GRID, hog_pair
from vision.render.sessions import SESSIONS
from vision.render.uno_deck import CLOTHS, cloth_photo, deck
from vision.warp import warp_card, warp_card_averaged

DIM_WEBCAM = 2
YELLOWS = [f for f in deck(symbols=13, wilds=False) if f.colour == "yellow" and f.symbol in ("0", "8")]


def dim_photo(face, seed: int):
    """A 1024 x 768 photo of the face on a cloth under the very warm dim webcam (the card
    about 300 pixels wide) and the card's corners."""
    rng = np.random.default_rng(seed)
    return cloth_photo(face.image(), CLOTHS["grey cloth"], SESSIONS[DIM_WEBCAM], rng, (1024, 768))


def test_a_large_card_is_averaged_down_in_place_and_with_less_noise():
    rng = np.random.default_rng(0)
    clean = np.zeros((600, 800, 3), np.uint8)
    corners = np.float32([[200, 100], [500, 130], [470, 560], [170, 530]])   # ~300 px wide: k = 4
    cv2.fillConvexPoly(clean, np.int32(corners), (200, 200, 200))
    cv2.circle(clean, (330, 330), 60, (20, 20, 20), -1)
    noisy = np.clip(clean + rng.normal(0, 12, clean.shape), 0, 255).astype(np.uint8)
    plain, averaged = warp_card(noisy, corners, WORK_SIZE), warp_card_averaged(noisy, corners, WORK_SIZE)
    truth = warp_card(clean, corners, WORK_SIZE).astype(np.float32)
    # in place: the noise-free picture averaged down is the plain warp within a grey level or
    # two but on the disc's edge (antialiased, a pixel's width)
    clean_averaged = warp_card_averaged(clean, corners, WORK_SIZE).astype(np.float32)
    off = np.abs(clean_averaged - truth)
    assert np.median(off) <= 1 and np.mean(off > 40) < 0.01
    noise_plain = float(np.std(plain.astype(np.float32) - truth))
    noise_averaged = float(np.std(averaged.astype(np.float32) - clean_averaged))
    assert noise_averaged < 0.5 * noise_plain, (noise_plain, noise_averaged)
    # a card under twice the work size is warped as before, to the bit
    small = corners * 0.35
    assert np.array_equal(warp_card_averaged(noisy, small, WORK_SIZE), warp_card(noisy, small, WORK_SIZE))


def test_a_dim_yellow_face_is_yellow_ink_over_its_field_not_noise():
    """Averaged down, no pixel of the dim yellow field reaches the fixed bar (25): the
    colour came from the noise alone (0.5 % of the face), and with less noise there was
    none. The bar relative to the face's strongest ink takes the whole field."""
    for seed, face in enumerate(YELLOWS):
        picture, corners = dim_photo(face, seed)
        features = face_features(warp_card_averaged(picture, corners, WORK_SIZE), two_levels=True)
        assert float(np.percentile(features.ink, 98)) < INK     # the field is that pale
        assert ink_bar(features.ink) < INK
        ink = features.ink_colour
        assert ink.ink > 0.4 and ink.share > 0.9 and 60 < ink.hue < 110, (face.label, ink)
        assert ink.light > 75, (face.label, ink)                 # yellow, not green or red


def test_the_ink_density_does_not_depend_on_the_ink_contrast():
    """The same print at a quarter of the contrast (a pale ink under a dim light): the
    reader's features are the same, the density block included."""
    face = YELLOWS[0].image()
    ink = face_features(cv2.resize(face, WORK_SIZE, interpolation=cv2.INTER_AREA), two_levels=True).ink
    ink = ink * (60 / float(np.percentile(ink, 98)))     # a dark print: its strongest ink at 60
    full, faint = hog_pair(ink), hog_pair(ink * 0.3)      # ... and a pale one: at 18
    density = DENSITY_GRID[0] * DENSITY_GRID[1]
    assert np.allclose(full[:, -density:], faint[:, -density:], atol=1e-4)
    assert np.allclose(full, faint, atol=2e-3)


def test_a_face_of_paper_and_noise_alone_has_no_ink_made_up():
    """The relative bar and the density cap have floors: a blank white face's noise is
    not stretched into ink."""
    rng = np.random.default_rng(3)
    blank = np.clip(rng.normal(200, 2, (WORK_SIZE[1], WORK_SIZE[0], 3)), 0, 255).astype(np.uint8)
    features = face_features(blank, two_levels=True)
    assert ink_bar(features.ink) >= 8.0
    assert features.ink_colour.ink < 0.01
    density = DENSITY_GRID[0] * DENSITY_GRID[1]
    assert float(hog_pair(features.ink)[0, -density:].max()) < 1.0   # a full-ink cell is 3
