"""Colour that survives the light: a card's ink judged after white balance from its own
paper, by hue angle and lightness against fixed ink prototypes, under strong warm and
cool casts and different exposures (green never read as yellow under a warm lamp); a
deck taught in one photo session read in others, full-bleed faces included (white
print, and no white at all: judged by the light of every card in view)."""
import dataclasses

import cv2
import numpy as np
import pytest

from vision.classify import WORK_SIZE, classify_learned, face_features, warp_card_averaged
from vision.colour import (INKS, InkColour, canonical, deck_inks, field_deck, ink_examples, ink_lights, likelihoods,
                           measure_inks, printed_without_white, scene_gain)
from vision.pipeline import Recognizer
from vision.profile import builtin_profile, load_profile_file, save_profile
from vision.reader import LinearReader, hog_pair
from vision.render.sessions import OFFBEAT_INKS, SESSIONS, TABLES, UNO_INKS, faces_of, table_shot, uno_face
from vision.render.uno_deck import deck as uno_deck, phone_photo

# Ink colours of a commercial deck of the UNO family, in RGB, and a deck that prints them.
INK_RGB = {"red": (215, 35, 45), "green": (40, 155, 70), "blue": (25, 90, 185), "yellow": (245, 205, 20)}
DECK = list(INK_RGB)


def card(ink_rgb, symbol: str = "7") -> np.ndarray:
    """A white card with a big symbol and a frame in the ink (BGR)."""
    face = np.full((280, 200, 3), 245, np.uint8)
    bgr = tuple(int(c) for c in ink_rgb[::-1])
    cv2.rectangle(face, (14, 14), (186, 266), bgr, 10)
    cv2.putText(face, symbol, (45, 200), cv2.FONT_HERSHEY_SIMPLEX, 5.5, bgr, 22)
    return face


def lit(face: np.ndarray, gains_bgr, exposure: float, gamma: float = 1.0) -> np.ndarray:
    """The card under a coloured light: per-channel gains, exposure and a tone curve."""
    f = face.astype(np.float32) / 255 * np.float32(gains_bgr) * exposure
    return np.clip(255 * np.clip(f, 0, 1) ** gamma, 0, 255).astype(np.uint8)


LIGHTS = {
    "daylight": ((1.0, 1.0, 1.0), 1.0, 1.0),
    "warm lamp": ((0.55, 0.85, 1.15), 0.9, 1.0),       # B, G, R: a tungsten cast
    "very warm, dim": ((0.45, 0.8, 1.2), 0.55, 1.2),
    "cool shade": ((1.25, 1.0, 0.7), 0.8, 0.9),
    "overexposed": ((1.0, 1.0, 1.0), 1.35, 0.8),
    "underexposed": ((0.9, 1.0, 1.05), 0.45, 1.1),
}


@pytest.mark.parametrize("light", LIGHTS)
@pytest.mark.parametrize("colour", DECK)
def test_each_ink_reads_as_its_colour_under_every_light(colour, light):
    gains, exposure, gamma = LIGHTS[light]
    face = cv2.resize(lit(card(INK_RGB[colour]), gains, exposure, gamma), (66, 92), interpolation=cv2.INTER_AREA)
    seen = face_features(face).ink_colour
    fit = likelihoods(seen, deck_inks(DECK), DECK)
    assert DECK[int(fit.argmax())] == colour, (seen, dict(zip(DECK, fit.round(3))))
    assert fit.max() > 3 * np.sort(fit)[-2], "the colour must win clearly"


def test_green_under_a_warm_lamp_is_not_yellow():
    gains, exposure, gamma = LIGHTS["very warm, dim"]
    face = cv2.resize(lit(card(INK_RGB["green"]), gains, exposure, gamma), (66, 92), interpolation=cv2.INTER_AREA)
    fit = likelihoods(face_features(face).ink_colour, INKS, ["green", "yellow"])
    assert fit[0] > 10 * fit[1]


def test_black_ink_is_black_and_unnamed_colours_fit_anything():
    face = cv2.resize(lit(card((25, 25, 30)), *LIGHTS["warm lamp"]), (66, 92), interpolation=cv2.INTER_AREA)
    seen = face_features(face).ink_colour
    fit = likelihoods(seen, INKS, ["black", "red", "", "sparkly"])
    assert fit.argmax() == 0 and fit[1] < 0.05
    assert fit[2] == fit[3] == 1.0     # no colour given, or one no prototype knows: no say
    assert canonical(" Green ") == "green" and canonical("G") == "green"


# --- across photo sessions (vision.render.sessions), full-bleed faces included --------

READ_SESSIONS = [1, 3, 4, 6]   # warm lamp phone, cool shade, fluorescent office, dark window


def session_photos(inks: dict, printing: str, session: int, seed: int, per_picture: int = 4,
                   symbols=("7", "2")) -> list[tuple[str, InkColour, int]]:
    """(colour, InkColour, picture) of each face of the deck, photographed in a session
    `per_picture` cards a picture on a random table."""
    rng = np.random.default_rng(seed)
    cards = [(name, s) for name in inks for s in symbols]
    out = []
    for start in range(0, len(cards), per_picture):
        group = cards[start:start + per_picture]
        table = list(TABLES.values())[int(rng.integers(len(TABLES)))]
        shot, corners = table_shot([uno_face(inks[n], s, printing) for n, s in group], table,
                                   SESSIONS[session], rng)
        out += [(n, face_features(f).ink_colour, start) for (n, _), f in zip(group, faces_of(shot, corners, rng))]
    return out


def colours_read(taught, read) -> list[tuple[str, str]]:
    """(true, read) colour of every face read, the deck taught from `taught`."""
    names = sorted({n for n, *_ in taught})
    inks = deck_inks(names, measure_inks([(n, seen) for n, seen, _ in taught]))
    light = {p: scene_gain([s for _, s, q in read if q == p], inks) for p in {p for *_, p in read}} \
        if field_deck(inks) else {}
    return [(n, names[int(likelihoods(seen, inks, names, light.get(p)).argmax())]) for n, seen, p in read]


@pytest.mark.parametrize("printing", ["paper", "oval", "white_print"])
def test_taught_in_one_session_read_in_others_including_full_bleed_white_print(printing):
    taught = session_photos(UNO_INKS, printing, 0, seed=1)
    assert not printed_without_white([(n, s) for n, s, _ in taught])
    for session in READ_SESSIONS:
        pairs = colours_read(taught, session_photos(UNO_INKS, printing, session, seed=10 + session))
        assert all(a == b for a, b in pairs), (SESSIONS[session].name, [p for p in pairs if p[0] != p[1]])


def test_a_deck_whose_yellow_prints_orange_is_read_by_its_own_inks_half_way():
    """The fixed prototypes alone read the offbeat deck's orange-ish yellow as red under
    the warm lamp; moved half way to the taught inks they do not."""
    taught = session_photos(OFFBEAT_INKS, "paper", 0, seed=1)
    read = session_photos(OFFBEAT_INKS, "paper", 1, seed=11)
    names = sorted(OFFBEAT_INKS)
    measured = measure_inks([(n, s) for n, s, _ in taught])
    for pull, right in ((0.0, False), (0.5, True)):
        inks = deck_inks(names, measured, pull=pull)
        said = [names[int(likelihoods(s, inks, names).argmax())] for _, s, _ in read]
        assert (said == [n for n, *_ in read]) is right, (pull, said)


def test_a_deck_printed_with_no_white_is_told_at_teaching_and_read_by_the_light_of_the_scene():
    taught = session_photos(UNO_INKS, "no_white", 0, seed=1)
    assert printed_without_white([(n, s) for n, s, _ in taught])
    inks = deck_inks(sorted(UNO_INKS), measure_inks([(n, s) for n, s, _ in taught]))
    assert field_deck(inks) and all(light is None for _, light in inks.values())
    # each face white-balanced by its own field (before) read 0-25 % of them right
    right = 0
    for session in READ_SESSIONS:
        pairs = colours_read(taught, session_photos(UNO_INKS, "no_white", session, seed=10 + session))
        assert sum(a == b for a, b in pairs) >= 6, (SESSIONS[session].name, pairs)
        right += sum(a == b for a, b in pairs)
    assert right >= 29     # measured 30 of 32: a yellow field under cool shade reads green


def test_several_cards_in_view_pin_the_light_of_a_no_white_deck():
    """Four full-bleed cards of four colours under a strong warm cast: the light that
    explains all four is found, and each reads as its colour."""
    inks = {name: (INKS[name][0], None) for name in DECK}
    rng = np.random.default_rng(5)
    warm = dataclasses.replace(SESSIONS[0], kelvin=2600, awb=0.0)
    shot, corners = table_shot([uno_face(UNO_INKS[n], "5", "no_white") for n in DECK], TABLES["grey cloth"], warm, rng)
    seen = [face_features(f).ink_colour for f in faces_of(shot, corners, rng)]
    light = scene_gain(seen, inks)
    assert light[2] > 1.5 * light[0], "the light is warm: blue is turned up against red"
    assert [DECK[int(likelihoods(s, inks, DECK, light).argmax())] for s in seen] == DECK


def test_field_inks_survive_saving_the_profile(tmp_path):
    inks = {"red": (36.0, None), "green": (147.5, None), "black": (None, None)}
    path = save_profile(dataclasses.replace(builtin_profile("flip7"), inks=inks), tmp_path / "deck")
    assert load_profile_file(path).inks == inks


def test_the_recognizer_reads_a_no_white_deck_by_the_light_of_every_card_in_view():
    """Through `Recognizer.read` (finding against the empty table, as at the appliance):
    four full-bleed cards under a warm lamp the camera did not correct. Each alone reads
    yellow as red and blue as green at this light (measured); judged together, each is
    its colour. The symbol reader is a stand-in that cannot tell the cards apart, so the
    colour alone decides."""
    row = ["red", "yellow", "green", "blue"]
    warm = dataclasses.replace(SESSIONS[0], kelvin=2600, awb=0.0, falloff=0.0, noise=0.0)
    shot, corners = table_shot([uno_face(UNO_INKS[n], "5", "no_white") for n in row], TABLES["grey cloth"], warm,
                               np.random.default_rng(5))
    empty, _ = table_shot([], TABLES["grey cloth"], warm, np.random.default_rng(5))
    alone = [likelihoods(face_features(f).ink_colour, {n: (INKS[n][0], None) for n in row}, row)
             for f in faces_of(shot, corners, np.random.default_rng(0))]
    assert [row[int(fit.argmax())] for fit in alone] == ["red", "red", "green", "green"]
    width = hog_pair(np.zeros((86, 60), np.float32)).shape[-1]
    blind = LinearReader(np.array([0, 1, 2, 3, -1]), np.zeros(width, np.float32), np.zeros((width, 5), np.float32),
                         np.array([1, 1, 1, 1, -5], np.float32), 10.0)
    deck = dataclasses.replace(builtin_profile("flip7"), name="fields", labels=tuple(f"{n} 5" for n in row),
                               colours=tuple(row), reader=blind, frame_insets=(), min_confidence=0.5,
                               inks={name: (INKS[name][0], None) for name in row})
    cards = Recognizer.create(deck, empty).read(shot).cards
    assert sorted(c.colour for c in cards) == sorted(row)
    for card in cards:
        assert card.colour == row[int(card.centre[0] / (shot.shape[1] / 4))], card


# --- a deck taught under several lights: its inks as the taught photos show them -----

@pytest.mark.parametrize("printing", ["paper", "oval"])
def test_blue_under_a_cheap_warm_webcam_reads_blue_when_the_deck_was_taught_under_it_too(printing):
    """A cheap webcam under a warm lamp (overlapping colour filters, its colour rendering
    turned) shows blue ink nearly cyan after white balance: hue ~175-195, nearer the
    green prototype than the blue one. Taught from photos in daylight and under that
    webcam, the taught blues there are examples of blue (`ink_examples`) and the blue
    cards read blue; the prototypes alone read them green (measured)."""
    taught = session_photos(UNO_INKS, printing, 0, seed=1) + session_photos(UNO_INKS, printing, 7, seed=2)
    samples = [(n, s) for n, s, _ in taught]
    names = sorted(UNO_INKS)
    inks, examples = deck_inks(names, measure_inks(samples)), ink_examples(samples)
    read = session_photos(UNO_INKS, printing, 7, seed=17)
    with_examples = [names[int(likelihoods(s, inks, names, None, examples).argmax())] for _, s, _ in read]
    alone = [names[int(likelihoods(s, inks, names).argmax())] for _, s, _ in read]
    truth = [n for n, *_ in read]
    blue = [i for i, n in enumerate(truth) if n == "blue"]
    assert [alone[i] for i in blue] == ["green"] * len(blue)
    assert [with_examples[i] for i in blue] == ["blue"] * len(blue)
    # no other card read worse (the yellow field there is nearly the paper: no colour either way)
    assert all(w == t for w, a, t in zip(with_examples, alone, truth) if a == t)


def test_a_lone_odd_photo_is_no_ink_example_and_examples_survive_saving(tmp_path):
    def ink(hue, light):
        return InkColour(hue, light, 0.9, 0.5)
    samples = [("Blue", ink(280, 42)), ("blue", ink(282, 41)), ("blue", ink(150, 55)),   # the last: odd
               ("green", ink(148, 55)), ("green", ink(153, 51)), ("green", ink(185, 46)), ("green", ink(185.1, 46)),
               ("black", InkColour(float("nan"), float("nan"), 0.0, 0.4)), ("black", InkColour(10, 20, 0.05, 0.4))]
    examples = ink_examples(samples)
    assert sorted(examples) == ["blue", "green"]
    assert examples["blue"][:, 0].min() > 270, "the lone green-looking photo of a blue card is not blue's ink"
    assert len(examples["green"]) == 3, "two lights' photos kept, two nearly equal ones merged"
    path = save_profile(dataclasses.replace(builtin_profile("flip7"), ink_examples=examples), tmp_path / "deck")
    loaded = load_profile_file(path).ink_examples
    assert sorted(loaded) == sorted(examples)
    assert all(np.allclose(loaded[k], examples[k]) for k in examples)


def test_a_colourless_label_does_not_make_a_card_of_a_named_colour_less_sure():
    """A wild (no colour name: it fits any ink at 1) in a deck of named colours: a green
    card under the very warm dim webcam (its ink hue ~185, fitting green's prototype at
    about 0.3) is as sure as in a deck whose wild is named black. The colour picks among
    a symbol's colours; how well the light lets the ink fit a prototype at all does not
    count against the card (before: 0.36 against 0.55 with the same symbol reading, and
    the card read unknown)."""
    rng = np.random.default_rng(3)
    shot, corners = table_shot([uno_face(UNO_INKS["green"], "8", "oval")], TABLES["grey cloth"], SESSIONS[2], rng)
    features = face_features(faces_of(shot, corners, rng)[0], two_levels=True)
    labels = ("Green 8", "Blue 8", "Green 3", "Blue 3", "Wild")
    width = features.learned(False).shape[-1]
    # a stand-in reader, sure of nothing but its odds: the 8 0.55, the 3 0.15, the wild
    # 0.01, no card 0.05, the doubt the rest
    bias = np.log(np.float32([0.55, 0.15, 0.01, 0.05, 0.24]))
    reader = LinearReader(np.array([0, 2, 4, -1]), np.zeros(width, np.float32), np.zeros((width, 4), np.float32),
                          bias[:4] - bias[4], 1.0, 0.0)
    sure = {}
    for wild in ("", "black"):
        colours = ("green", "blue", "green", "blue", wild)
        deck = dataclasses.replace(builtin_profile("flip7"), name="uno", labels=labels, colours=colours,
                                   reader=reader, frame_insets=(), min_confidence=0.5,
                                   inks=deck_inks(sorted({c for c in colours if c})))
        fit = likelihoods(features.ink_colour, deck.inks, ["green", "blue"])
        assert 0.1 < fit[0] < 0.6 and fit[1] < 0.05, fit
        sure[wild] = classify_learned(features, deck)
    assert sure[""].label == sure["black"].label == "Green 8"
    assert abs(sure[""].confidence - sure["black"].confidence) < 0.02, sure


# --- a colour name's taught inks under the card's own light (`ink_lights`) -----------

def phone_shots(colour: str, session: int, count: int, seed: int) -> list[tuple[str, InkColour]]:
    """`count` phone photos (protocol 2's, `vision.render.uno_deck.phone_photo`: tilted,
    on a grey table) of the stand-in deck's 7 in `colour` in a session, each face cut by
    its true corners and measured as teaching and reading measure it."""
    face = next(f for f in uno_deck() if f.colour == colour and f.symbol == "7")
    rng = np.random.default_rng(seed)
    out = []
    for i in range(count):
        noise = np.random.default_rng(seed * 10 + i).normal(0, 12, (60, 80, 3))
        table = cv2.resize(np.clip(np.float32([110, 118, 126]) + noise, 0, 255).astype(np.uint8), (400, 300))
        picture, corners = phone_photo(face.image(), table, SESSIONS[session], rng, (640, 480), tilt=(15, 40))
        warped = warp_card_averaged(picture, corners, WORK_SIZE)
        out.append((colour, face_features(warped, two_levels=True).ink_colour))
    return out


def test_blue_under_a_cheap_warm_webcam_reads_blue_where_only_other_colours_were_taught_under_it():
    """Protocol 2 at seed 11 read Blue 4, 5, 6 and Reverse as green (issue 12): all four in
    the warm lamp cheap webcam session, where blue ink shows nearly cyan after white
    balance (hue ~196, lightness ~35) and no blue card had been taught; green ink there
    lies where green's prototype is (~149, 52), and under the very warm dim webcam, where
    green was taught, green shows at ~186, 46: by the prototypes and the taught inks
    the cyan ink was green. Each name's taught inks with the light of each photo
    (`ink_lights`: the paper's colour as the camera saw it) say that green under this very
    light looks otherwise: the ink is blue. The other colours under that light read as
    before (measured: old green, green, green; now blue, blue, blue)."""
    taught = [s for c in ("red", "yellow", "green", "blue") for s in phone_shots(c, 0, 2, 1)]   # daylight phone
    taught += [s for c in ("green", "blue") for s in phone_shots(c, 2, 2, 2)]                   # very warm dim webcam
    taught += [s for c in ("red", "yellow", "green") for s in phone_shots(c, 7, 2, 3)]          # cheap webcam, no blue
    names = sorted({n for n, _ in taught})
    inks, examples, lights = deck_inks(names, measure_inks(taught)), ink_examples(taught), ink_lights(taught)
    read = phone_shots("blue", 7, 2, 4) + [s for c in ("red", "yellow", "green") for s in phone_shots(c, 7, 1, 5)]
    before = [names[int(likelihoods(s, inks, names, None, examples).argmax())] for _, s in read]
    after = [likelihoods(s, inks, names, None, examples, lights) for _, s in read]
    assert before[:2] == ["green", "green"], before
    assert [names[int(f.argmax())] for f in after] == [n for n, _ in read], after
    for fit in after[:2]:   # clearly: the other names fit at most a fifth as well (measured: a seventh)
        assert np.sort(fit)[-2] < 0.2 * fit.max(), fit


def test_a_name_seen_under_another_light_or_only_once_keeps_its_prototype(tmp_path):
    def ink(hue, light, paper):
        return InkColour(hue, light, 0.9, 0.5, paper)
    warm, cheap = (0.30, 0.14, 0.06), (0.90, 0.33, 0.20)
    samples = [("green", ink(186, 46, warm)), ("green", ink(187, 45, warm)),
               ("blue", ink(282, 42, (0.5, 0.5, 0.5))), ("blue", ink(196, 35, cheap))]   # blue: one photo a light
    lights = ink_lights(samples)
    assert sorted(lights) == ["green"] and len(lights["green"]) == 1, "two nearly equal photos merged"
    inks = deck_inks(["blue", "green"])
    seen = ink(150, 52, cheap)   # green ink where its prototype lies, under a light green was not taught in
    assert np.allclose(likelihoods(seen, inks, ["blue", "green"], None, {}, lights),
                       likelihoods(seen, inks, ["blue", "green"]))
    path = save_profile(dataclasses.replace(builtin_profile("flip7"), ink_lights=lights), tmp_path / "deck")
    loaded = load_profile_file(path).ink_lights
    assert sorted(loaded) == ["green"] and np.allclose(loaded["green"], lights["green"])


def test_blue_under_a_cheap_warm_webcam_where_neither_blue_nor_green_was_taught_is_no_green():
    """A protocol-2 draw read six blue cards green, all under the warm lamp cheap webcam (blue
    ink nearly cyan there, ~197/35), where red and yellow had been taught but no green and
    no blue (or one photo each: one photo is no ink under a light). Nothing taught tells
    where that light puts blue or green; by the prototypes and the very warm dim webcam's
    green (~187/46) the cyan ink was green, surely (measured: green fits 0.1-0.7, blue
    0.01-0.03). Under a light the deck was taught in, a best name never taught there that
    fits poorly is a guess: blue, never taught there either and as dark, fits as well, so
    the card is unknown, never green. Green there (at its prototype) still reads green
    clearly, and the names taught there read as before."""
    taught = [s for c in ("red", "yellow", "green", "blue") for s in phone_shots(c, 0, 2, 1)]   # daylight phone
    taught += [s for c in ("green", "blue") for s in phone_shots(c, 2, 2, 2)]                   # very warm dim webcam
    taught += [s for c in ("red", "yellow") for s in phone_shots(c, 7, 2, 3)]                   # cheap webcam
    names = sorted({n for n, _ in taught})
    inks, examples, lights = deck_inks(names, measure_inks(taught)), ink_examples(taught), ink_lights(taught)
    assert sorted(lights) == names
    blues = phone_shots("blue", 7, 3, 4)
    for _, seen in blues:
        before = likelihoods(seen, inks, names, None, examples)
        fit = likelihoods(seen, inks, names, None, examples, lights)
        assert names[int(before.argmax())] == "green" and before.max() > 4 * before[names.index("blue")], before
        blue, green = fit[names.index("blue")], fit[names.index("green")]
        assert blue >= green and fit.max() == blue, fit   # as much blue as green: never green
    for colour in ("green", "red", "yellow"):
        for _, seen in phone_shots(colour, 7, 2, 5):
            fit = likelihoods(seen, inks, names, None, examples, lights)
            assert names[int(fit.argmax())] == colour and np.sort(fit)[-2] < 0.5 * fit.max(), (colour, fit)


def test_two_colours_of_a_sure_symbol_fitting_alike_are_no_answer():
    """Two colours of one symbol that fit the ink alike (`likelihoods` makes them so under a
    light neither was taught in) leave the card unknown however sure the symbol: half of
    a symbol read at 0.9995 is 0.49975, rounded 0.5, and passed the bar of 0.5 as the first
    of the two labels (measured: "Green 8" at 0.5 before)."""
    rng = np.random.default_rng(3)
    shot, corners = table_shot([uno_face(UNO_INKS["blue"], "8", "oval")], TABLES["grey cloth"], SESSIONS[0], rng)
    features = face_features(faces_of(shot, corners, rng)[0], two_levels=True)
    labels, colours = ("Green 8", "Blue 8", "Green 3", "Blue 3", "Wild"), ("green", "blue", "green", "blue", "")
    width = features.learned(False).shape[-1]
    odds = np.float32([0.9995, 0.0001, 0.0001, 0.0001, 0.0002])   # the 8, the 3, the wild, no card; the doubt
    bias = np.log(odds)
    reader = LinearReader(np.array([0, 2, 4, -1]), np.zeros(width, np.float32), np.zeros((width, 4), np.float32),
                          bias[:4] - bias[4], 1.0, 0.0)
    alike = {"green": INKS["blue"], "blue": INKS["blue"]}
    deck = dataclasses.replace(builtin_profile("flip7"), name="uno", labels=labels, colours=colours,
                               reader=reader, frame_insets=(), min_confidence=0.5, inks=alike)
    fit = likelihoods(features.ink_colour, alike, ["green", "blue"])
    assert fit[0] == fit[1] > 0.5, fit
    reading = classify_learned(features, deck)
    assert reading.label == "unknown" and reading.guess in ("Green 8", "Blue 8"), reading
    # a colour that tells them apart reads the card
    told = dataclasses.replace(deck, inks={"green": INKS["green"], "blue": INKS["blue"]})
    assert classify_learned(features, told).label == "Blue 8"


def test_only_colours_never_taught_under_the_light_and_near_in_hue_are_as_likely():
    """The rule's bounds (`_unseen_alike`): a cyan ink under a light where only yellow was
    taught makes blue as likely as green (both never taught there, blue as dark as the ink),
    not red (its prototype about 160 degrees of hue away) nor yellow (taught there: the ink
    is unlike it); under a light no colour was taught in, the prototypes decide as before."""
    def ink(hue, light, paper):
        return InkColour(hue, light, 0.9, 0.5, paper)
    day, cheap, unseen = (0.5, 0.5, 0.5), (0.90, 0.33, 0.20), (0.2, 0.5, 0.9)
    samples = [("yellow", ink(59, 89, cheap)), ("yellow", ink(60, 89, cheap)),
               ("green", ink(148, 55, day)), ("green", ink(149, 55, day)), ("blue", ink(282, 42, day)),
               ("blue", ink(281, 42, day)), ("red", ink(36, 49, day)), ("red", ink(37, 49, day))]
    names = ["blue", "green", "red", "yellow"]
    inks, lights = deck_inks(names), ink_lights(samples)
    assert sorted(lights) == names
    plain = likelihoods(ink(197, 35, cheap), inks, names)
    fit = likelihoods(ink(197, 35, cheap), inks, names, None, {}, lights)
    assert plain.argmax() == 1 and plain[1] > 4 * plain[0], plain   # by the prototypes: green
    assert fit[0] == fit[1] == fit.max() and fit[2] < 0.01 * fit[1] and fit[3] < 0.01 * fit[1], fit
    assert np.allclose(likelihoods(ink(197, 35, unseen), inks, names, None, {}, lights), plain)
