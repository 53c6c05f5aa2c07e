""""How much greener?" after "make the grass greener": it tinted the whole picture green at 35% (read
as a request), then, read as a question, said "it was not tinted" (the change was the greenery's, not
a tint of everything) and "The changed region went from brown to brown"."""

from __future__ import annotations

import numpy as np

from agent.dialogue.assistant import build_manager
from agent.dialogue.manager import GrammarParser
from agent.explain import chat
from agent.explain.types import Explanation, Finding
from editor.document import Document
from editor.store import Store


def test_how_much_of_a_part_recoloured_says_by_how_much(tmp_path, monkeypatch):
    img = np.full((60, 80, 3), 120, np.uint8)
    doc = Document.create(Store(tmp_path / "e.db"), img, title="t")
    manager = build_manager(doc, parser=GrammarParser(), library_path=tmp_path / "none.db")
    assert manager.handle("make it brighter").ok  # (a version to compare with)
    said = "The greenery became greener."
    finding = Finding("object_recolored", {"from_color": "brown", "to_color": "brown", "chroma_shift": [-10.1, 6.2],
                                           "lightness_change": 2.6, "area_fraction": 0.13, "region": "greenery"},
                      [0, 30, 80, 60], [0, 30, 80, 60], said)
    monkeypatch.setattr(chat, "explain_images", lambda before, after: Explanation(
        [finding], said, (80, 60), (80, 60), [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]))
    reply = manager.handle("how much greener?").reply
    assert "not tinted" not in reply and "from brown to brown" not in reply, reply
    assert "the greenery became greener: its colours moved by about 12 (CIELAB a*b*), lightness +3 of 100" in reply, reply


def test_how_much_did_you_brighten_it_is_answered_from_the_edits_not_run(tmp_path):
    """"how much did you brighten it?" brightened it by 40; "how many degrees did you rotate it?" was
    taken for things to count ("“degrees did you rotate it” is not one of them")."""
    img = np.full((60, 80, 3), 120, np.uint8)
    doc = Document.create(Store(tmp_path / "e.db"), img, title="t")
    manager = build_manager(doc, parser=GrammarParser(), library_path=tmp_path / "none.db")
    assert manager.handle("how much did you brighten it?").reply == (
        "I haven't changed the brightness since the original (the edits: no edit yet).")
    for request in ("rotate 2", "brighten it", "brighten it a bit more"):
        assert manager.handle(request).ok
    lines = [v.command for v in manager.document.lineage()]
    assert manager.handle("how much have you brightened it so far?").reply == (
        "I changed the brightness twice since the original: “Brighter +20”, then “Brighter +10” (+30 in all).")
    assert manager.handle("how many degrees did you rotate it?").reply == (
        "I rotated it once since the original: “Rotate 2° CCW”.")
    assert manager.handle("how much did you increase the contrast?").reply.startswith(
        "I haven't changed the contrast since the original (the edits: “Rotate 2° CCW”, “Brighter +20”")
    assert [v.command for v in manager.document.lineage()] == lines  # no question ran an edit


def test_what_did_you_brighten_is_answered_from_the_edits_not_run(tmp_path):
    """gcompris' lemur: "what did you brighten?" brightened the picture by 20. It names the edits of
    that kind and their parts, with no total across parts."""
    img = np.full((60, 80, 3), 120, np.uint8)
    doc = Document.create(Store(tmp_path / "e.db"), img, title="t")
    manager = build_manager(doc, parser=GrammarParser(), library_path=tmp_path / "none.db")
    assert manager.handle("what did you brighten?").reply.startswith("I haven't changed the brightness")
    for request in ("adjust_attr brightness 20 in left", "adjust_attr brightness -20 in right"):
        assert manager.handle(request).ok
    assert manager.handle("which part did you darken?").reply == (
        "I changed the brightness twice since the original: “Brighter +20 in left”, then “Darker -20 in right”.")
    assert len(manager.document.lineage()) == 3  # no question ran an edit


def test_what_did_you_remove_and_is_it_gone_after_a_placed_removal(tmp_path, monkeypatch):
    """gcompris' orchestra: "remove the person on the far left", then "is it gone?" was "I can't answer
    that" (only a removal of one or two words was "it"), and "what did you remove?" "Sorry, I don't know
    how to do that"."""
    doc = Document.create(Store(tmp_path / "e.db"), np.full((60, 80, 3), 120, np.uint8), title="t")
    manager = build_manager(doc, parser=GrammarParser(), library_path=tmp_path / "none.db")
    assert manager.handle("what did you remove?").reply == (
        "I haven't removed anything since the original (the edits: no edit yet).")
    manager.document.apply("remove the person on the far left", manager.document.pixels())
    assert manager.handle("what did you remove?").reply == (
        "I removed something once since the original: “Remove the person on the far left”.")
    commands, _ = manager.read("is it gone?")
    assert [c.format() for c in commands] == ["describe"] and commands[0].question == "is the person on the far left gone"


def test_how_much_darker_after_another_edit_points_at_the_earlier_one(tmp_path, astronaut):
    """gcompris' Chambord: "darken the grass a bit", "rotate 2 degrees", then "how much darker is the
    grass?" said only "The brightness did not change" (true of the last step, which was the rotation)."""
    img = np.ascontiguousarray(astronaut[::4, ::4])
    doc = Document.create(Store(tmp_path / "e.db"), img, title="t")
    manager = build_manager(doc, parser=GrammarParser(), library_path=tmp_path / "none.db")
    for request in ("darken it a bit", "rotate 2 degrees"):
        assert manager.handle(request).ok
    reply = manager.handle("how much darker is it?").reply
    assert reply.startswith("Compared with the previous version, the brightness did not change") and (
        "Before the last step, “Darker -10” changed it; say “compare with the original”") in reply, reply
    assert "Before the last step" in manager.handle("how much darker is it?").reply  # (asked again: the same)
