"""The simulated table while a host teaches a deck: a row of cards laid under the camera,
slid and turned a little from frame to frame (as a hand would), for live-teaching tests
and the teaching bench."""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from vision.render.scene import SceneSpec, render_scene
from vision.render.stage import Placement


def sliding_row(game: str, codes: Sequence[str], style: str = "alt", seed: int = 0,
                spec: SceneSpec | None = None) -> Callable[[int], np.ndarray]:
    """render(index) -> frame: `codes` in a row across the table, left to right, each
    drifting and turning on its own slow path (the same frame for the same index)."""
    spec = spec or SceneSpec(table="felt", size=(640, 480), card_width=0.13, noise=2)
    n = len(codes)
    phases = np.random.default_rng(seed).uniform(0, 2 * np.pi, (n, 3))

    def render(index: int) -> np.ndarray:
        t = index * 0.35
        cards = []
        for i, code in enumerate(codes):
            x = (i + 0.5) / n + 0.25 / n * np.sin(t + phases[i, 0])
            y = 0.5 + 0.18 * np.sin(0.7 * t + phases[i, 1])
            angle = 25.0 * np.sin(0.5 * t + phases[i, 2])
            cards.append(Placement(code, float(x), float(y), float(angle)))
        # the same table, light and noise every frame: only the cards move
        return render_scene(game, cards, spec, np.random.default_rng(seed), style=style).image

    return render


def empty_of(game: str, seed: int = 0, spec: SceneSpec | None = None) -> np.ndarray:
    """The table of `sliding_row(..., seed, spec)` without the cards."""
    spec = spec or SceneSpec(table="felt", size=(640, 480), card_width=0.13, noise=2)
    return render_scene(game, [], spec, np.random.default_rng(seed)).image
