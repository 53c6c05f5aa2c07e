"""What a removal names: people by who they are to the asker, plurals the detector's words miss."""

from __future__ import annotations

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
