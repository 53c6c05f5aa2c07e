"""Revisions of a request of several edits ("a bit less" after "make it moodier" took back only its
colours; "too dark" after it added a brightening on top): every edit of the request, or the one the
words name, made again from the picture before the request, in one step that one undo takes back."""

from __future__ import annotations

import numpy as np
import pytest

from agent.dialogue.manager import DialogueManager
from agent.edits.run import execute
from agent.grammar.commands import AdjustAttr
from editor.document import Document
from editor.store import Store


@pytest.fixture
def manager(tmp_path):
    x = np.linspace(20, 235, 48)
    img = np.stack([np.tile(x, (32, 1)), np.tile(x[::-1], (32, 1)), np.full((32, 48), 120.0)], axis=2)
    return DialogueManager(Document.create(Store(tmp_path / "easel.db"), img.astype(np.uint8), title="g.png"))


def lineage(doc: Document) -> list[str]:
    return [v.command for v in doc.lineage()[1:]]


def test_a_bit_less_after_a_request_of_several_edits_scales_them_all(manager):
    doc = manager.document
    root = doc.head.id
    manager.handle("make it moodier")
    first = doc.head.id
    assert lineage(doc) == ["adjust_attr brightness -15", "adjust_attr contrast 15", "adjust_attr saturation -20"]
    said = manager.handle("a bit less")
    assert said.ok and said.reply == ("Brightness now -11 instead of -15. Contrast now +11 instead of +15. "
                                      "Saturation now -15 instead of -20.")
    assert lineage(doc) == ["adjust_attr brightness -11", "adjust_attr contrast 11", "adjust_attr saturation -15"]
    assert doc.lineage()[1].parent_id == root  # made again from the original, not on top of the first try
    want = doc.pixels(root)
    for line in ("brightness -11", "contrast 11", "saturation -15"):
        attr, amount = line.split()
        want = execute(AdjustAttr(attr, float(amount)), want)
    assert np.array_equal(doc.pixels(), want)
    # the history replays to the pixels on screen: three undos, then the new amounts
    assert manager.history[-8:-1] == ["user_text: a bit less", "undo", "undo", "undo", "adjust_attr brightness -11",
                                      "adjust_attr contrast 11", "adjust_attr saturation -15"]
    # a second "a bit less" scales the revised request again, all three
    manager.handle("a bit less")
    assert lineage(doc) == ["adjust_attr brightness -8", "adjust_attr contrast 8", "adjust_attr saturation -11"]
    manager.handle("undo")
    manager.handle("undo")
    assert doc.head.id == first  # one undo a revision: back to the first try


def test_a_quality_named_revises_the_edit_it_names_and_keeps_the_others(manager):
    doc = manager.document
    manager.handle("make it moodier")
    said = manager.handle("too dark")
    assert said.reply == "Brightness now -8 instead of -15."
    assert lineage(doc) == ["adjust_attr brightness -8", "adjust_attr contrast 15", "adjust_attr saturation -20"]
    assert manager.handle("undo").ok and lineage(doc) == [
        "adjust_attr brightness -15", "adjust_attr contrast 15", "adjust_attr saturation -20"]
