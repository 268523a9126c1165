"""Flip 7's table referee: camera sightings and pad presses become actions."""
import pytest

from engine.core import IllegalAction
from engine.flip7 import Flip, Hit, Stay, Target
from engine.flip7.referee import interpret
from engine.observations import CardSeen, PadPressed, PadReleased, Tick, ZoneEmpty

from flip7_script import play
from said import refused_in_words


def test_a_card_in_the_flip_spot_or_a_seat_zone_is_a_flip():
    state, _ = play("")
    assert interpret(state, CardSeen("discard", "5", 1)) == (Flip("5"),)
    assert interpret(state, CardSeen("seat:1", "5", 1)) == (Flip("5", 1),)
    with refused_in_words("flip7", "goes to Bob"):
        interpret(state, CardSeen("seat:2", "5", 1))
    assert interpret(state, CardSeen("reveal", "5", 1)) == ()


def test_a_card_turned_over_on_a_players_turn_is_their_hit():
    state, _ = play("5 6 7")
    assert interpret(state, CardSeen("discard", "8", 1)) == (Hit(1), Flip("8"))


def test_cards_that_cannot_come_are_refused():
    state, _ = play("1")
    with refused_in_words("flip7", "the only 1 card is already out"):
        interpret(state, CardSeen("discard", "1", 1))
    with refused_in_words("flip7", "not part of this game"):
        interpret(state, CardSeen("discard", "R5", 1))


def test_tap_is_hit_hold_is_stay_only_for_the_player_whose_turn_it_is():
    state, _ = play("5 6 7")
    assert interpret(state, PadPressed(1, 10)) == (Hit(1),)
    assert interpret(state, PadPressed(1, 10, held=True)) == (Stay(1),)
    with refused_in_words("flip7", "it is Bob's turn, not Cat's"):
        interpret(state, PadPressed(2, 10))


def test_pads_are_refused_while_a_card_is_due():
    state, _ = play("5")
    with refused_in_words("flip7", "waiting for the deal: a card for Cat"):
        interpret(state, PadPressed(2, 10))


def test_while_a_target_is_chosen_the_pressed_pad_is_the_target():
    state, _ = play("5 6 7 H1 FREEZE")
    assert interpret(state, PadPressed(2, 10)) == (Target(1, 2),)
    state, _ = play("5 6 7 S1 H2 FREEZE")
    with refused_in_words("flip7", "cannot go to Bob"):
        interpret(state, PadPressed(1, 10))


def test_other_observations_mean_nothing():
    state, _ = play("5 6 7")
    for observation in (PadReleased(1, 5), Tick(9), ZoneEmpty("discard", 3)):
        assert interpret(state, observation) == ()


def test_the_referee_refuses_everything_once_the_match_is_over():
    state, _ = play("5 6 7 END")
    with refused_in_words("flip7", "the match is over"):
        interpret(state, PadPressed(1, 10))
    with refused_in_words("flip7", "the match is over"):
        interpret(state, CardSeen("discard", "3", 1))
