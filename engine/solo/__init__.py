"""Solo (2–10 players, first to 600), refereed at the table.

`GAME` implements `engine.core.Game`. The package: `deck` (the 112 cards), `actions`
(the vocabulary), `state` (settings and state), `rules` (check / apply), `view`
(screens), `referee` (camera and pads to actions), `selfplay` (bots and a virtual pack).
"""
from __future__ import annotations

from typing import Any

from engine.core import Action, MatchSpec, Notice
from engine.solo import rules
from engine.solo.actions import ACTIONS
from engine.solo.state import SoloSettings, SoloState
from engine.solo.view import view as _view


class SoloGame:
    name = "solo"
    title = "Solo"
    min_seats = rules.MIN_SEATS
    max_seats = rules.MAX_SEATS
    settings_type = SoloSettings
    state_type = SoloState
    actions = ACTIONS

    def start(self, spec: MatchSpec) -> SoloState:
        return rules.start(spec)

    def check(self, state: SoloState, action: Action) -> None:
        rules.check(state, action)

    def apply(self, state: SoloState, action: Action) -> tuple[SoloState, tuple[Notice, ...]]:
        return rules.apply(state, action)

    def view(self, state: SoloState) -> dict[str, Any]:
        return _view(state)

    def parse_action(self, data: Any) -> Action:
        from engine.core import parse_action
        return parse_action(data, ACTIONS)


GAME = SoloGame()
