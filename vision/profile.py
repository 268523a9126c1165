"""Deck profiles: what a deck's cards look like to the classifier, and where they come from.

A `DeckProfile` holds, per label, symbol templates (the face itself and simulated camera
views of it) and a colour prototype, the symbol classes (labels whose symbols match, told
apart by colour only), the card aspect and the deck's printed frame insets. Profiles are built from labelled samples (`build_profile`): the built-in ones
from Deckhand's own rendered decks (`builtin_profile`, drawn by `vision.render` at load
time and cached under ~/.cache/deckhand, never committed as images), taught ones from
photos of a user's deck (`vision.teach`). A profile is saved as one .npz file.

What does not live here: feature extraction and matching (`vision.classify`), reading
photos and the teaching self-check (`vision.teach`).
"""
from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import cv2
import numpy as np

from vision.classify import TEMPLATE_SIZE, WORK_SIZE, FaceFeatures, face_features
from vision.reader import LinearReader
from vision.warp import CARD_ASPECT, warp_card
from vision.why import Why, WhyError, why

GAMES = ("hitthedeck", "solo", "flip7", "raj")
SAME_SYMBOL = 0.985     # template correlation above which two labels share a symbol
SAME_SYMBOL_RECOLOURED = 0.95  # ... when their colours differ: light yellow ink makes a
                               # fainter template than red of the same print (built-in
                               # decks: variants 0.975-0.997, other symbols at most 0.92)
OTHER_COLOUR = 0.3      # colour prototypes further apart than this are other colours
FORMAT_VERSION = 3
READABLE_FORMATS = (2, 3)   # 2: before the learned reader (templates only)
# The learned reader's features (`vision.classify.learned_features`): a profile taught on
# other features is refused, its reader's weights would read them wrong. 2 (27 Nov 2026,
# session 10): the layout's HOG blurred at its own size (`vision.reader.hog_pair`) and the
# paper fitted on every PAPER_STEP-th pixel (`vision.classify.paper_light`); 1 (not written):
# before.
LEARNED_FEATURES = 2
VIEWS = 8                # camera-like views of each card kept as extra templates
WEIGHT_POWER = 1.0       # see build_profile; taught decks use vision.teach.TAUGHT_WEIGHT_POWER


class ProfileError(WhyError):
    """A profile that cannot be loaded or built: `.why` says why as a code and params
    ("profile.*", put into words by web.messages); str() says it in English."""


@dataclass(frozen=True, eq=False)
class DeckProfile:
    name: str
    labels: tuple[str, ...]
    colours: tuple[str, ...]          # colour name per label ("" if none or not given)
    templates: np.ndarray             # (templates, D) float32, grouped by label in order
    label_starts: np.ndarray          # (labels,) index of each label's first template
    colour_protos: np.ndarray         # (labels, 2) mean ink hue (see classify.FaceFeatures)
    symbol_class: np.ndarray          # (labels,) labels with equal numbers share a symbol
    symbol_mean: np.ndarray           # (D,) the deck's average symbol, taken off before matching
    symbol_weight: np.ndarray         # (D,) how much each pixel varies across the deck
    aspect: float = CARD_ASPECT
    frame_insets: tuple[float, ...] = ()  # printed frames inside the edge, share of short side
    ink_cap: float = 0.0              # face_features' ink_cap the templates were made with
    min_confidence: float = 0.0       # a stricter bar than the reader's, set by a self-check
    reader: LinearReader | None = None  # the learned reader (vision.reader), if trained
    inks: dict = field(default_factory=dict)  # colour name -> ink prototype (hue, lightness) (vision.colour)
    ink_examples: dict = field(default_factory=dict)  # colour name -> its taught inks (n x 2: hue, lightness)
    white_frame: bool = False         # its faces print a white frame (vision.whiteframe)
    glyph_height: float = 0.0         # its corner index glyphs' height as taught, share of the
                                      # card's height (vision.reader.index_glyph_height; 0: not known)
    full_bleed: bool = False          # its colour fields run to the cards' edges (vision.whiteframe)
    frame_widths: tuple[float, ...] = ()  # its white frame's width (end, side) as taught, shares of
                                      # the card's length and width (vision.framescale; (): not measured)
    off_hues: tuple[tuple[float, float], ...] = ()  # per label, the least and most of its coloured
                                      # ink its taught faces showed off the main hue
                                      # (vision.colour.off_hue_share; nan: none coloured; (): not measured)
    ink_lights: dict = field(default_factory=dict)  # colour name -> its taught inks with the light of
                                      # each (n x 5: hue, lightness, vision.colour.light_key)
    field_share: float = 0.0          # the colour field's share of its taught faces, low
                                      # (vision.teach.taught_field_share; 0: not measured)

    def whiten(self, symbols: np.ndarray) -> np.ndarray:
        """Raw unit-norm templates (n x D) to the profile's matching space: the deck's
        common layout (frame, corner positions) removed and the pixels that tell cards
        apart weighted up, then unit-norm again. The mean and weight are symmetric under
        a 180-degree turn, so a turned raw template whitens to the turned result."""
        out = (symbols - self.symbol_mean) * self.symbol_weight
        out /= np.maximum(np.linalg.norm(out, axis=-1, keepdims=True), 1e-6)
        return out.astype(np.float32, copy=False)

    def taught_ink(self, label: int) -> np.ndarray:
        """The ink label number `label` was taught with: the mean of its raw (zero-mean,
        unit-norm) templates at TEMPLATE_SIZE, raveled, upright as taught (`whiten`
        undone; whitening divides by a norm it does not keep, found again as the positive
        root that makes each raw template unit-norm)."""
        stop = self.label_starts[label + 1] if label + 1 < len(self.labels) else len(self.templates)
        a = self.templates[self.label_starts[label]:stop] / self.symbol_weight
        aa = np.einsum("ij,ij->i", a, a)
        am = a @ self.symbol_mean
        norm = (np.sqrt(np.maximum(am * am - aa * (float(self.symbol_mean @ self.symbol_mean) - 1.0), 0.0)) - am) \
            / np.maximum(aa, 1e-12)
        return (a * norm[:, None] + self.symbol_mean).mean(axis=0)

    def index(self, label: str) -> int:
        try:
            return self.labels.index(label)
        except ValueError:
            raise ProfileError(why("profile.no_label", "{label!r} is not a card of profile {name!r}",
                                   label=label, name=self.name)) from None

    def templates_of(self, label: str) -> np.ndarray:
        i = self.index(label)
        stop = self.label_starts[i + 1] if i + 1 < len(self.labels) else len(self.templates)
        return self.templates[self.label_starts[i]:stop]


@dataclass(frozen=True, eq=False)
class Sample:
    """One labelled view of a card."""

    label: str
    colour: str
    features: FaceFeatures


def build_profile(name: str, samples: Iterable[Sample], aspect: float = CARD_ASPECT,
                  frame_insets: tuple[float, ...] = (), ink_cap: float = 0.0,
                  weight_power: float = WEIGHT_POWER) -> DeckProfile:
    """A profile from labelled samples (at least one per label). `weight_power` above 1
    weights the pixels that vary most across the deck up more steeply (taught decks:
    their symbols are a small part of a busy face)."""
    by_label: dict[str, list[Sample]] = {}
    for sample in samples:
        by_label.setdefault(sample.label, []).append(sample)
    if not by_label:
        raise ProfileError(why("profile.no_samples", "no samples: a profile needs at least one picture per card"))
    labels = tuple(by_label)
    colours = []
    templates, starts, protos = [], [], []
    for label in labels:
        group = by_label[label]
        names = {s.colour for s in group if s.colour}
        if len(names) > 1:
            raise ProfileError(Why("profile.two_colours", {"label": label, "colours": sorted(names)},
                                   f"{label!r} is given two colours: {', '.join(sorted(names))}"))
        colours.append(names.pop() if names else "")
        starts.append(len(templates))
        templates.extend(s.features.symbol[0] for s in group)
        protos.append(np.mean([s.features.colour for s in group], axis=0))
    raw = np.asarray(templates, np.float32)
    both = np.concatenate([raw, raw[:, ::-1]])
    mean = both.mean(axis=0)
    weight = both.std(axis=0)
    weight = (weight / max(float(weight.max()), 1e-6)) ** weight_power + 0.05  # no pixel quite ignored
    starts_arr = np.asarray(starts, np.int64)
    profile = DeckProfile(name, labels, tuple(colours), raw, starts_arr,
                          np.asarray(protos, np.float32), np.zeros(len(labels), np.int64),
                          mean.astype(np.float32), weight.astype(np.float32), float(aspect),
                          tuple(frame_insets), float(ink_cap))
    white = profile.whiten(raw)
    return dataclasses.replace(profile, templates=white,
                               symbol_class=symbol_classes(white, starts_arr, profile.colour_protos))


def measure_frame_insets(faces: Sequence[np.ndarray]) -> tuple[float, ...]:
    """Printed frames of a deck: a card's face is shown small on a plain grey ground and
    the card-shaped outlines found inside its edge are measured (a share of the short
    side each). Detection uses them to get from a frame's inside to the card's edge when
    the edge itself is lost among other cards."""
    from vision.detect import DetectSettings, fit_card_quad, outlines
    from vision.warp import side_lengths

    settings = DetectSettings(min_short_side=20, strong_cells=True)
    found = []
    for face in faces:
        small = cv2.resize(face, (90, int(round(90 * face.shape[0] / face.shape[1]))),
                           interpolation=cv2.INTER_AREA)
        canvas = np.full((small.shape[0] + 60, 150, 3), 128, np.uint8)
        canvas[30:30 + small.shape[0], 30:120] = small
        (_, (cells, inset), (strong, _)), _, _ = outlines(canvas, None, settings)
        for contour in cells + strong:  # strong: a panel's inside, cut by a printed stripe
            area = cv2.contourArea(contour)
            quad = fit_card_quad(contour, area, settings, inset) if area > 400 else None
            if quad is not None:
                share = (1 - side_lengths(quad)[0] / 90) / 2
                if 0.02 < share < 0.15:
                    found.append(round(share, 3))
    if not found:
        return ()
    typical = float(np.median(found))
    return (round(typical, 4), round(typical - 0.0065, 4), round(typical + 0.0065, 4))


def symbol_classes(templates: np.ndarray, starts: np.ndarray,
                   colour_protos: np.ndarray | None = None) -> np.ndarray:
    """Class number per label: labels whose templates correlate above SAME_SYMBOL (in
    either orientation), or above SAME_SYMBOL_RECOLOURED when their colour prototypes
    differ, are joined, transitively. Within a class only the colour tells labels apart
    (`vision.classify`): a green 5 split from its yellow twin would compete with it on
    symbol alone."""
    means = np.add.reduceat(templates, starts, axis=0)
    means /= np.maximum(np.linalg.norm(means, axis=1, keepdims=True), 1e-6)
    similarity = np.maximum(means @ means.T, means @ means[:, ::-1].T)
    if colour_protos is not None:
        apart = np.linalg.norm(colour_protos[:, None] - colour_protos[None], axis=2) > OTHER_COLOUR
        similarity = np.where(apart & (similarity >= SAME_SYMBOL_RECOLOURED), 1.0, similarity)
    parent = list(range(len(starts)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, j in zip(*np.nonzero(np.triu(similarity, 1) >= SAME_SYMBOL)):
        parent[root(int(i))] = root(int(j))
    roots = [root(i) for i in range(len(starts))]
    numbering = {r: n for n, r in enumerate(dict.fromkeys(roots))}
    return np.asarray([numbering[r] for r in roots], np.int64)


def card_corners(width: float, height: float, angle: float, side: int) -> np.ndarray:
    """The corners (top left first, clockwise) of a `width` × `height` card turned by
    `angle` radians about the centre of a `side` × `side` picture."""
    u = np.array([np.cos(angle), np.sin(angle)])
    v = np.array([-np.sin(angle), np.cos(angle)])
    centre = np.array([side / 2, side / 2])
    return np.array([centre - u * width / 2 - v * height / 2, centre + u * width / 2 - v * height / 2,
                     centre + u * width / 2 + v * height / 2, centre - u * width / 2 + v * height / 2])

def camera_views(face: np.ndarray, rng: np.random.Generator, count: int,
                 harsh: bool = False) -> list[np.ndarray]:
    """`count` upright faces (WORK_SIZE) as the camera would deliver them: the card
    drawn small at a random angle with a little perspective, under a coloured light
    falling off across it, blurred, noisy, sometimes JPEG-compressed, and warped back
    from slightly wrong corners (as detection finds them). `harsh` views are for a deck
    taught from a photo or two: smaller and larger cards, stronger light changes, a
    lamp's glare spot, motion blur and corners further off, since one photo shows only
    one light and one camera."""
    fh, fw = face.shape[:2]
    views = []
    for _ in range(count):
        width = rng.uniform(52, 110) if harsh else rng.uniform(58, 100)
        height = width * fh / fw
        angle = rng.uniform(0, 2 * np.pi)
        size = int(np.ceil(height * 1.3)) + 8
        corners = card_corners(width, height, angle, size)
        corners += rng.normal(0, 0.012 * width, (4, 2))
        source = np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]]) - 0.5
        matrix = cv2.getPerspectiveTransform(source, corners.astype(np.float32))
        table = rng.uniform(20, 235, 3)
        picture = cv2.warpPerspective(face, matrix, (size, size), flags=cv2.INTER_AREA,
                                      borderMode=cv2.BORDER_CONSTANT, borderValue=tuple(table))
        picture = picture.astype(np.float32)
        ys, xs = np.mgrid[0:size, 0:size].astype(np.float32) / size - 0.5
        tilt = 1 + rng.uniform(-0.35, 0.35) * xs + rng.uniform(-0.35, 0.35) * ys
        picture *= (rng.uniform(0.75, 1.15, 3) * rng.uniform(0.6, 1.05))[None, None, :] * tilt[..., None]
        if harsh and rng.random() < 0.35:
            picture += glare_spot(size, rng)[..., None]
        sigma = rng.uniform(0.01, 1.6 if harsh else 1.1)
        picture = cv2.GaussianBlur(picture, (0, 0), sigma)
        if harsh and rng.random() < 0.25:
            picture = cv2.filter2D(picture, -1, motion_kernel(rng.uniform(2, 7), rng.uniform(0, 180)))
        picture += rng.normal(0, rng.uniform(1, 6), picture.shape)
        picture = np.clip(picture, 0, 255).astype(np.uint8)
        if rng.random() < 0.5:
            ok, data = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(45, 95))])
            picture = cv2.imdecode(data, cv2.IMREAD_COLOR)
        found = (corners + rng.normal(0, 1.4 if harsh else 1.0, (4, 2))).astype(np.float32)
        views.append(warp_card(picture, found, WORK_SIZE))
    return views


def glare_spot(size: int, rng: np.random.Generator) -> np.ndarray:
    """A lamp's reflection: a soft bright blob somewhere on a size x size picture."""
    ys, xs = np.mgrid[0:size, 0:size].astype(np.float32)
    cx, cy = rng.uniform(0.15, 0.85, 2) * size
    radius = rng.uniform(0.12, 0.35) * size
    return (rng.uniform(40, 140) * np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * radius ** 2))).astype(np.float32)


def motion_kernel(length: float, angle_deg: float) -> np.ndarray:
    """A straight smear of `length` pixels at `angle_deg`, summing to 1."""
    n = int(np.ceil(length)) | 1
    kernel = np.zeros((n, n), np.float32)
    c = n // 2
    dx, dy = np.cos(np.radians(angle_deg)) * length / 2, np.sin(np.radians(angle_deg)) * length / 2
    cv2.line(kernel, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy))), 1.0, 1)
    return kernel / max(float(kernel.sum()), 1e-6)


# --- built-in profiles: Deckhand's own decks ------------------------------------------

def deck_colour(game: str, code: str) -> str:
    """The colour name a player reads off a built-in card ("" for none)."""
    deck = importlib.import_module(f"engine.{game}.deck").DECK
    colour = deck[code].colour
    return code.partition(":")[0] if colour == "seat" else colour


def rendered_samples(game: str, style: str = "deckhand", views: int = VIEWS) -> list[Sample]:
    """Samples of every card of a built-in deck, drawn by the renderer: the clean face
    and `views` camera-like views of it (fixed seed)."""
    from vision.render.cards import deck_codes, render_card

    rng = np.random.default_rng(63)
    samples = []
    for code in deck_codes(game):
        samples += samples_of(code, deck_colour(game, code), render_card(game, code, style), rng, views)
    return samples


def rendered_frame_insets(game: str, style: str = "deckhand") -> tuple[float, ...]:
    from vision.render.cards import deck_codes, render_card

    return measure_frame_insets([render_card(game, code, style) for code in deck_codes(game)[:6]])


def samples_of(label: str, colour: str, face: np.ndarray, rng: np.random.Generator,
               views: int = VIEWS, harsh: bool = False, ink_cap: float = 0.0) -> list[Sample]:
    """The face itself and `views` camera-like views of it, as samples."""
    faces = [cv2.resize(face, WORK_SIZE, interpolation=cv2.INTER_AREA)] + camera_views(face, rng, views, harsh)
    return [Sample(label, colour, face_features(f, ink_cap)) for f in faces]


def _renderer_fingerprint(style: str) -> str:
    import vision.render.cards

    digest = hashlib.sha1(f"{FORMAT_VERSION}:{style}:{TEMPLATE_SIZE}:{WORK_SIZE}".encode())
    here = Path(__file__).parent
    sources = [here / name for name in ("profile.py", "classify.py", "warp.py")]
    sources += sorted(Path(vision.render.cards.__file__).parent.glob("*.py"))
    for path in sources:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "deckhand" / "profiles"


def builtin_profile(game: str, style: str = "deckhand", cache: bool = True) -> DeckProfile:
    """The profile of Deckhand's own printed deck for `game`, rendered on first use and
    cached under ~/.cache/deckhand/profiles (keyed by the renderer's source)."""
    if game not in GAMES:
        raise ProfileError(Why("profile.no_builtin", {"name": game, "names": list(GAMES)},
                               f"no built-in profile {game!r}; built-in decks: {', '.join(GAMES)}"))
    name = game if style == "deckhand" else f"{game}/{style}"
    path = cache_dir() / f"{game}-{style}-{_renderer_fingerprint(style)}.npz"
    if cache and path.exists():
        try:
            return load_profile_file(path)
        except ProfileError:
            pass  # a damaged cache entry is rebuilt below
    profile = build_profile(name, rendered_samples(game, style),
                            frame_insets=rendered_frame_insets(game, style))
    if cache:
        try:
            save_profile(profile, path)
        except OSError:
            pass  # a read-only home only costs the rendering time next start
    return profile


# --- files ----------------------------------------------------------------------------

def save_profile(profile: DeckProfile, path: str | os.PathLike) -> Path:
    path = Path(path)
    if path.suffix != ".npz":
        path = path.with_name(path.name + ".npz")
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = {"format": FORMAT_VERSION, "name": profile.name, "labels": list(profile.labels),
            "colours": list(profile.colours), "aspect": profile.aspect,
            "frame_insets": list(profile.frame_insets), "ink_cap": profile.ink_cap,
            "min_confidence": profile.min_confidence,
            "template_size": list(TEMPLATE_SIZE),
            "inks": {k: list(v) for k, v in profile.inks.items()},
            "ink_examples": {k: np.asarray(v).tolist() for k, v in profile.ink_examples.items()},
            "ink_lights": {k: np.asarray(v).tolist() for k, v in profile.ink_lights.items()},
            "white_frame": profile.white_frame, "glyph_height": profile.glyph_height,
            "full_bleed": profile.full_bleed, "frame_widths": list(profile.frame_widths),
            "off_hues": [[v if np.isfinite(v) else None for v in pair] for pair in profile.off_hues],
            "field_share": profile.field_share}
    arrays = {}
    if profile.reader is not None:
        r = profile.reader
        meta["reader_features"] = LEARNED_FEATURES
        meta["reader_temperature"] = r.temperature
        if np.isfinite(r.doubt):
            meta["reader_doubt"] = r.doubt
        if r.index:
            meta["reader_index"] = True
            meta["reader_share"] = r.share
        arrays = {"reader_classes": r.classes, "reader_mean": r.mean, "reader_weights": r.weights,
                  "reader_bias": r.bias}
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, meta=np.array(json.dumps(meta)), templates=profile.templates,
                        label_starts=profile.label_starts, colour_protos=profile.colour_protos,
                        symbol_class=profile.symbol_class, symbol_mean=profile.symbol_mean,
                        symbol_weight=profile.symbol_weight, **arrays)
    os.replace(tmp, path)
    return path


def load_profile_file(path: str | os.PathLike) -> DeckProfile:
    path = Path(path)
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            arrays = {k: data[k] for k in ("templates", "label_starts", "colour_protos",
                                           "symbol_class", "symbol_mean", "symbol_weight")}
            learned = {k: data[k] for k in ("reader_classes", "reader_mean", "reader_weights",
                                            "reader_bias") if k in data}
    except FileNotFoundError:
        raise ProfileError(why("profile.missing", "no profile file at {path}", path=str(path))) from None
    except (OSError, ValueError, KeyError) as exc:
        raise ProfileError(why("profile.not_profile", "{path} is not a Deckhand deck profile ({error})",
                               path=str(path), error=str(exc))) from None
    if meta.get("format") not in READABLE_FORMATS or tuple(meta.get("template_size", ())) != TEMPLATE_SIZE:
        raise ProfileError(why("profile.old", "{path} was made by another version of Deckhand; teach the deck again",
                               path=str(path)))
    if len(learned) == 4 and meta.get("reader_features", 1) != LEARNED_FEATURES:
        raise ProfileError(why("profile.old_reader", "{path} was taught with an older way of reading cards; "
                               "teach the deck again", path=str(path)))
    reader = None
    if len(learned) == 4:
        reader = LinearReader(learned["reader_classes"].astype(np.int64),
                              learned["reader_mean"].astype(np.float32),
                              learned["reader_weights"].astype(np.float32),
                              learned["reader_bias"].astype(np.float32),
                              float(meta.get("reader_temperature", 10.0)),
                              float(meta.get("reader_doubt", -np.inf)),
                              bool(meta.get("reader_index", False)),
                              float(meta.get("reader_share", 0.0)))
    inks = {k: tuple(None if x is None else float(x) for x in v) for k, v in meta.get("inks", {}).items()}
    examples = {k: np.array(v, np.float64).reshape(-1, 2) for k, v in meta.get("ink_examples", {}).items()}
    lights = {k: np.array(v, np.float64).reshape(-1, 5) for k, v in meta.get("ink_lights", {}).items()}
    return DeckProfile(meta["name"], tuple(meta["labels"]), tuple(meta["colours"]),
                       arrays["templates"].astype(np.float32), arrays["label_starts"].astype(np.int64),
                       arrays["colour_protos"].astype(np.float32),
                       arrays["symbol_class"].astype(np.int64),
                       arrays["symbol_mean"].astype(np.float32),
                       arrays["symbol_weight"].astype(np.float32), float(meta["aspect"]),
                       tuple(meta.get("frame_insets", ())), float(meta.get("ink_cap", 0.0)),
                       float(meta.get("min_confidence", 0.0)), reader, inks, examples,
                       bool(meta.get("white_frame", False)), float(meta.get("glyph_height", 0.0)),
                       bool(meta.get("full_bleed", False)),
                       tuple(float(v) for v in meta.get("frame_widths", ())),
                       tuple((np.nan if lo is None else float(lo), np.nan if hi is None else float(hi))
                             for lo, hi in meta.get("off_hues", ())),
                       lights, float(meta.get("field_share", 0.0)))


def load_profile(spec: str) -> DeckProfile:
    """A built-in profile by game name ("flip7", or "flip7/alt" for the alternative
    printed style) or a profile file."""
    game, _, style = spec.partition("/")
    if game in GAMES and not Path(spec).exists():
        return builtin_profile(game, style or "deckhand")
    return load_profile_file(spec)


def profile_from_faces(name: str, labelled: Sequence[tuple[str, str, np.ndarray]],
                       aspect: float = CARD_ASPECT, views: int = VIEWS, seed: int = 0,
                       harsh: bool = False, ink_cap: float = 0.0, weight_power: float = WEIGHT_POWER) -> DeckProfile:
    """A profile from (label, colour, upright face image) triples, each face also seen
    in `views` simulated camera views (`harsh` ones for photos, see `camera_views`)."""
    rng = np.random.default_rng(seed)
    samples: list[Sample] = []
    for label, colour, face in labelled:
        samples += samples_of(label, colour, face, rng, views, harsh, ink_cap)
    return build_profile(name, samples, aspect, ink_cap=ink_cap, weight_power=weight_power)
