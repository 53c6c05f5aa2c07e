"""Colours people would say: a white coat in shade is white, a panda black and white, and what someone wears."""

from __future__ import annotations

import numpy as np
import pytest


def test_a_white_coated_animal_in_shade_is_white():
    """A polar bear walking against a low sun (gcompris' explore_world_animals) was "a grey bear"."""
    from agent.perception.models import classifier_and_labels
    from agent.perception.naming import coat_colour

    _, labels = classifier_and_labels()
    first = [label.split(",")[0] for label in labels]
    probs = np.zeros(len(labels), np.float32)
    probs[first.index("ice bear")] = 0.99
    assert coat_colour("grey", probs) == "white" and coat_colour("beige", probs) == "white"
    assert coat_colour("brown", probs) == "brown"  # a muddy bear stays what it shows
    probs[:] = 0
    probs[first.index("brown bear")] = 0.99
    assert coat_colour("grey", probs) == "grey"


def test_a_panda_is_black_and_white_not_its_larger_patch(monkeypatch):
    """"what colour is the panda?" was "The panda in the middle is black"."""
    from agent.describe import questions
    from agent.edits import objects
    from agent.language.questions import read_question
    from agent.perception import naming, things
    from agent.perception.models import Detection

    img = np.full((300, 400, 3), 120, np.uint8)
    img[100:200, 150:250] = 20  # its black patches, the larger part of it
    bear = Detection("bear", 0.9, (150, 100, 250, 200))
    for module in (objects, things):
        monkeypatch.setattr(module, "detect", lambda rgb, min_score=0.3: [bear])
    monkeypatch.setattr(naming, "name_objects",
                        lambda rgb, ds, **_: [naming.Named("panda", "panda", None, "classifier", 0.9, "panda")])
    text = questions.answer_question(img, read_question("what colour is the panda?"))[0]
    assert text == "The panda in the middle is black and white."
    assert questions.answer_question(img, read_question("is the panda black?"))[0].startswith("Partly: ")
    assert questions.answer_question(img, read_question("is the panda red?"))[0].startswith("No, ")


def test_what_someone_is_wearing_asks_about_them():
    """"what colour is the woman wearing?" was answered "The wearing in the middle is wearing orange"."""
    from agent.language.questions import read_question

    assert read_question("what colour is the woman wearing?").about == "woman"
    assert read_question("what colour is the man on the left wearing?").about == "man on the left"


@pytest.mark.parametrize("asked, about", [
    ("what colour is his shirt?", "person"), ("what colour is the dress?", "person"),
    ("what color is the man's jacket?", "man"), ("what colour is the shirt of the man on the left?", "man on the left"),
    ("what is the colour of her coat", "person"), ("what colour is the dog's coat?", "dog"),
    ("what colour is the cup?", "cup")])
def test_the_colour_of_clothes_is_asked_of_who_wears_them(asked, about):
    """"what colour is his shirt?" was "I can only look for people, animals, ... and “shirt” is not one
    of them": the colour of someone's clothes is what describe says of that person."""
    from agent.language.questions import read_question

    assert read_question(asked).about == about
    assert read_question("is the man's jacket black?") == read_question("is the man black?")


def test_a_coat_of_black_and_white_patches_is_both_colours():
    """gcompris' Holstein cow was "a black cow" (its black patches the larger part); a black horse
    with a white blaze keeps one word."""
    from agent.perception.naming import object_colour

    img = np.full((300, 400, 3), (90, 140, 60), np.uint8)  # grass
    body = np.full((120, 200, 3), 25, np.uint8)
    body[:, 120:] = 235  # white patches, 40% of the coat
    body[20:60, 40:80] = 235
    img[90:210, 100:300] = body
    box = (100, 90, 300, 210)
    assert object_colour(img, box, "cow") == "black and white"
    img[90:210, 100:300] = 25
    img[100:130, 110:125] = 235  # a blaze
    assert object_colour(img, box, "horse") == "black"
