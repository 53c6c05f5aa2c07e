from __future__ import annotations

import numpy as np
import pytest

from editor import ops
from editor.document import Document
from editor.store import Store, pixel_hash


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "profile" / "easel.db")
    yield s
    s.close()


def test_wal_mode_and_content_addressed_files(store, rgb_small):
    assert store.db.execute("pragma journal_mode").fetchone()[0] == "wal"
    h1 = store.put_pixels(rgb_small)
    h2 = store.put_pixels(rgb_small.copy())
    assert h1 == h2 == pixel_hash(rgb_small)
    assert len(list(store.blobs.rglob("*.png"))) == 1
    assert np.array_equal(store.get_pixels(h1), rgb_small)


def test_undo_redo_and_branching(store, rgb_small):
    doc = Document.create(store, rgb_small, title="t")
    root = doc.head
    a = doc.apply("adjust_attr brightness 10", ops.adjust_brightness(rgb_small, amount=10))
    b = doc.apply("rotate 90", ops.rotate(doc.pixels(), degrees=90))
    assert doc.head == b and doc.parent() == a
    assert doc.undo() == a and doc.undo() == root and doc.undo() is None
    assert doc.redo() == a and doc.redo() == b and doc.redo() is None
    doc.undo()  # at a
    c = doc.apply("flip horizontal", ops.flip(doc.pixels(), axis="horizontal"))
    assert doc.children(a.id) == [b, c]  # editing after an undo starts a branch
    doc.undo()
    assert doc.redo() == c  # redo follows the newest branch
    assert [v.command for v in doc.lineage()] == [None, "adjust_attr brightness 10", "flip horizontal"]
    doc.checkout(b.id)
    assert np.array_equal(doc.pixels(), np.rot90(ops.adjust_brightness(rgb_small, amount=10)))


def test_versions_are_immutable(store, rgb_small):
    doc = Document.create(store, rgb_small)
    mine = rgb_small.copy()
    v = doc.apply("x", mine)
    mine[:] = 0  # the caller changing its array afterwards does not change the version
    assert np.array_equal(doc.pixels(v.id), rgb_small)
    with pytest.raises(ValueError):
        doc.pixels()[0, 0, 0] = 1


def test_reopen_restores_every_version_bit_for_bit(tmp_path):
    rng = np.random.default_rng(3)
    images = [
        rng.integers(0, 256, (31, 17, 3), dtype=np.uint8),
        rng.integers(0, 65536, (12, 9, 4), dtype=np.uint16),
        rng.integers(0, 256, (5, 6), dtype=np.uint8),
    ]
    store = Store(tmp_path / "easel.db")
    ids = {}
    for img in images:
        doc = Document.create(store, img, title="orig")
        doc.apply("adjust_attr contrast 30", ops.adjust_contrast(img, amount=30))
        doc.apply("rotate 33", ops.rotate(doc.pixels(), degrees=33))
        doc.undo()
        ids[doc.id] = ({v.id: doc.pixels(v.id).copy() for v in doc.versions.values()}, doc.head.id)
    store.close()

    store = Store(tmp_path / "easel.db")
    assert {d["id"] for d in store.documents()} == set(ids)
    for doc_id, (pixels, head) in ids.items():
        doc = Document.open(store, doc_id)
        assert doc.head.id == head
        assert set(doc.versions) == set(pixels)
        for vid, arr in pixels.items():
            got = doc.pixels(vid)
            assert got.dtype == arr.dtype and np.array_equal(got, arr)


def test_a_document_row_by_id(store, rgb_small):
    doc = Document.create(store, rgb_small, title="small.png")
    assert store.document(doc.id)["title"] == "small.png"
    assert store.document("no such id") is None
    with pytest.raises(KeyError):
        Document.open(store, "no such id")


def test_cache_is_bounded(store):
    img = np.zeros((100, 100, 3), np.uint8)
    doc = Document.create(store, img, cache_bytes=3 * img.nbytes)
    for i in range(10):
        doc.apply(f"adjust_attr brightness {i + 1}", ops.adjust_brightness(img, amount=i + 1))
    assert sum(a.nbytes for a in doc._cache.values()) <= 3 * img.nbytes
    assert np.array_equal(doc.pixels(doc.root.id), img)  # evicted versions come back from disk


def test_a_lazy_model_loads_once_even_when_two_threads_ask_at_once():
    import threading
    import time

    from editor.models import Lazy

    calls = []

    def load():
        calls.append(1)
        time.sleep(0.05)
        return object()

    model = Lazy(load)
    got = []
    threads = [threading.Thread(target=lambda: got.append(model())) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and len({id(g) for g in got}) == 1 and model.loaded
    failing = Lazy(lambda: 1 / 0)
    for _ in range(2):  # a failed load is tried again, not cached
        with pytest.raises(ZeroDivisionError):
            failing()
    assert not failing.loaded
