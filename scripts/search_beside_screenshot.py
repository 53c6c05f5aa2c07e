"""Search beside the photo being edited, in the real window driven from outside with xdotool.

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python scripts/search_beside_screenshot.py OUTDIR

Starts ``main.py PHOTO`` with a throw-away profile, types each request of :data:`STEPS` into the
chat (``xdotool type``), waits for its answer in the profile's database, and grabs the screen after
each (``OUTDIR/NN-name.png``). Prints each reply and the seconds from Return to the answer being
stored (the first includes the models loading, the first search the sample library's indexing).
The app is stopped by its process id at the end.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import ImageGrab

ROOT = Path(__file__).resolve().parent.parent
PHOTO = ROOT / "resources" / "library" / "motorcycle.jpg"
SIZE = (1440, 900)
STEPS = [
    ("edit", "rotate 5 degrees and crop the corners"),
    ("search", "find me a picture of a cat"),
    ("another", "another one"),
    ("weak", "a giraffe"),
    ("back", "go back to the previous photo"),
]


def xdo(*args: str) -> str:
    return subprocess.run(["xdotool", *args], check=True, capture_output=True, text=True).stdout.strip()


def turns(db: Path) -> list[tuple[str, str]]:
    if not db.exists():
        return []
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
    except sqlite3.Error:
        return []
    try:
        return con.execute("select role, text from turns order by seq").fetchall()
    except sqlite3.Error:
        return []
    finally:
        con.close()


def main(outdir: str) -> int:
    out = Path(outdir).resolve()
    out.mkdir(parents=True, exist_ok=True)
    profile = Path(tempfile.mkdtemp(prefix="easel-beside-"))
    env = {**os.environ, "EASEL_HOME": str(profile), "XDG_CONFIG_HOME": str(profile / "config")}
    env.pop("QT_QPA_PLATFORM", None)
    app = subprocess.Popen([sys.executable, str(ROOT / "main.py"), str(PHOTO)], cwd=ROOT, env=env)
    try:
        window = xdo("search", "--sync", "--onlyvisible", "--name", "Easel")
        xdo("windowmove", window, "0", "0")
        xdo("windowsize", window, str(SIZE[0]), str(SIZE[1]))
        time.sleep(4)
        db = profile / "easel.db"
        for i, (name, request) in enumerate(STEPS, 1):
            seen = sum(1 for role, _ in turns(db) if role == "assistant")
            xdo("mousemove", "150", "857")  # the chat's input line (no window manager gives focus on Xvfb)
            xdo("click", "1")
            xdo("key", "--window", window, "ctrl+l")
            time.sleep(0.3)
            xdo("type", "--delay", "30", request)
            t0 = time.monotonic()
            xdo("key", "Return")
            while time.monotonic() - t0 < 120:
                rows = turns(db)
                if sum(1 for role, _ in rows if role == "assistant") > seen:
                    break
                time.sleep(0.1)
            else:
                print(f"beside: no answer to {request!r} in 120 s; files: {sorted(profile.rglob('*'))[:12]}",
                      file=sys.stderr)
                ImageGrab.grab(xdisplay=os.environ["DISPLAY"]).crop((0, 0, *SIZE)).save(out / "failed.png")
                return 1
            took = time.monotonic() - t0
            print(f"{i}. {request!r} answered in {took:.1f} s: {rows[-1][1]}")
            time.sleep(2.5)  # the canvas, the tabs and the chat show the result
            path = out / f"{i:02d}-{name}.png"
            ImageGrab.grab(xdisplay=os.environ["DISPLAY"]).crop((0, 0, *SIZE)).save(path)
            print(f"   wrote {path}")
        # a click on the second photo's tab, above the canvas
        xdo("mousemove", "565", "32")
        xdo("click", "1")
        time.sleep(2.5)
        path = out / f"{len(STEPS) + 1:02d}-tab-click.png"
        ImageGrab.grab(xdisplay=os.environ["DISPLAY"]).crop((0, 0, *SIZE)).save(path)
        print(f"{len(STEPS) + 1}. clicked the second tab; wrote {path}")
        return 0
    finally:
        app.terminate()
        try:
            app.wait(10)
        except subprocess.TimeoutExpired:
            app.kill()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/beside"))
