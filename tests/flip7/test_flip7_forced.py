"""Forced choices (docs/protocol.md): the engine gives an action card by itself when only
one player can take it; a `target` naming that very player is accepted, any other is
refused with the true reason."""
from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.flip7 import GAME, Target

from flip7_script import play
from said import said


def refused(state, action, text):
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, action)
    reason = said(caught.value, "flip7", state)
    assert text.lower() in reason.lower(), reason


def test_the_last_active_players_freeze_named_for_themselves_is_accepted():
    state, _ = play("5 7 3 S1 S2 H0 FREEZE")          # only Ann is still in: she freezes herself
    assert [(f.chooser, f.card, f.target) for f in state.forced] == [(0, "FREEZE", 0)]
    after, notices = GAME.apply(state, Target(0, 0))
    assert notices == () and after.forced == () and after.progress == state.progress
    refused(state, Target(0, 1), "Ann is the only active player: the Freeze went to Ann")


def test_a_spare_second_chance_with_one_taker_named_is_accepted_others_get_the_true_reason():
    state, _ = play("CHANCE 7 CHANCE H1 CHANCE")       # Bob's second: only Cat can take it
    assert state.lines[2].chance and [f.target for f in state.forced] == [2]
    GAME.apply(state, Target(1, 2))
    refused(state, Target(1, 0), "could only go to Cat: Ann already holds a Second Chance")
    refused(state, Target(1, 1), "Bob cannot keep a second Second Chance")


def test_a_discarded_spare_second_chance_says_why():
    # Cat busts, Ann holds a Second Chance: Bob's second one has no taker and is discarded
    state, _ = play("CHANCE 7 5 H1 3 H2 7 H0 CHANCE H1 CHANCE")
    assert [(f.chooser, f.target) for f in state.forced] == [(1, None)]
    refused(state, Target(1, 0), "Bob's spare Second Chance was discarded: no other active "
                                 "player could take it (Ann already holds a Second Chance)")
    refused(state, Target(1, 2), "(Cat has busted)")


def test_a_target_with_nothing_forced_is_still_nothing_to_give():
    state, _ = play("5 7 3")
    refused(state, Target(1, 2), "there is nothing to give now. It is Bob's turn")


def test_the_forced_choice_is_forgotten_after_the_next_action():
    state, _ = play("5 7 3 S1 S2 H0 FREEZE 4")
    assert state.forced == ()
    refused(state, Target(0, 0), "there is nothing to give now")


def test_the_forced_choice_that_ended_the_match_may_still_be_named():
    state, _ = play("5 7 3 S1 S2 H0 FREEZE", target=5)    # the round Ann ends ends the match
    assert state.progress.finished
    GAME.apply(state, Target(0, 0))
    refused(state, Target(0, 2), "Ann is the only active player")
