"""Whether a card face shows the white frame round its edge that a deck's faces print.

Many decks print their face inside a white frame (the UNO family: a colour field in a
white border; cards on white stock). For such a deck, a face whose outline shows paper
on none of its four sides is no card of the deck: the finder outlined something else
(a printed flyer's coloured panel, a pattern on the table) and the reader, which sees
only the ink inside, may still find a symbol there. One side showing the frame is
enough: a finger, another card or an outline a few pixels off hides or misses the
others.

The band looked at runs from the second pixel in from each side of the face at the
reader's work size (the edge pixel itself mixes with the table) to the seventh, in its
middle two thirds (a rounded corner shows table); across the band its whitest pixel
counts (an outline a few pixels off moves the frame in it), and a side shows paper
when the median along it of the smallest channel relative to the face's paper (the median
colour of its whitest 5 %: white under any light) is at least FRAME_PAPER. Measured on the
simulated phone photos of protocol 2 (`bench/protocols.py`): every one of the 108 cards
read has a side at 0.92 or more; a flyer's yellow panel on a bare table read as a card
showed 0.42 at best.

Under a warm lamp or a dim webcam a glare streak across a glossy card is whiter than its
paper by a third or more, so against the face's whitest part no side shows the frame:
`frame_under_glare` sees the frame whitened towards the streak (the reader then takes only
a sure reading, `vision.classify.GLARE_SURE`).

A deck prints the frame when its taught faces show paper on three sides or four, or the
frame under a glare streak (`prints_white_frame`); teaching measures it (`vision.teach`), and only then does the
learned reader look (`vision.classify.classify_learned`). A face whose colour runs to
its edge (`bleeds_colour`) is a full-bleed printing: teaching looks for such a face as one
(`vision.detect.BLEED_SETTINGS`) where the card it found first shows no frame, and a deck
most of whose taught faces are such (`prints_full_bleed`) is looked for so at play. What does not live here:
finding cards, reading symbols and colour.
"""
from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from vision.colour import median

FRAME_PAPER = 0.8        # a side's band at least this share of the paper's brightness shows it
FRAME_BAND = (1, 7)      # the band: these pixels in from the edge at SIZE (1.5-9 % of the
                         # width; the stand-in deck's frame is 3 pixels wide there, and a
                         # finder's outline on a dim photo lay 2 pixels outside the card)
SIZE = (66, 92)          # the learned reader's work size (`vision.classify.WORK_SIZE`)
PAPER_QUANTILE = 0.95    # the paper: the median colour of the face's whitest 5 % (its
                         # smallest channel highest; a median, as a dim camera's noise lifts a
                         # high quantile of each channel above the white)
FRAMED_FACES = 0.8       # a deck prints the frame when this share of its taught faces ...
TAUGHT_PAPER = 0.9       # ... show paper this bright on three sides at least (a teaching
                         # photo's outline a few pixels off misses one: on protocol 2's phone
                         # photos 73 % show it on all four, 93 % on three)


def frame_sides(face: np.ndarray) -> np.ndarray:
    """How white each side's band of an upright face (BGR uint8) is at SIZE: the median
    of its smallest channel, each channel over the face's paper (its whitest part,
    white under any light's colour) (4 values; 1 is the paper)."""
    return np.array([float(median(band)) for band in _bands(face)], np.float32)


def shows_frame(face: np.ndarray) -> bool:
    """Whether at least one side of the face shows the white frame (the sides looked at
    in turn, up to the first that does)."""
    return any(median(band) >= FRAME_PAPER for band in _bands(face))


GLARE_ROOM = 20.0        # a channel this far under the camera's top says where a whitening goes
GLARE_LEAST = 0.1        # the face's whitest at least this far from a side towards white ...
GLARE_SPREAD = 0.1       # ... by the same share (within this) in each such channel: a streak
GLARE_FLOOR = 0.5        # and the side's largest channel this share of the whitest's at least


def frame_under_glare(face: np.ndarray) -> bool:
    """Whether a face that shows no white frame against its whitest part (`shows_frame`)
    shows one whose paper a glare streak whitened into that whitest part: a side's band
    (its whitest depth, the median along it, BGR) F and the face's whitest 5 % S lie so
    that S = F + (255 - F) s with one s (GLARE_LEAST or more, within GLARE_SPREAD) in
    every channel GLARE_ROOM or more under 255, at least two, and F's largest channel
    GLARE_FLOOR or more of S's (a black field whitened lies on that line too). A streak blends the paper
    towards white (`vision.render.stress.glare_streaks`); under a warm lamp or a dim
    webcam the blend is whiter than the paper by a third or more and every side read
    0.54-0.77 of it, so the card was "no card" (96 of the glare stress's protocol 1: 91
    of them shown so). A coloured field's sides are not on the line from the face's white
    to white (a red or blue field under white light: shares 0.2 apart)."""
    if face.shape[1] != SIZE[0] or face.shape[0] != SIZE[1]:
        face = cv2.resize(face, SIZE, interpolation=cv2.INTER_AREA)
    pixels = face.reshape(-1, 3)
    white = np.minimum(np.minimum(pixels[:, 0], pixels[:, 1]), pixels[:, 2])
    k = int(PAPER_QUANTILE * (len(white) - 1))
    whitest = np.median(pixels[white >= np.partition(white, k)[k]], axis=0).astype(np.float32)
    for side in _side_colours(face.astype(np.float32)):
        room = 255.0 - side
        used = room >= GLARE_ROOM
        if np.count_nonzero(used) < 2:
            continue
        share = (whitest - side)[used] / room[used]
        if float(share.min()) >= GLARE_LEAST and float(share.max() - share.min()) <= GLARE_SPREAD \
                and float(side.max()) >= GLARE_FLOOR * float(whitest.max()):
            return True
    return False


def _side_colours(face: np.ndarray):
    """Each side's band colour (left, right, top, bottom; `_bands`' band, float BGR at
    SIZE): across the band its pixel with the largest smallest channel, the median of
    those along the side's middle two thirds."""
    h, w = face.shape[:2]
    a, b = FRAME_BAND
    rows, cols = slice(h // 6, h - h // 6), slice(w // 6, w - w // 6)
    for band in (face[rows, a:b], face[rows, w - b:w - a]):
        pick = band.min(axis=2).argmax(axis=1)
        yield np.median(band[np.arange(band.shape[0]), pick], axis=0)
    for band in (face[a:b, cols], face[h - b:h - a, cols]):
        pick = band.min(axis=2).argmax(axis=0)
        yield np.median(band[pick, np.arange(band.shape[1])], axis=0)


def prints_white_frame(sides: Sequence[np.ndarray], under_glare: Sequence[bool] = ()) -> bool:
    """Whether a deck prints a white frame, from its taught faces' `frame_sides` and,
    one a face, whether its frame shows under a glare streak (`frame_under_glare`): such
    a face counts as showing the frame. A streak across a teaching photo is whiter than
    the paper, so against it the sides read 0.8-0.9 and the face missed TAUGHT_PAPER. On
    the glare stress's protocol 1 (`bench/protocols.py --stress glare`) 41, 42 and 43 of
    52 taught faces passed (seed 11, seed 12, the session-13 set): the deck framed or not
    by one face, and where not (seed 11) its streaked cards were read with no glare check,
    22 of 162 wrong; protocol 2's phone photos passed 15-21 %, never framed. Counting the
    streaked faces: 0.94-1.0, and protocol 1 at seed 11 53/22/80/7 -> 57/6/92/7 (right /
    wrong / unknown / not found), protocol 2 wrong 14, 11, 10 -> 8, 5, 5. The no-frame and
    thin-frame printings' faces so counted: 0-30 %, their decks still not framed."""
    if not len(sides):
        return False
    framed = [float(np.sort(s)[1]) >= TAUGHT_PAPER or (i < len(under_glare) and bool(under_glare[i]))
              for i, s in enumerate(sides)]
    return float(np.mean(framed)) >= FRAMED_FACES


BLEED_FACES = 0.5        # a deck is a full-bleed printing when this share of its taught faces
                         # bleeds (`prints_full_bleed`): on the stress bench's protocol 2 a
                         # no-frame deck's faces 0.81-1.0, a thin-frame deck's 0.65-0.98, a
                         # framed deck under glare streaks 0.24 (its frame judged not printed),
                         # every other framed deck 0-0.013
BLEED_SIDES = 3          # a full-bleed face: no side's band shows paper, this many show ...
BLEED_SATURATION = 0.35  # ... a colour this saturated (over the paper's colour) ...
BLEED_DARK = 0.35        # ... or a field this dark (a wild's black)
BLEED_HUES = 30.0        # ... its sides' hues this near one another (degrees): one field


def prints_full_bleed(faces: Sequence[np.ndarray]) -> bool:
    """Whether a deck is a full-bleed printing, its colour fields running to the cards'
    edges: at least BLEED_FACES of its taught faces (upright, BGR) `bleeds_colour`. Not
    simply a deck whose frame was not measured (`prints_white_frame` false): glare
    streaks across a framed deck's teaching photos hide its frame too."""
    if not len(faces):
        return False
    return float(np.mean([bleeds_colour(face) for face in faces])) >= BLEED_FACES


def shows_paper(face: np.ndarray) -> bool:
    """Whether a face shows the white frame on three sides at least, as a deck that
    prints it shows it on its taught faces (`prints_white_frame`'s test of one face)."""
    return float(np.sort(frame_sides(face))[1]) >= TAUGHT_PAPER


def bleeds_colour(face: np.ndarray) -> bool:
    """Whether a face's colour field runs to its edge (a full-bleed printing): no side's
    band shows paper (`frame_sides`), and on `BLEED_SIDES` sides it is one saturated colour
    (hues within `BLEED_HUES`) or dark, relative to the face's paper (its whitest part: a
    field's printed white, the oval). A white card's border, a framed face's, or a patch of
    table and clutter (its sides of several colours) is no such face."""
    sides = frame_sides(face)
    if float(sides.max()) >= FRAME_PAPER:
        return False
    relative = _relative(face)
    h, w = relative.shape[:2]
    a, b = FRAME_BAND
    rows, cols = slice(h // 6, h - h // 6), slice(w // 6, w - w // 6)
    hues, dark = [], 0
    for band in (relative[rows, a:b], relative[rows, w - b:w - a], relative[a:b, cols], relative[h - b:h - a, cols]):
        pixels = band.reshape(-1, 3)
        top, low = pixels.max(axis=1), pixels.min(axis=1)
        if float(np.median(top)) <= BLEED_DARK:
            dark += 1
        elif float(np.median((top - low) / np.maximum(top, 1e-3))) >= BLEED_SATURATION:
            colour = np.median(pixels, axis=0).astype(np.float32).reshape(1, 1, 3)
            hues.append(float(cv2.cvtColor(colour / max(float(colour.max()), 1e-3), cv2.COLOR_BGR2HSV)[0, 0, 0]))
    if dark >= BLEED_SIDES:
        return True
    return any(sum(min(abs(x - y), 360 - abs(x - y)) <= BLEED_HUES for y in hues) >= BLEED_SIDES for x in hues)


def _relative(face: np.ndarray) -> np.ndarray:
    """The face at SIZE, each channel over the face's paper (float32, h x w x 3)."""
    face = _at_size(face)
    return face.astype(np.float32) / _paper(face)


def _at_size(face: np.ndarray) -> np.ndarray:
    if face.shape[1] != SIZE[0] or face.shape[0] != SIZE[1]:
        face = cv2.resize(face, SIZE, interpolation=cv2.INTER_AREA)
    return face


def _paper(face: np.ndarray) -> np.ndarray:
    """The face's paper (BGR float32, 8 at least): the median colour of its whitest 5 %
    (its smallest channel highest)."""
    pixels = face.reshape(-1, 3)
    white = np.minimum(np.minimum(pixels[:, 0], pixels[:, 1]), pixels[:, 2])
    k = int(PAPER_QUANTILE * (len(white) - 1))
    return np.maximum(np.median(pixels[white >= np.partition(white, k)[k]], axis=0), 8.0).astype(np.float32)


def _bands(face: np.ndarray):
    """Each side's band (left, right, top, bottom): across it the whitest of its depths
    of the smallest channel over the paper (an outline a few pixels off puts the frame
    deeper or shallower), along its middle two thirds. Each band is made when asked
    (`shows_frame` stops at the first side showing paper): the same numbers as the
    whole face over its paper (`_relative`) cut there."""
    face = _at_size(face)
    paper = _paper(face)
    h, w = face.shape[:2]
    a, b = FRAME_BAND
    rows, cols = slice(h // 6, h - h // 6), slice(w // 6, w - w // 6)
    for band, across in ((face[rows, a:b], 1), (face[rows, w - b:w - a], 1),
                         (face[a:b, cols], 0), (face[h - b:h - a, cols], 0)):
        scaled = band.astype(np.float32) / paper
        yield np.minimum(np.minimum(scaled[..., 0], scaled[..., 1]), scaled[..., 2]).max(axis=across)
