"""Printable A4 pages of Deckhand's own decks at real card size (63 x 88 mm).

Nine cards a page (3 x 3) with thin cut lines, a title line and a 50 mm scale bar to
check the printer kept the size. PNGs carry their resolution (pHYs), so printing at
"actual size" gives real-size cards. Run: `python -m vision.render.sheets solo out/`.
"""
from __future__ import annotations

import argparse
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.render.cards import STYLES, game_deck, back_face, card_face, card_mask

A4_MM = (210.0, 297.0)
CARD_MM = (63.0, 88.0)
GAP_MM = 2.0
COLS, ROWS = 3, 3
PER_PAGE = COLS * ROWS
WHICH = ("deck", "faces")  # every physical card, or each distinct face once


def mm_to_px(mm: float, dpi: int) -> int:
    return int(round(mm / 25.4 * dpi))


@dataclass(frozen=True)
class Layout:
    page: tuple[int, int]                       # width, height in px
    card: tuple[int, int]                       # width, height in px
    origins: tuple[tuple[int, int], ...]        # top-left corner of each card slot


def page_layout(dpi: int = 300) -> Layout:
    if not 72 <= dpi <= 1200:
        raise ValueError(f"dpi {dpi} is outside 72..1200")
    pw, ph = mm_to_px(A4_MM[0], dpi), mm_to_px(A4_MM[1], dpi)
    cw, ch = mm_to_px(CARD_MM[0], dpi), mm_to_px(CARD_MM[1], dpi)
    gap = mm_to_px(GAP_MM, dpi)
    x0 = (pw - COLS * cw - (COLS - 1) * gap) // 2
    y0 = (ph - ROWS * ch - (ROWS - 1) * gap) // 2
    origins = tuple((x0 + c * (cw + gap), y0 + r * (ch + gap)) for r in range(ROWS) for c in range(COLS))
    return Layout((pw, ph), (cw, ch), origins)


def sheet_codes(game: str, which: str = "deck") -> tuple[str, ...]:
    if which not in WHICH:
        raise ValueError(f"which must be one of {', '.join(WHICH)}, not {which!r}")
    deck = game_deck(game)
    return deck.full() if which == "deck" else deck.codes


def page_count(game: str, which: str = "deck") -> int:
    return -(-len(sheet_codes(game, which)) // PER_PAGE)


def _place(page: np.ndarray, face: np.ndarray, mask: np.ndarray, x: int, y: int) -> None:
    h, w = face.shape[:2]
    a = (mask.astype(np.float32) / 255)[..., None]
    roi = page[y:y + h, x:x + w].astype(np.float32)
    page[y:y + h, x:x + w] = (roi * (1 - a) + face * a + 0.5).astype(np.uint8)
    outline = cv2.findContours((mask > 127).astype(np.uint8), cv2.RETR_EXTERNAL,
                               cv2.CHAIN_APPROX_NONE)[0]
    cv2.drawContours(page[y:y + h, x:x + w], outline, -1, (170, 170, 170), 1, cv2.LINE_AA)


def _header(page: np.ndarray, text: str, dpi: int, y_mm: float) -> None:
    scale = dpi / 300 * 1.1
    cv2.putText(page, text, (mm_to_px(12, dpi), mm_to_px(y_mm, dpi)), cv2.FONT_HERSHEY_DUPLEX,
                scale, (60, 60, 60), max(1, int(round(2 * dpi / 300))), cv2.LINE_AA)


def _scale_bar(page: np.ndarray, dpi: int) -> None:
    ph = page.shape[0]
    x0, y = mm_to_px(12, dpi), ph - mm_to_px(6, dpi)
    x1 = x0 + mm_to_px(50, dpi)
    t = max(1, int(round(2 * dpi / 300)))
    cv2.line(page, (x0, y), (x1, y), (0, 0, 0), t)
    for x in (x0, x1):
        cv2.line(page, (x, y - mm_to_px(1.5, dpi)), (x, y + mm_to_px(1.5, dpi)), (0, 0, 0), t)
    cv2.putText(page, "50 mm", (x1 + mm_to_px(2, dpi), y + mm_to_px(1, dpi)),
                cv2.FONT_HERSHEY_SIMPLEX, dpi / 300 * 0.9, (0, 0, 0), t, cv2.LINE_AA)


def printable_sheet(game: str, page: int = 0, dpi: int = 300, style: str = "deckhand",
                    which: str = "deck") -> np.ndarray:
    """One A4 page (BGR uint8, portrait) of `game`'s cards at real size."""
    codes = sheet_codes(game, which)
    pages = page_count(game, which)
    if not 0 <= page < pages:
        raise ValueError(f"{game} has pages 0..{pages - 1} ({which}), not {page}")
    lay = page_layout(dpi)
    img = np.full((lay.page[1], lay.page[0], 3), 255, np.uint8)
    mask = card_mask(lay.card)
    for code, (x, y) in zip(codes[page * PER_PAGE:(page + 1) * PER_PAGE], lay.origins):
        _place(img, card_face(game, code, style, lay.card), mask, x, y)
    _header(img, f"Deckhand - {game} ({style}) - page {page + 1} of {pages} - "
                 f"print at actual size (100 %)", dpi, 8)
    _scale_bar(img, dpi)
    return img


def back_sheet(dpi: int = 300, style: str = "deckhand") -> np.ndarray:
    """A page of nine card backs, in the same slots, for the reverse side."""
    lay = page_layout(dpi)
    img = np.full((lay.page[1], lay.page[0], 3), 255, np.uint8)
    face = back_face(style, lay.card)
    mask = card_mask(lay.card)
    for x, y in lay.origins:
        # printed on the reverse, a slot's back lands behind the mirrored slot
        _place(img, face, mask, lay.page[0] - x - lay.card[0], y)
    _scale_bar(img, dpi)
    return img


def _png_with_dpi(img: np.ndarray, dpi: int) -> bytes:
    ok, buf = cv2.imencode(".png", img)
    if not ok:
        raise RuntimeError("PNG encoding failed")
    data = buf.tobytes()
    ppm = int(round(dpi / 0.0254))
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    end_of_ihdr = 8 + 8 + 13 + 4  # signature, IHDR length+type, IHDR data, CRC
    return data[:end_of_ihdr] + chunk + data[end_of_ihdr:]


def write_sheets(game: str, out_dir, dpi: int = 300, style: str = "deckhand",
                 which: str = "deck") -> list[Path]:
    """Write every page of `game` and one page of backs as PNGs; return their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for page in range(page_count(game, which)):
        path = out / f"{game}-{style}-{page + 1:02d}.png"
        path.write_bytes(_png_with_dpi(printable_sheet(game, page, dpi, style, which), dpi))
        paths.append(path)
    path = out / f"{game}-{style}-backs.png"
    path.write_bytes(_png_with_dpi(back_sheet(dpi, style), dpi))
    paths.append(path)
    return paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.render.sheets",
                                     description="Write printable A4 pages of a Deckhand deck.")
    parser.add_argument("game", choices=("hitthedeck", "solo", "flip7", "raj"))
    parser.add_argument("out_dir")
    parser.add_argument("--dpi", type=int, default=300)
    parser.add_argument("--style", choices=STYLES, default="deckhand")
    parser.add_argument("--faces", action="store_true", help="each distinct card once, not the whole deck")
    args = parser.parse_args(argv)
    paths = write_sheets(args.game, args.out_dir, args.dpi, args.style, "faces" if args.faces else "deck")
    for p in paths:
        print(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
