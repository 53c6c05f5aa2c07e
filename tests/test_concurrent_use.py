"""Two processes on one fresh profile at once: no "database is locked", no duplicate index rows.

Each pair of processes imports what it needs first, says it is ready, then both start at the same
instant (a file appearing), so they create the schema and write their first rows together: the
moment two ``edit --db`` runs, or two first searches, used to collide.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
from sqlite_utils.utils import sqlite3  # the SQLite library the stores use

from editor.imageio import write_image
from tests.conftest import ROOT

DRIVER = textwrap.dedent("""
    import sys, time, zlib
    from pathlib import Path
    sys.path.insert(0, sys.argv[1])
    mode, go, ready, db = sys.argv[2:6]
    if mode == "edit":
        import agent.dialogue.assistant
        from agent.dialogue.manager import GrammarParser
        agent.dialogue.assistant.load_parser = GrammarParser  # the turn's writes are the same; no model load
        import main
        from agent import explain  # noqa: F401 - imported before the start
        from agent.describe import caption as trace_caption
        from agent.perception import models as perception
    else:
        import numpy as np
        from agent.search.library import Library

        class Words:  # a stand-in for MiniLM: the test is about the database, not the model
            def encode(self, texts, batch_size=32):
                out = np.zeros((len(texts), 384), np.float32)
                for i, t in enumerate(texts):
                    v = np.random.default_rng(zlib.crc32(t.encode())).normal(size=384)
                    out[i] = v / np.linalg.norm(v)
                return out
    Path(ready).touch()
    while not Path(go).exists():
        time.sleep(0.002)
    if mode == "edit":
        img, out = sys.argv[6:8]
        requests = ["adjust_attr brightness 10", "rotate 90", "flip horizontal", "undo", "redo",
                    "adjust_attr contrast 10", "crop 0 0 10 10", "undo"]
        sys.exit(main.main(["edit", img, *requests, "-o", out, "--db", db, "--overwrite", "--json"]))
    library = Library(db, encoder=Words())
    library.ensure_sample()
    print(library.count(), len(library.search("a cat", limit=3)))
""")


def run_pair(tmp_path: Path, mode: str, db: Path, extra: list[list[str]]) -> list[subprocess.CompletedProcess]:
    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER)
    go = tmp_path / f"go-{db.parent.name}"
    procs = []
    for i, more in enumerate(extra):
        ready = tmp_path / f"ready-{db.parent.name}-{i}"
        procs.append((ready, subprocess.Popen(
            [sys.executable, str(driver), str(ROOT), mode, str(go), str(ready), str(db), *more],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)))
    deadline = time.monotonic() + 60
    while not all(r.exists() for r, _ in procs) and time.monotonic() < deadline:
        time.sleep(0.01)
    go.touch()
    out = []
    for _, p in procs:
        stdout, stderr = p.communicate(timeout=120)
        out.append(subprocess.CompletedProcess(p.args, p.returncode, stdout, stderr))
    return out


def test_two_edit_runs_on_one_fresh_database(tmp_path):
    img = write_image(tmp_path / "in.png", np.random.default_rng(2).integers(0, 256, (20, 24, 3), np.uint8))
    for pair in range(4):
        db = tmp_path / f"pair{pair}" / "easel.db"
        runs = run_pair(tmp_path, "edit", db, [[str(img), str(tmp_path / f"out{pair}-{i}.png")]
                                               for i in range(2)])
        for r in runs:
            assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-2000:]
            assert len([json.loads(line) for line in r.stdout.splitlines()]) == 8
        conn = sqlite3.connect(db)
        docs = [d for (d,) in conn.execute("select id from documents")]
        assert len(docs) == 2
        for d in docs:  # each run's conversation whole: 8 turns, 5 versions made, numbered 0..15
            seqs = [s for (s,) in conn.execute("select seq from turns where document_id = ? order by seq", [d])]
            assert seqs == list(range(16))
            assert conn.execute("select count(*) from versions where document_id = ?", [d]).fetchone()[0] == 6
        conn.close()


def test_two_first_searches_index_the_sample_library_once(tmp_path):
    from agent.search.library import IMAGE_SUFFIXES, SAMPLE_DIR

    n_sample = len([p for p in SAMPLE_DIR.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES])
    assert n_sample > 10
    for pair in range(3):
        db = tmp_path / f"lib{pair}" / "library.db"
        runs = run_pair(tmp_path, "search", db, [[], []])
        for r in runs:
            assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr[-2000:]
            assert r.stdout.split() == [str(n_sample), "3"]
        conn = sqlite3.connect(db)
        assert conn.execute("select count(*), count(distinct path) from library_images").fetchone() == \
            (n_sample, n_sample)
        conn.close()
