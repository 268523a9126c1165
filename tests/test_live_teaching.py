"""Teaching a deck live from the camera page, and zones saved from the calibration page."""
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from device.app import Appliance, RunOptions
from device.config import Config, load_config
from device.live_teaching import LiveTeacher
from device.vision_loop import LatestFrame
from vision.render.scene import SceneSpec, render_scene


def frame_with(code: str, seed: int = 0) -> LatestFrame:
    spec = SceneSpec(table="felt", size=(640, 480), card_width=0.2)
    scene = render_scene("flip7", [code], spec, np.random.default_rng(seed))
    return LatestFrame(scene.image, 0, 0, None, "flip7")


def test_each_card_shown_is_learned_and_the_profile_saved(tmp_path):
    from vision.profile import load_profile_file
    teacher = LiveTeacher(tmp_path / "taught.npz")
    first = teacher("7", frame_with("7"))
    assert first["ok"] and first["cards"] == 1 and "Learned 7" in first["message"]
    second = teacher("12", frame_with("12", 1))
    assert second["ok"] and second["cards"] == 2
    profile = load_profile_file(Path(second["profile"]))
    assert set(profile.labels) == {"7", "12"}


def test_a_frame_without_a_card_teaches_nothing_and_says_why(tmp_path):
    teacher = LiveTeacher(tmp_path / "taught.npz")
    empty = LatestFrame(np.full((480, 640, 3), (40, 110, 30), np.uint8), 0, 0, None, None)
    answer = teacher("7", empty)
    assert not answer["ok"] and answer["message"]
    assert not (tmp_path / "taught.npz").exists()
    with pytest.raises(ValueError, match="label"):
        teacher("  ", frame_with("7"))


def test_zones_from_the_calibration_page_are_written_to_the_config(tmp_path):
    path = tmp_path / "deckhand.toml"
    path.write_text("[camera]\nfps = 30\n")
    config = replace(Config(), source_path=path)
    Appliance(RunOptions(), config)._save_zones({"discard": [0.25, 0.2, 0.55, 0.8]})
    zone = load_config(path).zones["discard"]
    assert (zone.x, zone.y) == (0.25, 0.2)
    assert zone.w == pytest.approx(0.3) and zone.h == pytest.approx(0.6)
    assert load_config(path).camera.fps == 30
