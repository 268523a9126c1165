"""Solo's table referee: camera sightings and pad presses become the right actions,
out-of-turn discards race normal plays, and the host settles unclaimed identical cards."""
from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.observations import DISCARD, SCORING, CardSeen, CardsLaidOut, PadPressed, Tick
from engine.solo import GAME
from engine.solo.actions import (CallSolo, CatchSolo, Claim, Draw, HoldCard, Play,
                                 RoundCards, SettlePlay, StartRound)
from engine.solo.referee import interpret

from solo_helpers import run, spec, started, with_hands
from said import refused_in_words, said


def seen(state, card, t=1):
    actions = interpret(state, CardSeen(DISCARD, card, t))
    return run(state, *actions), actions


def test_the_turned_over_card_starts_the_round():
    s = GAME.start(spec())
    assert interpret(s, CardSeen(DISCARD, "G4", 5)) == (StartRound("G4"),)


def test_a_card_seen_is_the_current_players_play():
    s = started(starter="R5")
    assert interpret(s, CardSeen(DISCARD, "R8", 5)) == (Play(1, "R8"),)


def test_a_card_that_may_not_be_played_is_refused_with_the_reason():
    s = started(starter="R5")
    with refused_in_words("solo", "Blue 8 does not go on Red 5", names=("P0", "P1", "P2", "P3", "P4", "P5")):
        interpret(s, CardSeen(DISCARD, "B8", 5))


def test_other_observations_mean_nothing_in_solo():
    s = started()
    assert interpret(s, Tick(5)) == ()
    assert interpret(s, CardSeen("seat:1", "R5", 5)) == ()


def test_an_identical_card_goes_to_the_earliest_pad_claim():
    s = run(started(5, starter="R5"), Play(1, "R7"))
    s = run(s, *interpret(s, PadPressed(4, 300)), *interpret(s, PadPressed(3, 200)))
    assert [c.seat for c in s.claims] == [4, 3]
    s, actions = seen(s, "R7")
    assert actions == (Play(3, "R7"),)
    assert s.turn == 4 and s.hands[3] == 7 and s.question is None and s.claims == ()


def test_an_out_of_turn_discard_beats_the_current_players_identical_card_when_claimed():
    # seat 2 is to play and also holds the other Red 7; seat 4 pressed first: it is 4's
    s = run(started(5, starter="R5"), Play(1, "R7"))
    s = run(s, *interpret(s, PadPressed(4, 100)))
    s, actions = seen(s, "R7")
    assert actions == (Play(4, "R7"),) and s.turn == 0 and s.hands[2] == 8


def test_a_normal_play_landing_first_voids_the_claims_and_the_late_discard_is_refused():
    s = run(started(5, starter="R5"), Play(1, "R7"))
    s = run(s, *interpret(s, PadPressed(4, 100)))
    s = run(s, Play(2, "CHOOSE", "B"))             # seat 2's normal play got there first
    assert s.claims == ()
    with refused_in_words("solo", "the colour to follow is blue", names=("P0", "P1", "P2", "P3", "P4", "P5")):
        interpret(s, CardSeen(DISCARD, "R7", 9))   # seat 4's Red 7 no longer fits


def test_a_black_card_seen_while_another_players_claim_is_open_is_nobodys_play():
    # RULINGS "Out-of-turn discard": B (seat 2) is to play, C (seat 3) pressed first
    s = run(started(starter="R5"), Play(1, "CHOOSE", "B"))
    s = run(s, *interpret(s, PadPressed(3, 100)))
    before = s
    s, actions = seen(s, "CHOOSE")
    assert actions == (HoldCard("CHOOSE"),)
    # nothing was taken from anyone, the turn has not passed, and the host is asked
    assert s.hands == before.hands and s.discard == before.discard and s.turn == 2
    assert s.held == "CHOOSE"
    view = GAME.view(s)
    assert view["table"]["question"]["choices"] == [2, 3]
    assert "whose is the Choose a colour" in said(view["prompt"], "solo", s)
    with refused_in_words("solo", "first the host must say whose Choose a colour", names=("P0", "P1", "P2", "P3", "P4", "P5")):
        GAME.apply(s, Draw(2))


def test_the_host_says_the_held_black_card_was_the_current_players_play():
    s = run(started(starter="R5"), Play(1, "CHOOSE", "B"))
    s = run(s, *interpret(s, PadPressed(3, 100)))
    s, _ = seen(s, "CHOOSE")
    s = run(s, SettlePlay(2))
    assert s.held is None and s.hands == (8, 7, 7, 8) and s.discard == 3
    assert s.awaiting == "colour" and s.chooser == 2


def test_the_host_says_the_held_black_card_was_the_claimers_illegal_jump_and_it_goes_back():
    s = run(started(starter="R5"), Play(1, "CHOOSE", "B"))
    s = run(s, *interpret(s, PadPressed(3, 100)))
    before = s
    s, _ = seen(s, "CHOOSE")
    s, notices = GAME.apply(s, SettlePlay(3))
    assert s.held is None and s.hands == before.hands and s.discard == before.discard
    assert s.turn == 2 and s.top == "CHOOSE" and s.colour == "B"
    assert [n.code for n in notices] == ["jump_refused"]
    s = run(s, Play(2, "B4"))                      # B plays on as if nothing happened
    assert s.turn == 3


def test_the_claim_that_took_an_out_of_turn_card_is_in_the_state():
    s = run(started(5, starter="R5"), Play(1, "R7"))
    s = run(s, *interpret(s, PadPressed(4, 300)), *interpret(s, PadPressed(3, 200)))
    s, _ = seen(s, "R7")
    assert (s.taken_by.seat, s.taken_by.t_ns) == (3, 200)
    assert GAME.view(s)["table"]["taken_by_claim"] == {"seat": 3, "t_ns": 200}
    s = run(s, Play(4, "R2"))
    assert s.taken_by is None


def test_an_unclaimed_identical_card_is_the_current_players_play_with_a_question():
    s = run(started(5, starter="R5"), Play(1, "R7"))
    s, actions = seen(s, "R7")
    assert actions == (Play(2, "R7"),)
    assert s.question is not None and s.question.seat == 2
    assert GAME.view(s)["table"]["question"]["taken_as"] == 2
    assert "Host: who played" in said(GAME.view(s)["prompt"], "solo", s)


def test_the_host_settles_the_question_as_another_players_out_of_turn_discard():
    s = run(started(5, starter="R5"), Play(1, "R7"))
    s, _ = seen(s, "R7")
    s = run(s, SettlePlay(4))
    assert s.question is None and s.turn == 0
    assert s.hands == (8, 7, 8, 8, 7) and s.discard == 3


def test_the_host_confirms_the_question():
    s = run(started(5, starter="R5"), Play(1, "R7"))
    s, _ = seen(s, "R7")
    s = run(s, SettlePlay(2))
    assert s.question is None and s.turn == 3 and s.hands[2] == 7


def test_the_question_lapses_with_the_next_action_but_not_with_a_claim():
    s = run(started(5, starter="R5"), Play(1, "R7"))
    s, _ = seen(s, "R7")
    assert run(s, Claim(0, 5)).question is not None
    s = run(s, Draw(3))
    assert s.question is None
    with refused_in_words("solo", "no open question", names=("P0", "P1", "P2", "P3", "P4", "P5")):
        GAME.apply(s, SettlePlay(4))


def test_settling_as_a_player_who_may_not_have_discarded_it_is_refused():
    s = run(started(5, starter="R5", jump_black=False), Play(1, "CHOOSE", "G"))
    s, _ = seen(s, "CHOOSE")
    with refused_in_words("solo", "black cards cannot", names=("P0", "P1", "P2", "P3", "P4", "P5")):
        GAME.apply(s, SettlePlay(4))


def test_a_wrongly_taken_last_card_is_undone_by_settling():
    s = with_hands(run(started(4, starter="R5"), Play(1, "R7")), 8, 7, 1, 8)
    s, _ = seen(s, "R7")                     # taken as seat 2's last card: round over
    assert s.phase == "count"
    s = run(s, SettlePlay(0))                # it was seat 0's discard
    assert s.phase == "play" and s.hands == (7, 7, 1, 8) and s.turn == 1


def test_pad_presses_call_solo_catch_it_or_claim():
    s = with_hands(started(starter="R5"), 8, 2, 8, 8)
    assert interpret(s, PadPressed(3, 7)) == (Claim(3, 7),)
    s = run(s, Play(1, "R6"))
    assert interpret(s, PadPressed(1, 8)) == (CallSolo(1),)
    assert interpret(s, PadPressed(3, 9)) == (CatchSolo(3, 1),)


def test_laid_out_hands_go_to_the_seats_after_the_winner_in_order():
    s = run(with_hands(started(3, starter="R5"), 2, 1, 1), Play(1, "R6"))
    actions = interpret(s, CardsLaidOut(SCORING, ("B3",), 1))
    assert actions == (RoundCards(2, ("B3",)),)
    s = run(s, *actions)
    assert interpret(s, CardsLaidOut(SCORING, ("B4", "G4"), 2)) == (RoundCards(0, ("B4", "G4")),)
    with refused_in_words("solo", "should hold 2 cards", names=("P0", "P1", "P2", "P3", "P4", "P5")):
        interpret(s, CardsLaidOut(SCORING, ("B4",), 2))
