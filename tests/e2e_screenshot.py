"""End to end: play a short scripted conversation on a real photo and save a screenshot of the window.

    xvfb-run -a python tests/e2e_screenshot.py OUT.png

Runs the real app (a real X server under Xvfb, the xcb platform), with its database and settings in
a temporary profile: opens scikit-image's astronaut photo, types requests into the chat input
with key events, draws a trace with the mouse, and grabs the main window. Prints one line per turn.
Exits non-zero if a turn fails or the window shows the wrong thing.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# (what the person types, the command the learned model must run)
CONVERSATION = [
    ("make it a bit brighter", "adjust_attr brightness 10"),
    ("i want the whole photo to be a bit more yellow", "adjust_color yellow 0.1"),
    ("rotate it 90 degrees clockwise", "rotate 270"),
    ("undo", "undo"),
    ("mirror the photo", "flip horizontal"),
    ("crop the image from (40, 20) to (480, 500)", "crop 40 20 480 500"),
]
# after the trace: a caption that follows it, then what changed since the original
QUESTIONS = [("describe", "describe"), ("what changed compared to the original?", "explain")]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(argv[0]).resolve()
    tmp = Path(tempfile.mkdtemp(prefix="easel-e2e-"))
    os.environ["EASEL_HOME"] = str(tmp / "profile")  # never the user's database or settings

    from PIL import Image
    from skimage import data

    photo = tmp / "astronaut.jpg"
    Image.fromarray(data.astronaut()).save(photo, quality=95)

    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtTest import QTest

    from app.loading import preload_libraries
    from app.main import create_app

    app = create_app()
    preload_libraries()
    from agent.dialogue.assistant import load_parser
    from app.controller import Controller
    from app.loading import parser_words
    from app.main_window import MainWindow

    controller = Controller(preload=False)
    controller.manager.parser = load_parser()  # the learned command model, loaded up front here
    window = MainWindow(controller)
    window.ask = lambda title, text: True  # no modal questions in a scripted run (e.g. quit unsaved)
    window.resize(1440, 880)
    window.show()
    c = window.controller
    c.parser_name = parser_words(controller.manager.parser)
    c.parserChanged.emit(c.parser_name)

    def wait(cond, timeout: float = 60.0) -> bool:
        t0 = time.monotonic()
        while not cond():
            if time.monotonic() - t0 > timeout:
                return False
            app.processEvents()
            time.sleep(0.005)
        return True

    window.open_path(str(photo))
    if not wait(lambda: c.document is not None and not c.workers.active):
        print("e2e: the photo did not open", file=sys.stderr)
        return 1
    failures = 0
    results = []
    c.turnFinished.connect(results.append)

    def say(request: str, expected: str) -> None:
        nonlocal failures
        n = len(window.chat.messages)
        window.chat.input.setFocus()
        QTest.keyClicks(window.chat.input, request)
        QTest.keyClick(window.chat.input, Qt.Key.Key_Return)
        if not wait(lambda n=n: not c.busy and len(window.chat.messages) >= n + 2):
            print(f"e2e: no answer to {request!r}", file=sys.stderr)
            failures += 1
            return
        role, reply = window.chat.messages[-1]
        last = results[-1] if results else None
        ran = last.command.format() if last is not None and last.command is not None else None
        wrong = role != "assistant" or ran is None or ran.split()[0] != expected.split()[0] or (
            ran != expected and expected.split()[0] not in ("explain", "describe"))
        failures += wrong
        print(f"> {request}\n  [{ran}] {reply}" + ("   <-- expected " + expected if wrong else ""))

    for request, expected in CONVERSATION:
        say(request, expected)

    # a trace over the face and helmet, drawn with real mouse events on the canvas
    window.canvas.set_tool("trace")
    vp = window.canvas.viewport()
    w, h = window.canvas.image_size()
    # once round the face, then down to the name badge (normalised to the cropped photo)
    import math

    pts = [(0.47 + 0.13 * math.cos(a / 10 * 2 * math.pi), 0.21 + 0.15 * math.sin(a / 10 * 2 * math.pi))
           for a in range(11)]
    pts += [(0.55, 0.45), (0.45, 0.62), (0.40, 0.70)]
    view = [window.canvas.mapFromScene(QPointF(x * w, y * h)) for x, y in pts]
    QTest.mousePress(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, view[0])
    for p in view[1:]:
        QTest.qWait(60)
        QTest.mouseMove(vp, p)
    QTest.mouseRelease(vp, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, view[-1])
    wait(lambda: False, 0.3)
    if c.manager.context.trace is None:
        print("e2e: the trace was not recorded", file=sys.stderr)
        failures += 1

    for request, expected in QUESTIONS:
        say(request, expected)

    ok = (c.document.head.command == CONVERSATION[-1][1] and c.stack.count() == 4
          and window.windowTitle().startswith("*"))
    window.grab().save(str(out))
    print(f"e2e: {len(c.document.versions)} versions, head '{c.document.head.command}', "
          f"title '{window.windowTitle()}', screenshot {out}")
    window.close()
    return 0 if ok and not failures else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
