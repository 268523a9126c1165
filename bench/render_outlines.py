"""Rendered scenes of standard playing cards laid on real tables, and the outlines the finder
gives on them, described and labelled as `bench/outline_scorer.py --collect` does for the
real photos: extra rows to train the learned outline scorer on (`outline_scorer.py --extra`).

    .venv/bin/python bench/render_outlines.py --out /tmp/r.npz --scenes 400 --seed 0
    .venv/bin/python bench/render_outlines.py --show /tmp/r.png --seed 0     # a few scenes, to look at

The table is a real one (`vision.render.table`'s photo tables: the card-free part of a photo
of ../shared/realphotos/cards-edje), taken from the train_ photos only (test_ stays held
out); the camera, light, blur, noise and JPEG are the renderer's own (`random_spec`). The
cards are drawn here, not by the four games' decks: a white face with a thin grey rim,
rank and suit in two opposite corners, pips (9, 10, A) or a framed coloured picture (J, Q,
K), red or black, like the real photos' decks. 1-4 of them, sometimes a messy pile of two
or three, sometimes a card back, phone, coaster, mug or pen beside them. A card's label box
is the axis-aligned box of its visible part (its quad less the cards above it, inside the
frame), as the real photos are labelled; an outline is a card's when its box has IoU >= 0.5
with one, as `realphotos_find.py` scores. Deterministic for a seed.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
from dataclasses import replace  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from realphotos_find import MATCH_IOU, iou, outline_box  # noqa: E402

from vision import outlinescore  # noqa: E402
from vision.detect import PLAIN_SETTINGS  # noqa: E402
from vision.pipeline import to_working_size  # noqa: E402
from vision.realfind import find_outlines  # noqa: E402
from vision.render.camera import sensor  # noqa: E402
from vision.render.cards import CARD_ASPECT, back_face, card_mask  # noqa: E402
from vision.render.hands import draw_flat_object  # noqa: E402
from vision.render.layout import grown, in_frame, messy_pile, overlaps, place_single  # noqa: E402
from vision.render.scene import random_spec  # noqa: E402
from vision.render.stage import Placement, _develop_changes, _paste_card, _union, image_corners, set_table  # noqa: E402
from vision.render.table import PHOTO, photo_patches  # noqa: E402

# the shipped collection's gates (`outline_scorer.py --collect NPZ --trim 0.12 --print 0.06`)
HAND = replace(PLAIN_SETTINGS, trim_spurs=0.12, print_groups=0.06)
RANKS = ("9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
OBJECTS = ("back", "phone", "coaster", "mug", "pen")
SIZES = ((640, 480), (480, 640), (504, 378), (378, 504))


def train_variants() -> list[int]:
    """The photo tables' variants (`photo_texture`'s numbers) cut from train_ photos only."""
    return [i for i, (name, _) in enumerate(photo_patches()) if Path(name).name.startswith("train_")]


def _pip(img: np.ndarray, cx: float, cy: float, s: float, suit: str, colour, flip: bool = False) -> None:
    """A suit sign of height about `s` centred at (cx, cy) (upside down when `flip`)."""
    k = -1 if flip else 1

    def at(dx, dy):
        return int(round(cx + dx * s)), int(round(cy + k * dy * s))

    r = max(1, int(round(0.27 * s)))
    if suit == "D":
        cv2.fillPoly(img, [np.array([at(0, -0.5), at(0.36, 0), at(0, 0.5), at(-0.36, 0)], np.int32)], colour,
                     cv2.LINE_AA)
    elif suit in ("H", "S"):
        sign = 1 if suit == "H" else -1   # a spade is a heart upside down, with a stem
        cv2.circle(img, at(-0.22, -0.18 * sign), r, colour, -1, cv2.LINE_AA)
        cv2.circle(img, at(0.22, -0.18 * sign), r, colour, -1, cv2.LINE_AA)
        cv2.fillPoly(img, [np.array([at(-0.48, -0.1 * sign), at(0.48, -0.1 * sign), at(0, 0.5 * sign)], np.int32)],
                     colour, cv2.LINE_AA)
        if suit == "S":
            cv2.fillPoly(img, [np.array([at(0, 0.05), at(0.18, 0.5), at(-0.18, 0.5)], np.int32)], colour, cv2.LINE_AA)
    else:
        r = max(1, int(round(0.22 * s)))
        for dx, dy in ((0, -0.25), (-0.24, 0.08), (0.24, 0.08)):
            cv2.circle(img, at(dx, dy), r, colour, -1, cv2.LINE_AA)
        cv2.fillPoly(img, [np.array([at(0, 0), at(0.15, 0.5), at(-0.15, 0.5)], np.int32)], colour, cv2.LINE_AA)


# pips of 9 and 10: (column -1/0/1, row 0..1) in the face's pip area, the lower half turned
_PIPS = {"9": [(-1, 0), (-1, 1 / 3), (-1, 2 / 3), (-1, 1), (1, 0), (1, 1 / 3), (1, 2 / 3), (1, 1), (0, 0.5)],
         "10": [(-1, 0), (-1, 1 / 3), (-1, 2 / 3), (-1, 1), (1, 0), (1, 1 / 3), (1, 2 / 3), (1, 1), (0, 1 / 6),
                (0, 5 / 6)],
         "A": [(0, 0.5)]}


def playing_face(rank: str, suit: str, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A standard playing card's face (BGR uint8, `size` = (w, h)): white (a little off-white),
    rank and suit in the top-left and, turned, the bottom-right corner, pips or a picture."""
    w, h = size
    paper = np.array([rng.uniform(225, 250)] * 3) + rng.uniform(-6, 6, 3)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = np.clip(paper, 0, 255).astype(np.uint8)
    red = suit in ("H", "D")
    ink = (40, 30, 190) if red else (35, 30, 30)
    font, thick = cv2.FONT_HERSHEY_SIMPLEX, max(1, int(round(w / 60)))
    corner = np.zeros((h // 2, w // 2, 3), np.uint8)
    corner[:] = img[0, 0]
    scale = w / 200 * (0.9 if rank == "10" else 1.1)
    cv2.putText(corner, rank, (int(0.04 * w), int(0.13 * h)), font, scale, ink, thick + 1, cv2.LINE_AA)
    _pip(corner, 0.1 * w, 0.2 * h, 0.08 * w, suit, ink)
    img[:h // 2, :w // 2] = np.minimum(img[:h // 2, :w // 2], corner)
    turned = corner[::-1, ::-1]
    img[h - h // 2:, w - w // 2:] = np.minimum(img[h - h // 2:, w - w // 2:], turned)
    x0, x1, y0, y1 = 0.25 * w, 0.75 * w, 0.16 * h, 0.84 * h
    if rank in _PIPS:
        big = 0.5 * w if rank == "A" else 0.17 * w
        for col, row in _PIPS[rank]:
            _pip(img, (x0 + x1) / 2 + col * (x1 - x0) / 2, y0 + big / 2 + row * (y1 - y0 - big), big, suit, ink,
                 flip=row > 0.5)
    else:   # a court card: a framed picture, coloured, mirrored top to bottom
        fx0, fy0, fx1, fy1 = int(0.2 * w), int(0.14 * h), int(0.8 * w), int(0.86 * h)
        pic = np.zeros((fy1 - fy0, fx1 - fx0, 3), np.uint8)
        pic[:] = img[0, 0]
        ph, pw = pic.shape[:2]
        for _ in range(10):
            colour = tuple(int(v) for v in rng.choice([(40, 40, 200), (200, 120, 40), (40, 190, 230), (30, 30, 30),
                                                       (60, 140, 60)]))
            a = (int(rng.uniform(0, pw)), int(rng.uniform(0, ph / 2)))
            cv2.ellipse(pic, a, (int(rng.uniform(0.05, 0.25) * pw), int(rng.uniform(0.03, 0.15) * ph)),
                        float(rng.uniform(0, 180)), 0, 360, colour, -1, cv2.LINE_AA)
        pic[ph // 2:] = pic[:ph - ph // 2][::-1, ::-1]
        img[fy0:fy1, fx0:fx1] = pic
        cv2.rectangle(img, (fx0, fy0), (fx1 - 1, fy1 - 1), ink, max(1, thick - 1), cv2.LINE_AA)
    mask = card_mask((w, h))
    rim = cv2.morphologyEx(mask, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)) > 0
    img[rim] = (img[rim] * 0.8).astype(np.uint8)
    return img


def _face(rank: str | None, suit: str, width: int, rng: np.random.Generator) -> np.ndarray:
    size = (width, int(round(width * CARD_ASPECT)))
    img = back_face("deckhand", size) if rank is None else playing_face(rank, suit, size, rng)
    return np.dstack([img, card_mask(size)])


def visible_boxes(quads: list[np.ndarray], size: tuple[int, int], least: float = 0.15) -> list[tuple]:
    """Each card's label box (bottom card first in `quads`): the box of its pixels that no
    card above covers, inside the frame; none for a card with under `least` of its face seen."""
    w, h = size
    out = []
    for i, q in enumerate(quads):
        mine = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mine, [np.round(q).astype(np.int32)], 255)
        whole = cv2.contourArea(q.astype(np.float32))
        for above in quads[i + 1:]:
            cv2.fillPoly(mine, [np.round(above).astype(np.int32)], 0)
        ys, xs = np.nonzero(mine)
        if len(xs) < least * whole:
            continue
        out.append((float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)))
    return out


def render(rng: np.random.Generator, variants: list[int]) -> tuple[np.ndarray, list[tuple], str]:
    """One scene: the picture (BGR), its cards' label boxes and the photo its table is cut from."""
    size = SIZES[int(rng.integers(len(SIZES)))]
    spec = random_spec(rng, size=size, photo_tables=True)
    spec = replace(spec, table=PHOTO, table_variant=variants[int(rng.integers(len(variants)))],
                   card_width=float(rng.uniform(0.12, 0.3) if size[0] > size[1] else rng.uniform(0.2, 0.42)),
                   hand=False)
    table = set_table(spec, rng)
    n = int(rng.integers(1, 5))
    pile = int(rng.integers(2, 4)) if n >= 2 and rng.random() < 0.35 else 0
    placements, taken = [], []
    for _ in range(8):
        placements, taken = [], []
        if pile:
            for _ in range(30):
                stack = messy_pile(table, ["x"] * pile, "table", rng, (rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7)))
                quads = [image_corners(table, p) for p in stack]
                if all(in_frame(table, q) for q in quads):
                    placements += stack
                    taken += [grown(q, 1.06) for q in quads]
                    break
        for _ in range(n - pile if pile else n):
            p = place_single(table, "x", taken, rng)
            if p is not None:
                placements.append(p)
        if placements:
            break
        table = replace(table, spec=replace(table.spec, card_width=table.spec.card_width * 0.85))
    w, h = table.size
    img = table.background.copy()
    dirty = None
    for _ in range(int(rng.integers(0, 3)) if rng.random() < 0.5 else 0):
        kind = OBJECTS[int(rng.integers(len(OBJECTS)))]
        x, y, a = rng.uniform(0.15, 0.85), rng.uniform(0.15, 0.85), float(rng.uniform(0, 360))
        if kind == "back":
            q = image_corners(table, Placement("", x, y, a))
            if any(overlaps(grown(q, 1.06), t) for t in taken) or not in_frame(table, q):
                continue
            dirty = _union(dirty, _paste_card(img, _face(None, "", int(np.linalg.norm(q[1] - q[0])) + 2, rng), q,
                                              table.spec.card_shadows))
            taken.append(grown(q, 1.06))
        else:
            dirty = _union(dirty, draw_flat_object(img, table.homography, kind, (x * w, y * h), a, table.card_width,
                                                   rng))
    quads = []
    for p in placements:
        q = image_corners(table, p)
        face = _face(RANKS[int(rng.integers(len(RANKS)))], SUITS[int(rng.integers(len(SUITS)))],
                     max(8, int(np.linalg.norm(q[1] - q[0])) + 2), rng)
        dirty = _union(dirty, _paste_card(img, face, q, table.spec.card_shadows))
        quads.append(q)
    image = sensor(_develop_changes(table, img, dirty), spec.noise, spec.jpeg_quality, rng)
    return image, visible_boxes(quads, (w, h)), photo_patches()[spec.table_variant][0]


def describe(image: np.ndarray, truth: list[tuple]) -> tuple[list, list[int], list[int]]:
    """The finder's outlines (kept and refused) on `image`: their features
    (`outlinescore.features`, as at run time), labels (box IoU >= 0.5 with a truth box) and
    whether each is a print outline."""
    small, scale = to_working_size(image)
    trace: list = []
    find_outlines(small, HAND, trace)
    t = trace[0]
    pool = [outlinescore.Considered(q, float(cv2.contourArea(q))) for q in t.kept] + t.considered
    feats = outlinescore.features(pool, t.edges, t.white, t.gray, HAND.min_short_side, HAND.min_step, HAND.paper,
                                  len(t.kept))
    labels = []
    for c in pool:
        box = tuple(v / t.scale / scale for v in outline_box(c.quad))
        labels.append(int(any(iou(box, b) >= MATCH_IOU for b in truth)))
    return list(feats), labels, [int(c.printed) for c in pool]


def collect(out: str, scenes: int, seed: int) -> None:
    variants = train_variants()
    if not variants:
        raise SystemExit("no photo tables: ../shared/realphotos/cards-edje is missing")
    rng = np.random.default_rng(seed)
    X, y, printed, photo = [], [], [], []
    cards = found = 0
    sources: list[str] = []
    for k in range(scenes):
        image, truth, source = render(rng, variants)
        sources.append(source)
        f, lab, pr = describe(image, truth)
        X += f
        y += lab
        printed += pr
        photo += [k] * len(f)
        cards += len(truth)
        found += sum(lab)
    np.savez_compressed(out, X=np.array(X, np.float64).reshape(-1, len(outlinescore.NAMES)), y=np.array(y),
                        printed=np.array(printed), photo=np.array(photo), seed=np.array(seed),
                        sources=np.array(sources))
    print(f"{scenes} scenes, {cards} cards labelled, {len(y)} outlines, {found} of them a card's"
          f" (seed {seed}, {len(variants)} train_ tables)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", metavar="NPZ")
    parser.add_argument("--scenes", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", metavar="PNG", help="write 6 scenes with their label boxes, to look at")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    if args.show:
        rng = np.random.default_rng(args.seed)
        tiles = []
        for _ in range(6):
            image, truth, _ = render(rng, train_variants())
            for b in truth:
                cv2.rectangle(image, (int(b[0]), int(b[1])), (int(b[2]), int(b[3])), (0, 255, 0), 1)
            tiles.append(cv2.resize(image, (320, 240)))
        cv2.imwrite(args.show, np.vstack([np.hstack(tiles[i:i + 3]) for i in (0, 3)]))
    if args.out:
        collect(args.out, args.scenes, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
