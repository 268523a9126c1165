"""Raj's rules: the state of a game, its actions, and `RajGame` (engine.core.Game).

One game of Raj is fifteen bidding rounds, one per point card; in match terms it is a
single round, so `MatchProgress` is closed once, after the last point card. A round:
a point card is turned up (`RevealPoint`), every player lays a bid face down and
presses their pad (`BidDown`), the bids are revealed and read (`Bid`); when every seat's
bid is in, the pot is settled: tied values cancel, a pot of zero or more goes to the
highest uncancelled bid, a negative pot to the lowest; if everything cancels the pot
stays and the next point card joins it, except on the last round, when nobody takes it.
Fouls (RULINGS.md): a bid of a card already used, in another seat's colour, or a second
bid in one colour voids that seat's bid for the round and spends its lowest unused card.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal

from engine.core import (Action, CorrectRound, EndMatch, IllegalAction, MatchSpec, Notice, Seat,
                         SetTotals, parse_settings, vocabulary)
from engine.match import MatchProgress, correction_notice, corrected, finish
from engine.raj.deck import BID_VALUES, DECK, POINT_CARDS, SEAT_COLOURS, parse_bid

Phase = Literal["point", "bidding"]


@dataclass(frozen=True)
class RajSettings:
    show_used: bool = False   # show each seat's used player cards on the screens


# --- actions -----------------------------------------------------------------------

@dataclass(frozen=True)
class RevealPoint(Action):
    """A point card turned face up in the centre."""
    kind: ClassVar[str] = "reveal_point"
    card: str


@dataclass(frozen=True)
class BidDown(Action):
    """A player's pad: "my bid is down"."""
    kind: ClassVar[str] = "bid_down"
    seat: int


@dataclass(frozen=True)
class Bid(Action):
    """A revealed player card. `seat` is whose bid it is when the camera's seat zones
    (or the host) tell; otherwise the card's colour tells."""
    kind: ClassVar[str] = "bid"
    card: str
    seat: int | None = None


ACTIONS = vocabulary(RevealPoint, BidDown, Bid)


# --- state -------------------------------------------------------------------------

@dataclass(frozen=True)
class RoundResult:
    """How the last pot was settled, for the screens."""
    pot: tuple[str, ...]
    bids: tuple[int | None, ...]       # per seat; None = void (foul or no card left)
    cancelled: tuple[int, ...]         # bid values cancelled by ties
    taker: int | None                  # seat that took the pot; None = stays / no one
    carried: bool                      # the pot stays for the next point card
    fouls: tuple[str | None, ...] = () # per seat: the foul that voided its bid (FOULS), or None


# Why a bid was a foul (RULINGS "Bids"), as kept in the state and the notices.
FOUL_USED, FOUL_COLOUR, FOUL_SECOND = "used", "colour", "second"
FOULS = (FOUL_USED, FOUL_COLOUR, FOUL_SECOND)


@dataclass(frozen=True)
class RajState:
    seats: tuple[Seat, ...]
    colours: tuple[str, ...]                     # each seat's player-card colour
    settings: RajSettings
    progress: MatchProgress
    phase: Phase = "point"
    revealed: tuple[str, ...] = ()               # point cards turned up so far, in order
    pot: tuple[str, ...] = ()                    # point cards in the centre now
    down: tuple[bool, ...] = ()                  # pads pressed this round
    bids: tuple[int | None, ...] = ()            # bid values read this round
    fouled: tuple[bool, ...] = ()                # seat's bid void this round
    fouls: tuple[str | None, ...] = ()           # which foul voided it (FOULS), this round
    used: tuple[tuple[int, ...], ...] = ()       # player cards spent, per seat
    collected: tuple[tuple[str, ...], ...] = ()  # point cards taken, per seat
    last: RoundResult | None = None
    results: tuple[RoundResult, ...] = ()        # every settled pot of the game, in order

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def point_round(self) -> int:
        """1-based number of the point card being played for (15 in all)."""
        return max(1, len(self.revealed))

    def unused(self, seat: int) -> tuple[int, ...]:
        spent = set(self.used[seat])
        return tuple(v for v in BID_VALUES if v not in spent)

    def score(self, seat: int) -> int:
        """The points collected this game."""
        return sum(DECK[c].value for c in self.collected[seat])

    def total(self, seat: int) -> int:
        """The seat's total: what the host set (`SetTotals`, none: 0) plus this game's
        points; once the game is over, the match's total (a corrected score included)."""
        if self.progress.finished:
            return self.progress.totals[seat]
        return self.progress.totals[seat] + self.score(seat)

    def totals(self) -> tuple[int, ...]:
        return tuple(self.total(s) for s in range(self.players))

    def waiting_for(self) -> tuple[int, ...]:
        """Seats whose bid for this round is not in yet."""
        return tuple(s for s in range(self.players) if not self._bid_settled(s))

    def _bid_settled(self, seat: int) -> bool:
        return self.bids[seat] is not None or self.fouled[seat] or not self.unused(seat)


def pot_value(pot: tuple[str, ...]) -> int:
    return sum(DECK[c].value for c in pot)


def settle(pot: tuple[str, ...], bids: tuple[int | None, ...]) -> tuple[int | None, tuple[int, ...]]:
    """(seat that takes the pot or None, cancelled values) for these bids (None = void)."""
    counts = Counter(b for b in bids if b is not None)
    cancelled = tuple(sorted(v for v, n in counts.items() if n > 1))
    live = [(b, s) for s, b in enumerate(bids) if b is not None and counts[b] == 1]
    if not live:
        return None, cancelled
    if pot_value(pot) >= 0:
        return max(live)[1], cancelled
    return min(live)[1], cancelled


# --- the game ------------------------------------------------------------------------

class RajGame:
    name = "raj"
    title = "Raj"
    min_seats = 2
    max_seats = 5
    settings_type = RajSettings
    state_type = RajState
    actions = ACTIONS
    deck = DECK

    def start(self, spec: MatchSpec) -> RajState:
        n = len(spec.seats)
        if not self.min_seats <= n <= self.max_seats:
            raise IllegalAction("players_count", game="raj", low=self.min_seats, high=self.max_seats, count=n)
        settings = parse_settings(RajSettings, spec.settings)
        return RajState(seats=spec.seats, colours=seat_colours(spec.seats), settings=settings,
                        progress=MatchProgress.new(n, spec.first_dealer), down=(False,) * n, bids=(None,) * n,
                        fouled=(False,) * n, fouls=(None,) * n, used=((),) * n,
                        collected=((),) * n)

    def check(self, state: RajState, action: Action) -> None:
        self._step(state, action)

    def apply(self, state: RajState, action: Action) -> tuple[RajState, tuple[Notice, ...]]:
        return self._step(state, action)

    def _step(self, state: RajState, action: Action) -> tuple[RajState, tuple[Notice, ...]]:
        if isinstance(action, (SetTotals, CorrectRound)):
            return _correction(state, action)
        if state.progress.finished:
            raise IllegalAction("match_over")
        if isinstance(action, RevealPoint):
            return _reveal_point(state, action)
        if isinstance(action, BidDown):
            return _bid_down(state, action)
        if isinstance(action, Bid):
            return _bid(state, action)
        if isinstance(action, EndMatch):
            return _end(state, "raj.ended_by_host")
        raise IllegalAction("action_unknown", name=action.kind)

    def view(self, state: RajState) -> dict[str, Any]:
        from engine.raj.view import view
        return view(state)


def seat_colours(seats: tuple[Seat, ...]) -> tuple[str, ...]:
    """Each seat's player-card colour: the seat's own if it names one, else the first free."""
    chosen: list[str | None] = []
    for index, seat in enumerate(seats):
        colour = seat.colour.lower() if seat.colour else None
        if colour is not None and colour not in SEAT_COLOURS:
            raise IllegalAction("raj.not_a_colour", seat=index, colours=list(SEAT_COLOURS))
        if colour is not None and colour in chosen:
            raise IllegalAction("raj.colour_twice", colour=colour)
        chosen.append(colour)
    free = [c for c in SEAT_COLOURS if c not in chosen]
    return tuple(c if c is not None else free.pop(0) for c in chosen)


def _reveal_point(state: RajState, action: RevealPoint) -> tuple[RajState, tuple[Notice, ...]]:
    card = action.card
    if card not in POINT_CARDS:
        raise IllegalAction("raj.not_point_card")
    if card in state.revealed:
        raise IllegalAction("raj.point_played", card=card)
    if state.phase != "point":
        raise IllegalAction("raj.bids_not_in")
    pot = state.pot + (card,)
    n = state.players
    new = replace(state, phase="bidding", revealed=state.revealed + (card,), pot=pot,
                  down=(False,) * n, bids=(None,) * n, fouled=(False,) * n, fouls=(None,) * n)
    if len(pot) > 1:
        return new, (Notice("raj.point_pot", {"card": card, "pot": pot_value(pot)}),)
    return new, (Notice("raj.point", {"card": card}),)


def _bid_down(state: RajState, action: BidDown) -> tuple[RajState, tuple[Notice, ...]]:
    seat = _seat(state, action.seat)
    if state.phase != "bidding":
        raise IllegalAction("raj.no_bidding")
    if state.down[seat]:
        return state, ()
    down = _set(state.down, seat, True)
    new = replace(state, down=down)
    waiting = [s for s in range(state.players) if not down[s] and state.unused(s)]
    if waiting:
        return new, (Notice("raj.bid_down", {"seat": seat}, (seat,)),)
    return new, (Notice("raj.reveal"),)


def _bid(state: RajState, action: Bid) -> tuple[RajState, tuple[Notice, ...]]:
    if state.phase != "bidding":
        raise IllegalAction("raj.no_bidding")
    parsed = parse_bid(action.card)
    if parsed is None:
        raise IllegalAction("raj.not_player_card")
    colour, value = parsed
    owner = state.colours.index(colour) if colour in state.colours else None
    seat = owner if action.seat is None else _seat(state, action.seat)
    if seat is None:
        raise IllegalAction("raj.nobody_plays", colour=colour)
    if state.fouled[seat]:
        raise IllegalAction("raj.already_void", seat=seat)
    reason = foul = None
    if owner != seat:
        reason, foul = Notice("raj.foul_colour", {"seat": seat, "colour": colour}), FOUL_COLOUR
    elif state.bids[seat] is not None:
        reason, foul = Notice("raj.foul_second", {"seat": seat}), FOUL_SECOND
    elif value in state.used[seat]:
        reason, foul = Notice("raj.foul_used", {"seat": seat, "number": value}), FOUL_USED
    elif not state.unused(seat):
        raise IllegalAction("raj.no_cards_left", seat=seat)
    if reason is None:
        new = replace(state, bids=_set(state.bids, seat, value),
                      used=_set(state.used, seat, state.used[seat] + (value,)),
                      down=_set(state.down, seat, True))
        notices: tuple[Notice, ...] = (Notice("raj.bid", {"seat": seat, "number": value}, (seat,)),)
    else:
        new, notices = _foul(state, seat, reason, foul)
    if new.waiting_for():
        return new, notices
    settled, more = _settle_round(new)
    return settled, notices + more


def _foul(state: RajState, seat: int, reason: Notice, foul: str) -> tuple[RajState, tuple[Notice, ...]]:
    """The seat's bid is void this round (it cancels nothing) and its lowest unused card
    is spent; the seat takes no further part in the round."""
    unused = state.unused(seat)
    penalty = unused[0] if unused else None
    used = state.used[seat] + ((penalty,) if penalty is not None else ())
    fouls = state.fouls or (None,) * state.players
    new = replace(state, bids=_set(state.bids, seat, None), fouled=_set(state.fouled, seat, True),
                  fouls=_set(fouls, seat, foul),
                  used=_set(state.used, seat, used), down=_set(state.down, seat, True))
    why = {"code": reason.code, "params": dict(reason.params)}
    if penalty is not None:
        return new, (Notice("raj.foul", {"why": why, "seat": seat, "number": penalty}, (seat,)),)
    return new, (Notice("raj.foul_void", {"why": why}, (seat,)),)


def _settle_round(state: RajState) -> tuple[RajState, tuple[Notice, ...]]:
    taker, cancelled = settle(state.pot, state.bids)
    last_round = len(state.revealed) == len(POINT_CARDS)
    value = pot_value(state.pot)
    names = state.seats
    notices = []
    if cancelled:
        notices.append(Notice("raj.cancelled", {"numbers": list(cancelled)}))
    if taker is not None:
        collected = _set(state.collected, taker, state.collected[taker] + state.pot)
        new = replace(state, collected=collected, pot=())
        notices.append(Notice("raj.take", {"seat": taker, "points": value}, (taker,)))
        carried = False
    elif last_round:
        new = replace(state, pot=())
        notices.append(Notice("raj.nobody", {"points": value}))
        carried = False
    else:
        new = state
        notices.append(Notice("raj.carry", {"points": value}))
        carried = True
    result = RoundResult(state.pot, state.bids, cancelled, taker, carried,
                         state.fouls or (None,) * state.players)
    new = replace(new, phase="point", last=result, results=state.results + (result,))
    if last_round:
        new, more = _end(new, "raj.all_played")
        return new, tuple(notices) + more
    return new, tuple(notices)


def _correction(state: RajState, action: SetTotals | CorrectRound) -> tuple[RajState, tuple[Notice, ...]]:
    scores = tuple(state.score(s) for s in range(state.players))
    new = replace(state, progress=corrected(state.progress, action, "high", pending=scores))
    return new, (correction_notice(action, new.totals(), tuple(s.name for s in state.seats)),)


def _end(state: RajState, why: str) -> tuple[RajState, tuple[Notice, ...]]:
    scores = tuple(state.score(s) for s in range(state.players))
    totals = tuple(t + s for t, s in zip(state.progress.totals, scores))
    progress = finish(replace(state.progress, totals=totals, history=(scores,)), "high")
    return (replace(state, progress=progress),
            (Notice("match.over", {"why": {"code": why, "params": {}},
                                   "winner_seats": list(progress.winners),
                                   "winners": len(progress.winners), "points": max(totals)},
                    progress.winners),))


def _seat(state: RajState, seat: int) -> int:
    if not 0 <= seat < state.players:
        raise IllegalAction("no_such_seat", number=seat + 1, count=state.players)
    return seat


def _set(values: tuple, index: int, value: Any) -> tuple:
    return values[:index] + (value,) + values[index + 1:]


GAME = RajGame()
