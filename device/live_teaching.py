"""Teaching a deck live from the camera (the host's teaching page): each card shown is
added to a teaching session, the profile is rebuilt and saved beside the event store, and
the answer says what the self-check thinks — which cards to show again."""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Any


class LiveTeacher:
    def __init__(self, profile_path: Path, name: str = "taught deck"):
        from vision.teach import start_session
        self.path = Path(profile_path)
        self._session = start_session(name)
        self._lock = threading.Lock()

    def __call__(self, label: str, latest: Any) -> dict[str, Any]:
        """Learn the card in the newest frame (`device.vision_loop.LatestFrame`) as `label`."""
        from vision.profile import save_profile
        from vision.teach import TeachError, add_frame, finish
        if not isinstance(label, str) or not label.strip():
            raise ValueError("say which card this is (its label)")
        with self._lock:
            try:
                session = add_frame(self._session, latest.image, label)
                taught = finish(session)
            except TeachError as exc:
                return {"ok": False, "message": str(exc)}
            self._session = session
            saved = save_profile(taught.profile, self.path)
        counts = session.counts()
        again = taught.check.needs_more[:6]
        message = (f"Learned {label.strip()} ({counts[label.strip()]} shot(s)); {len(counts)} card(s) "
                   f"taught so far, saved to {saved}.")
        if again:
            message += " Show these again: " + ", ".join(again) + "."
        return {"ok": True, "message": message, "cards": len(counts), "profile": str(saved)}
