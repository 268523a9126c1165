"""Every Hit the Deck rule (rule books + RULINGS.md), one test each, through GAME.apply."""
from dataclasses import replace

import pytest

from engine.core import EndMatch, IllegalAction
from engine.hitthedeck import GAME
from engine.hitthedeck.actions import (CloseWindow, Cut, Draw, FakeOut, Flip, ForgotCall,
                                       HandCards, Pass, Play, SetHandSize, Slap, StartHand, TurnUp)
from engine.hitthedeck.state import COUNTING, DEAL, MUST_CUT, MUST_FLIP, MUST_UNBURY, OVER, START

from engine.hitthedeck.referee import interpret
from engine.observations import PadPressed

from htd_helpers import begin, notices, refused, run, spec
from said import refused_in_words

MS = 1_000_000


# ------------------------------------------------------------------ start of a hand

def test_deal_gives_seven_each_and_the_rest_is_the_draw_pile():
    s = run(GAME.start(spec(4)), StartHand())
    assert s.phase == START and s.hand_counts == (7, 7, 7, 7) and s.draw_size == 110 - 28


def test_a_number_start_card_lets_the_player_left_of_the_dealer_start():
    s = begin(3, "R3")
    assert s.turn == 1 and s.top == "R3" and s.demand is None and s.direction == 1
    assert s.discard_size == 1 and s.draw_size == 110 - 21 - 1


@pytest.mark.parametrize("edition", ["en", "fr"])
def test_a_hand_start_card_is_buried_and_the_next_card_turned_up(edition):
    s = run(GAME.start(spec(3, edition=edition)), StartHand(), TurnUp("HIT-HAND"))
    assert s.phase == START and s.top is None and s.discard_size == 0 and s.draw_size == 89
    s = run(s, TurnUp("G2"))
    assert s.top == "G2" and s.turn == 1


@pytest.mark.parametrize("card", ["HIT-3", "HIT-G"])
def test_english_start_hit_card_is_a_demand_on_the_first_player(card):
    s = begin(3, card, edition="en")
    assert s.demand == card and s.turn == 1
    refused(s, Play(1, "HIT-4"), "never meets")


@pytest.mark.parametrize("card", ["HIT-3", "HIT-G", "HIT-HAND"])
def test_french_edition_buries_every_hit_start_card(card):
    s = run(GAME.start(spec(3, edition="fr")), StartHand(), TurnUp(card))
    assert s.phase == START and s.top is None and s.demand is None


def test_a_cut_start_card_makes_the_player_left_of_the_dealer_cut_and_be_skipped():
    s = begin(3, "B-CUT")
    assert s.turn == 1 and s.must == MUST_CUT
    s = run(s, Cut(1, "Y4"))
    assert s.top == "Y4" and s.turn == 2 and s.discard_size == 2


def test_a_flip_start_card_reverses_play_and_the_dealer_plays_first():
    s = begin(3, "G-FLIP")
    assert s.turn == 1 and s.must == MUST_FLIP
    draw_before = s.draw_size
    s = run(s, Flip(1, "G5"))
    assert s.direction == -1 and s.turn == 0 and s.top == "G5"
    assert s.discard_size == draw_before and s.draw_size == 1


def test_the_dealer_moves_left_each_hand_and_the_next_player_starts():
    s = begin(2, "R3")
    s = run(s, SetHandSize(1, 1), Play(1, "R4"), HandCards(0, ("R1",)))
    assert s.phase == DEAL and s.progress.dealer == 1
    s = run(s, StartHand(), TurnUp("B2"))
    assert s.turn == 0


# ------------------------------------------------------------------ matching

def test_numbers_match_by_colour_or_by_number():
    s = begin(3, "R3")
    run(s, Play(1, "R5"))
    run(s, Play(1, "B3"))
    refused(s, Play(1, "B5"), "neither by colour nor by number")


def test_word_cards_go_only_on_their_own_colour():
    s = begin(3, "R3")
    run(s, Play(1, "R-CUT"))
    run(s, Play(1, "R-FLIP"))
    refused(s, Play(1, "B-CUT"), "own colour")
    refused(s, Play(1, "G-FLIP"), "own colour")
    on_cut = replace(s, top="R-CUT")
    run(on_cut, Play(1, "R-CUT"))
    refused(on_cut, Play(1, "B-CUT"), "own colour")


def test_hit_cards_go_on_anything():
    s = begin(3, "R3")
    for card in ("HIT-5", "HIT-B", "HIT-HAND"):
        run(s, Play(1, card, 0))


def test_only_the_player_whose_turn_it_is_plays():
    refused(begin(3), Play(2, "R4"), "Bob's turn")


def test_a_player_who_cannot_play_draws_one_and_may_play_it_or_pass():
    s = run(begin(3), Draw(1))
    assert s.hand_counts[1] == 8 and s.turn == 1
    refused(s, Draw(1), "drawn already")
    assert run(s, Play(1, "R2")).turn == 2
    passed = run(s, Pass(1))
    assert passed.turn == 2 and passed.hand_counts[1] == 8
    refused(begin(3), Pass(1), "draw a card before passing")


# ------------------------------------------------------------------ HIT demands

def test_a_number_demand_is_met_only_by_that_number():
    s = run(begin(3), Play(1, "HIT-4"))
    assert s.demand == "HIT-4" and s.turn == 2
    refused(s, Play(2, "R3"), "a 4 is due")
    refused(s, Play(2, "HIT-4"), "never meets")
    refused(s, Play(2, "R-CUT"), "a 4 is due")
    met = run(s, Play(2, "G4"))
    assert met.demand is None and met.turn == 0
    run(met, Play(0, "G1"))  # play continues from the card that met it
    refused(met, Play(0, "R3"), "neither")


def test_a_demand_passes_from_player_to_player_until_met():
    s = run(begin(3), Play(1, "HIT-G"), Draw(2), Pass(2))
    assert s.demand == "HIT-G" and s.turn == 0
    refused(s, Play(0, "R3"), "green card is due")
    s = run(s, Draw(0), Pass(0), Draw(1), Play(1, "G2"))
    assert s.demand is None and s.turn == 2


def test_a_colour_demand_may_be_met_by_a_word_card_of_that_colour_which_then_acts():
    s = run(begin(3), Play(1, "HIT-G"), Play(2, "G-CUT"))
    assert s.demand is None and s.must == MUST_CUT and s.turn == 0
    s = run(begin(3), Play(1, "HIT-G"), Play(2, "G-FLIP"))
    assert s.must == MUST_FLIP and s.turn == 0
    refused(run(begin(3), Play(1, "HIT-G")), Play(2, "HIT-HAND", 0), "never meets")


# ------------------------------------------------------------------ CUT

def test_cut_the_next_player_cuts_is_skipped_and_the_one_after_follows_the_exposed_card():
    s = run(begin(4), Play(1, "R-CUT"))
    assert s.turn == 2 and s.must == MUST_CUT
    refused(s, Play(2, "R1"), "must cut")
    refused(s, Cut(3, "B2"), "Cat's turn")
    s = run(s, Cut(2, "B2"))
    assert s.top == "B2" and s.turn == 3 and s.hand_counts == (7, 6, 7, 7)
    run(s, Play(3, "B5"))
    refused(s, Play(3, "R1"), "neither")


def test_an_exposed_cut_makes_the_next_player_cut_and_be_skipped():
    s = run(begin(4), Play(1, "R-CUT"), Cut(2, "Y-CUT"))
    assert s.turn == 3 and s.must == MUST_CUT
    s = run(s, Cut(3, "G1"))
    assert s.turn == 0 and s.top == "G1"


def test_an_exposed_hit_number_is_a_demand_on_the_player_after_the_cutter():
    s = run(begin(4), Play(1, "R-CUT"), Cut(2, "HIT-2"))
    assert s.demand == "HIT-2" and s.turn == 3


def test_an_exposed_hand_is_called_by_the_player_after_the_cutter():
    s = run(begin(4), Play(1, "R-CUT"), Cut(2, "HIT-HAND", 10 * MS))
    assert s.window is not None and s.window.caller == 3 and s.window.eligible == (0, 1, 2, 3)
    s = run(s, Slap(3, 200 * MS), Slap(0, 210 * MS), Slap(1, 220 * MS), Slap(2, 300 * MS))
    assert s.hand_counts == (7, 6, 11, 7) and s.turn == 0 and s.free


def test_a_flip_exposed_by_a_cut_acts_and_the_cutter_acts_next():
    s = run(begin(4), Play(1, "R-CUT"), Cut(2, "B-FLIP"))
    assert s.turn == 3 and s.must == MUST_FLIP
    s = run(s, Flip(3, "Y2"))
    assert s.direction == -1 and s.turn == 2 and s.top == "Y2"


# ------------------------------------------------------------------ FLIP

def test_flip_exchanges_the_piles_reverses_play_and_its_player_follows_the_new_top():
    s = run(begin(4), Play(1, "R-FLIP"))
    assert s.turn == 2 and s.must == MUST_FLIP
    draw, discard = s.draw_size, s.discard_size
    s = run(s, Flip(2, "G4"))
    assert (s.discard_size, s.draw_size) == (draw, discard)
    assert s.direction == -1 and s.turn == 1 and s.top == "G4"
    s = run(s, Play(1, "G2"))
    assert s.turn == 0  # play goes on in the new direction


def test_a_flip_exposed_by_a_flip_is_buried_and_the_card_under_it_counts():
    s = run(begin(4), Play(1, "R-FLIP"), Flip(2, "B-FLIP"))
    assert s.must == MUST_UNBURY and s.turn == 2 and s.direction == -1
    size = s.discard_size
    s = run(s, Flip(2, "Y-FLIP"))
    assert s.must == MUST_UNBURY and s.direction == -1
    s = run(s, Flip(2, "HIT-5"))
    assert s.direction == -1 and s.discard_size == size and s.demand == "HIT-5" and s.turn == 1


def test_an_exposed_cut_after_a_flip_makes_the_flip_player_cut():
    s = run(begin(4), Play(1, "R-FLIP"), Flip(2, "G-CUT"))
    assert s.turn == 1 and s.must == MUST_CUT
    s = run(s, Cut(1, "G3"))
    assert s.turn == 0


def test_an_exposed_hand_after_a_flip_is_called_by_the_flip_player():
    s = run(begin(3), Play(1, "R-FLIP"), Flip(2, "HIT-HAND", 5 * MS))
    assert s.window.caller == 1


# ------------------------------------------------------------------ HIT WITH A HAND

def hand_played(n=4):
    return run(begin(n), Play(1, "HIT-HAND", 1000 * MS))


def test_everyone_slaps_and_the_last_draws_four_then_the_next_player_plays_any_card():
    s = hand_played()
    refused(s, Play(2, "R4"), "slap is not settled")
    s = run(s, Slap(1, 1200 * MS), Slap(3, 1300 * MS), Slap(0, 1350 * MS))
    assert s.window is not None and s.hand_counts == (7, 6, 7, 7)
    s = run(s, Slap(2, 1400 * MS))
    assert s.window is None and s.hand_counts == (7, 6, 11, 7)
    assert s.turn == 2 and s.free
    run(s, Play(2, "B-FLIP"))  # any card at all
    refused(s, Draw(2), "any card")


def test_the_slap_order_is_the_timestamps_not_the_arrival_order():
    s = run(hand_played(), Slap(2, 1400 * MS), Slap(0, 1500 * MS), Slap(3, 1300 * MS), Slap(1, 1200 * MS))
    assert s.hand_counts == (11, 6, 7, 7)


def test_when_the_time_is_up_every_player_who_did_not_slap_draws_four_and_nobody_else():
    s = run(hand_played(), Slap(1, 1100 * MS), Slap(2, 1500 * MS))
    refused(s, CloseWindow(3999 * MS), "open for 3000 ms")
    s = run(s, CloseWindow(4000 * MS))
    assert s.hand_counts == (11, 6, 7, 11) and s.turn == 2 and s.free


def test_nobody_slapping_makes_everyone_draw_four_the_caller_too():
    s = run(hand_played(3), CloseWindow(5000 * MS))
    assert s.hand_counts == (11, 10, 11)


def test_slaps_closer_than_the_tolerance_slap_again():
    s = run(hand_played(3), Slap(1, 1100 * MS), Slap(0, 1300 * MS), Slap(2, 1300 * MS + 499_999))
    assert s.window is not None and s.window.eligible == (0, 2) and s.window.reslap == 1
    assert s.hand_counts == (7, 6, 7)
    s = run(s, Slap(2, 1900 * MS), Slap(0, 2000 * MS))
    assert s.hand_counts == (11, 6, 7) and s.window is None


def test_slaps_exactly_the_tolerance_apart_are_not_a_tie():
    s = run(hand_played(3), Slap(1, 1100 * MS), Slap(0, 1300 * MS), Slap(2, 1300 * MS + 500_000))
    assert s.window is None and s.hand_counts == (7, 6, 11)


def test_the_tolerance_is_a_setting():
    s = run(begin(3, tie_tolerance_ns=0), Play(1, "HIT-HAND", 0), Slap(1, 5), Slap(0, 7), Slap(2, 7))
    assert s.window is None  # nothing is closer than zero


def test_a_forgotten_call_marked_during_the_slap_makes_the_caller_draw_four_and_nobody_else():
    s = run(hand_played(), Slap(0, 1100 * MS), ForgotCall(1))
    assert s.window is None and s.hand_counts == (7, 10, 7, 7) and s.turn == 2 and s.free
    refused(hand_played(), ForgotCall(2), "Bob had to call it")


def test_a_forgotten_call_marked_after_the_slap_takes_the_penalty_back():
    s = run(hand_played(), Slap(1, 1100 * MS), Slap(0, 1200 * MS), Slap(3, 1300 * MS),
            Slap(2, 1400 * MS))
    assert s.hand_counts == (7, 6, 11, 7)
    s2 = run(s, ForgotCall(1))
    assert s2.hand_counts == (7, 10, 7, 7) and s2.turn == 2
    refused(s2, ForgotCall(1), "no hit with a hand")
    refused(run(s, Play(2, "R1")), ForgotCall(1), "before the next card")


def test_a_slap_stamped_inside_the_window_after_a_forgotten_call_is_marked_is_no_fake_out():
    # RULINGS "HIT WITH A HAND": the window was open from 1000 ms to 4000 ms
    s = run(hand_played(), Slap(0, 1100 * MS), ForgotCall(1))
    assert s.last_slap.closed_ns == 4000 * MS
    for t_ms in (1050, 1500, 3999):         # stamped before or after the mark, inside
        refused(s, FakeOut(2, t_ms * MS), "belongs to the slap that is over")
        assert interpret(s, PadPressed(2, t_ms * MS)) == ()
    assert run(s, FakeOut(2, 4001 * MS)).hand_counts == (7, 10, 9, 7)  # after: a fake-out


def test_a_forgotten_call_by_the_last_slapper_is_four_cards_once():
    s = run(hand_played(3), Slap(0, 1100 * MS), Slap(2, 1200 * MS), Slap(1, 1300 * MS), ForgotCall(1))
    assert s.hand_counts == (7, 10, 7)


def test_a_fake_out_costs_two_cards_and_changes_nobodys_turn():
    s = begin(3)
    s2 = run(s, FakeOut(2, 5 * MS))
    assert s2.hand_counts == (7, 7, 9) and s2.turn == s.turn == 1
    refused(hand_played(), FakeOut(2, 1500 * MS), "open window")


# ------------------------------------------------------------------ going out and scoring

def test_going_out_ends_the_hand_at_once_and_other_last_cards_have_no_effect():
    for last in ("R4", "HIT-4", "R-CUT", "R-FLIP"):
        s = run(begin(3), SetHandSize(1, 1), Play(1, last))
        assert s.phase == COUNTING and s.went_out == 1 and s.demand is None and s.turn is None
    refused(s, Play(2, "R1"), "hand is over")


def test_a_hand_as_last_card_still_has_its_slap_without_the_player_who_went_out():
    s = run(begin(3), SetHandSize(1, 1), Play(1, "HIT-HAND", 100 * MS))
    assert s.window.eligible == (0, 2) and s.phase != COUNTING
    refused(s, ForgotCall(1), "went out")
    s = run(s, Slap(2, 300 * MS), Slap(0, 400 * MS))
    assert s.phase == COUNTING and s.hand_counts[0] == 11
    s = run(s, HandCards(0, ("R1", "R2", "HIT-3", "B-CUT")), HandCards(2, ("Y5",)))
    assert s.progress.history == ((23, 0, 5),)


def test_scoring_numbers_at_face_value_words_and_hits_ten_and_the_player_out_zero():
    s = run(begin(3), SetHandSize(1, 1), Play(1, "R4"))
    refused(s, HandCards(1, ()), "scores zero")
    s = run(s, HandCards(0, ("R1", "G5", "Y-FLIP", "HIT-HAND", "HIT-G", "HIT-2")))
    refused(s, HandCards(0, ()), "counted already")
    s = run(s, HandCards(2, ()))
    assert s.progress.history == ((46, 0, 0),) and s.progress.totals == (46, 0, 0)


def test_a_laid_out_hand_cannot_hold_more_copies_than_the_deck():
    s = run(begin(3), SetHandSize(1, 1), Play(1, "R4"), HandCards(0, ("HIT-G",)))
    refused(s, HandCards(2, ("HIT-G",)), "only 1")


def test_the_match_ends_when_someone_reaches_the_target_and_the_lowest_total_wins():
    s = run(begin(3, target=20), SetHandSize(1, 1), Play(1, "R4"),
            HandCards(0, ("HIT-1", "HIT-2")), HandCards(2, ("R1",)))
    assert s.phase == OVER and s.progress.finished and s.progress.winners == (1,)
    refused(s, StartHand(), "match is over")


def test_equal_lowest_totals_share_the_win():
    s = run(begin(3, target=20), SetHandSize(1, 1), Play(1, "R4"),
            HandCards(0, ("HIT-1", "HIT-2")), HandCards(2, ()))
    assert s.progress.winners == (1, 2)


def test_below_the_target_the_match_goes_on():
    s = run(begin(3), SetHandSize(1, 1), Play(1, "R4"), HandCards(0, ("HIT-1",)), HandCards(2, ()))
    assert s.phase == DEAL and not s.progress.finished


def test_the_host_can_end_the_match_and_the_lowest_total_wins():
    s = run(begin(3, target=20), SetHandSize(1, 1), Play(1, "R4"),
            HandCards(0, ("HIT-1",)), HandCards(2, ("R2",)), EndMatch())
    assert s.phase == OVER and s.progress.winners == (1,)


# ------------------------------------------------------------------ the empty draw pile

def drained(n=3):
    """A hand whose draw pile is empty and whose discard pile holds 5 cards."""
    s = run(begin(n), Play(1, "R4"), Play(2, "R5"), Play(0, "R1"), Play(1, "R2"))
    return run(s, SetHandSize(0, 110 - 5 - sum(s.hand_counts[1:])))


def test_an_empty_draw_pile_is_made_again_from_the_discard_pile_keeping_the_top():
    s = drained()
    assert s.draw_size == 0 and s.discard_size == 5 and s.turn == 2
    said = notices(s, Draw(2))
    assert said[0].code == "reshuffle"
    s = run(s, Draw(2))
    assert s.discard_size == 1 and s.top == "R2" and s.draw_size == 3 and s.hand_counts[2] == 7


def test_a_cut_on_an_empty_draw_pile_reshuffles_first():
    s = run(drained(), Play(2, "R-CUT"))
    assert s.must == MUST_CUT and s.discard_size == 1 and s.draw_size == 5


def test_a_penalty_larger_than_the_draw_pile_reshuffles_on_the_way():
    s = run(drained(), FakeOut(1, 10))
    assert s.hand_counts[1] == 5 + 2 and s.discard_size == 1


def test_a_draw_with_no_card_anywhere_draws_nothing():
    s = begin(2)
    s = run(s, SetHandSize(0, 110 - 1 - 7))
    assert s.draw_size == 0 and s.discard_size == 1
    s = run(s, Draw(1))
    assert s.hand_counts[1] == 7 and s.must == "after_draw"


# ------------------------------------------------------------------ host corrections and refusals

def test_the_host_corrects_a_hand_size_and_zero_means_that_player_went_out():
    s = run(begin(3), SetHandSize(2, 4))
    assert s.hand_counts == (7, 7, 4)
    s = run(s, SetHandSize(2, 0))
    assert s.phase == COUNTING and s.went_out == 2
    refused(begin(3), SetHandSize(2, -1), "0 to 110")


def test_bad_input_is_refused_in_words_and_changes_nothing():
    s = begin(3)
    refused(s, Play(1, "Z9"), "not part of this game")
    refused(s, Play(7, "R1"), "no player 8")
    refused(s, TurnUp("R1"), "no first card is due")
    refused(s, Cut(1, "R1"), "no cut is due")
    refused(s, Flip(1, "R1"), "no flip is due")
    refused(s, Slap(1, 5), "no slap is open")
    refused(s, CloseWindow(5), "no slap is open")
    refused(s, HandCards(0, ()), "only when a hand is over")
    refused(GAME.start(spec(3)), Play(1, "R1"), "deal the hand first")
    with refused_in_words("hitthedeck", "2 to 6"):
        GAME.start(spec(1))
    with refused_in_words("hitthedeck", "edition"):
        GAME.start(spec(3, edition="de"))
    with refused_in_words("hitthedeck", "setting"):
        GAME.start(spec(3, colour="red"))


def test_a_cut_with_no_card_left_to_cut_skips_the_cutter():
    s = run(GAME.start(spec(3)), StartHand(), SetHandSize(0, 110 - 1 - 14), TurnUp("R-CUT"))
    assert s.draw_size == 0 and s.turn == 2 and s.must == "play" and s.top == "R-CUT"


def test_a_flip_with_no_pile_to_flip_only_reverses_play():
    s = run(GAME.start(spec(3)), StartHand(), SetHandSize(0, 110 - 1 - 14), TurnUp("R-FLIP"))
    assert s.direction == -1 and s.turn == 0 and s.must == "play" and s.top == "R-FLIP"
