"""Synthetic table scenes with exact ground truth, for testing the vision pipeline.

A scene is a table (texture, camera tilt and roll, light) with cards laid on it (single
cards, messy piles, spreads), maybe hands reaching over and other objects, then lit,
blurred, noised and JPEG-compressed like a real frame. The truth says, for every card,
its code, its four corners in the picture (the upright face's TL, TR, BR, BL), how much of
its face is visible, its zone and whether it is the top card of its pile. `empty` is the
same table under the same light and camera with nothing on it (the start-up background).

This module makes whole random scenes; `stage` takes the picture, `layout` places things.
Their public names are importable from here too.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Sequence

import numpy as np

from vision.render.camera import LIGHTS
from vision.render.cards import CARD_ASPECT, game_deck
from vision.render.hands import DISTRACTORS, HandPose
from vision.render.layout import (grown, hand_over, in_frame, layout, overlaps, place_single,
                                  messy_pile)
from vision.render.stage import (ZONE_RECTS, FlatObject, PlacedCard, Placement, Scene,  # noqa: F401
                                 SceneSpec, Table, apply_homography, card_corners_plane,
                                 compose, image_corners, set_table, zone_polygons)
from vision.render.table import PHOTO, TABLES, VARIANTS

DIFFICULTIES = ("default", "hard")


def random_spec(rng: np.random.Generator, difficulty: str = "default",
                size: tuple[int, int] = (640, 480), photo_tables: bool = False) -> SceneSpec:
    """A random camera, table and light. `photo_tables`: the table is a real one, cut
    from a shared photograph (see vision.render.table; the other draws are unchanged)."""
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}; choose {' or '.join(DIFFICULTIES)}")
    hard = difficulty == "hard"
    kind = TABLES[int(rng.integers(len(TABLES)))]  # drawn either way: the draws after it stay the same
    return SceneSpec(
        table=PHOTO if photo_tables else kind,
        tilt_deg=float(rng.uniform(0, 35 if hard else 20)),
        light=LIGHTS[int(rng.integers(len(LIGHTS)))],
        glare=bool(rng.random() < (0.5 if hard else 0.2)),
        shadow=bool(rng.random() < (0.5 if hard else 0.2)),
        blur=float(rng.uniform(0, 2.0 if hard else 0.8)),
        motion_blur=float(rng.uniform(2, 9)) if rng.random() < (0.3 if hard else 0.1) else 0.0,
        noise=float(rng.uniform(2, 9 if hard else 4)),
        jpeg_quality=int(rng.integers(40 if hard else 70, 96)) if rng.random() < (0.8 if hard else 0.5) else None,
        hand=bool(rng.random() < (0.4 if hard else 0.15)),
        size=size,
        tilt_dir_deg=float(rng.uniform(0, 360)),
        roll_deg=float(rng.uniform(-180, 180)),
        zoom=float(rng.uniform(0.9, 1.15)),
        card_width=float(rng.uniform(0.09, 0.16) if hard else rng.uniform(0.11, 0.15)),
        table_variant=int(rng.integers(1 << 16 if photo_tables else VARIANTS)),
        table_shift=(float(rng.uniform(-0.2, 0.2)), float(rng.uniform(-0.2, 0.2))),
        motion_dir_deg=float(rng.uniform(0, 180)),
    )


def random_table(rng: np.random.Generator, difficulty: str = "default",
                 size: tuple[int, int] = (640, 480)) -> Table:
    """A random table, camera and light, to lay many scenes on (`random_scene(table=...)`):
    like a real game, where the camera stays put and only the cards change."""
    return set_table(random_spec(rng, difficulty, size), rng)


def render_scene(game: str, cards: Sequence, spec: SceneSpec, rng: np.random.Generator,
                 style: str = "deckhand", hands: Sequence[HandPose] | None = None) -> Scene:
    """A picture of `cards` (see `layout`) on the table described by `spec`.
    With spec.hand and no `hands`, one hand reaches over a random card."""
    table = set_table(spec, rng)
    placements = layout(table, game, cards, rng)
    if hands is None:
        hands = []
        if spec.hand:
            target = image_corners(table, placements[int(rng.integers(len(placements)))]) \
                if placements else None
            hands.append(hand_over(table, rng, target, float(rng.uniform(0.2, 0.7))))
    return compose(table, game, placements, rng, hands, style=style,
                   distractors=("hand",) * len(hands))


def random_scene(game: str, rng: np.random.Generator, n_cards: int | None = None,
                 difficulty: str = "default", style: str = "deckhand",
                 size: tuple[int, int] = (640, 480), table: Table | None = None,
                 photo_tables: bool = False) -> Scene:
    """Random cards of `game` (drawn from a real deck: no more copies than exist): a messy
    discard pile plus single cards, under a random camera, table and light, or on `table`
    (see `random_table`; faster, and all its scenes share one `empty`). "hard" scenes
    may also hold a face-down draw pile and a card half off the picture."""
    if table is None:
        spec = random_spec(rng, difficulty, size, photo_tables)
        table, hand = set_table(spec, rng), spec.hand
    else:
        hand = bool(rng.random() < (0.4 if difficulty == "hard" else 0.15))
    codes = _random_codes(game, rng, n_cards)
    pile = int(rng.integers(1, len(codes) + 1))
    cards: list = [tuple(codes[:pile])] + codes[pile:]
    placements = None
    for _ in range(4):
        try:
            placements = layout(table, game, cards, rng)
            break
        except ValueError as e:
            if "no room" not in str(e):
                raise
            spec = table.spec  # smaller cards: nothing else of the table changes
            table = replace(table, spec=replace(spec, card_width=spec.card_width * 0.85))
    if placements is None:
        placements = layout(table, game, [tuple(codes)], rng)
    distractors: list[str] = []
    if difficulty == "hard":
        placements, distractors = _hard_extras(table, game, placements, rng)
    hands = []
    if hand:
        faces = [p for p in placements if p.face_up]
        target = image_corners(table, faces[int(rng.integers(len(faces)))])
        hands.append(hand_over(table, rng, target, float(rng.uniform(0.2, 0.7))))
        distractors.append("hand")
    return compose(table, game, placements, rng, hands, style=style,
                   distractors=tuple(distractors))


def _hard_extras(table: Table, game: str, placements: list[Placement],
                 rng: np.random.Generator) -> tuple[list[Placement], list[str]]:
    """Maybe a face-down draw pile somewhere free, maybe one more card half off the edge."""
    taken = [grown(image_corners(table, p), 1.06) for p in placements]
    extras: list[str] = []
    if rng.random() < 0.4:
        spot = place_single(table, "", taken, rng, "draw")
        if spot is not None:
            backs = messy_pile(table, ["", "", ""], "draw", rng, (spot.x, spot.y), tidy=0.9)
            placements = [replace(p, face_up=False) for p in backs] + placements
            extras.append("back")
    if rng.random() < 0.3:
        used = {p.code for p in placements}
        full = [c for c in game_deck(game).full() if c not in used]
        code = full[int(rng.integers(len(full)))]
        w, h = table.size
        for _ in range(40):
            p = Placement(code, rng.uniform(-0.05, 1.05), rng.uniform(-0.05, 1.05),
                          float(rng.uniform(-180, 180)), "table", True)
            q = image_corners(table, p)
            centre = q.mean(axis=0)
            inside = (q[:, 0] >= 0) & (q[:, 0] < w) & (q[:, 1] >= 0) & (q[:, 1] < h)
            if 0 < inside.sum() < 4 and 0 <= centre[0] < w and 0 <= centre[1] < h and not any(
                    overlaps(grown(q, 1.06), t) for t in taken):
                placements = placements + [p]
                break
    return placements, extras


def _random_codes(game: str, rng: np.random.Generator, n_cards: int | None) -> list[str]:
    full = game_deck(game).full()
    n = int(rng.integers(1, 9)) if n_cards is None else int(n_cards)
    if not 1 <= n <= 15:
        raise ValueError(f"n_cards must be 1..15, not {n}")
    return [full[i] for i in rng.choice(len(full), n, replace=False)]


def distractor_scene(rng: np.random.Generator, kinds: Sequence[str] | None = None,
                     spec: SceneSpec | None = None, style: str = "deckhand",
                     game: str = "solo", difficulty: str = "default") -> Scene:
    """No cards: hands, phones, coasters, mugs, pens and card backs on the table."""
    if spec is None:
        spec = random_spec(rng, difficulty)
    if kinds is None:
        k = int(rng.integers(1, 4))
        kinds = [DISTRACTORS[i] for i in rng.choice(len(DISTRACTORS), k, replace=False)]
    for kind in kinds:
        if kind not in DISTRACTORS:
            raise ValueError(f"unknown distractor {kind!r}; distractors: {', '.join(DISTRACTORS)}")
    table = set_table(spec, rng)
    objects = [FlatObject(k, rng.uniform(0.25, 0.75), rng.uniform(0.25, 0.75),
                          float(rng.uniform(0, 360))) for k in kinds if k != "hand"]
    hands = [hand_over(table, rng) for k in kinds if k == "hand"]
    return compose(table, game, [], rng, hands, objects, style, tuple(kinds))


def spread_scene(game: str, codes: Sequence[str], rng: np.random.Generator,
                 spec: SceneSpec | None = None, style: str = "deckhand") -> Scene:
    """Up to 15 cards laid side by side (rows of up to 8) in the scoring zone."""
    codes = list(codes)
    if not 1 <= len(codes) <= 15:
        raise ValueError(f"a spread holds 1..15 cards, not {len(codes)}")
    if spec is None:
        spec = replace(random_spec(rng), tilt_deg=float(rng.uniform(0, 15)), hand=False)
    cols = min(8, len(codes))
    rows = (len(codes) + cols - 1) // cols
    w, h = spec.size
    cw = min(spec.card_width, 0.86 / (cols * 1.08))
    cw = min(cw, 0.8 * h / w / (rows * CARD_ASPECT * 1.06))
    base_angle = float(rng.uniform(-8, 8))
    base_table = set_table(spec, rng)
    for _ in range(12):
        # the card width changes nothing else of the table: no need to set it again
        table = replace(base_table, spec=replace(spec, card_width=cw))
        step_x, step_y = cw * w * 1.1, cw * w * CARD_ASPECT * 1.07  # plane px
        a = np.radians(base_angle)
        u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
        placements = []
        for i, code in enumerate(codes):
            r, c = divmod(i, cols)
            n_row = min(cols, len(codes) - r * cols)
            at = np.array([w / 2, h / 2]) + u * (c - (n_row - 1) / 2) * step_x \
                + v * (r - (rows - 1) / 2) * step_y
            placements.append(Placement(code, at[0] / w, at[1] / h,
                                        base_angle + float(rng.uniform(-2, 2)), "score", True))
        quads = [image_corners(table, p) for p in placements]
        if all(in_frame(table, q) for q in quads):
            break
        cw *= 0.9
    half_w, half_h = cols * step_x / 2 + 0.02 * w, rows * step_y / 2 + 0.03 * h
    box = np.array([[-half_w, -half_h], [half_w, -half_h], [half_w, half_h], [-half_w, half_h]])
    plane = np.array([w / 2, h / 2]) + box @ np.stack([u, v])
    zone = apply_homography(table.homography, plane).astype(np.float32)
    scene = compose(table, game, placements, rng, style=style)
    return replace(scene, zones={"score": zone})
