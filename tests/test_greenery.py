"""The grass, the trees, the plants: a region Easel finds on its own (editor.greenery).

Found on real photos (gcompris' horses, Neuschwanstein): "make the grass greener" and "make the trees
darker" were refused (Easel could not find them), and "make the grass a lot less green", a request
from GIER, brightened and balanced the whole picture. How well the region fits real photos is in
bench/greenery.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from agent.dialogue.manager import DialogueManager
from agent.language.reader import read
from editor.document import Document
from editor.greenery import greenery_mask
from editor.masks import region_mask
from editor.store import Store


def _photo() -> np.ndarray:
    """A sky over a lawn (textured green), with a flat grey post and a textured lemon-yellow patch
    standing on the lawn, and a flat green wall on its own above it."""
    rng = np.random.default_rng(3)
    img = np.zeros((240, 320, 3), np.float32)
    img[:100] = (110, 165, 235)
    img[100:] = np.array((70, 125, 45)) + rng.normal(0, 22, (140, 320, 3))
    img[10:80, 20:100] = (60, 150, 70)  # a painted wall, against the sky
    img[120:200, 140:180] = (128, 128, 128)  # a grey post
    img[120:200, 220:300] = np.array((245, 225, 30)) + rng.normal(0, 10, (80, 80, 3))  # lemons
    return np.clip(img, 0, 255).astype(np.uint8)


def test_the_grass_is_the_textured_green_not_a_green_wall_the_sky_or_lemons():
    img = _photo()
    m = region_mask(img, "grass")
    assert np.array_equal(m, region_mask(img, "greenery")) and np.array_equal(m, region_mask(img, "the trees"))
    lawn = m[210:, :].mean()
    assert lawn > 0.9, lawn
    assert m[:90, 110:].max() == 0  # the sky
    assert m[15:75, 25:95].max() < 0.1  # the wall: green, but flat
    assert m[130:190, 230:290].max() < 0.1  # the lemons: yellow, not olive
    assert m[130:190, 145:175].max() < 0.1  # the post


def test_a_photo_without_plants_has_no_greenery():
    from skimage import data

    for img in (data.astronaut(), data.coffee(), data.chelsea()):
        assert region_mask(img, "greenery").max() == 0


def _read(words: str):
    return [c.format() for c in read(words, model=lambda *a, **k: None, photo_open=True).commands]


@pytest.mark.parametrize("words, want", [
    ("make the grass greener", "adjust_color green 0.2 in greenery"),  # "I can't find the grass on my own"
    ("make the trees a lot darker", "adjust_attr brightness -40 in greenery"),
    ("brighten the lawn", "adjust_attr brightness 20 in greenery"),
    ("the grass is too yellow", "adjust_attr warmth -25 in greenery"),
    # less of a colour: ran the whole picture's automatic enhance, which made the horses yellower
    ("make the grass a lot less green", "adjust_attr saturation -60 in greenery"),  # green is the grass's own
    ("make the sky less yellow", "adjust_attr warmth -25 in sky"),
    ("make it less yellow", "adjust_attr warmth -25"),
    ("make it less blue", "adjust_attr warmth 25"),
    ("reduce the redness in the sky", "adjust_attr saturation -30 in sky"),
    # a cast named as such is still the white balance
    ("remove the yellow cast", "auto_enhance"),
    ("reduce the redness", "auto_enhance"),
    ("make it less green", "auto_enhance"),
])
def test_plants_and_less_of_a_colour_are_read_where_they_were_said(words, want):
    assert _read(words) == [want]


def test_a_plant_alone_is_still_a_thing_to_find_and_depth_of_field_is_no_field():
    assert _read("brighten the plant") == ["adjust_attr brightness 20 in the plant"]


def test_greener_grass_changes_the_lawn_and_nothing_else(tmp_path):
    img = _photo()
    doc = Document.create(Store(tmp_path / "easel.db"), img, title="lawn.png")
    result = DialogueManager(doc).handle("make the grass greener")
    assert result.ok and [v.command for v in doc.lineage()[1:]] == ["adjust_color green 0.2 in greenery"], result.reply
    out = doc.pixels().astype(int)
    changed = np.abs(out - img.astype(int)).sum(axis=2)
    assert changed[:90, 110:].max() == 0 and changed[130:190, 145:175].max() == 0  # the sky and the post untouched
    assert changed[15:75, 25:95].max() == 0  # the wall
    assert (out[210:, :, 1] - out[210:, :, 0]).mean() > (img[210:, :, 1].astype(int) - img[210:, :, 0]).mean()


def test_the_greenery_darkened_or_dulled_is_said_as_the_greenery_not_a_background_removed():
    """"make the trees a lot darker" (brightness -40 in the greenery) on Neuschwanstein was "the
    background was removed (now black); only the main subject is left": the dark forest clipped to
    black. Less of the grass's green was "the greenery became bluer"."""
    from agent.explain import explain_images
    from editor import adjust, ops
    from editor.masks import apply_in_region

    img = _photo()
    img[100:] = (img[100:].astype(int) * 0.8).astype(np.uint8)  # a lawn in shade: it clips at -40
    green = region_mask(img, "greenery")
    darker = apply_in_region(img, green, lambda im: ops.adjust_brightness(im, amount=-40))
    exp = explain_images(img, darker, name_objects=False)
    assert exp.text.startswith("The greenery got darker"), exp.text
    assert not any(f.kind.startswith("background") or f.kind == "object_removed" for f in exp.findings), exp.text
    duller = apply_in_region(img, green, lambda im: adjust.adjust_saturation(im, amount=-60))
    exp = explain_images(img, duller, name_objects=False)
    assert exp.text.startswith("The greenery became duller"), exp.text


def test_a_background_taken_away_to_black_is_still_said_so():
    """The look for a part darkened until it clipped leaves a cutout alone: under its black the sky
    and the wall were lighter than anything else was darkened."""
    from agent.explain import explain_images

    img = _photo()
    cut = img.copy()
    cut[:100] = 0
    exp = explain_images(img, cut, name_objects=False)
    assert exp.findings[0].kind == "background_removed", exp.text


def test_a_found_part_on_one_side_is_kept_to_that_half():
    """"darken the trees on the left" darkened every tree (and "brighten the sky on the right" the
    whole sky): the part found is kept to the half named."""
    from agent.grammar.regions import region_phrase
    from editor.masks import geometric_mask

    assert _read("darken the trees on the left") == ["adjust_attr brightness -20 in greenery on the left"]
    assert _read("brighten the sky on the right") == ["adjust_attr brightness 20 in sky on the right"]
    assert _read("make the grass at the bottom greener") == ["adjust_color green 0.2 in greenery at the bottom"]
    # a digit or a bracket between them crashed the reading of the place (AttributeError)
    assert _read("make the sky 20% brighter on the left") == ["adjust_attr brightness 20 in sky on the left"]
    assert _read("make the grass (on the left) greener") == ["adjust_color green 0.2 in greenery"]
    img = _photo()
    m = region_mask(img, "greenery on the left")
    assert np.allclose(m, region_mask(img, "greenery") * geometric_mask(img.shape, "left half"))
    assert m[220, 20] > 0.9 and m[220, 300] == 0
    assert region_phrase("greenery on the left") == "the greenery on the left"


def test_questions_about_the_grass_are_answered_from_the_region_the_edits_use():
    """"is there any grass?", "where are the trees?" were answered "I can only look for people,
    animals, vehicles and everyday objects ... “grass” is not one of them"."""
    from skimage import data

    from agent.describe.questions import answer_question
    from agent.language.questions import read_question

    img = _photo()
    text, shown, _ = answer_question(img, read_question("is there any grass?"))
    assert text.startswith("Yes, the plants (grass or trees) show at the bottom"), text
    x1, y1, x2, y2 = shown["overlays"][0]["box"]
    assert y1 >= 95 and y2 == 240 and x2 - x1 >= 300
    text, _, _ = answer_question(img, read_question("where are the trees?"))
    assert text.startswith("The plants (grass or trees) are at the bottom"), text
    text, _, _ = answer_question(img, read_question("is the grass green?"))
    assert text.startswith("Yes, the plants (grass or trees) are"), text
    text, _, _ = answer_question(img, read_question("how bright is the grass?"))
    assert text.startswith("The mean brightness of the plants (grass or trees) is"), text
    text, _, _ = answer_question(data.astronaut(), read_question("is there any grass?"))
    assert text == "I don't see any plants (grass or trees) in this picture.", text


def test_a_description_says_plants_where_it_said_a_green_area_or_the_ground():
    """Without a trace, describe read a photo's thirds: trees over gravel were "a green area", and
    Neuschwanstein's dark forest at the bottom "the ground"."""
    from agent.describe.words import describe_regions

    rng = np.random.default_rng(2)
    img = np.zeros((240, 320, 3), np.float32)
    img[:160] = np.array((50, 110, 40)) + rng.normal(0, 25, (160, 320, 3))  # trees
    img[160:] = np.array((120, 118, 115)) + rng.normal(0, 12, (80, 320, 3))  # gravel
    text = describe_regions(np.clip(img, 0, 255).astype(np.uint8)).text
    assert text == "In this picture I can see green plants at the top and the middle. At the bottom I can see the ground.", text


def test_a_change_of_the_greenery_in_one_half_is_said_to_be_there():
    """"make the trees on the left darker", then "what did you change?": "the greenery got darker"
    did not say where."""
    from agent.explain import explain_images
    from editor import ops
    from editor.masks import apply_in_region

    img = _photo()
    left = region_mask(img, "greenery on the left")
    exp = explain_images(img, apply_in_region(img, left, lambda im: ops.adjust_brightness(im, amount=-20)),
                         name_objects=False)
    assert exp.text.startswith("The greenery on the left got darker"), exp.text


def test_it_after_a_question_about_the_grass_is_the_grass(tmp_path):
    """"where is the grass?", then "make it greener" tinted the whole picture: the topic was the
    grass, and the edit's line ("in greenery") did not hold the word."""
    from agent.dialogue.assistant import build_manager
    from agent.dialogue.manager import GrammarParser

    doc = Document.create(Store(tmp_path / "easel.db"), _photo(), title="lawn.png")
    manager = build_manager(doc, parser=GrammarParser(), library_path=tmp_path / "none.db")
    assert manager.handle("where is the grass?").ok
    result = manager.handle("make it greener")
    assert [v.command for v in doc.lineage()[1:]] == ["adjust_color green 0.2 in greenery"], result.reply


def test_a_clause_that_goes_on_keeps_the_part_of_the_one_before():
    """"make the sky less blue and more purple" tinted the whole picture purple, and "make the water
    less green and more blue" (GIER) made the whole picture bluer while asking to point at the
    water."""
    assert _read("make the sky less blue and more purple") == ["adjust_attr saturation -30 in sky",
                                                               "adjust_color purple 0.2 in sky"]
    assert _read("make the grass greener and more saturated") == ["adjust_color green 0.2 in greenery",
                                                                  "adjust_attr saturation 30 in greenery"]
    reading = read("make the water less green and more blue", model=lambda *a, **k: None, photo_open=True)
    assert reading.commands == [] and "can't find the water" in reading.reply
    assert _read("make it less yellow and more blue") == ["adjust_attr warmth -25", "adjust_color blue 0.2"]
    assert _read("remove the dog and more contrast") == ["remove the dog", "adjust_attr contrast 20"]
    # a whole-picture edit proposed before it ("the photo is dark": should I brighten it?) drops nothing
    reading = read("the photo is dark, and more contrast", model=lambda *a, **k: None, photo_open=True)
    assert [c.format() for c in reading.commands] == ["adjust_attr contrast 20"] and reading.proposal
    # the clause before named two parts (read as the background alone): nothing is carried
    assert _read("darken the background but make the man lighter and sharper") == [
        "adjust_attr brightness -20 in background", "adjust_attr sharpness 40"]


@pytest.mark.parametrize("words", ["make the sky clear", "make the water look clearer", "make the sky clearer"])
def test_a_clearer_sky_or_water_is_not_a_sharpening(words):
    """"make the sky clear" sharpened the sky, and GIER's "make the water look clearer" the whole
    picture: clouds, haze and murky water are not a blur."""
    reading = read(words, model=lambda *a, **k: None, photo_open=True)
    assert reading.commands == [] and "can't clear clouds, haze or murky water" in reading.reply, reading.reply
    assert _read("make the sky sharper") == ["adjust_attr sharpness 40 in sky"]


@pytest.mark.parametrize("words, want", [
    # GIER: "light" was read as brightness before "contrast": the plants were brightened
    ("make the plants contrast more with the red light/rocks.", "adjust_attr contrast 20 in greenery"),
    ("make the light warmer", "adjust_attr warmth 25"),  # brightened
    ("make the light softer", "adjust_attr contrast -20"),  # (a blur, once "the light" was no brightness)
    ("make the light brighter", "adjust_attr brightness 20"),
    ("more light", "adjust_attr brightness 20"),
])
def test_the_light_as_a_thing_is_not_the_brightness(words, want):
    assert _read(words) == [want]


def test_small_holes_in_the_greenery_are_taken_and_a_path_is_not():
    """plasma's Path: the forest floor's twigs and brown needles were holes in the greenery, and
    "brighten the trees" left them as dark blotches; the path through it stays out."""
    rng = np.random.default_rng(5)
    img = np.clip(np.array((60, 120, 40)) + rng.normal(0, 25, (400, 640, 3)), 0, 255)
    img[200:212, 300:312] = (120, 85, 60)  # brown needles, 144 pixels of 256,000
    img[:, 40:110] = (140, 100, 60)  # a path, top to bottom
    m = greenery_mask(img.astype(np.uint8))
    assert m[206, 306] >= 0.5 and m[100, 75] == 0 and m[300, 500] > 0.9
