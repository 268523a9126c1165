"""Finding cards in perturbed copies of the real train_ photos: which isolated cards the
finder finds on the photo as it is but loses when the same photo is shown the way another
camera or table would show it. A train/test gap says the finder's settings fit train_;
perturbations ask the same question without looking at test_ (never read here).

    .venv/bin/python bench/realphotos_perturb.py                     # every perturbation
    .venv/bin/python bench/realphotos_perturb.py --only smaller,jpeg --verbose   # name the losses

Each train_ photo of ../shared/realphotos/cards-edje is brought to the working size (as
bench/realphotos_find.py does), then perturbed, and searched with `detect.LEARNED_SETTINGS`
(as `deckhand recognize` searches for playing cards taught from photos); the label boxes
are carried through the perturbation. Perturbations (each alone):

* smaller / larger: the whole photo at 0.7 of the working size (the cards smaller in
  pixels, as from a higher camera), or the middle 0.75 of it brought back to the working
  size (the cards larger; only cards wholly inside the cut are counted);
* jpeg: JPEG quality 30; blur: a Gaussian of sigma 1.2; noise: Gaussian noise of sigma 6
  (fixed seed per photo);
* dark / bright: gamma 1.6 / 0.6; warm / cool: the red and blue channels scaled
  (1.2, 0.75) / (0.8, 1.15), as under a lamp or in the shade;
* turned: a quarter turn (cv2.ROTATE_90_CLOCKWISE), boxes turned with it;
* shifted / faint: what no eye sees, the bench's noise floor: the photo moved by one pixel
  (its first row and column cut away, the boxes moved with it: the finder's half-size copy
  is sampled a half pixel off), or Gaussian noise of sigma 1.5 (fixed seed per photo);
  a finder change worth a card or two on train_ is within what these alone move;
* edge: for each isolated card, the photo cut so that the frame's border crosses the card
  a fifth of the way in (from the side with the least room: as much of the photo kept as
  can be), the card's box clipped; only that card is counted (one search per isolated card).

Counted per perturbation: the isolated cards found (of those isolated on the photo as it
is), those lost and gained against the photo as it is, all cards found, and false outlines
(bench/realphotos_find.py's scoring: IoU >= 0.5 of bounding boxes). No randomness: the same
command prints the same figures.
"""
from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import zlib  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from realphotos_find import PHOTOS, load_labels, outline_box, overlaps, score_photo, split_of  # noqa: E402

from vision.detect import LEARNED_SETTINGS, PLAIN_SETTINGS, DetectSettings, find_cards  # noqa: E402
from vision.pipeline import to_working_size  # noqa: E402

Box = tuple[float, float, float, float]
Perturbed = tuple[np.ndarray, list[Box], list[bool]]   # image, boxes, counted


def _lut(gamma: float) -> np.ndarray:
    return np.clip(255.0 * (np.arange(256) / 255.0) ** gamma + 0.5, 0, 255).astype(np.uint8)


def _gains(image: np.ndarray, blue: float, red: float) -> np.ndarray:
    out = image.astype(np.float32)
    out[..., 0] *= blue
    out[..., 2] *= red
    return np.clip(out + 0.5, 0, 255).astype(np.uint8)


def _inside(box: Box, x0: float, y0: float, x1: float, y1: float) -> bool:
    return box[0] >= x0 and box[1] >= y0 and box[2] <= x1 and box[3] <= y1


def smaller(image: np.ndarray, boxes: list[Box], name: str) -> Perturbed:
    f = 0.7
    h, w = image.shape[:2]
    out = cv2.resize(image, (round(w * f), round(h * f)), interpolation=cv2.INTER_AREA)
    return out, [tuple(v * f for v in b) for b in boxes], [True] * len(boxes)


def larger(image: np.ndarray, boxes: list[Box], name: str) -> Perturbed:
    f = 0.75
    h, w = image.shape[:2]
    cw, ch = round(w * f), round(h * f)
    x0, y0 = (w - cw) // 2, (h - ch) // 2
    out = cv2.resize(image[y0:y0 + ch, x0:x0 + cw], (w, h), interpolation=cv2.INTER_LINEAR)
    sx, sy = w / cw, h / ch
    moved = [((b[0] - x0) * sx, (b[1] - y0) * sy, (b[2] - x0) * sx, (b[3] - y0) * sy) for b in boxes]
    return out, moved, [_inside(b, x0, y0, x0 + cw, y0 + ch) for b in boxes]


def jpeg(image: np.ndarray, boxes: list[Box], name: str) -> Perturbed:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 30])
    return cv2.imdecode(data, cv2.IMREAD_COLOR), boxes, [True] * len(boxes)


def blur(image: np.ndarray, boxes: list[Box], name: str) -> Perturbed:
    return cv2.GaussianBlur(image, (0, 0), 1.2), boxes, [True] * len(boxes)


def noise(image: np.ndarray, boxes: list[Box], name: str) -> Perturbed:
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    out = np.clip(image.astype(np.float32) + rng.normal(0, 6, image.shape), 0, 255)
    return out.astype(np.uint8), boxes, [True] * len(boxes)


def dark(image: np.ndarray, boxes: list[Box], name: str) -> Perturbed:
    return cv2.LUT(image, _lut(1.6)), boxes, [True] * len(boxes)


def bright(image: np.ndarray, boxes: list[Box], name: str) -> Perturbed:
    return cv2.LUT(image, _lut(0.6)), boxes, [True] * len(boxes)


def warm(image: np.ndarray, boxes: list[Box], name: str) -> Perturbed:
    return _gains(image, 0.75, 1.2), boxes, [True] * len(boxes)


def cool(image: np.ndarray, boxes: list[Box], name: str) -> Perturbed:
    return _gains(image, 1.15, 0.8), boxes, [True] * len(boxes)


def turned(image: np.ndarray, boxes: list[Box], name: str) -> Perturbed:
    h = image.shape[0]
    out = np.ascontiguousarray(cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE))
    # (x, y) -> (h - y, x)
    return out, [(h - b[3], b[0], h - b[1], b[2]) for b in boxes], [True] * len(boxes)


def shifted(image: np.ndarray, boxes: list[Box], name: str) -> Perturbed:
    return np.ascontiguousarray(image[1:, 1:]), [(b[0] - 1, b[1] - 1, b[2] - 1, b[3] - 1) for b in boxes], \
        [True] * len(boxes)


def faint(image: np.ndarray, boxes: list[Box], name: str) -> Perturbed:
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    out = np.clip(image.astype(np.float32) + rng.normal(0, 1.5, image.shape) + 0.5, 0, 255)
    return out.astype(np.uint8), boxes, [True] * len(boxes)


PERTURBATIONS: dict[str, Callable[[np.ndarray, list[Box], str], Perturbed]] = {
    "smaller": smaller, "larger": larger, "jpeg": jpeg, "blur": blur, "noise": noise,
    "dark": dark, "bright": bright, "warm": warm, "cool": cool, "turned": turned,
    "shifted": shifted, "faint": faint}


def edge_cuts(image: np.ndarray, boxes: list[Box], j: int,
              depth: float = 0.2) -> tuple[np.ndarray, Box, tuple[int, int]] | None:
    """The photo cut so the frame's border crosses card `j` `depth` of the way in (a fifth),
    from the side with the least room (the cut keeps as much of the photo as it can), the
    card's box clipped, and the cut's top-left corner in the photo; None when the card
    already touches the border."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = boxes[j]
    bw, bh = x2 - x1, y2 - y1
    room = {"left": x1, "top": y1, "right": w - x2, "bottom": h - y2}
    side = min(room, key=room.get)
    if room[side] < 4:
        return None
    if side == "left":
        cut = int(round(x1 + depth * bw))
        return np.ascontiguousarray(image[:, cut:]), (0.0, y1, x2 - cut, y2), (cut, 0)
    if side == "right":
        cut = int(round(x2 - depth * bw))
        return np.ascontiguousarray(image[:, :cut]), (x1, y1, float(cut), y2), (0, 0)
    if side == "top":
        cut = int(round(y1 + depth * bh))
        return np.ascontiguousarray(image[cut:]), (x1, 0.0, x2, y2 - cut), (0, cut)
    cut = int(round(y2 - depth * bh))
    return np.ascontiguousarray(image[:cut]), (x1, y1, x2, float(cut)), (0, 0)


CAUSES = ("no outline", "refused by the scorer", "dropped beside another")


def cause(image: np.ndarray, box: Box, settings: DetectSettings) -> str:
    """Why the card of `box` is not found in `image`: no outline the finder kept or refused
    matches it (box IoU >= 0.5), or every one that does is below the learned scorer's
    threshold, or one is above it but another outline was taken over it."""
    from realphotos_find import iou

    from vision import outlinescore
    from vision.realfind import find_outlines

    real = settings.real
    trace: list = []
    find_outlines(image, real, trace)
    t = trace[0]
    pool = [outlinescore.Considered(q, float(cv2.contourArea(q))) for q in t.kept] + t.considered
    matching = [i for i, c in enumerate(pool) if iou(tuple(v / t.scale for v in outline_box(c.quad)), box) >= 0.5]
    if not matching:
        return CAUSES[0]
    if not real.learned:
        return CAUSES[2]
    model = outlinescore.load()
    chances = model.chances(outlinescore.features([pool[i] for i in matching], t.edges, t.white, t.gray,
                                                  real.min_short_side, real.min_step, real.paper, len(t.kept)))
    return CAUSES[1] if float(np.max(chances)) < model.threshold else CAUSES[2]


@dataclass
class Tally:
    isolated: int = 0
    isolated_found: int = 0
    found: int = 0
    labels: int = 0
    false: int = 0
    lost: list[str] = field(default_factory=list)
    gained: list[str] = field(default_factory=list)
    causes: dict[str, int] = field(default_factory=dict)

    def lose(self, what: str, why: str | None) -> None:
        self.lost.append(what)
        if why is not None:
            self.causes[why] = self.causes.get(why, 0) + 1


def boxes_found(image: np.ndarray, settings: DetectSettings) -> list[Box]:
    return [outline_box(f.corners) for f in find_cards(image, None, settings)]


def isolated_flags(boxes: list[Box]) -> list[bool]:
    return [not any(overlaps(b, o) for k, o in enumerate(boxes) if k != j) for j, b in enumerate(boxes)]


def found_flags(labels: list[Box], outlines: list[Box]) -> list[bool]:
    s = score_photo(labels, outlines)
    return [j not in s.missed for j in range(len(labels))]


def run(names: list[str], settings: DetectSettings, only: list[str], causes: bool = False) -> dict[str, Tally]:
    labels = load_labels()
    tallies = {k: Tally() for k in ["as is", *only]}
    for name in names:
        image, scale = to_working_size(cv2.imread(str(PHOTOS / name), cv2.IMREAD_COLOR))
        boxes = [tuple(v * scale for v in b) for b in labels[name]]
        iso = isolated_flags(boxes)
        base_out = boxes_found(image, settings)
        base = found_flags(boxes, base_out)
        s = score_photo(boxes, base_out)
        t = tallies["as is"]
        t.isolated += sum(iso)
        t.isolated_found += sum(f and i for f, i in zip(base, iso))
        t.found, t.labels, t.false = t.found + s.found, t.labels + s.labels, t.false + s.false
        for key in only:
            t = tallies[key]
            if key == "edge":
                for j, (i, f) in enumerate(zip(iso, base)):
                    cut = edge_cuts(image, boxes, j) if i else None
                    if cut is None:
                        continue
                    out = boxes_found(cut[0], settings)
                    got = found_flags([cut[1]], out)[0]
                    t.isolated += 1
                    t.isolated_found += got
                    if f and not got:
                        t.lose(f"{name}#{j}", cause(cut[0], cut[1], settings) if causes else None)
                    if got and not f:
                        t.gained.append(f"{name}#{j}")
                continue
            pimage, pboxes, counted = PERTURBATIONS[key](image, boxes, name)
            out = boxes_found(pimage, settings)
            flags = found_flags(pboxes, out)
            s = score_photo(pboxes, out)
            t.labels += sum(counted)
            t.found += sum(f and c for f, c in zip(flags, counted))
            t.false += s.false
            for j, (i, c, f0, f1) in enumerate(zip(iso, counted, base, flags)):
                if not (i and c):
                    continue
                t.isolated += 1
                t.isolated_found += f1
                if f0 and not f1:
                    t.lose(f"{name}#{j}", cause(pimage, pboxes[j], settings) if causes else None)
                if f1 and not f0:
                    t.gained.append(f"{name}#{j}")
    return tallies


def _clipped(boxes: list[Box], shift: tuple[int, int], size: tuple[int, int]) -> tuple[list[Box], list[Box]]:
    """Label boxes moved by -`shift` and clipped to a frame of `size` (w, h): those at least a
    third in view, and those less (their outlines are neither card nor not)."""
    w, h = size
    seen, unseen = [], []
    for b in boxes:
        x1, y1, x2, y2 = b[0] - shift[0], b[1] - shift[1], b[2] - shift[0], b[3] - shift[1]
        c = (max(x1, 0.0), max(y1, 0.0), min(x2, float(w)), min(y2, float(h)))
        if c[2] <= c[0] or c[3] <= c[1]:
            continue
        share = (c[2] - c[0]) * (c[3] - c[1]) / max((x2 - x1) * (y2 - y1), 1e-9)
        (seen if share >= 1 / 3 else unseen).append(c)
    return seen, unseen


def collect(out: str, names: list[str], kinds: list[str], depths: list[float]) -> None:
    """Perturbed copies of the train_ photos as more training outlines for the learned scorer
    (`bench/outline_scorer.py --extra NPZ`): each photo perturbed by each of `kinds` (and for
    "edge", cut at each of `depths` across each isolated card, as `edge_cuts` cuts); the
    finder's own gates run on it (the scorer's collection: `PLAIN_SETTINGS`, trimmed spurs
    0.12, print groups 0.06) and every outline kept or refused is described by
    `outlinescore.features` and labelled 1 when its box has IoU >= 0.5 with a card's box
    clipped to the picture (a card less than a third in view: its outlines left out, neither
    card nor not). Each copy's source photo is kept (`sources`), so that a fold never trains
    on copies of its own held-out photos."""
    from dataclasses import replace

    from realphotos_find import iou

    from vision import outlinescore
    from vision.realfind import find_outlines

    hand = replace(PLAIN_SETTINGS, trim_spurs=0.12, print_groups=0.06)
    labels = load_labels()
    rows, target, photo, printed, sources = [], [], [], [], []
    for name in names:
        image, scale = to_working_size(cv2.imread(str(PHOTOS / name), cv2.IMREAD_COLOR))
        boxes = [tuple(v * scale for v in b) for b in labels[name]]
        copies: list[tuple[np.ndarray, list[Box], list[Box]]] = []
        for kind in kinds:
            if kind == "edge":
                for j, alone in enumerate(isolated_flags(boxes)):
                    for depth in depths if alone else ():
                        cut = edge_cuts(image, boxes, j, depth)
                        if cut is not None:
                            copies.append((cut[0], *_clipped(boxes, cut[2], cut[0].shape[1::-1])))
                continue
            picture, moved, _ = PERTURBATIONS[kind](image, boxes, name)
            copies.append((picture, *_clipped(moved, (0, 0), picture.shape[1::-1])))
        for picture, seen, unseen in copies:
            trace: list = []
            find_outlines(picture, hand, trace)
            t = trace[0]
            pool = [outlinescore.Considered(q, float(cv2.contourArea(q))) for q in t.kept] + t.considered
            feats = outlinescore.features(pool, t.edges, t.white, t.gray, hand.min_short_side, hand.min_step,
                                          hand.paper, len(t.kept))
            k = len(sources)
            sources.append(name)
            for c, f in zip(pool, feats):
                box = tuple(v / t.scale for v in outline_box(c.quad))
                card = any(iou(box, b) >= 0.5 for b in seen)
                if not card and any(iou(box, b) >= 0.5 for b in unseen):
                    continue
                rows.append(f)
                target.append(int(card))
                photo.append(k)
                printed.append(int(c.printed))
    made = f"bench/realphotos_perturb.py --collect NPZ --only {','.join(kinds)}" + \
        (f" --depths {','.join(f'{d:g}' for d in depths)}" if "edge" in kinds else "")
    np.savez_compressed(out, X=np.array(rows), y=np.array(target), photo=np.array(photo),
                        printed=np.array(printed), sources=np.array(sources), made=np.array(made))
    print(f"{len(sources)} perturbed copies ({','.join(kinds)}) of {len(names)} train_ photos, {len(rows)} outlines,"
          f" {sum(target)} a card's")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default=",".join([*PERTURBATIONS, "edge"]),
                        help="comma-separated perturbations (default: all)")
    parser.add_argument("--every", type=int, default=1, help="every Nth train_ photo (quicker)")
    parser.add_argument("--verbose", action="store_true", help="name the isolated cards lost and gained")
    parser.add_argument("--causes", action="store_true",
                        help="say why each isolated card lost was lost (no outline, refused by the scorer, dropped)")
    parser.add_argument("--hand", action="store_true",
                        help="the finder's own gates alone (detect.PLAIN_SETTINGS: no learned outline scorer)")
    parser.add_argument("--collect", metavar="NPZ",
                        help="write the --only perturbations' outlines for bench/outline_scorer.py --extra")
    parser.add_argument("--depths", type=lambda v: [float(x) for x in v.split(",")], default=[0.15, 0.3],
                        help="with --collect and edge: how far into each card the border cuts")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    only = [k for k in args.only.split(",") if k]
    unknown = [k for k in only if k not in PERTURBATIONS and k != "edge"]
    if unknown:
        parser.error(f"unknown perturbation(s): {', '.join(unknown)}")
    names = [n for n in sorted(load_labels()) if split_of(n) == "train"][::args.every]
    if args.collect:
        collect(args.collect, names, only, args.depths)
        return 0
    tallies = run(names, DetectSettings(real=PLAIN_SETTINGS if args.hand else LEARNED_SETTINGS), only, args.causes)
    print(f"train_ photos: {len(names)} (test_ is never read here)")
    print(f"{'perturbation':>12}  isolated found    lost  gained   all found   false")
    for key, t in tallies.items():
        all_found = f"{t.found}/{t.labels}" if key != "edge" else "-"
        false = str(t.false) if key != "edge" else "-"
        print(f"{key:>12}  {t.isolated_found:>4}/{t.isolated:<4} {t.isolated_found / max(t.isolated, 1):6.1%}"
              f" {len(t.lost):>5} {len(t.gained):>7} {all_found:>11} {false:>7}")
    if args.causes:
        for key, t in tallies.items():
            if t.lost:
                print(f"{key}: lost {len(t.lost)}: " + ", ".join(f"{why} {t.causes.get(why, 0)}" for why in CAUSES))
    if args.verbose:
        for key, t in tallies.items():
            if t.lost or t.gained:
                print(f"{key}: lost {' '.join(t.lost) or '-'}; gained {' '.join(t.gained) or '-'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
