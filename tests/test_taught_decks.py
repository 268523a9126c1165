"""Which deck the camera reads (device.decks): taught labels become the game's card codes,
a deck with other cards is refused in words, a damaged or old file falls back to the
printed deck with a clear log line, the host's choice survives a restart, training's end
puts the deck to use, and the camera loop swaps its recognizer while it runs."""
from __future__ import annotations

import json
import logging
import threading
import time

import numpy as np
import pytest

from device.app import _deck_recognizer, _tracker
from device.decks import (DeckError, DeckSwitch, TaughtDecks, best_games, card_code, fit_to_game,
                          games_fitting)
from device.simtable import SimScene, sim_spec
from device.store import EventStore
from device.table import LiveTable
from engine.observations import DISCARD
from web.words import english


def taught_profile(game: str, cards: list[tuple[str, str]], name: str = "my deck"):
    """A small real profile of `game`'s alternative printing, labelled as a host would
    (label, code): templates only, no learned reader (quick to build)."""
    from vision.profile import profile_from_faces
    from vision.render.cards import render_card
    return profile_from_faces(name, [(label, "", render_card(game, code, "alt")) for label, code in cards],
                              views=1)


class Printed:
    """The printed decks, as the camera would be given them (built-in profiles are slow
    to render the first time; what matters here is which one is handed out)."""

    def __init__(self):
        self.given: list[str] = []

    def __call__(self, game):
        self.given.append(game)
        return ("printed", game)


def test_labels_name_the_cards_of_a_game_by_code_or_by_name_in_either_language():
    assert card_code("solo", "Red 7") == card_code("solo", " r7 ") == card_code("solo", "ROUGE  7") == card_code("solo", "7 rouge") == "R7"
    assert card_code("flip7", "×2") == card_code("flip7", "x2") == "x2"
    assert card_code("flip7", "Gel") == card_code("flip7", "freeze") == "FREEZE"
    assert card_code("raj", "Blue 3") == "blue:3" and card_code("raj", "+2") == "P2"
    assert card_code("flip7", "Red 7") is None and card_code("solo", "Skip") is None


def test_a_taught_deck_is_relabelled_with_the_games_codes_or_refused_in_words():
    profile = taught_profile("solo", [("Red 7", "R7"), ("Vert 2", "G2")])
    fitted = fit_to_game(profile, "solo")
    assert fitted.labels == ("R7", "G2") and fitted.templates is profile.templates
    with pytest.raises(DeckError) as refused:
        fit_to_game(profile, "flip7")
    assert str(refused.value) == "The taught deck “my deck” does not fit Flip 7: Red 7 and Vert 2 are not Flip 7 cards."
    one = taught_profile("solo", [("Red 7", "R7"), ("Skip", "R-MISS")])
    with pytest.raises(DeckError, match="^The taught deck “my deck” does not fit Solo: Skip is not a Solo card.$"):
        fit_to_game(one, "solo")
    assert games_fitting(profile) == ["solo", "raj"]   # Raj has a red 7 and a green 2 too
    assert games_fitting(one) == []
    assert games_fitting(taught_profile("solo", [("Red 1", "R1")])) == ["hitthedeck", "solo", "raj"]
    # of those, the game whose deck it covers best (Solo 2 of 55 cards, Raj 2 of 90)
    assert best_games(profile) == ["solo"]
    assert best_games(taught_profile("solo", [("Red 1", "R1")])) == ["hitthedeck"]


def test_a_damaged_or_old_deck_file_gives_the_printed_deck_and_says_why(tmp_path, caplog):
    from vision.profile import save_profile
    caplog.set_level(logging.WARNING, logger="deckhand.decks")
    (tmp_path / "taught-flip7.npz").write_bytes(b"\x00garbage")
    path = save_profile(taught_profile("solo", [("Red 7", "R7")]), tmp_path / "taught-solo.npz")
    with np.load(path) as data:   # the same deck, written by a Deckhand of another format
        arrays = dict(data)
    meta = json.loads(str(arrays["meta"]))
    arrays["meta"] = np.array(json.dumps({**meta, "format": 1}))
    np.savez_compressed(path, **arrays)
    printed = Printed()
    decks = TaughtDecks(tmp_path, printed=printed)
    assert decks.profile("flip7") == ("printed", "flip7") and decks.profile("solo") == ("printed", "solo")
    damaged, old = decks.in_use("flip7"), decks.in_use("solo")
    assert not damaged.taught and not damaged.available
    assert english(damaged.problem).startswith("The taught deck could not be read: ")
    assert "is not a Deckhand deck profile" in english(damaged.problem)
    assert english(old.problem).endswith("was made by another version of Deckhand: teach the deck again. "
                                         "The camera reads the printed deck.")
    lines = [r.getMessage() for r in caplog.records]
    assert any("taught-flip7.npz is not read for flip7" in line for line in lines)
    assert any("taught-solo.npz is not read for solo" in line for line in lines)
    with pytest.raises(DeckError, match="could not be read"):
        decks.choose("flip7", "taught")


def test_the_hosts_choice_and_the_taught_deck_survive_a_restart(tmp_path):
    printed = Printed()
    decks = TaughtDecks(tmp_path, printed=printed)
    assert decks.in_use("flip7").to_json()["reading"] == "printed"
    with pytest.raises(DeckError, match="^No deck has been taught for Flip 7 yet.$"):
        decks.choose("flip7", "taught")
    in_use = decks.install(taught_profile("flip7", [("7", "7"), ("Gel", "FREEZE")], "cards at home"), "flip7")
    assert (in_use.taught, in_use.name, in_use.known, in_use.total) == (True, "cards at home", 2, 22)
    assert decks.profile("flip7").labels == ("7", "FREEZE")
    assert decks.choose("flip7", "printed").taught is False
    assert decks.profile("flip7") == ("printed", "flip7")
    with pytest.raises(DeckError, match="^Choose the printed deck or the taught one.$"):
        decks.choose("flip7", "mine")

    after = TaughtDecks(tmp_path, printed=printed)   # the next start
    assert after.in_use("flip7").to_json() == {**in_use.to_json(), "reading": "printed"}
    assert after.choose("flip7", "taught").taught
    assert TaughtDecks(tmp_path, printed=printed).profile("flip7").labels == ("7", "FREEZE")


def test_a_named_profile_is_read_for_the_games_it_fits_and_refused_for_others(tmp_path, caplog):
    from vision.profile import save_profile
    named = save_profile(taught_profile("solo", [("Red 7", "R7"), ("Blue 2", "B2")], "named"), tmp_path / "mine.npz")
    decks = TaughtDecks(tmp_path / "store", named=str(named), printed=Printed())
    assert decks.profile("solo").labels == ("R7", "B2")
    assert decks.in_use("solo").name == "named"
    flip7 = decks.in_use("flip7")
    assert not flip7.taught and english(flip7.problem) == \
        "The taught deck “named” does not fit Flip 7: Red 7 and Blue 2 are not Flip 7 cards."
    assert decks.profile("flip7") == ("printed", "flip7")
    missing = TaughtDecks(tmp_path / "store", named=str(tmp_path / "gone.npz"), printed=Printed()).in_use("solo")
    assert english(missing.problem).startswith("The taught deck could not be read: there is no profile file ")


def test_the_end_of_training_puts_the_deck_to_use_for_the_game_it_fits(tmp_path):
    store = EventStore(tmp_path / "deckhand.sqlite3")
    table = LiveTable(store)
    reloads = []
    switch = DeckSwitch(TaughtDecks(tmp_path, printed=Printed()), table, lambda: reloads.append(1))
    flip7 = taught_profile("flip7", [("7", "7"), ("12", "12")])
    # no match: kept for the games whose cards these are
    assert english(switch.trained(flip7)) == \
        "The taught deck “my deck” is kept for Flip 7: the camera reads it when a match starts."
    assert english(switch.trained(taught_profile("solo", [("Red 7", "R7"), ("Red 8", "R8")], "part"))) == \
        "The taught deck “part” is kept for Solo: the camera reads it when a match starts."
    assert (tmp_path / "taught-solo.npz").exists() and not (tmp_path / "taught-raj.npz").exists()
    assert english(switch.trained(taught_profile("solo", [("Skip", "R-MISS")]))) == \
        "No game has all the cards of the taught deck “my deck” (Skip): name each card as the list of cards does, then teach again."
    with pytest.raises(DeckError, match="^No match is being played: start one first.$"):
        switch.choose("printed")
    assert switch.colour_of("R3") == "red" and switch.colour_of("Blue 3") == "blue"   # in every game
    assert switch.colour_of("Freeze") == "" and switch.colour_of("Skip") == ""
    assert switch.for_game("Skip") and switch.for_game("7")      # no match: every shot trains
    table.new_match(sim_spec("solo", 2, 1).to_json(), "host")
    assert switch.for_game("Red 7") and not switch.for_game("7")
    switch.choose("printed")
    assert switch.in_use().game == "solo" and not switch.in_use().taught
    assert switch.colour_of("Red 7") == "red" and switch.colour_of("G-MISS") == "green"
    assert switch.colour_of("7") == ""
    said = switch.trained(flip7)   # a Flip 7 deck while Solo is played: refused, nothing changes
    assert english(said) == "The taught deck “my deck” does not fit Solo: 7 and 12 are not Solo cards."
    assert reloads == [1] and not switch.in_use().taught
    solo = taught_profile("solo", [("Red 7", "R7"), ("G-MISS", "G-MISS")])
    assert english(switch.trained(solo)) == "The camera now reads Solo with the taught deck “my deck”."
    assert reloads == [1, 1] and switch.in_use().taught
    assert switch.choose("printed").taught is False and reloads == [1, 1, 1]
    store.close()


def test_the_camera_loop_swaps_its_deck_while_it_runs_and_plays_nothing_that_lay_there(tmp_path):
    """Decks switched back and forth from another thread while frames stream: the loop
    reads on without a stop or an error, the card lying in the flip spot is never played
    by a change of deck, and after the last switch the chosen deck reads."""
    from device.camera.sim import SimSource
    from device.vision_loop import VisionLoop
    from vision.profile import builtin_profile
    store = EventStore(tmp_path / "deckhand.sqlite3")
    table = LiveTable(store)
    table.new_match(sim_spec("flip7", 3, 1).to_json(), "host")
    scene = SimScene("flip7", 1)
    scene.lay(DISCARD, "7")                       # Deckhand's own printing
    decks = TaughtDecks(tmp_path, printed=builtin_profile)
    decks.install(taught_profile("flip7", [("7", "7"), ("12", "12")]), "flip7")   # the other printing
    built = []

    def make(game, empty):
        recognizer = _deck_recognizer(decks)(game, empty)
        built.append(recognizer.profile.name)
        return recognizer

    loop = VisionLoop(SimSource(scene.render, fps=None), table, scene.zone_rects(), make_recognizer=make,
                      make_tracker=_tracker, empty_table=scene.empty_frame()).start()
    try:
        def read_now(label):
            start = loop.frames_read
            deadline = time.monotonic() + 20
            while True:
                latest = loop.latest
                if loop.frames_read > start + 2 and latest is not None and latest.reading is not None \
                        and [c.label for c in latest.reading.cards] == [label]:
                    return
                assert time.monotonic() < deadline, f"not read as {label}"
                time.sleep(0.02)

        read_now("unknown")                       # the taught deck cannot read the printed card
        switches = 0
        for which in ["printed", "taught"] * 6:
            decks.choose("flip7", which)
            loop.reload_recognizer()
            switches += 1
            time.sleep(0.03)
        decks.choose("flip7", "printed")
        loop.reload_recognizer()
        read_now("7")
        assert loop.alive and loop.error is None
        assert 2 <= len(built) <= switches + 2 and built[-1] == "flip7"
        assert loop.observations == 0
        assert not [r for r in table.match_rows(table.current_match.id) if r["source"] == "camera"]
    finally:
        loop.stop()
        store.close()


def test_a_profile_is_named_in_the_config_or_on_the_command_line(tmp_path, capsys):
    from device.cli import main
    from device.config import ConfigError, parse_config
    assert parse_config({"camera": {"profile": "~/decks/mine.npz"}}).camera.profile.endswith("/decks/mine.npz")
    assert not parse_config({"camera": {"profile": "~/decks/mine.npz"}}).camera.profile.startswith("~")
    assert parse_config({}).camera.profile is None
    with pytest.raises(ConfigError, match="camera.profile"):
        parse_config({"camera": {"profile": " "}})
    assert main(["run", "--profile", str(tmp_path / "gone.npz")]) == 2
    said = capsys.readouterr().err
    assert "there is no profile file" in said and "deckhand teach" in said and "flip7/alt" in said
