"""Faces: found by the face detector (BlazeFace), edited by name, counted, and named in explanations.

"brighten the face", "how many faces are there?" were refused ("I can't find the face on my own",
"I can only look for people, animals, ...").
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from agent.describe.questions import answer_question
from agent.edits.regions import RegionNotFound, resolve
from agent.explain import explain_images
from agent.grammar.commands import parse_command
from agent.language.questions import read_question
from agent.language.reader import read
from agent.perception.faces import find_faces

ROOT = Path(__file__).resolve().parent.parent


def _photo(path: str) -> np.ndarray:
    return np.asarray(Image.open(ROOT / path).convert("RGB"))


@pytest.fixture(scope="module")
def hopper() -> np.ndarray:
    return _photo("bench/photos/grace_hopper.jpg")


@pytest.fixture(scope="module")
def two() -> np.ndarray:
    """Grace Hopper on the left, the astronaut on the right (the same height)."""
    a, b = _photo("bench/photos/grace_hopper.jpg"), _photo("resources/library/astronaut.jpg")
    b = np.asarray(Image.fromarray(b).resize((a.shape[0], a.shape[0])))
    return np.concatenate([a, b], axis=1)


def _centre(box) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def test_faces_are_found_in_portraits_and_not_in_a_cat(hopper, two):
    (face,) = find_faces(hopper)
    x, y = _centre(face.box)
    assert 220 < x < 310 and 190 < y < 270  # her face, under the cap
    assert face.eyes[0][0] < face.eyes[1][0] and face.eyes[0][1] < face.mouth[1]
    assert sorted(_centre(f.box)[0] > 512 for f in find_faces(two)) == [False, True]
    assert find_faces(_photo("resources/library/chelsea.jpg")) == []


def test_the_face_is_read_as_a_region():
    said = {words: [c.format() for c in read(words, model=lambda *a, **k: None).commands]
            for words in ("brighten the face", "Brighten the faces of the children slightly.",
                          "make the man's face brighter", "blur their faces",
                          "Brighten the face of the subject on the right so that the area around the eyes isn't so dark.",
                          "the house faces south, make it brighter")}
    assert said == {
        "brighten the face": ["adjust_attr brightness 20 in face"],
        "Brighten the faces of the children slightly.": ["adjust_attr brightness 10 in faces"],
        "make the man's face brighter": ["adjust_attr brightness 20 in face"],
        "blur their faces": ["adjust_attr sharpness -100 in faces"],  # (unrecognisable: photo_rules.hide_faces)
        "Brighten the face of the subject on the right so that the area around the eyes isn't so dark.": [
            "adjust_attr brightness 20 in face on the right"],
        "the house faces south, make it brighter": ["adjust_attr brightness 20"],
    }
    assert parse_command("adjust_attr brightness 20 in face on the left").format() == \
        "adjust_attr brightness 20 in face on the left"


def test_the_face_mask_is_the_face_not_the_cap_nor_the_flag(hopper):
    r = resolve("face", hopper)
    assert r.phrase == "the face" and r.note == ""
    assert r.mask[230, 265] == pytest.approx(1.0)  # her cheek
    assert r.mask[80, 260] < 0.05  # the cap
    assert r.mask[150, 60] == 0  # the flag
    assert 0.05 < float(r.mask.mean()) < 0.2


def test_which_face_the_biggest_the_placed_every_one(two):
    left, right = (resolve(w, two).mask for w in ("face on the left", "face on the right"))
    assert left[:, :512].sum() > 0 and left[:, 600:].sum() == 0
    assert right[:, :512].sum() == 0 and right[:, 600:].sum() > 0
    every = resolve("faces", two)
    assert np.array_equal(every.mask, np.maximum(left, right))
    biggest = resolve("face", two)
    assert np.array_equal(biggest.mask, left) and "2 faces" in biggest.note  # hers is the bigger, and it says so


def test_no_face_is_said_and_nothing_changes():
    with pytest.raises(RegionNotFound, match="don't see a face"):
        resolve("face", _photo("resources/library/chelsea.jpg"))


def test_faces_are_counted_and_placed(two):
    text, data, _ = answer_question(two, read_question("how many faces are there?"))
    assert text.startswith("I count 2 faces") and len(data["overlays"]) == 2
    text, _, _ = answer_question(_photo("resources/library/chelsea.jpg"), read_question("is there a face?"))
    assert text == "I don't see a face in this picture."


def test_a_brightened_face_is_said_to_be_the_face(hopper):
    from agent.edits.run import execute

    after = execute(parse_command("adjust_attr brightness 20 in face"), hopper)
    text = explain_images(hopper, after).text
    assert "the face got brighter" in text.lower(), text


def test_skin_is_the_faces_colour_within_the_person(hopper):
    """"color the skin green", "lighten her skin" were refused ("I can't retouch faces or bodies")."""
    said = {words: [c.format() for c in read(words, model=lambda *a, **k: None).commands]
            for words in ("color the skin green", "lighten her skin", "make the skin tone lighter",
                          "soften skin and reduce appearance of blemishes.")}
    assert said == {"color the skin green": ["adjust_color green 0.2 in skin"],
                    "lighten her skin": ["adjust_attr brightness 20 in skin"],
                    "make the skin tone lighter": ["adjust_attr brightness 20 in skin"],
                    "soften skin and reduce appearance of blemishes.": []}  # (a retouch: said so)
    r = resolve("skin", hopper)
    assert r.phrase == "the skin"
    assert r.mask[230, 265] == pytest.approx(1.0) and r.mask[370, 255] > 0.5  # her cheek, her neck
    assert r.mask[450, 100] == 0 and r.mask[150, 60] == 0 and r.mask[80, 260] < 0.05  # uniform, flag, cap
    astronaut = _photo("resources/library/astronaut.jpg")
    m = resolve("skin", astronaut).mask
    assert m[120, 225] == pytest.approx(1.0) and m[300, 150] == 0 and m[400, 400] == 0  # not the orange suit


def test_red_eyes_are_fixed_and_nothing_else():
    """"Remove the red eye." (GIER) was refused ("I can't retouch faces or bodies")."""
    import cv2

    from agent.edits.run import run

    assert [c.format() for c in read("Please could you remove the red eye from this photo? Thanks!",
                                     model=lambda *a, **k: None).commands] == ["red_eye"]
    assert [c.format() for c in read("Can someone help fix the red eyes and maybe the lighting as well",
                                     model=lambda *a, **k: None).commands][:1] == ["red_eye"]  # (not the help text)
    clean = _photo("resources/library/astronaut.jpg")
    (face,) = find_faces(clean)
    red = clean.copy()
    for x, y in face.eyes:  # a flash's red pupils where the detector puts her eyes
        cv2.circle(red, (int(x), int(y)), 4, (210, 35, 40), -1, cv2.LINE_AA)
    done = run(parse_command("red_eye"), red)
    assert done.note == "2 eyes were red, in 1 face."
    for x, y in face.eyes:
        r, g, b = done.pixels[int(y), int(x)].astype(int)
        assert r <= max(g, b) + 5 and r < 80  # dark, not red
    changed = (done.pixels != red).any(axis=2)
    painted = (red != clean).any(axis=2)
    grown = cv2.dilate(painted.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    assert changed.any() and not (changed & ~grown).any()  # only the pupils
    with pytest.raises(ValueError, match="no red eyes"):
        run(parse_command("red_eye"), clean)
    with pytest.raises(ValueError, match="don't see a face"):
        run(parse_command("red_eye"), _photo("resources/library/chelsea.jpg"))


def test_a_headshot_is_the_face_with_room_for_hair_and_shoulders(two):
    """"Crop the photo to be a headshot." (GIER) was "I can crop to something I can recognise ..."."""
    from agent.edits.run import execute

    assert [c.format() for c in read("Crop the photo to be a headshot.", model=lambda *a, **k: None).commands] == \
        ["crop face"]
    right = execute(parse_command("crop face on the right"), two)
    (face,) = [f for f in find_faces(two) if f.box[0] > 512]
    fw, fh = face.box[2] - face.box[0], face.box[3] - face.box[1]
    assert right.shape[1] == pytest.approx(2 * fw, abs=3) and fh * 2 < right.shape[0] <= fh * 3.3
    x, y = int(face.box[0] - 0.5 * fw), max(0, int(face.box[1] - fh))
    assert np.array_equal(right, two[y:y + right.shape[0], x:x + right.shape[1]])  # that part, unchanged

