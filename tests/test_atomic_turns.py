"""A turn is all or nothing: killed at any write of a multi-turn ``edit``, the profile holds whole turns.

The reference run records the database after every turn. Then ``edit`` runs again once per write
point (each pixel file before and after it is written, each row statement, each commit) in a forked
child that dies there with ``os._exit``, as a kill would: no ``finally``, no SQLite close. The
database left behind must equal the reference after some number of whole turns (or hold nothing),
every version's pixel file must exist, and the next open must collect the files no version names.
"""

from __future__ import annotations

import json
import os
import sys
import time

import numpy as np
import pytest
from sqlite_utils.utils import sqlite3  # the library the Store uses: never two on one file

import agent.dialogue.assistant
import main
from agent.dialogue.manager import DialogueManager, GrammarParser, TurnStopped
from agent.grammar.turns import TurnResult
from editor import store as store_mod
from editor.document import Document
from editor.imageio import write_image
from editor.store import Store

# Grammar-form requests (no learned model needed: the turn recording is the same), seven turns:
# edits, an undo, a search that opens another photo (a new document inside the turn), one request
# that is not understood (turn rows only) and a crop.
REQUESTS = ["adjust_attr brightness 20", "rotate 90", "undo", "search a red square", "flip horizontal",
            "make me a sandwich", "crop 0 0 16 12"]
CRASH = 70


def state(db_path) -> list | None:
    """What a person would see of each document: its versions, head and conversation (ids left
    out, as they differ between runs); checks that every row points at rows that exist."""
    if not db_path.exists():
        return None
    conn = sqlite3.connect(db_path)
    try:
        if not conn.execute("select 1 from sqlite_master where name = 'versions'").fetchone():
            return None
        docs = conn.execute("select id, head, title from documents").fetchall()
        versions = conn.execute("select id, parent_id, command, pixels, seq, document_id from versions").fetchall()
        turns = conn.execute("select document_id, role, text, commands, version_id, seq from turns "
                             "order by document_id, seq").fetchall()
        if not docs:
            assert not versions and not turns, "rows belonging to no document"
            return None
        doc_ids = {d[0] for d in docs}
        by_id = {v[0]: v for v in versions}
        assert all(v[5] in doc_ids for v in versions), "a version belonging to no document"
        assert all(t[0] in doc_ids for t in turns), "a turn belonging to no document"
        assert all(t[4] is None or t[4] in by_id for t in turns), "a turn names a lost version"
        assert all(v[1] is None or by_id[v[1]][5] == v[5] for v in versions), "a lost parent"
        out = []
        for doc_id, head, title in docs:
            assert by_id[head][5] == doc_id, "the head is not a version of its document"
            mine = [v for v in versions if v[5] == doc_id]
            seq = {v[0]: v[4] for v in mine}
            out.append({
                "title": title, "head": seq[head],
                "versions": sorted((v[4], seq.get(v[1]), v[2], v[3]) for v in mine),
                "turns": [(t[1], t[2], t[3], seq.get(t[4])) for t in turns if t[0] == doc_id],
            })
        return sorted(out, key=lambda d: d["title"])
    finally:
        conn.close()


@pytest.fixture
def photo(tmp_path):
    rng = np.random.default_rng(5)
    return write_image(tmp_path / "in.png", rng.integers(0, 256, (24, 32, 3), dtype=np.uint8))


def run_edit(photo, db, out) -> int:
    return main.main(["edit", str(photo), *REQUESTS, "-o", str(out), "--db", str(db), "--overwrite"])


def test_a_kill_at_any_write_point_of_edit_leaves_whole_turns(tmp_path, photo, monkeypatch, capsys):
    monkeypatch.setattr(agent.dialogue.assistant, "load_parser", GrammarParser)
    real_build = agent.dialogue.assistant.build_manager
    found = np.zeros((12, 12, 3), np.uint8)
    found[2:10, 2:10] = (220, 20, 20)

    def build(document=None, **kwargs):  # search opens a photo as the library's handler does
        manager = real_build(document, **kwargs)

        def search(manager, command):
            doc = Document.create(manager.document.store, found, title="red_square.png")
            manager.document = doc
            return TurnResult(command.format(), "Here is red_square.png.", command, doc.head)

        manager.handlers["search"] = search
        return manager

    monkeypatch.setattr(agent.dialogue.assistant, "build_manager", build)

    # The reference: the database after each turn.
    snapshots = []
    real_handle = DialogueManager.handle

    def handle_and_snapshot(self, utterance):
        result = real_handle(self, utterance)
        snapshots.append(state(ref_db))
        return result

    ref_db = tmp_path / "ref" / "easel.db"
    with monkeypatch.context() as m:
        m.setattr(DialogueManager, "handle", handle_and_snapshot)
        run_edit(photo, ref_db, tmp_path / "ref.png")
    assert len(snapshots) == len(REQUESTS)
    # Before the first turn: nothing, or the document with its original only.
    first = snapshots[0][0]
    root_only = [{"title": first["title"], "head": 0,
                  "versions": [v for v in first["versions"] if v[1] is None], "turns": []}]
    allowed = [None, root_only, *snapshots]
    assert [len(s) for s in snapshots] == [1, 1, 1, 2, 2, 2, 2]  # the search opened a second document
    assert len({json.dumps(s) for s in allowed}) == len(allowed), "every turn must change the state"

    # Count the write points, then die at each one.
    points = {"n": 0, "at": -1}

    def point() -> None:
        if points["n"] == points["at"]:
            os._exit(CRASH)
        points["n"] += 1

    real_put, real_write = Store.put_pixels, Store._write

    def put_pixels(self, pixels):
        point()
        digest = real_put(self, pixels)
        point()
        return digest

    def write(self, ops):
        def counted(op):
            def run(conn):
                point()
                return op(conn)
            return run
        real_write(self, [counted(op) for op in ops])
        point()

    monkeypatch.setattr(Store, "put_pixels", put_pixels)
    monkeypatch.setattr(Store, "_write", write)
    run_edit(photo, tmp_path / "count" / "easel.db", tmp_path / "count.png")
    n_points = points["n"]
    assert n_points >= 6 * len(REQUESTS)
    print(f"{n_points} write points", file=sys.__stderr__)
    capsys.readouterr()

    reached = set()
    t0 = time.monotonic()
    for k in range(n_points):
        db = tmp_path / f"k{k}" / "easel.db"
        points.update(n=0, at=k)
        pid = os.fork()
        if pid == 0:  # the child: run the edit until it dies at write point k
            try:
                run_edit(photo, db, tmp_path / f"k{k}.png")
            finally:
                os._exit(0)
        _, status = os.waitpid(pid, 0)
        assert os.WEXITSTATUS(status) == CRASH, f"write point {k} was not reached"
        got = state(db)
        assert got in allowed, f"killed at write point {k} of {n_points}: {got}"
        reached.add(allowed.index(got))
        if got is not None:
            s = Store(db)
            try:
                used = {v[3] for d in got for v in d["versions"]}
                assert all(s._blob_path(h).exists() for h in used), "a version lost its pixels"
                s.collect_garbage(grace=0)
                left = {f.stem for f in s.blobs.rglob("*") if f.is_file()}
                assert left == used, f"killed at {k}: unreferenced files left after the next open"
            finally:
                s.close()
    # every whole-turn state was seen: the kills covered each turn's commit
    assert reached == set(range(len(allowed))), reached
    assert time.monotonic() - t0 < 120


def test_a_failing_turn_writes_nothing_and_memory_forgets_it(tmp_path, rgb_small):
    store = Store(tmp_path / "easel.db")
    doc = Document.create(store, rgb_small)
    manager = DialogueManager(doc)

    def broken(manager, command):
        manager.document.apply("flip horizontal", np.fliplr(rgb_small))
        raise RuntimeError("a bug after the version was made")

    manager.handlers["flip"] = broken
    with pytest.raises(RuntimeError):
        manager.handle("flip horizontal")
    assert len(doc.versions) == 1 and doc.head.seq == 0
    assert store.turns(doc.id) == []
    assert store.db.execute("select count(*) from versions").fetchone()[0] == 1
    assert store.db.execute("select head from documents").fetchone()[0] == doc.head.id
    store.close()


def test_a_stopped_turn_keeps_nothing_of_itself(tmp_path, rgb_small):
    """Stop pressed while an edit ran: the edit's version, the turn's rows and its history lines go."""
    store = Store(tmp_path / "easel.db")
    doc = Document.create(store, rgb_small)
    manager = DialogueManager(doc)
    history = list(manager.history)
    manager.stop_requested = lambda: True
    with pytest.raises(TurnStopped):
        manager.handle("rotate 90")
    assert len(doc.versions) == 1 and doc.head.seq == 0 and manager.history == history
    assert store.turns(doc.id) == []
    assert store.db.execute("select count(*) from versions").fetchone()[0] == 1
    manager.stop_requested = lambda: False
    assert manager.handle("rotate 90").ok and doc.head.command == "rotate 90"
    store.close()


def test_unreferenced_pixel_files_are_collected_at_the_next_open(tmp_path, rgb_small, monkeypatch):
    store = Store(tmp_path / "easel.db")
    doc = Document.create(store, rgb_small)
    kept = doc.head.pixels
    stray = store.put_pixels(np.zeros((3, 3), np.uint8))  # pixels whose rows never came
    part = store._blob_path(kept).parent / "tmpx.part"
    part.write_bytes(b"half a png")
    store.close()
    assert Store(tmp_path / "easel.db").collect_garbage() == 0  # young files: maybe another process's
    monkeypatch.setattr(store_mod, "GARBAGE_GRACE_S", 0.0)
    store = Store(tmp_path / "easel.db")
    assert store._blob_path(kept).exists()
    assert not store._blob_path(stray).exists() and not part.exists()
    store.close()


def test_the_user_s_words_and_every_command_are_kept(tmp_path, rgb_small):
    from agent.grammar.turns import Prediction, TurnResult

    class Reader:  # a parser that reads every request as a search for a cat
        def predict(self, history, concepts):
            return Prediction("search cat", 0.9)

    store = Store(tmp_path / "easel.db")
    doc = Document.create(store, rgb_small)
    manager = DialogueManager(doc, parser=Reader())

    def search_like(manager, command):  # handlers answer with their command line as the utterance
        return TurnResult(command.format(), "Here it is.", command)

    manager.handlers["search"] = search_like
    manager.handle("find me a photo of a cat ")
    manager.handle("flip horizontal")
    turns = store.turns(doc.id)
    assert [(t["role"], t["text"], t["commands"]) for t in turns] == [
        ("user", "find me a photo of a cat", []), ("assistant", "Here it is.", ["search cat"]),
        ("user", "flip horizontal", []), ("assistant", turns[3]["text"], ["flip horizontal"])]
    store.close()
