"""How fast the renderer draws cards, scenes and clips (prints ms per item).

Run: .venv/bin/python bench/render_speed.py [n_scenes_per_game]
"""
from __future__ import annotations

import sys
import time

import numpy as np

from vision.render.cards import GAMES, card_face, deck_codes, draw_face
from vision.render.scene import distractor_scene, random_scene, spread_scene
from vision.render.sequence import card_landing_sequence


def timed(label: str, n: int, fn) -> None:
    t = time.perf_counter()
    for i in range(n):
        fn(i)
    dt = (time.perf_counter() - t) / n * 1000
    print(f"{label:<44} {dt:8.2f} ms  (n={n})")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    codes = deck_codes("solo")
    timed("card face, drawn (200x280)", len(codes), lambda i: draw_face("solo", codes[i]))
    timed("card face, cached", 10000, lambda i: card_face("solo", codes[i % len(codes)]))
    for game in GAMES:  # warm the caches: faces, table textures, noise
        for i in range(30):
            random_scene(game, np.random.default_rng(10_000 + i), difficulty="hard")
    for difficulty in ("default", "hard"):
        for game in GAMES:
            rng = np.random.default_rng(1)
            t = time.perf_counter()
            for _ in range(n):
                random_scene(game, rng, difficulty=difficulty)
            dt = time.perf_counter() - t
            print(f"random_scene {game:<10} {difficulty:<7} 640x480  {dt / n * 1000:8.2f} ms  "
                  f"(n={n}; 2000 scenes = {dt / n * 2000:.1f} s)")
    rng = np.random.default_rng(2)
    timed("distractor_scene", n // 3, lambda i: distractor_scene(rng))
    timed("spread_scene, 15 cards", n // 3,
          lambda i: spread_scene("raj", deck_codes("raj")[:15], rng))
    rng = np.random.default_rng(3)
    frames = []
    t = time.perf_counter()
    for _ in range(20):
        frames.append(len(card_landing_sequence("solo", "R7", rng)))
    dt = time.perf_counter() - t
    print(f"card_landing_sequence, per frame               {dt / sum(frames) * 1000:8.2f} ms  "
          f"({sum(frames)} frames)")


if __name__ == "__main__":
    main()
