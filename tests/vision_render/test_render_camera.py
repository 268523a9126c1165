"""What the room and the camera do to a scene: light colour, glare, noise, blur, JPEG, tilt."""
from dataclasses import replace

import cv2
import numpy as np

from vision.render.scene import Placement, SceneSpec, render_scene

BASE = SceneSpec(table="light", light="flat", card_width=0.25, card_shadows=False)
CARDS = [Placement("R3", 0.4, 0.5, 10.0), Placement("G-SWAP", 0.65, 0.5, -5.0)]


def shot(**changes):
    return render_scene("solo", CARDS, replace(BASE, **changes), np.random.default_rng(0))


def test_warm_light_is_redder_than_cool_light():
    def red_over_blue(img):
        return img[..., 2].mean() / img[..., 0].mean()
    assert red_over_blue(shot(light="warm").empty) > 1.15 * red_over_blue(shot(light="cool").empty)


def test_glare_burns_out_a_patch_and_shadow_darkens_one():
    clean = shot()
    glare = shot(glare=True, light="neutral")
    assert (glare.image.min(axis=2) == 255).mean() > 0.002
    assert (clean.image.min(axis=2) == 255).mean() == 0
    shadowed = shot(shadow=True, light="neutral")
    dark = shadowed.empty.astype(int).sum(axis=2) < 0.8 * clean.empty.astype(int).sum(axis=2)
    assert dark.mean() > 0.05


def test_noise_has_the_asked_strength():
    clean = shot().image.astype(float)
    noisy = shot(noise=6.0).image.astype(float)
    assert 4.5 < (noisy - clean).std() < 7.0


def test_blur_softens_and_jpeg_leaves_artifacts():
    sharpness = [cv2.Laplacian(cv2.cvtColor(s.image, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var()
                 for s in (shot(), shot(blur=1.5), shot(motion_blur=8.0, motion_dir_deg=30))]
    assert sharpness[1] < 0.5 * sharpness[0] and sharpness[2] < 0.5 * sharpness[0]
    clean, rough = shot().image, shot(jpeg_quality=30).image
    diff = np.abs(clean.astype(int) - rough).mean()
    assert 0.5 < diff < 10


def test_tilt_makes_the_card_a_trapezoid():
    flat = shot(tilt_deg=0).cards[0].corners
    tilted = shot(tilt_deg=35, tilt_dir_deg=90).cards[0].corners

    def edge_ratio(c):  # the larger ratio of opposite edges' lengths
        sides = [np.linalg.norm(c[(i + 1) % 4] - c[i]) for i in range(4)]
        return max(max(sides[0], sides[2]) / min(sides[0], sides[2]),
                   max(sides[1], sides[3]) / min(sides[1], sides[3]))
    assert edge_ratio(flat) < 1.001
    assert edge_ratio(tilted) > 1.05
