"""Teaching a physical deck: labelled pictures in, a deck profile and a self-check out.

Two ways in, one way out:

* `teach_folder(images, labels_csv)` reads a folder of photos and a CSV with the columns
  `file,label` and optionally `colour` (labels are free text, so any deck can be
  taught); `deckhand teach` calls it.
* a live `TeachingSession` for the web page: `add_frame(session, frame, label)` finds
  the one card in a camera frame and keeps its face; `finish(session)` builds the
  profile.

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

import cv2
import numpy as np

from vision.classify import UNKNOWN, Thresholds, classify, face_features
from vision.detect import DetectSettings, EmptyTable, find_cards
from vision.profile import VIEWS, DeckProfile, camera_views, measure_frame_insets, profile_from_faces
from vision.warp import CANONICAL_SIZE, CARD_ASPECT, order_corners, warp_card

DETECT_WIDTH = 800   # photos are searched for their card at this width at most
TAUGHT_VIEWS = 24    # simulated camera views per taught label (split among its shots)
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


class TeachError(ValueError):
    """A picture or label that cannot be taught; the message says which and why."""


@dataclass(frozen=True, eq=False)
class Shot:
    label: str
    colour: str
    face: np.ndarray     # upright face, CANONICAL_SIZE
    source: str = ""     # where it came from (a file name, "camera")


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

    def lines(self) -> list[str]:
        total = max(self.views, 1)
        out = [f"self-check: {self.right} of {total} fresh views read right (harsh simulated views"
               " of a simulated second photo of each card, none used in teaching)"]
        for a, b, n in self.confused:
            out.append(f"  likely confused: {a} read as {b} ({n} of the views of {a})")
        for a, n in self.unsure:
            out.append(f"  unsure about {a} ({n} views not read)")
        for a, b in self.similar:
            out.append(f"  {a} and {b} differ only by a close colour")
        if self.needs_more:
            out.append("  show these cards again, in other light or positions: "
                       + ", ".join(self.needs_more[:12]))
        else:
            out.append("  no likely confusions")
        return out


@dataclass(frozen=True, eq=False)
class Taught:
    profile: DeckProfile
    check: SelfCheck


# --- live teaching --------------------------------------------------------------------

def start_session(name: str, aspect: float = CARD_ASPECT) -> TeachingSession:
    if not name.strip():
        raise TeachError("a taught deck needs a name")
    return TeachingSession(name.strip(), aspect)


def add_face(session: TeachingSession, face: np.ndarray, label: str, colour: str = "",
             source: str = "") -> TeachingSession:
    """Keep an upright face image (any size) as one shot of `label`."""
    label, colour = label.strip(), colour.strip().lower()
    if not label:
        raise TeachError(f"{source or 'a picture'}: the label is empty")
    if label == UNKNOWN:
        raise TeachError(f"{source or 'a picture'}: {UNKNOWN!r} cannot be a card's label")
    upright = cv2.resize(face, CANONICAL_SIZE, interpolation=cv2.INTER_AREA)
    return dataclasses.replace(session, shots=session.shots + (Shot(label, colour, upright, source),))


def add_frame(session: TeachingSession, frame: np.ndarray, label: str, colour: str = "",
              empty_table: np.ndarray | None = None, source: str = "camera") -> TeachingSession:
    """Find the one card in a camera frame (or photo) and keep it as a shot of `label`."""
    return add_face(session, card_face(frame, session.aspect, empty_table, source), label, colour, source)


def finish(session: TeachingSession, check_views: int = 4) -> Taught:
    """The profile of the shots so far, and its self-check."""
    if not session.shots:
        raise TeachError("nothing taught yet: show the camera one card at a time")
    faces = [(s.label, s.colour, s.face) for s in session.shots]
    views = max(VIEWS, TAUGHT_VIEWS // max(session.counts().values()))
    profile = profile_from_faces(session.name, faces, session.aspect, views=views, harsh=True,
                                 ink_cap=TAUGHT_INK_CAP, weight_power=TAUGHT_WEIGHT_POWER)
    profile = dataclasses.replace(profile, frame_insets=measure_frame_insets([s.face for s in session.shots[:8]]),
                                  min_confidence=TAUGHT_MIN_CONFIDENCE)
    return Taught(profile, self_check(profile, session.shots, check_views))


def card_face(image: np.ndarray, aspect: float = CARD_ASPECT, empty_table: np.ndarray | None = None,
              source: str = "picture") -> np.ndarray:
    """The upright face of the single largest card in a picture; a picture that is
    itself card-shaped (a cropped scan) is taken whole."""
    if image is None or image.ndim != 3 or image.shape[2] != 3:
        raise TeachError(f"{source}: not a colour picture")
    h, w = image.shape[:2]
    scale = min(1.0, DETECT_WIDTH / max(w, h))
    small = cv2.resize(image, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA) \
        if scale < 1 else image
    table = None
    if empty_table is not None:
        table = EmptyTable.from_image(cv2.resize(empty_table, (small.shape[1], small.shape[0]),
                                                 interpolation=cv2.INTER_AREA))
    found = find_cards(small, table, DetectSettings(aspect=aspect))
    if found:
        corners = found[0].corners / scale
        return warp_card(image, corners, CANONICAL_SIZE)
    long, short = max(w, h), min(w, h)
    if abs(long / short - aspect) < 0.04 * aspect:
        corners = order_corners(np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
        return warp_card(image, corners, CANONICAL_SIZE)
    raise TeachError(f"{source}: no card found (lay the card flat on a plain table, whole, "
                     "or crop the picture to the card)")


# --- a folder of photos ---------------------------------------------------------------

def read_labels(labels_csv: str | Path) -> list[tuple[str, str, str]]:
    """(file, label, colour) rows of a labels CSV (columns file,label and optional colour)."""
    path = Path(labels_csv)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise TeachError(f"cannot read the labels file {path}: {exc.strerror or exc}") from None
    reader = csv.DictReader(text.splitlines())
    fields = [f.strip().lower() for f in (reader.fieldnames or [])]
    if "file" not in fields or "label" not in fields:
        raise TeachError(f"{path}: the first line must name the columns file,label (and optionally colour)")
    rows = []
    for number, row in enumerate(reader, start=2):
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in row.items()}
        if not any(row.values()):
            continue
        if not row.get("file"):
            raise TeachError(f"{path} line {number}: no file named")
        if not row.get("label"):
            raise TeachError(f"{path} line {number}: {row['file']} has no label")
        rows.append((row["file"], row["label"], row.get("colour", "")))
    if not rows:
        raise TeachError(f"{path}: no pictures listed")
    return rows


def teach_folder(images: str | Path, labels_csv: str | Path, name: str | None = None,
                 aspect: float = CARD_ASPECT) -> Taught:
    """Teach a deck from a folder of labelled photos (one per card at least)."""
    folder = Path(images)
    if not folder.is_dir():
        raise TeachError(f"{folder} is not a folder of pictures")
    session = start_session(name or folder.name, aspect)
    for file, label, colour in read_labels(labels_csv):
        path = folder / file
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise TeachError(f"{path}: missing or not a picture OpenCV can read")
        session = add_frame(session, image, label, colour, source=file)
    return finish(session)


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
    confused: Counter = Counter()
    unsure: Counter = Counter()
    right = 0
    wrong_confidence = 0.0
    known = []
    for label, shot in first.items():
        for _ in range(views):
            face = camera_views(second_photo(shot.face, rng), rng, 1, harsh=True)[0]
            reading = classify(face_features(face, profile.ink_cap), profile, thresholds)
            if reading.known:
                known.append((reading.confidence, reading.label == label))
            if reading.label == label:
                right += 1
            elif reading.label == UNKNOWN:
                unsure[label] += 1
            else:
                confused[(label, reading.label)] += 1
                wrong_confidence = max(wrong_confidence, reading.confidence)
    similar = []
    for group in set(profile.symbol_class.tolist()):
        members = np.flatnonzero(profile.symbol_class == group)
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                gap = float(np.linalg.norm(profile.colour_protos[a] - profile.colour_protos[b]))
                if gap < 2 * thresholds.max_colour_distance * 0.6:
                    similar.append((profile.labels[a], profile.labels[b]))
    return SelfCheck(views * len(first), right,
                     tuple((a, b, n) for (a, b), n in confused.most_common()),
                     tuple(unsure.most_common()), tuple(similar), wrong_confidence,
                     tuple(known), views, profile.min_confidence)
