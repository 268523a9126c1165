"""Whole cards from their four straight sides, where the finder's maps give only pieces
of them or nothing.

A card's outline is four straight sides, and on a real table something often breaks the
maps the finder works from without breaking those sides: a shadow across the card
splits its whiteness in two, a court card's picture cuts its Canny cells into pieces, a
card lying on a book or a game's case merges with it into one larger region, and on a
white plate or a page the card is no whiter than what it lies on. Line segments
(`cv2.createLineSegmentDetector`, through `vision.edgequads`) still follow the card's
sides. Two of their corners opposite each other make a quadrilateral; one is taken as a
card when it is held tightly by the gates a card's outline meets and a table's patterns
rarely do together:

* its outline lies on segments for most of its length, and on the finder's edges or a
  step in whiteness for nearly all of it;
* its side ratio is near a card's and its corners near square;
* its inside holds ink (pips, an index, a court picture) but is mostly lighter than it;
* no outline of about its size overlaps it (that is the card already found, or the card
  whose court frame this is).

It replaces the pieces of it that were found (a shadow's or a picture's), and is added
beside a larger outline holding it (the book or the case it lies on). With
`WholeSettings.group_tops` (taught decks' real-table settings only) the same for the top card
of a fan of cards merged into one outline a little larger than a card: added beside it, the
learned outline scorer has the last say (`vision.outlinescore`: a group holding a sure card
gives way to it). With `WholeSettings.top_sides` as well, such a top card whose side over the
card below lies white on white (no corner opposite the two it shows) is taken from two
corners at the ends of one side and a card's side ratio (`edgequads.side_quads`), when its
fourth side still lies on an edge and its face is like itself turned half round.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision import edgequads
from vision.warp import order_corners, order_corners_of, quad_overlap


@dataclass(frozen=True)
class WholeSettings:
    min_cover: float = 0.8          # share of the outline on a line segment
    min_segment: float = 0.3        # ... of segments this share of the smallest card's short side
    min_share: float = 0.9          # share of it on an edge or a whiteness step
    max_unlike: float = 0.15        # side ratio this near a card's (absolute log)
    angles: tuple[float, float] = (78.0, 102.0)   # corners
    same_size: tuple[float, float] = (0.6, 2.5)   # an overlapping outline of this many times
                                    # its area is the card already found (or the card whose
                                    # court frame this is)
    overlap: float = 0.3            # ... overlapping this much (of the smaller)
    piece_inside: float = 0.85      # a smaller outline this much inside it is a piece of it
    half: float = 0.45              # ... but one of a card's shape and less than this share of
                                    # its area is a card (half a card cut across is card-shaped)
    touch: float = 0.1              # an outline overlapping it this much (of the smaller) that
                                    # is neither a piece of it nor what it lies on: it is not a card
    hold: float = 0.85              # ... lying inside: this share of it
    min_paper: int = 150            # its paper (90th percentile of whiteness) at least this white
    ink_step: int = 60              # ink: this much darker than the paper (of 255 whiteness)
    index_ink: float = 0.03         # two opposite corners' index cells hold this share of ink
    margin_paper: float = 0.5       # three of its four margins this share as white as its paper
    paper_spread: int = 30          # ... within this of it
    drop_holders: bool = True       # an outline holding a whole card found is not a card
    frame_margins: tuple[float, float] = (0.18, 0.1)   # a court card's frame to its card: the
                                    # margins, shares of the frame's short and long side (a
                                    # card's frame lies 13 % of its width and 8 % of its length
                                    # in from its edge: 69 frames inside cards found on train)
    frame_unlike: float = 0.3       # ... the frame's side ratio this near a card's (log)
    frame_symmetry: float = 0.3     # ... its inside this like itself turned half round (a court
                                    # picture is printed twice, head to foot; 90 % of the frames
                                    # inside cards found on train are, a photograph is not)
    frame_card_unlike: float = 0.2  # ... the card grown from it this near a card's side ratio
    frame_share: float = 0.0        # ... the card's outline this share edged (on a plate or a
                                    # page the card's own edge often shows none)
    look: tuple[str, ...] = ("large",)   # where else to look: "unlike", "large" (`_where_to_look`)
    grow: int = 20                  # pixels the box looked in is grown by all round
    large: float = 0.2              # an outline this share of the frame may be what cards lie on
    group_tops: float = 0.0         # a fan: an outline kept that holds an outline the finder
                                    # dropped of 1/`same_size[1]` to 1/this of its area is looked
                                    # in (a group of cards, its top card's own outline dropped for
                                    # it), and a whole card lying inside an outline kept of this
                                    # many times its area or more (below `same_size[1]`) is that
                                    # group's top card, not the card found already: added beside
                                    # it, the learned scorer to choose (0: off)
    top_sides: float = 0.0          # with `group_tops`: also a fan's top card from two corners at
                                    # the ends of one side and a card's side ratio (its fourth side
                                    # white on white over the card below), lying inside an outline
                                    # kept of `group_tops` times its area or more, its outline this
                                    # share on an edge or a step (0: off)
    top_cover: float = 0.5          # ... its outline this share on a line segment
    top_far: float = 0.65           # ... and its fourth side this share on an edge or a step (three
                                    # sides followed alone are a card's half cut across its face)
    top_symmetry: float = 0.3       # ... and its inside this like itself turned half round (a card's
                                    # face is printed twice, head to foot; its half is not)
    look_in_faces: bool = False     # an outline holding a smaller one dropped for it is looked
                                    # in even when it shows a card's face itself (False: it is
                                    # that card whole, what it holds its picture or pips; on
                                    # train_ 73 of 290 frames looked, now 51)


_FACE = (50, 70)   # pixels of the upright face the inside is looked at in
_INDEX = ((slice(2, 17), slice(2, 12)), (slice(2, 17), slice(38, 48)),
          (slice(53, 68), slice(38, 48)), (slice(53, 68), slice(2, 12)))   # rows, columns
_MARGIN = ((slice(1, 4), slice(8, 42)), (slice(8, 62), slice(46, 49)),
           (slice(66, 69), slice(8, 42)), (slice(8, 62), slice(1, 4)))


def looks_like_a_card(quad: np.ndarray, white: np.ndarray, settings: WholeSettings) -> bool:
    """Whether the inside, seen upright, is a card's face: paper-white, an index (ink) in
    two opposite corners, and a white margin along three sides at least (a court card's
    printed frame has its picture in every corner and no margin; a picture, a tile or a
    patch of floor has no index)."""
    w, h = _FACE
    upright = np.float32(((0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)))
    face = cv2.warpPerspective(white, cv2.getPerspectiveTransform(order_corners(quad), upright), _FACE)
    paper = _percentile_90(face)
    if paper < settings.min_paper:
        return False
    ink = face < paper - settings.ink_step
    cells = [np.count_nonzero(ink[rows, cols]) / _CELL for rows, cols in _INDEX]
    if max(min(cells[0], cells[2]), min(cells[1], cells[3])) < settings.index_ink:
        return False
    papery = face >= paper - settings.paper_spread
    margins = sorted(np.count_nonzero(papery[rows, cols]) / size for (rows, cols), size in zip(_MARGIN, _MARGIN_SIZES))
    return margins[1] >= settings.margin_paper


_CELL = 15 * 10   # pixels of an index cell (`_INDEX`)
_MARGIN_SIZES = (3 * 34, 54 * 3, 3 * 34, 54 * 3)   # ... and of each margin (`_MARGIN`)


def _percentile_90(face: np.ndarray) -> float:
    """`np.percentile(face, 90)` (linear between the two nearest values), from a partial
    sort: the same number for a fraction of the cost."""
    values = face.ravel()
    at = 0.9 * (values.size - 1)
    k = int(at)
    low, high = np.partition(values, (k, k + 1))[[k, k + 1]].tolist()
    t = at - k
    return float(low + (high - low) * t) if t < 0.5 else float(high - (high - low) * (1 - t))


def _where_to_look(kept: list[np.ndarray], areas: list[float], others: list[np.ndarray], white: np.ndarray,
                   unlike, settings: WholeSettings) -> tuple[int, int, int, int] | None:
    """The box (x, y, w, h) around the outlines kept that may hold a whole card the maps
    broke or merged with what it lies on: those holding a smaller outline the finder
    dropped for them (a piece of a card on a book, a game's case, or beside a postcard)
    whose inside is no card's face (one that is, is that card whole), and, in
    `settings.look`, those of no card's shape or of a large share of the frame (a card
    merged with a postcard or a page it lies over) whose inside is no card's face; None
    when there is none. With `settings.group_tops`, also those holding a smaller outline
    dropped for them of a card's size beside theirs, face or not (a fan of cards)."""
    shape = white.shape
    chosen = []
    other_areas = [cv2.contourArea(o) for o in others]
    centres = [o.mean(axis=0).tolist() for o in others]
    for i, quad in enumerate(kept):
        box = cv2.boundingRect(np.round(quad).astype(np.int32))
        x, y, w, h = box
        merged = ("unlike" in settings.look and unlike(quad) > settings.max_unlike or
                  "large" in settings.look and areas[i] >= settings.large * shape[0] * shape[1])
        holds = any(a < settings.same_size[0] * areas[i] and x <= cx <= x + w and y <= cy <= y + h and
                    quad_overlap(o, quad) >= settings.piece_inside
                    for o, a, (cx, cy) in zip(others, other_areas, centres))
        face = (merged or holds) and looks_like_a_card(quad, white, settings)
        group = settings.group_tops > 0 and any(
            areas[i] / settings.same_size[1] <= a <= areas[i] / settings.group_tops and x <= cx <= x + w and
            y <= cy <= y + h and quad_overlap(o, quad) >= settings.piece_inside
            for o, a, (cx, cy) in zip(others, other_areas, centres))
        if merged and not face or holds and (settings.look_in_faces or not face) or group:
            chosen.append(box)
    if not chosen:
        return None
    b = np.array(chosen)
    grow = settings.grow
    # (even: the segment detector halves the picture, and the same pixels pair as in the whole)
    x0, y0 = max(int(b[:, 0].min()) - grow, 0) & ~1, max(int(b[:, 1].min()) - grow, 0) & ~1
    x1 = min(int((b[:, 0] + b[:, 2]).max()) + grow, shape[1])
    y1 = min(int((b[:, 1] + b[:, 3]).max()) + grow, shape[0])
    return x0, y0, x1 - x0, y1 - y0


def _segment_quads(kept: list[np.ndarray], areas: list[float], others: list[np.ndarray], gray: np.ndarray,
                   white: np.ndarray, sizes: tuple[float, float], unlike,
                   settings: WholeSettings) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Quadrilaterals from line segments where a whole card may lie (`_where_to_look`),
    best covered first, those at least `min_cover` on segments; and with `top_sides`, the
    outlines of cards from two corners and a side (`edgequads.side_quads`) lying in a
    group (`_grouped`) at least `top_cover` on them, best covered first."""
    box = _where_to_look(kept, areas, others, white, unlike, settings)
    if box is None:
        return [], []
    sides = settings.top_cover if settings.group_tops > 0 and settings.top_sides > 0 else None
    return _box_quads(gray, box, settings.min_segment * sizes[0], sizes, settings.min_cover, sides,
                      lambda quads: _grouped(quads, kept, areas, settings))


def segment_quads(gray: np.ndarray, box: tuple[int, int, int, int], least: float, sizes: tuple[float, float],
                  min_cover: float) -> list[np.ndarray]:
    """Quadrilaterals from line segments (`vision.edgequads`, segments at least `least`
    long) inside `box` (x, y, w, h) of the picture, in its pixels, those at least
    `min_cover` on segments, best covered first."""
    return _box_quads(gray, box, least, sizes, min_cover, None)[0]


def _box_quads(gray: np.ndarray, box: tuple[int, int, int, int], least: float, sizes: tuple[float, float],
               min_cover: float, side_cover: float | None,
               sided_wanted=None) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """`segment_quads`, and when `side_cover` is given the outlines from two corners and a
    side (`edgequads.side_quads`) that `sided_wanted(quads)` (a mask; quads in the
    picture's pixels) keeps, at least `side_cover` on segments, best covered first."""
    from vision.quadgates import CARD_RATIO   # (vision.quadgates' settings hold these)
    x, y, w, h = box
    quad_settings = edgequads.QuadSettings()
    segs = edgequads.segments(gray[y:y + h, x:x + w], least, quad_settings)
    if len(segs) < 4:
        return [], []
    corners = edgequads.corners(segs, quad_settings)
    found = edgequads.quads(*corners, sizes, quad_settings)
    offset = np.float32((x, y))
    sided = edgequads.side_quads(*corners, CARD_RATIO, sizes, quad_settings) if side_cover is not None else found[:0]
    if len(sided) and sided_wanted is not None:
        # (only those kept: their covers, the cut and the order are as of them all)
        sided = sided[sided_wanted(sided + offset)]
    mask = edgequads.segment_mask((h, w), segs) if len(found) or len(sided) else None
    out = []
    for quads, least_cover in ((found, min_cover), (sided, side_cover)):
        if not len(quads):
            out.append([])
            continue
        cover = edgequads.covers(quads, mask)
        quads = quads + offset
        order = np.argsort(-cover, kind="stable")
        out.append([quads[k] for k in order[cover[order] >= least_cover].tolist()])
    return out[0], out[1]


def _grouped(quads: np.ndarray, kept: list[np.ndarray], areas: list[float], settings: WholeSettings) -> np.ndarray:
    """Which of `quads` (Q x 4 x 2) have their middle in the box of an outline kept of
    `group_tops` to `same_size[1]` times their area (a group's top card's outline: the only
    ones `added` takes from two corners and a side; a quick look before its own)."""
    found = np.asarray(quads, np.float32)
    x, y = found[:, :, 0], found[:, :, 1]
    area = 0.5 * np.abs((x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1))
    middle = found.mean(axis=1)
    near = np.zeros(len(found), bool)
    for quad, held in zip(kept, areas):
        bx, by, bw, bh = cv2.boundingRect(np.round(quad).astype(np.int32))
        near |= (area * settings.group_tops <= held) & (held < area * settings.same_size[1]) & \
            (middle[:, 0] >= bx) & (middle[:, 0] <= bx + bw) & (middle[:, 1] >= by) & (middle[:, 1] <= by + bh)
    return near


def _first_of_each(quads: list[np.ndarray]) -> list[np.ndarray]:
    """Of those of `quads` whose corners round to the same 4-pixel grid points (the same two
    corners found from nearby segments), the first (the best covered), in order."""
    if not quads:
        return []
    found = np.array(quads, np.float32)
    _, first = np.unique(np.round(found.reshape(len(found), 8) / 4), axis=0, return_index=True)
    return list(found[np.sort(first)])


def _overlap(a: np.ndarray, a_area: float, b: np.ndarray, b_area: float) -> float:
    """`quad_overlap(a, b)` of two float32 quads (4 x 2) whose `cv2.contourArea` is known."""
    area, _ = cv2.intersectConvexConvex(a, b)
    smaller = min(a_area, b_area)
    return float(area) / smaller if smaller > 0 else 0.0


def _meeting(quads: list[np.ndarray], kept: list[np.ndarray]) -> list[list[int]]:
    """For each of `quads`, the indexes of the outlines kept whose box meets its box (a
    pixel to spare): the only ones that can overlap it (`quad_overlap` is 0 for the others)."""
    if not quads or not kept:
        return [[] for _ in quads]
    q = np.array(quads, np.float32).reshape(len(quads), 4, 2)
    k = np.array(kept, np.float32).reshape(len(kept), 4, 2)
    low, high = q.min(axis=1)[:, None], q.max(axis=1)[:, None]
    meet = ((low <= k.max(axis=1) + 1) & (k.min(axis=1) - 1 <= high)).all(axis=2)
    return [[i for i, m in enumerate(row) if m] for row in meet.tolist()]


_UPRIGHT = np.float32(((0, 0), (31, 0), (31, 47), (0, 47)))   # (`_half_turn_alike`'s face)


def _half_turn_alike(quad: np.ndarray, gray: np.ndarray, corners: np.ndarray | None = None) -> float:
    """Correlation of the quad's inside, seen upright (32 x 48), with itself turned half
    round; `corners`: its `order_corners`, when known."""
    corners = order_corners(quad) if corners is None else corners
    inside = cv2.warpPerspective(gray, cv2.getPerspectiveTransform(corners, _UPRIGHT), (32, 48)).astype(np.float32)
    a = inside - inside.mean()
    b = a[::-1, ::-1]
    return float((a * b).sum() / max(float((a * a).sum()), 1e-6))


def grown_frame(frame: np.ndarray, settings: WholeSettings) -> np.ndarray:
    """The card a court card's printed frame lies in: the frame grown by the card's margins
    (`frame_margins`, shares of the frame's short and long sides), in the frame's own
    perspective."""
    corners = order_corners(frame)   # TL-TR a short side
    a, b = settings.frame_margins
    unit = np.float32(((0, 0), (1, 0), (1, 1), (0, 1)))
    to_frame = cv2.getPerspectiveTransform(unit, corners)
    card = np.float32(((-a, -b), (1 + a, -b), (1 + a, 1 + b), (-a, 1 + b))).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(card, to_frame).reshape(4, 2)


def added(kept: list[np.ndarray], others: list[np.ndarray], gray: np.ndarray, white: np.ndarray,
          sizes: tuple[float, float], gates, unlike, settings: WholeSettings = WholeSettings(),
          frames: list[np.ndarray] = ()) -> list[np.ndarray]:
    """`kept` with the whole cards that line segments outline added and the pieces of them
    dropped; `others`: the outlines the finder dropped for those kept; `frames`: outlines
    from line segments whose inside was no card's face (perhaps a court card's printed
    frame, grown here to the card). `sizes`: a card's smallest short side and largest long
    side; `gates(quads, angles, unlikes, skip_sides)`: the finder's own checks of each outline
    (inside the frame, corners within `angles`, side ratio within its `unlikes` of a card's),
    returning for each the share of its outline (its side in `skip_sides` left out, -1: none)
    on an edge or a step, or None; `unlike(quad)`: how far its side ratio is from a card's
    (absolute log)."""
    areas = [cv2.contourArea(q) for q in kept]
    whole, sided = _segment_quads(kept, areas, others, gray, white, sizes, unlike, settings)
    tried = [(quad, settings.min_share, settings.max_unlike, False) for quad in whole]
    tried += [(grown_frame(quad, settings), settings.frame_share, settings.frame_card_unlike, False) for quad in frames
              if unlike(quad) <= settings.frame_unlike and
              _half_turn_alike(quad, gray) >= settings.frame_symmetry]
    tops = _first_of_each(sided)
    tried += [(quad, settings.top_sides, settings.max_unlike, True) for quad in tops]
    if not tried:
        return list(kept)
    low, high = settings.same_size
    group = settings.group_tops if settings.group_tops > 0 else high
    held = [np.asarray(q, np.float32).reshape(4, 2) for q in kept]
    held_areas = [cv2.contourArea(q) for q in held]
    ordered = iter(order_corners_of(np.array(tops)) if tops else ())   # (at once: as `order_corners` each)
    # First what its place among the outlines kept and its own look say of each (pure: none
    # of it hangs on the others tried), then the outline's gates of those left all at once,
    # then each in turn beside those added before it.
    looked: list[tuple[int, list[tuple[int, float, float]]]] = []
    for k, ((quad, _, _, top), meeting) in enumerate(zip(tried, _meeting([t[0] for t in tried], kept))):
        corners = next(ordered) if top else None
        area = cv2.contourArea(quad)
        own = np.asarray(quad, np.float32).reshape(4, 2)
        own_area = cv2.contourArea(own)
        near = [(i, areas[i] / area, overlap) for i in meeting
                if (overlap := _overlap(own, own_area, held[i], held_areas[i])) >= settings.touch]
        # of about its size: the card found already, or the card whose court frame this is
        # (with `group_tops`, one holding it and that much larger: a group, this its top card);
        # partly over it: neither a piece of it nor what it lies on, so not a card
        if any(low <= ratio < high and not (group <= ratio and overlap >= settings.hold) or
               ratio < low and overlap < settings.hold for _, ratio, overlap in near):
            continue
        if top and not any(group <= ratio < high and overlap >= settings.hold for _, ratio, overlap in near):
            continue   # two corners and a side: only a group's top card
        if top and _half_turn_alike(quad, gray, corners) < settings.top_symmetry:
            continue   # (before the outline's gates: as telling of a top card, and cheaper)
        looked.append((k, near))
    # each one's outline share, and a top card's with its fourth side left out as well
    asked = [(k, -1) for k, _ in looked] + [(k, 2) for k, _ in looked if tried[k][3]]
    shares = dict(zip(asked, gates([tried[k][0] for k, _ in asked], settings.angles,
                                   [tried[k][2] for k, _ in asked], [side for _, side in asked])))
    new: list[np.ndarray] = []
    dropped: set[int] = set()
    for k, near in looked:
        quad, least, _, top = tried[k]
        if any(quad_overlap(quad, q) >= settings.overlap for q in new):
            continue
        share = shares[k, -1]
        if share is None or share < least:
            continue
        if top and 4 * share - 3 * shares[k, 2] < settings.top_far:
            continue   # (every side inside the frame: the fourth side's share from the other three's)
        if not looks_like_a_card(quad, white, settings):
            continue
        area = cv2.contourArea(quad)
        pieces = [i for i, ratio, _ in near if ratio < low]
        if any(areas[i] < settings.half * area and unlike(kept[i]) <= settings.max_unlike for i in pieces):
            continue   # a card inside it: it is the card's shadow, or what the card lies on
        if any(quad_overlap(kept[i], kept[j]) < settings.overlap for n, i in enumerate(pieces) for j in pieces[n + 1:]):
            continue   # two outlines apart inside it: cards side by side (or what they lie on)
        new.append(quad)
        dropped.update(pieces)
        if settings.drop_holders:
            dropped.update(i for i, ratio, overlap in near if ratio >= high and overlap >= settings.hold)
    return [q for i, q in enumerate(kept) if i not in dropped] + new
