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
  colour name not in the table is measured from the taught pictures;
* a deck taught from photos under several lights also keeps each colour name's inks as
  those photos show them (`ink_examples`): a card's ink fits a name by the better of
  the prototype and the name's nearest taught example. A cheap camera under a warm lamp
  turns blue ink nearly cyan (hue ~198, between the green and blue prototypes); when
  the deck was taught under such a light too, its blue cards there are where its taught
  blues were;
* each name's taught inks are also kept with the light each photo was taken under (the
  paper's colour as the camera saw it, `ink_lights`): under a light a name was taught
  in, an ink unlike that name's there is not that name, however near its prototype
  (blue under that webcam, where only the other colours were taught, is no green: green
  there shows at its prototype);
* under a light the deck was taught in, a name never taught there that the ink fits
  poorly is a guess: another name never taught there, its hue as near and its lightness
  relative to the paper alike, fits as well (`_unseen_alike`: where neither blue nor green
  was taught under that webcam, its cyan blue reads unknown, not green).

Hue alone confuses green with yellow under a warm lamp (the green's hue drifts towards
yellow's); lightness relative to the paper does not drift that way (yellow ink is nearly
as light as the paper, green is not), so both are used.

Faces with no paper showing (full-bleed colour fields):

* a face that prints anything white (a white oval, white digits or indices) is
  white-balanced by that white: the paper fit takes the brightest pixels, whatever
  their share (measured across photo sessions: `bench/colour_sessions.py`);
* a deck that prints no white at all is told at teaching (`field_deck`: the "paper" of
  its taught faces, all photographed under one light, differs with the colour name);
  its prototypes are field hues with no lightness (`(hue, None)`). A face of it is
  judged by the hue of its field, after the light that best explains every card in
  view as inks of the deck (`scene_gain`: a grid of colour casts, a prior for the
  camera's own white balance being about right). One card alone in view cannot tell a
  green card under a warm lamp from a yellow one under daylight; several cards of
  different colours can.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import cv2
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
# ... or above this share of the face's strongest ink (its 98th percentile), when that is
# lower, never below INK_FLOOR: a light ink seen with little contrast (yellow under a very
# warm dim lamp through a cheap sensor whose colour filters overlap lies only 15-20 from
# its white after white balance) is the face's ink all the same, and at the fixed bar only
# the camera's noise crossed it. CHROMA scales with the bar.
INK_RELATIVE = 0.5
INK_FLOOR = 8.0         # the noise of a dim camera's white, averaged to the work size, stays under
STRONG_INK = 0.98       # the face's strongest ink: this share of its pixels are fainter
FLOOR = 1e-3            # no colour is ever ruled out completely (the symbol may outvote it)
# A taught example (`ink_examples`) is one light's ink, not a whole family of lights: a
# card's ink must come this close to it (one standard deviation each), about three times
# as close as to a fixed prototype. One name's photos under one light lie within 3
# degrees and 2-4 lightness of each other (stand-in deck, eight sessions).
EXAMPLE_HUE = 10.0
EXAMPLE_LIGHT = 7.0
EXAMPLE_SUPPORT = 2.0   # another photo of the name this near (in those units), or the example is
                        # not kept: one odd photo (an outline of part of the table) is no ink
EXAMPLE_MERGE = 0.5     # examples nearer each other than this are one
# The light a card was photographed under, as far as its own paper tells it (`light_key`): the
# paper's chromaticity as the camera saw it (log r/g, log b/g) and, LIGHT_BRIGHTNESS as much,
# its brightness (log green). A colour name's taught inks under a light say where that name's
# ink lies under it (`ink_lights`): there, an ink unlike them is not that name, however near
# the name's prototype it lies. Measured on protocol 2's photos (`bench/protocols.py`, eight
# simulated sessions): one session's papers lie within 0.1 of the nearest other photo of it
# (median 0.03); a cheap webcam under a warm lamp 0.3-0.5 from every other session; daylight,
# cool shade and a dark window within 0.01-0.05 of each other (their inks alike: hue within
# 10-30 degrees).
LIGHT_BRIGHTNESS = 0.3
LIGHT_SAME = 0.1        # lights nearer than this are one light
LIGHT_OTHER = 0.3       # ... further than this another (closeness falls linearly between)
LIGHT_TRUST = 0.99      # how far a name's inks under the very light overrule its prototype: the
                        # rest keeps the prototypes' order among names all unlike their taught inks
UNSEEN_WEAK = 0.7       # under a light the deck was taught in, a best name never taught there
                        # fitting under this is a guess between the names never taught there
                        # (`_unseen_alike`) ...
UNSEEN_TURN = 90.0      # ... each of them within this many degrees of hue of the ink (protocol 2's
                        # eight simulated sessions turn an ink's hue by up to 85: blue under that
                        # webcam; red ink is no guess for a cyan one)


@dataclass(frozen=True)
class InkColour:
    """What the card's ink looks like after white balance, and what it was balanced by."""

    hue: float          # degrees, of the coloured ink (nan if none)
    light: float        # lightness of the coloured ink, relative to the paper (nan if none)
    share: float        # coloured ink / all ink (0: black ink only)
    ink: float          # share of the face that is ink
    paper: tuple[float, float, float] | None = None  # linear RGB of the "paper" as the camera saw
    # it: the face's brightest part (on a full-bleed face with no white: its colour field)
    field: float = float("nan")  # share of the face that is a colour field's ink (`field_ink`)


def ink_colour(lightness: np.ndarray, a: np.ndarray, b: np.ndarray, ink: np.ndarray,
               paper_bgr: np.ndarray | None = None) -> InkColour:
    """From the white-balanced Lab planes of a face (L 0..100, a and b centred at 0), its
    ink strength and (optionally) the colour it was balanced by (BGR 0..1 as the camera
    gave it)."""
    paper = None
    if paper_bgr is not None:
        paper = tuple(float(v) for v in to_linear(np.asarray(paper_bgr, np.float32)[::-1]))
    bar = ink_bar(ink)
    inked = ink > bar
    chroma = np.sqrt(a * a + b * b)
    coloured = inked & (chroma > CHROMA * bar / INK)
    n_ink, n_col = int(inked.sum()), int(coloured.sum())
    field = field_ink(lightness, chroma, ink, bar) / ink.size
    if n_col < 4:
        return InkColour(float("nan"), float("nan"), 0.0, n_ink / ink.size, paper, field)
    weight = chroma[coloured]
    angle = np.degrees(np.arctan2((b[coloured] * weight).sum(), (a[coloured] * weight).sum())) % 360
    return InkColour(float(angle), median(lightness[coloured]), n_col / max(n_ink, 1),
                     n_ink / ink.size, paper, field)


# A colour-field deck's face (the UNO family) is mostly its field: a coloured ink, or a
# dark one (a wild's black). What else the finder outlines on a table and the reader takes
# for a card shows little of either: a business card's black bird on pale paper, a box's
# small icon, a glazed canister's grey stripes, a grey patch. A pixel is the field's when
# its chroma is at least FIELD_INK_CHROMA of its ink strength (the strength is the distance
# from the paper: most of a coloured field's is hue, even the very warm dim webcam's pale
# yellow's) and its ink is above the face's field bar (`field_bar`), or when it is ink
# (`ink_bar`) with lightness under FIELD_INK_DARK (the paper's is 100).
# docs/vision-history.md, session 22, "A card on a bare table: the colour field", and
# session 23, "The field of a pale card".
FIELD_INK_CHROMA = 0.5
FIELD_INK_DARK = 50.0
FIELD_FLOOR = 10.0      # a coloured pixel fainter than this is no field, whatever the face's bar: a
                        # glazed white canister's cream shading lies 9-12 from its white (a pale
                        # yellow field 12-22)


def field_ink(lightness: np.ndarray, chroma: np.ndarray, ink: np.ndarray, bar: float) -> int:
    """How many of the face's pixels are a colour field's: chroma at least FIELD_INK_CHROMA
    of their ink strength and ink above `field_bar`, or ink above `bar` (the face's
    `ink_bar`) with lightness under FIELD_INK_DARK."""
    coloured = chroma > FIELD_INK_CHROMA * ink
    field = coloured & (ink > field_bar(ink[coloured], bar))
    return int((field | ((ink > bar) & (lightness < FIELD_INK_DARK))).sum())


def field_bar(coloured_ink: np.ndarray, bar: float) -> float:
    """The ink strength above which a coloured pixel (`field_ink`) is the field's: the face's
    ink bar (`ink_bar`), or INK_RELATIVE of its strongest coloured ink where that is lower
    (not below FIELD_FLOOR). A pale field's bar is its own, not the one a darker ink sets: the
    very warm dim webcam's yellow field lies 12-18 from its white, under the bar its digit's
    black outline sets (a Yellow 9: strongest ink 40, bar 20, 0.08 of the face counted as
    field; 0.55 so), and a sliver of dark table inside a warm lamp cheap webcam's Yellow 1
    outline set its bar at INK, over its whole field (0.06; 0.52 so)."""
    if coloured_ink.size == 0:
        return bar
    return min(bar, max(FIELD_FLOOR, INK_RELATIVE * strongest_ink(coloured_ink)))


# A face's coloured ink off its main hue (`off_hue_share`): a card of a colour-field deck
# prints one coloured ink a face (a wild, several); what the finder outlines elsewhere (a
# coupon's yellow field round a green-ringed diamond) may show two. Measured on protocol 2
# (bench/protocols.py, no-frame and thin-frame stresses, main 60b9cf3, 3 training seeds):
# see docs/vision-history.md, "A bare table's coupon".
OFF_HUE = 40.0          # degrees from the coloured ink's mean hue: another ink


def off_hue_share(a: np.ndarray, b: np.ndarray, ink: np.ndarray) -> float:
    """The share of a face's coloured ink (chroma-weighted; the pixels `ink_colour` counts
    as coloured) more than OFF_HUE degrees of hue from its chroma-weighted mean direction:
    about 0 for a face printed in one coloured ink, nan with (almost) no coloured ink."""
    bar = ink_bar(ink)
    chroma = np.sqrt(a * a + b * b)
    coloured = (ink > bar) & (chroma > CHROMA * bar / INK)
    if int(coloured.sum()) < 4:
        return float("nan")
    a, b, chroma = a[coloured], b[coloured], chroma[coloured]
    # each pixel's hue direction weighted by its chroma is its (a, b) itself
    mean_a, mean_b = float(a.sum()), float(b.sum())
    length = float(np.hypot(mean_a, mean_b))
    if length <= 0.0:
        return 1.0
    off = (a * mean_a + b * mean_b) < chroma * (length * np.cos(np.radians(OFF_HUE)))
    return float(chroma[off].sum() / chroma.sum())


def ink_bar(ink: np.ndarray) -> float:
    """The ink strength above which a pixel of this face is ink: INK, or INK_RELATIVE of
    the face's strongest ink where that is fainter (not below INK_FLOOR)."""
    return min(INK, max(INK_FLOOR, INK_RELATIVE * strongest_ink(ink)))


def strongest_ink(ink: np.ndarray) -> float:
    """The face's strongest ink: the STRONG_INK quantile of its ink strength."""
    flat = ink.ravel()
    k = int(STRONG_INK * (flat.size - 1))
    return float(np.partition(flat, k)[k])


def median(values: np.ndarray) -> float:
    """np.median of a flat array, to the bit, without its overhead (a third of reading a
    card's colour)."""
    k = values.size // 2
    if values.size % 2:
        return float(np.partition(values, k)[k])
    part = np.partition(values, (k - 1, k))
    return float((part[k - 1] + part[k]) / 2)


def to_linear(srgb: np.ndarray) -> np.ndarray:
    srgb = np.clip(srgb, 0, 1)
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def to_srgb(linear: np.ndarray) -> np.ndarray:
    """Linear light to sRGB (0..1)."""
    linear = np.clip(linear, 0, 1)
    return np.where(linear <= 0.0031308, linear * 12.92, 1.055 * linear ** (1 / 2.4) - 0.055)


def canonical(name: str) -> str:
    name = name.strip().lower()
    return ALIASES.get(name, name)


@lru_cache(maxsize=64)
def symbol_groups(labels: tuple[str, ...], colours: tuple[str, ...]) -> np.ndarray:
    """For each label, the index of the first label showing the same symbol in another
    colour. A label that names its colour ("Red 7", colour "red") shows the symbol the
    rest of it names ("7"): "Green 7" is the same symbol printed in green. The symbol is
    read from the colour-free ink map, where the colours look alike (how strongly an ink
    stands out from the paper depends on the light, not on which card it is), so the
    learned reader reads symbols and the colour picks the label among them. A code that
    starts with its colour's initial ("R7", "G-MISS" with colours red and green, as
    Deckhand's own codes are written) names its colour too. A label that does not name
    its colour is a symbol of its own."""
    first: dict[str, int] = {}
    out = []
    for i, (label, colour) in enumerate(zip(labels, colours)):
        key = f"\x00{label}"
        names = {colour.strip().lower(), canonical(colour)} - {""}
        rest = label
        for name in names:
            rest = re.sub(rf"(?i)\b{re.escape(name)}\b", " ", label)
            if rest != label:
                break
        # a code that starts with the colour's initial ("R7", "G-MISS" in red, green)
        for initial in {name[0] for name in names}:
            rest = re.sub(rf"(?i)(?:^|(?<=\s)){re.escape(initial)}(?=[-_+]?\d|[-_])", " ", rest.strip())
        if rest != label:
            rest = " ".join(rest.replace("-", " ").replace("_", " ").split()).lower()
            key = rest or key
        out.append(first.setdefault(key, i))
    groups = np.asarray(out, np.int64)
    groups.flags.writeable = False
    return groups


def likelihoods(seen: InkColour, inks: dict[str, tuple[float | None, float | None]],
                names: list[str], gain: np.ndarray | None = None,
                examples: dict[str, np.ndarray] | None = None,
                lights: dict[str, np.ndarray] | None = None) -> np.ndarray:
    """How well the ink seen fits each named colour (1: perfectly, down to FLOOR); an
    empty or unknown name fits everything (1). A coloured name fits by the better of its
    prototype and its nearest taught example (`ink_examples`), if any; where the name was
    taught under the light the card was seen under (`lights`, `ink_lights`), by its inks
    under that light instead, so far as the light is the same (`_under_light`); under such
    a light, a poorly fitting best name never taught there is no surer than the names like
    it never taught there either (`_unseen_alike`). A deck
    printed with no white at all (`field_deck`) is judged by the hue of the face's field
    under `gain` (the light of the scene, `scene_gain`; none: the camera's own white
    balance)."""
    out = np.ones(len(names))
    if field_deck(inks):
        if seen.paper is None:
            return out
        hue, chroma = field_hues(np.array([seen.paper]), np.ones((1, 3)) if gain is None else gain[None])
        for i, name in enumerate(names):
            proto = inks.get(canonical(name)) if name else None
            if proto is not None:
                out[i] = max(FLOOR, _field_fit(float(hue[0, 0]), float(chroma[0, 0]), proto[0]))
        return out
    # a little coloured ink is stray (a shadow's edge, the table at a corner): not a colour
    coloured = float(np.clip((seen.share - 0.1) / 0.3, 0, 1)) if np.isfinite(seen.hue) else 0.0
    fits: dict[str, float] = {}
    lit: dict[str, float] = {}     # coloured names judged again under the card's light
    for name in names:
        key = canonical(name) if name else ""
        if key not in fits:
            proto = inks.get(key) if key else None
            fits[key] = 1.0 if proto is None else max(
                FLOOR, _ink_fit(seen, proto, coloured, (examples or {}).get(key)))
            if proto is not None:
                lit[key] = fits[key] if not (lights and key in lights) else \
                    max(FLOOR, _under_light(seen, lights[key], coloured, fits[key]))
    # the inks under the card's light only overturn the prototypes' choice of colour; where
    # both choose alike the prototypes' milder fits stand (sharper, they made outlines of a
    # bare table surer of a colour and so of a card: 2 of 6 bare tables read as cards in
    # the oblique stress at seed 12, none before)
    if lit and max(lit, key=lit.get) != max(lit, key=fits.get):
        fits.update(lit)
    if lit and lights:
        _unseen_alike(seen, inks, fits, lights)
    for i, name in enumerate(names):
        out[i] = fits[canonical(name) if name else ""]
    return out


def _under_light(seen: InkColour, taught: np.ndarray, coloured: float, fit: float) -> float:
    """A name's fit (`fit`: by its prototype and examples) judged again by its inks as
    taught under the card's light (`taught`: n x 5, `ink_lights`): by those inks (one
    EXAMPLE_HUE / EXAMPLE_LIGHT standard deviation) as far as the light is the same
    (`light_closeness`, times LIGHT_TRUST), by `fit` as far as it is another. An ink
    unlike how the name looked under this very light is not that name: a cheap webcam under a warm lamp shows
    blue ink nearly cyan (hue ~196, lightness ~35), nearer green's prototype than
    blue's, and green ink where green's prototype is (~150, 52): where the deck's green
    was taught under it and its blue was not, the cyan ink is not green."""
    key = light_key(seen)
    if key is None or not (np.isfinite(seen.hue) and np.isfinite(seen.light)):
        return fit
    same = light_closeness(key, taught[:, 2:])
    near = LIGHT_TRUST * float(same.max())
    if near <= 0.0:
        return fit
    looks = np.exp(-0.5 * _example_distance(seen.hue, seen.light, taught[:, :2]))
    return max(float((same * looks).max()) * coloured, (1.0 - near) * fit)


def _unseen_alike(seen: InkColour, inks: dict, fits: dict[str, float], lights: dict[str, np.ndarray]) -> None:
    """Under a light the deck was taught in (some name's inks there at `light_closeness` 1,
    `lights`: `ink_lights`), where the best coloured name was never taught (closeness 0)
    and the ink lies far from its prototype and examples (fit under UNSEEN_WEAK), the light
    may have turned the hue of any ink never taught under it that far: each other name
    never taught there whose prototype lies within UNSEEN_TURN of the ink's hue fits as
    well as the best, so far as its lightness relative to the paper fits as well (a light
    turns hue much more than it moves that lightness), at most as well (in `fits`, in
    place). A cheap webcam under a warm lamp turns blue ink nearly cyan, nearer green's
    prototype and examples than blue's; where neither blue nor green was taught under it,
    the cyan ink is as much blue as green, unknown, not green."""
    coloured = [k for k in fits if k in inks and inks[k][0] is not None and inks[k][1] is not None]
    if not coloured or not (np.isfinite(seen.hue) and np.isfinite(seen.light)):
        return
    best = max(coloured, key=fits.get)
    key = None if fits[best] >= UNSEEN_WEAK else light_key(seen)
    if key is None:
        return
    here = {k: float(light_closeness(key, lights[k][:, 2:]).max()) for k in coloured if k in lights}
    if not here or max(here.values()) < 1.0 or here.get(best, 0.0) > 0.0:
        return

    def by_lightness(name: str) -> float:
        return float(np.exp(-0.5 * ((seen.light - inks[name][1]) / LIGHT_SCALE) ** 2))
    own = max(by_lightness(best), FLOOR)
    for name in coloured:
        if name != best and here.get(name, 0.0) == 0.0 and \
                abs((seen.hue - inks[name][0] + 180) % 360 - 180) <= UNSEEN_TURN:
            fits[name] = max(fits[name], fits[best] * min(1.0, by_lightness(name) / own))


def light_key(seen: InkColour) -> np.ndarray | None:
    """The light a face was seen under, as its paper tells it (`InkColour.paper`, linear
    RGB as the camera saw it): log r/g, log b/g and LIGHT_BRIGHTNESS times log g. None
    without a paper."""
    if seen.paper is None:
        return None
    r, g, b = (max(float(v), 1e-4) for v in seen.paper)
    return np.array([np.log(r / g), np.log(b / g), LIGHT_BRIGHTNESS * np.log(g)])


def light_closeness(key: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """How surely each of `keys` (n x 3, `light_key`) is the light `key` is: 1 nearer than
    LIGHT_SAME, 0 further than LIGHT_OTHER, linear between."""
    d = np.sqrt(((keys - key) ** 2).sum(axis=1))
    return np.clip((LIGHT_OTHER - d) / (LIGHT_OTHER - LIGHT_SAME), 0.0, 1.0)


def _ink_fit(seen: InkColour, proto: tuple[float | None, float], coloured: float,
             examples: np.ndarray | None) -> float:
    hue, light = proto
    if hue is None:   # black or grey ink: little coloured ink
        return (1.0 - coloured) ** 2
    dh = (seen.hue - hue + 180) % 360 - 180 if np.isfinite(seen.hue) else 180.0
    dl = seen.light - light if np.isfinite(seen.light) else 60.0
    fit = float(np.exp(-0.5 * ((dh / HUE_SCALE) ** 2 + (dl / LIGHT_SCALE) ** 2)))
    if examples is not None and len(examples) and np.isfinite(seen.hue) and np.isfinite(seen.light):
        fit = max(fit, float(np.exp(-0.5 * _example_distance(seen.hue, seen.light, examples).min())))
    return fit * coloured


def _example_distance(hue: float, light: float, examples: np.ndarray) -> np.ndarray:
    """Squared distance (in EXAMPLE_HUE, EXAMPLE_LIGHT units) from (hue, light) to each
    example (n x 2)."""
    dh = ((hue - examples[:, 0] + 180) % 360 - 180) / EXAMPLE_HUE
    dl = (light - examples[:, 1]) / EXAMPLE_LIGHT
    return dh * dh + dl * dl


def _coloured_inks(samples: list[tuple[str, InkColour]], point) -> dict[str, np.ndarray]:
    """`point(seen)` of every taught photo whose ink is mostly coloured (None: left out),
    by coloured name (black ink's names left out); none for a deck printed with no white."""
    if printed_without_white(samples):
        return {}
    by_name: dict[str, list] = {}
    for name, seen in samples:
        if name and np.isfinite(seen.hue) and np.isfinite(seen.light) and seen.share > 0.25:
            p = point(seen)
            if p is not None:
                by_name.setdefault(canonical(name), []).append(p)
    return {name: np.array(points, np.float64) for name, points in by_name.items()
            if INKS.get(name, (0.0,))[0] is not None}


def ink_examples(samples: list[tuple[str, InkColour]]) -> dict[str, np.ndarray]:
    """Each coloured name's ink as the taught photos show it, under each of their lights
    (n x 2: hue, lightness relative to the paper). Kept: a photo whose ink is mostly
    coloured, with another photo of the name near it (one odd photo is not the ink);
    nearly equal ones merged. None for a deck printed with no white (judged by the
    light of the scene instead) or a name that is black ink."""
    out = {}
    for name, pts in _coloured_inks(samples, lambda seen: (seen.hue, seen.light)).items():
        kept: list[np.ndarray] = []
        for i, (hue, light) in enumerate(pts):
            near = _example_distance(hue, light, np.delete(pts, i, axis=0))
            if near.size and near.min() <= EXAMPLE_SUPPORT ** 2 and \
                    (not kept or _example_distance(hue, light, np.array(kept)).min() > EXAMPLE_MERGE ** 2):
                kept.append(pts[i])
        if kept:
            out[name] = np.round(np.array(kept), 2)
    return out


def ink_lights(samples: list[tuple[str, InkColour]]) -> dict[str, np.ndarray]:
    """Each coloured name's ink as the taught photos show it, with the light each photo
    was taken under (n x 5: hue, lightness relative to the paper, `light_key`). Kept: a
    photo whose ink is mostly coloured, with another photo of the name near it both in
    ink (EXAMPLE_SUPPORT) and in light (LIGHT_SAME): one odd photo is not how the name
    looks under a light. Nearly equal ones (ink within EXAMPLE_MERGE, light within half
    LIGHT_SAME) merged. None for a deck printed with no white or a name that is black
    ink."""
    def with_light(seen: InkColour):
        key = light_key(seen)
        return None if key is None else np.r_[seen.hue, seen.light, key]
    out = {}
    for name, pts in _coloured_inks(samples, with_light).items():
        kept: list[np.ndarray] = []
        for i, point in enumerate(pts):
            others = np.delete(pts, i, axis=0)
            if not len(others):
                continue
            alike = (_example_distance(point[0], point[1], others[:, :2]) <= EXAMPLE_SUPPORT ** 2) & \
                (np.sqrt(((others[:, 2:] - point[2:]) ** 2).sum(axis=1)) <= LIGHT_SAME)
            if not alike.any():
                continue
            if kept:
                done = np.array(kept)
                if ((_example_distance(point[0], point[1], done[:, :2]) <= EXAMPLE_MERGE ** 2) &
                        (np.sqrt(((done[:, 2:] - point[2:]) ** 2).sum(axis=1)) <= LIGHT_SAME / 2)).any():
                    continue
            kept.append(point)
        if kept:
            out[name] = np.round(np.array(kept), 3)
    return out


# A teaching photo whose outline holds no card of a colour-field deck (`without_colour_field`).
# Measured on protocol 2's teaching photos (bench/protocols.py, seven stress photo sets, 1,115
# crops): a deck whose coloured faces show coloured ink over FIELD_DECK_AREA of the face
# (median; the stand-in deck 0.55-0.66 in every set) prints colour fields; there a crop of
# the card (outline IoU >= 0.5 with it) shows under NO_FIELD_AREA in 2 of 1,030 (yellow
# faces under a warm lamp, 0.007 and 0.012, fitting yellow 0.93 and 0.022), a bare table's
# coupon taught as red 0.091-0.093 fitting red 0.0035-0.0038, and 16 of 47 outlines of
# something else in photos whose card was missed show under a tenth too.
FIELD_DECK_AREA = 0.3
NO_FIELD_AREA = 0.1
NO_FIELD_FIT = 0.01


def coloured_area(seen: InkColour) -> float:
    """The share of a face that is coloured ink (the ink's share of the face times the
    coloured share of the ink)."""
    return (seen.share if np.isfinite(seen.share) else 0.0) * seen.ink


def prototype_fit(seen: InkColour, name: str) -> float:
    """How well the coloured ink seen fits a coloured name's fixed prototype (hue and
    lightness, 1: perfectly; 0 with no coloured ink), however much of it there is."""
    hue, light = INKS[canonical(name)]
    if hue is None or not (np.isfinite(seen.hue) and np.isfinite(seen.light)):
        return 0.0
    dh = (seen.hue - hue + 180) % 360 - 180
    return float(np.exp(-0.5 * ((dh / HUE_SCALE) ** 2 + ((seen.light - light) / LIGHT_SCALE) ** 2)))


def prints_colour_fields(samples: list[tuple[str, InkColour]]) -> bool:
    """Whether a deck's taught photos (colour name, ink) are mostly coloured: the median
    `coloured_area` of the named ones FIELD_DECK_AREA or more (a deck printing colour fields)."""
    areas = [coloured_area(seen) for name, seen in samples if name]
    return bool(areas) and float(np.median(areas)) >= FIELD_DECK_AREA


def without_colour_field(samples: list[tuple[str, InkColour]]) -> list[bool]:
    """Which taught photos (colour name, ink) show no colour field of a deck that prints
    them: the deck's named photos mostly coloured (median `coloured_area` FIELD_DECK_AREA
    or more), this one under NO_FIELD_AREA and what little coloured ink it shows unlike
    its name (prototype fit under NO_FIELD_FIT). Never a photo with no name, of a name not
    in the table or of an achromatic one."""
    out = [False] * len(samples)
    if not prints_colour_fields(samples):
        return out
    for i, (name, seen) in enumerate(samples):
        key = canonical(name) if name else ""
        if key in INKS and INKS[key][0] is not None:
            out[i] = coloured_area(seen) < NO_FIELD_AREA and prototype_fit(seen, key) < NO_FIELD_FIT
    return out


@lru_cache(maxsize=64)
def with_prototype(colours: tuple[str, ...], prototypes: tuple[str, ...]) -> np.ndarray:
    """Which of the colour names (one per label) have an ink prototype among `prototypes`."""
    out = np.array([bool(c) and canonical(c) in prototypes for c in colours], bool)
    out.flags.writeable = False
    return out


# A deck printed with no white: its faces' colour fields
FIELD_CHROMA = (10.0, 25.0)   # Lab chroma of a field from not coloured to fully coloured
FIELD_SPREAD = 30.0           # Lab chroma between colour names' "papers" that says no paper
FIELD_SEPARATION = 2.0        # ... and how much further apart the names' papers are than
                              # one name's papers (squared: 1.4 standard deviations; measured
                              # 3-4 for a no-white deck under 8 lights, below 0.5 for a white one)
# Candidate lights left over by the camera's white balance: black bodies from 1,700 to
# 16,000 K (in mired) and a little green or magenta tint; the prior: about daylight.
MIREDS = np.arange(60.0, 600.0, 10.0)
TINTS = np.arange(-0.2, 0.201, 0.05)
PRIOR_MIRED, MIRED_SCALE, TINT_SCALE = 180.0, 150.0, 0.1


def field_deck(inks: dict) -> bool:
    """Whether prototypes are of a deck printed with no white (a field hue, no lightness)."""
    return any(v[1] is None for v in inks.values())


def _field_fit(hue: float, chroma: float, proto_hue: float | None) -> float:
    coloured = float(np.clip((chroma - FIELD_CHROMA[0]) / (FIELD_CHROMA[1] - FIELD_CHROMA[0]), 0, 1))
    if proto_hue is None:
        return (1.0 - coloured) ** 2
    dh = (hue - proto_hue + 180) % 360 - 180
    return float(np.exp(-0.5 * (dh / HUE_SCALE) ** 2)) * coloured


def field_hues(papers: np.ndarray, gains: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lab hue and chroma of each field (n x 3 linear RGB) under each gain (m x 3): m x n."""
    rgb = papers[None, :, :] * gains[:, None, :]
    rgb = rgb / np.maximum(rgb.max(axis=2, keepdims=True), 1e-6)   # the field is the face's brightest
    lab = cv2.cvtColor(to_srgb(rgb)[..., ::-1].astype(np.float32), cv2.COLOR_BGR2Lab)
    a, b = lab[..., 1], lab[..., 2]
    return np.degrees(np.arctan2(b, a)) % 360, np.sqrt(a * a + b * b)


def black_body(kelvin: float) -> np.ndarray:
    """Linear RGB of a black body's light, green = 1 (Tanner Helland's fit of the
    Planckian locus in sRGB, linearised)."""
    t = kelvin / 100.0
    if t <= 66:
        rgb = [255.0, 99.4708025861 * np.log(t) - 161.1195681661,
               0.0 if t <= 19 else 138.5177312231 * np.log(t - 10) - 305.0447927307]
    else:
        rgb = [329.698727446 * (t - 60) ** -0.1332047592, 288.1221695283 * (t - 60) ** -0.0755148492, 255.0]
    linear = to_linear(np.clip(np.array(rgb), 1, 255) / 255)
    return linear / linear[1]


def _candidate_gains() -> tuple[np.ndarray, np.ndarray]:
    """The gains that take out each candidate light, and each one's log prior."""
    gains, prior = [], []
    for mired in MIREDS:
        light = black_body(1e6 / mired)
        for tint in TINTS:
            gains.append(1.0 / (light * np.array([1.0, np.exp(tint), 1.0])))
            prior.append(-0.5 * (((mired - PRIOR_MIRED) / MIRED_SCALE) ** 2 + (tint / TINT_SCALE) ** 2))
    return np.array(gains), np.array(prior)


_GAINS, _GAIN_LOG_PRIOR = _candidate_gains()


def scene_gain(seen: list[InkColour], inks: dict) -> np.ndarray:
    """The colour cast (linear RGB gains) that best explains every face in view as an
    ink of the deck: each face's best fit, summed in logs, plus the prior that the
    camera's own white balance is about right. Ones when nothing is known."""
    papers = np.array([s.paper for s in seen if s.paper is not None])
    protos = [v[0] for v in inks.values()]
    if not len(papers) or not protos:
        return np.ones(3)
    hue, chroma = field_hues(papers, _GAINS)
    coloured = np.clip((chroma - FIELD_CHROMA[0]) / (FIELD_CHROMA[1] - FIELD_CHROMA[0]), 0, 1)
    best = np.full(hue.shape, FLOOR)
    for proto in protos:
        if proto is None:
            fit = (1.0 - coloured) ** 2
        else:
            dh = (hue - proto + 180) % 360 - 180
            fit = np.exp(-0.5 * (dh / HUE_SCALE) ** 2) * coloured
        best = np.maximum(best, fit)
    score = np.log(best).sum(axis=1) + _GAIN_LOG_PRIOR
    return _GAINS[int(score.argmax())]


def printed_without_white(samples: list[tuple[str, InkColour]]) -> bool:
    """Whether taught faces show no paper: what each face was white-balanced by differs
    with its colour name (a red field, a green field...), where paper or white print
    looks alike on every face under one light. Measured as the Lab chroma of each
    name's "paper" balanced by the median of all of them; and, where a name was shown
    more than once, the names' papers must also stand apart from each other more than
    each name's papers vary (photos under several lights differ by their light, whatever
    the name: that is no colour field)."""
    named = [(canonical(n), s.paper) for n, s in samples if n and s.paper is not None]
    if len({n for n, _ in named}) < 2:
        return False
    papers = np.array([p for _, p in named])
    relative = papers / np.maximum(np.median(papers, axis=0), 1e-4)
    relative /= np.maximum(relative.max(axis=1, keepdims=True), 1e-6)
    lab = cv2.cvtColor(to_srgb(relative[None])[..., ::-1].astype(np.float32), cv2.COLOR_BGR2Lab)[0]
    chroma = np.hypot(lab[:, 1], lab[:, 2])
    by_name: dict[str, list[int]] = {}
    for i, (name, _) in enumerate(named):
        by_name.setdefault(name, []).append(i)
    if float(np.median([np.median(chroma[v]) for v in by_name.values()])) <= FIELD_SPREAD:
        return False
    ab = lab[:, 1:]
    spread = [ab[v] - ab[v].mean(axis=0) for v in by_name.values() if len(v) > 1]
    if not spread:
        return True
    within = float(np.mean(np.concatenate(spread) ** 2)) * 2
    means = np.array([ab[v].mean(axis=0) for v in by_name.values()])
    between = float(np.mean(((means - means.mean(axis=0)) ** 2).sum(axis=1)))
    return between > FIELD_SEPARATION * within


def _circular_mean(degrees: np.ndarray) -> float:
    rad = np.radians(degrees)
    return float(np.degrees(np.arctan2(np.sin(rad).mean(), np.cos(rad).mean())) % 360)


def measure_inks(samples: list[tuple[str, InkColour]]) -> dict[str, tuple[float | None, float | None]]:
    """Prototypes of colour names from clean views (a built-in deck's drawings, or taught
    photos for a name `INKS` does not know): the circular mean hue and median lightness.
    Of a deck printed with no white (`printed_without_white`), the hue of each name's
    field under the teaching light (`scene_gain` of all the taught faces) and no
    lightness."""
    if printed_without_white(samples):
        names = {canonical(n) for n, _ in samples if n}
        fixed = {n: (INKS[n][0], None) for n in names if n in INKS}
        gain = scene_gain([s for _, s in samples], fixed or {n: (None, None) for n in names})
        out: dict[str, tuple[float | None, float | None]] = {}
        for name in names:
            papers = np.array([s.paper for n, s in samples if canonical(n) == name and s.paper is not None])
            hue, chroma = field_hues(papers, gain[None])
            coloured = chroma[0] > FIELD_CHROMA[1]
            out[name] = (_circular_mean(hue[0][coloured]) if coloured.sum() * 2 >= len(papers) else None, None)
        return out
    by_name: dict[str, list[InkColour]] = {}
    for name, seen in samples:
        if name:
            by_name.setdefault(canonical(name), []).append(seen)
    out = {}
    for name, seen in by_name.items():
        hues = np.array([s.hue for s in seen if np.isfinite(s.hue) and s.share > 0.25])
        if len(hues) * 2 < len(seen):
            lights = [s.light for s in seen if np.isfinite(s.light)]
            out[name] = (None, float(np.median(lights)) if lights else 15.0)
            continue
        out[name] = (_circular_mean(hues), float(np.median([s.light for s in seen if np.isfinite(s.light)])))
    return out


def deck_inks(colour_names: list[str], measured: dict[str, tuple[float | None, float | None]] | None = None,
              pull: float = 0.5) -> dict[str, tuple[float | None, float | None]]:
    """The prototypes a deck uses. A name the fixed table knows is that prototype, moved
    `pull` of the way towards the deck's own ink where it was `measured` (white-balanced,
    from the taught pictures: a commercial "yellow" may print nearly orange); a name the
    table does not know is the measured ink; a name in neither has no prototype (it then
    fits any ink). Not all the way: one photo session's ink drifts with its light, the
    table does not. A deck printed with no white keeps no lightness (`field_deck`)."""
    out: dict[str, tuple[float | None, float | None]] = {}
    fields = field_deck(measured or {})
    for name in colour_names:
        key = canonical(name)
        if not key:
            continue
        fixed = INKS.get(key)
        own = (measured or {}).get(key)
        if fields and fixed is not None:
            fixed = (fixed[0], None)
        if fixed is None or own is None:
            if fixed is not None or own is not None:
                out[key] = fixed if own is None else own
            continue
        if fixed[0] is None or own[0] is None:
            out[key] = fixed
            continue
        gap = (own[0] - fixed[0] + 180) % 360 - 180
        light = None if fields else fixed[1] + (own[1] - fixed[1]) * pull
        out[key] = ((fixed[0] + gap * pull) % 360, light)
    return out
