"""Deck profiles: built in from the renderer and cached, saved and loaded, refused in words."""
import dataclasses

import numpy as np
import pytest

from test_vision_support import profile
from vision.classify import classify, face_features
from vision.profile import (ProfileError, builtin_profile, load_profile, load_profile_file,
                            save_profile)
from vision.render.cards import render_card


def test_a_saved_profile_reads_the_same(tmp_path):
    p = profile("flip7")
    path = save_profile(p, tmp_path / "flip7-copy")
    assert path.suffix == ".npz"
    again = load_profile(str(path))
    assert again.labels == p.labels and again.frame_insets == p.frame_insets
    for code in ("0", "12", "+10", "x2", "CHANCE"):
        features = face_features(render_card("flip7", code))
        assert classify(features, again) == classify(features, p)


def test_built_in_profiles_are_rendered_once_then_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    first = builtin_profile("flip7")
    cached = list((tmp_path / "deckhand" / "profiles").glob("flip7-deckhand-*.npz"))
    assert len(cached) == 1
    again = builtin_profile("flip7")
    assert again.labels == first.labels
    assert np.array_equal(again.templates, first.templates)


def test_profiles_by_name_cover_the_four_games():
    assert load_profile("flip7").labels == profile("flip7").labels
    with pytest.raises(ProfileError, match="built-in decks"):
        builtin_profile("poker")


def test_bad_profile_files_are_refused_in_words(tmp_path):
    with pytest.raises(ProfileError, match="no profile file"):
        load_profile_file(tmp_path / "missing.npz")
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"not a profile")
    with pytest.raises(ProfileError, match="not a Deckhand deck profile"):
        load_profile_file(junk)


def test_a_taught_profiles_ink_cap_confidence_bar_and_glyph_height_survive_saving(tmp_path):
    import dataclasses

    from vision.profile import profile_from_faces

    faces = [(code, "", render_card("flip7", code, "alt")) for code in ("3", "8", "FREEZE")]
    taught = profile_from_faces("mine", faces, views=2, harsh=True, ink_cap=30.0)
    taught = dataclasses.replace(taught, min_confidence=0.4, glyph_height=0.11)
    again = load_profile_file(save_profile(taught, tmp_path / "mine"))
    assert (again.ink_cap, again.min_confidence, again.glyph_height) == (30.0, 0.4, 0.11)
    features = face_features(render_card("flip7", "8", "alt"), again.ink_cap)
    assert classify(features, again) == classify(features, taught)
    assert classify(features, again).label == "8"


def test_the_profiles_confidence_bar_turns_a_doubtful_reading_into_unknown():
    import dataclasses

    p = profile("flip7")
    features = face_features(render_card("flip7", "7"))
    sure = classify(features, p)
    assert sure.label == "7"
    strict = dataclasses.replace(p, min_confidence=sure.confidence + 0.01)
    assert classify(features, strict).label == "unknown"



def test_a_learned_readers_doubt_survives_saving_and_an_older_profile_has_none(tmp_path):
    import dataclasses

    from vision.profile import profile_from_faces
    from vision.reader import LinearReader

    faces = [(code, "", render_card("flip7", code, "alt")) for code in ("3", "8")]
    base = profile_from_faces("mine", faces, views=1, harsh=True, ink_cap=30.0)
    classes = np.array([0, 1, -1])
    reader = LinearReader(classes, np.zeros(4, np.float32), np.eye(4, 3, dtype=np.float32),
                          np.zeros(3, np.float32), 20.0, 0.45)
    again = load_profile_file(save_profile(dataclasses.replace(base, reader=reader), tmp_path / "doubt"))
    assert again.reader.doubt == pytest.approx(0.45) and again.reader.temperature == 20.0
    older = dataclasses.replace(reader, doubt=-np.inf)
    kept = load_profile_file(save_profile(dataclasses.replace(base, reader=older), tmp_path / "older"))
    assert kept.reader.doubt == -np.inf



def test_a_reader_of_the_corner_index_survives_saving_and_an_older_reader_reads_without_it(tmp_path):
    import dataclasses

    from vision.profile import profile_from_faces
    from vision.reader import INDEX_DIM, LinearReader

    faces = [(code, "", render_card("flip7", code, "alt")) for code in ("3", "8")]
    base = profile_from_faces("mine", faces, views=1, harsh=True, ink_cap=30.0)
    features = face_features(render_card("flip7", "8"), base.ink_cap)
    hog = features.hog.shape[1]
    rng = np.random.default_rng(3)
    classes = np.array([0, 1, -1])
    older = LinearReader(classes, np.zeros(hog, np.float32), rng.normal(size=(hog, 3)).astype(np.float32),
                         np.zeros(3, np.float32), 20.0)
    newer = LinearReader(classes, np.zeros(hog + INDEX_DIM, np.float32),
                         rng.normal(size=(hog + INDEX_DIM, 3)).astype(np.float32), np.zeros(3, np.float32),
                         20.0, 0.4, index=True)
    for reader, name in ((older, "older"), (newer, "newer")):
        profile = dataclasses.replace(base, reader=reader)
        again = load_profile_file(save_profile(profile, tmp_path / name))
        assert again.reader.index == reader.index
        # an older profile's reader reads the HOG alone, a newer one the index block too
        assert classify(features, again) == classify(features, profile)


def test_a_saved_profile_keeps_whether_its_deck_is_full_bleed(tmp_path):
    for bleeding in (True, False):
        deck = dataclasses.replace(profile("solo"), full_bleed=bleeding)
        path = save_profile(deck, tmp_path / f"deck-{bleeding}")
        assert load_profile_file(str(path)).full_bleed is bleeding


def test_a_saved_profile_keeps_its_white_frames_width(tmp_path):
    """The frame's taught width (vision.framescale) reads the length of a card cut by the
    photo's border: it must survive saving, and a profile without it stays without."""
    for widths in ((0.0341, 0.0529), ()):
        deck = dataclasses.replace(profile("solo"), frame_widths=widths)
        path = save_profile(deck, tmp_path / f"deck-{len(widths)}")
        assert load_profile_file(str(path)).frame_widths == pytest.approx(widths)
