"""A framed face whose paper a glare streak hides (`vision.classify.frame_paper`,
`vision.glare.undo_streaks`, `vision.classify.glare_free_features`): the paper fitted on
the white frame instead of the face's brightest quarter (the streak), the streaks undone
against it, and the symbol taken when the reader is sure of it
(bench/protocols.py --stress glare protocol 1: 39 / 4 / 111 / 8 -> 84 / 4 / 66 / 8)."""
import numpy as np

from test_vision_protocol import FACES, taught  # noqa: F401 (the module's taught deck)
from test_vision_whiteframe import _streaked_faces
from vision.classify import (UNKNOWN, FaceFeatures, _inner, card_features, classify, frame_paper,
                             glare_free_features, ink_planes, paper_light)
from vision.glare import FIELD_SHARE, STREAK_MOST, STREAK_PRIOR, undo_streaks
from vision.profile import load_profile_file
from vision.render.uno_deck import deck
from vision.whiteframe import frame_under_glare, shows_frame


def _refused_faces():
    """(streaked face, the same face clean) of 18 faces under a warm lamp and the very warm
    dim webcam whose frame shows only under the streak (`frame_under_glare`)."""
    faces = [f.image() for f in deck(symbols=13)[::3]]
    out = []
    for session in (1, 2):
        for _, _, face, clean in _streaked_faces(session, faces, 100 * session):
            if not shows_frame(face) and frame_under_glare(face):
                out.append((face, clean))
    return out


def _features(face):
    return FaceFeatures(*ink_planes(face, True), face=face)


def test_the_frame_gives_the_paper_the_streak_hides():
    """The brightest quarter `paper_light` fits is the streak: its paper is off the clean
    face's by 77 % in the worst channel on average (up to 209 %); the frame's fit by 4 %
    (at most 10 %)."""
    pairs = _refused_faces()
    assert len(pairs) >= 30, len(pairs)
    old, new = [], []
    for face, clean in pairs:
        truth = paper_light(_inner(clean), True).mean(axis=(0, 1))
        old.append(float(np.abs(paper_light(_inner(face), True).mean(axis=(0, 1)) / truth - 1).max()))
        new.append(float(np.abs(frame_paper(face).mean(axis=(0, 1)) / truth - 1).max()))
    assert np.mean(old) > 0.5
    assert np.mean(new) < 0.06 and max(new) < 0.12, (np.mean(new), max(new))


def test_the_streaks_undone_give_back_the_clean_faces_ink():
    """The ink map of the face balanced by its frame's paper and its streaks undone lies
    near the clean face's (mean difference 17.6 -> 5.1 Lab units), nearer on all but one
    face; a clean face is left nearly as it was (the median pixel within 3.3), with nothing
    marked unseen."""
    pairs = _refused_faces()
    before, after = [], []
    for face, clean in pairs:
        ink = ink_planes(clean, True)[3]
        before.append(float(np.abs(ink_planes(face, True)[3] - ink).mean()))
        after.append(float(np.abs(glare_free_features(_features(face)).ink - ink).mean()))
    assert np.mean(after) < 0.4 * np.mean(before), (np.mean(after), np.mean(before))
    assert sum(a < b for a, b in zip(after, before)) >= len(pairs) - 2
    for _, clean in pairs:
        undone = glare_free_features(_features(clean))
        assert np.median(np.abs(undone.ink - ink_planes(clean, True)[3])) < 4.0
        assert not undone.unseen.any()


def test_streaked_faces_of_a_framed_deck_are_read_right_and_never_wrong(taught):  # noqa: F811
    """Six faces taught in daylight, streaked under a warm lamp and the very warm dim
    webcam (10 draws each), those whose frame shows only under the streak: on the old code
    6 read right of 120, the rest "unknown"; now most read right, none wrong."""
    profile = load_profile_file(taught / "deck.npz")
    right = seen = 0
    for session in (1, 2):
        for seed in range(7, 67, 6):
            for face, (picture, corners, warped, _) in zip(FACES, _streaked_faces(
                    session, [f.image() for f in FACES], seed)):
                if shows_frame(warped):
                    continue
                reading = classify(card_features(picture, corners, profile), profile)
                assert reading.label in (UNKNOWN, face.label), (face.label, reading)
                right += reading.label == face.label
                seen += 1
    assert seen >= 100 and right >= 0.3 * seen, (right, seen)



def test_a_streak_that_makes_a_digit_read_another_is_unknown_when_the_frame_shows(taught, monkeypatch):  # noqa: F811
    """Six faces taught in daylight, streaked in daylight and under the fluorescent office's
    light (10 draws each), those that still show their frame (balanced by the face's
    brightest part, as any other face): a streak across a 2 makes a 3 the reader is sure
    of (up to 0.97). Read again with the streaks undone against the frame's paper
    (`_undone_against`) such a face reads another symbol, so it is "unknown": on the old
    code 8 read wrong, now 2 (their streaks hide too little ink to be asked), and every
    face read right before still is. The template reader's check after it
    (`_templates_against`, session 22) is left out here: it takes most of the rest."""
    import vision.classify as C
    profile = load_profile_file(taught / "deck.npz")
    monkeypatch.setattr(C, "_templates_against", lambda *args: ("", False))
    check = C._undone_against
    said = {"new": [], "old": []}
    truth = []
    for session in (0, 4):   # daylight phone, fluorescent office
        for seed in range(7, 67, 6):
            for face, (picture, corners, warped, _) in zip(FACES, _streaked_faces(
                    session, [f.image() for f in FACES], seed)):
                if not shows_frame(warped):
                    continue
                truth.append(face.label)
                for code, undone_check in (("new", check), ("old", lambda *args: False)):
                    monkeypatch.setattr(C, "_undone_against", undone_check)
                    said[code].append(classify(card_features(picture, corners, profile), profile).label)
    wrong = {code: sum(s not in (t, UNKNOWN) for s, t in zip(labels, truth)) for code, labels in said.items()}
    assert len(truth) >= 80 and wrong["old"] >= 8, (len(truth), wrong)
    assert wrong["new"] <= 2, wrong
    assert all(new == t for old, new, t in zip(said["old"], said["new"], truth) if old == t)


def _frame_under_glare_only():
    """The six faces streaked under a warm lamp and the very warm dim webcam (20 draws each),
    those whose frame shows only under the streak: (face, picture, corners)."""
    for session in (1, 2):
        for seed in range(5, 125, 6):
            for face, (picture, corners, warped, _) in zip(FACES, _streaked_faces(
                    session, [f.image() for f in FACES], seed)):
                if not shows_frame(warped) and frame_under_glare(warped):
                    yield face, picture, corners


def test_an_unsure_undone_symbol_is_taken_on_a_second_look(taught, monkeypatch):  # noqa: F811
    """Six faces taught in daylight, streaked under a warm lamp and the very warm dim webcam
    (20 draws each), those whose frame shows only under the streak: an undone symbol the
    learned reader is unsure of (GLARE_SECOND to GLARE_SURE) is taken when the template
    reader's comparison of the undone face puts it first (`_templates_agree`) and the ink no
    streak touched names the label's colour (`_untouched_colour_agrees`): 114 -> 186 read
    right of 233, every face read right before still is; 1 read wrong (a Yellow 3 read
    Yellow 2: this deck has two symbols only, and both looks agreed), none before."""
    import vision.classify as C
    profile = load_profile_file(taught / "deck.npz")
    said = {"new": [], "old": []}
    truth = []
    bars = (("new", C.GLARE_SECOND), ("old", C.GLARE_SURE))
    monkeypatch.setattr(C, "PICK_SURE", 2.0)   # session 24's templates pick, which takes most of them too, off
    for face, picture, corners in _frame_under_glare_only():
        truth.append(face.label)
        for code, second in bars:
            monkeypatch.setattr(C, "GLARE_SECOND", second)
            said[code].append(classify(card_features(picture, corners, profile), profile).label)
    right = {code: sum(s == t for s, t in zip(labels, truth)) for code, labels in said.items()}
    wrong = {code: sum(s not in (t, UNKNOWN) for s, t in zip(labels, truth)) for code, labels in said.items()}
    assert len(truth) >= 200 and right["new"] >= right["old"] + 50, (len(truth), right)
    assert wrong["new"] <= 1, wrong
    assert all(new == t for old, new, t in zip(said["old"], said["new"], truth) if old == t)


def test_the_templates_of_an_undone_face_name_its_own_symbol(taught):  # noqa: F811
    """`_templates_agree` on the six clean faces, undone against their frame: each face's
    own symbol is first and matched above the template reader's bar, another is not."""
    import vision.classify as C
    from vision.colour import symbol_groups
    profile = load_profile_file(taught / "deck.npz")
    groups = symbol_groups(profile.labels, profile.colours)
    for face in FACES:
        undone = glare_free_features(C.face_features(face.image(), profile.ink_cap, two_levels=True))
        own = groups[profile.labels.index(face.label)]
        other = next(g for g in set(groups.tolist()) if g != own)
        assert C._templates_agree(undone, profile, groups, own, C.Thresholds()), face.label
        assert not C._templates_agree(undone, profile, groups, other, C.Thresholds()), face.label


def test_the_colour_is_asked_of_the_ink_no_streak_touched(taught):  # noqa: F811
    """`_untouched_colour_agrees`: a Red 2 undone whose touched four fifths were made green (as an
    undoing against a dim webcam's frame turned a blue field green) reads green as a whole,
    but its untouched fifth names red: red agrees, green does not; with nothing untouched
    marked (no streak undone) any label agrees."""
    import dataclasses

    import vision.classify as C
    from vision.colour import likelihoods
    profile = load_profile_file(taught / "deck.npz")
    red = next(f for f in FACES if f.label == "Red 2")
    green = next(f for f in FACES if f.label == "Green 2")
    undone = glare_free_features(C.face_features(red.image(), profile.ink_cap, two_levels=True))
    greened = glare_free_features(C.face_features(green.image(), profile.ink_cap, two_levels=True))
    h = undone.a.shape[0]
    untouched = np.zeros(undone.a.shape, bool)
    untouched[: h // 5] = True
    a, b, lightness, ink = undone.a.copy(), undone.b.copy(), undone.lightness.copy(), undone.ink.copy()
    for plane, source in ((a, greened.a), (b, greened.b), (lightness, greened.lightness), (ink, greened.ink)):
        plane[h // 5:] = source[h // 5:]
    mixed = dataclasses.replace(undone, a=a, b=b, lightness=lightness, ink=ink, untouched=untouched)
    colours = list(profile.colours)
    fit = likelihoods(mixed.ink_colour, profile.inks, colours, None, profile.ink_examples, profile.ink_lights)
    assert fit[profile.labels.index("Green 2")] > fit[profile.labels.index("Red 2")]   # as a whole: green
    assert C._untouched_colour_agrees(mixed, profile, None, profile.labels.index("Red 2"))
    assert not C._untouched_colour_agrees(mixed, profile, None, profile.labels.index("Green 2"))
    plain = dataclasses.replace(mixed, untouched=None)
    assert C._untouched_colour_agrees(plain, profile, None, profile.labels.index("Green 2"))


def _undo_streaks_row_wise(inner, paper):
    """`undo_streaks` as first written: each pixel's three channels summed along its row."""
    white = 1.0 / paper
    seen = inner / paper
    h, w = seen.shape[:2]
    flat, whites = seen.reshape(-1, 3), white.reshape(-1, 3)
    brightness = flat.sum(axis=1)
    k = int(FIELD_SHARE * (len(brightness) - 1))
    field = np.median(flat[brightness <= np.partition(brightness, k)[k]], axis=0)
    best_cost = np.full(len(flat), np.inf, np.float32)
    best_blend = np.zeros(len(flat), np.float32)
    for colour in (np.ones(3, np.float32), field.astype(np.float32), np.zeros(3, np.float32)):
        towards = whites - colour
        blend = ((flat - colour) * towards).sum(axis=1) / np.maximum((towards * towards).sum(axis=1), 1e-6)
        np.clip(blend, 0.0, STREAK_MOST, out=blend)
        misfit = flat - colour - towards * blend[:, None]
        cost = np.sqrt((misfit * misfit).sum(axis=1)) + STREAK_PRIOR * blend
        better = cost < best_cost
        best_cost[better], best_blend[better] = cost[better], blend[better]
    blend = best_blend[:, None]
    undone = (flat - whites * blend) / (1.0 - blend)
    return np.clip(undone.reshape(h, w, 3) * paper, 0.0, 1.0).astype(np.float32), best_blend.reshape(h, w)


def test_the_streaks_undone_channel_by_channel_give_the_row_wise_bits():
    """`undo_streaks` sums each pixel's channels as rows of their own (a tenth of the cost
    of numpy's sum over a three-long axis): the same bits as the row-wise formulas, on
    streaked faces with their frame's paper and on random faces and papers."""
    rng = np.random.default_rng(21)
    cases = [(_inner(face), frame_paper(face)) for face, _ in _refused_faces()[:12]]
    shape = cases[0][0].shape
    cases += [(rng.random(shape, np.float32), (0.2 + 0.8 * rng.random(shape)).astype(np.float32)) for _ in range(20)]
    for inner, paper in cases:
        for got, want in zip(undo_streaks(inner, paper), _undo_streaks_row_wise(inner, paper)):
            assert got.dtype == want.dtype and np.array_equal(got, want)


def test_a_streak_the_mask_misses_is_unknown_where_the_templates_disagree(taught, monkeypatch):  # noqa: F811
    """Six faces taught in daylight, streaked in daylight and under the fluorescent office's
    light (8 draws each), those that still show their frame: where a streak makes the
    learned reader name another digit but the template reader, on the face as it is and
    with its streaks undone, puts another symbol first (`_templates_against`), the answer
    is "unknown": 7 read wrong on the old code (a 2 read 3), none now, and every face read
    right before still is (over 20 draws each: 8 wrong -> 0, 148 of 204 right both ways).
    A face the check refused is read again without it (the old code's answer); elsewhere
    the two codes read alike."""
    import vision.classify as C
    profile = load_profile_file(taught / "deck.npz")
    check = C._templates_against
    refused = []

    def noted(*args):
        refused.append(check(*args)[1])
        return check(*args)
    said = {"new": [], "old": []}
    truth = []
    for session in (0, 4):   # daylight phone, fluorescent office
        for seed in range(61, 109, 6):
            for face, (picture, corners, warped, _) in zip(FACES, _streaked_faces(
                    session, [f.image() for f in FACES], seed)):
                if not shows_frame(warped):
                    continue
                truth.append(face.label)
                refused.clear()
                monkeypatch.setattr(C, "_templates_against", noted)
                said["new"].append(classify(card_features(picture, corners, profile), profile).label)
                if any(refused):
                    monkeypatch.setattr(C, "_templates_against", lambda *args: ("", False))
                    said["old"].append(classify(card_features(picture, corners, profile), profile).label)
                else:
                    said["old"].append(said["new"][-1])
    wrong = {code: sum(s not in (t, UNKNOWN) for s, t in zip(labels, truth)) for code, labels in said.items()}
    assert len(truth) >= 60 and wrong["old"] >= 5, (len(truth), wrong)
    assert wrong["new"] == 0, wrong
    assert all(new == t for old, new, t in zip(said["old"], said["new"], truth) if old == t)


def test_the_templates_stand_against_another_symbol_only_by_a_lead(taught, monkeypatch):  # noqa: F811
    """`_templates_against` on the six clean faces: never against the face's own symbol;
    against another symbol (the templates read the face's own, far better, and name it),
    but not when no lead is enough (TEMPLATES_AGAINST above any match's range), where the
    symbol they read first is still named (a doubt: `vision.steady.said`)."""
    import vision.classify as C
    from vision.colour import symbol_groups
    profile = load_profile_file(taught / "deck.npz")
    groups = symbol_groups(profile.labels, profile.colours)
    for face in FACES:
        features = C.face_features(face.image(), profile.ink_cap, two_levels=True)
        own = groups[profile.labels.index(face.label)]
        other = next(g for g in set(groups.tolist()) if g != own)
        assert C._templates_against(features, profile, groups, own) == ("", False), face.label
        # against the other symbol, naming what the templates read instead: the face's own
        read, against = C._templates_against(features, profile, groups, other)
        assert against and groups[profile.labels.index(read)] == own, face.label
        monkeypatch.setattr(C, "TEMPLATES_AGAINST", 2.0)
        # no lead is enough: not against it, but the doubt is named
        assert C._templates_against(features, profile, groups, other) == (read, False), face.label
        monkeypatch.undo()


def _unseen_refused(taught, monkeypatch):  # noqa: F811
    """Six faces taught in daylight, streaked under a warm lamp and the very warm dim webcam
    (20 draws each), those whose frame shows only under the streak: (truth, the label read,
    the label read with no second look at a symbol the unseen check refused, whether it refused)."""
    import vision.classify as C
    profile = load_profile_file(taught / "deck.npz")
    check = C._unseen_against
    refused = []

    def noted(*args):
        refused.append(check(*args))
        return refused[-1]
    out = []
    for face, picture, corners in _frame_under_glare_only():
        refused.clear()
        monkeypatch.setattr(C, "_unseen_against", noted)
        new = classify(card_features(picture, corners, profile), profile).label
        old = new
        if any(refused):
            monkeypatch.setattr(C, "_unseen_second_look", lambda *args: False)
            old = classify(card_features(picture, corners, profile), profile).label
            monkeypatch.undo()
        out.append((face.label, new, old, any(refused)))
    return out


def test_a_symbol_the_strongest_streak_hides_is_taken_on_a_second_look(taught, monkeypatch):  # noqa: F811
    """A face read by its frame's paper whose reading the cells left after its strongest
    streak (`_unseen_against`) do not confirm is taken when the template reader's comparison
    of the undone face puts its symbol first and the ink no streak touched names its colour
    (`_unseen_second_look`): of 233 such faces, the unseen check refuses a Yellow 3 under the
    warm lamp that both looks read Yellow 3; every face read right before still is, none
    wrong either way. (On the glare draws of both protocols, 114 answers the unseen check
    refused guessed 115 right of 119: docs/vision-history.md, session 23, helper glare-unknown.)"""
    rows = _unseen_refused(taught, monkeypatch)
    assert len(rows) >= 200
    gained = [t for t, new, old, _ in rows if new == t and old != t]
    assert gained, "no refused symbol taken"
    assert all(new == t for t, new, old, _ in rows if old == t)
    assert not any(new not in (t, UNKNOWN) for t, new, _, _ in rows)


def test_the_second_look_at_an_unseen_refusal_asks_both_looks(taught, monkeypatch):  # noqa: F811
    """The Yellow 3 of the test above is "unknown" again when either look disagrees: the
    templates (`_templates_agree`) or the untouched ink's colour (`_untouched_colour_agrees`)."""
    import vision.classify as C
    profile = load_profile_file(taught / "deck.npz")
    yellow = FACES.index(next(f for f in FACES if f.label == "Yellow 3"))
    picture, corners, _, _ = _streaked_faces(1, [f.image() for f in FACES], 89)[yellow]
    assert classify(card_features(picture, corners, profile), profile).label == "Yellow 3"
    for look in ("_templates_agree", "_untouched_colour_agrees"):
        monkeypatch.setattr(C, look, lambda *args: False)
        assert classify(card_features(picture, corners, profile), profile).label == UNKNOWN, look
        monkeypatch.undo()


def test_an_unsure_undone_face_is_taken_where_three_readers_agree(taught, monkeypatch):  # noqa: F811
    """Six faces taught in daylight, streaked under a warm lamp and the very warm dim webcam
    (20 draws each), those whose frame shows only under the streak: a face the learned
    reader leaves "unknown" on the frame-paper route is taken as the symbol the templates of
    its undone face put first (PICK_SURE, PICK_LEAD) where the learned reader reads it in
    one of its two views and the untouched ink names its colour (`_templates_pick`):
    186 -> 220
    read right of 233, every face read right before still is, none read wrong either way."""
    import vision.classify as C
    profile = load_profile_file(taught / "deck.npz")
    said = {"new": [], "old": []}
    truth = []
    for face, picture, corners in _frame_under_glare_only():
        truth.append(face.label)
        for code, sure in (("new", C.PICK_SURE), ("old", 2.0)):
            monkeypatch.setattr(C, "PICK_SURE", sure)
            said[code].append(classify(card_features(picture, corners, profile), profile).label)
        monkeypatch.undo()
    right = {code: sum(s == t for s, t in zip(labels, truth)) for code, labels in said.items()}
    wrong = {code: sum(s not in (t, UNKNOWN) for s, t in zip(labels, truth)) for code, labels in said.items()}
    assert len(truth) >= 200 and right["new"] >= right["old"] + 25, (len(truth), right)
    assert wrong["new"] == 0, wrong
    assert all(new == t for old, new, t in zip(said["old"], said["new"], truth) if old == t)


def test_the_pick_asks_the_templates_the_learned_views_and_the_untouched_colour(taught, monkeypatch):  # noqa: F811
    """A Green 2 under the warm lamp, its frame seen only under the streak, the learned
    reader unsure and likeliest Green 3: read Green 2 (`_templates_pick`: the templates of
    its undone face put the 2 first, one of the learned reader's views reads a 2, the
    untouched ink names green), "unknown" where the learned reader's views read no 2, the
    untouched ink names another colour, or the templates lead by less than PICK_LEAD."""
    import vision.classify as C
    from vision.colour import symbol_groups
    profile = load_profile_file(taught / "deck.npz")
    green = FACES.index(next(f for f in FACES if f.label == "Green 2"))
    picture, corners, _, _ = _streaked_faces(1, [f.image() for f in FACES], 77)[green]
    reading = classify(card_features(picture, corners, profile), profile)
    assert reading.label == "Green 2"
    monkeypatch.setattr(C, "PICK_SURE", 2.0)
    assert classify(card_features(picture, corners, profile), profile).guess == "Green 3"
    monkeypatch.undo()
    undone = glare_free_features(card_features(picture, corners, profile))
    reader = profile.reader
    groups = symbol_groups(profile.labels, profile.colours)
    group_of = np.where(reader.classes >= 0, groups[np.maximum(reader.classes, 0)], -1)
    per_label = np.array([1.0 if c == "green" else 0.1 for c in profile.colours])
    views = reader.views(undone.learned(reader.index))
    two = groups[profile.labels.index("Green 2")]
    assert C._templates_pick(undone, profile, groups, group_of, per_label, views, None) == \
        profile.labels.index("Green 2")
    no_two = np.where(group_of == two, -10.0, views)
    assert C._templates_pick(undone, profile, groups, group_of, per_label, no_two, None) == -1
    monkeypatch.setattr(C, "_untouched_colour_agrees", lambda *args: False)
    assert C._templates_pick(undone, profile, groups, group_of, per_label, views, None) == -1
    monkeypatch.undo()
    monkeypatch.setattr(C, "PICK_LEAD", 1.0)
    assert C._templates_pick(undone, profile, groups, group_of, per_label, views, None) == -1
