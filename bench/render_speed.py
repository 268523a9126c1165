"""How fast the renderer draws cards, scenes and clips (prints ms per item).

Run: .venv/bin/python bench/render_speed.py [n_scenes_per_game]
"""
from __future__ import annotations

import sys
import time

import numpy as np

from vision.render.cards import GAMES, card_face, deck_codes, draw_face
from vision.render.scene import distractor_scene, random_scene, random_table, spread_scene
from vision.render.sequence import card_landing_sequence


def timed(label: str, n: int, fn) -> None:
    t, c = time.perf_counter(), time.process_time()
    for i in range(n):
        fn(i)
    dt = (time.perf_counter() - t) / n * 1000
    dc = (time.process_time() - c) / n * 1000
    print(f"{label:<52} {dt:8.2f} ms wall {dc:8.2f} ms cpu  (n={n})")


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
            timed(f"random_scene {game} {difficulty}, new table each", n,
                  lambda i: random_scene(game, rng, difficulty=difficulty))
    for difficulty in ("default", "hard"):
        for game in GAMES:
            rng = np.random.default_rng(1)
            tables = {}

            def on_table(i):
                if i // 50 not in tables:
                    tables[i // 50] = random_table(rng, difficulty)
                random_scene(game, rng, difficulty=difficulty, table=tables[i // 50])
            timed(f"random_scene {game} {difficulty}, a table per 50", n, on_table)
    rng = np.random.default_rng(2)
    timed("distractor_scene", n // 3, lambda i: distractor_scene(rng))
    timed("spread_scene, 15 cards", n // 3,
          lambda i: spread_scene("raj", deck_codes("raj")[:15], rng))
    rng = np.random.default_rng(3)
    frames = []
    t, c = time.perf_counter(), time.process_time()
    for _ in range(20):
        frames.append(len(card_landing_sequence("solo", "R7", rng)))
    dt = (time.perf_counter() - t) / sum(frames) * 1000
    dc = (time.process_time() - c) / sum(frames) * 1000
    print(f"{'card_landing_sequence, per frame':<52} {dt:8.2f} ms wall {dc:8.2f} ms cpu  "
          f"({sum(frames)} frames)")
    print("(2000 scenes take 2000 x the ms above; wall figures grow with the machine's load)")


if __name__ == "__main__":
    main()
