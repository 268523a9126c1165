"""Reading one upright card face against a deck profile: symbol and colour, judged apart.

* White balance comes from the card itself: a plane per colour channel fitted to its
  paper (its brightest pixels: the white face, or the white medallion of a coloured
  card) is divided out, which also takes out light falling off across the card.
* The symbol is the card's "ink" (its colour distance from the paper, in Lab, whatever
  the ink's colour), shrunk to a small template and compared by normalised
  cross-correlation with every template of the deck at once (one matrix product), in
  both 180-degree orientations; the best few labels again at small shifts. Cards whose
  symbols match each other (a red 5 and a green 5) form one symbol class in the profile.
* The colour is the hue of the ink (the direction of its mean Lab a/b), judged apart:
  it rules out labels of another colour and picks the card within a symbol class.
* Confidence is the margin: of the best symbol over the next one, and of the nearest
  colour over the next nearest. Below the threshold the answer is "unknown", never a
  guess. Answers can only be labels of the profile (the selected game's deck).

What does not live here: finding cards in a frame (`vision.detect`), building and storing
profiles (`vision.profile`).
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from functools import cached_property, partial
from typing import TYPE_CHECKING, Callable

import cv2
import numpy as np

from vision.arrays import every_nth
from vision.cnn import CnnReader
from vision.firstpass import first_pass
from vision.colour import FLOOR, InkColour, ink_colour, likelihoods, off_hue_share, symbol_groups, with_prototype
from vision.glare import GLARE_SHARE, clear_cells, edge_band, glare_mask, glare_share, masked_scores, undo_streaks
from vision.reader import INDEX_WIDE, hog_pair, hog_pair_and_index_rows, index_block, index_regions, index_rows
from vision.warp import warp_card, warp_card_averaged
from vision.whiteframe import FRAME_BAND, frame_under_glare, shows_frame

if TYPE_CHECKING:
    from vision.profile import DeckProfile

WORK_SIZE = (66, 92)        # (w, h) a card is warped to for reading
TEMPLATE_SIZE = (30, 42)    # (w, h) of a symbol template
MARGIN = 3                  # work-size pixels around the edge left out (table at the corners)
SHIFT = 2                   # work-size pixels a face is also read shifted by (detection is
SHIFTS = ((0, 0), (-SHIFT, 0), (SHIFT, 0), (0, -SHIFT), (0, SHIFT),  # a pixel or two off)
          (-SHIFT, -SHIFT), (SHIFT, SHIFT), (-SHIFT, SHIFT), (SHIFT, -SHIFT))
CANDIDATES = 8              # labels whose templates are compared at every shift
UNKNOWN = "unknown"
# A taught deck's card is read "unknown", however sure the probabilities look, when the
# reader's best card class leads the next class (or "no card") by less than LEAD in its
# own scores: a reader fitted with a steep softmax (one teaching draw's temperature is 200,
# the grid's end) calls a lead of 0.001 sure. A card read "unknown" so is then read from
# the whole-card outlines its outline may be part of (`vision.pipeline`), which read most
# of them right. Measured on the real photos (bench/realphotos_read.py --shots 2 --seeds 3,
# the finder's outlines fixed; train_ cards found, right / wrong / unknown; with the
# completions' glyph levels and the corner check below): none isolated 941 / 3 / 11,
# every card 1,288 / 7 / 41; 0.03: 941 / 3 / 11, 1,289 / 6 / 41; 0.05:
# 941 / 3 / 11, 1,289 / 5 / 42; 0.08: 940 / 3 / 12, 1,287 / 5 / 44.
LEAD = 0.05
# ... and when a corner's index glyph reads another card class by INDEX_AGAINST or more
# (the glyph block's own scores, `LinearReader.index_against`) while the card's scores put
# that class within INDEX_CLOSE of the answer: the corner index is the surest cue a
# playing card gives, and where it says another rank and the rest of the card hardly
# prefers its own answer the answer is a guess (a king whose one corner reads K read J by
# the court picture; an outline holding two cards). Measured (the same; train_ isolated,
# every card): with the completions' glyph levels, none 941 / 5 / 9, 1,289 / 9 / 38; 0.25
# and 0.15: 941 / 3 / 11, 1,288 / 7 / 41; 0.25 and 0.1: 941 / 4 / 10, 1,288 / 8 / 40; on
# the code before them, none 938 / 5 / 12, 0.25 and 0.15 or 0.2 and 0.15: 938 / 3 / 14,
# 0.25 and any score: 934 / 3 / 18; with LEAD too, none 941 / 4 / 10, 1,289 / 6 / 41;
# 0.25 and 0.15: 941 / 3 / 11, 1,289 / 5 / 42.
# Where the runner-up trails by LEAD or more and the corners say it (and none says the
# answer as clearly), the runner-up is read instead (`_index_decides`): a king whose
# picture reads J by 0.10 and one corner K read K. Measured (bench/realphotos_read.py
# --shots 2 --seeds 3, isolated): 1,217 / 4 / 9 -> 1,218 / 4 / 8; with runners-up
# within LEAD too 1,219 / 4 / 7, but an overlapped queen whose corners show an ace's
# index read A (every card 14 -> 15 wrong).
INDEX_AGAINST = 0.25
INDEX_CLOSE = 0.15
# A face whose white frame shows only as the paper a glare streak whitened
# (`vision.whiteframe.frame_under_glare`) is read only this sure: with the frame check
# off, the glare stress's protocol 1 cards it refused read 25 right / 18 wrong / 53
# unknown (at their true corners), the right ones from 0.66 to 0.997. Taken at 0.98,
# bench/protocols.py --stress glare protocol 1 34 / 4 -> 41 / 6 (right / wrong; two read
# wrong at 0.980 and 0.983 on the finder's outlines); at 0.99 34 / 4 / 116 / 8 ->
# 39 / 4 / 111 / 8. Chosen on that bench: the margin is thin (docs/vision-history.md).
# Since session 17 (glare-paper) such a face is read balanced by its frame's paper with the
# streaks undone (`glare_free_features`), and the bar is asked of the symbol alone (its
# pooled probability; the colour as for any card): protocol 1 39 / 4 / 111 / 8 ->
# 84 / 4 / 66 / 8. At the true corners the faces so read: symbol >= 0.99 64 right / 0
# wrong, >= 0.98 67 / 1, >= 0.9 74 / 2. The bar on the whole confidence stays where the
# frame gives no paper fit.
GLARE_SURE = 0.99
# ... or this sure, when the undone face's templates agree (`_templates_agree`): a second
# look by another reader, its pixels against the taught faces' (docs/vision-history.md,
# session 21, helper glare-bar).
GLARE_SECOND = 0.8
# A framed colour deck's face read as it is (its frame shows) is asked the template reader
# too: another symbol it matches better by this much or more, on the face as it is and with
# its streaks undone, makes the answer "unknown" (`_templates_against`). Under glare the
# template reader disagreed with every wrong answer of protocol 1 on seeds 130-133 and 200
# (the fluorescent office's faces: 10 of 10) by 0.024-0.33 of a match, and with 7 right
# ones: 3 by 0.009-0.024 (the unstressed base set's two among them), 4 by 0.02-0.2 whose
# undone face the templates read right (docs/vision-history.md, session 22, helper glare-wrong).
TEMPLATES_AGAINST = 0.03
# A face on the frame-paper route the learned reader leaves "unknown" is read as the symbol
# the templates of its undone face put first at PICK_SURE or more, by PICK_LEAD over the
# next, where the learned reader reads it in one of its two views and the untouched ink
# names its colour (`_templates_pick`; docs/vision-history.md, session 24, glare-guess).
PICK_SURE = 0.9
PICK_LEAD = 0.02


@dataclass(frozen=True, eq=False)
class FaceFeatures:
    """A face's white-balanced Lab planes and ink (see `ink_planes`), and what each reader
    compares, computed when first asked for (a taught deck's learned reader needs only
    `hog` and `ink_colour`, Deckhand's own decks only `symbol` and `colour`):

    * `symbol`: the template at every shift of SHIFTS, upright then turned 180 degrees
      (2 * len(SHIFTS) x D, zero-mean, unit-norm; row 0 is upright and not shifted);
    * `colour`: the ink's hue after white balance (a 2-vector: the direction of its mean
      Lab a/b, of length 1 for a coloured card, near 0 for a black-and-white one);
    * `hog`: the learned reader's features (`vision.reader.hog_pair`);
    * `index`: its corner index block (`vision.reader.index_features`) of `regions`, the
      corner regions cut from the frame (`vision.reader.index_regions`; `wider` cuts the
      wider ones), or when not given cut from `face`, the picture the features were made of
      (`index_block`: that block, when the caller has already computed it); `index_rows`:
      the rows it is the mean of, one per corner showing a glyph (`index_found`: those,
      when the caller has already computed them);
    * `ink_colour`: the ink's hue and lightness for `vision.colour`."""

    lightness: np.ndarray
    a: np.ndarray
    b: np.ndarray
    ink: np.ndarray
    ink_cap: float = 0.0
    paper: np.ndarray | None = None   # BGR 0..1 the face was white-balanced by (its mean)
    face: np.ndarray | None = None    # the upright face given (BGR)
    regions: np.ndarray | None = None  # its corner regions cut from the frame
    wider: Callable[[], np.ndarray] | None = None  # its wider corner regions, cut when asked
    index_block: np.ndarray | None = None  # the index block of `regions`, when already computed
    index_found: np.ndarray | None = None  # its rows (`vision.reader.index_rows`), when already computed
    unseen: np.ndarray | None = None  # where a streak undone left too little to tell ink from paper (0 / 255)
    untouched: np.ndarray | None = None  # where no streak undone lay at all (bool; STREAK_UNTOUCHED)

    @cached_property
    def symbol(self) -> np.ndarray:
        ink = self.ink
        shape_ink = np.minimum(ink, self.ink_cap) if self.ink_cap > 0 else ink
        upright = shifted_templates(shape_ink)
        upright -= upright.mean(axis=1, keepdims=True)
        upright /= np.maximum(np.linalg.norm(upright, axis=1, keepdims=True), 1e-6)
        return np.concatenate([upright, upright[:, ::-1]]).astype(np.float32, copy=False)  # reversed raster: half turn

    @cached_property
    def colour(self) -> np.ndarray:
        a, b = self.a, self.b
        chroma = np.sqrt(a * a + b * b)
        chromatic = (self.ink > 25.0) & (chroma > 18.0)
        mean_ab = np.array([a[chromatic].mean(), b[chromatic].mean()], np.float32) \
            if chromatic.any() else np.zeros(2, np.float32)
        # The hue matters, not how saturated the light and blur leave it: a unit direction,
        # shrunk towards zero only for a card with (almost) no colour on it.
        strength = float(np.linalg.norm(mean_ab))
        share = min(1.0, float(chromatic.mean()) / 0.03)
        return mean_ab / max(strength, 1e-6) * min(1.0, strength / 15.0) * share

    @cached_property
    def hog(self) -> np.ndarray:
        if self.regions is not None and self.index_found is None:
            return self._hog_and_index_rows[0]
        return hog_pair(self.ink)

    @cached_property
    def _hog_and_index_rows(self) -> tuple[np.ndarray, np.ndarray]:
        # a reader of the corner index needs both: one pass of HOG for the card and its glyphs
        return hog_pair_and_index_rows(self.ink, self.regions, self.wider)

    @cached_property
    def index(self) -> np.ndarray:
        if self.index_block is not None:
            return self.index_block
        return index_block(self.index_rows)

    @cached_property
    def index_rows(self) -> np.ndarray:
        if self.index_found is not None:
            return self.index_found
        if self.regions is not None:
            return self._hog_and_index_rows[1]
        h, w = self.face.shape[:2]
        whole = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        return index_rows(index_regions(self.face, whole), partial(index_regions, self.face, whole, INDEX_WIDE))

    def learned(self, with_index: bool) -> np.ndarray:
        """The learned reader's features (2 x D): the HOG pair, and the index block after
        each row when the reader was trained with it."""
        if not with_index:
            return self.hog
        hog, index = self.hog, self.index
        # np.hstack of the pair and the block tiled twice, without their Python-level steps
        out = np.empty((2, hog.shape[1] + index.size), np.result_type(hog, index))
        out[:, :hog.shape[1]] = hog
        out[:, hog.shape[1]:] = index
        return out

    @cached_property
    def ink_colour(self) -> InkColour:
        return ink_colour(self.lightness, self.a, self.b, self.ink, self.paper)

    @cached_property
    def streaks(self) -> np.ndarray:
        """Where the ink shows glare streaks (`vision.glare.glare_mask`): asked by the glare
        check and then by the undone one (`_glare_unconfirmed`, `_undone_against`)."""
        return glare_mask(self.ink)

    @cached_property
    def off_hue(self) -> float:
        """The share of its coloured ink off the main hue (`vision.colour.off_hue_share`)."""
        return off_hue_share(self.a, self.b, self.ink)


def shifted_templates(ink: np.ndarray) -> np.ndarray:
    """The ink shrunk to TEMPLATE_SIZE at every shift of SHIFTS (rows, raveled; edges
    replicated). Where the width shrinks by a whole factor that divides SHIFT (the work
    size's 60 to 30 pixels), a sideways shift is a shift of whole template columns: one
    shrink per vertical shift, cut three ways (the same numbers as nine shrinks)."""
    padded = cv2.copyMakeBorder(ink, SHIFT, SHIFT, SHIFT, SHIFT, cv2.BORDER_REPLICATE)
    ih, iw = ink.shape
    tw, th = TEMPLATE_SIZE
    step = iw // tw
    if iw != step * tw or SHIFT % step:
        return np.asarray([cv2.resize(padded[SHIFT + dy:SHIFT + dy + ih, SHIFT + dx:SHIFT + dx + iw],
                                      TEMPLATE_SIZE, interpolation=cv2.INTER_AREA).ravel()
                           for dx, dy in SHIFTS], np.float32)
    rows = {dy: cv2.resize(padded[SHIFT + dy:SHIFT + dy + ih], (tw + 2 * SHIFT // step, th),
                           interpolation=cv2.INTER_AREA) for dy in {dy for _, dy in SHIFTS}}
    out = np.empty((len(SHIFTS), th, tw), np.float32)
    for i, (dx, dy) in enumerate(SHIFTS):
        out[i] = rows[dy][:, (SHIFT + dx) // step:(SHIFT + dx) // step + tw]
    return out.reshape(len(SHIFTS), -1)


@dataclass(frozen=True)
class Reading:
    """One card's answer. `label` is UNKNOWN when not confident; `turned` says the face
    was read upside down relative to its corners' order."""

    label: str
    colour: str
    confidence: float
    symbol_score: float
    turned: bool
    guess: str = ""      # the likeliest card even when the answer is UNKNOWN (benchmarks)
    doubted: bool = False  # UNKNOWN as two cards tie in the reader's own scores (`_doubtful`)
    # the symbol the template reader put first where not the answer's (`_templates_against`;
    # the first label showing it): UNKNOWN as it did so by TEMPLATES_AGAINST, else a doubt
    # (the steadiness check counts what each reader saw: `vision.steady.said`)
    templates_read: str = ""

    @property
    def known(self) -> bool:
        return self.label != UNKNOWN


def face_features(face: np.ndarray, ink_cap: float = 0.0, regions: np.ndarray | None = None,
                  wider: Callable[[], np.ndarray] | None = None, two_levels: bool = False) -> FaceFeatures:
    """Features of an upright face image (BGR uint8, any size of card shape); `regions`:
    its corner regions cut from the frame at full detail (`vision.reader.index_regions`;
    else they are cut from the face).

    `ink_cap` (0: none) limits the ink of the symbol template: every pixel clearly not
    paper counts alike, so a coloured panel's shade and the light on it stop mattering
    and only shapes are compared (taught decks, see `vision.teach`). The profile says
    which cap its templates were made with (`DeckProfile.ink_cap`). `two_levels`: see
    `paper_light` (decks read by the learned reader)."""
    lightness, a, b, ink, paper = ink_planes(face, two_levels)
    return FaceFeatures(lightness, a, b, ink, ink_cap, paper, face, regions, wider)


def card_features(frame: np.ndarray, corners: np.ndarray, profile: "DeckProfile",
                  regions: np.ndarray | None = None, index: np.ndarray | None = None,
                  rows: np.ndarray | None = None) -> FaceFeatures:
    """Features of the card outlined by `corners` in `frame`, as `profile` reads it: the
    face warped to WORK_SIZE, and the corner regions cut from the frame when its reader
    reads the corner index (`regions`: those already cut; `index`: their index block, when
    it showed a glyph, so the wider regions are not needed; `rows`: the rows it is the
    mean of, `vision.reader.index_rows`)."""
    reader = profile.reader
    if getattr(reader, "index", False):
        regions = index_regions(frame, corners) if regions is None else regions
        wider = partial(index_regions, frame, corners, INDEX_WIDE)
    else:
        regions = wider = None
    # a taught deck's card is averaged down, as in training (`learned_features`); Deckhand's
    # printed decks' templates were made from warps, and are read so
    learned = profile.reader is not None
    warp = warp_card_averaged if learned else warp_card
    features = face_features(warp(frame, corners, WORK_SIZE), profile.ink_cap, regions, wider,
                             two_levels=learned)
    return features if index is None else dataclasses.replace(features, index_block=index, index_found=rows)


def ink_planes(face: np.ndarray, two_levels: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                    np.ndarray, np.ndarray]:
    """A face (any size of card shape) at WORK_SIZE, less its margin, white-balanced by its
    paper: Lab lightness (0..100 of the paper), a, b (centred at 0), the ink strength
    (the colour distance from the paper, whatever the ink's colour) and the paper's mean
    colour as the camera saw it (BGR 0..1)."""
    inner = _inner(face)
    return _balanced_planes(inner, paper_light(inner, two_levels))


def _inner(face: np.ndarray) -> np.ndarray:
    """A face at WORK_SIZE less its margin, 0..1 (float32)."""
    w, h = WORK_SIZE
    if face.shape[1] != w or face.shape[0] != h:
        face = cv2.resize(face, WORK_SIZE, interpolation=cv2.INTER_AREA)
    return face[MARGIN:h - MARGIN, MARGIN:w - MARGIN].astype(np.float32) * (1 / 255)


def _balanced_planes(inner: np.ndarray, paper: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                                     np.ndarray, np.ndarray]:
    """`ink_planes` of the face `inner` (`_inner`) white-balanced by `paper` (its plane)."""
    balanced = inner / paper
    np.minimum(balanced, 1.0, out=balanced)
    # float Lab: OpenCV 5's 8-bit conversion costs six times as much (0.7 ms a card). Its
    # float output moves in steps of 1/64 or so, so the least change of the paper's fit
    # moves Lab, ink and every feature: faster code here must give the same bits.
    # three planes apart: every later step reads them whole, quicker than every third value
    lightness, a, b = cv2.split(cv2.cvtColor(balanced, cv2.COLOR_BGR2Lab))
    ink = np.subtract(100.0, lightness, dtype=np.float32)
    ink *= ink
    ink += a * a
    ink += b * b
    np.sqrt(ink, out=ink)
    return lightness, a, b, ink, np.array(cv2.mean(paper)[:3], np.float32)


def learned_features(image: np.ndarray, corners: np.ndarray | None = None) -> np.ndarray:
    """Only what the learned reader needs (training views): the HOG pair of the card
    outlined by `corners` in `image` (the whole image when None), and its corner index
    block after each row (2 x D)."""
    if corners is None:
        h, w = image.shape[:2]
        corners = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    pair, rows = hog_pair_and_index_rows(ink_planes(warp_card_averaged(image, corners, WORK_SIZE), two_levels=True)[3],
                                         index_regions(image, corners))
    # No wider second search for the glyph here (reading has one, `index_features`): in a
    # training view the corner regions miss the glyph only where it is hidden (a blob,
    # glare), and the wider ones then find something else, teaching the index block
    # noise. Measured on the real photos (teaching 2 photos a rank, 3 draws, isolated
    # train_ cards found, right / wrong / unknown): trained with it 87.3 / 2.3 / 10.3 %,
    # without 90.3 / 1.6 / 8.1.
    return np.hstack([pair, np.tile(index_block(rows), (2, 1))])


def _plane_basis(h: int, w: int) -> np.ndarray:
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    return np.stack([np.ones_like(xs), xs / w - 0.5, ys / h - 0.5], axis=-1)


_BASIS = _plane_basis(WORK_SIZE[1] - 2 * MARGIN, WORK_SIZE[0] - 2 * MARGIN)
_BASIS_SAMPLED = np.ascontiguousarray(_BASIS[::2, ::2].reshape(-1, 3))  # constants


def _basis_moments(x: np.ndarray) -> np.ndarray:
    """The products the paper fit's normal equations sum over the rows of the basis `x`
    (1, across, along): 1, u, v, uu, uv, vv (6 x n float64; the products of float32
    values are exact in double precision)."""
    one, u, v = x.T.astype(np.float64)
    return np.stack([one, u, v, u * u, u * v, v * v])


_MOMENTS = _basis_moments(_BASIS_SAMPLED)


def _plane_factors(basis: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(1, across) of each column and (1, along) of each row of a grid's basis (w x 2, h x 2)."""
    return np.ascontiguousarray(basis[0, :, :2]), np.ascontiguousarray(basis[:, 0, ::2])


_FACTORS = _plane_factors(_BASIS)
# The learned reader's paper fit samples every PAPER_STEP-th pixel each way (a plane needs
# few points; 4: 0.73 M instructions a fit against 1.00 M every other pixel, callgrind).
# Deckhand's printed decks keep every other pixel: their templates were made so.
PAPER_STEP = 4
_COARSE = np.ascontiguousarray(_BASIS[::PAPER_STEP, ::PAPER_STEP].reshape(-1, 3))
_COARSE_MOMENTS = _basis_moments(_COARSE)


def _plane(factors: tuple[np.ndarray, np.ndarray], coef: np.ndarray) -> np.ndarray:
    """`basis @ coef` (h x w x 3 float32), the same bits, in two small products.
    OpenBLAS's kernel sums a product's terms as fused multiply-adds in order (1 c0, then
    + across c1, then + along c2, each rounded once): so c0 + across c1 once a column
    (w x 3), then each pixel's row times (that sum, c2) with the sum as the first term,
    give its numbers (checked equal on 310 M random values and on every real card). A
    product of 5,160 rows of three cost four times this one of 86 rows of 180."""
    across, along = factors
    columns = across @ coef[:2]
    second = np.empty((2, columns.shape[0], 3), np.float32)
    second[0], second[1] = columns, coef[2]
    return (along @ second.reshape(2, -1)).reshape(along.shape[0], columns.shape[0], 3)


def paper_light(inner: np.ndarray, two_levels: bool = False) -> np.ndarray:
    """How the card's paper looks under this light at every pixel (h x w x 3): a plane
    per channel fitted to the paper (the brightest pixels, then those near the fit).
    Dividing by it white-balances the card and takes out a shadow or light falling off
    across it. `two_levels` (decks read by the learned reader, taught at the table): of
    two clearly separate levels among those pixels, the brighter (`_whitest`). Not for
    Deckhand's printed decks: a lamp's glare on part of a card makes two levels too (37
    of about 1,600 cards in 600 rendered scenes), and their templates are read as before."""
    step = PAPER_STEP if two_levels else 2
    if _BASIS.shape[:2] == inner.shape[:2]:
        factors = _FACTORS
        x, moments = (_COARSE, _COARSE_MOMENTS) if two_levels else (_BASIS_SAMPLED, _MOMENTS)
    else:
        basis = _plane_basis(*inner.shape[:2])
        factors = _plane_factors(basis)
        x = basis[::step, ::step].reshape(-1, 3)
        moments = _basis_moments(x)
    values = every_nth(inner, step).reshape(-1, 3)   # (`inner[::step, ::step]`'s copy, for less)
    bright = values[:, 0] + values[:, 1] + values[:, 2]
    k = int(bright.size * 0.75)
    paper = bright >= np.partition(bright, k)[k]
    doubles = values.astype(np.float64)
    coef = _plane_fit(x, moments, doubles, values, paper)
    paper = bright >= 0.88 * _channel_sum(x @ coef)
    coef = _plane_fit(x, moments, doubles, values, paper)
    whitest = _whitest(bright / np.maximum(_channel_sum(x @ coef), 1e-6), paper) if two_levels else None
    if whitest is not None:
        coef = _plane_fit(x, moments, doubles, values, whitest)
    plane = _plane(factors, coef)
    return np.maximum(plane, 0.05, out=plane)


FRAME_TRIM = (0.9, 1.05)   # frame samples kept for the paper: this share of the fit's brightness
FRAME_ROUNDS = 3           # trimmed fits of the frame's paper


def frame_paper(face: np.ndarray) -> np.ndarray | None:
    """How the card's paper looks at every pixel of the face's inner part (as
    `paper_light`; `face`: BGR at WORK_SIZE), fitted only to its white frame: along each
    side's middle two thirds, the whitest pixel across the frame's band
    (`vision.whiteframe.FRAME_BAND`), a plane per channel through those samples, fitted
    again FRAME_ROUNDS times on the samples within FRAME_TRIM of the fit's brightness (a
    glare streak crossing a side whitens a stretch of it, a corner or an outline off shows
    the field or the table). For a face whose frame shows only under a streak
    (`vision.whiteframe.frame_under_glare`): its brightest quarter, which `paper_light`
    fits, is the streak. None when too few samples stay."""
    fh, fw = face.shape[:2]
    h, w = fh - 2 * MARGIN, fw - 2 * MARGIN
    first, last = FRAME_BAND
    rows, cols = np.arange(fh // 6, fh - fh // 6), np.arange(fw // 6, fw - fw // 6)
    white = np.minimum(np.minimum(face[..., 0], face[..., 1]), face[..., 2])   # face.min(axis=2), for less
    ys, xs = [], []
    for start in (first, fw - last):           # left and right: across is x
        xs.append(start + white[rows, start:start + last - first].argmax(axis=1))
        ys.append(rows)
    for start in (first, fh - last):           # top and bottom: across is y
        ys.append(start + white[start:start + last - first, cols].argmax(axis=0))
        xs.append(cols)
    ys, xs = np.concatenate(ys), np.concatenate(xs)
    values = face[ys, xs].astype(np.float32) * (1 / 255)
    x = np.stack([np.ones(len(xs), np.float32), (xs - MARGIN).astype(np.float32) / w - 0.5,
                  (ys - MARGIN).astype(np.float32) / h - 0.5], axis=1)
    moments = _basis_moments(x)
    doubles = values.astype(np.float64)
    bright = _channel_sum(values)
    ratio = bright / max(float(np.median(bright)), 1e-6)   # the median first: most samples are paper
    keep = (ratio >= FRAME_TRIM[0]) & (ratio <= FRAME_TRIM[1])
    for _ in range(FRAME_ROUNDS):
        if np.count_nonzero(keep) < 12:
            return None
        coef = _plane_fit(x, moments, doubles, values, keep)
        ratio = bright / np.maximum(_channel_sum(x @ coef), 1e-6)
        keep = (ratio >= FRAME_TRIM[0]) & (ratio <= FRAME_TRIM[1])
    if np.count_nonzero(keep) < 12:
        return None
    coef = _plane_fit(x, moments, doubles, values, keep)
    plane = _plane(_FACTORS if (h, w) == _BASIS.shape[:2] else _plane_factors(_plane_basis(h, w)), coef)
    return np.maximum(plane, 0.05, out=plane)


# A pixel blended this far towards white by a streak is not read (docs/vision-history.md).
STREAK_UNSEEN = 0.6
# ... and one blended no further than this is as the camera saw it: its colour is the ink's
# own, whatever the undoing made of the rest (`_untouched_colour_agrees`).
STREAK_UNTOUCHED = 0.05


def glare_free_features(features: FaceFeatures) -> FaceFeatures | None:
    """`features` again with the face white-balanced by its frame's paper (`frame_paper`)
    instead of its brightest part, and its glare streaks undone against that paper
    (`vision.glare.undo_streaks`); None when the frame gives no fit. The corner index (cut
    from the frame) is kept."""
    undoing = _streaks_undone(features)
    return None if undoing is None else _undone_features(features, *undoing)


def _streaks_undone(features: FaceFeatures) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """The first steps of `glare_free_features`: the face's inner part with its streaks
    undone, its frame's paper, each pixel's blend towards the paper (`undo_streaks`) and
    where the streaks left too little to read (`unseen`); None when the frame gives no fit."""
    face = features.face
    if face.shape[1] != WORK_SIZE[0] or face.shape[0] != WORK_SIZE[1]:
        face = cv2.resize(face, WORK_SIZE, interpolation=cv2.INTER_AREA)
    paper = frame_paper(face)
    if paper is None:
        return None
    undone, blend = undo_streaks(_inner(face), paper)
    return undone, paper, blend, cv2.compare(blend, STREAK_UNSEEN, cv2.CMP_GT)


def _undone_features(features: FaceFeatures, undone: np.ndarray, paper: np.ndarray, blend: np.ndarray,
                     unseen: np.ndarray, index: bool = False) -> FaceFeatures:
    """The last step of `glare_free_features`. `index`: the corner index block and its
    rows are taken from `features` (computed already) instead of found again in the same
    corner regions."""
    lightness, a, b, ink, mean = _balanced_planes(undone, paper)
    kept = {"index_block": features.index, "index_found": features.index_rows} \
        if index and features.regions is not None else {}
    return dataclasses.replace(features, lightness=lightness, a=a, b=b, ink=ink, paper=mean, unseen=unseen,
                               untouched=blend <= STREAK_UNTOUCHED, **kept)


def _channel_sum(rows: np.ndarray) -> np.ndarray:
    """`rows.sum(axis=1)` of n x 3 float32 rows, the same bits (numpy adds a short axis
    in order), without a reduction's cost over a three-long axis."""
    return rows[:, 0] + rows[:, 1] + rows[:, 2]


def _plane_fit(x: np.ndarray, moments: np.ndarray, doubles: np.ndarray, values: np.ndarray,
               rows: np.ndarray) -> np.ndarray:
    """The least-squares plane per channel through `values[rows]` (coefficients of the
    basis `x`, 3 x 3 float32), as `np.linalg.lstsq` gives it: that solves in double
    precision by LAPACK's SVD and rounds to float32; here the 3 x 3 normal equations are
    solved in double precision and rounded the same way, a fraction of the cost. Their
    sums over the rows come from `moments` (`_basis_moments`) and `doubles` (`values` in
    double precision). The basis (1, across, along) is well conditioned, so the two
    double results differ far below a float32's last bit (every paper fit of the real
    photos' and the simulated protocols' cards was checked the same). A set of points
    that barely fixes a plane (a line of pixels) goes to lstsq, as before."""
    weights = rows.astype(np.float64)
    # the basis' products summed, then each basis row times each channel summed (row i, channel j at 3 i + j)
    sums = (moments @ weights).tolist() + ((moments[:3] * weights) @ doubles).ravel().tolist()
    g00, g01, g02, g11, g12, g22 = sums[:6]
    # the inverse of the symmetric 3 x 3 matrix of the equations, by its cofactors
    c00, c01, c02 = g11 * g22 - g12 * g12, g02 * g12 - g01 * g22, g01 * g12 - g02 * g11
    det = g00 * c00 + g01 * c01 + g02 * c02
    if not det > 1e-6 * g00 * g11 * g22:
        coef, *_ = np.linalg.lstsq(x[rows], values[rows], rcond=None)
        return coef
    c11, c12, c22 = g00 * g22 - g02 * g02, g01 * g02 - g00 * g12, g00 * g11 - g01 * g01
    inverse = ((c00, c01, c02), (c01, c11, c12), (c02, c12, c22))
    rhs = (sums[6:9], sums[9:12], sums[12:15])   # basis row i times channel j
    first, second, third = rhs
    return np.array([[(a * first[j] + b * second[j] + c * third[j]) / det for j in range(3)]
                     for a, b, c in inverse], np.float32)   # sum()'s order: the same doubles


PAPER_LEVELS = 0.06   # two levels of "paper" this far apart (of the paper's brightness) ...
PAPER_SHARE = 0.15    # ... each this share of the face at least, are a light colour and the paper


def _whitest(relative: np.ndarray, paper: np.ndarray) -> np.ndarray | None:
    """The brighter of two clearly separate levels among the pixels taken for paper, or
    None when they are one level (paper in light falling off, or in a soft shadow). A
    light colour field (a yellow face under a very warm dim lamp) can lie within 10 % of
    the paper's brightness, and a fit through both balances the card by neither."""
    levels = relative[paper]
    n = levels.size
    least = int(PAPER_SHARE * relative.size)
    # two levels PAPER_LEVELS apart, the smaller a share p >= PAPER_SHARE of them, spread
    # them at least PAPER_LEVELS * sqrt(p (1 - p)): most faces stop here, unsorted
    if least < 1 or n <= 2 * least or levels.std() < PAPER_LEVELS * np.sqrt(PAPER_SHARE * (1 - PAPER_SHARE)):
        return None
    levels = np.sort(levels)
    total = np.cumsum(levels)
    i = np.arange(least, n - least)           # split after i values (Otsu, each side big enough)
    low = total[i - 1] / i
    high = (total[-1] - total[i - 1]) / (n - i)
    j = int(np.argmax(i * (n - i) * (high - low) ** 2))
    cut = int(i[j])
    below, above = levels[:cut], levels[cut:]
    gap = float(above.mean() - below.mean())
    if gap < PAPER_LEVELS or gap * gap < 6.0 * float(below.var() + above.var()):
        return None
    return paper & (relative >= levels[cut])


@dataclass(frozen=True)
class Thresholds:
    min_symbol_score: float = 0.65     # NCC of the best template (built-in decks, rendered
                                       # scenes: cards read right >= 0.72, card backs <= 0.53)
    full_symbol_margin: float = 0.12   # a margin this large is full confidence
    colour_gate: float = 1.0           # labels whose colour prototype is further from the
                                       # card's hue (direction units, 1.0: 60 degrees) are ruled out
    max_colour_distance: float = 0.5   # two colours of one symbol this close are "similar" (teach)
    max_colour_veto: float = 0.2       # how much better a symbol ruled out by colour may match
    min_confidence: float = 0.12
    min_colour_confidence: float = 0.3  # colour mistakes cost most: a stricter bar


def classify(features: FaceFeatures, profile: "DeckProfile",
             thresholds: Thresholds = Thresholds(), light: np.ndarray | None = None) -> Reading:
    """The card a face shows, limited to the profile's labels, or UNKNOWN.

    Colour rules labels out first: only labels whose colour prototype is near the
    card's hue compete. Of those the best symbol wins; its margin is over the best
    competing label of another symbol class. Within its symbol class (a red 5 and a
    green 5) the colour decides, with its own margin. A profile with a learned reader
    is read by it instead (`classify_learned`; `light`: the scene's colour cast for a
    deck printed with no white, `vision.colour.scene_gain`)."""
    if profile.reader is not None:
        return classify_learned(features, profile, thresholds, light)
    shifts = len(features.symbol) // 2
    symbol = profile.whiten(features.symbol)
    plain = symbol[[0, shifts]]
    colour_gap = np.linalg.norm(profile.colour_protos - features.colour, axis=1)
    fits = colour_gap <= thresholds.colour_gate
    if not fits.any():
        label_scores = _label_scores(profile, plain)
        top = int(label_scores.argmax())
        return Reading(UNKNOWN, "", 0.0, round(float(label_scores[top]), 3), False)
    # A symbol class competes when any of its colours fits: the symbol is judged on shape
    # alone (a yellow 9 read a little off must not lose to a 6 because a blue 9 matched
    # it best), and the colour picks the card within the class below.
    class_fits = _members(profile.symbol_class, profile.symbol_class[fits])
    # The best few labels are compared again at every shift: a card found a pixel or two
    # off is still read by its best alignment. They are chosen by a first pass over every
    # template by matrix-vector products, when it proves the full pass's choice
    # (`vision.firstpass`; the labels not chosen then stay out of the comparison below,
    # where the full pass's scores could not win either); else the full pass.
    pruned = first_pass(profile.templates, profile.label_starts, profile.symbol_class, plain,
                        class_fits, CANDIDATES, _best_of_classes)
    if pruned is None:
        label_scores = _label_scores(profile, plain)
        competing = np.where(class_fits, label_scores, -np.inf)
        best = _best_of_classes(competing, profile.symbol_class, CANDIDATES)
        upper = label_scores
    else:
        best, upper = pruned
        label_scores = None
        competing = np.full(len(profile.labels), -np.inf)
    stops = np.append(profile.label_starts[1:], len(profile.templates))
    turned_of = {}
    # one matrix product for all their templates (quicker than one a label); each label's
    # templates are one run of rows, copied whole (a gather row by row costs more)
    candidates = np.concatenate([profile.templates[profile.label_starts[label]:stops[label]] for label in best]) \
        if best else profile.templates[:0]
    blocks = candidates @ symbol.T
    top = 0
    for label in best:
        block = blocks[top:top + stops[label] - profile.label_starts[label]]
        top += len(block)
        flat = int(block.argmax())
        competing[label] = float(block.flat[flat])
        turned_of[label] = flat % block.shape[1] >= shifts
    top = int(competing.argmax())
    top_score = float(competing[top])
    in_group = profile.symbol_class == profile.symbol_class[top]
    compared = np.zeros(len(competing), bool)
    compared[best] = True
    rivals = competing[~in_group & compared]
    margin = top_score - (float(rivals.max()) if np.isfinite(rivals).any() else -1.0)
    symbol_conf = min(1.0, max(0.0, margin / thresholds.full_symbol_margin))
    if top_score < thresholds.min_symbol_score:
        symbol_conf = 0.0
    ruled_out = ~class_fits   # the same symbol in a colour ruled out is no rival
    if ruled_out.any() and float(upper[ruled_out].max()) - top_score > thresholds.max_colour_veto:
        if label_scores is None:   # a bound only: the full pass's scores decide
            label_scores = _label_scores(profile, plain)
        if float(label_scores[ruled_out].max()) - top_score > thresholds.max_colour_veto:
            symbol_conf = 0.0  # colour ruled out a clearly better symbol: the two disagree

    # The colour decides only within a symbol class (a red 5 and a green 5): there its
    # confidence is how much nearer the chosen colour is than the class's next one. A
    # symbol printed in one colour only (a Flip 7 number, a Solo wild) needs its colour
    # just to pass the gate above: the light, a lamp's clipped paper or a multicoloured
    # print move a hue by 30-50 degrees, and no other card lies that way.
    members = np.flatnonzero(in_group & fits)
    distances = colour_gap[members]
    ranked = np.argsort(distances)
    chosen = int(members[ranked[0]])
    nearest = float(distances[ranked[0]])
    colour_conf = 1.0
    if len(members) > 1:
        second = float(distances[ranked[1]])
        colour_conf = min(1.0 - nearest / thresholds.colour_gate,
                          (second - nearest) / max(second, 1e-6) * 2.0)
    colour_conf = min(1.0, max(0.0, colour_conf))

    if colour_conf < thresholds.min_colour_confidence:
        colour_conf = 0.0
    confidence = round(min(symbol_conf, colour_conf), 3)
    turned = turned_of.get(chosen, turned_of.get(top, False))
    if confidence < max(thresholds.min_confidence, profile.min_confidence):
        return Reading(UNKNOWN, "", confidence, round(top_score, 3), turned)
    return Reading(profile.labels[chosen], profile.colours[chosen], confidence,
                   round(top_score, 3), turned)


def _label_scores(profile: "DeckProfile", plain: np.ndarray) -> np.ndarray:
    """Each label's best template score over the face and its turn (`plain`, 2 x D): the
    full first pass."""
    scores = profile.templates @ plain.T                        # (templates, 2)
    # the better turn of each template: `scores.max(axis=1)`'s values, without a
    # reduction's set-up over a two-long axis (15 us a read against 1)
    return np.maximum.reduceat(np.maximum(scores[:, 0], scores[:, 1]), profile.label_starts)


def _members(values: np.ndarray, chosen: np.ndarray) -> np.ndarray:
    """`np.isin(values, chosen)` for small non-negative integers (symbol classes), by a
    lookup table: the same answer without isin's sorting."""
    table = np.zeros(int(values.max(initial=0)) + 1, bool)
    table[chosen] = True
    return table[values]


def _best_of_classes(scores: np.ndarray, classes: np.ndarray, count: int) -> list[int]:
    """The best-scoring label of each of the `count` best symbol classes (finite scores
    only): a symbol printed in four colours would otherwise take four of the places
    compared again at every shift, and a symbol matching best only when shifted would
    never be compared."""
    chosen, seen = [], set()
    order = np.argsort(-scores)
    # as Python numbers: a loop over numpy scalars costs more than the sort
    for label, score, symbol in zip(order.tolist(), scores[order].tolist(), classes[order].tolist()):
        if not math.isfinite(score) or len(chosen) == count:
            break
        if symbol not in seen:
            seen.add(symbol)
            chosen.append(label)
    return chosen


# How far a face's coloured ink off the main hue may lie from its label's taught faces'
# (`_unlike_taught_inks`): measured on protocol 2, see docs/vision-history.md, "A bare table's coupon".
OFF_HUE_ABOVE = 0.06
OFF_HUE_BELOW = 0.5
OFF_HUE_SURE = 0.9
# A face of a colour-field deck shows at least this share of the field its taught faces
# show, low (`_without_field`), on the part of it no glare streak covers, or at least
# FIELD_CLEAR_LEAST of it (`field_seen`).
FIELD_KEPT = 0.5
FIELD_CLEAR_LEAST = 0.5


def classify_learned(features: FaceFeatures, profile: "DeckProfile",
                     thresholds: Thresholds = Thresholds(), light: np.ndarray | None = None,
                     undone: bool = False) -> Reading:
    """The learned reader's answer: the symbol's probability (`vision.reader`; the reader's
    classes of one symbol in several colours pooled, `vision.colour.symbol_groups`) times
    how well the ink's colour fits each label's colour (`vision.colour`), made a
    probability again. Within a symbol the colour alone picks the label. The confidence
    is that probability; below the profile's bar (or when "no card" is likelier) the
    answer is UNKNOWN. `undone`: the features are a face's glare streaks undone against
    its frame's paper (`glare_free_features`), read as they are (no frame check, no
    second undoing) and only for the likeliest card (`Reading.guess`, with the label
    UNKNOWN: the checks that can only make an answer unknown are not made)."""
    reader = profile.reader
    bar = max(thresholds.min_confidence, profile.min_confidence)
    sure = 0.0   # the symbol's own probability asked for
    seen = features   # the face as the camera saw it, before any streak is undone
    if profile.white_frame and features.face is not None and not undone and not shows_frame(features.face):
        if not frame_under_glare(features.face):
            return Reading(UNKNOWN, "", 0.0, 0.0, False, UNKNOWN)   # no side shows the deck's white frame
        # a frame seen only under a streak: the face balanced by its frame's paper and the
        # streaks undone, then only a sure symbol is taken
        glare_free = glare_free_features(features)
        if glare_free is None:
            bar = max(bar, GLARE_SURE)
        else:
            features, sure = glare_free, GLARE_SURE
    # The CNN reader (vision.cnn) reads the ink map itself, the linear one its HOG (and
    # trusts the corner index more when both corners show the same glyph).
    if isinstance(reader, CnnReader):
        scores, turned = reader.scores(features.ink)
    else:
        agreed = reader.index and reader.corners_agree(features.index_rows)
        scores, turned = reader.scores(features.learned(reader.index), agreed)
    p = reader.probabilities(scores)
    groups = symbol_groups(profile.labels, profile.colours)
    card = reader.classes >= 0
    group_of = np.where(card, groups[np.maximum(reader.classes, 0)], -1)
    pooled = np.bincount(group_of[card], weights=p[card], minlength=len(groups))
    per_label = pooled[groups]
    none = float(p[~card].sum())
    doubt = max(0.0, 1.0 - float(p.sum()))
    if profile.inks and features.ink_colour is not None:
        fit = likelihoods(features.ink_colour, profile.inks, list(profile.colours), light, profile.ink_examples,
                          profile.ink_lights)
        named = with_prototype(profile.colours, tuple(profile.inks))
        if named.any():
            # relative to the best named colour: a label with no colour (a wild) fits any ink
            # at 1, and against it a dim light's poor fit of every prototype made each
            # coloured card less sure than in a deck with no such label
            fit = np.where(named, fit / max(float(fit[named].max()), FLOOR), fit)
        # the label's share of its symbol: its colour's fit among the symbol's colours,
        # times how well the symbol's best colour fits at all
        best = np.zeros(len(groups))
        np.maximum.at(best, groups, fit)
        total = np.bincount(groups, weights=fit, minlength=len(groups))
        # a symbol whose taught colours all fit worse than another colour of the deck is
        # likely that symbol in a colour not taught: that share is nobody's (unknown)
        other = 1.0 if named.any() else 0.0
        untaught = float((pooled * np.maximum(other - best, 0.0)).sum())
        per_label = per_label * fit * best[groups] / total[groups]
        # "no card" and the doubt take the best colour fit: colour alone never makes a card
        none, doubt = none * fit.max(), doubt * fit.max() + untaught
    else:   # no colour to tell a symbol's labels apart: each gets an equal share
        per_label = per_label / np.bincount(groups, minlength=len(groups))[groups]
    norm = float(per_label.sum()) + none + doubt
    top = int(per_label.argmax())
    confidence = round(float(per_label[top]) / max(norm, 1e-12), 3)
    # two colours of the symbol alike (`vision.colour`: under a light neither was taught in)
    # are no answer, however sure the symbol (rounded, half of a sure symbol's share passed the bar)
    tied = bool(profile.inks) and int((per_label[groups == groups[top]] >= per_label[top]).sum()) > 1
    members = np.flatnonzero(group_of == groups[top])
    best_class = int(members[p[members].argmax()]) if len(members) else int(p.argmax())
    symbol_score = round(float(scores[best_class]), 3)
    if none >= per_label[top]:
        return Reading(UNKNOWN, "", 0.0, symbol_score, bool(turned[best_class]), UNKNOWN)
    symbol_p = float(pooled[groups[top]])
    if confidence < bar or tied or symbol_p < sure and not (
            sure == GLARE_SURE and symbol_p >= GLARE_SECOND and
            _templates_agree(features, profile, groups, groups[top], thresholds) and
            _untouched_colour_agrees(features, profile, light, top)):
        if sure == GLARE_SURE and not isinstance(reader, CnnReader):
            picked = _templates_pick(features, profile, groups, group_of, per_label,
                                     reader.views(features.learned(reader.index), agreed), light)
            if picked >= 0 and not _without_field(profile, seen):
                members = np.flatnonzero(group_of == groups[picked])
                best_class = int(members[p[members].argmax()])
                return Reading(profile.labels[picked], profile.colours[picked],
                               round(float(per_label[picked]) / max(norm, 1e-12), 3),
                               round(float(scores[best_class]), 3), bool(turned[best_class]), profile.labels[picked])
        return Reading(UNKNOWN, "", confidence, symbol_score, bool(turned[best_class]), profile.labels[top])
    if not isinstance(reader, CnnReader) and _doubtful(reader, features, scores, members):
        rival = _index_decides(reader, features, scores, members)
        if rival < 0:
            return Reading(UNKNOWN, "", 0.0, symbol_score, bool(turned[best_class]), profile.labels[top], True)
        # a corner glyph reads the runner-up: that card (its symbol's best label, by
        # colour as above), as sure as the picture is of the two together
        pair = top
        rivals = np.flatnonzero(groups == groups[reader.classes[rival]])
        top = int(rivals[per_label[rivals].argmax()])
        confidence = round(float(per_label[top] + per_label[pair]) / max(norm, 1e-12), 3)
        if confidence < bar:
            return Reading(UNKNOWN, "", confidence, symbol_score, bool(turned[best_class]), profile.labels[top])
        best_class, symbol_score = rival, round(float(scores[rival]), 3)
    if undone:   # the likeliest card is decided: the checks below leave it as it is
        return Reading(UNKNOWN, "", confidence, symbol_score, bool(turned[best_class]), profile.labels[top])
    if features.unseen is not None and not isinstance(reader, CnnReader) and \
            _unseen_against(reader, features, bool(turned[best_class]), group_of, groups[top]) and \
            not _unseen_second_look(features, profile, groups, top, thresholds, light):
        return Reading(UNKNOWN, "", 0.0, symbol_score, bool(turned[best_class]), profile.labels[top])
    # a wild is asked too, though its four-colour oval can be taken for streaks (a clean
    # Wild then reads "unknown"): unasked, a pale square of paper on a bare table read Wild
    if any(profile.colours) and not isinstance(reader, CnnReader) and \
            _glare_unconfirmed(reader, features, bool(turned[best_class]), group_of, groups[top],
                               partial(profile.taught_ink, top)):
        return Reading(UNKNOWN, "", 0.0, symbol_score, bool(turned[best_class]), profile.labels[top])
    if _unlike_taught_inks(profile, top, features, confidence):
        return Reading(UNKNOWN, "", 0.0, symbol_score, bool(turned[best_class]), profile.labels[top])
    if _without_field(profile, seen):
        return Reading(UNKNOWN, "", 0.0, symbol_score, bool(turned[best_class]), profile.labels[top])
    if profile.white_frame and profile.colours[top] and not undone and features.unseen is None and \
            features.face is not None and not isinstance(reader, CnnReader) and \
            _undone_against(features, profile, thresholds, light, top):
        return Reading(UNKNOWN, "", 0.0, symbol_score, bool(turned[best_class]), profile.labels[top])
    templates_read = ""
    if profile.white_frame and profile.colours[top] and not undone and not sure and features.face is not None \
            and not isinstance(reader, CnnReader):
        templates_read, against = _templates_against(features, profile, groups, groups[top])
        if against:
            return Reading(UNKNOWN, "", 0.0, symbol_score, bool(turned[best_class]), profile.labels[top],
                           templates_read=templates_read)
    return Reading(profile.labels[top], profile.colours[top], confidence, symbol_score,
                   bool(turned[best_class]), profile.labels[top], templates_read=templates_read)


def _unseen_second_look(features: FaceFeatures, profile: "DeckProfile", groups: np.ndarray, label: int,
                        thresholds: Thresholds, light: np.ndarray | None) -> bool:
    """Whether a face read undone against its frame's paper (the frame-paper route), whose
    answer (the label number `label`) the cells its strongest streaks left unseen do not
    confirm (`_unseen_against`), is taken on a second look that agrees: the template
    reader's comparison of the undone face puts its symbol first (`_templates_agree`) and
    the ink no streak touched names its colour (`_untouched_colour_agrees`), as for an unsure
    undone symbol. The cells left after a warm lamp's broad streak are too few to tell
    a symbol by: of 119 answers the unseen check refused on the glare draws of both
    protocols, 115 named the true card, and the four others (a Yellow 1 read Yellow 3,
    a Green 2 read Green 5, a Blue 4 and a Yellow 6 read green and red under the warm
    cheap webcam) stay "unknown". bench/protocols.py --stress glare (stored profiles,
    right / wrong / unknown / not found): seeds 116-117, 130-133, 174-175, 184, 200-205 and
    the session-13 set, protocol 1 1,421 / 6 / 920 / 83 -> 1,502 / 6 / 839 / 83 of 2,430,
    protocol 2 664 / 36 / 841 / 187 -> 700 / 36 / 805 / 187 of 1,728; the helper's own
    draws 280-281 (read once, after) 270 / 17 -> 284 / 17 of 540 (docs/vision-history.md,
    session 23, helper glare-unknown)."""
    return _templates_agree(features, profile, groups, groups[label], thresholds) and \
        _untouched_colour_agrees(features, profile, light, label)


def _templates_pick(features: FaceFeatures, profile: "DeckProfile", groups: np.ndarray, group_of: np.ndarray,
                    per_label: np.ndarray, views: np.ndarray, light: np.ndarray | None) -> int:
    """The label (its number) a face read undone against its frame's paper (the
    frame-paper route) is taken as where the learned reader left it "unknown", or -1: the
    symbol the template reader puts first (`_template_symbols`) at PICK_SURE or more, by
    PICK_LEAD or more over the next symbol, printed in one colour, that the learned reader
    reads best in one of its two views (the face as it lies or turned half round:
    `LinearReader.views`); the label of that symbol its colour fit prefers (`per_label`,
    the learned reading's shares, none tied), whose colour the ink no streak touched names
    (`_untouched_colour_agrees`). Three readers agree: the templates match the undone ink
    itself, the learned reader the HOG of its edges (where a streak's seams make an 8 read
    3 turned round), the colour the ink the glare left alone. On 15 seen glare runs, each
    unknown card at its outline: the undone templates put the true symbol first for 270 of
    the route's 317 unsure symbols (the learned reader 173); the rule, chosen there, took
    153 of them, all right. bench/protocols.py --stress glare --reuse, right / wrong: the
    helper's own draws 320-321, read once after, both protocols 287 / 6 -> 324 / 6 of 540;
    the session-13 set 155 / 1 -> 169 / 1 (docs/vision-history.md, session 24, helper
    glare-guess)."""
    per_symbol = _template_symbols(features, profile, groups)
    ranked = np.argsort(-per_symbol)
    symbol = int(ranked[0])
    if float(per_symbol[symbol]) < PICK_SURE or \
            len(ranked) > 1 and float(per_symbol[symbol] - per_symbol[ranked[1]]) < PICK_LEAD:
        return -1
    labels = np.flatnonzero(groups == symbol)
    if not all(profile.colours[label] for label in labels):
        return -1
    if not any(group_of[int(np.argmax(view))] == symbol for view in views):
        return -1
    label = int(labels[per_label[labels].argmax()])
    if int((per_label[labels] >= per_label[label]).sum()) > 1:
        return -1
    return label if _untouched_colour_agrees(features, profile, light, label) else -1


def _templates_agree(features: FaceFeatures, profile: "DeckProfile", groups: np.ndarray, answer: int,
                     thresholds: Thresholds) -> bool:
    """Whether the template reader (the face's ink against every taught template, whitened,
    at every shift and both turns: `classify`'s comparison) puts the symbol `answer` (its
    index in `groups`, each label's symbol) first, and matches it at least as well as a
    card it reads (`Thresholds.min_symbol_score`). A second look at a face whose streaks
    were undone (`glare_free_features`) and whose symbol the learned reader is unsure of
    (GLARE_SECOND to GLARE_SURE): the learned reader weighs the HOG of the ink's edges,
    where an undone streak's seams lie, and the templates the ink itself (a Yellow 8 undone
    read Yellow 3 at 0.987; its templates read 8). bench/protocols.py --stress glare, the
    symbol bar 0.99 -> 0.8 with both looks, right / wrong: seeds 130-133, both protocols,
    414 / 28 -> 538 / 28 of 1,080; the session-13 glare set 120 / 1 -> 141 / 1 (the bar
    lowered alone: 141 / 7). docs/vision-history.md, session 21, helper glare-bar."""
    per_symbol = _template_symbols(features, profile, groups)
    best = int(per_symbol.argmax())
    return best == answer and float(per_symbol[best]) >= thresholds.min_symbol_score


def _template_symbols(features: FaceFeatures, profile: "DeckProfile", groups: np.ndarray) -> np.ndarray:
    """The template reader's match of each symbol (its index in `groups`, each label's
    symbol): the face's ink against every taught template, whitened as the profile's
    templates are, at every shift and both turns, the best of the symbol's labels."""
    symbol = profile.whiten(features.symbol)
    per_template = (profile.templates @ symbol.T).max(axis=1)
    per_label = np.maximum.reduceat(per_template, profile.label_starts)
    per_symbol = np.full(int(groups.max()) + 1, -np.inf)
    np.maximum.at(per_symbol, groups, per_label)
    return per_symbol


def template_match(features: FaceFeatures, profile: "DeckProfile", label: str) -> float:
    """How well the template reader (`_template_symbols`) matches the symbol of `label` on
    the face `features`: the best of that symbol's taught templates (NCC, whitened)."""
    groups = symbol_groups(profile.labels, profile.colours)
    return float(_template_symbols(features, profile, groups)[groups[list(profile.labels).index(label)]])


def _templates_against(features: FaceFeatures, profile: "DeckProfile", groups: np.ndarray,
                       answer: int) -> tuple[str, bool]:
    """The symbol the template reader (`_template_symbols`) puts first where it is not
    `answer` (its index in `groups`; the first label showing it, "" where it is the
    answer), and whether it stands against the answer: it puts another symbol first by
    TEMPLATES_AGAINST or more over the answer's own match, and still puts another first
    once the face's glare streaks are undone against its frame's paper (`_streaks_undone`,
    the symbol then the undone face's; a frame giving no paper fit counts as another). Under the fluorescent office's light a streak is barely whiter than the
    paper: the frame shows, `glare_mask` sees little or nothing, and a streak across a
    digit makes another the learned reader is sure of (a Yellow 4 read Yellow 3 at 0.93, a
    Green 3 read Green Skip at 0.93), while the template reader, matching the ink itself
    rather than the HOG of its edges, still reads the digit (the 4 at 0.93 against the
    3's 0.85; the 3 at 0.84 against the Skip's 0.75). Where a streak fools the templates instead (a Red 6's
    templates read Draw Two), undone they read the answer again and it stands."""
    per_symbol = _template_symbols(features, profile, groups)
    best = int(per_symbol.argmax())
    if best == answer:
        return "", False
    if float(per_symbol[best] - per_symbol[answer]) < TEMPLATES_AGAINST:
        return profile.labels[best], False
    undoing = _streaks_undone(features)
    if undoing is not None:
        best = int(_template_symbols(_undone_features(features, *undoing), profile, groups).argmax())
    return ("", False) if best == answer else (profile.labels[best], True)


def _untouched_colour_agrees(features: FaceFeatures, profile: "DeckProfile", light: np.ndarray | None,
                             label: int) -> bool:
    """Whether the colour of the ink no streak touched (`FaceFeatures.untouched`) fits the
    label number `label`'s colour at least as well as any other colour of the deck (always,
    for a label printed in no one colour, a deck with no inks taught, or a face with no
    streak undone). Undone against a dim webcam's frame, a streak's blend can turn a blue
    field green (hue 123 degrees, where its untouched ink reads 247: a Blue 7 read Green 7
    at 0.90 once the symbol bar was lowered to GLARE_SECOND)."""
    if features.untouched is None or not profile.colours[label] or not profile.inks:
        return True
    ink = np.where(features.untouched, features.ink, np.float32(0.0))
    seen = ink_colour(features.lightness, features.a, features.b, ink, features.paper)
    fit = likelihoods(seen, profile.inks, list(profile.colours), light, profile.ink_examples, profile.ink_lights)
    named = np.array([bool(c) for c in profile.colours])
    return bool(fit[label] >= fit[named].max())


def _undone_against(features: FaceFeatures, profile: "DeckProfile", thresholds: Thresholds,
                    light: np.ndarray | None, answer: int) -> bool:
    """Whether a framed deck's face that shows its frame, but glare streaks on more than
    GLARE_SHARE of it (`vision.glare.glare_mask`), reads another symbol with its streaks
    undone against its frame's paper (`glare_free_features`; the reading's likeliest card,
    sure or not), where streaks strong enough to hide the ink (`unseen`, STREAK_UNSEEN)
    cover more than GLARE_SHARE of it too. Under a light the frame still shows through, the face is balanced by
    its brightest part as any other, and a streak across a digit can make another digit
    the reader is sure of (a Green 1 read Green 3 at 0.93); undone, such a face reads its
    own card or is unsure, seldom the same wrong one. Only the symbol is compared: the
    frame's paper balances the colour a little otherwise than the brightest part (a clean
    Blue 4 undone read Green 4), and where no streak hides ink there is nothing to undo (a
    clean Yellow 8 undone read Yellow 0). Only a label printed in one colour is asked: the
    undoing knows a face of paper, one field colour and black, and a wild's four-colour oval
    on its black field comes out as streaks (a clean Wild undone read Red 5).
    `answer`: the reading's label (its index).
    bench/protocols.py --stress glare, fresh draws (seeds 80-82, both protocols): right /
    wrong 323 / 37 -> 326 / 13; the session-13 glare set 116 / 7 -> 115 / 2; elsewhere no
    wrong answer added, 4 right made unknown in about 1,400 reads (docs/vision-history.md,
    session 20, helper glare)."""
    if not glare_share(features.streaks) > GLARE_SHARE:
        return False
    undoing = _streaks_undone(features)
    if undoing is None or not cv2.countNonZero(undoing[3]) > GLARE_SHARE * undoing[3].size:
        return False
    glare_free = _undone_features(features, *undoing, index=True)
    said = classify_learned(glare_free, profile, thresholds, light, undone=True).guess
    if said == UNKNOWN:
        return False
    groups = symbol_groups(profile.labels, profile.colours)
    return bool(groups[profile.labels.index(said)] != groups[answer])


def _unlike_taught_inks(profile: "DeckProfile", label: int, features: FaceFeatures, confidence: float) -> bool:
    """Whether the face shows its coloured ink split between hues unlike the taught faces
    of the label it reads as (`DeckProfile.off_hues`): a label with a colour name is
    printed in that one ink, so more of it off the main hue than its taught faces showed at
    most, by OFF_HUE_ABOVE, is another ink (a coupon's yellow field round a green ring
    read Yellow 0 at 0.65-0.82) unless the reading is sure (OFF_HUE_SURE: a blue card
    under a light turning part of it green read right at 0.97); a label with none printed
    in several (a wild) showing under OFF_HUE_BELOW of the least its taught faces showed
    lacks its colours (the same coupon read Wild Draw Four at 0.92). Nothing is judged
    where no taught face of the label, or the face itself, shows coloured ink, nor on a
    face whose glare streaks were undone (`unseen`: the undoing leaves its own colour)."""
    if not profile.off_hues or features.unseen is not None:
        return False
    least, most = profile.off_hues[label]
    if not np.isfinite(least) or (profile.colours[label] and confidence >= OFF_HUE_SURE):
        return False
    share = features.off_hue
    if not np.isfinite(share):
        return False
    if profile.colours[label]:
        return share > most + OFF_HUE_ABOVE
    return share < least * OFF_HUE_BELOW


def _without_field(profile: "DeckProfile", features: FaceFeatures) -> bool:
    """Whether the face shows less of a colour field (`vision.colour.field_ink`) than
    FIELD_KEPT of what the deck's taught faces showed, low (`DeckProfile.field_share`):
    no card of a colour-field deck, whatever its symbol reads. Real business cards (a black
    bird on pale paper) read Red 1 at 0.79-0.90, a box's blue icon Blue 3, a glazed
    canister's grey stripes Yellow 1, all on bare tables; their field shares 0.02-0.13,
    the right answers' 0.37 and more (docs/vision-history.md, session 22, bare-field).
    Asked of the face as seen, not with its streaks undone: undone against its frame's
    paper under the very warm dim webcam, a Green 5's field lost its hue (0.55 -> 0.20)
    and the card was refused (glare, protocol 1)."""
    if profile.field_share <= 0 or features.ink_colour is None:
        return False
    return field_seen(features) < FIELD_KEPT * profile.field_share


def field_seen(features: FaceFeatures) -> float:
    """The share of the face's part no glare streak covers (`FaceFeatures.streaks`; never
    less than FIELD_CLEAR_LEAST of it) that is its colour field (`InkColour.field`): where a
    streak washes a dark field to a grey neither coloured nor dark, the field is not
    seen there, nor is it missing (a warm lamp cheap webcam's Blue 1, a light spot on a
    quarter of it: 0.23 of the face counted as field against a bar of 0.26; 0.30 of its
    clear part)."""
    clear = 1.0 - glare_share(features.streaks)
    return features.ink_colour.field / max(clear, FIELD_CLEAR_LEAST)


def _doubtful(reader, features: FaceFeatures, scores: np.ndarray, members: np.ndarray) -> bool:
    """Whether the linear reader's answer (its classes `members`) is a guess however sure
    its probability: it leads another class by less than LEAD in `scores`, or a corner
    glyph reads a class close behind it as another card (INDEX_AGAINST, INDEX_CLOSE)."""
    kept = np.ones(len(scores), bool)
    kept[members] = False
    rest = scores[kept]   # np.delete(scores, members), without its Python-level steps
    if len(rest) and float(scores[members].max() - rest.max()) < LEAD:
        return True
    return bool(reader.index) and reader.index_against(features.index_rows, members, scores,
                                                       INDEX_AGAINST, INDEX_CLOSE)


def _index_decides(reader, features: FaceFeatures, scores: np.ndarray, members: np.ndarray) -> int:
    """The runner-up card class a doubted answer (`_doubtful`) is read as instead, or -1.
    The runner-up (the best class outside `members`, a card) trails the answer by LEAD
    or more but by no more than INDEX_CLOSE in `scores`, a corner glyph reads it
    INDEX_AGAINST or more above every class of `members`, and no corner glyph reads the
    answer that much above it: the picture prefers one of two cards, the corner index
    (the surest cue) says the other. A runner-up within LEAD is not taken: there the
    picture tells nothing and the outline may hold two cards, one's picture and the
    other's corner (an overlapped queen whose corners show an ace's index read A)."""
    if not reader.index or not len(features.index_rows):
        return -1
    kept = np.ones(len(scores), bool)
    kept[members] = False
    rival = int(np.flatnonzero(kept)[scores[kept].argmax()])
    if reader.classes[rival] < 0 or float(scores[members].max() - scores[rival]) < LEAD:
        return -1
    if not reader.index_against(features.index_rows, members, scores, INDEX_AGAINST, INDEX_CLOSE, only=rival):
        return -1
    if reader.index_against(features.index_rows, np.array([rival]), scores, INDEX_AGAINST, np.inf,
                            only=int(members[scores[members].argmax()])):
        return -1
    return rival


def _unseen_against(reader, features: FaceFeatures, turned: bool, group_of: np.ndarray, answer: int) -> bool:
    """Whether the linear reader's score over the cells a streak undone leaves readable
    (`FaceFeatures.unseen` out, `vision.glare.clear_cells`) puts another symbol (or "no
    card") first than the answer's symbol `answer`: where the streak was strongest, ink
    and paper blend to nearly the same white, and which was there is a guess."""
    mask = features.unseen
    if not cv2.countNonZero(mask):
        return False
    row = features.learned(reader.index)[int(turned)]
    keep = clear_cells(mask[::-1, ::-1] if turned else mask, len(row))
    return bool(group_of[int(np.argmax(masked_scores(reader, row, keep)))] != answer)


def _glare_unconfirmed(reader, features: FaceFeatures, turned: bool, group_of: np.ndarray, answer: int,
                       taught: Callable[[], np.ndarray] | None = None) -> bool:
    """Whether a glossy colour deck's face shows glare streaks (`vision.glare`) on more
    than GLARE_SHARE of it and the reader's score over the cells they leave clear puts
    another symbol (or "no card") first: the streak may be what made the answer, so it is
    "cannot confirm", not evidence. `turned`: the answer's view; `group_of`: each class's
    symbol (-1: no card); `answer`: the answer's symbol; `taught`: gives the ink the
    answer's face was taught with (`DeckProfile.taught_ink`), when known: the "streak"
    pixels along its edges (`vision.glare.edge_band`), where a blurred or unevenly lit
    view's own edges lie, are not counted. With it (bench/teach_speed.py --skip photos,
    right / wrong / unknown of 324) 291 / 0 / 33 -> 310 / 2 / 12; --stress glare protocol 1
    34 / 6 / 114 / 8 -> 34 / 4 / 116 / 8, protocol 2 34 / 8 / 58 / 8 -> 36 / 8 / 56 / 8.
    Without it, measured (bench/protocols.py
    --stress glare, right / wrong / unknown / not found): protocol 1 36 / 10 / 108 / 8 ->
    34 / 6 / 114 / 8, protocol 2 37 / 17 / 46 / 8 -> 31 / 7 / 62 / 8 and the bare table's
    card gone (1 of 6 -> 0); --stress oblique unchanged (docs/vision-history.md)."""
    mask = features.streaks
    if not glare_share(mask) > GLARE_SHARE:
        return False
    if taught is not None:
        ink = taught().reshape(TEMPLATE_SIZE[1], TEMPLATE_SIZE[0])
        band = edge_band(ink[::-1, ::-1] if turned else ink, mask.shape)
        mask = cv2.bitwise_and(mask, cv2.bitwise_not(band))
        if not glare_share(mask) > GLARE_SHARE:
            return False
    row = features.learned(reader.index)[int(turned)]
    keep = clear_cells(mask[::-1, ::-1] if turned else mask, len(row))
    return bool(group_of[int(np.argmax(masked_scores(reader, row, keep)))] != answer)
