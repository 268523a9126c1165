"""Table-top textures: wood, felt, patterned cloth, light laminate and dark slate, and
(where the shared photos are present) real tables.

A few variants of each are generated once from fixed seeds and cached (deterministic,
no image files); a scene picks a variant and views it through its camera homography,
which reflects the texture at its edges so a steeply tilted view never runs out of table.

The "photo" table is cut from a real photograph of ../shared/realphotos/cards-edje (the
folder beside the repository, read at run time, never copied into it): the largest part
of the photo that no labelled card's box touches, mirrored out to the texture's size.
It is not among TABLES (seeded scenes stay as they were); ask for it by name.
"""
from __future__ import annotations

import csv
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

TABLES = ("wood", "felt", "cloth", "light", "dark")
VARIANTS = 3
TEXTURE_SIZE = (1024, 768)  # width, height of a cached texture, in table units
PHOTO = "photo"             # a real table, cut from a shared photograph
PHOTOS = Path(__file__).resolve().parents[3] / "shared" / "realphotos" / "cards-edje"
MIN_PHOTO_PATCH = 150       # pixels: a smaller card-free part of a photo is not used


def _smooth_noise(rng: np.random.Generator, size, cells, octaves: int = 3) -> np.ndarray:
    """Value noise in [-1, 1]: random grids of growing resolution, upscaled and summed."""
    w, h = size
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    cw, ch = cells
    for _ in range(octaves):
        grid = rng.standard_normal((max(2, ch), max(2, cw))).astype(np.float32)
        out += amp * cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC)
        total += amp
        amp *= 0.5
        cw, ch = cw * 2, ch * 2
    out /= total
    return np.clip(out / (np.abs(out).max() + 1e-6), -1, 1)


def _mix(a, b, t: np.ndarray) -> np.ndarray:
    a = np.asarray(a, np.float32)
    b = np.asarray(b, np.float32)
    return a + (b - a) * t[..., None]


def _wood(rng, size):
    w, h = size
    warp = _smooth_noise(rng, size, (3, 6), 3)
    y = np.arange(h, dtype=np.float32)[:, None]
    x = np.arange(w, dtype=np.float32)[None, :]
    grain = 0.5 + 0.5 * np.sin((y + warp * 40 + x * 0.02) * rng.uniform(0.25, 0.4))
    fine = _smooth_noise(rng, size, (64, 16), 2)
    t = np.clip(0.6 * grain + 0.4 * (fine * 0.5 + 0.5), 0, 1)
    light, dark = [((95, 150, 200), (45, 85, 130)), ((70, 110, 150), (30, 55, 85)),
                   ((140, 185, 220), (90, 130, 175))][int(rng.integers(3))]
    img = _mix(dark, light, t)
    plank = int(rng.integers(90, 160))
    offset = int(rng.integers(plank))
    for yy in range(offset, h, plank):  # the seams between planks
        img[yy:yy + 2] *= 0.55
    return img


def _felt(rng, size):
    base = [(60, 110, 20), (110, 60, 25), (40, 35, 120)][int(rng.integers(3))]
    fine = rng.standard_normal((size[1], size[0])).astype(np.float32)
    fine = cv2.GaussianBlur(fine, (0, 0), 0.8)
    mottle = _smooth_noise(rng, size, (6, 5), 3)
    t = 0.12 * fine / (fine.std() + 1e-6) + 0.08 * mottle
    return np.asarray(base, np.float32) * (1 + t[..., None])


def _cloth(rng, size):
    w, h = size
    kind = int(rng.integers(3))
    y = np.arange(h)[:, None]
    x = np.arange(w)[None, :]
    if kind == 0:  # gingham checks
        p = int(rng.integers(24, 48))
        a = ((x // p) % 2).astype(np.float32)
        b = ((y // p) % 2).astype(np.float32)
        t = (a + b) / 2
        img = _mix((235, 235, 240), (50, 50, 190), np.broadcast_to(t, (h, w)))
    elif kind == 1:  # stripes
        p = int(rng.integers(18, 40))
        t = (((x + y * 0) // p) % 3 == 0).astype(np.float32)
        img = _mix((200, 225, 235), (140, 90, 40), np.broadcast_to(t, (h, w)))
    else:  # dots on a coloured ground
        img = np.empty((h, w, 3), np.float32)
        img[:] = (80, 150, 170)
        p = int(rng.integers(30, 50))
        for cy in range(0, h + p, p):
            for cx in range((cy // p % 2) * p // 2, w + p, p):
                cv2.circle(img, (cx, cy), p // 5, (220, 230, 240), -1, cv2.LINE_AA)
    weave = rng.standard_normal((h, w)).astype(np.float32) * 0.05
    return img * (1 + weave[..., None])


def _light(rng, size):
    base = [(215, 218, 220), (200, 210, 222), (225, 225, 225)][int(rng.integers(3))]
    marble = _smooth_noise(rng, size, (5, 4), 4)
    fine = rng.standard_normal((size[1], size[0])).astype(np.float32) * 0.02
    return np.asarray(base, np.float32) * (1 + 0.05 * marble + fine)[..., None]


def _dark(rng, size):
    base = [(40, 38, 36), (30, 30, 34), (55, 50, 45)][int(rng.integers(3))]
    mottle = _smooth_noise(rng, size, (8, 6), 4)
    fine = rng.standard_normal((size[1], size[0])).astype(np.float32) * 0.08
    return np.asarray(base, np.float32) * (1 + 0.25 * mottle + fine)[..., None]


_MAKERS = {"wood": _wood, "felt": _felt, "cloth": _cloth, "light": _light, "dark": _dark}


@lru_cache(maxsize=None)
def photo_patches(folder: Path = PHOTOS) -> tuple[tuple[str, tuple[int, int, int, int]], ...]:
    """(photo file, (x0, y0, x1, y1)) for every photo with a card-free strip at least
    MIN_PHOTO_PATCH pixels each way: the largest strip left of, right of, above or below
    all its label boxes. Empty when the shared photos are not there."""
    labels = folder / "labels.csv"
    if not labels.is_file():
        return ()
    boxes: dict[str, list[tuple[float, ...]]] = {}
    with open(labels, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            boxes.setdefault(row["file"], []).append(tuple(float(row[k]) for k in ("x1", "y1", "x2", "y2")))
    sizes = {}
    with open(folder / "meta.csv", newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            sizes[row["file"]] = (int(row["width"]), int(row["height"]))
    out = []
    for name in sorted(boxes):
        if name not in sizes:
            continue
        w, h = sizes[name]
        b = np.array(boxes[name])
        strips = [(0, 0, int(b[:, 0].min()) - 4, h), (int(b[:, 2].max()) + 4, 0, w, h),
                  (0, 0, w, int(b[:, 1].min()) - 4), (0, int(b[:, 3].max()) + 4, w, h)]
        x0, y0, x1, y1 = max(strips, key=lambda r: max(0, r[2] - r[0]) * max(0, r[3] - r[1]))
        if x1 - x0 >= MIN_PHOTO_PATCH and y1 - y0 >= MIN_PHOTO_PATCH:
            out.append((name, (x0, y0, x1, y1)))
    return tuple(out)


def photo_texture(variant: int, folder: Path = PHOTOS) -> np.ndarray:
    """A real table of TEXTURE_SIZE: photo patch number `variant` (modulo their count),
    scaled so its short side is a third of the texture's and mirrored out."""
    patches = photo_patches(folder)
    if not patches:
        raise ValueError(f"no photo tables: {folder} is missing (the shared folder beside the repository)")
    name, (x0, y0, x1, y1) = patches[variant % len(patches)]
    image = cv2.imread(str(folder / name), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"cannot read {folder / name}")
    patch = image[y0:y1, x0:x1]
    scale = TEXTURE_SIZE[1] / 3 / min(patch.shape[:2])
    patch = cv2.resize(patch, (max(1, round(patch.shape[1] * scale)), max(1, round(patch.shape[0] * scale))),
                       interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    ph, pw = patch.shape[:2]
    tw, th = TEXTURE_SIZE
    while pw < tw or ph < th:  # mirror out (a reflection has no seam)
        patch = cv2.copyMakeBorder(patch, 0, max(0, min(ph, th - ph)), 0, max(0, min(pw, tw - pw)),
                                   cv2.BORDER_REFLECT)
        ph, pw = patch.shape[:2]
    return patch[:th, :tw].copy()


@lru_cache(maxsize=len(TABLES) * VARIANTS + 16)
def table_texture(kind: str, variant: int) -> np.ndarray:
    """A cached, read-only BGR uint8 texture of TEXTURE_SIZE."""
    if kind == PHOTO:
        img = photo_texture(variant)
        img.flags.writeable = False
        return img
    variant %= VARIANTS
    if kind not in _MAKERS:
        raise ValueError(f"unknown table {kind!r}; tables: {', '.join(TABLES)}")
    rng = np.random.default_rng(1000 * TABLES.index(kind) + variant)
    img = np.clip(_MAKERS[kind](rng, TEXTURE_SIZE), 0, 255).astype(np.uint8)
    img.flags.writeable = False
    return img
