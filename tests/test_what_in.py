"""What is in, on or next to a part or a thing ("what's in the water?" was "I can't answer that")."""

from __future__ import annotations

import numpy as np
from conftest import fake_detector

from agent.describe import what_in
from agent.language.questions import Question, read_question
from agent.perception import naming, things
from agent.perception.models import Detection


def test_the_question_is_read_with_its_place_word():
    assert read_question("what's in the water") == Question("what_in", "the water", "in")
    assert read_question("what is next to the person on the far right") == Question(
        "what_in", "the person on the far right", "next to")
    assert read_question("what is on the grass").value == "on"
    assert read_question("what is in the background").kind == "else"  # (a question of its own)
    assert read_question("whats on the left").kind == "what_at"


def test_a_part_easel_cannot_find_is_said_so_and_a_neighbour_is_found(monkeypatch):
    """gcompris' Golden Temple: "what's in the water?"; a dog with a ball beside it and a car far off."""
    img = np.full((200, 400, 3), 120, np.uint8)
    text, data, _ = what_in.what_in(img, "in", "the water")
    assert text.startswith("I can't find the water on my own") and not data
    dog, ball, car = (Detection("dog", 0.9, (100, 80, 180, 160)), Detection("sports ball", 0.8, (185, 140, 205, 160)),
                      Detection("car", 0.9, (330, 60, 395, 120)))
    fake_detector(monkeypatch, [dog, ball, car])
    monkeypatch.setattr(things, "detect", lambda rgb, min_score=0.3: [dog, ball, car])
    monkeypatch.setattr(naming, "name_objects", lambda rgb, ds, context=(): [
        naming.Named(d.label, d.label, None, "detector", 0.9, d.label) for d in ds])
    text, data, _ = what_in.what_in(img, "next to", "the dog")
    assert text == "Next to the dog I can see a sports ball (its box is on the picture).", text
    assert [o["label"] for o in data["overlays"]] == ["dog", "sports ball"] and data["topic"] == "the sports ball"


def test_an_animal_of_unknown_kind_may_be_the_one_asked_about(monkeypatch):
    """gcompris' rhinoceros (no ImageNet class): describe says "a brown animal", "remove the rhino"
    removed it, and "how many rhinos are there?" answered "I don't see any rhinos"."""
    from agent.describe.questions import answer_question

    beast = Detection("elephant", 0.6, (100, 50, 300, 180))
    monkeypatch.setattr(things, "detect", lambda rgb, min_score=0.3: [beast])
    monkeypatch.setattr(naming, "name_objects", lambda rgb, ds, context=(): [
        naming.Named("animal", "animal", None, "both", 0.5, "animal") for _ in ds])
    img = np.full((200, 400, 3), 120, np.uint8)
    text, data, _ = answer_question(img, read_question("how many rhinos are there"))
    assert text == ("I see an animal in the middle that may be a rhino, but I can't tell which kind it is (its box is "
                    "on the picture)."), text
    assert data["overlays"][0]["box"] == [100, 50, 300, 180]
    assert answer_question(img, read_question("how many cars are there"))[0].startswith("I don't see any cars")


def test_a_kind_of_the_detectors_class_is_confirmed_by_the_naming_only(monkeypatch):
    """gcompris' flying fox, a "bird" to the detector that the classifier does not name: "is it an
    eagle?" answered "Yes, there is an eagle in the middle"; of the duck (a goose to the classifier)
    "is there a duck?" said yes too; and "is there a bird?" of the heron answered that it looks more
    like a heron than a bird (WordNet's first sense of "heron" is Hero of Alexandria)."""
    import pytest

    from agent.describe.besides import kind_unconfirmed
    from agent.perception import wordnet

    if not wordnet.available():
        pytest.skip("apt-get install wordnet-base")
    bird = Detection("bird", 0.9, (100, 50, 300, 180))
    img = np.full((200, 400, 3), 120, np.uint8)
    for said, named, answer in [
            ("bird", None, None),
            ("eagle", "bird", "I see a bird in the middle, but I can't tell whether it is an eagle: my classifier does not "
                              "name its kind."),
            ("duck", "goose", "I see a bird in the middle, but it looks like a goose to me, not a duck."),
            ("eagle", "eagle", None)]:
        monkeypatch.setattr(naming, "name_objects", lambda rgb, ds, context=(), w=named: [
            naming.Named("bird", w, None, "classifier", 0.7, w) for _ in ds])
        got = kind_unconfirmed(img, bird, "bird", said, "in the middle")
        assert (got[0] if got else None) == answer, said
    assert wordnet.some_is_a("heron", "bird") and not wordnet.some_is_a("bison", "cow")


def test_what_a_thing_is_doing_and_its_fur_are_asked_about_it():
    """gcompris' cat: "is the cat sleeping?" and "what colour is the cat's fur?" were "I can't answer that"."""
    assert read_question("is the cat sleeping") == Question("doing", "cat", "sleeping")
    assert read_question("are the giraffes eating") == Question("doing", "giraffes", "eating")
    assert read_question("what colour is the cat's fur") == Question("colour", "cat's fur", "")
    assert read_question("is the photo sharp").kind == "measure"


def test_what_stands_on_a_table_rises_above_its_box(monkeypatch):
    """Wine's table: "what's on the table?" said "I see nothing I can name on the table" of the bottle
    standing on it (0.50 to the detector), which "make the bottle stand out" found next."""
    img = np.full((400, 400, 3), 120, np.uint8)
    table, bottle, chair = (Detection("dining table", 0.8, (60, 200, 340, 320)), Detection("bottle", 0.45, (180, 60, 210, 205)),
                            Detection("chair", 0.9, (345, 180, 400, 330)))
    fake_detector(monkeypatch, [table, bottle, chair])
    monkeypatch.setattr(things, "detect", lambda rgb, min_score=0.3: [d for d in (table, bottle, chair) if d.score >= min_score])
    monkeypatch.setattr(naming, "name_objects", lambda rgb, ds, context=(): [
        naming.Named(d.label, d.label, None, "detector", 0.9, d.label) for d in ds])
    text, data, _ = what_in.what_in(img, "on", "the table")
    assert text == "On the table I think I can see a bottle, but I'm not sure (score 0.45; its box is on the picture).", text
    assert [o["label"] for o in data["overlays"]] == ["table", "bottle"]


def test_what_anyone_is_doing_is_asked_of_the_people():
    # gcompris' Japanese band: "is everyone looking at the camera?" answered of "the everyones"; "is
    # anybody dancing?" was not understood, "is anyone smiling?" was "I can't retouch skin, teeth or eyes"
    assert read_question("is everyone looking at the camera") == Question("doing", "the people", "looking at the camera")
    assert read_question("is anybody dancing") == Question("doing", "the people", "dancing")
    assert read_question("is the cat sleeping") == Question("doing", "cat", "sleeping")


def test_what_a_thing_stands_on(monkeypatch):
    """gcompris' camels: "what is it standing on?" was "I can't answer that"."""
    assert read_question("whats the bird sitting on") == Question("what_in", "the bird", "under")
    assert read_question("what is it standing on") == Question("what_in", "it", "under")
    img = np.full((400, 400, 3), 120, np.uint8)
    table, bottle, cat = (Detection("dining table", 0.8, (60, 200, 340, 320)), Detection("bottle", 0.9, (180, 60, 210, 205)),
                          Detection("cat", 0.9, (250, 300, 390, 400)))
    fake_detector(monkeypatch, [table, bottle, cat])
    monkeypatch.setattr(things, "detect", lambda rgb, min_score=0.3: [d for d in (table, bottle, cat) if d.score >= min_score])
    monkeypatch.setattr(naming, "name_objects", lambda rgb, ds, context=(): [
        naming.Named(d.label, d.label, None, "detector", 0.9, d.label) for d in ds])
    text, data, _ = what_in.what_in(img, "under", "the bottle")
    assert text == "The bottle is on a dining table (the boxes are on the picture).", text
    assert [o["label"] for o in data["overlays"]] == ["bottle", "dining table"]
    text, _, _ = what_in.what_in(img, "under", "the cat")
    assert text == "The cat goes on to the picture's bottom edge, so I can't see what it stands on.", text
