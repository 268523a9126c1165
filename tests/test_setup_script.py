"""setup.sh's own logic, run by bash: the stamp that says which extras are installed
(so `./setup.sh run` after `./setup.sh test` does not reinstall, and a changed
pyproject.toml does), and `quietly`, which shows a step's output only if it fails."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

SETUP = Path(__file__).resolve().parent.parent / "setup.sh"
pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")


def function(name: str) -> str:
    found = re.search(rf"^{name}\(\) {{\n.*?^}}\n", SETUP.read_text(), re.S | re.M)
    assert found, f"setup.sh has no function {name}"
    return found.group(0)


def bash(script: str, tmp_path: Path) -> subprocess.CompletedProcess:
    prelude = f'ROOT="{SETUP.parent}"\n' + function("say") + function("stamp_covers") + function("quietly")
    return subprocess.run(["bash", "-c", f"set -euo pipefail\nSTAMP={tmp_path}/stamp\n{prelude}{script}"],
                          capture_output=True, text=True, timeout=30)


@pytest.mark.parametrize("stamp, want, covered", [
    ("abc pc,test", "pc", True),           # run after test: nothing to install
    ("abc pc,test", "pc,test", True),
    ("abc pc", "pc,test", False),          # test after run: the test tools are missing
    ("abd pc,test", "pc", False),          # pyproject.toml changed
    ("abc pi,test,pi", "pi", True),
    ("pc,test:abc", "pc", False),          # the old stamp's form: install once
    (None, "pc", False),
])
def test_the_stamp_covers_the_extras_installed_from_the_same_pyproject(tmp_path, stamp, want, covered):
    if stamp is not None:
        (tmp_path / "stamp").write_text(stamp + "\n")
    done = bash(f"if stamp_covers abc {want}; then echo yes; else echo no; fi", tmp_path)
    assert done.stdout.strip() == ("yes" if covered else "no"), done.stderr


def test_quietly_shows_a_steps_output_only_when_it_fails(tmp_path):
    done = bash("quietly sh -c 'echo WARNING: location ignored; exit 0'; echo after", tmp_path)
    assert done.returncode == 0 and done.stdout == "after\n" and done.stderr == ""
    done = bash("quietly sh -c 'echo pip says why; exit 3'", tmp_path)
    assert done.returncode == 3 and "pip says why" in done.stderr
    assert "setup: failed: sh -c" in done.stdout
