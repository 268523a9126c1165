"""Every test runs in an English shell unless it says otherwise: the `deckhand` commands
speak the shell's language (device.commands.words), and the tests read their English.

Temporary folders (tmp_path) live in memory when the machine has a roomy tmpfs: the
store fsyncs every commit (synchronous=FULL), and on disk those fsyncs were a large
share of the suite's wait (the browser crawl's tables alone make 2,528 commits). What
the tests prove is unchanged: the same SQLite code runs and fsyncs; kill -9 and the
power-cut tests kill processes, which never loses what the kernel holds, on disk or in
memory. `--basetemp` given on the command line wins."""
import os
import shutil
import tempfile

import pytest

MEMORY = "/dev/shm"
ROOM = 2 << 30   # bytes free on the tmpfs before the tests' folders go there


def _memory_folder() -> str | None:
    try:
        stat = os.statvfs(MEMORY)
    except OSError:
        return None
    if stat.f_bavail * stat.f_frsize < ROOM or not os.access(MEMORY, os.W_OK):
        return None
    return tempfile.mkdtemp(dir=MEMORY, prefix="deckhand-tests-")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    if config.option.basetemp is None and not hasattr(config, "workerinput"):
        folder = _memory_folder()
        if folder is not None:
            config.option.basetemp = folder
            config._deckhand_memory_temp = folder


def pytest_sessionfinish(session, exitstatus):
    # kept after a failure, to look at (the tmpfs is emptied at the next boot)
    folder = getattr(session.config, "_deckhand_memory_temp", None)
    if folder is not None and exitstatus == 0:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(autouse=True)
def english_shell(monkeypatch):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
