"""The learned reader's probabilities: a card scoring low for every taught class loses its
probability to the doubt instead of making the least unlikely class sure of itself."""
import numpy as np

from vision.reader import LinearReader


def reader(doubt):
    classes = np.array([0, 1, 2, -1])
    return LinearReader(classes, np.zeros(4, np.float32), np.eye(4, dtype=np.float32),
                        np.zeros(4, np.float32), 20.0, doubt)


def test_a_card_like_none_of_the_taught_ones_is_doubtful():
    unlike = np.array([0.25, 0.05, 0.0, 0.0])     # best score a quarter of a taught view's
    sure_without = reader(-np.inf).probabilities(unlike)
    with_doubt = reader(0.5).probabilities(unlike)
    assert sure_without[0] > 0.95 and abs(sure_without.sum() - 1) < 1e-6  # softmax alone: "sure"
    assert with_doubt[0] < 0.01 and with_doubt.sum() < 0.01                # the doubt takes it


def test_a_card_like_a_taught_one_keeps_its_probability():
    like = np.array([0.95, 0.1, 0.0, 0.0])
    p = reader(0.5).probabilities(like)
    assert p[0] > 0.99 and p.argmax() == 0


def test_turned_cards_score_by_their_better_orientation():
    r = reader(0.5)
    pair = np.array([[0.1, 0.0, 0.0, 0.0], [0.0, 0.9, 0.0, 0.0]], np.float32)
    scores, turned = r.scores(pair)
    assert scores[1] == np.float32(0.9) and turned[1] and not turned[0]
