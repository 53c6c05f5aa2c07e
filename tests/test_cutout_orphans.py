"""The cutout helper process dies with its window, however the window dies (issue 32), and the
next start reaps helpers left by windows that are gone. Each wait is bounded."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from app import cutout
from editor.files import process_alive

ROOT = Path(__file__).resolve().parent.parent

PARENT = r"""
import os, sys, threading
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from app.cutout import CutoutProcess
cp = CutoutProcess(Path(sys.argv[2]))
def start():
    print(cp._executor().submit(os.getpid).result(), flush=True)
if sys.argv[3] == "thread":  # started from a worker thread that then ends, as the app's workers do
    t = threading.Thread(target=start); t.start(); t.join()
else:
    start()
sys.stdin.read()  # until killed
"""


def wait_gone(pid: int, limit_s: float = 10.0) -> bool:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        if not process_alive(pid):
            return True
        time.sleep(0.05)
    return False


def start_parent(tmp_path, how: str):
    p = subprocess.Popen([sys.executable, "-c", PARENT, str(ROOT), str(tmp_path / "run"), how],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    child = int(p.stdout.readline())
    return p, child


def test_the_helper_dies_when_its_window_is_killed(tmp_path):
    for how in ("main", "thread"):
        parent, child = start_parent(tmp_path, how)
        assert process_alive(child)
        time.sleep(2 * cutout.WATCHDOG_S)  # a thread that ended did not take the helper with it
        assert process_alive(child), how
        pidfiles = list((tmp_path / "run").glob("cutout-*.pid"))
        assert any(json.loads(f.read_text())["pid"] == child for f in pidfiles)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait(timeout=10)
        assert wait_gone(child), f"helper {child} outlived its killed window ({how})"


def test_stale_helpers_are_reaped_at_the_next_start(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead_parent = int(gone.stdout)
    orphan = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (run / "cutout-1-1.pid").write_text(json.dumps(
            {"pid": orphan.pid, "parent": dead_parent, "start": cutout._start_time(orphan.pid)}))
        (run / "cutout-2-2.pid").write_text(json.dumps(  # same id, another process: never killed
            {"pid": os.getpid(), "parent": dead_parent, "start": "1"}))
        (run / "cutout-3-3.pid").write_text(json.dumps(  # a live window's helper: left alone
            {"pid": orphan.pid, "parent": os.getpid(), "start": cutout._start_time(orphan.pid)}))
        cutout.CutoutProcess(run)  # the next start
        orphan.wait(timeout=10)
        assert orphan.returncode == -signal.SIGKILL
        assert sorted(f.name for f in run.iterdir()) == ["cutout-3-3.pid"]
    finally:
        if orphan.poll() is None:
            orphan.kill()
            orphan.wait()
