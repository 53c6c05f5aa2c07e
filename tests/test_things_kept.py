"""Things kept through edits that move no pixel: gcompris' meerkats were 3 before "make the one in
the middle brighter" and 2 after it (the detector lost the brightened one). The detector's looks at
the picture on screen see the picture before its light and colour edits instead; any other picture
(a removal's result, checked before it is kept) is looked at as it is."""

from __future__ import annotations

import numpy as np
import pytest

from agent.dialogue.manager import DialogueManager
from agent.perception import things
from agent.perception.models import Detection
from agent.perception.names_kept import unmoved_from
from editor.document import Document
from editor.store import Store


@pytest.fixture
def dark_dog_detector(monkeypatch):
    """A detector that sees a "dog" where the picture's top-left quarter is dark (under 100)."""
    def detect_objects(pixels, min_score=0.4):
        h, w = pixels.shape[:2]
        return [Detection("dog", 0.5, (0, 0, w // 2, h // 2))] if pixels[: h // 2, : w // 2].mean() < 100 else []

    monkeypatch.setattr(things, "detect_objects", detect_objects)


def test_a_thing_found_before_light_edits_is_still_found_on_screen(dark_dog_detector):
    before = np.full((40, 60, 3), 60, np.uint8)
    shown = before + np.uint8(80)  # brightened: the detector no longer sees the dog
    assert things.detect(shown) == []
    with unmoved_from(lambda: (shown, before)):
        assert [d.label for d in things.detect(shown)] == ["dog"]
        assert [d.label for d in things.detect_in(shown, (5, 5, 20, 15), 0.3)] == ["dog"]
        removed = shown.copy()
        removed[0, 0] = 0  # another picture of the same size (a removal's result): looked at alone
        assert things.detect(removed) == []
    with unmoved_from(lambda: None):
        assert things.detect(shown) == []


def test_the_dialogue_names_the_picture_before_the_light_edits(tmp_path):
    img = np.full((32, 48, 3), 90, np.uint8)
    manager = DialogueManager(Document.create(Store(tmp_path / "e.db"), img, title="g.png"))
    assert manager._unmoved() is None  # the original
    manager.handle("make it brighter")
    manager.handle("add contrast")
    shown, before = manager._unmoved()
    assert np.array_equal(shown, manager.document.pixels()) and np.array_equal(before, img)
    manager.handle("rotate 90")
    assert manager._unmoved() is None  # a rotation moves pixels: nothing to look at besides


def test_a_background_blur_keeps_the_things_where_they_were(tmp_path):
    # Kleiber's nuthatch: "blur the background", then "is there a bird?" was "I don't see a bird"
    img = np.full((32, 48, 3), 90, np.uint8)
    manager = DialogueManager(Document.create(Store(tmp_path / "e.db"), img, title="g.png"))
    blurred = img.copy()
    blurred[:, 24:] = 100
    manager.document.apply("background blur", blurred)
    manager.document.apply("adjust_attr brightness 20", blurred + np.uint8(5))
    shown, before = manager._unmoved()
    assert np.array_equal(shown, manager.document.pixels()) and np.array_equal(before, img)
    manager.document.apply("background white", blurred)
    assert manager._unmoved() is None  # the background's things are gone
