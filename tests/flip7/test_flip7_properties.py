"""Invariants of Flip 7 over self-played matches (hypothesis): cards are conserved, scores
are the cards in front of each player, replaying the log gives the same state, the fast
self-play path and the Game path agree, states survive JSON, and the bust probability is
the exact share of busting cards in the real (virtual) deck."""
from collections import Counter
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from engine.core import MatchSpec, Seat, state_from_json, state_to_json
from engine.flip7 import GAME, bust_probability, draw_pile, round_score
from engine.flip7.deck import DECK
from engine.flip7.rules import CARD, DECIDE, OVER, step
from engine.flip7.selfplay import STRATEGIES, VirtualDeck, _bots, _Driver, play_match
from engine.flip7.state import CODES
from engine.log import fold

FULL = Counter(DECK.full())

matches = st.tuples(
    st.integers(3, 7),                                    # players
    st.integers(0, 2**32),                                # seed
    st.lists(st.sampled_from(STRATEGIES + ("stay:10", "odds:0.1", "odds:0.5")),
             min_size=1, max_size=3),
)


def table_cards(state) -> Counter:
    cards = Counter()
    for line in state.lines:
        cards.update(line.cards())
    for frame in state.flips:
        cards.update(frame.set_aside)
    if state.choice:
        cards[state.choice.card] += 1
    return cards


def counted(counts) -> Counter:
    return Counter({code: n for code, n in zip(CODES, counts) if n})


def check_conserved(state) -> None:
    assert counted(state.deck) + counted(state.set_aside) + table_cards(state) == FULL


@settings(max_examples=60, deadline=None)
@given(matches, st.integers(1, 4), st.booleans(), st.integers(0, 11))
def test_cards_are_conserved_and_scores_are_the_cards_in_front(match, rounds, to_holders, more):
    players, seed, names = match
    players += more if more > 8 else 0          # now and then a big table (up to 18)
    spec = MatchSpec("flip7", tuple(Seat(f"P{i}") for i in range(players)),
                     {"deal_to_holders": to_holders})
    state = GAME.start(spec)
    check_conserved(state)
    for action in play_match(spec, names, seed, rounds=rounds):
        before = len(state.progress.history)
        state, _ = GAME.apply(state, action)
        check_conserved(state)
        if len(state.progress.history) > before:
            scores = state.progress.history[-1]
            assert scores == tuple(round_score(line) for line in state.last_round)
    totals = tuple(map(sum, zip(*state.progress.history)))
    assert state.progress.totals == totals
    assert len(state.progress.history) == rounds or state.progress.finished


@settings(max_examples=15, deadline=None)
@given(matches)
def test_a_whole_match_replays_to_the_same_state_through_json(match):
    players, seed, names = match
    spec = MatchSpec("flip7", tuple(Seat(f"P{i}") for i in range(players)), {"target": 120})
    actions = list(play_match(spec, names, seed))
    parsed = [GAME.parse_action(a.to_json()) for a in actions]
    assert parsed == actions
    state = fold(GAME, spec, parsed)
    assert state.progress.finished and max(state.progress.totals) >= 120
    assert len(state.progress.winners) == 1
    assert fold(GAME, spec, actions) == state
    assert state_from_json(GAME, state_to_json(state)) == state
    # the self-play fast path (one Table stepped in place) agrees with Game.apply
    t, mid = GAME.table(spec), GAME.start(spec)
    for i, action in enumerate(actions):
        step(t, action)
        mid, _ = GAME.apply(mid, action)
        assert t.frozen() == mid
        if i % 5 == 0:
            assert state_from_json(GAME, state_to_json(mid)) == mid
    assert mid == state


@settings(max_examples=25, deadline=None)
@given(matches)
def test_bust_probability_is_the_share_of_busting_cards_left_in_the_real_deck(match):
    players, seed, names = match
    import random
    spec = MatchSpec("flip7", tuple(Seat(f"P{i}") for i in range(players)))
    t = GAME.table(spec)
    deck = VirtualDeck(random.Random(seed))
    driver = _Driver(t, _bots(names, players), deck)
    checked = 0
    while t.wait != OVER and len(t.progress.history) < 6:
        if t.wait == DECIDE:
            state = t.frozen()
            pile = Counter(deck.pile) if deck.pile else counted(state.set_aside)
            line = state.lines[t.who]
            busting = sum(pile[str(n)] for n in line.numbers)
            expected = Fraction(0) if line.chance else Fraction(busting, sum(pile.values()))
            assert bust_probability(line, draw_pile(state)) == expected
            assert abs(t.bust_chance(t.who) - float(expected)) < 1e-12
            checked += 1
        if t.wait == CARD:
            assert len(deck.pile) == t.deck_size   # the engine's count is the real deck's
        step(t, driver.next_action(t))
    assert checked
