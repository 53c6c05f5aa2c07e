"""What a removal names: people by who they are to the asker, plurals the detector's words miss."""

from __future__ import annotations

import numpy as np

from agent.language.reader import read


def _read(words: str):
    return read(words, model=lambda *a, **k: None)


def test_kin_is_a_person_to_point_at_and_plurals_are_people():
    """"Can someone take out my sister?" (GIER) said "I can only remove things I can recognise
    (people, ...)": a person is one; "edit out the two children" was refused the same way."""
    said = _read("Me and my brothers circa 1995. Im the little one. Can someone take out my sister?")
    assert not said.commands and said.reply.startswith("I find people, but not which one is your sister")
    assert [c.format() for c in _read("remove my father on the left").commands] == ["remove the person on the left"]
    assert [c.format() for c in _read(" Could somebody edit out the two children?").commands] == \
        ["remove the two children"]
    assert [c.format() for c in _read("remove two ladies in background walking on track").commands] == \
        ["remove two ladies in background walking on track"]


def test_a_thing_on_a_person_or_an_animal_is_not_that_person_or_animal():
    """What the removal names is the words before the preposition: "white object from on the dog"
    would remove the dog."""
    for words in ("Remove white object from on the dog.", "Remove the box under the girl's legs"):
        assert _read(words).commands == [], words


def test_everyone_except_some_removes_the_others_and_keeps_those(monkeypatch):
    """"Please remove all the people except the couple in front of the tree." and 22 more GIER
    requests were "I can't keep only some of them"."""
    import pytest
    from conftest import fake_detector

    from agent.edits import objects
    from agent.perception.models import Detection
    from agent.perception.things import ObjectNotFound

    assert [c.format() for c in _read("Remove everyone but the two girls in the front").commands] == \
        ["remove everyone but the two girls in the front"]
    assert [c.format() for c in _read("remove all the people except the couple in front of the tree").commands] == \
        ["remove all the people except the couple in front of the tree"]
    assert [c.format() for c in _read("remove everything but the man").commands] == ["image_cutout"]  # as before
    left, middle, right = (10, 20, 40, 90), (60, 20, 90, 90), (110, 20, 140, 90)
    fake_detector(monkeypatch, [Detection("person", 0.9, b) for b in (left, middle, right)])
    img = np.zeros((100, 150, 3), np.uint8)
    (m,) = objects.match_objects(img, "everyone except the person on the left")
    assert sorted(m.boxes) == [middle, right] and m.others == [left] and m.plural
    (m,) = objects.match_objects(img, "all the people but leave the person on the right")
    assert sorted(m.boxes) == [left, middle] and m.others == [right]
    with pytest.raises(ObjectNotFound, match="can't tell which people are the dog"):
        objects.match_objects(img, "everyone except the dog")
