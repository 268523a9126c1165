"""What the web's vision pages see of the camera (web.camera.CameraProvider): the newest
frame as JPEG, the cards found in it, the zones, live teaching of a deck, and which deck
the camera reads (device.decks.DeckSwitch)."""
from __future__ import annotations

from typing import Any, Callable

import cv2

from device.vision_loop import VisionLoop


class CameraView:
    def __init__(self, loop: VisionLoop, *, teacher: Callable[[str, Any], dict[str, Any]] | None = None,
                 save_zones: Callable[[dict[str, list[float]]], None] | None = None,
                 decks: Any = None):
        self._loop = loop
        self._teacher = teacher
        self._save_zones = save_zones
        self._decks = decks

    def latest_jpeg(self) -> bytes | None:
        latest = self._loop.latest
        if latest is None:
            return None
        ok, data = cv2.imencode(".jpg", latest.image, [cv2.IMWRITE_JPEG_QUALITY, 80])
        return data.tobytes() if ok else None

    def detections(self) -> list[dict[str, Any]]:
        latest = self._loop.latest
        if latest is None or latest.reading is None:
            return []
        h, w = latest.image.shape[:2]
        zones = self._loop.zones
        out = []
        for card in latest.reading.cards:
            cx, cy = card.centre
            zone = next((name for name, (x0, y0, x1, y1) in zones.items()
                         if x0 <= cx / w <= x1 and y0 <= cy / h <= y1), None)
            out.append({"card": card.label if card.known else None,
                        "label": card.label, "confidence": round(float(card.confidence), 3),
                        "zone": zone,
                        "quad": [[round(float(x) / w, 4), round(float(y) / h, 4)] for x, y in card.corners]})
        return out

    def zones(self) -> dict[str, list[float]]:
        return {name: list(rect) for name, rect in self._loop.zones.items()}

    def set_zones(self, zones: dict[str, list[float]]) -> None:
        clean: dict[str, tuple[float, float, float, float]] = {}
        for name, rect in zones.items():
            if not isinstance(name, str) or not name:
                raise ValueError("a zone needs a name")
            if not isinstance(rect, (list, tuple)) or len(rect) != 4 or \
                    not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in rect):
                raise ValueError(f"zone {name!r} must be four numbers [x0, y0, x1, y1]")
            x0, y0, x1, y1 = (float(v) for v in rect)
            if not (0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1):
                raise ValueError(f"zone {name!r} must lie inside the picture with x0 < x1 and y0 < y1 "
                                 f"(all between 0 and 1)")
            clean[name] = (x0, y0, x1, y1)
        self._loop.set_zones(clean)
        if self._save_zones is not None:
            self._save_zones({k: list(v) for k, v in clean.items()})

    def teach(self, label: str) -> dict[str, Any]:
        if self._teacher is None:
            return {"ok": False, "message": {"code": "teach.live_unavailable", "params": {}}}
        latest = self._loop.latest
        if latest is None:
            return {"ok": False, "message": {"code": "teach.live_no_picture", "params": {}}}
        return self._teacher(label, latest)

    # -- live teaching of many frames (device.live_teaching.LiveTeacher) ------------------

    def teach_start(self, labels: list[str]) -> dict[str, Any]:
        if self._teacher is None or not hasattr(self._teacher, "start"):
            return {"ok": False, "message": {"code": "teach.live_unavailable", "params": {}}}
        return {"ok": True, **self._teacher.start(labels, lambda: self._loop.latest,
                                                  lambda: self._loop.empty_table)}

    def teach_stop(self) -> dict[str, Any]:
        if self._teacher is not None and hasattr(self._teacher, "stop"):
            self._teacher.stop()
        return self.teach_status()

    def teach_train(self) -> dict[str, Any]:
        if self._teacher is None or not hasattr(self._teacher, "train"):
            return {"ok": False, "message": {"code": "teach.live_unavailable", "params": {}}}
        self._teacher.train()
        return {"ok": True, **self._teacher.status()}

    def teach_status(self) -> dict[str, Any]:
        if self._teacher is None or not hasattr(self._teacher, "status"):
            return {"available": False}
        return {"available": True, **self._teacher.status()}

    # -- the deck the camera reads (device.decks.DeckSwitch) ------------------------------

    def deck(self) -> dict[str, Any] | None:
        """The deck read for the match being played, or None (no match, or no decks)."""
        in_use = self._decks.in_use() if self._decks is not None else None
        return None if in_use is None else {**in_use.to_json(), "said": in_use.said()}

    def choose_deck(self, which: str) -> dict[str, Any]:
        """Read the printed deck or the taught one; device.decks.DeckError (a ValueError
        with the message in `.said`) when it cannot."""
        if self._decks is None:
            from device.decks import DeckError, message
            raise DeckError(message("deck_no_choice"))
        in_use = self._decks.choose(which)
        return {**in_use.to_json(), "said": in_use.said()}
