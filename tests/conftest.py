"""Every test runs in an English shell unless it says otherwise: the `deckhand` commands
speak the shell's language (device.commands.words), and the tests read their English."""
import pytest


@pytest.fixture(autouse=True)
def english_shell(monkeypatch):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
