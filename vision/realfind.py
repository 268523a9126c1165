"""Card outlines on real tables: what a photograph's light, shadows and clutter leave of a
card's edge, found from several views of the picture and each checked along its length.
Here: `find_outlines`, which runs the parts below in turn, and the glue that hands the
sibling finders (`vision.fieldfind`, `vision.edgequads`, `vision.wholecards`,
`vision.inkcards`) the gates and the outline check.

Real outlines are rarely clean: a card merges with white paper or a bright table, a
shadow or a finger cuts across it, the light falls off across the picture. So no single
map is trusted, and each part lives in a module of its own:

* `vision.realsettings`: `RealSettings`, every setting of the finder (importable from
  here too);
* `vision.realmaps`: the maps and their regions: whiteness (each channel stretched to
  its own range) cut at several levels and against the local mean, the cells between
  Canny edges and the outer boundary of each group of edges, regions of saturated
  colour, cells joined with their neighbours;
* `vision.quadgates`: each region's convex hull fitted with four corners, kept under
  wide geometric gates (oblique views are common: side ratio 1.0-2.3, corners 45-135
  degrees, opposite sides of similar length), and where it meets the frame's border;
* `vision.outlinecheck`: the outline check: for at least 75 % of its length the outline
  must be followed by an edge or have its inside brighter than its outside (this roughly
  halves false outlines: an envelope's or a book's outline passes the gates but not, all
  round, this check); the paper-white share of an outline's inside, and its white frame
  all round;
* `vision.regionjudge`: whether a region is a card's outline (the gates and the verdict
  around the outline check); a card running off the frame: its three sides inside the
  frame are checked (85 %), and a quarter of its inside must be paper-white (a patch of
  wood grain or a shadow cut by the border is not); a corner's tip on the border is a
  whole card, checked so too; a region that is two cards cut in two; an outline holding
  two square-cornered outlines that do not overlap is cards side by side, not a card;
* `vision.linecuts`: an outline with a straight edge right across it, that leaves a
  piece more like a card than the outline, is a card lying over another (a fan): the top
  card and the strip that shows of the other;
* `vision.occludercuts` (taught decks only): round an outline the learned scorer is
  unsure of, the whiteness cut along long straight edges: the visible part of a card
  under a book or a box as white as its paper, taken with it as one (here: `_occluded`);
* non-maximum suppression of the same card found from several maps (here);
* for taught decks and teaching photos (`framed_fields`), a face that is a colour field
  in a white frame outlined from its field (`vision.fieldfind`), before any other
  outline (here: `_framed_fields`, `_fine_framed`): whiteness and edges often give only
  half of such a face seen obliquely. Such a field in its white frame all round is
  evidence enough for wider gates (side ratio up to 3.3, corners 35-145 degrees: a card
  60-65 degrees from overhead). A face with no white frame at all (`full_bleed`: the
  field runs to the card's edge) is outlined from its field too (`_bleeding`), and from
  the edges of every stretched channel, its outline followed where its colour changes (a
  green card on green felt under a warm lamp, a blue one on a dark cloth: no step in
  whiteness, little in grey);
* `vision.sidefit`: each outline kept, found on the small copy, has its sides fitted to
  the full frame's own edges.

It all runs on a copy of the frame scaled to `long_side` pixels (320: a card a ninth of
a 640-pixel frame is still 25 pixels wide there) and costs a few milliseconds.
`vision.detect` uses these outlines alone where no picture of the empty table is known
(its exact sources, at the full working size, cost three times as much and found no more
on real photos).
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from vision import courtframes, edgequads, inkcards, occludercuts, outlinescore, palecovered, shadedcards, wholecards
from vision.fieldfind import FieldSettings, field_beyond, framed_fields
from vision.linecuts import cut_over
from vision.outlinecheck import outline_share, outline_shares, paper_share
from vision.quadgates import CARD_RATIO, TIP, cut_side, shape_ok, unlike_card
from vision.realmaps import (colour_edges, colour_regions, contour_areas, joined_cells, mapped_regions,
                             stretched, whiteness)
from vision.realsettings import RealSettings
from vision.regionjudge import (EDGED, FIELD, SPLIT, WHITE, Gated, Judge, card_halves, pieces_of_wholes,
                                print_bar, print_outlines, side_by_side)
from vision.sidefit import refined
from vision.warp import order_corners, quad_iou, quad_overlap


_NO_PALE = FieldSettings(pale_level=0)


def _framed_fields(channels: list[np.ndarray], white: np.ndarray, edges: np.ndarray, min_area: float,
                   max_area: float, settings: RealSettings,
                   unframed: list[np.ndarray] | None = None, coloured: bool = False) -> tuple[list, list, list]:
    """`vision.fieldfind`'s outlines that pass the gates and the outline check here,
    largest first; and its late ones (two pieces of a field joined on the lower bar, to be
    taken only where no other outline lies), the same way; and the pale level's (`paler`
    there), the same way. `unframed`: when a list, the
    whole fields whose frame was not measured and that no outline found here holds.
    `coloured`: the outline check takes the colour step (`RealSettings.full_bleed`)."""
    h, w = white.shape
    late: list[np.ndarray] = []
    missed: list[np.ndarray] | None = [] if unframed is not None else None
    paler: list[np.ndarray] = []
    offs: list[np.ndarray] | None = [] if settings.cut_fields else None
    fields = framed_fields(channels, white, min_area, settings=FieldSettings() if settings.pale_fields else _NO_PALE,
                           late=late, unframed=missed, paler=paler, cut=offs)
    out = [_passed(quads, edges, white, min_area, max_area, (w, h), settings, channels if coloured else None)
           for quads in (fields, late, paler)]
    if offs:   # taken as late ones: only where no other outline lies
        out[1] = sorted(out[1] + _passed_cut(offs, edges, white, min_area, max_area, (w, h), settings),
                        key=lambda c: -c[1])
    if unframed is not None:   # of a card's size and shape, where no outline found holds it
        held = [q for part in out for _, _, q in part]
        unframed += [q for q in missed if min_area <= cv2.contourArea(q) <= max_area and
                     shape_ok(q, settings, settings.field_side_ratio, settings.field_angles) and
                     not any(cv2.pointPolygonTest(o.reshape(-1, 1, 2), tuple(float(v) for v in q.mean(axis=0)),
                                                  False) >= 0 for o in held)]
    return out


def _fine_framed(frame: np.ndarray, scale: float, settings: RealSettings) -> tuple[list, list]:
    """The framed-field search (`_framed_fields`) on a copy of `frame` `settings.fine_fields`
    pixels long, its outlines in the pixels of the `scale` copy: a thin white frame (1.4 mm,
    about 2 pixels at 320) blurs below the frame's whiteness there and is found at 480."""
    h, w = frame.shape[:2]
    fine = min(1.0, settings.fine_fields / max(h, w))
    size = (max(1, round(w * fine)), max(1, round(h * fine)))
    small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA if fine <= 0.5 else cv2.INTER_LINEAR) \
        if fine < 1 else frame
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    smooth = cv2.GaussianBlur(small, (3, 3), 0)
    channels = stretched(smooth)
    white = whiteness(smooth, channels)
    gray = cv2.cvtColor(smooth, cv2.COLOR_BGR2GRAY)
    edges = cv2.dilate(cv2.Canny(gray, 30, 90, L2gradient=True), np.ones((3, 3), np.uint8))
    ratio = fine / scale
    sh, sw = white.shape
    parts = _framed_fields(channels, white, edges, (settings.min_short_side * ratio) ** 2,
                           settings.max_area_fraction * sh * sw, settings)
    return [[(share, area / ratio ** 2, (quad / ratio).astype(np.float32)) for share, area, quad in part]
            for part in parts]


def _passed(quads: list[np.ndarray], edges: np.ndarray, white: np.ndarray, min_area: float,
            max_area: float, size: tuple[int, int], settings: RealSettings,
            channels: list[np.ndarray] | None = None) -> list:
    out = []
    for quad in quads:
        area = cv2.contourArea(quad)
        # a corner's tip past the frame's border is a whole card (its field and frame found)
        if min_area <= area <= max_area and cut_side(quad, size) in (-1, TIP) and \
                shape_ok(quad, settings, settings.field_side_ratio, settings.field_angles):
            share = outline_share(quad, edges, white, settings.min_step, channels=channels,
                                  colour_step=settings.full_bleed)
            if share >= settings.min_outline:
                out.append((share, area, quad))
    return sorted(out, key=lambda c: -c[1])   # a whole field before any piece of it


def _passed_cut(quads: list[np.ndarray], edges: np.ndarray, white: np.ndarray, min_area: float,
                max_area: float, size: tuple[int, int], settings: RealSettings) -> list:
    """`_passed` for the outlines in view of framed fields running off the frame
    (`fieldfind._grown_cut`): a side on the border, the part in view of a card's size and
    of a visible part's shape (`covered_ratio`), its three sides in view followed as a cut
    card's are (`min_cut_outline`)."""
    out = []
    for quad in quads:
        area = cv2.contourArea(quad)
        cut = cut_side(quad, size)
        if cut is not None and cut >= 0 and min_area <= area <= max_area and \
                shape_ok(quad, settings, settings.covered_ratio, settings.field_angles):
            share = outline_share(quad, edges, white, settings.min_step, skip_side=cut)
            if share >= settings.min_cut_outline:
                out.append((share, area, quad))
    return out


def _line_candidates(gray: np.ndarray, white: np.ndarray, candidates: list, size: tuple[int, int],
                     max_area: float, settings: RealSettings) -> tuple[list, set[int], list[np.ndarray]]:
    """Outlines of cards lying on something as white as their paper, from straight line
    segments (`vision.edgequads`), where no outline of about their size was found (one
    several times larger around them is the card merged with the paper it lies on): the
    new outlines, and the indexes of the candidates they replace (the one piece of the
    card found inside: a court picture, the pips), and the quads the gates let through
    whose inside was no card's face (a court card's printed frame among them). Looked for
    only around paper-white that no outline judged a card's holds (`line_explained`)."""
    box = _unexplained_paper(white, candidates, settings, least=settings.line_explained,
                             unlike=settings.line_explained_unlike)
    if box is None:
        return [], set(), []
    largest = math.sqrt(2 * max_area)
    low, high = settings.line_sizes
    near: dict[int, list[tuple[int, float]]] = {}
    # (an outline whose box lies apart from the quad's does not overlap it: not looked at)
    spans = [_span(q) for _, _, q in candidates]

    def wanted(quad: np.ndarray, kept: list) -> bool:
        if cut_side(quad, size) != -1 or unlike_card(quad) > settings.line_unlike or \
                not shape_ok(quad, settings, settings.line_ratio, settings.line_angles) or \
                any(quad_overlap(quad, q) >= settings.overlap for _, _, q in kept):
            return False
        area = cv2.contourArea(quad)
        x0, y0, x1, y1 = _span(quad)
        around = [(i, a / area) for i, (_, a, q) in enumerate(candidates)
                  if spans[i][0] < x1 and x0 < spans[i][2] and spans[i][1] < y1 and y0 < spans[i][3]
                  and quad_overlap(quad, q) >= settings.overlap]
        near[id(quad)] = around
        if any(low <= ratio < high for _, ratio in around):   # an outline of its size was found
            return False
        approved.append(quad)
        return True

    approved: list[np.ndarray] = []
    new = edgequads.find(gray, white, box, (settings.min_short_side, largest), wanted)
    replaced: set[int] = set()
    for _, _, quad in new:
        pieces = [i for i, ratio in near[id(quad)]
                  if ratio < low and quad_overlap(quad, candidates[i][2]) >= settings.whole_inside]
        # one piece (found from several maps); two apart are cards side by side, `side_by_side`' to judge
        if all(quad_overlap(candidates[i][2], candidates[j][2]) >= settings.overlap
               for n, i in enumerate(pieces) for j in pieces[n + 1:]):
            replaced.update(pieces)
    return new, replaced, [q for q in approved if not any(q is n for _, _, n in new)]


def _span(quad: np.ndarray) -> tuple[float, float, float, float]:
    """The quad's box: least x and y, greatest x and y."""
    xs, ys = quad[:, 0].tolist(), quad[:, 1].tolist()
    return min(xs), min(ys), max(xs), max(ys)


def _unexplained_paper(white: np.ndarray, candidates: list, settings: RealSettings,
                       page: float = 0.0, least: float = 0.85,
                       unlike: float | None = None, holes: int = 0) -> tuple[int, ...] | None:
    """The box (x, y, w, h) around the patches of paper-white, each at least a share of
    the smallest card, that no outline followed at least `least` of its length and within
    `unlike` of a card's side ratio (log; `line_unlike` when None) holds, grown by a card's
    short side all round; None when there is none, or when none is at least `page`
    smallest short sides squared with at least `holes` holes in it (ink: the pips and
    index of a card merged with the page it lies on)."""
    _, paper = cv2.threshold(white, settings.line_white - 1, 255, cv2.THRESH_BINARY)
    unlike = settings.line_unlike if unlike is None else unlike
    for share, _, quad in candidates:
        if share >= least and (unlike == math.inf or unlike_card(quad) <= unlike):
            corners = np.round(quad).astype(np.int32)
            cv2.fillConvexPoly(paper, corners, 0)
            cv2.polylines(paper, [corners], True, 0, 5)
    patches = cv2.findContours(paper, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    _, areas = contour_areas(list(patches))
    if not len(areas) or areas.max() < page * settings.min_short_side ** 2:
        return None
    if holes and not _holed_page(paper, page * settings.min_short_side ** 2, holes):
        return None
    big = np.array([cv2.boundingRect(patches[i]) for i in
                    np.flatnonzero(areas >= settings.line_paper * settings.min_short_side ** 2).tolist()])
    if not len(big):
        return None
    grow = int(settings.line_grow * settings.min_short_side)
    x0 = max(int(big[:, 0].min()) - grow, 0)
    y0 = max(int(big[:, 1].min()) - grow, 0)
    x1 = min(int((big[:, 0] + big[:, 2]).max()) + grow, white.shape[1])
    y1 = min(int((big[:, 1] + big[:, 3]).max()) + grow, white.shape[0])
    return x0, y0, x1 - x0, y1 - y0


def _holed_page(paper: np.ndarray, least: float, holes: int) -> bool:
    """Whether a patch of `paper` (its outer outlines are `cv2.RETR_EXTERNAL`'s) of at
    least `least` pixels has at least `holes` holes in it."""
    outlines, hierarchy = cv2.findContours(paper, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return False
    parents = hierarchy[0][:, 3]
    outer = np.flatnonzero(parents == -1)
    _, areas = contour_areas([outlines[i] for i in outer.tolist()])
    count = np.bincount(parents[parents >= 0], minlength=len(outlines))
    return bool(np.any((areas >= least) & (count[outer] >= holes)))


def _whole_gates(quad: np.ndarray, angles: tuple[float, float], unlike: float, edges: np.ndarray,
                 white: np.ndarray, size: tuple[int, int], settings: RealSettings,
                 channels: list[np.ndarray] | None = None, skip_side: int = -1) -> float | None:
    """`vision.wholecards`' gates: a whole card inside the frame, its side ratio within
    `unlike` of a card's, its corners within `angles`: its outline share (side `skip_side`
    left out), or None."""
    if cut_side(quad, size) != -1 or unlike_card(quad) > unlike or \
            not shape_ok(quad, settings, settings.line_ratio, angles):
        return None
    return outline_share(quad, edges, white, settings.min_step, skip_side=skip_side, channels=channels,
                         colour_step=settings.full_bleed)


def _whole_gates_of(quads: list[np.ndarray], angles: tuple[float, float], unlikes: list[float], skip_sides: list[int],
                    edges: np.ndarray, white: np.ndarray, size: tuple[int, int], settings: RealSettings,
                    channels: list[np.ndarray] | None = None) -> list[float | None]:
    """`_whole_gates` of each quad (its own `unlikes` and `skip_sides`), the outline shares of
    those the shape lets through looked up together (`outline_shares`: the same numbers)."""
    passed = [k for k, (quad, unlike) in enumerate(zip(quads, unlikes))
              if not (cut_side(quad, size) != -1 or unlike_card(quad) > unlike or
                      not shape_ok(quad, settings, settings.line_ratio, angles))]
    out: list[float | None] = [None] * len(quads)
    for k, share in zip(passed, outline_shares([quads[k] for k in passed], [skip_sides[k] for k in passed], edges,
                                               white, settings.min_step, channels, settings.full_bleed)):
        out[k] = share
    return out


def _bleeding(fields: list[np.ndarray], held: list[np.ndarray], edges: np.ndarray, white: np.ndarray,
              channels: list[np.ndarray], min_area: float, max_area: float, size: tuple[int, int],
              settings: RealSettings) -> list:
    """Whole colour fields no white frame grows (`_framed_fields`' `unframed`) and no
    framed outline in `held` holds, taken as full-bleed faces: the field is the card. Those
    that pass the gates and the outline check (with the colour step), as `_passed` lists
    them. A field the stretched chroma finds whole where a shadow's or the oval's edge cuts
    the face's cell in two."""
    alone = [q for q in fields if not any(
        cv2.pointPolygonTest(o.reshape(-1, 1, 2), tuple(float(v) for v in q.mean(axis=0)), False) >= 0
        for o in held)]
    return _passed(alone, edges, white, min_area, max_area, size, settings, channels)


def _piece_of(quad: np.ndarray, whole: np.ndarray, most: float) -> bool:
    """Whether `quad` lies inside `whole` (PIECE_INSIDE of its area at least), is at most
    `most` of its area and has a corner PIECE_CORNER of its short side or more from every
    corner of it: a piece of it (cut across the face), not the card outlined a little
    tighter (every corner within a frame's width)."""
    quad, whole = np.float32(quad).reshape(4, 2), np.float32(whole).reshape(4, 2)
    area = cv2.contourArea(quad)
    inter, _ = cv2.intersectConvexConvex(quad, whole)
    if not (area > 0 and inter >= PIECE_INSIDE * area and area <= most * cv2.contourArea(whole)):
        return False
    short = min(float(np.hypot(*(whole[1] - whole[0]))), float(np.hypot(*(whole[3] - whole[0]))))
    away = np.sqrt(((quad[:, None, :] - whole[None, :, :]) ** 2).sum(axis=2)).min(axis=1)
    return float(away.max()) >= PIECE_CORNER * short


PIECE_INSIDE = 0.9
# A piece's corner this far (share of the whole's short side) from every corner of the
# whole: on the fresh protocol-2 draws the pieces replaced had one 0.23-0.94 away; a face
# outlined 0.97 of the truth whose late field ran 0.97 too, its corners 0.02-0.11 away,
# read right before and "unknown" from the late one (tests/test_vision_protocol.py's
# steep Red 2, seed 24)
PIECE_CORNER = 0.2


def _occluded(gray: np.ndarray, judge: Judge, cuts: occludercuts.CutSettings,
              box: tuple[int, int, int, int]) -> list:
    """The outlines of the whiteness regions in `box` cut along long straight edges
    (`vision.occludercuts`) that pass `judge`'s gates and verdict, not seen before, for the
    learned model (`Considered.cut`): the visible part of a card under a white object."""
    own = Judge(judge.settings, judge.edges, judge.white, judge.size, judge.min_area, judge.max_area,
                set(judge.seen), channels=judge.channels)
    regions = occludercuts.cut_regions(judge.white, gray, judge.settings.min_short_side, cuts, box)
    gated = [g for g in (own.gates(r, float(cv2.contourArea(r)), WHITE) for r in regions) if isinstance(g, Gated)]
    shares = outline_shares([g.looked for g in gated], [g.cut for g in gated], judge.edges, judge.white,
                            judge.settings.min_step, judge.channels, judge.settings.full_bleed)
    passed = [own.verdict(g, share) for g, share in zip(gated, shares)]
    return [outlinescore.Considered(p[2], p[1], cut=True) for p in passed if p is not None]


def find_outlines(frame: np.ndarray, settings: RealSettings = RealSettings(),
                  trace: list | None = None) -> list[np.ndarray]:
    """Card outlines (TL, TR, BR, BL, float32, in `frame`'s pixels), most certain first.
    `trace`: when a list, an `outlinescore.Trace` of what was looked at is appended to it."""
    h, w = frame.shape[:2]
    scale = min(1.0, settings.long_side / max(h, w))
    # area averaging is cheap for whole ratios only; a little aliasing does not matter here
    how = cv2.INTER_AREA if scale <= 0.5 else cv2.INTER_LINEAR
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small = cv2.resize(frame, size, interpolation=how) if scale < 1 else frame
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    sh, sw = small.shape[:2]
    smooth = cv2.GaussianBlur(small, (3, 3), 0)
    gray = cv2.cvtColor(smooth, cv2.COLOR_BGR2GRAY)
    channels = stretched(smooth)
    white = whiteness(smooth, channels)
    edges = cv2.Canny(gray, 30, 90, L2gradient=True)
    bleed = settings.full_bleed > 0 and settings.framed_fields
    if bleed:
        edges = colour_edges(channels, edges)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    coloured = channels if bleed else None   # for the outline check's colour step
    min_area = settings.min_short_side ** 2
    max_area = settings.max_area_fraction * sh * sw
    fine = scale < 1 and settings.fine_fields > max(sh, sw)
    unframed: list[np.ndarray] | None = [] if fine or bleed else None
    framed, late, paler = _framed_fields(channels, white, edges, min_area, max_area, settings, unframed, bleed) \
        if settings.framed_fields else ([], [], [])
    if unframed and fine:   # a whole field whose thin frame this copy does not show: look closer
        finer, fine_late, fine_paler = _fine_framed(frame, scale, settings)
        framed = sorted(framed + finer, key=lambda c: -c[1])
        late += fine_late
        paler += fine_paler
    if unframed and bleed:   # a whole field with no frame at all: a full-bleed face
        framed = sorted(framed + _bleeding(unframed, [q for _, _, q in framed], edges, white, channels,
                                           min_area, max_area, (sw, sh), settings), key=lambda c: -c[1])
    seen: set[tuple[int, ...]] = set()
    candidates: list[tuple[float, float, np.ndarray]] = []
    nested: list | None = [] if settings.print_groups >= 0 and (trace is not None or settings.learned) else None
    whites, edged = mapped_regions(white, edges, settings, nested)
    if settings.joined_cells:
        edged += joined_cells(edges, min_area, max_area)
    regions = whites + edged + (colour_regions(smooth, settings) if settings.colour_fields else [])
    edged_from, fields_from = len(whites), len(whites) + len(edged)   # (each region's kind by its place)
    judge = Judge(settings, edges, white, (sw, sh), min_area, max_area, seen,
                   pale=[] if settings.pale is not None else None,
                   refused=[] if trace is not None or settings.learned else None, channels=coloured)
    lengths, areas = contour_areas(regions)
    # specks (a card's outline has at least its four corners) and regions of no card's
    # size (twice the largest: it may be two cards) are passed over; most are that
    # The outlines past the gates are checked all at once after, in the regions' order (a
    # region that may be two cards is cut at once: its second half is judged only when the
    # first is a card, and what is judged is remembered in `seen`).
    found: list = []
    for i in np.flatnonzero((lengths >= 4) & (areas >= min_area) & (areas <= 2 * max_area)).tolist():
        contour, kind = regions[i], WHITE if i < edged_from else EDGED if i < fields_from else FIELD
        gated = judge.gates(contour, float(areas[i]), kind)
        if gated is SPLIT:
            found += card_halves(contour, judge)
        elif gated is not None:
            found.append(gated)
    waiting = [g for g in found if isinstance(g, Gated)]
    shares = iter(outline_shares([g.looked for g in waiting], [g.cut for g in waiting], edges, white,
                                 settings.min_step, coloured, settings.full_bleed))
    for outline in found:
        outline = judge.verdict(outline, next(shares)) if isinstance(outline, Gated) else outline
        if outline is not None:
            candidates.append(outline)
    faceless: list[np.ndarray] = []   # segment quads with no card's face (`vision.wholecards`)
    if settings.line_quads:
        lined, replaced, faceless = _line_candidates(gray, white, candidates, (sw, sh), max_area, settings)
        candidates = [c for i, c in enumerate(candidates) if i not in replaced] + lined
    # Cards side by side make a rectangle of about a card's shape, and its outline is as
    # good as theirs.
    groups = side_by_side(candidates)
    candidates = [c for i, c in enumerate(candidates) if i not in groups]
    pieces = pieces_of_wholes(candidates, settings)
    candidates = [c for i, c in enumerate(candidates) if i not in pieces]
    candidates.sort(key=lambda c: (-round(c[0], 1), -c[1]))
    kept: list[np.ndarray] = []
    # a whole framed field first (not its halves); a late one only where nothing else lies,
    # or in place of a piece of it found before (`late_piece`)
    for _, _, quad in framed + candidates:
        if all(quad_overlap(quad, other) < settings.overlap for other in kept):
            kept.append(quad)
    fields = {id(quad) for _, _, quad in framed}
    for _, _, quad in late:
        over = [i for i, other in enumerate(kept) if quad_overlap(quad, other) >= settings.overlap]
        if not over:
            kept.append(quad)
        elif settings.late_piece > 0 and cut_side(quad, (sw, sh)) == -1 and \
                all(id(kept[i]) not in fields and _piece_of(kept[i], quad, settings.late_piece) for i in over):
            kept[over[0]] = quad   # every outline it overlaps a piece of it (the field's two halves)
            kept = [k for i, k in enumerate(kept) if i not in over[1:]]
    # the pale level's (a washed-out photo's field) only where nothing else lies, or in place
    # of outlines that are not the card outlined already (a piece, or card and table), that
    # hold little more of its field beyond it and whose sides are followed no better (a piece
    # of a card cut off by a glare streak, grown to the streak as to a frame, has the rest of
    # the card beyond it, and its side across the face mostly shows a weaker edge); the card
    # outlined already is kept as it was found, and kept whole
    held: list[np.ndarray] = []

    def followed(quad: np.ndarray) -> float:
        return outline_share(quad, edges, white, settings.min_step, channels=coloured, colour_step=settings.full_bleed)
    for _, _, quad in paler:
        over = [i for i, other in enumerate(kept) if quad_overlap(quad, other) >= settings.overlap]
        same = [kept[i] for i in over if quad_iou(kept[i], quad) >= settings.pale_other]
        if not over:
            kept.append(quad)
        elif same:
            held += same
        elif settings.pale_other > 0 and cut_side(quad, (sw, sh)) == -1 and \
                all(id(kept[i]) not in fields and field_beyond(channels, quad, kept[i]) < settings.pale_beyond
                    for i in over) and max(followed(kept[i]) for i in over) <= followed(quad):
            kept[over[0]] = quad
            kept = [k for i, k in enumerate(kept) if i not in over[1:]]
    # a colour field grown to its white frame is one card whole, whatever else lies in view:
    # not cut, not dropped for a larger outline, not a piece of a pip card
    whole = {id(quad) for _, _, quad in framed + late + paler} | {id(quad) for quad in held}
    if settings.cut_cover > 0:
        kept = [piece for quad in kept for piece in
                (cut_over(quad, edges, gray, settings) if cut_side(quad, (sw, sh)) == -1
                 and id(quad) not in whole else [quad])]
    if kept and settings.min_relative_area > 0:
        areas = [cv2.contourArea(q) for q in kept]
        likely = sorted(((a, i) for i, (q, a) in enumerate(zip(kept, areas))
                         if unlike_card(q) <= settings.relative_unlike), reverse=True)
        largest = next((a for a, i in likely if paper_share(kept[i], white, settings.paper)
                        >= settings.relative_paper), max(areas))
        kept = [q for q, a in zip(kept, areas) if a >= settings.min_relative_area * largest or id(q) in whole]
    if settings.whole is not None:
        dropped = [quad for _, _, quad in candidates if not any(quad is k for k in kept)]
        kept = wholecards.added(kept, dropped, gray, white, (settings.min_short_side, math.sqrt(2 * max_area)),
                                lambda quads, angles, unlikes, skips: _whole_gates_of(quads, angles, unlikes, skips, edges,
                                                                                      white, (sw, sh), settings, coloured),
                                unlike_card, settings.whole, faceless)
    if settings.shaded is not None:
        kept = shadedcards.wholes(kept, gray, white, edges, (settings.min_short_side, math.sqrt(2 * max_area)),
                                  lambda quad, angles, unlike: _whole_gates(quad, angles, unlike, edges, white,
                                                                            (sw, sh), settings, coloured),
                                  unlike_card, settings.shaded)
    if settings.ink is not None:   # only around paper that no card found holds (a page is no card)
        where = _unexplained_paper(white, [(1.0, 0.0, q) for q in kept
                                           if cv2.contourArea(q) < settings.ink.large * sh * sw], settings,
                                   settings.ink.page, unlike=settings.ink.unlike, holes=settings.ink.holes)
        if where is not None:
            kept = inkcards.added(kept, white, where, (settings.min_short_side, math.sqrt(2 * max_area)),
                                  lambda quad: cut_side(quad, (sw, sh)) == -1 and unlike_card(quad) <= 0.15,
                                  settings.ink, whole=[id(quad) in whole for quad in kept])
    if judge.pale:   # after every other pass: a piece of a card found there is no card
        kept = palecovered.added(kept, judge.pale, white, min_area * CARD_RATIO, settings.pale,
                                 settings.shaded or shadedcards.ShadedSettings())
    if nested and judge.refused is not None:   # a card's print inside a merged cell
        judge.refused += print_outlines(nested, judge)
    if judge.refused is not None:   # the outlines refused: a learned model has the last say
        # (those dropped for a neighbour too; not those of a card kept: their boxes alike)
        refused = judge.refused + [outlinescore.Considered(q, a) for _, a, q in candidates
                                   if not any(q is k for k in kept)]
        sizes = (min_area, max_area)
        if settings.court is not None:   # a court card's picture, its card lost in what it lies on
            whole = settings.whole or wholecards.WholeSettings()
            refused += courtframes.outlines(
                white, kept, settings.min_short_side, settings.court, whole,
                lambda quad, angles, unlike: _whole_gates(quad, angles, unlike, edges, white, (sw, sh), settings,
                                                          coloured))
        refused = outlinescore.unique(refused, kept, sizes)
        if trace is not None:
            trace.append(outlinescore.Trace(list(kept), refused, edges, white, gray, scale, sizes))
        if settings.learned:   # kept and refused alike
            pool = [outlinescore.Considered(q, float(cv2.contourArea(q))) for q in kept] + refused
            model = outlinescore.load()
            described = outlinescore.features(pool, edges, white, gray, settings.min_short_side,
                                              settings.min_step, settings.paper, len(kept))
            chances = model.chances(described)
            if settings.print_chance > 0:   # a print must be surer than the model's threshold
                chances = print_bar(pool, chances, settings.print_chance)
            cuts = settings.occluder_cuts
            where = None if cuts is None else occludercuts.where_to_cut(pool, chances, model.threshold, cuts, (sw, sh))
            if where is not None:   # a card under a white object, taken with it as one: cut from it
                extra = outlinescore.unique(_occluded(gray, judge, cuts, where), kept, sizes)
                if extra:
                    more = outlinescore.features(pool[:len(kept)] + extra, edges, white, gray, settings.min_short_side,
                                                 settings.min_step, settings.paper, len(kept))[len(kept):]
                    pool, described = pool + extra, np.vstack([described, more])
                    chances = occludercuts.cut_bar(pool, np.concatenate([chances, model.chances(more)]), cuts)
            kept = [pool[i].quad for i in outlinescore.accepted([c.quad for c in pool], chances, model.threshold,
                                                                model.overlap, model.by_quad, model.beside,
                                                                model.held, model.apart,
                                                                described[:, outlinescore.BORDER] > 0)]
    if scale >= 1:
        return [order_corners(q) for q in kept]
    reach = settings.refine_reach / scale
    return [order_corners(refined(frame, q / scale, reach)) for q in kept]
