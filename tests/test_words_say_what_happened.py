"""Numbers in words are read right or refused, and replies say what really happened (issue 32)."""

from __future__ import annotations

import numpy as np
import pytest

from agent.dialogue.manager import DialogueManager, GrammarParser
from agent.language import reader
from editor.document import Document
from editor.store import Store


@pytest.mark.parametrize("utterance, line", [
    ("rotate it -45 degrees", "rotate 315"),  # a negative angle turns clockwise
    ("rotate it 45 degrees counterclockwise", "rotate 45"),
    ("rotate it 90 degrees clockwise", "rotate 270"),
])
def test_signed_angles_turn_the_right_way(utterance, line):
    assert [c.format() for c in reader.read(utterance).commands] == [line]


@pytest.mark.parametrize("utterance", ["make it 1e309 percent brighter", "rotate it inf degrees",
                                       "add nan percent contrast"])
def test_numbers_that_are_not_finite_are_refused(utterance):
    reading = reader.read(utterance)
    assert reading.commands == []
    assert "not an amount I can use" in " ".join(reading.notes + [reading.reply or ""])


def test_a_crop_beyond_the_image_says_the_size_it_kept(tmp_path):
    doc = Document.create(Store(tmp_path / "e.db"), np.zeros((20, 30, 3), np.uint8), title="t")
    manager = DialogueManager(doc, parser=GrammarParser())
    result = manager.handle("crop 0 0 999999999 999999999")
    assert result.ok and doc.pixels().shape == (20, 30, 3)
    assert result.reply.startswith("Cropped to 30×20 pixels.")
    assert "999999999×" not in result.reply
