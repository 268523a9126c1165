"""A face read as a card of a colour-field deck must show the field its taught faces show
(`vision.colour.field_ink`, `InkColour.field`, the taught `DeckProfile.field_share`,
`vision.classify._without_field`): what the finder outlines on a table and the reader takes
for a card (a business card's black bird on pale paper read Red 1, a box's blue icon Blue 3,
a glazed canister's grey stripes Yellow 1, all on protocol 2's bare tables) prints a symbol
or a picture and no field. The deck's cards read as before, the stand-in deck's pale
yellow under the very warm dim webcam (which a fixed chroma bar lost) keeps its field, and
the share survives saving. Drawn faces and the bench's renderer, real OpenCV."""
import dataclasses

import numpy as np
import pytest

from test_off_hue import wild
from test_teach_no_field import BLUE, DECK, GREEN, RED, YELLOW, card
from vision.classify import FIELD_KEPT, UNKNOWN, WORK_SIZE, classify, face_features
from vision.colour import InkColour
from vision.profile import load_profile_file, profile_from_faces, save_profile
from vision.render.sessions import SESSIONS
from vision.render.uno_deck import CLOTHS, cloth_photo, deck
from vision.teach import Shot, taught_field_share, with_reader
from vision.warp import warp_card_averaged

COLOURS = {"Red": RED, "Green": GREEN, "Blue": BLUE, "Yellow": YELLOW}


def field(face) -> float:
    return face_features(face, two_levels=True).ink_colour.field


def test_a_cards_face_is_mostly_its_field_a_printed_symbol_is_not():
    assert all(field(s.face) > 0.45 for s in DECK)
    assert field(wild(1)) > 0.45   # a wild's black field and coloured oval
    for bgr in (*COLOURS.values(), (30, 30, 30)):   # a digit printed on white paper, no field
        assert field(card(bgr, "0", 2, field=False)) < 0.05


def test_the_taught_field_share_is_a_low_quantile_of_the_taught_faces():
    def seen(share: float) -> InkColour:
        return InkColour(0.0, 50.0, 1.0, share, None, share)
    shares = [seen(s) for s in np.linspace(0.3, 0.75, 10)] + [seen(float("nan"))]
    assert taught_field_share(shares) == pytest.approx(np.quantile(np.linspace(0.3, 0.75, 10), 0.1))
    assert taught_field_share([]) == 0.0


@pytest.fixture(scope="module")
def taught():
    shots = DECK + [Shot("Wild", "", wild(40 + i), f"wild{i}.jpg") for i in range(2)]
    profile = profile_from_faces("deck", [(s.label, s.colour, s.face) for s in shots], views=2, harsh=True)
    return with_reader(profile, shots)


def test_a_face_with_no_field_is_no_card(taught, tmp_path):
    """Without the field looked for (a profile taught before it: `field_share` 0), digits
    printed on white paper read as cards of their colour (Red 0 at 0.98, Blue 0 at 0.997)."""
    def read(face, profile=taught):
        return classify(face_features(face, profile.ink_cap, two_levels=True), profile)

    assert 0.45 < taught.field_share < 0.6
    old = dataclasses.replace(taught, field_share=0.0)
    for name, bgr in COLOURS.items():
        assert read(card(bgr, "0", 70)).label == f"{name} 0"
        assert read(card(bgr, "5", 70)).label == f"{name} 5"
        printed = card(bgr, "0", 70, field=False)
        assert read(printed, old).label == f"{name} 0"
        assert read(printed).label == UNKNOWN
    assert read(wild(71)).label == "Wild"
    loaded = load_profile_file(save_profile(taught, tmp_path / "deck"))
    assert loaded.field_share == taught.field_share


def test_the_pale_yellow_of_the_very_warm_dim_webcam_keeps_its_field():
    """The stand-in deck (`vision.render.uno_deck`) on a cloth: under the very warm dim
    webcam its yellow field lies only 15-20 from its white after white balance (a fixed
    chroma bar of 15 took it for no field); as the face's own ink it is field, nearly as
    much of the face as under daylight (0.52-0.54 against 0.57-0.59), far above FIELD_KEPT of it."""
    faces = [f for f in deck(symbols=2, wilds=True) if f.colour in ("yellow", "")]
    rng = np.random.default_rng(5)
    shares = {}
    for session in (0, 2):
        for face in faces:
            picture, corners = cloth_photo(face.image(), CLOTHS["grey cloth"], SESSIONS[session], rng, (640, 480))
            shares[session, face.label] = field(warp_card_averaged(picture, corners, WORK_SIZE))
    daylight = min(v for (s, _), v in shares.items() if s == 0)
    assert daylight > 0.4
    assert FIELD_KEPT < 0.8
    assert all(v > 0.8 * daylight for (s, _), v in shares.items() if s == 2), shares
