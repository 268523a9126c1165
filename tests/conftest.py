"""Every test runs in an English shell unless it says otherwise: the `deckhand` commands
speak the shell's language (device.commands.words), and the tests read their English.

Temporary folders (tmp_path) live in memory when the machine has a roomy tmpfs: the
store fsyncs every commit (synchronous=FULL), and on disk those fsyncs were a large
share of the suite's wait (the browser crawl's tables alone make 2,528 commits). What
the tests prove is unchanged: the same SQLite code runs and fsyncs; kill -9 and the
power-cut tests kill processes, which never loses what the kernel holds, on disk or in
memory. `--basetemp` given on the command line wins.

The web tests make a new app for nearly every test, and each app's Jinja environment
compiled the same page templates again (about 0.37 s CPU for the host's page): every
app of the session shares one in-memory bytecode cache (Jinja's own, keyed by template
and checked against its source), so the templates are compiled once and render the
same."""
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


@pytest.fixture(scope="session", autouse=True)
def templates_compiled_once():
    from flask import Flask
    from jinja2 import BytecodeCache

    class InMemory(BytecodeCache):
        def __init__(self):
            self.code: dict[str, bytes] = {}

        def load_bytecode(self, bucket):
            if bucket.key in self.code:
                bucket.bytecode_from_string(self.code[bucket.key])

        def dump_bytecode(self, bucket):
            self.code[bucket.key] = bucket.bytecode_to_string()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Flask, "jinja_options", {**Flask.jinja_options, "bytecode_cache": InMemory()})
        yield
