"""Raj's rules, one test per rule (raj.txt and RULINGS.md), including the rule text's
examples verbatim."""
import pytest

from engine.core import EndMatch, IllegalAction, MatchSpec, Seat, Undo, parse_action, state_from_json, state_to_json
from engine.log import Timeline, fold
from engine.raj import GAME
from engine.raj.rules import ACTIONS, Bid, BidDown, RevealPoint, settle
from said import refused_in_words, said

SPEC3 = MatchSpec("raj", (Seat("Ann", "red"), Seat("Bob", "blue"), Seat("Cat", "green")))


def play(spec, *actions):
    state = GAME.start(spec)
    notices = []
    for a in actions:
        state, n = GAME.apply(state, a)
        notices.extend(n)
    return state, notices


def bids(*values, colours=("red", "blue", "green")):
    return [Bid(f"{c}:{v}") for c, v in zip(colours, values)]


def test_highest_bid_takes_a_positive_card():
    state, _ = play(SPEC3, RevealPoint("P7"), *bids(3, 11, 9))
    assert state.collected == ((), ("P7",), ())
    assert state.phase == "point"


def test_lowest_bid_takes_a_negative_card():
    state, _ = play(SPEC3, RevealPoint("P-4"), *bids(3, 11, 9))
    assert state.collected == (("P-4",), (), ())


def test_rule_text_example_two_15s_and_a_5_positive():
    state, _ = play(SPEC3, RevealPoint("P10"), *bids(15, 15, 5))
    assert state.collected == ((), (), ("P10",))
    assert state.last.cancelled == (15,)


def test_rule_text_example_two_3s_and_a_5_negative():
    state, _ = play(SPEC3, RevealPoint("P-5"), *bids(3, 3, 5))
    assert state.collected == ((), (), ("P-5",))


def test_next_best_untied_bid_wins_when_top_bids_tie():
    spec = MatchSpec("raj", tuple(Seat(n) for n in "ABCD"))
    state, _ = play(spec, RevealPoint("P5"),
                    *bids(12, 12, 9, 4, colours=("red", "blue", "green", "yellow")))
    assert state.collected[2] == ("P5",)


def test_every_value_played_twice_or_more_is_cancelled():
    # 5 players: 9,9,7,7,2 -> both 9s and both 7s cancel; the 2 takes a positive card.
    spec = MatchSpec("raj", tuple(Seat(n) for n in "ABCDE"))
    colours = ("red", "blue", "green", "yellow", "purple")
    state, _ = play(spec, RevealPoint("P3"), *bids(9, 9, 7, 7, 2, colours=colours))
    assert state.collected[4] == ("P3",)
    assert state.last.cancelled == (7, 9)


def test_all_tied_pot_stays_and_next_card_is_added_sum_decides_sign():
    state, notices = play(SPEC3, RevealPoint("P-3"), *bids(6, 6, 6))
    assert state.pot == ("P-3",) and state.last.carried
    assert any(n.code == "raj.carry" for n in notices)
    # -3 + 5 = +2: positive, so the highest bid takes both cards.
    state, _ = GAME.apply(state, RevealPoint("P5"))
    for b in bids(1, 14, 8):
        state, _ = GAME.apply(state, b)
    assert state.collected == ((), ("P-3", "P5"), ())


def test_a_carried_sum_of_zero_counts_as_positive():
    state, _ = play(SPEC3, RevealPoint("P-2"), *bids(4, 4, 4), RevealPoint("P2"), *bids(1, 9, 5))
    assert state.collected[1] == ("P-2", "P2")


def test_a_carried_negative_sum_goes_to_the_lowest_bid():
    state, _ = play(SPEC3, RevealPoint("P1"), *bids(4, 4, 4), RevealPoint("P-5"), *bids(10, 2, 7))
    assert state.collected[1] == ("P1", "P-5")


def test_chain_of_carried_cards():
    state, _ = play(SPEC3, RevealPoint("P1"), *bids(4, 4, 4), RevealPoint("P2"), *bids(5, 5, 5),
                    RevealPoint("P3"), *bids(6, 7, 8))
    assert state.collected[2] == ("P1", "P2", "P3")
    assert state.score(2) == 6


def test_cancelled_last_round_goes_to_no_one_and_the_game_ends():
    order = ["P-5", "P-4", "P-3", "P-2", "P-1", "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "P10"]
    spec = SPEC3
    state = GAME.start(spec)
    for i, card in enumerate(order[:-1]):
        state, _ = GAME.apply(state, RevealPoint(card))
        for c in ("red", "blue", "green"):
            state, _ = GAME.apply(state, Bid(f"{c}:{i + 1}"))  # everybody ties every round
    assert sum(len(c) for c in state.collected) == 0 and len(state.pot) == 14
    state, _ = GAME.apply(state, RevealPoint("P10"))
    for c in ("red", "blue", "green"):
        state, notices = GAME.apply(state, Bid(f"{c}:15"))
    assert state.progress.finished
    assert state.pot == () and all(c == () for c in state.collected)
    assert any(n.code == "raj.nobody" for n in notices)
    assert state.progress.winners == (0, 1, 2)  # all on zero share the win


def test_each_player_card_once_per_game_reusing_is_a_foul():
    state, notices = play(SPEC3, RevealPoint("P4"), *bids(10, 2, 3), RevealPoint("P6"),
                          Bid("red:10"), Bid("blue:5"), Bid("green:4"))
    assert any(n.code == "raj.foul" for n in notices)
    # Ann's bid is void: Bob's 5 is highest among the others.
    assert state.collected[1] == ("P6",)
    # The penalty: Ann's lowest unused card (1) is spent.
    assert 1 in state.used[0] and 1 not in state.unused(0)


def test_a_bid_in_another_seats_colour_is_a_foul_for_the_seat_that_laid_it():
    state, notices = play(SPEC3, RevealPoint("P8"), Bid("blue:15", seat=0), Bid("blue:3"), Bid("green:2"))
    assert state.last.bids[0] is None and state.last.bids[1] == 3
    assert state.collected[1] == ("P8",)
    assert state.used[0] == (1,)


def test_two_bids_in_one_colour_is_a_foul():
    state, notices = play(SPEC3, RevealPoint("P8"), Bid("red:9"), Bid("red:15"), Bid("blue:3"), Bid("green:2"))
    assert state.last.bids[0] is None
    assert state.collected[1] == ("P8",)


def test_a_card_of_another_seats_colour_is_a_foul_recorded_as_such():
    # RULINGS "Bids": the row names it; the state says which foul each void bid was
    state, notices = play(SPEC3, RevealPoint("P8"), Bid("blue:15", seat=0))
    assert state.fouls == ("colour", None, None) and state.bids == (None, None, None)
    assert [n.code for n in notices if n.code == "raj.foul"] == ["raj.foul"]
    state, _ = play(SPEC3, RevealPoint("P8"), Bid("blue:15", seat=0), Bid("blue:3"), Bid("green:2"))
    assert state.last.fouls == ("colour", None, None) and state.collected[1] == ("P8",)


def test_each_foul_is_named_in_the_round_results():
    state, _ = play(SPEC3, RevealPoint("P4"), *bids(10, 2, 3),
                    RevealPoint("P6"), Bid("red:10"), Bid("blue:5"), Bid("blue:6"), Bid("green:4"))
    assert state.results[1].fouls == ("used", "second", None)
    assert GAME.view(state)["table"]["results"][1]["fouls"] == ["used", "second", None]


def test_a_void_bid_cancels_nothing():
    # Ann's 10 is void (already used): it does not cancel Bob's 10, who takes the pot.
    state, _ = play(SPEC3, RevealPoint("P4"), *bids(10, 2, 3), RevealPoint("P6"),
                    Bid("red:10"), Bid("blue:10"), Bid("green:4"))
    assert state.last.cancelled == () and state.last.taker == 1 and state.collected[1] == ("P6",)
    # Bob's second bid voids his first (a 9 equal to Ann's): Ann's 9 stands and takes it.
    state, _ = play(SPEC3, RevealPoint("P8"), Bid("red:9"), Bid("blue:9"), Bid("blue:12"),
                    Bid("green:2"))
    assert state.last.cancelled == () and state.last.taker == 0


def test_a_seat_that_has_fouled_takes_no_further_part_in_the_round():
    state, _ = play(SPEC3, RevealPoint("P8"), Bid("blue:15", seat=0))
    with refused_in_words("raj", "Ann's bid is already void"):
        GAME.apply(state, Bid("red:12"))
    assert GAME.apply(state, BidDown(0))[0] == state        # its pad means nothing either
    assert state.waiting_for() == (1, 2)                      # and the bids are not waiting for it
    state, _ = play(SPEC3, RevealPoint("P8"), Bid("blue:15", seat=0), Bid("blue:3"),
                    Bid("green:2"), RevealPoint("P5"), Bid("red:12"))
    assert state.bids == (12, None, None)                     # back in the next round


def test_who_took_each_pot_is_kept_for_the_whole_game():
    state, _ = play(SPEC3, RevealPoint("P4"), *bids(10, 2, 3), RevealPoint("P-2"), *bids(5, 5, 5),
                    RevealPoint("P6"), *bids(1, 4, 6))
    assert [(r.pot, r.taker, r.carried) for r in state.results] == [
        (("P4",), 0, False), (("P-2",), None, True), (("P-2", "P6"), 2, False)]


def test_a_bid_in_a_colour_nobody_plays_is_refused_for_the_host_to_settle():
    state, _ = play(SPEC3, RevealPoint("P8"))
    with refused_in_words("raj", "nobody at this table plays purple"):
        GAME.apply(state, Bid("purple:3"))


def test_no_bid_before_a_point_card_and_no_second_point_card_during_bids():
    state = GAME.start(SPEC3)
    with refused_in_words("raj", "turn over a point card"):
        GAME.apply(state, Bid("red:3"))
    state, _ = GAME.apply(state, RevealPoint("P8"))
    with refused_in_words("raj", "not all in"):
        GAME.apply(state, RevealPoint("P9"))
    with refused_in_words("raj", "already been played"):
        GAME.apply(play(SPEC3, RevealPoint("P8"), *bids(1, 2, 3))[0], RevealPoint("P8"))


def test_bid_down_pads_call_the_reveal_when_all_are_down():
    state, notices = play(SPEC3, RevealPoint("P2"), BidDown(0), BidDown(2))
    assert notices[-1].code == "raj.bid_down"
    state, notices = GAME.apply(state, BidDown(1))
    assert notices[-1].code == "raj.reveal"
    assert said(GAME.view(state)["prompt"], "raj", state) == "Reveal the bids."


def test_two_to_five_players_and_seat_colours():
    with refused_in_words("raj", "2 to 5"):
        GAME.start(MatchSpec("raj", (Seat("solo"),)))
    with refused_in_words("raj", "2 to 5"):
        GAME.start(MatchSpec("raj", tuple(Seat(str(i)) for i in range(6))))
    with refused_in_words("raj", "two players play red"):
        GAME.start(MatchSpec("raj", (Seat("a", "red"), Seat("b", "red"))))
    state = GAME.start(MatchSpec("raj", (Seat("a"), Seat("b", "red"), Seat("c"))))
    assert state.colours == ("blue", "red", "green")


def test_scoring_and_most_points_wins():
    state, _ = play(SPEC3, RevealPoint("P10"), *bids(15, 1, 2), RevealPoint("P-5"), *bids(14, 2, 1),
                    EndMatch())
    assert state.progress.finished
    assert state.progress.totals == (10, 0, -5)
    assert state.progress.winners == (0,)


def test_equal_top_totals_share_the_win():
    state, _ = play(SPEC3, RevealPoint("P3"), *bids(15, 1, 2), RevealPoint("P2"), *bids(3, 14, 4),
                    RevealPoint("P1"), *bids(5, 13, 6), EndMatch())
    assert state.progress.totals == (3, 3, 0)
    assert state.progress.winners == (0, 1)


def test_settle_is_the_cancelling_rule():
    assert settle(("P5",), (15, 15, 5)) == (2, (15,))
    assert settle(("P-5",), (3, 3, 5)) == (2, (3,))
    assert settle(("P5",), (4, 4, None)) == (None, (4,))
    assert settle(("P5",), (None, None, None)) == (None, ())


def test_finished_game_refuses_actions_but_undo_still_works():
    timeline = Timeline(GAME, SPEC3)
    timeline.apply(RevealPoint("P1"))
    timeline.apply(EndMatch())
    with refused_in_words("raj", "over"):
        timeline.apply(RevealPoint("P2"))
    timeline.apply(Undo())
    assert not timeline.state.progress.finished


def test_every_action_round_trips_through_json():
    for action in (RevealPoint("P-5"), BidDown(2), Bid("purple:15"), Bid("red:1", seat=3), Undo(), EndMatch()):
        assert parse_action(action.to_json(), ACTIONS) == action


def test_state_round_trips_through_json():
    state, _ = play(SPEC3, RevealPoint("P-3"), *bids(6, 6, 6), RevealPoint("P4"), Bid("red:2"))
    assert state_from_json(GAME, state_to_json(state)) == state


def test_fold_matches_stepwise_application():
    actions = [RevealPoint("P5"), *bids(1, 2, 3), RevealPoint("P-2"), *bids(4, 5, 6)]
    state, _ = play(SPEC3, *actions)
    assert fold(GAME, SPEC3, actions) == state
