"""Pictures of one table taken many times a second: the simulated table of `deckhand run`.

`stage.compose` takes one picture with everything worked out for a benchmark (how much
of each card shows, the zones), and lights and adds noise to the whole picture in
floating point: about 5 ms of CPU a 640 x 480 frame on this 2-core VM. A real camera's
picture costs the Pi nothing (its ISP works off the CPU), but the simulated camera draws
on the camera thread, before the frame is read, so each frame's drawing adds to the time
from a card landing to the phones. `LiveTable` draws the same scene for less:

* the picture before noise is kept while the scene stays as it was (`version`), so most
  frames pay only the noise; the cards laid are kept while they lie as they lay, so a
  hand reaching in or going away is drawn on them, the cards not laid again; and a hand
  is worked out once (`hands.hand_paint`), then laid over each new picture as it is;
* a new scene is lit only where it differs from the bare table (as `compose` does), into
  the bare table's developed picture cut to whole grey levels (int16: a highlight above
  white stays above it until the noise is added, as in `compose`);
* the noise is added in whole grey levels (the bank's noise times sigma, rounded), then
  the picture clipped to 0-255, in integers, not in float.

Given the same random generator, the pictures differ from `compose`'s by at most a grey
level a pixel (the noise rounded apart from the picture, not together): the same light,
the same noise. Benchmarks keep `compose` (their figures stay
comparable); only the live simulated table uses this.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from vision.render.camera import _BANK_ROWS, _noise_bank
from vision.render.hands import HandPaint, HandPose, hand_paint, paint_hand
from vision.render.stage import Box, Placement, Table, _union, developed_part, lay_out


def _whole_levels(developed: np.ndarray) -> np.ndarray:
    """A developed (float, not negative) picture cut to whole grey levels, not clipped."""
    return developed.astype(np.int16)


@dataclass(eq=False)
class LiveTable:
    """One table drawn again and again; the picture kept is replaced whole, so a picture
    drawn from another thread (the empty table's, `version` None) is still right."""

    table: Table
    game: str
    style: str = "deckhand"
    _bare: np.ndarray | None = None          # the developed bare table, whole grey levels
    _noise: np.ndarray | None = None         # the noise bank times sigma, whole grey levels
    # (version, the box where the picture before noise differs from the bare table, its pixels)
    _kept: tuple[object, Box | None, np.ndarray | None] | None = None
    # (the cards' version, the table with the cards laid before light and noise, its dirty box)
    _laid: tuple[object, np.ndarray, Box | None] | None = None
    _hands: tuple[tuple[HandPose, HandPaint], ...] = ()   # the hands drawn last, worked out

    def __post_init__(self) -> None:
        self._bare = _whole_levels(self.table.developed)
        spec = self.table.spec
        if spec.noise > 0:
            w, h = spec.size
            self._noise = np.round(_noise_bank((w, h)) * np.float32(spec.noise)).astype(np.int16)

    def picture(self, placements: Sequence[Placement], hands: Sequence[HandPose], rng: np.random.Generator,
                version: tuple[object, object] | None = None) -> np.ndarray:
        """The camera's picture of `placements` with `hands` over them (uint8 BGR), its
        noise drawn from `rng` as `compose` draws it. `version`: the scene's version, as
        (the placements' version, the hands'): the picture before noise of the version
        drawn last is reused, and its cards laid when only the hands changed (None: drawn
        anew)."""
        kept = self._kept
        if version is None or kept is None or kept[0] != version:
            img, dirty = self._laid_out(placements, hands, rng, None if version is None else version[0])
            part = developed_part(self.table, img, dirty)
            kept = (version, None, None) if part is None else (version, part[0], _whole_levels(part[1]))
            if version is not None:
                self._kept = kept
        return self._sensor(kept[1], kept[2], rng)

    def _laid_out(self, placements: Sequence[Placement], hands: Sequence[HandPose], rng: np.random.Generator,
                  cards: object) -> tuple[np.ndarray, Box | None]:
        """`stage.lay_out`'s picture and dirty box, the cards laid taken from the last
        picture of the same cards' version (`cards`; None: laid anew), the hands drawn on
        them as `lay_out` draws them."""
        laid = self._laid
        if cards is None or laid is None or laid[0] != cards:
            img, dirty, _, _ = lay_out(self.table, self.game, placements, rng, style=self.style)
            img.flags.writeable = False
            laid = (cards, img, dirty)
            if cards is not None:
                self._laid = laid
        img, dirty = laid[1], laid[2]
        if hands:
            img = img.copy()
            known = dict(self._hands)
            paints = tuple((pose, known.get(pose) or hand_paint(self.table.size, pose)) for pose in hands)
            self._hands = paints
            for _, paint in paints:
                dirty = _union(dirty, paint_hand(img, paint)[1])
        return img, dirty

    def _sensor(self, box: Box | None, part: np.ndarray | None,
                rng: np.random.Generator) -> np.ndarray:
        """The bare table with `part` in `box` (whole grey levels, before noise), its noise
        added, clipped to 0-255: uint8."""
        spec = self.table.spec
        if self._noise is not None:
            h = self._bare.shape[0]
            y = int(rng.integers(_BANK_ROWS + 1))   # the row offset `camera.noise_patch` draws
            noise = self._noise[y:y + h]
            seen = cv2.add(self._bare, noise)
            if box is not None:
                x0, y0, x1, y1 = box
                seen[y0:y1, x0:x1] = cv2.add(part, noise[y0:y1, x0:x1])
        else:
            seen = self._bare.copy()
            if box is not None:
                x0, y0, x1, y1 = box
                seen[y0:y1, x0:x1] = part
        out = np.clip(seen, 0, 255, out=seen).astype(np.uint8)
        if spec.jpeg_quality is not None:
            ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(spec.jpeg_quality)])
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        return out
