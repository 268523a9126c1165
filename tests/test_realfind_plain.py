"""A deck whose face is no colour field (Deckhand's own printings, standard playing cards)
is looked for without the regions of saturated colour (`detect.PLAIN_SETTINGS`): on the
real photos' train_ split they found no card the other maps did not, only false outlines,
and cost about a tenth of the finding. Taught decks with colours keep them (the UNO
family's face is a colour field)."""
import dataclasses

import pytest

from tests.realphoto_helpers import PHOTOS, score
from tests.test_fieldfind import taught
from vision.courtframes import CourtSettings
from vision.detect import FIELD_SETTINGS, LEARNED_SETTINGS, PLAIN_SETTINGS, READ_FIELD_SETTINGS, DetectSettings
from vision.occludercuts import CutSettings
from vision.pipeline import Recognizer
from vision.profile import builtin_profile


def test_decks_with_no_colour_field_are_looked_for_with_the_plain_settings():
    printed = builtin_profile("solo")
    ranks = dataclasses.replace(printed, colours=("",) * len(printed.colours))   # playing cards by rank
    for profile, settings in ((printed, PLAIN_SETTINGS), (taught(ranks), LEARNED_SETTINGS)):
        real = Recognizer.create(profile).settings.real
        assert real == settings and not real.colour_fields
    # a taught deck's outlines get the learned scorer's last say (`vision.outlinescore`), and the
    # edge groups trimmed for it (`trim_spurs`), and the print groups (`print_groups`, taken only
    # at `print_chance`), and the top card of a fan looked for inside it (`WholeSettings.group_tops`),
    # from two corners and a side too (`top_sides`), and court cards from their picture
    # (`court`, `vision.courtframes`), and a card under a white object cut from it
    # (`occluder_cuts`, `vision.occludercuts`); a built-in deck's not
    assert LEARNED_SETTINGS == dataclasses.replace(PLAIN_SETTINGS, learned=True, trim_spurs=0.12, print_groups=0.06,
                                                   print_chance=0.5,
                                                   whole=dataclasses.replace(PLAIN_SETTINGS.whole, group_tops=1.25,
                                                                             top_sides=0.75),
                                                   court=CourtSettings(), occluder_cuts=CutSettings())
    assert not PLAIN_SETTINGS.learned and PLAIN_SETTINGS.trim_spurs == 0 and PLAIN_SETTINGS.print_groups < 0
    assert PLAIN_SETTINGS.court is None and PLAIN_SETTINGS.occluder_cuts is None
    coloured = Recognizer.create(dataclasses.replace(taught(printed), white_frame=True)).settings.real
    assert coloured == READ_FIELD_SETTINGS and coloured.colour_fields   # (printing no frame: tests/test_fullbleed.py)
    # read, a card running off the frame need not be paper-white inside when a white frame
    # runs round it (a wild's black field), and a framed field running off the frame with its
    # oval is outlined from the field (`cut_fields`, read only); teaching keeps FIELD_SETTINGS
    assert READ_FIELD_SETTINGS == dataclasses.replace(FIELD_SETTINGS, cut_framed=0.9, pale_fields=True, cut_fields=True)
    assert FIELD_SETTINGS.cut_framed == 0 and PLAIN_SETTINGS.cut_framed == 0 and LEARNED_SETTINGS.cut_framed == 0
    assert not (FIELD_SETTINGS.cut_fields or PLAIN_SETTINGS.cut_fields or LEARNED_SETTINGS.cut_fields)


needs_photos = pytest.mark.skipif(not PHOTOS.is_dir(), reason=f"no real photos at {PHOTOS} (../shared beside the repository)")


@needs_photos
@pytest.mark.parametrize("name", ["train_IMG_2497",   # a painted stone's orange patch
                                  "train_IMG_2533"])
def test_the_colour_regions_gave_false_outlines_only(name):
    every = score(name, DetectSettings())
    plain = score(name, DetectSettings(real=PLAIN_SETTINGS))
    assert (every.found, every.false) == (1, 1)
    assert (plain.found, plain.isolated_found, plain.false) == (1, every.isolated_found, 0)
