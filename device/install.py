"""The Raspberry Pi appliance install, as a plan of steps.

`plan(root, ...)` lists every step (Debian packages, the `deckhand` user in the `gpio` and
`video` groups, the config directory, the systemd units rendered for this checkout, the
kiosk screen); `render_unit` fills a unit template; `run_plan` carries the steps out.
`deckhand install --dry-run` (and `./setup.sh install --dry-run`) prints the plan and
changes nothing. Each step says what it does as a message (web.messages "install.*"),
printed in the shell's language (device.commands.words).
"""
from __future__ import annotations

import os
import shlex
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# libopenblas0-serial: Debian's numpy otherwise multiplies with the reference BLAS, a third
# of a whole frame's instructions on a Pi 4 (108.7 M against 77.3 M, bench/arm_count.py);
# serial, since deckhand runs one BLAS thread.
APT_PACKAGES = ("python3-venv", "python3-picamera2", "python3-opencv", "python3-gpiozero",
                "python3-lgpio", "python3-numpy", "libopenblas0-serial", "chromium", "espeak-ng")
SERVICE_USER = "deckhand"
UNIT_DIR = Path("/etc/systemd/system")
USER_UNIT_DIR = Path("/etc/systemd/user")
CONFIG_DIR = Path("/etc/deckhand")


@dataclass(frozen=True)
class Step:
    """One install step: a command to run, or a file to write (with its text)."""

    what: dict[str, Any]          # {"code", "params"}: what the step is for
    argv: tuple[str, ...] = ()
    write_to: Path | None = None
    text: str = ""
    mode: int = 0o644
    unless_exists: bool = False   # skip the write if the file is already there

    def describe(self, words: Any = None) -> str:
        """The step in words (English unless `words`, a device.commands.words.Words, says)."""
        from device.commands.words import Words
        words = words or Words("en")
        what = words.say(self.what)
        if self.write_to is not None:
            return words("install.write_kept" if self.unless_exists else "install.write", what=what,
                         path=str(self.write_to))
        return words("install.run", what=what, command=shlex.join(self.argv))


def _what(code: str, **params: Any) -> dict[str, Any]:
    return {"code": code, "params": params}


def render_unit(template: str, root: Path) -> str:
    return template.replace("@ROOT@", str(root))


def plan(root: Path, *, user_exists: bool, groups: tuple[str, ...] = ("gpio", "video")) -> list[Step]:
    root = root.resolve()
    steps = [
        Step(_what("install.packages"),
             ("apt-get", "install", "-y", "--no-install-recommends", *APT_PACKAGES)),
    ]
    if not user_exists:
        steps.append(Step(_what("install.user", user=SERVICE_USER),
                          ("useradd", "--system", "--home-dir", "/var/lib/deckhand",
                           "--shell", "/usr/sbin/nologin", SERVICE_USER)))
    steps.append(Step(_what("install.groups", user=SERVICE_USER),
                      ("usermod", "-a", "-G", ",".join(groups), SERVICE_USER)))
    steps.append(Step(_what("install.config_dir"), ("install", "-d", "-m", "0755", str(CONFIG_DIR))))
    example = root / "examples" / "deckhand.toml"
    steps.append(Step(_what("install.config"), write_to=CONFIG_DIR / "deckhand.toml",
                      text=example.read_text() if example.exists() else "# Deckhand configuration\n",
                      unless_exists=True))
    for name, target in (("deckhand.service", UNIT_DIR), ("deckhand-kiosk.service", USER_UNIT_DIR)):
        template = (root / "systemd" / name).read_text()
        steps.append(Step(_what("install.unit", name=name), write_to=target / name,
                          text=render_unit(template, root)))
    steps += [
        Step(_what("install.reload"), ("systemctl", "daemon-reload")),
        Step(_what("install.enable"), ("systemctl", "enable", "--now", "deckhand.service")),
        Step(_what("install.kiosk"),
             ("systemctl", "--global", "enable", "deckhand-kiosk.service")),
    ]
    return steps


def run_plan(steps: list[Step], *, dry_run: bool, echo=print, words: Any = None) -> int:
    from device.commands.words import Words
    words = words or Words("en")
    for number, step in enumerate(steps, start=1):
        echo(f"[{number}/{len(steps)}] {step.describe(words)}")
        if dry_run:
            continue
        if step.write_to is not None:
            if step.unless_exists and step.write_to.exists():
                continue
            step.write_to.parent.mkdir(parents=True, exist_ok=True)
            step.write_to.write_text(step.text)
            os.chmod(step.write_to, step.mode)
        else:
            result = subprocess.run(step.argv)
            if result.returncode != 0:
                echo(words("install.failed", number=number, code=result.returncode, what=step.describe(words)))
                return result.returncode
    if dry_run:
        echo(words("install.dry_run"))
    return 0
