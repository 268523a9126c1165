"""The quicker code of the camera loop's changed frame gives the answers of the plain code
it replaced (kept here as it was), on pictures where the two could part: noise around the
threshold, a lone changed pixel, strided cuts of a larger frame, grey and colour."""
import cv2
import numpy as np

from vision.detect import median_level
from vision.reuse import unchanged


def plain_unchanged(then, now, difference=10):
    if then.shape != now.shape or then.size == 0:
        return False
    diff = cv2.absdiff(then, now)
    if diff.ndim == 3:
        diff = diff.max(axis=2)
    return float(cv2.blur(diff, (5, 5)).max()) <= difference


def test_unchanged_answers_as_the_plain_code():
    rng = np.random.default_rng(12)
    frame = rng.integers(0, 256, (120, 160, 3)).astype(np.uint8)
    answers = set()
    for i in range(300):
        spread = int(rng.integers(1, 40))
        noisy = np.clip(frame.astype(np.int16) + rng.integers(-spread, spread + 1, frame.shape), 0, 255
                        ).astype(np.uint8)
        if i % 3 == 0:   # one pixel changed a lot on a still picture: over the bar, its blur under
            noisy = frame.copy()
            noisy[int(rng.integers(120)), int(rng.integers(160)), int(rng.integers(3))] ^= 0x80
        y, x = int(rng.integers(0, 60)), int(rng.integers(0, 80))
        then, now = frame[y:y + 50, x:x + 70], noisy[y:y + 50, x:x + 70]   # a card's box, strided
        for a, b in ((then, now), (cv2.cvtColor(then, cv2.COLOR_BGR2GRAY), cv2.cvtColor(now, cv2.COLOR_BGR2GRAY))):
            expected = plain_unchanged(a, b)
            assert unchanged(a, b) == expected
            answers.add(expected)
    assert answers == {True, False}


def test_median_level_is_numpys_median():
    rng = np.random.default_rng(3)
    for _ in range(300):
        top = int(rng.integers(1, 257))
        picture = rng.integers(0, top, (int(rng.integers(1, 60)), int(rng.integers(1, 60)))).astype(np.uint8)
        for part in (picture, picture[::4, ::4], picture[1::3, ::2]):
            if part.size:
                assert median_level(part) == float(np.median(part))
    assert np.isnan(median_level(np.zeros((0, 5), np.uint8)))
