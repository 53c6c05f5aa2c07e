"""Every writer refuses an existing file without --overwrite, never writes into the profile or over
a database, and writes atomically (a kill leaves the old file or the new one, and no partial file
the next write does not clean)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import main
from editor import exports, files
from editor.annotations import AnnotationStore
from editor.files import default_profile_dir
from editor.imageio import ImageFileError, read_image, write_image
from editor.store import Store

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def profile_db(tmp_path):
    """A profile database with one recorded dialogue, in $EASEL_HOME (the conftest's tmp profile)."""
    store = Store(default_profile_dir() / "easel.db")
    ann = AnnotationStore(store)
    rec = ann.open_session("dialogue", item="x")
    rec.record("user_text", text="rotate it", role="user", annotator="a")
    rec.record("command", text="rotate 90", role="assistant", annotator="b", data={"ok": True})
    rec.record("end")
    store.close()
    return default_profile_dir() / "easel.db"


def _sessions(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("select count(*) from ann_sessions").fetchone()[0]


def test_export_refuses_the_profile_database_even_with_overwrite(profile_db, capsys):
    before = profile_db.read_bytes()
    for extra in ([], ["--overwrite"]):
        assert main.main(["annotate", "export", "--format", "caise", str(profile_db), *extra]) == 2
        err = capsys.readouterr().err
        assert "profile" in err, err
    assert profile_db.read_bytes() == before and _sessions(profile_db) == 1


def test_export_refuses_any_file_in_the_profile_and_any_database(profile_db, tmp_path, capsys):
    inside = profile_db.parent / "export.json"
    assert main.main(["annotate", "export", "--format", "caise", str(inside)]) == 2
    assert not inside.exists()
    other = tmp_path / "elsewhere.db"  # a database outside the profile, given by --db
    Store(other).close()
    for target in (other, tmp_path / "versions" / "x.json"):
        (tmp_path / "versions").mkdir(exist_ok=True)
        assert main.main(["annotate", "export", "--format", "ln", str(target), "--db", str(other),
                          "--overwrite"]) == 2
    with sqlite3.connect(other) as conn:  # still the database it was
        assert conn.execute("pragma integrity_check").fetchone()[0] == "ok"
    stray = tmp_path / "some.sqlite"  # any SQLite file: never replaced
    Store(stray).close()
    with pytest.raises(files.OutputError, match="SQLite"):
        files.check_output(stray, overwrite=True)
    capsys.readouterr()


def test_export_refuses_an_existing_file_without_overwrite(profile_db, tmp_path, capsys):
    out = tmp_path / "photo.json"
    out.write_text("precious")
    assert main.main(["annotate", "export", "--format", "caise", str(out)]) == 2
    assert "--overwrite" in capsys.readouterr().err and out.read_text() == "precious"
    assert main.main(["annotate", "export", "--format", "caise", str(out), "--overwrite"]) == 0
    assert '"api": "rotate 90"' in out.read_text()
    ann = AnnotationStore(Store(profile_db))
    with pytest.raises(files.OutputError, match="exists"):
        exports.export(ann, "caise", out)
    ann.store.close()


def test_export_images_and_concepts_are_checked_before_anything_is_written(profile_db, tmp_path, capsys):
    out = tmp_path / "d.json"
    images = tmp_path / "imgs"
    images.mkdir()
    (tmp_path / "image_concept.json").write_text("[]")
    assert main.main(["annotate", "export", "--format", "caise", str(out), "--concepts"]) == 2
    assert not out.exists()  # nothing written: the concept file was found first
    assert (tmp_path / "image_concept.json").read_text() == "[]"
    capsys.readouterr()


def test_apply_and_draw_refuse_the_profile_and_existing_files(tmp_path, capsys):
    src = tmp_path / "in.png"
    write_image(src, np.zeros((4, 6, 3), np.uint8))
    profile = default_profile_dir()
    profile.mkdir(parents=True, exist_ok=True)
    for out in (profile / "out.png", profile / "versions" / "ab" / "x.png"):
        assert main.main(["apply", str(src), "rotate 90", "-o", str(out), "--overwrite"]) == 2
        assert "profile" in capsys.readouterr().err
    with pytest.raises(ImageFileError, match="profile"):
        write_image(profile / "y.png", np.zeros((2, 2), np.uint8))
    fake = tmp_path / "fake.png"  # a database with an image's name
    Store(fake).close()
    assert main.main(["apply", str(src), "rotate 90", "-o", str(fake), "--overwrite"]) == 2
    assert files.is_sqlite(fake)
    drawn = tmp_path / "drawn.png"
    drawn.write_bytes(b"mine")
    problem = main._check_output(str(drawn), overwrite=False)
    assert problem and "--overwrite" in problem
    capsys.readouterr()


def test_edit_refuses_to_write_into_its_own_db_folder(tmp_path, capsys):
    src = tmp_path / "in.png"
    write_image(src, np.zeros((4, 6, 3), np.uint8))
    db = tmp_path / "run" / "easel.db"
    db.parent.mkdir()
    problem = main._check_output(str(db.parent / "versions" / "o.png"), overwrite=True, db=str(db))
    assert problem and "profile" in problem


def test_write_atomic_keeps_mode_and_replaces_whole(tmp_path):
    p = tmp_path / "a.json"
    files.write_atomic(p, "one")
    os.chmod(p, 0o640)
    files.write_atomic(p, "two", overwrite=True)
    assert p.read_text() == "two" and (p.stat().st_mode & 0o777) == 0o640
    assert not list(tmp_path.glob(".easel-*"))


_KILLED_WRITER = r"""
import os, sys
sys.path.insert(0, sys.argv[1])
from editor import files
real = os.replace
def die(*a):  # killed between the temporary file and the rename
    os._exit(9)
os.replace = die
files.write_atomic(sys.argv[2], b"x" * 100000, overwrite=True)
"""


def test_a_killed_write_leaves_the_old_file_and_the_next_write_cleans_up(tmp_path):
    target = tmp_path / "out.json"
    target.write_text("old")
    r = subprocess.run([sys.executable, "-c", _KILLED_WRITER, str(ROOT), str(target)], timeout=60)
    assert r.returncode == 9
    assert target.read_text() == "old"
    partials = list(tmp_path.glob(".easel-*.part"))
    assert len(partials) == 1  # what the kill left behind...
    files.write_atomic(tmp_path / "other.json", "{}")
    assert not list(tmp_path.glob(".easel-*"))  # ...goes with the next write into the folder
    # a running process's partial file is never touched
    mine = tmp_path / f".easel-{os.getppid()}-abc123-x.json.part"
    mine.write_text("in flight")
    assert files.clean_partials(tmp_path) == 0 and mine.exists()


def test_image_write_is_atomic_and_refuses_existing(tmp_path):
    p = tmp_path / "a.png"
    write_image(p, np.zeros((3, 3, 3), np.uint8))
    with pytest.raises(ImageFileError, match="exists"):
        write_image(p, np.ones((3, 3, 3), np.uint8))
    write_image(p, np.ones((3, 3, 3), np.uint8), overwrite=True)
    assert read_image(p).pixels.max() == 1
    assert [x.name for x in tmp_path.iterdir()] == ["a.png"]
