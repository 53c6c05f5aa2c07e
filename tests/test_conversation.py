"""A conversation about the picture (issue 27): revisions re-rendered from the version they were applied
to, repeats, going back."""

from __future__ import annotations

import numpy as np
import pytest

from agent.dialogue.manager import DialogueManager, UndoStep
from agent.edits.run import execute
from agent.grammar.commands import AdjustAttr
from agent.language.followups import FOLLOW_UPS, Recent, outcome, read_follow_up
from editor.document import Document
from editor.store import Store


@pytest.fixture
def gradient():
    x = np.linspace(20, 235, 48, dtype=np.float64)
    img = np.stack([np.tile(x, (32, 1)), np.tile(x[::-1], (32, 1)), np.full((32, 48), 120.0)], axis=2)
    return img.astype(np.uint8)


@pytest.fixture
def manager(tmp_path, gradient):
    doc = Document.create(Store(tmp_path / "easel.db"), gradient, title="g.png")
    return DialogueManager(doc)


def lineage(doc: Document) -> list[str]:
    return [v.command for v in doc.lineage()[1:]]


EXAMPLES = [(rule.name, words, last, want) for rule in FOLLOW_UPS for words, last, want in rule.examples]


@pytest.mark.parametrize("name, words, last, want", EXAMPLES)
def test_each_follow_up_rule_reads_its_examples(name, words, last, want):
    recent = Recent.of(*[line for line in last.split("; ") if line])
    rule = next(r for r in FOLLOW_UPS if r.name == name)
    pieces_read = outcome(read_follow_up(words, recent))
    assert pieces_read == want
    if want != "none" and "," not in words:
        assert outcome(rule.read(words.lower(), recent)) == want  # this rule, not an earlier one


def test_a_revision_is_made_again_from_the_version_the_edit_was_applied_to(manager):
    doc = manager.document
    root = doc.head.id
    manager.handle("increase the contrast by 40")
    first = doc.head.id
    result = manager.handle("that's way too much contrast")
    assert result.reply == "Contrast now +10 instead of +40."
    assert lineage(doc) == ["adjust_attr contrast 10"] and doc.head.parent_id == root
    # the pixels are the original's at +10, not a correction stacked on the clipped +40
    assert np.array_equal(doc.pixels(), execute(AdjustAttr("contrast", 10), doc.pixels(root)))
    assert manager.history[-2] == "adjust_attr contrast 10"
    assert {v.id for v in doc.children(root)} == {first, doc.head.id}  # the first try stays in the tree
    # one undo takes the revision back, to the first try
    assert manager.handle("undo").ok and doc.head.id == first


def test_revisions_follow_what_was_asked(manager):
    doc = manager.document
    manager.handle("brighten it")
    manager.handle("no, the other way")
    assert lineage(doc) == ["adjust_attr brightness -20"]
    manager.handle("a bit less")
    assert lineage(doc) == ["adjust_attr brightness -15"]
    manager.handle("still too bright")  # brighter than wanted after darkening: darken more
    assert lineage(doc) == ["adjust_attr brightness -22"]
    manager.handle("make it blue")
    manager.handle("not so blue")
    assert lineage(doc)[-1] == "adjust_color blue 0.1"


def test_an_edit_without_an_amount_is_not_revised(manager):
    doc = manager.document
    manager.handle("make it black and white")
    head = doc.head.id
    result = manager.handle("a bit less")
    assert "no amount" in result.reply and doc.head.id == head


def test_follow_ups_without_an_edit_are_left_to_the_rules(manager):
    assert not manager.read("the other way")[0]
    assert manager.read("too dark")[0][0].format() == "adjust_attr brightness 20"  # a request of its own


def test_again_same_for_and_going_back(manager):
    doc = manager.document
    manager.handle("rotate it 90 degrees clockwise")
    manager.handle("again")
    assert lineage(doc) == ["rotate 270", "rotate 270"]
    manager.handle("flip it horizontally")
    manager.handle("and vertically as well")
    assert lineage(doc)[-2:] == ["flip horizontal", "flip vertical"]
    manager.handle("increase contrast by 25")
    manager.handle("do the same for brightness")
    assert lineage(doc)[-2:] == ["adjust_attr contrast 25", "adjust_attr brightness 25"]
    manager.handle("undo the last two edits")
    assert lineage(doc) == ["rotate 270", "rotate 270", "flip horizontal", "flip vertical"]
    assert manager.history[-3:-1] == ["undo", "undo"]  # CAISE's form: one undo line a step
    before = doc.head.id
    result = manager.handle("go back to the original")
    assert doc.head.id == doc.root.id and "original" in result.reply
    manager.handle("undo")  # brings the edits back
    assert doc.head.id == before
    manager.handle("the previous one was better")
    assert lineage(doc) == ["rotate 270", "rotate 270", "flip horizontal"]


def test_repeat_runs_the_whole_last_request(manager):
    manager.handle("increase brightness by 30 and contrast by 20")
    manager.handle("repeat the last edit")
    assert lineage(manager.document) == ["adjust_attr brightness 30", "adjust_attr contrast 20"] * 2


def test_undo_steps_and_the_original_follow_the_window_s_plan(manager):
    doc = manager.document
    manager.handle("rotate 90")
    manager.handle("flip horizontal")
    head = doc.head.id
    manager.context.undo_plan = {"undo": UndoStep("flip", doc, doc.parent().id),
                                 "undo 2": UndoStep("rotate", doc, doc.root.id),
                                 "original": UndoStep("the original", doc, doc.root.id, checkout=True)}
    result = manager.handle("undo the last two edits")
    assert result.ok and result.version.id == doc.root.id and doc.head.id == head  # the window takes the steps
    assert result.command.steps == 2
    result = manager.handle("put it back the way it was")
    assert result.ok and result.command.original and result.version.id == doc.root.id


def test_praise_is_answered_and_nothing_runs(manager):
    manager.handle("rotate 90")
    head = manager.document.head.id
    for words in ("perfect, thanks", "ok thats good", "great thank you!"):
        result = manager.handle(words)
        assert not result.commands and manager.document.head.id == head
