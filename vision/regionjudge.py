"""Whether a region is a card's outline: the real-table finder's gates and verdict
(`Judge`, its `gates` and `verdict` around the outline check of `vision.outlinecheck`),
and the judgements between outlines (`vision.realfind` calls them in turn):

* each region's convex hull fitted with four corners and kept under the shape gates
  (`vision.quadgates`); a covered corner put back, or what shows of a partly covered
  card cut on the slant (`vision.partial`);
* a card running off the frame: its three sides inside the frame are checked (85 %),
  and a quarter of its inside must be paper-white (a patch of wood grain or a shadow cut
  by the border is not), or it is a colour field in its white frame all round
  (`framed_round`, grown out to the frame: `_framed_cut`); a corner's tip on the border
  is a whole card, checked so too;
* a colour field grown to its white frame (`_framed`);
* a white region too large for one card that may be two touching or overlapping: cut
  between its deepest dents and judged as two halves (`card_halves`);
* an outline holding two square-cornered outlines that do not overlap is cards side by
  side, not a card (`side_by_side`); an outline that is a piece of a larger one more
  like a card is dropped for it (`pieces_of_wholes`);
* for the learned model (`vision.outlinescore`): the outlines refused, an edge group's
  outline trimmed of spurs (`_trimmed`) and a card's print inside a merged cell
  (`print_outlines`, `print_bar`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision import outlinescore, shadedcards, wholecards
from vision.outlinecheck import framed_round, outline_share, paper_share
from vision.partial import over_frame_corner, restored_corner, visible_part
from vision.quadgates import (BORDER, CARD_RATIO, TIP, cut_side, four_corners, moved_out, shape_ok, skew,
                              unlike_card)
from vision.realmaps import contour_areas
from vision.realsettings import RealSettings
from vision.warp import quad_overlap


SPLIT = object()  # `Judge`: a region that may be cards touching (try its pieces)
WHITE, EDGED, FIELD, PIECE = "white", "edged", "field", "piece"   # where a region comes from


@dataclass(frozen=True)
class Gated:
    """An outline past `Judge`'s gates: what its outline check looks at (`looked`, with
    side `cut` left out) and what the verdict on it needs."""
    quad: np.ndarray
    area: float
    looked: np.ndarray     # the quad, or a card over the frame's corner moved past its border
    cut: int               # `quadgates.cut_side`: the side on the frame's border, -1 or TIP
    corner: bool           # a card over the frame's corner
    restored: bool         # a covered corner put back
    covered: bool          # the visible part of a card partly covered


@dataclass
class Judge:
    """Whether one region is a card's outline: the gates and the outline check, with the
    frame's maps at hand. `kind`: where the region comes from (WHITE, EDGED, FIELD, or a
    PIECE of a white region cut in two). Returns (outline share, area, quad), None, or
    `SPLIT` for a white region too far from one card's shape that may be two cards
    touching or overlapping. `gates` and `verdict` are its two halves around the outline
    check, so that a frame's regions can be checked all at once (`vision.outlinecheck.outline_shares`)."""
    settings: RealSettings
    edges: np.ndarray
    white: np.ndarray
    size: tuple[int, int]
    min_area: float
    max_area: float
    seen: set
    flat: np.ndarray | None = None   # the whiteness with the light evened out, made when needed
    pale: list | None = None   # partly covered outlines refused for their paper alone
                               # (`vision.palecovered`), when a list
    refused: list | None = None   # when a list, every outline the shape gates or the verdict
                                  # refused (`outlinescore.Considered`)
    channels: list[np.ndarray] | None = None   # stretched B, G, R for the outline check's
                                               # colour step (`RealSettings.full_bleed`)

    def _face_in_shade(self, quad: np.ndarray, share: float) -> bool:
        """Whether a card whose corner's tip is off the frame, too little of it paper-white
        (a card lying in the shade), is well outlined and shows a card's face once the
        light is evened out (`vision.shadedcards`): it shows nearly all of its face."""
        shaded = self.settings.shaded
        if shaded is None or share < self.settings.min_cut_outline:
            return False
        if self.flat is None:
            self.flat = shadedcards.shade_flattened(self.white, shaded)
        return shadedcards.face_in_shade(quad, self.white, self.flat, shaded.min_tip_lit,
                                         self.settings.whole or wholecards.WholeSettings())

    def _trim(self, contour: np.ndarray, area: float, kind: str) -> None:
        """An edge group no four corners fit: its outline trimmed of thin spurs (`_trimmed`)
        listed in `refused` for the learned model, when of a card's shape."""
        if self.refused is None or kind != EDGED or self.settings.trim_spurs <= 0 or area > self.max_area:
            return
        quad = _trimmed(contour, area, self.settings.trim_spurs, self.settings.min_hull_fill)
        if quad is None or cut_side(quad, self.size) is None or not shape_ok(quad, self.settings):
            return
        key = tuple((quad.ravel() / 3).astype(int).tolist())
        if key not in self.seen:
            self.seen.add(key)
            self.refused.append(outlinescore.Considered(quad, float(cv2.contourArea(quad))))

    def __call__(self, contour: np.ndarray, area: float, kind: str):
        gated = self.gates(contour, area, kind)
        if gated is None or gated is SPLIT:
            return gated
        return self.verdict(gated, outline_share(gated.looked, self.edges, self.white, self.settings.min_step,
                                                 skip_side=gated.cut, channels=self.channels,
                                                 colour_step=self.settings.full_bleed))

    def gates(self, contour: np.ndarray, area: float, kind: str):
        """None, `SPLIT`, or the `Gated` outline whose outline check decides."""
        settings = self.settings
        field, split = kind == FIELD, kind == WHITE
        if area > self.max_area and not split:
            return None
        hull = cv2.convexHull(contour)
        hull_area = cv2.contourArea(hull)
        if area < settings.min_region_fill * hull_area:
            return None
        maybe_two = split and area >= settings.split_area * self.min_area and \
            area >= settings.split_fill * hull_area
        if area > self.max_area:
            return SPLIT if maybe_two else None
        perimeter = cv2.arcLength(hull, True)   # (the same float from the hull's points as floats)
        quad = four_corners(hull, perimeter)
        restored = quad is None and settings.restore_corner and not field
        if restored:   # a corner covered (by a shoe, a knife)
            quad = restored_corner(hull, CARD_RATIO, hull_area, perimeter)
        if quad is None:
            self._trim(contour, area, kind)
            return SPLIT if maybe_two else None
        key = tuple((quad.ravel() / 3).astype(int).tolist())  # the same outline from another map
        if key in self.seen:
            return None
        self.seen.add(key)
        quad_area = cv2.contourArea(quad)
        if quad_area < settings.min_hull_fill * hull_area:
            restored = settings.restore_corner and not field
            quad = restored_corner(hull, CARD_RATIO, hull_area, perimeter) if restored else None
            if quad is None:
                self._trim(contour, area, kind)
                return SPLIT if maybe_two else None
            quad_area = cv2.contourArea(quad)
        covered, cut = False, cut_side(quad, self.size)
        if not shape_ok(quad, settings):
            # the visible part of a card partly covered (by a book, a shoe, another card)
            # is longer than a card, or cut on the slant: accepted paper-white and well edged;
            # that of a card running off the frame may be as long, its corners less square
            covered = not field and (shape_ok(quad, settings, settings.covered_ratio, settings.covered_angles)
                                     or (settings.restore_corner and visible_part(quad, CARD_RATIO)))
            if not covered and not (settings.restore_corner and cut is not None and cut >= 0 and
                                    shape_ok(quad, settings, settings.covered_ratio)):
                if self.refused is not None:
                    self.refused.append(outlinescore.Considered(quad, quad_area))
                return SPLIT if maybe_two else None
        corner = None   # a card over the frame's corner: the outline checked off its two borders
        if cut is None and settings.restore_corner and kind == WHITE:
            corner = over_frame_corner(quad, self.size, BORDER)
            cut = None if corner is None else TIP
        if cut is None or (cut != -1 and kind in (FIELD, PIECE)):  # (a piece: one guess is enough)
            return None
        if field:
            quad = _framed(quad, self.edges, self.white, settings, self.channels)
            quad_area = cv2.contourArea(quad)
            if cut_side(quad, self.size) != -1 or not shape_ok(quad, settings):  # grown past the border
                return None
        return Gated(quad, quad_area, quad if corner is None else corner, cut, corner is not None,
                      restored, covered)

    def verdict(self, gated: Gated, share: float) -> tuple[float, float, np.ndarray] | None:
        """(outline share, area, quad) for an outline past the gates whose outline check
        gave `share`, or None (and the refused outline listed in `refused`, when a list)."""
        outline = self._verdict(gated, share)
        if outline is None and self.refused is not None:
            self.refused.append(outlinescore.Considered(gated.quad, gated.area))
        return outline

    def _verdict(self, gated: Gated, share: float) -> tuple[float, float, np.ndarray] | None:
        settings, quad, cut = self.settings, gated.quad, gated.cut
        if (cut >= 0 or gated.corner) and share < settings.min_cut_outline:
            return None
        framed = False   # a colour field in its white frame, cut by the border
        if cut != -1 and paper_share(quad, self.white, settings.paper) < settings.min_cut_paper and \
                not (cut == TIP and not gated.corner and self._face_in_shade(quad, share)):
            framed = settings.cut_framed > 0 and not gated.corner and \
                framed_round(quad, self.white, cut) >= settings.cut_framed
            if not framed:
                return None
        if (gated.restored or gated.covered) and share < settings.min_covered_outline:
            return None
        if (gated.restored or gated.covered) and paper_share(quad, self.white, settings.paper) < \
                max(settings.min_restored_paper if gated.restored else 0.0,
                    settings.min_covered_paper if gated.covered else 0.0):
            if self.pale is not None and cut == -1:
                self.pale.append((share, gated.area, quad))
            return None
        if share >= settings.min_outline:
            if framed:   # grown out to its frame's outer edge
                quad = _framed_cut(quad, cut, self.edges, self.white, settings)
                return share, float(cv2.contourArea(quad)), quad
            return share, gated.area, quad
        return None


def _framed(field: np.ndarray, edges: np.ndarray, white: np.ndarray, settings: RealSettings,
            channels: list[np.ndarray] | None = None) -> np.ndarray:
    """A colour field grown to the card's edge: of the frame widths tried, the one whose
    outline is best followed by an edge or a step (the field itself when none is)."""
    short = min(float(np.linalg.norm(field[1] - field[0])), float(np.linalg.norm(field[2] - field[1])))
    best, best_share = field, settings.min_outline
    for frame in settings.field_frames:
        grown = moved_out(field, frame * short)
        share = outline_share(grown, edges, white, settings.min_step, channels=channels,
                              colour_step=settings.full_bleed)
        if share >= best_share:
            best, best_share = grown, share
    return best


def _framed_cut(field: np.ndarray, cut: int, edges: np.ndarray, white: np.ndarray,
                settings: RealSettings) -> np.ndarray:
    """A colour field cut by the frame's border (side `cut`, or TIP) grown to the card's
    edge: its sides in view moved out by the frame widths tried (`field_frames`, of its
    shortest side in view), the one whose outline is best followed (at least
    `min_cut_outline`, the border's side left out); the field itself when none is."""
    skip = cut if cut >= 0 else -1
    q = np.asarray(field, np.float32).reshape(4, 2)
    sides = [float(np.linalg.norm(q[(i + 1) % 4] - q[i])) for i in range(4) if i != skip]
    best, best_share = field, settings.min_cut_outline
    for frame in settings.field_frames:
        grown = moved_out(q, frame * min(sides), skip)
        share = outline_share(grown, edges, white, settings.min_step, skip_side=skip)
        if share >= best_share:
            best, best_share = grown, share
    return best


def _pieces(contour: np.ndarray, settings: RealSettings) -> list[tuple[np.ndarray, np.ndarray]]:
    """The region cut in two between two of its deepest dents (two cards touching at a
    corner or overlapping), for each pair of the deepest few convexity defects."""
    hull = cv2.convexHull(contour, returnPoints=False)
    if hull is None or len(hull) < 4:
        return []
    try:
        defects = cv2.convexityDefects(contour, hull)
    except cv2.error:  # a self-crossing outline
        return []
    if defects is None:
        return []
    defects = defects.reshape(-1, 4)
    size = math.sqrt(cv2.contourArea(contour))
    deep = defects[defects[:, 3] / 256.0 >= settings.split_depth * size]
    if len(deep) < 2:
        return []
    far = sorted(int(d[2]) for d in deep[np.argsort(-deep[:, 3])][:settings.split_defects])
    points = contour.reshape(-1, 2)
    return [(points[i:j + 1].reshape(-1, 1, 2), np.concatenate((points[j:], points[:i + 1])).reshape(-1, 1, 2))
            for n, i in enumerate(far) for j in far[n + 1:]]


def card_halves(contour: np.ndarray, judge: Judge) -> list[tuple[float, float, np.ndarray]]:
    """The outlines of a region that is two cards: the cuts whose both halves are cards
    (a half alone is too easily a patch of a checked cloth or of glare)."""
    found = []
    for pair in _pieces(contour, judge.settings):
        halves = []
        for piece in pair:
            area = cv2.contourArea(piece)
            outline = judge(piece, area, PIECE) if judge.min_area <= area <= judge.max_area else None
            if outline is None or outline is SPLIT:
                break
            halves.append(outline)
        else:
            found += halves
    return found


def _trimmed(contour: np.ndarray, area: float, share: float, min_hull_fill: float) -> np.ndarray | None:
    """The four corners of an edge group filled and opened by `share` of the square root of
    its `area` (the thin lines running off a card's outline, a table's edge or a shadow's,
    taken off its body), or None when the opened region is no four-cornered shape."""
    x, y, w, h = cv2.boundingRect(contour)
    k = max(3, int(round(share * math.sqrt(area))) | 1)
    pad = k
    mask = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(mask, [contour], -1, 255, cv2.FILLED, offset=(pad - x, pad - y))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    contours = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    if not contours:
        return None
    body = max(contours, key=cv2.contourArea)
    hull = cv2.convexHull(body)
    quad = four_corners(hull)
    if quad is None or cv2.contourArea(quad) < min_hull_fill * cv2.contourArea(hull):
        return None
    return quad + np.float32((x - pad, y - pad))


def print_outlines(nested: list[np.ndarray], judge: "Judge") -> list:
    """Edge groups lying inside a cell of the edges (`vision.realmaps.mapped_regions`' `nested`): a card whose
    own outline joined a bright neighbour's (a towel, a page, a floor) still shows its
    print (a court picture's frame, pips and indices) as one group of edges inside that
    merged cell. Each of a card's size whose hull four corners fit (filling `print_fill` of
    it: a line running off the print, a gap in the card's own edge), moved out by
    `print_groups` of the square root of its area, inside the frame and of a card's shape, as `outlinescore.Considered` for the learned model."""
    settings, out = judge.settings, []
    lengths, areas = contour_areas(nested)
    for i in np.flatnonzero((lengths >= 4) & (areas >= judge.min_area) & (areas <= judge.max_area)).tolist():
        hull = cv2.convexHull(nested[i])
        hull_area = cv2.contourArea(hull)
        quad = four_corners(hull)
        if quad is None or cv2.contourArea(quad) < settings.print_fill * hull_area:
            continue
        if settings.print_groups > 0:
            quad = moved_out(quad, settings.print_groups * math.sqrt(float(areas[i])))
        if cut_side(quad, judge.size) != -1 or not shape_ok(quad, settings):
            continue
        # (not checked against the quads seen: one dropped unlisted for its hull fill is
        # seen too; `outlinescore.unique` lists each quad once)
        out.append(outlinescore.Considered(quad, float(cv2.contourArea(quad)), True))
    return out


def print_bar(pool: list, chances: np.ndarray, least: float) -> np.ndarray:
    """The learned model's chances with a print outline's (`Considered.printed`) under
    `least` made 0: a print is a card's only when surer than an outline."""
    printed = np.array([c.printed for c in pool], bool)
    return np.where(printed & (chances < least), 0.0, chances)


def side_by_side(candidates: list[tuple[float, float, np.ndarray]]) -> set[int]:
    """Indexes of the outlines that hold two outlines which do not overlap, each as
    square-cornered as the holder (the two halves of a court card's picture are cut on
    the slant): cards side by side, not a card."""
    boxes = [cv2.boundingRect(q) for _, _, q in candidates]
    skews: dict[int, float] = {}

    def skew_at(i: int) -> float:
        if i not in skews:
            skews[i] = skew(candidates[i][2])
        return skews[i]

    groups = set()
    for i, (_, area, quad) in enumerate(candidates):
        x, y, w, h = boxes[i]
        inside = [j for j, (_, a, _) in enumerate(candidates)
                  if 0.2 * area < a < 0.7 * area and x <= boxes[j][0] + boxes[j][2] / 2 <= x + w
                  and y <= boxes[j][1] + boxes[j][3] / 2 <= y + h]
        if len(inside) < 2:
            continue
        inside = [j for j in inside if skew_at(j) <= skew_at(i) + 15 and quad_overlap(quad, candidates[j][2]) > 0.8]
        if any(candidates[j][1] + candidates[k][1] > 0.45 * area and
               quad_overlap(candidates[j][2], candidates[k][2]) < 0.2
               for n, j in enumerate(inside) for k in inside[n + 1:]):
            groups.add(i)
    return groups


def pieces_of_wholes(candidates: list[tuple[float, float, np.ndarray]], settings: RealSettings) -> set[int]:
    """Indexes of the outlines that are a piece of a larger one more like a card (a shadow,
    a court card's picture or a glare cut the whiteness of a card into pieces, and a piece
    followed all round by an edge would otherwise win over the whole card's outline)."""
    unlike = [unlike_card(q) for _, _, q in candidates]
    pieces = set()
    for i, (share, area, quad) in enumerate(candidates):
        for j, (whole_share, whole_area, whole) in enumerate(candidates):
            if settings.whole_area[0] * area <= whole_area <= settings.whole_area[1] * area and \
                    unlike[j] + settings.whole_better < unlike[i] and \
                    whole_share >= share - settings.whole_share and \
                    quad_overlap(quad, whole) >= settings.whole_inside:
                pieces.add(i)
                break
    return pieces
