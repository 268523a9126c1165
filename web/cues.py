"""Sound cues: which short sounds a change on the table calls for.

The server names them from the engine's notice codes (a bust, a Flip 7, the end of a
slap); the table screen's static/sound.js adds the two it can tell by comparing with
what it showed before (whose turn it is, the match just ended) and plays them, unless
the screen's sound is turned off. Nothing here makes a sound.
"""
from __future__ import annotations

from typing import Any, Mapping

SOUND_OF_NOTICE = {
    "bust": "bust",
    "flip7": "flip7",
    "slap_lost": "slap",
    "slap_missed": "slap",
    "slap_tie": "slap",
    "fake_out": "slap",
    "forgot_call": "slap",
}


def cue(snapshot: Mapping[str, Any]) -> dict[str, Any]:
    """What a screen needs to choose its sounds for this change: the sounds the notices
    call for, whose turn it is now, and whether the match is over."""
    view = snapshot.get("view") or {}
    sounds = {SOUND_OF_NOTICE[n.get("code")] for n in snapshot.get("notices") or []
              if isinstance(n, Mapping) and n.get("code") in SOUND_OF_NOTICE}
    return {"sounds": sorted(sounds), "turn": view.get("turn"), "finished": bool(view.get("finished"))}
