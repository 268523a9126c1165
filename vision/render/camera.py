"""What the camera and the room do to a picture of the table.

`camera_homography` maps table-plane points to image pixels for a tilted, rolled camera;
`Lighting` holds the per-pixel colour gains (warm/cool/mixed light, gradients, a cast
shadow) and the additive lamp glare; `develop` applies light, defocus and motion blur, `sensor`
noise, saturation and JPEG compression. All randomness comes from the caller's Generator.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

LIGHTS = ("warm", "cool", "mixed", "neutral")
FLAT = "flat"  # no light at all: gain 1 everywhere (for exact comparisons in tests)
_GAINS = {"warm": (0.78, 0.95, 1.12), "cool": (1.12, 1.0, 0.86), "neutral": (1.0, 1.0, 1.0)}
_LOW = (80, 60)  # light maps are drawn at this resolution and upscaled: light is smooth


def camera_homography(size, tilt_deg: float, tilt_dir_deg: float, roll_deg: float,
                      zoom: float, focal: float = 0.9) -> np.ndarray:
    """Plane -> image homography (3x3 float64).

    The table plane is measured in "overhead pixels": with no tilt, roll or zoom the plane
    point (x, y) is image pixel (x, y). The camera turns about its own centre by `tilt_deg`
    towards `tilt_dir_deg` and rolls by `roll_deg`; the plane point seen at the image centre
    stays the plane centre, and the scale there is `zoom`.
    """
    w, h = size
    c = np.array([w / 2, h / 2])
    f = focal * w
    k = np.array([[f, 0, c[0]], [0, f, c[1]], [0, 0, 1.0]])
    t, d, r = np.radians([tilt_deg, tilt_dir_deg, roll_deg])
    rz = lambda a: np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])
    rx = np.array([[1, 0, 0], [0, np.cos(t), -np.sin(t)], [0, np.sin(t), np.cos(t)]])
    rot = rz(r) @ rz(d) @ rx @ rz(-d)
    hom = k @ rot @ np.linalg.inv(k)
    # look at the plane centre: find the plane point imaged at the centre, shift it there
    p0 = _apply(np.linalg.inv(hom), c[None])[0]
    hom = hom @ _translate(p0 - c)
    # normalise the scale at the centre to `zoom`
    e = 1.0
    pts = _apply(hom, np.array([c, c + (e, 0), c + (0, e)]))
    jac = np.stack([pts[1] - pts[0], pts[2] - pts[0]], axis=1) / e
    s = zoom / np.sqrt(abs(np.linalg.det(jac)))
    hom = _translate(c) @ np.diag([s, s, 1]) @ _translate(-c) @ hom
    return hom / hom[2, 2]


def _translate(v) -> np.ndarray:
    return np.array([[1, 0, v[0]], [0, 1, v[1]], [0, 0, 1.0]])


def _apply(hom: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.asarray(pts, np.float64)
    q = p @ hom[:, :2].T + hom[:, 2]
    return q[:, :2] / q[:, 2:3]


apply_homography = _apply


@dataclass(frozen=True, eq=False)
class Lighting:
    gain: np.ndarray          # float32 HxWx3, multiplies the picture
    glare: np.ndarray | None  # float32 HxWx3, added after the gain (a lamp's reflection)


def make_lighting(size, light: str, glare: bool, shadow: bool, rng: np.random.Generator) -> Lighting:
    if light not in LIGHTS + (FLAT,):
        raise ValueError(f"unknown light {light!r}; lights: {', '.join(LIGHTS + (FLAT,))}")
    w, h = size
    if light == FLAT and not glare and not shadow:
        return Lighting(np.ones((h, w, 3), np.float32), None)
    lw, lh = _LOW
    yy, xx = np.mgrid[0:lh, 0:lw].astype(np.float32)
    xx /= lw - 1
    yy /= lh - 1
    a = rng.uniform(0, 2 * np.pi)
    ramp = (xx - 0.5) * np.cos(a) + (yy - 0.5) * np.sin(a)  # -0.7..0.7 across the picture
    brightness = rng.uniform(0.8, 1.1) * (1 + rng.uniform(0.0, 0.35) * ramp)
    if light == FLAT:
        gain = np.ones((lh, lw, 3), np.float32)
    elif light == "mixed":
        t = np.clip(0.5 + ramp * 1.4, 0, 1)[..., None]
        warm = np.array(_GAINS["warm"], np.float32)
        cool = np.array(_GAINS["cool"], np.float32)
        gain = warm + (cool - warm) * t
    else:
        jitter = rng.uniform(0.96, 1.04, 3)
        gain = np.broadcast_to(np.array(_GAINS[light], np.float32) * jitter, (lh, lw, 3)).copy()
    if light != FLAT:
        gain *= brightness[..., None]
    if shadow:  # something off the picture (a lamp arm, a head) blocks part of the light
        mask = np.zeros((lh, lw), np.float32)
        edge = rng.integers(4)
        pts = _shadow_polygon(edge, lw, lh, rng)
        cv2.fillPoly(mask, [pts], 1.0, cv2.LINE_AA)
        mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(1.0, 4.0))
        gain *= (1 - rng.uniform(0.3, 0.55) * mask)[..., None]
    add = np.zeros((lh, lw), np.float32)
    if glare:
        cx, cy = rng.uniform(0.15, 0.85), rng.uniform(0.15, 0.85)
        sx, sy = rng.uniform(0.04, 0.14, 2)
        th = rng.uniform(0, np.pi)
        dx, dy = xx - cx, yy - cy
        u = (dx * np.cos(th) + dy * np.sin(th)) / sx
        v = (-dx * np.sin(th) + dy * np.cos(th)) / sy
        add += rng.uniform(90, 230) * np.exp(-0.5 * (u * u + v * v)) ** 0.7
    gain_full = cv2.resize(gain, (w, h), interpolation=cv2.INTER_LINEAR)
    glare_full = None
    if glare:
        glare_full = cv2.resize(cv2.merge([add, add * 0.97, add * 0.93]), (w, h),
                                interpolation=cv2.INTER_CUBIC)
    return Lighting(gain_full, glare_full)


def _shadow_polygon(edge, lw, lh, rng) -> np.ndarray:
    depth = rng.uniform(0.25, 0.55)
    a, b = sorted(rng.uniform(-0.2, 1.2, 2))
    if edge in (0, 1):  # top / bottom
        y0 = 0 if edge == 0 else lh
        y1 = depth * lh if edge == 0 else lh * (1 - depth)
        pts = [(a * lw, y0), (b * lw, y0), ((b + rng.uniform(-0.2, 0.2)) * lw, y1),
               ((a + rng.uniform(-0.2, 0.2)) * lw, y1)]
    else:
        x0 = 0 if edge == 2 else lw
        x1 = depth * lw if edge == 2 else lw * (1 - depth)
        pts = [(x0, a * lh), (x0, b * lh), (x1, (b + rng.uniform(-0.2, 0.2)) * lh),
               (x1, (a + rng.uniform(-0.2, 0.2)) * lh)]
    return np.round(np.array(pts)).astype(np.int32)


@lru_cache(maxsize=8)
def _noise_bank(size) -> np.ndarray:
    """Standard normal noise (float32) from a fixed seed, `_BANK_ROWS` rows taller than a
    picture: a scene takes a row-offset crop, which is contiguous (cheap to add)."""
    w, h = size
    bank = np.random.default_rng(12345).standard_normal((h + _BANK_ROWS, w, 3)).astype(np.float32)
    bank.flags.writeable = False
    return bank


_BANK_ROWS = 384


def noise_patch(size, rng: np.random.Generator) -> np.ndarray:
    w, h = size
    y = int(rng.integers(_BANK_ROWS + 1))
    return _noise_bank((w, h))[y:y + h]


def motion_kernel(length: float, angle_deg: float) -> np.ndarray:
    n = max(3, int(np.ceil(length)) | 1)
    k = np.zeros((n, n), np.float32)
    c = n // 2
    d = np.array([np.cos(np.radians(angle_deg)), np.sin(np.radians(angle_deg))]) * length / 2
    cv2.line(k, (int(round((c - d[0]) * 16)), int(round((c - d[1]) * 16))),
             (int(round((c + d[0]) * 16)), int(round((c + d[1]) * 16))), 1.0, 1, cv2.LINE_AA, 4)
    return k / k.sum()


def optics_margin(blur: float, motion: np.ndarray | None) -> int:
    """How far (px) light and blur reach: a change to the picture alters pixels this far out."""
    m = int(np.ceil(blur * 4)) + 1 if blur > 0.05 else 0
    if motion is not None:
        m += motion.shape[0] // 2 + 1
    return m


def develop(img: np.ndarray, gain: np.ndarray, glare: np.ndarray | None, blur: float,
            motion: np.ndarray | None) -> np.ndarray:
    """What reaches the sensor: the picture lit (gain, glare) and blurred; float32."""
    f = cv2.multiply(img, gain, dtype=cv2.CV_32F)
    if glare is not None:
        cv2.add(f, glare, dst=f)
    if blur > 0.05:
        f = cv2.GaussianBlur(f, (0, 0), blur)
    if motion is not None:
        f = cv2.filter2D(f, -1, motion)
    return f


def sensor(f: np.ndarray, noise: float, jpeg_quality: int | None,
           rng: np.random.Generator) -> np.ndarray:
    """Sensor noise, saturation and JPEG compression of a developed picture: uint8 BGR."""
    if noise > 0:
        h, w = f.shape[:2]
        f = cv2.scaleAdd(noise_patch((w, h), rng), float(noise), f)
    out = np.clip(f, 0, 255, out=f if noise > 0 else None).astype(np.uint8)
    if jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out
