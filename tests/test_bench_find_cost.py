"""bench/find_cost.py's `--part`: one function counted alone under callgrind's toggle
(`functools.reduce`), wherever the vision modules imported it."""
from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

import numpy as np

import vision.classify
import vision.pipeline

ROOT = Path(__file__).resolve().parents[1]


def _find_cost():
    spec = importlib.util.spec_from_file_location("find_cost", ROOT / "bench" / "find_cost.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_part_runs_inside_reduce_once_counting_starts(monkeypatch):
    """Before the count the part runs as it is; after, each call runs inside
    functools.reduce (what callgrind's toggle counts), is counted, and gives the same
    answer; the name pipeline imported it under is the wrapped one too."""
    monkeypatch.setattr(vision.classify, "card_features", vision.classify.card_features)
    monkeypatch.setattr(vision.pipeline, "card_features", vision.pipeline.card_features)
    plain = vision.classify.card_features
    inside = []
    real_reduce = functools.reduce

    def spy(*args):
        inside.append(True)
        return real_reduce(*args)

    monkeypatch.setattr(functools, "reduce", spy)
    calls = _find_cost().counted_alone("vision.classify:card_features")
    assert vision.pipeline.card_features is vision.classify.card_features is not plain
    from vision.profile import builtin_profile
    profile = builtin_profile("solo")
    frame = np.full((120, 100, 3), 230, np.uint8)
    corners = np.float32([[20, 20], [80, 20], [80, 100], [20, 100]])
    before = vision.classify.card_features(frame, corners, profile)
    assert not inside and not calls
    calls.append(0)   # the count starts
    after = vision.pipeline.card_features(frame, corners, profile)
    assert inside and len(calls) == 2
    assert np.array_equal(before.ink, after.ink)


def test_a_method_is_counted_alone(monkeypatch):
    monkeypatch.setattr(vision.pipeline.Recognizer, "_read_found", vision.pipeline.Recognizer._read_found)
    calls = _find_cost().counted_alone("vision.pipeline:Recognizer._read_found")
    assert vision.pipeline.Recognizer._read_found.__name__ == "alone"
    assert calls == []
