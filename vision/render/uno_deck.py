"""A stand-in for a commercial deck of the UNO family, all 54 faces, and photos of it as
a user takes them: one card on a cloth (`cloth_photo`) or a phone photo on a real table,
mostly oblique (`phone_photo`).

The faces look like the commercial printing, not like Deckhand's decks: a white frame
round a full colour field, a tilted white oval holding the symbol in the ink outlined in
black, white corner indices outlined in black, the card 56 x 87 mm. 13 symbols in four
colours (0-9, draw two, reverse, skip) and two wilds (a black field, a four-colour oval),
labelled as a user would write them ("Red 7", "Wild Draw Four", colour column "red" or
empty for a wild).

Photos go through `vision.render.sessions.photograph` (a camera under a light). Phone
photos lie on real table photographs (`vision.render.table.photo_texture`, read from
../shared at run time) at a tilt, with the card's shadow, now and then a lamp's glare and
a little blur. Used by `bench/protocols.py` and its test; nothing here reads a card.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.render.sessions import SYMBOLS, UNO_INKS, Session, _bgr, _text, photograph, table_shot

UNO_SIZE = (200, 311)            # (w, h) of a drawn face: 56 x 87 mm
WHITE, BLACK = (246, 246, 244), (22, 22, 26)
SYMBOL_NAMES = {"+2": "Draw Two", "R": "Reverse", "S": "Skip"}
WILDS = {"W": "Wild", "W+4": "Wild Draw Four"}
CLOTHS = {"grey cloth": (128, 128, 124), "green felt": (40, 105, 60), "dark blue cloth": (45, 55, 90),
          "red cloth": (120, 40, 40), "beige cloth": (190, 175, 150)}


@dataclass(frozen=True)
class Design:
    """How a printing of the deck is drawn (the default: the stand-in the project was
    developed against). Others are plausible UNO-family printings, for stressing the
    bench (`bench/protocols.py --stress`): another font, oval and corner index, a
    thinner white frame or none (`frame` 0: the colour field runs to the edge), rounded
    corners (`radius` > 0: the face comes with an alpha channel, the table shows there)."""

    frame: int = 11                  # the white frame's width, pixels of UNO_SIZE
    font: int = cv2.FONT_HERSHEY_DUPLEX
    oval: tuple = (68, 118)          # the oval's half axes
    oval_tilt: int = 35
    symbol: tuple = (92, 16)         # the middle symbol's height and stroke
    index: tuple = (22, 3)           # the corner index's height and stroke
    index_at: tuple = (30, 34)       # the corner index's centre from the corner
    radius: int = 0                  # rounded corners' radius (0: square)


@dataclass(frozen=True)
class Face:
    """One face of the deck as a user labels it."""

    label: str       # "Red 7", "Wild"
    colour: str      # "red", or "" for a wild
    symbol: str      # "7", "+2", "W"...
    inks: tuple = ()  # ((name, rgb), ...) the deck's inks, for drawing
    design: Design = Design()

    def image(self) -> np.ndarray:
        return uno_deck_face(dict(self.inks), self.colour, self.symbol, self.design)


def deck(inks: dict | None = None, colours: int = 4, symbols: int = len(SYMBOLS),
         wilds: bool = True, design: Design = Design()) -> list[Face]:
    """The deck's faces: `symbols` of SYMBOLS in the first `colours` inks, and the two wilds."""
    inks = inks or UNO_INKS
    pairs = tuple(inks.items())
    out = [Face(f"{name.title()} {SYMBOL_NAMES.get(s, s)}", name, s, pairs, design)
           for name in list(inks)[:colours] for s in SYMBOLS[:symbols]]
    if wilds:
        out += [Face(title, "", s, pairs, design) for s, title in WILDS.items()]
    return out


def _outlined(face: np.ndarray, text: str, centre, height: float, fill, thickness: int,
              font: int = cv2.FONT_HERSHEY_DUPLEX) -> None:
    """The text outlined in black; a 6 and a 9 underlined (as the commercial deck does:
    turned half round, one is the other)."""
    for colour, width in ((BLACK, thickness + max(4, thickness // 2)), (fill, thickness)):
        _text(face, text, centre, height, colour, width, font)
        if text in ("6", "9"):
            y = int(centre[1] + height * 0.72)
            half = int(height * 0.3)
            cv2.line(face, (int(centre[0]) - half, y), (int(centre[0]) + half, y), colour, width, cv2.LINE_AA)


def uno_deck_face(inks: dict, colour: str, symbol: str, design: Design = Design()) -> np.ndarray:
    """A face (BGR uint8, UNO_SIZE; BGRA with rounded corners) of `design`: colour ""
    and symbol "W" or "W+4" for the wilds."""
    w, h = UNO_SIZE
    d = design
    face = np.full((h, w, 3), WHITE, np.uint8)
    field = _bgr(inks[colour]) if colour else BLACK
    cv2.rectangle(face, (d.frame, d.frame), (w - 1 - d.frame, h - 1 - d.frame), field, -1, cv2.LINE_AA)
    centre, axes, tilt = (w // 2, h // 2), d.oval, d.oval_tilt
    if colour:
        cv2.ellipse(face, centre, axes, tilt, 0, 360, WHITE, -1, cv2.LINE_AA)
        _outlined(face, symbol, (w / 2, h / 2), d.symbol[0], field, d.symbol[1], d.font)
        index = symbol
    else:   # a wild: the oval in the four colours
        names = list(inks)
        for quarter in range(4):
            cv2.ellipse(face, centre, axes, tilt, 90 * quarter, 90 * quarter + 90,
                        _bgr(inks[names[quarter % len(names)]]), -1, cv2.LINE_AA)
        if symbol == "W+4":
            _outlined(face, "+4", (w / 2, h / 2), d.symbol[0] * 70 / 92, WHITE, max(2, d.symbol[1] * 3 // 4), d.font)
        index = "+4" if symbol == "W+4" else "W"
    ix, iy = d.index_at
    for corner in ((ix, iy), (w - ix, h - iy)):
        _outlined(face, index, corner, d.index[0], WHITE, d.index[1], d.font)
    if d.radius <= 0:
        return face
    alpha = np.zeros((h, w), np.uint8)
    r = d.radius
    cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (w - 1 - r, h - 1 - r), (r, h - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return np.dstack([face, alpha])


def cloth_photo(face: np.ndarray, cloth_rgb, session: Session, rng: np.random.Generator,
                size: tuple[int, int] = (1024, 768)) -> tuple[np.ndarray, np.ndarray]:
    """One card on a plain cloth, seen from above, photographed in `session`: the picture
    and the card's corners (TL, TR, BR, BL)."""
    picture, corners = table_shot([face], cloth_rgb, session, rng, size)
    return picture, corners[0]


def _tilted_corners(size: tuple[int, int], card: tuple[float, float], rng: np.random.Generator,
                    tilt: float, card_height: float) -> np.ndarray:
    """The card's corners in a phone photo: the card turned in its plane, then seen at
    `tilt` degrees from overhead about a random axis, through a pinhole of a phone's
    field of view (about 65 degrees across)."""
    w, h = size
    aspect = card[1] / card[0]
    ch = card_height * h
    cw = ch / aspect
    spin = np.radians(rng.uniform(-35, 35) + (180 if rng.random() < 0.5 else 0))
    flat = np.array([[-cw / 2, -ch / 2], [cw / 2, -ch / 2], [cw / 2, ch / 2], [-cw / 2, ch / 2]])
    flat = flat @ np.array([[np.cos(spin), -np.sin(spin)], [np.sin(spin), np.cos(spin)]]).T
    points = np.column_stack([flat, np.zeros(4)])
    axis = rng.uniform(0, np.pi)
    t = np.radians(tilt)
    ax = np.array([np.cos(axis), np.sin(axis), 0.0])
    k = np.array([[0, -ax[2], ax[1]], [ax[2], 0, -ax[0]], [-ax[1], ax[0], 0]])
    rot = np.eye(3) + np.sin(t) * k + (1 - np.cos(t)) * k @ k   # Rodrigues
    focal = 0.78 * w
    placed = points @ rot.T + np.array([0, 0, focal])
    projected = placed[:, :2] * focal / placed[:, 2:3]
    margin = np.abs(projected).max(axis=0)
    room = np.maximum(np.array([w / 2, h / 2]) - margin - 6, 0)
    centre = np.array([w / 2, h / 2]) + rng.uniform(-room, room)
    return (projected + centre).astype(np.float32)


def phone_photo(face: np.ndarray | None, table: np.ndarray, session: Session, rng: np.random.Generator,
                size: tuple[int, int] = (1008, 756), tilt: tuple[float, float] = (10, 50)
                ) -> tuple[np.ndarray, np.ndarray | None]:
    """A phone photo of one card (or, `face` None, of the table alone) on `table` (a
    BGR picture of a real table, cropped and scaled to fill the photo), the card
    `tilt` degrees from overhead (uniform in the range), photographed in `session`:
    the picture and the card's corners (None without a card)."""
    w, h = size
    th, tw = table.shape[:2]
    scale = max(w / tw, h / th) * rng.uniform(1.0, 1.4)
    big = cv2.resize(table, (int(np.ceil(tw * scale)), int(np.ceil(th * scale))), interpolation=cv2.INTER_AREA)
    x0 = int(rng.integers(0, big.shape[1] - w + 1))
    y0 = int(rng.integers(0, big.shape[0] - h + 1))
    picture = big[y0:y0 + h, x0:x0 + w].astype(np.float32)
    if rng.random() < 0.5:
        picture = picture[:, ::-1]
    if face is None:
        return photograph(np.clip(picture, 0, 255).astype(np.uint8), session, rng), None
    corners = _tilted_corners(size, (face.shape[1], face.shape[0]), rng, rng.uniform(*tilt),
                              rng.uniform(0.35, 0.6))
    fh, fw = face.shape[:2]
    src = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]])
    matrix = cv2.getPerspectiveTransform(src, corners)
    alpha = face[..., 3] / np.float32(255) if face.shape[2] == 4 else np.full((fh, fw), 1.0, np.float32)
    face = np.ascontiguousarray(face[..., :3])
    mask = cv2.warpPerspective(alpha, matrix, size, flags=cv2.INTER_AREA)
    # the card's soft shadow on the table, thrown a little aside
    shift = np.float32([[1, 0, rng.uniform(-8, 8)], [0, 1, rng.uniform(2, 10)]])
    shadow = cv2.GaussianBlur(cv2.warpAffine(mask, shift, size), (0, 0), 6) * rng.uniform(0.2, 0.45)
    picture *= (1 - shadow)[..., None]
    card = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_AREA).astype(np.float32)
    picture = picture * (1 - mask[..., None]) + card * mask[..., None]
    if rng.random() < 0.3:    # a lamp's glare on the card's gloss
        gx, gy = corners.mean(axis=0) + rng.uniform(-0.5, 0.5, 2) * (corners.max(axis=0) - corners.min(axis=0))
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        radius = rng.uniform(0.04, 0.1) * w
        glare = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * radius ** 2)) * rng.uniform(0.3, 0.7)
        picture += (255 - picture) * (glare * mask)[..., None]
    blur = rng.uniform(0, 1.4)
    if blur > 0.5:
        picture = cv2.GaussianBlur(picture, (0, 0), blur)
    return photograph(np.clip(picture, 0, 255).astype(np.uint8), session, rng), corners
