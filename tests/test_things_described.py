"""Words that say what a thing is like say which thing, not what to do to it, nor a part to find.

"make the cute dog brighter" was "I can't find the cute on my own"; "make the polar bear whiter" and
"make the hot dog brighter" likewise ("the polar", "the hot"); "brighten the golden retriever" tinted
it orange; "make the dark sky brighter" darkened the sky; "make the white dress darker" darkened the
whole picture."""

from __future__ import annotations

from agent.language.reader import read


def _said(words: str) -> tuple[list[str], str]:
    reading = read(words, model=lambda *a, **k: None, photo_open=True)
    return [c.format() for c in reading.commands], reading.reply or ""


def test_an_adjective_before_a_thing_says_which_thing():
    assert _said("make the cute dog brighter")[0] == ["adjust_attr brightness 20 in the dog"]
    assert _said("make the sleepy cat warmer")[0] == ["adjust_attr warmth 25 in the cat"]
    commands, reply = _said("make the happy dogs warmer")
    assert commands == ["adjust_attr warmth 25 in the dogs"], reply
    assert _said("can you make this less blurry?")[0] == ["adjust_attr sharpness 40"]  # ("less" is no thing's)


def test_two_words_that_are_one_noun_stay_together():
    assert _said("make the hot dog brighter")[0] == ["adjust_attr brightness 20 in the hot dog"]
    assert _said("make the polar bear whiter")[0][0].endswith("in the polar bear")
    assert _said("brighten the golden retriever")[0] == ["adjust_attr brightness 20 in the golden retriever"]
    assert _said("brighten the little girl")[0] == ["adjust_attr brightness 20 in the little girl"]
    assert _said("make the red panda more orange")[0] == ["adjust_color orange 0.2 in the red panda"]
    assert _said("make it golden")[0] == ["adjust_color orange 0.2"]  # (a colour asked for)


def test_a_thing_s_own_light_or_colour_is_not_the_way_to_change_it():
    assert _said("make the dark sky brighter")[0] == ["adjust_attr brightness 20 in sky"]
    assert _said("darken the bright sky")[0] == ["adjust_attr brightness -20 in sky"]
    assert _said("make the dark areas brighter")[0] == ["adjust_attr brightness 25 in shadows"]
    commands, reply = _said("make the white dress darker")
    assert commands == [] and reply.startswith("I can't find the dress on my own"), reply
    assert _said("make the whites brighter")[0] == ["adjust_attr brightness 25 in highlights"]
    assert _said("make the white car red")[0] == ["adjust_color red 0.2 in the white car"]


def test_the_place_the_photo_shows_is_the_whole_picture():
    # Wine's room: "brighten the room a bit" was "I can't find the room on my own"
    assert _said("brighten the room a bit")[0] == ["adjust_attr brightness 10"]
    assert _said("make the landscape warmer")[0] == ["adjust_attr warmth 25"]
    assert _said("brighten the living room")[0] == ["adjust_attr brightness 20"]
    assert _said("make the dog in the room brighter")[0] == ["adjust_attr brightness 20 in the dog in the room"]
