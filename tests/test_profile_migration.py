"""A profile written by the release before schema 2 (``tests/data/profile_v1``, made by ``main.py edit
--db`` at commit a1c4290: rotate, a search, a brightness edit, an undo) opens, migrates and stays
readable: every turn, version and pixel file as it was, each command now in the turn's list."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

from agent.dialogue.manager import DialogueManager
from editor.document import Document
from editor.store import SCHEMA_VERSION, Store

FIXTURE = Path(__file__).parent / "data" / "profile_v1"


def test_a_schema_1_profile_migrates_and_keeps_everything(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "p")
    store = Store(tmp_path / "p" / "easel.db")
    assert store.db.execute("select value from meta where key = 'schema_version'").fetchone()[0] \
        == str(SCHEMA_VERSION) == "2"
    (doc_row,) = store.documents()
    turns = store.turns(doc_row["id"])
    assert [(t["role"], t["text"]) for t in turns][::2] == [
        ("user", "rotate 90"), ("user", "search cat"), ("user", "adjust_attr brightness 10"),
        ("user", "undo")]
    assert [t["commands"] for t in turns] == [
        [], ["rotate 90"], [], ["search cat"], [], ["adjust_attr brightness 10"], [], ["undo"]]
    doc = Document.open(store, doc_row["id"])
    assert [v.command for v in doc.lineage()] == [None, "rotate 90"]  # the undo left the head here
    original = doc.pixels(doc.root.id)
    assert original.shape == (6, 8, 3)
    assert np.array_equal(doc.pixels(), np.rot90(original))  # rotate 90 is counter-clockwise
    # no pixel file was collected: each one is some version's
    assert len(list(store.blobs.rglob("*.png"))) == 3

    # the conversation goes on in the migrated profile
    manager = DialogueManager(doc)
    manager.handle("flip vertical")
    assert [t["commands"] for t in store.turns(doc.id)][-2:] == [[], ["flip vertical"]]
    store.close()
    again = Store(tmp_path / "p" / "easel.db")  # opening a migrated profile again changes nothing
    assert len(again.turns(doc.id)) == 10
    again.close()


def test_a_reopened_conversation_rebuilds_the_history_from_old_and_new_rows(tmp_path):
    from app.controller import rebuild_history

    shutil.copytree(FIXTURE, tmp_path / "p")
    store = Store(tmp_path / "p" / "easel.db")
    (doc_row,) = store.documents()
    history = rebuild_history(store.turns(doc_row["id"]))
    assert history[:4] == ["assistant_text: How can I help you?", "user_text: rotate 90", "rotate 90",
                           "assistant_text: Rotated."]
    assert "search cat" not in history  # the failed search made no version, as before
    store.close()
