"""Teaching a deck live from the camera page, and zones saved from the calibration page."""
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from device.app import Appliance, RunOptions
from device.config import Config, load_config
from device.live_teaching import ENOUGH, LiveTeacher
from web.words import english
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
    assert first["ok"] and first["cards"] == 1 and "Learned 7" in english(first["message"])
    second = teacher("12", frame_with("12", 1))
    assert second["ok"] and second["cards"] == 2 and "background" in english(second["message"])
    assert teacher.wait(300)
    profile = load_profile_file(Path(second["profile"]))
    assert set(profile.labels) == {"7", "12"}
    assert english(teacher.status()["check"][0]).startswith("Self-check")


class SlidingTable:
    """The simulated table while a host slides a row of cards: every look at the camera
    gives the next frame (as the vision loop's `latest` would)."""

    def __init__(self, codes, seed=3):
        from vision.render.teaching import empty_of, sliding_row
        self.render = sliding_row("solo", codes, "alt", seed)
        self.empty = empty_of("solo", seed)
        self.index = 0

    def latest(self):
        self.index += 1
        return LatestFrame(self.render(self.index), self.index, self.index, None, None)


def test_a_row_of_cards_slid_under_the_camera_is_taught_live(tmp_path):
    from vision.pipeline import Recognizer
    from vision.profile import load_profile_file
    from vision.render.teaching import empty_of, sliding_row
    codes = ["R7", "G-MISS", "B2"]
    table = SlidingTable(codes)
    teacher = LiveTeacher(tmp_path / "taught.npz")
    status = teacher.start(["Red 7", "Green miss", "Blue 2"], table.latest, lambda: table.empty)
    assert status["collecting"] == ["Red 7", "Green miss", "Blue 2"]
    assert teacher.wait(600)
    status = teacher.status()
    assert [f["shots"] for f in status["faces"]] == [ENOUGH] * 3 and all(f["enough"] for f in status["faces"])
    assert not status["training"] and status["progress"] == 1.0
    assert "held-out" in english(status["check"][0])     # an honest check: shots kept out of training
    profile = load_profile_file(tmp_path / "taught.npz")
    # a frame not used in teaching (another stretch of the slide) reads right
    frame = sliding_row("solo", codes, "alt", 3)(200)
    reading = Recognizer.create(profile, empty_of("solo", 3)).read(frame)
    read = [c.label for c in sorted(reading.cards, key=lambda c: c.centre[0])]
    assert read == ["Red 7", "Green miss", "Blue 2"]


def test_a_frame_without_a_card_teaches_nothing_and_says_why(tmp_path):
    teacher = LiveTeacher(tmp_path / "taught.npz")
    empty = LatestFrame(np.full((480, 640, 3), (40, 110, 30), np.uint8), 0, 0, None, None)
    answer = teacher("7", empty)
    assert not answer["ok"] and english(answer["message"]).startswith("7 was not learned: no card found")
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
