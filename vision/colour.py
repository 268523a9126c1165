"""The colour of a card's ink, judged so that it survives the light.

The same ink photographs differently under each camera and lamp, so colours are not
learned from one photo session. Instead:

* the card is white-balanced by its own paper (`vision.classify.paper_light`: a plane per
  channel fitted to the card's brightest pixels), which takes out the colour cast and
  the exposure;
* of the ink (pixels clearly not paper), the coloured pixels give a hue angle (Lab a/b)
  and a lightness relative to the paper; the share of coloured ink tells black ink
  from coloured;
* those are compared with FIXED ink prototypes per colour name (`INKS`: what red, green,
  blue, yellow... ink looks like on white card stock in Lab), moved half way towards
  the deck's own ink as the white-balanced taught pictures show it (`deck_inks`); a
  colour name not in the table is measured from the taught pictures.

Hue alone confuses green with yellow under a warm lamp (the green's hue drifts towards
yellow's); lightness relative to the paper does not drift that way (yellow ink is nearly
as light as the paper, green is not), so both are used.

A face with no paper showing (full-bleed colour) white-balances against its lightest
ink instead; `paper_is_neutral` says whether that happened (colour is then less sure).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# name -> (hue angle in degrees of Lab a/b, lightness relative to the paper 0..100);
# hue None: an achromatic ink.
INKS: dict[str, tuple[float | None, float]] = {
    "red": (35.0, 48.0),
    "orange": (62.0, 66.0),
    "yellow": (92.0, 84.0),
    "green": (150.0, 52.0),
    "teal": (200.0, 55.0),
    "blue": (275.0, 42.0),
    "purple": (318.0, 38.0),
    "pink": (352.0, 64.0),
    "brown": (55.0, 40.0),
    "black": (None, 15.0),
    "grey": (None, 55.0),
    "gray": (None, 55.0),
}
ALIASES = {"r": "red", "g": "green", "b": "blue", "y": "yellow", "k": "black", "violet": "purple"}
HUE_SCALE = 28.0        # degrees of hue difference worth one standard deviation
LIGHT_SCALE = 20.0      # lightness difference worth one standard deviation
CHROMA = 14.0           # Lab chroma above which an ink pixel counts as coloured
INK = 25.0              # ink strength above which a pixel is ink, not paper
FLOOR = 1e-3            # no colour is ever ruled out completely (the symbol may outvote it)


@dataclass(frozen=True)
class InkColour:
    """What the card's ink looks like after white balance."""

    hue: float          # degrees, of the coloured ink (nan if none)
    light: float        # lightness of the coloured ink, relative to the paper (nan if none)
    share: float        # coloured ink / all ink (0: black ink only)
    ink: float          # share of the face that is ink


def ink_colour(lightness: np.ndarray, a: np.ndarray, b: np.ndarray, ink: np.ndarray) -> InkColour:
    """From the white-balanced Lab planes of a face (L 0..100, a and b centred at 0) and
    its ink strength."""
    inked = ink > INK
    chroma = np.sqrt(a * a + b * b)
    coloured = inked & (chroma > CHROMA)
    n_ink, n_col = int(inked.sum()), int(coloured.sum())
    if n_col < 4:
        return InkColour(float("nan"), float("nan"), 0.0, n_ink / ink.size)
    weight = chroma[coloured]
    angle = np.degrees(np.arctan2((b[coloured] * weight).sum(), (a[coloured] * weight).sum())) % 360
    return InkColour(float(angle), float(np.median(lightness[coloured])), n_col / max(n_ink, 1),
                     n_ink / ink.size)


def canonical(name: str) -> str:
    name = name.strip().lower()
    return ALIASES.get(name, name)


def likelihoods(seen: InkColour, inks: dict[str, tuple[float | None, float]],
                names: list[str]) -> np.ndarray:
    """How well the ink seen fits each named colour (1: perfectly, down to FLOOR); an
    empty or unknown name fits everything (1)."""
    out = np.ones(len(names))
    # a little coloured ink is stray (a shadow's edge, the table at a corner): not a colour
    coloured = float(np.clip((seen.share - 0.1) / 0.3, 0, 1)) if np.isfinite(seen.hue) else 0.0
    for i, name in enumerate(names):
        proto = inks.get(canonical(name)) if name else None
        if proto is None:
            continue
        hue, light = proto
        if hue is None:   # black or grey ink: little coloured ink
            fit = (1.0 - coloured) ** 2
        else:
            dh = (seen.hue - hue + 180) % 360 - 180 if np.isfinite(seen.hue) else 180.0
            dl = seen.light - light if np.isfinite(seen.light) else 60.0
            fit = float(np.exp(-0.5 * ((dh / HUE_SCALE) ** 2 + (dl / LIGHT_SCALE) ** 2))) * coloured
        out[i] = max(FLOOR, fit)
    return out


def measure_inks(samples: list[tuple[str, InkColour]]) -> dict[str, tuple[float | None, float]]:
    """Prototypes of colour names from clean views (a built-in deck's drawings, or taught
    photos for a name `INKS` does not know): the circular mean hue and median lightness."""
    by_name: dict[str, list[InkColour]] = {}
    for name, seen in samples:
        if name:
            by_name.setdefault(canonical(name), []).append(seen)
    out: dict[str, tuple[float | None, float]] = {}
    for name, seen in by_name.items():
        hues = np.array([s.hue for s in seen if np.isfinite(s.hue) and s.share > 0.25])
        if len(hues) * 2 < len(seen):
            lights = [s.light for s in seen if np.isfinite(s.light)]
            out[name] = (None, float(np.median(lights)) if lights else 15.0)
            continue
        rad = np.radians(hues)
        hue = float(np.degrees(np.arctan2(np.sin(rad).mean(), np.cos(rad).mean())) % 360)
        out[name] = (hue, float(np.median([s.light for s in seen if np.isfinite(s.light)])))
    return out


def deck_inks(colour_names: list[str], measured: dict[str, tuple[float | None, float]] | None = None
              ) -> dict[str, tuple[float | None, float]]:
    """The prototypes a deck uses. A name the fixed table knows is that prototype, moved
    half way towards the deck's own ink where it was `measured` (white-balanced, from the
    taught pictures: a commercial "yellow" may print nearly orange); a name the table
    does not know is the measured ink; a name in neither has no prototype (it then fits
    any ink). Half way, not all the way: one photo session's ink drifts with its light,
    the table does not."""
    out: dict[str, tuple[float | None, float]] = {}
    for name in colour_names:
        key = canonical(name)
        if not key:
            continue
        fixed = INKS.get(key)
        own = (measured or {}).get(key)
        if fixed is None or own is None:
            if fixed is not None or own is not None:
                out[key] = fixed if own is None else own
            continue
        if fixed[0] is None or own[0] is None:
            out[key] = fixed
            continue
        gap = (own[0] - fixed[0] + 180) % 360 - 180
        out[key] = ((fixed[0] + gap / 2) % 360, (fixed[1] + own[1]) / 2)
    return out
