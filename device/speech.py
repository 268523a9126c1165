"""Spoken announcements at the table: what just happened, said aloud in the table's
language by espeak-ng (Debian's package), off unless the configuration or
`deckhand run --speak` turns it on.

`Announcer` follows the table's change feed (LiveTable.events_since) and speaks the
notices of each action in words, the same sentences the screens show (web.present);
when it falls behind it speaks only the latest change, never a backlog. `EspeakVoice`
runs espeak-ng: `say` to the sound card, `render` to a WAV file (what the tests check).
"""
from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any, Callable, Protocol

log = logging.getLogger("deckhand.speech")

VOICES = {"en": "en", "fr": "fr-fr"}
SPOKEN_KINDS = ("action", "undo")


class SpeechError(RuntimeError):
    """Speech cannot be had (espeak-ng missing, an unknown language)."""


class Voice(Protocol):
    def say(self, text: str) -> None: ...


class EspeakVoice:
    """espeak-ng in one language at one rate."""

    def __init__(self, language: str = "en", rate: int = 165, program: str = "espeak-ng"):
        if language not in VOICES:
            raise SpeechError(f"no voice for the language {language!r} (known: {', '.join(VOICES)})")
        found = shutil.which(program)
        if found is None:
            raise SpeechError("espeak-ng is not installed (sudo apt install espeak-ng)")
        self.command = [found, "-v", VOICES[language], "-s", str(rate)]

    def say(self, text: str) -> None:
        subprocess.run([*self.command, "--", text], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=30, check=False)

    def render(self, text: str, path: Path) -> Path:
        """Speak `text` into a WAV file at `path` instead of the sound card."""
        subprocess.run([*self.command, "-w", str(path), "--", text], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=30, check=True)
        return path


def spoken_lines(snapshot: dict[str, Any], language: str) -> list[str]:
    """The notices of a change as the screens say them, in `language`."""
    from web.present import present      # the one place notices become words
    return [line for line in present(snapshot, language)["notices"] if line.strip()]


class Announcer:
    """Speaks every change of `table` with `voice` until `stop` is set."""

    def __init__(self, table: Any, voice: Voice, language: str,
                 words: Callable[[dict[str, Any], str], list[str]] = spoken_lines):
        self.table = table
        self.voice = voice
        self.language = language
        self.words = words
        self.spoken = 0

    def run(self, stop: threading.Event) -> None:
        seq = self.table.seq
        while not stop.is_set():
            events = self.table.events_since(seq, 1.0)
            if not events:
                continue
            seq = int(events[-1]["seq"])
            latest = events[-1]   # behind: only the newest change is worth saying
            if latest.get("kind") not in SPOKEN_KINDS:
                continue
            for line in self.words(latest["snapshot"], self.language):
                if stop.is_set():
                    return
                try:
                    self.voice.say(line)
                    self.spoken += 1
                except (OSError, subprocess.SubprocessError) as exc:
                    log.warning("speech failed: %s", exc)
