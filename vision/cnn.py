"""The tiny CNN reader, at play time: a small convolutional network (about 60k weights)
that reads a card's colour-free ink map, run with OpenCV's own `cv2.dnn` from an ONNX
model kept inside the deck profile.

An experiment (issue 12's prototype read oblique phone photos better with such a
network than with HOG): on this project's real-photo bench it read worse than the linear
HOG reader (`vision.reader`), so teaching does not choose it; `bench/realphotos_read.py
--reader cnn` measures it (docs/vision.md). Training needs torch (`vision.cnn_train`);
reading needs only OpenCV, as on the Pi (Debian's python3-opencv has `cv2.dnn`).

Like the linear reader, the network scores both 180-degree orientations (one batch of
two) and the better one counts for each class; the last class is "no card"; the
probabilities are a softmax of `temperature` x the network's scores.

What does not live here: training and the ONNX export (`vision.cnn_train`), the ink map
(`vision.classify.ink_planes`).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np

INPUT_SIZE = (44, 64)   # (w, h) the ink map is shrunk to
INK_CAP = 60.0          # ink strength counted at most (a pale ink counts as a dark one)


def network_input(ink: np.ndarray) -> np.ndarray:
    """The network's input of an ink map (float, any size of card shape), upright and
    turned half round: (2, 1, h, w) float32 in 0..1."""
    small = cv2.resize(np.minimum(ink.astype(np.float32), INK_CAP), INPUT_SIZE,
                       interpolation=cv2.INTER_AREA) * (1.0 / INK_CAP)
    return np.ascontiguousarray(np.stack([small, small[::-1, ::-1]])[:, None])


@dataclass(frozen=True, eq=False)
class CnnReader:
    """`onnx` is the serialised network (input (n, 1, h, w) at INPUT_SIZE, output (n, C)
    scores); `classes` are the profile's label indices per output and -1 for "no card"."""

    classes: np.ndarray        # (C,) int64
    onnx: bytes
    temperature: float = 1.0

    @cached_property
    def net(self) -> "cv2.dnn.Net":
        return cv2.dnn.readNetFromONNX(np.frombuffer(self.onnx, np.uint8))

    def scores(self, ink: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(scores per class, the better of both orientations; turned per class) of an
        ink map."""
        both = self.forward(network_input(ink))
        turned = both[1] > both[0]
        return np.maximum(both[0], both[1]), turned

    def forward(self, batch: np.ndarray) -> np.ndarray:
        """The network's scores of a batch of inputs (n, 1, h, w): (n, C) float32."""
        net = self.net
        net.setInput(batch)
        return np.asarray(net.forward(), np.float32).reshape(len(batch), -1)

    def probabilities(self, scores: np.ndarray) -> np.ndarray:
        z = scores * self.temperature
        z = np.exp(z - z.max(axis=-1, keepdims=True))
        return z / z.sum(axis=-1, keepdims=True)
