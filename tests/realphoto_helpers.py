"""The real photographs (../shared/realphotos/cards-edje) and the benches that use them,
loaded from their files: bench/realphotos_find.py's own labels, matching and scoring,
shared by the finder's tests, and bench/realphotos_read.py's teaching draws and outlines,
shared by the reader's tests (not a test module)."""
from __future__ import annotations

import importlib.util
import sys
from functools import lru_cache
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
PHOTOS = ROOT.parent / "shared" / "realphotos" / "cards-edje"


@lru_cache(maxsize=1)
def bench():
    """bench/realphotos_find.py, loaded from its file."""
    spec = importlib.util.spec_from_file_location("realphotos_find", ROOT / "bench" / "realphotos_find.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@lru_cache(maxsize=1)
def read_bench():
    """bench/realphotos_read.py, loaded from its file."""
    spec = importlib.util.spec_from_file_location("realphotos_read", ROOT / "bench" / "realphotos_read.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def score(name: str, settings):
    """The bench's score of one photo (`name` without its folder and .jpg) found with
    `settings` (a `vision.detect.DetectSettings`)."""
    module = bench()
    labels = module.load_labels(PHOTOS)[f"images/{name}.jpg"]
    image = cv2.imread(str(PHOTOS / "images" / f"{name}.jpg"), cv2.IMREAD_COLOR)
    boxes, _, _, _ = module.find_in_photo(image, settings)
    return module.score_photo(labels, boxes)


@lru_cache(maxsize=2)
def taught_draw(seed: int = 0):
    """bench/realphotos_read.py's teaching draw `seed` (2 photos a rank) taught as the
    bench teaches it: (the bench module, its labelled cards, the profile). Taught once
    for the test modules that read with it (about half a minute; the two draws the tests
    use are both kept, so modules alternating between them do not teach again)."""
    module = read_bench()
    cards = module.load_cards(PHOTOS)
    teaching = module.teaching_draw(cards, shots=2, seed=seed)
    images = {card.file: cv2.imread(str(PHOTOS / card.file)) for card in teaching}
    profile = module.teach([(c, images[c.file]) for c in teaching], "cards-edje")[0]
    return module, cards, profile


def read_outline(file: str, outline: list, seed: int = 0) -> tuple[str, float]:
    """What a recognizer taught with draw `seed` reads in photo `file` (its path under the
    photos' folder) through `outline` (four corners): (the label, its confidence)."""
    import numpy as np
    from vision.pipeline import Recognizer
    _, _, profile = taught_draw(seed)
    image = cv2.imread(str(PHOTOS / file))
    reading, _ = Recognizer.create(profile).reading(image, np.float32(outline))
    return reading.label, reading.confidence
