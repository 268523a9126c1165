"""Teaching crops (`vision.teachcrop`): of the outlines a teaching photo offers for its
card, the one showing the corner index is taught, and a photo whose card cannot be cropped
well is skipped and named while its label is still taught from its other photos. Real
photos of playing cards (../shared/realphotos/cards-edje, beside the repository; CI has a
read-only copy there)."""
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.teach import add_frame, start_session, teach_folder
from vision.teachcrop import Crop, best_crop, glyphs_shown, poor
from vision.warp import CARD_ASPECT

PHOTOS = Path(__file__).resolve().parents[1].parent / "shared" / "realphotos" / "cards-edje"
if not (PHOTOS / "labels.csv").exists():
    pytest.skip(f"the real photos are not at {PHOTOS} (the shared folder beside the repository)",
                allow_module_level=True)


def photo(name: str) -> np.ndarray:
    return cv2.imread(str(PHOTOS / "images" / name), cv2.IMREAD_COLOR)


def box_iou(corners: np.ndarray, box: tuple[int, int, int, int]) -> float:
    a = (*corners.min(axis=0), *corners.max(axis=0))
    w = min(a[2], box[2]) - max(a[0], box[0])
    h = min(a[3], box[3]) - max(a[1], box[1])
    inter = max(0, w) * max(0, h)
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (box[2] - box[0]) * (box[3] - box[1]) - inter)


def test_an_outline_that_cuts_off_a_corner_glyph_gives_way_to_one_of_the_whole_card():
    image = photo("train_cam_image20.jpg")   # a queen on wood; the label box (291, 119, 542, 422)
    # the finder's outline inside the label box: its bottom side runs above the card's edge
    first = np.float32([[336, 120], [512, 128], [480, 390], [294, 371]])
    assert glyphs_shown(image, first) == 1
    crop = best_crop(image, first, CARD_ASPECT)
    assert crop.glyphs == 2 and crop.shaped
    assert box_iou(crop.corners, (291, 119, 542, 422)) >= 0.9


def test_a_teaching_photos_outline_taking_in_more_than_the_card_gives_way_to_the_card_inside():
    # the whole photo's largest outline takes in the ace's shadow (the label box's IoU 0.56,
    # one glyph); the card inside it shows both
    session = add_frame(start_session("cards"), photo("train_cam_image16.jpg"), "A", source="cam16")
    crop = session.shots[-1].crop
    assert crop.glyphs == 2 and crop.shaped
    assert box_iou(crop.corners, (303, 155, 525, 456)) >= 0.9


def test_crops_are_judged_poor_only_in_a_deck_whose_crops_show_an_index():
    def crop(glyphs: int, shaped: bool = True) -> Crop:
        return Crop(np.zeros((4, 2), np.float32), glyphs, shaped)

    indexed = [crop(2)] * 7 + [crop(0), crop(1, shaped=False), crop(1), None]
    assert poor(indexed) == [False] * 7 + [True, True, False, False]
    # most crops show no glyph in both corners: a deck with no corner index, nothing judged
    assert poor([crop(0), crop(1, shaped=False), crop(2), crop(0)]) == [False] * 4
    assert poor([None, None]) == [False, False]


def test_a_card_cut_off_in_its_photo_is_skipped_and_named_and_its_rank_taught_from_the_others(tmp_path,
                                                                                                 monkeypatch):
    monkeypatch.setattr("vision.teach.held_out", lambda shots: [])   # one training, not two: quicker
    rows = ["file,label",
            "images/train_cam_image30.jpg,10", "images/train_IMG_2495.jpg,10",
            "images/train_IMG_2529.jpg,10",     # the ten half under a cloth: one corner shows
            "images/train_IMG_2693.jpg,J", "images/train_cam_image14.jpg,J", "images/train_IMG_2533.jpg,Q",
            "images/train_IMG_2452.jpg,9"]     # the only nine: a poor crop, still taught
    (tmp_path / "labels.csv").write_text("\n".join(rows) + "\n")
    heard = []
    taught = teach_folder(PHOTOS, tmp_path / "labels.csv", "cards",
                          on_photo=lambda file, why: heard.append((file, why and why.code)))
    assert [(file, why.code) for file, why in taught.skipped] == [("images/train_IMG_2529.jpg", "teach.poor_crop")]
    assert ("images/train_IMG_2529.jpg", "teach.poor_crop") in heard
    assert "its other photos teach it" in str(taught.skipped[0][1])
    assert sorted(taught.profile.labels) == ["10", "9", "J", "Q"]
