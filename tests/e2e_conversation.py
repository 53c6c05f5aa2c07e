"""End to end, issue 27: a revision, a critique with its plan and a question answered with a box, in
the real window under Xvfb, with a screenshot after each.

    xvfb-run -a python tests/e2e_conversation.py OUT_DIR

Runs the app as tests/e2e_screenshot.py does (xcb platform, a temporary profile, requests typed into
the chat input with key events) on the sample library's photos. Saves OUT_DIR/1-revision.png,
2-critique.png, 3-box.png and prints each turn; exits non-zero if a turn did not do what it should.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(argv[0]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="easel-e2e27-"))
    os.environ["EASEL_HOME"] = str(tmp / "profile")

    from PySide6.QtCore import Qt
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
    controller.manager.parser = load_parser()
    window = MainWindow(controller)
    window.ask = lambda title, text: True
    window.resize(1440, 880)
    window.show()
    c = window.controller
    c.parser_name = parser_words(controller.manager.parser)
    c.parserChanged.emit(c.parser_name)

    def wait(cond, timeout: float = 90.0) -> bool:
        t0 = time.monotonic()
        while not cond():
            if time.monotonic() - t0 > timeout:
                return False
            app.processEvents()
            time.sleep(0.005)
        return True

    failures = 0

    def open_photo(name: str) -> None:
        nonlocal failures
        before = c.document
        window.open_path(str(ROOT / "resources" / "library" / name))
        if not wait(lambda: c.document is not None and c.document is not before and not c.workers.active):
            print(f"e2e: {name} did not open", file=sys.stderr)
            failures += 1

    def say(request: str, check) -> str:
        nonlocal failures
        n = len(window.chat.messages)
        window.chat.input.setFocus()
        QTest.keyClicks(window.chat.input, request)
        QTest.keyClick(window.chat.input, Qt.Key.Key_Return)
        if not wait(lambda n=n: not c.busy and len(window.chat.messages) >= n + 2):
            print(f"e2e: no answer to {request!r}", file=sys.stderr)
            failures += 1
            return ""
        reply = window.chat.messages[-1][1]
        ok = check(reply)
        failures += not ok
        print(f"> {request}\n  [{c.document.head.command}] {reply}" + ("" if ok else "   <-- WRONG"))
        return reply

    def ctrl_z() -> None:
        window.activateWindow()
        window.canvas.setFocus()  # Ctrl+Z in the chat input would undo its typing
        wait(lambda: False, 0.2)
        QTest.keyClick(window.canvas, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        wait(lambda: not c.busy and not c.workers.active)
        wait(lambda: False, 0.3)

    def shot(name: str) -> None:
        wait(lambda: False, 0.5)
        window.grab().save(str(out / name))
        print(f"  screenshot {out / name}")

    open_photo("coffee.jpg")
    say("increase the contrast by 40", lambda r: c.document.head.command == "adjust_attr contrast 40")
    say("thats way too much contrast", lambda r: c.document.head.command == "adjust_attr contrast 10"
        and "instead of +40" in r)
    shot("1-revision.png")
    ctrl_z()
    print(f"  Ctrl+Z: head {c.document.head.command}")
    failures += c.document.head.command != "adjust_attr contrast 40"

    open_photo("rocket.jpg")
    say("what would you improve in this photo?", lambda r: "I would" in r and c.document.head.parent_id is None)
    shot("2-critique.png")
    say("yes", lambda r: len(c.document.lineage()) > 2)
    ctrl_z()
    print(f"  Ctrl+Z after the plan: head {c.document.head.command or 'the original'}")
    failures += c.document.head.parent_id is not None

    open_photo("coffee.jpg")
    say("where is the cup?", lambda r: "cup" in r)
    shot("3-box.png")
    window.close()
    print(f"e2e: {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
