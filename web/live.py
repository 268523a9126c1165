"""Live updates: Server-Sent Events from the table's change feed, and the rendered
live region of each screen.

Each event carries the change's `seq` as its id, so a browser that reconnects sends
Last-Event-ID and gets exactly what it missed (TableService.events_since). A stream
asked for a screen (`?view=phone`) carries that screen's live region as HTML, rendered
once per (screen, language, seq) and shared by every phone; a bare stream carries the
snapshot JSON. When nothing happens, a comment line goes out every `heartbeat` seconds
so dead connections are noticed and proxies keep the stream open.
"""
from __future__ import annotations

import json
import threading
import time
from typing import Any, Callable, Iterator, Mapping

from flask import current_app, render_template

from web.present import present

LIVE_TEMPLATES = {
    "table": "live/table.html",
    "phone": "live/phone.html",
    "host": "live/host.html",
    "pad": "live/pad.html",
    "seat": "live/seat.html",
}
_CACHE_SIZE = 128   # a region and its encoded message a key


class FragmentCache:
    """Rendered live regions by key (screen, language, seq, extra): many phones, one
    render (and their SSE message's JSON text, by the key and the event's kind: one
    encoding). The first stream to ask renders; the others asking for the same key
    meanwhile wait for it rather than render it again."""

    def __init__(self, size: int = _CACHE_SIZE):
        self._size = size
        self._items: dict[tuple, str] = {}
        self._pending: dict[tuple, threading.Event] = {}
        self._lock = threading.Lock()

    def get(self, key: tuple, render: Callable[[], str]) -> str:
        while True:
            with self._lock:
                hit = self._items.get(key)
                if hit is not None:
                    return hit
                waiting = self._pending.get(key)
                if waiting is None:
                    done = self._pending[key] = threading.Event()
                    break
            waiting.wait(5.0)
        try:
            html = render()
            with self._lock:
                self._items[key] = html
                while len(self._items) > self._size:
                    self._items.pop(next(iter(self._items)))
            return html
        finally:
            with self._lock:
                self._pending.pop(key, None)
            done.set()


def render_live(screen: str, snapshot: Mapping[str, Any], lang: str,
                **extra: Any) -> str:
    """The live region of `screen` for `snapshot` (needs an app and request context)."""
    recent = None
    if screen == "phone":
        d = current_app.extensions["deckhand"]
        recent = d.feed.recent(d.table, snapshot)
    return render_template(LIVE_TEMPLATES[screen], s=present(snapshot, lang, recent), **extra)


def json_data(data: Mapping[str, Any]) -> str:
    """`data` as the JSON text of an SSE message's `data:` line."""
    return json.dumps(data, separators=(',', ':'))


def sse(event_id: int | None, data: Mapping[str, Any] | str, event: str | None = None) -> str:
    """One SSE message; JSON has no raw newlines, so `data:` is a single line. `data` as
    a str is JSON text already (`json_data`: one encoding shared by many streams)."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    kind = f"event: {event}\n" if event else ""
    return f"{head}{kind}data: {data if isinstance(data, str) else json_data(data)}\n\n"


# A stream wakes at least this often (seconds) to notice the server shutting down.
WAKE = 1.0


def event_stream(events_since: Callable[[int, float], list[dict[str, Any]]],
                 current: Callable[[], dict[str, Any]], since: int | None,
                 payload: Callable[[dict[str, Any]], dict[str, Any] | str],
                 heartbeat: float, stopping: threading.Event | None = None,
                 clock: Callable[[], float] = time.monotonic) -> Iterator[str]:
    """The SSE text for one browser: from `since` on (or the current snapshot first if
    it has nothing to resume from), then every change as it happens, until `stopping`
    is set (the server is shutting down; the browser will reconnect and resume)."""
    stopping = stopping or threading.Event()
    yield "retry: 1000\n\n"
    if since is None:
        snap = current()
        since = int(snap.get("seq", 0))
        yield sse(since, payload({"seq": since, "kind": "snapshot", "snapshot": snap}))
    quiet_since = clock()
    while not stopping.is_set():
        events = events_since(since, min(WAKE, heartbeat))
        if not events:
            if clock() - quiet_since >= heartbeat:
                quiet_since = clock()
                yield ": heartbeat\n\n"
            continue
        for ev in events:
            since = int(ev["seq"])
            yield sse(since, payload(ev))
        quiet_since = clock()
