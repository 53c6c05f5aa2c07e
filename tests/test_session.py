"""The window's conversation state without a window: agent.dialogue.session and the manager's GUI-facing turns."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from agent.dialogue.manager import DialogueManager, UndoStep
from agent.dialogue.session import Session
from agent.grammar.commands import Crop
from editor import traces as trace_store
from editor.document import Document
from editor.store import Store

ROOT = Path(__file__).resolve().parent.parent
TRACE = [[{"x": 0.1, "y": 0.2, "t": 0.0}, {"x": 0.4, "y": 0.5, "t": 0.2}]]


@pytest.fixture
def session(tmp_path, rgb_small) -> Session:
    store = Store(tmp_path / "easel.db")
    doc = Document.create(store, rgb_small, title="small.png")
    return Session(DialogueManager(doc), store)


def test_the_session_loads_no_qt():
    probe = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); import agent.dialogue.session, agent.dialogue.manager; "
             "print('QT' if any(m.startswith('PySide6') for m in sys.modules) else 'NO-QT')")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "NO-QT", out.stderr


def test_requests_wait_for_the_models_and_for_opening_photos(session):
    assert session.must_wait()  # the models are not loaded yet
    session.wait("rotate 90")
    session.wait("flip vertical")
    assert session.next_request() is None
    session.models_ready = True
    session.opening = 1
    assert session.must_wait() and session.next_request() is None
    session.opening = 0
    session.set_busy(True)
    assert session.next_request() is None  # one turn at a time
    session.set_busy(False)
    assert session.must_wait()  # behind the two already waiting
    assert session.next_request() == "rotate 90"
    assert session.next_request() == "flip vertical"
    assert not session.must_wait() and session.next_request() is None


def test_a_trace_drawn_while_busy_is_stored_after_the_turn(session):
    doc = session.document
    session.set_busy(True)
    assert session.draw_trace(TRACE) is None
    assert session.manager.context.trace == TRACE  # the next turn sees it at once
    assert trace_store.traces(session.store, doc.id) == []  # the worker owns the database
    session.set_busy(False)
    (row,) = trace_store.traces(session.store, doc.id)
    assert row["version_id"] == doc.head.id and row["points"] == TRACE
    assert session.draw_trace(TRACE) is not None  # not busy: stored at once
    assert len(trace_store.traces(session.store, doc.id)) == 2


def test_overlays_belong_to_the_version_they_were_drawn_on(session):
    doc = session.document
    box = {"kind": "box", "target": "current", "box": [1, 1, 4, 4], "color": "#e6194b", "label": "cup"}
    session.show_overlays([box])
    session.draw_trace(TRACE)
    session.draw_trace(TRACE)  # a new trace replaces the person's last one, the turn's box stays
    assert [o["label"] for o in session.overlays_on(doc.head.id)] == ["cup", "your trace"]
    session.manager.handle("flip vertical")
    assert session.overlays_on(doc.head.id) == [] and session.overlays == []
    session.show_overlays([box])
    session.resume()
    assert session.overlays == []


def test_compare_with_and_phrasing_are_the_manager_s_context(session):
    doc = session.document
    root = doc.head.id
    session.manager.handle("flip vertical")
    assert session.compare_before(doc).id == root  # the parent by default
    session.manager.handle("flip horizontal")
    session.compare_with(root)
    assert session.manager.context.compare_with == root and session.compare_before(doc).id == root
    session.compare_with(None)
    assert session.compare_before(doc).id == doc.parent().id
    session.set_phrasing(True)
    session.draw_trace(TRACE)
    session.resume()
    ctx = session.manager.context
    assert ctx.explain_phrasing == "speaker"  # a setting survives another conversation
    assert ctx.trace is None and ctx.compare_with is None and ctx.last_kind is None
    session.set_phrasing(False)
    assert ctx.explain_phrasing is None


def test_chat_undo_follows_the_plan_and_leaves_the_step_to_the_app(session):
    """Two edits in one turn are one stack entry: "undo" names it and does not move the head itself."""
    doc, manager = session.document, session.manager
    root = doc.head.id
    result = manager.handle("make it brighter and add some contrast")
    assert len(result.commands) == 2
    after = doc.head.id
    session.plan_undo({"undo": UndoStep("brighten and raise contrast", doc, root)})
    result = manager.handle("undo")
    assert result.ok and result.version.id == root
    assert result.reply == "Undid “brighten and raise contrast”; now showing the original."
    assert doc.head.id == after  # the stack takes the step when the turn returns
    assert session.planned("undo").version_id == root and session.planned("redo") is None
    assert manager.handle("redo").reply == "There is nothing to redo."
    assert manager.history[-5:] == ["user_text: undo", "undo", f"assistant_text: {result.reply}",
                                    "user_text: redo", "assistant_text: There is nothing to redo."]
    turns = session.store.turns(doc.id)
    assert [t["text"] for t in turns if t["role"] == "user"][-2:] == ["undo", "redo"]
    assert [t["commands"] for t in turns if t["role"] == "assistant"][-2:] == [["undo"], ["redo"]]


def test_without_a_plan_undo_is_the_document_s_own(session):
    doc, manager = session.document, session.manager
    root = doc.head.id
    manager.handle("flip vertical")
    result = manager.handle("undo")
    assert doc.head.id == root and result.reply == "Undid it; now showing the original."


def test_a_gesture_is_a_turn_like_a_typed_command(session, rgb_small):
    doc, manager = session.document, session.manager
    result = manager.gesture(Crop(1, 2, 6, 6))
    assert result.ok and doc.pixels().shape[:2] == (4, 5)
    typed = Session(DialogueManager(Document.create(session.store, rgb_small, title="b.png")), session.store)
    typed.manager.handle("crop 1 2 6 6")
    assert manager.history == typed.manager.history
    strip = [{k: t[k] for k in ("role", "text", "command", "commands")} for t in session.store.turns(doc.id)]
    assert strip == [{k: t[k] for k in ("role", "text", "command", "commands")}
                     for t in session.store.turns(typed.document.id)]
    assert strip[0]["text"] == "crop 1 2 6 6" and strip[1]["commands"] == ["crop 1 2 6 6"]


def test_a_failing_gesture_writes_nothing(session, rgb_small):
    """The crop, its version and both turns, or none of them (as a typed turn)."""
    doc, manager = session.document, session.manager

    def broken(manager, command):
        manager.document.apply(command.format(), rgb_small[:5, :5])
        raise RuntimeError("a bug after the version was made")

    manager.handlers["crop"] = broken
    with pytest.raises(RuntimeError):
        manager.gesture(Crop(0, 0, 5, 5))
    assert len(doc.versions) == 1 and session.store.turns(doc.id) == []
    assert session.store.db.execute("select count(*) from versions").fetchone()[0] == 1


def test_a_request_of_several_edits_is_compared_as_one_also_after_reopening(session):
    doc = session.document
    root = doc.head.id
    assert session.manager.handle("brighten it by 20 and raise the contrast by 30").ok
    assert len(doc.lineage()) == 3
    assert session.compare_before(doc).id == root  # the Before/After pane shows the whole request
    manager = DialogueManager(Document.open(session.store, doc.id))
    manager.resume(manager.document, session.store.turns(doc.id))
    assert manager.context.last_edit == (root, doc.head.id)
    assert Session(manager, session.store).compare_before(manager.document).id == root
    assert manager.handle("rotate 90").ok  # one edit: its parent, as before
    assert Session(manager, session.store).compare_before(manager.document).id == manager.document.parent().id
