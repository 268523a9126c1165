"""Where things go on the table: messy piles, single cards on free spots, a hand reaching
over a card. Placements are in fractions of the overhead view; checks are done on the
cards' corners in the picture (in frame, not overlapping).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from vision.render.cards import CARD_ASPECT
from vision.render.hands import SKIN_TONES, HandPose
from vision.render.stage import ZONE_RECTS, Placement, Table, image_corners


def in_frame(table: Table, corners: np.ndarray, margin: float = 2.0) -> bool:
    w, h = table.size
    return bool(corners[:, 0].min() >= margin and corners[:, 1].min() >= margin
                and corners[:, 0].max() <= w - 1 - margin and corners[:, 1].max() <= h - 1 - margin)


def overlaps(a: np.ndarray, b: np.ndarray) -> bool:
    """Separating-axis test for two convex quads (all eight edge normals at once)."""
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    edges = np.concatenate([np.roll(a, -1, axis=0) - a, np.roll(b, -1, axis=0) - b])
    normals = np.stack([-edges[:, 1], edges[:, 0]], axis=1)
    pa, pb = a @ normals.T, b @ normals.T
    separated = (pa.max(axis=0) < pb.min(axis=0)) | (pb.max(axis=0) < pa.min(axis=0))
    return not separated.any()


def grown(quad: np.ndarray, factor: float) -> np.ndarray:
    c = quad.mean(axis=0)
    return c + (quad - c) * factor


def messy_pile(table: Table, codes: Sequence[str], zone: str, rng: np.random.Generator,
               centre: tuple[float, float] | None = None, tidy: float = 0.0) -> list[Placement]:
    """A pile (bottom card first) with the cards beneath sticking out at other angles.
    tidy: 0 = messy, 1 = squared up."""
    x0, y0, x1, y1 = ZONE_RECTS.get(zone, (0.3, 0.3, 0.7, 0.7))
    if centre is None:
        centre = (rng.uniform(x0 + 0.3 * (x1 - x0), x1 - 0.3 * (x1 - x0)),
                  rng.uniform(y0 + 0.3 * (y1 - y0), y1 - 0.3 * (y1 - y0)))
    w, h = table.size
    cw = table.card_width
    base = rng.uniform(-180, 180)
    mess = 1 - tidy
    out = []
    for i, code in enumerate(codes):
        last = i == len(codes) - 1
        spread = (0.08 if last else 0.38) * mess
        dx, dy = rng.uniform(-spread, spread, 2) * cw * np.array([1, CARD_ASPECT])
        angle = base + (rng.uniform(-6, 6) if last else rng.uniform(-40, 40)) * mess
        out.append(Placement(code, centre[0] + dx / w, centre[1] + dy / h, float(angle), zone, last))
    return out


def place_single(table: Table, code: str, taken: list[np.ndarray], rng: np.random.Generator,
                 zone: str = "table") -> Placement | None:
    """A card somewhere free and wholly in the picture (its room is added to `taken`), or
    None if no free spot turned up."""
    for _ in range(60):
        p = Placement(code, rng.uniform(0.08, 0.92), rng.uniform(0.1, 0.9),
                      float(rng.uniform(-180, 180)), zone, True)
        corners = image_corners(table, p)
        if not in_frame(table, corners):
            continue
        room = grown(corners, 1.06)
        if any(overlaps(room, q) for q in taken):
            continue
        taken.append(room)
        return p
    return None


def layout(table: Table, game: str, cards: Sequence, rng: np.random.Generator) -> list[Placement]:
    """Turn `cards` into placements: a str is a single card somewhere free, a tuple of codes
    is a pile (bottom first; the first pile is the discard pile, the second the reveal
    area), a Placement is kept as it is."""
    placements: list[Placement] = []
    taken: list[np.ndarray] = []
    pile_zones = iter(("discard", "reveal"))
    for item in cards:
        if isinstance(item, Placement):
            placements.append(item)
            taken.append(grown(image_corners(table, item), 1.06))
        elif isinstance(item, tuple):
            zone = next(pile_zones, "table")
            for _ in range(30):
                pile = messy_pile(table, item, zone, rng)
                quads = [image_corners(table, p) for p in pile]
                if all(in_frame(table, q) for q in quads) and not any(
                        overlaps(grown(q, 1.06), t) for q in quads for t in taken):
                    break
            placements += pile
            taken += [grown(q, 1.06) for q in quads]
        elif isinstance(item, str):
            p = place_single(table, item, taken, rng)
            if p is None:
                raise ValueError(f"no room on the table for {item!r}: use fewer or smaller cards")
            placements.append(p)
        else:
            raise ValueError(f"a card must be a code, a tuple of codes (a pile) or a Placement, "
                             f"not {item!r}")
    return placements


def hand_over(table: Table, rng: np.random.Generator, target: np.ndarray | None = None,
              cover: float = 0.4) -> HandPose:
    """A hand reaching in from a random side; with `target` (image corners of a card) the
    fingertips reach over that card by roughly `cover` of its height."""
    w, h = table.size
    size = table.card_width * table.spec.zoom  # a card's width in the picture, roughly
    palm_w = size * rng.uniform(1.1, 1.5)
    arm_from = float(rng.uniform(0, 360))
    if target is None:
        palm = (rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h)
    else:
        c = target.mean(axis=0)
        back = np.array([np.cos(np.radians(arm_from)), np.sin(np.radians(arm_from))])
        # fingertips reach ~1.1 palm widths beyond the palm centre
        reach = palm_w * 1.1 - size * CARD_ASPECT * (cover - 0.5)
        palm = tuple(c + back * reach)
    return HandPose(palm, arm_from, palm_w, int(rng.integers(len(SKIN_TONES))),
                    float(rng.uniform(0.2, 1.0)))
