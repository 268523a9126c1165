"""End-of-match statistics (engine.stats): scripted matches of each game give the figures
counted by hand; undone actions and taken-back penalties do not count."""
from __future__ import annotations

import json
from pathlib import Path

from engine.core import EndMatch, MatchSpec, Seat, Undo
from engine.hitthedeck.actions import FakeOut, ForgotCall, HandCards, Play as HPlay, SetHandSize, Slap, StartHand, TurnUp
from engine.raj.rules import Bid, RevealPoint
from engine.solo.actions import CatchSolo, Claim, Play, SettlePlay, StartRound, TakePenalty
from engine.stats import FIGURES, match_statistics

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
MS = 1_000_000


def seats(*names):
    return tuple(Seat(n) for n in names)


def figures(stats, key):
    return [p[key] for p in stats["players"]]


def test_flip7_busts_freezes_and_rounds_won():
    from flip7.flip7_script import parse
    spec = MatchSpec("flip7", seats("Ann", "Bob", "Cat"))
    actions = parse("5 FREEZE T2>1 7 H2 9 S0 S2  3 3 4 H2 3 H0 8 S1 S0 END")
    stats = match_statistics(spec, actions)
    assert stats["figures"] == list(FIGURES["flip7"])
    assert stats["rounds"] == [[7, 5, 9], [11, 4, 0]]
    assert figures(stats, "points") == [18, 9, 9]
    assert figures(stats, "busts") == [0, 0, 1]
    assert figures(stats, "frozen") == [0, 1, 0]
    assert figures(stats, "rounds_won") == [1, 0, 1]
    assert figures(stats, "flip7s") == [0, 0, 0]
    assert stats["finished"] and stats["winners"] == [0]
    # the bust undone (and the round replayed with a Stay) is not counted
    undone = parse("5 FREEZE T2>1 7 H2 9 S0 S2  3 3 4 H2 3") + [Undo()]
    assert figures(match_statistics(spec, undone), "busts") == [0, 0, 0]


def test_hitthedeck_slaps_lost_fake_outs_and_a_forgotten_call():
    spec = MatchSpec("hitthedeck", seats("Ann", "Bob", "Cat"))
    actions = [StartHand(), TurnUp("R3"),
               HPlay(1, "HIT-HAND", 1000 * MS), Slap(1, 1100 * MS), Slap(0, 1200 * MS),
               Slap(2, 1400 * MS),                             # Cat slapped last ...
               HPlay(2, "R4", 5000 * MS),
               HPlay(0, "HIT-HAND", 6000 * MS), Slap(2, 6100 * MS), Slap(1, 6200 * MS),
               Slap(0, 6300 * MS), ForgotCall(0),             # ... Ann last, but she forgot
               FakeOut(1, 9000 * MS), FakeOut(2, 9500 * MS),
               SetHandSize(1, 0),                              # Bob goes out
               HandCards(0, ("R1",)), HandCards(2, ("G2",))]
    stats = match_statistics(spec, [a.to_json() for a in actions])   # JSON dicts too
    assert figures(stats, "slaps_lost") == [0, 0, 1]
    assert figures(stats, "forgot_calls") == [1, 0, 0]
    assert figures(stats, "fake_outs") == [0, 1, 1]
    assert figures(stats, "rounds_won") == [0, 1, 0]
    assert stats["rounds"] == [[1, 0, 2]] and not stats["finished"]


def test_solo_out_of_turn_catches_and_penalties():
    spec = MatchSpec("solo", seats("Ann", "Bob", "Cat"), {"hand_size": 3})
    actions = [StartRound("R5"), Play(1, "R7"), Claim(0, 5), Play(0, "R7"),  # Ann jumps
               Play(1, "R2"), CatchSolo(2, 1),                              # Bob caught
               Play(2, "R-TAKE2"), TakePenalty(0),                          # Ann takes 2
               Play(1, "R2"), Play(2, "R2"), SettlePlay(0)]                 # Ann's, not Cat's
    stats = match_statistics(spec, actions)
    assert figures(stats, "out_of_turn") == [2, 0, 0]
    assert figures(stats, "solo_caught") == [0, 1, 0]
    assert figures(stats, "catches") == [0, 0, 1]
    assert figures(stats, "penalties_taken") == [1, 0, 0]
    assert figures(stats, "rounds_won") == [0, 0, 0]


def test_raj_pots_cards_collected_and_fouls():
    spec = MatchSpec("raj", (Seat("Ann", "red"), Seat("Bob", "blue"), Seat("Cat", "green")))
    actions = [RevealPoint("P4"), Bid("red:10"), Bid("blue:2"), Bid("green:3"),
               RevealPoint("P6"), Bid("red:10"), Bid("blue:5"), Bid("blue:6"), Bid("green:4"),
               EndMatch()]
    stats = match_statistics(spec, actions)
    assert figures(stats, "fouls") == [1, 1, 0]
    assert figures(stats, "rounds_won") == [1, 0, 1]
    assert figures(stats, "cards_collected") == [1, 0, 1]
    assert figures(stats, "points") == [4, 0, 6]
    assert stats["winners"] == [2]


def test_every_example_log_gives_every_figure_for_every_player():
    for path in sorted(EXAMPLES.glob("*.jsonl")):
        rows = [json.loads(line) for line in path.read_text().splitlines()
                if line.strip() and not line.startswith("#")]
        spec = MatchSpec.from_json(rows[0])
        stats = match_statistics(spec, rows[1:])
        assert len(stats["players"]) == len(spec.seats), path.name
        for player in stats["players"]:
            assert set(FIGURES[spec.game]) <= set(player), path.name
            assert all(isinstance(player[k], int) and player[k] >= 0
                       for k in FIGURES[spec.game] if k != "points"), (path.name, player)
        json.dumps(stats)
