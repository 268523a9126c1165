"""Teaching a physical deck: labelled pictures in, a deck profile and a self-check out.

Two ways in, one way out:

* `teach_folder(images, labels_csv)` reads a folder of photos and a CSV with the columns
  `file,label` and optionally `colour` (labels are free text, so any deck can be
  taught); `deckhand teach` calls it.
* a live `TeachingSession` for the web page: `add_frame(session, frame, label)` finds
  the one card in a camera frame and keeps its face; `finish(session)` builds the
  profile.

A photo's face is cut from the outline of its card that shows the corner index best, and
a photo too poor to teach from (the card covered or cut off) is left out when its label
has other photos (`vision.teachcrop`).

One picture per card is enough (each face is also seen in harsh simulated camera
views, see `finish`); more pictures help. After building, `self_check` reads harsh views
of a simulated second photo of every taught card (none used in teaching) and names the
pairs the profile is likely to confuse, so the user can show those cards again.

What does not live here: feature extraction (`vision.classify`), the profile format
(`vision.profile`), the command line (`device.commands.teach`).
"""
from __future__ import annotations

import csv
import dataclasses
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import cv2
import numpy as np

from vision.classify import (UNKNOWN, WORK_SIZE, Thresholds, classify, face_features, field_seen, ink_planes,
                             learned_features)
from vision.colour import (deck_inks, ink_examples, ink_lights, measure_inks, prints_colour_fields,
                           symbol_groups, without_colour_field)
from vision.framescale import taught_frame_widths
from vision.learn import Example, train_reader
from vision.detect import BLEED_SETTINGS, FIELD_SETTINGS, DetectSettings, EmptyTable, find_cards
from vision.profile import DeckProfile, camera_views, measure_frame_insets, profile_from_faces
from vision.reader import index_glyph_height, index_regions
from vision.teachcrop import Crop, best_crop, poor, small
from vision.warp import CANONICAL_SIZE, CARD_ASPECT, order_corners, warp_card
from vision.whiteframe import (SIZE as FRAME_SIZE, bleeds_colour, frame_sides, frame_under_glare, prints_full_bleed,
                               prints_white_frame, shows_paper)
from vision.why import Why, WhyError, why

MIN_FACE_DETAIL = 10.0  # grey levels (sd) a printed face shows at least; a cloth's square less
MIN_INK_DETAIL = 5.0    # ... or ink strength (sd, `classify.ink_planes`): measured, a cloth's
                        # squares 1.3-2.1, dim yellow faces of protocol 2 (bench/protocols.py) 7.5-10.5
DETECT_WIDTH = 800   # photos are searched for their card at this width at most
TEMPLATE_VIEWS = 2   # simulated camera views per shot for the templates (see finish)
# A deck seen once may print its symbols on coloured panels: capped ink (anything clearly
# not paper counts alike) compares shapes, not shades (measured: the "alt" Hit the Deck
# taught from one photo a card, 61% -> 72% read right, wrong codes 33 -> 14 in 150 scenes).
TAUGHT_INK_CAP = 30.0
# ... and the pixels that vary across the taught deck weighted up steeply (the symbols are
# a small part of the face; measured on the same bench: 72.0% -> 85.5%, wrong 14 -> 7).
TAUGHT_WEIGHT_POWER = 4.0
# A deck seen in one photo a card is read less surely than Deckhand's own: a stricter
# confidence bar trades reads for wrong codes (a wrong card costs most). Measured, 150
# scenes of each alt deck, of the cards found: wrong codes 7/9/7/1 at the reader's 0.12,
# 2/1/3/0 at 0.25; at 0.25 the bench still had 5/4/4/0 wrong in 200 scenes, hence 0.35
# (Hit the Deck/Raj/Solo/Flip 7).
TAUGHT_MIN_CONFIDENCE = 0.35
# The learned reader's confidence is a calibrated probability: below this, "unknown".
LEARNED_MIN_CONFIDENCE = 0.5
# A colour-field deck's faces are mostly their field (`vision.colour.field_ink`): the share
# its taught faces show, low (a tenth of them show less: a very warm dim webcam's pale
# yellow, a streak of glare), is the profile's `field_share`.
FIELD_QUANTILE = 0.1


class TeachError(WhyError):
    """A picture or label that cannot be taught: `.why` says why as a code and params
    ("teach.*", put into words by web.messages), `.source` which picture; str() is both
    in English."""


@dataclass(frozen=True, eq=False)
class Shot:
    label: str
    colour: str
    face: np.ndarray     # upright face, CANONICAL_SIZE
    source: str = ""     # where it came from (a file name, "camera")
    background: np.ndarray | None = None   # the picture around it, card blanked (negatives)
    crop: Crop | None = None   # the outline it was cut from and how it shows the card


@dataclass(frozen=True)
class TeachingSession:
    name: str
    aspect: float = CARD_ASPECT
    shots: tuple[Shot, ...] = ()

    def counts(self) -> dict[str, int]:
        return dict(Counter(s.label for s in self.shots))


@dataclass(frozen=True)
class SelfCheck:
    """What the profile makes of fresh views of the taught cards."""

    views: int                                       # views read, all labels together
    right: int                                       # of views * labels
    confused: tuple[tuple[str, str, int], ...]       # (card, read as, times), worst first
    unsure: tuple[tuple[str, int], ...]              # (card, times read "unknown")
    similar: tuple[tuple[str, str], ...]             # pairs told apart by colour alone, with close colours
    wrong_confidence: float = 0.0                    # the most confident wrong reading
    known: tuple[tuple[float, bool], ...] = ()       # (confidence, right) of every card named
    views_each: int = 1                              # views read per label
    bar: float = 0.0                                 # the confidence bar the profile was given
    held_out: bool = False                           # read held-out shots (True) or simulated ones

    @property
    def needs_more(self) -> tuple[str, ...]:
        """Labels worth showing again, most troubled first."""
        order: dict[str, int] = {}
        for a, b, n in self.confused:
            order[a] = order.get(a, 0) + n
            order[b] = order.get(b, 0) + n
        for a, n in self.unsure:
            if 2 * n >= self.views_each:  # the harsh views leave any card unread at times
                order[a] = order.get(a, 0) + n
        for a, b in self.similar:
            order[a] = order.get(a, 0) + 1
            order[b] = order.get(b, 0) + 1
        return tuple(sorted(order, key=lambda k: -order[k]))

    def said(self) -> list[Why]:
        """What the check found, as codes and params ("teach.check_*" and the rest, put into
        words by web.messages): the summary first, then the details."""
        total = max(self.views, 1)
        if self.held_out:
            out = [why("teach.check_held_out", "self-check: {right} of {total} held-out views read right (pictures of"
                       " the cards kept out of training, and harsh views of them; none used in teaching)",
                       right=self.right, total=total)]
        else:
            out = [why("teach.check_fresh", "self-check: {right} of {total} fresh views read right (harsh simulated"
                       " views of a simulated second photo of each card, none used in teaching)",
                       right=self.right, total=total)]
        for a, b, n in self.confused:
            out.append(why("teach.confused", "likely confused: {label} read as {other} "
                           "({count} of the views of {label})", label=a, other=b, count=n))
        for a, n in self.unsure:
            out.append(why("teach.unsure", "unsure about {label} ({count} views not read)", label=a, count=n))
        for a, b in self.similar:
            out.append(why("teach.similar", "{label} and {other} differ only by a close colour", label=a, other=b))
        if self.needs_more:
            again = list(self.needs_more[:12])
            out.append(Why("teach.show_again", {"names": again},
                           "show these cards again, in other light or positions: " + ", ".join(again)))
        else:
            out.append(why("teach.no_confusions", "no likely confusions"))
        return out

    def lines(self) -> list[str]:
        """`said` in English, the details indented (logs, benches)."""
        said = self.said()
        return [str(said[0])] + ["  " + str(w) for w in said[1:]]


@dataclass(frozen=True, eq=False)
class Taught:
    profile: DeckProfile
    check: SelfCheck
    skipped: tuple[tuple[str, Why], ...] = ()   # (photo, why) of photos taught nothing


# --- live teaching --------------------------------------------------------------------

def start_session(name: str, aspect: float = CARD_ASPECT) -> TeachingSession:
    if not name.strip():
        raise TeachError(why("teach.no_name", "a taught deck needs a name"))
    return TeachingSession(name.strip(), aspect)


def add_face(session: TeachingSession, face: np.ndarray, label: str, colour: str = "",
             source: str = "", background: np.ndarray | None = None,
             crop: Crop | None = None) -> TeachingSession:
    """Keep an upright face image (any size) as one shot of `label` (and the picture
    around it, the card blanked out, as an example of what is no card; and the crop it
    was cut from, `vision.teachcrop`)."""
    label, colour = label.strip(), colour.strip().lower()
    if not label:
        raise TeachError(why("teach.empty_label", "the label is empty"), source or "a picture")
    if label == UNKNOWN:
        raise TeachError(why("teach.reserved_label", "{label!r} cannot be a card's label", label=UNKNOWN),
                         source or "a picture")
    upright = cv2.resize(face, CANONICAL_SIZE, interpolation=cv2.INTER_AREA)
    shot = Shot(label, colour, upright, source, background, crop)
    return dataclasses.replace(session, shots=session.shots + (shot,))


def add_frame(session: TeachingSession, frame: np.ndarray, label: str, colour: str = "",
              empty_table: np.ndarray | None = None, source: str = "camera") -> TeachingSession:
    """Find the one card in a camera frame (or photo) and keep it as a shot of `label`."""
    corners, found = _card_outlines(frame, session.aspect, empty_table, source)
    return add_outlined(session, frame, corners, label, colour, source, found)


def add_outlined(session: TeachingSession, image: np.ndarray, corners: np.ndarray, label: str,
                 colour: str = "", source: str = "", others: Sequence[np.ndarray] = ()) -> TeachingSession:
    """Keep the card outlined by `corners` in a picture as a shot of `label`: cut from
    the outline of it, of `corners`, `others` and the finder's around it, that shows the
    card's corner index best (`vision.teachcrop.best_crop`)."""
    crop = best_crop(image, corners, session.aspect, others)
    return add_face(session, warp_card(image, crop.corners, CANONICAL_SIZE), label, colour, source,
                    table_around(image, crop.corners), crop)


def table_around(image: np.ndarray, corners: np.ndarray, width: int = 320) -> np.ndarray:
    """The picture with the card painted over in the colour around it, at most `width`
    pixels wide: what the table looks like (the reader's examples of "no card")."""
    scale = min(1.0, width / image.shape[1])
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image.copy()
    quad = (np.asarray(corners, np.float32) * scale)
    grown = quad.mean(axis=0) + (quad - quad.mean(axis=0)) * 1.15
    mask = np.zeros(small.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, grown.astype(np.int32), 255)
    around = small[mask == 0]
    small[mask > 0] = np.median(around, axis=0) if len(around) else 128
    return small


def finish(session: TeachingSession, check_views: int = 4,
           progress: Callable[[float], None] | None = None) -> Taught:
    """The profile of the shots so far, and its self-check; the shots too poor to teach
    from (`taught_shots`) are left out and named in `Taught.skipped`."""
    if not session.shots:
        raise TeachError(why("teach.nothing_yet", "nothing taught yet: show the camera one card at a time"))
    shots, dropped = taught_shots(session.shots)
    taught = _finish(dataclasses.replace(session, shots=tuple(shots)), check_views, progress)
    return dataclasses.replace(taught, skipped=tuple((s.source, reason) for s, reason in dropped))


def poor_crop() -> Why:
    """Why a shot was left out by `taught_shots` as too poor a crop of its card."""
    return why("teach.poor_crop", "the card's corners do not show well (covered, cut off, or seen too "
               "obliquely): its other photos teach it")


def no_field(colour: str) -> Why:
    """Why a shot was left out by `taught_shots` as holding no card of the deck (`unlike_the_deck`)."""
    return why("teach.no_field", "no {colour} card found: what was outlined is hardly coloured, and not {colour}, "
               "where the deck's other photos show colour fields (a photo with no card, or the card missed): "
               "its other photos teach it", colour=colour)


def too_small() -> Why:
    """Why a shot was left out by `taught_shots` as outlining something far smaller than
    the deck's cards (`unlike_the_deck`)."""
    return why("teach.too_small", "no card found: what was outlined is far smaller than the deck's other cards "
               "(a photo with no card, or the card missed): its other photos teach it")


def unlike_the_deck(shots: Sequence[Shot]) -> list[Why | None]:
    """Why each shot outlines no card of a deck whose faces are colour fields (None: it
    may): under a tenth of the face coloured, and that little unlike the shot's colour name
    (`vision.colour.without_colour_field`; a shot with no colour name is never judged so),
    or an outline far smaller than the deck's (`vision.teachcrop.small`). Bare tables'
    coupons and patches were taught as red cards in protocol 2 (bench/protocols.py)."""
    out: list[Why | None] = [None] * len(shots)
    coloured = [i for i, s in enumerate(shots) if s.colour]
    seen = [(shots[i].colour, face_features(shots[i].face, two_levels=True).ink_colour) for i in coloured]
    if not prints_colour_fields(seen):
        return out
    for i, odd in zip(coloured, without_colour_field(seen)):
        if odd:
            out[i] = no_field(shots[i].colour)
    for i, tiny in enumerate(small([s.crop for s in shots])):
        if tiny and out[i] is None:
            out[i] = too_small()
    return out


def taught_shots(shots: Sequence[Shot]) -> tuple[list[Shot], list[tuple[Shot, Why]]]:
    """The shots to teach from, and those left out with the reason: a shot whose crop is
    poor (`vision.teachcrop.poor`) or that holds no card of the deck (`unlike_the_deck`),
    unless every shot of its label is (a label is never lost). Measured on the real photos
    (bench/realphotos_read.py --shots 2 --seeds 3) and protocol 2: see docs/vision.md,
    "Teaching crops"."""
    flags = poor([s.crop for s in shots])
    unlike = unlike_the_deck(shots)
    reasons = [poor_crop() if bad else odd for bad, odd in zip(flags, unlike)]
    good = {s.label for s, reason in zip(shots, reasons) if reason is None}
    dropped = [(s, reason) for s, reason in zip(shots, reasons) if reason is not None and s.label in good]
    return [s for s in shots if not any(s is d for d, _ in dropped)], dropped


def _finish(session: TeachingSession, check_views: int, progress: Callable[[float], None] | None) -> Taught:
    faces = [(s.label, s.colour, s.face) for s in session.shots]
    # The templates are only the fallback reader's now (the learned one reads): few views.
    profile = profile_from_faces(session.name, faces, session.aspect, views=TEMPLATE_VIEWS, harsh=True,
                                 ink_cap=TAUGHT_INK_CAP, weight_power=TAUGHT_WEIGHT_POWER)
    profile = dataclasses.replace(profile, frame_insets=measure_frame_insets([s.face for s in session.shots[:8]]))
    held = held_out(session.shots)
    if not held:
        profile = with_reader(profile, session.shots, progress=progress)
        return Taught(profile, self_check(profile, session.shots, check_views))
    # An honest check: a reader trained without the held-out shots reads them; then the
    # profile's own reader is trained on every shot.
    rest = [s for s in session.shots if not any(s is h for h in held)]
    half = (lambda share: progress(share / 2)) if progress else None
    checker = with_reader(profile, rest, seed=1, progress=half, photos=False)
    check = held_out_check(checker, held, max(1, check_views // 2))
    rest_of = (lambda share: progress(0.5 + share / 2)) if progress else None
    return Taught(with_reader(profile, session.shots, progress=rest_of), check)


def held_out(shots: Sequence[Shot]) -> list[Shot]:
    """The shots kept out of the self-check's reader: of every label taught at least
    twice, every fourth shot (at least one), from the end."""
    by_label: dict[str, list[Shot]] = {}
    for shot in shots:
        by_label.setdefault(shot.label, []).append(shot)
    out: list[Shot] = []
    for group in by_label.values():
        if len(group) >= 2:
            out += group[::-1][:max(1, len(group) // 4)]
    return out


def with_reader(profile: DeckProfile, shots: Sequence[Shot], seed: int = 0,
                progress: Callable[[float], None] | None = None, photos: bool = True) -> DeckProfile:
    """The profile with a learned reader trained on the shots (`vision.learn`), the
    fixed ink prototypes of its colour names (`vision.colour`; a name the table does not
    know is measured from the shots) and each name's inks as the shots show them under
    their lights (`vision.colour.ink_examples`), with each one's light
    (`vision.colour.ink_lights`). `photos` False: not what only reading whole photos
    asks of a profile (the taught glyphs' height and frame's widths, by which
    `vision.pipeline` judges and grows outlines), for a reader that reads faces alone
    (the self-check's: `held_out_check`)."""
    # One class per symbol, whatever its colour (`symbol_groups`): a symbol taught once in
    # each of four colours is taught from four photos, and the colour picks the label.
    groups = symbol_groups(profile.labels, profile.colours)
    firsts = sorted(set(groups.tolist()))
    examples = [Example(firsts.index(int(groups[profile.index(s.label)])), s.face) for s in shots]
    backgrounds = [s.background for s in shots if s.background is not None]
    reader = train_reader(examples, len(firsts), learned_features, WORK_SIZE,
                          backgrounds, seed, progress=progress)
    reader = dataclasses.replace(reader, classes=np.array([firsts[c] if c >= 0 else -1 for c in reader.classes],
                                                          np.int64))
    names = sorted({s.colour for s in shots if s.colour})
    seen = [face_features(s.face, two_levels=True) for s in shots] if names else []   # names: one has a colour
    coloured = [(s.colour, features) for s, features in zip(shots, seen) if s.colour]
    samples = [(colour, features.ink_colour) for colour, features in coloured]
    # a deck with colours whose faces print a white frame: a face showing none is no card
    # of it (`vision.whiteframe`; measured where the framed colour fields are looked for)
    faces = [s.face for s in shots if s.colour]
    framed = prints_white_frame([frame_sides(f) for f in faces], [frame_under_glare(f) for f in faces])
    bleeding = not framed and prints_full_bleed([s.face for s in shots if s.colour])
    return dataclasses.replace(profile, reader=reader, inks=deck_inks(names, measure_inks(samples)),
                               ink_examples=ink_examples(samples), ink_lights=ink_lights(samples),
                               white_frame=framed, full_bleed=bleeding,
                               glyph_height=taught_glyph_height([s.face for s in shots])
                               if reader.index and photos else 0.0,
                               frame_widths=taught_frame_widths([s.face for s in shots if s.colour])
                               if framed and photos else (),
                               off_hues=taught_off_hues(profile.labels, [s.label for s in shots],
                                                        [f.off_hue for f in seen]) if names else (),
                               field_share=taught_field_share([field_seen(f) for f in seen]),
                               min_confidence=LEARNED_MIN_CONFIDENCE)


def taught_off_hues(labels: Sequence[str], taught: Sequence[str],
                    shares: Sequence[float]) -> tuple[tuple[float, float], ...]:
    """Per label, the least and the most of its coloured ink its taught faces show off the
    main hue (`vision.colour.off_hue_share`; nan, nan where none shows coloured ink)."""
    by_label: dict[str, list[float]] = {}
    for label, share in zip(taught, shares):
        if np.isfinite(share):
            by_label.setdefault(label, []).append(share)
    return tuple((min(by_label[label]), max(by_label[label])) if label in by_label else (np.nan, np.nan)
                 for label in labels)


def taught_field_share(seen: Sequence[float]) -> float:
    """The colour field's share of the taught faces (`vision.classify.field_seen`): its
    FIELD_QUANTILE among them (0 with none taught: a deck with no colour names)."""
    shares = [s for s in seen if np.isfinite(s)]
    return float(np.quantile(shares, FIELD_QUANTILE)) if shares else 0.0


def taught_glyph_height(faces: Sequence[np.ndarray]) -> float:
    """The median height of the corner index glyphs the taught faces show
    (`vision.reader.index_glyph_height`, a share of the card's height; 0 when none shows one)."""
    heights = []
    for face in faces:
        h, w = face.shape[:2]
        height = index_glyph_height(index_regions(face, np.float32([[0, 0], [w, 0], [w, h], [0, h]])))
        if height > 0:
            heights.append(height)
    return float(np.median(heights)) if heights else 0.0


def card_face(image: np.ndarray, aspect: float = CARD_ASPECT, empty_table: np.ndarray | None = None,
              source: str = "picture") -> np.ndarray:
    """The upright face of the single largest card in a picture; a picture that is
    itself card-shaped (a cropped scan) is taken whole."""
    return card_face_and_corners(image, aspect, empty_table, source)[0]


def card_face_and_corners(image: np.ndarray, aspect: float = CARD_ASPECT,
                          empty_table: np.ndarray | None = None,
                          source: str = "picture") -> tuple[np.ndarray, np.ndarray]:
    """`card_face` and the card's corners in the picture."""
    corners, _ = _card_outlines(image, aspect, empty_table, source)
    return warp_card(image, corners, CANONICAL_SIZE), corners


def _card_outlines(image: np.ndarray, aspect: float, empty_table: np.ndarray | None,
                   source: str) -> tuple[np.ndarray, list[np.ndarray]]:
    """The card's corners in a teaching picture (`the_card`), and every outline found."""
    if image is None or image.ndim != 3 or image.shape[2] != 3:
        raise TeachError(why("teach.not_colour", "not a colour picture"), source)
    h, w = image.shape[:2]
    scale = min(1.0, DETECT_WIDTH / max(w, h))
    small = cv2.resize(image, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA) \
        if scale < 1 else image
    table = None
    if empty_table is not None:
        table = EmptyTable.from_image(cv2.resize(empty_table, (small.shape[1], small.shape[0]),
                                                 interpolation=cv2.INTER_AREA))
    # a teaching photo holds a card, of a deck not known yet: its face may be a framed colour field
    settings = DetectSettings(aspect=aspect, second_look=True, real=FIELD_SETTINGS)
    found = [c for c in find_cards(small, table, settings) if _has_detail(small, c.corners)]
    if not found or not shows_paper(_face_of(small, found)):
        # or a full-bleed colour field, no white frame at all: looked for as one, and taken
        # when the card found so shows one colour running to its edge and paper on no side
        # (an oblique framed face shows it on one side at least)
        bleeding = [c for c in find_cards(small, table, dataclasses.replace(settings, real=BLEED_SETTINGS))
                    if _has_detail(small, c.corners)]
        if bleeding and bleeds_colour(_face_of(small, bleeding)):
            found = bleeding
    if found:
        return the_card([c.corners for c in found]) / scale, [c.corners / scale for c in found]
    long, short = max(w, h), min(w, h)
    if abs(long / short - aspect) < 0.04 * aspect:
        return order_corners(np.float32([[0, 0], [w, 0], [w, h], [0, h]])), []
    raise TeachError(why("teach.no_card", "no card found (lay the card flat on a plain table, whole, "
                         "or crop the picture to the card)"), source)


def _face_of(image: np.ndarray, found: list) -> np.ndarray:
    """The face of the card `the_card` takes from the cards found, at the frame check's size."""
    return warp_card(image, order_corners(the_card([c.corners for c in found])), FRAME_SIZE)


def the_card(outlines: list[np.ndarray]) -> np.ndarray:
    """Of the outlines found in a teaching photo (which holds one card), the card's: the
    largest; or, where the two largest are halves of one card (a face printed with a
    tilted white oval on a colour field can be outlined as two halves along the oval's
    edge), the four corners of both together. Measured on protocol 2's phone photos
    (bench/protocols.py): 19 of 151 teaching crops were a half or another thing."""
    by_area = sorted(outlines, key=lambda c: -abs(cv2.contourArea(np.float32(c))))
    largest = np.float32(by_area[0])
    if len(by_area) < 2:
        return largest
    a, b = (abs(cv2.contourArea(np.float32(c))) for c in by_area[:2])
    hull = cv2.convexHull(np.concatenate([largest, np.float32(by_area[1])]).reshape(-1, 1, 2))
    area = abs(cv2.contourArea(hull))
    if not (b >= 0.4 * a and area <= 1.4 * (a + b)):   # not two halves side by side
        return largest
    perimeter = cv2.arcLength(hull, True)
    for share in (0.02, 0.04, 0.06, 0.08):
        quad = cv2.approxPolyDP(hull, share * perimeter, True)
        if len(quad) == 4:
            return order_corners(quad.reshape(4, 2).astype(np.float32))
    return order_corners(cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32))


def _has_detail(image: np.ndarray, corners: np.ndarray) -> bool:
    """Whether a card-shaped outline holds a printed face, not a plain patch of the
    table (a checked cloth has card-shaped squares): grey detail, or ink against the
    face's own paper (a yellow face under a very warm dim lamp shows 5-9 grey levels,
    no more than a cloth's square, but its field stands out from its white as ink)."""
    face = cv2.cvtColor(warp_card(image, corners, (33, 46)), cv2.COLOR_BGR2GRAY)
    if float(face.std()) >= MIN_FACE_DETAIL:
        return True
    return float(ink_planes(warp_card(image, corners, WORK_SIZE), two_levels=True)[3].std()) >= MIN_INK_DETAIL


# --- a folder of photos ---------------------------------------------------------------

def read_labels(labels_csv: str | Path) -> list[tuple[str, str, str]]:
    """(file, label, colour) rows of a labels CSV (columns file,label and optional colour)."""
    path = Path(labels_csv)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise TeachError(why("teach.labels_missing", "there is no labels file {path}", path=str(path))) from None
    except OSError as exc:
        raise TeachError(why("teach.labels_unreadable", "cannot read the labels file {path}: {error}",
                             path=str(path), error=exc.strerror or str(exc))) from None
    except UnicodeDecodeError:
        raise TeachError(why("teach.labels_not_text", "{path} is not a text (CSV) file",
                             path=str(path))) from None
    reader = csv.DictReader(text.splitlines())
    fields = [f.strip().lower() for f in (reader.fieldnames or [])]
    if "file" not in fields or "label" not in fields:
        raise TeachError(why("teach.labels_no_header", "{path}: the first line must name the columns "
                             "file,label (and optionally colour)", path=str(path)))
    rows = []
    for number, row in enumerate(reader, start=2):
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in row.items()}
        if not any(row.values()):
            continue
        if not row.get("file"):
            raise TeachError(why("teach.labels_no_file", "{path} line {line}: no file named",
                                 path=str(path), line=number))
        if not row.get("label"):
            raise TeachError(why("teach.labels_no_label", "{path} line {line}: {file} has no label",
                                 path=str(path), line=number, file=row["file"]))
        rows.append((row["file"], row["label"], row.get("colour", "")))
    if not rows:
        raise TeachError(why("teach.labels_empty", "{path}: no pictures listed", path=str(path)))
    return rows


def teach_folder(images: str | Path, labels_csv: str | Path, name: str | None = None,
                 aspect: float = CARD_ASPECT, on_photo: Callable[[str, Why | None], None] | None = None,
                 progress: Callable[[float], None] | None = None) -> Taught:
    """Teach a deck from a folder of labelled photos (one per card at least). A photo
    that cannot be taught (missing, unreadable, no card found, or a crop too poor to teach
    from or holding no card of the deck while its label has other photos, `taught_shots`)
    is skipped, never the end of
    the run: `Taught.skipped` names each with the reason, and `on_photo(file, why)`
    hears of every photo as it is read (why None: taught). Only when no photo at all can
    be taught is it an error, which names them all (params "files")."""
    folder = Path(images)
    if not folder.is_dir():
        raise TeachError(why("teach.not_folder", "{path} is not a folder of pictures", path=str(folder)))
    session = start_session(name or folder.name, aspect)
    skipped: list[tuple[str, Why]] = []
    for file, label, colour in read_labels(labels_csv):
        reason = None
        image = cv2.imread(str(folder / file), cv2.IMREAD_COLOR)
        if image is None:
            reason = why("picture.unreadable", "missing, or not a picture OpenCV can read")
        else:
            try:
                session = add_frame(session, image, label, colour, source=file)
            except TeachError as exc:
                reason = exc.why
        if reason is not None:
            skipped.append((file, reason))
        if on_photo is not None:
            on_photo(file, reason)
    if not session.shots:
        raise TeachError(Why("teach.none_taught", {"files": [f for f, _ in skipped]},
                             "no photo could be taught: " + "; ".join(f"{f}: {r}" for f, r in skipped)))
    if on_photo is not None:   # said before the training, which leaves them out
        for shot, reason in taught_shots(session.shots)[1]:
            on_photo(shot.source, reason)
    taught = finish(session, progress=progress)
    return dataclasses.replace(taught, skipped=tuple(skipped) + taught.skipped)


# --- the self-check -------------------------------------------------------------------

def second_photo(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The taught face as another photo of the card might show it: one harsh simulated
    camera view of it, back at CANONICAL_SIZE. Views of this are further from the
    training views than views of the taught face itself (those share its light, glare
    and blur), which keeps the self-check honest."""
    view = camera_views(face, rng, 1, harsh=True)[0]
    return cv2.resize(view, CANONICAL_SIZE, interpolation=cv2.INTER_CUBIC)


def self_check(profile: DeckProfile, shots: tuple[Shot, ...] | list[Shot], views: int = 4,
               seed: int = 7, thresholds: Thresholds = Thresholds()) -> SelfCheck:
    """Read `views` fresh harsh camera views of every label (none used in training):
    each of a simulated second photo of the label's first shot (`second_photo`)."""
    rng = np.random.default_rng(seed)
    first: dict[str, Shot] = {}
    for shot in shots:
        first.setdefault(shot.label, shot)
    cases = [(label, camera_views(second_photo(shot.face, rng), rng, 1, harsh=True)[0])
             for label, shot in first.items() for _ in range(views)]
    return _check(profile, cases, views, thresholds)


def held_out_check(profile: DeckProfile, held: Sequence[Shot], views: int = 2, seed: int = 7,
                   thresholds: Thresholds = Thresholds()) -> SelfCheck:
    """Read shots the profile was not trained on: each as it is, and `views` harsh
    camera views of it."""
    rng = np.random.default_rng(seed)
    cases = []
    for shot in held:
        cases.append((shot.label, shot.face))
        cases += [(shot.label, v) for v in camera_views(shot.face, rng, views, harsh=True)]
    each = max(Counter(label for label, _ in cases).values())
    return dataclasses.replace(_check(profile, cases, each, thresholds), held_out=True)


def _check(profile: DeckProfile, cases: list[tuple[str, np.ndarray]], views_each: int,
           thresholds: Thresholds) -> SelfCheck:
    confused: Counter = Counter()
    unsure: Counter = Counter()
    right = 0
    wrong_confidence = 0.0
    known = []
    for label, face in cases:
        reading = classify(face_features(face, profile.ink_cap, two_levels=profile.reader is not None),
                           profile, thresholds)
        if reading.known:
            known.append((reading.confidence, reading.label == label))
        if reading.label == label:
            right += 1
        elif reading.label == UNKNOWN:
            unsure[label] += 1
        else:
            confused[(label, reading.label)] += 1
            wrong_confidence = max(wrong_confidence, reading.confidence)
    return SelfCheck(len(cases), right,
                     tuple((a, b, n) for (a, b), n in confused.most_common()),
                     tuple(unsure.most_common()), similar_colours(profile, thresholds), wrong_confidence,
                     tuple(known), views_each, profile.min_confidence)


def similar_colours(profile: DeckProfile, thresholds: Thresholds = Thresholds()) -> tuple[tuple[str, str], ...]:
    """Pairs of labels told apart by colour alone whose colours are close."""
    similar = []
    for group in set(profile.symbol_class.tolist()):
        members = np.flatnonzero(profile.symbol_class == group)
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                gap = float(np.linalg.norm(profile.colour_protos[a] - profile.colour_protos[b]))
                if gap < 2 * thresholds.max_colour_distance * 0.6:
                    similar.append((profile.labels[a], profile.labels[b]))
    return tuple(similar)
