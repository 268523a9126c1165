"""The learned outline scorer (`vision.outlinescore`, `RealSettings.learned`): the shipped
model loads and scores the same every time, the trace hands out what the finder refused
without changing what it finds, and on real train_ photos of ../shared/realphotos/cards-edje
the model finds a card and drops false outlines the finder's own gates do not."""
from __future__ import annotations

import json
import math

import cv2
import numpy as np
import pytest

from vision import outlinescore
from vision.detect import LEARNED_SETTINGS, PLAIN_SETTINGS, DetectSettings
from vision.realfind import find_outlines

from tests import outlinescore_reference
from tests.realphoto_helpers import PHOTOS, bench, score

LEARNED = DetectSettings(real=LEARNED_SETTINGS)
HAND = DetectSettings(real=PLAIN_SETTINGS)
needs_photos = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"the shared photos are not at {PHOTOS}")


def _table_with_card() -> tuple[np.ndarray, np.ndarray]:
    """A drawn 320 x 240 table (dark wood) with one white card holding some ink."""
    image = np.full((240, 320, 3), (40, 60, 90), np.uint8)
    card = np.float32(((100, 50), (170, 50), (170, 148), (100, 148)))
    cv2.fillConvexPoly(image, card.astype(np.int32), (235, 235, 235))
    cv2.putText(image, "A", (104, 70), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (20, 20, 20), 2)
    cv2.putText(image, "A", (150, 142), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (20, 20, 20), 2)
    cv2.circle(image, (135, 99), 10, (20, 20, 20), -1)
    return image, card


def _maps(image: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    from vision.realmaps import whiteness
    smooth = cv2.GaussianBlur(image, (3, 3), 0)
    gray = cv2.cvtColor(smooth, cv2.COLOR_BGR2GRAY)
    edges = cv2.dilate(cv2.Canny(gray, 30, 90, L2gradient=True), np.ones((3, 3), np.uint8))
    return edges, whiteness(smooth), gray


def test_the_shipped_model_loads_and_scores_the_same_every_time():
    raw = json.loads(outlinescore.MODEL.read_text(encoding="utf-8"))
    model = outlinescore.load()
    assert model.names == tuple(raw["names"]) and set(model.names) <= set(outlinescore.NAMES)
    assert len(model.weights) == len(model.mean) == len(model.scale) == len(model.names)
    assert all(math.isfinite(v) for v in model.weights) and 0 < model.threshold < 1
    assert "bench/outline_scorer.py" in raw["made"]
    image, card = _table_with_card()
    edges, white, gray = _maps(image)
    blank = np.float32(((200, 20), (300, 20), (300, 90), (200, 90)))   # bare table
    pool = [outlinescore.Considered(q, float(cv2.contourArea(q))) for q in (card, blank)]
    first = model.chances(outlinescore.features(pool, edges, white, gray, 20.0))
    again = model.chances(outlinescore.features(pool, edges, white, gray, 20.0))
    assert np.array_equal(first, again)
    assert first[0] > model.threshold > first[1]   # the card, not the bare table
    assert outlinescore.accepted([c.quad for c in pool], first, model.threshold) == [0]


def test_features_have_one_column_a_name_and_none_for_no_outline():
    image, card = _table_with_card()
    edges, white, gray = _maps(image)
    row = outlinescore.features([outlinescore.Considered(card, float(cv2.contourArea(card)))], edges, white, gray,
                                20.0)
    assert row.shape == (1, len(outlinescore.NAMES)) and np.isfinite(row).all()
    named = dict(zip(outlinescore.NAMES, row[0]))
    assert named["share"] > 0.9 and named["paper"] > 0.5 and named["unlike"] < 0.1 and named["border"] == 0
    assert outlinescore.features([], edges, white, gray, 20.0).shape == (0, len(outlinescore.NAMES))


def test_features_are_the_first_versions_bit_for_bit_off_the_frame_and_turned_too():
    image, card = _table_with_card()
    edges, white, gray = _maps(image)
    turned = cv2.boxPoints(((200.0, 120.0), (60.0, 84.0), 33.0)).astype(np.float32)
    off = np.float32(((-20, 150), (40, 140), (55, 250), (-5, 262)))   # runs off the frame's corner
    pool = [outlinescore.Considered(q, float(cv2.contourArea(q))) for q in (card, turned, off, card[::-1].copy())]
    for kept in (0, 1, 4):
        assert np.array_equal(outlinescore.features(pool, edges, white, gray, 20.0, kept=kept),
                              outlinescore_reference.features(pool, edges, white, gray, 20.0, kept=kept))


@needs_photos
@pytest.mark.parametrize("name", ["train_IMG_2621", "train_IMG_2635", "train_IMG_2504", "train_IMG_2572"])
def test_features_are_the_first_versions_bit_for_bit_on_real_frames(name):
    # every outline the finder kept or refused, at the working size and made 640x480
    photo = cv2.imread(str(PHOTOS / "images" / f"{name}.jpg"), cv2.IMREAD_COLOR)
    for frame in (photo, bench().as_640x480(photo)):
        trace: list = []
        find_outlines(frame, LEARNED_SETTINGS, trace)
        (t,) = trace
        pool = [outlinescore.Considered(q, float(cv2.contourArea(q))) for q in t.kept] + t.considered
        assert len(pool) >= 3
        args = (pool, t.edges, t.white, t.gray, LEARNED_SETTINGS.min_short_side, LEARNED_SETTINGS.min_step,
                LEARNED_SETTINGS.paper, len(t.kept))
        assert np.array_equal(outlinescore.features(*args), outlinescore_reference.features(*args))


def test_accepted_takes_the_surest_first_and_no_box_twice():
    a = np.float32(((0, 0), (10, 0), (10, 14), (0, 14)))
    quads = [a, a + 1, a + 50]
    assert outlinescore.accepted(quads, np.array([0.5, 0.9, 0.05]), 0.1) == [1]
    assert outlinescore.accepted(quads, np.array([0.5, 0.9, 0.3]), 0.1) == [1, 2]


def test_a_strip_beside_a_card_is_taken_by_the_quads_overlap_when_sure_enough():
    # a card turned 30 degrees and the strip of a card under it along its side: their boxes
    # overlap by more than 0.3 of the smaller, their quads hardly at all
    top = cv2.boxPoints(((100.0, 100.0), (63.0, 88.0), 30.0)).astype(np.float32)
    a, b = top[1], top[2]
    out = np.float32((a - b)[::-1] * (1, -1)) / np.linalg.norm(a - b)
    out *= 1 if np.dot(out, a - top.mean(axis=0)) > 0 else -1     # away from the card
    strip = np.float32((a, b, b + 30 * out, a + 30 * out))
    quads = [top, strip, top + 2]   # the last: the top card again, a pixel or two off
    assert outlinescore.box_overlap(*outlinescore._boxes([top, strip])) >= 0.3
    assert outlinescore.quad_overlap(top, strip) < 0.05 and outlinescore.quad_overlap(top, top + 2) > 0.9
    sure = np.array([0.9, 0.6, 0.5])
    assert outlinescore.accepted(quads, sure, 0.1) == [0]                            # the boxes: the strip dropped
    assert outlinescore.accepted(quads, sure, 0.1, 0.3, True, 0.4) == [0, 1]         # the quads: kept, the copy not
    assert outlinescore.accepted(quads, np.array([0.9, 0.3, 0.5]), 0.1, 0.3, True, 0.4) == [0]   # not sure enough
    far = top + 300
    assert outlinescore.accepted([top, far], np.array([0.9, 0.2]), 0.1, 0.3, True, 0.4) == [0, 1]   # apart: 0.1 does


def test_the_shipped_model_measures_overlap_on_the_quads():
    model = outlinescore.load()
    assert model.by_quad and model.overlap == 0.3 and model.threshold < model.beside < 1


@needs_photos
def test_the_strip_of_a_card_under_another_is_found_by_the_model():
    # two overlapping cards: main's model (boxes' overlap) took only the top one
    assert score("train_IMG_2630", LEARNED).found == score("train_IMG_2630", HAND).found == 2


@needs_photos
def test_the_trace_hands_out_the_refused_outlines_and_changes_nothing_found():
    image = cv2.imread(str(PHOTOS / "images" / "train_IMG_2548.jpg"), cv2.IMREAD_COLOR)
    trace: list = []
    traced = find_outlines(image, PLAIN_SETTINGS, trace)
    plain = find_outlines(image, PLAIN_SETTINGS)
    assert len(traced) == len(plain) and all(np.array_equal(a, b) for a, b in zip(traced, plain))
    (t,) = trace
    assert t.considered and len(t.kept) == len(plain) and t.white.shape == t.edges.shape == t.gray.shape
    assert all(t.sizes[0] <= c.area <= t.sizes[1] for c in t.considered)


@needs_photos
def test_a_card_the_gates_refuse_is_found_by_the_model():
    before = score("train_IMG_2548", HAND)   # a card on a light tabletop, its outline refused
    after = score("train_IMG_2548", LEARNED)
    assert before.isolated_found == 0 and after.isolated_found == after.isolated == 1
    assert after.false <= before.false


@needs_photos
@pytest.mark.parametrize("name", ["train_IMG_2478", "train_IMG_2556"])
def test_false_outlines_the_gates_keep_are_dropped_by_the_model(name):
    before = score(name, HAND)
    after = score(name, LEARNED)
    assert after.isolated_found == before.isolated_found == 1
    assert after.false < before.false


def test_context_counts_the_finders_cards_a_group_holds_and_compares_sizes():
    card = np.float32(((0, 0), (63, 0), (63, 88), (0, 88)))
    cards = [card + (10, 10), card + (60, 12)]            # two cards side by side, the finder's own
    group = np.float32(((8, 8), (125, 8), (125, 102), (8, 102)))   # one outline round both
    piece = np.float32(((200, 10), (232, 10), (232, 54), (200, 54)))   # a quarter of a card, apart
    quads = np.array(cards + [group, piece], np.float32)
    areas = np.array([cv2.contourArea(q) for q in quads], np.float64)
    rel, holds = outlinescore._context(quads, areas, 2)
    assert holds.tolist() == [0, 0, 2, 0]
    assert rel[0] == rel[1] == 0.0 and rel[2] > 0.6 and abs(rel[3] - math.log(areas[3] / areas[0])) < 1e-12
    assert [v.tolist() for v in outlinescore._context(quads, areas, 0)] == [[0.0] * 4, [0.0] * 4]   # none kept


def test_features_see_the_finders_own_outlines_only_through_kept():
    image, card = _table_with_card()
    edges, white, gray = _maps(image)
    group = np.float32(((90, 40), (250, 40), (250, 160), (90, 160)))
    pool = [outlinescore.Considered(q, float(cv2.contourArea(q))) for q in (card, group)]
    named = [dict(zip(outlinescore.NAMES, row)) for row in outlinescore.features(pool, edges, white, gray, 20.0,
                                                                                 kept=1)]
    assert named[1]["holds_kept"] == 1 and named[0]["holds_kept"] == 0 and named[0]["rel_kept"] == 0
    assert named[0]["corner_min"] > 0 and named[0]["edge_grid"] > 0       # ink in both index corners, print inside
    alone = outlinescore.features(pool, edges, white, gray, 20.0)
    assert alone[1, outlinescore.NAMES.index("holds_kept")] == 0


def test_trees_add_their_leaves():
    trees = outlinescore.Trees(0.5, np.array([[0, 1, 1], [1, 0, 0]], np.intp),
                               np.array([[0.5, 0.2, 0.8], [0.3, 0.1, 0.9]]),
                               np.array([[1.0, 2.0, 3.0, 4.0], [10.0, 20.0, 30.0, 40.0]]))
    x = np.array([[0.0, 0.0], [0.0, 0.5], [0.9, 0.5], [0.9, 0.95], [0.95, 0.4]])
    # tree 1: x0 > 0.5 ? (x1 > 0.8 ? 4 : 3) : (x1 > 0.2 ? 2 : 1)
    # tree 2: x1 > 0.3 ? (x0 > 0.9 ? 40 : 30) : (x0 > 0.1 ? 20 : 10)
    assert trees.scores(x).tolist() == [0.5 + 1 + 10, 0.5 + 2 + 30, 0.5 + 3 + 30, 0.5 + 4 + 30, 0.5 + 3 + 40]


def test_the_shipped_model_is_the_mean_of_trees_and_the_logistic_over_the_context_too():
    model = outlinescore.load()
    assert model.trees is not None and 0 < model.blend < 1
    assert {"edge_grid", "corner_min", "rel_kept", "holds_kept"} <= set(model.names)
    assert model.trees.columns.max() < len(outlinescore.NAMES)
    image, card = _table_with_card()
    edges, white, gray = _maps(image)
    features = outlinescore.features([outlinescore.Considered(card, float(cv2.contourArea(card)))], edges, white,
                                     gray, 20.0, kept=1)
    z = ((features[:, model.columns] - model.mean) / model.scale) @ model.weights + model.bias
    mean = (1 - model.blend) / (1 + np.exp(-z)) + model.blend / (1 + np.exp(-model.trees.scores(features)))
    assert np.allclose(model.chances(features), mean)


@needs_photos
@pytest.mark.parametrize("name", ["train_IMG_2473", "train_IMG_2493", "train_cam_image24"])
def test_false_outlines_the_first_model_took_are_dropped(name):
    # a patch of a red box's corner, a blank sheet of paper on a carpet, a patch of wood
    # grain beside the card: the 21-feature logistic model took each as a card
    after = score(name, LEARNED)
    assert after.isolated_found == after.isolated == 1 and after.false == 0


def test_the_shipped_trees_score_as_each_tree_walked_alone():
    trees = outlinescore.load().trees
    rows = np.random.default_rng(7).normal(0.5, 1.0, (40, len(outlinescore.NAMES)))
    walked = []
    for x in rows:
        z = trees.base
        for (root, left, right), (t0, t1, t2), leaves in zip(trees.columns, trees.thresholds, trees.leaves):
            z += leaves[2 + int(x[right] > t2)] if x[root] > t0 else leaves[int(x[left] > t1)]
        walked.append(z)
    assert np.allclose(trees.scores(rows), walked, rtol=0, atol=1e-9)


def test_a_group_of_two_cards_holding_a_sure_card_gives_way_to_it():
    # a fan of two cards taken as one outline (train_IMG_2603, 2649: 0.97 out of fold) and the
    # top card inside it (0.95 / 0.96): the card holds no card, so the card is taken, not the group
    card = cv2.boxPoints(((100.0, 100.0), (63.0, 88.0), 0.0)).astype(np.float32)
    group = np.float32(((68, 56), (160, 56), (160, 144), (68, 144)))   # the card and one beside it
    assert 0.25 <= cv2.contourArea(card) / cv2.contourArea(group) <= 0.8
    assert outlinescore.quad_overlap(group, card) >= outlinescore.HELD_INSIDE
    sure = np.array([0.97, 0.95])
    assert outlinescore.accepted([group, card], sure, 0.15, 0.3, True, 0.4) == [0]            # before: the group
    assert outlinescore.accepted([group, card], sure, 0.15, 0.3, True, 0.4, 0.9) == [1]       # now: the card
    # a card holding its own half, less sure than `held` (train_IMG_2393's half: 0.86), stays
    half = np.float32(((69, 56), (131, 56), (131, 100), (69, 100)))
    assert outlinescore.accepted([card, half], np.array([0.92, 0.86]), 0.15, 0.3, True, 0.4, 0.9) == [0]
    # a card beside another (not inside it) changes nothing
    beside = card + np.float32((70, 0))
    assert outlinescore.accepted([card, beside], np.array([0.97, 0.95]), 0.15, 0.3, True, 0.4, 0.9) == [0, 1]


def test_the_shipped_model_lets_no_group_hold_a_card():
    model = outlinescore.load()
    assert model.held == 0.9 and model.threshold < model.held < 1


def test_a_sheet_lying_apart_far_larger_than_a_surer_card_is_not_taken():
    # a notepad or a postcard beside a lone card (train_IMG_2494, 2500, 2521: 0.84-0.95 out of
    # fold beside a card at 0.97-1.00): the cards of a photo lie at about one distance from the
    # camera, so an outline lying apart 2.2 times (log 0.8) larger than every surer card is not one
    card = cv2.boxPoints(((100.0, 100.0), (63.0, 88.0), 0.0)).astype(np.float32)
    sheet = cv2.boxPoints(((300.0, 120.0), (110.0, 150.0), 0.0)).astype(np.float32)   # 3 times the card
    chances = np.array([0.99, 0.92])
    off = np.zeros(2, bool)
    assert outlinescore.accepted([card, sheet], chances, 0.15, 0.3, True, 0.4, 0.9) == [0, 1]            # before
    assert outlinescore.accepted([card, sheet], chances, 0.15, 0.3, True, 0.4, 0.9, 0.8, off) == [0]      # now
    # the surest stays whatever its size: the sheet surer than the card keeps it, the card too
    assert outlinescore.accepted([card, sheet], chances[::-1], 0.15, 0.3, True, 0.4, 0.9, 0.8, off) == [1, 0]
    # a sure card under 0.9 judges nothing, nor one on the frame's border (perhaps cut: smaller
    # than it is); the sheet on the border is judged (cut, it would be larger still)
    assert outlinescore.accepted([card, sheet], np.array([0.85, 0.6]), 0.15, 0.3, True, 0.4, 0.9, 0.8, off) == [0, 1]
    assert outlinescore.accepted([card, sheet], chances, 0.15, 0.3, True, 0.4, 0.9, 0.8,
                                 np.array([True, False])) == [0, 1]
    assert outlinescore.accepted([card, sheet], chances, 0.15, 0.3, True, 0.4, 0.9, 0.8,
                                 np.array([False, True])) == [0]
    # a card looking smaller (cut, covered, farther) stays: only the far larger are doubted
    small = cv2.boxPoints(((300.0, 120.0), (30.0, 42.0), 0.0)).astype(np.float32)
    assert outlinescore.accepted([card, small], chances, 0.15, 0.3, True, 0.4, 0.9, 0.8, off) == [0, 1]
    # a card of a pile (its box overlapping another taken one's) judges nothing: the sheet
    # stays beside the card when it is the card that lies under the strip of another
    strip = cv2.boxPoints(((100.0, 170.0), (60.0, 80.0), 0.0)).astype(np.float32)
    assert outlinescore.accepted([card, sheet, strip], np.array([0.99, 0.92, 0.5]), 0.15, 0.3, True, 0.4, 0.9,
                                 0.8, np.zeros(3, bool)) == [0, 1, 2]
    # a second card of the card's size stays
    twin = card + np.float32((150, 0))
    assert outlinescore.accepted([card, twin], chances, 0.15, 0.3, True, 0.4, 0.9, 0.8, off) == [0, 1]


def test_the_shipped_model_doubts_an_outline_far_larger_than_its_cards():
    model = outlinescore.load()
    assert model.apart == 0.8 and outlinescore.SIZED_SURE == 0.9


@needs_photos
@pytest.mark.parametrize("name", ["train_IMG_2494", "train_IMG_2500"])
def test_a_postcard_or_notepad_beside_a_card_is_dropped(name):
    # a postcard of a car service (2494) and a notepad of a school (2500) beside a lone card:
    # main's code took each (in sample too), 1 false outline
    after = score(name, LEARNED)
    assert after.isolated_found == after.isolated == 1 and after.false == 0
