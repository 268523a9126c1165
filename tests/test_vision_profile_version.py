"""A taught deck's profile says which features its learned reader was taught on
(`vision.profile.LEARNED_FEATURES`): one taught on other features (those before 27 Nov 2026,
session 10) is refused with a message in words telling the host to teach the
deck again, never read with weights that no longer fit; profiles with no learned reader
(Deckhand's printed decks, templates only) load as before."""
import dataclasses
import json

import numpy as np
import pytest

from device.decks import TaughtDecks
from vision.profile import LEARNED_FEATURES, ProfileError, load_profile_file, profile_from_faces, save_profile
from vision.reader import INDEX_DIM, LinearReader
from web.words import english, say


def small_profile(with_reader: bool):
    from vision.render.cards import render_card
    profile = profile_from_faces("my deck", [("Red 7", "", render_card("solo", "R7", "alt"))], views=1)
    if not with_reader:
        return profile
    width = 100 + INDEX_DIM
    reader = LinearReader(np.array([0, -1], np.int64), np.zeros(width, np.float32),
                          np.zeros((width, 2), np.float32), np.zeros(2, np.float32), index=True, share=0.5)
    return dataclasses.replace(profile, reader=reader)


def written_before(path, key="reader_features"):
    """The file as a Deckhand before the key was written would have saved it."""
    with np.load(path) as data:
        arrays = dict(data)
    meta = json.loads(str(arrays["meta"]))
    del meta[key]
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(path, **arrays)


def test_a_taught_profile_says_its_features_and_loads_back(tmp_path):
    path = save_profile(small_profile(True), tmp_path / "deck.npz")
    with np.load(path) as data:
        assert json.loads(str(data["meta"]))["reader_features"] == LEARNED_FEATURES
    loaded = load_profile_file(path)
    assert loaded.reader is not None and loaded.reader.index and loaded.reader.share == 0.5


def test_a_profile_taught_on_the_old_features_is_refused_in_words(tmp_path):
    path = save_profile(small_profile(True), tmp_path / "deck.npz")
    written_before(path)
    with pytest.raises(ProfileError) as caught:
        load_profile_file(path)
    assert caught.value.why.code == "profile.old_reader"
    message = caught.value.why.message()
    assert english(message) == f"{path} was taught with an older way of reading cards: teach the deck again"
    assert say(message, "fr") == (f"{path} a été appris avec une ancienne façon de lire les cartes : "
                                  "apprenez le jeu de nouveau")


def test_the_host_is_told_to_teach_the_old_deck_again_and_the_printed_deck_is_read(tmp_path):
    path = save_profile(small_profile(True), tmp_path / "taught-solo.npz")
    written_before(path)
    decks = TaughtDecks(tmp_path, printed=lambda game: ("printed", game))
    assert decks.profile("solo") == ("printed", "solo")
    assert english(decks.in_use("solo").problem).endswith(
        "was taught with an older way of reading cards: teach the deck again. The camera reads the printed deck.")


def test_a_profile_with_no_learned_reader_needs_no_features_version(tmp_path):
    path = save_profile(small_profile(False), tmp_path / "deck.npz")
    with np.load(path) as data:
        assert "reader_features" not in json.loads(str(data["meta"]))
    assert load_profile_file(path).reader is None
