"""systemd's notify protocol (`Type=notify`, `WatchdogSec=`): READY, WATCHDOG, STATUS and
STOPPING messages sent to $NOTIFY_SOCKET. Outside systemd (no socket) every call does
nothing, so the appliance runs the same everywhere. The stdlib is enough: the protocol is
one datagram per message."""
from __future__ import annotations

import os
import socket


class SystemdNotifier:
    def __init__(self, environ: dict[str, str] | None = None):
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):  # abstract namespace
            address = "\0" + address[1:]
        self._address = address or None
        usec = env.get("WATCHDOG_USEC", "")
        self.watchdog_interval = int(usec) / 1e6 / 2 if usec.isdigit() else None

    @property
    def enabled(self) -> bool:
        return self._address is not None

    def notify(self, message: str) -> bool:
        if self._address is None:
            return False
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            try:
                sock.sendto(message.encode(), self._address)
            except OSError:
                return False
        return True

    def ready(self) -> bool:
        return self.notify("READY=1")

    def watchdog(self) -> bool:
        return self.notify("WATCHDOG=1")

    def status(self, text: str) -> bool:
        return self.notify(f"STATUS={text}")

    def stopping(self) -> bool:
        return self.notify("STOPPING=1")
