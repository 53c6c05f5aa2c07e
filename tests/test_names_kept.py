"""Things named on the photo as opened keep their names on its edits (issue 30): a panda brightened
was a "bear" ("what colour is the panda?": "I don't see a panda"), and the explanation of its
removal said "the bear"."""

from __future__ import annotations

import numpy as np
import pytest

from agent.perception import names_kept, naming, things
from agent.perception.models import Detection
from agent.perception.naming import Named

PANDA = Named("bear", "panda", None, "classifier", 0.9, "panda")
BEAR = Named("bear", "black bear", "black", "detector", 0.9, "bear")


def test_a_thing_at_the_same_place_keeps_the_name_it_had():
    was = [(Detection("bear", 0.99, (200, 70, 870, 610)), PANDA)]
    assert names_kept.kept_name((205, 52, 874, 610), BEAR, was) is PANDA
    assert names_kept.kept_name((205, 52, 874, 610), PANDA, was) is None  # already so named
    assert names_kept.kept_name((600, 300, 900, 600), BEAR, was) is None  # another place
    person = Named("person", "person in red", "red", "detector", 0.9, "person")
    assert names_kept.kept_name((205, 52, 874, 610), person, was) is None  # a person is named by what is seen
    unnamed = [(Detection("bear", 0.5, (200, 70, 870, 610)), Named("object", "grey object", "grey", "none", 0.5, "object"))]
    assert names_kept.kept_name((205, 52, 874, 610), BEAR, unnamed) is None


@pytest.fixture
def seen(monkeypatch):
    calls = []

    def detect(rgb, min_score=0.3):
        calls.append(rgb.copy())
        return [Detection("bear", 0.99, (2, 2, 20, 20))]

    monkeypatch.setattr(things, "detect", detect)
    monkeypatch.setattr(naming, "name_objects", lambda rgb, dets, **_: [PANDA for _ in dets])
    return calls


def test_the_reference_is_the_photo_as_opened_of_the_same_size(seen):
    photo = np.random.default_rng(1).integers(0, 255, (24, 32, 3), dtype=np.uint8)
    edited = np.clip(photo.astype(int) + 30, 0, 255).astype(np.uint8)
    assert names_kept.reference_things(edited, naming.things_named) == []  # no dialogue: what the pixels show
    with names_kept.names_from(lambda: photo):
        assert names_kept.reference_things(photo, naming.things_named) == []  # the photo itself
        assert names_kept.reference_things(edited[:, :20], naming.things_named) == []  # cropped
        assert [n for _, n in names_kept.reference_things(edited, naming.things_named)] == [PANDA]
        names_kept.reference_things(edited, naming.things_named)
    assert len(seen) == 1 and np.array_equal(seen[0], photo)  # named once, the reference's pixels


def test_naming_gives_a_thing_the_reference_s_name_with_its_own_colour(monkeypatch):
    from skimage import data

    cat = data.chelsea()
    box = (100, 20, 400, 300)
    own = naming.name_objects(cat, [Detection("bear", 0.9, box)])[0]
    monkeypatch.setattr(naming, "reference_things", lambda rgb, name_all: [(Detection("bear", 0.99, box), PANDA)])
    named = naming.name_objects(cat, [Detection("bear", 0.9, box)])[0]
    assert own.said != "panda" and named.said == "panda" and named.phrase == "panda"  # (a pattern, no colour said)
    assert named.colour == own.colour  # the colour is what the pixels show now


def test_the_dialogue_names_things_as_on_the_photo_it_opened(tmp_path, seen):
    from agent.dialogue.manager import DialogueManager, GrammarParser
    from agent.grammar.turns import TurnResult
    from editor.document import Document
    from editor.store import Store

    photo = np.random.default_rng(2).integers(0, 255, (24, 32, 3), dtype=np.uint8)
    doc = Document.create(Store(tmp_path / "easel.db"), photo, title="p.png")
    manager = DialogueManager(doc, parser=GrammarParser())
    asked = []

    def describe(m, command):
        asked.append(names_kept.reference_things(m.document.pixels(), naming.things_named))
        return TurnResult("describe", "seen", commands=[command])

    manager.handlers["describe"] = describe
    manager.handle("describe")
    assert asked == [[]]  # the photo as opened is what is named
    manager.handle("brighten it")
    manager.handle("describe")
    assert [n for _, n in asked[-1]] == [PANDA] and np.array_equal(seen[-1], photo)
    assert names_kept.reference_things(doc.pixels(), naming.things_named) == []  # only within a turn


def test_the_pieces_of_one_removal_are_said_once():
    """A panda removed was three changes (its black part, its white part, a piece at its ear):
    "The panda in the middle was removed. The bear at the bottom was removed. The grey object at
    the top left was removed.\""""
    from agent.explain.objects import one_thing_once
    from agent.explain.types import Finding

    panda = Finding("object_removed", {"object": "panda"}, [208, 42, 864, 611], [208, 42, 864, 611])
    white = Finding("object_removed", {"object": "bear"}, [290, 291, 768, 606], [290, 291, 768, 606])
    ear = Finding("object_removed", {"color": "grey"}, [208, 152, 250, 238], [208, 152, 250, 238])
    dog = Finding("object_removed", {"object": "dog"}, [300, 300, 400, 400], [300, 300, 400, 400])
    elsewhere = Finding("object_removed", {}, [900, 100, 950, 150], [900, 100, 950, 150])
    tint = Finding("region_changed", {}, [300, 300, 400, 400], [300, 300, 400, 400])
    found = [panda, white, ear, dog, elsewhere, tint]
    one_thing_once(found)
    assert found == [panda, dog, elsewhere, tint]  # another thing inside, elsewhere, another kind: kept
