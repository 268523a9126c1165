"""Training views for the learned reader: one taught face becomes many, as other cameras,
lights and outlines would show it.

A face is drawn onto a background (a patch of the teaching photo's own table when there
is one) at a random size, angle and slight perspective, lit by a coloured light with
per-channel gamma and exposure, sometimes a lamp's glare or a blob covering part of it
(a finger, another card), blurred, noisy and JPEG-compressed, then cut out again from
corners moved as far as the finder's real outlines miss (a few per cent of the card's
width). `negative_views` are things that are not a card face of the deck (table, cloth,
stripes, blobs): the reader's "no card" class.

What does not live here: the features (`vision.reader`), the old template reader's
simulated views (`vision.profile.camera_views`).
"""
from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

from vision.profile import card_corners, motion_kernel
from vision.warp import warp_card

CORNER_JITTER = 0.035   # of the card's width: how far real outlines miss a corner (sd)


def training_views(face: np.ndarray, rng: np.random.Generator, count: int, size: tuple[int, int],
                   backgrounds: list[np.ndarray] | tuple = (), jitter: float = CORNER_JITTER,
                   cut: Callable[[np.ndarray, np.ndarray], object] | None = None,
                   widths: tuple[float, float] = (40, 80)) -> list:
    """`count` upright views of `face` (BGR, any size) at `size` (w, h); or, given
    `cut(picture, corners)`, what it makes of each picture and the card's corners as a
    finder would have outlined them."""
    fh, fw = face.shape[:2]
    views = []
    for _ in range(count):
        width = rng.uniform(*widths)   # the reader sees 66 pixels: larger is the same, slower
        height = width * fh / fw
        angle = rng.uniform(0, 2 * np.pi)
        side = int(np.ceil(height * 1.4)) + 10
        corners = card_corners(width, height, angle, side)
        corners += rng.normal(0, 0.03 * width, (4, 2))          # perspective, a tilted camera
        source = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]])
        matrix = cv2.getPerspectiveTransform(source, corners.astype(np.float32))
        ground = _background(backgrounds, side, rng)
        picture = cv2.warpPerspective(face, matrix, (side, side), dst=ground, flags=cv2.INTER_AREA,
                                      borderMode=cv2.BORDER_TRANSPARENT).astype(np.float32)
        if rng.random() < 0.3:
            picture = _blob(picture, corners, rng)
        picture = _light(picture, side, rng)
        sigma = rng.uniform(0.01, 1.5)
        picture = cv2.GaussianBlur(picture, (0, 0), sigma)
        if rng.random() < 0.2:
            picture = cv2.filter2D(picture, -1, motion_kernel(rng.uniform(2, 6), rng.uniform(0, 180)))
        picture += _noise(picture.shape, rng) * rng.uniform(1, 7)
        picture = np.clip(picture, 0, 255).astype(np.uint8)
        if rng.random() < 0.6:
            _, data = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
            picture = cv2.imdecode(data, cv2.IMREAD_COLOR)
        found = corners + rng.normal(0, jitter * width, (4, 2))
        found = found.astype(np.float32)
        views.append(cut(picture, found) if cut else warp_card(picture, found, size))
    return views


def negative_views(rng: np.random.Generator, count: int, size: tuple[int, int],
                   backgrounds: list[np.ndarray] | tuple = ()) -> list[np.ndarray]:
    """`count` pictures at `size` that are not card faces: table patches, plain and
    textured fields, stripes and blobs, under the same light changes."""
    w, h = size
    out = []
    for _ in range(count):
        kind = rng.integers(0, 4)
        if kind == 0 and len(backgrounds):
            picture = _background(backgrounds, max(w, h) + 8, rng)[:h, :w].astype(np.float32)
        elif kind == 1:
            picture = np.empty((h, w, 3), np.float32)
            picture[:] = rng.uniform(20, 250, 3)
            picture += cv2.GaussianBlur(rng.normal(0, rng.uniform(2, 30), (h, w, 3)).astype(np.float32), (0, 0), 2)
        elif kind == 2:
            picture = np.empty((h, w, 3), np.float32)
            picture[:] = rng.uniform(20, 250, 3)
            colour = rng.uniform(0, 255, 3)
            period, phase = rng.uniform(4, 20), rng.uniform(0, 20)
            ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
            theta = rng.uniform(0, np.pi)
            stripes = np.sin((xs * np.cos(theta) + ys * np.sin(theta) + phase) * 2 * np.pi / period) > 0
            picture[stripes] = colour
        else:
            picture = np.empty((h, w, 3), np.float32)
            picture[:] = rng.uniform(20, 250, 3)
            for _ in range(int(rng.integers(3, 9))):   # clutter (a few blobs on paper is a card)
                centre = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
                axes = (int(rng.uniform(4, w * 0.6)), int(rng.uniform(4, h * 0.6)))
                cv2.ellipse(picture, centre, axes, float(rng.uniform(0, 180)), 0, 360,
                            tuple(float(c) for c in rng.uniform(0, 255, 3)), -1)
        picture = _light(picture, max(w, h), rng)[:h, :w]
        picture = cv2.GaussianBlur(picture, (0, 0), rng.uniform(0.01, 1.5))
        out.append(np.clip(picture, 0, 255).astype(np.uint8))
    return out


def _background(backgrounds, side: int, rng: np.random.Generator) -> np.ndarray:
    if len(backgrounds) and rng.random() < 0.8:
        image = backgrounds[int(rng.integers(0, len(backgrounds)))]
        h, w = image.shape[:2]
        if h > side and w > side:
            y, x = int(rng.integers(0, h - side)), int(rng.integers(0, w - side))
            return np.ascontiguousarray(image[y:y + side, x:x + side])
        return cv2.resize(image, (side, side), interpolation=cv2.INTER_AREA)
    ground = np.empty((side, side, 3), np.uint8)
    ground[:] = rng.uniform(20, 235, 3)
    return ground


def _light(picture: np.ndarray, side: int, rng: np.random.Generator) -> np.ndarray:
    """Exposure, a colour cast, per-channel gamma, light falling off, sometimes glare."""
    h, w = picture.shape[:2]
    ramp_x = (np.arange(w, dtype=np.float32) / side - 0.5) * rng.uniform(-0.4, 0.4)
    ramp_y = (np.arange(h, dtype=np.float32) / side - 0.5) * rng.uniform(-0.4, 0.4)
    # Each row's channels as one run of w x 3 values (numpy steps slowly along a three-long
    # axis): the same float32 products, (value x gain) x tilt, in the same order.
    tilt = 1 + ramp_y[:, None] + np.repeat(ramp_x, 3)[None, :]
    gains = (rng.uniform(0.7, 1.2, 3) * rng.uniform(0.45, 1.15)).astype(np.float32)
    rows = picture.reshape(h, w * 3) * np.tile(gains, w)
    rows *= tilt
    gamma = rng.uniform(0.7, 1.4, 3) * rng.uniform(0.85, 1.2)
    table = (255.0 * (np.arange(256)[:, None] / 255.0) ** gamma[None, :]).astype(np.uint8)
    np.clip(rows, 0, 255, out=rows)
    picture = cv2.LUT(rows.astype(np.uint8).reshape(h, w, 3), table.reshape(256, 1, 3)).astype(np.float32)
    if rng.random() < 0.3:
        cx, cy = rng.uniform(0.1, 0.9, 2) * (w, h)
        radius = rng.uniform(0.1, 0.35) * side
        gx = np.exp(-((np.arange(w, dtype=np.float32) - cx) ** 2) / (2 * radius ** 2))
        gy = np.exp(-((np.arange(h, dtype=np.float32) - cy) ** 2) / (2 * radius ** 2))
        glare = rng.uniform(40, 160) * gy[:, None] * np.repeat(gx, 3)[None, :]
        picture.reshape(h, w * 3)[:] += glare
    return picture


def _noise(shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Unit sensor noise, float32 (OpenCV's generator, seeded from `rng`: numpy's costs
    several times as much for a picture's worth)."""
    cv2.setRNGSeed(int(rng.integers(0, 2 ** 31)))
    return cv2.randn(np.empty(shape, np.float32), 0.0, 1.0)


def _blob(picture: np.ndarray, corners: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Something covering part of the card (a fingertip, the edge of another card)."""
    edge = int(rng.integers(0, 4))
    a, b = corners[edge], corners[(edge + 1) % 4]
    at = a + (b - a) * rng.uniform(0.1, 0.9)
    width = float(np.linalg.norm(corners[1] - corners[0]))
    radius = int(rng.uniform(0.12, 0.28) * width)
    colour = rng.uniform(60, 230, 3) if rng.random() < 0.5 else np.array([120, 150, 200]) * rng.uniform(0.6, 1.2)
    cv2.circle(picture, (int(at[0]), int(at[1])), radius, tuple(float(c) for c in colour), -1)
    return picture

