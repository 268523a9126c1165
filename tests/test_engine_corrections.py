"""The start line's dealer and the host's score corrections (SetTotals, CorrectRound),
the same in all four games through engine.core / engine.match."""
from __future__ import annotations

import pytest

from engine.core import CorrectRound, EndMatch, IllegalAction, MatchSpec, Seat, SetTotals
from engine.games import get_game
from engine.log import fold, read_log
from said import refused_in_words

NAMES = ("Ann", "Bob", "Cat")
GAMES = ("flip7", "solo", "raj", "hitthedeck")


def spec(game, dealer=None, **settings):
    seats = tuple(Seat(n, c) for n, c in zip(NAMES, ("red", "blue", "green")))
    return MatchSpec(game, seats, settings, dealer=dealer)


@pytest.mark.parametrize("game", GAMES)
def test_the_start_line_names_the_first_dealer(game):
    g = get_game(game)
    assert g.view(g.start(spec(game)))["dealer"] == 0
    assert g.view(g.start(spec(game, dealer=2)))["dealer"] == 2
    line = spec(game, dealer=2).to_json()
    assert line["dealer"] == 2 and MatchSpec.from_json(line).dealer == 2
    assert "dealer" not in spec(game).to_json()


@pytest.mark.parametrize("bad", [3, -1, "1", True])
def test_a_dealer_who_is_not_a_seat_is_refused_in_words(bad):
    line = {"type": "start", "game": "solo", "seats": list(NAMES), "dealer": bad}
    with refused_in_words("raj", "dealer must be one of the 3 players"):
        MatchSpec.from_json(line)


def test_the_dealer_decides_who_plays_first():
    from engine.flip7 import Flip
    from engine.hitthedeck.actions import StartHand, TurnUp
    from engine.solo.actions import StartRound
    assert fold(get_game("solo"), spec("solo", dealer=1), [StartRound("R5")]).turn == 2
    assert fold(get_game("hitthedeck"), spec("hitthedeck", dealer=2),
                [StartHand(), TurnUp("R3")]).turn == 0
    state = fold(get_game("flip7"), spec("flip7", dealer=1), [Flip("5")])
    assert state.lines[2].numbers == (5,)          # the deal starts left of the dealer


@pytest.mark.parametrize("game", GAMES)
def test_the_host_sets_the_totals_and_they_are_logged(game):
    g = get_game(game)
    state, notices = g.apply(g.start(spec(game)), SetTotals((40, 7, 0)))
    assert g.view(state)["totals"] == [40, 7, 0]
    assert [n.code for n in notices] == ["totals_set"]
    with refused_in_words("raj", "give 3 scores, one per player, not 2"):
        g.apply(state, SetTotals((1, 2)))
    over, _ = g.apply(state, EndMatch())
    assert g.view(over)["winners"] == ([2] if game == "hitthedeck" else [0])  # low wins there
    with refused_in_words("raj", "the match is over: correct a round"):
        g.apply(over, SetTotals((0, 0, 0)))


def _one_round(game):
    """A log of one scored round per game, and its scores."""
    from flip7.flip7_script import parse
    from engine.hitthedeck.actions import HandCards, SetHandSize, StartHand, TurnUp
    from engine.raj.rules import Bid, RevealPoint
    if game == "flip7":
        return parse("5 FREEZE T2>1 7 H2 9 S0 S2"), [7, 5, 9]
    if game == "hitthedeck":
        return ([StartHand(), TurnUp("R3"), SetHandSize(1, 0), HandCards(0, ("R1", "G2")),
                 HandCards(2, ("Y5",))], [3, 0, 5])
    return [RevealPoint("P4"), Bid("red:10"), Bid("blue:2"), Bid("green:3"), EndMatch()], [4, 0, 0]


@pytest.mark.parametrize("game", ("flip7", "raj", "hitthedeck"))
def test_a_finished_rounds_score_is_corrected_and_the_totals_follow(game):
    g = get_game(game)
    actions, scores = _one_round(game)
    state = fold(g, spec(game), actions)
    view = g.view(state)
    assert view["history"] == [scores] and view["totals"] == scores
    fixed = [scores[0] + 10, scores[1], scores[2]]
    state, notices = g.apply(state, SetTotals((100, 1, 2))) if not view["finished"] else (state, ())
    before = g.view(state)["totals"]
    state, notices = g.apply(state, CorrectRound(1, tuple(fixed)))
    view = g.view(state)
    assert view["history"] == [fixed] and view["totals"] == [before[0] + 10, before[1], before[2]]
    assert [n.code for n in notices] == ["round_corrected"]
    with refused_in_words("raj", "round 2 has not been scored: rounds 1 to 1 have"):
        g.apply(state, CorrectRound(2, (0, 0, 0)))


@pytest.mark.parametrize("game", GAMES)
def test_a_correction_after_the_end_changes_the_winners(game):
    g = get_game(game)
    state = g.start(spec(game))
    if game == "raj":
        actions, _ = _one_round("raj")
        state = fold(g, spec(game), actions)                  # Ann won 4 - 0 - 0
        state, _ = g.apply(state, CorrectRound(1, (4, 9, 0)))
        assert g.view(state)["winners"] == [1] and g.view(state)["finished"]
        return
    with refused_in_words("raj", "no round has been scored yet"):
        g.apply(state, CorrectRound(1, (0, 0, 0)))
    if game == "solo":
        from engine.solo.actions import Play, RoundCards, StartRound
        state = fold(g, spec(game, hand_size=1), [StartRound("R5"), Play(1, "R7"),
                                                   RoundCards(2, ("B9",)), RoundCards(0, ("G1",))])
    else:
        state = fold(g, spec(game), _one_round(game)[0])
    state, _ = g.apply(state, EndMatch())
    winners = g.view(state)["winners"]
    goal_low = game == "hitthedeck"
    state, _ = g.apply(state, CorrectRound(1, (0, 0, 0) if not goal_low else (0, 50, 50)))
    view = g.view(state)
    assert view["finished"] and view["history"][0] == ([0, 0, 0] if not goal_low else [0, 50, 50])
    assert view["winners"] == ([0, 1, 2] if not goal_low else [0]) != winners


def test_corrections_replay_from_a_log():
    lines = ['{"type": "start", "game": "flip7", "seats": ["Ann", "Bob", "Cat"], "dealer": 1}',
             '{"type": "set_totals", "totals": [120, 80, 95]}',
             '{"type": "undo"}',
             '{"type": "set_totals", "totals": [150, 80, 95]}']
    timeline = read_log(lines)
    assert timeline.game.view(timeline.state)["totals"] == [150, 80, 95]
    assert timeline.game.view(timeline.state)["dealer"] == 1
