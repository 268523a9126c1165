"""Trimmed edge groups (`RealSettings.trim_spurs`, `vision.regionjudge._trimmed`): an edge group
whose hull no four corners fit, because a table's or a shadow's line runs off the card's
outline, is filled and opened, and the card's own outline handed to the learned outline
scorer. On train_IMG_2507 of ../shared/realphotos/cards-edje (a king on a beige floor, as
white as the card, so no whiteness region holds it alone) that is the only candidate for the
card, and the learned settings find it; without trimming nothing matches it."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.detect import LEARNED_SETTINGS, DetectSettings
from vision.pipeline import to_working_size
from vision.quadgates import four_corners
from vision.realfind import find_outlines
from vision.regionjudge import _trimmed

from tests.realphoto_helpers import PHOTOS, bench, score

needs_photos = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"the shared photos are not at {PHOTOS}")


def _edge_group() -> tuple[np.ndarray, np.ndarray]:
    """A card's drawn outline with its print inside and a line running off each of two
    sides (a table's edge, a shadow's), dilated as the finder dilates Canny's edges: its one outer contour, and
    the card's corners."""
    edges = np.zeros((240, 320), np.uint8)
    card = np.float32(((100, 60), (160, 52), (172, 136), (112, 144)))
    cv2.polylines(edges, [card.astype(np.int32)], True, 255, 1)
    cv2.circle(edges, (136, 98), 12, 255, 1)
    cv2.line(edges, (166, 94), (290, 94), 255, 1)
    cv2.line(edges, (142, 140), (142, 230), 255, 1)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    contour = max(cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0], key=cv2.contourArea)
    return contour, card


def test_a_line_running_off_a_card_is_trimmed_and_the_card_left():
    contour, card = _edge_group()
    hull = cv2.convexHull(contour)
    untrimmed = four_corners(hull)
    # the lines make the hull no card: its four corners (if any) are not the card's
    assert untrimmed is None or np.linalg.norm(untrimmed[None] - card[:, None], axis=2).min(axis=1).max() > 20
    quad = _trimmed(contour, float(cv2.contourArea(contour)), 0.12, 0.85)
    assert quad is not None
    # each of the card's corners has a trimmed corner within 3 pixels (the dilation's width)
    gaps = np.linalg.norm(quad[None, :, :] - card[:, None, :], axis=2).min(axis=1)
    assert gaps.max() <= 3.0, gaps


def test_a_line_alone_trims_to_nothing():
    edges = cv2.dilate(cv2.line(np.zeros((240, 320), np.uint8), (20, 30), (290, 200), 255, 1),
                       np.ones((3, 3), np.uint8))
    contour = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0][0]
    assert _trimmed(contour, float(cv2.contourArea(contour)), 0.12, 0.85) is None


def _matching(name: str, settings) -> list[float]:
    """The box IoU with the photo's one label of every outline the finder kept or refused
    (its trace), at the photo's own scale."""
    module = bench()
    label = module.load_labels(PHOTOS)[f"images/{name}.jpg"][0]
    image = cv2.imread(str(PHOTOS / "images" / f"{name}.jpg"), cv2.IMREAD_COLOR)
    small, scale = to_working_size(image)
    trace: list = []
    find_outlines(small, settings, trace)
    t = trace[0]
    quads = list(t.kept) + [c.quad for c in t.considered]
    return [module.iou(tuple(v / t.scale / scale for v in module.outline_box(q)), label) for q in quads]


@needs_photos
def test_a_king_on_a_beige_floor_has_an_outline_only_when_trimmed():
    untrimmed = replace(LEARNED_SETTINGS, trim_spurs=0.0, learned=False)
    assert max(_matching("train_IMG_2507", untrimmed)) < 0.5
    assert max(_matching("train_IMG_2507", replace(LEARNED_SETTINGS, learned=False))) >= 0.5


@needs_photos
def test_a_king_on_a_beige_floor_is_found():
    s = score("train_IMG_2507", DetectSettings(real=LEARNED_SETTINGS))
    assert (s.isolated_found, s.false) == (1, 0)
