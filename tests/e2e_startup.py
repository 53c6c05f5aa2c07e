"""End to end, the first minute: start the app as ``main.py PHOTO`` does, type during loading.

    xvfb-run -a python tests/e2e_startup.py OUT_DIR

Under a real X server: builds the window exactly as :func:`app.main.run_app` does (window first,
models in a worker, the photo opened at once), types "make it a bit brighter" into the chat as soon
as the photo is on screen, while the command model is still loading, and checks that the request
is shown as waiting, then answered by the learned model once it is ready (never refused). Then it
reopens the conversation and looks for the typed words, searches the bundled sample library and
opens a match by clicking its thumbnail. Saves ``loading.png`` (the pending request),
``answered.png`` and ``search.png`` in OUT_DIR and prints the times since the process started.
Exits non-zero when a step fails.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

REQUEST = "make it a bit brighter"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    out = Path(argv[0]).resolve()
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="easel-e2e-"))
    os.environ["EASEL_HOME"] = str(tmp / "profile")  # never the user's database or settings
    os.environ["XDG_CONFIG_HOME"] = str(tmp / "config")

    from app.main import create_app, process_age

    app = create_app()
    import cv2

    cv2.setNumThreads(1)
    from PySide6.QtCore import Qt, QUrl
    from PySide6.QtTest import QTest

    from app.main_window import MainWindow

    window = MainWindow()  # the real controller: models load in a worker, as in run_app
    window.ask = lambda title, text: True
    window.resize(1440, 880)
    window.show()
    c = window.controller
    marks = {"window shown": process_age()}

    def wait(cond, timeout: float = 120.0) -> bool:
        t0 = time.monotonic()
        while not cond():
            if time.monotonic() - t0 > timeout:
                return False
            app.processEvents()
            time.sleep(0.005)
        return True

    def fail(text: str) -> int:
        window.grab().save(str(out / "failed.png"))
        print(f"e2e: {text}; chat: {window.chat.messages[-4:]}", file=sys.stderr)
        return 1

    # a 12-megapixel photo, as a camera makes
    from PIL import Image
    from skimage import data

    photo = tmp / "astronaut.jpg"
    Image.fromarray(cv2.resize(data.astronaut(), (4000, 3000), interpolation=cv2.INTER_CUBIC)).save(
        photo, quality=92)
    window.open_path(str(photo))
    if not wait(lambda: c.document is not None and window.canvas.has_image(), 30):
        return fail("the photo did not open")
    wait(lambda: False, 0.05)  # painted
    marks["photo shown"] = process_age()

    window.chat.input.setFocus()
    QTest.keyClicks(window.chat.input, REQUEST)
    QTest.keyClick(window.chat.input, Qt.Key.Key_Return)
    typed_while_loading = not c.session.models_ready
    if typed_while_loading:
        if c.session.queued != [REQUEST] or "Waiting for the models" not in window.chat.log.toPlainText():
            return fail("the request typed during loading was not shown as waiting")
        wait(lambda: False, 0.3)
        window.grab().save(str(out / "loading.png"))
    head = c.document.head.id
    if not wait(lambda: c.session.models_ready, 180):
        return fail("the models did not load")
    marks["models ready"] = process_age()
    if not wait(lambda: c.document.head.id != head and not c.busy and window.chat.messages[-1][0] == "assistant", 60):
        return fail("the waiting request was not answered")
    marks["answered"] = process_age()
    reply = window.chat.messages[-1][1]
    command = c.document.head.command or ""
    if not command.startswith("adjust_attr brightness") or "not understand" in reply:
        return fail(f"wrong answer: {command!r} {reply!r}")
    wait(lambda: not c.workers.active, 30)
    window.grab().save(str(out / "answered.png"))
    print(f"> {REQUEST}  (typed {'during' if typed_while_loading else 'after'} loading)\n  [{command}] {reply}")

    # reopen the conversation: the person's own words come back
    doc_id = c.document.id
    c.store.flush(30)
    c.reopen(doc_id)
    if not wait(lambda: any(m[0] == "note" and m[1].startswith("Reopened") for m in window.chat.messages), 30):
        return fail("the conversation did not reopen")
    if ("user", REQUEST) not in window.chat.messages:
        return fail("the reopened conversation lost the typed words")
    print("reopened: the typed words are there")

    # search the bundled sample library from the window, then open a match from its thumbnail
    n = len(window.chat.messages)
    window.chat.input.setFocus()
    QTest.keyClicks(window.chat.input, "find me a picture of a cup of coffee")
    QTest.keyClick(window.chat.input, Qt.Key.Key_Return)
    if not wait(lambda: not c.busy and len(window.chat.messages) >= n + 2, 180):
        return fail("no answer to the search")
    if not window.chat.match_paths:
        return fail("the search answer shows no thumbnails")
    print(f"search: {window.chat.messages[-2][1]!r}; {len(window.chat.match_paths)} thumbnails")
    wait(lambda: not c.workers.active, 30)
    window.grab().save(str(out / "search.png"))
    target = window.chat.match_paths[-1]
    window.chat.log.anchorClicked.emit(QUrl(f"match:{len(window.chat.match_paths) - 1}"))
    if not wait(lambda: c.document is not None and c.document.source_path == str(Path(target).resolve()), 30):
        return fail("clicking a thumbnail did not open it")
    print(f"clicked a thumbnail: opened {Path(target).name}")
    print("times since the process started: " + ", ".join(f"{k} {v:.2f} s" for k, v in marks.items()))
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
