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
from collections import OrderedDict, deque
from typing import Callable

from flask import current_app, session

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "X-CSRF-Token"


MIN_PIN_DIGITS = 6


def make_pin(rng: secrets.SystemRandom | None = None, digits: int = MIN_PIN_DIGITS) -> str:
    """A fresh host PIN of `digits` decimal digits (at least MIN_PIN_DIGITS: with the
    table-wide guessing limit that is months of guessing)."""
    if digits < MIN_PIN_DIGITS:
        raise ValueError(f"a made-up PIN has at least {MIN_PIN_DIGITS} digits")
    rng = rng or secrets.SystemRandom()
    return "".join(str(rng.randrange(10)) for _ in range(digits))


LOCAL_ADDRESSES = frozenset({"127.0.0.1", "::1"})


class PinGate:
    """Checks host PIN entries. Wrong entries are bounded twice within `window` seconds:
    `max_failures` per client address, and `max_total` from all addresses together
    (whoever holds many addresses gets no more guesses). The table's own screen (a
    browser on this machine, LOCAL_ADDRESSES) is bounded only per address, so guessing
    from the network can lock the phones out for a while but never the host at the
    table itself."""

    def __init__(self, pin: str | Callable[[str], bool], max_failures: int = 5,
                 window: float = 300.0, clock: Callable[[], float] = time.monotonic,
                 max_total: int = 20):
        """pin: the PIN itself, or a function that says whether an entry is right (for a
        PIN kept only as a hash in the configuration)."""
        if not pin:
            raise ValueError("the host PIN must not be empty")
        self._pin = pin
        self.max_failures = max_failures
        self.max_total = max_total
        self.window = window
        self._clock = clock
        self._failures: dict[str, deque[float]] = {}
        self._all: deque[float] = deque()
        self._lock = threading.Lock()

    def retry_after(self, client: str) -> float:
        """Seconds until `client` may try again (0 if it may now)."""
        with self._lock:
            now = self._clock()
            wait = 0.0
            recent = self._recent(client)
            if len(recent) >= self.max_failures:
                wait = recent[0] + self.window - now
            if client not in LOCAL_ADDRESSES:
                self._expire(self._all)
                if len(self._all) >= self.max_total:
                    wait = max(wait, self._all[0] + self.window - now)
            return max(0.0, wait)

    def check(self, client: str, entry: str) -> bool:
        """True if `entry` is the PIN; a wrong entry counts against `client` (and, from
        the network, against all). Call `retry_after` first: a blocked client must not
        be checked at all."""
        if callable(self._pin):
            ok = bool(self._pin(entry))
        else:
            ok = hmac.compare_digest(entry.encode(), self._pin.encode())
        if not ok:
            with self._lock:
                now = self._clock()
                self._recent(client).append(now)
                if client not in LOCAL_ADDRESSES:
                    self._all.append(now)
                if len(self._failures) > 4096:   # many addresses: forget the quiet ones
                    for key in [k for k, q in self._failures.items() if not self._expire(q)]:
                        del self._failures[key]
        return ok

    def _expire(self, recent: deque[float]) -> deque[float]:
        cutoff = self._clock() - self.window
        while recent and recent[0] <= cutoff:
            recent.popleft()
        return recent

    def _recent(self, client: str) -> deque[float]:
        return self._expire(self._failures.setdefault(client, deque()))


class HostSessions:
    """The host sessions this server granted and has not ended. The signed cookie only
    names one (a random id), so logging out ends it on the server: a copy of the cookie
    saved before no longer unlocks anything. Kept in memory: a restart (which a new PIN
    needs) ends them all. At most `limit`; past it the oldest ends."""

    def __init__(self, limit: int = 64):
        self._ids: OrderedDict[str, None] = OrderedDict()
        self._limit = limit
        self._lock = threading.Lock()

    def grant(self) -> str:
        sid = secrets.token_urlsafe(18)
        with self._lock:
            self._ids[sid] = None
            while len(self._ids) > self._limit:
                self._ids.popitem(last=False)
        return sid

    def valid(self, sid: object) -> bool:
        with self._lock:
            return isinstance(sid, str) and sid in self._ids

    def end(self, sid: object) -> None:
        with self._lock:
            if isinstance(sid, str):
                self._ids.pop(sid, None)

    def end_all(self) -> None:
        with self._lock:
            self._ids.clear()


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


def _sessions() -> HostSessions:
    return current_app.extensions["deckhand"].sessions


def is_host() -> bool:
    return _sessions().valid(session.get("host"))


def grant_host() -> None:
    session["host"] = _sessions().grant()
    session.permanent = False


def revoke_host() -> None:
    """End this browser's host session on the server too (not just in its cookie)."""
    _sessions().end(session.pop("host", None))
