"""The table's address for phones, and its QR code as inline SVG (segno).

The address is one the server really listens on: `join_address` is told what the
server is bound to (`deckhand run --bind`), so a server that listens on this computer
only (127.0.0.1) is never advertised by its LAN address; the screens then say how to
open it to phones instead.
"""
from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import Callable

import segno

# What `deckhand run` binds to so that phones on the same network can join.
LAN_BIND = "0.0.0.0"


def qr_svg(url: str) -> str:
    """An inline <svg> QR code of `url` (black on white, with its quiet zone)."""
    return segno.make(url, error="m").svg_inline(scale=5, dark="#000", light="#fff", omitsize=True)


def is_loopback(host: str | None) -> bool:
    if not host:
        return False
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_any_address(host: str | None) -> bool:
    """Whether a bind address means every interface ("0.0.0.0", "::", "")."""
    return (host or "").strip("[]") in ("", "0.0.0.0", "::")


def lan_address() -> str | None:
    """This machine's address on the local network, or None. Connecting a UDP socket
    sends nothing; it only asks the kernel which interface it would use."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))
            addr = s.getsockname()[0]
        except OSError:
            return None
    return None if is_loopback(addr) else addr


@dataclass(frozen=True)
class JoinAddress:
    """Where phones open the scoreboard. `reachable` is False when the server listens
    on this computer only: the address then works on this computer and nowhere else."""

    url: str
    reachable: bool


def _split_host(request_host: str) -> tuple[str, str]:
    """("host", "port") from a Host header ("10.0.0.5:8000", "[::1]:80", "name")."""
    if request_host.startswith("["):
        host, _, rest = request_host[1:].partition("]")
        return host, rest.lstrip(":")
    if request_host.count(":") == 1:
        host, _, port = request_host.partition(":")
        return host, port
    return request_host, ""


def _url(host: str, port: str | int | None) -> str:
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}{':' + str(port) if port else ''}/phone"


def join_address(listen: str | None, request_host: str | None = None, port: int | None = None,
                 configured: str | None = None,
                 lan: Callable[[], str | None] | None = None) -> JoinAddress:
    """The phone page's address for a server bound to `listen` (None: not known, taken
    as the address this page was reached at), reached as `request_host` (a Host header;
    None when there is no request, as at start-up) on `port`.

    A configured public address wins. A server bound to loopback is reachable from this
    computer only. A server bound to every interface is advertised by the address the
    page was reached at, or, when that is this computer itself (the kiosk), by the LAN
    address. A server bound to one address is advertised by that address."""
    if configured:
        return JoinAddress(configured.rstrip("/") + "/phone", True)
    host, req_port = _split_host(request_host) if request_host else ("", "")
    port_s = req_port or (str(port) if port else "")
    if listen is not None and is_loopback(listen):
        return JoinAddress(_url(host if is_loopback(host) else listen, port_s), False)
    if listen is not None and not is_any_address(listen):
        return JoinAddress(_url(listen, port_s), True)
    if host and not is_loopback(host):
        return JoinAddress(_url(host, port_s), True)
    if listen is None:   # reached over loopback, bind unknown: say only what is known
        return JoinAddress(_url(host or "127.0.0.1", port_s), False)
    found = (lan or lan_address)()
    if found:
        return JoinAddress(_url(found, port_s), True)
    return JoinAddress(_url(host or "127.0.0.1", port_s), False)
