"""Court cards from their printed picture, where the card's own edge is lost in what it
lies on.

A king, queen or jack on a white cloth, a light counter or a towel merges with it: no
edge or step follows the card's sides all round, and the maps give the card and the
cloth as one region, or a piece of both. Its picture still stands out: a block of
colour and ink inside the card's printed frame, much darker than the paper round it,
and that frame lies at a fixed inset from the card's edge (`wholecards.grown_frame`,
the margins measured on train_'s court cards).

So the ink is looked at against the local paper (the whiteness closed over a square a
little wider than the smallest card: round a picture, the paper beside it or the
picture's own light parts); its blocks, their pieces joined, that fill most of their
tightest rectangle and are of a frame's shape give that rectangle as the frame, grown
to the card. A grown card is handed to the
learned outline scorer (`vision.outlinescore`) as a print outline (`Considered.printed`:
taken only when surer than an outline, `RealSettings.print_chance`) when it passes the
finder's whole-card gates (inside the frame, corners near square, a card's side ratio,
its outline partly on an edge or a step) and does not lie inside an outline kept many
times its size (a pip or the picture of a card found, grown as a frame is).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision import outlinescore, wholecards
from vision.quadgates import unlike_card
from vision.warp import quad_overlap


@dataclass(frozen=True)
class CourtSettings:
    paper_window: float = 1.5       # the local paper: the whiteness closed over a square this many
                                    # smallest short sides across (the paper round a picture, or
                                    # its own light parts: a face, a collar)
    ink: float = 0.7                # the picture: whiteness under this share of the local paper
    min_paper: int = 120            # ... where that paper is at least this white (of 255)
    join: int = 5                   # pixels (at the finder's 320): the picture's pieces joined by a
                                    # closing with a disc this wide
    least: float = 0.6              # a block at least this share of the smallest short side, squared
                                    # (its area's square root)
    fill: float = 0.7               # ... filling this share of its tightest rectangle
    unlike: float = 0.3             # ... that rectangle this near a card's side ratio (log)
    share: float = 0.3              # the card grown from it: its outline this share on an edge or a
                                    # step (the whole-card gates: `WholeSettings.angles`,
                                    # `frame_card_unlike`)
    inside: float = 6.0             # ... not lying `hold` inside an outline kept of this many times its
                                    # area (a pip or an index grown as a frame is: 8.7 to 55 times on
                                    # train_; the court cards found so 2.6 and 4.2)
    hold: float = 0.85


def frames(white: np.ndarray, min_side: float, settings: CourtSettings) -> list[np.ndarray]:
    """The rectangles (4 x 2 float32) of the blocks of ink that may be a court card's
    picture in its printed frame: ink against the local paper, pieces joined, of at least
    `least` smallest short sides' area, filling `fill` of the tightest rectangle, of a
    card's shape within `unlike`."""
    k = int(round(settings.paper_window * min_side)) | 1
    paper = cv2.morphologyEx(white, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    ink = ((white < settings.ink * paper.astype(np.float32)) & (paper >= settings.min_paper)).astype(np.uint8) * 255
    joined = cv2.morphologyEx(ink, cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (settings.join, settings.join)))
    least = (settings.least * min_side) ** 2
    out = []
    for contour in cv2.findContours(joined, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
        area = cv2.contourArea(contour)
        if area < least:
            continue
        rect = cv2.minAreaRect(contour)
        w, h = rect[1]
        if area < settings.fill * w * h:
            continue
        quad = cv2.boxPoints(rect).astype(np.float32)
        if unlike_card(quad) <= settings.unlike:
            out.append(quad)
    return out


def outlines(white: np.ndarray, kept: list[np.ndarray], min_side: float, settings: CourtSettings,
             whole: wholecards.WholeSettings,
             gates: Callable[[np.ndarray, tuple[float, float], float], float | None]) -> list:
    """The cards grown from `frames` (`wholecards.grown_frame`) that pass `gates(quad, angles,
    unlike)` (the finder's whole-card gates: the share of the outline on an edge or a step,
    or None) with `share` at least, and lie inside no outline of `kept` `inside` times their
    area or more, as print outlines (`outlinescore.Considered`, printed) for the learned model."""
    out = []
    kept_areas = [cv2.contourArea(q) for q in kept]
    for frame in frames(white, min_side, settings):
        card = wholecards.grown_frame(frame, whole)
        area = float(cv2.contourArea(card))
        if any(held >= settings.inside * area and quad_overlap(card, q) >= settings.hold
               for q, held in zip(kept, kept_areas)):
            continue
        share = gates(card, whole.angles, whole.frame_card_unlike)
        if share is not None and share >= settings.share:
            out.append(outlinescore.Considered(card, area, True))
    return out
