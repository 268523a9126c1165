"""Whether the web port can be had, asked before anything starts: a port another
program holds is one line in words, not a server's traceback."""
from __future__ import annotations

import errno
import socket


def port_problem(bind: str, port: int) -> str | None:
    """Why Deckhand could not listen on bind:port, in words, or None if it can. Binds a
    probe socket the way the server does (SO_REUSEADDR, so connections of a server
    just stopped do not count) and lets it go at once."""
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((bind, port))
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            return (f"port {port} on {bind} is already in use (is Deckhand already running?); "
                    f"stop that program or choose another port with --port")
        if exc.errno == errno.EACCES:
            return f"port {port} on {bind} needs more rights than this user has; choose one above 1023"
        return f"cannot listen on {bind}:{port} ({exc.strerror or exc})"
    return None
