"""One window's conversation, without Qt: what the GUI state needs beyond the dialogue itself.

The app's controller keeps a :class:`Session` and only wires widgets to it and to the
:class:`~agent.dialogue.manager.DialogueManager`; the rules of that state live here, where tests drive them
without a window:

- **busy**: a turn runs in a worker; the document and the store are its own until it returns, so a
  trace drawn meanwhile is stored after it (:meth:`Session.set_busy`);
- **requests that wait**: typed before the models are loaded or while a photo opens, answered in
  order once both are done (:meth:`Session.wait`, :meth:`Session.next_request`);
- **overlays**: the boxes and traces a turn (or the person) drew, and the version they belong to:
  they go when the head moves (:meth:`Session.overlays_on`);
- **the undo plan**: what "undo" and "redo" typed in the chat will do in the window's undo stack,
  planned before the turn (the stack is Qt, so ``app.undo.plan_stack`` reads it) and taken by the
  controller when the turn returns (:meth:`Session.plan_undo`, :meth:`Session.planned`);
- **the selection**: a drawn trace or box made into a region (:mod:`agent.edits.selection`), shown
  as an overlay and kept for the next request that says "this", "here" or "it"
  (:meth:`Session.select`); Esc and View ▸ Clear Overlays clear it with the traces
  (:meth:`Session.clear_overlays`);
- the context the words do not carry: the trace, the version to compare with, the phrasing of
  explanations (:attr:`DialogueManager.context`).
"""

from __future__ import annotations

from agent.dialogue.manager import DialogueManager, UndoStep
from agent.edits.selection import SELECTION_LABEL, Selection
from editor import traces as trace_store
from editor.document import Document, Version

TRACE_COLOR = "#ffcc00"
TRACE_LABEL = "your trace"


class Session:
    """The GUI state of one conversation; every change of it goes through a method here."""

    def __init__(self, manager: DialogueManager, store) -> None:
        self.manager = manager
        self.store = store
        self.busy = False
        self.models_ready = False
        self.opening = 0  # photos being opened: waiting requests wait for them too
        self.selecting = 0  # drawings being made into selections: "brighten this" waits for them
        self.queued: list[str] = []  # requests typed before they could be answered, oldest first
        self.overlays: list[dict] = []
        self.overlays_for: str | None = None  # the version the overlays were drawn on
        self._pending_traces: list[tuple] = []  # (document id, version id, trace) drawn while busy
        self._last_trace: tuple | None = None  # (document id, version id, trace) of the last trace drawn
        self._last_trace_id: str | None = None  # and its stored id

    @property
    def document(self) -> Document | None:
        return self.manager.document

    # -- turns -----------------------------------------------------------------------------------

    def set_busy(self, busy: bool) -> None:
        """A turn starts or ends; at its end the traces drawn meanwhile are stored."""
        self.busy = busy
        while not busy and self._pending_traces:
            doc_id, version_id, trace = self._pending_traces.pop(0)
            trace_id = trace_store.add_trace(self.store, doc_id, version_id, trace)
            if self._last_trace is not None and self._last_trace[2] is trace:
                self._last_trace_id = trace_id  # a stroke added later updates this row

    def must_wait(self) -> bool:
        """Whether a request typed now waits (models loading, a photo opening, a drawing being made
        into a selection, others waiting)."""
        return not self.models_ready or bool(self.opening) or bool(self.selecting) or bool(self.queued)

    def wait(self, text: str) -> None:
        self.queued.append(text)

    def next_request(self) -> str | None:
        """The oldest waiting request, once it can be answered (taken off the queue)."""
        if not self.queued or not self.models_ready or self.busy or self.opening or self.selecting:
            return None
        return self.queued.pop(0)

    def drop_queued(self) -> list[str]:
        """The person stopped the turn that runs: what they typed after it is not run either (it may
        have been meant for that turn's result). Returns the dropped requests, oldest first."""
        dropped, self.queued = self.queued, []
        return dropped

    def plan_undo(self, plan: dict[str, UndoStep]) -> None:
        """What undo and redo mean in the window's undo stack for the turn about to run."""
        self.manager.context.undo_plan = plan

    def planned(self, kind: str) -> UndoStep | None:
        """The step planned for ``kind`` ("undo" or "redo"), which the controller takes after the turn."""
        return (self.manager.context.undo_plan or {}).get(kind)

    def resume(self, turns: list[dict] | None = None) -> None:
        """Another conversation (open, reopen): the dialogue restarts and the overlays go."""
        self.manager.resume(self.manager.document, turns)
        self.overlays, self.overlays_for = [], None

    # -- what the person shows with the mouse ------------------------------------------------------

    def draw_trace(self, trace: list) -> str | None:
        """A trace drawn over the head: kept for the next turn, stored (after the turn when busy) and
        shown in place of the previous one. Returns the stored trace's id (None when deferred)."""
        doc = self.document
        if doc is None:
            return None
        self.manager.context.trace = trace
        last = self._last_trace
        # Another stroke of the same trace (the canvas sends the whole trace after each stroke):
        # one stored trace that grows, not one row per stroke.
        grown = last is not None and last[:2] == (doc.id, doc.head.id) and len(trace) > len(last[2]) \
            and trace[:len(last[2])] == last[2]
        if self.busy:  # the turn's worker is writing to the database: store the trace after it
            if grown and self._pending_traces and self._pending_traces[-1][2] == last[2]:
                self._pending_traces.pop()
            self._pending_traces.append((doc.id, doc.head.id, trace))
            trace_id = None
        elif grown and self._last_trace_id is not None:
            trace_id = self._last_trace_id
            trace_store.update_trace(self.store, trace_id, trace)
        else:
            trace_id = trace_store.add_trace(self.store, doc.id, doc.head.id, trace)
        self._last_trace, self._last_trace_id = (doc.id, doc.head.id, trace), trace_id
        points = [[p["x"], p["y"]] for stroke in trace for p in stroke]
        kept = [o for o in self.overlays_on(doc.head.id) if o.get("label") != TRACE_LABEL]
        strokes = [[[p["x"], p["y"]] for p in stroke] for stroke in trace if stroke]
        self.show_overlays([*kept, {"kind": "trace", "target": "current", "points": points, "strokes": strokes,
                                    "color": TRACE_COLOR, "label": TRACE_LABEL}])
        return trace_id

    def select(self, selection: Selection) -> None:
        """What the person drew (a trace or a box, as a region) becomes the selection of the head:
        the next request that says "this", "here" or "it" applies to it; it is shown as an outline
        beside the other overlays (replacing an earlier selection)."""
        doc = self.document
        if doc is None:
            return
        selection.version_id = doc.head.id
        self.manager.context.selection = selection
        kept = [o for o in self.overlays_on(doc.head.id) if o.get("label") != SELECTION_LABEL]
        self.show_overlays(kept)

    def compare_with(self, version_id: str | None) -> None:
        """The "before" of the compare view and of ``explain`` (None: the head's parent)."""
        self.manager.context.compare_with = version_id or None

    def compare_before(self, doc: Document) -> Version:
        """The version the compare view shows before the head: the one picked, else the picture
        before the last request (when the head is its result), else the parent."""
        parent = doc.parent()
        turn = self.manager.before_last_request() if doc is self.manager.document else None
        before_id = self.manager.context.compare_with or turn or (parent.id if parent else doc.head.id)
        return doc.versions.get(before_id, doc.head)

    def set_phrasing(self, speaker: bool) -> None:
        """Whether explanations open with the learned speaker's sentence (a setting of the app)."""
        self.manager.context.explain_phrasing = "speaker" if speaker else None

    # -- overlays ----------------------------------------------------------------------------------

    def show_overlays(self, overlays: list[dict]) -> None:
        """Overlays drawn on the current head (a turn's boxes, the person's trace), and the outline
        of the selection while it is the head's."""
        self.overlays = [o for o in overlays if o.get("label") != SELECTION_LABEL] + self._selection_overlay()
        self.overlays_for = self.document.head.id if self.document is not None else None

    def _selection_overlay(self) -> list[dict]:
        drawn = self.manager.selection()
        return [drawn.overlay()] if drawn is not None else []

    def overlays_on(self, head_id: str) -> list[dict]:
        """The overlays to draw on version ``head_id``: boxes and traces belong to the version they
        were drawn on, so once the head has moved they are gone; the selection stays while it
        still fits the head (:meth:`DialogueManager.selection`)."""
        if self.overlays and self.overlays_for != head_id:
            self.overlays = self._selection_overlay()
            self.overlays_for = head_id
        return self.overlays

    def clear_overlays(self) -> None:
        """Esc or View ▸ Clear Overlays: the boxes, the traces and the selection go, and the next
        turn neither captions a stray trace nor edits a forgotten selection."""
        self.overlays = []
        self.manager.context.trace = None
        self.manager.context.selection = None
