"""Raj's table referee and self-play: observations map to the right actions, and
simulated games keep every point card with exactly one player or no one."""
import json

import pytest
from hypothesis import given, settings, strategies as st

from engine.core import IllegalAction, MatchSpec, Seat
from engine.log import fold, read_log
from engine.observations import CardSeen, PadPressed, Tick
from engine.raj import GAME
from engine.raj.deck import POINT_CARDS
from engine.raj.referee import interpret
from engine.raj.rules import Bid, BidDown, RevealPoint
from engine.raj.selfplay import STRATEGIES, choose_bid, play_match, simulate
from said import refused_in_words

SPEC3 = MatchSpec("raj", (Seat("Ann", "red"), Seat("Bob", "blue"), Seat("Cat", "green")))


def test_referee_turns_a_point_card_into_a_reveal_and_ignores_it_while_in_view():
    state = GAME.start(SPEC3)
    assert interpret(state, CardSeen("reveal", "P7", 1)) == (RevealPoint("P7"),)
    state, _ = GAME.apply(state, RevealPoint("P7"))
    assert interpret(state, CardSeen("reveal", "P7", 2)) == ()


def test_referee_reads_bids_by_colour_or_by_seat_zone():
    state, _ = GAME.apply(GAME.start(SPEC3), RevealPoint("P7"))
    assert interpret(state, CardSeen("reveal", "blue:9", 3)) == (Bid("blue:9", None),)
    assert interpret(state, CardSeen("seat:2", "green:4", 3)) == (Bid("green:4", 2),)
    state, _ = GAME.apply(state, Bid("blue:9"))
    assert interpret(state, CardSeen("reveal", "blue:9", 4)) == ()


def test_referee_pad_press_means_bid_down_only_while_bidding():
    state = GAME.start(SPEC3)
    with refused_in_words("raj", "no bid is being collected"):
        interpret(state, PadPressed(1, 10))
    state, _ = GAME.apply(state, RevealPoint("P1"))
    assert interpret(state, PadPressed(1, 10)) == (BidDown(1),)
    state, _ = GAME.apply(state, BidDown(1))
    assert interpret(state, PadPressed(1, 11)) == ()
    assert interpret(state, Tick(12)) == ()
    with refused_in_words("raj", "not part of this game"):
        interpret(state, CardSeen("reveal", "FREEZE", 1))


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_every_strategy_bids_an_unused_card(strategy):
    import random
    state, _ = GAME.apply(GAME.start(SPEC3), RevealPoint("P9"))
    state, _ = GAME.apply(state, Bid("red:15"))
    for _ in range(20):
        assert choose_bid(state, 0, strategy, random.Random(1)) in state.unused(0)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 10_000),
       strategies=st.lists(st.sampled_from(STRATEGIES), min_size=1, max_size=5))
def test_simulated_games_keep_every_point_card_with_one_player_or_no_one(players, seed, strategies):
    spec = MatchSpec("raj", tuple(Seat(f"p{i}") for i in range(players)))
    actions = list(play_match(spec, strategies, seed))
    state = fold(GAME, spec, actions)
    assert state.progress.finished
    taken = [c for pile in state.collected for c in pile]
    assert len(taken) == len(set(taken))
    assert set(taken) <= set(POINT_CARDS)
    # Cards nobody took are exactly the ones of a cancelled last pot.
    lost = set(POINT_CARDS) - set(taken)
    assert lost == (set(state.last.pot) if state.last.taker is None else set())
    assert state.progress.totals == tuple(state.score(s) for s in range(players))
    assert all(len(u) == 15 for u in state.used)
    # Replaying the log through JSON gives the same state.
    lines = [json.dumps(spec.to_json())] + [json.dumps(a.to_json()) for a in actions]
    assert read_log(lines).state == state


def test_simulate_reports_win_shares_that_add_up():
    report = simulate(3, 20, 5, ["shade", "match", "random"])
    assert report["games"] == 20
    assert sum(report["win_share"].values()) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="raj.strategy_unknown"):
        simulate(3, 1, 1, ["psychic"])


def test_example_log_folds():
    from pathlib import Path
    timeline = read_log(Path(__file__).parent.parent.joinpath("examples/raj.jsonl").read_text().splitlines())
    assert timeline.state.progress.finished


def test_the_cards_of_a_seat_that_fouled_mean_nothing_when_seen_again():
    # RULINGS "Bids": a seat that has fouled takes no further part in the round
    state = GAME.start(SPEC3)
    state, _ = GAME.apply(state, RevealPoint("P8"))
    (bid,) = interpret(state, CardSeen("seat:0", "blue:15", 1))
    state, _ = GAME.apply(state, bid)
    assert state.fouls[0] == "colour"
    assert interpret(state, CardSeen("seat:0", "blue:15", 2)) == ()   # the same card again
    assert interpret(state, CardSeen("seat:0", "red:12", 3)) == ()    # a card laid after it
    for card, zone in (("blue:3", "seat:1"), ("green:2", "seat:2")):
        (bid,) = interpret(state, CardSeen(zone, card, 4))
        state, _ = GAME.apply(state, bid)
    assert state.phase == "point" and state.collected[1] == ("P8",)
    assert interpret(state, CardSeen("seat:0", "blue:15", 5)) == ()   # still in view after
