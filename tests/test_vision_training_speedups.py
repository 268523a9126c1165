"""The quicker code for teaching gives the numbers of the plain code it replaced (the plain
version kept here, compared bit for bit: a training view a bit off would teach another
reader)."""
import cv2
import numpy as np

from vision.augment import _light


def plain_light(picture, side, rng):
    h, w = picture.shape[:2]
    ramp_x = (np.arange(w, dtype=np.float32) / side - 0.5) * rng.uniform(-0.4, 0.4)
    ramp_y = (np.arange(h, dtype=np.float32) / side - 0.5) * rng.uniform(-0.4, 0.4)
    tilt = 1 + ramp_y[:, None] + ramp_x[None, :]
    gains = (rng.uniform(0.7, 1.2, 3) * rng.uniform(0.45, 1.15)).astype(np.float32)
    picture = picture * gains[None, None, :] * tilt[..., None]
    gamma = rng.uniform(0.7, 1.4, 3) * rng.uniform(0.85, 1.2)
    table = (255.0 * (np.arange(256)[:, None] / 255.0) ** gamma[None, :]).astype(np.uint8)
    picture = cv2.LUT(np.clip(picture, 0, 255).astype(np.uint8), table.reshape(256, 1, 3)).astype(np.float32)
    if rng.random() < 0.3:
        cx, cy = rng.uniform(0.1, 0.9, 2) * (w, h)
        radius = rng.uniform(0.1, 0.35) * side
        gx = np.exp(-((np.arange(w, dtype=np.float32) - cx) ** 2) / (2 * radius ** 2))
        gy = np.exp(-((np.arange(h, dtype=np.float32) - cy) ** 2) / (2 * radius ** 2))
        picture += (rng.uniform(40, 160) * gy[:, None] * gx[None, :])[..., None]
    return picture


def test_a_training_views_light_is_the_plain_codes_bit_for_bit():
    pictures = np.random.default_rng(1)
    glared = 0
    for h, w in ((147, 147), (150, 153), (301, 298)):
        # values past 0..255 too: a warp's overshoot before the light is clipped
        picture = pictures.uniform(-20, 300, (h, w, 3)).astype(np.float32)
        for seed in range(15):
            quick, plain = np.random.default_rng(seed), np.random.default_rng(seed)
            a, b = _light(picture.copy(), h, quick), plain_light(picture.copy(), h, plain)
            assert a.dtype == b.dtype == np.float32 and np.array_equal(a, b), (h, w, seed)
            assert quick.random() == plain.random()     # the same draws taken
            glared += b.max() > 255
    assert glared >= 5   # the lamp's glare added in some
