"""Undo commands: each keeps version ids (immutable versions in the store), never pixels.

Every executed edit, history checkout or document switch is one entry on the controller's single
QUndoStack (Orange's ``document/commands.py`` pattern). ``redo`` is also what ``push`` calls, so it
must be harmless when the model is already in the "after" state (the chat turn has already moved
the head when its entry is pushed): checking out a version id is idempotent.
"""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from agent.dialogue.manager import UndoStep


class CheckoutCommand(QUndoCommand):
    """Move a document's head from one version to another (an edit, or a click in the history)."""

    def __init__(self, document, before_id: str, after_id: str, text: str) -> None:
        super().__init__(text)
        self.document = document
        self.before_id = before_id
        self.after_id = after_id

    def redo(self) -> None:
        self.document.checkout(self.after_id)

    def undo(self) -> None:
        self.document.checkout(self.before_id)

    def target(self, undo: bool) -> tuple[object, str]:
        """The document and version this entry leads to when undone (or redone)."""
        return self.document, self.before_id if undo else self.after_id


class EditCommand(CheckoutCommand):
    """A command (rotate, crop, ...) that made a new version."""


class SwitchDocumentCommand(QUndoCommand):
    """The conversation moved to another picture (a search opened its best match)."""

    def __init__(self, controller, before, after, text: str) -> None:
        super().__init__(text)
        self.controller = controller
        self.before = before
        self.after = after
        self.before_head = before.head.id if before is not None else None
        self.after_head = after.head.id if after is not None else None

    def redo(self) -> None:
        if self.after is not None and self.after.head.id != self.after_head:
            self.after.checkout(self.after_head)
        self.controller.set_document(self.after)

    def undo(self) -> None:
        if self.before is not None and self.before.head.id != self.before_head:
            self.before.checkout(self.before_head)
        self.controller.set_document(self.before)

    def target(self, undo: bool) -> tuple[object, str | None]:
        return (self.before, self.before_head) if undo else (self.after, self.after_head)


def plan_stack(stack, doc) -> dict[str, UndoStep]:
    """What undo and redo would do now, for a chat turn answered in a worker (the manager answers
    "undo" with it; the controller takes the step when the turn returns): ``{kind: UndoStep}``,
    kinds "undo", "redo", "undo N" (N entries back) and "original" (a checkout of the original).

    With nothing on the stack (a reopened conversation), "undo" goes to the parent version and
    "redo" to the newest child, as the document's own undo would, and is pushed as a checkout.
    """
    plan = {}
    for kind, can, index in (("undo", stack.canUndo(), stack.index() - 1),
                             ("redo", stack.canRedo(), stack.index())):
        if can:
            cmd = stack.command(index)
            target_doc, vid = cmd.target(kind == "undo")
            plan[kind] = UndoStep(cmd.text(), target_doc, vid)
        elif doc is not None:
            v = doc.parent() if kind == "undo" else (doc.children(doc.head.id) or [None])[-1]
            if v is not None:
                made = doc.head.command if kind == "undo" else v.command
                plan[kind] = UndoStep(made or "the original", doc, v.id, checkout=True)
    # "undo the last two edits": that many entries back, taken one by one ("undo 2" ... "undo 5")
    for n in range(2, 6):
        if stack.index() - n < 0:
            break
        target_doc, vid = stack.command(stack.index() - n).target(True)
        plan[f"undo {n}"] = UndoStep(stack.command(stack.index() - n).text(), target_doc, vid)
    # "go back to the original": one entry of its own, so that one Ctrl+Z brings the edits back
    if doc is not None and doc.head.id != doc.root.id:
        plan["original"] = UndoStep("the original", doc, doc.root.id, checkout=True)
    return plan
