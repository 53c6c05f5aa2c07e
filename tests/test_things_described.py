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


def test_a_thing_the_classifier_names_is_a_thing_to_edit():
    # the library's red balloon: describe says "a red balloon" (the detector's "kite", named by the
    # classifier), and "the balloon is too dark" was "I can't find the balloon on my own"
    from agent.perception.things import object_words

    assert {"balloon", "violin", "teapot"} <= object_words() and not {"file", "safe", "stage", "scale"} & object_words()
    assert _said("the balloon is too dark")[0] == ["adjust_attr brightness 20 in the balloon"]
    assert _said("remove the violin")[0] == ["remove the violin"]
    assert _said("brighten the stage")[1].startswith("I can't find the stage on my own")


def test_the_balloon_described_is_the_balloon_edited(tmp_path):
    from pathlib import Path

    from agent.dialogue.assistant import build_manager
    from agent.dialogue.manager import GrammarParser
    from editor.document import Document
    from editor.imageio import read_image
    from editor.store import Store

    photo = Path(__file__).resolve().parents[1] / "resources" / "library" / "red_balloon.jpg"
    doc = Document.create(Store(tmp_path / "e.db"), read_image(photo).pixels, title="red_balloon.jpg")
    manager = build_manager(doc, parser=GrammarParser(), library_path=tmp_path / "none.db")
    assert "balloon" in manager.handle("what's in the picture?").reply
    result = manager.handle("the balloon is too dark")
    assert result.ok and result.reply == "Brightened the balloon by 20 points.", result.reply
