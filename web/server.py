"""Running the app in production: gunicorn from Python (one worker, the gthread worker
with many threads), so the table, the camera and GPIO live in one process. `deckhand
run` calls `serve`.

gunicorn's master forks its worker, and threads do not survive a fork. So either pass a
built app whose collaborators start their threads lazily, or (better for hardware)
pass a factory: `serve(build_app, ...)` calls `build_app()` inside the worker, where
the camera, the pads and the SQLite connection are then created and stay.
"""
from __future__ import annotations

from typing import Any, Callable

from flask import Flask
from gunicorn.app.base import BaseApplication
from gunicorn.workers.gthread import ThreadWorker


class DeckhandWorker(ThreadWorker):
    """gunicorn's gthread worker that, when told to stop, also ends the app's open
    event streams (they would otherwise hold the worker until it is killed)."""

    def handle_exit(self, sig, frame):  # SIGTERM: graceful stop
        stop_streams(getattr(self, "wsgi", None))
        super().handle_exit(sig, frame)

    def handle_quit(self, sig, frame):  # SIGINT / SIGQUIT: quick stop
        stop_streams(getattr(self, "wsgi", None))
        super().handle_quit(sig, frame)


def stop_streams(app: Any) -> None:
    """Ask every open event stream of `app` to end (browsers reconnect and resume)."""
    deckhand = getattr(app, "extensions", {}).get("deckhand")
    if deckhand is not None:
        deckhand.stopping.set()


class DeckhandServer(BaseApplication):
    """A gunicorn application serving an already built Flask app."""

    def __init__(self, app: Flask | Callable[[], Flask], options: dict[str, Any]):
        self._app = app
        self._options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self._options.items():
            if key in self.cfg.settings and value is not None:
                self.cfg.set(key, value)

    def load(self) -> Flask:
        if isinstance(self._app, Flask):
            return self._app
        return self._app()


def server_options(bind: str, port: int, threads: int, preload: bool = True) -> dict[str, Any]:
    """gunicorn settings: one gthread worker (shared in-process state), enough threads
    for every open event stream, no request timeout killing long streams."""
    return {
        "bind": f"{bind}:{port}" if ":" not in bind else f"[{bind}]:{port}",
        "workers": 1,
        "worker_class": DeckhandWorker,
        "threads": threads,
        "timeout": 0,            # SSE streams are long-lived; the worker never hangs
        "graceful_timeout": 5,
        "keepalive": 2,
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "warning",
        "preload_app": preload,
        "reload": False,
        "proc_name": "deckhand",
    }


def serve(app: Flask | Callable[[], Flask], bind: str = "0.0.0.0", port: int = 8000,
          threads: int = 64) -> None:
    """Serve `app` (a Flask app, or a factory called inside the worker) on bind:port
    until stopped (SIGINT/SIGTERM). Blocks; call it from the main thread. `threads`
    bounds the open connections, each phone's event stream holding one."""
    preload = isinstance(app, Flask)
    DeckhandServer(app, server_options(bind, port, threads, preload)).run()
