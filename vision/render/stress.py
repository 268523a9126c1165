"""Stresses for the simulated protocols (`bench/protocols.py --stress NAME`): ways a real
deck and real phones differ from the stand-in the project was tuned against, one at a
time, each with fixed seeds.

Two kinds:

* **another printing** (`Stress.design` / `Stress.inks`): the deck drawn another plausible
  UNO-family way (`vision.render.uno_deck.Design`), so every photo is drawn again;
* **another camera** (`Stress.photo`): a change to each finished photo (noise, JPEG,
  blur, uneven light, a white balance cast, its size, glare streaks, the card at the
  photo's edge, a steeper view), applied to photos drawn before (`--from DIR`) or as they
  are drawn. The card's true corners go through the same geometry.

`Stress.tilt` replaces protocol 2's tilt range; `Stress.teaching` says whether the
teaching photos get the change too (a camera's faults: yes; a card at the edge: only the
photos read). Nothing here reads a card.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Callable

import cv2
import numpy as np

from vision.colour import to_linear
from vision.render.uno_deck import Design

Picture = np.ndarray
Corners = np.ndarray | None


def _jpeg(picture: Picture, quality: int) -> Picture:
    ok, buf = cv2.imencode(".jpg", np.ascontiguousarray(picture), [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def _u8(picture) -> Picture:
    return np.clip(picture, 0, 255).astype(np.uint8)


def sensor_noise(picture: Picture, corners: Corners, rng) -> tuple[Picture, Corners]:
    """A small sensor in poor light: noise that grows with the signal (shot noise, sd
    ~9 grey levels on white) plus read noise (3) and a little colour noise, then the
    phone's JPEG 85."""
    p = picture.astype(np.float32)
    sd = 3.0 + np.sqrt(0.3 * p)
    p = p + rng.normal(0, 1, p.shape).astype(np.float32) * sd
    p = p + cv2.GaussianBlur(rng.normal(0, 4, p.shape).astype(np.float32), (0, 0), 1.5)
    return _jpeg(_u8(p), 85), corners


def heavy_jpeg(picture: Picture, corners: Corners, rng) -> tuple[Picture, Corners]:
    """A messaging app's recompression: JPEG quality 30."""
    return _jpeg(picture, 30), corners


def motion_blur(picture: Picture, corners: Corners, rng) -> tuple[Picture, Corners]:
    """A hand shaking: a straight smear 0.6-1.4 % of the photo's width, any direction."""
    length = max(3, int(round(picture.shape[1] * rng.uniform(0.006, 0.014))))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1
    turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), rng.uniform(0, 180), 1.0)
    kernel = cv2.warpAffine(kernel, turn, (length, length))
    kernel /= kernel.sum()
    return _jpeg(cv2.filter2D(picture, -1, kernel), 90), corners


def defocus(picture: Picture, corners: Corners, rng) -> tuple[Picture, Corners]:
    """Out of focus: a disc of radius 0.25-0.5 % of the photo's width."""
    r = max(1.5, picture.shape[1] * rng.uniform(0.0025, 0.005))
    n = int(np.ceil(r)) * 2 + 1
    yy, xx = np.mgrid[0:n, 0:n] - n // 2
    kernel = np.clip(r + 0.5 - np.hypot(xx, yy), 0, 1).astype(np.float32)
    kernel /= kernel.sum()
    return _jpeg(cv2.filter2D(picture, -1, kernel), 90), corners


def uneven_light(picture: Picture, corners: Corners, rng) -> tuple[Picture, Corners]:
    """A lens's vignetting (the corners at 50-65 % of the middle's light) and a lamp to
    one side (the light falling 35-55 % across the photo), in linear light."""
    h, w = picture.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    rr = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    corner = rng.uniform(0.5, 0.65)
    gain = 1 - (1 - corner) * rr ** 1.5
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (xx / w - 0.5) * np.cos(angle) + (yy / h - 0.5) * np.sin(angle)
    gain = gain * (1 - rng.uniform(0.35, 0.55) * (ramp + 0.5))
    lin = to_linear(picture / np.float32(255)).astype(np.float32) * gain[..., None]
    out = np.clip(lin, 0, 1) ** (1 / 2.2) * 255
    return _jpeg(_u8(out), 90), corners


def _cast_gains(rng) -> np.ndarray:
    """A camera's white balance off by a few hundred kelvin and a tint: gains on (B, G, R)."""
    warm = rng.uniform(-0.22, 0.22)
    tint = rng.uniform(-0.08, 0.08)
    return np.float32([1 - warm, 1 + tint, 1 + warm])


def colour_cast(picture: Picture, corners: Corners, rng) -> tuple[Picture, Corners]:
    """Another camera's white balance: linear gains (warmer or cooler by up to 22 %, a
    green or magenta tint up to 8 %), the brightest channel kept."""
    gains = _cast_gains(rng)
    gains /= gains.max()
    lin = to_linear(picture / np.float32(255)).astype(np.float32) * gains
    lin = lin / max(float(np.percentile(lin.max(axis=2), 99.5)), 1e-3) * 0.95   # exposure kept
    return _jpeg(_u8(np.clip(lin, 0, 1) ** (1 / 2.2) * 255), 90), corners


def low_resolution(picture: Picture, corners: Corners, rng) -> tuple[Picture, Corners]:
    """A cheap camera's photo: half the size (a 1008 px phone photo becomes 504 px)."""
    h, w = picture.shape[:2]
    small = cv2.resize(picture, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    return _jpeg(small, 85), None if corners is None else corners * np.float32([(w // 2) / w, (h // 2) / h])


def large_photo(picture: Picture, corners: Corners, rng) -> tuple[Picture, Corners]:
    """A 12 MP phone's photo: 3.2 times the size (1008 px -> 3226 px), the phone's
    sharpening and fine noise, JPEG 90."""
    h, w = picture.shape[:2]
    big = cv2.resize(picture, (int(w * 3.2), int(h * 3.2)), interpolation=cv2.INTER_CUBIC).astype(np.float32)
    big = big + 0.6 * (big - cv2.GaussianBlur(big, (0, 0), 2.0))
    big = big + rng.normal(0, 2.0, big.shape).astype(np.float32)
    scale = np.float32([big.shape[1] / w, big.shape[0] / h])
    return _jpeg(_u8(big), 90), None if corners is None else corners * scale


def glare_streaks(picture: Picture, corners: Corners, rng) -> tuple[Picture, Corners]:
    """A glossy card under a tube light: one or two long bright streaks across the card
    (3-9 % of its short side wide, 40-90 % towards white), the table untouched."""
    if corners is None:
        return picture, corners
    h, w = picture.shape[:2]
    mask = np.zeros((h, w), np.float32)
    cv2.fillConvexPoly(mask, np.int32(np.round(corners)), 1.0, cv2.LINE_AA)
    side = min(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[3] - corners[0]))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    p = picture.astype(np.float32)
    for _ in range(int(rng.integers(1, 3))):
        centre = corners.mean(axis=0) + rng.uniform(-0.35, 0.35, 2) * side
        angle = rng.uniform(0, np.pi)
        across = (xx - centre[0]) * -np.sin(angle) + (yy - centre[1]) * np.cos(angle)
        width = side * rng.uniform(0.03, 0.09)
        streak = np.exp(-across ** 2 / (2 * width ** 2)) * rng.uniform(0.4, 0.9)
        p += (255 - p) * (streak * mask)[..., None]
    return _jpeg(_u8(p), 92), corners


def _cut_start(lo: float, hi: float, size: float, full: float, cut: float, low: bool):
    """Where a window of `size` along one axis starts so that `cut` of the card's extent
    lo..hi lies outside it on the low (or high) side, the rest inside with 4 px to spare;
    None when no such window fits in 0..full."""
    start = lo + cut * (hi - lo) if low else hi - cut * (hi - lo) - size
    if start < 0 or start + size > full:
        return None
    if (low and start + size < hi + 4) or (not low and start > lo - 4):
        return None
    return start


def _centred_start(lo: float, hi: float, size: float, full: float) -> float:
    """Where a window of `size` centred on lo..hi starts, kept inside 0..full."""
    return float(np.clip((lo + hi) / 2 - size / 2, 0, full - size))


def card_at_edge(picture: Picture, corners: Corners, rng) -> tuple[Picture, Corners]:
    """The card running off the photo: the photo cropped (same shape, then brought back
    to its size) so that 10-30 % of the card's extent on one side lies outside."""
    if corners is None:
        return picture, corners
    h, w = picture.shape[:2]
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    for side in rng.permutation(4):
        cut = rng.uniform(0.1, 0.3)
        for scale in np.linspace(0.55, 0.95, 9):
            cw, ch = w * scale, h * scale
            if side in (0, 1):    # cut on the left / right
                xs = _cut_start(x0, x1, cw, w, cut, low=side == 0)
                if xs is None or ch < y1 - y0 + 8:
                    continue
                ys = _centred_start(y0, y1, ch, h)
            else:                 # the top / the bottom
                ys = _cut_start(y0, y1, ch, h, cut, low=side == 2)
                if ys is None or cw < x1 - x0 + 8:
                    continue
                xs = _centred_start(x0, x1, cw, w)
            matrix = np.float32([[w / cw, 0, -xs * w / cw], [0, h / ch, -ys * h / ch]])
            out = cv2.warpAffine(picture, matrix, (w, h), flags=cv2.INTER_LINEAR)
            moved = (corners - np.float32([xs, ys])) * np.float32([w / cw, h / ch])
            return _jpeg(out, 92), moved.astype(np.float32)
    return picture, corners


def steeper_view(picture: Picture, corners: Corners, rng) -> tuple[Picture, Corners]:
    """The camera turned 20-35 degrees more from overhead about a random axis (a pure
    rotation about its centre: the photo's homography K R K^-1, a phone's ~65 degree
    field of view), then zoomed in just enough that the photo stays full. The card must
    stay inside; if no zoom allows it, a smaller turn is tried."""
    h, w = picture.shape[:2]
    focal = 0.78 * w
    k = np.float64([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1]])
    frame = np.float64([[0, 0], [w, 0], [w, h], [0, h]])
    axis = rng.uniform(0, np.pi)
    for degrees in np.linspace(rng.uniform(20, 35), 5, 6):
        t = np.radians(degrees)
        ax = np.array([np.cos(axis), np.sin(axis), 0.0])
        kk = np.array([[0, -ax[2], ax[1]], [ax[2], 0, -ax[0]], [-ax[1], ax[0], 0]])
        rot = np.eye(3) + np.sin(t) * kk + (1 - np.cos(t)) * kk @ kk
        hom = k @ rot @ np.linalg.inv(k)
        # the new view's frame seen in the old photo must lie inside it: zoom in until so
        for zoom in np.linspace(1.0, 3.0, 41):
            zm = np.float64([[zoom, 0, w / 2 * (1 - zoom)], [0, zoom, h / 2 * (1 - zoom)], [0, 0, 1]])
            full = zm @ hom
            back = cv2.perspectiveTransform(frame[None], np.linalg.inv(full))[0]
            if back.min() >= 0 and (back[:, 0] <= w).all() and (back[:, 1] <= h).all():
                break
        else:
            continue
        if corners is not None:
            moved = cv2.perspectiveTransform(np.float64(corners)[None], full)[0]
            if moved.min() < 4 or (moved[:, 0] > w - 4).any() or (moved[:, 1] > h - 4).any():
                continue
        else:
            moved = None
        out = cv2.warpPerspective(picture, full, (w, h), flags=cv2.INTER_LINEAR)
        return _jpeg(out, 92), None if moved is None else moved.astype(np.float32)
    return picture, corners


@dataclass(frozen=True)
class Stress:
    """One way the bench is made harder (see the module's docstring)."""

    name: str
    what: str
    photo: Callable | None = None         # (picture, corners, rng) -> (picture, corners)
    teaching: bool = True                  # the teaching photos get `photo` too
    design: Design | None = None           # the deck drawn another way
    inks: dict | None = None               # the deck's inks (sRGB), another palette
    tilt: tuple | None = None              # protocol 2's tilt range, degrees from overhead
    per_session: bool = False              # protocol 1: one draw of `photo` per session (a camera's)
    notes: tuple = field(default=())

    @property
    def redraws(self) -> bool:
        """The photos must be drawn again (another printing or view), not changed."""
        return self.design is not None or self.inks is not None or self.tilt is not None

    def apply(self, picture: Picture, corners: Corners, key: str, session: str, seed: int,
              reading: bool, protocol: int) -> tuple[Picture, Corners]:
        """The photo `key` (its file name) of `protocol` changed, with a seed from the name
        (or, with `per_session`, in protocol 1, from the session) so that every run draws
        the same. Protocol 2's photos drawn at another tilt are not changed again."""
        if self.photo is None or (not reading and not self.teaching) or (protocol == 2 and self.tilt):
            return picture, corners
        basis = session if self.per_session and protocol == 1 else key
        rng = np.random.default_rng([seed, zlib.crc32(f"{self.name}/{basis}".encode())])
        return self.photo(picture, corners, rng)


# Another plausible printing of the family: a serif font, a narrower and less tilted
# oval, a larger corner index nearer the corner, a larger middle symbol with a thinner
# stroke.
OTHER_DESIGN = Design(font=cv2.FONT_HERSHEY_TRIPLEX, oval=(60, 112), oval_tilt=25, symbol=(104, 12),
                      index=(30, 4), index_at=(26, 32))
# Inks as another print run or brand prints them: a deeper red, an orange-leaning yellow,
# a lighter yellow-green, a cyan-leaning blue.
OTHER_INKS = {"red": (200, 20, 50), "yellow": (250, 185, 10), "green": (80, 170, 50), "blue": (0, 125, 205)}

STRESSES = {s.name: s for s in (
    Stress("none", "the bench as it is"),
    Stress("design", "another printing: serif font, narrower oval, larger corner index", design=OTHER_DESIGN),
    Stress("rounded", "rounded corners (radius 3.5 mm), the table showing there", design=Design(radius=12)),
    Stress("thin-frame", "a white frame 1.4 mm wide (5 px of 200) instead of 3 mm", design=Design(frame=5)),
    Stress("no-frame", "no white frame: the colour field runs to the card's edge", design=Design(frame=0)),
    Stress("palette", "other inks: deeper red, orange yellow, yellow-green, cyan blue", inks=OTHER_INKS),
    Stress("oblique", "protocol 2 at 40-65 degrees from overhead (was 15-55); protocol 1 turned 20-35 degrees",
           photo=steeper_view, tilt=(40, 65)),
    Stress("noise", "sensor noise (sd ~9 on white, colour noise), JPEG 85", photo=sensor_noise),
    Stress("jpeg", "JPEG quality 30", photo=heavy_jpeg),
    Stress("motion", "motion blur 0.6-1.4 % of the width", photo=motion_blur),
    Stress("defocus", "defocus, a disc 0.25-0.5 % of the width", photo=defocus),
    Stress("uneven", "vignetting (corners 50-65 %) and light falling 35-55 % across", photo=uneven_light),
    Stress("cast", "a white balance cast (+-22 % warm/cool, +-8 % tint): protocol 1 one per session, "
           "protocol 2 one per photo", photo=colour_cast, per_session=True),
    Stress("small", "half the size (protocol 1 512 x 384, protocol 2 504 x 378)", photo=low_resolution),
    Stress("large", "3.2 times the size (3277 x 2458, 3226 x 2419), sharpened", photo=large_photo),
    Stress("glare", "one or two glare streaks across every card", photo=glare_streaks),
    Stress("edge", "every card read runs 10-30 % off the photo's edge (teaching photos unchanged)",
           photo=card_at_edge, teaching=False),
)}
