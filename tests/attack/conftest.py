"""Fixtures of the attack suite (see attack_kit.py)."""
from __future__ import annotations

import pytest

from attack_kit import Server


@pytest.fixture
def serve(tmp_path):
    """serve(**limits) starts the real server with those web.front.Limits; stopped after."""
    started: list[Server] = []

    def start(app: dict | None = None, db=None, **limits) -> Server:
        server = Server(db or tmp_path / "deckhand.sqlite3", limits, app=app or {},
                        log=tmp_path / f"server-{len(started)}.log").start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.kill()
