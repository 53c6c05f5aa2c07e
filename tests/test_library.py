"""The photo library: incremental indexing, FTS5 + sqlite-vec search, the CLI and the chat handler."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from agent.perception import concepts
from agent.perception import models as perception
from agent.search.library import SAMPLE_DIR, Library, exif_date, register
from editor.library import LibraryIndex, fts_query, path_words

PHOTOS = ["chelsea.jpg", "coffee.jpg", "rocket.jpg"]


@pytest.fixture(scope="module")
def photos(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("photos")
    (root / "trip" / "day1").mkdir(parents=True)
    shutil.copy(SAMPLE_DIR / "chelsea.jpg", root / "chelsea.jpg")
    shutil.copy(SAMPLE_DIR / "coffee.jpg", root / "trip" / "coffee.jpg")
    shutil.copy(SAMPLE_DIR / "rocket.jpg", root / "trip" / "day1" / "rocket.jpg")
    (root / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 this is not really a jpeg")
    (root / "notes.txt").write_text("not a photo")
    return root


@pytest.fixture(scope="module")
def library(photos, tmp_path_factory) -> Library:
    lib = Library(tmp_path_factory.mktemp("db") / "library.db")
    report = lib.index([photos], progress=False)
    assert (report.added, report.corrupt, report.not_images) == (3, 1, 1)
    assert report.errors[0][0].endswith("broken.jpg")
    return lib


def _no_models(monkeypatch):
    def boom(*a, **k):
        raise AssertionError("a vision model ran")

    concepts.clear_memory_cache()
    monkeypatch.setattr(perception, "detect_objects", boom)
    monkeypatch.setattr(perception, "classify", boom)


def test_search_ranks_the_right_photo_first(library):
    assert library.count() == 3
    assert Path(library.search("a cat", limit=3)[0].path).name == "chelsea.jpg"
    assert Path(library.search("cup of coffee")[0].path).name == "coffee.jpg"
    best = library.search("missile", limit=1)
    assert len(best) == 1 and Path(best[0].path).name == "rocket.jpg"
    assert best[0].exif_date and best[0].exif_date.startswith("2024-")
    with pytest.raises(ValueError):
        library.search("   ")


def test_indexes_are_fts5_and_sqlite_vec(library):
    conn = library.index_db.conn
    sql = dict(conn.execute("select name, sql from sqlite_master where name like 'library_%'").fetchall())
    assert "fts5" in sql["library_fts"].lower() and "vec0" in sql["library_vec"].lower()
    assert conn.execute("select vec_version()").fetchone()[0].startswith("v")
    # A query whose words match nothing is ranked by the vector index alone.
    assert library.search("kitten", limit=1, method="vector")


def test_reindexing_is_incremental(photos, tmp_path, monkeypatch):
    work = tmp_path / "photos"
    shutil.copytree(photos, work)
    lib = Library(tmp_path / "library.db")
    lib.index([work], progress=False)
    _no_models(monkeypatch)  # from here on nothing may be perceived again
    again = lib.index([work], progress=False)
    assert (again.unchanged, again.added, again.removed) == (3, 0, 0)

    (work / "trip" / "coffee.jpg").rename(work / "moved_coffee.jpg")
    shutil.copy(work / "chelsea.jpg", work / "trip" / "chelsea_copy.jpg")
    moved = lib.index([work], progress=False)
    assert (moved.moved, moved.added, moved.removed) == (2, 0, 0)
    assert lib.count() == 4
    assert Path(lib.search("espresso", limit=1)[0].path).name == "moved_coffee.jpg"

    (work / "trip" / "day1" / "rocket.jpg").unlink()
    gone = lib.index([work], progress=False)
    assert gone.removed == 1 and lib.count() == 3
    assert all("rocket" not in r.path for r in lib.search("missile"))


def test_sample_library_fast_path_runs_no_vision_model(tmp_path, monkeypatch):
    _no_models(monkeypatch)
    lib = Library(tmp_path / "library.db")
    report = lib.ensure_sample()
    n = len([p for p in SAMPLE_DIR.iterdir() if p.suffix in (".jpg", ".png")])
    assert report is not None and report.added == n and lib.count() == n
    assert lib.ensure_sample() is None  # only when empty


def test_first_search_waits_for_an_indexer_it_finds_half_way(photos, tmp_path):
    """A library another indexer is filling (its first batch committed, the lock held) is not
    "done": ensure_sample waits for the lock instead of searching the first batch (a second
    window's first search read 1 photo of the sample's 32)."""
    import threading

    from agent.search.library import index_lock

    one = tmp_path / "one"
    one.mkdir()
    shutil.copy(photos / "chelsea.jpg", one / "chelsea.jpg")
    db = tmp_path / "library.db"
    held, release, events = threading.Event(), threading.Event(), []

    def indexer():
        with index_lock(db):
            Library(db).index([one], progress=False)  # as if the first batch of a sample, committed
            held.set()
            release.wait(30)
            events.append("released")

    t = threading.Thread(target=indexer)
    t.start()
    assert held.wait(60)
    first = threading.Thread(target=lambda: events.append(("done", Library(db).ensure_sample())))
    first.start()
    first.join(0.5)  # on the old code it had returned by now, with the half-full library
    release.set()
    t.join(60)
    first.join(60)
    assert events[0] == "released" and events[1] == ("done", None)


def test_chat_search_opens_the_best_match(library, tmp_path):
    from agent.dialogue.manager import DialogueManager
    from editor.store import Store

    store = Store(tmp_path / "easel.db")
    manager = DialogueManager()
    register(manager, library, store=store)
    result = manager.handle("search cat")
    assert result.ok and manager.document is not None
    assert manager.document.title == "chelsea.jpg" and "chelsea.jpg" in result.reply
    results = result.data["results"]
    assert results[0]["path"].endswith("chelsea.jpg") and results[0]["description"]
    assert len(results) == 3 and all(r["score"] > 0 for r in results)
    assert manager.history[-3:-1] == ["search cat", "image_load: 1"]
    h, w = manager.document.pixels().shape[:2]
    rotated = manager.handle("rotate 90")  # the opened photo is the document edits apply to
    assert rotated.ok and manager.document.pixels().shape[:2] == (w, h)


def test_chat_search_on_an_empty_library_says_how_to_index(tmp_path):
    from agent.dialogue.manager import DialogueManager

    manager = DialogueManager()
    register(manager, Library(tmp_path / "library.db"))
    result = manager.handle("search red umbrella")
    assert not result.ok and "python main.py index" in result.reply
    assert manager.document is None


def test_cli_index_search_and_edit(photos, tmp_path, capsys):
    import main

    db = tmp_path / "library.db"
    assert main.main(["index", str(photos), "--db", str(db), "-q"]) == 0
    out = capsys.readouterr().out
    assert "3 added" in out and "1 unreadable" in out and "1 not images" in out
    assert main.main(["search", "a cat", "--limit", "2", "--json", "--db", str(db)]) == 0
    found = json.loads(capsys.readouterr().out)
    assert len(found["results"]) == 2 and found["results"][0]["path"].endswith("chelsea.jpg")
    assert main.main(["search", "x", "--limit", "0", "--db", str(db)]) == 2

    out_png = tmp_path / "out.png"
    code = main.main(["edit", str(photos / "chelsea.jpg"), "search espresso", "rotate 90",
                      "-o", str(out_png), "--db", str(tmp_path / "easel.db"), "--json"])
    assert code == 0
    turns = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert turns[0]["command"] == "search espresso" and turns[0]["ok"]
    from editor.imageio import read_image

    coffee = read_image(SAMPLE_DIR / "coffee.jpg").pixels
    assert read_image(out_png).pixels.shape[:2] == coffee.shape[1::-1]


def test_storage_helpers():
    assert fts_query("find me a picture of a Red umbrella!") == '"red" OR "umbrella"'
    assert fts_query("a photo of the") is None
    assert path_words("/home/u/Holidays/rome_2019/IMG_0042.jpg") == "u Holidays rome 2019 IMG 0042"
    assert exif_date(None) is None and exif_date(b"garbage") is None


def test_index_rejects_bad_embeddings(tmp_path):
    index = LibraryIndex(tmp_path / "x.db")
    with pytest.raises(ValueError):
        index.add(path="/a.jpg", hash="h", size=1, mtime=0, width=1, height=1, exif_date=None,
                  description="d", keywords="", concepts=[], ocr=False, text="",
                  embedding=np.zeros(3, np.float32))


def test_edit_without_a_library_creates_no_database(tmp_path):
    from agent.dialogue.manager import DialogueManager
    from agent.search.library import register_path

    manager = DialogueManager()
    assert register_path(manager, tmp_path / "library.db") is None
    result = manager.handle("search a dog")
    assert not result.ok and "python main.py index" in result.reply
    assert not (tmp_path / "library.db").exists()


def test_quantised_vector_search_agrees_with_exact(tmp_path):
    rng = np.random.default_rng(0)
    emb = rng.normal(size=(500, 384)).astype(np.float32)
    emb /= np.linalg.norm(emb, axis=1, keepdims=True)
    index = LibraryIndex(tmp_path / "x.db")
    index.add_many([{"path": f"/p/{i}.jpg", "hash": str(i), "description": f"photo {i}"} for i in range(500)], emb)
    index.commit()
    q = emb[123] + 0.1 * rng.normal(size=384).astype(np.float32)
    exact = index.vector_search(q, 10, exact=True)
    approx = index.vector_search(q, 10, exact=False)
    assert exact[0][0] == approx[0][0] == 124  # ids start at 1
    assert len({i for i, _ in exact} & {i for i, _ in approx}) >= 5
    assert [d for _, d in approx] == sorted(d for _, d in approx)
    index.remove([124])
    assert 124 not in {i for i, _ in index.vector_search(q, 10, exact=False)}
