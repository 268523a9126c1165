"""What the vision pages need from the camera: the `CameraProvider` protocol.

`device` passes an object of this shape to `create_app(camera=...)`; without one the
teaching and calibration pages say "no camera". Coordinates are normalized to the frame
(0..1, origin top left), the same convention as the vision zones.

A provider may also offer live teaching (`teach_start`, `teach_stop`, `teach_train`,
`teach_status`) and the deck it reads: `deck()` (None without a match, else {"game",
"reading": "printed" | "taught", "taught_available", "name", "known", "total", "said":
message, "problem": message | None}, messages as {"code", "params"} for web.words.say) and
`choose_deck("printed" | "taught")` (the same, or a ValueError whose `said` is the
refusal's message); device.camera_view.CameraView has them all.
"""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class CameraProvider(Protocol):
    def latest_jpeg(self) -> bytes | None:
        """The newest frame as JPEG bytes, or None before the first frame."""

    def detections(self) -> list[dict[str, Any]]:
        """Cards found in the newest frame: {"card": code | None, "label": words,
        "confidence": 0..1, "zone": name | None, "quad": [[x, y] * 4] normalized}."""

    def zones(self) -> dict[str, list[float]]:
        """Calibrated zones: name -> [x0, y0, x1, y1] normalized."""

    def set_zones(self, zones: dict[str, list[float]]) -> None:
        """Replace the zones; raises ValueError with a reason in words if they are bad."""

    def teach(self, label: str) -> dict[str, Any]:
        """Learn the card now under the camera as `label` (a card code); returns
        {"ok": bool, "message": words}; raises ValueError for an unknown label."""
