"""A mini version of the issue's held-out protocol 1 (bench/protocols.py): a stand-in
commercial deck (white frame, colour field, white oval) photographed one card on a
cloth, taught with `deckhand teach` from ONE photo per face of one photo session
(daylight phone) and read with `deckhand recognize` in another (a warm lamp, where a
green's hue drifts to yellow's). Symbol and colour must both be right: it fails if the
colour stops surviving the light, or if the same symbol in two colours stops being told
apart by colour."""
import csv
import dataclasses
import json

import cv2
import numpy as np
import pytest

from device.cli import main as deckhand
from test_vision_speedups import plain_paper_light
from vision import fieldfind, realfind
from vision.classify import PAPER_STEP, WORK_SIZE, face_features, paper_light
from vision.colour import printed_without_white, symbol_groups
from vision.detect import READ_FIELD_SETTINGS
from vision.fieldfind import FieldSettings
from vision.framescale import face_frame_widths, grown_by_frame
from vision.offframe import (border_side, grown_in_plane, grown_past, on_border, runs_on, tip_completed,
                             tip_corner)
from vision.pipeline import Recognizer
from vision.profile import load_profile
from vision.realfind import find_outlines
from vision.render.sessions import SESSIONS
from vision.render.stress import card_at_edge
from vision.render.table import photo_patches, photo_texture, table_texture
from vision.render.uno_deck import CLOTHS, Face, cloth_photo, deck, phone_photo
from vision.teach import card_face_and_corners, the_card
from vision.warp import CANONICAL_SIZE, may_lie_turned, order_corners, warp_card

FACES = [f for f in deck(symbols=4, wilds=False) if f.symbol in ("2", "3") and f.colour != "blue"]  # 6 faces
WARM_LAMP = 1


def photos(folder, session: int, seed: int, faces=FACES) -> dict[str, Face]:
    rng = np.random.default_rng(seed)
    folder.mkdir()
    out = {}
    for i, face in enumerate(faces):
        picture, _ = cloth_photo(face.image(), CLOTHS["grey cloth"], SESSIONS[session], rng, (480, 360))
        path = folder / f"IMG_{i:03d}.jpg"
        cv2.imwrite(str(path), picture)
        out[str(path)] = face
    return out


def teach(root, faces) -> str:
    """`deckhand teach` from one daylight photo of each face; the profile's path."""
    shots = photos(root / "teach", 0, seed=3, faces=faces)
    with open(root / "teach" / "labels.csv", "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["file", "label", "colour"])
        for path, face in shots.items():
            out.writerow([path.rsplit("/", 1)[1], face.label, face.colour])
    assert deckhand(["teach", "--images", str(root / "teach"), "--labels", str(root / "teach" / "labels.csv"),
                     "--out", str(root / "deck.npz")]) == 0
    return str(root / "deck.npz")


def read(profile: str, images, capsys) -> dict[str, str]:
    """`deckhand recognize`: the label of the one card of each picture."""
    capsys.readouterr()
    assert deckhand(["recognize", "--profile", profile, *images]) == 0
    said = {}
    for line in capsys.readouterr().out.splitlines():
        row = json.loads(line)
        assert len(row["cards"]) == 1, row
        said[row["image"]] = row["cards"][0]["label"]
    return said


@pytest.fixture(scope="module")
def taught(tmp_path_factory):
    root = tmp_path_factory.mktemp("protocol")
    teach(root, FACES)
    return root


def test_six_faces_taught_in_daylight_are_read_under_a_warm_lamp(taught, capsys):
    shots = photos(taught / "warm", WARM_LAMP, seed=11)
    assert read(str(taught / "deck.npz"), shots, capsys) == {path: face.label for path, face in shots.items()}


def test_a_symbol_in_a_colour_never_taught_is_unknown_not_another_colour(tmp_path, capsys):
    """Yellow 2 left out of teaching (its photo was skipped, say): a yellow 2 photographed
    as the others were is not read as the red or green 2 (before, it was: the colour only
    ranked the taught colours of the symbol)."""
    profile = teach(tmp_path, [f for f in FACES if f.label != "Yellow 2"])
    shots = photos(tmp_path / "read", 0, seed=11)
    said = read(profile, shots, capsys)
    for path, face in shots.items():
        assert said[path] == ("unknown" if face.label == "Yellow 2" else face.label), (face.label, said[path])


def test_a_symbol_taught_in_each_colour_under_names_that_do_not_join_is_read_by_its_colour(tmp_path, capsys):
    """Labels written as Deckhand's codes are ("R2", "G2"): the colour's initial joins
    them into one symbol as "Red 2" and "Green 2" are, and the colour picks the label.
    Before, each was a class of its own that the colour-free reader could not tell from
    its lookalikes, and each lookalike in another colour counted as "this symbol in a
    colour not taught": most cards read unknown (the live self-check of twelve such
    faces read 8 of 72 held-out views right, now 43)."""
    coded = [dataclasses.replace(f, label=f.colour[0].upper() + f.symbol) for f in FACES]
    profile = teach(tmp_path, coded)
    shots = photos(tmp_path / "read", WARM_LAMP, seed=11, faces=coded)
    assert read(profile, shots, capsys) == {path: face.label for path, face in shots.items()}


def test_the_same_symbol_in_other_colours_is_one_symbol():
    labels = ("Red 7", "Green 7", "Wild", "Blue Skip", "yellow skip", "7", "Red", "B7", "Y-SKIP", "B", "Gold 7")
    colours = ("red", "g", "", "blue", "yellow", "red", "red", "blue", "yellow", "blue", "yellow")
    assert symbol_groups(labels, colours).tolist() == [0, 0, 2, 3, 3, 5, 6, 0, 3, 9, 10]


@pytest.mark.skipif(not photo_patches(), reason="../shared/realphotos (real table photos) is missing")
def test_a_deck_with_white_photographed_under_many_lights_is_not_taken_for_one_printed_without_white():
    """Phone photos under eight lights: each light tints the white a face is balanced by,
    whatever the card's colour, which is no colour field (before, such a deck was judged
    by field hues and 43 of 108 phone photos of protocol 2 read the wrong colour)."""
    rng = np.random.default_rng(1)
    samples = []
    for i, face in enumerate(deck(symbols=3, wilds=False)):
        shot, corners = phone_photo(face.image(), photo_texture(i), SESSIONS[i % len(SESSIONS)], rng, (400, 300))
        samples.append((face.colour, face_features(warp_card(shot, corners, WORK_SIZE)).ink_colour))
    assert not printed_without_white(samples)


def test_a_teaching_photo_outlined_as_two_halves_teaches_the_whole_card():
    """The finder can outline a face with a tilted white oval as two halves along the
    oval's edge: teaching takes both together; two things apart are not joined (the
    largest is the card)."""
    top = np.float32([[100, 100], [300, 110], [290, 240], [95, 235]])
    bottom = np.float32([[95, 245], [290, 250], [280, 390], [90, 380]])
    whole = the_card([top, bottom])
    assert np.allclose(whole, [[100, 100], [300, 110], [280, 390], [90, 380]], atol=3)
    far = bottom + np.float32([400, 0])
    far[1:3, 0] += 40   # the larger
    assert np.array_equal(the_card([top, far]), far)
    assert np.array_equal(the_card([far * 0.2, top]), top)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_yellow_face_under_a_very_warm_dim_lamp_keeps_its_colour(seed):
    """Protocol 1's very warm dim webcam: the yellow field lies within about 10 % of the
    white oval's brightness. The paper fit took both for paper (no ink, no colour: read
    unknown); it now balances by the brighter level, and the field is yellow ink."""
    rng = np.random.default_rng(seed)
    for face in [f for f in FACES if f.colour == "yellow"]:
        picture, corners = cloth_photo(face.image(), CLOTHS["grey cloth"], SESSIONS[2], rng, (480, 360))
        ink = face_features(warp_card(picture, corners, WORK_SIZE), two_levels=True).ink_colour
        assert ink.share > 0.5 and 60 < ink.hue < 110, (face.label, ink)


@pytest.mark.parametrize("depth", [0.1, 0.3])
def test_paper_in_light_falling_off_or_in_a_shadow_is_one_level(depth):
    """A white card with a red symbol in light falling off across it, and half of it in
    a soft or a hard shadow: the paper fit is the one-level fit (the plain fit of
    test_vision_speedups), not the brighter part alone."""
    inner = np.full((86, 60, 3), 0.9, np.float32) * np.linspace(1.0, 0.75, 60, dtype=np.float32)[None, :, None]
    inner[30:50, 20:40] = (0.2, 0.2, 0.7)
    ramp = np.clip((np.linspace(0, 1, 86) - 0.4) / 0.2, 0, 1)[:, None, None]
    hard = inner.copy()
    hard[43:] *= 1 - depth
    for face in (inner, (inner * (1 - depth * ramp)).astype(np.float32), hard):
        assert np.array_equal(paper_light(face, two_levels=True), plain_paper_light(face, PAPER_STEP))


def test_a_dim_yellow_teaching_photo_is_taught(tmp_path):
    """Its face shows little grey detail (5-9 levels, a checked cloth's square 6-8); its
    ink against its own paper is what tells it from a patch of the table."""
    rng = np.random.default_rng(1)
    face = next(f for f in FACES if f.colour == "yellow")
    picture, corners = cloth_photo(face.image(), CLOTHS["beige cloth"], SESSIONS[2], rng, (480, 360))
    _, found = card_face_and_corners(picture, source="IMG_1.jpg")
    assert cv2.pointPolygonTest(found.reshape(-1, 1, 2), tuple(map(float, corners.mean(axis=0))), False) > 0


def steep_photo(seed: int) -> tuple[np.ndarray, np.ndarray, Face]:
    """A phone photo (640 x 480) of one of FACES 58-64 degrees from overhead on wood."""
    rng = np.random.default_rng(seed)
    face = FACES[seed % len(FACES)]
    picture, corners = phone_photo(face.image(), table_texture("wood", seed), SESSIONS[0], rng, (640, 480),
                                   tilt=(58, 64))
    return picture, corners, face


@pytest.mark.parametrize("seed", [2, 24, 25])
def test_a_card_seen_steeply_along_its_length_is_read_the_right_way_round(taught, tmp_path, seed, capsys):
    """Seen 58-64 degrees from overhead along its length, the card looks about square: its
    outline, ordered as a portrait card by its apparent sides, put the face on its side
    and it read "unknown". Its short sides converge (they run away from the camera), so it
    is read turned a quarter too (`vision.warp.may_lie_turned`)."""
    picture, corners, face = steep_photo(seed)
    assert may_lie_turned(order_corners(corners))
    path = tmp_path / f"PXL_{seed}.jpg"
    cv2.imwrite(str(path), picture)
    assert read(str(taught / "deck.npz"), [str(path)], capsys) == {str(path): face.label}


def test_only_an_outline_whose_short_sides_converge_may_lie_turned():
    overhead = np.float32([[100, 100], [156, 100], [156, 187], [100, 187]])
    assert not may_lie_turned(overhead)                        # a card's shape: not near square
    square = np.float32([[100, 100], [187, 100], [187, 170], [100, 170]])
    assert not may_lie_turned(square)                          # near square, no perspective
    # the far side (top) shorter: the long sides converge, the card lies as it looks
    receding = np.float32([[120, 100], [167, 100], [187, 170], [100, 170]])
    assert not may_lie_turned(order_corners(receding))
    # the far side (top) a long side, the short sides converge: it may lie across
    across = np.float32([[110, 100], [200, 100], [215, 190], [95, 190]])
    assert may_lie_turned(order_corners(across))


def edge_photo(seed: int) -> tuple[np.ndarray, Face]:
    """A warm-lamp photo of one of FACES on a cloth, the card running 10-30 % off the
    photo's edge (`vision.render.stress.card_at_edge`)."""
    rng = np.random.default_rng(seed)
    face = FACES[seed % len(FACES)]
    picture, corners = cloth_photo(face.image(), CLOTHS["grey cloth"], SESSIONS[WARM_LAMP], rng, (480, 360))
    return card_at_edge(picture, corners, rng)[0], face


@pytest.mark.parametrize("seed", [1, 4, 9, 0, 7])
def test_a_card_running_off_the_photos_edge_is_read_from_the_whole_card(taught, tmp_path, seed, capsys):
    """The finder outlines the part in view; read as a whole face it is a squashed face:
    seeds 1, 4 and 9 read another card (a Red 3 as Red 2 at 0.94), 0 and 7 "unknown".
    Grown past the border to a card's shape it reads right (`vision.offframe`)."""
    picture, face = edge_photo(seed)
    path = tmp_path / f"IMG_{seed}.jpg"
    cv2.imwrite(str(path), picture)
    assert read(str(taught / "deck.npz"), [str(path)], capsys) == {str(path): face.label}


def test_an_outline_along_the_border_is_grown_to_the_card_it_is_part_of():
    size = (480, 360)
    # a portrait card 100 x 155 whose top 40 pixels run off the top of the frame
    cut = np.float32([[200, 0], [300, 0], [300, 115], [200, 115]])
    side = border_side(cut, size, 3.0)
    assert side == 0
    assert np.allclose(grown_past(cut, side, 1.55), [[200, -40], [300, -40], [300, 115], [200, 115]], atol=0.5)
    # a landscape-lying card cut across its width: the side in view is the long one
    across = np.float32([[0, 100], [60, 100], [60, 255], [0, 255]])
    side = border_side(across, size, 3.0)
    assert np.allclose(grown_past(across, side, 1.55), [[-40, 100], [60, 100], [60, 255], [-40, 255]], atol=0.5)
    # a whole card lying against the border is left alone; a corner's tip is no side
    whole = np.float32([[200, 0], [300, 0], [300, 155], [200, 155]])
    assert grown_past(whole, border_side(whole, size, 3.0), 1.55) is None
    tip = np.float32([[0, 100], [90, 40], [150, 170], [60, 230]])
    assert border_side(tip, size, 3.0) is None and on_border(tip, size, 3.0) == 1


def steep_edge_photo(seed: int, tilt: tuple[float, float]) -> tuple[np.ndarray, np.ndarray, Face]:
    """A phone photo (640 x 480) of one of FACES `tilt` degrees from overhead on wood, the
    card running 10-30 % off the photo's edge (`card_at_edge`)."""
    rng = np.random.default_rng(seed)
    face = FACES[seed % len(FACES)]
    picture, corners = phone_photo(face.image(), table_texture("wood", seed), SESSIONS[0], rng, (640, 480),
                                   tilt=tilt)
    picture, corners = card_at_edge(picture, corners, rng)
    return picture, corners, face


def tip_photo(seed: int) -> tuple[np.ndarray, np.ndarray, Face]:
    """40-55 degrees from overhead, one corner off the photo (for these seeds)."""
    return steep_edge_photo(seed, (40, 55))


def read_off_photo(taught, path, picture: np.ndarray, corners: np.ndarray, off: int, capsys) -> str:
    """What `deckhand recognize` reads in `picture` (saved as `path`), whose card has
    `off` corners off the photo."""
    h, w = picture.shape[:2]
    assert sum(not (0 <= x < w and 0 <= y < h) for x, y in corners) == off
    cv2.imwrite(str(path), picture)
    return read(str(taught / "deck.npz"), [str(path)], capsys)[str(path)]


@pytest.mark.parametrize("seed", [49, 55, 35, 39, 57])
def test_a_steep_card_with_one_corner_off_the_photo_is_read_from_where_its_sides_meet(taught, tmp_path, seed,
                                                                                       capsys):
    """The finder's outline puts the corner off the photo on the border, its two sides
    to it cutting across the face: read as it is, seeds 49 and 55 read Red 3 as Red 2
    (0.77, 0.93), 35, 39 and 57 "unknown". The card's sides from the corners beside it,
    followed by their edges to the border, meet at the corner off the photo
    (`vision.offframe.tip_completed`): read from there they read right."""
    picture, corners, face = tip_photo(seed)
    assert read_off_photo(taught, tmp_path / f"PXL_{seed}.jpg", picture, corners, 1, capsys) == face.label


def test_a_corner_off_the_frame_is_put_where_the_cards_sides_meet():
    """A pale card in perspective (its far side shorter) on a dark table, its top-right
    corner off a 480 x 360 frame: the outline with that corner on the border (between
    where the sides leave the frame) is completed to the card's own corner within a
    pixel or two, where the parallelogram on the three corners in view is 20 pixels off."""
    card = np.float32([[150, 40], [520, -30], [430, 300], [110, 330]])   # TL TR BR BL
    frame = np.full((360, 480, 3), 40, np.uint8)
    cv2.fillConvexPoly(frame, np.round(card * 16).astype(np.int32), (225, 230, 235), cv2.LINE_AA, shift=4)
    tip = np.float32([[150, 40], [479, 5], [430, 300], [110, 330]])     # the finder's: a corner on the border
    assert tip_corner(tip, (480, 360), 3.0) == 1
    whole = tip_completed(frame, tip, 1)
    assert whole is not None
    assert np.abs(whole - order_corners(card)).max() < 2.5
    parallelogram = tip[0] + tip[2] - tip[3]
    assert np.hypot(*(parallelogram - card[1])) > 20
    # a tip only when exactly one corner lies on the border (or past it)
    assert tip_corner(np.float32([[150, 40], [400, 30], [430, 300], [110, 330]]), (480, 360), 3.0) is None
    assert tip_corner(np.float32([[150, 0], [400, 0], [430, 300], [110, 330]]), (480, 360), 3.0) is None


@pytest.mark.parametrize("key", [(129, (0, 30)), (72, (50, 65))])
def test_a_tip_whose_outline_puts_the_corners_beside_it_off_is_read_from_its_slid_sides(taught, tmp_path, key,
                                                                                      capsys):
    """A card with one corner off the photo whose finder's outline puts the corners beside
    that tip a few percent along their sides off the card's (four corners fitted to the
    five in view): no line within a few pixels of them is followed to the border, and the
    outline as it is read under the bar: "unknown" on the old code (Yellow 3, Red 2). The
    sides looked for from points slid along the outline's sides, turned inward too
    (`tip_completed(..., slid=True)`), meet at the corner off the photo: read right (0.93,
    0.94)."""
    seed, tilt = key
    picture, corners, face = steep_edge_photo(seed, tilt)
    assert read_off_photo(taught, tmp_path / f"PXL_{seed}.jpg", picture, corners, 1, capsys) == face.label


def test_a_tips_sides_are_found_from_corners_slid_along_the_outline():
    """A pale card on a dark table, its top-right corner off a 480 x 360 frame, outlined
    as the finder does when it fits four corners to the five in view: the corners beside
    the tip 3-6 % of their sides towards the opposite corner, the tip where the chords
    through them to the border points meet (past the card's own corner). No line through
    those corners is followed to the border (None); slid along their sides, the card's
    sides are found and the whole card put within 6.5 pixels (2-5 px; the card 330 tall)."""
    card = np.float32([[150, 60], [540, 20], [430, 300], [110, 330]])   # TL TR BR BL
    frame = np.full((360, 480, 3), 40, np.uint8)
    cv2.fillConvexPoly(frame, np.round(card * 16).astype(np.int32), (225, 230, 235), cv2.LINE_AA, shift=4)

    def at_right_border(p, q):
        return p + (q - p) * (479 - p[0]) / (q[0] - p[0])
    leave_top, leave_right = at_right_border(card[0], card[1]), at_right_border(card[2], card[1])
    for along_top, along_right in ((0.04, 0.04), (0.06, 0.06), (0.03, 0.05)):
        a = card[0] + along_top * (card[3] - card[0])
        c = card[2] + along_right * (card[3] - card[2])
        r, s = leave_top - a, leave_right - c
        tip = a + r * ((c - a)[0] * s[1] - (c - a)[1] * s[0]) / (r[0] * s[1] - r[1] * s[0])
        outline = np.float32([a, tip, c, card[3]])
        assert tip_corner(outline, (480, 360), 3.0) == 1
        assert tip_completed(frame, outline, 1) is None
        whole = tip_completed(frame, outline, 1, slid=True)
        assert whole is not None and np.abs(whole - order_corners(card)).max() < 6.5


def side_off_photo(seed: int) -> tuple[np.ndarray, np.ndarray, Face]:
    """50-65 degrees from overhead, one side (two corners) off the photo (for these seeds)."""
    return steep_edge_photo(seed, (50, 65))


@pytest.mark.parametrize("seed", [18, 171])
def test_a_steep_card_with_one_side_off_the_photo_is_grown_in_perspective(taught, tmp_path, seed, capsys):
    """Grown past the border flat (`vision.offframe.grown_past`), no shape read the
    steep card at OFF_FRAME_BAR: seeds 18 (Red 2) and 171 (Yellow 3) read "unknown" on
    the old code. Grown in the plane its converging sides give
    (`vision.offframe.grown_in_plane`) it reads right (0.91, 0.94)."""
    picture, corners, face = side_off_photo(seed)
    assert read_off_photo(taught, tmp_path / f"PXL_{seed}.jpg", picture, corners, 2, capsys) == face.label


def phone_view_of_card(tilt_degrees: float, position) -> np.ndarray:
    """The corners (TL TR BR BL) of a 56 x 87 mm card tilted `tilt_degrees` about its
    width, its centre at `position` (mm, camera axes), as a phone's camera sees it in a
    640 x 480 frame (focal 0.75 of the long side, centred)."""
    f, centre = 0.75 * 640, np.array([320.0, 240.0])
    tilt = np.radians(tilt_degrees)
    turn = np.array([[1, 0, 0], [0, np.cos(tilt), -np.sin(tilt)], [0, np.sin(tilt), np.cos(tilt)]])
    card = np.array([[-28, -43.5, 0], [28, -43.5, 0], [28, 43.5, 0], [-28, 43.5, 0]]) @ turn.T + position
    return np.float32(card[:, :2] / card[:, 2:] * f + centre)


def test_an_outline_along_the_border_is_grown_in_the_cards_plane():
    """A card 56 x 87 tilted 55 degrees, seen by a phone's camera (focal 0.75 of the
    frame's long side), its far end off the top of a 640 x 480 frame: grown in the plane
    its sides to the border give, its corners off the frame are found within a pixel;
    grown flat they are 13-19 pixels off (the card is 164 pixels across there)."""
    card = phone_view_of_card(55, [30, -75, 200])    # TL TR BR BL, the top two off the frame
    assert (card[:2, 1] < -40).all() and (card[2:, 1] > 0).all()

    def at_border(p, q):
        return p + (q - p) * (0 - p[1]) / (q[1] - p[1])
    outline = np.float32([at_border(card[3], card[0]), at_border(card[2], card[1]), card[2], card[3]])
    side = border_side(outline, (640, 480), 3.0)
    assert side == 0
    whole = grown_in_plane(outline, side, 87 / 56, (640, 480))
    assert whole is not None and np.abs(whole - card).max() < 1.0
    assert np.abs(grown_past(outline, side, 87 / 56) - card).max() > 10
    # a card lying whole against the border is left alone, in perspective as flat
    assert grown_in_plane(np.float32([card[0], card[1], card[2], card[3]]) + [0, 52], side, 87 / 56,
                          (640, 480)) is None


WILDS = [f for f in deck(symbols=4) if f.colour == ""]   # a black field, a four-colour oval


@pytest.fixture(scope="module")
def taught_wilds(tmp_path_factory):
    root = tmp_path_factory.mktemp("wilds")
    teach(root, FACES + WILDS)
    return root


@pytest.mark.parametrize("seed", [3, 6, 12])
def test_a_wild_running_off_the_photos_edge_is_found_and_read(taught_wilds, tmp_path, seed, capsys):
    """A wild's face is a black field: cut by the photo's edge, under a quarter of its
    inside is paper-white, and the finder took it for a patch of table cut by the border
    (`RealSettings.min_cut_paper`): not found at all on the old code, in each of these
    seeds. Read with `READ_FIELD_SETTINGS`, its field's outline is taken, the white frame
    running round it outside (`RealSettings.cut_framed`), and grown out to the frame's
    edge (`_framed_cut`; the field's outline alone read "unknown" in seeds 3 and 6): read
    right (of seeds 0-15: 11 right, 4 Wilds "unknown", seed 5 not found; none another card)."""
    rng = np.random.default_rng(seed)
    face = WILDS[seed % 2]
    picture, corners = cloth_photo(face.image(), CLOTHS["grey cloth"], SESSIONS[WARM_LAMP], rng, (480, 360))
    picture, corners = card_at_edge(picture, corners, rng)
    path = tmp_path / f"IMG_{seed}.jpg"
    cv2.imwrite(str(path), picture)
    assert read(str(taught_wilds / "deck.npz"), [str(path)], capsys) == {str(path): face.label}


def test_a_cut_outline_is_framed_round_only_where_white_runs_outside_each_side_in_view():
    """`vision.outlinecheck.framed_round`: a black field inside its white frame, cut by the
    left border, is framed all round (its side on the border left out); a dark patch of
    table cut by the border is not, nor a field whose frame runs along two of its three
    sides in view."""
    from vision.outlinecheck import framed_round
    white = np.full((240, 320), 60, np.uint8)                 # a dark table
    cv2.rectangle(white, (0, 40), (130, 200), 230, -1)         # the card's white frame
    cv2.rectangle(white, (0, 50), (120, 190), 20, -1)          # its black field, cut at x = 0
    field = np.float32([[0, 50], [120, 50], [120, 190], [0, 190]])
    assert framed_round(field, white, 3) == 1.0
    patch = np.float32([[0, 205], [60, 205], [60, 235], [0, 235]])
    assert framed_round(patch, white, 3) == 0.0
    white[195:201, :] = 60                                     # the frame's bottom band gone
    white[191:195, :] = 60
    assert framed_round(field, white, 3) < 0.5


@pytest.mark.parametrize("key", [(1, (30, 50)), (47, (30, 50)), (1, (0, 30)), (8, (0, 30))])
def test_a_card_with_a_side_off_the_photo_is_grown_as_long_as_its_white_frame_tells(taught, tmp_path, key, capsys):
    """A card with a side off the photo whose grown shapes disagree or read it under the
    bar read "unknown" on the old code (these seeds: Red 3, Green 3, Red 3, Yellow 2).
    The deck's white frame is a taught share of the card's length: its width at the
    card's whole end, projected along the sides, tells how long the card is
    (`vision.framescale.grown_by_frame`), and the card so grown reads right (0.92-0.98)."""
    seed, tilt = key
    picture, corners, face = steep_edge_photo(seed, tilt)
    assert read_off_photo(taught, tmp_path / f"PXL_{seed}.jpg", picture, corners, 2, capsys) == face.label


def test_the_white_frames_width_at_the_whole_end_tells_the_cards_length():
    """The stand-in face (56 x 87 mm, its frame 11 of 311 pixels) tilted 45 degrees under a
    phone's camera, its far end off the top of a 640 x 480 frame: its taught frame widths
    are measured on the upright face, and the outline in view grown by the frame's width
    at the whole end puts the corners off the frame within 4 % of the card's width of
    the truth (1.2 %; grown flat to a playing card's shape, 1.40, they are 38 % off, to
    the card's own 87 / 56 22 %)."""
    face = deck(symbols=1, wilds=False)[0].image()
    end, side = face_frame_widths(cv2.resize(face, CANONICAL_SIZE, interpolation=cv2.INTER_AREA))
    assert abs(end - 11 / 311) < 0.004 and abs(side - 11 / 200) < 0.006
    card = phone_view_of_card(45, [10, -90, 230])    # TL TR BR BL, the top two off the frame
    assert (card[:2, 1] < -20).all() and (card[2:, 1] > 0).all()
    h, w = face.shape[:2]
    matrix = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), card)
    picture = np.full((480, 640, 3), (70, 90, 110), np.uint8)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, (640, 480))
    warped = cv2.warpPerspective(face, matrix, (640, 480))
    picture[mask > 127] = warped[mask > 127]

    def at_border(p, q):
        return p + (q - p) * (0 - p[1]) / (q[1] - p[1])
    outline = np.float32([at_border(card[3], card[0]), at_border(card[2], card[1]), card[2], card[3]])
    side_on_border = border_side(outline, (640, 480), 3.0)
    assert side_on_border == 0
    whole = grown_by_frame(picture, outline, side_on_border, (end, side))
    width = float(np.hypot(*(card[2] - card[3])))
    assert whole is not None and np.abs(whole - card).max() < 0.04 * width
    assert np.abs(grown_past(outline, side_on_border, 88 / 63) - card).max() > 0.2 * width


def tip_closed_outline(card: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The outline the finder gave a card running off the photo along a whole side (two
    corners off) when it closed it as a tip (protocol 1's Red 6 under --stress edge,
    s1-IMG_0006): one side to the border stopped short of it (85 % of the way), the other
    run past it (112 %), so one corner lies beyond the border and its neighbour inside."""
    w, h = size
    off = [not (0 <= x < w and 0 <= y < h) for x, y in card]
    a = next(k for k in range(4) if off[k] and off[(k + 1) % 4])
    b, d, c = (a + 1) % 4, (a - 1) % 4, (a + 2) % 4

    def to_border(p, q):   # the share of p -> q in view
        t = np.linspace(0, 1, 2001)[:, None]
        points = p + t * (q - p)
        inside = (points[:, 0] >= 0) & (points[:, 0] <= w - 1) & (points[:, 1] >= 0) & (points[:, 1] <= h - 1)
        return float(t[np.argmin(inside), 0])
    outline = np.float32(card).copy()
    outline[a] = card[d] + 0.85 * to_border(card[d], card[a]) * (card[a] - card[d])
    outline[b] = card[c] + 1.12 * to_border(card[c], card[b]) * (card[b] - card[c])
    return outline


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_card_along_the_border_outlined_as_a_tip_is_read_grown_past_the_border(taught, seed, monkeypatch):
    """A card 10-30 % off a warm-lamp photo along a whole side, outlined with one corner
    past the border and its neighbour inside (`tip_closed_outline`): no tip's sides meet
    off the frame, and the outline as it is reads "unknown" (these seeds: Red 2, Red 3,
    Yellow 2), as on the old code (`_tip_along_border` switched off). Read as a card along
    the border, each side to the tip taken for the border in turn and grown past it
    (`Recognizer._tip_along_border`), it reads right."""
    rng = np.random.default_rng(seed)
    face = FACES[seed % len(FACES)]
    picture, corners = cloth_photo(face.image(), CLOTHS["grey cloth"], SESSIONS[WARM_LAMP], rng, (480, 360))
    picture, corners = card_at_edge(picture, corners, rng)
    h, w = picture.shape[:2]
    outline = tip_closed_outline(np.float32(corners), (w, h))
    assert tip_corner(outline, (w, h), 3.0) is not None and border_side(outline, (w, h), 3.0) is None
    recognizer = Recognizer.create(load_profile(str(taught / "deck.npz")))
    assert recognizer.read_card(picture, outline).label == face.label
    monkeypatch.setattr(Recognizer, "_tip_along_border", lambda *args: None)
    assert recognizer.read_card(picture, outline).label == "unknown"


def test_a_cards_side_runs_on_past_an_outline_corner_only_where_the_card_goes_on():
    """A pale card on a dark table whose bottom runs off a 480 x 360 frame, outlined as a tip
    (`tip_closed_outline`): its right side runs on past the outline's corner inside the frame
    to the border (`runs_on`), so that side to the tip may be the border. Where the card
    itself turns (a true tip's corners beside it, the whole card's corners) nothing runs on."""
    card = np.float32([[150, 60], [330, 50], [345, 420], [160, 430]])   # TL TR BR BL, BR and BL off
    frame = np.full((360, 480, 3), 40, np.uint8)
    cv2.fillConvexPoly(frame, np.round(card * 16).astype(np.int32), (225, 230, 235), cv2.LINE_AA, shift=4)
    outline = tip_closed_outline(card, (480, 360))
    tip = tip_corner(outline, (480, 360), 3.0)
    assert tip == 3 and outline[2][1] < 340 and outline[3][1] > 370
    assert runs_on(frame, outline, 2, 1)            # the right side goes on below the outline's corner
    assert not runs_on(frame, outline, 1, 2)        # past the top corners: the table
    assert not runs_on(frame, outline, 0, 3)
    # a true tip (the top-right corner off the frame): past the corners beside it, the table
    tipped = np.float32([[150, 40], [520, -30], [430, 300], [110, 330]])
    frame = np.full((360, 480, 3), 40, np.uint8)
    cv2.fillConvexPoly(frame, np.round(tipped * 16).astype(np.int32), (225, 230, 235), cv2.LINE_AA, shift=4)
    outline = np.float32([[150, 40], [479, 5], [430, 300], [110, 330]])
    assert not runs_on(frame, outline, 0, 3) and not runs_on(frame, outline, 2, 3)


def test_an_outline_read_both_ways_as_two_cards_about_as_surely_is_unknown(monkeypatch):
    """An outline that may lie turned a quarter is read both ways. A squashed face reads
    surely too: on fresh protocol-2 draws Blue 7 read Blue Reverse at 0.997 one way and
    Blue 7 at 0.997 the other, Green Reverse read Green 2 at 0.866 against 0.865, and the
    first way was taken (wrong). Two cards read within TURN_LEAD of each other are
    "unknown"; a clearly surer way is still taken (Blue Draw Two at 0.997 against Blue 3
    at 0.888)."""
    from vision import pipeline
    from vision.classify import Reading
    from vision.profile import builtin_profile
    from vision.reader import LinearReader

    reader = LinearReader(classes=np.arange(2), mean=np.zeros(3, np.float32),
                          weights=np.zeros((3, 2), np.float32), bias=np.zeros(2, np.float32))
    profile = dataclasses.replace(builtin_profile("solo"), reader=reader)   # colours and a learned reader
    across = order_corners(np.float32([[110, 100], [200, 100], [215, 190], [95, 190]]))
    assert may_lie_turned(across)
    frame = np.zeros((300, 300, 3), np.uint8)

    def read_as(plain: Reading, turned: Reading, templates: tuple[float, float] = (0.9, 0.9)) -> Reading:
        monkeypatch.setattr(pipeline, "card_features", lambda frame, corners, profile, *a: corners)
        monkeypatch.setattr(pipeline, "classify",
                            lambda corners, *a, **k: plain if np.array_equal(corners, across) else turned)
        monkeypatch.setattr(pipeline, "template_match",
                            lambda corners, *a: templates[0] if np.array_equal(corners, across) else templates[1])
        return Recognizer.create(profile).reading(frame, across)[0]

    seven, reverse = Reading("Blue 7", "blue", 0.997, 0.9, False), Reading("Blue Reverse", "blue", 0.997, 0.9, False)
    assert read_as(reverse, seven).label == "unknown"
    assert read_as(reverse, seven).colour == "" and read_as(reverse, seven).confidence == 0.0   # as any unknown
    assert read_as(Reading("Green 2", "green", 0.866, 0.9, False),
                   Reading("Green Reverse", "green", 0.865, 0.9, False)).label == "unknown"
    assert read_as(Reading("Blue 3", "blue", 0.888, 0.9, False),
                   Reading("Blue Draw Two", "blue", 0.997, 0.9, False)).label == "Blue Draw Two"
    assert read_as(seven, Reading("Blue 7", "blue", 0.99, 0.9, False)).label == "Blue 7"   # one card both ways
    # the templates tell the ways apart (session 24: a Blue 3 on its side read Blue 4 at 0.996 as the
    # right way read Blue 3 at 0.996; the 4 matched its templates 0.77, the 3 0.99): that way
    three, four = Reading("Blue 3", "blue", 0.996, 0.9, False), Reading("Blue 4", "blue", 0.996, 0.9, False)
    assert read_as(four, three, templates=(0.77, 0.99)).label == "Blue 3"
    assert read_as(three, four, templates=(0.99, 0.77)).label == "Blue 3"
    assert read_as(four, three, templates=(0.88, 0.99)).label == "unknown"   # under TURN_TEMPLATES apart


def steep_wild_photo(seed: int, kind: str) -> tuple[np.ndarray, np.ndarray, Face]:
    """A phone photo (640 x 480) of a wild 35-60 degrees from overhead on a rendered table."""
    rng = np.random.default_rng(seed)
    face = WILDS[seed % 2]
    picture, corners = phone_photo(face.image(), table_texture(kind, seed), SESSIONS[seed % 8], rng, (640, 480),
                                   tilt=(35, 60))
    return picture, corners, face


@pytest.mark.parametrize("seed, kind", [(12, "wood"), (13, "cloth"), (25, "cloth"), (28, "cloth")])
def test_a_wild_whose_oval_cuts_its_black_field_is_found_and_read(taught_wilds, tmp_path, seed, kind,
                                                                    monkeypatch, capsys):
    """Protocol 2's Wild was not found in three of four fresh draws: seen obliquely, its
    four-colour oval reaches the black field's sides and cuts the dark field in pieces, none
    of them four-sided nor filling the field. The field is now also looked for as dark or
    coloured (`FieldSettings.dark_colour`: black field and oval together), its corners,
    clipped by the white corner index, put where its sides meet (`fieldfind._side_quad`):
    found and read right. On the old code (no such field) no outline lies on the card."""
    picture, corners, face = steep_wild_photo(seed, kind)
    path = tmp_path / f"IMG_{seed}.jpg"
    cv2.imwrite(str(path), picture)
    assert read(str(taught_wilds / "deck.npz"), [str(path)], capsys) == {str(path): face.label}
    real = fieldfind.framed_fields
    old = FieldSettings(dark_colour=0)
    monkeypatch.setattr(realfind, "framed_fields",
                        lambda channels, white, min_area, settings=None, late=None, unframed=None, paler=None,
                        cut=None: real(channels, white, min_area, old, late, unframed, paler, cut))
    outlines = find_outlines(picture, READ_FIELD_SETTINGS)
    assert max((_iou(q, corners) for q in outlines), default=0.0) < 0.5


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    inter, _ = cv2.intersectConvexConvex(np.float32(a), np.float32(b))
    return inter / (cv2.contourArea(np.float32(a)) + cv2.contourArea(np.float32(b)) - inter)
