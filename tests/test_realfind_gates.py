"""Where the finder's costly passes look (`vision.realfind`): the line segments, the whole
cards' segments and the ink are looked for only where something is left unexplained, and
an outline the finder judged a card's explains what it holds, whatever its shape."""
from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision import edgequads, wholecards
from vision.detect import PLAIN_SETTINGS
from vision.quadgates import unlike_card
from vision.realfind import _line_candidates, _unexplained_paper


def _square_on_paper() -> tuple[np.ndarray, np.ndarray]:
    """A whiteness map with one square of paper (no card's side ratio) on a dark table,
    and the square's outline."""
    white = np.full((240, 320), 60, np.uint8)
    white[40:120, 40:120] = 230
    quad = np.float32(((40, 40), (119, 40), (119, 119), (40, 119)))
    assert unlike_card(quad) > PLAIN_SETTINGS.line_unlike   # a square is no card's shape
    return white, quad


def test_paper_an_outline_of_any_shape_holds_is_not_searched_for_line_segments(monkeypatch):
    white, quad = _square_on_paper()
    gray = white.copy()
    looked = []
    monkeypatch.setattr(edgequads, "find", lambda gray, white, box, *args, **kw: looked.append(box) or [])
    square = (0.8, float(cv2.contourArea(quad)), quad)   # followed 80 % of its length: judged a card
    settings = PLAIN_SETTINGS
    _line_candidates(gray, white, [square], (320, 240), 0.5 * 320 * 240, settings)
    assert looked == []
    # the rule before: only an outline followed 85 % of its length, of a card's side ratio
    before = replace(settings, line_explained=0.85, line_explained_unlike=settings.line_unlike)
    _line_candidates(gray, white, [square], (320, 240), 0.5 * 320 * 240, before)
    assert len(looked) == 1
    # paper no outline holds is still searched
    _line_candidates(gray, white, [], (320, 240), 0.5 * 320 * 240, settings)
    assert len(looked) == 2


def test_a_page_an_outline_of_any_shape_holds_is_not_searched_for_ink():
    white = np.full((240, 320), 60, np.uint8)
    white[40:130, 40:130] = 230                # a page's worth of paper (over 8 short sides squared)
    quad = np.float32(((40, 40), (129, 40), (129, 129), (40, 129)))
    settings = PLAIN_SETTINGS
    assert _unexplained_paper(white, [], settings, settings.ink.page, unlike=settings.ink.unlike) is not None
    kept = [(1.0, 0.0, quad)]
    assert _unexplained_paper(white, kept, settings, settings.ink.page, unlike=settings.ink.unlike) is None
    assert _unexplained_paper(white, kept, settings, settings.ink.page, unlike=0.3) is not None   # before


def _card_face(white: np.ndarray, x: int, y: int) -> np.ndarray:
    """Paint a 50 x 70 card face (paper, an index in two opposite corners) at (x, y)."""
    white[y:y + 70, x:x + 50] = 230
    white[y + 4:y + 14, x + 3:x + 10] = 30      # the index, top left
    white[y + 56:y + 66, x + 40:x + 47] = 30    # and bottom right
    return np.float32(((x, y), (x + 49, y), (x + 49, y + 69), (x, y + 69)))


def test_an_outline_showing_a_card_face_is_not_searched_for_the_card_it_holds():
    white = np.full((240, 320), 60, np.uint8)
    card = _card_face(white, 100, 80)
    settings = wholecards.WholeSettings()
    assert wholecards.looks_like_a_card(card, white, settings)
    piece = np.float32(((112, 100), (138, 100), (138, 135), (112, 135)))   # its picture, say
    areas = [float(cv2.contourArea(card))]
    where = wholecards._where_to_look([card], areas, [piece], white, unlike_card, settings)
    assert where is None
    assert wholecards._where_to_look([card], areas, [piece], white, unlike_card,
                                     replace(settings, look_in_faces=True)) is not None   # before
    # an outline holding a piece whose inside is no card's face is still looked in
    white[80:150, 100:150] = 230
    assert not wholecards.looks_like_a_card(card, white, settings)
    assert wholecards._where_to_look([card], areas, [piece], white, unlike_card, settings) is not None


def test_a_page_is_searched_for_ink_only_when_its_paper_has_holes_a_card_s_pips_could_be():
    white = np.full((240, 320), 60, np.uint8)
    white[40:130, 40:200] = 230                # a page (over 8 short sides squared), blank
    settings = PLAIN_SETTINGS
    ink = settings.ink

    def looked() -> bool:
        return _unexplained_paper(white, [], settings, ink.page, unlike=ink.unlike, holes=ink.holes) is not None

    assert _unexplained_paper(white, [], settings, ink.page) is not None   # before: looked
    assert not looked()
    for k in range(ink.holes - 1):             # pips of a card merged with the page: one too few
        white[60:66, 60 + 12 * k:66 + 12 * k] = 20
    assert not looked()
    white[90:96, 60:66] = 20
    assert looked()
