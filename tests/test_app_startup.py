"""The first minute in the window: requests typed while the models load, short refusals, search from
the window, overlays per version, version files written after the turn (pytest-qt, offscreen)."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt, QUrl  # noqa: E402

from agent.dialogue.manager import GrammarParser  # noqa: E402
from agent.grammar.commands import usage  # noqa: E402
from agent.grammar.turns import TurnResult
from app.controller import Controller, open_store  # noqa: E402
from app.labels import HELP_HINT, history_label, short_refusal  # noqa: E402
from app.main_window import MainWindow  # noqa: E402
from app.settings import AppSettings, make_settings  # noqa: E402
from app.storage import BackgroundStore  # noqa: E402
from editor.store import Store  # noqa: E402

pytestmark = pytest.mark.gui


@pytest.fixture
def photo(tmp_path, astronaut):
    path = tmp_path / "photos" / "astronaut.png"
    path.parent.mkdir()
    Image.fromarray(astronaut[::2, ::2]).save(path)
    return path


def make_window(qtbot, tmp_path, *, preload: bool = False) -> MainWindow:
    store = open_store(tmp_path / "profile" / "easel.db")
    settings = AppSettings(make_settings(tmp_path / "settings.ini"))
    w = MainWindow(Controller(store=store, settings=settings, preload=preload))
    w.ask = lambda title, text: True
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.show()
    qtbot.waitExposed(w)
    return w


def type_request(qtbot, w: MainWindow, text: str) -> None:
    w.chat.input.setFocus()
    qtbot.keyClicks(w.chat.input, text)
    qtbot.keyClick(w.chat.input, Qt.Key.Key_Return)


def say(qtbot, w: MainWindow, text: str) -> None:
    n = len(w.chat.messages)
    type_request(qtbot, w, text)
    qtbot.waitUntil(lambda: not w.controller.busy and len(w.chat.messages) >= n + 2, timeout=15000)


@pytest.fixture
def slow_models(monkeypatch):
    """The real loading path with stand-ins for the heavy parts: the 'model' is ready when released."""
    release = threading.Event()

    def load_parser():
        release.wait(20)
        return GrammarParser()

    monkeypatch.setattr("app.loading.preload_libraries", lambda report=None: [])
    monkeypatch.setattr("agent.dialogue.assistant.load_parser", load_parser)
    monkeypatch.setattr("app.controller.Controller._warm_cutout", lambda self, worker: None)
    yield release
    release.set()


def test_a_request_typed_while_loading_waits_and_is_answered_when_ready(qtbot, tmp_path, photo, slow_models):
    w = make_window(qtbot, tmp_path, preload=True)
    c = w.controller
    qtbot.waitUntil(lambda: c.model_worker is not None, timeout=5000)
    assert not c.session.models_ready
    assert w.loading_label.isVisible() and "Loading" in w.loading_label.text()
    w.open_path(str(photo))
    qtbot.waitUntil(lambda: c.document is not None, timeout=10000)
    type_request(qtbot, w, "rotate 90")
    # accepted and shown as waiting, not refused, and the input stays open for more
    assert w.chat.messages[-1] == ("user", "rotate 90")
    assert "Waiting for the models" in w.chat.log.toPlainText()
    assert c.session.queued == ["rotate 90"] and w.chat.input.isEnabled()
    type_request(qtbot, w, "flip vertical")
    assert c.session.queued == ["rotate 90", "flip vertical"]
    qtbot.wait(200)
    assert c.document.head.command is None  # nothing ran before the models were ready
    slow_models.set()
    qtbot.waitUntil(lambda: c.session.models_ready and not c.session.queued and not c.busy, timeout=15000)
    qtbot.waitUntil(lambda: c.document.head.command == "flip vertical", timeout=15000)
    assert c.document.parent().command == "rotate 90"
    replies = [t for role, t in w.chat.messages if role == "assistant"]
    assert len(replies) == 2 and not any("not understand" in r for r in replies)
    assert not w.loading_label.isVisible()
    assert "Understands:" in w.model_label.text() and "Parser" not in w.model_label.text()


def test_status_bar_names_the_parser_in_words(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    assert w.model_label.text() == "Understands: commands only (the learned model is not installed)"
    w.controller.parserChanged.emit("learned command model (plain English)")
    assert "Parser" not in w.model_label.text() and "learned command model" in w.model_label.text()


def test_refusals_are_short_and_help_shows_the_grammar(qtbot, tmp_path, photo):
    w = make_window(qtbot, tmp_path)
    w.open_path(str(photo))
    qtbot.waitUntil(lambda: w.controller.document is not None, timeout=10000)
    say(qtbot, w, "please do something wonderful with it")
    role, reply = w.chat.messages[-1]
    assert role == "assistant"
    assert "adjust_attr" not in reply and len(reply) < 250, reply
    assert reply.endswith(HELP_HINT)
    w.show_commands()
    assert w.commands_box.informativeText() == usage()
    w.commands_box.close()


def test_short_refusal_keeps_short_replies_and_cuts_the_grammar():
    assert short_refusal("There is nothing to undo.") == "There is nothing to undo."
    long = "Sorry, I did not understand that. I can search your photos, rotate.\n" + usage()
    out = short_refusal(long)
    assert out == f"Sorry, I did not understand that. {HELP_HINT}"


def test_history_label_is_the_one_place_the_grammar_plugs_in():
    assert history_label(None) == "original"
    assert history_label("rotate 90") == "Rotate 90° CCW"  # the grammar's own words
    assert history_label("adjust_attr brightness 20") == "Brighter +20"
    assert history_label("not a command") == "not a command"  # a line it cannot read is shown as it is


def test_history_panel_shows_labels_with_the_command_as_tooltip(qtbot, tmp_path, photo):
    w = make_window(qtbot, tmp_path)
    w.open_path(str(photo))
    qtbot.waitUntil(lambda: w.controller.document is not None, timeout=10000)
    say(qtbot, w, "rotate 90")
    item = w.history.items[w.controller.document.head.id]
    assert "Rotate 90° CCW" in item.text(0)
    assert item.toolTip(0).startswith("rotate 90")


def test_history_panel_adds_rows_instead_of_rebuilding_and_restyles_only_what_changed(qtbot, tmp_path):
    """After a turn the tree keeps its items (a turn's cost must not grow with the history); the head's
    marker moves on undo; a branch started in the middle is laid out again, nested."""
    from app.history_panel import HistoryPanel
    from editor.document import Document

    panel = HistoryPanel()
    qtbot.addWidget(panel)
    px = np.zeros((8, 8, 3), np.uint8)
    doc = Document.create(Store(tmp_path / "s"), px)
    a = doc.apply("adjust_attr brightness 20", px + 1)
    panel.set_document(doc)
    root_item, a_item = panel.items[doc.root.id], panel.items[a.id]
    assert a_item.text(0).endswith("◀") and a_item.font(0).bold()
    b = doc.apply("grayscale", px + 2)
    panel.set_document(doc)
    assert panel.items[doc.root.id] is root_item and panel.items[a.id] is a_item  # kept, not rebuilt
    assert panel.items[b.id].text(0).endswith("◀")
    assert not a_item.text(0).endswith("◀") and not a_item.font(0).bold()
    doc.checkout(a.id)  # undo: b is off the line now, greyed
    panel.set_document(doc)
    assert a_item.text(0).endswith("◀") and panel.items[b.id].foreground(0).color().red() == 150
    b_item = panel.items[b.id]
    c = doc.apply("rotate 90", px + 3)  # a branch from a: b is nested under a, c carries the line
    panel.set_document(doc)
    assert panel.items[b.id] is b_item and panel.items[a.id] is a_item  # moved, not made again
    assert panel.items[b.id].parent() is panel.items[a.id] and panel.items[a.id].isExpanded()
    assert panel.items[c.id].text(0).endswith("◀") and panel.topLevelItemCount() == 3
    assert [panel.topLevelItem(i).data(0, Qt.ItemDataRole.UserRole) for i in range(3)] == [doc.root.id, a.id, c.id]


def test_history_panel_kept_up_to_date_looks_as_one_made_afresh(qtbot, tmp_path):
    """Edits, undos and branches in a random order: the panel updated turn by turn shows the same
    tree (rows, nesting, labels, looks) as a panel shown the final document once."""
    import random

    from app.history_panel import HistoryPanel
    from editor.document import Document

    def shape(panel):
        def walk(item):
            return (item.text(0), item.font(0).bold(), item.foreground(0).color().red(), item.isExpanded(),
                    [walk(item.child(k)) for k in range(item.childCount())])
        return [walk(panel.topLevelItem(k)) for k in range(panel.topLevelItemCount())]

    live = HistoryPanel()
    qtbot.addWidget(live)
    px = np.zeros((4, 4, 3), np.uint8)
    doc = Document.create(Store(tmp_path / "r"), px)
    rng = random.Random(3)
    for turn in range(40):
        ids = list(doc.versions)
        if rng.random() < 0.35 and len(ids) > 1:
            doc.checkout(rng.choice(ids))
        else:
            doc.apply(f"adjust_attr brightness {turn + 1}", px + turn % 200)
        live.set_document(doc)
    fresh = HistoryPanel()
    qtbot.addWidget(fresh)
    fresh.set_document(doc)
    assert shape(live) == shape(fresh) and len(live.items) == len(doc.versions)


def test_boxes_drawn_for_one_version_disappear_when_another_is_shown(qtbot, tmp_path, photo):
    w = make_window(qtbot, tmp_path)
    c = w.controller
    w.open_path(str(photo))
    qtbot.waitUntil(lambda: c.document is not None, timeout=10000)
    say(qtbot, w, "rotate 90")

    def describe(manager, command):
        return TurnResult("describe", "a box", command, data={"overlays": [
            {"kind": "box", "target": "current", "box": [1, 1, 50, 50], "color": "#ff5555"}]})

    c.manager.handlers["describe"] = describe
    say(qtbot, w, "describe")
    assert w.canvas.overlay_count() == 1
    c.checkout(c.document.root.id)
    qtbot.waitUntil(lambda: c.document.head.id == c.document.root.id, timeout=5000)
    assert w.canvas.overlay_count() == 0 and c.session.overlays == []
    w.undo_action.trigger()  # back to the rotated version: the box was for it, but it is gone
    assert w.canvas.overlay_count() == 0


def test_cutout_reply_says_transparent_as_the_canvas_shows_it(qtbot, tmp_path, photo, monkeypatch):
    w = make_window(qtbot, tmp_path)
    c = w.controller

    def cutout(pixels):
        out = np.dstack([pixels, np.full(pixels.shape[:2], 255, np.uint8)])
        out[:10, :10] = 0
        return out

    monkeypatch.setattr(c.cutter, "cutout", cutout)
    w.open_path(str(photo))
    qtbot.waitUntil(lambda: c.document is not None, timeout=10000)
    say(qtbot, w, "image_cutout")
    assert c.document.head.channels == 4
    assert "transparent" in w.chat.messages[-1][1] and "background is black" not in w.chat.messages[-1][1]


def test_search_answer_shows_match_thumbnails_and_a_click_opens_one(qtbot, tmp_path, photo, coffee):
    w = make_window(qtbot, tmp_path)
    c = w.controller
    second = tmp_path / "photos" / "coffee.png"
    Image.fromarray(coffee[::2, ::2]).save(second)

    def search(manager, command):
        return TurnResult(command.format(), "Here is astronaut.png.", command, data={"results": [
            {"path": str(photo), "description": "an astronaut"},
            {"path": str(second), "description": "a cup of coffee"},
            {"path": str(tmp_path / "gone.jpg"), "description": "a file deleted since"}]})

    c.manager.handlers["search"] = search
    say(qtbot, w, "search astronaut")
    assert w.chat.match_paths == [str(photo), str(second)]
    assert w.chat.messages[-1][0] == "matches"
    assert 'href="match:1"' in w.chat.log.toHtml()
    w.chat.log.anchorClicked.emit(QUrl("match:1"))
    qtbot.waitUntil(lambda: c.document is not None and c.document.title == "coffee.png", timeout=10000)
    assert c.document.pixels().shape == coffee[::2, ::2].shape
    assert any(h.startswith("image_load:") for h in c.manager.history)
    w.undo_action.trigger()  # opening a match is one undo step, like search's own switch
    assert c.document is None


class FakeLibrary:
    """Stands in for agent.search.library.Library: counts files and honours on_progress's stop."""

    def __init__(self) -> None:
        self.permits = threading.Semaphore(0)  # one per file the test lets through
        self.indexed: list[str] = []

    def index(self, roots, *, progress=True, on_progress=None, **kwargs):
        from agent.search.library import IndexReport

        files = [f"{roots[0]}/p{i}.jpg" for i in range(50)]
        report = IndexReport()
        for i, f in enumerate(files):
            if not self.permits.acquire(timeout=5):
                break
            self.indexed.append(f)
            report.added += 1
            if on_progress is not None and on_progress(i + 1, len(files), f) is False:
                break
        return report


def test_add_folder_indexes_in_a_worker_with_progress_and_stop(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    c = w.controller
    c.library = lib = FakeLibrary()
    progress = []
    c.indexProgress.connect(lambda d, t, n: progress.append((d, t)))
    worker = w.add_folder(str(tmp_path))
    assert worker is not None and w.index_bar.isVisible() and w.index_stop.isVisible()
    lib.permits.release(3)
    qtbot.waitUntil(lambda: len(progress) >= 3, timeout=5000)
    w.index_stop.click()
    lib.permits.release(50)
    qtbot.waitUntil(lambda: worker.done, timeout=10000)
    qtbot.waitUntil(lambda: not w.index_bar.isVisible(), timeout=5000)
    assert 3 <= len(lib.indexed) <= 4  # stopped at the next file, not at the end
    assert progress[-1][1] == 50
    assert "Stopped adding" in w.chat.messages[-1][1]


def test_first_search_in_the_window_indexes_the_sample_library(qtbot, tmp_path, photo):
    """As on the command line: the window's search handler is the library's with sample=True."""
    w = make_window(qtbot, tmp_path)
    c = w.controller
    assert c.library is not None
    assert c.library.db_path.parent == tmp_path / "profile"
    seen = {}
    c.library.ensure_sample = lambda **kw: seen.setdefault("sample", True)
    c.library.count = lambda: 0
    say(qtbot, w, "search red balloon")
    assert seen.get("sample") is True


def test_background_store_answers_from_memory_then_from_disk(tmp_path, astronaut):
    store = BackgroundStore(tmp_path / "easel.db")
    digest = store.put_pixels(astronaut)
    assert np.array_equal(store.get_pixels(digest), astronaut)
    assert store.flush(30)
    assert store.pending() == 0
    again = Store(tmp_path / "easel.db")
    assert np.array_equal(again.get_pixels(digest), astronaut)  # the file, bit for bit
    assert store.put_pixels(astronaut) == digest
    store.close()


def test_the_window_names_what_is_missing_instead_of_aborting():
    from app.main import XCB_LIBRARIES, missing_for_window

    def load(name):
        if name in ("libxcb-cursor.so.0", "libxkbcommon-x11.so.0"):
            raise OSError(name)

    text = missing_for_window({"DISPLAY": ":0"}, load)
    assert text is not None and "apt-get install libxcb-cursor0 libxkbcommon-x11-0" in text
    assert missing_for_window({"DISPLAY": ":0"}, lambda name: None) is None
    assert "DISPLAY" in missing_for_window({}, load) and "xvfb-run" in missing_for_window({}, load)
    assert missing_for_window({"QT_QPA_PLATFORM": "offscreen"}, load) is None
    assert set(XCB_LIBRARIES.values()) <= set(
        (Path(__file__).resolve().parent.parent / ".ci" / "run").read_text().split())  # same list as CI


def test_main_without_a_display_says_so_and_exits(tmp_path):
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, str(root / "main.py")], env=env, cwd=root, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 3
    assert "no display" in proc.stderr and "xvfb-run" in proc.stderr


def test_background_store_takes_over_fresh_arrays_and_copies_views(tmp_path, astronaut):
    store = BackgroundStore(tmp_path / "easel.db")
    fresh = astronaut.copy()
    digest = store.put_pixels(fresh)
    assert not fresh.flags.writeable  # taken over, not copied: a later write fails loudly
    with pytest.raises(ValueError):
        fresh[0, 0] = 0
    base = astronaut.copy()
    view = base[10:60, 10:60]
    d2 = store.put_pixels(view)
    base[10:60, 10:60] = 0  # the caller changes its array after storing a view of it
    assert store.flush(30)
    assert np.array_equal(Store(tmp_path / "easel.db").get_pixels(d2), astronaut[10:60, 10:60])
    assert np.array_equal(store.get_pixels(digest), astronaut)
    store.close()


@pytest.mark.slow
def test_library_index_reports_each_file_and_stops_when_asked(tmp_path, astronaut, coffee):
    """agent.search.library.Library.index(on_progress=...): what the window's progress bar and Stop use."""
    from agent.search.library import Library

    folder = tmp_path / "pictures"
    folder.mkdir()
    for i, img in enumerate([astronaut, coffee, astronaut[::-1]]):
        Image.fromarray(img[::4, ::4]).save(folder / f"p{i}.png")
    class Encoder:  # the words' embeddings do not matter here; MiniLM's load would double the time
        def encode(self, texts, **kwargs):
            out = np.zeros((len(texts), 384), np.float32)
            out[:, 0] = 1
            return out

    library = Library(tmp_path / "library.db", encoder=Encoder())
    seen = []

    def step(done, total, path):
        seen.append((done, total, Path(path).name))
        return False  # Stop after the first photo

    report = library.index([folder], progress=False, on_progress=step)
    assert seen == [(1, 3, "p0.png")]
    assert library.count() == 1 and report.added == 1  # what was indexed stays
    seen.clear()
    library.index([folder], progress=False, on_progress=lambda d, t, p: seen.append((d, t)))
    assert seen[-1] == (2, 2) and library.count() == 3  # the rest, the first is unchanged
