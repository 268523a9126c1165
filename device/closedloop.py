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
Deterministic, single-threaded, no clock: frame times are counted, not read.
"""
from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass, field
from typing import Any, Callable

from engine.core import Action, IllegalAction
from engine.games import get_game
from engine.observations import CardSeen, PadPressed, Tick

from device.simtable import (Automatic, CardDown, HostInput, PadPress, SimScene, bot_actions,
                             physical_event, sim_spec)

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


def _same(expected: Action, got: Action) -> bool:
    """Equal apart from what the camera cannot know: its own time stamp and the colour a
    player names for a black card (entered by the host)."""
    def plain(action: Action) -> dict:
        data = action.to_json()
        data.pop("t_ns", None)
        data.pop("colour", None)
        return data
    return plain(expected) == plain(got)


def reconstruct(game: str, seed: int, *, players: int | None = None, noise: float = 2.0,
                max_actions: int | None = None, rounds: int | None = None,
                make_recognizer: Callable[[str, Any], Any] | None = None,
                make_tracker: Callable[[dict], Any] | None = None) -> LoopReport:
    from device.app import _recognizer, _tracker
    make_recognizer = make_recognizer or _recognizer
    make_tracker = make_tracker or _tracker
    engine = get_game(game)
    referee = importlib.import_module(f"engine.{game}.referee")
    spec = sim_spec(game, players, seed)
    scene = SimScene(game, seed, noise=noise)
    recognizer = make_recognizer(game, scene.empty_frame())
    tracker = make_tracker(scene.zone_rects())
    report = LoopReport(game, seed, noise)
    state = engine.start(spec)
    rebuilt = engine.start(spec)
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

    frame(3)   # the table settles before play
    for number, action in enumerate(bot_actions(spec, seed, rounds=rounds)):
        if max_actions is not None and number >= max_actions:
            break
        report.actions += 1
        event = physical_event(game, action)
        if isinstance(event, CardDown):
            report.cards += 1
            scene.reach(event.zone)
            frame(HAND_FRAMES)
            scene.lay(event.zone, event.code)
            scene.withdraw()
            got: tuple[Action, ...] = ()
            for waited in range(1, MAX_WAIT_FRAMES + 1):
                sightings = [o for o in frame() if isinstance(o, CardSeen) and o.zone == event.zone]
                if sightings:
                    report.landing_frames.append(waited)
                    got = referee_says(sightings[-1])
                    break
            if got and all(_same(action, g) for g in got[:1]) and len(got) == 1:
                report.cards_read += 1
            else:
                report.mismatches.append(f"action {number}: bots played {action}, "
                                         f"the camera and referee made {list(map(str, got)) or 'nothing'}")
        elif isinstance(event, PadPress):
            t = event.t_ns if event.t_ns is not None else clock[0]
            got = referee_says(PadPressed(event.seat, t, event.held))
            if not (len(got) == 1 and _same(action, got[0])):
                report.mismatches.append(f"action {number}: bots pressed for {action}, "
                                         f"the referee made {list(map(str, got))}")
        elif isinstance(event, Automatic):
            got = referee_says(Tick(getattr(action, "t_ns", None) or clock[0]))
            if not (len(got) == 1 and _same(action, got[0])):
                report.mismatches.append(f"action {number}: expected {action} at the timeout, "
                                         f"the referee made {list(map(str, got))}")
        state, _ = engine.apply(state, action)
        # The rebuilt match goes on from the bots' action when the two agree (the camera's
        # time stamp aside), so one misread card does not hide every later one.
        rebuilt = state
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
