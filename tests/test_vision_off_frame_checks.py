"""A card running off the photo's edge (`--stress edge`): the second looks that keep its
reading from being another card (or make it "unknown"), and its framed colour field found when the oval runs off
the frame too (`vision.fieldfind._grown_cut`)."""
import dataclasses

import cv2
import numpy as np
import pytest

from vision import fieldfind, pipeline
from vision.classify import Reading
from vision.detect import READ_FIELD_SETTINGS
from vision.pipeline import Recognizer
from vision.profile import builtin_profile
from vision.reader import LinearReader
from vision.realfind import find_outlines
from vision.render.sessions import SESSIONS
from vision.render.stress import card_at_edge
from vision.render.table import photo_patches, photo_texture
from vision.render.uno_deck import deck, phone_photo

FRAME = np.zeros((300, 400, 3), np.uint8)
# a card's tip off the right of a 400 x 300 frame: its corner 1 on the border
TIP = np.float32([[150, 60], [399, 90], [330, 250], [140, 230]])
TIP_WHOLE = np.float32([[150, 60], [430, 40], [330, 250], [140, 230]])
# a card cut along the bottom of the frame: corners 2 and 3 on the border
CUT = np.float32([[100, 150], [220, 150], [220, 299], [100, 299]])


def colour_recognizer() -> Recognizer:
    """A recognizer whose deck has colours and a learned reader (`Recognizer.turns`)."""
    reader = LinearReader(classes=np.arange(2), mean=np.zeros(3, np.float32),
                          weights=np.zeros((3, 2), np.float32), bias=np.zeros(2, np.float32))
    return Recognizer.create(dataclasses.replace(builtin_profile("solo"), reader=reader))


def reading(label: str, confidence: float) -> Reading:
    return Reading(label, label.split()[0].lower(), confidence, 0.9, False)


def read_tip(monkeypatch, as_is: Reading, slid: Reading) -> Reading:
    """The tip outline TIP read as it is as `as_is`, its plain completion none, and its
    sides slid (`tip_completed(..., slid=True)`) completing it to TIP_WHOLE read `slid`
    (the steadiness check, `vision.steady`, left out)."""
    monkeypatch.setattr(Recognizer, "_steady", lambda *a: True)
    monkeypatch.setattr(pipeline, "card_features", lambda frame, corners, profile, *a: corners)
    monkeypatch.setattr(pipeline, "tip_completed", lambda frame, corners, tip, slid=False:
                        TIP_WHOLE if slid else None)
    monkeypatch.setattr(pipeline, "classify", lambda corners, *a, **k:
                        slid if np.array_equal(corners, TIP_WHOLE) else as_is)
    return colour_recognizer().reading(FRAME, TIP)[0]


def test_a_tips_reading_as_it_is_gives_way_to_its_slid_sides_reading_another_card_surer(monkeypatch):
    """A tip whose plain completion finds no side was read as it is at 0.75 or more, and
    the outline as it is cuts across the face: on fresh edge draws a Yellow 6 read Yellow 9
    at 0.78 and a Red Reverse Red 8 at 0.95, where the sides looked for from slid corners
    completed them to Yellow 6 at 0.88 and Red Reverse at 0.98. Two cards read so, the slid
    one surer: that one is taken; the one as it is surer: "unknown" (`_tip_holds`: edge draw
    310's Blue 0 read Blue 8 at 0.996 as it is, slid Blue 0 at 0.981)."""
    assert read_tip(monkeypatch, reading("Yellow 9", 0.78), reading("Yellow 6", 0.88)).label == "Yellow 6"
    assert read_tip(monkeypatch, reading("Red 8", 0.95), reading("Red Reverse", 0.98)).label == "Red Reverse"
    assert read_tip(monkeypatch, reading("Blue 8", 0.996), reading("Blue 0", 0.981)).label == "unknown"
    # one card both ways, or the slid one unsure: as it is
    assert read_tip(monkeypatch, reading("Red 8", 0.9), reading("Red 8", 0.99)).label == "Red 8"
    assert read_tip(monkeypatch, reading("Red 8", 0.9), reading("Red 3", 0.7)).label == "Red 8"


def read_cut(monkeypatch, shapes: dict[float, Reading], framed: Reading | None,
             steep: dict[float, Reading] | None = None) -> Reading:
    """The outline CUT (along the bottom border) grown past it to each card shape and read
    as `shapes` gives (the deck's own shape and OFF_FRAME_SHAPES), grown so in the card's
    plane read as `steep` gives (None: not grown so), and grown as long as its white frame
    tells (`_framed_reading`) read `framed` (None: not measured; the steadiness check left
    out)."""
    monkeypatch.setattr(Recognizer, "_steady", lambda *a: True)
    grown = {}

    def grown_past(corners, side, aspect, plane=False):
        whole = np.float32(corners).copy()
        whole[2, 1] = whole[3, 1] = whole[0, 1] + aspect * 120
        whole[1, 0] += 1.0 if plane else 0.0
        grown[(aspect, plane)] = whole
        return whole

    def classify(corners, *a, **k):
        return next(((steep if plane else shapes).get(aspect, reading("unknown", 0.0))
                     for (aspect, plane), whole in grown.items() if np.array_equal(corners, whole)),
                    reading("unknown", 0.0))

    monkeypatch.setattr(pipeline, "card_features", lambda frame, corners, profile, *a: corners)
    monkeypatch.setattr(pipeline, "grown_past", grown_past)
    monkeypatch.setattr(pipeline, "grown_in_plane", lambda corners, side, aspect, size:
                        None if steep is None else grown_past(corners, side, aspect, True))
    monkeypatch.setattr(pipeline, "classify", classify)
    monkeypatch.setattr(Recognizer, "_framed_reading",
                        lambda self, frame, corners, side: None if framed is None else (framed, CUT))
    return colour_recognizer().reading(FRAME, CUT)[0]


def test_a_card_along_the_border_whose_white_frame_tells_another_card_is_read_as_its_frame_tells(monkeypatch):
    """Grown past the border to card shapes, one card read surely on one or two shapes was
    taken, the frame's width not asked: on fresh edge draws a Blue 5 read Blue 1 at 0.93 on
    the profile's own 1.40 (a poker card's, the deck's shape not measured) and a Green 8
    Green 1 at 0.91, each read right grown as long as its white frame tells (0.99, 0.91).
    Where the frame's length reads another card at FRAMED_LENGTH_BAR, that is taken."""
    own = colour_recognizer().profile.aspect
    assert read_cut(monkeypatch, {own: reading("Blue 1", 0.93)}, reading("Blue 5", 0.99)).label == "Blue 5"
    assert read_cut(monkeypatch, {1.5: reading("Green 1", 0.91), 1.45: reading("Green 1", 0.89)},
                    reading("Green 8", 0.91)).label == "Green 8"
    # the frame agreeing, or not measured: the shapes' card
    assert read_cut(monkeypatch, {1.555: reading("Red 4", 0.95)}, reading("Red 4", 0.9)).label == "Red 4"
    assert read_cut(monkeypatch, {1.555: reading("Red 4", 0.95)}, None).label == "Red 4"


def test_a_card_along_the_border_must_hold_on_the_other_lengths_it_may_have(monkeypatch):
    """Read on the shapes grown flat past the border, one card surely was taken whatever the
    card grown in its plane or as long as its frame tells read: on edge draw 177 a Red 5 read
    Red 1 at 0.88-0.89 on the three longest flat shapes, Red 5 at 0.88-0.90 on three shapes in
    its plane; a Green Reverse Green 8 at 0.82-0.84 on two flat shapes, Green Reverse at 0.78
    as long as its frame tells. Where another card is read on as many of the lengths (a
    shape at OFF_FRAME_BAR a vote, the frame's length at OFF_FRAME_EDGE_BAR FRAMED_VOTES), "unknown"."""
    red1 = reading("Red 1", 0.89)
    red5 = reading("Red 5", 0.9)
    assert read_cut(monkeypatch, {1.555: red1, 1.6: red1, 1.65: red1}, None,
                    {1.555: red5, 1.6: red5, 1.65: red5}).label == "unknown"
    assert read_cut(monkeypatch, {1.555: reading("Green 8", 0.84), 1.6: reading("Green 8", 0.82)},
                    reading("Green Reverse", 0.78), {}).label == "unknown"
    # more of the lengths read the card taken: it holds
    assert read_cut(monkeypatch, {1.45: red1, 1.5: red1, 1.555: red1, 1.6: red1}, None,
                    {1.6: red5, 1.65: red5}).label == "Red 1"
    assert read_cut(monkeypatch, {1.555: reading("Green 8", 0.84), 1.6: reading("Green 8", 0.82)},
                    reading("Green Reverse", 0.7), {}).label == "Green 8"


SLID_WHOLE = TIP_WHOLE + np.float32([5, 0])


def tip_read(monkeypatch, as_is: Reading, completion: Reading | None, slid_reading: Reading | None,
             along: bool = True) -> Reading:
    """The colour recognizer's reading of TIP, read `as_is` from its outline, `completion`
    from its completion (TIP_WHOLE) and `slid_reading` from its slid sides (SLID_WHOLE; None:
    not found); `along=False`: the sides along the border find nothing either."""
    monkeypatch.setattr(Recognizer, "_steady", lambda *a: True)
    monkeypatch.setattr(Recognizer, "_refound", lambda *a: None)
    if not along:
        monkeypatch.setattr(Recognizer, "_tip_along_border", lambda *a: None)
    monkeypatch.setattr(Recognizer, "_read_outline", lambda self, frame, corners, *a: (as_is, corners, False))
    monkeypatch.setattr(pipeline, "card_features", lambda frame, corners, profile, *a: corners)
    monkeypatch.setattr(pipeline, "tip_completed", lambda frame, corners, tip, slid=False:
                        (None if slid_reading is None else SLID_WHOLE) if slid
                        else (None if completion is None else TIP_WHOLE))
    monkeypatch.setattr(pipeline, "classify", lambda corners, *a, **k:
                        completion if np.array_equal(corners, TIP_WHOLE) else
                        slid_reading if np.array_equal(corners, SLID_WHOLE) else as_is)
    return colour_recognizer().reading(FRAME, TIP)[0]


def test_a_tip_read_as_it_is_yields_to_its_completion_guessing_another_card(monkeypatch):
    """A tip whose completion (`tip_completed`) reads "unknown" was read as it is at
    OFF_FRAME_EDGE_BAR or more: on edge draw 121 a Blue 3 read Blue Skip at 0.91 as it is, its
    completion (its corners 0.16 of the card off the truth) guessing Blue 3. Where the
    completion reads or guesses another card, the tip is "unknown" (so too a reading from its
    slid sides); where it guesses the same card or none, or no completion is found, the
    reading stands."""

    def read(as_is: Reading, completion: Reading | None, slid_reading: Reading | None = None) -> Reading:
        return tip_read(monkeypatch, as_is, completion, slid_reading, along=False)
    unsure = dataclasses.replace(reading("unknown", 0.0), guess="Blue 3")
    assert read(reading("Blue Skip", 0.91), unsure).label == "unknown"
    assert read(reading("Blue Skip", 0.91), reading("Blue 3", 0.6)).label == "unknown"
    assert read(reading("Blue Skip", 0.91), dataclasses.replace(unsure, guess="Blue Skip")).label == "Blue Skip"
    assert read(reading("Blue Skip", 0.91), None).label == "Blue Skip"
    # a completion that guesses no card (a whole card against the frame's edge, its one
    # corner on the border completed far off: the design set's Blue 8) names none
    assert read(reading("Blue 8", 0.98), dataclasses.replace(unsure, guess="unknown")).label == "Blue 8"
    # its slid sides reading the same card as the outline as it is: that holds (the base set's
    # Blue 8, a whole card with one corner on the border, completed 0.4 cards off to Blue 6)
    assert read(reading("Blue 8", 0.92), reading("Blue 6", 0.56), reading("Blue 8", 0.88)).label == "Blue 8"
    # read "unknown" as it is, its slid sides reading another card than the completion
    # guesses (edge draw 177: a Green 8 slid to Green 3 at 0.87, completed guessing Green 8)
    green8 = dataclasses.replace(unsure, guess="Green 8")
    assert read(reading("unknown", 0.0), green8, reading("Green 3", 0.87)).label == "unknown"
    assert read(reading("unknown", 0.0), green8, reading("Green 8", 0.87)).label == "Green 8"
    assert read(reading("unknown", 0.0), None, reading("Green 3", 0.87)).label == "Green 3"


def test_a_tip_read_as_it_is_must_hold_against_its_completions(monkeypatch):
    """A tip read from its outline as it is (or the outlines read when that was unsure) cuts
    across the face: on edge draw 310 a Blue 0 read Blue 8 at 0.996 as it is, its slid sides
    Blue 0 at 0.981 (its corners 0.01 of the card off the truth, as it is 0.23), a Red 4 Red 5
    at 0.992 from a completion of its outline, slid Red 4 at 0.992, a Green 9 Green 3 at 0.875,
    slid Green 9 at 0.862. Where the slid sides read another card at OFF_FRAME_EDGE_BAR, the
    tip is "unknown"; the slid sides reading it, or another card unsure, or not found, the
    reading stands (`_tip_holds`)."""

    def read(as_is: Reading, completion: Reading | None, slid_reading: Reading | None) -> Reading:
        return tip_read(monkeypatch, as_is, completion, slid_reading)
    no_guess = dataclasses.replace(reading("unknown", 0.0), guess="unknown")
    assert read(reading("Blue 8", 0.996), None, reading("Blue 0", 0.981)).label == "unknown"
    assert read(reading("Green 3", 0.875), no_guess, reading("Green 9", 0.862)).label == "unknown"
    assert read(reading("Yellow 8", 0.894), None, None).label == "Yellow 8"
    # the slid sides reading the same card, or another one unsure, or not read at all: it stands
    assert read(reading("Blue 8", 0.92), None, reading("Blue 8", 0.93)).label == "Blue 8"
    assert read(reading("Blue 8", 0.92), None, reading("Blue 0", 0.7)).label == "Blue 8"
    assert read(reading("Blue 8", 0.92), None, dataclasses.replace(no_guess, guess="Blue 0")).label == "Blue 8"
    assert read(reading("Blue 8", 0.92), no_guess, None).label == "Blue 8"
    # read surer as it is than completed, by TURN_LEAD (edge draw 185: a Red 8 read Red 1 at
    # 0.94 as it is, completed Red 8 at 0.825, its slid sides Red 8 at 0.892): so too
    assert read(reading("Red 1", 0.94), reading("Red 8", 0.825), reading("Red 8", 0.892)).label == "unknown"
    assert read(reading("Red 1", 0.94), reading("Red 8", 0.825), reading("Red 1", 0.9)).label == "Red 1"
    assert read(reading("Red 1", 0.94), reading("Red 8", 0.825), None).label == "Red 1"


@pytest.mark.skipif(not photo_patches(), reason="../shared/realphotos (real table photos) is missing")
def test_a_framed_field_running_off_the_frame_with_its_oval_is_outlined():
    """A phone photo (1008 x 756, 15-55 degrees from overhead) of a Red Skip on a real table
    running off the photo across two of its sides, its oval too (`card_at_edge`, seed 120):
    the field is a dented piece, no whole field, and the other maps give no outline of the
    card. With `cut_fields` (on in `READ_FIELD_SETTINGS`), the field's part in view, reaching the
    border at both corners there and framed in white on its three sides in view, is outlined
    to the frame's edge: the part of the card in view (of seeds 0-199 the one outlined so
    only; cards with one corner off are left to the tip paths)."""
    seed = 120
    faces = deck()
    rng = np.random.default_rng(seed)
    face = faces[seed % len(faces)]
    picture, corners = phone_photo(face.image(), photo_texture(seed), SESSIONS[0], rng, (1008, 756), tilt=(15, 55))
    picture, corners = card_at_edge(picture, corners, rng)
    h, w = picture.shape[:2]
    _, seen = cv2.intersectConvexConvex(np.float32(corners), np.float32([[0, 0], [w, 0], [w, h], [0, h]]))

    def best_iou(outlines):
        def iou(q):
            inter, _ = cv2.intersectConvexConvex(np.float32(q), np.float32(seen))
            return inter / (cv2.contourArea(np.float32(q)) + cv2.contourArea(np.float32(seen)) - inter)
        return max((iou(q) for q in outlines), default=0.0)

    assert best_iou(find_outlines(picture, dataclasses.replace(READ_FIELD_SETTINGS, cut_fields=False))) < 0.1
    assert best_iou(find_outlines(picture, READ_FIELD_SETTINGS)) > 0.85


def edge_photo(seed: int) -> np.ndarray:
    """`card_at_edge`'s phone photo of seed `seed` (as the test above draws it)."""
    faces = deck()
    rng = np.random.default_rng(seed)
    picture, corners = phone_photo(faces[seed % len(faces)].image(), photo_texture(seed), SESSIONS[0], rng,
                                   (1008, 756), tilt=(15, 55))
    return card_at_edge(picture, corners, rng)[0]


def test_a_field_running_off_the_frame_is_looked_for_near_one_border_only():
    """`fieldfind._cut_border`: the one border a field's points come within 5 pixels of
    (a corner on the border, within 2, reached by the field within 3); none, or two (cut
    across a corner of the frame), and no cut outline is looked for."""
    size = (320, 240)

    def points(x0, y0, x1, y1):
        return np.int32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]).reshape(-1, 1, 2)
    assert fieldfind._cut_border(points(0, 50, 100, 190), size) == 0
    assert fieldfind._cut_border(points(4, 50, 100, 190), size) == 0
    assert fieldfind._cut_border(points(5, 50, 100, 190), size) is None
    assert fieldfind._cut_border(points(60, 0, 200, 100), size) == 1
    assert fieldfind._cut_border(points(200, 60, 319, 180), size) == 2
    assert fieldfind._cut_border(points(60, 100, 200, 239), size) == 3
    assert fieldfind._cut_border(points(0, 0, 100, 190), size) is None
    assert fieldfind._cut_border(points(0, 50, 319, 190), size) is None


@pytest.mark.skipif(not photo_patches(), reason="../shared/realphotos (real table photos) is missing")
def test_the_cut_field_search_fits_no_second_quad(monkeypatch):
    """Its cost: a field near one border is tried from the quad the caller fitted (`_quad`)
    alone, never from the quad along its hull's sides (`_side_quad`, tried on every dented
    piece near the border it was most of the search's cost, +19.6 % a colour photo's read
    with it, and outlined one card in 570 edge photos, read the same without it):
    `_side_quad` is called as often with the search as without it (the wild's field alone,
    where `_quad` finds none)."""
    from vision.realmaps import stretched, whiteness
    calls = []
    real = fieldfind._side_quad
    monkeypatch.setattr(fieldfind, "_side_quad", lambda *a, **k: calls.append(1) or real(*a, **k))
    for seed in (120, 121, 122):
        picture = cv2.GaussianBlur(cv2.resize(edge_photo(seed), (320, 240), interpolation=cv2.INTER_AREA), (3, 3), 0)
        channels = stretched(picture)
        white = whiteness(picture, channels)
        counts = []
        for cut in (None, []):
            calls.clear()
            fieldfind.framed_fields(channels, white, 400.0, cut=cut)
            counts.append(len(calls))
        assert counts[0] == counts[1]
