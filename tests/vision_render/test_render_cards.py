"""The card renderer: every code of every deck draws, distinctly, at any size."""
import numpy as np
import pytest

from engine.flip7.deck import DECK as FLIP7
from engine.hitthedeck.deck import DECK as HTD
from engine.raj.deck import DECK as RAJ, SEAT_COLOURS
from engine.solo.deck import DECK as SOLO
from vision.render.cards import (CANONICAL_SIZE, CARD_ASPECT, GAMES, STYLES, card_mask,
                                 deck_codes, render_back, render_card)

DECKS = {"hitthedeck": HTD, "solo": SOLO, "flip7": FLIP7, "raj": RAJ}


def test_deck_codes_are_the_engine_codes():
    for game, deck in DECKS.items():
        assert deck_codes(game) == deck.codes
    raj = deck_codes("raj")
    assert all(f"{c}:{v}" in raj for c in SEAT_COLOURS for v in range(1, 16))
    assert "P-5" in raj and "P10" in raj


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("game", GAMES)
def test_every_code_renders_distinctly_even_turned_round(game, style):
    codes = deck_codes(game)
    faces = [render_card(game, c, style) for c in codes]
    for face in faces:
        assert face.shape == (CANONICAL_SIZE[1], CANONICAL_SIZE[0], 3)
    # a quarter of the size keeps the test fast; strokes are still several pixels wide
    small = np.stack([f[1::4, 1::4] for f in faces]).astype(np.int16)
    for i in range(len(codes) - 1):
        for turned in (small[i], small[i, ::-1, ::-1]):
            strongly_different = (np.abs(small[i + 1:] - turned).max(axis=3) > 60).mean(axis=(1, 2))
            worst = int(np.argmin(strongly_different))
            assert strongly_different[worst] > 0.005, (codes[i], codes[i + 1 + worst])


def test_styles_differ_and_border_is_white_ish():
    for game in GAMES:
        for code in deck_codes(game)[:5]:
            a = render_card(game, code, "deckhand")
            b = render_card(game, code, "alt")
            assert np.abs(a.astype(int) - b).mean() > 40
            for face in (a, b):
                assert face[:4].min() > 180 and face[:, :4].min() > 180  # light outer border


def test_render_card_is_upright_and_any_size():
    face = render_card("solo", "R6", size=(744, 1039))
    assert face.shape == (1039, 744, 3) and face.dtype == np.uint8
    small = render_card("solo", "R6", size=(50, 70))
    assert small.shape == (70, 50, 3)
    assert abs(1039 / 744 - CARD_ASPECT) < 0.01
    # the 6's bar is below the centre: an upright card is not the same as turned round
    f = render_card("solo", "R6").astype(int)
    assert np.abs(f - f[::-1, ::-1]).mean() > 1


def test_returned_faces_are_copies():
    a = render_card("flip7", "7")
    a[:] = 0
    assert render_card("flip7", "7").max() > 0


def test_backs_and_mask():
    for style in STYLES:
        back = render_back(style)
        assert back.shape == (280, 200, 3)
    assert np.abs(render_back("deckhand").astype(int) - render_back("alt")).mean() > 20
    m = card_mask()
    assert m[140, 100] == 255 and m[0, 0] == 0 and m[0, 100] > 0
    assert 0.98 < (m > 127).mean() < 1.0


def test_bad_input_is_refused_in_words():
    with pytest.raises(ValueError, match="unknown game"):
        render_card("poker", "AS")
    with pytest.raises(ValueError, match="not a solo card"):
        render_card("solo", "R10")
    with pytest.raises(ValueError, match="style"):
        render_card("solo", "R1", style="fancy")
