"""Whether the web port can be had, asked before anything starts: a port another
program holds is one line in words (in the shell's or the page's language), not a
server's traceback."""
from __future__ import annotations

import errno
import socket


def port_problem(bind: str, port: int) -> dict | None:
    """Why Deckhand could not listen on bind:port, as a message ({"code", "params"},
    web.messages "port.*"; web.words says it), or None if it can. Binds a probe socket
    the way the server does (SO_REUSEADDR, so connections of a server just stopped do
    not count) and lets it go at once."""
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((bind, port))
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            return _said("port.in_use", port=port, address=bind)
        if exc.errno == errno.EACCES:
            return _said("port.needs_rights", port=port, address=bind)
        return _said("port.cannot_listen", port=port, address=bind, why=exc.strerror or str(exc))
    return None


def _said(code: str, **params) -> dict:
    return {"code": code, "params": params}
