"""The tiny CNN reader experiment (vision/cnn_train.py, vision/cnn.py): trained with torch,
run with OpenCV's own cv2.dnn from its ONNX export, read through `classify` like the
linear reader. Teaching does not use it (it read real photos worse, docs/vision.md), so
these tests run only where torch and onnx are installed (`pip install -e '.[cnn]'`).
Training here is small and quick; the figures are bench/realphotos_read.py's."""
import dataclasses

import cv2
import numpy as np
import pytest

pytest.importorskip("torch", reason="the CNN experiment's torch is not installed (the 'cnn' extra)")
pytest.importorskip("onnx", reason="the CNN experiment's onnx is not installed (the 'cnn' extra)")

from vision import cnn_train  # noqa: E402
from vision.augment import negative_views, training_views  # noqa: E402
from vision.classify import UNKNOWN, WORK_SIZE, classify, face_features  # noqa: E402
from vision.cnn import CnnReader, network_input  # noqa: E402
from vision.learn import Example  # noqa: E402
from vision.profile import profile_from_faces  # noqa: E402
from vision.render.cards import render_card  # noqa: E402

CODES = ("3", "12", "FREEZE")


@pytest.fixture(scope="module")
def faces():
    return {code: render_card("flip7", code, "alt") for code in CODES}


@pytest.fixture(scope="module")
def profile(faces):
    """A profile of three faces read by a CNN trained briefly (small batches, so that
    few views still make enough steps)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cnn_train, "BATCH", 16)
        examples = [Example(i, face) for i, face in enumerate(faces.values())]
        reader = cnn_train.train_cnn_reader(examples, len(examples), views=48, epochs=10, threads=1)
    base = profile_from_faces("cnn deck", [(code, "", face) for code, face in faces.items()], views=0)
    return dataclasses.replace(base, reader=reader, min_confidence=0.5)


def test_the_cnn_reads_fresh_views_of_the_taught_faces_and_says_unknown_for_no_card(profile, faces):
    assert isinstance(profile.reader, CnnReader)
    right = wrong = total = 0
    for code, face in faces.items():
        for view in training_views(face, np.random.default_rng(500), 6, WORK_SIZE):
            reading = classify(face_features(view), profile)
            total += 1
            right += reading.label == code
            wrong += reading.known and reading.label != code
    assert right >= 0.75 * total, (right, wrong, total)
    assert wrong <= 0.1 * total, (right, wrong, total)
    nothing = [classify(face_features(v), profile).label for v in negative_views(np.random.default_rng(3), 12, WORK_SIZE)]
    assert nothing.count(UNKNOWN) >= 10, nothing


def test_cv2_dnn_runs_the_exported_network_on_both_orientations_of_a_face(profile, faces):
    reader = profile.reader
    ink = face_features(cv2.resize(faces["12"], WORK_SIZE, interpolation=cv2.INTER_AREA)).ink
    batch = network_input(ink)
    assert batch.shape == (2, 1, 64, 44)
    np.testing.assert_array_equal(batch[1, 0], batch[0, 0, ::-1, ::-1])
    scores, turned = reader.scores(ink)
    np.testing.assert_allclose(scores, reader.forward(batch).max(axis=0), rtol=1e-5)
    upside_down, turned_back = reader.scores(np.ascontiguousarray(ink[::-1, ::-1]))
    np.testing.assert_allclose(upside_down, scores, rtol=1e-4, atol=1e-4)
    top = int(scores.argmax())
    assert reader.classes[top] == profile.index("12")
    assert turned_back[top] != turned[top]
    p = reader.probabilities(scores)
    assert p.shape == reader.classes.shape and abs(float(p.sum()) - 1) < 1e-5
