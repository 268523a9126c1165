"""The French edition: its one difference (every HIT start card is buried) is tested in
test_htd_rules.py; here, every place where the French text reads differently but
Deckhand plays the same (docs/rules-notes.md, rows 5–13) is played in the French
edition and checked against the English ruling."""
import pytest

from engine.hitthedeck.actions import Draw, FakeOut, Flip, Pass, Play, SetHandSize, Slap

from htd_helpers import begin, notices, refused, run

MS = 1_000_000


@pytest.fixture(params=["en", "fr"])
def edition(request):
    return request.param


def test_a_player_who_cannot_meet_a_demand_must_draw_before_passing(edition):
    s = run(begin(3, edition=edition), Play(1, "HIT-2"))
    refused(s, Pass(2), "draw a card before passing")


def test_hit_cards_never_meet_a_demand(edition):
    s = run(begin(3, edition=edition), Play(1, "HIT-2"))
    refused(s, Play(2, "HIT-3"), "never meets")
    refused(s, Play(2, "HIT-HAND", 0), "never meets")


def test_a_colour_demand_must_be_met_before_anything_else(edition):
    s = run(begin(3, edition=edition), Play(1, "HIT-B"), Draw(2), Pass(2))
    refused(s, Play(0, "R3"), "blue card is due")
    assert run(s, Play(0, "B3")).demand is None


def test_flip_gives_its_player_the_next_turn_on_the_exposed_card(edition):
    s = run(begin(3, edition=edition), Play(1, "R-FLIP"), Flip(2, "HIT-4"))
    assert s.turn == 1 and s.direction == -1 and s.demand == "HIT-4"


def test_after_a_hand_play_goes_on_in_the_current_direction_not_to_the_left(edition):
    s = run(begin(4, edition=edition), Play(1, "R-FLIP"), Flip(2, "G2"))
    assert s.direction == -1 and s.turn == 1
    s = run(s, Play(1, "HIT-HAND", 100 * MS), Slap(0, 200 * MS), Slap(1, 300 * MS),
            Slap(2, 400 * MS), Slap(3, 500 * MS))
    assert s.turn == 0  # anticlockwise after Bob; "à gauche" would be Cat


def test_a_fake_out_changes_nobodys_turn(edition):
    s = begin(3, edition=edition)
    assert run(s, FakeOut(0, 10)).turn == s.turn


def test_the_reshuffle_keeps_the_top_discard_in_play(edition):
    s = run(begin(3, edition=edition), Play(1, "R4"), Play(2, "R5"))
    s = run(s, SetHandSize(0, 110 - 3 - sum(s.hand_counts[1:])))
    assert s.draw_size == 0
    said = notices(s, Draw(0))
    s = run(s, Draw(0))
    assert said[0].code == "reshuffle" and s.top == "R5" and s.discard_size == 1
