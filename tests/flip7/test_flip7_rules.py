"""Every Flip 7 rule (rules/flip7.txt, RULINGS.md "Flip 7") as a scenario: cards are
flipped in a chosen order and the state is checked. Seat 0 (Ann) deals the first round,
so Bob (1), Cat (2), Ann (0) are dealt to in that order and Bob plays first."""
import pytest

from engine.core import IllegalAction
from engine.flip7 import GAME, Flip, Hit, Line, Stay, Target, round_score
from engine.flip7.state import ACTIVE, BUSTED, CODES, FROZEN, STAYED
from engine.log import Timeline

from flip7_script import codes, play, spec, waiting
from said import refused_in_words, said


def aside(state, code):
    return state.set_aside[CODES.index(code)]


def refused(state, action, *words):
    with pytest.raises(IllegalAction) as exc:
        GAME.apply(state, action)
    reason = said(exc.value, "flip7", state)
    for word in words:
        assert word.lower() in reason.lower(), reason
    return reason


# --- the deal --------------------------------------------------------------------------

def test_the_deal_goes_once_round_from_left_of_the_dealer_and_turns_start_there():
    state, _ = play("")
    assert waiting(state) == ("card", 1)
    state, _ = play("5", state=state)
    assert waiting(state) == ("card", 2)
    state, _ = play("6", state=state)
    assert waiting(state) == ("card", 0)
    state, _ = play("7", state=state)
    assert waiting(state) == ("decide", 1)
    assert [line.numbers for line in state.lines] == [(7,), (5,), (6,)]


def test_the_dealer_passes_left_each_round():
    state, notices = play("5 6 7 S1 S2 S0")
    assert state.progress.dealer == 1 and state.progress.round_no == 2
    assert state.progress.history == ((7, 5, 6),)
    assert waiting(state) == ("card", 2)          # left of the new dealer
    state, _ = play("1 2 3", state=state)
    assert waiting(state) == ("decide", 2)
    assert "round_over" in codes(notices)


def test_an_action_card_in_the_deal_is_resolved_at_once_by_its_receiver():
    state, _ = play("FREEZE")
    assert waiting(state) == ("target", 1)
    refused(state, Target(2, 0), "Bob chooses who gets the Freeze")
    refused(state, Flip("5"), "Bob must first choose")
    state, _ = play("T1>2", state=state)
    assert state.lines[2].status == FROZEN
    assert state.lines[2].actions == ("FREEZE",)     # the card lies with its target
    assert waiting(state) == ("card", 0)           # Cat is out: the deal skips her


def test_the_deal_skips_holders_and_does_not_go_round_again():
    state, _ = play("FLIP3 T1>2 1 2 3")
    assert state.lines[2].numbers == (1, 2, 3)
    assert waiting(state) == ("card", 0)           # Cat already holds cards
    state, _ = play("4", state=state)
    assert waiting(state) == ("decide", 1)         # Bob gave his card away: no second lap
    assert state.lines[1].numbers == () and not state.lines[1].actions
    refused(state, Stay(1), "Bob has no card yet and must Hit")
    state, _ = play("H1 9", state=state)
    assert state.lines[1].numbers == (9,)


def test_setting_deal_to_holders_deals_to_them_anyway_but_never_to_players_out():
    state, _ = play("FLIP3 T1>2 1 2 3", deal_to_holders=True)
    assert waiting(state) == ("card", 2)
    state, _ = play("FREEZE T1>2", deal_to_holders=True)
    assert waiting(state) == ("card", 0)


# --- turns, hits, stays, busts -----------------------------------------------------------

def test_hit_gives_the_next_card_to_the_player_whose_turn_it_is_then_the_turn_passes():
    state, _ = play("5 6 7 H1")
    assert waiting(state) == ("card", 1)
    state, _ = play("8", state=state)
    assert state.lines[1].numbers == (5, 8)
    assert waiting(state) == ("decide", 2)


def test_players_out_of_the_round_are_skipped():
    state, _ = play("5 6 7 S1 S2 H0 9")
    assert state.lines[1].status == STAYED and state.lines[2].status == STAYED
    assert waiting(state) == ("decide", 0)


def test_out_of_turn_actions_are_refused_with_a_reason():
    state, _ = play("5 6 7")
    refused(state, Hit(2), "it is Bob's turn, not Cat's")
    refused(state, Stay(0), "Bob's turn")
    refused(state, Flip("8"), "no card is due now")
    refused(state, Target(1, 2), "nothing to give")
    refused(state, Hit(9), "no player 10")
    deal, _ = play("5")
    refused(deal, Hit(1), "waiting for the deal")


def test_a_second_copy_of_a_number_busts_the_line_and_it_scores_nothing():
    state, notices = play("5 6 7 H1 5")
    assert state.lines[1].status == BUSTED and state.lines[1].duplicate == 5
    assert round_score(state.lines[1]) == 0
    assert "bust" in codes(notices)
    state, _ = play("S2 S0", state=state)
    assert state.progress.history == ((7, 0, 6),)


def test_the_round_ends_when_no_player_is_active():
    state, _ = play("5 6 7 H1 5 S2")
    assert state.progress.round_no == 1
    state, _ = play("S0", state=state)
    assert state.progress.round_no == 2 and state.progress.totals == (7, 0, 6)


def test_a_player_may_stay_with_only_a_modifier_and_scores_it_but_x2_alone_scores_nothing():
    state, _ = play("+4 x2 7 S1 S2 S0")
    assert state.progress.history == ((7, 4, 0),)


# --- Freeze ----------------------------------------------------------------------------------

def test_freeze_banks_the_targets_points_and_puts_them_out():
    state, notices = play("5 6 7 H1 FREEZE T1>2")
    assert state.lines[2].status == FROZEN
    assert "freeze" in codes(notices)
    assert waiting(state) == ("decide", 0)         # after Bob comes Cat, who is out
    state, _ = play("S0 S1", state=state)
    assert state.progress.history == ((7, 5, 6),)


def test_freeze_discards_the_targets_second_chance():
    state, _ = play("5 CHANCE 7 H1 FREEZE T1>2")
    assert not state.lines[2].chance
    assert aside(state, "CHANCE") == 1


def test_the_last_active_player_must_target_themselves():
    state, notices = play("5 6 7 S1 S2 H0 FLIP3")
    assert waiting(state) == ("card", 0)           # no choice was asked
    assert "flip_three" in codes(notices)
    state, _ = play("5 6 7 S1 S2 H0 FREEZE")
    assert state.progress.history == ((7, 5, 6),)  # Ann froze herself: round over


# --- Flip Three ------------------------------------------------------------------------------

def test_flip_three_gives_three_cards_then_the_turn_goes_to_the_player_after_the_turn_holder():
    state, _ = play("5 6 7 H1 FLIP3 T1>0")
    assert waiting(state) == ("card", 0)
    state, _ = play("1 2", state=state)
    assert waiting(state) == ("card", 0)
    state, _ = play("3", state=state)
    assert state.lines[0].numbers == (7, 1, 2, 3)
    assert state.lines[0].actions == ("FLIP3",)
    assert waiting(state) == ("decide", 2)         # Cat follows Bob, whose turn it was


def test_flip_three_stops_at_a_bust():
    state, _ = play("5 6 7 H1 FLIP3 T1>2 6")
    assert state.lines[2].status == BUSTED
    assert waiting(state) == ("decide", 0)
    assert not state.flips


def test_freeze_inside_flip_three_waits_until_the_three_are_drawn():
    state, notices = play("5 6 7 H1 FLIP3 T1>2 FREEZE")
    assert "set_aside" in codes(notices)
    assert waiting(state) == ("card", 2)
    state, _ = play("1 2", state=state)
    assert state.lines[2].numbers == (6, 1, 2)
    assert waiting(state) == ("target", 2)         # the target chooses
    state, _ = play("T2>0", state=state)
    assert state.lines[0].status == FROZEN
    assert waiting(state) == ("decide", 2)


def test_set_aside_actions_are_void_if_the_target_busts():
    state, _ = play("5 6 7 H1 FLIP3 T1>2 FREEZE 6")
    assert state.lines[2].status == BUSTED
    assert state.lines[0].status == ACTIVE and state.choice is None
    assert aside(state, "FREEZE") == 1
    assert waiting(state) == ("decide", 0)


def test_set_aside_actions_resolve_in_the_order_drawn():
    state, _ = play("5 6 7 H1 FLIP3 T1>2 FREEZE FLIP3 1")
    assert state.choice.card == "FREEZE"
    state, _ = play("T2>1", state=state)
    assert state.lines[1].status == FROZEN
    assert state.choice.card == "FLIP3"
    state, _ = play("T2>0 2 3 4", state=state)
    assert state.lines[0].numbers == (7, 2, 3, 4)
    assert waiting(state) == ("decide", 2)


def test_flip_seven_inside_a_nested_flip_three_ends_the_round_at_once():
    # Cat: 1 2 3 from the deal's Flip Three; 5 6 and a set-aside Flip Three from Bob's hit,
    # which she plays on herself: 7 8 make seven numbers before the third card.
    state, notices = play("FLIP3 T1>2 1 2 3 4 H1 FLIP3 T1>2 5 6 FLIP3 T2>2 7 8")
    assert "flip7" in codes(notices)
    assert state.progress.history == ((4, 0, 1 + 2 + 3 + 5 + 6 + 7 + 8 + 15),)
    assert waiting(state) == ("card", 2)           # next round's deal, not the third card
    assert len(state.last_round[2].numbers) == 7


# --- Second Chance -------------------------------------------------------------------------

def test_second_chance_discards_the_duplicate_and_itself_keeps_the_player_in_and_ends_the_turn():
    state, notices = play("5 CHANCE 7 H1 8 H2 3 H0 1 S1 H2 3")
    assert "second_chance" in codes(notices)
    cat = state.lines[2]
    assert cat.status == ACTIVE and not cat.chance and cat.numbers == (3,)
    assert aside(state, "CHANCE") == 1 and aside(state, "3") == 1
    assert waiting(state) == ("decide", 0)


def test_second_chance_inside_flip_three_is_settled_at_once_and_saves_a_later_card():
    state, _ = play("5 6 7 H1 FLIP3 T1>2 CHANCE 6 9")
    cat = state.lines[2]
    assert cat.status == ACTIVE and cat.numbers == (6, 9) and not cat.chance


def test_a_spare_second_chance_goes_to_an_active_player_without_one():
    state, _ = play("CHANCE 6 7 H1 CHANCE")
    assert waiting(state) == ("target", 1)
    refused(state, Target(1, 1), "cannot go to Bob")
    state, _ = play("T1>2", state=state)
    assert state.lines[2].chance and state.lines[1].chance
    assert waiting(state) == ("decide", 2)


def test_a_spare_second_chance_with_one_eligible_player_goes_there_at_once():
    state, _ = play("CHANCE CHANCE 7 H1 CHANCE")
    assert state.lines[0].chance and state.choice is None


def test_a_spare_second_chance_nobody_can_take_is_discarded():
    state, notices = play("CHANCE CHANCE 7 H1 5 S2 S0 H1 CHANCE")
    assert "chance_discarded" in codes(notices)
    assert aside(state, "CHANCE") == 1


# --- scoring -------------------------------------------------------------------------------

def test_the_rule_books_example_scores_32():
    assert round_score(Line(numbers=(11, 5, 12))) == 28
    assert round_score(Line(numbers=(11, 5, 12), modifiers=("+4",))) == 32


def test_x2_doubles_numbers_only_before_plus_n_and_before_the_flip7_bonus():
    assert round_score(Line(numbers=(5, 7), modifiers=("x2", "+4"))) == 28
    assert round_score(Line(numbers=(5, 7), modifiers=("+4", "x2"))) == 28
    seven = tuple(range(7))                        # 0..6 = 21
    assert round_score(Line(numbers=seven)) == 36
    assert round_score(Line(numbers=seven, modifiers=("x2", "+10"))) == 42 + 10 + 15


def test_x2_without_numbers_scores_nothing_and_plus_n_scores_without_numbers():
    assert round_score(Line(modifiers=("x2",))) == 0
    assert round_score(Line(modifiers=("x2", "+6"))) == 6
    assert round_score(Line(numbers=(9,), modifiers=("+6",), status=BUSTED)) == 0


def test_flip_seven_scores_everyone_not_busted_active_players_too():
    state, _ = play("FLIP3 T1>2 1 2 3 4 H1 5 H2 6 H0 4 H1 FLIP3 T1>2 7 8 9")
    # Bob: 5; Cat: 1 2 3 6 7 8 9 (Flip 7); Ann: busted on a second 4.
    assert state.progress.history == ((0, 5, 36 + 15),)


# --- the deck ----------------------------------------------------------------------------

def test_a_card_whose_copies_are_all_out_is_refused():
    state, _ = play("1")
    refused(state, Flip("1"), "the only 1 card is already out")
    state, _ = play("CHANCE CHANCE CHANCE H1")
    refused(state, Flip("CHANCE"), "all 3 Second Chance cards are already out")
    refused(state, Flip("13"), "not part of this game")


def test_set_aside_cards_stay_out_until_the_deck_runs_out():
    state, _ = play("x2 6 7 S1 S2 S0")
    assert aside(state, "x2") == 1 and sum(state.deck) == 91
    refused(state, Flip("x2"), "the only ×2 card is already out")


def test_a_card_read_in_the_wrong_seats_zone_is_refused():
    state, _ = play("")
    refused(state, Flip("5", seat=2), "this card goes to Bob, not to Cat")
    state, _ = GAME.apply(state, Flip("5", seat=1))
    assert state.lines[1].numbers == (5,)


def test_a_target_who_is_out_is_refused():
    state, _ = play("5 6 7 S1 H2 FREEZE")
    refused(state, Target(2, 1), "cannot go to Bob", "Ann and Cat")


def test_bust_probability_is_exact_arithmetic():
    from engine.flip7 import bust_probability, draw_pile
    from fractions import Fraction
    state, _ = play("12 6 CHANCE")
    remaining = draw_pile(state)
    assert sum(remaining.values()) == 91
    assert bust_probability(state.lines[1], remaining) == Fraction(11, 91)
    assert bust_probability(state.lines[2], remaining) == Fraction(5, 91)
    assert bust_probability(state.lines[0], remaining) == 0    # holds a Second Chance
    view = GAME.view(state)
    assert view["table"]["lines"][1]["bust_probability"] == pytest.approx(11 / 91)


# --- the match ---------------------------------------------------------------------------

def test_the_match_ends_at_the_end_of_a_round_with_the_target_reached():
    state, notices = play("5 6 7 H1 12 S2 S0 S1", target=10)
    assert state.progress.finished and state.progress.winners == (1,)
    assert "match_won" in codes(notices)
    refused(state, Flip("3"), "the match is over")


def test_a_tie_at_the_top_plays_another_round():
    state, _ = play("5 6 7 H1 8 S2 H0 6 S1 S0", target=10)
    assert state.progress.totals == (13, 13, 6) and not state.progress.finished
    state, _ = play("1 2 3 S2 S0 S1", state=state)
    assert state.progress.finished and state.progress.winners == (1,)


def test_the_host_can_end_the_match():
    state, _ = play("5 6 7 S1 S2 S0 4 END")
    assert state.progress.finished and state.progress.winners == (0,)


def test_seat_count_and_settings_are_checked():
    from engine.core import MatchSpec, Seat
    with refused_in_words("flip7", "3 to 18 players"):
        GAME.start(MatchSpec("flip7", (Seat("a"), Seat("b"))))
    with refused_in_words("flip7", "setting"):
        GAME.start(spec(3, colour="red"))
    with refused_in_words("flip7", "at least 1"):
        GAME.start(spec(3, target=0))


def test_undo_through_the_timeline_and_a_refusal_changes_nothing():
    from engine.core import Undo
    timeline = Timeline(GAME, spec())
    for action in (Flip("5"), Flip("FREEZE")):
        timeline.apply(action)
    before = timeline.state
    with pytest.raises(IllegalAction):
        timeline.apply(Target(2, 7))
    assert timeline.state == before and len(timeline.actions) == 2
    timeline.apply(Target(2, 1))
    assert timeline.state.lines[1].status == FROZEN
    timeline.apply(Undo())
    assert timeline.state == before
    timeline.apply(Undo())
    timeline.apply(Undo())
    assert timeline.state == GAME.start(spec())


def test_the_view_has_what_the_screens_need():
    import json
    state, _ = play("5 CHANCE x2 H1 FREEZE")
    view = GAME.view(state)
    for key in ("game", "seats", "round", "dealer", "turn", "totals", "history", "finished",
                "winners", "prompt", "table"):
        assert key in view
    assert said(view["prompt"], "flip7", state) == "Bob: choose who gets the Freeze (press their pad): Ann, Bob, and Cat."
    assert view["table"]["pending"] == {"chooser": 1, "card": "FREEZE", "options": [0, 1, 2]}
    cat = view["table"]["lines"][2]
    assert cat["second_chance"] and cat["status"] == "active" and cat["score"] == 0
    assert view["table"]["deck"]["left"] == 90
    json.dumps(view)
