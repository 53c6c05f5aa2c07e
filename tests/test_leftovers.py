"""Disk full and kills leave nothing the next start does not clean (issue 32): no empty documents,
no partial files of writers that are gone."""

from __future__ import annotations

import os
import time

import numpy as np

from editor import files
from editor.document import Document
from editor.store import Store


def test_an_empty_document_whose_original_never_reached_the_disk_goes_at_the_next_start(tmp_path):
    store = Store(tmp_path / "easel.db")
    lost = Document.create(store, np.zeros((4, 4, 3), np.uint8), title="disk was full")
    kept = Document.create(store, np.ones((4, 4, 3), np.uint8), title="opened, not edited yet")
    talked = Document.create(store, np.full((4, 4, 3), 2, np.uint8), title="has a turn")
    store.add_turn(talked.id, "user", "hello")
    os.unlink(store._blob_path(lost.head.pixels))  # what a full disk did to the original's file
    os.unlink(store._blob_path(talked.head.pixels))
    assert store.prune_empty_documents() == 0  # too recent: another process may be writing it
    old = time.time() - 3600
    store.db.conn.execute("update documents set created = ?", [old])
    store.db.conn.commit()
    store.close()
    store = Store(tmp_path / "easel.db")  # the next start
    assert sorted(d["title"] for d in store.documents()) == ["has a turn", "opened, not edited yet"]
    assert not store.rows("versions", "document_id = ?", [lost.id])
    assert kept.id in {d["id"] for d in store.documents()}
    store.close()


def test_partial_files_of_dead_writers_go_and_live_ones_stay(tmp_path):
    store = Store(tmp_path / "p" / "easel.db")
    store.close()
    blobs = tmp_path / "p" / "versions" / "ab"
    blobs.mkdir(parents=True)
    dead = 2**22 + 12345  # above the default pid_max: no such process
    leftovers = [tmp_path / "p" / f".easel-{dead}-abcdef-session.lock.part",
                 blobs / f".easel-{dead}-abcdef-{'a' * 64}.png.part"]
    alive = blobs / f".easel-{os.getppid()}-abcdef-x.png.part"
    legacy = tmp_path / ".easel-ab12cd34.png"  # an old-style hidden partial beside an output
    for f in [*leftovers, alive, legacy]:
        f.write_bytes(b"half")
    old = time.time() - 2 * files.LEGACY_GRACE_S
    os.utime(legacy, (old, old))
    Store(tmp_path / "p" / "easel.db").close()  # the next start cleans the profile
    assert not any(f.exists() for f in leftovers) and alive.exists()
    files.write_atomic(tmp_path / "out.json", "{}")  # the next write beside an output cleans there
    assert not legacy.exists()
