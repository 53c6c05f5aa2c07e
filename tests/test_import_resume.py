"""A killed ``annotate import`` never leaves a dialogue half written that a re-import cannot finish."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from editor import exports
from editor.annotations import AnnotationStore
from editor.store import Store

ROOT = Path(__file__).resolve().parent.parent


def caise_file(path: Path, n: int) -> Path:
    data = []
    for d in range(n):
        hist = ["user_text: find a red umbrella"]
        data.append({"api": "search red umbrella", "history_img": [], "history_utte": list(hist),
                     "uid": f"md_{d}_0"})
        hist += ["search red umbrella", "image_load: 1", "user_text: rotate it"]
        data.append({"api": "rotate 90", "history_img": [" img_a"], "history_utte": list(hist),
                     "uid": f"md_{d}_1"})
    path.write_text(json.dumps(data, indent=2))
    return path


def test_a_session_row_without_events_is_completed_by_a_reimport(tmp_path):
    src = caise_file(tmp_path / "in.json", 3)
    ann = AnnotationStore(Store(tmp_path / "easel.db"))
    # what the old import left when killed between the session row and its events
    ann.open_session("dialogue", item="md_1", name="md_1", meta={"source": str(src), "format": "caise"})
    result = exports.import_file(ann, "caise", src)
    assert (result.sessions, result.skipped) == (3, 0)
    assert len(result.messages) == 1 and "md_1" in result.messages[0]
    s = ann.find("dialogue", "md_1")
    assert s.status == "done" and [e.kind for e in ann.events(s.id)][-1] == "end"
    assert len(ann.sessions("dialogue")) == 3  # completed in place, not duplicated
    out = tmp_path / "out.json"
    exports.export(ann, "caise", out)
    def by_uid(items):  # the completed dialogue keeps its place: the row made first
        return sorted(items, key=lambda x: x["uid"])

    assert by_uid(json.loads(out.read_text())) == by_uid(json.loads(src.read_text()))  # none left out
    again = exports.import_file(ann, "caise", src)
    assert (again.sessions, again.skipped, again.messages) == (0, 3, [])
    ann.store.close()


def test_ln_and_ier_half_imports_are_completed(tmp_path):
    ann = AnnotationStore(Store(tmp_path / "easel.db"))
    ln = tmp_path / "n.jsonl"
    ln.write_text(json.dumps({"dataset_id": "d", "image_id": "i1", "annotator_id": "a",
                              "caption": "a dog", "timed_caption": [], "traces": []}) + "\n")
    ann.open_session("narrative", item="i1", name="d/i1/a", meta={"format": "ln"})
    r = exports.import_file(ann, "ln", ln)
    assert r.sessions == 1 and len(r.messages) == 1
    assert exports.ln_records(ann)[0]["caption"] == "a dog"
    ier = tmp_path / "p.json"
    ier.write_text(json.dumps([{"img0": "a.png", "img1": "b.png", "sents": ["make it red", "redder"],
                                "uid": "p1"}]))
    ann.open_session("pair", item="p1", name="p1#1", meta={"format": "ier"})  # the second, empty
    r = exports.import_file(ann, "ier", ier)
    assert r.sessions == 2 and r.skipped == 0
    (rec,) = exports.ier_records(ann)
    assert sorted(rec["sents"]) == ["make it red", "redder"]
    assert exports.import_file(ann, "ier", ier).skipped == 1
    ann.store.close()


def test_an_import_killed_at_random_moments_is_finished_by_the_next(tmp_path):
    """The real thing, bounded: kill a CLI import three times at growing delays, then let one
    finish; every dialogue is complete once, none empty."""
    src = caise_file(tmp_path / "in.json", 300)
    db = tmp_path / "p" / "easel.db"
    cmd = [sys.executable, str(ROOT / "main.py"), "annotate", "import", "--format", "caise", str(src),
           "--db", str(db)]
    for delay in (0.8, 1.2, 1.6):
        p = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        p.kill()
        p.wait(timeout=30)
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    ann = AnnotationStore(Store(db))
    sessions = ann.sessions("dialogue")
    assert len(sessions) == 300 and len({s.name for s in sessions}) == 300
    assert all(s.status == "done" and ann.count_events(s.id) == 6 for s in sessions)
    ann.store.close()
