"""Short clips of play at the table, frame by frame with truth, for testing the tracker.

A clip keeps one table, camera and light; only the cards and hands move, and every frame
gets its own sensor noise. Each frame's truth lists the cards in the picture (a card
held in the air has zone "air"), the discard pile's top card as it lies, and whether
anything is over the pile; the clip's `events` say what a tracker should report and from
which frame it is knowable ("landed" when a played card is down and unoccluded,
"cleared" when the pile has been taken away and the zone is clear).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterator, Sequence

import numpy as np

from vision.render.cards import CARD_ASPECT, game_deck
from vision.render.hands import SKIN_TONES, HandPose
from vision.render.scene import (ZONE_RECTS, PlacedCard, Placement, SceneSpec, Table, compose,
                                 image_corners, messy_pile, random_spec, set_table, zone_polygons)


@dataclass(frozen=True)
class FrameTruth:
    index: int
    cards: tuple[PlacedCard, ...]  # every card face in the picture, bottom first
    pile_top: str | None           # the discard pile's top card as it lies (None: no pile)
    pile_clear: bool               # nothing (hand, card in the air) over the discard pile
    hand: bool                     # a hand is in the picture


@dataclass(frozen=True)
class Event:
    frame: int         # the first frame from which it is true and visible
    kind: str          # "landed" | "cleared"
    code: str | None   # the card that landed


@dataclass(frozen=True, eq=False)
class Clip:
    """A list-like of (frame, truth) pairs, plus what a tracker should make of them."""
    frames: tuple[np.ndarray, ...]
    truths: tuple[FrameTruth, ...]
    empty: np.ndarray             # the bare table under the same camera and light
    zones: dict                   # zone name -> 4x2 polygon in the picture
    events: tuple[Event, ...]
    fps: float = 15.0

    @property
    def landed_at(self) -> int | None:
        """The frame index at which the played card is down and unoccluded (None: none)."""
        return next((e.frame for e in self.events if e.kind == "landed"), None)

    def __len__(self) -> int:
        return len(self.frames)

    def __getitem__(self, i):
        return self.frames[i], self.truths[i]

    def __iter__(self) -> Iterator[tuple[np.ndarray, FrameTruth]]:
        return iter(zip(self.frames, self.truths))


# --------------------------------------------------------------------------- helpers

def _clip_spec(rng: np.random.Generator, spec: SceneSpec | None, difficulty: str) -> SceneSpec:
    if spec is not None:
        return spec
    s = random_spec(rng, difficulty)
    return replace(s, hand=False, motion_blur=0.0, tilt_deg=min(s.tilt_deg, 25.0))


def _pile_codes(game: str, rng: np.random.Generator, n: int, exclude: Sequence[str] = ()) -> list[str]:
    full = [c for c in game_deck(game).full() if c not in exclude]
    return [full[i] for i in rng.choice(len(full), n, replace=False)]


def _entry(table: Table, towards: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, float]:
    """A point off the picture a hand comes from, and the arm's direction (degrees)."""
    w, h = table.size
    a = float(rng.uniform(0, 360))
    d = np.array([np.cos(np.radians(a)), np.sin(np.radians(a))])
    return towards + d * (w + h) * 0.6, a


def _lerp(a, b, t):
    return np.asarray(a, float) + (np.asarray(b, float) - np.asarray(a, float)) * t


def _ease(n: int) -> np.ndarray:
    t = np.linspace(0, 1, n)
    return 0.5 - 0.5 * np.cos(np.pi * t)


class _Recorder:
    def __init__(self, table: Table, game: str, rng: np.random.Generator, style: str):
        self.table, self.game, self.rng, self.style = table, game, rng, style
        self.empty = table.empty
        self.discard = zone_polygons(table)["discard"]
        self.frames: list[np.ndarray] = []
        self.truths: list[FrameTruth] = []
        self._last_palms: list[tuple[float, float]] = []

    def shoot(self, placements: list[Placement], hands: list[HandPose], pile_top: str | None,
              pile_quads: list[np.ndarray]) -> FrameTruth:
        # a hand that moved since the last frame is smeared by half the way (the shutter
        # is open for about half of the frame time)
        moved = [replace(hand, motion=tuple((np.asarray(hand.palm) - last) * 0.5))
                 if i < len(self._last_palms) else hand
                 for i, (hand, last) in enumerate(zip(hands, self._last_palms + [None] * len(hands)))]
        self._last_palms = [np.asarray(hand.palm, float) for hand in hands]
        hands = moved
        scene = compose(self.table, self.game, placements, self.rng, hands, style=self.style)
        clear = self._clear(scene, placements, pile_quads)
        truth = FrameTruth(len(self.frames), scene.cards, pile_top, clear, bool(hands))
        self.frames.append(scene.image)
        self.truths.append(truth)
        return truth

    def _clear(self, scene, placements, pile_quads) -> bool:
        """True when no hand and no card in the air covers any part of the pile's area."""
        if not pile_quads:
            pile_quads = [self.discard]
        if scene.hand_mask is not None:
            for q in pile_quads:
                pts = _sample_quad(q)
                ix = np.clip(np.round(pts[:, 0]).astype(int), 0, scene.hand_mask.shape[1] - 1)
                iy = np.clip(np.round(pts[:, 1]).astype(int), 0, scene.hand_mask.shape[0] - 1)
                if (scene.hand_mask[iy, ix] > 127).any():
                    return False
        for c in scene.cards:
            if c.zone == "air" and any(_quads_touch(c.corners, q) for q in pile_quads):
                return False
        return True

    def clip(self, events: list[Event]) -> Clip:
        return Clip(tuple(self.frames), tuple(self.truths), self.empty,
                    zone_polygons(self.table), tuple(events))


def _first_of_last_run(truths, holds) -> int:
    """The first frame of the run of frames, reaching to the end of the clip, in which
    `holds(truth)` is true."""
    first = len(truths)
    for t in reversed(truths):
        if not holds(t):
            break
        first = t.index
    if first == len(truths):
        raise RuntimeError("the clip never settles: lengthen still_after")
    return first


def _sample_quad(q: np.ndarray, n: int = 12) -> np.ndarray:
    u = (np.arange(n) + 0.5) / n
    uu, vv = np.meshgrid(u, u)
    uu, vv = uu.ravel()[:, None], vv.ravel()[:, None]
    top = q[0] + (q[1] - q[0]) * uu
    bottom = q[3] + (q[2] - q[3]) * uu
    return top + (bottom - top) * vv


def _quads_touch(a: np.ndarray, b: np.ndarray) -> bool:
    for quad in (a, b):
        for i in range(4):
            e = quad[(i + 1) % 4] - quad[i]
            n = np.array([-e[1], e[0]])
            pa, pb = a @ n, b @ n
            if pa.max() < pb.min() or pb.max() < pa.min():
                return False
    return True


def _hand_holding(table: Table, card: Placement, arm_from: float, tone: int) -> HandPose:
    """A hand whose fingers hold the near end of `card` (its far end sticks out)."""
    w, h = table.size
    corners = image_corners(table, card)
    c = corners.mean(axis=0)
    side = float(np.linalg.norm(corners[1] - corners[0]))
    back = np.array([np.cos(np.radians(arm_from)), np.sin(np.radians(arm_from))])
    palm = c + back * side * CARD_ASPECT * 0.95
    return HandPose(tuple(palm), arm_from, side * 1.25, tone, 0.4)


def _discard_pile(table: Table, codes: Sequence[str], rng: np.random.Generator) -> list[Placement]:
    return messy_pile(table, list(codes), "discard", rng) if codes else []


# --------------------------------------------------------------------------- clips

def _land(rec: _Recorder, down: list[Placement], code: str, rng: np.random.Generator,
          flight: int, retreat: int, still_after: int) -> tuple[list[Placement], Event]:
    """Shoot a hand bringing `code` onto the pile `down` (bottom first) and going away;
    return the new pile and the "landed" event."""
    table = rec.table
    under = [replace(p, top=False) for p in down]
    old_top = down[-1].code if down else None
    if down:  # dropped roughly on the old top card, a little askew
        top = down[-1]
        cw = table.spec.card_width
        final = Placement(code, top.x + float(rng.uniform(-0.08, 0.08)) * cw,
                          top.y + float(rng.uniform(-0.08, 0.08)) * cw * table.size[0] / table.size[1],
                          top.angle_deg + float(rng.uniform(-20, 20)), "discard", True)
    else:
        final = messy_pile(table, [code], "discard", rng)[-1]
    under_quads = [image_corners(table, p) for p in under]
    c_img = image_corners(table, final).mean(axis=0)
    start, arm_from = _entry(table, c_img, rng)
    tone = int(rng.integers(len(SKIN_TONES)))
    w, h = table.size
    start_norm = (start[0] / w, start[1] / h)
    turn = float(rng.uniform(-90, 90))
    first = len(rec.frames)
    for t in _ease(flight + 1)[:-1]:
        flying = Placement(code, *_lerp(start_norm, (final.x, final.y), t),
                           final.angle_deg + turn * (1 - t), "air", False, lift=0.25 * (1 - t) + 0.04)
        rec.shoot(under + [flying], [_hand_holding(table, flying, arm_from, tone)], old_top,
                  under_quads)
    quads = under_quads + [image_corners(table, final)]
    now = under + [final]
    for t in _ease(retreat + 2)[:-1]:  # fingers still on the card, then the hand goes
        hold = _hand_holding(table, final, arm_from, tone)
        palm = _lerp(hold.palm, start, t)
        rec.shoot(now, [replace(hold, palm=tuple(palm))], code, quads)
    for _ in range(still_after):
        rec.shoot(now, [], code, quads)
    landed = _first_of_last_run(rec.truths[first:], lambda t: t.pile_clear and any(
        c.code == code and c.zone == "discard" and c.top and c.visible > 0.999 for c in t.cards))
    return now, Event(landed, "landed", code)


def _pass(rec: _Recorder, down: list[Placement], rng: np.random.Generator, frames: int) -> None:
    """Shoot a hand sweeping across the picture over the pile `down`."""
    table = rec.table
    quads = [image_corners(table, p) for p in down]
    c = np.mean([q.mean(axis=0) for q in quads], axis=0) if quads else \
        zone_polygons(table)["discard"].mean(axis=0)
    w, h = table.size
    a = np.radians(rng.uniform(0, 360))
    across = np.array([np.cos(a), np.sin(a)])
    shoulder = c - np.array([-across[1], across[0]]) * (w + h) * 0.9  # the player's body
    span = (w + h) * 0.55
    side = table.card_width * table.spec.zoom
    tone = int(rng.integers(len(SKIN_TONES)))
    lateral = float(rng.uniform(-0.3, 0.3)) * side
    top = down[-1].code if down else None
    for t in np.linspace(0, 1, frames):
        palm = c + across * (t - 0.5) * 2 * span + np.array([-across[1], across[0]]) * lateral
        d = shoulder - palm
        arm_from = float(np.degrees(np.arctan2(d[1], d[0])))
        rec.shoot(down, [HandPose(tuple(palm), arm_from, side * 1.3, tone, 0.6)], top, quads)


def _still(rec: _Recorder, down: list[Placement], frames: int) -> None:
    quads = [image_corners(rec.table, p) for p in down]
    for _ in range(frames):
        rec.shoot(down, [], down[-1].code if down else None, quads)


def card_landing_sequence(game: str, code: str, rng: np.random.Generator,
                          spec: SceneSpec | None = None, pile: Sequence[str] | None = None,
                          style: str = "deckhand", difficulty: str = "default",
                          still_before: int = 3, flight: int = 6, retreat: int = 5,
                          still_after: int = 8) -> Clip:
    """A hand brings `code` in from off the picture and drops it on the discard pile
    (`pile`, bottom first; default 0-3 random cards), then goes away. The "landed" event's
    frame is the first with the card down and nothing over it."""
    if code not in game_deck(game):
        raise ValueError(f"{code!r} is not a {game} card")
    table = set_table(_clip_spec(rng, spec, difficulty), rng)
    if pile is None:
        pile = _pile_codes(game, rng, int(rng.integers(0, 4)), exclude=[code])
    down = _discard_pile(table, pile, rng)
    rec = _Recorder(table, game, rng, style)
    _still(rec, down, still_before)
    _, event = _land(rec, down, code, rng, flight, retreat, still_after)
    return rec.clip([event])


def plays_sequence(game: str, codes: Sequence[str], rng: np.random.Generator,
                   spec: SceneSpec | None = None, pile: Sequence[str] = (),
                   style: str = "deckhand", difficulty: str = "default",
                   pass_chance: float = 0.3) -> Clip:
    """Several cards played one after another onto the discard pile, with now and then a
    hand passing over it between plays: one "landed" event per code, in order."""
    for code in codes:
        if code not in game_deck(game):
            raise ValueError(f"{code!r} is not a {game} card")
    table = set_table(_clip_spec(rng, spec, difficulty), rng)
    down = _discard_pile(table, pile, rng)
    rec = _Recorder(table, game, rng, style)
    _still(rec, down, 3)
    events = []
    for code in codes:
        if rng.random() < pass_chance:
            _pass(rec, down, rng, int(rng.integers(8, 14)))
            _still(rec, down, 2)
        down, event = _land(rec, down, code, rng, int(rng.integers(4, 8)),
                            int(rng.integers(3, 6)), int(rng.integers(4, 8)))
        events.append(event)
    return rec.clip(events)


def hand_pass_sequence(game: str, rng: np.random.Generator, spec: SceneSpec | None = None,
                       pile: Sequence[str] | None = None, style: str = "deckhand",
                       difficulty: str = "default", frames: int = 16) -> Clip:
    """A hand sweeps across the picture over the discard pile (reaching for something
    beyond it): the pile does not change, so no event."""
    table = set_table(_clip_spec(rng, spec, difficulty), rng)
    if pile is None:
        pile = _pile_codes(game, rng, int(rng.integers(1, 4)))
    down = _discard_pile(table, pile, rng)
    rec = _Recorder(table, game, rng, style)
    _pass(rec, down, rng, frames)
    return rec.clip([])


def pickup_putback_sequence(game: str, rng: np.random.Generator, spec: SceneSpec | None = None,
                            pile: Sequence[str] | None = None, style: str = "deckhand",
                            difficulty: str = "default", reach: int = 4, hold: int = 4,
                            still_after: int = 6) -> Clip:
    """A hand lifts the pile's top card a little, holds it over the pile, and puts it back
    where it was: the top card is the same before and after, so no event."""
    table = set_table(_clip_spec(rng, spec, difficulty), rng)
    if pile is None:
        pile = _pile_codes(game, rng, int(rng.integers(2, 4)))
    down = _discard_pile(table, pile, rng)
    quads = [image_corners(table, p) for p in down]
    rec = _Recorder(table, game, rng, style)
    top = down[-1]
    for _ in range(2):
        rec.shoot(down, [], pile[-1], quads)
    _, arm_from = _entry(table, quads[-1].mean(axis=0), rng)
    tone = int(rng.integers(len(SKIN_TONES)))
    hold_pose = _hand_holding(table, top, arm_from, tone)
    far = np.asarray(hold_pose.palm) + np.array([np.cos(np.radians(arm_from)),
                                                 np.sin(np.radians(arm_from))]) * sum(table.size)
    for t in _ease(reach + 1)[:-1]:
        rec.shoot(down, [replace(hold_pose, palm=tuple(_lerp(far, hold_pose.palm, t)))],
                  pile[-1], quads)
    lifted_top = replace(top, zone="air", top=False)
    for t in np.concatenate([np.linspace(0, 1, hold // 2 + 1), np.linspace(1, 0, hold // 2 + 1)]):
        card = replace(lifted_top, lift=0.12 * t, angle_deg=top.angle_deg + 12 * t,
                       x=top.x + 0.03 * t)
        under = [replace(p, top=(i == len(down) - 2)) for i, p in enumerate(down[:-1])]
        rec.shoot(under + [card], [_hand_holding(table, card, arm_from, tone)],
                  pile[-2] if len(pile) > 1 else None, quads)
    for t in _ease(reach + 2)[1:]:
        rec.shoot(down, [replace(hold_pose, palm=tuple(_lerp(hold_pose.palm, far, t)))],
                  pile[-1], quads)
    for _ in range(still_after):
        rec.shoot(down, [], pile[-1], quads)
    return rec.clip([])


def pile_taken_sequence(game: str, rng: np.random.Generator, spec: SceneSpec | None = None,
                        pile: Sequence[str] | None = None, style: str = "deckhand",
                        difficulty: str = "default", reach: int = 4, still_after: int = 8) -> Clip:
    """A hand comes, gathers the whole discard pile and takes it off the picture; the
    "cleared" event's frame is the first with the zone empty and nothing over it."""
    table = set_table(_clip_spec(rng, spec, difficulty), rng)
    if pile is None:
        pile = _pile_codes(game, rng, int(rng.integers(2, 5)))
    down = _discard_pile(table, pile, rng)
    quads = [image_corners(table, p) for p in down]
    rec = _Recorder(table, game, rng, style)
    for _ in range(2):
        rec.shoot(down, [], pile[-1], quads)
    top = down[-1]
    _, arm_from = _entry(table, quads[-1].mean(axis=0), rng)
    tone = int(rng.integers(len(SKIN_TONES)))
    hold_pose = _hand_holding(table, top, arm_from, tone)
    back = np.array([np.cos(np.radians(arm_from)), np.sin(np.radians(arm_from))])
    far = np.asarray(hold_pose.palm) + back * sum(table.size)
    for t in _ease(reach + 1)[:-1]:
        rec.shoot(down, [replace(hold_pose, palm=tuple(_lerp(far, hold_pose.palm, t)))],
                  pile[-1], quads)
    w, h = table.size
    squared = [replace(p, x=top.x, y=top.y, angle_deg=top.angle_deg, zone="air", top=False,
                       lift=0.05) for p in down]
    for t in _ease(reach + 2)[1:]:  # the pile, squared up in the hand, leaves with it
        shift = back * sum(table.size) * t
        moved = [replace(p, x=p.x + shift[0] / w, y=p.y + shift[1] / h) for p in squared]
        palm = tuple(np.asarray(hold_pose.palm) + shift)
        rec.shoot(moved, [replace(hold_pose, palm=palm)], None, [])
    for _ in range(still_after):
        rec.shoot([], [], None, [])
    cleared = _first_of_last_run(rec.truths, lambda t: t.pile_clear and t.pile_top is None
                                 and not t.cards)
    return rec.clip([Event(cleared, "cleared", None)])


def slap_sequence(game: str, rng: np.random.Generator, spec: SceneSpec | None = None,
                  pile: Sequence[str] | None = None, style: str = "deckhand",
                  difficulty: str = "default", hands: int | None = None, down: int = 3,
                  nudge: float = 0.08, still_after: int = 6) -> Clip:
    """Hit the Deck's slaps: one to three hands come down fast, palm flat on the discard
    pile, each on the one before, stay a moment and all go. The first slap nudges the
    top card (up to `nudge` of a card's width, a few degrees), as a slap does. No card is
    played: no event."""
    table = set_table(_clip_spec(rng, spec, difficulty), rng)
    if pile is None:
        pile = _pile_codes(game, rng, int(rng.integers(1, 4)))
    down_cards = _discard_pile(table, pile, rng)
    rec = _Recorder(table, game, rng, style)
    quads = [image_corners(table, p) for p in down_cards]
    for _ in range(2):
        rec.shoot(down_cards, [], pile[-1], quads)
    side = table.card_width * table.spec.zoom
    centre = quads[-1].mean(axis=0)
    n = int(hands if hands is not None else rng.integers(1, 4))
    cw = table.spec.card_width
    top = down_cards[-1]
    nudged = replace(top, x=top.x + float(rng.uniform(-nudge, nudge)) * cw,
                     y=top.y + float(rng.uniform(-nudge, nudge)) * cw * table.size[0] / table.size[1],
                     angle_deg=top.angle_deg + float(rng.uniform(-6, 6)))
    after = down_cards[:-1] + [nudged]
    after_quads = quads[:-1] + [image_corners(table, nudged)]
    resting: list[HandPose] = []
    for k in range(n):
        start, arm_from = _entry(table, centre, rng)
        aim = centre + rng.uniform(-0.25, 0.25, 2) * side
        pose = HandPose(tuple(aim), arm_from, side * float(rng.uniform(1.2, 1.5)),
                        int(rng.integers(len(SKIN_TONES))), float(rng.uniform(0.5, 0.9)))
        for t in (0.45, 0.85):   # fast: two frames from off the picture to the pile
            rec.shoot(after if k else down_cards, resting + [replace(pose, palm=tuple(_lerp(start, aim, t)))],
                      pile[-1], quads)
        resting.append(pose)
        for _ in range(down if k == n - 1 else int(rng.integers(0, 2))):
            rec.shoot(after, resting, pile[-1], after_quads)
    away = [_entry(table, np.asarray(p.palm), rng)[0] for p in resting]
    for t in _ease(4)[1:]:
        rec.shoot(after, [replace(p, palm=tuple(_lerp(p.palm, a, t))) for p, a in zip(resting, away)],
                  pile[-1], after_quads)
    for _ in range(still_after):
        rec.shoot(after, [], pile[-1], after_quads)
    return rec.clip([])


def open_bids_sequence(game: str, codes: Sequence[str], rng: np.random.Generator,
                       spec: SceneSpec | None = None, lying: Sequence[str] = (),
                       style: str = "deckhand", difficulty: str = "default", flight: int = 5,
                       retreat: int = 4, still_after: int = 8, pass_after: int = 12) -> Clip:
    """Raj's bids in the open: a hand for each of `codes` lays its card at about the same
    time (up to two frames apart) side by side in the discard zone, next to the cards
    `lying` there (the point card), and all go. One "landed" event a card, from the first
    frame that card lies uncovered and nothing is over the zone's cards. Then (with
    `pass_after` frames) a hand sweeps over them all: no more events."""
    for code in codes:
        if code not in game_deck(game):
            raise ValueError(f"{code!r} is not a {game} card")
    if len(codes) + len(lying) > 4:
        raise ValueError("at most four cards side by side fit in the zone")
    table = set_table(_clip_spec(rng, spec, difficulty), rng)
    x0, y0, x1, y1 = ZONE_RECTS["discard"]
    w, h = table.size
    cw = table.spec.card_width
    step_x, step_y = 0.56 * cw, 0.56 * cw * CARD_ASPECT * w / h
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    slots = [(cx + sx * step_x, cy + sy * step_y) for sx, sy in ((-1, -1), (1, -1), (-1, 1), (1, 1))]
    order = rng.permutation(4)
    base = float(rng.uniform(-8, 8))
    place = [Placement(code, *slots[order[i]], base + float(rng.uniform(-6, 6)), "discard", True)
             for i, code in enumerate(list(lying) + list(codes))]
    down = place[:len(lying)]
    bids = place[len(lying):]
    rec = _Recorder(table, game, rng, style)
    all_quads = [image_corners(table, p) for p in place]
    _still(rec, down, 3)
    starts = [int(rng.integers(0, 3)) for _ in bids]
    entries = [_entry(table, image_corners(table, p).mean(axis=0), rng) for p in bids]
    tones = [int(rng.integers(len(SKIN_TONES))) for _ in bids]
    w_norm = np.array([w, h], float)
    total = max(starts) + flight + retreat + 1
    for f in range(total):
        cards, hands = list(down), []
        for p, s, (start, arm_from), tone in zip(bids, starts, entries, tones):
            u = f - s
            if u < 0:
                continue
            if u < flight:       # in the air, coming down on its slot
                t = float(_ease(flight + 1)[u])
                xy = _lerp(start / w_norm, (p.x, p.y), t)
                flying = Placement(p.code, float(xy[0]), float(xy[1]), p.angle_deg + 40 * (1 - t), "air",
                                   False, lift=0.25 * (1 - t) + 0.04)
                cards.append(flying)
                hands.append(_hand_holding(table, flying, arm_from, tone))
            else:                # down; the fingers let go and the hand goes
                cards.append(p)
                t = min(1.0, (u - flight) / retreat)
                if t < 1.0:
                    hold = _hand_holding(table, p, arm_from, tone)
                    hands.append(replace(hold, palm=tuple(_lerp(hold.palm, start, t))))
        rec.shoot(cards, hands, bids[-1].code, all_quads)
    for _ in range(still_after):
        rec.shoot(down + bids, [], bids[-1].code, all_quads)
    events = []
    for p in bids:
        landed = _first_of_last_run(rec.truths, lambda t, code=p.code: t.pile_clear and any(
            c.code == code and c.zone == "discard" and c.visible > 0.999 for c in t.cards))
        events.append(Event(landed, "landed", p.code))
    if pass_after:
        _pass(rec, down + bids, rng, pass_after)
        _still(rec, down + bids, 4)
    return rec.clip(events)
