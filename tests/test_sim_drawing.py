"""The simulated table draws its frames for less (`vision.render.live.LiveTable`) but shows
what `compose` shows: the same scene, light and noise, within a grey level a pixel."""
from __future__ import annotations

import copy

import numpy as np

from device.simtable import SimScene
from vision.pipeline import changed, thumbnail
from vision.render.live import LiveTable
from vision.render.scene import SceneSpec, set_table
from vision.render.stage import Placement, compose


def _state(scene: SimScene):
    with scene._lock:
        return [p for pile in scene._piles.values() for p in pile.placements], \
            [scene._hand] if scene._hand is not None else []


def _as_compose_draws(scene: SimScene) -> tuple[np.ndarray, np.ndarray]:
    """The scene's next frame, and `compose`'s picture of the same scene with the same noise."""
    placements, hands = _state(scene)
    rng = copy.deepcopy(scene._frame_rng)
    return scene.render(), compose(scene._table, scene.game, placements, rng, hands).image


def test_every_frame_of_the_simulated_table_is_composes_picture_within_a_grey_level():
    scene = SimScene("flip7", seed=5)
    steps = [lambda: None, lambda: scene.reach("discard"), lambda: None,
             lambda: scene.lay("discard", "7"), lambda: scene.withdraw(), lambda: None,
             lambda: scene.lay("discard", "3"), lambda: scene.clear("discard")]
    for step in steps:
        step()
        frame, composed = _as_compose_draws(scene)
        assert frame.dtype == np.uint8 and frame.shape == composed.shape
        assert int(np.abs(frame.astype(int) - composed.astype(int)).max()) <= 1


def test_a_scene_that_did_not_change_is_seen_with_new_noise_each_frame():
    scene = SimScene("solo", seed=2)
    scene.lay("discard", "Y9")
    first, second = scene.render(), scene.render()
    assert not np.array_equal(first, second)           # the sensor's noise, frame by frame
    assert not changed(thumbnail(first), thumbnail(second))   # yet a still frame to the loop


def test_highlights_keep_their_noise_below_white_as_compose_does():
    """A picture lit above white is clipped after the noise is added, not before: a
    pixel lit at 260 with noise -6 reads 254, not 249."""
    spec = SceneSpec(table="felt", light="warm", glare=True, noise=4.0, size=(320, 240))
    table = set_table(spec, np.random.default_rng(7))
    assert float(table.developed.max()) > 255   # the glare overexposes
    placements = [Placement("Y9", 0.5, 0.5, 10.0)]
    composed = compose(table, "solo", placements, np.random.default_rng(1)).image
    drawn = LiveTable(table, "solo").picture(placements, [], np.random.default_rng(1))
    assert int(np.abs(drawn.astype(int) - composed.astype(int)).max()) <= 1


def test_a_hand_worked_out_once_is_laid_over_any_picture_as_draw_hand_draws_it():
    """The simulated camera works a hand out once for all the frames it is held still in."""
    from vision.render.hands import draw_hand, hand_paint, paint_hand
    from vision.render.layout import hand_over
    from vision.render.stage import lay_out
    table = set_table(SceneSpec(table="wood", noise=2.0, size=(320, 240)), np.random.default_rng(3))
    pose = hand_over(table, np.random.default_rng(4), None, 0.5)
    paint = hand_paint(table.size, pose)
    bare = table.background
    laid = lay_out(table, "solo", [Placement("Y9", 0.45, 0.5, 15.0)], np.random.default_rng(5))[0]
    for picture in (bare, laid):
        drawn, painted = picture.copy(), picture.copy()
        mask, box = draw_hand(drawn, pose)
        assert box is not None and not np.array_equal(drawn, picture)
        assert paint_hand(painted, paint)[1] == box
        assert np.array_equal(painted, drawn)
