"""Photo sessions: the same cards photographed by other cameras under other lights, and
stand-in faces of a commercial deck of the UNO family in four printings.

A `Session` is one camera under one light, applied to a whole picture of the table (so
the camera's automatic white balance sees the table too, as a real one does):

* the light's colour (a colour temperature, and a green-magenta tint for fluorescent
  tubes) multiplies the linear picture; a cheap sensor's colour filters overlap
  (`crosstalk`);
* the camera's white balance takes out only part of it (`awb`: 1 corrects fully, 0 not
  at all), estimated gray-world over the whole picture, table included;
* exposure, a saturation change, a tone curve (`gamma`), the camera's colour rendering
  turning every hue a little (`hue_shift`, which no white balance undoes) and light
  falling off across the picture; then noise and JPEG.

`uno_face(colour, symbol, printing)` draws a face: `paper` (white card stock, coloured
frame and symbol), `oval` (a full-bleed colour field with a white tilted oval holding
the symbol), `white_print` (a full-bleed field, the symbol and indices printed white)
and `no_white` (a full-bleed field, the symbol printed black: no white anywhere).
`table_shot` lays faces on a table picture and photographs it; `faces_of` warps them
back as the reader sees them (corners a little off, as a finder's are).

Used by `bench/colour_sessions.py` and `tests/test_vision_colour.py`; nothing here reads
a card.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.colour import black_body, to_linear
from vision.warp import warp_card

# Inks of a commercial deck of the UNO family (sRGB), and of an "offbeat" printing whose
# yellow prints nearly orange and green nearly teal (a deck's own inks need not match
# the fixed prototypes).
UNO_INKS = {"red": (215, 38, 30), "yellow": (245, 210, 15), "green": (45, 155, 60), "blue": (15, 95, 185)}
OFFBEAT_INKS = {"red": (190, 20, 75), "yellow": (245, 150, 15), "green": (0, 140, 115), "blue": (50, 45, 160)}
PRINTINGS = ("paper", "oval", "white_print", "no_white")
SYMBOLS = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+2", "R", "S")
FACE = (200, 280)   # (w, h) of a drawn face


@dataclass(frozen=True)
class Session:
    """One camera under one light."""

    name: str
    kelvin: float          # the light's colour temperature
    tint: float = 0.0      # > 0 greener (fluorescent), < 0 more magenta
    awb: float = 0.8       # share of the light's colour the camera's white balance removes
    exposure: float = 1.0  # scene brightness after auto exposure (1: white near full scale)
    saturation: float = 1.0
    hue_shift: float = 0.0  # degrees the camera's colour rendering turns every hue by
    gamma: float = 2.2     # tone curve: out = linear ** (1 / gamma)
    falloff: float = 0.15  # light falling off across the picture (share, corner to corner)
    crosstalk: float = 0.0  # the sensor's colour filters overlapping (a cheap camera's)
    noise: float = 2.0     # grey levels
    jpeg: int = 88


# Teach from one of these, read the others (bench/colour_sessions.py). The sessions span
# the held-out protocol: daylight and warm lamps, phones and webcams, dim and
# overexposed pictures, flat and punchy tone curves.
SESSIONS = (
    Session("daylight phone", 5600, awb=0.9, exposure=0.95),
    Session("warm lamp phone", 2700, awb=0.3, exposure=1.25, saturation=1.2, hue_shift=12),
    Session("very warm dim webcam", 2300, awb=0.2, exposure=0.45, saturation=0.85, gamma=1.8,
            crosstalk=0.25, noise=4.0, jpeg=75),
    Session("cool shade", 8500, awb=0.4, exposure=0.75, saturation=0.9, hue_shift=-8),
    Session("fluorescent office", 4000, tint=0.12, awb=0.5, exposure=0.8, gamma=2.0),
    Session("overexposed punchy phone", 4800, awb=0.8, exposure=1.3, saturation=1.35, gamma=2.6, hue_shift=8),
    Session("dark window light", 6500, awb=0.9, exposure=0.3, hue_shift=-10, noise=3.0),
    Session("warm lamp cheap webcam", 2400, awb=0.15, exposure=1.1, saturation=1.1, gamma=2.0,
            crosstalk=0.3, hue_shift=20, noise=3.0, jpeg=70),
)


def photograph(picture: np.ndarray, session: Session, rng: np.random.Generator) -> np.ndarray:
    """The picture (BGR uint8, as printed and lit by white light) as `session` takes it."""
    lin = to_linear(picture[..., ::-1] / np.float32(255)).astype(np.float32)  # RGB, linear
    light = black_body(session.kelvin) * np.array([1.0, 1.0 + session.tint, 1.0])
    c = session.crosstalk
    overlap = np.array([[1, c, 0], [c / 2, 1, c / 2], [0, c, 1]], np.float32)  # rows: R, G, B filters
    lin = (lin * light.astype(np.float32)) @ overlap.T
    seen = lin.reshape(-1, 3).mean(axis=0)                           # gray world, table and all
    gain = (seen[1] / seen) ** session.awb
    white = (light.astype(np.float32) @ overlap.T) * gain
    gain = (gain / white.max() * session.exposure).astype(np.float32)  # auto exposure: white near full
    h, w = lin.shape[:2]
    angle = rng.uniform(0, 2 * np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ramp = ((xx / w - 0.5) * np.cos(angle) + (yy / h - 0.5) * np.sin(angle)) * session.falloff
    lin = lin * gain * (1 - ramp)[..., None]
    grey = lin @ np.array([0.2126, 0.7152, 0.0722], np.float32)
    lin = grey[..., None] + session.saturation * (lin - grey[..., None])
    out = np.clip(lin, 0, 1) ** (1 / session.gamma)
    if session.hue_shift:
        ycc = cv2.cvtColor(out.astype(np.float32), cv2.COLOR_RGB2YCrCb)
        t = np.radians(session.hue_shift)
        cr, cb = ycc[..., 1] - 0.5, ycc[..., 2] - 0.5
        ycc[..., 1] = 0.5 + cr * np.cos(t) - cb * np.sin(t)
        ycc[..., 2] = 0.5 + cr * np.sin(t) + cb * np.cos(t)
        out = np.clip(cv2.cvtColor(ycc, cv2.COLOR_YCrCb2RGB), 0, 1)
    out = out * 255
    out = out + rng.normal(0, session.noise, out.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)[..., ::-1]
    ok, buf = cv2.imencode(".jpg", np.ascontiguousarray(out), [cv2.IMWRITE_JPEG_QUALITY, session.jpeg])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def _bgr(rgb) -> tuple[int, int, int]:
    return (int(rgb[2]), int(rgb[1]), int(rgb[0]))


def _text(face: np.ndarray, text: str, centre, height: float, colour, thickness: int,
          font: int = cv2.FONT_HERSHEY_DUPLEX) -> None:
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, thickness)
    scale = height / th
    (tw, th), _ = cv2.getTextSize(text, font, scale, thickness)
    cv2.putText(face, text, (int(centre[0] - tw / 2), int(centre[1] + th / 2)), font, scale, colour,
                thickness, cv2.LINE_AA)


def uno_face(ink_rgb, symbol: str, printing: str) -> np.ndarray:
    """A face of the stand-in deck (BGR uint8, FACE size) in one of PRINTINGS."""
    if printing not in PRINTINGS:
        raise ValueError(f"unknown printing {printing!r}; printings: {', '.join(PRINTINGS)}")
    w, h = FACE
    ink = _bgr(ink_rgb)
    white, black = (246, 246, 244), (22, 22, 26)
    if printing == "paper":
        face = np.full((h, w, 3), white, np.uint8)
        cv2.rectangle(face, (12, 12), (w - 12, h - 12), ink, 9)
        _text(face, symbol, (w / 2, h / 2), 95, ink, 16)
        for corner in ((30, 34), (w - 30, h - 34)):
            _text(face, symbol, corner, 22, ink, 3)
        return face
    face = np.full((h, w, 3), ink, np.uint8)
    print_colour = black if printing == "no_white" else white
    if printing == "oval":
        cv2.ellipse(face, (w // 2, h // 2), (70, 112), 35, 0, 360, white, -1, cv2.LINE_AA)
        _text(face, symbol, (w / 2, h / 2), 90, ink, 16)
    else:
        _text(face, symbol, (w / 2, h / 2), 110, print_colour, 18)
    for corner in ((28, 32), (w - 28, h - 32)):
        _text(face, symbol, corner, 24, print_colour, 3)
    return face


TABLES = {"grey cloth": (128, 128, 124), "wood": (150, 105, 65), "green felt": (40, 105, 60),
          "white desk": (225, 222, 215), "dark blue cloth": (45, 55, 90)}


def table_shot(faces: list[np.ndarray], table_rgb, session: Session, rng: np.random.Generator,
               size: tuple[int, int] = (480, 360)) -> tuple[np.ndarray, list[np.ndarray]]:
    """The faces (all of one size) laid in a row on a plain table of `table_rgb` (with a
    little texture), photographed by `session`: the picture and each card's corners
    (TL, TR, BR, BL). The table's texture is drawn first, so the same seed with no faces
    gives the empty table."""
    w, h = size
    picture = np.empty((h, w, 3), np.float32)
    picture[:] = _bgr(table_rgb)
    picture += cv2.GaussianBlur(rng.normal(0, 14, (h, w, 1)).astype(np.float32), (0, 0), 2.0)[..., None]
    picture = np.clip(picture, 0, 255).astype(np.uint8)
    n = max(1, len(faces))      # no faces: the empty table (the same texture for the same seed)
    face_w, face_h = (faces[0].shape[1], faces[0].shape[0]) if faces else FACE
    card_h = min(h * 0.62, (w / n) * 0.8 * face_h / face_w)
    card_w = card_h * face_w / face_h
    corners_all = []
    for i, face in enumerate(faces):
        cx, cy = w * (i + 0.5) / n + rng.uniform(-5, 5), h / 2 + rng.uniform(-10, 10)
        angle = np.radians(rng.uniform(-12, 12))
        rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        box = np.array([[-card_w / 2, -card_h / 2], [card_w / 2, -card_h / 2],
                        [card_w / 2, card_h / 2], [-card_w / 2, card_h / 2]]) @ rot.T + (cx, cy)
        src = np.array([[0, 0], [face_w, 0], [face_w, face_h], [0, face_h]], np.float32)
        matrix = cv2.getPerspectiveTransform(src, box.astype(np.float32))
        warped = cv2.warpPerspective(face, matrix, (w, h), flags=cv2.INTER_AREA)
        alpha = face[..., 3] if face.shape[2] == 4 else np.full(face.shape[:2], 255, np.uint8)
        mask = cv2.warpPerspective(alpha, matrix, (w, h))
        picture[mask > 127] = warped[mask > 127, :3]
        corners_all.append(box.astype(np.float32))
    return photograph(picture, session, rng), corners_all


def faces_of(shot: np.ndarray, corners: list[np.ndarray], rng: np.random.Generator,
             size: tuple[int, int] = (66, 92), jitter: float = 2.0) -> list[np.ndarray]:
    """Each card warped upright at `size`, its corners `jitter` pixels off at random."""
    return [warp_card(shot, c + rng.uniform(-jitter, jitter, c.shape).astype(np.float32), size)
            for c in corners]
