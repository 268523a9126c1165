"""Seats joined by QR: a phone that scans the table's code and picks an open seat gets a
player session for that seat, kept apart from the host session.

The player cookie (`deckhand_seat`) is signed with the app's secret key (itsdangerous,
which Flask already uses for its own session) and says {match, seat, nonce}. The
table keeps, per match, which nonce holds which seat (`SeatClaims`); a cookie is good
only while its nonce is the one on record for that seat of the current match. So:

* a cookie cannot be forged (the signature), nor edited to another seat (the seat is
  signed, and the nonce on record is that seat's);
* the host takes a seat back by forgetting its nonce: that phone's cookie stops working;
* a seat already held cannot be claimed by a second phone (it is not open);
* the join page asks for the match's join key, shown only in the table screen's QR, so
  an old link does not claim a seat in a later match.

A player session may press its own seat's pad and read its own view; it cannot undo,
end or start anything (those need the host session, web.security). Every POST still
carries the CSRF token (web.app checks it before any view runs).
"""
from __future__ import annotations

import hmac
import hashlib
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer

COOKIE = "deckhand_seat"
_SALT = "deckhand-seat"


@dataclass
class SeatClaims:
    """Which phone holds which seat, per match: {match id: {seat: nonce}}. Thread-safe."""

    _held: dict[int, dict[int, str]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def claim(self, match_id: int, seat: int, current: str | None = None) -> str:
        """A new nonce for `seat`, or refuse (ValueError) if another phone holds it.
        `current`: the nonce this phone already holds for it (claiming again is fine)."""
        with self._lock:
            held = self._held.setdefault(match_id, {})
            if seat in held and held[seat] != current:
                raise ValueError("taken")
            nonce = held.get(seat) or secrets.token_urlsafe(16)
            held[seat] = nonce
            return nonce

    def holds(self, match_id: int, seat: int, nonce: str) -> bool:
        with self._lock:
            on_record = self._held.get(match_id, {}).get(seat)
        return on_record is not None and hmac.compare_digest(on_record, nonce)

    def free(self, match_id: int, seat: int) -> bool:
        """Take `seat` back (the phone's session ends); False if nobody held it."""
        with self._lock:
            return self._held.get(match_id, {}).pop(seat, None) is not None

    def taken(self, match_id: int) -> list[int]:
        with self._lock:
            return sorted(self._held.get(match_id, {}))

    def carry_over(self, old_match: int, new_match: int) -> None:
        """A rematch: the same phones keep the same seats."""
        with self._lock:
            self._held[new_match] = dict(self._held.get(old_match, {}))


def _signer(secret: str) -> URLSafeSerializer:
    return URLSafeSerializer(secret, salt=_SALT)


def seat_cookie(secret: str, match_id: int, seat: int, nonce: str) -> str:
    return _signer(secret).dumps({"m": match_id, "s": seat, "n": nonce})


def read_seat_cookie(secret: str, value: str | None) -> dict[str, Any] | None:
    """The signed {m, s, n} of a player cookie, or None if absent or tampered with."""
    if not value:
        return None
    try:
        data = _signer(secret).loads(value)
    except BadSignature:
        return None
    if (not isinstance(data, dict) or not isinstance(data.get("m"), int)
            or not isinstance(data.get("s"), int) or not isinstance(data.get("n"), str)):
        return None
    return data


def join_key(secret: str, match_id: int) -> str:
    """The key in the table screen's seat QR for this match (short, not guessable)."""
    mac = hmac.new(secret.encode(), f"join:{match_id}".encode(), hashlib.sha256)
    return mac.hexdigest()[:16]


def join_key_ok(secret: str, match_id: int, key: str | None) -> bool:
    return bool(key) and hmac.compare_digest(join_key(secret, match_id), str(key))
