"""Point and say in the real window, driven from outside with xdotool: draw a loop around the cup,
type "brighten this", and save screenshots.

    xvfb-run -a -s "-screen 0 1600x1000x24" .venv/bin/python scripts/pointsay_screenshot.py docs/pointsay.png \
        [--scribble] [--esc]

Starts ``main.py PHOTO`` (the app as a person starts it, models loading in the background) on the
Xvfb display with a throw-away profile, finds the photo on the screen by template matching, draws
the loop with real mouse events (``xdotool mousedown``/``mousemove``/``mouseup``), focuses the chat
(Ctrl+L) and types the request (``xdotool type``), waits for the answer in the profile's database,
and grabs the screen (Pillow's X grab). Writes OUT (the window after the edit) and OUT with
``-selection`` before its suffix (the selection shown before the edit). Prints what it did and the
turn's reply; exits non-zero when a step fails. The app is stopped by its process id at the end.

``--scribble`` scribbles over the cup (a zigzag inside it) instead of circling it. ``--esc`` then
draws a second loop, grabs it (OUT with ``-drawn``), presses Esc and grabs again (``-esc``): the
trace and the selection should both be gone.
"""

from __future__ import annotations

import math
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np
from PIL import ImageGrab

ROOT = Path(__file__).resolve().parent.parent
PHOTO = ROOT / "resources" / "library" / "cat_and_coffee.jpg"
REQUEST = "brighten this"
# the cup of cat_and_coffee.jpg, as a fraction of the photo: centre and radii of the loop around it
LOOP = (0.74, 0.29, 0.115, 0.28)
SIZE = (1440, 900)  # the window, moved to the screen's top left corner


def xdo(*args: str) -> str:
    return subprocess.run(["xdotool", *args], check=True, capture_output=True, text=True).stdout.strip()


def grab() -> np.ndarray:
    """The screen where the window is (its top left corner, :data:`SIZE`)."""
    screen = np.asarray(ImageGrab.grab(xdisplay=os.environ["DISPLAY"]).convert("RGB"))
    return np.ascontiguousarray(screen[:SIZE[1], :SIZE[0]])


def find_photo(screen: np.ndarray, photo: np.ndarray) -> tuple[float, float, float]:
    """Where the photo is shown: (left, top, scale) of its best match over scales 0.3..2."""
    best = (-1.0, 0.0, 0.0, 1.0)
    grey = cv2.cvtColor(screen, cv2.COLOR_RGB2GRAY)
    for scale in np.arange(0.3, 2.0, 0.02):
        w, h = round(photo.shape[1] * scale), round(photo.shape[0] * scale)
        if w >= grey.shape[1] or h >= grey.shape[0] or w < 40:
            continue
        t = cv2.cvtColor(cv2.resize(photo, (w, h), interpolation=cv2.INTER_AREA), cv2.COLOR_RGB2GRAY)
        score = cv2.matchTemplate(grey, t, cv2.TM_CCOEFF_NORMED)
        _, m, _, at = cv2.minMaxLoc(score)
        if m > best[0]:
            best = (m, at[0], at[1], scale)
    if best[0] < 0.8:
        raise RuntimeError(f"the photo is not on the screen (best match {best[0]:.2f})")
    return best[1], best[2], best[3]


def answers(db: Path) -> list[tuple[str, str]]:
    if not db.exists():
        return []
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)
    try:
        return con.execute("select role, text from turns order by seq").fetchall()
    except sqlite3.Error:
        return []
    finally:
        con.close()


def draw(points: list[tuple[float, float]]) -> None:
    xdo("mousemove", str(round(points[0][0])), str(round(points[0][1])))
    xdo("mousedown", "1")
    for x, y in points[1:]:
        time.sleep(0.02)
        xdo("mousemove", str(round(x)), str(round(y)))
    xdo("mouseup", "1")


def main(out: str, scribble: bool = False, esc: bool = False) -> int:
    out_path = Path(out).resolve()
    profile = Path(tempfile.mkdtemp(prefix="easel-pointsay-"))
    env = {**os.environ, "EASEL_HOME": str(profile), "XDG_CONFIG_HOME": str(profile / "config")}
    env.pop("QT_QPA_PLATFORM", None)
    app = subprocess.Popen([sys.executable, str(ROOT / "main.py"), str(PHOTO)], cwd=ROOT, env=env)
    try:
        window = xdo("search", "--sync", "--onlyvisible", "--name", "Easel")
        xdo("windowmove", window, "0", "0")
        xdo("windowsize", window, str(SIZE[0]), str(SIZE[1]))
        photo = cv2.cvtColor(cv2.imread(str(PHOTO)), cv2.COLOR_BGR2RGB)
        for _ in range(120):  # the photo opens a moment after the window
            time.sleep(0.5)
            try:
                left, top, scale = find_photo(grab(), photo)
                break
            except RuntimeError:
                continue
        else:
            print("pointsay: the photo never showed", file=sys.stderr)
            return 1
        h, w = photo.shape[:2]
        print(f"photo on screen at ({left}, {top}), scale {scale:.2f}")
        cx, cy, rx, ry = LOOP
        points = [(left + (cx + rx * math.cos(a)) * w * scale, top + (cy + ry * math.sin(a)) * h * scale)
                  for a in np.linspace(0, 2 * math.pi * 0.97, 40)]
        if scribble:  # a zigzag inside the cup, down its middle half
            points = [(left + (cx + (0.35 if i % 2 else -0.35) * rx) * w * scale,
                       top + (cy - 0.5 * ry + i * ry / 8) * h * scale) for i in range(9)]
            points = [p for a, b in zip(points, points[1:]) for p in
                      [(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t) for t in np.linspace(0, 1, 6)[:-1]]]
        draw(points)
        print(f"drew a {'scribble' if scribble else 'loop'} of {len(points)} points over the cup")
        time.sleep(4)  # the selection is made in a worker (GrabCut), then outlined
        before = grab()
        stem = out_path.with_name(out_path.stem + "-selection" + out_path.suffix)
        cv2.imwrite(str(stem), cv2.cvtColor(before, cv2.COLOR_RGB2BGR))
        print(f"wrote {stem}")
        xdo("key", "--window", window, "ctrl+l")
        time.sleep(0.3)
        xdo("type", "--delay", "40", REQUEST)
        xdo("key", "Return")
        print(f"typed {REQUEST!r}")
        db = profile / "easel.db"
        t0 = time.monotonic()
        while time.monotonic() - t0 < 300:  # the models load behind the window; the request waits for them
            turns = answers(db)
            if turns and turns[-1][0] == "assistant" and any(r == "user" and t == REQUEST for r, t in turns):
                break
            time.sleep(1)
        else:
            print("pointsay: no answer in 300 s", file=sys.stderr)
            return 1
        print(f"answered after {time.monotonic() - t0:.0f} s: {turns[-1][1]}")
        time.sleep(2)  # the canvas shows the new version
        after = grab()
        cv2.imwrite(str(out_path), cv2.cvtColor(after, cv2.COLOR_RGB2BGR))
        print(f"wrote {out_path}")
        if esc:
            draw([(left + (0.3 + 0.12 * math.cos(a)) * w * scale, top + (0.6 + 0.2 * math.sin(a)) * h * scale)
                  for a in np.linspace(0, 2 * math.pi * 0.97, 40)])
            time.sleep(4)
            for name, shot in (("-drawn", None), ("-esc", "Escape")):
                if shot:
                    xdo("mousemove", str(round(left + 0.5 * w * scale)), str(round(top + 0.5 * h * scale)))
                    xdo("key", "--window", window, shot)
                    time.sleep(1.5)
                path = out_path.with_name(out_path.stem + name + out_path.suffix)
                cv2.imwrite(str(path), cv2.cvtColor(grab(), cv2.COLOR_RGB2BGR))
                print(f"wrote {path}" + (" after Esc" if shot else " with a second loop drawn"))
        return 0
    finally:
        app.terminate()
        try:
            app.wait(10)
        except subprocess.TimeoutExpired:
            app.kill()


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    sys.exit(main(args[0] if args else "docs/pointsay.png", "--scribble" in sys.argv, "--esc" in sys.argv))
