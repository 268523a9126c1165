"""Card faces and backs of Deckhand's own decks, drawn from the engine's deck definitions.

Two styles: "deckhand" (white face, coloured rounded frame, big centred symbol, corner
indices both ways round) and "alt" (a deck unlike it: coloured panel, white medallion,
italic serif indices) to stand in for a user's own deck in the teaching test. Card codes
and colours come only from `engine.<game>.deck`; faces are cached per size.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import cv2
import numpy as np

from engine.cards import CardDef, Deck
from vision.render import icons
from vision.render.canvas import Canvas, rounded_rect_points

CARD_ASPECT = 88 / 63
CANONICAL_SIZE = (200, 280)
STYLES = ("deckhand", "alt")
GAMES = ("hitthedeck", "solo", "flip7", "raj")
CORNER_RADIUS = 200 * 3.5 / 63  # canonical units: a 3.5 mm corner on a 63 mm card

_W, _H = CANONICAL_SIZE


def _bgr(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    return (rgb[2], rgb[1], rgb[0])


@dataclass(frozen=True)
class Palette:
    colours: dict[str, tuple[int, int, int]]  # BGR per deck colour name
    ink: tuple[int, int, int]                 # colourless cards
    face: tuple[int, int, int]
    numbers: tuple[tuple[int, int, int], ...]  # Flip 7's per-number accents, 0..12
    modifier: tuple[int, int, int]
    freeze: tuple[int, int, int]
    flip3: tuple[int, int, int]
    chance: tuple[int, int, int]
    gain: tuple[int, int, int]   # Raj positive point cards
    loss: tuple[int, int, int]   # Raj negative point cards
    font: int
    index_font: int
    italic: bool
    stroke: float = 1.0  # text stroke weight, relative


_FLIP7_RGB = ((110, 110, 110), (140, 90, 40), (150, 150, 0), (210, 40, 40), (240, 130, 0),
              (200, 165, 0), (40, 160, 60), (0, 150, 150), (0, 150, 220), (40, 70, 200),
              (120, 60, 200), (200, 40, 170), (230, 90, 130))

PALETTES = {
    "deckhand": Palette(
        colours={n: _bgr(c) for n, c in (("red", (215, 35, 45)), ("green", (30, 150, 60)),
                                          ("blue", (25, 90, 200)), ("yellow", (235, 180, 0)),
                                          ("purple", (130, 50, 160)), ("black", (25, 25, 25)))},
        ink=_bgr((45, 45, 50)), face=_bgr((244, 243, 238)),
        numbers=tuple(_bgr(c) for c in _FLIP7_RGB),
        modifier=_bgr((230, 110, 20)), freeze=_bgr((60, 170, 235)), flip3=_bgr((220, 60, 60)),
        chance=_bgr((210, 40, 110)), gain=_bgr((200, 150, 20)), loss=_bgr((70, 80, 100)),
        font=cv2.FONT_HERSHEY_DUPLEX, index_font=cv2.FONT_HERSHEY_DUPLEX, italic=False),
    "alt": Palette(
        colours={n: _bgr(c) for n, c in (("red", (180, 20, 80)), ("green", (0, 125, 115)),
                                          ("blue", (45, 40, 150)), ("yellow", (245, 135, 15)),
                                          ("purple", (215, 85, 215)), ("black", (15, 15, 15)))},
        ink=_bgr((70, 45, 30)), face=_bgr((236, 232, 220)),
        numbers=tuple(_bgr(c) for c in _FLIP7_RGB[6:] + _FLIP7_RGB[:6]),
        modifier=_bgr((20, 110, 60)), freeze=_bgr((20, 120, 190)), flip3=_bgr((150, 30, 30)),
        chance=_bgr((120, 30, 150)), gain=_bgr((120, 100, 10)), loss=_bgr((30, 30, 30)),
        font=cv2.FONT_HERSHEY_TRIPLEX, index_font=cv2.FONT_HERSHEY_COMPLEX, italic=True,
        stroke=0.6),
}

_WHITE = (250, 250, 250)

# How the centre of a face is drawn: (canvas, centre x, centre y, size, accent, palette, light)
Centre = Callable[[Canvas, float, float, float, tuple, Palette, bool], None]


@dataclass(frozen=True)
class Design:
    accent: tuple[int, int, int]
    index: str
    centre: Centre


# --------------------------------------------------------------------------- decks

def game_deck(game: str) -> Deck:
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; the renderer draws: {', '.join(GAMES)}")
    return importlib.import_module(f"engine.{game}.deck").DECK


def deck_codes(game: str) -> tuple[str, ...]:
    """Every distinct card code of a game (Raj: point cards and every seat's player cards)."""
    return game_deck(game).codes


def _card(game: str, code: str) -> CardDef:
    deck = game_deck(game)
    if code not in deck:
        raise ValueError(f"{code!r} is not a {game} card")
    return deck[code]


# --------------------------------------------------------------------------- centres

def _number(text: str) -> Centre:
    def draw(cv, cx, cy, s, accent, pal, light):
        colour = accent
        box_w = s * (0.62 if len(text) == 1 else 0.95)
        cv.text(text, (cx, cy), box_w, s * 0.8, colour, pal.font, 0.13 * pal.stroke, pal.italic)
        if text in ("6", "9"):  # tells 6 from an upside-down 9
            cv.line((cx - s * 0.25, cy + s * 0.52), (cx + s * 0.25, cy + s * 0.52), colour, s * 0.07)
    return draw


def _icon(icon, label: str = "") -> Centre:
    def draw(cv, cx, cy, s, accent, pal, light):
        if label:
            icon(cv, cx, cy - s * 0.12, s * 0.8, accent)
            cv.text(label, (cx, cy + s * 0.55), s * 0.9, s * 0.17, accent, pal.font, 0.12 * pal.stroke, pal.italic)
        else:
            icon(cv, cx, cy, s, accent)
    return draw


def _hit(inner: Centre) -> Centre:
    def draw(cv, cx, cy, s, accent, pal, light):
        cv.text("HIT", (cx, cy - s * 0.5), s * 0.6, s * 0.2, accent, pal.font, 0.14 * pal.stroke, pal.italic)
        inner(cv, cx, cy + s * 0.05, s * 0.75, accent, pal, light)
        w = s * 0.16
        for i, name in enumerate(("red", "green", "blue", "yellow")):
            x = cx - 2 * w + i * w
            cv.rounded_rect(x + 1, cy + s * 0.55, x + w - 1, cy + s * 0.63, 2, pal.colours[name])
    return draw


def _disc(colour) -> Centre:
    def draw(cv, cx, cy, s, accent, pal, light):
        cv.circle((cx, cy), s * 0.38, colour)
        icons.star(cv, cx, cy, s * 0.5, _WHITE)
    return draw


def _take(n: int, wheel: bool) -> Centre:
    def draw(cv, cx, cy, s, accent, pal, light):
        face = pal.face
        if wheel:
            icons.colour_wheel(cv, cx, cy - s * 0.2, s * 0.55, _four(pal), 45)
        else:
            icons.card_stack(cv, cx, cy - s * 0.2, s * 0.6, accent, n, face)
        cv.text(f"+{n}", (cx, cy + s * 0.35), s * 0.6, s * 0.32, accent, pal.font, 0.13 * pal.stroke, pal.italic)
    return draw


def _four(pal: Palette):
    return tuple(pal.colours[n] for n in ("red", "yellow", "green", "blue"))


def _wheel(cv, cx, cy, s, accent, pal, light):
    icons.colour_wheel(cv, cx, cy, s, _four(pal))
    cv.circle((cx, cy), s * 0.42, accent, s * 0.03)


def _rotate(cv, cx, cy, s, accent, pal, light):
    icons.colour_wheel(cv, cx, cy, s * 0.45, _four(pal), 45)
    icons.turn_arrows(cv, cx, cy, s * 1.05, accent)


def _coin(value: int) -> Centre:
    def draw(cv, cx, cy, s, accent, pal, light):
        icons.coin(cv, cx, cy - s * 0.45, s * 0.4, accent, _WHITE)
        cv.text(f"{value:+d}", (cx, cy + s * 0.12), s * 0.95, s * 0.62, accent, pal.font, 0.13 * pal.stroke,
                pal.italic)
    return draw


def _design(game: str, card: CardDef, pal: Palette) -> Design:
    k, v = card.kind, card.value
    col = pal.colours.get(card.colour, pal.ink)
    if game == "flip7":
        if k == "number":
            return Design(pal.numbers[v], str(v), _number(str(v)))
        if k in ("modifier", "multiplier"):
            return Design(pal.modifier, card.code, _number(card.code))
        return {"freeze": Design(pal.freeze, "FRZ", _icon(icons.snowflake, "FREEZE")),
                "flip3": Design(pal.flip3, "F3", _icon(
                    lambda cv, x, y, s, c: icons.card_stack(cv, x, y, s, c, 3, pal.face), "FLIP 3")),
                "chance": Design(pal.chance, "2C", _icon(icons.heart, "2ND CHANCE"))}[k]
    if game == "raj":
        if k == "point":
            return Design(pal.gain if v > 0 else pal.loss, f"{v:+d}", _coin(v))
        return Design(col, str(v), _number(str(v)))
    if game == "hitthedeck":
        if k == "number":
            return Design(col, str(v), _number(str(v)))
        return {"cut": Design(col, "CUT", _icon(icons.scissors, "CUT")),
                "flip": Design(col, "FLIP", _icon(icons.turn_arrows, "FLIP")),
                "hit_number": Design(pal.ink, f"H{v}", _hit(_number(str(v)))),
                "hit_colour": Design(col, "HIT", _hit(_disc(col))),
                "hit_hand": Design(pal.ink, "HND", _hit(_icon(icons.hand)))}[k]
    if game == "solo":
        if k == "number":
            return Design(col, str(v), _number(str(v)))
        return {"miss": Design(col, "MISS", _icon(icons.prohibition)),
                "reverse": Design(col, "REV", _icon(icons.turn_arrows)),
                "take2": Design(col, "+2", _take(2, False)),
                "swap": Design(col, "SWAP", _icon(icons.opposite_arrows)),
                "choose": Design(col, "COL", _wheel),
                "take4": Design(col, "+4", _take(4, True)),
                "rotate": Design(col, "ROT", _rotate)}[k]
    raise ValueError(f"no design for {game} card {card.code!r}")


# --------------------------------------------------------------------------- layouts

def _index(cv: Canvas, text: str, colour, pal: Palette, style: str) -> None:
    if style == "alt":
        cv.text(text, (40, 42), 50 if len(text) > 1 else 26, 34, colour, pal.index_font, 0.13 * pal.stroke, True)
    else:
        cv.text(text, (30, 33), 40 if len(text) > 1 else 20, 26, colour, pal.index_font, 0.12)


def _both_corners(img: np.ndarray, k: float, draw) -> np.ndarray:
    """Draw the corner index at top left, and again with the card turned half round."""
    draw(Canvas(img, k))
    turned = np.ascontiguousarray(img[::-1, ::-1])
    draw(Canvas(turned, k))
    return np.ascontiguousarray(turned[::-1, ::-1])


def _draw_face(design: Design, pal: Palette, style: str, w: int, h: int) -> np.ndarray:
    k = w / _W
    img = np.empty((h, w, 3), np.uint8)
    img[:] = pal.face
    cv = Canvas(img, k)
    if style == "alt":
        cv.rounded_rect(9, 9, _W - 9, _H - 9, CORNER_RADIUS * 0.8, design.accent)
        cv.poly([(9, 200), (_W - 9, 80), (_W - 9, 110), (9, 230)], _tint(design.accent, 0.25))
        img = _both_corners(img, k, lambda c: _index(c, design.index, _WHITE, pal, style))
        cv = Canvas(img, k)
        cv.ellipse((_W / 2, _H / 2), (62, 80), 0, 0, 360, _WHITE)
        design.centre(cv, _W / 2, _H / 2, 92, design.accent, pal, True)
    else:
        cv.rounded_rect(7, 7, _W - 7, _H - 7, CORNER_RADIUS * 0.7, design.accent, 5)
        img = _both_corners(img, k, lambda c: _index(c, design.index, design.accent, pal, style))
        cv = Canvas(img, k)
        design.centre(cv, _W / 2, _H / 2, 130, design.accent, pal, False)
    return img


def _tint(colour, amount: float) -> tuple[int, int, int]:
    return tuple(int(c + (255 - c) * amount) for c in colour)


def _check_style(style: str) -> Palette:
    if style not in PALETTES:
        raise ValueError(f"unknown card style {style!r}; styles: {', '.join(STYLES)}")
    return PALETTES[style]


def _check_size(size) -> tuple[int, int]:
    w, h = int(size[0]), int(size[1])
    if w < 8 or h < 8:
        raise ValueError(f"card size {size!r} is too small to draw")
    return w, h


_CACHE_MAX_WIDTH = 600  # bigger faces (print sheets) are drawn each time, not kept


@lru_cache(maxsize=2048)
def _cached_face(game: str, code: str, style: str, size) -> np.ndarray:
    img = draw_face(game, code, style, size)
    img.flags.writeable = False
    return img


def card_face(game: str, code: str, style: str = "deckhand", size=CANONICAL_SIZE) -> np.ndarray:
    """The face, cached and read-only up to a modest size (BGR uint8)."""
    size = tuple(int(v) for v in size)
    if size[0] > _CACHE_MAX_WIDTH:
        return draw_face(game, code, style, size)
    return _cached_face(game, code, style, size)


def draw_face(game: str, code: str, style: str = "deckhand", size=CANONICAL_SIZE) -> np.ndarray:
    """Draw a face afresh (no cache)."""
    pal = _check_style(style)
    w, h = _check_size(size)
    design = _design(game, _card(game, code), pal)
    if w >= _W:
        img = _draw_face(design, pal, style, w, h)
    else:  # draw at full size and shrink, so small faces are antialiased, not broken
        big = _draw_face(design, pal, style, _W, int(round(_W * h / w)))
        img = cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)
    return img


def render_card(game: str, code: str, style: str = "deckhand", size=CANONICAL_SIZE) -> np.ndarray:
    """The upright face of one card: BGR uint8, `size` = (width, height)."""
    face = card_face(game, code, style, tuple(size))
    return face if face.flags.writeable else face.copy()


@lru_cache(maxsize=64)
def back_face(style: str = "deckhand", size=CANONICAL_SIZE) -> np.ndarray:
    pal = _check_style(style)
    w, h = _check_size(size)
    k = w / _W
    img = np.empty((h, w, 3), np.uint8)
    img[:] = pal.face
    cv = Canvas(img, k)
    if style == "alt":
        cv.rounded_rect(9, 9, _W - 9, _H - 9, CORNER_RADIUS * 0.8, _bgr((150, 25, 35)))
        for y in range(30, _H - 20, 28):
            for x in range(30 + (y // 28 % 2) * 14, _W - 20, 28):
                cv.circle((x, y), 8, _bgr((230, 200, 120)), 2)
    else:
        navy = _bgr((25, 45, 95))
        panel = img.copy()
        cv.rounded_rect(7, 7, _W - 7, _H - 7, CORNER_RADIUS * 0.7, navy)
        for t in range(-_H, _W + _H, 18):
            cv.line((t, 0), (t + _H, _H), _bgr((45, 75, 140)), 2)
        cv.rounded_rect(7, 7, _W - 7, _H - 7, CORNER_RADIUS * 0.7, navy, 8)
        Canvas(panel, k).rounded_rect(7, 7, _W - 7, _H - 7, CORNER_RADIUS * 0.7, 255)
        outside = panel[..., 0] != 255
        img[outside] = pal.face
        cv.circle((_W / 2, _H / 2), 44, pal.face)
        cv.text("D", (_W / 2, _H / 2), 40, 50, navy, cv2.FONT_HERSHEY_DUPLEX, 0.14)
    img.flags.writeable = False
    return img


def render_back(style: str = "deckhand", size=CANONICAL_SIZE) -> np.ndarray:
    """The back of a card (all cards of a deck share it)."""
    return back_face(style, tuple(size)).copy()


@lru_cache(maxsize=64)
def card_mask(size=CANONICAL_SIZE) -> np.ndarray:
    """The card's outline with rounded corners: uint8, 255 inside, antialiased edge."""
    w, h = _check_size(size)
    k = w / _W
    mask = np.zeros((h, w), np.uint8)
    pts = rounded_rect_points(0, 0, _W, h / k, CORNER_RADIUS) * k * 16
    cv2.fillPoly(mask, [np.round(pts - 8).astype(np.int32).reshape(-1, 1, 2)], 255, cv2.LINE_AA, 4)
    mask.flags.writeable = False
    return mask
