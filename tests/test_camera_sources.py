"""Every camera source goes through the same contract checks: BGR frames of the asked
size, monotonic timestamps, consecutive indexes, the pictures in order, close() ends
them. picamera2 is a stand-in with its API shape; USB is a real cv2.VideoCapture on a
video file written here with cv2.VideoWriter."""
from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.camera.base import CameraLost, Frame, FrameSource, SourceError, to_bgr
from device.camera.picam import PicameraSource
from device.camera.replay import ReplaySource
from device.camera.sim import SimSource
from device.camera.usb import UsbSource
from tests.camera_fakes import FakePicamera2

SIZE = (640, 480)
N = 6


def grey(i: int) -> int:
    return 20 + 30 * i


def numbered_picture(i: int, size=(320, 240)) -> np.ndarray:
    return np.full((size[1], size[0], 3), grey(i), np.uint8)


@pytest.fixture(scope="module")
def recordings(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("recordings")
    video = root / "table.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 25, (320, 240))
    assert writer.isOpened()
    for i in range(N):
        writer.write(numbered_picture(i))
    writer.release()
    folder = root / "frames"
    folder.mkdir()
    for i in range(N):
        cv2.imwrite(str(folder / f"frame{i:03d}.png"), numbered_picture(i))
    (folder / "notes.txt").write_text("not an image")
    return {"video": video, "folder": folder}


def make_source(kind: str, recordings: dict[str, Path], cameras: list) -> tuple[FrameSource, bool]:
    """(source, whether its pictures are the numbered greys)."""
    if kind == "picam":
        def factory(num):
            cam = FakePicamera2(num)
            cameras.append(cam)
            return cam
        return PicameraSource(SIZE, 30, camera_factory=factory), False
    if kind == "usb":
        return UsbSource(str(recordings["video"]), SIZE), True
    if kind == "replay-folder":
        return ReplaySource(recordings["folder"], SIZE, realtime=False), True
    if kind == "replay-video":
        return ReplaySource(recordings["video"], SIZE, realtime=False), True
    if kind == "sim":
        return SimSource(lambda i: numbered_picture(i), SIZE, realtime=False), True
    raise AssertionError(kind)


@pytest.mark.parametrize("kind", ["picam", "usb", "replay-folder", "replay-video", "sim"])
def test_every_source_keeps_the_contract(kind, recordings):
    cameras: list = []
    source, numbered = make_source(kind, recordings, cameras)
    assert isinstance(source, FrameSource)
    assert source.size == SIZE and source.name
    before = time.monotonic_ns()
    frames = list(itertools.islice(source.frames(), N))
    after = time.monotonic_ns()
    assert [f.index for f in frames] == list(range(N))
    times = [f.t_ns for f in frames]
    assert times == sorted(times) and before <= times[0] and times[-1] <= after
    for i, frame in enumerate(frames):
        assert isinstance(frame, Frame)
        assert frame.image.shape == (480, 640, 3) and frame.image.dtype == np.uint8
        if numbered:  # the pictures come out in order, resized, intact
            assert abs(float(frame.image.mean()) - grey(i)) < 6, (i, frame.image.mean())
    source.close()
    source.close()  # twice is harmless
    assert list(itertools.islice(source.frames(), 1)) == []


def test_picamera2_is_configured_for_low_latency_video_at_the_working_size():
    cams: list[FakePicamera2] = []
    source = PicameraSource((640, 480), 30, camera_factory=lambda n: cams.append(FakePicamera2(n)) or cams[-1])
    cam = cams[0]
    name, args = cam.calls[0]
    assert name == "create_video_configuration"
    assert args["main"] == {"size": (640, 480), "format": "RGB888"}
    assert args["buffer_count"] <= 3
    assert [c[0] for c in cam.calls] == ["create_video_configuration", "configure", "start"]
    assert cam.calls[2][1]["show_preview"] is False
    frame = next(iter(source.frames()))
    # RGB888 arrays are B, G, R bytes already: no channel swap on the way to OpenCV.
    assert frame.image[0, 0, 0] == 200 and frame.image[0, 0, 1] == 0
    assert "imx708" in source.name
    source.close()
    assert cam.closed and not cam.started


def test_picamera2_that_cannot_be_acquired_is_a_clear_source_error():
    with pytest.raises(SourceError, match="picamera2 camera 0 cannot be opened: .*busy"):
        PicameraSource((640, 480), 30, camera_factory=lambda n: FakePicamera2(n, fail_open=True))


def test_picamera2_failing_mid_stream_is_camera_lost():
    source = PicameraSource((640, 480), 30, camera_factory=lambda n: FakePicamera2(n, fail_after=2))
    frames = source.frames()
    next(frames), next(frames)
    with pytest.raises(CameraLost, match="timed out"):
        next(frames)


def test_a_usb_camera_that_does_not_open_says_so():
    with pytest.raises(SourceError, match="usb:/nonexistent/video9: no camera opens there"):
        UsbSource("/nonexistent/video9", SIZE)


def test_a_usb_camera_that_stops_delivering_is_camera_lost(recordings):
    source = UsbSource(str(recordings["video"]), SIZE)
    with pytest.raises(CameraLost, match="stopped delivering"):
        for _ in source.frames():
            pass


def test_replay_errors_name_the_problem(tmp_path):
    with pytest.raises(SourceError, match="no such file or folder"):
        ReplaySource(tmp_path / "missing.avi")
    with pytest.raises(SourceError, match="the folder has no images"):
        ReplaySource(tmp_path)
    bad = tmp_path / "bad.avi"
    bad.write_bytes(b"not a video at all")
    with pytest.raises(SourceError, match="OpenCV cannot read"):
        ReplaySource(bad)


def test_replay_of_a_video_plays_at_its_own_frame_rate(recordings):
    source = ReplaySource(recordings["video"], SIZE)  # written at 25 frames/s
    assert source.fps == 25
    frames = list(source.frames())
    assert len(frames) == N
    span_s = (frames[-1].t_ns - frames[0].t_ns) / 1e9
    assert span_s >= (N - 1) / 25 * 0.9


def test_replay_can_loop(recordings):
    source = ReplaySource(recordings["folder"], SIZE, realtime=False, loop=True)
    frames = list(itertools.islice(source.frames(), 2 * N))
    assert [f.index for f in frames] == list(range(2 * N))
    assert abs(float(frames[N].image.mean()) - grey(0)) < 6


def test_sim_passes_the_frame_number_to_the_renderer_and_fits_the_size():
    seen = []

    def render(i):
        seen.append(i)
        return np.zeros((100, 200), np.uint8)  # grey, wrong size: fitted

    frames = list(SimSource(render, (320, 240), realtime=False, limit=3).frames())
    assert seen == [0, 1, 2] and all(f.image.shape == (240, 320, 3) for f in frames)


def test_sim_paces_to_its_frame_rate():
    source = SimSource(None, (160, 120), fps=50)
    start = time.monotonic()
    list(itertools.islice(source.frames(), 6))
    assert time.monotonic() - start >= 5 / 50 * 0.9


def test_close_from_another_thread_ends_a_running_source():
    source = SimSource(None, (160, 120), fps=100)
    got = []
    thread = threading.Thread(target=lambda: got.extend(source.frames()))
    thread.start()
    time.sleep(0.1)
    source.close()
    thread.join(timeout=2)
    assert not thread.is_alive() and got


def test_to_bgr_converts_grey_and_bgra():
    assert to_bgr(np.zeros((10, 20), np.uint8), (20, 10)).shape == (10, 20, 3)
    assert to_bgr(np.zeros((10, 20, 4), np.uint8), (40, 20)).shape == (20, 40, 3)
    assert to_bgr(np.full((4, 4, 3), 300.0), (4, 4)).max() == 255
