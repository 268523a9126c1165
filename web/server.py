"""Running the app in production: the asyncio front (web/front.py) reads every request
and holds every idle or slow connection without a thread, then runs complete requests
in a small thread pool and each live stream on a bounded pool of its own, all in this
one process, so the table, the camera and GPIO share it. `deckhand run` calls `serve`.

Pass a built Flask app or a factory (`serve(build_app, ...)`); a factory is called
before the port opens, in this process.
"""
from __future__ import annotations

from typing import Any, Callable

from flask import Flask

from web.front import FrontServer, Limits


def stop_streams(app: Any) -> None:
    """Ask every open event stream of `app` to end (browsers reconnect and resume)."""
    deckhand = getattr(app, "extensions", {}).get("deckhand")
    if deckhand is not None:
        deckhand.stopping.set()


def serve(app: Flask | Callable[[], Flask], bind: str = "0.0.0.0", port: int = 8000,
          limits: Limits | None = None) -> None:
    """Serve `app` (a Flask app, or a factory) on bind:port until SIGINT/SIGTERM, within
    `limits` (web.front.Limits). Blocks; call it from the main thread."""
    flask_app = app if isinstance(app, Flask) else app()
    front = FrontServer(flask_app, limits or Limits(), on_stop=lambda: stop_streams(flask_app))
    front.serve(bind, port)
