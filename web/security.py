"""Who may change the table: the host PIN, the signed session that remembers it, the
CSRF token every POST carries, and the limit on wrong PIN entries.

Viewing is open to anyone on the network; every change needs the host session. The
Flask session cookie is signed with the app's secret key (generated at start-up unless
the configuration gives one). Nothing here is global: `PinGate` lives on the app.
"""
from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque
from typing import Callable

from flask import session

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"


def make_pin(rng: secrets.SystemRandom | None = None, digits: int = 6) -> str:
    """A fresh host PIN of `digits` decimal digits."""
    rng = rng or secrets.SystemRandom()
    return "".join(str(rng.randrange(10)) for _ in range(digits))


class PinGate:
    """Checks host PIN entries, refusing a client after `max_failures` wrong entries
    within `window` seconds (until the oldest of them is older than the window)."""

    def __init__(self, pin: str | Callable[[str], bool], max_failures: int = 5,
                 window: float = 300.0, clock: Callable[[], float] = time.monotonic):
        """pin: the PIN itself, or a function that says whether an entry is right (for a
        PIN kept only as a hash in the configuration)."""
        if not pin:
            raise ValueError("the host PIN must not be empty")
        self._pin = pin
        self.max_failures = max_failures
        self.window = window
        self._clock = clock
        self._failures: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def retry_after(self, client: str) -> float:
        """Seconds until `client` may try again (0 if it may now)."""
        with self._lock:
            recent = self._recent(client)
            if len(recent) < self.max_failures:
                return 0.0
            return max(0.0, recent[0] + self.window - self._clock())

    def check(self, client: str, entry: str) -> bool:
        """True if `entry` is the PIN; a wrong entry counts against `client`.
        Call `retry_after` first: a blocked client must not be checked at all."""
        if callable(self._pin):
            ok = bool(self._pin(entry))
        else:
            ok = hmac.compare_digest(entry.encode(), self._pin.encode())
        if not ok:
            with self._lock:
                self._recent(client).append(self._clock())
        return ok

    def _recent(self, client: str) -> deque[float]:
        recent = self._failures.setdefault(client, deque())
        cutoff = self._clock() - self.window
        while recent and recent[0] <= cutoff:
            recent.popleft()
        return recent


def csrf_token() -> str:
    """This browser's CSRF token (made on first use, kept in the signed session)."""
    token = session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(24)
        session["csrf"] = token
    return token


def csrf_ok(sent: str | None) -> bool:
    expected = session.get("csrf")
    return bool(expected and sent and hmac.compare_digest(sent.encode(), expected.encode()))


def is_host() -> bool:
    return session.get("host") is True


def grant_host() -> None:
    session["host"] = True
    session.permanent = False


def revoke_host() -> None:
    session.pop("host", None)
