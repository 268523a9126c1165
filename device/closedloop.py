"""The closed loop: a seeded bot match is played on the simulated table, every card is
rendered as the overhead camera would see it, and the match is rebuilt from the frames
by the real vision pipeline and the real referee. What was rebuilt must equal what the
bots played.

For each bot action (`device.simtable.physical_event`):
* a card laid down: a hand reaches over the pile, the card lands, and frames are read
  until the tracker reports it; the referee's action for that sighting must be the bots'
  action (the camera's time stamp stands in for the bot's, and what only the host can
  enter — Solo's chosen colour — is added as the host would);
* a pad press: `PadPressed` at the bot's time goes to the referee;
* a timeout: a `Tick` at the bot's time goes to the referee;
* host input: applied as entered.
The rebuilt match is folded from what the table made, independently of the bots' match,
and the two are compared after every action (Flip 7's flip spot is emptied after each
card, as the dealer moves it into the player's line).
Deterministic, single-threaded, no clock: frame times are counted, not read.
"""
from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass, field
from typing import Any, Callable

from engine.core import Action, IllegalAction
from engine.games import get_game
from engine.observations import CardSeen, PadPressed, Tick, ZoneEmpty

from device.simtable import (CLEARED_AFTER_EACH_CARD, Automatic, CardDown, PadPress, SimScene, bot_actions,
                             host_part, physical_event, sim_spec)
from device.simtable import same_action as _same

FRAME_NS = 33_333_333          # 30 frames a second
HAND_FRAMES = 2                # frames with a hand over the pile before the card lands
MAX_WAIT_FRAMES = 12           # frames to wait for the tracker after the card lands


@dataclass
class LoopReport:
    game: str
    seed: int
    noise: float
    actions: int = 0
    cards: int = 0
    cards_read: int = 0
    frames: int = 0
    landing_frames: list[int] = field(default_factory=list)   # frames from landing to event
    mismatches: list[str] = field(default_factory=list)
    final_equal: bool = False

    @property
    def exact(self) -> bool:
        return not self.mismatches and self.final_equal


def _in_bot_time(got: Action, expected: Action) -> Action:
    """The camera's action with the bots' time stamp: the harness's frame clock is its
    own, so times are compared by order (the referee's), not by value."""
    if "t_ns" in {f.name for f in dataclasses.fields(got)} and hasattr(expected, "t_ns"):
        return dataclasses.replace(got, t_ns=expected.t_ns)
    return got


def reconstruct(game: str, seed: int, *, players: int | None = None, noise: float = 2.0,
                blur: float = 0.0, max_actions: int | None = None, rounds: int | None = None,
                make_recognizer: Callable[[str, Any], Any] | None = None,
                make_tracker: Callable[[dict], Any] | None = None) -> LoopReport:
    """Play seed's bot match on a simulated table and rebuild it from the camera's frames,
    the pad presses and the host's input alone; see the module docstring."""
    from device.app import _recognizer, _tracker
    make_recognizer = make_recognizer or _recognizer
    make_tracker = make_tracker or _tracker
    engine = get_game(game)
    referee = importlib.import_module(f"engine.{game}.referee")
    spec = sim_spec(game, players, seed)
    scene = SimScene(game, seed, noise=noise, blur=blur)
    recognizer = make_recognizer(game, scene.empty_frame())
    tracker = make_tracker(scene.zone_rects())
    report = LoopReport(game, seed, noise)
    state = engine.start(spec)      # the bots' match
    rebuilt = engine.start(spec)    # the match as the table saw it
    clock = [0]

    def frame(n: int = 1) -> list[Any]:
        seen: list[Any] = []
        for _ in range(n):
            clock[0] += FRAME_NS
            reading = recognizer.read(scene.render())
            report.frames += 1
            seen.extend(tracker.update(reading, clock[0]))
        return seen

    def referee_says(observation: Any) -> tuple[Action, ...]:
        try:
            return tuple(referee.interpret(rebuilt, observation))
        except IllegalAction as exc:
            return (_Refused(exc.reason),)

    def follow(got: tuple[Action, ...], action: Action) -> bool:
        """Apply what the table made of `action` to the rebuilt match, if it is `action`."""
        nonlocal rebuilt
        if len(got) != 1 or not _same(action, got[0]):
            return False
        rebuilt, _ = engine.apply(rebuilt, _in_bot_time(got[0], action))
        return True

    frame(3)   # the table settles before play
    for number, action in enumerate(bot_actions(spec, seed, rounds=rounds)):
        if max_actions is not None and number >= max_actions:
            break
        report.actions += 1
        event = physical_event(game, action)
        before = state
        ok = True
        got: tuple[Action, ...] = ()
        if isinstance(event, CardDown):
            report.cards += 1
            scene.reach(event.zone)
            frame(HAND_FRAMES)
            scene.lay(event.zone, event.code)
            scene.withdraw()
            for waited in range(1, MAX_WAIT_FRAMES + 1):
                sightings = [o for o in frame() if isinstance(o, CardSeen) and o.zone == event.zone]
                if sightings:
                    report.landing_frames.append(waited)
                    got = referee_says(sightings[-1])
                    break
            ok = follow(got, action)
            if game in CLEARED_AFTER_EACH_CARD:
                scene.clear(event.zone)
                for _ in range(MAX_WAIT_FRAMES):
                    if any(isinstance(o, ZoneEmpty) for o in frame()):
                        break
            if ok:
                report.cards_read += 1
                extra = host_part(game, action, before)
                if extra is not None:
                    rebuilt, _ = engine.apply(rebuilt, extra)
        elif isinstance(event, PadPress):
            t = event.t_ns if event.t_ns is not None else clock[0]
            got = referee_says(PadPressed(event.seat, t, event.held))
            ok = follow(got, action)
        elif isinstance(event, Automatic):
            got = referee_says(Tick(getattr(action, "t_ns", None) or clock[0]))
            ok = follow(got, action)
        else:
            got = (action,)
            rebuilt, _ = engine.apply(rebuilt, action)
        state, _ = engine.apply(state, action)
        if not ok:
            report.mismatches.append(f"action {number}: the bots did {action} ({type(event).__name__}), "
                                     f"the table made {list(map(str, got)) or 'nothing'}")
        elif rebuilt != state:
            report.mismatches.append(f"action {number}: after {action} the rebuilt match differs "
                                     f"from the bots'")
        if rebuilt != state:
            rebuilt = state   # go on from the bots' match, so one misread hides nothing later
        if len(report.mismatches) > 20:
            break
    report.final_equal = rebuilt == state and not report.mismatches
    return report


@dataclass(frozen=True)
class _Refused(Action):
    kind = "refused"
    reason: str

    def __str__(self) -> str:
        return f"refused ({self.reason})"
