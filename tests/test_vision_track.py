"""The tracker: a card is played once it lies still and uncovered; hands passing, cards
lifted and put back, and re-reads are never plays; a taken pile empties the zone; a
spread is read whole."""
import cv2
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from engine.observations import CardSeen, CardsLaidOut, ZoneEmpty
from test_vision_support import profile
from vision.detect import Detection
from vision.pipeline import FrameReading, Recognizer, SeenCard
from vision.render.scene import spread_scene
from vision.render.stage import SceneSpec
from vision.render.sequence import (card_landing_sequence, hand_pass_sequence, open_bids_sequence,
                                    pickup_putback_sequence, pile_taken_sequence, slap_sequence)
from vision.track import Zone, prime, start, step, zone_from_polygon

SIZE = (640, 480)
PILE = Zone("discard", (0.3, 0.2, 0.7, 0.8))


def card(label, x=320, y=240, angle=0.0, known=True):
    a = np.radians(angle)
    u, v = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    corners = np.array([-u * 40 - v * 56, u * 40 - v * 56, u * 40 + v * 56, -u * 40 + v * 56]) + [x, y]
    return SeenCard(label if known else "unknown", "", 0.9 if known else 0.0, corners.astype(np.float32))


def frame(*cards, covered=False, hand=None, hidden=(), changed_as=None):
    """A reading: the cards, and whether something (a hand) changes the zone's pixels
    (`covered`: over the middle of the zone; `hand`: over the rectangle x0, y0, x1, y1);
    `hidden`: cards lying there, too covered to be found; `changed_as`: the outlines that
    differ from the empty table, in place of the cards' own (glare: part of a card)."""
    changed = np.zeros((SIZE[1], SIZE[0]), np.uint8)
    for c in (*hidden, *cards) if changed_as is None else changed_as:
        cv2.fillPoly(changed, [np.round(c.corners).astype(np.int32)], 255)
    if covered:
        changed[200:300, 250:400] = 255
    if hand is not None:
        x0, y0, x1, y1 = hand
        changed[y0:y1, x0:x1] = 255
    return FrameReading(tuple(cards), Detection(tuple(cards), changed), SIZE)


def glared(c, share=0.6):
    """The part of card `c` that differs from the empty table under glare: `share` of it
    from its left side."""
    tl, tr, br, bl = c.corners
    return SeenCard("unknown", "", 0.0, np.float32([tl, tl + share * (tr - tl), bl + share * (br - bl), bl]))


def run(readings, zones=(PILE,), primed=None):
    state = start(list(zones))
    if primed is not None:
        state = prime(state, primed)
    events = []
    for t, reading in enumerate(readings):
        state, seen = step(state, reading, t)
        events += seen
    return events


def test_a_card_counts_once_it_has_lain_still_for_three_frames():
    events = run([frame(covered=True), frame(card("R3")), frame(card("R3")), frame(card("R3")),
                  frame(card("R3")), frame(card("R3"))])
    assert events == [CardSeen("discard", "R3", 3)]


HAND = (250, 150, 420, 320)        # a hand over the middle of the pile (cards lie at about 320, 240)
HAND_ASIDE = (380, 300, 448, 384)  # a hand in the zone, off the cards


def test_a_card_counts_the_moment_the_hand_that_laid_it_has_gone():
    bare = frame()
    readings = [frame(hand=HAND)] * 2 + [frame(card("R3"))] * 4
    assert run(readings, primed=bare) == [CardSeen("discard", "R3", 2)]


def test_a_card_laid_on_the_pile_counts_the_moment_the_hand_has_gone():
    old = card("B2", angle=30)
    new = card("R9", x=350, y=225, angle=5)
    readings = [frame(hand=HAND, hidden=[old])] * 2 + [frame(new, hidden=[old])] * 4
    assert run(readings, primed=frame(old)) == [CardSeen("discard", "R9", 2)]


def test_a_card_waits_for_the_stable_frames_while_a_hand_is_still_in_the_zone():
    readings = [frame(hand=HAND)] + [frame(card("R3"), hand=HAND_ASIDE)] * 4
    assert run(readings, primed=frame()) == [CardSeen("discard", "R3", 3)]


def test_a_hand_pass_then_one_misread_of_the_top_where_it_lies_is_no_play():
    # the frame after the hand reads the top card wrong once: it lies where the top lay,
    # so it must stay for the stable frames, and the next frames read it right
    top = card("G7", angle=12)
    readings = [frame(hand=HAND)] * 3 + [frame(card("G1", angle=12))] + [frame(top)] * 5
    assert run(readings, primed=frame(top)) == []


def test_a_card_of_the_pile_found_only_after_a_hand_passed_is_no_play():
    # the pile's top card was never found (glare, say) until a hand went over it; it lay
    # there all along, so it must wait for the stable frames, and it is lost again
    top = card("G4", angle=12)
    readings = [frame(hand=HAND, hidden=[top])] * 3 + [frame(top)] * 2 + [frame(hidden=[top])] * 4
    assert run(readings, primed=frame(hidden=[top])) == []


def test_a_card_lying_unseen_under_glare_found_after_a_hand_passed_is_no_play():
    # under a lamp's glare a white card on a pale cloth differs from the empty table on
    # only part of its face (here 60 %): the rest looked bare at start-up, when it was
    # not found at all; after a hand passed it is found and read, where it always lay
    top = card("Y4", angle=30)
    part = glared(top)
    readings = [frame(hand=HAND, changed_as=[part])] * 3 + [frame(top, changed_as=[part])] * 5
    assert run(readings, primed=frame(changed_as=[part])) == []


def test_a_card_unseen_under_glare_nudged_by_a_slap_and_found_after_is_no_play():
    # the same card unseen under glare; a slap nudges it (6 px, 4 degrees) before it is
    # found: its place changed only along a rim (Hit the Deck's slaps 131 and 149 of 500)
    top = card("Y4", angle=30)
    nudged = card("Y4", x=326, y=244, angle=34)
    readings = [frame(hand=HAND, changed_as=[glared(top)])] * 3 + [frame(nudged, changed_as=[glared(nudged)])] * 5
    assert run(readings, primed=frame(changed_as=[glared(top)])) == []


def test_a_card_laid_on_a_pile_never_seen_counts():
    # the same pile unseen under glare; a new card laid on it, half off it, counts
    old = card("Y4", angle=30)
    part = glared(old)
    new = card("R9", x=365, y=215, angle=5)
    readings = [frame(hand=HAND, changed_as=[part])] * 2 + [frame(new, changed_as=[part, new])] * 4
    assert run(readings, primed=frame(changed_as=[part])) == [CardSeen("discard", "R9", 2)]


def test_a_top_card_never_read_until_a_hand_went_by_is_no_play():
    # at start-up only an outline that could not be read was found on the pile (not where
    # the card lies: glare cut it); a hand lifts the top card and puts it back, and now it
    # is read, still and uncovered: it lay there all along
    top = card("R6", x=330, y=235, angle=10)
    unreadable = card("?", x=300, y=260, angle=60, known=False)
    readings = [frame(hand=HAND, hidden=[top])] * 3 + [frame(top)] * 5
    assert run(readings, primed=frame(unreadable, hidden=[top])) == []


def test_a_card_laid_half_off_a_pile_never_read_counts():
    old, new = card("B2", angle=30), card("R9", x=355, y=215, angle=5)
    readings = [frame(hand=HAND, hidden=[old])] * 2 + [frame(new, hidden=[old])] * 4
    assert run(readings, primed=frame(hidden=[old])) == [CardSeen("discard", "R9", 2)]


def test_a_card_lifted_and_held_in_the_air_beside_its_place_is_no_second_play():
    # the hand lifts the top card and holds it, read, clear of where it lay, for two
    # frames; then puts it back about where it was
    under, top = card("B2", angle=30), card("R9", x=330)
    held = card("R9", x=370, y=215, angle=14)
    readings = [frame(hand=HAND, hidden=[under, top])] * 2 \
        + [frame(held, hand=(390, 150, 448, 300), hidden=[under])] * 2 \
        + [frame(hand=HAND, hidden=[under, top])] * 2 + [frame(card("R9", x=334, angle=3), hidden=[under])] * 5
    assert run(readings, primed=frame(top, hidden=[under])) == []


def test_a_hand_resting_on_the_pile_and_going_is_no_play():
    # a slap: the hand lies flat on the pile long enough for its outline (found, not
    # read) to lie still for the stable frames; the top card shows again, a little nudged
    top = card("Y3", angle=30)
    palm = card("?", x=300, y=260, angle=-20, known=False)
    readings = [frame(palm, hand=HAND, hidden=[top])] * 4 + [frame(card("Y3", x=324, y=241, angle=34))] * 4
    assert run(readings, primed=frame(top)) == []


def test_slaps_nudging_the_top_again_and_again_are_no_play():
    # each slap moves the top card a little; together more than a quarter of its width
    readings = [frame(card("Y3"))]
    for k in range(1, 6):
        readings += [frame(hand=HAND, hidden=[card("Y3")])] * 2 + [frame(card("Y3", x=320 + 8 * k, angle=3 * k))] * 3
    assert run(readings, primed=frame(card("Y3"))) == []


def test_a_card_slid_in_counts_once_it_stops_and_never_while_it_slides():
    # no hand over the zone: the card is pushed or tossed in and slides to a stop; one
    # blurred frame on the way reads it as another card
    bare = frame()
    sliding = [card("R3", x=250 + 15 * i, y=240) for i in range(5)]
    sliding[2] = card("R8", x=280, y=240)
    readings = [bare] + [frame(c) for c in sliding] + [frame(card("R3", x=325, y=240))] * 4
    assert run(readings, primed=bare) == [CardSeen("discard", "R3", 7)]


def test_a_card_still_moving_does_not_count():
    events = run([frame(card("R3", x=300 + 15 * i)) for i in range(8)])
    assert events == []


def test_a_hand_passing_over_the_pile_is_no_play():
    still = frame(card("G7"))
    events = run([still] * 4 + [frame(covered=True)] * 5 + [frame(card("G7", known=False))] + [still] * 5)
    assert events == [CardSeen("discard", "G7", 2)]


def test_a_card_lifted_and_put_back_is_no_second_play():
    under, top = card("B2", angle=30), card("R9", x=330)
    readings = [frame(under)] * 3 + [frame(covered=True)] * 2 + [frame(top)] * 3 \
        + [frame(covered=True)] * 2 + [frame(under)] * 4 + [frame(covered=True)] * 2 \
        + [frame(card("R9", x=345, angle=8))] * 4
    assert [e.card for e in run(readings)] == ["B2", "R9"]


def test_a_second_copy_played_on_the_first_counts():
    # the first copy still lies beneath, showing where the second does not cover it
    readings = [frame(card("R5"))] * 3 + [frame(covered=True)] * 3 \
        + [frame(card("R5", x=360, angle=40), hidden=[card("R5")])] * 3
    assert [e.card for e in run(readings)] == ["R5", "R5"]


def test_the_top_card_slid_clearly_away_by_a_slap_is_no_second_copy():
    # two hands slap the pile and push its one card well off where it lay: that place is
    # bare table again, so the card read there now is the same card, moved
    top = card("Y4", angle=10)
    readings = [frame(hand=HAND, hidden=[top])] * 3 + [frame(card("Y4", x=372, y=262, angle=25))] * 5
    assert run(readings, primed=frame(top)) == []


def test_the_card_beneath_played_again_elsewhere_is_a_new_play():
    # R1, then R4 on it, then another R1 laid clearly off where the first R1 lies:
    # three plays (A, B, A), not R4 lifted off.
    still = lambda c: [frame(c)] * 4
    events = run([frame(covered=True), *still(card("R1")), frame(covered=True),
                  *still(card("R4", x=335, angle=20)), frame(covered=True),
                  *still(card("R1", x=300, y=260, angle=-35))])
    assert [e.card for e in events] == ["R1", "R4", "R1"]


def test_a_card_read_only_later_where_it_always_lay_is_no_play():
    events = run([frame(card("R5"))] * 5, primed=frame(card("R5", known=False)))
    assert events == []


def test_what_lies_there_at_start_up_is_not_played():
    assert run([frame(card("Y1"))] * 5, primed=frame(card("Y1"))) == []


def test_a_taken_pile_empties_the_zone_once():
    events = run([frame(card("R1"))] * 3 + [frame(covered=True)] * 2 + [frame()] * 8)
    assert events == [CardSeen("discard", "R1", 2), ZoneEmpty("discard", 8)]


def test_a_spread_is_read_whole_in_reading_order():
    zone = Zone("scoring", (0.0, 0.0, 1.0, 1.0), spread=True)
    row = [card(f"C{i}", x=100 + 100 * i, y=150) for i in range(5)] + \
          [card(f"D{i}", x=100 + 100 * i, y=330) for i in range(3)]
    half_covered = row[:-1] + [card("?", x=300, y=330, known=False)]
    events = run([frame(*half_covered)] * 4 + [frame(*row)] * 4, zones=(zone,))
    assert events == [CardsLaidOut("scoring", tuple(c.label for c in row), 6)]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["cover", "same", "clear"]), min_size=1, max_size=30))
def test_nothing_but_covering_and_uncovering_the_top_card_is_never_a_play(script):
    top = card("G4", angle=12)
    readings = {"cover": frame(covered=True), "same": frame(top), "clear": frame(top)}
    events = run([readings[s] for s in script], primed=frame(top))
    assert [e for e in events if isinstance(e, CardSeen)] == []


PILE_UNDER, PILE_TOP = card("B2", angle=30), card("G4", x=330, angle=12)
SCENES = {
    "hand": frame(hand=HAND, hidden=[PILE_UNDER, PILE_TOP]),                       # over the pile
    "hand aside": frame(PILE_TOP, hand=HAND_ASIDE, hidden=[PILE_UNDER]),             # in the zone, off it
    "top": frame(PILE_TOP, hidden=[PILE_UNDER]),
    "misread": frame(card("G1", x=330, angle=12), hidden=[PILE_UNDER]),             # the top read wrong
    "held": frame(card("G4", x=372, y=212, angle=20), hand=(390, 150, 448, 300),     # lifted, in the air
                  hidden=[PILE_UNDER]),
    "back": frame(card("G4", x=336, angle=6), hidden=[PILE_UNDER]),                   # put back, a bit off
}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(sorted(SCENES)), st.integers(1, 5)), min_size=1, max_size=12))
def test_hands_misreads_and_lifts_over_a_pile_are_never_a_play(script):
    # a misread or a card held in the air lasting the stable frames would be a play by
    # design (the tracker cannot tell it from a real one): they last at most 2 frames here
    kinds = [kind for kind, n in script for _ in range(n)]
    kinds = [k for i, k in enumerate(kinds)
             if k not in ("misread", "held") or kinds[max(0, i - 2):i + 1] != [k] * 3]
    readings = [SCENES[kind] for kind in kinds]
    events = run(readings, primed=SCENES["top"])
    assert [e for e in events if isinstance(e, CardSeen)] == []


# --- cards side by side in one zone (Raj's bids laid in the open) ----------------------

def best(c, confidence=0.95):
    """The same card, read with another confidence (the tracker's top is the card read best)."""
    return SeenCard(c.label, c.colour, confidence, c.corners)


POINT = card("P5", x=260, y=170)
BID_A, BID_B, BID_C = card("red:3", x=362, y=172, angle=4), card("blue:7", x=262, y=312, angle=-5), \
    card("green:12", x=360, y=314, angle=2)
ROW_HAND = (210, 100, 448, 384)    # hands over the whole zone


def test_cards_laid_side_by_side_at_once_each_count():
    # two bids come down at once beside the point card; one is read best (the top), the
    # other must count too
    readings = [frame(POINT, hand=ROW_HAND)] * 2 + [frame(POINT, best(BID_A), BID_B)] * 4
    events = run(readings, primed=frame(POINT))
    assert sorted((e.card, e.t_ns) for e in events) == [("blue:7", 4), ("red:3", 4)]


def test_a_card_laid_beside_the_top_counts_once_and_not_again_when_read_best():
    readings = [frame(POINT, hand=ROW_HAND)] * 2 + [frame(POINT, best(BID_A))] * 4 \
        + [frame(POINT, best(BID_A), hand=(210, 250, 448, 384))] * 2 + [frame(POINT, best(BID_A), BID_B)] * 5 \
        + [frame(covered=True, hidden=(POINT, BID_A, BID_B))] + [frame(POINT, BID_A, best(BID_B))] * 4
    events = run(readings, primed=frame(POINT))
    assert [(e.card, e.t_ns) for e in events] == [("red:3", 4), ("blue:7", 10)]


def test_a_card_laid_beside_counts_when_the_top_settled_while_its_hand_still_hid_it():
    # the top is down and still while the other bid's hand is still over that bid's place:
    # where the hand was is not where a card lay
    hand_over_b = (212, 250, 320, 384)
    readings = [frame(POINT, hand=ROW_HAND)] * 2 + [frame(POINT, best(BID_A), hand=hand_over_b)] * 4 \
        + [frame(POINT, best(BID_A), BID_B)] * 4
    events = run(readings, primed=frame(POINT))
    assert [(e.card, e.t_ns) for e in events] == [("red:3", 4), ("blue:7", 8)]


def test_a_second_copy_laid_beside_the_first_counts():
    # a Flip 7 line: a 3 and a 7 lie there; the dealer lays another 3 beside them
    three, seven = card("3", x=260, y=170), card("7", x=362, y=172, angle=4)
    readings = [frame(three, best(seven), hand=(212, 250, 320, 384))] * 2 \
        + [frame(three, best(seven), card("3", x=262, y=312, angle=-5))] * 4
    assert [e.card for e in run(readings, primed=frame(three, best(seven)))] == ["3"]


def test_a_card_of_the_pile_with_the_top_card_s_code_found_only_now_is_no_play():
    # a card under the top, of the same code, lay there unfound when the pile last
    # settled (with something unexplained in the zone); found now, it is no second copy
    top, under = card("R5", x=330, y=240), card("R5", x=270, y=290, angle=40)
    readings = [frame(hand=HAND, hidden=[top, under])] * 2 + [frame(top, hidden=[under])] * 4 \
        + [frame(top, under)] * 5
    assert run(readings, primed=frame(top)) == []


def test_a_card_of_a_row_lifted_and_held_beside_its_place_is_no_play():
    three, seven = card("3", x=260, y=170), card("7", x=362, y=172, angle=4)
    held = card("7", x=362, y=314, angle=10)
    readings = [frame(best(three), hand=(330, 100, 448, 240), hidden=[seven])] * 2 \
        + [frame(best(three), held, hand=(340, 250, 448, 384))] * 5 + [frame(best(three), seven)] * 4
    assert run(readings, primed=frame(best(three), seven)) == []


def test_another_card_of_a_row_read_best_after_a_hand_is_no_play():
    row = (POINT, BID_A, BID_B, BID_C)
    readings = []
    for top in (BID_B, POINT, BID_C, BID_A, POINT, BID_B):
        readings += [frame(covered=True, hidden=row)] + [frame(*[best(c) if c is top else c for c in row])] * 4
    assert run(readings, primed=frame(*row)) == []


ROW = (POINT, BID_A, BID_B)
ROW_SCENES = {
    "hands": frame(hand=ROW_HAND, hidden=ROW),
    "hand over one": frame(POINT, BID_B, hand=(300, 100, 448, 240), hidden=[BID_A]),
    "point best": frame(best(POINT), BID_A, BID_B),
    "A best": frame(POINT, best(BID_A), BID_B),
    "B best": frame(POINT, BID_A, best(BID_B)),
    "B not found": frame(POINT, best(BID_A), hidden=[BID_B]),
    "A misread": frame(POINT, card("red:8", x=362, y=172, angle=4), BID_B),    # read, but not best
    "B nudged": frame(POINT, BID_A, card("blue:7", x=270, y=305, angle=3)),
    "B held": frame(POINT, best(BID_A), card("blue:7", x=360, y=314, angle=10),        # lifted, held
                    hand=(330, 250, 448, 384)),                                          # beside its place
}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(sorted(ROW_SCENES)), st.integers(1, 5)), min_size=1, max_size=12))
def test_hands_misreads_and_any_card_read_best_over_a_row_are_never_a_play(script):
    readings = [ROW_SCENES[kind] for kind, n in script for _ in range(n)]
    events = run(readings, primed=ROW_SCENES["A best"])
    assert [e for e in events if isinstance(e, CardSeen)] == []


def test_zones_must_lie_inside_the_picture():
    with pytest.raises(ValueError, match="inside the picture"):
        Zone("discard", (0.5, 0.2, 0.4, 0.9))


# --- on rendered clips --------------------------------------------------------------

def play(clip, game):
    recognizer = Recognizer.create(profile(game), clip.empty)
    size = (clip.frames[0].shape[1], clip.frames[0].shape[0])
    state = start([zone_from_polygon(n, p, size) for n, p in clip.zones.items()])
    state = prime(state, recognizer.read(clip.frames[0]))
    events = []
    for i, image in enumerate(clip.frames[1:], start=1):
        state, seen = step(state, recognizer.read(image), i)
        events += [(i, e) for e in seen]
    return events


def test_rendered_hand_passes_and_put_backs_make_no_play():
    rng = np.random.default_rng(12)
    assert play(hand_pass_sequence("solo", rng), "solo") == []
    assert play(hand_pass_sequence("flip7", rng), "flip7") == []
    assert play(pickup_putback_sequence("solo", rng), "solo") == []


def test_a_rendered_card_landing_is_seen_soon_after_it_is_down():
    clip = card_landing_sequence("solo", "B-REV", np.random.default_rng(2))
    (at, event), = play(clip, "solo")
    assert event == CardSeen("discard", "B-REV", at)
    assert clip.landed_at <= at <= clip.landed_at + 4


def test_rendered_bids_laid_at_once_each_count_once_and_slaps_make_no_play():
    # Raj: two bids come down beside the point card at once, then a hand sweeps over
    # them all; Hit the Deck: two hands slap the pile and go
    clip = open_bids_sequence("raj", ["red:3", "blue:11"], np.random.default_rng(1), lying=["P4"],
                              flight=3, retreat=2, still_after=4, pass_after=6)
    events = play(clip, "raj")
    assert sorted(e.card for _, e in events) == ["blue:11", "red:3"]
    assert all(clip.events[0].frame <= at <= clip.events[0].frame + 3 for at, _ in events)
    assert play(slap_sequence("hitthedeck", np.random.default_rng(1), hands=2, down=2, still_after=4),
                "hitthedeck") == []


def test_a_rendered_slap_on_a_card_unseen_under_glare_is_no_play():
    # the bench's Hit the Deck slap 131 of 500 (seed 4), its table drawn again: a Red 2
    # alone on the red checked cloth under the lamp's glare is not found before the slap;
    # the slap nudges it, and once the hand has gone it is found and read
    spec = SceneSpec(table="cloth", tilt_deg=0.33, light="neutral", glare=True, blur=0.65, noise=2.45,
                     jpeg_quality=85, tilt_dir_deg=16.7, roll_deg=-85.35, zoom=1.024, card_width=0.1239,
                     table_variant=1, table_shift=(-0.1336, -0.0335))
    clip = slap_sequence("hitthedeck", np.random.default_rng(18), spec=spec, pile=["R2"], down=3, still_after=4)
    recognizer = Recognizer.create(profile("hitthedeck"), clip.empty)
    first, last = recognizer.read(clip.frames[0]), recognizer.read(clip.frames[-1])
    assert not first.cards and [c.label for c in last.cards] == ["R2"]
    assert play(clip, "hitthedeck") == []


def test_a_rendered_pile_taken_away_empties_the_zone():
    events = play(pile_taken_sequence("flip7", np.random.default_rng(3)), "flip7")
    assert [type(e) for _, e in events] == [ZoneEmpty]


FIFTEEN = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "+4", "x2", "FREEZE"]


def spread_events(seed):
    scene = spread_scene("flip7", FIFTEEN, np.random.default_rng(seed))
    reading = Recognizer.create(profile("flip7"), scene.empty).read(scene.image)
    state = start([Zone("scoring", (0.0, 0.0, 1.0, 1.0), spread=True)])
    events = []
    for t in range(4):
        state, seen = step(state, reading, t)
        events += seen
    return events


def test_a_rendered_spread_of_fifteen_is_read_whole():
    (event,) = spread_events(3)
    assert sorted(event.cards) == sorted(FIFTEEN)


def test_a_spread_with_a_card_not_found_is_not_reported_short():
    """In this picture some of the small, touching cards are not found (the bench counts
    how often): the spread must then not be reported at all. (Seed 0's picture was such
    until the highlights were smoothed more where they find no card: all 15 read now.)"""
    scene = spread_scene("flip7", FIFTEEN, np.random.default_rng(6))
    reading = Recognizer.create(profile("flip7"), scene.empty).read(scene.image)
    assert sum(c.known for c in reading.cards) < len(FIFTEEN)
    assert spread_events(6) == []
