"""The table's address for phones, and its QR code as inline SVG (segno)."""
from __future__ import annotations

import ipaddress
import socket

import segno


def qr_svg(url: str) -> str:
    """An inline <svg> QR code of `url` (black on white, with its quiet zone)."""
    return segno.make(url, error="m").svg_inline(scale=5, dark="#000", light="#fff")


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


def phone_url(request_host: str, configured: str | None) -> str:
    """The address phones should open: the configured one, else the address this page
    was reached at, unless that is the Pi's own loopback (the kiosk), then the LAN one."""
    if configured:
        return configured.rstrip("/") + "/phone"
    host, _, port = request_host.rpartition(":") if request_host.count(":") == 1 else (request_host, "", "")
    if not host:
        host, port = request_host, ""
    if is_loopback(host):
        lan = lan_address()
        if lan:
            host = lan
    return f"http://{host}{':' + port if port else ''}/phone"
