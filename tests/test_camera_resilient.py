"""A camera that goes away is reported "lost", the service keeps going, and the camera
is reopened with back-off; `--camera auto` picks picamera2, then USB, then the sim."""
from __future__ import annotations

import itertools
import threading
import time

import cv2
import numpy as np
import pytest

from device.camera.auto import choose_auto, open_source, parse_spec
from device.camera.base import SourceError
from device.camera.picam import PicameraSource
from device.camera.replay import ReplaySource
from device.camera.resilient import ResilientSource
from device.camera.sim import SimSource
from device.camera.usb import UsbSource
from tests.camera_fakes import FakePicamera2


@pytest.fixture()
def short_video(tmp_path):
    path = tmp_path / "short.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 25, (160, 120))
    for i in range(3):
        writer.write(np.full((120, 160, 3), 40 * (i + 1), np.uint8))
    writer.release()
    return path


def test_a_pulled_usb_camera_is_reported_lost_and_reconnected(short_video):
    """A real VideoCapture on a 3-frame file: its end is the camera going away."""
    statuses = []
    source = ResilientSource(lambda: UsbSource(str(short_video), (160, 120)), name="usb:test",
                             size=(160, 120), on_status=lambda s, d: statuses.append((s, d)),
                             backoff_s=(0.01,))
    frames = list(itertools.islice(source.frames(), 8))
    source.close()
    assert [f.index for f in frames] == list(range(8))   # numbering goes on across reconnects
    assert [s for s, _ in statuses][:4] == ["ok", "lost", "ok", "lost"]
    assert "stopped delivering" in statuses[1][1]
    assert source.reconnects >= 2
    assert abs(float(frames[3].image.mean()) - 40) < 6   # the first picture again after reopening


def test_a_camera_that_cannot_be_opened_yet_is_lost_until_it_opens():
    attempts = []

    def opener():
        attempts.append(time.monotonic())
        if len(attempts) < 3:
            raise SourceError("usb:0: no camera opens there")
        return SimSource(None, (64, 48), realtime=False)

    statuses = []
    source = ResilientSource(opener, name="usb:0", size=(64, 48),
                             on_status=lambda s, d: statuses.append(s), backoff_s=(0.02, 0.04))
    frame = next(iter(source.frames()))
    source.close()
    assert frame.index == 0 and statuses == ["lost", "ok"] and len(attempts) == 3
    # back-off: the waits grow (0.02 s, then 0.04 s)
    assert attempts[1] - attempts[0] >= 0.015 and attempts[2] - attempts[1] >= 0.035


def test_picamera2_lost_mid_stream_is_reopened():
    opened = []

    def factory(num):
        opened.append(FakePicamera2(num, fail_after=2))
        return opened[-1]

    statuses = []
    source = ResilientSource(lambda: PicameraSource((64, 48), 30, camera_factory=factory),
                             name="picamera2:0", size=(64, 48),
                             on_status=lambda s, d: statuses.append(s), backoff_s=(0.0,))
    frames = list(itertools.islice(source.frames(), 5))
    source.close()
    assert len(frames) == 5 and len(opened) == 3
    assert all(cam.closed for cam in opened)
    assert statuses[:3] == ["ok", "lost", "ok"]


def test_close_during_back_off_returns_promptly():
    source = ResilientSource(lambda: (_ for _ in ()).throw(SourceError("busy")), name="usb:0",
                             size=(64, 48), backoff_s=(30.0,))
    done = threading.Event()

    def consume():
        list(source.frames())
        done.set()

    threading.Thread(target=consume, daemon=True).start()
    time.sleep(0.05)
    start = time.monotonic()
    source.close()
    assert done.wait(2) and time.monotonic() - start < 1


def test_a_replay_that_ends_ends_the_resilient_source(tmp_path, short_video):
    source = ResilientSource(lambda: ReplaySource(short_video, (160, 120), realtime=False),
                             name="replay", size=(160, 120))
    assert len(list(source.frames())) == 3


def test_auto_prefers_the_pi_camera_then_usb_then_the_sim():
    pi_cam = choose_auto(is_pi=lambda: True, cameras=FakePicamera2.global_camera_info, usb_works=lambda: True)
    assert pi_cam[0] == "picam" and "imx708" in pi_cam[1]
    pi_without_camera = choose_auto(is_pi=lambda: True, cameras=lambda: [], usb_works=lambda: True)
    assert pi_without_camera[0] == "usb:0"
    laptop = choose_auto(is_pi=lambda: False, cameras=lambda: pytest.fail("not on a Pi"), usb_works=lambda: False)
    assert laptop == ("sim", "sim: no camera found, showing the simulated table")


def test_auto_on_this_machine_says_what_it_chose():
    source, why = open_source("auto", (64, 48), realtime=False, chooser=lambda: ("sim", "sim: chosen"))
    assert isinstance(source, SimSource) and why == "sim: chosen"


def test_open_source_wraps_live_cameras_and_opens_files(short_video):
    usb, why = open_source(f"usb:{short_video}", (160, 120))
    assert isinstance(usb, ResilientSource) and "reconnects" in why
    usb.close()
    pic, _ = open_source("picam", (64, 48), camera_factory=FakePicamera2)
    assert isinstance(pic, ResilientSource)
    assert next(iter(pic.frames())).image.shape == (48, 64, 3)
    pic.close()
    replay, why = open_source(f"replay:{short_video}", (160, 120))
    assert isinstance(replay, ReplaySource) and "25 frames/s" in why


@pytest.mark.parametrize("spec, message", [
    ("webcam", "unknown camera 'webcam'"),
    ("replay", "replay needs a path"),
    ("sim:3", "sim takes no argument"),
    ("picam:x", "picam:N needs a camera number"),
])
def test_bad_camera_specs_are_refused_in_words(spec, message):
    with pytest.raises(ValueError, match=message):
        parse_spec(spec)
