"""Questions past the description (issue 30, "questions answered"): "is there anything else?" after
"what is in this picture?" was read as "what changed?" ("I have nothing to compare with"), and "what
is the dog doing?" was refused with the list of capabilities."""

from __future__ import annotations

import numpy as np

from agent.describe import caption, questions
from agent.describe.words import Segment
from agent.language.questions import read_question
from agent.perception import naming, things
from agent.perception.models import Detection

DOG, CAT = (40, 150, 120, 230), (200, 170, 240, 220)


def _scene(monkeypatch, dets) -> np.ndarray:
    """A blue sky over grass; the detector finds ``dets``; the description names the dog only."""
    rng = np.random.default_rng(0)
    img = np.zeros((240, 320, 3), np.uint8)
    img[:100] = np.linspace((70, 120, 200), (150, 190, 235), 100).astype(np.uint8)[:, None, :]
    img[100:] = np.clip(rng.normal((60, 130, 50), 18, (140, 320, 3)), 0, 255).astype(np.uint8)
    monkeypatch.setattr(things, "detect", lambda rgb, min_score=0.35: [d for d in dets if d.score >= min_score])
    monkeypatch.setattr(naming, "name_objects", lambda rgb, ds, context=(): [
        naming.Named(d.label, d.label, None, "detector", d.score, d.label) for d in ds])

    class Said:
        text = "In this picture I can see a dog on the left."
        segments = [Segment("a dog on the left", DOG, 0, 0, "#ff0000", "dog")]

    monkeypatch.setattr(caption, "describe_image", lambda pixels: Said())
    return img


def test_anything_else_says_what_the_description_left_out(monkeypatch):
    img = _scene(monkeypatch, [Detection("dog", 0.9, DOG), Detection("cat", 0.4, CAT)])
    for words in ("is there anything else?", "anything else", "what else can you see?", "what else is in the photo?"):
        assert read_question(words).kind == "else", words
    text, data, _ = questions.answer_question(img, read_question("anything else?"))
    assert text.startswith("Besides the dog, I can see a cat at the bottom right (I'm not sure of it: score 0.40)")
    assert "the sky at the top" in text and "greenery" in text
    assert [o["label"] for o in data["overlays"]][:2] == ["cat?", "sky"]
    assert data["topic"] == "the dog"


def test_nothing_else_is_said_with_what_easel_can_name(monkeypatch):
    img = _scene(monkeypatch, [Detection("dog", 0.9, DOG)])
    img[:] = 128  # no sky, no greenery
    text = questions.answer_question(img, read_question("is there anything else?"))[0]
    assert text.startswith("Besides the dog, I find nothing else I can name.")


def test_what_a_thing_is_doing_is_said_to_be_beyond_easel_with_where_it_is(monkeypatch):
    img = _scene(monkeypatch, [Detection("dog", 0.9, DOG)])
    question = read_question("what's the dog doing?")
    assert question.kind == "doing" and question.about == "dog"
    text, data, _ = questions.answer_question(img, question)
    assert text.startswith("I can't tell what the dog is doing: my models find what things are and where")
    assert "It is at the bottom left" in text and len(data["overlays"]) == 1
    assert questions.answer_question(img, read_question("what is the horse doing?"))[0].startswith("I don't see a horse")
    _scene(monkeypatch, [Detection("dog", 0.9, DOG), Detection("dog", 0.8, CAT)])
    both = questions.answer_question(img, read_question("what is the dog doing?"))[0]
    one = questions.answer_question(img, read_question("what is the dog on the right doing?"))
    assert "I see 2 of them" in both and one[0].startswith("I can't tell what the dog is doing")
    assert one[1]["overlays"][0]["box"] == list(CAT)


def test_a_comparison_across_edits_made_in_parts_is_read_edit_by_edit(tmp_path, astronaut):
    """"make the dog brighter", "make the background darker", "compare it with the original": the
    two pictures alone were read as one change of it all ("less contrast, by about 48 points. The
    background was removed (now black)" for the astronaut's two halves)."""
    from agent.dialogue.assistant import build_manager
    from agent.dialogue.manager import GrammarParser
    from editor.document import Document
    from editor.store import Store

    doc = Document.create(Store(tmp_path / "e.db"), astronaut.copy(), title="t")
    manager = build_manager(doc, parser=GrammarParser(), library_path=tmp_path / "none.db")
    assert manager.handle("adjust_attr brightness 30 in left").ok
    assert manager.handle("adjust_attr brightness -30 in right").ok
    reply = manager.handle("compare it with the original").reply
    assert "got brighter" in reply and "got darker" in reply, reply
    assert "contrast" not in reply and "removed" not in reply, reply
    assert manager.handle("anything else?").reply.startswith("No, nothing else")
