"""Finding a taught deck's cards at the appliance, where the empty table is known: the
finder the appliance uses (`vision.detect.detect` with the empty table: edge groups,
cells, what changed) against the real-table finder (`vision.realfind.find_outlines`,
which runs only where no empty table is known), on the same frames.

    .venv/bin/python bench/appliance_find.py [--scenes 40] [--seed 1] [--photo-tables]

Each scene is a rendered table (`vision.render.scene.random_spec`: wood, felt, a checked
cloth, light and dark tables; with `--photo-tables` real tables cut from
../shared/realphotos) under its camera and light, photographed empty, then with one to
four faces of the stand-in UNO-family deck (`vision.render.sessions.uno_face`) laid on
it, each printing in turn: paper (white stock), oval, white print, no white (full-bleed
colour fields). A card is found when an outline's corners lie within a tenth of its short
side of the card's (mean). Prints, per printing and per table, the cards each finder
finds, those only one of them finds, false outlines per frame, and the CPU time of each.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from dataclasses import replace  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.detect import DetectSettings, EmptyTable, detect  # noqa: E402
from vision.realfind import find_outlines  # noqa: E402
from vision.render.scene import random_spec, set_table  # noqa: E402
from vision.render.sessions import FACE, PRINTINGS, UNO_INKS, uno_face  # noqa: E402

SYMBOLS = ("0", "3", "7", "9", "+2")
MATCH = 0.1      # of the card's short side: mean corner distance, found to true


def lay_faces(empty: np.ndarray, faces: list[np.ndarray], width: float, rng: np.random.Generator
              ) -> tuple[np.ndarray, list[np.ndarray]]:
    """The faces laid flat on the table picture, apart from each other, `width` pixels
    wide; a little sensor noise of its own. The picture and each card's corners."""
    h, w = empty.shape[:2]
    frame = empty.astype(np.float32)
    height = width * FACE[1] / FACE[0]
    placed: list[np.ndarray] = []
    for face in faces:
        for _ in range(100):
            cx, cy = rng.uniform(height * 0.66, w - height * 0.66), rng.uniform(height * 0.66, h - height * 0.66)
            if all(np.linalg.norm(q.mean(axis=0) - (cx, cy)) > height * 1.05 for q in placed):
                break
        else:
            continue
        a = np.radians(rng.uniform(-180, 180))
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        box = (np.array([[-width, -height], [width, -height], [width, height], [-width, height]]) / 2
               @ rot.T + (cx, cy)).astype(np.float32)
        src = np.array([[0, 0], [FACE[0], 0], [FACE[0], FACE[1]], [0, FACE[1]]], np.float32)
        matrix = cv2.getPerspectiveTransform(src, box)
        warped = cv2.warpPerspective(face, matrix, (w, h), flags=cv2.INTER_AREA).astype(np.float32)
        alpha = cv2.warpPerspective(np.full(face.shape[:2], 1.0, np.float32), matrix, (w, h))[..., None]
        frame = frame * (1 - alpha) + warped * alpha
        placed.append(box)
    frame += rng.normal(0, 2.0, frame.shape).astype(np.float32)
    return np.clip(frame, 0, 255).astype(np.uint8), placed


def matches(found: np.ndarray, true: np.ndarray) -> bool:
    short = float(np.linalg.norm(true[1] - true[0]))
    return min(float(np.linalg.norm(found - np.roll(true, k, axis=0), axis=1).mean())
               for k in range(4)) < MATCH * short


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scenes", type=int, default=40, help="tables, each with every printing")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--photo-tables", action="store_true", help="real tables from ../shared/realphotos")
    p.add_argument("--misses", metavar="DIR", type=Path,
                   help="draw each frame where the appliance's finder misses a card (true outline green,"
                        " its outlines red, realfind's yellow) in DIR")
    args = p.parse_args(argv)
    cv2.setNumThreads(1)
    settings = DetectSettings(aspect=FACE[1] / FACE[0], strong_cells=True)
    rng = np.random.default_rng(args.seed)
    tally: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    cpu: dict[str, list[float]] = defaultdict(list)
    colours = list(UNO_INKS.values())
    for _ in range(args.scenes):
        spec = random_spec(rng, photo_tables=args.photo_tables)
        spec = replace(spec, hand=False, motion_blur=0.0, tilt_deg=0.0, glare=0.0)
        table = set_table(spec, rng)
        empty = np.ascontiguousarray(table.empty)
        known = EmptyTable.from_image(empty, settings)
        n = int(rng.integers(1, 5))
        picks = [(colours[int(rng.integers(4))], SYMBOLS[int(rng.integers(len(SYMBOLS)))]) for _ in range(n)]
        for printing in PRINTINGS:
            faces = [uno_face(ink, symbol, printing) for ink, symbol in picks]
            frame, cards = lay_faces(empty, faces, table.card_width, rng)
            c0 = time.process_time()
            old = [c.corners for c in detect(frame, known, settings).cards]
            c1 = time.process_time()
            real = find_outlines(frame)
            c2 = time.process_time()
            cpu["appliance finder"].append((c1 - c0) * 1000)
            cpu["realfind"].append((c2 - c1) * 1000)
            missed = [card for card in cards if not any(matches(q, card) for q in old)]
            if args.misses is not None and missed:
                args.misses.mkdir(parents=True, exist_ok=True)
                picture = frame.copy()
                for quads, colour in ((cards, (0, 200, 0)), (real, (0, 220, 255)), (old, (0, 0, 255))):
                    cv2.polylines(picture, [np.round(q).astype(np.int32) for q in quads], True, colour, 1)
                cv2.imwrite(str(args.misses / f"{printing}-{spec.table}-{len(cpu['realfind']):04d}.png"), picture)
            for key in ((printing, "all"), (printing, spec.table)):
                t = tally[key]
                t["cards"] += len(cards)
                t["frames"] += 1
                for card in cards:
                    a, b = any(matches(q, card) for q in old), any(matches(q, card) for q in real)
                    t["appliance"] += a
                    t["realfind"] += b
                    t["only realfind"] += b and not a
                    t["only appliance"] += a and not b
                    t["either"] += a or b
                t["false appliance"] += sum(not any(matches(q, c) for c in cards) for q in old)
                t["false realfind"] += sum(not any(matches(q, c) for c in cards) for q in real)
    print(f"{args.scenes} tables{' (real photos)' if args.photo_tables else ''}, seed {args.seed}, "
          f"load average {os.getloadavg()[0]:.1f}")
    print("printing / table: cards | appliance finder | realfind | only realfind | only appliance"
          " | either | false outlines a frame (appliance, realfind)")
    for (printing, kind), t in sorted(tally.items(), key=lambda kv: (PRINTINGS.index(kv[0][0]), kv[0][1] != "all",
                                                                        kv[0][1])):
        n = max(t["cards"], 1)
        print(f"  {printing:11s} {kind:6s}: {t['cards']:3d} | {t['appliance'] / n:6.1%} | {t['realfind'] / n:6.1%}"
              f" | {t['only realfind']:3d} | {t['only appliance']:3d} | {t['either'] / n:6.1%}"
              f" | {t['false appliance'] / t['frames']:.2f}, {t['false realfind'] / t['frames']:.2f}")
    for name, values in cpu.items():
        print(f"  CPU ms a frame, {name}: median {np.median(values):.1f}, p95 {np.percentile(values, 95):.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
