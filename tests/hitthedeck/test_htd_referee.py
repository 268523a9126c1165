"""The table referee: camera, pad and clock observations into actions, and the slap
window's timing (presses 1 ms apart out of order, chattering pads, pads held down from
before the window, players who never slap)."""
import pytest

from engine.core import IllegalAction
from engine.hitthedeck import GAME
from engine.hitthedeck.actions import (CloseWindow, Cut, FakeOut, Flip, HandCards, Play,
                                       SetHandSize, Slap, StartHand, TurnUp)
from engine.hitthedeck.referee import interpret
from engine.observations import CardSeen, CardsLaidOut, PadPressed, PadReleased, Tick, ZoneEmpty

from htd_helpers import begin, run, spec
from said import refused_in_words

MS = 1_000_000
OPEN = 1_000 * MS   # when the HAND card is seen in these tests


def feed(state, *observations):
    """Interpret and apply each observation in arrival order; the actions taken."""
    taken = []
    for obs in observations:
        for action in interpret(state, obs):
            state, _ = GAME.apply(state, action)
            taken.append(action)
    return state, taken


def window(n=4):
    state, _ = feed(begin(n), CardSeen("discard", "HIT-HAND", OPEN))
    assert state.window is not None and state.window.opened_ns == OPEN
    return state


# ------------------------------------------------------------------ cards

def test_the_first_card_seen_after_a_hand_is_scored_deals_and_turns_it_up():
    s = GAME.start(spec(3))
    assert interpret(s, CardSeen("discard", "R3", 5)) == (StartHand(), TurnUp("R3", 5))


def test_a_card_seen_is_the_play_of_the_player_whose_turn_it_is():
    assert interpret(begin(3), CardSeen("discard", "R5", 7)) == (Play(1, "R5", 7),)


def test_a_card_that_may_not_be_played_is_refused_with_the_reason():
    with refused_in_words("hitthedeck", "neither by colour nor by number"):
        interpret(begin(3), CardSeen("discard", "B5", 7))
    with refused_in_words("hitthedeck", "not part of this game"):
        interpret(begin(3), CardSeen("discard", "X1", 7))


def test_a_card_seen_after_a_cut_or_flip_is_the_exposed_card():
    cut = run(begin(3), Play(1, "R-CUT"))
    assert interpret(cut, CardSeen("discard", "G2", 9)) == (Cut(2, "G2", 9),)
    flip = run(begin(3), Play(1, "R-FLIP"))
    assert interpret(flip, CardSeen("discard", "B-FLIP", 9)) == (Flip(2, "B-FLIP", 9),)
    buried = run(flip, Flip(2, "B-FLIP"))
    assert interpret(buried, CardSeen("discard", "Y1", 11)) == (Flip(2, "Y1", 11),)


def test_the_hand_card_reappearing_from_under_the_hands_means_nothing():
    assert interpret(window(), CardSeen("discard", "HIT-HAND", OPEN + 900 * MS)) == ()


def test_cards_elsewhere_and_empty_zones_mean_nothing():
    assert interpret(begin(3), CardSeen("seat:1", "R5", 7)) == ()
    assert interpret(begin(3), ZoneEmpty("discard", 7)) == ()
    assert interpret(begin(3), PadReleased(1, 7)) == ()


def test_laid_out_hands_are_counted_per_seat_zone_or_in_turn_order():
    over = run(begin(3), SetHandSize(1, 1), Play(1, "R4"))
    assert interpret(over, CardsLaidOut("seat:0", ("R1",), 5)) == (HandCards(0, ("R1",)),)
    assert interpret(over, CardsLaidOut("scoring", ("R1",), 5)) == (HandCards(2, ("R1",)),)
    with refused_in_words("hitthedeck", "only when a hand is over"):
        interpret(begin(3), CardsLaidOut("scoring", ("R1",), 5))


# ------------------------------------------------------------------ pads

def test_a_press_with_no_window_open_is_a_fake_out():
    assert interpret(begin(3), PadPressed(2, 50)) == (FakeOut(2, 50),)


def test_presses_one_millisecond_apart_arriving_out_of_order_are_ordered_by_time():
    s, taken = feed(window(), PadPressed(3, OPEN + 203 * MS), PadPressed(1, OPEN + 200 * MS),
                    PadPressed(2, OPEN + 202 * MS), PadPressed(0, OPEN + 201 * MS))
    assert all(isinstance(a, Slap) for a in taken)
    assert s.last_slap.order == ((1, OPEN + 200 * MS), (0, OPEN + 201 * MS),
                                 (2, OPEN + 202 * MS), (3, OPEN + 203 * MS))
    assert s.hand_counts == (7, 6, 7, 11)


def test_the_last_slapper_one_millisecond_behind_loses_even_when_it_arrives_first():
    s, _ = feed(window(3), PadPressed(0, OPEN + 301 * MS), PadPressed(1, OPEN + 300 * MS),
                PadPressed(2, OPEN + 100 * MS))
    assert s.hand_counts == (11, 6, 7)


def test_a_chattering_pad_counts_once_and_its_bounces_are_no_fake_out():
    s, taken = feed(window(3),
                    PadPressed(0, OPEN + 100 * MS), PadPressed(0, OPEN + 101 * MS),
                    PadPressed(0, OPEN + 103 * MS), PadPressed(1, OPEN + 200 * MS),
                    PadPressed(2, OPEN + 300 * MS), PadPressed(2, OPEN + 302 * MS),
                    PadPressed(2, OPEN + 305 * MS))
    assert [a.seat for a in taken] == [0, 1, 2]
    assert s.hand_counts == (7, 6, 11)


def test_an_earlier_press_arriving_late_from_the_same_pad_replaces_the_later_one():
    s, taken = feed(window(3), PadPressed(0, OPEN + 400 * MS), PadPressed(1, OPEN + 300 * MS),
                    PadPressed(0, OPEN + 200 * MS), PadPressed(2, OPEN + 350 * MS))
    assert s.hand_counts == (7, 6, 11)


def test_a_pad_held_down_from_before_the_window_is_not_a_slap_in_it():
    s, taken = feed(window(3), PadPressed(2, OPEN - 50 * MS, held=True),
                    PadPressed(0, OPEN + 100 * MS), PadPressed(1, OPEN + 200 * MS))
    assert [a.seat for a in taken] == [0, 1] and s.window is not None
    s, taken = feed(s, Tick(OPEN + 3700 * MS))
    assert taken == [CloseWindow(OPEN + 3700 * MS)] and s.hand_counts == (7, 6, 11)


def test_players_who_never_slap_draw_four_when_the_clock_runs_out():
    s, taken = feed(window(4), PadPressed(1, OPEN + 100 * MS), Tick(OPEN + 2999 * MS),
                    Tick(OPEN + 3699 * MS))
    assert s.window is not None and len(taken) == 1
    s, taken = feed(s, Tick(OPEN + 3700 * MS))
    assert taken == [CloseWindow(OPEN + 3700 * MS)]
    assert s.hand_counts == (11, 6, 11, 11) and s.turn == 2
    assert s.last_slap.closed_ns == OPEN + 3000 * MS


def test_a_slap_made_in_time_that_reaches_the_referee_after_the_deadline_counts():
    s, _ = feed(window(3), PadPressed(0, OPEN + 100 * MS), PadPressed(1, OPEN + 200 * MS),
                Tick(OPEN + 3200 * MS), PadPressed(2, OPEN + 2900 * MS))
    assert s.window is None and s.hand_counts == (7, 6, 11)


def test_the_clock_waits_for_late_reports_as_long_as_the_setting_says():
    s, _ = feed(begin(3, late_report_ms=0), CardSeen("discard", "HIT-HAND", OPEN))
    assert interpret(s, Tick(OPEN + 3000 * MS)) == (CloseWindow(OPEN + 3000 * MS),)


def test_a_press_after_the_deadline_closes_the_window_and_is_a_fake_out():
    s, taken = feed(window(3), PadPressed(0, OPEN + 100 * MS), PadPressed(1, OPEN + 200 * MS),
                    PadPressed(2, OPEN + 3500 * MS))
    assert taken[2:] == [CloseWindow(OPEN + 3000 * MS), FakeOut(2, OPEN + 3500 * MS)]
    assert s.hand_counts == (7, 6, 13)


def test_a_press_stamped_inside_a_closed_window_arriving_late_is_ignored():
    s, _ = feed(window(3), PadPressed(0, OPEN + 100 * MS), Tick(OPEN + 4000 * MS))
    assert interpret(s, PadPressed(1, OPEN + 2000 * MS)) == ()


def test_a_tie_within_half_a_millisecond_opens_a_new_slap_for_those_two():
    s, _ = feed(window(3), PadPressed(1, OPEN + 100 * MS), PadPressed(0, OPEN + 300 * MS),
                PadPressed(2, OPEN + 300 * MS + 200_000))
    assert s.window.reslap == 1 and s.window.eligible == (0, 2)
    # their pads still bounce from the first slap: not a new slap
    s, taken = feed(s, PadPressed(0, OPEN + 301 * MS), PadPressed(1, OPEN + 500 * MS))
    assert taken == []
    s, _ = feed(s, PadPressed(2, OPEN + 700 * MS), PadPressed(0, OPEN + 701 * MS))
    assert s.window is None and s.hand_counts == (11, 6, 7)


def test_the_player_who_went_out_takes_no_part_in_the_last_slap():
    s = run(begin(3), SetHandSize(1, 1))
    s, _ = feed(s, CardSeen("discard", "HIT-HAND", OPEN))
    assert interpret(s, PadPressed(1, OPEN + 10 * MS)) == ()


def test_the_referee_is_pure():
    s = window(3)
    before = s
    interpret(s, PadPressed(0, OPEN + 100 * MS))
    interpret(s, Tick(OPEN + 9000 * MS))
    assert s == before and s.window.slaps == ()


def test_a_slap_judged_before_the_camera_reported_the_hand_is_a_slap_not_a_fake_out():
    s, taken = feed(begin(3), PadPressed(0, OPEN + 150 * MS), PadPressed(2, OPEN - 400 * MS))
    assert taken == [FakeOut(0, OPEN + 150 * MS), FakeOut(2, OPEN - 400 * MS)]
    assert s.hand_counts == (9, 7, 9)
    s, _ = feed(s, CardSeen("discard", "HIT-HAND", OPEN))
    # Ann's press came after the card was seen: her two cards go back and she has slapped;
    # Cat's came before it: a real fake-out.
    assert s.window.slaps == ((0, OPEN + 150 * MS),) and s.hand_counts == (7, 6, 9)
    s, _ = feed(s, PadPressed(1, OPEN + 200 * MS), PadPressed(2, OPEN + 300 * MS))
    assert s.hand_counts == (7, 6, 13)


def test_early_slaps_from_everyone_settle_the_window_at_once():
    s, _ = feed(begin(2), PadPressed(0, OPEN + 150 * MS), PadPressed(1, OPEN + 100 * MS),
                CardSeen("discard", "HIT-HAND", OPEN))
    assert s.window is None and s.hand_counts == (11, 6) and s.turn == 0 and s.free


def test_fake_outs_before_an_earlier_card_never_become_slaps():
    s, _ = feed(begin(3), PadPressed(0, OPEN + 150 * MS), CardSeen("discard", "R5", OPEN + 100 * MS),
                CardSeen("discard", "HIT-HAND", OPEN))
    assert s.window.slaps == () and s.hand_counts == (9, 6, 6)


def test_a_bouncing_pad_is_one_fake_out_not_several():
    s, taken = feed(begin(3), PadPressed(2, 500 * MS), PadPressed(2, 502 * MS), PadPressed(2, 509 * MS))
    assert taken == [FakeOut(2, 500 * MS)] and s.hand_counts == (7, 7, 9)
    s, taken = feed(s, PadPressed(2, 900 * MS))
    assert taken == [FakeOut(2, 900 * MS)]
