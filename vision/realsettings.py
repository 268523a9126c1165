"""The settings of the real-table outline finder (`vision.realfind.find_outlines`): one
frozen dataclass, `RealSettings`, read by every module of the finder (`vision.realmaps`,
`vision.quadgates`, `vision.regionjudge`, `vision.linecuts`, `vision.realfind`). Each
field's comment says what it sets and where it is read; nothing else lives here.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from vision import courtframes, inkcards, occludercuts, palecovered, shadedcards, wholecards


@dataclass(frozen=True)
class RealSettings:
    long_side: int = 320                  # pixels of the copy the search runs on
    levels: tuple[float, ...] = (0.6, 0.75, 0.88)   # whiteness cuts (of 255)
    unopened_level: float = 0.8           # cuts from here up keep 1-pixel lines (a card's
                                          # thin white frame at 320 pixels)
    local_offsets: tuple[int, ...] = (15, 30, 50)          # above the local mean
    local_block: float = 0.4              # local mean window, share of the short side
    min_short_side: float = 20.0          # pixels at long_side (40 in a 640-pixel frame)
    side_ratio: tuple[float, float] = (1.0, 2.3)
    corner_angles: tuple[float, float] = (45.0, 135.0)
    max_opposite_ratio: float = 9.0       # longer / shorter of two opposite sides
    min_hull_fill: float = 0.85           # fitted quad area / hull area
    min_region_fill: float = 0.2          # region area / hull area
    min_outline: float = 0.75             # share of the outline with an edge or a step
    min_cut_outline: float = 0.85         # the same for a card running off the frame (its
                                          # three sides inside it)
    min_cut_paper: float = 0.25           # ... and this share of its inside paper-white
    cut_framed: float = 0.0               # ... or, short of that paper, just outside each of
                                          # its sides in the frame at least this share
                                          # paper-white (`outlinecheck.framed_round`: a colour field in its
                                          # white frame, a wild's black one; 0: never)
    cut_fields: bool = False              # framed fields: also a field running off the frame across
                                          # two of its sides, framed in white on the three in view
                                          # (`fieldfind._grown_cut`), taken where no other outline lies
    paper: int = 200                      # whiteness of card stock (of 255)
    refine_reach: float = 1.5             # pixels at long_side: sides refitted this close
    min_step: int = 12                    # whiteness inside minus outside that counts
    max_area_fraction: float = 0.5
    overlap: float = 0.3                  # duplicates: overlap (of the smaller) above this
    min_relative_area: float = 0.2        # of the largest outline kept: smaller ones are dropped
    relative_unlike: float = 0.35         # ... of the largest no further than this from a
                                          # card's side ratio (log; not an envelope's)
    relative_paper: float = 0.3           # ... and this share of it paper-white (not a game's
                                          # case lying among the cards)
    field_saturation: int = 110           # a saturated colour field (HSV saturation above this)
    field_frames: tuple[float, ...] = (0.04, 0.07, 0.10, 0.13)  # white frames tried around it,
                                          # as a share of the field's short side
    covered_ratio: float = 3.2            # side ratio of a partly covered card's visible part
    covered_angles: tuple[float, float] = (70.0, 110.0)   # ... its corners near square
    min_covered_outline: float = 0.85     # ... its outline this well followed
    min_covered_paper: float = 0.4        # ... and this share of it paper-white
    split_depth: float = 0.08             # a dent this deep (of the region's size) may part two
    split_defects: int = 2                # ... cards: the deepest few are tried in pairs
    split_area: float = 2.5               # only regions this many times the smallest card
    split_fill: float = 0.8               # ... filling this share of their hull
    cut_cover: float = 0.9                # a straight edge across an outline this well
                                          # followed: a card lying over another
    cut_tilt: float = 0.15                # ... its ends at most this share of the outline
                                          # further along one side than the other
    cut_least: float = 0.25               # ... each piece at least this share of it
    cut_better: float = 0.1               # ... the top card's side ratio this much nearer a
                                          # card's (log) than the outline's
    cut_canny: tuple[int, ...] = (5, 3)   # ... Canny's low thresholds for faint edges, tried in
                                          # turn (two white cards side by side: 3)
    cut_skew: float = 15.0                # ... both pieces this near square-cornered
    whole_area: tuple[float, float] = (1.6, 3.0)   # an outline inside one this many times
                                          # its area (a shadow or a court picture cuts the
                                          # card: the piece is not reported over the whole)
    whole_inside: float = 0.85            # ... this share of it inside
    whole_better: float = 0.1             # ... the whole's side ratio this much nearer a card's
    whole_share: float = 0.15             # ... its outline followed at most this much less
    restore_corner: bool = True           # a card partly covered: its corner put back, or what
                                          # shows of it cut on the slant (`vision.partial`)
    min_restored_paper: float = 0.25      # ... a corner put back: this share of it paper-white
    line_quads: bool = True               # also outlines from line segments (`vision.edgequads`:
                                          # a card on white paper, a tray, a light counter)
    line_ratio: float = 2.0               # ... their side ratio at most
    line_angles: tuple[float, float] = (75.0, 105.0)   # ... their corners
    line_unlike: float = 0.3              # ... at most this far from a card's side ratio (log)
    line_explained: float = 0.75          # ... only around paper-white no outline followed this well
    line_explained_unlike: float = math.inf   # ... and this near a card's side ratio (log) holds
                                          # (any region judged a card's outline: what it holds
                                          # is that card's, a card lying beside it is not; 0.85
                                          # and 0.3 before: 159 of 290 train_ frames looked,
                                          # now 137, the same cards found)
    line_paper: float = 0.5               # ... holds, at least this share of the smallest card
    line_white: int = 180                 # ... whiteness of that paper (of 255; a card lying on
                                          # it in its shade is less white than `paper`)
    line_grow: float = 1.5                # ... looked for this many smallest short sides around
    line_sizes: tuple[float, float] = (0.6, 2.5)   # ... where no outline this many times
                                          # their area was found (a larger one: the card merged
                                          # with what it lies on; a smaller one: a piece of it)
    whole: wholecards.WholeSettings | None = wholecards.WholeSettings()   # also whole cards
                                          # from four straight sides where the maps give pieces
                                          # of them or merge them (`vision.wholecards`; None: not)
    shaded: shadedcards.ShadedSettings | None = shadedcards.ShadedSettings()   # also whole
                                          # cards a shadow cuts across, from the lit piece kept
                                          # (`vision.shadedcards`; None: not)
    pale: palecovered.PaleSettings | None = palecovered.PaleSettings()   # also partly covered
                                          # cards in the shade (`vision.palecovered`)
    ink: inkcards.InkSettings | None = inkcards.InkSettings()   # also pip cards placed from
                                          # their ink where no edge shows (`vision.inkcards`)
    occluder_cuts: occludercuts.CutSettings | None = None   # also the visible part of a
                                          # card under something as white, cut along its
                                          # straight edge (`vision.occludercuts`; None: not)
    colour_fields: bool = True            # also regions of saturated colour (`realmaps.colour_regions`: a face
                                          # printed as a colour field in a white frame, which
                                          # whiteness cannot see; False for a deck with none)
    learned: bool = False                 # a learned model chooses among the outlines kept and
                                          # those refused (`vision.outlinescore`)
    framed_fields: bool = False           # also colour fields grown to their white frame
                                          # (`vision.fieldfind`: taught decks and teaching)
    trim_spurs: float = 0.0               # with a learned model or a trace: an edge group whose
                                          # hull no four corners fit (an edge running off it, a
                                          # shadow's line) is filled, opened by this share of the
                                          # square root of its area, and its trimmed outline
                                          # handed to the model as a refused one (`regionjudge._trimmed`)
    print_groups: float = -1.0            # with a learned model or a trace, when >= 0: an edge
                                          # group lying inside another's cell (a card's print
                                          # whose own outline joined a bright neighbour's),
                                          # four-cornered, moved out by this share of the square
                                          # root of its area, handed to the model as a refused
                                          # outline (`regionjudge.print_outlines`)
    print_fill: float = 0.75              # ... its four corners filling this share of its hull
    print_chance: float = 0.0             # ... taken by the learned model only at this chance
    court: courtframes.CourtSettings | None = None   # with a learned model or a trace: court
                                          # cards grown from their printed picture's frame
                                          # (`vision.courtframes`: a card merged with a white
                                          # cloth or a light counter), handed to the model as
                                          # print outlines (None: not looked for)
    field_side_ratio: float = 3.3         # framed fields: their side ratio at most (a field
                                          # and its white frame all round are the evidence; a
                                          # card 60-65 degrees from overhead: 1.55 / cos 62)
    field_angles: tuple[float, float] = (35.0, 145.0)   # ... their corners (a card that steep,
                                          # near a phone's wide lens, shows corners of 40-146
                                          # degrees; other outlines keep `corner_angles`)
    fine_fields: int = 480                # framed fields: where a whole colour field's white
                                          # frame was not measured at `long_side` (a frame ~2
                                          # pixels there, 1.4 mm) and no field outline holds it,
                                          # the framed-field search again on a copy this long
                                          # (0: never; `realfind._fine_framed`)
    late_piece: float = 0.95              # framed fields: a late field outline (two pieces of a
                                          # steep field joined, `vision.fieldfind`) replaces an
                                          # outline found before it that lies inside it and is
                                          # at most this share of its area (a piece of the card;
                                          # 0: never, the late one only where nothing else lies)
    pale_fields: bool = False             # framed fields: also at the pale chroma level in a
                                          # washed-out photo (`vision.fieldfind`); reading only:
                                          # taught so, glare seed 90's protocol 2 learned a
                                          # Green 1 from a 0.66 outline (44 -> 37 right), and the
                                          # unstressed draws 110-115 gained nothing
    pale_other: float = 0.85              # framed fields: an outline found at the pale chroma
                                          # level (`vision.fieldfind`) replaces the outlines found
                                          # before it that it overlaps only if each (none a
                                          # field's) is another shape, its IoU with it under this
                                          # (a piece of the card, or card and table), and its
                                          # outline share no higher; the card outlined already
                                          # stays (0: only where nothing else lies)
    pale_beyond: float = 0.25             # ... and only if what each has outside it is under
                                          # this share field of its hue (`fieldfind.field_beyond`:
                                          # more is the rest of the card beyond a glare streak)
    joined_cells: bool = False            # full-bleed faces: cells joined with their neighbours
                                          # looked at as regions too (`realmaps.joined_cells`: an oval
                                          # reaching both long sides cuts a face's field in two)
    full_bleed: int = 0                   # taught colour decks: faces with no white frame (the
                                          # colour field runs to the card's edge; a cloth as
                                          # dark or of the same hue as the field): edges also
                                          # where any stretched channel changes (`realmaps.colour_edges`),
                                          # an outline also followed where inside and outside
                                          # differ by this much in one stretched channel (of
                                          # 255; 0: none of this), and a whole colour field no
                                          # white frame grows, nor any framed outline holds,
                                          # taken as the card (`realfind._bleeding`)
