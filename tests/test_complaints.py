"""A fault said of the picture or a part of it is mended by the opposite edit, where it was said.

Found by typing complaints into the assistant on a real photo: "the sky is too blue" ran an automatic
enhance that made the whole photo bluer; "the photo feels cold" made it colder and "it's too soft"
blurred it; "it's a bit dark", "it's a bit flat" and "the highlights are blown" were refused; "this
is too contrasty" answered "I can't find the is".
"""

from __future__ import annotations

import numpy as np
import pytest

from agent.dialogue.manager import DialogueManager
from agent.language.complaints import complaint
from agent.language.reader import read
from editor.document import Document
from editor.store import Store


def _read(words: str):
    return read(words, model=lambda *a, **k: None, photo_open=True)


@pytest.mark.parametrize("words, want", [
    ("the sky is too blue", "adjust_attr saturation -30 in sky"),  # the sky's own colour: less of it
    ("too much blue in the sky", "adjust_attr saturation -30 in sky"),
    ("the sky looks too grey", "adjust_attr saturation 30 in sky"),
    ("the photo is too blue", "adjust_attr warmth 25"),  # was auto_enhance, which can make it bluer
    ("it's too yellow", "adjust_attr warmth -25"),
    ("the whites are too yellow", "adjust_attr warmth -25"),
    ("the photo feels cold", "adjust_attr warmth 25"),  # made it colder
    ("it's too soft", "adjust_attr sharpness 40"),  # blurred it
    ("it's a bit dark", "adjust_attr brightness 10"),  # refused
    ("the photo's a bit dark", "adjust_attr brightness 10"),
    ("it's a bit flat", "adjust_attr contrast 10"),
    ("this is too contrasty", "adjust_attr contrast -20"),  # "I can't find the is"
    ("it looks too harsh", "adjust_attr contrast -20"),
    ("the highlights are blown", "adjust_attr brightness -25 in highlights"),
    ("the colours are too bright", "adjust_attr saturation -30"),  # too vivid, not too light
    ("the colours look faded", "adjust_attr saturation 30"),
    ("the colours look a bit lifeless", "adjust_attr saturation 15"),  # was contrast: the colours are dull
    ("the horse looks dark", "adjust_attr brightness 20 in the horse"),
    ("the background is too blurry", "adjust_attr sharpness 40 in background"),
    ("the shadows are too black", "adjust_attr brightness 25 in shadows"),
    ("it's way too saturated", "adjust_attr saturation -60"),
    ("too much red", "auto_enhance"),  # a colour cast over the whole picture: white balance
])
def test_a_fault_is_mended_by_the_opposite_edit_where_it_was_said(words, want):
    reading = _read(words)
    assert [c.format() for c in reading.commands] == [want], (reading.reply, reading.notes)


@pytest.mark.parametrize("words", ["the water is too dark", "the lips are too red"])
def test_a_part_easel_cannot_find_is_asked_for_with_the_mend_to_say(words):
    """The example said "make this are too dark"; it is now the edit that mends the fault."""
    reading = _read(words)
    assert not reading.commands
    said = " ".join(reading.notes)
    assert "Draw around" in said and ("“brighten this”" in said or "“make this less colourful”" in said), said


@pytest.mark.parametrize("words", ["the sky is blue", "the car looks red", "the sky is now blue", "it is also blue", "make it darker", "is it too dark",
                                   "why is it dark", "it's dark on purpose", "the background is too busy"])
def test_what_is_not_a_fault_is_not_read_as_one(words):
    assert complaint(words) is None


def test_a_quality_said_without_too_is_proposed_not_run_and_yes_runs_it(tmp_path):
    """"the photo is dark" may describe it: Easel asks whether to brighten it, and "yes" does."""
    img = np.full((32, 48, 3), 60, np.uint8)
    doc = Document.create(Store(tmp_path / "easel.db"), img, title="g.png")
    manager = DialogueManager(doc)
    result = manager.handle("the photo is dark")
    assert [v.command for v in doc.lineage()[1:]] == [] and result.ok, result.reply
    assert "Say yes" in result.reply
    manager.handle("yes")
    assert [v.command for v in doc.lineage()[1:]] == ["adjust_attr brightness 20"]


def test_a_busy_background_gets_a_blur_proposed():
    for words in ("the background is too busy", "make the background less busy"):
        reading = _read(words)
        assert not reading.commands and reading.chat and [c.format() for c in reading.proposal] == ["background blur"]


@pytest.mark.slow
def test_how_bright_a_part_is_is_measured_not_edited(tmp_path):
    """"how bright is the sky?" brightened the sky. It is now measured against the whole picture."""
    from agent.describe.questions import answer_question
    from agent.language.questions import read_question

    assert read_question("how bright is the sky?") == read_question("How bright is the sky")
    assert read_question("how bright is the sky?").kind == "measure_part"
    img = np.zeros((120, 160, 3), np.uint8)
    img[:50] = (110, 170, 235)  # a clear sky over dark ground
    img[50:] = (70, 60, 40)
    text, data, plan = answer_question(img, read_question("how bright is the sky?"))
    assert text.startswith("The mean brightness of the sky is") and "brighter than the rest" in text, text
    assert data["overlays"][0]["box"][1] == 0 and not plan
    text, _, _ = answer_question(img, read_question("how warm is the sky?"))
    assert "cooler than the rest" in text, text
    from agent.dialogue.assistant import build_manager
    from agent.dialogue.manager import GrammarParser

    doc = Document.create(Store(tmp_path / "easel.db"), img, title="g.png")
    manager = build_manager(doc, parser=GrammarParser(), library_path=tmp_path / "none.db")
    result = manager.handle("how bright is the sky?")
    assert [v.command for v in doc.lineage()[1:]] == [] and result.ok, result.reply
    assert not manager.handle("how bright is it?").reply.startswith(("No,", "Yes,"))


def test_a_thing_in_focus_is_judged_against_the_rest(monkeypatch):
    """"is the cheetah in focus?" was answered of the whole picture ("I measure sharpness over the whole
    picture only"): a sharp thing before a blurred background is in focus, a soft one before a sharp
    background is not; a flat thing with a crisp outline (the library's red balloon) is in focus."""
    import cv2

    from agent.describe.questions import answer_question
    from agent.language.questions import read_question
    from agent.perception import things
    from agent.perception.models import Detection

    rng = np.random.default_rng(2)
    sharp = np.clip(rng.normal(120, 50, (240, 320, 3)), 0, 255).astype(np.uint8)
    soft = cv2.GaussianBlur(sharp, (0, 0), 6)
    cat = Detection("cat", 0.9, (124, 84, 196, 156))  # (inside the pasted square: its own edges, not the seam)
    monkeypatch.setattr(things, "detect", lambda rgb, min_score=0.3: [cat])
    for inside, outside, verdict in ((sharp, soft, "looks in focus"), (soft, sharp, "looks soft")):
        img = outside.copy()
        img[80:160, 120:200] = inside[80:160, 120:200]
        text, data, _ = answer_question(img, read_question("is the cat in focus?"))
        assert text.startswith(f"The cat in the middle {verdict}"), text
        assert data["overlays"][0]["box"] == [124, 84, 196, 156]
    flat = np.full((240, 320, 3), (120, 170, 230), np.uint8)
    flat[86:154, 126:194] = (200, 30, 40)  # a flat red thing, its outline crisp
    assert answer_question(flat, read_question("is the cat in focus?"))[0].startswith("The cat in the middle looks in focus")
