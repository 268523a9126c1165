"""Finding card faces in a camera frame: outlines to quadrilaterals of card shape.

How (and why this way):

* Edges come from intensity gradients (Canny), which do not care whether the table is
  light or dark. When a picture of the empty table is known (taken at start-up), pixels
  that did not change are table, so edges of the cloth's texture are dropped and the
  outline of what changed is added: a light card on a light cloth still gets an outline.
* The image is cut into cells along the edges. A card lying on top shows its whole
  outline, so its face is one cell bounded by four straight sides, whatever sticks out
  beneath it. A card partly covered by a finger or another card has a dented or cut
  outline and is not reported (the fill and outline-support checks below).
* A cell's outline is fitted with four lines (which also recovers rounded corners), and
  kept only if its sides have the card's aspect, its corners are near right angles and
  the fitted quadrilateral is nearly filled by the cell.

What does not live here: reading what a card is (`vision.classify`), the warp itself
(`vision.warp`), zones and time (`vision.track`).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.courtframes import CourtSettings
from vision.occludercuts import CutSettings
from vision.realfind import RealSettings, find_outlines
from vision.wholecards import WholeSettings
from vision.warp import (CARD_ASPECT, along_and_across, length_of, order_corners, quad_contains, quad_overlap,
                         side_lengths)


STRONG = 4  # strong edges: Canny thresholds this many times the ordinary ones
FRAME_AGREES = 0.12  # an edge group and a printed frame's outline this near (share of
                     # the short side) are one card (a shadow or a faint edge: 0.07)
# taught decks and teaching photos: the real-table outlines and framed colour fields
FIELD_SETTINGS = RealSettings(framed_fields=True)
# Reading a taught deck whose faces are framed colour fields: a card running off the frame
# whose inside is under a quarter paper-white (`RealSettings.min_cut_paper`, set for white
# playing cards: a patch of wood grain or a shadow cut by the border is not a card) is
# still taken when a white frame runs round it outside (`cut_framed`: a wild's black field,
# 0.00-0.05 paper-white inside, framed 1.00 all round; 18 patches of table refused for
# their paper on the edge photos framed at most 0.73). bench/protocols.py --stress edge
# (right / wrong / unknown / not found): protocol 1 150 / 0 / 6 / 6 -> 155 / 0 / 7 / 0 (the
# six wilds found, grown out to their frame: `regionjudge._framed_cut`), protocol 2 75 / 2 / 21
# / 10 -> 75 / 2 / 22 / 9. No paper asked at all (min_cut_paper 0): protocol 2 75 / 2 / 23 /
# 8, 5 patches of table more outlined and a Wild read right before "unknown". Teaching keeps
# FIELD_SETTINGS (its photos show the card whole). A framed field running off the frame with
# its oval outlined from the field (`cut_fields`, `vision.fieldfind._grown_cut`; session 21,
# made cheap in session 22: a field near one border only, from the quad already fitted): on
# fresh edge draws (seeds 120-123, protocol 2) 7 cards more found (4 read right, 3 "unknown",
# none wrong) for +1.6 % a colour photo's read (the base set's 152.15 -> 154.57 M
# instructions; session 21's version +19.6 % with its border gate, +34 % without).
READ_FIELD_SETTINGS = RealSettings(framed_fields=True, cut_framed=0.9, pale_fields=True, cut_fields=True)
# A taught deck with colours whose faces print no white frame (`DeckProfile.white_frame`
# False: the colour field runs to the card's edge), and teaching photos whose card shows
# no frame: the same, and full-bleed faces outlined from every stretched channel's edges,
# the colour step and the whole field (`RealSettings.full_bleed`; `--stress no-frame`
# protocol 1 56.2 -> 99.4 %, docs/vision-history.md). Decks that print the frame keep FIELD_SETTINGS
# (on their photos it found 4 of 108 cards fewer whole).
BLEED_SETTINGS = RealSettings(framed_fields=True, full_bleed=30)
# Reading a full-bleed deck: cells joined across the edges between them too (an oval
# reaching both long sides cuts the field in two; `RealSettings.joined_cells`). Teaching
# keeps BLEED_SETTINGS (joined there, no-frame protocol 2 skipped 7 -> 9 teaching photos).
READ_BLEED_SETTINGS = RealSettings(framed_fields=True, full_bleed=30, joined_cells=True, pale_fields=True)
# A deck whose face is no colour field (Deckhand's own printings, standard playing cards):
# the regions of saturated colour left out. On the real photos' train_ split they found no
# card the other maps did not (found isolated 321, all 445 -> 446; false outlines 70 -> 65)
# and cost about a tenth of the finding (docs/vision-history.md, "Session 8, frame-fast").
PLAIN_SETTINGS = RealSettings(colour_fields=False)
# A taught deck whose face is no colour field (standard playing cards, a deck taught from
# photos): the same, and the learned outline scorer has the last say over the outlines kept
# and refused (`vision.outlinescore`, trained on real photos of playing cards; held-out
# test_ photos: isolated cards found 89.7 -> 92.8 %, docs/vision-history.md). Built-in decks keep
# PLAIN_SETTINGS. The top card of a fan merged into one outline looked for in it
# (`WholeSettings.group_tops`: train_ all 464 -> 466 of 519, false 42 -> 40; docs/vision-history.md).
# A court card lost in a white cloth or a light counter grown from its printed picture
# (`vision.courtframes`: train_ all 469 -> 472, false 40 -> 38; docs/vision-history.md).
# A card under a book as white as its paper cut from it along the book's edge
# (`vision.occludercuts`: train_ all 472 -> 475, false 38 -> 38; docs/vision-history.md).
LEARNED_SETTINGS = RealSettings(colour_fields=False, learned=True, trim_spurs=0.12, print_groups=0.06,
                                print_chance=0.5, whole=WholeSettings(group_tops=1.25, top_sides=0.75),
                                court=CourtSettings(), occluder_cuts=CutSettings())


@dataclass(frozen=True)
class DetectSettings:
    aspect: float = CARD_ASPECT          # long side / short side of the deck's cards
    aspect_tolerance: float = 0.20       # relative, after roughly undoing perspective (a
                                         # 19-degree tilt stretches a card at the picture's
                                         # edge to 1.2 times its aspect through a 58-degree lens)
    min_short_side: float = 22.0         # pixels; smaller things are not cards
    max_area_fraction: float = 0.5       # of the frame
    min_fill: float = 0.88               # cell area / fitted quad area
    min_support: float = 0.85            # share of the outline the cell actually follows
    min_edge_support: float = 0.95       # ... or, for the inside of a printed frame whose
    rescue_support: float = 0.6          # card edge is found too, at least rescue_support
                                         # and this share of the fitted outline on edges
    max_corner_skew_deg: float = 14.0    # how far a corner may be from 90 degrees
    canny_low: int = 24
    canny_high: int = 64
    change_threshold: int = 22           # minimum colour change that counts as "not table"
    frame_insets: tuple[float, ...] = () # printed frames inside the card's edge, as a
                                         # share of its short side (from the deck profile)
    strong_cells: bool = False           # also cells between strong edges only (taught decks)
    bright_cells: bool = False           # also cells between the edges of the highlights
                                         # (built-in decks: a card's edge under a lamp's glare)
    frame_outlines: bool = False         # an edge group's outline taken from the inside of
                                         # the printed frame it holds (built-in decks)
    real: RealSettings | None = RealSettings()  # with no empty table: the real-table
                                         # outlines (None: the exact sources instead)
    second_look: bool = False            # ... and the exact sources when those find nothing
                                         # (a teaching photo, which holds a card)


@dataclass(frozen=True, eq=False)
class FoundCard:
    """One card face found in a frame: corners TL, TR, BR, BL in image pixels (float32,
    shape 4x2), upright up to a 180-degree turn."""

    corners: np.ndarray
    rank: int = 0          # the source that outlined it (`detect`'s cards come in (rank, larger) order)

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def short_side(self) -> float:
        return side_lengths(self.corners)[0]


@dataclass(frozen=True, eq=False)
class EmptyTable:
    """The picture of the empty table taken at start-up, with what detection needs from
    it computed once: its smoothed pixels and its own edges (cloth texture, table seams)."""

    image: np.ndarray
    edges: np.ndarray

    @staticmethod
    def from_image(image: np.ndarray, settings: "DetectSettings | None" = None) -> "EmptyTable":
        settings = settings or DetectSettings()
        smooth = cv2.GaussianBlur(image, (3, 3), 0)
        edges = _canny(smooth, settings)
        return EmptyTable(smooth, cv2.dilate(edges, np.ones((5, 5), np.uint8)))


def change_mask(frame: np.ndarray, empty: np.ndarray, threshold: int) -> np.ndarray:
    """Pixels that differ from the empty table (uint8 0/255). The threshold adapts to the
    frame's noise: the typical difference is mostly table, so a multiple of it is what
    counts as change."""
    diff = cv2.absdiff(frame, empty)
    if diff.ndim == 3:
        b, g, r = cv2.split(diff)
        diff = cv2.max(cv2.max(b, g), r)
    diff = cv2.blur(diff, (5, 5))  # camera noise must not speckle the mask
    noise = median_level(diff[::4, ::4])
    _, mask = cv2.threshold(diff, max(threshold, 4.0 * noise), 255, cv2.THRESH_BINARY)
    return mask


def median_level(grey: np.ndarray) -> float:
    """`np.median` of a uint8 picture (the mean of the two middle levels when they are two),
    from its histogram: a quarter of the cost of sorting."""
    n = grey.size
    if not n:
        return float("nan")
    below = np.cumsum(np.bincount(grey.ravel(), minlength=256))
    return (int(np.searchsorted(below, (n - 1) // 2, side="right"))
            + int(np.searchsorted(below, n // 2, side="right"))) / 2


def _canny(smooth: np.ndarray, settings: DetectSettings) -> np.ndarray:
    gray = cv2.cvtColor(smooth, cv2.COLOR_BGR2GRAY) if smooth.ndim == 3 else smooth
    return cv2.Canny(gray, settings.canny_low, settings.canny_high, L2gradient=True)


@dataclass(frozen=True, eq=False)
class Detection:
    """What one frame shows: the cards found, and (when the empty table is known) the
    mask of pixels that differ from it, which tells an empty zone from a covered one."""

    cards: tuple[FoundCard, ...]
    changed: np.ndarray | None

    def scaled(self, factor: float, size: tuple[int, int]) -> "Detection":
        """The same detection for the frame `factor` times larger, of `size` (w, h)."""
        cards = tuple(FoundCard((c.corners * factor).astype(np.float32), c.rank) for c in self.cards)
        changed = None if self.changed is None else \
            cv2.resize(self.changed, size, interpolation=cv2.INTER_NEAREST)
        return Detection(cards, changed)

    def changed_fraction(self, rect: tuple[float, float, float, float]) -> float | None:
        """Share of a normalised rectangle (x0, y0, x1, y1) that is not empty table, or
        None when no empty-table picture is known."""
        if self.changed is None:
            return None
        h, w = self.changed.shape
        x0, y0, x1, y1 = (int(round(v)) for v in (rect[0] * w, rect[1] * h, rect[2] * w, rect[3] * h))
        window = self.changed[max(0, y0):max(0, y1), max(0, x0):max(0, x1)]
        return float(np.count_nonzero(window)) / window.size if window.size else 0.0


def changed_pixels(smooth: np.ndarray, table: EmptyTable, settings: DetectSettings) -> np.ndarray:
    """The mask of what differs from the empty table, in a frame smoothed as `outlines`
    smooths it, opened (specks and slivers dropped)."""
    changed = change_mask(smooth, table.image, settings.change_threshold)
    return cv2.morphologyEx(changed, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))


def outlines(frame: np.ndarray, table: EmptyTable | None, settings: DetectSettings,
             changed: np.ndarray | None = None):
    """Candidate outlines, in order of trust, each source with how far its outlines lie
    inside the card's edge (pixels; negative: outside):

    1. the outer boundary of each connected group of edges: a lone card's outline and its
       printed frame make one thick band whose outside is the card's edge;
    2. the cells between edges: a card on top of a pile (its outline touches the edges of
       the cards beneath, so it is no group of its own);
    3. when the empty table is known, the regions that changed (a light card on a light
       cloth may have faint edges; these take in the card's shadow, so they come last).

    The frame's edges are taken without the empty table's own edges where nothing
    changed (cloth texture, table seams).

    Returns the sources as (contours, inset) pairs, the changed mask (or None) and the
    thickened edge map. `changed`: that mask computed already (a part of the frame is
    searched with the whole frame's mask cut to it: its noise level is the frame's)."""
    smooth = cv2.GaussianBlur(frame, (3, 3), 0)
    edges = _canny(smooth, settings)
    keep = None  # where edges may be: not the empty table's own edges where nothing changed
    if table is None:
        changed = None
    else:
        if changed is None:
            changed = changed_pixels(smooth, table, settings)
        unchanged = cv2.bitwise_not(cv2.dilate(changed, np.ones((5, 5), np.uint8)))
        keep = cv2.bitwise_not(cv2.bitwise_and(table.edges, unchanged))
        edges = cv2.bitwise_and(edges, keep)
    thick = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    groups, _ = cv2.findContours(thick, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    contours, hierarchy = cv2.findContours(cv2.bitwise_not(thick), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    cells = [] if hierarchy is None else [c for c, link in zip(contours, hierarchy[0]) if link[3] == -1]
    found = [(list(groups), -2.2), (cells, 1.5)]
    if changed is not None:
        blobs, _ = cv2.findContours(changed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        found.append((list(blobs), -1.6))
    if settings.strong_cells:
        found.append((_strong_cells(smooth, settings, keep, changed), 1.5))
    return found, changed, thick


CLIPPED = 250         # every channel at least this: white, whatever lies there
HIGHLIGHT_GAMMA = 3.0  # the smallest channel raised to this power: contrast near white x3
_HIGHLIGHTS = (255 * (np.arange(256) / 255.0) ** HIGHLIGHT_GAMMA).round().astype(np.uint8)
HIGHLIGHT_BLURS = (3, 5)  # Gaussian kernels before the highlights are stretched, in turn (`_bright_cells`)


def _unexplained(frame: np.ndarray, changed: np.ndarray, quads: list[np.ndarray],
                 min_area: float) -> list[tuple[int, int, int, int]]:
    """Rectangles (x, y, w, h) around what changed and no card found explains, where a
    card the ordinary edges missed may lie: a region at least 15 % of the typical card
    found (`min_area` when none was; a glare-washed card may show little change),
    grown by a quarter of that card's short side. Usually only hands and the cards
    beneath a pile's top: a fifth of the frame on the bench's 8-card scenes, so a second
    look there costs a fraction of a look at the whole frame."""
    # Where the picture is clipped white (a lamp's glare on card and table alike) nothing
    # looks changed, though a card may lie there.
    rest = cv2.bitwise_or(changed, cv2.inRange(frame, (CLIPPED,) * 3, (255,) * 3))
    for quad in quads:
        cv2.fillConvexPoly(rest, np.round(quad).astype(np.int32), 0)
    areas = sorted(cv2.contourArea(q) for q in quads)
    card = max(min_area, areas[len(areas) // 2]) if areas else min_area
    rest = cv2.morphologyEx(rest, cv2.MORPH_OPEN, np.ones((7, 7), np.uint8))  # shadows, slivers
    regions, _ = cv2.findContours(rest, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    h, w = changed.shape
    pad = int(0.25 * np.sqrt(card))
    rects = []
    for region in regions:
        if cv2.contourArea(region) >= 0.15 * card:
            x, y, bw, bh = cv2.boundingRect(region)
            x0, y0 = max(0, x - pad), max(0, y - pad)
            rects.append((x0, y0, min(w, x + bw + pad) - x0, min(h, y + bh + pad) - y0))
    return rects


def _bright_cells(frame: np.ndarray, table: "EmptyTable | None", changed: np.ndarray | None,
                  rects: list[tuple[int, int, int, int]], settings: DetectSettings,
                  blur: int = HIGHLIGHT_BLURS[0]) -> list[np.ndarray]:
    """The cells between the edges of the smallest colour channel with its highlights
    stretched, within `rects`. A white card differs from a pale or coloured table most
    in its smallest channel, and a lamp's glare (or a motion-blurred edge on a bright
    table) squeezes that difference into the last few grey levels below white, where
    the grey picture's edges fall under Canny's thresholds: raised to the third power,
    a step from 235 to 250 grows from 15 to 38 levels. The frame line of a card under
    glare closes again, and its inside is a cell. As for the ordinary edges, the empty
    table's own edges are left out where nothing changed. `blur`: the Gaussian kernel the
    crop is smoothed with first (stretched near white, a camera's noise of 2-4 levels
    speckles a card's white with edges that cut its frame's cell; 5 pixels smooth them
    away, and lose some cells 3 pixels find)."""
    cells = []
    h, w = frame.shape[:2]
    for x, y, bw, bh in rects:
        crop = cv2.GaussianBlur(frame[y:y + bh, x:x + bw], (blur, blur), 0)
        lowest = cv2.min(cv2.min(crop[..., 0], crop[..., 1]), crop[..., 2]) if crop.ndim == 3 else crop
        edges = cv2.Canny(cv2.LUT(lowest, _HIGHLIGHTS), settings.canny_low, settings.canny_high, L2gradient=True)
        if table is not None and changed is not None:
            unknown = cv2.bitwise_or(changed[y:y + bh, x:x + bw], cv2.inRange(crop, (CLIPPED,) * 3, (255,) * 3))
            unchanged = cv2.bitwise_not(cv2.dilate(unknown, np.ones((9, 9), np.uint8)))
            edges = cv2.bitwise_and(edges, cv2.bitwise_not(cv2.bitwise_and(table.edges[y:y + bh, x:x + bw],
                                                                           unchanged)))
        thick = cv2.dilate(edges, np.ones((3, 3), np.uint8))
        contours, hierarchy = cv2.findContours(cv2.bitwise_not(thick), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE,
                                               offset=(int(x), int(y)))
        if hierarchy is None:
            continue
        # A cell cut off by the rectangle's side (inside the frame) is a rectangle's
        # shape, not a card's: a mug in a square of table would be a card.
        x0, y0 = x + 1 if x > 0 else -1, y + 1 if y > 0 else -1
        x1, y1 = x + bw - 2 if x + bw < w else w, y + bh - 2 if y + bh < h else h
        for contour, link in zip(contours, hierarchy[0]):
            cx, cy, cw, ch = cv2.boundingRect(contour)
            if link[3] == -1 and cx > x0 and cy > y0 and cx + cw - 1 < x1 and cy + ch - 1 < y1:
                cells.append(contour)
    return cells


def _strong_cells(smooth: np.ndarray, settings: DetectSettings, keep: np.ndarray | None,
                  changed: np.ndarray | None) -> list[np.ndarray]:
    """The cells between strong edges only: a printed panel crossed by a faint printed
    stripe (or a glossy streak) is one cell here, where the ordinary cells are two. With
    the empty table known, its own edges are left out and a cell must lie on what
    changed (a checked cloth's squares are cells of card-like shape too)."""
    gray = cv2.cvtColor(smooth, cv2.COLOR_BGR2GRAY) if smooth.ndim == 3 else smooth
    strong = cv2.Canny(gray, settings.canny_low * STRONG, settings.canny_high * STRONG, L2gradient=True)
    if keep is not None:
        strong = cv2.bitwise_and(strong, keep)
    thick = cv2.dilate(strong, np.ones((3, 3), np.uint8))
    contours, hierarchy = cv2.findContours(cv2.bitwise_not(thick), cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
    cells = [] if hierarchy is None else [c for c, link in zip(contours, hierarchy[0]) if link[3] == -1]
    if changed is None:
        return cells
    h, w = changed.shape
    out = []
    for cell in cells:
        x, y = cell.reshape(-1, 2).mean(axis=0)
        if changed[min(h - 1, max(0, int(y))), min(w - 1, max(0, int(x)))]:
            out.append(cell)
    return out


def find_cards(frame: np.ndarray, table: EmptyTable | None = None,
               settings: DetectSettings = DetectSettings()) -> tuple[FoundCard, ...]:
    """Every card face whose whole outline is visible, largest first. `table` is the
    empty table seen at start-up, if known (it makes textured cloth harmless)."""
    return detect(frame, table, settings).cards


@dataclass(frozen=True, eq=False)
class FramePart:
    """`detect`'s frame is a part cut from a larger frame (`vision.regions`): the larger
    frame's changed mask cut to it (its noise level is the whole frame's), the larger
    frame's area (the largest card allowed), and the box (x0, y0, x1, y1, in the part's
    pixels) an outline must lie within: an outline reaching a side where the part was
    cut is cut too, and must neither be a card nor hide one (the part's own outside, a
    cell the size of the part, would be a card-shaped cell holding every card in it)."""

    changed: np.ndarray
    frame_area: float
    within: tuple[int, int, int, int]


def detect(frame: np.ndarray, table: EmptyTable | None = None,
           settings: DetectSettings = DetectSettings(), part: FramePart | None = None,
           changed: np.ndarray | None = None) -> Detection:
    """The cards of `find_cards` and the changed-pixels mask (`part`: of a part of a
    larger frame; `changed`: the whole frame's mask, `changed_pixels`, computed already)."""
    if table is None and settings.real is not None:
        # A photograph with no picture of the empty table (`deckhand recognize`, teaching
        # from photos, a camera not yet set up): the real-table outlines alone. On real
        # photos they find what the exact sources below add (bench/realphotos_find.py),
        # at a fraction of the cost: they work on a half-size copy.
        found = find_outlines(frame, settings.real)
        if found or not settings.second_look:
            return Detection(tuple(FoundCard(q) for q in found), None)
    h, w = frame.shape[:2]
    min_area = settings.min_short_side ** 2 * settings.aspect
    max_area = settings.max_area_fraction * (part.frame_area if part else h * w)
    sources, changed, thick = outlines(frame, table, settings, part.changed if part else changed)
    candidates: list[tuple[int, float, np.ndarray]] = []   # (source rank, area, quad)
    by_frames: list[np.ndarray] = []   # the card outlines that printed frames' insides give

    def consider(rank: int, contours, inset: float, late: bool, envelope: bool = False) -> None:
        """Fit each contour of a source; a late source only adds cards where none was
        found (its contour's centre lies in no card outlined before). `envelope`: a
        contour that fits no card is fitted again along its convex hull (`_envelope`)."""
        for contour in contours:
            area = cv2.contourArea(contour)
            if not min_area <= area <= max_area:
                continue
            if part is not None and not _within(contour, part.within):
                continue
            if late and any(quad_contains(q, contour.reshape(-1, 2).mean(axis=0)) for _, _, q in candidates):
                continue  # around (or inside) a card already outlined: nothing new
            framed = inset > 0 and bool(settings.frame_insets)
            quad, rescued = _fit(contour, area, settings, inset, thick if framed else None)
            if quad is None and envelope:
                quad, rescued = _fit(contour, area, settings, inset, thick if framed else None, envelope=True)
            if quad is None:
                continue
            if inset > 0:  # a cell may be the inside of a printed frame
                inner = quad
                quad = _outer_frame(quad, thick, settings.frame_insets)
                if framed and rank == 1 and settings.frame_outlines:
                    by_frames.append(quad if quad is not inner else _frame_grown(inner, settings.frame_insets[0]))
                if not _card_aspect(quad, settings) or (rescued and quad is inner):
                    continue  # the inside of a frame whose card edge was not found
            candidates.append((rank, float(cv2.contourArea(quad)), quad))

    for rank, (contours, inset) in enumerate(sources[:2]):
        consider(rank, contours, inset, late=False)
    # An edge group's outside follows the card's edge where it stands out, but takes in
    # the shadow beside it and, where the edge is faint, the printed frame line instead
    # (a small card on a pale table: 4-5 px off at a corner, its 8 read as a 5). The
    # inside of the printed frame is ink on white paper, and the deck's frame inset says
    # where the card's edge is from there: that outline replaces the group's.
    if by_frames:
        for i, (rank, _, quad) in enumerate(candidates):
            if rank == 0:
                quad = _by_frame(quad, by_frames)
                candidates[i] = (rank, float(cv2.contourArea(quad)), quad)
    rank = 2
    if settings.bright_cells:
        unexplained = _unexplained(frame, changed, [q for _, _, q in candidates], min_area) \
            if changed is not None else [(0, 0, w, h)]
        # smoothed more only where less smoothing found no card (a late source)
        for blur in HIGHLIGHT_BLURS:
            consider(rank, _bright_cells(frame, table, changed, unexplained, settings, blur), 1.5, late=True,
                     envelope=True)
        rank += 1
    # The changed regions take in a card's shadow: they only add cards where none was
    # found. The strong cells (last) are cells of their own.
    for contours, inset in sources[2:]:
        consider(rank, contours, inset, late=changed is not None and rank == 2 + settings.bright_cells)
        rank += 1
    # Two cards side by side make a rectangle of nearly a card's shape (2 x 63 by 88 mm),
    # and so does a card lying on another shifted along its length: an outline holding
    # two smaller candidates, or one a little smaller and off its centre, is a group of
    # cards, not a card.
    candidates = [c for c in candidates if not _holds_two(c, candidates)
                  and not _holds_shifted(c, candidates)]
    # Edge groups first, then cells: both follow the card's own edge. A changed region
    # also takes in the card's shadow, so it only counts where nothing else was found.
    candidates.sort(key=lambda c: (c[0], -c[1]))
    kept: list[FoundCard] = []
    for rank, _, quad in candidates:
        if all(quad_overlap(quad, other.corners) < 0.3 for other in kept):
            kept.append(FoundCard(quad, rank))
    return Detection(tuple(kept), changed)


ENVELOPE_GAP = 1.5   # pixels: a contour's points this near its convex hull are its envelope


def _envelope(points: np.ndarray, hull: np.ndarray) -> np.ndarray:
    """The points (a contour's, float32 N x 2) on its convex hull, within ENVELOPE_GAP: a
    frame's inside under glare is dented by the corner index printed against the frame
    line, the dent a quarter of a short side, and a side fitted through the dent leans (a
    corner 16 degrees from square where the card's is 10); along the envelope it does not."""
    near = [cv2.pointPolygonTest(hull, (float(x), float(y)), True) < ENVELOPE_GAP for x, y in points]
    return points[np.array(near, bool)]


def _within(contour: np.ndarray, box: tuple[int, int, int, int]) -> bool:
    x, y, w, h = cv2.boundingRect(contour)
    return x >= box[0] and y >= box[1] and x + w <= box[2] and y + h <= box[3]


def fit_card_quad(contour: np.ndarray, area: float, settings: DetectSettings,
                  inset: float = 1.5) -> np.ndarray | None:
    """Four ordered corners of a card outline fitted to `contour`, or None when the
    contour is not a whole card. `inset`: how far the contour lies inside the edge; a
    cell (inset > 0) may be the inside of a printed frame, whose shape is a little
    longer than the card's (`_outer_frame` grows it after)."""
    return _fit(contour, area, settings, inset)[0]


def _fit(contour: np.ndarray, area: float, settings: DetectSettings, inset: float,
         edges: np.ndarray | None = None, envelope: bool = False) -> tuple[np.ndarray | None, bool]:
    """`fit_card_quad`, and whether the outline was rescued: with `edges` (the thickened
    edge map) a contour that follows the fitted outline only partly (a corner index
    printed against the frame line cuts into the frame's inside) passes when the edges
    run along the outline nearly all round. The caller must then find the card's edge
    around it: an outline on edges all round may also be two cards' edges in line.
    `envelope`: the sides are fitted to the contour's points on its hull (`_envelope`)."""
    hull = cv2.convexHull(contour)
    if area < (settings.min_fill - 0.05) * cv2.contourArea(hull):
        return None, False  # dented: not one whole card (cheap test before any fitting)
    perimeter = cv2.arcLength(hull, True)
    rough = None
    for eps in (0.02, 0.035, 0.05):
        approx = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(approx) == 4:
            rough = approx.reshape(4, 2).astype(np.float32)
            break
    if rough is None:
        return None, False
    short, long = side_lengths(rough)
    framed = inset > 0 and bool(settings.frame_insets)
    aspect = _frame_aspect(settings) if framed else settings.aspect
    if short < settings.min_short_side * 0.8 or \
            abs(long / max(short, 1e-6) - aspect) > 2 * settings.aspect_tolerance * settings.aspect:
        return None, False
    points = contour.reshape(-1, 2).astype(np.float32)
    along = _envelope(points, hull) if envelope else points
    lines = []
    for i in range(4):
        line = _fit_side(along, rough[i], rough[(i + 1) % 4])
        if line is None:
            return None, False
        lines.append(line)
    corners = []
    for i in range(4):
        corner = _intersect(lines[i - 1], lines[i])
        if corner is None:
            return None, False
        corners.append(corner)
    quad = np.array(corners, dtype=np.float32)
    if not cv2.isContourConvex(quad.reshape(-1, 1, 2)):
        return None, False
    quad_area = cv2.contourArea(quad)
    if quad_area <= 0 or area / quad_area < settings.min_fill:
        return None, False
    support = _support(points, quad)
    if support < (settings.min_support if edges is None else settings.rescue_support):
        return None, False
    quad = _grow(quad, inset)
    short, long = side_lengths(quad)
    if short < settings.min_short_side:
        return None, False
    if not _card_aspect(quad, settings) and not (framed and _card_aspect(quad, settings, aspect)):
        return None, False
    if _max_corner_skew(quad) > settings.max_corner_skew_deg:
        return None, False
    if support < settings.min_support and _edge_support(quad, edges) < settings.min_edge_support:
        return None, False
    return order_corners(quad), support < settings.min_support


def _frame_aspect(settings: DetectSettings) -> float:
    """Long side over short side of the inside of the deck's printed frame (the first
    inset): a card's aspect A with a frame s of its width inside is (A - 2s) / (1 - 2s)."""
    s = settings.frame_insets[0]
    return (settings.aspect - 2 * s) / (1 - 2 * s)


def _card_aspect(quad: np.ndarray, settings: DetectSettings, aspect: float | None = None) -> bool:
    short, long = side_lengths(quad)
    aspect = settings.aspect if aspect is None else aspect
    return abs(long / max(short, 1e-6) - aspect) <= settings.aspect_tolerance * settings.aspect


def _edge_support(quad: np.ndarray, edges: np.ndarray) -> float:
    """How much of the quad's outline (the middle 80% of each side) lies on the edge map
    within a pixel; the weakest side counts double, as in `_support`."""
    h, w = edges.shape
    shares = []
    for _, points, _ in _side_samples(quad, 1.0):
        xs = np.round(points[:, 0]).astype(int)
        ys = np.round(points[:, 1]).astype(int)
        hits = np.zeros(len(points), bool)
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                hits |= edges[np.clip(ys + dy, 0, h - 1), np.clip(xs + dx, 0, w - 1)] > 0
        inside = (xs >= 0) & (xs < w) & (ys >= 0) & (ys < h)
        shares.append(float(hits[inside].mean()) if inside.any() else 0.0)
    return (sum(shares) + min(shares)) / 5


def _fit_side(points: np.ndarray, a: np.ndarray, b: np.ndarray):
    """A line (point, unit direction) fitted to the contour points along side a-b."""
    length, _, along, across = along_and_across(points, a, b)
    if length < 4:
        return None
    tolerance = max(3.0, 0.12 * length)  # wide: the fits below keep to the main line
    near = (np.abs(across) < tolerance) & (along > 0.1 * length) & (along < 0.9 * length)
    chosen = points[near]
    if len(chosen) < max(6, 0.25 * length):
        return None
    vx, vy, x0, y0 = cv2.fitLine(chosen, cv2.DIST_L2, 0, 0.01, 0.01).ravel()
    off = np.abs((chosen[:, 0] - x0) * vy - (chosen[:, 1] - y0) * vx)
    if off.max() > 1.5:
        # Not one straight run: a printed corner index touching the frame line dents a
        # cell's side, and a dent of a fifth of the side pulls a least-squares line a
        # pixel or two off (the face is then read misaligned). A robust fit, then least
        # squares on the points near it.
        vx, vy, x0, y0 = cv2.fitLine(chosen, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        off = np.abs((chosen[:, 0] - x0) * vy - (chosen[:, 1] - y0) * vx)
        inliers = chosen[off < 1.5]
        if len(inliers) >= max(6, 0.5 * len(chosen)):
            vx, vy, x0, y0 = cv2.fitLine(inliers, cv2.DIST_L2, 0, 0.01, 0.01).ravel()
    return np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)


def _support(points: np.ndarray, quad: np.ndarray) -> float:
    """How much of the quad's outline the contour follows within 2 pixels (the middle
    80% of each side; rounded corners are no evidence either way): low when a finger or
    another card cuts into the outline. The weakest side counts double."""
    shares = []
    for i in range(4):
        length, u, along, across = along_and_across(points, quad[i], quad[(i + 1) % 4])
        on_side = (np.abs(across) < 2.0) & (along >= 0.1 * length) & (along < 0.9 * length)
        # an 8-connected contour has one pixel per step of the larger coordinate
        expected = 0.8 * length * max(abs(float(u[0])), abs(float(u[1])))
        shares.append(min(1.0, np.count_nonzero(on_side) / max(expected, 1.0)))
    return (sum(shares) + min(shares)) / 5


def _holds_two(candidate, candidates) -> bool:
    _, area, quad = candidate
    inside = [q for _, a, q in candidates if a < 0.7 * area and quad_contains(quad, q.mean(axis=0))]
    return any(quad_overlap(a, b) < 0.2 for i, a in enumerate(inside) for b in inside[i + 1:])


def _holds_shifted(candidate, candidates) -> bool:
    _, area, quad = candidate
    short = side_lengths(quad)[0]
    centre = quad.mean(axis=0)
    return any(0.55 * area < a < 0.92 * area
               and float(length_of(q.mean(axis=0) - centre)) > 0.08 * short
               and quad_overlap(q, quad) > 0.9 for _, a, q in candidates)


def _move_sides(quad: np.ndarray, offsets) -> np.ndarray:
    """The quad (TL, TR, BR, BL order, clockwise) with side i moved outward by
    offsets[i] pixels (side i joins corner i and corner i+1)."""
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        u = (b - a) / max(float(length_of(b - a)), 1e-6)
        outward = np.array([u[1], -u[0]], np.float32)  # left of a clockwise walk is outside
        lines.append((a + outward * offsets[i], u))
    corners = [_intersect(lines[i - 1], lines[i]) for i in range(4)]
    if any(c is None for c in corners):
        return quad
    return np.array(corners, np.float32)


def _side_samples(quad: np.ndarray, step: float = 2.0):  # noqa: ANN202 (a generator)
    """Points along the middle 80% of each side, with each side's outward normal."""
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        length = float(length_of(b - a))
        u = (b - a) / max(length, 1e-6)
        t = _middle_steps(max(4, int(0.8 * length / step)))
        yield i, a + t * (b - a)[None, :], np.array([u[1], -u[0]], np.float32)   # np.outer(t, b - a)


@lru_cache(maxsize=1024)
def _middle_steps(count: int) -> np.ndarray:
    """`np.linspace(0.1, 0.9, count)` as a column (read-only: every caller shares it)."""
    steps = np.linspace(0.1, 0.9, count)[:, None]
    steps.flags.writeable = False
    return steps


def _outer_frame(quad: np.ndarray, thick: np.ndarray, insets) -> np.ndarray:
    """If the quad is the inside of a printed frame, the card's own outline: the first
    of the frame insets whose grown outline lies on edges nearly all round."""
    short = side_lengths(quad)[0]
    h, w = thick.shape
    for inset in insets:
        grow = inset * short / (1 - 2 * inset)
        grown = _move_sides(quad, [grow] * 4)
        # the four sides' samples looked up at once (the same points as `_side_samples`)
        points = np.concatenate([side for _, side, _ in _side_samples(grown)])
        xs = np.clip(np.round(points[:, 0]).astype(int), 0, w - 1)
        ys = np.clip(np.round(points[:, 1]).astype(int), 0, h - 1)
        inside = (points[:, 0] >= 0) & (points[:, 0] < w) & (points[:, 1] >= 0) & (points[:, 1] < h)
        if np.count_nonzero(thick[ys, xs][inside]) >= 0.7 * len(points):
            return grown
    return quad


def _frame_grown(inner: np.ndarray, inset: float) -> np.ndarray:
    """The card's outline around the inside of its printed frame, `inset` of the card's
    short side inside its edge."""
    short = side_lengths(inner)[0]
    return _move_sides(inner, [inset * short / (1 - 2 * inset)] * 4)


_TURNS = np.array([[(i - k) % 4 for i in range(4)] for k in range(4)])   # np.roll(quad, k, axis=0) for k < 4


def _by_frame(quad: np.ndarray, framed: list[np.ndarray]) -> np.ndarray:
    """The outline a printed frame's inside gives the card outlined by `quad` (the one
    nearest, within FRAME_AGREES of its short side), or `quad` when none does."""
    # each frame's mean corner distance at its best quarter turn, every frame and turn at
    # once: the float32 steps of np.linalg.norm(quad - np.roll(f, k, axis=0), axis=1).mean()
    step = quad - np.asarray(framed)[:, _TURNS]
    gaps = np.sqrt(np.add.reduce(step * step, axis=3)).mean(axis=2).min(axis=1)
    best = int(np.argmin(gaps))
    if float(gaps[best]) < FRAME_AGREES * side_lengths(quad)[0]:
        return order_corners(framed[best])
    return quad


def _intersect(l1, l2) -> np.ndarray | None:
    (p, r), (q, s) = l1, l2
    cross = r[0] * s[1] - r[1] * s[0]
    if abs(cross) < 1e-3:
        return None
    t = ((q[0] - p[0]) * s[1] - (q[1] - p[1]) * s[0]) / cross
    return p + t * r


def _grow(quad: np.ndarray, pixels: float) -> np.ndarray:
    """The quad with each side moved outward by about `pixels`."""
    if pixels == 0:
        return quad
    centre = quad.mean(axis=0)
    offsets = quad - centre
    norms = np.sqrt(np.add.reduce(offsets * offsets, axis=1, keepdims=True))   # np.linalg.norm's steps
    return (quad + offsets / np.maximum(norms, 1e-6) * pixels * 1.41).astype(np.float32)


def _max_corner_skew(quad: np.ndarray) -> float:
    worst = 0.0
    for i in range(4):
        u = quad[i - 1] - quad[i]
        v = quad[(i + 1) % 4] - quad[i]
        cos = float(u @ v) / (float(length_of(u) * length_of(v)) + 1e-9)
        worst = max(worst, abs(90.0 - np.degrees(np.arccos(min(max(cos, -1.0), 1.0)))))
    return worst
