"""Taking the picture: a table under a camera and light, cards and hands composed on it,
and the truth about every card.

`set_table` fixes what stays put from frame to frame (camera homography, table texture,
light, optics, the start-up picture of the bare table); `compose` lays placements and
flat objects on it, reaches in with hands, works out how much of each card shows and
takes the picture. Geometry: cards are placed on the table plane in "overhead pixels"
(plane units); the camera homography maps them into the picture, so corners are exact.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Sequence

import cv2
import numpy as np

from vision.render.camera import (FLAT, LIGHTS, Lighting, apply_homography, camera_homography,
                                  develop, make_lighting, motion_kernel, optics_margin, sensor)
from vision.render.cards import CARD_ASPECT, STYLES, back_face, card_face, card_mask, game_deck
from vision.render.hands import HandPose, draw_flat_object, draw_hand
from vision.render.table import PHOTO, TABLES, table_texture
# Zones of the overhead view, as fractions of its width and height (x0, y0, x1, y1).
ZONE_RECTS = {
    "discard": (0.30, 0.22, 0.54, 0.78),
    "reveal": (0.56, 0.22, 0.80, 0.78),
}
_MIP_WIDTHS = (36, 50, 71, 100, 141, 200, 283, 400, 566)
_VIS_GRID = (32, 45)  # face sample points across and down, for the visible fraction


@dataclass(frozen=True)
class SceneSpec:
    """How the table, camera and room look. Defaults: a clean overhead shot."""
    table: str = "wood"
    tilt_deg: float = 0.0          # camera tilt away from straight down, 0..35
    light: str = "neutral"         # warm | cool | mixed | neutral | flat (no light: tests)
    glare: bool = False            # a lamp's bright reflection
    shadow: bool = False           # a cast shadow from something off the picture
    blur: float = 0.0              # defocus, Gaussian sigma in px
    motion_blur: float = 0.0       # motion streak length in px
    noise: float = 0.0             # sensor noise sigma, grey levels
    jpeg_quality: int | None = None
    hand: bool = False             # a hand reaching over the cards
    size: tuple[int, int] = (640, 480)
    tilt_dir_deg: float = 0.0      # which way the camera leans
    roll_deg: float = 0.0          # camera turned about its axis
    zoom: float = 1.0              # picture scale at the centre
    card_width: float = 0.12       # card width as a fraction of the overhead view's width
    table_variant: int = 0         # which of the table's textures
    table_shift: tuple[float, float] = (0.0, 0.0)  # where on the texture we look
    motion_dir_deg: float = 0.0
    card_shadows: bool = True      # cards cast a thin shadow on what is below them

    def __post_init__(self) -> None:
        if self.table not in TABLES and self.table != PHOTO:
            raise ValueError(f"unknown table {self.table!r}; tables: {', '.join(TABLES + (PHOTO,))}")
        if self.light not in LIGHTS + (FLAT,):
            raise ValueError(f"unknown light {self.light!r}; lights: {', '.join(LIGHTS + (FLAT,))}")
        if not 0 <= self.tilt_deg <= 60:
            raise ValueError(f"tilt {self.tilt_deg} degrees is outside 0..60")
        if self.jpeg_quality is not None and not 1 <= self.jpeg_quality <= 100:
            raise ValueError(f"JPEG quality {self.jpeg_quality} is outside 1..100")


@dataclass(frozen=True)
class Placement:
    """One card on the table: centre in fractions of the overhead view, angle in degrees
    (clockwise in the picture), which zone it belongs to, whether it tops its pile."""
    code: str
    x: float
    y: float
    angle_deg: float = 0.0
    zone: str = "table"
    top: bool = True
    game: str | None = None    # default: the scene's game
    face_up: bool = True       # False: the card's back (not reported as a card)
    lift: float = 0.0          # held above the table: drawn this much larger (0.1 = 10 %)


@dataclass(frozen=True, eq=False)
class PlacedCard:
    game: str
    code: str
    corners: np.ndarray  # 4x2 float32 image px: the upright face's TL, TR, BR, BL
    visible: float       # fraction of the face not covered (by cards, hands, the frame edge)
    zone: str
    top: bool            # uppermost card of its pile

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PlacedCard):
            return NotImplemented
        return ((self.game, self.code, self.visible, self.zone, self.top)
                == (other.game, other.code, other.visible, other.zone, other.top)
                and np.array_equal(self.corners, other.corners))

    def __hash__(self) -> int:
        return hash((self.game, self.code, self.visible, self.zone, self.top,
                     self.corners.tobytes()))


@dataclass(frozen=True, eq=False)  # pictures compare by identity
class Scene:
    image: np.ndarray
    empty: np.ndarray
    cards: tuple[PlacedCard, ...]
    distractors: tuple[str, ...]
    homography: np.ndarray = field(default=None, repr=False)  # table plane -> image
    zones: dict = field(default_factory=dict, repr=False)     # name -> 4x2 image polygon
    hand_mask: np.ndarray | None = field(default=None, repr=False)  # 255 where a hand is
    spec: SceneSpec | None = None


@dataclass(frozen=True, eq=False)
class Table:
    """Everything that stays put from frame to frame: camera, table, light."""
    spec: SceneSpec
    homography: np.ndarray
    background: np.ndarray   # the table as the camera sees it, before light and noise
    lighting: Lighting
    motion: np.ndarray | None
    developed: np.ndarray    # the background lit and blurred (float32), before noise
    empty: np.ndarray        # the start-up picture of the bare table (with its own noise)

    @property
    def size(self) -> tuple[int, int]:
        return self.spec.size

    @property
    def card_width(self) -> float:
        return self.spec.card_width * self.spec.size[0]


# --------------------------------------------------------------------------- the table

def set_table(spec: SceneSpec, rng: np.random.Generator) -> Table:
    """Camera, table texture and light for `spec` (the light's layout is drawn from rng)."""
    w, h = spec.size
    hom = camera_homography(spec.size, spec.tilt_deg, spec.tilt_dir_deg, spec.roll_deg, spec.zoom)
    tex = table_texture(spec.table, spec.table_variant)
    th, tw = tex.shape[:2]
    # texture px -> plane: centre the texture on the view, shifted by table_shift
    sx, sy = spec.table_shift
    tex_to_plane = np.array([[1, 0, w / 2 - tw / 2 + sx * tw], [0, 1, h / 2 - th / 2 + sy * th],
                             [0, 0, 1.0]])
    background = cv2.warpPerspective(tex, hom @ tex_to_plane, (w, h), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REFLECT_101)
    lighting = make_lighting(spec.size, spec.light, spec.glare, spec.shadow, rng)
    motion = motion_kernel(spec.motion_blur, spec.motion_dir_deg) if spec.motion_blur >= 1.5 else None
    developed = develop(background, lighting.gain, lighting.glare, spec.blur, motion)
    developed.flags.writeable = False
    empty = sensor(developed, spec.noise, spec.jpeg_quality, rng)
    empty.flags.writeable = False
    return Table(spec, hom, background, lighting, motion, developed, empty)


def card_corners_plane(x: float, y: float, angle_deg: float, width: float) -> np.ndarray:
    """The four corners (TL, TR, BR, BL of the upright face) of a card centred at (x, y)."""
    a = np.radians(angle_deg)
    u = np.array([np.cos(a), np.sin(a)])
    v = np.array([-np.sin(a), np.cos(a)])
    hw, hh = width / 2, width * CARD_ASPECT / 2
    c = np.array([x, y])
    return np.array([c - u * hw - v * hh, c + u * hw - v * hh, c + u * hw + v * hh,
                     c - u * hw + v * hh])


def image_corners(table: Table, p: Placement) -> np.ndarray:
    w, h = table.size
    plane = card_corners_plane(p.x * w, p.y * h, p.angle_deg, table.card_width * (1 + p.lift))
    return apply_homography(table.homography, plane).astype(np.float32)


# --------------------------------------------------------------------------- compositing

def _mip_width(corners: np.ndarray) -> int:
    side = max(np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[2] - corners[3]))
    for w in _MIP_WIDTHS:
        if w >= side:
            return w
    return _MIP_WIDTHS[-1]


@lru_cache(maxsize=4096)
def _face(game: str, code: str | None, style: str, width: int) -> np.ndarray:
    """BGRA: the face (or back, code None) with the card's rounded outline as alpha."""
    size = (width, int(round(width * CARD_ASPECT)))
    img = back_face(style, size) if code is None else card_face(game, code, style, size)
    out = np.dstack([img, card_mask(size)])
    out.flags.writeable = False
    return out


Box = tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive)


def _union(a: Box | None, b: Box | None) -> Box | None:
    if a is None:
        return b
    if b is None:
        return a
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _paste_card(img: np.ndarray, face: np.ndarray, corners: np.ndarray,
                shadow: bool) -> Box | None:
    """Warp a BGRA face onto `img` at `corners`; return the box of pixels changed."""
    h, w = img.shape[:2]
    fh, fw = face.shape[:2]
    side = float(np.linalg.norm(corners[1] - corners[0]))
    pad = int(np.ceil(side * 0.06)) + 2
    x0 = max(0, int(np.floor(corners[:, 0].min())) - 1)
    y0 = max(0, int(np.floor(corners[:, 1].min())) - 1)
    x1 = min(w, int(np.ceil(corners[:, 0].max())) + pad + 1)
    y1 = min(h, int(np.ceil(corners[:, 1].max())) + pad + 1)
    if x1 <= x0 or y1 <= y0:
        return None
    src = np.float32([[-0.5, -0.5], [fw - 0.5, -0.5], [fw - 0.5, fh - 0.5], [-0.5, fh - 0.5]])
    m = cv2.getPerspectiveTransform(src, (corners - np.float32([x0, y0])).astype(np.float32))
    warped = cv2.warpPerspective(face, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    alpha = warped[..., 3].astype(np.float32)
    alpha *= 1 / 255
    roi = img[y0:y1, x0:x1]
    off = max(1, int(round(side * 0.025)))
    if shadow and min(alpha.shape) > off:  # light from above-left: shadow below and right
        shade = np.zeros_like(alpha)
        k = max(3, int(round(side * 0.05)) | 1)
        shade[off:, off:] = cv2.blur(alpha[:-off, :-off], (k, k))
        shade *= 0.4
        roi = cv2.blendLinear(roi, np.zeros_like(roi), 1 - shade, shade)
    img[y0:y1, x0:x1] = cv2.blendLinear(roi, cv2.cvtColor(warped, cv2.COLOR_BGRA2BGR), 1 - alpha,
                                        alpha)
    return (x0, y0, x1, y1)


@lru_cache(maxsize=1)
def _unit_grid() -> np.ndarray:
    gx, gy = _VIS_GRID
    u = (np.arange(gx) + 0.5) / gx
    v = (np.arange(gy) + 0.5) / gy
    uu, vv = np.meshgrid(u, v)
    return np.stack([uu.ravel(), vv.ravel()], axis=1)


def _inside_quad(pts: np.ndarray, quad: np.ndarray) -> np.ndarray:
    inside = np.ones(len(pts), bool)
    e1, e2 = quad[1] - quad[0], quad[2] - quad[1]
    s = 1.0 if e1[0] * e2[1] - e1[1] * e2[0] >= 0 else -1.0
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        cross = (b[0] - a[0]) * (pts[:, 1] - a[1]) - (b[1] - a[1]) * (pts[:, 0] - a[0])
        inside &= cross * s >= 0
    return inside


def _visible(corners: np.ndarray, above: list[np.ndarray], hands: np.ndarray | None,
             size) -> float:
    w, h = size
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    hom = cv2.getPerspectiveTransform(unit, corners.astype(np.float32))
    pts = apply_homography(hom, _unit_grid())
    covered = (pts[:, 0] < -0.5) | (pts[:, 0] >= w - 0.5) | (pts[:, 1] < -0.5) | (pts[:, 1] >= h - 0.5)
    for quad in above:
        covered |= _inside_quad(pts, quad)
    if hands is not None:
        ix = np.clip(np.round(pts[:, 0]).astype(int), 0, w - 1)
        iy = np.clip(np.round(pts[:, 1]).astype(int), 0, h - 1)
        covered |= hands[iy, ix] > 127
    return float(1 - covered.mean())


@dataclass(frozen=True)
class FlatObject:
    kind: str            # phone | coaster | mug | pen | back
    x: float             # centre, fractions of the overhead view
    y: float
    angle_deg: float = 0.0


def compose(table: Table, game: str, placements: Sequence[Placement], rng: np.random.Generator,
            hands: Sequence[HandPose] = (), objects: Sequence[FlatObject] = (),
            style: str = "deckhand", distractors: tuple[str, ...] = (),
            ) -> Scene:
    """Lay `placements` (bottom first) and `objects` on `table`, reach in with `hands`,
    and take the picture."""
    w, h = table.size
    img, dirty, all_corners, hand_union = lay_out(table, game, placements, rng, hands, objects, style)
    cards = []
    for i, p in enumerate(placements):
        if not p.face_up:
            continue
        vis = _visible(all_corners[i], all_corners[i + 1:], hand_union, (w, h))
        cards.append(PlacedCard(p.game or game, p.code, all_corners[i], vis, p.zone, p.top))
    spec = table.spec
    image = sensor(_develop_changes(table, img, dirty), spec.noise, spec.jpeg_quality, rng)
    return Scene(image, table.empty, tuple(cards), tuple(distractors), table.homography,
                 zone_polygons(table), hand_union, spec)


def lay_out(table: Table, game: str, placements: Sequence[Placement], rng: np.random.Generator,
            hands: Sequence[HandPose] = (), objects: Sequence[FlatObject] = (), style: str = "deckhand",
            ) -> tuple[np.ndarray, Box | None, list[np.ndarray], np.ndarray | None]:
    """`compose`'s picture before light and noise: the table with `objects` and
    `placements` laid on it and `hands` over them (uint8); the box of the pixels that
    differ from the bare table (None: none), every placement's corners, the hands' mask."""
    if style not in STYLES:
        raise ValueError(f"unknown card style {style!r}; styles: {', '.join(STYLES)}")
    w, h = table.size
    img = table.background.copy()
    dirty: Box | None = None
    for obj in objects:
        if obj.kind == "back":
            corners = image_corners(table, Placement("", obj.x, obj.y, obj.angle_deg))
            dirty = _union(dirty, _paste_card(img, _face(game, None, style, _mip_width(corners)),
                                              corners, table.spec.card_shadows))
        else:
            dirty = _union(dirty, draw_flat_object(img, table.homography, obj.kind,
                                                   (obj.x * w, obj.y * h), obj.angle_deg,
                                                   table.card_width, rng))
    all_corners = []
    for p in placements:
        g = p.game or game
        corners = image_corners(table, p)
        code = p.code if p.face_up else None
        if code is not None and code not in game_deck(g):
            raise ValueError(f"{code!r} is not a {g} card")
        dirty = _union(dirty, _paste_card(img, _face(g, code, style, _mip_width(corners)),
                                          corners, table.spec.card_shadows))
        all_corners.append(corners)
    hand_union = None
    for pose in hands:
        m, box = draw_hand(img, pose)
        dirty = _union(dirty, box)
        hand_union = m if hand_union is None else np.maximum(hand_union, m)
    return img, dirty, all_corners, hand_union


def _develop_changes(table: Table, img: np.ndarray, dirty: Box | None) -> np.ndarray:
    """Light and blur the picture, reusing the developed background outside the changes
    (light is per pixel and blur reaches only `optics_margin`, so the result is the same)."""
    out = table.developed.copy()
    part = developed_part(table, img, dirty)
    if part is not None:
        (x0, y0, x1, y1), pixels = part
        out[y0:y1, x0:x1] = pixels
    return out


def developed_part(table: Table, img: np.ndarray, dirty: Box | None) -> tuple[Box, np.ndarray] | None:
    """The box of the developed picture that differs from the developed bare table (the
    `dirty` box grown by how far light and blur reach) and its developed pixels (float32),
    or None when nothing differs."""
    if dirty is None:
        return None
    h, w = img.shape[:2]
    m = optics_margin(table.spec.blur, table.motion)
    x0, y0, x1, y1 = dirty
    px0, py0, px1, py1 = max(0, x0 - m), max(0, y0 - m), min(w, x1 + m), min(h, y1 + m)
    cx0, cy0, cx1, cy1 = max(0, px0 - m), max(0, py0 - m), min(w, px1 + m), min(h, py1 + m)
    light = table.lighting
    part = develop(img[cy0:cy1, cx0:cx1], light.gain[cy0:cy1, cx0:cx1],
                   None if light.glare is None else light.glare[cy0:cy1, cx0:cx1],
                   table.spec.blur, table.motion)
    return (px0, py0, px1, py1), part[py0 - cy0:py1 - cy0, px0 - cx0:px1 - cx0]


def zone_polygons(table: Table, rects: dict | None = None) -> dict[str, np.ndarray]:
    w, h = table.size
    out = {}
    for name, (x0, y0, x1, y1) in (rects or ZONE_RECTS).items():
        plane = np.array([[x0 * w, y0 * h], [x1 * w, y0 * h], [x1 * w, y1 * h], [x0 * w, y1 * h]])
        out[name] = apply_homography(table.homography, plane).astype(np.float32)
    return out
