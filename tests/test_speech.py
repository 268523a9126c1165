"""Spoken announcements (device/speech.py): espeak-ng really speaks (rendered to a WAV
file and measured: not silence), the announcer says each change in the table's language
as the screens word it, and the [speech] settings are checked."""
from __future__ import annotations

import array
import shutil
import threading
import time
import wave
from pathlib import Path

import pytest

from device.config import ConfigError, parse_config
from device.speech import Announcer, EspeakVoice, SpeechError, spoken_lines
from device.store import EventStore
from device.table import LiveTable

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None,
                                  reason="espeak-ng is not installed (./setup.sh test installs it)")
MS = 1_000_000


def loudness(path: Path) -> tuple[float, float]:
    """(seconds, RMS of the 16-bit samples) of a WAV file."""
    with wave.open(str(path)) as w:
        assert w.getsampwidth() == 2
        frames = w.readframes(w.getnframes())
        seconds = w.getnframes() / w.getframerate()
    samples = array.array("h", frames)
    rms = (sum(s * s for s in samples) / max(1, len(samples))) ** 0.5
    return seconds, rms


@needs_espeak
@pytest.mark.parametrize("language, text", [("fr", "Bob pioche quatre"), ("en", "Bob draws four")])
def test_espeak_speaks_the_words_into_a_file_that_is_not_silence(tmp_path, language, text):
    seconds, rms = loudness(EspeakVoice(language).render(text, tmp_path / "said.wav"))
    assert seconds > 0.5
    assert rms > 300          # silence is 0; speech is in the thousands


@needs_espeak
def test_an_empty_sentence_is_silence_so_the_measure_can_tell(tmp_path):
    seconds, rms = loudness(EspeakVoice("en").render(" ", tmp_path / "quiet.wav"))
    assert rms < 300


def test_an_unknown_language_or_a_missing_program_is_said_in_words():
    with pytest.raises(SpeechError, match="no voice"):
        EspeakVoice("de")
    with pytest.raises(SpeechError, match="not installed"):
        EspeakVoice("en", program="no-such-espeak")


class FileVoice(EspeakVoice):
    """espeak-ng into numbered WAV files instead of the sound card (no sound card here)."""

    def __init__(self, language: str, folder: Path):
        super().__init__(language)
        self.folder, self.lines = folder, []

    def say(self, text: str) -> None:
        self.render(text, self.folder / f"{len(self.lines):03d}.wav")
        self.lines.append(text)


@needs_espeak
def test_the_announcer_says_a_slap_penalty_in_french(tmp_path):
    from engine.hitthedeck.actions import Play, Slap, StartHand, TurnUp
    store = EventStore(tmp_path / "deckhand.sqlite3")
    table = LiveTable(store)
    table.new_match({"type": "start", "game": "hitthedeck",
                     "seats": [{"name": n} for n in ("Ann", "Bob", "Cat")]}, "host")
    for action in (StartHand(), TurnUp("R3"), Play(1, "HIT-HAND", 1000 * MS),
                   Slap(1, 1100 * MS), Slap(0, 1150 * MS)):
        table.submit_action(action, "host")
    voice = FileVoice("fr", tmp_path)
    stop = threading.Event()
    announcer = Announcer(table, voice, "fr")
    thread = threading.Thread(target=announcer.run, args=(stop,), daemon=True)
    thread.start()
    time.sleep(0.2)
    table.submit_action(Slap(2, 1190 * MS), "host")        # Cat slaps last and draws four
    expected = spoken_lines(table.snapshot(), "fr")
    deadline = time.monotonic() + 20
    while len(voice.lines) < len(expected) and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    thread.join(5)
    store.close()
    assert expected and voice.lines == expected
    assert any("Cat" in line and "pioche" in line for line in voice.lines)   # « Cat … pioche quatre cartes »
    for wav in sorted(tmp_path.glob("*.wav")):
        assert loudness(wav)[1] > 300


def test_speech_settings_are_checked():
    config = parse_config({"speech": {"enabled": True, "language": "fr", "rate": 150}})
    assert (config.speech.enabled, config.speech.language, config.speech.rate) == (True, "fr", 150)
    assert parse_config({}).speech.enabled is False
    with pytest.raises(ConfigError, match=r"^speech.language: "):
        parse_config({"speech": {"language": "de"}})
    with pytest.raises(ConfigError, match=r"^speech.enabled: "):
        parse_config({"speech": {"enabled": "yes"}})
