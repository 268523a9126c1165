"""Every Solo rule (solo.txt as settled by RULINGS.md), one test or more each."""
from __future__ import annotations

from dataclasses import replace

import pytest

from engine.core import EndMatch, IllegalAction
from engine.solo import GAME
from engine.solo.actions import (CallSolo, CatchSolo, ChooseColour, Claim, Draw, Pass, Play,
                                 RoundCards, SetHandSize, StartRound, Swap,
                                 TakePenalty)
from engine.solo.state import card_points

from said import said
from solo_helpers import run, spec, started, with_hands


def refused(state, action, words: str) -> None:
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, action)
    reason = said(err.value, "solo", state)
    assert words.lower() in reason.lower(), reason


# --- matching -------------------------------------------------------------------------

def test_same_colour_same_value_same_symbol_fit():
    s = started(starter="R5")
    assert run(s, Play(1, "R9")).top == "R9"          # colour
    assert run(s, Play(1, "G5")).top == "G5"          # value
    s2 = started(starter="R-MISS")                    # seat 1 skipped: seat 2 plays
    assert run(s2, Play(2, "B-MISS")).top == "B-MISS"  # symbol


def test_a_card_of_another_colour_value_and_symbol_is_refused_and_nothing_changes():
    s = started(starter="R5")
    refused(s, Play(1, "G6"), "does not go on Red 5")
    refused(s, Play(1, "G-TAKE2"), "does not go on Red 5")
    assert GAME.apply(s, Play(1, "R6"))[0].hands[1] == 7 and s.hands[1] == 8


def test_the_rule_book_example_red_9_then_any_9_or_any_red():
    s = started(starter="R9")
    for ok in ("Y9", "G9", "B9", "R1", "R8", "R-REV"):
        GAME.check(s, Play(1, ok))
    refused(s, Play(1, "B8"), "does not go on")


def test_black_cards_go_on_anything():
    s = started(starter="G3")
    for black in ("CHOOSE", "TAKE4", "ROTATE"):
        GAME.check(s, Play(1, black, "R" if black != "ROTATE" else None))


def test_black_cards_do_not_go_on_a_pending_take_2():
    s = run(started(starter="R5"), Play(1, "R-TAKE2"))
    for black in ("CHOOSE", "TAKE4", "ROTATE"):
        refused(s, Play(2, black, "B" if black != "ROTATE" else None), "owes 2 cards")


def test_a_named_colour_is_demanded_until_met_even_across_draws():
    s = run(started(starter="R5"), Play(1, "CHOOSE", "B"))
    assert s.colour == "B"
    refused(s, Play(2, "R5"), "the colour to follow is blue")
    s = run(s, Draw(2), Pass(2))
    assert s.turn == 3 and s.colour == "B"
    refused(s, Play(3, "R7"), "the colour to follow is blue")
    s = run(s, Play(3, "B7"))
    assert s.colour is None
    GAME.check(s, Play(0, "G7"))  # normal matching again: same value


def test_choose_without_a_colour_waits_for_the_colour_before_anything_is_played():
    s = run(started(starter="R5"), Play(1, "CHOOSE"))
    assert s.awaiting == "colour" and s.chooser == 1 and s.turn == 2
    refused(s, Play(2, "R6"), "must name a colour")
    refused(s, Draw(2), "must name a colour")
    refused(s, ChooseColour(2, "G"), "P1 names the colour")
    s = run(s, ChooseColour(1, "G"))
    assert s.colour == "G" and s.awaiting is None
    GAME.check(s, Play(2, "G1"))


def test_change_cards_all_round_names_no_colour_so_any_card_follows():
    s = run(started(starter="R5"), Play(1, "ROTATE"))
    assert s.colour is None and s.awaiting is None
    for any_card in ("B2", "Y-MISS", "G-SWAP"):
        GAME.check(s, Play(2, any_card))


def test_a_rotate_starter_lets_any_card_follow():
    s = started(starter="ROTATE")
    GAME.check(s, Play(1, "Y4"))


# --- turn order -----------------------------------------------------------------------

def test_play_goes_clockwise_from_the_left_of_the_dealer():
    s = started(starter="R5")
    assert s.turn == 1
    s = run(s, Play(1, "R6"), Play(2, "R7"), Play(3, "R8"))
    assert s.turn == 0


def test_miss_a_turn_skips_the_next_player():
    s = run(started(starter="R5"), Play(1, "R-MISS"))
    assert s.turn == 3


def test_miss_a_turn_with_two_players_gives_the_player_another_turn():
    s = run(started(2, starter="R5"), Play(1, "R-MISS"))
    assert s.turn == 1


def test_change_direction_reverses_play():
    s = run(started(starter="Y5"), Play(1, "Y-REV"))
    assert s.direction == -1 and s.turn == 0
    s = run(s, Play(0, "Y6"))
    assert s.turn == 3
    s = run(s, Play(3, "Y-REV"))
    assert s.direction == 1 and s.turn == 0


def test_change_direction_with_two_players_acts_as_miss_a_turn():
    s = run(started(2, starter="Y5"), Play(1, "Y-REV"))
    assert s.turn == 1 and s.direction == 1


def test_change_direction_with_ten_players_walks_the_table_backwards():
    s = run(started(10, starter="Y5"), Play(1, "Y-REV"))
    order = []
    for card in ("Y6", "Y7", "Y8", "Y9"):
        order.append(s.turn)
        s = run(s, Play(s.turn, card))
    assert order == [0, 9, 8, 7] and s.turn == 6
    s = run(s, Play(6, "Y-MISS"))        # skips seat 5 going backwards
    assert s.turn == 4
    s = run(s, Play(4, "Y-REV"))
    assert s.direction == 1 and s.turn == 5


def test_draw_then_pass_hands_the_turn_on_and_counts_the_card():
    s = started(starter="R5")
    refused(s, Pass(1), "must play a card or draw one")
    s = run(s, Draw(1))
    assert s.hands[1] == 9 and s.drawn and s.turn == 1
    refused(s, Draw(1), "has drawn already")
    s2 = run(s, Play(1, "R2"))           # the drawn card fits: played at once
    assert s2.turn == 2 and s2.hands[1] == 8
    s = run(s, Pass(1))
    assert s.turn == 2 and not s.drawn


def test_only_the_current_player_draws_or_passes():
    s = started(starter="R5")
    refused(s, Draw(2), "it is P1's turn")


# --- Take 2 / Take 4 ------------------------------------------------------------------

def test_take_2_stacks_across_several_players_and_the_one_who_cannot_pass_takes_all():
    s = run(started(5, starter="R5"), Play(1, "R-TAKE2"), Play(2, "G-TAKE2"), Play(3, "B-TAKE2"))
    assert s.penalty == 6 and s.turn == 4
    refused(s, Play(4, "B3"), "owes 6 cards")
    refused(s, Draw(4), "owes 6 cards")
    s = run(s, TakePenalty(4))
    assert s.hands[4] == 14 and s.penalty == 0 and s.turn == 0   # and misses the turn


def test_take_4_passes_only_on_take_4_and_take_2_only_on_take_2():
    s = run(started(starter="R5"), Play(1, "TAKE4", "G"))
    assert s.penalty == 4 and s.colour == "G"
    refused(s, Play(2, "G-TAKE2"), "pass it on with a Take 4")
    s = run(s, Play(2, "TAKE4", "Y"), TakePenalty(3))
    assert s.hands[3] == 16 and s.turn == 0 and s.colour == "Y"
    refused(s, Play(0, "G1"), "the colour to follow is yellow")
    s2 = run(started(starter="R5"), Play(1, "R-TAKE2"))
    refused(s2, Play(2, "TAKE4", "R"), "pass it on with a Take 2")


def test_take_penalty_needs_a_penalty():
    refused(started(), TakePenalty(1), "no Take 2 / Take 4 penalty")


# --- Swap and Change cards all round ---------------------------------------------------

def test_swap_exchanges_whole_hands_with_the_chosen_player():
    s = with_hands(started(starter="R5"), 8, 5, 11, 3)
    s = run(s, Play(1, "R-SWAP"))
    assert s.awaiting == "swap" and s.turn == 2
    refused(s, Play(2, "R4"), "choose a player to swap")
    refused(s, Swap(1, 1), "another player")
    refused(s, Swap(2, 0), "P1 played the Swap card")
    s = run(s, Swap(1, 2))
    assert s.hands == (8, 11, 4, 3) and s.awaiting is None
    assert sum(s.hands) + s.pack + s.discard == 112


def test_change_cards_all_round_passes_every_hand_in_the_direction_of_play():
    s = with_hands(started(starter="R5"), 8, 5, 11, 3)
    after = run(s, Play(1, "ROTATE")).hands
    assert after == (3, 8, 4, 11)          # seat i's hand goes to seat i+1
    s = run(with_hands(started(starter="Y5"), 8, 5, 11, 3), Play(1, "Y-REV"), Play(0, "ROTATE"))
    assert s.hands == (4, 11, 3, 7)        # counter-clockwise: seat i's hand goes to seat i-1
    assert sum(s.hands) + s.pack + s.discard == 112


def test_swap_and_rotate_starters_have_no_effect():
    for starter in ("G-SWAP", "ROTATE"):
        s = started(starter=starter)
        assert s.hands == (8, 8, 8, 8) and s.awaiting is None and s.turn == 1


# --- start card -----------------------------------------------------------------------

def test_start_card_miss_a_turn_skips_the_player_left_of_the_dealer():
    assert started(starter="B-MISS").turn == 2


def test_start_card_change_direction_lets_the_dealers_right_hand_neighbour_start():
    s = started(starter="B-REV")
    assert s.turn == 3 and s.direction == -1
    assert started(2, starter="B-REV").turn == 0    # two players: acts as miss a turn


def test_start_card_take_2_is_owed_by_the_player_left_of_the_dealer():
    s = started(starter="B-TAKE2")
    assert s.turn == 1 and s.penalty == 2
    s = run(s, Play(1, "Y-TAKE2"))
    assert s.penalty == 4 and s.turn == 2


def test_start_card_choose_the_dealer_names_the_colour():
    s = started(starter="CHOOSE")
    assert s.awaiting == "colour" and s.chooser == 0 and s.turn == 1
    s = run(s, ChooseColour(0, "Y"))
    assert s.colour == "Y"
    s = run(GAME.start(spec()), StartRound("TAKE4", "G"))
    assert s.penalty == 4 and s.colour == "G" and s.turn == 1


def test_the_dealer_rotates_and_hands_are_dealt_each_round():
    s = run(started(2, starter="R5"), SetHandSize(1, 1), Play(1, "R6"),
            RoundCards(0, ("B1", "B1", "G1", "G1", "Y1", "Y1", "R1", "R1")))
    assert s.phase == "deal" and s.match.dealer == 1 and s.match.round_no == 2
    s = run(s, StartRound("G2"))
    assert s.hands == (8, 8) and s.turn == 0


# --- out-of-turn discards ---------------------------------------------------------------

def test_an_identical_card_may_be_discarded_out_of_turn_and_play_continues_after_the_jumper():
    s = run(started(6, starter="R5"), Play(1, "R7"))
    s = run(s, Play(4, "R7"))
    assert s.turn == 5 and s.hands[4] == 7 and s.hands[2] == 8   # seats 2 and 3 skipped


def test_only_an_identical_card_may_be_discarded_out_of_turn():
    s = run(started(starter="R5"), Play(1, "R7"))
    refused(s, Play(3, "G7"), "identical to Red 7")
    refused(s, Play(3, "R8"), "identical to Red 7")


def test_the_action_of_a_card_discarded_out_of_turn_applies():
    s = run(started(6, starter="B5"), Play(1, "B-MISS"), Play(4, "B-MISS"))
    assert s.turn == 0                    # seat 5 misses the turn
    s = run(started(6, starter="B5"), Play(1, "B-REV"), Play(4, "B-REV"))
    assert s.direction == 1 and s.turn == 5


def test_an_identical_take_2_jumped_onto_a_pending_take_2_adds_to_the_stack():
    s = run(started(5, starter="R5"), Play(1, "R-TAKE2"), Play(3, "R-TAKE2"))
    assert s.penalty == 4 and s.turn == 4
    s = run(s, TakePenalty(4))
    assert s.hands[4] == 12 and s.hands[2] == 8 and s.turn == 0


def test_black_cards_cannot_be_jumped_unless_the_setting_allows_it():
    s = run(started(starter="R5"), Play(1, "CHOOSE", "B"))
    refused(s, Play(3, "CHOOSE", "G"), "black cards cannot be discarded out of turn")
    s = run(started(starter="R5", jump_black=True), Play(1, "CHOOSE", "B"), Play(3, "CHOOSE", "G"))
    assert s.turn == 0 and s.colour == "G"


# --- SOLO! ------------------------------------------------------------------------------

def _two_left(n=4):
    return with_hands(started(n, starter="R5"), 8, 2, 8, 8)


def test_a_play_leaving_one_card_makes_solo_due_and_calling_it_settles_it():
    s = run(_two_left(), Play(1, "R6"))
    assert s.solo_owed == 1 and GAME.view(s)["table"]["solo_owed"] == 1
    assert "P1 owes SOLO!" in said(GAME.view(s)["prompt"], "solo", s)
    refused(s, CallSolo(2), "no SOLO! is due from P2")
    s = run(s, CallSolo(1))
    assert s.solo_owed is None
    refused(s, CatchSolo(2, 1), "owes no SOLO!")


def test_a_forgotten_solo_caught_in_the_window_costs_two_cards():
    s = run(_two_left(), Play(1, "R6"), CatchSolo(3, 1))
    assert s.hands[1] == 3 and s.solo_owed is None
    refused(s, CatchSolo(2, 1), "owes no SOLO!")


def test_the_solo_window_closes_when_the_next_card_is_played():
    s = run(_two_left(), Play(1, "R6"), Play(2, "R7"))
    assert s.solo_owed is None
    refused(s, CatchSolo(3, 1), "owes no SOLO!")


def test_the_solo_window_closes_when_the_next_player_draws():
    s = run(_two_left(), Play(1, "R6"), Draw(2))
    refused(s, CatchSolo(3, 1), "owes no SOLO!")
    s = run(_two_left(), Play(1, "R-TAKE2"), TakePenalty(2))
    refused(s, CatchSolo(3, 1), "owes no SOLO!")


def test_the_window_stays_open_while_nobody_plays_or_draws():
    s = run(_two_left(), Play(1, "R6"), Claim(3, 10), SetHandSize(0, 8))
    assert s.solo_owed == 1
    assert run(s, CatchSolo(0, 1)).hands[1] == 3


def test_solo_is_not_due_after_a_swap_or_rotate_play_nor_from_a_catcher():
    assert run(_two_left(), Play(1, "R-SWAP")).solo_owed is None
    assert run(_two_left(), Play(1, "ROTATE")).solo_owed is None
    s = run(_two_left(), Play(1, "R-SWAP"), Swap(1, 0))
    assert s.hands[1] == 8 and s.hands[0] == 1 and s.solo_owed is None


def test_solo_is_due_after_an_out_of_turn_discard_leaving_one_card():
    s = with_hands(run(started(starter="R5"), Play(1, "R7")), 8, 7, 8, 2)
    s = run(s, Play(3, "R7"))
    assert s.solo_owed == 3


# --- going out and scoring --------------------------------------------------------------

def test_going_out_ends_the_round_and_an_action_on_the_last_card_has_no_effect():
    s = run(with_hands(started(starter="R5"), 8, 1, 8, 8), Play(1, "R-TAKE2"))
    assert s.phase == "count" and s.out == 1 and s.penalty == 0 and s.turn is None
    refused(s, TakePenalty(2), "the round is over")
    s = run(with_hands(started(starter="R5"), 8, 1, 8, 8), Play(1, "ROTATE"))
    assert s.hands == (8, 0, 8, 8)


def test_the_winner_scores_every_card_left_in_the_other_hands():
    s = with_hands(started(3, starter="R5"), 2, 1, 3)
    s = run(s, Play(1, "R6"))
    refused(s, RoundCards(2, ("B1", "B2")), "should hold 3 cards")
    refused(s, RoundCards(1, ()), "went out")
    s = run(s, RoundCards(2, ("B9", "ROTATE", "G-REV")), RoundCards(0, ("CHOOSE", "TAKE4")))
    assert s.match.history == ((0, 9 + 40 + 10 + 50 + 50, 0),)
    assert s.match.totals == (0, 159, 0) and s.phase == "deal"


def test_choose_a_colour_scores_40_in_the_online_edition_setting():
    s = with_hands(started(2, starter="R5", choose_points=40), 1, 1)
    s = run(s, Play(1, "R6"), RoundCards(0, ("CHOOSE",)))
    assert s.match.totals == (0, 40)
    assert card_points("CHOOSE", s.settings) == 40 and card_points("TAKE4", s.settings) == 50


def test_laying_out_more_copies_than_the_deck_has_is_refused():
    s = run(with_hands(started(3, starter="R5"), 3, 1, 2), Play(1, "R6"), RoundCards(2, ("G-SWAP", "B1")))
    refused(s, RoundCards(0, ("G-SWAP", "B2", "B3")), "only 1 Green Swap")


def test_the_match_ends_when_someone_reaches_600():
    s = started(2, starter="R5")
    s = replace(s, match=replace(s.match, totals=(590, 0)))
    s = run(with_hands(s, 1, 1), Play(1, "R-SWAP"))
    s = run(s, SetHandSize(0, 2), RoundCards(0, ("G9", "G8")))
    assert s.match.totals == (590, 17) and not s.match.finished
    s = run(s, StartRound("B1"), SetHandSize(0, 1), SetHandSize(1, 4), Play(0, "B2"),
            RoundCards(1, ("TAKE4", "TAKE4", "B-MISS", "G1")))
    assert s.match.finished and s.match.winners == (0,) and s.phase == "over"
    refused(s, StartRound("R1"), "the match is over")


def test_end_match_gives_the_win_to_the_best_total_now():
    s = started(3)
    s = replace(s, match=replace(s.match, totals=(10, 90, 90)))
    s = run(s, EndMatch())
    assert s.match.finished and s.match.winners == (1, 2)


# --- the pack ---------------------------------------------------------------------------

def test_an_empty_pack_is_refilled_from_the_discard_pile_under_its_top_card():
    s = started(starter="R5")
    s = replace(s, hands=(30, 30, 30, 8), discard=14)   # pack: 112 - 98 - 14 = 0
    assert s.pack == 0
    s, notices = GAME.apply(s, Draw(1))
    assert s.discard == 1 and s.pack == 12 and s.hands[1] == 31
    assert any(n.code == "reshuffle" for n in notices)


def test_a_penalty_bigger_than_every_card_left_takes_what_there_is():
    s = run(started(starter="R5"), Play(1, "R-TAKE2"))
    s = replace(s, hands=(35, 35, 35, 5), discard=2)    # pack 0, one card under the top
    s, notices = GAME.apply(s, TakePenalty(2))
    assert s.hands[2] == 36 and s.discard == 1 and s.pack == 0
    assert any(n.code == "pack_short" for n in notices)


# --- host corrections --------------------------------------------------------------------

def test_the_host_corrects_a_hand_count():
    s = run(started(starter="R5"), SetHandSize(2, 5))
    assert s.hands[2] == 5 and s.pack == 112 - 29 - 1
    refused(s, SetHandSize(2, 0), "goes out by playing")
    refused(s, SetHandSize(2, 200), "not enough cards")


def test_actions_outside_a_round_are_refused_with_reasons():
    s = GAME.start(spec())
    refused(s, Play(1, "R5"), "the round has not started")
    refused(s, StartRound("XX"), "not part of this game")
    refused(run(s, StartRound("R5")), StartRound("R6"), "already under way")
    refused(run(s, StartRound("R5")), Play(9, "R6"), "there is no player 10")
    refused(run(s, StartRound("R5")), Play(1, "R6", "G"), "names no colour")
    refused(run(s, StartRound("R5")), Play(1, "CHOOSE", "P"), "not a colour")
