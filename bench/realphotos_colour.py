"""Red or black on real photographs: the colour of every isolated card of
`../shared/realphotos/cards-edje` (standard playing cards: the labels give ranks only, so
the suit colour is judged by eye on the contact sheets this writes).

    .venv/bin/python bench/realphotos_colour.py [--split test|train|all]

Each card is cut out by the finder inside its label box (as `bench/realphotos_read.py`
does), white-balanced by its own paper and judged red or black against the fixed ink
prototypes (`vision.colour`). Prints how many were read each way, how sure, and whether
the teaching step would take a deck taught from these faces (named by the colours read)
for one printed with no white (it must not: they are white card stock). Writes
tests/artifacts/realphotos_colour/red.png and black.png (faces in reading order, the
least sure first) to look at.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.realphotos_read import PHOTOS, box_outline, load_cards  # noqa: E402
from vision.classify import WORK_SIZE, face_features  # noqa: E402
from vision.colour import INKS, likelihoods, printed_without_white  # noqa: E402
from vision.warp import warp_card  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[1] / "tests" / "artifacts" / "realphotos_colour"


def sheet(faces: list[np.ndarray], columns: int = 16) -> np.ndarray:
    cell = [cv2.resize(f, (66, 92)) for f in faces] or [np.zeros((92, 66, 3), np.uint8)]
    cell += [np.zeros_like(cell[0])] * (-len(cell) % columns)
    rows = [np.hstack(cell[i:i + columns]) for i in range(0, len(cell), columns)]
    return np.vstack(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", default="test", choices=("test", "train", "all"))
    args = ap.parse_args(argv)
    if not PHOTOS.is_dir():
        print(f"the real photos are not at {PHOTOS}")
        return 1
    cards = [c for c in load_cards() if c.isolated
             and (args.split == "all" or Path(c.file).name.startswith(args.split + "_"))]
    said: dict[str, list[tuple[float, np.ndarray]]] = {"red": [], "black": []}
    samples = []
    for card in cards:
        image = cv2.imread(str(PHOTOS / card.file))
        face = warp_card(image, box_outline(image, card.box), WORK_SIZE)
        seen = face_features(face).ink_colour
        fit = likelihoods(seen, INKS, ["red", "black"])
        colour = ("red", "black")[int(fit.argmax())]
        said[colour].append((float(fit.max() / max(fit.min(), 1e-9)), face))
        samples.append((colour, seen))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for colour, faces in said.items():
        faces.sort(key=lambda x: x[0])
        cv2.imwrite(str(ARTIFACTS / f"{colour}.png"), sheet([f for _, f in faces]))
        margins = [m for m, _ in faces]
        print(f"{colour}: {len(faces)} cards; fit ratio over the other colour, median "
              f"{np.median(margins) if margins else float('nan'):.1f}, least {min(margins, default=float('nan')):.1f}")
    print(f"taught from these faces, printed without white: {printed_without_white(samples)}")
    print(f"contact sheets (least sure first): {ARTIFACTS}/red.png, black.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
