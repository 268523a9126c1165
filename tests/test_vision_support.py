"""Shared helpers for the vision tests (no tests here): built-in profiles built once per
run, and matching what was read with a rendered scene's truth."""
from functools import lru_cache

import numpy as np

from vision.profile import builtin_profile


@lru_cache(maxsize=None)
def profile(game: str, style: str = "deckhand"):
    return builtin_profile(game, style)


def quad_gap(a, b) -> float:
    """Mean corner distance between two card outlines, either way round."""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    return float(min(np.linalg.norm(a - np.roll(b, k, axis=0), axis=1).mean() for k in (0, 2)))


def match(found, truth_cards, tolerance: float = 0.3, among=None):
    """(truth card, found card or None) for every card of `truth_cards`: each found card
    belongs to the card of `among` (default: truth_cards) whose outline it follows."""
    among = list(truth_cards if among is None else among)
    owner = {}
    for f in found:
        gaps = [quad_gap(f.corners, c.corners) for c in among]
        best = int(np.argmin(gaps)) if gaps else None
        if best is not None:
            short = float(np.linalg.norm(among[best].corners[1] - among[best].corners[0]))
            if gaps[best] < tolerance * short:
                owner[id(among[best])] = f
    return [(card, owner.get(id(card))) for card in truth_cards]


def without(scene, code):
    """A rendered scene before the card `code` was laid: its place painted with the empty table."""
    import cv2

    card = next(c for c in scene.cards if c.code == code)
    mask = np.zeros(scene.image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(card.corners).astype(np.int32), 255)
    mask = cv2.dilate(mask, np.ones((13, 13), np.uint8)) > 0
    before = scene.image.copy()
    before[mask] = scene.empty[mask]
    return before
