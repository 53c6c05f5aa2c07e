"""Looks made of several edits. "make it look like sunset" was refused ("I can't replace the sky"); "give the sky a sunset look"
warmed the sky and then found no sky to darken (the sky was looked for on the warmed picture), and
"too red" after it found none either."""

from __future__ import annotations

import numpy as np

from agent.dialogue.assistant import build_manager
from agent.dialogue.manager import GrammarParser
from agent.language.reader import read
from editor.document import Document
from editor.store import Store


def _sky_photo() -> np.ndarray:
    """A pale blue sky over grass: warmed by 40, the sky finder sees no sky in it."""
    img = np.zeros((300, 400, 3), np.uint8)
    yy = np.linspace(0, 1, 200)[:, None]
    img[:200] = np.stack([200 + 40 * yy, 215 + 30 * yy, 235 + 0 * yy], axis=2).clip(0, 255).astype(np.uint8)
    img[200:] = np.clip(np.array([60, 140, 50]) + np.random.default_rng(0).normal(0, 12, (100, 400, 3)), 0, 255)
    return img


def test_a_sunset_look_is_warmer_darker_and_redder_and_not_a_new_sky():
    said = lambda words: [c.format() for c in read(words, model=lambda *a, **k: None, photo_open=True).commands]  # noqa: E731
    assert said("make it look like sunset") == ["adjust_attr warmth 40", "adjust_attr brightness -15", "adjust_color red 0.1"]
    assert said("give it a subtle golden hour feel") == ["adjust_attr warmth 20", "adjust_attr brightness -8",
                                                         "adjust_color red 0.05"]
    assert not said("replace the sky with a sunset")


def test_a_sunset_named_is_the_scene_s_light_not_a_new_sky():
    # GIER's "Increase saturation of sunset.", "Make the sunset more pronounced." were "I can't replace the sky"
    said = lambda words: [c.format() for c in read(words, model=lambda *a, **k: None, photo_open=True).commands]  # noqa: E731
    assert said("make the sunset warmer") == ["adjust_attr warmth 25"]
    assert said("Increase saturation of sunset.") == ["adjust_attr saturation 30"]
    assert said("make the sunset sky more orange") == ["adjust_color orange 0.2 in sky"]
    for words in ("add a sunset", "replace the sky with a sunset", "can you put a sunset behind him"):
        assert not said(words), words


def test_the_sky_is_found_through_the_light_and_colour_edits_made_to_it(tmp_path):
    doc = Document.create(Store(tmp_path / "e.db"), _sky_photo(), title="sky.png")
    manager = build_manager(doc, parser=GrammarParser(), library_path=tmp_path / "none.db")
    result = manager.handle("give the sky a sunset look")
    assert result.ok and result.reply == ("Made the sky warmer by 40 points. Darkened the sky by 15 points. "
                                          "Tinted the sky toward red at 10%."), result.reply
    out = manager.document.pixels().astype(int)
    assert (out[250] == _sky_photo()[250]).all()  # the grass as it was
    result = manager.handle("too red")
    assert result.ok and result.reply == "Tint now red at 5% instead of red at 10%.", result.reply
    assert manager.handle("make the sky darker").ok


def test_an_old_photo_look_is_faded_and_warm_and_not_a_face_made_older():
    """"make the photo look older" was refused as a face's retouch ("I can't retouch skin ..."), and "add
    some grain" said "I can't remove noise or grain"."""
    said = lambda words: read(words, model=lambda *a, **k: None, photo_open=True)  # noqa: E731
    look = ["adjust_attr saturation -40", "adjust_attr contrast -15", "adjust_color orange 0.2"]
    assert [c.format() for c in said("make the photo look older").commands] == look
    assert [c.format() for c in said("give it a vintage look").commands] == look
    assert not said("make him look older").commands
    assert not said("remove the vintage look from the picture").commands  # (it added one)
    assert said("add some grain").reply.startswith("I can't add grain")


def test_a_season_s_look_is_made_of_the_picture_not_of_the_part_edited_last(tmp_path):
    # plasma's Path forest: after "brighten the trees a bit", "make it look like autumn" ran the command
    # model's "adjust_color green 0.2 in greenery" (the rules knew no season, and "it" was the greenery)
    said = lambda words: [c.format() for c in read(words, model=lambda *a, **k: None, photo_open=True).commands]  # noqa: E731
    assert said("give it a subtle winter look") == ["adjust_attr warmth -13", "adjust_attr saturation -15",
                                                    "adjust_attr brightness 5"]
    assert said("make the fall colours more vivid") == ["adjust_attr saturation 30"]  # (no look asked for)
    assert said("it looks like winter") == []  # (said of the photo, not asked)
    img = _sky_photo()
    img[200:] = np.clip(np.random.default_rng(1).normal((60, 120, 40), 25, (100, 400, 3)), 0, 255)  # textured grass
    doc = Document.create(Store(tmp_path / "e.db"), img, title="field.png")
    manager = build_manager(doc, parser=GrammarParser(), library_path=tmp_path / "none.db")
    assert manager.handle("brighten the grass a bit").ok
    result = manager.handle("make it look like autumn")
    assert result.ok and [v.command for v in manager.document.lineage()[1:]] == [
        "adjust_attr brightness 10 in greenery", "adjust_attr hue -40 in greenery", "adjust_attr warmth 15"], result.reply
    # ... and after an edit of a thing (the library's balloon: its hues were turned, and it went pink)
    manager.document.apply("adjust_attr brightness 20 in the dog", manager.document.pixels())
    assert [c.format() for c in manager.read("make it look like winter")[0]] == [
        "adjust_attr warmth -25", "adjust_attr saturation -30", "adjust_attr brightness 10"]
    manager.context.topic = "the dog"  # ... or after a question about it ("what is it standing on?")
    assert [c.format() for c in manager.read("make it look like winter")[0]] == [
        "adjust_attr warmth -25", "adjust_attr saturation -30", "adjust_attr brightness 10"]
