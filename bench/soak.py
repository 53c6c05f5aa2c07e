"""A long session in the window: 2,000 chat turns offscreen, then memory and handle counts.

    QT_QPA_PLATFORM=offscreen python bench/soak.py [--turns 2000] [--size 320x240] [--types]

The main window (temporary profile, the command-line grammar parser so no model loads) opens a small
photo and answers ``--turns`` requests typed as command lines: small edits, undo and redo, each a
real turn (worker, store transaction, version file, chat row, history panel). Every 500 turns and at
the end it prints the resident memory, open file descriptors, threads, live QObjects under the
window, widgets, and the reference counts of ``True`` and ``None`` (PySide6-Essentials 6.12.0
dropped one of each per signal emit or void call and aborted after about a thousand; the pin is
6.11.3). The process must still be alive at the end: that, and counts that level off rather than
grow with the turns, are what this measures. ``--types`` lists the Python types that grew most (it is
how the finished workers kept for the whole session, one per turn, were found).

Figures (2026-11-27, load under 1, numba's cache warm): 2,000 turns in 60.9 s; RSS 134 -> 448
(turn 500) -> 526 MB; refcount(True) 3516 -> 3521; refcount(None) 18,632 -> 20,819 (500) ->
27,195 (2,000), about 4 a turn. With the history panel before it moved its items on a branch
(app/history_panel.py at 4d6c7e8~1), in the same minutes: refcount(None) 31,402 at 500 and 63,989
at 1,000 turns: the rebuilds of the tree when an edit after an undo started a branch were what grew
faster than the turns. (The first run after the fill's numba code changed compiles it: RSS 1,021
MB at the end of that run.)
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

REQUESTS = ("adjust_attr brightness 1", "adjust_attr contrast 1", "undo", "redo", "flip horizontal",
            "adjust_color blue 0.05", "undo", "rotate 90")


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def type_counts() -> dict[str, int]:
    """How many live objects the garbage collector tracks, by type name."""
    gc.collect()
    out: dict[str, int] = {}
    for obj in gc.get_objects():
        name = type(obj).__qualname__
        out[name] = out.get(name, 0) + 1
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--turns", type=int, default=2000)
    ap.add_argument("--size", default="320x240")
    ap.add_argument("--types", action="store_true",
                    help="at the end, print the Python object types that grew most since turn 0")
    args = ap.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    w, h = (int(v) for v in args.size.split("x"))

    import numpy as np
    from PIL import Image
    from PySide6.QtCore import QObject

    from agent.dialogue.manager import GrammarParser
    from app.controller import Controller, open_store
    from app.main import create_app
    from app.main_window import MainWindow
    from app.settings import AppSettings, make_settings

    app = create_app()
    tmp = Path(tempfile.mkdtemp(prefix="easel-soak-"))
    os.environ["EASEL_HOME"] = str(tmp / "profile")
    photo = tmp / "photo.png"
    rng = np.random.default_rng(0)
    Image.fromarray(rng.integers(0, 256, (h, w, 3), np.uint8)).save(photo)

    def spin(cond, timeout=60.0) -> bool:
        t0 = time.monotonic()
        while not cond():
            if time.monotonic() - t0 > timeout:
                return False
            app.processEvents()
            time.sleep(0.0005)
        return True

    controller = Controller(store=open_store(tmp / "profile" / "easel.db"),
                            settings=AppSettings(make_settings(tmp / "settings.ini")), preload=False)
    window = MainWindow(controller)
    window.ask = lambda *a: True
    window.resize(1000, 700)
    window.show()
    c = window.controller
    c.manager.parser = GrammarParser()
    c.session.models_ready = True
    window.open_path(str(photo))
    if not spin(lambda: c.document is not None):
        print("the photo did not open")
        return 1

    def counts(turn: int, seconds: float) -> str:
        gc.collect()
        fds = len(os.listdir("/proc/self/fd"))
        qobjects = len(window.findChildren(QObject))
        return (f"turn {turn:5d}: {seconds:7.1f} s, RSS {rss_mb():7.1f} MB, fds {fds:4d}, threads "
                f"{threading.active_count():3d}, QObjects under the window {qobjects:5d}, widgets "
                f"{len(app.allWidgets()):4d}, refcount(True) {sys.getrefcount(True)}, "
                f"refcount(None) {sys.getrefcount(None)}")

    t0 = time.perf_counter()
    print(counts(0, 0.0))
    types0 = type_counts() if args.types else {}
    for turn in range(1, args.turns + 1):
        text = REQUESTS[turn % len(REQUESTS)]
        c.submit(text)
        if not spin(lambda: not c.busy and not c.session.queued, timeout=60):
            print(f"turn {turn} ({text!r}) did not finish in 60 s")
            return 1
        if turn % 500 == 0 or turn == args.turns:
            print(counts(turn, time.perf_counter() - t0), flush=True)
    c.store.flush(timeout=30)
    print(f"{args.turns} turns in {time.perf_counter() - t0:.1f} s; the process is alive; "
          f"{len(c.document.versions)} versions in the document")
    if args.types:
        grown = type_counts()
        top = sorted(grown, key=lambda k: grown[k] - types0.get(k, 0), reverse=True)[:15]
        for name in top:
            print(f"  {name:40s} {types0.get(name, 0):8d} -> {grown[name]:8d}")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
