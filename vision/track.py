"""Turning frame-by-frame readings into table events, one calibrated zone at a time.

A camera sees a card many times, half-covered by the hand that plays it, and sees hands
pass over piles. The tracker only speaks when a zone has settled:

* a pile zone (the discard pile, the reveal spot, a seat's spot) emits `CardSeen` when a
  new card has been the zone's top card, unoccluded and still, for `stable_frames`
  frames, or at once on the first frame after the hand that laid it has gone, when it is
  new where it lies and all that changed in the zone (`_quick`). A hand passing over the
  pile hides the top card and shows it again: no play (judged from where that card was
  last confirmed: a hand resting on the pile, found as an outline not read, is no card).
  A top card lifted and put back is no play either: the card beneath it was the pile's
  previous top, and the lifted card coming back is the same card. The same code seen on
  top again counts as a new card only after the zone was covered in between and the
  card lies clearly elsewhere (a second copy played on the first); likewise the card
  beneath coming back into view is a lift only where it lay (A, B, A played is three plays). A card read where an
  unreadable card lay still is that card, now read: no play; so is a card found at last
  where the picture has not changed since the pile last settled (it lay there unseen).
  Cards may lie side by side in a zone (Raj's bids laid in the open at once): a card
  beside the top, of a code not seen in the zone since it was last bare, counts once it
  has lain still for `stable_frames` where the table was bare when the pile last settled.
  A card the zone has accounted for, uncovered where it lies, becoming the top (another
  card read best) is no play.
* a pile zone emits `ZoneEmpty` when the zone has looked like the empty table for
  `empty_frames` frames after holding cards (the pile was taken).
* a spread zone (end-of-round counting) emits `CardsLaidOut` with every card when the
  whole spread has read the same for `stable_frames`, with no unreadable card in it and
  (when the empty table is known) nothing else lying in the zone: a spread with a card
  that was not found is not reported short.

State is a frozen value; `step` is a pure function of the state and one frame's reading.
What does not live here: reading frames (`vision.pipeline`), what events mean (the
game's referee).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.observations import CardSeen, CardsLaidOut, Observation, ZoneEmpty
from vision.pipeline import FrameReading, SeenCard

Rect = tuple[float, float, float, float]
LAY_THERE = 0.3    # share of a card's place changed when the pile settled: something lay there


@dataclass(frozen=True)
class Zone:
    """A calibrated part of the picture: a rectangle in fractions of its width and
    height (x0, y0, x1, y1). `spread`: the zone is read as a whole spread."""

    name: str
    rect: Rect
    spread: bool = False

    def __post_init__(self) -> None:
        x0, y0, x1, y1 = self.rect
        if not (0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1):
            raise ValueError(f"zone {self.name!r}: {self.rect} is not a rectangle inside the picture "
                             "(x0 < x1 and y0 < y1, all between 0 and 1)")


@dataclass(frozen=True)
class TrackSettings:
    stable_frames: int = 3       # frames a card must stay put, uncovered, before it counts
    alone_share: float | None = 0.1  # ... or one frame, when it is all that changed (see _quick)
    new_share: float = 0.2       # ... and at least this share of it lies where the table was bare
    still_share: float = 0.08    # corner movement per frame, as a share of the card's short side
    moved_share: float = 0.25    # how far a card must lie from the last top to be another card
    empty_frames: int = 4        # frames of bare table before a pile counts as taken
    clear_share: float = 0.015   # changed pixels in a zone below this share: nothing there


@dataclass(frozen=True)
class PileState:
    history: tuple[str, ...] = ()      # the pile's tops as confirmed, oldest first
    poses: tuple[tuple[float, ...], ...] = ()  # where each of those lay (flattened corners)
    top_pose: tuple[float, ...] = ()   # corners of the current top (flattened), as confirmed
    top_read: bool = False             # the card at top_pose was read (not "unknown")
    lifted: str | None = None          # a top that went away, uncovering the card beneath
    covered_since_top: bool = False    # the zone was covered after the top was confirmed
    candidate: str | None = None
    candidate_pose: tuple[float, ...] = ()
    count: int = 0
    empty_count: int = 0
    # the cards the zone has accounted for (played, or there at start-up) and no later card
    # covers: (code, pose)
    accounted: tuple[tuple[str, tuple[float, ...]], ...] = ()
    # cards read beside the top, not accounted for yet: (code, pose, frames lain still)
    pending: tuple[tuple[str, tuple[float, ...], int], ...] = ()
    # the zone's changed-pixels mask (against the empty table) when the pile last settled
    settled: np.ndarray | None = field(default=None, compare=False, repr=False)
    # where a card lay when the pile last settled, and all that had changed when it last
    # settled with nothing but cards in the zone (a hand over a place is no card there):
    # what a card beside the top must be new against
    beneath: np.ndarray | None = field(default=None, compare=False, repr=False)
    clean: np.ndarray | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class SpreadState:
    last: tuple[str, ...] = ()
    candidate: tuple[str, ...] = ()
    count: int = 0
    empty_count: int = 0


@dataclass(frozen=True)
class TrackerState:
    zones: tuple[Zone, ...]
    zone_states: tuple[PileState | SpreadState, ...]
    settings: TrackSettings = TrackSettings()
    previous: FrameReading | None = field(default=None, compare=False, repr=False)  # the last frame read


def start(zones: tuple[Zone, ...] | list[Zone], settings: TrackSettings = TrackSettings()) -> TrackerState:
    names = [z.name for z in zones]
    if len(names) != len(set(names)):
        raise ValueError(f"two zones share a name: {names}")
    return TrackerState(tuple(zones), tuple(SpreadState() if z.spread else PileState() for z in zones),
                        settings)


def prime(state: TrackerState, reading: FrameReading) -> TrackerState:
    """The tracker taking what already lies on the table (at start-up) as known, without
    reporting it as played."""
    new_states = []
    for zone, zone_state, cards in zip(state.zones, state.zone_states, assign(state.zones, reading)):
        known = [c for c in cards if c.known]
        settled = _window(reading, zone.rect)
        if zone.spread:
            zone_state = SpreadState(last=tuple(c.label for c in _reading_order(known)))
        elif known:
            card = max(known, key=lambda c: c.confidence)
            zone_state = PileState(history=(card.label,), poses=(_pose(card),), top_pose=_pose(card),
                                   top_read=True, accounted=tuple((c.label, _pose(c)) for c in known),
                                   settled=settled, beneath=settled, clean=settled)
        elif cards:  # something lies there that cannot be read yet: remember where
            zone_state = PileState(top_pose=_pose(max(cards, key=lambda c: c.confidence)),
                                   settled=settled, beneath=settled, clean=settled)
        else:
            zone_state = dataclasses.replace(zone_state, settled=settled, beneath=settled, clean=settled)
        new_states.append(zone_state)
    return dataclasses.replace(state, zone_states=tuple(new_states), previous=reading)


def assign(zones: tuple[Zone, ...], reading: FrameReading) -> list[tuple[SeenCard, ...]]:
    """The cards of each zone: a card belongs to the zone its centre lies in (the one
    whose middle is nearest, where zones overlap)."""
    w, h = reading.size
    per_zone: list[list[SeenCard]] = [[] for _ in zones]
    for card in reading.cards:
        x, y = card.centre[0] / w, card.centre[1] / h
        inside = [i for i, z in enumerate(zones) if z.rect[0] <= x <= z.rect[2] and z.rect[1] <= y <= z.rect[3]]
        if inside:
            nearest = min(inside, key=lambda i: (x - (zones[i].rect[0] + zones[i].rect[2]) / 2) ** 2
                          + (y - (zones[i].rect[1] + zones[i].rect[3]) / 2) ** 2)
            per_zone[nearest].append(card)
    return [tuple(cards) for cards in per_zone]


def step(state: TrackerState, reading: FrameReading, t_ns: int
         ) -> tuple[TrackerState, tuple[Observation, ...]]:
    """The tracker after one more frame, and the events that frame settles."""
    events: list[Observation] = []
    new_states = []
    for zone, zone_state, cards in zip(state.zones, state.zone_states, assign(state.zones, reading)):
        clear = _is_clear(reading, zone.rect, cards, state.settings)
        if zone.spread:
            if not clear and _unexplained(reading, zone.rect, cards):
                cards = cards + (SeenCard("unknown", "", 0.0, np.zeros((4, 2), np.float32)),)
            zone_state, event = _step_spread(zone, zone_state, cards, clear, t_ns, state.settings)
            event = (event,) if event is not None else ()
        else:
            zone_state, event = _step_pile(zone, zone_state, cards, clear, reading, state.previous, t_ns,
                                           state.settings)
        new_states.append(zone_state)
        events.extend(event)
    return dataclasses.replace(state, zone_states=tuple(new_states), previous=reading), tuple(events)


def _is_clear(reading: FrameReading, rect: Rect, cards: tuple[SeenCard, ...],
              settings: TrackSettings) -> bool:
    share = reading.detection.changed_fraction(rect)
    if share is None:  # no picture of the empty table: only "no card found" to go on
        return not cards
    return share < settings.clear_share and not cards


def _window_box(shape: tuple[int, ...], rect: Rect) -> tuple[int, int, int, int]:
    h, w = shape[:2]
    return int(rect[0] * w), int(rect[1] * h), int(np.ceil(rect[2] * w)), int(np.ceil(rect[3] * h))


def _window(reading: FrameReading, rect: Rect) -> np.ndarray | None:
    """The zone's part of the changed-pixels mask (a copy), or None without the empty table."""
    changed = reading.detection.changed
    if changed is None:
        return None
    x0, y0, x1, y1 = _window_box(changed.shape, rect)
    return changed[y0:y1, x0:x1].copy()


def _outside_cards(mask: np.ndarray, rect: Rect, shape: tuple[int, ...],
                   cards: tuple[SeenCard, ...]) -> float:
    """Pixels of a zone's mask outside every card (and its shadow), after the specks are
    opened away, as a share of a card's area."""
    x0, y0, _, _ = _window_box(shape, rect)
    areas = []
    for card in cards:
        centre = card.corners.mean(axis=0)
        grown = (card.corners - centre) * 1.12 + centre - [x0, y0]
        cv2.fillPoly(mask, [np.round(grown).astype(np.int32)], 0)
        areas.append(abs(float(cv2.contourArea(card.corners))))
    leftover = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    return np.count_nonzero(leftover) / max(float(np.median(areas)), 1.0)


def _unexplained(reading: FrameReading, rect: Rect, cards: tuple[SeenCard, ...]) -> bool:
    """Whether something lies in the zone besides the cards read (a card not found, a
    hand): changed pixels outside every read card (and its shadow) adding up to half a
    card. Without a picture of the empty table nothing can be told."""
    window = _window(reading, rect)
    if window is None or not cards:
        return False
    return _outside_cards(window, rect, reading.detection.changed.shape, cards) > 0.5


def _pose(card: SeenCard) -> tuple[float, ...]:
    return tuple(float(v) for v in np.asarray(card.corners, np.float32).ravel())


def _pose_gap(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """How far apart two card poses are, as a share of the card's short side (either way
    round: a card turned half round lies in the same place)."""
    if not a or not b:
        return float("inf")
    pa = np.asarray(a, np.float32).reshape(4, 2)
    pb = np.asarray(b, np.float32).reshape(4, 2)
    short = max(float(np.linalg.norm(pa[1] - pa[0])), 1.0)
    gap = min(float(np.linalg.norm(pa - np.roll(pb, k, axis=0), axis=1).mean()) for k in (0, 2))
    return gap / short


def _step_pile(zone: Zone, s: PileState, cards, clear: bool, reading: FrameReading,
               previous: FrameReading | None, t_ns: int, settings: TrackSettings
               ) -> tuple[PileState, tuple[Observation, ...]]:
    if clear:  # bare table: the picture every later change is measured from
        bare = _window(reading, zone.rect)
        s = dataclasses.replace(s, candidate=None, candidate_pose=(), count=0, pending=(),
                                empty_count=s.empty_count + 1, covered_since_top=True,
                                settled=bare, clean=bare, beneath=bare)
        if s.empty_count == settings.empty_frames and s.history:
            return PileState(empty_count=s.empty_count, settled=bare, clean=bare, beneath=bare), \
                (ZoneEmpty(zone.name, t_ns),)
        return s, ()
    s = dataclasses.replace(s, empty_count=0)
    known = [c for c in cards if c.known]
    if not cards:  # covered (a hand, a card in the air): wait
        return dataclasses.replace(s, candidate=None, candidate_pose=(), count=0, pending=(),
                                   covered_since_top=True), ()
    if not known:  # only something unreadable shows (a hand's outline, a tilted card): the top is hidden
        s = dataclasses.replace(s, covered_since_top=True)
    card = max(known, key=lambda c: c.confidence) if known else max(cards, key=lambda c: c.confidence)
    s, beside = _beside(zone, s, [c for c in known if c is not card], known, reading, t_ns, settings)
    pose = _pose(card)
    if card.label == s.candidate and _pose_gap(pose, s.candidate_pose) <= settings.still_share:
        s = dataclasses.replace(s, candidate_pose=pose, count=s.count + 1)
    else:
        s = dataclasses.replace(s, candidate=card.label, candidate_pose=pose, count=1)
    if s.count != settings.stable_frames and not (s.count < settings.stable_frames
                                                  and _quick(zone, s, card, pose, reading, previous,
                                                             settings)):
        return s, beside
    new_there = _new_there(zone, card, reading, s.settled, settings) is not False \
        and not _as_it_lay(zone, card, reading, s.settled, settings)
    left = bool(s.poses) and _left_bare(zone, s.poses[-1], card, reading, s.settled)
    s = _settle_masks(zone, s, cards, reading, _settled_now(zone, reading, s, settings))
    if not card.known:  # a card lies still but cannot be read: remember where it lies
        return dataclasses.replace(s, top_pose=pose, top_read=False), beside
    s, event = _settle(zone, s, card.label, pose, new_there, left, t_ns, settings)
    return s, beside + ((event,) if event is not None else ())


def _settled_now(zone: Zone, reading: FrameReading, s: PileState, settings: TrackSettings
                 ) -> np.ndarray | None:
    """The zone's mask as the pile settles, where the cards beside it that are not
    counted yet and lay on bare table at the last settling stay bare: they are still new
    where they lie until they count (a card misread where a card of the pile lies is not)."""
    window = _window(reading, zone.rect)
    if window is None or s.settled is None or s.settled.shape != window.shape:
        return window
    x0, y0, _, _ = _window_box(reading.detection.changed.shape, zone.rect)
    for _, pose, _ in s.pending:
        place = np.zeros_like(window)
        cv2.fillPoly(place, [np.round(np.asarray(pose, np.float32).reshape(4, 2) - [x0, y0]).astype(np.int32)], 255)
        if s.beneath is not None and _bare_share(place, s.beneath) >= settings.new_share:
            window[place > 0] = 0
    return window


def _settle_masks(zone: Zone, s: PileState, cards, reading: FrameReading,
                  settled: np.ndarray | None) -> PileState:
    """The state with the masks of a pile settling now (see PileState.beneath)."""
    if settled is None:
        return dataclasses.replace(s, settled=None, clean=None, beneath=None)
    clean = settled if not _unexplained(reading, zone.rect, cards) else s.clean
    x0, y0, _, _ = _window_box(reading.detection.changed.shape, zone.rect)
    under_cards = np.zeros_like(settled)
    for c in cards:
        centre = c.corners.mean(axis=0)
        cv2.fillPoly(under_cards, [np.round((c.corners - centre) * 1.12 + centre - [x0, y0]).astype(np.int32)], 255)
    beneath = cv2.bitwise_and(settled, under_cards)
    if clean is not None and clean.shape == beneath.shape:
        beneath = cv2.bitwise_or(beneath, clean)
    return dataclasses.replace(s, settled=settled, clean=clean, beneath=beneath)


def _accounted_for(accounted, label: str, pose, settings: TrackSettings) -> bool:
    return any(code == label and _pose_gap(pose, where) <= settings.moved_share for code, where in accounted)


def _beside(zone: Zone, s: PileState, others: list[SeenCard], known: list[SeenCard], reading: FrameReading,
            t_ns: int, settings: TrackSettings) -> tuple[PileState, tuple[Observation, ...]]:
    """The cards read beside the top (`others`; `known`: every card read in the zone): one
    counts once it has lain still for `stable_frames` and at least `new_share` of it lies
    where the table was bare when the pile last settled (so a card of the pile read only
    now, or misread where it lies, never counts; a hand over its place then does not make
    it old there: `PileState.beneath`). A code already seen in the zone since it was last
    bare counts again only as a second copy: clearly away from every card of that code the
    zone accounts for, each of which still lies in view where it was (a Flip 7 line's
    duplicate; not a card lifted and held beside its place), and new against the whole
    mask of the last settling too (not a card of the pile found only now). The others
    wait."""
    history = set(s.history) | {s.lifted}
    pending, events, accounted = [], [], s.accounted
    for c in others:
        pose = _pose(c)
        copies = [where for code, where in accounted if code == c.label]
        if c.label == s.lifted or (c.label in history and not copies) or \
                any(_pose_gap(pose, where) <= settings.moved_share for where in copies) or \
                not all(any(k.label == c.label and k is not c and _pose_gap(_pose(k), where) <= settings.moved_share
                            for k in known) for where in copies):
            continue
        count = 1 + next((n for code, where, n in s.pending
                          if code == c.label and _pose_gap(pose, where) <= settings.still_share), 0)
        if count >= settings.stable_frames and _new_there(zone, c, reading, s.beneath, settings) \
                and (not copies or _new_there(zone, c, reading, s.settled, settings)):
            events.append(CardSeen(zone.name, c.label, t_ns))
            accounted = _account(accounted, c.label, pose)
        else:
            pending.append((c.label, pose, count))
    return dataclasses.replace(s, pending=tuple(pending), accounted=accounted), tuple(events)


def _account(accounted, label: str, pose) -> tuple[tuple[str, tuple[float, ...]], ...]:
    """The cards accounted for once `label` lies at `pose`: the ones it covers for the
    most part are under it now (only a lift shows them again)."""
    quad = np.asarray(pose, np.float32).reshape(4, 2)
    kept = []
    for code, where in accounted:
        other = np.asarray(where, np.float32).reshape(4, 2)
        area = abs(float(cv2.contourArea(other)))
        overlap, _ = cv2.intersectConvexConvex(quad, other)
        if overlap < 0.5 * area:
            kept.append((code, where))
    return tuple(kept[-15:]) + ((label, tuple(pose)),)


def _new_there(zone: Zone, card: SeenCard, reading: FrameReading, settled: np.ndarray | None,
               settings: TrackSettings) -> bool | None:
    """Whether at least `new_share` of the card lies where the table was bare when the pile
    last settled (None: cannot be told, no empty table or no settled picture)."""
    found = _card_place(zone, card, reading, settled)
    if found is None:
        return None
    return bool(_bare_share(found[1], settled) >= settings.new_share)


def _card_place(zone: Zone, card: SeenCard, reading: FrameReading, settled: np.ndarray | None
                ) -> tuple[np.ndarray, np.ndarray] | None:
    """The zone's changed-pixels mask now and the card's place as a mask of the zone
    (None: no empty table, or no settled mask of the same zone to compare with)."""
    window = _window(reading, zone.rect)
    if window is None or settled is None or settled.shape != window.shape:
        return None
    x0, y0, _, _ = _window_box(reading.detection.changed.shape, zone.rect)
    place = np.zeros_like(window)
    cv2.fillPoly(place, [np.round(card.corners - [x0, y0]).astype(np.int32)], 255)
    return window, place


def _as_it_lay(zone: Zone, card: SeenCard, reading: FrameReading, settled: np.ndarray | None,
               settings: TrackSettings) -> bool:
    """Whether the card lay there unseen: its place was not bare when the pile last settled
    (at least `LAY_THERE` of it had changed), and the picture there has hardly changed
    since (less than `new_share` of the place changed one way or the other: a card laid
    there would change it). Under a lamp's glare a white card on a pale cloth differs
    from the empty table on only part of its face, so the rest looks bare; a hand passes
    or slaps the pile, nudging the card a little, the card is found at last, and all that
    changed in its place is a rim as wide as the nudge (the bench's Hit the Deck pile
    found only after a hand, and its slaps: false plays)."""
    found = _card_place(zone, card, reading, settled)
    if found is None:
        return False
    window, place = found
    area = np.count_nonzero(place)
    then = cv2.bitwise_and(settled, place)
    changed = cv2.bitwise_and(cv2.bitwise_xor(window, settled), place)
    return bool(np.count_nonzero(then) >= LAY_THERE * area
                and np.count_nonzero(changed) < settings.new_share * area)


def _left_bare(zone: Zone, where: tuple[float, ...], card: SeenCard, reading: FrameReading,
               settled: np.ndarray | None) -> bool:
    """Whether the place a card lay in when the pile last settled (`where`), away from
    `card`'s place now, is bare table again: at least a quarter of that card lies clear of
    `card` (and its shadow), at least `LAY_THERE` of that part had changed then, and less
    than half of what had changed there still differs from the empty table. A card that
    lay there has gone (slid to where `card` lies); a second copy laid on it leaves it
    showing there."""
    found = _card_place(zone, card, reading, settled)
    if found is None:
        return False
    window, _ = found
    x0, y0, _, _ = _window_box(reading.detection.changed.shape, zone.rect)
    old, new = np.zeros_like(window), np.zeros_like(window)
    cv2.fillPoly(old, [np.round(np.asarray(where, np.float32).reshape(4, 2) - [x0, y0]).astype(np.int32)], 255)
    centre = card.corners.mean(axis=0)
    cv2.fillPoly(new, [np.round((card.corners - centre) * 1.12 + centre - [x0, y0]).astype(np.int32)], 255)
    clear = cv2.bitwise_and(old, cv2.bitwise_not(new))
    area = np.count_nonzero(clear)
    then = np.count_nonzero(cv2.bitwise_and(settled, clear))
    now = np.count_nonzero(cv2.bitwise_and(window, clear))
    return bool(area >= 0.25 * max(np.count_nonzero(old), 1) and then >= LAY_THERE * area and now < 0.5 * then)


def _bare_share(place: np.ndarray, settled: np.ndarray) -> float:
    """The share of a place (a mask) that was bare table in the settled mask."""
    bare_then = cv2.bitwise_and(place, cv2.bitwise_not(settled))
    return float(np.count_nonzero(bare_then) / max(np.count_nonzero(place), 1))


def _quick(zone: Zone, s: PileState, card: SeenCard, pose, reading: FrameReading,
           previous: FrameReading | None, settings: TrackSettings) -> bool:
    """Whether a card may count on this frame without waiting for `stable_frames` (the
    moment the hand that laid it has gone):

    * the zone was covered (or bare) since the last top settled: a hand came;
    * the card is read, and at least `new_share` of it lies where the table was bare when
      the pile last settled: it is new there (a misread of the top where it lies, or a
      card of the pile found only now, must wait for the stable frames);
    * it is all that changed in the zone since then (`alone_share`): the hand has left,
      nothing else lies or moves there;
    * it is not sliding (`_not_sliding`).

    Waiting longer would add nothing once the hand is gone: the camera loop's still-frame
    shortcut hands the tracker that same reading again for as long as nothing moves."""
    if settings.alone_share is None or not card.known or not s.covered_since_top \
            or not _new_there(zone, card, reading, s.settled, settings):
        return False
    return (_not_sliding(pose, s.top_pose, previous, settings)
            and _outside_cards(cv2.bitwise_xor(_window(reading, zone.rect), s.settled), zone.rect,
                               reading.detection.changed.shape, (card,)) <= settings.alone_share)


def _not_sliding(pose, top_pose, previous: FrameReading | None, settings: TrackSettings) -> bool:
    """Whether, in the frame before, the card's place was already taken (by the card
    itself, lying as now, or by the hand over it), with no card close by at another pose:
    a card sliding or tossed in shows up where the table was bare, or was seen nearby."""
    if previous is None or previous.detection.changed is None:
        return False
    gaps = [(_pose_gap(pose, _pose(other)), _pose(other)) for other in previous.cards]
    if any(settings.still_share < gap < 1.0 and _pose_gap(other, top_pose) > settings.still_share
           for gap, other in gaps):
        return False                             # a card close by at another pose: moving
    if any(gap <= settings.still_share for gap, _ in gaps):
        return True                              # it lay there as now
    quad = np.asarray(pose, np.float32).reshape(4, 2)
    centre = quad.mean(axis=0)
    inner = np.round((quad - centre) * 0.9 + centre).astype(np.int32)
    place = np.zeros_like(previous.detection.changed)
    cv2.fillPoly(place, [inner], 255)
    area = max(np.count_nonzero(place), 1)
    return bool(np.count_nonzero(cv2.bitwise_and(place, previous.detection.changed)) >= 0.9 * area)


def _settle(zone: Zone, s: PileState, label: str, pose, new_there: bool, left: bool, t_ns: int,
            settings: TrackSettings):
    """A card has been the zone's still, uncovered top for long enough: what is it?
    `new_there`: it lies (in part) where the table was bare when the pile last settled,
    and its place changed since (`_as_it_lay`), or that cannot be told. `left`: where the
    top was last confirmed, outside this card, is bare table again (`_left_bare`)."""
    top = s.history[-1] if s.history else None
    settled = dataclasses.replace(s, top_pose=pose, top_read=True, covered_since_top=False,
                                  accounted=_account(s.accounted, label, pose))
    same_place = _pose_gap(pose, s.top_pose) <= settings.moved_share
    if label == top:
        # measured from where that card was last confirmed (an unreadable outline that lay
        # still since, a hand resting flat on the pile, a slap, is no card of the pile to
        # measure from); clearly elsewhere while the place where it lay has gone bare, it
        # is the top slid there (slapped, pushed), not a second copy laid on it
        if left or not (s.covered_since_top and _pose_gap(pose, s.poses[-1]) > settings.moved_share):
            # the same card, a hand went by
            return dataclasses.replace(settled, poses=s.poses[:-1] + (pose,)), None
    elif len(s.history) >= 2 and label == s.history[-2] and \
            _pose_gap(pose, s.poses[-2]) <= settings.moved_share:
        # the top card was lifted off: the card beneath shows again, where it lay
        return dataclasses.replace(settled, history=s.history[:-1], poses=s.poses[:-1],
                                   lifted=top), None
    elif label == s.lifted:  # the lifted card is back
        return dataclasses.replace(settled, history=s.history + (label,), poses=s.poses + (pose,),
                                   lifted=None), None
    elif _accounted_for(s.accounted, label, pose, settings):
        # a card lying beside the top, uncovered where it lay, is now read best: no play
        return dataclasses.replace(settled, history=(s.history + (label,))[-32:],
                                   poses=(s.poses + (pose,))[-32:]), None
    elif not s.top_read and (same_place or not new_there):
        # the top was never read, and this card lies where it lay, or where the pile
        # lay: the card that lay there unread, now read (a hand went by), no play
        return dataclasses.replace(settled, history=s.history[:-1] + (label,),
                                   poses=s.poses[:-1] + (pose,)), None
    return (dataclasses.replace(settled, history=(s.history + (label,))[-32:],
                                poses=(s.poses + (pose,))[-32:], lifted=None),
            CardSeen(zone.name, label, t_ns))


def _reading_order(cards) -> tuple[SeenCard, ...]:
    """Rows from the top of the picture, each row left to right."""
    if not cards:
        return ()
    height = float(np.median([np.linalg.norm(c.corners[2] - c.corners[1]) for c in cards]))
    return tuple(sorted(cards, key=lambda c: (round(c.centre[1] / max(height * 0.6, 1.0)), c.centre[0])))


def _step_spread(zone: Zone, s: SpreadState, cards, clear: bool, t_ns: int, settings: TrackSettings):
    if clear:
        s = dataclasses.replace(s, candidate=(), count=0, empty_count=s.empty_count + 1)
        if s.empty_count == settings.empty_frames and s.last:
            return SpreadState(empty_count=s.empty_count), ZoneEmpty(zone.name, t_ns)
        return s, None
    s = dataclasses.replace(s, empty_count=0)
    if not cards or any(not c.known for c in cards):  # a card is covered or unreadable
        return dataclasses.replace(s, candidate=(), count=0), None
    labels = tuple(c.label for c in _reading_order(cards))
    if labels == s.candidate:
        s = dataclasses.replace(s, count=s.count + 1)
    else:
        s = dataclasses.replace(s, candidate=labels, count=1)
    if s.count == settings.stable_frames and labels != s.last:
        return dataclasses.replace(s, last=labels), CardsLaidOut(zone.name, labels, t_ns)
    return s, None


def zone_from_polygon(name: str, polygon: np.ndarray, size: tuple[int, int], spread: bool = False) -> Zone:
    """The zone bounding a polygon in picture pixels (what calibration clicks give)."""
    w, h = size
    pts = np.asarray(polygon, np.float32).reshape(-1, 2)
    x0, y0 = max(0.0, float(pts[:, 0].min()) / w), max(0.0, float(pts[:, 1].min()) / h)
    x1, y1 = min(1.0, float(pts[:, 0].max()) / w), min(1.0, float(pts[:, 1].max()) / h)
    return Zone(name, (x0, y0, x1, y1), spread)
