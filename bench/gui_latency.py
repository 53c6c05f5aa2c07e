"""How long from Return to the new image on the canvas, for edits of a 12-megapixel photo?

    QT_QPA_PLATFORM=offscreen python bench/gui_latency.py [--rounds 5] [--size 4000x3000] [--words]
    python bench/gui_latency.py --startup [--runs 3]      # launch main.py PHOTO, time the first seconds

Latency: drives the real main window (temporary profile): waits until the command model is
loaded, opens the photo, then types each request into the chat input and presses Return. The clock
stops at the first paint of the canvas after it was given the new version. Requests are typed as
commands by default (the grammar path), or in words with ``--words`` (the command model and the
concepts of the image it is given). Prints the median and 95th percentile per request.

Start-up (``--startup``): runs ``main.py PHOTO`` as a person would, with ``EASEL_STARTUP_TRACE=1``
so the app prints when the window was shown, the photo painted and the models ready, counted from
the start of the process (interpreter start-up included), then closes it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

COMMANDS = {
    "brightness": "adjust_attr brightness 10",
    "contrast": "adjust_attr contrast 10",
    "colour": "adjust_color blue 0.1",
    "saturation": "adjust_attr saturation 10",
    "rotate 90": "rotate 270",
}
WORDS = {
    "brightness": "make it a bit brighter",
    "contrast": "add a little contrast",
    "colour": "make it a bit more blue",
    "saturation": "make the colours more vivid",
    "rotate 90": "rotate it 90 degrees clockwise",
}


def make_photo(path: Path, w: int, h: int) -> None:
    import cv2
    from PIL import Image
    from skimage import data

    Image.fromarray(cv2.resize(data.astronaut(), (w, h), interpolation=cv2.INTER_CUBIC)).save(path, quality=90)


def startup(args, photo: Path, tmp: Path) -> int:
    env = dict(os.environ, EASEL_HOME=str(tmp / "profile"), EASEL_STARTUP_TRACE="1",
               EASEL_QUIT_WHEN_READY="1")
    rows = []
    for run in range(args.runs):
        proc = subprocess.run([sys.executable, str(ROOT / "main.py"), str(photo)], env=env, cwd=ROOT,
                              capture_output=True, text=True, timeout=300)
        marks = {}
        for line in proc.stderr.splitlines():
            if line.startswith("easel-startup "):
                _, name, secs = line.split()
                marks.setdefault(name, float(secs))
        if proc.returncode != 0 or "models-ready" not in marks:
            print(f"run {run + 1}: failed (exit {proc.returncode})\n{proc.stderr[-2000:]}")
            return 1
        rows.append(marks)
        print(f"run {run + 1}: " + ", ".join(f"{k} {v:.2f} s" for k, v in marks.items()))
    import numpy as np

    for key in rows[0]:
        vals = [r[key] for r in rows if key in r]
        if vals:
            print(f"{key}: median {np.median(vals):.2f} s, max {max(vals):.2f} s over {len(vals)} runs")
    return 0


def latency(args, photo: Path) -> int:
    import numpy as np
    from PySide6.QtCore import QEvent, QObject, Qt
    from PySide6.QtTest import QTest

    from app.main import create_app

    app = create_app()
    from agent.grammar.commands import CommandError, parse_command
    from app.controller import Controller
    from app.main_window import MainWindow

    def spin(cond, timeout=300.0) -> bool:
        t0 = time.monotonic()
        while not cond():
            if time.monotonic() - t0 > timeout:
                return False
            app.processEvents()
            time.sleep(0.001)
        return True

    window = MainWindow(Controller())
    window.ask = lambda *a: True
    window.resize(1200, 800)
    window.show()
    c = window.controller
    t0 = time.perf_counter()
    def ready() -> bool:  # the release before the start-up rework had no models_ready
        if hasattr(c, "session"):
            return c.session.models_ready
        if hasattr(c, "models_ready"):
            return c.models_ready
        return bool(c.model_worker is not None and c.model_worker.done)

    if not spin(ready):
        print("the models did not load")
        return 1
    print(f"models ready after {time.perf_counter() - t0:.1f} s")
    spin(lambda: not c.workers.active, 120)  # the background-removal warm-up, started when ready
    window.open_path(str(photo))
    spin(lambda: c.document is not None and c.canvas.has_image())
    print(f"opened {photo.name}: {c.document.head.width}x{c.document.head.height}")

    shown: list[float] = []
    painted: list[float] = []

    class PaintWatch(QObject):
        def eventFilter(self, obj, event):  # noqa: N802 (Qt's name)
            if event.type() == QEvent.Type.Paint and len(painted) < len(shown):
                painted.append(time.perf_counter())
            return False

    original = c.canvas.set_image

    def set_image(image):
        original(image)
        shown.append(time.perf_counter())
        c.canvas.viewport().update()

    c.canvas.set_image = set_image
    watch = PaintWatch()
    c.canvas.viewport().installEventFilter(watch)

    requests = WORDS if args.words else COMMANDS
    available = {}
    for name, text in requests.items():
        try:
            parse_command(COMMANDS[name])
        except CommandError:
            print(f"{name}: skipped (not in the command grammar yet)")
            continue
        available[name] = text
    times: dict[str, list[float]] = {name: [] for name in available}
    failures = []
    for _round in range(args.rounds):
        for name, text in available.items():
            spin(lambda: not c.busy)
            if not args.back_to_back:
                # A person takes seconds to type the next request: by then the previous turn's
                # after-work (its PNG write, perceiving the new version) is done. --back-to-back
                # measures without that pause.
                spin(lambda: not c.workers.active and getattr(c.store, "pending", lambda: 0)() == 0, 60)
            spin(lambda: False, 0.3)
            head = c.document.head.id
            shown.clear()
            painted.clear()
            chat = window.chat.input
            chat.setFocus()
            QTest.keyClicks(chat, text)
            start = time.perf_counter()
            QTest.keyClick(chat, Qt.Key.Key_Return)
            ok = spin(lambda head=head: c.document.head.id != head and painted, 60)
            if not ok:
                failures.append((name, text, window.chat.messages[-1:]))
                spin(lambda: not c.busy)
                continue
            times[name].append(painted[0] - start)
    spin(lambda: not c.busy and not c.workers.active, 120)
    print(f"{'request':<12} {'typed':<32} {'n':>2} {'median':>8} {'p95':>8}")
    everything = []
    for name, ts in times.items():
        if not ts:
            continue
        everything += ts
        print(f"{name:<12} {available[name]:<32} {len(ts):>2} {np.median(ts) * 1000:7.0f}ms "
              f"{np.percentile(ts, 95) * 1000:7.0f}ms")
    if everything:
        print(f"{'all':<12} {'':<32} {len(everything):>2} {np.median(everything) * 1000:7.0f}ms "
              f"{np.percentile(everything, 95) * 1000:7.0f}ms")
    for f in failures:
        print("FAILED:", f)
    window.close()
    return 1 if failures else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--size", default="4000x3000", help="photo size WxH (default 4000x3000)")
    ap.add_argument("--words", action="store_true", help="type requests in words (command model)")
    ap.add_argument("--back-to-back", action="store_true",
                    help="send each request as soon as the last is answered (no pause for after-work)")
    ap.add_argument("--startup", action="store_true", help="time the launch of main.py instead")
    ap.add_argument("--runs", type=int, default=3, help="launches for --startup")
    args = ap.parse_args()
    w, h = (int(v) for v in args.size.lower().split("x"))
    tmp = Path(tempfile.mkdtemp(prefix="easel-bench-"))
    os.environ["EASEL_HOME"] = str(tmp / "profile")
    os.environ.setdefault("XDG_CONFIG_HOME", str(tmp / "config"))
    photo = tmp / "photo.jpg"
    make_photo(photo, w, h)
    return startup(args, photo, tmp) if args.startup else latency(args, photo)


if __name__ == "__main__":
    sys.exit(main())
