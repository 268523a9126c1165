"""Things on and over the table that are not cards: hands, phones, coasters, mugs, pens.

Hands are drawn straight into the picture (they are above the table, no need for its
perspective) and return their mask so the scene can say how much of each card they
hide; flat objects are drawn on the table plane through the camera homography.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.render.camera import apply_homography, motion_kernel

SKIN_TONES = ((175, 195, 240), (140, 170, 225), (110, 145, 200), (85, 120, 175),
              (60, 90, 140), (40, 60, 95))  # BGR, very light to very dark
DISTRACTORS = ("hand", "phone", "coaster", "back", "mug", "pen")
_S = 16  # fixed-point bits for cv2 drawing: 4 -> factor 16


@dataclass(frozen=True)
class HandPose:
    """A hand reaching in: palm centre (image px), the direction the arm comes from
    (degrees, image axes), palm width (px), skin tone (index into SKIN_TONES)."""
    palm: tuple[float, float]
    arm_from_deg: float
    width: float
    tone: int = 2
    spread: float = 0.5
    shadow: bool = True       # casts a soft shadow on the table
    motion: tuple[float, float] = (0.0, 0.0)  # px moved while the shutter was open: smears it


def _odd(x: float) -> int:
    return max(3, int(round(x)) | 1)


def _fx(pts) -> np.ndarray:
    return np.round(np.asarray(pts, np.float64) * _S).astype(np.int32).reshape(-1, 1, 2)


def hand_mask(size, pose: HandPose) -> np.ndarray:
    """uint8 mask (255 = hand or arm) of one hand at `pose`, antialiased."""
    w, h = size
    mask = np.zeros((h, w), np.uint8)
    p = pose.width
    back = np.array([np.cos(np.radians(pose.arm_from_deg)), np.sin(np.radians(pose.arm_from_deg))])
    fwd = -back
    side = np.array([-fwd[1], fwd[0]])
    c = np.asarray(pose.palm, np.float64)
    at = lambda u, v: c + fwd * u * p + side * v * p
    far = (w + h) / p * 1.5
    arm = [at(-0.35, -0.36), at(-0.35, 0.36), at(-far, 0.5), at(-far, -0.5)]
    cv2.fillPoly(mask, [_fx(arm)], 255, cv2.LINE_AA, 4)
    ang = np.degrees(np.arctan2(fwd[1], fwd[0]))
    cv2.ellipse(mask, tuple(int(v) for v in _fx([c])[0, 0]),
                (int(0.55 * p * _S), int(0.5 * p * _S)), ang, 0, 360, 255, -1, cv2.LINE_AA, 4)
    thick = max(2, int(round(0.22 * p)))
    for v, length, splay in ((-0.34, 0.72, -1), (-0.11, 0.85, -0.3), (0.12, 0.8, 0.3),
                             (0.34, 0.6, 1)):
        base = at(0.3, v)
        d = fwd * np.cos(np.radians(splay * 8 * pose.spread)) + side * np.sin(
            np.radians(splay * 8 * pose.spread))
        tip = base + d * length * p
        cv2.line(mask, tuple(_fx([base])[0, 0]), tuple(_fx([tip])[0, 0]), 255, thick, cv2.LINE_AA, 4)
    thumb_base = at(-0.05, -0.45)
    thumb_tip = thumb_base + (fwd * 0.5 - side * 0.45) * p
    cv2.line(mask, tuple(_fx([thumb_base])[0, 0]), tuple(_fx([thumb_tip])[0, 0]), 255,
             max(2, int(round(0.25 * p))), cv2.LINE_AA, 4)
    return mask


def draw_hand(img: np.ndarray, pose: HandPose):
    """Draw a hand (and its soft shadow on the table) into `img`; return its mask and the
    box of pixels changed (x0, y0, x1, y1), None if the hand is off the picture."""
    return paint_hand(img, hand_paint((img.shape[1], img.shape[0]), pose))


@dataclass(frozen=True, eq=False)
class HandPaint:
    """What a hand at one pose lays over a picture of `size`, whatever the picture: its
    mask, and in its box the shadow's and the skin's weights and the skin's colours."""
    mask: np.ndarray
    box: tuple[int, int, int, int] | None
    m: np.ndarray | None = None
    shade: np.ndarray | None = None
    skin: np.ndarray | None = None


def hand_paint(size: tuple[int, int], pose: HandPose) -> HandPaint:
    """The hand at `pose` over a picture of `size` (w, h), ready to lay over any picture
    (`paint_hand`): a camera drawing the same hand frame after frame works it out once."""
    w, h = size
    mask = hand_mask((w, h), pose)
    x, y, bw, bh = cv2.boundingRect(mask)
    if bw == 0:
        return HandPaint(mask, None)
    streak = float(np.hypot(*pose.motion))
    pad = int(pose.width * 0.6 + streak)
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(w, x + bw + pad), min(h, y + bh + pad)
    m = mask[y0:y1, x0:x1].astype(np.float32) / 255
    if streak >= 1.5:
        kernel = motion_kernel(streak, float(np.degrees(np.arctan2(pose.motion[1], pose.motion[0]))))
        m = cv2.filter2D(m, -1, kernel)
        mask = mask.copy()
        mask[y0:y1, x0:x1] = np.clip(m * 255 + 0.5, 0, 255).astype(np.uint8)
    shade = None
    if pose.shadow:
        dx, dy = int(pose.width * 0.2), int(pose.width * 0.25)
        shade = np.zeros_like(m)
        shade[dy:, dx:] = m[:m.shape[0] - dy, :m.shape[1] - dx]
        shade = cv2.stackBlur(shade, (_odd(pose.width * 0.3),) * 2) * 0.45
    tone = np.asarray(SKIN_TONES[pose.tone % len(SKIN_TONES)], np.float32)
    inner = cv2.stackBlur(m, (_odd(pose.width * 0.2),) * 2)  # darker towards the edges
    skin = (tone * (0.72 + 0.33 * inner)[..., None]).clip(0, 255).astype(np.uint8)
    return HandPaint(mask, (x0, y0, x1, y1), m, shade, skin)


def paint_hand(img: np.ndarray, paint: HandPaint):
    """Lay the hand `paint` over `img` (drawn in place); its mask and box, as `draw_hand`."""
    if paint.box is None:
        return paint.mask, None
    x0, y0, x1, y1 = paint.box
    roi = img[y0:y1, x0:x1]
    if paint.shade is not None:
        roi = cv2.blendLinear(roi, np.zeros_like(roi), 1 - paint.shade, paint.shade)
    img[y0:y1, x0:x1] = cv2.blendLinear(roi, paint.skin, 1 - paint.m, paint.m)  # skin is smooth:
    # smearing its outline is enough
    return paint.mask, paint.box


def _circle(c, r, n=40) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([c[0] + r * np.cos(a), c[1] + r * np.sin(a)], axis=1)


def _rect(c, w, h, angle_deg) -> np.ndarray:
    a = np.radians(angle_deg)
    u = np.array([np.cos(a), np.sin(a)])
    v = np.array([-np.sin(a), np.cos(a)])
    c = np.asarray(c, np.float64)
    return np.array([c - u * w / 2 - v * h / 2, c + u * w / 2 - v * h / 2,
                     c + u * w / 2 + v * h / 2, c - u * w / 2 + v * h / 2])


def _fill(img, hom, pts, colour) -> None:
    cv2.fillPoly(img, [_fx(apply_homography(hom, pts))], colour, cv2.LINE_AA, 4)


def _box(img, hom, pts):
    q = apply_homography(hom, pts)
    h, w = img.shape[:2]
    x0, y0 = np.floor(q.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(q.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def draw_flat_object(img: np.ndarray, hom: np.ndarray, kind: str, centre, angle_deg: float,
                     card_width: float, rng: np.random.Generator):
    """Draw a phone, coaster, mug or pen lying on the table plane (plane units in, through
    the camera homography `hom`); return the box of pixels changed."""
    c = np.asarray(centre, np.float64)
    cw = card_width
    if kind == "phone":
        body = _rect(c, cw * 1.05, cw * 2.1, angle_deg)
        outline = body
        _fill(img, hom, body, (25, 25, 28))
        _fill(img, hom, _rect(c, cw * 0.92, cw * 1.85, angle_deg),
              tuple(int(v) for v in rng.integers(60, 140, 3)))
        a = np.radians(angle_deg)
        u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
        for i in range(3):
            for j in range(4):
                ic = c + u * (i - 1) * cw * 0.28 + v * (j - 1.5) * cw * 0.35
                _fill(img, hom, _rect(ic, cw * 0.18, cw * 0.18, angle_deg),
                      tuple(int(x) for x in rng.integers(80, 255, 3)))
    elif kind == "coaster":
        r = cw * 0.62
        outline = _circle(c, r)
        _fill(img, hom, outline, (70, 110, 150))
        _fill(img, hom, _circle(c, r * 0.88), (95, 145, 185))
        _fill(img, hom, _circle(c, r * 0.5), (85, 130, 170))
    elif kind == "mug":
        r = cw * 0.55
        outline = np.vstack([_circle(c, r), _rect(c + (r * 0.9, 0), r * 0.8, r * 0.35, 0)])
        _fill(img, hom, _rect(c + (r * 0.9, 0), r * 0.8, r * 0.35, 0), (200, 200, 205))
        _fill(img, hom, _circle(c, r), (215, 215, 220))
        _fill(img, hom, _circle(c, r * 0.82), (20, 35, 55))
    elif kind == "pen":
        outline = _rect(c, cw * 2.2, cw * 0.12, angle_deg)
        _fill(img, hom, outline, tuple(int(x) for x in rng.integers(20, 200, 3)))
    else:
        raise ValueError(f"unknown flat object {kind!r}")
    return _box(img, hom, outline)
