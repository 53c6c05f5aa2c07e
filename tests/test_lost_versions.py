"""A version file lost in a crash (the window writes them after the turn) is made again, bit for bit,
or reported missing; never replaced by something else."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from agent.edits.run import replay
from app.storage import open_store
from editor.document import Document
from editor.imageio import read_image, write_image


def _photo(tmp_path):
    rng = np.random.default_rng(0)
    px = (rng.random((48, 64, 3)) * 255).astype(np.uint8)
    path = tmp_path / "photo.png"
    write_image(path, px)
    return path


def _edited_profile(tmp_path):
    """A profile with an original and three edits, whose version files are then all lost."""
    source = _photo(tmp_path)
    store = open_store(tmp_path / "profile" / "easel.db")
    img = read_image(source)
    doc = Document.create(store, img.pixels, title="photo.png", source_path=str(source), meta=img.meta)
    for line in ("adjust_attr brightness 20", "rotate 90", "crop 4 4 30 40"):
        doc.apply(line, replay(line, doc.pixels()))
    expected = {v.id: np.array(doc.pixels(v.id)) for v in doc.versions.values()}
    store.close()
    shutil.rmtree(store.blobs)  # the crash: no version file reached the disk
    store.blobs.mkdir()
    return source, doc.id, expected


def test_lost_files_are_replayed_from_the_source_bit_for_bit(tmp_path):
    _source, doc_id, expected = _edited_profile(tmp_path)
    store = open_store(tmp_path / "profile" / "easel.db")
    doc = Document.open(store, doc_id)
    for vid, pixels in expected.items():
        assert np.array_equal(doc.pixels(vid), pixels)
    assert len(list(store.blobs.glob("??/*.png"))) == len(expected)  # written back for next time
    store.close()


def test_a_replay_that_gives_other_pixels_is_not_shown(tmp_path):
    _source, doc_id, expected = _edited_profile(tmp_path)
    store = open_store(tmp_path / "profile" / "easel.db")
    store.db.conn.execute("update versions set command = 'adjust_attr brightness 21' where command = 'adjust_attr brightness 20'")
    store.db.conn.commit()
    doc = Document.open(store, doc_id)
    assert np.array_equal(doc.pixels(doc.root.id), expected[doc.root.id])
    with pytest.raises(FileNotFoundError):
        doc.pixels()  # the head descends from the version that no longer replays to its hash
    store.close()


def test_without_the_source_file_the_versions_stay_missing(tmp_path):
    source, doc_id, _expected = _edited_profile(tmp_path)
    source.unlink()
    store = open_store(tmp_path / "profile" / "easel.db")
    doc = Document.open(store, doc_id)
    with pytest.raises(FileNotFoundError):
        doc.pixels()
    store.close()
