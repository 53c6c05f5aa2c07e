"""The desktop app, driven like a person would: keystrokes, mouse drags, menus (pytest-qt, offscreen)."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import numpy as np
import pytest
from PIL import Image

pytest.importorskip("pytestqt")

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl  # noqa: E402
from PySide6.QtGui import QDropEvent, QWheelEvent  # noqa: E402

from agent.grammar.turns import TurnResult  # noqa: E402
from app.controller import Controller, open_store  # noqa: E402
from app.main_window import MainWindow  # noqa: E402
from app.settings import AppSettings, make_settings  # noqa: E402
from editor import traces  # noqa: E402
from editor.document import Document  # noqa: E402
from editor.imageio import read_image  # noqa: E402

pytestmark = pytest.mark.gui


@pytest.fixture
def photo(tmp_path, astronaut):
    path = tmp_path / "photos" / "astronaut.png"
    path.parent.mkdir()
    Image.fromarray(astronaut[::2, ::2]).save(path)  # 256x256 keeps the tests quick
    return path


def make_window(qtbot, tmp_path) -> MainWindow:
    store = open_store(tmp_path / "profile" / "easel.db")
    settings = AppSettings(make_settings(tmp_path / "settings.ini"))
    w = MainWindow(Controller(store=store, settings=settings, preload=False))
    w.asked = []
    w.ask = lambda title, text: w.asked.append(title) or w.answer
    w.answer = True
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.show()
    qtbot.waitExposed(w)
    return w


@pytest.fixture
def window(qtbot, tmp_path):
    w = make_window(qtbot, tmp_path)
    yield w
    w.controller.workers.wait(5000)


def open_photo(qtbot, w: MainWindow, path) -> Document:
    w.open_path(str(path))
    qtbot.waitUntil(lambda: w.controller.document is not None and not w.controller.workers.active, timeout=10000)
    return w.controller.document


def say(qtbot, w: MainWindow, text: str) -> None:
    n = len(w.chat.messages)
    w.chat.input.setFocus()
    qtbot.keyClicks(w.chat.input, text)
    qtbot.keyClick(w.chat.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not w.controller.busy and len(w.chat.messages) >= n + 2, timeout=60000)


def test_settings_and_database_live_in_tmp(window, tmp_path):
    assert window.controller.settings.q.fileName().startswith(str(tmp_path))
    assert str(window.controller.store.path).startswith(str(tmp_path))


def test_chat_request_changes_image_then_undo_redo(qtbot, window, photo):
    doc = open_photo(qtbot, window, photo)
    original = doc.pixels().copy()
    assert window.windowTitle() == "astronaut.png — Easel"
    say(qtbot, window, "rotate 90")
    assert window.chat.messages[-1] == ("assistant", "Rotated 90° counter-clockwise.")
    assert np.array_equal(doc.pixels(), np.rot90(original))
    assert window.windowTitle().startswith("*")
    assert window.controller.stack.count() == 1
    say(qtbot, window, "adjust_attr brightness 20")
    bright = doc.pixels().copy()
    assert window.controller.stack.count() == 2

    window.undo_action.trigger()  # Edit > Undo
    assert np.array_equal(doc.pixels(), np.rot90(original))
    qtbot.keyClick(window.canvas, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # Ctrl+Z
    assert np.array_equal(doc.pixels(), original)
    assert window.windowTitle() == "astronaut.png — Easel"  # back at the clean state
    qtbot.keyClick(window.canvas, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert np.array_equal(doc.pixels(), np.rot90(original))
    window.redo_action.trigger()
    assert np.array_equal(doc.pixels(), bright)
    # the canvas shows the head
    assert window.canvas.image_size() == (bright.shape[1], bright.shape[0])


def test_chat_undo_and_redo_go_through_the_stack(qtbot, window, photo):
    doc = open_photo(qtbot, window, photo)
    say(qtbot, window, "flip horizontal")
    flipped = doc.head.id
    say(qtbot, window, "undo")
    assert doc.head.id == doc.root.id
    assert window.controller.stack.index() == 0 and window.controller.stack.canRedo()
    assert "Undid" in window.chat.messages[-1][1]
    say(qtbot, window, "redo")
    assert doc.head.id == flipped and window.controller.stack.index() == 1
    say(qtbot, window, "redo")
    assert window.chat.messages[-1] == ("assistant", "There is nothing to redo.")
    # the turns are in the database and the dialogue history keeps CAISE's form
    turns = window.controller.store.turns(doc.id)
    assert [t["text"] for t in turns if t["role"] == "user"] == ["flip horizontal", "undo", "redo", "redo"]
    assert "undo" in window.controller.manager.history


def test_chat_undo_after_a_two_edit_turn_undoes_the_whole_turn(qtbot, window, photo):
    doc = open_photo(qtbot, window, photo)
    say(qtbot, window, "make it brighter and add some contrast")
    after = doc.head.id
    assert doc.head.seq == 2 and window.controller.stack.count() == 1  # two versions, one undo entry
    say(qtbot, window, "undo")
    assert doc.head.id == doc.root.id and window.controller.stack.index() == 0
    assert window.chat.messages[-1][1].startswith("Undid “") and "now showing the original" in window.chat.messages[-1][1]
    assert window.controller.manager.history[-3:-1] == ["user_text: undo", "undo"]
    qtbot.keyClick(window.canvas, Qt.Key.Key_Z,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert doc.head.id == after


def test_a_revision_is_one_undo_step_and_the_history_shows_its_amount(qtbot, window, photo):
    doc = open_photo(qtbot, window, photo)
    say(qtbot, window, "increase the contrast by 40")
    first = doc.head.id
    say(qtbot, window, "that's way too much contrast")
    assert window.chat.messages[-1] == ("assistant", "Contrast now +10 instead of +40.")
    assert doc.head.command == "adjust_attr contrast 10" and doc.head.parent_id == doc.root.id
    assert window.controller.stack.count() == 2
    qtbot.keyClick(window.canvas, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # the revision goes
    assert doc.head.id == first


def test_going_back_several_steps_and_to_the_original_in_the_window(qtbot, window, photo):
    doc = open_photo(qtbot, window, photo)
    for request in ("rotate 90", "flip horizontal", "adjust_attr brightness 20"):
        say(qtbot, window, request)
    head = doc.head.id
    say(qtbot, window, "undo the last two edits")
    assert doc.head.command == "rotate 90" and window.controller.stack.index() == 1
    window.redo_action.trigger()
    window.redo_action.trigger()
    assert doc.head.id == head
    say(qtbot, window, "go back to the original")
    assert doc.head.id == doc.root.id
    qtbot.keyClick(window.canvas, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # the edits come back
    assert doc.head.id == head


def test_a_question_is_answered_with_a_box_and_a_critique_runs_nothing(qtbot, window, photo):
    doc = open_photo(qtbot, window, photo)
    say(qtbot, window, "is there a dog?")
    assert window.chat.messages[-1] == ("assistant", "I don't see a dog.")
    say(qtbot, window, "where is the person?")
    assert window.controller.session.overlays and window.controller.session.overlays[0]["kind"] == "box"
    say(qtbot, window, "what would you improve in this photo?")
    assert "Say 'yes'" in window.chat.messages[-1][1] and doc.head.id == doc.root.id
    say(qtbot, window, "yes")
    assert doc.head.id != doc.root.id and window.controller.stack.count() == 1  # the plan: one undo step


def test_input_line_has_its_own_history(qtbot, window, photo):
    open_photo(qtbot, window, photo)
    say(qtbot, window, "flip vertical")
    say(qtbot, window, "rotate 180")
    box = window.chat.input
    qtbot.keyClicks(box, "draft")
    qtbot.keyClick(box, Qt.Key.Key_Up)
    assert box.text() == "rotate 180"
    qtbot.keyClick(box, Qt.Key.Key_Up)
    assert box.text() == "flip vertical"
    qtbot.keyClick(box, Qt.Key.Key_Down)
    qtbot.keyClick(box, Qt.Key.Key_Down)
    assert box.text() == "draft"


def view_point(w: MainWindow, x: float, y: float) -> QPoint:
    return w.canvas.mapFromScene(QPointF(x, y))


def test_trace_drawn_with_the_mouse_is_stored(qtbot, window, photo):
    doc = open_photo(qtbot, window, photo)
    window.tool_actions["trace"].trigger()
    vp = window.canvas.viewport()
    path = [(20, 30), (60, 50), (100, 90), (140, 100), (200, 180)]
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=view_point(window, *path[0]))
    for p in path[1:]:
        qtbot.wait(15)
        qtbot.mouseMove(vp, view_point(window, *p))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=view_point(window, *path[-1]))
    rows = traces.traces(window.controller.store, doc.id)
    assert len(rows) == 1 and rows[0]["version_id"] == doc.head.id
    (stroke,) = rows[0]["points"]
    assert len(stroke) == len(path)
    for (x, y), p in zip(path, stroke):
        assert p["x"] == pytest.approx(x / 256, abs=0.01) and p["y"] == pytest.approx(y / 256, abs=0.01)
    ts = [p["t"] for p in stroke]
    assert ts[0] == 0 and ts == sorted(ts) and ts[-1] > 0.03
    assert window.controller.manager.context.trace == rows[0]["points"]
    assert window.canvas.overlay_count() >= 1  # the trace stays visible
    assert doc.head.id == doc.root.id  # drawing never changes the image

    # Esc cancels a drag: nothing is stored
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=view_point(window, 10, 10))
    qtbot.mouseMove(vp, view_point(window, 100, 100))
    qtbot.keyClick(window.canvas, Qt.Key.Key_Escape)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=view_point(window, 120, 120))
    assert len(traces.traces(window.controller.store, doc.id)) == 1


def _stroke(qtbot, window, path) -> None:
    vp = window.canvas.viewport()
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=view_point(window, *path[0]))
    for p in path[1:]:
        qtbot.wait(10)
        qtbot.mouseMove(vp, view_point(window, *p))
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=view_point(window, *path[-1]))


def test_strokes_add_up_to_one_trace_until_a_turn_reads_it(qtbot, window, photo):
    doc = open_photo(qtbot, window, photo)
    window.tool_actions["trace"].trigger()
    _stroke(qtbot, window, [(120, 120)])  # a click (to focus the canvas, say) is not a stroke
    assert window.controller.manager.context.trace is None
    _stroke(qtbot, window, [(20, 30), (60, 50), (100, 90)])
    _stroke(qtbot, window, [(150, 150), (180, 170), (200, 200)])  # the pen lifted, then a second stroke
    _stroke(qtbot, window, [(10, 200)])  # nor is a click between strokes
    trace = window.controller.manager.context.trace
    assert trace[0][0]["t"] == 0  # times count from the first real stroke
    assert len(trace) == 2 and trace[1][0]["t"] > trace[0][-1]["t"]
    rows = traces.traces(window.controller.store, doc.id)
    assert len(rows) == 1 and rows[0]["points"] == trace  # one stored trace that grew
    (overlay,) = [o for o in window.controller.session.overlays if o["kind"] == "trace"]
    assert len(overlay["strokes"]) == 2  # drawn with the pen lifted between the strokes
    captured = []

    def describe(manager, command):
        captured.append(manager.context.trace)
        return TurnResult("describe", "a photo", command)

    window.controller.manager.handlers["describe"] = describe
    say(qtbot, window, "describe")
    assert [len(t) for t in captured] == [2]  # the caption follows both strokes
    _stroke(qtbot, window, [(30, 30), (90, 40)])  # after the answer, a new trace
    assert len(window.controller.manager.context.trace) == 1
    assert len(traces.traces(window.controller.store, doc.id)) == 2


def _drag_box(qtbot, window, p0, p1) -> None:
    vp = window.canvas.viewport()
    a, b = view_point(window, *p0), view_point(window, *p1)
    qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=a)
    qtbot.mouseMove(vp, b)
    qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=b)


def test_a_box_selects_without_cropping_and_brighten_this_edits_inside_it(qtbot, window, photo):
    doc = open_photo(qtbot, window, photo)
    window.canvas.set_tool("box")
    assert window.tool_actions["box"].isChecked()
    _drag_box(qtbot, window, (40, 50), (140, 200))
    qtbot.waitUntil(lambda: window.controller.manager.selection() is not None, timeout=10000)
    assert doc.head.id == doc.root.id and doc.pixels().shape[:2] == (256, 256)  # no crop on release
    assert [o["label"] for o in window.controller.session.overlays] == ["selection"]  # shown before the edit
    assert window.canvas.overlay_count() >= 1
    before = doc.pixels().copy()
    say(qtbot, window, "brighten this")
    assert doc.head.command.startswith("adjust_attr brightness 20 in selection ")  # with its mask's hash
    changed = np.any(doc.pixels() != before, axis=2)
    ys, xs = np.nonzero(changed)
    assert changed.any() and xs.min() >= 38 and xs.max() <= 142 and ys.min() >= 48 and ys.max() <= 202
    assert window.controller.manager.selection() is None  # used once
    qtbot.keyClick(window.canvas, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert np.array_equal(doc.pixels(), before)


def test_crop_to_this_and_the_crop_to_selection_action(qtbot, window, photo):
    doc = open_photo(qtbot, window, photo)
    window.canvas.set_tool("box")
    _drag_box(qtbot, window, (40, 50), (140, 200))
    qtbot.waitUntil(lambda: window.controller.manager.selection() is not None, timeout=10000)
    say(qtbot, window, "crop to this")
    x1, y1, x2, y2 = (int(v) for v in doc.head.command.split()[1:])  # CAISE's crop: it replays
    assert x1 >= 38 and y1 >= 48 and x2 <= 142 and y2 <= 202
    assert doc.pixels().shape[:2] == (y2 - y1, x2 - x1)
    qtbot.keyClick(window.canvas, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert doc.pixels().shape[:2] == (256, 256)
    _drag_box(qtbot, window, (10, 10), (100, 120))
    qtbot.waitUntil(lambda: window.controller.manager.selection() is not None, timeout=10000)
    window.crop_selection_action.trigger()
    qtbot.waitUntil(lambda: not window.controller.busy and doc.head.command.startswith("crop "), timeout=10000)
    assert window.chat.messages[-1][1].startswith("Cropped to ")


def test_esc_clears_the_trace_and_the_selection(qtbot, window, photo):
    open_photo(qtbot, window, photo)
    window.tool_actions["trace"].trigger()
    _stroke(qtbot, window, [(60, 60), (200, 60), (200, 200), (60, 200), (62, 70)])  # a loop
    qtbot.waitUntil(lambda: window.controller.manager.selection() is not None, timeout=10000)
    assert {o["label"] for o in window.controller.session.overlays} == {"your trace", "selection"}
    qtbot.keyClick(window.canvas, Qt.Key.Key_Escape)
    ctx = window.controller.manager.context
    assert ctx.trace is None and ctx.selection is None
    assert window.controller.session.overlays == [] and window.canvas.overlay_count() == 0


def test_wheel_zooms_about_the_cursor_and_fit_and_100(qtbot, window, photo):
    open_photo(qtbot, window, photo)
    c = window.canvas
    anchor = view_point(window, 60, 80)
    before = c.mapToScene(anchor)
    ev = QWheelEvent(QPointF(anchor), QPointF(c.viewport().mapToGlobal(anchor)), QPoint(0, 0), QPoint(0, 120),
                     Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    scale = c.scale_factor()
    c.wheelEvent(ev)
    assert c.scale_factor() == pytest.approx(scale * 1.25)
    after = c.mapToScene(anchor)
    assert abs(after.x() - before.x()) < 2 and abs(after.y() - before.y()) < 2
    c.actual_pixels()
    assert c.zoom_percent() == pytest.approx(100)
    c.fit()
    r = c.mapFromScene(QPointF(256, 256))
    assert 0 < r.x() <= c.viewport().width() and 0 < r.y() <= c.viewport().height()


def test_history_panel_tree_and_click_checks_out(qtbot, window, photo):
    doc = open_photo(qtbot, window, photo)
    say(qtbot, window, "rotate 90")
    say(qtbot, window, "undo")
    say(qtbot, window, "flip vertical")  # a branch from the original
    assert len(doc.versions) == 3
    rotated = next(v for v in doc.versions.values() if v.command == "rotate 90")
    item = window.history.items[rotated.id]
    assert item.parent() is window.history.items[doc.root.id]  # the older branch is nested
    assert not item.icon(0).isNull()
    rect = window.history.visualItemRect(item)
    qtbot.mouseClick(window.history.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert doc.head.id == rotated.id
    window.undo_action.trigger()
    assert doc.head.command == "flip vertical"


def test_agent_overlays_and_coloured_segments(qtbot, window, photo):
    doc = open_photo(qtbot, window, photo)

    def describe(manager, command):
        reply = "an astronaut beside a flag"
        return TurnResult("describe", reply, command, data={
            "overlays": [
                {"kind": "box", "target": "current", "box": [10, 10, 120, 200], "color": "#ff5555",
                 "label": "astronaut"},
                {"kind": "trace", "target": "current", "points": [[0.1, 0.1], [0.5, 0.6]], "color": "#55ff55"},
                {"kind": "box", "target": "before", "box": [0, 0, 5, 5], "color": "#5555ff"},
            ],
            "segments": [{"text": "an ", "color": None}, {"text": "astronaut", "color": "#ff5555"},
                         {"text": " beside a ", "color": None}, {"text": "flag", "color": "#55ff55"}],
        })

    window.controller.manager.handlers["describe"] = describe
    say(qtbot, window, "describe")
    assert window.canvas.overlay_count() == 3  # box + its label + trace; "before" goes to compare
    html = window.chat.log.toHtml()
    assert "#ff5555" in html and "#55ff55" in html
    assert doc.head.id == doc.root.id and window.controller.stack.count() == 0
    window.toggle_compare()
    assert window.tabs.currentWidget() is window.compare
    assert len(window.compare.view.overlays) == 3


def test_search_handler_switching_document_is_followed_and_undoable(qtbot, window, photo, coffee):
    first = open_photo(qtbot, window, photo)

    def search(manager, command):
        manager.document = Document.create(manager.document.store, coffee[::4, ::4], title="coffee.png")
        return TurnResult("search", "Here is the best match.", command, manager.document.head)

    window.controller.manager.handlers["search"] = search
    say(qtbot, window, "search a cup of coffee")
    second = window.controller.document
    assert second is not first and second.title == "coffee.png"
    assert window.canvas.image_size() == (coffee.shape[1] // 4, coffee.shape[0] // 4)
    assert set(window.history.items) == set(second.versions)
    assert window.windowTitle() == "*coffee.png — Easel"
    say(qtbot, window, "rotate 270")
    assert second.head.command == "rotate 270"
    window.controller.undo()
    window.controller.undo()
    assert window.controller.document is first and window.canvas.image_size() == (256, 256)
    window.controller.redo()
    assert window.controller.document is second


def test_open_save_round_trip_keeps_exif_and_never_overwrites_silently(qtbot, window, tmp_path, astronaut,
                                                                         monkeypatch):
    src = tmp_path / "photo.jpg"
    exif = Image.Exif()
    exif[0x010F] = "EaselCam"  # Make
    Image.fromarray(astronaut[::2, ::2]).save(src, quality=95, exif=exif.tobytes())
    original_bytes = src.read_bytes()
    doc = open_photo(qtbot, window, src)
    say(qtbot, window, "rotate 90")
    out = tmp_path / "out.jpg"
    window.controller.save_to(str(out), quality=90)
    assert window.windowTitle() == "photo.jpg — Easel"  # saved: clean
    back = read_image(out)
    assert back.pixels.shape == (256, 256, 3)
    assert np.abs(back.pixels.astype(int) - doc.pixels().astype(int)).mean() < 4
    assert Image.open(out).getexif()[0x010F] == "EaselCam"
    png = tmp_path / "out.png"
    window.controller.save_to(str(png))
    assert np.array_equal(read_image(png).pixels, doc.pixels())  # lossless round trip

    # "Save" on a document that came from a file asks for a name (Save As) ...
    asked = []
    monkeypatch.setattr("app.main_window.QFileDialog.getSaveFileName",
                        lambda *a, **k: (asked.append(a[2]) or str(src), ""))
    window.controller.save_paths.clear()
    window.answer = False  # ... and choosing the original needs a yes
    assert window.save() is False
    assert asked and asked[0].endswith("photo-edited.jpg")
    assert window.asked == ["Replace the original?"]
    assert src.read_bytes() == original_bytes
    window.answer = True
    assert window.save() is True and src.read_bytes() != original_bytes
    # a later Save writes to the chosen file without asking again
    say(qtbot, window, "flip horizontal")
    assert window.save() is True and len(asked) == 2  # no new dialog


def test_reopen_a_conversation_restores_versions_and_turns(qtbot, tmp_path, photo):
    w1 = make_window(qtbot, tmp_path)
    doc = open_photo(qtbot, w1, photo)
    say(qtbot, w1, "rotate 90")
    say(qtbot, w1, "adjust_color red 0.2")
    say(qtbot, w1, "undo")
    head, n_versions = doc.head.id, len(doc.versions)
    w1.answer = False
    w1.close()  # unsaved: asks, and staying is honoured
    assert w1.isVisible() and w1.asked == ["Quit without saving?"]
    w1.answer = True
    w1.close()
    assert not w1.controller.marker.path.exists()  # clean exit removes the crash marker

    w2 = make_window(qtbot, tmp_path)
    docs = w2.controller.documents()
    assert docs[0]["id"] == doc.id and docs[0]["n_versions"] == n_versions and docs[0]["n_turns"] == 6
    from app.dialogs import SessionsDialog

    dialog = SessionsDialog(docs, w2)
    assert dialog.list.topLevelItemCount() == 1
    dialog.accept()
    assert dialog.selected_id == doc.id
    w2.controller.reopen(doc.id)
    qtbot.waitUntil(lambda: w2.controller.document is not None, timeout=10000)
    again = w2.controller.document
    assert again.head.id == head and len(again.versions) == n_versions
    assert [m for m in w2.chat.messages if m[0] != "note"][:2] == [("user", "rotate 90"), ("assistant", "Rotated 90° counter-clockwise.")]
    assert w2.controller.manager.history[1:4] == ["user_text: rotate 90", "rotate 90", "assistant_text: Rotated 90° counter-clockwise."]
    assert set(w2.history.items) == set(again.versions)
    rotated = next(v for v in again.versions.values() if v.command == "rotate 90")
    assert not w2.history.items[rotated.id].icon(0).isNull()
    assert f"version:{rotated.id}" in w2.chat.log.toHtml()  # the inline thumbnail is back
    # the conversation goes on: with a fresh undo stack, "redo" follows the document's tree
    say(qtbot, w2, "redo")
    assert again.head.command == "adjust_color red 0.2"
    assert w2.controller.stack.count() == 1 and w2.windowTitle().startswith("*")
    w2.undo_action.trigger()
    assert again.head.id == head
    w2.close()


def test_after_a_crash_the_next_start_offers_the_session(qtbot, tmp_path, photo):
    w1 = make_window(qtbot, tmp_path)
    doc = open_photo(qtbot, w1, photo)
    say(qtbot, w1, "flip vertical")
    # The version's file is written after the turn (app.storage); a crash a moment later would lose
    # it, and w2 would find a version without an image. This test is about the marker: wait for it.
    assert w1.controller.store.flush(timeout=10)
    marker = w1.controller.marker.path
    info = json.loads(marker.read_text())
    assert info["document_id"] == doc.id
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    marker.write_text(json.dumps({**info, "pid": dead.pid}))  # as if that process had died
    w1.controller.marker = type(w1.controller.marker)(tmp_path / "elsewhere")  # w1 no longer owns it
    (tmp_path / "elsewhere").mkdir()

    w2 = make_window(qtbot, tmp_path)
    assert w2.controller.stale_session["document_id"] == doc.id
    assert w2.offer_restore() is True
    qtbot.waitUntil(lambda: w2.controller.document is not None, timeout=10000)
    assert w2.asked == ["Restore session?"]
    assert w2.controller.document.id == doc.id and w2.controller.document.head.command == "flip vertical"


def test_after_a_crash_mid_request_the_restore_names_it_and_runs_it_again(qtbot, tmp_path, photo):
    w1 = make_window(qtbot, tmp_path)
    doc = open_photo(qtbot, w1, photo)
    say(qtbot, w1, "flip vertical")
    assert w1.controller.store.flush(timeout=10)
    info = json.loads(w1.controller.marker.path.read_text())
    assert "pending" not in info  # the finished request is forgotten
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    marker = w1.controller.marker.path
    w1.controller.marker = type(w1.controller.marker)(tmp_path / "elsewhere")
    (tmp_path / "elsewhere").mkdir()
    marker.write_text(json.dumps({**info, "pid": dead.pid, "pending": "flip horizontal"}))  # killed mid-turn

    w2 = make_window(qtbot, tmp_path)
    texts = []
    w2.ask = lambda title, text: texts.append(text) or True
    assert w2.offer_restore() is True
    assert "“flip horizontal” was not finished" in texts[0] and texts[1] == "Run “flip horizontal” again?"
    qtbot.waitUntil(lambda: w2.controller.document is not None
                    and w2.controller.document.head.command == "flip horizontal", timeout=20000)
    qtbot.waitUntil(lambda: not w2.controller.busy, timeout=20000)  # the turn's reply is shown too
    assert w2.controller.document.id == doc.id
    w2.controller.workers.wait(5000)


def test_drop_a_file_and_recent_files(qtbot, window, photo):
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(photo))])
    ev = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                    Qt.KeyboardModifier.NoModifier)
    window.dropEvent(ev)
    qtbot.waitUntil(lambda: window.controller.document is not None, timeout=10000)
    assert window.controller.settings.recent_files()[0] == str(photo.resolve())
    window._fill_recent()
    assert window.recent_menu.actions()[0].toolTip() == str(photo.resolve())


def test_bad_file_gives_a_message_not_a_crash(qtbot, window, tmp_path):
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"\xff\xd8not really a jpeg")
    window.open_path(str(bad))
    qtbot.waitUntil(lambda: not window.controller.workers.active, timeout=5000)
    assert window.controller.document is None
    assert window.chat.messages[-1][0] == "note" and "broken.jpg" in window.chat.messages[-1][1]


def test_stop_discards_a_slow_turn(qtbot, window, photo):
    doc = open_photo(qtbot, window, photo)

    def slow(manager, command):
        time.sleep(0.4)
        manager.document.apply("describe", np.zeros((4, 4, 3), np.uint8))
        return TurnResult("describe", "done", command, manager.document.head)

    window.controller.manager.handlers["describe"] = slow
    window.controller.submit("describe")
    assert window.controller.busy and window.chat.input.isEnabled()  # one may type the next request
    assert not window.undo_action.isEnabled()
    window.stop_action.trigger()
    qtbot.waitUntil(lambda: not window.controller.busy, timeout=5000)
    assert doc.head.id == doc.root.id and window.controller.stack.count() == 0
    assert window.chat.messages[-1] == ("note", "Stopped; nothing was changed.")
    # Discarded, not left behind as a branch of the history: in memory, in the store, in the tree
    assert list(doc.versions) == [doc.root.id]
    assert [r["id"] for r in window.controller.store.rows("versions", "document_id = ?", [doc.id])] == [doc.root.id]
    assert list(window.history.items) == [doc.root.id]
    assert not any("describe" in line for line in window.controller.manager.history)


def test_a_request_typed_during_a_turn_is_answered_after_it(qtbot, window, photo):
    doc = open_photo(qtbot, window, photo)

    def slow(manager, command):
        time.sleep(0.3)
        return TurnResult("describe", "a photo", command)

    window.controller.manager.handlers["describe"] = slow
    window.chat.input.setText("describe")
    window.chat.input.returnPressed.emit()
    assert window.controller.busy
    window.chat.input.setText("rotate 90")  # typed ahead, as people do
    window.chat.input.returnPressed.emit()
    assert window.controller.session.queued == ["rotate 90"] and window.chat.input.text() == ""
    qtbot.waitUntil(lambda: not window.controller.busy and not window.controller.session.queued
                    and doc.head.command == "rotate 90", timeout=10000)
    assert [m for m in window.chat.messages if m[0] == "user"] == [("user", "describe"), ("user", "rotate 90")]
    text = window.chat.log.toPlainText()
    assert "Answered when the current request is done" not in text and "Answered below." in text


def test_stop_also_drops_the_requests_typed_after_it(qtbot, window, photo):
    """A request typed ahead may be meant for the result the person just stopped: it is not run
    behind their back, and its line says so instead of "waiting"."""
    doc = open_photo(qtbot, window, photo)

    def slow(manager, command):
        time.sleep(0.4)
        return TurnResult("describe", "a photo", command)

    window.controller.manager.handlers["describe"] = slow
    window.controller.submit("describe")
    window.controller.submit("rotate 90")
    window.controller.submit("flip vertical")
    assert window.controller.session.queued == ["rotate 90", "flip vertical"]
    window.stop_action.trigger()
    qtbot.waitUntil(lambda: not window.controller.busy, timeout=5000)
    qtbot.wait(300)
    assert doc.head.id == doc.root.id and window.controller.session.queued == []
    assert window.chat.messages[-1] == (
        "note", "Stopped; nothing was changed. The 2 requests typed after it were not run either.")
    text = window.chat.log.toPlainText()
    assert "Answered when the current request is done" not in text and text.count("Not run: you stopped") == 2


def test_a_trace_drawn_during_a_turn_is_stored_after_it(qtbot, window, photo):
    doc = open_photo(qtbot, window, photo)

    def slow(manager, command):
        time.sleep(0.3)
        return TurnResult("describe", "a photo", command)

    window.controller.manager.handlers["describe"] = slow
    window.controller.submit("describe")
    trace = [[{"x": 0.1, "y": 0.1, "t": 0.0}, {"x": 0.2, "y": 0.3, "t": 0.1}]]
    window.canvas.traceFinished.emit(trace)
    assert window.controller.manager.context.trace == trace
    assert traces.traces(window.controller.store, doc.id) == []  # not while the worker writes
    qtbot.waitUntil(lambda: not window.controller.busy, timeout=5000)
    assert [r["points"] for r in traces.traces(window.controller.store, doc.id)] == [trace]


def test_every_menu_action_has_a_shortcut(window):
    missing = []
    for menu_action in window.menuBar().actions():
        for a in menu_action.menu().actions():
            if a.isSeparator() or a.menu() is not None:
                continue
            if a.shortcut().isEmpty():
                missing.append(a.text())
    assert not missing, missing


def test_clicking_a_thumbnail_in_the_chat_goes_back_to_that_version(qtbot, window, photo):
    doc = open_photo(qtbot, window, photo)
    say(qtbot, window, "rotate 90")
    rotated = doc.head.id
    say(qtbot, window, "flip vertical")
    assert f"version:{rotated}" in window.chat.log.toHtml()
    window.chat.log.anchorClicked.emit(QUrl(f"version:{rotated}"))
    assert doc.head.id == rotated
    window.undo_action.trigger()
    assert doc.head.command == "flip vertical"


def test_explain_and_describe_answer_in_the_window(qtbot, window, photo):
    """The window's assistant has the explain and describe handlers (not just edits)."""
    open_photo(qtbot, window, photo)
    say(qtbot, window, "describe")
    assert window.chat.messages[-1][0] == "assistant"
    assert "person" in window.chat.messages[-1][1]
    say(qtbot, window, "rotate 90")
    say(qtbot, window, "explain")
    role, reply = window.chat.messages[-1]
    assert role == "assistant" and "90" in reply and "rotated" in reply.lower()


def test_learned_phrasing_is_a_setting(qtbot, window, photo):
    assert window.controller.manager.context.explain_phrasing is None
    window.speaker_action.trigger()
    assert window.controller.manager.context.explain_phrasing == "speaker"
    open_photo(qtbot, window, photo)  # another conversation keeps the setting (the menu still shows it)
    assert window.controller.manager.context.explain_phrasing == "speaker"
    assert window.controller.settings.speaker_phrasing is True
    window.speaker_action.trigger()
    assert window.controller.manager.context.explain_phrasing is None
    assert window.controller.settings.speaker_phrasing is False


def test_opening_a_photo_masks_its_objects_ahead_off_the_workers(qtbot, window, photo, monkeypatch):
    """The first "brighten the person" on a photo just opened should find its mask made (issue 28's
    speed): opening starts agent.edits.regions.prepare on the opened pixels, on a thread of its own
    (the two workers stay free for requests)."""
    from agent.edits import regions

    seen = []
    monkeypatch.setattr(regions, "prepare", lambda pixels, stop: seen.append(pixels.shape) or stop())
    doc = open_photo(qtbot, window, photo)
    qtbot.waitUntil(lambda: len(seen) == 1, timeout=10000)
    assert seen == [doc.pixels().shape]
    say(qtbot, window, "brighten it")  # a turn does not prepare again
    assert len(seen) == 1


def test_the_label_of_what_was_acted_on_stays_in_front_of_the_others(qtbot, window, photo):
    """Small neighbouring boxes' labels overlap: "removed person" was hidden under "other person"."""
    open_photo(qtbot, window, photo)
    window.canvas.set_overlays([
        {"kind": "box", "box": [40, 40, 60, 80], "label": "removed person"},
        {"kind": "box", "box": [30, 40, 50, 80], "label": "other person"},
    ])
    labels = {item.childItems()[0].text(): item.zValue() for item in window.canvas._overlay_items if item.childItems()}
    assert labels["removed person"] > labels["other person"]


def test_labels_of_one_kind_that_would_pile_up_are_drawn_once(qtbot, window, photo):
    """14 people removed on a square were a pile of overlapping "removed person" tags: a label that
    would cover one with the same words is left off; its box is still drawn, and other words are."""
    open_photo(qtbot, window, photo)
    window.canvas.set_overlays([
        {"kind": "box", "box": [40, 40, 50, 80], "label": "removed person"},
        {"kind": "box", "box": [45, 42, 55, 80], "label": "removed person"},
        {"kind": "box", "box": [44, 40, 54, 80], "label": "other person"},
    ])
    items = window.canvas._overlay_items
    labels = [item.childItems()[0].text() for item in items if item.childItems()]
    assert sorted(labels) == ["other person", "removed person"]
    assert sum(1 for item in items if not item.childItems()) == 3  # every box
