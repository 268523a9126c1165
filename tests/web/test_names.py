"""Every action, action field and setting of every game has a name (and the settings
their help) in words, in both languages: the host page never shows a type or field name."""
from __future__ import annotations

import dataclasses

import pytest

from engine.games import available_games, get_game
from web import names
from web.cards import deck_of


@pytest.mark.parametrize("game", available_games())
def test_every_action_field_and_setting_has_a_name(game):
    g = get_game(game)
    missing = []
    for kind, cls in g.actions.items():
        if names._action(game, kind) is None:
            missing.append(f"action {kind}")
        missing += [f"field {kind}.{f.name}" for f in dataclasses.fields(cls)
                    if f.init and names._field(game, f.name, False) is None]
    missing += [f"setting {f.name}" for f in dataclasses.fields(g.settings_type)
                if names._field(game, f.name, True) is None]
    assert not missing, missing


@pytest.mark.parametrize("game", available_games())
def test_every_card_has_a_name_in_both_languages(game):
    deck = deck_of(game)
    for card in deck:
        en, fr = names.card_name(game, card.code, "en"), names.card_name(game, card.code, "fr")
        assert en and fr and card.code not in (en, fr) or card.code.lstrip("+-").isdigit() \
            or card.code == "x2", (card.code, en, fr)
    assert names.card_name("solo", "R4", "fr") == "Rouge 4"
    assert names.card_name("hitthedeck", "G-CUT", "en") == "Green Cut"


def test_a_face_drawn_again_is_the_same_and_a_changed_copy_changes_nothing():
    from web.cards import face
    first = face("flip7", "12", "fr")
    assert first["label"] and first["short"] == "12" and first["known"]
    first["label"] = "changed by a caller"
    again = face("flip7", 12, "fr")
    assert again["label"] != "changed by a caller" and again == face("flip7", "12", "fr")
    assert face("flip7", None)["code"] == "" and not face("flip7", "zz")["known"]
