"""Camera benchmark at the working size (640x480): frames per second and
capture-to-array latency (from asking for the next frame to holding its BGR array) for
replay of a folder of PNGs, replay of an MJPG video, a real cv2.VideoCapture on that
video (the USB path), and the simulated table — as fast as possible — plus replay at
the video's own frame rate.

    .venv/bin/python bench/camera_bench.py [--frames N]

The recordings are written to a temporary folder first (noise-textured pictures, so
PNG and JPEG do real work).
"""
from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from device.camera.replay import ReplaySource  # noqa: E402
from device.camera.sim import SimSource, plain_table  # noqa: E402
from device.camera.usb import UsbSource  # noqa: E402

SIZE = (640, 480)


def pictures(n: int) -> list[np.ndarray]:
    rng = np.random.default_rng(1)
    base = plain_table(SIZE)(0)
    out = []
    for i in range(n):
        image = base.copy()
        noise = rng.integers(0, 24, image.shape, dtype=np.uint8)
        image = cv2.add(image, noise)
        cv2.rectangle(image, (200 + i % 50, 150), (290 + i % 50, 280), (245, 245, 245), -1)
        out.append(image)
    return out


def measure(source, frames: int) -> tuple[float, list[int]]:
    """(frames/s, per-frame capture-to-array ns)."""
    iterator = source.frames()
    waits = []
    start = time.perf_counter()
    count = 0
    for _ in range(frames):
        asked = time.perf_counter_ns()
        frame = next(iterator, None)
        if frame is None:
            break
        waits.append(time.perf_counter_ns() - asked)
        count += 1
    elapsed = time.perf_counter() - start
    source.close()
    return count / elapsed, waits


def line(name: str, fps: float, waits: list[int]) -> str:
    ordered = sorted(waits)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (f"  {name:34s} {fps:8.1f} frames/s   capture->array median {statistics.median(ordered) / 1e6:6.2f} ms,"
            f" p99 {p99 / 1e6:6.2f} ms  (n={len(ordered)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=300)
    args = parser.parse_args()
    n = args.frames
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "frames"
        folder.mkdir()
        images = pictures(n)
        for i, image in enumerate(images):
            cv2.imwrite(str(folder / f"{i:05d}.png"), image)
        video = Path(tmp) / "table.avi"
        writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 30, SIZE)
        for image in images:
            writer.write(image)
        writer.release()

        print(f"camera sources at {SIZE[0]}x{SIZE[1]}, {n} frames, as fast as possible:")
        print(line("replay: folder of PNGs", *measure(ReplaySource(folder, SIZE, realtime=False), n)))
        print(line("replay: MJPG video", *measure(ReplaySource(video, SIZE, realtime=False), n)))
        print(line("usb path: cv2.VideoCapture on video", *measure(UsbSource(str(video), SIZE), n)))
        print(line("sim: plain table renderer", *measure(SimSource(None, SIZE, realtime=False), n)))
        cycle = itertools.cycle(images)
        print(line("sim: prerendered pictures", *measure(SimSource(lambda i: next(cycle), SIZE, realtime=False), n)))
        fps, waits = measure(ReplaySource(video, SIZE), min(n, 90))
        print(line("replay paced at its own 30/s", fps, waits) + "  (the wait is the pacing)")


if __name__ == "__main__":
    main()
