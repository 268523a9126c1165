"""Training the tiny CNN reader (`vision.cnn.CnnReader`) from a few taught faces: an
experiment measured by `bench/realphotos_read.py --reader cnn`, not used by teaching (see
`vision.cnn`). Needs torch and onnx, used only here: `.venv/bin/python -m pip install
torch==2.13.0 onnx==1.23.2` (the "cnn" extra's pins; on this machine 2.13.0 is a CPU build
from local disk, an unpinned torch would be a CUDA build of several GB).

Each taught face becomes many training views (`vision.augment.training_views`, the same
simulated cameras, lights, covering blobs and off corners as the linear reader's), read
as the colour-free ink map (`vision.classify.ink_planes`), so a symbol printed in four
colours is one shape; negatives (table patches, fields, stripes, clutter) are the "no
card" class. The network (four 3x3 convolutions of 16-32-64-64 channels, each but the
last followed by 2x2 max pooling, global average pooling, one linear layer: about 60k
weights) is trained with AdamW on a one-cycle schedule, with a pixel or two of shift
and ink-strength changes on top of the views; then a softmax temperature is fitted on
views of a separate draw (as `vision.learn` does) and the network is exported as ONNX
for `cv2.dnn`. One seed gives the same network every time on the same machine.

What does not live here: running the network (`vision.cnn`), choosing which reader a
deck gets (`vision.learn.train_reader`).
"""
from __future__ import annotations

import io
import warnings
from typing import Callable, Sequence

import numpy as np

from vision.augment import negative_views, training_views
from vision.classify import WORK_SIZE, ink_planes
from vision.cnn import INPUT_SIZE, CnnReader, network_input

VIEWS = 120             # training views per label and epoch, shared among its faces
CHECK_VIEWS = 24        # views per label of the separate draw (temperature)
EPOCHS = 15
BATCH = 64
LEARNING_RATE = 4e-3
THREADS = 2             # torch threads while training


def train_cnn_reader(examples: Sequence, labels: int, backgrounds: Sequence[np.ndarray] = (), seed: int = 0,
                     views: int | None = None, epochs: int | None = None, threads: int = THREADS,
                     progress: Callable[[float], None] | None = None) -> CnnReader:
    """A CNN reader of `labels` classes plus "no card" from `vision.learn.Example`s
    (label index, upright BGR face); `views` and `epochs` default to VIEWS and EPOCHS as
    they are when called. `progress` is told the share done (0..1)."""
    import torch

    from vision.learn import fit_temperature

    views = VIEWS if views is None else views
    epochs = EPOCHS if epochs is None else epochs
    tell = progress or (lambda share: None)
    rng = np.random.default_rng(seed)
    torch.manual_seed(seed)
    previous_threads = torch.get_num_threads()
    torch.set_num_threads(max(1, threads))
    try:
        check_x, check_y = _views(examples, labels, backgrounds, rng, CHECK_VIEWS, turned=True)
        model = network(labels + 1)
        # Fresh views every epoch: the network never sees the same view twice, so it
        # cannot learn the views by heart (with two photos a card it did, measured in
        # docs/vision.md).
        _fit(model, lambda: _views(examples, labels, backgrounds, rng, views), labels + 1, epochs, rng,
             lambda s: tell(0.05 + 0.9 * s))
        model.eval()
        with torch.no_grad():
            logits = model(torch.from_numpy(check_x)).numpy()
        # Scores as at play time: the better orientation of each pair counts.
        scores = np.maximum(logits[0::2], logits[1::2])
        temperature = fit_temperature(scores, check_y)
        onnx = export(model)
    finally:
        torch.set_num_threads(previous_threads)
    order = np.append(np.arange(labels), -1).astype(np.int64)
    tell(1.0)
    return CnnReader(order, onnx, float(temperature))


def network(classes: int):
    import torch.nn as nn

    def block(a: int, b: int, pool: bool) -> list:
        layers = [nn.Conv2d(a, b, 3, padding=1, bias=False), nn.BatchNorm2d(b), nn.ReLU()]
        return layers + ([nn.MaxPool2d(2)] if pool else [])

    return nn.Sequential(*block(1, 16, True), *block(16, 32, True), *block(32, 64, True),
                         *block(64, 64, False), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                         nn.Dropout(0.2), nn.Linear(64, classes))


def _views(examples: Sequence, labels: int, backgrounds, rng: np.random.Generator, views: int,
           turned: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Network inputs of simulated views of every example and of negatives: (n, 1, h, w)
    and their classes. `turned` keeps each view's half-turned twin right after it (as
    play time reads them); otherwise only the upright one, and both of each negative."""
    per_label = np.bincount([e.label for e in examples], minlength=labels)
    inputs, targets = [], []
    for example in examples:
        count = max(4 if turned else 8, views // max(int(per_label[example.label]), 1))
        for view in training_views(example.face, rng, count, WORK_SIZE, backgrounds):
            pair = network_input(ink_planes(view, two_levels=True)[3])
            inputs += [pair[0], pair[1]] if turned else [pair[0]]
            targets.append(example.label)
    for view in negative_views(rng, max(10, views), WORK_SIZE, backgrounds):
        inputs += list(network_input(ink_planes(view, two_levels=True)[3]))
        targets += [labels] if turned else [labels, labels]
    return np.asarray(inputs, np.float32), np.asarray(targets, np.int64)


def _fit(model, draw: Callable[[], tuple[np.ndarray, np.ndarray]], classes: int, epochs: int,
         rng: np.random.Generator, progress: Callable[[float], None]) -> None:
    """Train on `draw()`'s views, drawn anew each epoch."""
    import torch
    import torch.nn.functional as F

    x, y = draw()
    counts = np.bincount(y, minlength=classes).astype(np.float32)
    weights = torch.from_numpy(len(y) / (classes * np.maximum(counts, 1)))
    steps = epochs * int(np.ceil(len(y) / BATCH))
    optimiser = torch.optim.AdamW(model.parameters(), lr=LEARNING_RATE, weight_decay=1e-3)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, LEARNING_RATE, total_steps=steps)
    model.train()
    for epoch in range(epochs):
        if epoch:
            x, y = draw()
        images, truth = torch.from_numpy(x), torch.from_numpy(y)
        order = torch.from_numpy(rng.permutation(len(y)))
        for start in range(0, len(y), BATCH):
            pick = order[start:start + BATCH]
            batch = _jitter(images[pick], rng)
            loss = F.cross_entropy(model(batch), truth[pick], weight=weights, label_smoothing=0.05)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
        progress((epoch + 1) / epochs)


def _jitter(batch, rng: np.random.Generator):
    """A pixel or two of shift and a stronger or paler ink, on top of the views'."""
    import torch

    dy, dx = (int(v) for v in rng.integers(-2, 3, 2))
    batch = torch.roll(batch, shifts=(dy, dx), dims=(2, 3))
    gain = torch.from_numpy(rng.uniform(0.7, 1.3, (len(batch), 1, 1, 1)).astype(np.float32))
    return torch.clamp(batch * gain, 0.0, 1.0)


def export(model) -> bytes:
    """The network as ONNX bytes for `cv2.dnn` (input (n, 1, h, w), output (n, C))."""
    import torch

    w, h = INPUT_SIZE
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        # The TorchScript exporter is called "legacy"; it writes a plain graph of
        # convolutions that cv2.dnn reads (OpenCV 5 here; not tried with Debian's 4.x).
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(model, (torch.zeros(1, 1, h, w),), buffer, input_names=["ink"], output_names=["scores"],
                          dynamic_axes={"ink": {0: "n"}, "scores": {0: "n"}}, opset_version=13, dynamo=False)
    return buffer.getvalue()

