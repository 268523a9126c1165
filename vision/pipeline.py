"""Frame in, cards out: detection, warp and classification put together.

`Recognizer` is what the appliance and `deckhand recognize` hold: a deck profile, the
picture of the empty table (if known) and the settings. `Recognizer.read(frame)` returns
a `FrameReading`: every card face found, each with its label (or "unknown"), colour,
confidence and corners, plus what the tracker needs to tell an empty zone from a covered
one. Time and zones are the tracker's business (`vision.track`), not this module's.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Sequence

import cv2
import numpy as np

from vision.classify import UNKNOWN, Reading, Thresholds, card_features, classify, template_match
from vision.colour import field_deck, scene_gain, symbol_groups
from vision.complete import completions, seen_corner
from vision.framescale import grown_by_frame
from vision import refind, regions
from vision.detect import (READ_FIELD_SETTINGS, READ_BLEED_SETTINGS, LEARNED_SETTINGS, PLAIN_SETTINGS, DetectSettings, Detection,
                          EmptyTable)
from vision.offframe import (BORDER as OFF_BORDER, border_side, grown_in_plane, grown_past, on_border, runs_on,
                             tip_completed, tip_corner)
from vision.profile import DeckProfile
from vision.reader import (GLYPH_LEVELS, INDEX_WIDE, WIDE_GLYPH_ASPECT, glyph_height_share, index_block,
                           index_regions, region_rows)
from vision.regions import LastFind
from vision.reuse import KeptReading, keep, kept_reading
from vision.steady import STEADY_SURE, holds, said
from vision.warp import may_lie_turned

# A built-in deck's card read "unknown" whose symbol still looks like a card's (a card
# back scores below REFINE_FROM) is read again from outlines scaled by these factors
# (across, along); one scoring REFINE_GAIN better is taken. Only an unknown card: one
# read at all, however doubtfully, kept its label in every bench scene (18 of 18), and
# the eight readings would only delay its play (the tracker can count it at once).
REFINE_FROM = 0.55
REFINE_GAIN = 0.02
REFINE_SCALES = ((1.03, 1.03), (0.97, 0.97), (1.05, 1.05), (0.95, 0.95),
                 (1.04, 1.0), (0.96, 1.0), (1.0, 1.04), (1.0, 0.96))
# A taught deck's card read "unknown" is read again from whole-card outlines its outline
# may be part of (`vision.complete`); one read at least this sure is taken (the surest).
# Measured on the real photos (bench/realphotos_read.py, teaching 2 photos a rank, 3
# draws, isolated train_ cards through the finder; right / wrong / unknown): none
# 90.1 / 1.5 / 8.4 %; bar 0.7: 93.9 / 2.1 / 4.0; 0.8: 93.9 / 1.9 / 4.2; 0.9: 93.8 / 1.7 / 4.4.
COMPLETE_BAR = 0.9
COMPLETE_SURE = 0.95   # a reading this sure ends the search (the outlines left are not read)
# A whole-card outline whose corner glyph the reader's index block alone scores below this
# (`LinearReader.index_score`) is not read: the glyph is like no taught card's index, and
# such a reading was never the one taken but cost as much as the card's first read.
# Measured on compare_readings' fixed inputs (the finder's outlines of the real photos
# under the three teaching draws; 467 outlines first read "unknown"): completions read 717
# -> 572; isolated train_ cards 58 right / 4 wrong / 9 unknown and test_ 16 / 0 / 0 both
# ways, overlapped train_ 87 / 12 / 14 -> 88 / 10 / 15, test_ 14 / 4 / 6 both ways. Chosen
# on train_ (0.15: 2 isolated train_ cards right -> unknown); test_ was seen unchanged at
# every bar up to 0.15.
COMPLETE_GLYPH = 0.12
# A whole-card outline neither of whose corner regions shows a glyph is judged by the
# wider regions reading searches then (`vision.reader.INDEX_WIDE`, glyphs as narrow as a
# letter): an outline cut at the card's side or off the photo's edge is completed to a
# card whose index lies a little off the corner region (train_ photos, 2 photos a rank,
# 3 draws, isolated cards through the finder: 5 more read right of 936, none read wrong).
# A completion is read only when its taller corner glyph is at least COMPLETE_HEIGHT of
# the taught glyphs' height (`DeckProfile.glyph_height`): an outline holding two cards
# that overlap is completed to a card half as large again as the deck's, whose glyph (one
# of the two cards') is then too small for it. Measured (the same draws, train_ cards found,
# right / wrong / unknown): none isolated 925 / 6 / 5, overlapped 346 / 13 / 16; 0.55:
# 925 / 5 / 6, 343 / 8 / 24; 0.58: 925 / 5 / 6, 344 / 5 / 26; 0.65: 925 / 5 / 6, 340 / 5 / 30.
# The taught glyphs of the real photos' deck are 0.11 of the card's height (25 of the
# region's 45 pixels; 0.077-0.116 on 98 % of the isolated cards read): 0.58 keeps a glyph of
# 15 pixels and drops one of 14 (0.6 would sit on the 15 pixels' edge).
COMPLETE_HEIGHT = 0.58
# A taught card still "unknown" after its completions is read once more from its outline
# grown by this factor about its centre (an outline found a little inside the card's edge
# cuts its corner index and shifts its picture); taken when read at COMPLETE_BAR. Measured
# (train_ photos, 2 photos a rank, 3 draws, cards found, right / wrong / unknown): none
# isolated 925 / 5 / 6, overlapped 344 / 5 / 26; 1.1: 926 / 5 / 5, 344 / 5 / 26; 1.03, 0.95
# or 0.9 alone changed no train_ reading.
# Not a taught colour deck's card whose first reading was "unknown" because two cards tie in
# the reader's own scores (`Reading.doubted`, `vision.classify._doubtful`): an outline of the
# whole card read so is no outline cut inside it, and grown onto the table it read the tie's
# other side surely (protocol 2's oblique set, a Red 5 outlined at IoU 0.97 with the truth,
# doubted between Red 4 and Red 5, grown: Red 4 at 0.98). On the sets of `vision.steady` (9
# right answers from the grown outline, none after such a tie) nothing else changed.
GROWN_OUTLINE = 1.1
# The wider regions of a whole-card outline are searched for a glyph at these shares of
# a region's strongest ink (`vision.reader.GLYPH_LEVELS`, then one higher): a card half
# under a book, its outline completed from the part that shows, has its index beside the
# card's edge, and the table just past that edge (dark wood) joins the glyph at every
# lower level through the shade along the edge. Measured (bench/realphotos_read.py
# --shots 2 --seeds 3, the finder's outlines fixed; train_ cards found, right / wrong /
# unknown): none isolated 938 / 5 / 12, every card 1,286 / 10 / 40; 0.6: 941 / 5 / 9,
# 1,289 / 9 / 38 (train_IMG_2518's king of hearts read K in the 3 draws; an overlapped jack
# read Q now unknown); 0.6 then 0.8 the same; 0.6 in the corner regions too: 940 / 6 / 9,
# 1,285 / 10 / 41; 0.6 for every card read (the first read too): 939 / 7 / 9 and 2 more
# wrong on test_.
COMPLETE_LEVELS = GLYPH_LEVELS + (0.6,)
# A taught card whose outline runs along the frame's border, shorter there than a card
# (`vision.offframe`), is read from the whole card it may be part of, grown past the
# border to the deck's shape and to these common card shapes (long / short: a poker card
# 1.40, bridge and UNO-family cards 1.55-1.56, up to 1.65), and taken when one reading is
# at least OFF_FRAME_BAR and no other reads another card that surely; else "unknown".
# Measured on bench/protocols.py --stress edge (the 202 cards of both protocols whose
# outline runs along the border; right / wrong / unknown): the part in view read as it is
# 43 / 24 / 135 (33 / 10 / 159 at 0.85); grown to the deck's 1.40 alone, bar 0.8: 92 / 7 /
# 103; to 1.555 alone 172 / 3 / 27; to the six shapes, bar 0.8: 184 / 4 / 14, and unknown
# when two disagree at 0.8: 177 / 2 / 23 (at 0.6: 165 / 2 / 35). Only for a taught deck
# whose cards have colours (`Recognizer.turns`, the UNO family): for the real photos'
# playing cards (no colours taught) it lost 3 of 1,236 isolated cards read right (a train_
# ace read "unknown" in each draw; bench/realphotos_read.py --shots 2 --seeds 3) and
# gained none.
# When no shape grown flat reads a card at OFF_FRAME_BAR (a steep view: the outline as
# long as every shape already, or readings under the bar), the same shapes are grown in
# the card's plane (`vision.offframe.grown_in_plane`: the sides' vanishing point and a
# phone's focal length, 0.75 of the long side), taken only when one card alone is read
# at the bar; else as before. --stress edge protocol 2: 73 / 2 / 23 / 10 -> 76 / 2 / 20 / 10
# (right / wrong / unknown / not found of 108). Grown in perspective alone (a script over
# the same outlines), three shapes read a Yellow 5 as Yellow 4 at 0.88-0.92 where the
# flat shapes disagree ("unknown"): not alone. The focal length is a phone's, not fitted.
OFF_FRAME_SHAPES = (1.45, 1.5, 1.555, 1.6, 1.65)
OFF_FRAME_BAR = 0.8
# Still "unknown" so, a card of a deck printing a white frame whose width was taught
# (`DeckProfile.frame_widths`) is grown to the length its frame's width at the whole end
# tells (`vision.framescale.grown_by_frame`: the frame's share of the card, projected along
# the sides to their vanishing point) and read once more, taken this sure. --stress edge
# protocol 2: 75 / 2 / 22 / 9 -> 82 / 2 / 15 / 9 (the 7 read right at 0.90-1.0, nothing
# else changed). On the test's 6-face deck taught from one cloth photo a face (phone
# photos 0-65 degrees from overhead with a side off the photo, seeds 0-119): 18 unknown
# read right and one wrong at 0.84 (a Green 2 every flat shape read Green 3 too), the rest
# the same; at 0.85: 14 right, none wrong.
# A card along the border that one card read surely on the shapes grown past it is also
# grown as long as its frame tells; where that reads another card at FRAMED_LENGTH_BAR, that
# card is taken (session 21, edge-find: fresh --stress edge draws, a Blue 5 read Blue 1 at
# 0.93 on the profile's own 1.40 alone and Blue 5 at 0.99 by its frame; a Green 8 Green 1 at
# 0.91 on 1.45-1.5 and Green 8 at 0.91; the session-13 set's Blue 3 Blue 2 at 0.81 on 1.6,
# Blue 3 at 0.88). The deck's own shape is still not measured at teaching.
FRAMED_LENGTH_BAR = 0.85
# The card so taken from an outline along the border must hold on the other lengths the card
# may have (`_outvoted`): where another card is read on as many of them, the answer is
# "unknown". Each shape grown flat and in the card's plane read at OFF_FRAME_BAR is a vote,
# the length the white frame tells read at OFF_FRAME_EDGE_BAR FRAMED_VOTES (it measures the
# card; a shape only guesses it). Session 23 (helper edge-wrong), protocol 2's edge draws
# 120-123 and 176-177: a Red 5 read Red 1 on three flat shapes grown too long, Red 5 on three
# in its plane; a Green Reverse Green 8 on two flat shapes grown short, Green Reverse at 0.78
# by its frame: both "unknown", no right answer lost there nor on the session-13 sets
# (docs/vision-history.md, "Edge, session 23").
FRAMED_VOTES = 3
# A taught card whose outline has a corner on the frame's border otherwise (its tip off
# the frame, or an outline along the border longer than every shape: a steep view) is
# read as it is and taken only this sure. On --stress edge's protocol 2 such outlines
# read right at 0.50-1.0 and wrong at 0.56-0.96 (tips: 27 right, 8 wrong, 6 of them at
# 0.56-0.71; along the border: 4 right, 3 wrong at 0.83-0.88): 0.75 keeps 28 of the 31
# right and makes 6 of the 11 wrong "unknown". The normal protocols have one such card,
# read right at 0.80 (0.85 would make it "unknown").
OFF_FRAME_EDGE_BAR = 0.75
# A tip whose completion (below) reads unsure is read from the outline as it is, or from its
# slid sides; that reading is "unknown" when the completion names or guesses another card
# (a guess of no card names none) and the slid sides do not read the same card as the
# outline as it is: the completion is where the card lies, the outline as it is holds the
# part in view (session 23, edge draw 121: a Blue 3 read Blue Skip at 0.91 as it is, its
# completion guessing Blue 3; edge draw 177: a Green 8 slid to Green 3 at 0.87, completed
# guessing Green 8; the base set's whole Blue 8 with one corner on the border, completed
# 0.4 cards off to Blue 6 at 0.56, holds on its slid sides' Blue 8).
# A tip read from its outline (as it is, or from the outlines read when that was unsure, or
# as it is surer than its completion by TURN_LEAD) must hold against its slid sides: where
# they read another card at OFF_FRAME_EDGE_BAR, less sure, it is "unknown" (`_tip_holds`;
# surer, that card is taken, below). Session 24 (helper edge-wrong), fresh edge draw 310: a
# Blue 0 read Blue 8 at 0.996 as it is, slid Blue 0 at 0.981; a Red 4 Red 5 at 0.992 from a
# whole-card outline `_completed` found, slid Red 4 at 0.992; a Green 9 Green 3 at 0.875,
# slid Green 9 at 0.862; seen draw 185: a Red 8 Red 1 at 0.94 as it is, completed Red 8 at
# 0.825 and slid Red 8 at 0.892. No right answer of the edge draws or the session-13 sets
# was read so (docs/vision-history.md, "Edge, session 24").
# An outline with just one corner on the border (a card's tip off the frame) is read first
# from the whole card, its corner off the frame put where the card's two sides to it meet
# (`vision.offframe.tip_completed`, the sides found from the edges), taken at
# OFF_FRAME_EDGE_BAR; as it is (above) when no such corner is found or that reading is
# not sure. On --stress edge's protocol 2 the outline as it is read 26 of 51 such cards
# right, 4 wrong at 0.81-0.94, 21 "unknown"; completed, 31 of the 51 were completed, all
# 31 read right at 0.86-1.00 (their corners on average 0.3-4.4 % of the card's width from the
# truth, against 2.4-14.6 % for the outline as it is).
# Where the outline as it is reads another card surer by TURN_LEAD than the completed one, it
# is taken instead (session 19: protocol 2's session-13 none set, a Blue 8 whose corner lay a
# pixel inside the border, completed to a corner 420 pixels off the photo and read Blue 6 at
# 0.81, as it is Blue 8 at 0.95; 107 / 1 -> 108 / 0. On the sets of `vision.steady` it
# changed no other card; taking the surer of the two at any lead, or "unknown" within
# TURN_LEAD, made edge's Blue Reverse, completed 0.89 against Blue 8 0.86, "unknown").
# Still "unknown" after both (no side followed, or under the bar), the sides are looked for
# again from the corners beside the tip slid along their sides and turned inward too
# (`tip_completed(..., slid=True)`), taken at OFF_FRAME_EDGE_BAR: a reading taken before is
# never changed. --stress edge protocol 2: 82 / 2 / 15 / 9 -> 86 / 2 / 11 / 9 (Green 9, Blue 8,
# Yellow 7, Blue 5 read right at 0.87-0.99, nothing else changed; the same for slides of
# 0.1-0.2 of the side, 5-20 a side, inward turns of 10-30 degrees; 0.05: three). Tried
# before the outline as it is (with 5 slides a side, or 0.15 of the side), a Yellow 0 read
# right as it is (0.94) was completed 45 % of its width off and read Yellow Reverse at
# 0.93: so after it.
# A tip read as it is at OFF_FRAME_EDGE_BAR (no completion read it so) is read from its
# slid sides too, and where they complete it to another card read surer, that card is taken:
# the outline as it is cuts across the face (session 21, edge-find: on fresh --stress edge
# draws a Yellow 6 read Yellow 9 at 0.78 as it is and Yellow 6 at 0.88 slid, a Red Reverse
# Red 8 at 0.95 and 0.98; the session-13 set's Yellow 0, right at 0.94 as it is, slid Yellow
# Reverse at 0.93, stayed; since session 24 the surer one as it is is "unknown" there, above:
# that Yellow 0's slid sides now read "unknown"). Measured with the two rules below
# (docs/vision-history.md, "Edge, session 21").
# Still "unknown" after that, the tip may be no tip: a card running off the frame along a
# whole side, whose outline the finder closed with one corner beyond the border and its
# neighbour just inside it (a side across the face from there). Its two sides from the
# whole side run off the frame, so the outline is read as a card along the border
# (`grown_past`), each side to the tip taken in turn for the border where the card's side
# through its corner in view runs on past it to the border (`vision.offframe.runs_on`; past
# a true tip's corner lies the table), and the surest reading is taken at COMPLETE_BAR when
# no other card is read at OFF_FRAME_BAR: the bar of `_completed`, which also reads the
# whole cards an outline may be part of. Read so without `runs_on`, the 51 tips of --stress
# edge protocol 2 (each as if still "unknown") gave 22 right, none wrong, 13 "unknown"; at
# OFF_FRAME_BAR (0.8) 30 right but 3 wrong (Red 5 as Red 1 at 0.90, Yellow 5 as Yellow Skip
# at 0.82, Green 5 as Green 6 at 0.86); and the six-face test deck's rendered phone photos
# with a corner or a side off (600, seeds 0-119) read 5 true tips wrong (2s as 3s at
# 0.91-0.95). With `runs_on` those 600 read as before, and past the 106 corners beside the
# 53 real tips an edge follows the side for at most 0.58 of the way, but for protocol 1's
# Red 6 (s1-IMG_0006, its outline's corner 71 pixels below a 768-pixel photo, 1.00): read
# right at 0.98.
# An outline that may be a card seen steeply along its length lying across the way it looks
# (`vision.warp.may_lie_turned`) is read both ways; when both read a card, two different
# cards, within TURN_LEAD of each other, which way the card lies is a guess (a squashed face
# reads "Reverse" as surely as the right face reads "7") and the card is "unknown". Fresh
# unstressed protocol-2 draws (seeds 11-15 and the session-13 set, 648 cards): 3 outlines
# read both ways as two cards, Blue 7 as Blue Reverse at 0.997 against 0.997, Green Reverse
# as Green 2 at 0.866 against 0.865 (both wrong, taken before), and Blue Draw Two at 0.997
# against Blue 3 at 0.888 (right, kept).
TURN_LEAD = 0.05
# Such a tie is broken by the template reader (`vision.classify.template_match`, the ink
# itself against the taught templates): the way whose own symbol it matches by TURN_TEMPLATES
# more than the other way matches its own is taken (then the steadiness check, as any
# reading). Session 24 (helper s24-p2-misses), 34 unstressed protocol-2 draws: every turned
# tie on a card was a face on its side read "4" as surely as the right way read the card
# (Blue 3 as Blue 4 at 0.996 against 0.996), its templates matched 0.69-0.77 against the
# right way's 0.99 (docs/vision-history.md, "Protocol 2's misses over 34 unstressed draws").
TURN_TEMPLATES = 0.15
# A taught colour deck's card still "unknown" after every reading above, the steadiness
# check's included, is read from the other outlines of it the finder gives on a window
# around its outline (`vision.refind.others_around`: the finder's outline was poor, a
# corner cut off, the card cut short across its field, the card with the paper under it),
# taken only at REFOUND_BAR (a wrong card costs far more than an unknown) when no
# other of them reads another card that surely, and when it holds on its outline moved
# (`vision.steady`, asked under STEADY_SURE). Session 22 (helper p2-refit), chosen on
# protocol-2 draws 150-157 (main 88242b6 839 / 2 / 20 / 3 -> 842 / 2 / 17 / 3 of 864, right /
# wrong / unknown / not found): the window's outlines of three poor outlines read right at
# 0.996-1.0 (IoU 0.99 with the truth), every other window outline that read a card 0.73 or
# less; own draws 190-197 844 / 1 / 11 / 8 -> 845 / 1 / 11 / 7, the session-13 no-frame set's
# protocol 2 96 / 1 / 5 / 6 -> 98 / 1 / 3 / 6, the other sets and protocol 1 the same, no
# bare table changed (docs/vision-history.md, "Protocol 2's poor outlines read again from the
# window around them"). The window is searched once for both looks around (session 23, helper
# glare-cost); a gate asking for a coloured face first was dropped: it lost a held-out right
# card (docs/vision-history.md, "The window around an unknown card searched once").
REFOUND_BAR = 0.95
WORKING_SIZE = 640  # the long side detection works at (a camera frame's width)
# A card seen steeply may lie across the way its outline looks (`vision.warp.may_lie_turned`):
# for a taught deck whose cards have colours (the UNO family, whose framed fields are
# found that steep, `vision.realfind.RealSettings.field_angles`) such an outline is read
# turned a quarter too, and that reading is taken when known and surer than the first.
# Reading every near-square outline turned too and taking the surer read 2 of 108 cards
# of protocol 2 wrong (a squashed face read "8" as sure as the right reading); the
# convergence of its sides tells them apart (bench/protocols.py --stress oblique,
# docs/vision-history.md).


def unknown_guessing(reading: Reading) -> Reading:
    """The reading made "unknown" (no colour, confidence 0), its label kept as the guess."""
    return dataclasses.replace(reading, label=UNKNOWN, colour="", confidence=0.0, guess=reading.label)


def to_working_size(image: np.ndarray, long_side: int = WORKING_SIZE) -> tuple[np.ndarray, float]:
    """The picture with its long side at most `long_side` pixels (a 2000-pixel photo
    costs a few milliseconds of resizing, not a full-size detection), and the scale used."""
    h, w = image.shape[:2]
    scale = min(1.0, long_side / max(h, w))
    if scale >= 1.0:
        return image, 1.0
    size = (max(1, int(round(w * scale))), max(1, int(round(h * scale))))
    # Halving with a Gaussian (pyrDown) while more than halving is left, then a linear
    # step of less than two: as smooth as area averaging, and several times quicker.
    while image.shape[1] >= 2 * size[0] and image.shape[0] >= 2 * size[1]:
        image = cv2.pyrDown(image)
    return cv2.resize(image, size, interpolation=cv2.INTER_LINEAR), scale


@dataclass(frozen=True, eq=False)
class SeenCard:
    """One card face in a frame. `corners` are TL, TR, BR, BL of the upright face (as
    read: the symbol's top is between TL and TR), in image pixels."""

    label: str
    colour: str
    confidence: float
    corners: np.ndarray

    @property
    def known(self) -> bool:
        return self.label != UNKNOWN

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "colour": self.colour, "confidence": self.confidence,
                "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners]}


@dataclass(frozen=True, eq=False)
class FrameReading:
    cards: tuple[SeenCard, ...]
    detection: Detection
    size: tuple[int, int]  # (w, h) of the frame

    def in_rect(self, rect: tuple[float, float, float, float]) -> tuple[SeenCard, ...]:
        """Cards whose centre lies in a normalised rectangle (x0, y0, x1, y1)."""
        w, h = self.size
        return tuple(c for c in self.cards
                     if rect[0] <= c.centre[0] / w <= rect[2] and rect[1] <= c.centre[1] / h <= rect[3])


@dataclass(frozen=True, eq=False)
class Recognizer:
    profile: DeckProfile
    table: EmptyTable | None = None
    settings: DetectSettings = DetectSettings()
    thresholds: Thresholds = Thresholds()

    @staticmethod
    def create(profile: DeckProfile, empty_table: np.ndarray | None = None,
               thresholds: Thresholds = Thresholds()) -> "Recognizer":
        # A taught deck (its ink capped) may print panels crossed by stripes: their cells
        # between strong edges are looked at too. Built-in decks gain nothing from them
        # and their distractor scenes got false reports (raj 6 in 300), so not for those.
        # A built-in deck's cards are white: under a lamp's glare their edges are found
        # in the highlights, and their printed frame, ink on white, outlines them where
        # the edge against the table is faint (a taught deck's have not been measured so).
        # A taught deck whose cards have colours may be of the UNO family, its face a
        # colour field in a white frame (`vision.fieldfind`, about 9 M instructions a
        # frame more); Deckhand's own printings are not.
        # Its faces' fields running to the cards' edges (a full-bleed printing, measured when
        # taught), they are looked for as full-bleed faces too, cells joined across an oval
        # included (`READ_BLEED_SETTINGS`; teaching uses `BLEED_SETTINGS`).
        fields = profile.reader is not None and any(profile.colours)
        settings = DetectSettings(aspect=profile.aspect, frame_insets=profile.frame_insets,
                                  strong_cells=profile.ink_cap > 0, bright_cells=profile.reader is None,
                                  frame_outlines=profile.reader is None,
                                  real=(READ_BLEED_SETTINGS if profile.full_bleed else READ_FIELD_SETTINGS) if fields else
                                  LEARNED_SETTINGS if profile.reader is not None else PLAIN_SETTINGS)
        table = EmptyTable.from_image(to_working_size(empty_table)[0], settings) \
            if empty_table is not None else None
        return Recognizer(profile, table, settings, thresholds)

    @property
    def turns(self) -> bool:
        """Whether a card seen steeply is also read turned a quarter (`vision.warp.may_lie_turned`): a
        taught deck whose cards have colours."""
        return self.profile.reader is not None and any(self.profile.colours)

    def with_empty_table(self, image: np.ndarray) -> "Recognizer":
        """The same recognizer, comparing with a new picture of the empty table."""
        return dataclasses.replace(self, table=EmptyTable.from_image(to_working_size(image)[0],
                                                                      self.settings))

    def read(self, frame: np.ndarray) -> FrameReading:
        """Every card in the frame. Cards are found in a copy at the working size (a
        large photo costs one resize) and read from the frame itself; the reading is in
        the frame's pixels."""
        return self.read_keeping(frame, ())[0]

    def read_keeping(self, frame: np.ndarray,
                     kept: Sequence[KeptReading]) -> tuple[FrameReading, list[KeptReading]]:
        """`read`, taking the reading of a card that lies as it lay, its pixels unchanged,
        from `kept` (`vision.reuse`) instead of reading it again; and the readings to keep
        for the next frame."""
        reading, keeping, _ = self.read_changed(frame, kept, None)
        return reading, keeping

    def read_changed(self, frame: np.ndarray, kept: Sequence[KeptReading], last: LastFind | None,
                     anchors: Sequence[LastFind] = (), grey: np.ndarray | None = None
                     ) -> tuple[FrameReading, list[KeptReading], LastFind]:
        """`read_keeping`, finding cards again only where the frame changed since `last`
        or one of `anchors` (the last still frames), the one it differs from least
        (`vision.regions`; none: the whole frame); and what the next frame is compared with.
        `grey`: the frame's `regions.shrunk` copy made already (`small_copies`), used when
        the frame is at the working size."""
        small, scale = to_working_size(frame)
        detection, found = regions.find(small, self.table, self.settings, last, anchors,
                                        grey=grey if small is frame else None)
        reading, keeping = self._read_found(frame, detection, scale, kept)
        return reading, keeping, found

    def _read_found(self, frame: np.ndarray, detection: Detection, scale: float,
                    kept: Sequence[KeptReading]) -> tuple[FrameReading, list[KeptReading]]:
        if scale != 1.0:
            detection = detection.scaled(1 / scale, (frame.shape[1], frame.shape[0]))
        if not field_deck(self.profile.inks):
            cards, keeping = [], []
            for found in detection.cards:
                old = kept_reading(kept, frame, found.corners) if kept else None
                if old is None:
                    reading, read_from, looked = self._reading(frame, found.corners)
                    cards.append(self._seen(reading, read_from))
                    if cards[-1].known:
                        keeping.append(keep(frame, found.corners, cards[-1]))
                    elif looked and (box := refind.window(found.corners, frame.shape)) is not None:
                        # looked around for nothing: kept with the pixels of the window
                        # searched, so that it is not looked around again (a whole frame's
                        # finding) in every changed frame while it lies as it lay
                        keeping.append(keep(frame, found.corners, cards[-1], box))
                else:
                    cards.append(old.card)
                    keeping.append(old)
            return FrameReading(tuple(cards), detection, (frame.shape[1], frame.shape[0])), keeping
        # A deck printed with no white: the light is judged from every card in view
        features = [card_features(frame, found.corners, self.profile) for found in detection.cards]
        light = scene_gain([f.ink_colour for f in features], self.profile.inks)
        readings = [classify(f, self.profile, self.thresholds, light) for f in features]
        readings = [r if not self.turns or self._steady(frame, found.corners, r, light) else unknown_guessing(r)
                    for r, found in zip(readings, detection.cards)]
        cards = tuple(self._seen(r, found.corners) for r, found in zip(readings, detection.cards))
        return FrameReading(cards, detection, (frame.shape[1], frame.shape[0])), []

    def warm_up(self, frame: np.ndarray) -> None:
        """Read a card-sized outline in the middle of `frame` and forget the reading. The
        first card a process reads pays one-off set-ups (the deck's templates, OpenCV's
        float Lab tables, numpy's first products: 0.7 s of wall time on this 2-core VM
        under load, against 0.15 s for the next card): a camera loop pays them when it
        takes a new recognizer, before a card is laid, not on the first card played."""
        h, w = frame.shape[:2]
        across = min(w, h / self.profile.aspect) / 4
        along = across * self.profile.aspect
        x0, y0 = (w - across) / 2, (h - along) / 2
        corners = np.float32([[x0, y0], [x0 + across, y0], [x0 + across, y0 + along], [x0, y0 + along]])
        classify(card_features(frame, corners, self.profile), self.profile, self.thresholds)

    def read_card(self, frame: np.ndarray, corners: np.ndarray) -> SeenCard:
        return self._seen(*self.reading(frame, corners))

    def reading(self, frame: np.ndarray, corners: np.ndarray) -> tuple[Reading, np.ndarray]:
        """The card outlined by `corners`, and the outline it was read from (another one
        when the first read "unknown" and a second look read it)."""
        return self._reading(frame, corners)[:2]

    def _reading(self, frame: np.ndarray, corners: np.ndarray) -> tuple[Reading, np.ndarray, bool]:
        """`reading`, and whether the card was looked for around its outline
        (`_found_around`, `_refound`). A taught colour deck's card read under STEADY_SURE is
        kept only when its reading holds on its outline moved a little (`vision.steady`); one
        still "unknown" is read from the other outlines found around it (`_refound`): both
        looks around search one window, once (`refind.Search`)."""
        search = refind.Search(frame, corners, self.settings)
        reading, read_from, looked = self._first_reading(frame, corners, search)
        if self.turns and not self._steady(frame, read_from, reading):
            reading = unknown_guessing(reading)
        if self.turns and not reading.known:
            refound = self._refound(frame, corners, search)
            if refound is not None and self._steady(frame, refound[1], refound[0]):
                return refound[0], refound[1], True
            return reading, read_from, True
        return reading, read_from, looked

    def _steady(self, frame: np.ndarray, corners: np.ndarray, reading: Reading,
                light: np.ndarray | None = None) -> bool:
        """Whether a reading of the outline `corners` is sure enough (STEADY_SURE) or holds
        on the outline moved a little (`vision.steady.holds`, each moved outline's reading
        as `vision.steady.said` counts it); an unknown one holds."""
        if not reading.known or reading.confidence >= STEADY_SURE:
            return True
        # each label's symbol, asked only of an answer the templates doubted
        symbol_of = dict(zip(self.profile.labels, symbol_groups(self.profile.labels, self.profile.colours))) \
            if reading.templates_read else {}
        return holds(reading.label, corners, lambda outline: said(classify(
            card_features(frame, outline, self.profile), self.profile, self.thresholds, light),
            reading, symbol_of))

    def _first_reading(self, frame: np.ndarray, corners: np.ndarray,
                       search: refind.Search | None = None) -> tuple[Reading, np.ndarray, bool]:
        """`_reading` before the steadiness check. A taught colour deck's card whose outline runs along the
        frame's border is read from the whole card grown past it (`_off_frame`); one whose
        outline has a corner on the border otherwise is taken only at OFF_FRAME_EDGE_BAR.
        `search`: the window around `corners` searched when looked around (`_read_outline`)."""
        if not self.turns:   # (measured on the UNO family only: below)
            return self._read_outline(frame, corners, search)
        h, w = frame.shape[:2]
        tolerance = OFF_BORDER * max(1.0, max(h, w) / WORKING_SIZE) + 1.0
        if not on_border(corners, (w, h), tolerance):
            return self._read_outline(frame, corners, search)
        off = self._off_frame(frame, corners, tolerance)
        if off is not None:
            return (*off, False)
        tip = tip_corner(corners, (w, h), tolerance)
        whole = tip_completed(frame, corners, tip) if tip is not None else None
        completed = None
        if whole is not None:
            reading = completed = classify(card_features(frame, whole, self.profile), self.profile, self.thresholds)
            if reading.known and reading.confidence >= OFF_FRAME_EDGE_BAR:
                # the outline as it is holds most of the card: where it reads another card
                # surer by TURN_LEAD, that is taken, if it holds against the slid sides
                as_is = classify(card_features(frame, corners, self.profile), self.profile, self.thresholds)
                if as_is.known and as_is.label != reading.label and \
                        as_is.confidence >= reading.confidence + TURN_LEAD:
                    slid_whole = tip_completed(frame, corners, tip, slid=True)
                    slid = None if slid_whole is None else \
                        classify(card_features(frame, slid_whole, self.profile), self.profile, self.thresholds)
                    return (as_is if _tip_holds(as_is, slid) else unknown_guessing(as_is)), corners, False
                return reading, whole, False
        reading, read_from, looked = self._read_outline(frame, corners, search)
        if reading.known and reading.confidence < OFF_FRAME_EDGE_BAR:
            reading = dataclasses.replace(reading, label=UNKNOWN, confidence=0.0)

        def completion_agrees(label: str) -> bool:
            # the tip completed, read unsure, names (or guesses) no other card
            return completed is None or not _names_other(completed, label)
        if tip is not None and reading.known:
            # the outline as it is cuts across the face: where the sides looked for from
            # slid corners complete it to another card read surer, that one is taken
            whole = tip_completed(frame, corners, tip, slid=True)
            slid = None
            if whole is not None:
                slid = classify(card_features(frame, whole, self.profile), self.profile, self.thresholds)
                if slid.known and slid.label != reading.label and slid.confidence >= OFF_FRAME_EDGE_BAR and \
                        slid.confidence > reading.confidence and completion_agrees(slid.label):
                    return slid, whole, False
            if not completion_agrees(reading.label) and not (slid is not None and slid.label == reading.label):
                return unknown_guessing(reading), read_from, looked
            if not _tip_holds(reading, slid):
                return unknown_guessing(reading), read_from, looked
        if tip is not None and not reading.known:
            # still "unknown": the card's sides looked for from the corners beside the
            # tip slid along their sides, turned inward too (`tip_completed` slid)
            whole = tip_completed(frame, corners, tip, slid=True)
            if whole is not None:
                slid = classify(card_features(frame, whole, self.profile), self.profile, self.thresholds)
                if slid.known and slid.confidence >= OFF_FRAME_EDGE_BAR:
                    return (slid if completion_agrees(slid.label) else unknown_guessing(slid)), whole, False
            along = self._tip_along_border(frame, corners, tip)
            if along is not None:
                return (*along, False)
        return reading, read_from, looked

    def _read_outline(self, frame: np.ndarray, corners: np.ndarray,
                      search: refind.Search | None = None) -> tuple[Reading, np.ndarray, bool]:
        """`_reading` of an outline as it is (`search`: `_first_reading`'s)."""
        features = card_features(frame, corners, self.profile)
        reading = classify(features, self.profile, self.thresholds)
        either = self._either_way(frame, corners, reading)
        if either is not None:
            return (*either, False)
        if reading.known:
            return reading, corners, False
        if self.profile.reader is None:
            return (*self._refined(frame, corners, reading), False) if reading.symbol_score >= REFINE_FROM \
                else (reading, corners, False)
        if self.turns and reading.templates_read and \
                not self._steady(frame, corners, dataclasses.replace(reading, label=reading.guess)):
            # the template reader refused the learned reader's card, which does not hold
            # on the outline moved a little either: a poor outline, not looked around
            return reading, corners, False
        best, best_corners = self._completed(frame, corners, reading)
        if best.known or not refind.worth_a_look(features):
            return best, best_corners, False
        return (*self._found_around(frame, corners, best, search), True)

    def _either_way(self, frame: np.ndarray, corners: np.ndarray, reading: Reading) -> tuple[Reading, np.ndarray] | None:
        """A taught colour deck's outline that may lie turned a quarter (`may_lie_turned`),
        its first `reading` given, read turned too: "unknown" when the two read two cards
        within TURN_LEAD (unless the templates tell the ways apart by TURN_TEMPLATES: that
        way), the turned reading when known and surer; else None (the first reading stands)."""
        if not (self.turns and may_lie_turned(corners)):
            return None
        turned = np.roll(corners, 1, axis=0)
        other = classify(card_features(frame, turned, self.profile), self.profile, self.thresholds)
        if other.known and reading.known and other.label != reading.label and \
                abs(other.confidence - reading.confidence) < TURN_LEAD:
            match = template_match(card_features(frame, corners, self.profile), self.profile, reading.label)
            match_turned = template_match(card_features(frame, turned, self.profile), self.profile, other.label)
            if match >= match_turned + TURN_TEMPLATES:
                return reading, corners
            if match_turned >= match + TURN_TEMPLATES:
                return other, turned
            return unknown_guessing(reading), corners
        if other.known and other.confidence > reading.confidence:
            return other, turned
        return None

    def _refound(self, frame: np.ndarray, corners: np.ndarray,
                 search: refind.Search | None = None) -> tuple[Reading, np.ndarray] | None:
        """A taught colour deck's card read "unknown" from the outline `corners`, read from
        the other outlines of it the finder gives on a window around it
        (`vision.refind.others_around`), each as it is and turned where it may lie turned
        (`_either_way`), none on the frame's border: the surest reading at REFOUND_BAR and
        its outline, when no other outline reads another card that surely; else None
        (`search`: the window's search, `refind.others_around`'s)."""
        h, w = frame.shape[:2]
        tolerance = OFF_BORDER * max(1.0, max(h, w) / WORKING_SIZE) + 1.0
        best, best_corners, labels = None, None, set()
        for whole in refind.others_around(frame, corners, self.settings, search):
            if on_border(whole, (w, h), tolerance):
                continue
            reading = classify(card_features(frame, whole, self.profile), self.profile, self.thresholds)
            reading, read_from = self._either_way(frame, whole, reading) or (reading, whole)
            if reading.known and reading.confidence >= REFOUND_BAR:
                labels.add(reading.label)
                if best is None or reading.confidence > best.confidence:
                    best, best_corners = reading, read_from
        return (best, best_corners) if best is not None and len(labels) == 1 else None

    def _off_frame(self, frame: np.ndarray, corners: np.ndarray,
                   tolerance: float) -> tuple[Reading, np.ndarray] | None:
        """A taught card whose outline runs along the frame's border (`vision.offframe`):
        read from the whole cards it may be part of, grown past the border to the deck's
        shape and to the common card shapes OFF_FRAME_SHAPES (a taught deck's shape is
        not measured). The surest reading at OFF_FRAME_BAR is taken when no other one
        reads another card at OFF_FRAME_BAR; else "unknown": the part in view read as a
        whole face is a squashed face, read wrong as surely as right. When no shape
        reads a card at OFF_FRAME_BAR, the shapes grown in the card's plane
        (`grown_in_plane`) are taken if one card alone is read surely so. The card so
        taken must hold on the other lengths (`_outvoted`). None when the
        outline does not run along the border (its corners within `tolerance` pixels of
        it) or is as long as every shape tried (and not read surely in perspective)."""
        side = border_side(corners, (frame.shape[1], frame.shape[0]), tolerance)
        if side is None:
            return None
        size = (frame.shape[1], frame.shape[0])
        shapes = (self.profile.aspect,) + OFF_FRAME_SHAPES
        flat = self._read_each(frame, [grown_past(corners, side, a) for a in shapes])
        steep = self._read_each(frame, [grown_in_plane(corners, side, a, size) for a in shapes])
        framed = self._framed_reading(frame, corners, side)
        framed_sure = framed if framed is not None and framed[0].known and \
            framed[0].confidence >= FRAMED_LENGTH_BAR else None

        def holding(taken: tuple[Reading, np.ndarray]) -> tuple[Reading, np.ndarray]:
            if _outvoted(taken[0], flat + steep, framed):
                return unknown_guessing(taken[0]), taken[1]
            return taken

        best, best_corners, labels = _surest(flat)
        if not labels:
            # no shape grown flat reads a card surely (a steep view): grown in perspective,
            # taken only when one card alone is read surely so
            steep_best, steep_corners, steep_labels = _surest(steep)
            if len(steep_labels) == 1 and steep_best.confidence >= OFF_FRAME_BAR:
                return holding((steep_best, steep_corners))
        if not (best is not None and best.known and best.confidence >= OFF_FRAME_BAR and len(labels) == 1):
            if framed_sure is not None:
                return holding(framed_sure)
        if best is None:
            return None
        if best.known and best.confidence >= OFF_FRAME_BAR and len(labels) == 1:
            # the card as long as its white frame tells reading another card surely: that one
            if framed_sure is not None and framed_sure[0].label != best.label:
                return holding(framed_sure)
            return holding((best, best_corners))
        return dataclasses.replace(best, label=UNKNOWN, confidence=0.0), best_corners

    def _tip_along_border(self, frame: np.ndarray, corners: np.ndarray,
                          tip: int) -> tuple[Reading, np.ndarray] | None:
        """A card whose outline has one corner, `tip`, on the frame's border and is still
        "unknown" after every completion of that tip, read as a card along the border
        instead: each of the outline's two sides to the tip whose other corner the card's side
        runs on past (`vision.offframe.runs_on`) taken for the border in turn, the outline
        grown past it (`grown_past`) to the deck's shape and OFF_FRAME_SHAPES. The
        surest reading is taken at COMPLETE_BAR when no other card is read at OFF_FRAME_BAR;
        else None."""
        # a side to the tip is the border only when the card's side through its corner in
        # view runs on past it (a tip's corner in view turns the card's side)
        sides = [side for side, corner in (((tip - 1) % 4, (tip - 1) % 4), (tip, (tip + 1) % 4))
                 if runs_on(frame, corners, corner, (tip + 2) % 4)]
        if not sides:
            return None
        shapes = (self.profile.aspect,) + OFF_FRAME_SHAPES
        best, best_corners, labels = _surest(self._read_each(
            frame, [grown_past(corners, side, a) for side in sides for a in shapes]))
        if best is not None and best.known and best.confidence >= COMPLETE_BAR and len(labels) == 1:
            return best, best_corners
        return None

    def _framed_reading(self, frame: np.ndarray, corners: np.ndarray,
                        side: int) -> tuple[Reading, np.ndarray] | None:
        """A card along the border, for a deck that prints a white frame whose width was
        taught: grown to the length its frame's width at the whole end tells
        (`vision.framescale.grown_by_frame`) and read so (at any confidence); None when the
        frame is not measured."""
        if not (self.profile.white_frame and len(self.profile.frame_widths) == 2):
            return None
        whole = grown_by_frame(frame, corners, side, self.profile.frame_widths)
        if whole is None:
            return None
        return classify(card_features(frame, whole, self.profile), self.profile, self.thresholds), whole

    def _read_each(self, frame: np.ndarray, outlines: list[np.ndarray | None]
                   ) -> list[tuple[Reading, np.ndarray]]:
        """Each of `outlines` read (None: not tried, left out), with its outline."""
        return [(classify(card_features(frame, whole, self.profile), self.profile, self.thresholds), whole)
                for whole in outlines if whole is not None]

    def _found_around(self, frame: np.ndarray, corners: np.ndarray, first: Reading,
                      search: refind.Search | None = None) -> tuple[Reading, np.ndarray]:
        """A taught card still "unknown" whose outline holds no corner of it (`vision.refind`):
        read from the outlines the finder gives on a window around it, the surest at
        COMPLETE_BAR or above whose corner glyph the reader's index block scores at
        COMPLETE_GLYPH or more (as a completion's); else the first reading (`search`: the
        window's search, `refind.around`'s)."""
        best, best_corners = first, corners
        judged = hasattr(self.profile.reader, "index_score")
        for whole in refind.around(frame, corners, self.settings, search):
            features = card_features(frame, whole, self.profile)
            if judged and self.profile.reader.index_score(features.index) < COMPLETE_GLYPH:
                continue
            reading = classify(features, self.profile, self.thresholds)
            if reading.known and reading.confidence >= max(COMPLETE_BAR, best.confidence):
                best, best_corners = reading, whole
        return best, best_corners

    def _completed(self, frame: np.ndarray, corners: np.ndarray, first: Reading) -> tuple[Reading, np.ndarray]:
        """An unknown reading of a taught deck's card, read again from the whole-card
        outlines its outline may be part of (a strip, a card cut along a diagonal or with
        a corner on the table). The surest reading at COMPLETE_BAR or above is taken; else
        the first. A reader of the corner index reads only outlines whose corner regions
        (or the wider ones, when those show none) show a glyph (a whole card's do): two
        small warps and a blob search, where the whole read costs about four times as much
        (2 of 3 outlines tried show none); and only at a corner the first outline has too
        (`vision.complete.seen_corner`), only those whose glyph the reader's index block
        scores at COMPLETE_GLYPH or more, and only those whose glyph is tall enough for the
        card (COMPLETE_HEIGHT). A card none of them reads is read from its outline grown
        by GROWN_OUTLINE, unless a taught colour deck's first reading was a tie (`Reading.doubted`)."""
        reader = self.profile.reader
        glyphs = getattr(reader, "index", False)
        judged = glyphs and hasattr(reader, "index_score")
        best, best_corners = first, corners
        for whole in completions(corners, self.profile.aspect):
            seen = (seen_corner(whole, corners, [0]), seen_corner(whole, corners, [2])) if glyphs else None
            if glyphs and not any(seen):
                continue   # no glyph it could show would be at a corner the outline had
            regions, each, heights, cut = _completion_glyphs(frame, whole, seen) if glyphs else (None,) * 4
            if glyphs and regions is None:
                continue   # no glyph at a corner the outline had, whatever the other corner shows
            rows = np.concatenate(each) if glyphs else None
            if glyphs and not seen_corner(whole, corners, [i * 2 for i in (0, 1) if len(each[i])]):
                continue
            # the block just computed is the one reading needs (of the wider regions when
            # the corner regions show no glyph, as reading searches them)
            block = index_block(rows) if glyphs else None
            if judged and reader.index_score(block) < COMPLETE_GLYPH:
                continue
            if glyphs and self.profile.glyph_height > 0 and \
                    glyph_height_share(heights, cut) < COMPLETE_HEIGHT * self.profile.glyph_height:
                continue
            reading = classify(card_features(frame, whole, self.profile, regions, block, rows),
                               self.profile, self.thresholds)
            if reading.known and reading.confidence >= max(COMPLETE_BAR, best.confidence):
                best, best_corners = reading, whole
                if reading.confidence >= COMPLETE_SURE:
                    break
        if best.known or (first.doubted and self.turns):
            return best, best_corners
        grown = (corners.mean(axis=0) + (corners - corners.mean(axis=0)) * GROWN_OUTLINE).astype(np.float32)
        reading = classify(card_features(frame, grown, self.profile), self.profile, self.thresholds)
        if reading.known and reading.confidence >= COMPLETE_BAR:
            return reading, grown
        return best, best_corners

    def _refined(self, frame: np.ndarray, corners: np.ndarray, first: Reading) -> tuple[Reading, np.ndarray]:
        """An unknown reading of a built-in deck's card, read again from its outline
        stretched or shrunk by a few percent along each side (an outline found 2-3 px
        off, on a blurred or stretched card, leaves the symbol a little too large or
        small for the template). The outline whose face matches its template best is
        taken, and only when it matches clearly better than the first one: choosing by
        confidence among several outlines would pick a confident wrong card (a 9 read
        as a 6 from one of them)."""
        centre = corners.mean(axis=0)
        across = corners[1] - corners[0] + corners[2] - corners[3]
        along = corners[3] - corners[0] + corners[2] - corners[1]
        across /= max(float(np.linalg.norm(across)), 1e-6)
        along /= max(float(np.linalg.norm(along)), 1e-6)
        offsets = corners - centre
        best, best_corners = first, corners
        for sa, sb in REFINE_SCALES:
            moved = (centre + np.outer(offsets @ across, across) * sa
                     + np.outer(offsets @ along, along) * sb).astype(np.float32)
            reading = classify(card_features(frame, moved, self.profile), self.profile, self.thresholds)
            if reading.symbol_score > best.symbol_score:
                best, best_corners = reading, moved
        if best.symbol_score < first.symbol_score + REFINE_GAIN:
            return first, corners
        return best, best_corners

    @staticmethod
    def _seen(reading: Reading, corners: np.ndarray) -> SeenCard:
        upright = np.roll(corners, -2, axis=0) if reading.turned else corners
        return SeenCard(reading.label, reading.colour, reading.confidence,
                        np.asarray(upright, np.float32))


def _surest(readings: list[tuple[Reading, np.ndarray]]
            ) -> tuple[Reading | None, np.ndarray | None, set[str]]:
    """Of `readings` (each with its outline), the surest and its outline, and the cards
    read at OFF_FRAME_BAR or above (`Recognizer._off_frame`)."""
    best, best_corners, labels = None, None, set()
    for reading, whole in readings:
        if best is None or (reading.known and reading.confidence > best.confidence):
            best, best_corners = reading, whole
        if reading.known and reading.confidence >= OFF_FRAME_BAR:
            labels.add(reading.label)
    return best, best_corners, labels


def _names_other(reading: Reading, label: str) -> bool:
    """Whether `reading` names a card other than `label`, or guesses one when "unknown"
    (a guess of no card names none)."""
    named = reading.label if reading.known else reading.guess
    return named not in ("", UNKNOWN, label)


def _tip_holds(reading: Reading, slid: Reading | None) -> bool:
    """Whether a tip's `reading` from its outline (as it is, or the outlines read when that
    was unsure) holds against `slid`, the tip completed from its slid sides (None: no side
    found): not when that reads another card at OFF_FRAME_EDGE_BAR (`Recognizer._first_reading`)."""
    return slid is None or not slid.known or slid.label == reading.label or \
        slid.confidence < OFF_FRAME_EDGE_BAR


def _outvoted(taken: Reading, shapes: list[tuple[Reading, np.ndarray]],
              framed: tuple[Reading, np.ndarray] | None) -> bool:
    """Whether another card than `taken` is read on at least as many of the lengths a card
    along the border may have as it: each of `shapes` (grown flat and in the card's plane)
    read at OFF_FRAME_BAR a vote, `framed` (the length its white frame tells) read at
    OFF_FRAME_EDGE_BAR FRAMED_VOTES."""
    votes: dict[str, int] = {}
    for reading, _ in shapes:
        if reading.known and reading.confidence >= OFF_FRAME_BAR:
            votes[reading.label] = votes.get(reading.label, 0) + 1
    if framed is not None and framed[0].known and framed[0].confidence >= OFF_FRAME_EDGE_BAR:
        votes[framed[0].label] = votes.get(framed[0].label, 0) + FRAMED_VOTES
    mine = votes.get(taken.label, 0)
    return any(n >= mine for label, n in votes.items() if label != taken.label)


def _wide_rows(frame: np.ndarray, whole: np.ndarray,
               which: tuple[int, ...] = (0, 1)) -> tuple[list[np.ndarray], list[int]]:
    """`index_rows` of the top-left and the bottom-right wider region (INDEX_WIDE) of the
    card outlined by `whole` apart, of glyphs narrower than WIDE_GLYPH_ASPECT (the rows
    reading finds when neither corner region shows a glyph), and the heights of the
    glyphs they show, of any width (`vision.reader.region_rows`); searched at COMPLETE_LEVELS.
    `which`: only these regions (0 the top-left, 1 the bottom-right)."""
    each, heights = region_rows(index_regions(frame, whole, INDEX_WIDE, which), COMPLETE_LEVELS)
    return [rows[rows[:, -1] <= WIDE_GLYPH_ASPECT] for rows in each], heights


def _completion_glyphs(frame: np.ndarray, whole: np.ndarray, seen: tuple[bool, bool]
                       ) -> tuple[np.ndarray | None, list[np.ndarray], list[int], tuple | None]:
    """What a completion's glyph check reads of the completed outline `whole`, whose
    top-left and bottom-right corners are or are not near a corner the first outline had
    (`seen`, `vision.complete.seen_corner`): its corner regions (`index_regions`), the
    rows of each (`region_rows`; of the wider regions when neither corner region shows a
    glyph, `_wide_rows`), their glyphs' heights and the cut they were searched at (None:
    the corner regions, INDEX_WIDE: the wider ones); regions None when the check would
    find no glyph at a seen corner, told without searching every region.

    With one corner seen (i), a glyph must be found there: when corner region i shows
    none, a glyph in the other corner region alone is at an unseen corner, and with none
    there the wider regions are searched, where wider region i must show one. So wider
    region i is searched before the other corner region, and a completion failing there
    costs one corner region and one wider region where it cost all four (the same
    regions, rows and heights as searching them all, as each region is cut and searched
    alone: 1,351 completions of the real photos, 339 of them with no glyph anywhere)."""
    if seen[0] and seen[1]:
        regions = index_regions(frame, whole)
        each, heights = region_rows(regions)
        if any(len(rows) for rows in each):
            return regions, each, heights, None
        each, heights = _wide_rows(frame, whole)
        return regions, each, heights, INDEX_WIDE
    i = 0 if seen[0] else 1
    j = 1 - i
    own = index_regions(frame, whole, None, (i,))
    own_each, own_heights = region_rows(own)
    if len(own_each[0]):
        other = index_regions(frame, whole, None, (j,))
        other_each, other_heights = region_rows(other)
        return _in_order(i, own, other), _in_order(i, own_each[0], other_each[0]), \
            _in_order(i, own_heights[0], other_heights[0]), None
    wide_each, wide_heights = _wide_rows(frame, whole, (i,))
    if not len(wide_each[0]):
        return None, [], [], None
    other = index_regions(frame, whole, None, (j,))
    other_each, _ = region_rows(other)
    if len(other_each[0]):
        return None, [], [], None
    far_each, far_heights = _wide_rows(frame, whole, (j,))
    return _in_order(i, own, other), _in_order(i, wide_each[0], far_each[0]), \
        _in_order(i, wide_heights[0], far_heights[0]), INDEX_WIDE


def _in_order(i: int, first, second):
    """The top-left's and the bottom-right's of two things, `first` being corner i's:
    regions stacked (as `index_regions` gives them), anything else as a list."""
    pair = (first, second) if i == 0 else (second, first)
    return np.concatenate(pair) if isinstance(first, np.ndarray) and first.ndim == 4 else list(pair)


THUMB_WIDTH = 80          # the still-frame test compares grey thumbnails this wide
ANCHORS = 3               # still frames a changed frame is compared with besides the last
STILL_DIFFERENCE = 10     # grey levels: a thumbnail pixel changed by more is a change


@dataclass(eq=False)
class StillFrames:
    """The static-frame shortcut: a frame that looks like the one last read (every pixel
    of an 80-pixel grey thumbnail within a few grey levels) gets that reading again, with
    no detection. The comparison is with the frame last READ, not the previous frame, so
    a slow drift still ends in a reading. It costs a resize of the frame to the
    thumbnail and one comparison (well under a millisecond at 640x480). A frame that
    changed is read with the readings of the cards that lie as they lay, their pixels
    unchanged, kept (`vision.reuse`): only the cards that changed are read again, and
    cards are found again only where the frame changed since the last frame read
    (`vision.regions`), or since one of the last `ANCHORS` still frames (frames read and
    then seen again alike), where the frame differs least: the frame after a hand went
    away differs from the frame with the hand by the hand, from the table before the
    hand came only by the card laid. The still frames' kept readings serve too (a card a
    hand uncovers, lying as it lay, its pixels unchanged, is not read again).

    One per camera loop (it holds the last frame); `forget()` when the recognizer changes
    (readings are kept only for the recognizer that read them)."""

    thumb: np.ndarray | None = None
    reading: FrameReading | None = None
    reused: int = 0
    kept: list[KeptReading] = dataclasses.field(default_factory=list)
    kept_by: Recognizer | None = None
    found: LastFind | None = None
    # the findings of the last still frames, newest first, and the readings kept with them
    anchors: tuple[LastFind, ...] = ()
    anchor_kept: tuple[list[KeptReading], ...] = ()

    def read(self, recognizer: Recognizer, frame: np.ndarray) -> FrameReading:
        thumb, grey = small_copies(frame)
        if self.reading is not None and self.thumb is not None and self.thumb.shape == thumb.shape \
                and self.reading.size == (frame.shape[1], frame.shape[0]) \
                and not changed(self.thumb, thumb):
            self.reused += 1
            if self.found is not None and not (self.anchors and self.anchors[0] is self.found):
                self.anchors = (self.found, *self.anchors)[:ANCHORS]
                self.anchor_kept = (self.kept, *self.anchor_kept)[:ANCHORS]
            return self.reading
        if isinstance(recognizer, Recognizer):
            mine = recognizer is self.kept_by
            kept = list(self.kept)
            for old in self.anchor_kept if mine else ():
                kept += [k for k in old if not any(k is c for c in kept)]
            self.reading, self.kept, self.found = recognizer.read_changed(
                frame, kept if mine else [], self.found if mine else None, self.anchors if mine else (),
                grey=grey)
            self.kept_by = recognizer
        else:   # a stand-in that only reads (tests' counting or misreading wrappers)
            self.reading = recognizer.read(frame)
        self.thumb = thumb
        return self.reading

    def forget(self) -> None:
        self.thumb, self.reading, self.kept, self.kept_by, self.found = None, None, [], None, None
        self.anchors, self.anchor_kept = (), ()


def thumbnail(frame: np.ndarray, width: int = THUMB_WIDTH) -> np.ndarray:
    """A small grey copy of the frame (area-averaged: camera noise averages out)."""
    return small_copies(frame, width)[0]


def small_copies(frame: np.ndarray, width: int = THUMB_WIDTH) -> tuple[np.ndarray, np.ndarray | None]:
    """The frame's thumbnail (`width` pixels wide, grey, area-averaged) and, when the
    thumbnail is a whole `2 * regions.SHRINK` times smaller (a 640x480 frame), the grey
    copy `vision.regions` compares (`regions.shrunk`), both from one grey copy of the
    frame: the frame made grey, shrunk `SHRINK` times (the regions' copy), and that
    halved again (the thumbnail: each pixel the mean of four rounded 4 x 4 means, within
    a grey level of the 8 x 8 mean). Otherwise the thumbnail straight from the frame's
    grey, and None."""
    h, w = frame.shape[:2]
    size = (width, max(1, int(round(h * width / w))))
    whole = 2 * regions.SHRINK
    if (w, h) == (size[0] * whole, size[1] * whole):
        grey = regions.shrunk(frame)
        return cv2.resize(grey, size, interpolation=cv2.INTER_AREA), grey
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    return cv2.resize(grey, size, interpolation=cv2.INTER_AREA), None


def changed(a: np.ndarray, b: np.ndarray, difference: int = STILL_DIFFERENCE) -> bool:
    """Whether any pixel of two thumbnails differs by more than `difference`."""
    return float(cv2.norm(a, b, cv2.NORM_INF)) > difference
