"""The systemd units verify, the Pi install's dry run prints every step and changes
nothing, and the notify protocol reaches a real socket."""
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from device.install import plan, render_unit
from device.watchdog import SystemdNotifier

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
@pytest.mark.parametrize("unit,mode", [("deckhand.service", "--system"), ("deckhand-kiosk.service", "--user")])
def test_units_verify_cleanly(tmp_path, unit, mode):
    rendered = tmp_path / unit
    rendered.write_text(render_unit((ROOT / "systemd" / unit).read_text(), ROOT))
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime)}
    result = subprocess.run(["systemd-analyze", mode, "verify", str(rendered)],
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "", result.stderr   # warnings (unknown keys...) count too


def test_main_unit_has_what_the_appliance_needs():
    text = (ROOT / "systemd" / "deckhand.service").read_text()
    for line in ("Type=notify", "WatchdogSec=", "StateDirectory=deckhand", "Restart=on-failure",
                 "StartLimitBurst=", "User=deckhand", "SupplementaryGroups=gpio video",
                 "StandardOutput=journal"):
        assert line in text


def test_dry_run_prints_every_step_and_changes_nothing(tmp_path):
    before = sorted(os.listdir("/etc"))
    result = subprocess.run([sys.executable, "-m", "device.cli", "install", "--dry-run"],
                            capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    from device.commands.install import _user_exists
    steps = plan(ROOT, user_exists=_user_exists("deckhand"))
    assert len(lines) == len(steps) + 1
    for number, (line, step) in enumerate(zip(lines, steps), start=1):
        assert line == f"[{number}/{len(steps)}] {step.describe()}"
    assert "apt-get install" in result.stdout and "python3-picamera2" in result.stdout
    assert "libopenblas0-serial" in result.stdout   # numpy's BLAS on the Pi: not the reference one
    assert "usermod -a -G gpio,video deckhand" in result.stdout
    assert "/etc/systemd/system/deckhand.service" in result.stdout
    assert "systemctl enable --now deckhand.service" in result.stdout
    assert lines[-1] == "dry run: nothing was changed"
    assert sorted(os.listdir("/etc")) == before
    assert not Path("/etc/systemd/system/deckhand.service").exists()


def test_plan_renders_units_for_this_checkout():
    steps = plan(ROOT, user_exists=True)
    unit = next(s for s in steps if s.write_to and s.write_to.name == "deckhand.service")
    assert "@ROOT@" not in unit.text and f"{ROOT}/.venv/bin/deckhand run" in unit.text
    assert not any("useradd" in s.argv for s in steps)


def test_notifier_speaks_the_notify_protocol(tmp_path):
    path = tmp_path / "notify.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(str(path))
    try:
        notifier = SystemdNotifier({"NOTIFY_SOCKET": str(path), "WATCHDOG_USEC": "30000000"})
        assert notifier.enabled and notifier.watchdog_interval == 15.0
        assert notifier.ready() and notifier.watchdog() and notifier.status("camera ok")
        got = [server.recv(100).decode() for _ in range(3)]
        assert got == ["READY=1", "WATCHDOG=1", "STATUS=camera ok"]
    finally:
        server.close()


def test_notifier_does_nothing_outside_systemd():
    notifier = SystemdNotifier({})
    assert not notifier.enabled and not notifier.ready() and notifier.watchdog_interval is None
