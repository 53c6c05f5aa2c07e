"""The controller: the one place that connects the widgets to the document, the agent and the undo stack.

Widgets only emit signals; the controller reacts, runs slow work in workers, pushes one undo entry
per executed command and refreshes the views. Nothing here draws.

Threading: a chat turn (and Crop to Selection's command) runs ``DialogueManager`` in a worker, because
the command model and background removal are slow. While it runs, the controller is ``busy``: the
input, undo and redo are disabled, so the document is only ever changed by one thread at a time.

The dialogue protocol is the manager's (typed turns, gestures, chat undo, the turn context); the
state of the conversation in the window that is not Qt (busy, waiting requests, overlays, the undo
plan) is :class:`agent.dialogue.session.Session`'s. What stays here is Qt: widgets, workers, the undo stack.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections import OrderedDict
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QImage, QUndoStack

from agent.dialogue.manager import DialogueManager, GrammarParser, TurnStopped, history_from_turns
from agent.dialogue.session import Session
from agent.edits.saving import saved_meta
from agent.grammar.commands import Redo, Undo, usage
from app.cutout import CutoutProcess
from app.images import Mipmaps, match_thumbnails, screen_copy, thumbnail_image, thumbnail_of
from app.labels import history_label, short_refusal, turn_label
from app.library_actions import LibraryActions
from app.loading import load_models_job, nearest_concepts, parser_words
from app.selection_actions import SelectionActions
from app.settings import AppSettings, SessionMarker
from app.storage import json_object, open_store
from app.undo import CheckoutCommand, EditCommand, SwitchDocumentCommand, plan_stack
from app.workers import Worker, Workers
from editor import traces as trace_store
from editor.document import Document
from editor.imageio import ImageFileError, read_image, write_image
from editor.models import ModelMissingError
from editor.store import Store

IMAGE_CACHE = 6  # screen copies kept: undo and redo between recent versions never wait


rebuild_history = history_from_turns  # the name the tests and older code use


class Controller(QObject, LibraryActions, SelectionActions):
    documentChanged = Signal()  # another document is shown
    viewsChanged = Signal()  # head, history or title changed
    statusMessage = Signal(str, int)  # text, timeout in ms (0: until replaced)
    busyChanged = Signal(bool)
    parserChanged = Signal(str)
    turnFinished = Signal(object)  # TurnResult, after the views are refreshed
    photoShown = Signal(str)  # a photo given to open_path is on the canvas
    indexProgress = Signal(int, int, str)  # done, total, file
    indexFinished = Signal(str)  # the summary, in words

    def __init__(self, *, store: Store | None = None, settings: AppSettings | None = None,
                 preload: bool | None = None, parent=None) -> None:
        super().__init__(parent)
        self.store = store or open_store()
        trace_store.ensure_table(self.store)
        self.settings = settings or AppSettings()
        # The grammar parser at once; the learned parser and the search, explain and describe
        # handlers arrive from load_models() (their imports take seconds: never before the window).
        self.manager = DialogueManager(parser=GrammarParser(), concepts=self._concepts)
        self.session = Session(self.manager, self.store)  # busy, waiting requests, overlays, undo plan
        self.cutter = CutoutProcess()
        self.manager.executors["image_cutout"] = self.cutter.cutout  # the network in a helper process
        self.stack = QUndoStack(self)
        self.stack.indexChanged.connect(self._stack_moved)
        self.stack.cleanChanged.connect(self._stack_moved)
        self.workers = Workers(self)
        self.marker = SessionMarker(self.store.path.parent)
        self.thumbs: dict[str, QImage] = {}  # pixel digest -> thumbnail
        self.images: OrderedDict[str, Mipmaps] = OrderedDict()  # pixel digest -> screen copy (LRU)
        self._loading: set[str] = set()
        self._unreadable: set[str] = set()
        self.save_paths: dict[str, str] = {}  # document id -> file "Save" writes to
        self.parser_name = "loading…"
        self.loading_text = ""  # what is loading now, for the status line ("" once ready)
        self._models_after_open = False
        self.concepts_by_pixels: dict[str, list[str]] = {}  # pixel digest -> perception concepts
        self._perceiving: set[str] = set()
        self.library = None
        self.index_worker: Worker | None = None
        self.model_worker: Worker | None = None
        self._turn: Worker | None = None
        self.chat = self.canvas = self.history = self.compare = None
        self.stale_session = self.marker.stale()
        self.marker.write(None)
        if preload if preload is not None else self.settings.preload_models:
            # once the event loop runs: the window paints before the imports take the GIL
            QTimer.singleShot(50, self._start_models)
        else:  # the learned model is switched off: the grammar and the handlers, ready at once
            from agent import explain
            from agent.describe import caption as trace_caption
            from agent.search.library import Library

            self._register_handlers(Library(), explain, trace_caption)
            self.parser_name = parser_words(self.manager.parser)
            self.session.models_ready = True

    # -- wiring ----------------------------------------------------------------------------------

    @property
    def document(self) -> Document | None:
        return self.manager.document

    @property
    def busy(self) -> bool:
        return self.session.busy

    def attach(self, *, chat, canvas, history, compare) -> None:
        """Connect the widgets' signals (the only place that does)."""
        self.chat, self.canvas, self.history, self.compare = chat, canvas, history, compare
        chat.submitted.connect(self.submit)
        chat.cancelRequested.connect(self.cancel)
        chat.versionClicked.connect(self.checkout)
        chat.matchClicked.connect(self.open_match)
        canvas.traceFinished.connect(self.trace_finished)
        canvas.boxSelected.connect(self.box_selected)
        history.versionActivated.connect(self.checkout)

    def detach(self) -> None:
        """The window is going away: stop refreshing widgets that no longer exist."""
        if self.canvas is None:
            return
        self.chat = self.canvas = self.history = self.compare = None
        for sig in (self.stack.indexChanged, self.stack.cleanChanged):
            with contextlib.suppress(RuntimeError):
                sig.disconnect(self._stack_moved)

    def _stack_moved(self, _value=None) -> None:
        self.refresh()

    # -- models ----------------------------------------------------------------------------------

    modelsReady = Signal()
    loadingChanged = Signal(str)  # what is loading, in words ("" when everything is ready)

    def _set_loading(self, text: str) -> None:
        self.loading_text = text
        self.loadingChanged.emit(text)

    def _start_models(self) -> None:
        """Load the models, after the photo being opened is on screen (its decode needs the GIL too)."""
        if self.session.opening:
            self._models_after_open = True
        elif self.model_worker is None:
            self.load_models()

    def load_models(self) -> Worker:
        """Import the heavy libraries and load the command model in a worker, then run what waited.

        Imports here hold the GIL in stretches (shared objects loading): the window may stutter for
        a few hundred milliseconds while this runs, but it is on screen and takes requests, which
        queue (``session.queued``) until ``session.models_ready``.
        """

        def job(worker: Worker):
            return load_models_job(worker, self.manager.document)

        def done(out) -> None:
            if out is None:
                return
            parser, library, explain, trace_caption, seen = out
            self.concepts_by_pixels.update(seen)
            gc.freeze()  # the model's objects live as long as the app: keep full collections short
            self._register_handlers(library, explain, trace_caption)
            self.manager.parser = parser
            self.parser_name = parser_words(parser)
            self.parserChanged.emit(self.parser_name)
            self.session.models_ready = True
            self._set_loading("")
            self.statusMessage.emit("Ready", 3000)
            self.modelsReady.emit()
            self._drain_queue()
            self._perceive_later(self.document, opened=True)  # a photo opened just now, after the job looked
            self.workers.start(self._warm_cutout, name="background removal warm-up")

        def failed(message: str) -> None:
            # Without the learned model the grammar still works: never leave requests waiting.
            self.session.models_ready = True
            self.parser_name = parser_words(self.manager.parser)
            self.parserChanged.emit(self.parser_name)
            self._set_loading("")
            self.statusMessage.emit(message.splitlines()[0], 8000)
            self._drain_queue()

        self._set_loading("Loading the language libraries…")
        self.model_worker = self.workers.start(
            job, name="model loading", on_result=done, on_error=failed,
            on_progress=lambda p, t: self._set_loading(t))
        return self.model_worker

    def _register_handlers(self, library, explain, trace_caption) -> None:
        """Plug search, explain and describe into the manager (on the GUI thread, between turns)."""
        from agent.search.library import register

        self.library = library
        # sample=True: the bundled sample library is indexed on the first search, as in the CLI
        register(self.manager, library, store=self.store, sample=True)
        explain.register(self.manager)
        trace_caption.register(self.manager)
        from agent.describe import questions

        questions.register(self.manager)  # after the caption: a describe with a question is answered there

    def _warm_cutout(self, worker: Worker) -> None:
        # a missing model is not an error here: the turn that needs it says how to install it
        with contextlib.suppress(ModelMissingError):
            self.cutter.warm()

    # -- concepts: the command model's view of the image, kept out of the turn --------------------

    def _concepts(self, doc: Document | None) -> list[str]:
        if isinstance(self.manager.parser, GrammarParser):
            return []  # the grammar parser never looks at concepts
        return nearest_concepts(doc, self.concepts_by_pixels)

    def _perceive_later(self, doc: Document | None, *, opened: bool = False) -> None:
        """Perceive the head in a worker, so the next turn has its concepts ready; on a photo just
        ``opened``, then mask its largest objects ahead (agent.edits.regions.prepare), so that a
        first "brighten the cat" does not wait for u2netp."""
        if opened and doc is not None and self.session.models_ready:
            self._prepare_later(doc)
        if doc is None or not self.session.models_ready or isinstance(self.manager.parser, GrammarParser):
            return  # the grammar parser never looks at concepts
        digest = doc.head.pixels
        if digest in self.concepts_by_pixels or digest in self._perceiving:
            return
        self._perceiving.add(digest)
        vid = doc.head.id

        def job(worker: Worker):
            from agent.perception.concepts import perceive
            from editor.models import ModelMissingError as Missing

            try:
                return perceive(doc.pixels(vid)).concepts
            except (Missing, ValueError):
                return []

        def done(concepts) -> None:
            self.concepts_by_pixels[digest] = concepts

        self.workers.start(job, name="perception", on_result=done,
                           on_finished=lambda: self._perceiving.discard(digest))

    def _prepare_later(self, doc: Document) -> None:
        """On a plain thread, not the two workers: a request typed meanwhile must not queue behind
        it (one that needs a mask being made waits for that mask, not for the others), and it stops
        at the next object once a request runs, which then has the cores."""
        vid = doc.head.id

        def job() -> None:
            from agent.edits.regions import prepare

            # best effort: whatever fails here (a model missing, the photo closed), a request
            # makes its mask itself and says what went wrong there
            with contextlib.suppress(Exception):
                prepare(doc.pixels(vid), stop=lambda: self.session.busy)

        threading.Thread(target=job, name="object masks ahead", daemon=True).start()

    # -- requests that wait for the models ---------------------------------------------------------

    def _drain_queue(self) -> None:
        """Answer the next waiting request, once the models are ready and no photo is opening."""
        text = self.session.next_request() if self.chat is not None else None
        if text is None:
            return
        if self.chat.messages and self.chat.messages[-1] != ("user", text):
            self.chat.settle_pending("Answered below.")
            self.chat.add_note(f"Now answering “{text}”.")  # its reply is not right under it
        else:
            self.chat.settle_pending("")  # the reply follows right under it
        self._start_turn(lambda m: m.handle(text), text)

    # -- documents -------------------------------------------------------------------------------

    def thumbnail(self, version) -> QImage | None:
        """The cached thumbnail of a version; missing ones are made in a worker (then refreshed)."""
        img = self.thumbs.get(version.pixels)
        if img is None and self.document is not None:
            self._load(self.document, [version], display=False)
        return img

    def _remember_image(self, digest: str, image: Mipmaps) -> None:
        self.images[digest] = image
        self.images.move_to_end(digest)
        while len(self.images) > IMAGE_CACHE:
            self.images.popitem(last=False)

    def _image(self, version) -> Mipmaps | None:
        img = self.images.get(version.pixels)
        if img is not None:
            self.images.move_to_end(version.pixels)
        return img

    def _load(self, doc: Document, versions, *, display: bool) -> None:
        """Decode versions from the store in a worker (screen copies and/or thumbnails)."""
        wanted = {}
        for v in versions:
            missing = v.pixels not in self.thumbs or (display and v.pixels not in self.images)
            if missing and v.pixels not in self._loading and v.pixels not in self._unreadable:
                wanted[v.pixels] = display and v.pixels not in self.images
        if not wanted:
            return
        self._loading |= set(wanted)
        store = doc.store

        def job(worker: Worker):
            out = []
            for digest, want_display in wanted.items():
                if worker.cancelled:
                    break
                try:
                    px = store.get_pixels(digest)  # a file read: safe beside the GUI thread
                except (OSError, FileNotFoundError):
                    out.append((digest, None, None))
                    continue
                screen = screen_copy(px) if want_display else None
                out.append((digest, screen, thumbnail_of(screen) if screen is not None else thumbnail_image(px)))
            return out

        def done(out) -> None:
            for digest, img, thumb in out:
                if thumb is None:
                    self._unreadable.add(digest)
                    continue
                self.thumbs[digest] = thumb
                if img is not None:
                    self._remember_image(digest, img)

        def finished() -> None:
            self._loading -= set(wanted)
            if self.document is doc:
                self.refresh()

        self.workers.start(job, name="loading versions", on_result=done, on_finished=finished)

    def open_path(self, path: str) -> Worker:
        """Read an image file in a worker and start a new document (and conversation) on it."""
        path = str(path)

        def job(worker: Worker):
            img = read_image(path)
            doc = Document.create(self.store, img.pixels, title=Path(path).name,
                                  source_path=str(Path(path).resolve()), meta=img.meta)
            screen = screen_copy(img.pixels)
            return doc, thumbnail_of(screen), screen

        def done(out) -> None:
            doc, thumb, screen = out
            self.thumbs[doc.head.pixels] = thumb
            self._remember_image(doc.head.pixels, screen)
            self.settings.add_recent(path)
            self.settings.last_dir = str(Path(path).resolve().parent)
            self.new_conversation(doc)
            h, w = doc.head.height, doc.head.width
            self.chat.add_note(f"Opened {Path(path).name} ({w}×{h}).")
            self.statusMessage.emit(f"Opened {path}", 4000)
            self.photoShown.emit(path)
            self._perceive_later(doc, opened=True)

        def failed(message: str) -> None:
            text = message.split("failed: ", 1)[-1].splitlines()[0]
            self.chat.add_note(f"Could not open {Path(path).name}: {text}")
            self.statusMessage.emit(text, 8000)
            if "no such file" in text:
                self.settings.remove_recent(str(Path(path).resolve()))

        def finished() -> None:
            self.session.opening -= 1
            if self._models_after_open and not self.session.opening:
                self._models_after_open = False
                self.load_models()
            self._drain_queue()

        self.session.opening += 1
        self.statusMessage.emit(f"Opening {path}…", 0)
        return self.workers.start(job, name="open", on_result=done, on_error=failed, on_finished=finished)

    def new_conversation(self, doc: Document, turns: list[dict] | None = None) -> None:
        """Show ``doc`` with a fresh undo stack (open, reopen, restore)."""
        self.stack.clear()
        self.session.resume(turns)
        self.manager.photos, self.manager.previous = [doc], None  # a new conversation: this photo alone
        self.chat.clear()
        self.set_document(doc)
        self.marker.write(doc.id)

    def set_document(self, doc: Document | None) -> None:
        self.manager.document = doc
        if doc is not None:
            self.marker.write(doc.id)
        self.canvas.clear_overlays()
        self.documentChanged.emit()
        self.refresh()

    def reopen(self, doc_id: str) -> Worker:
        """Bring back an earlier conversation: its versions, head and chat turns (read in a worker)."""
        store = self.store

        def job(worker: Worker):
            doc = Document.open(store, doc_id)
            turns = store.turns(doc_id)
            thumbs = {}
            for v in doc.versions.values():
                if v.pixels not in self.thumbs and v.pixels not in thumbs:
                    with contextlib.suppress(OSError):  # a lost file: the row shows no icon
                        thumbs[v.pixels] = thumbnail_image(store.get_pixels(v.pixels))
            return doc, turns, thumbs, screen_copy(doc.pixels())

        def done(out) -> None:
            doc, turns, thumbs, screen = out
            self.thumbs.update(thumbs)
            self._remember_image(doc.head.pixels, screen)
            self.new_conversation(doc, turns)
            self.chat.add_note(f"Reopened {doc.title} ({len(doc.versions)} versions, {len(turns)} messages).")
            for t in turns:
                if t["role"] == "user":
                    self.chat.add_user(t["text"])
                    continue
                v = doc.versions.get(t.get("version_id") or "")
                edit = bool(v is not None and t.get("command") and v.command == t["command"])
                data = json_object(t.get("data"))
                ran = "; ".join(t.get("commands") or []) or t.get("command")  # every command of the turn
                self.chat.add_reply(t["text"], command=ran, segments=data.get("segments"),
                                    version_id=v.id if edit else None,
                                    thumbnail=self.thumbs.get(v.pixels) if edit else None)
            self.statusMessage.emit(f"Reopened {doc.title}", 4000)

        def failed(message: str) -> None:
            self.chat.add_note(f"Could not reopen that conversation: {message.splitlines()[0]}")

        def finished() -> None:  # a request typed while it reopens waits for it, as for an open
            self.session.opening -= 1
            self._drain_queue()

        self.session.opening += 1
        self.statusMessage.emit("Reopening…", 0)
        return self.workers.start(job, name="reopen", on_result=done, on_error=failed, on_finished=finished)

    def documents(self) -> list[dict]:
        """Earlier conversations, newest first, with their number of versions and turns."""
        return self.store.documents(counts=True)

    # -- views -----------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Show the document's head, history and compare pair (screen copies come from workers)."""
        doc = self.document
        if self.canvas is None:
            return
        if doc is None:
            self.canvas.set_image(None)
            self.history.set_document(None)
            self.compare.set_pair(None, None)
            self.viewsChanged.emit()
            return
        before = self.session.compare_before(doc)
        overlays = self.session.overlays_on(doc.head.id)
        self._load(doc, [doc.head, before], display=True)
        head_img, before_img = self._image(doc.head), self._image(before)
        if head_img is not None:
            self.canvas.set_image(head_img)
            self.canvas.set_overlays(overlays)
        else:
            self.statusMessage.emit("Loading the version…", 0)
        self.history.set_document(doc, self.thumbnail)
        self.compare.set_pair(before_img, head_img, before_label=history_label(before.command),
                              after_label=history_label(doc.head.command), overlays=overlays)
        self.viewsChanged.emit()

    def title(self) -> str:
        doc = self.document
        name = Path(doc.title).name if doc is not None else "Untitled"
        dirty = "*" if doc is not None and not self.stack.isClean() else ""
        return f"{dirty}{name} — Easel"

    # -- chat turns ------------------------------------------------------------------------------

    def _set_busy(self, busy: bool) -> None:
        self.session.set_busy(busy)
        self.chat.set_busy(busy)
        self.busyChanged.emit(busy)

    def submit(self, text: str) -> Worker | None:
        """Run one chat request in a worker; the reply and the new version come back to the GUI."""
        if self.session.must_wait():
            # Accepted, never refused for loading: shown as waiting and answered when ready.
            self.session.wait(text)
            self.chat.add_user(text, pending=True)
            self.statusMessage.emit("Your request will be answered as soon as the models are ready.", 0)
            return None
        if self.busy:  # typed ahead: answered after the turn that runs, never dropped
            self.session.wait(text)
            self.chat.add_user(text, pending="Answered when the current request is done…")
            self.statusMessage.emit("Your request will be answered when the current one is done.", 3000)
            return None
        self.chat.add_user(text)
        return self._start_turn(lambda m: m.handle(text), text)

    def _start_turn(self, ask, text: str) -> Worker:
        doc_before = self.document
        head_before = doc_before.head.id if doc_before is not None else None
        # "undo" typed in the chat is answered in the worker by what the undo stack will do after it
        self.session.plan_undo(plan_stack(self.stack, doc_before))

        def job(worker: Worker):
            self.manager.stop_requested = lambda: worker.cancelled
            try:
                result = ask(self.manager)
            except TurnStopped:  # stopped before the end: the turn's versions and rows are gone
                return None
            finally:
                self.manager.stop_requested = lambda: False
            doc = self.manager.document
            thumb = screen = None
            if doc is not None and (doc is not doc_before or doc.head.id != head_before) \
                    and doc.head.pixels not in self.images and not isinstance(result.command, (Undo, Redo)):
                screen = screen_copy(doc.pixels())
                thumb = thumbnail_of(screen)
            result.data["match_thumbnails"] = match_thumbnails(result.data.get("results") or [])
            return result, thumb, screen

        self._set_busy(True)
        self.statusMessage.emit("Working…", 0)
        self.marker.write(doc_before.id if doc_before is not None else None, pending=text)
        self._turn = self.workers.start(
            job, name="chat turn",
            on_result=lambda out: self._finish_turn(out, doc_before, head_before),
            on_error=lambda msg: self._turn_failed(msg, doc_before, head_before),
        )
        return self._turn

    def cancel(self) -> None:
        if self._turn is not None and not self._turn.done:
            self._turn.cancel()
            self.statusMessage.emit("Stopping… the result will be discarded", 0)
            self.chat.add_note("Stopping: the result of this request will be discarded.")

    def _revert(self, doc_before, head_before) -> None:
        if self.manager.document is not doc_before:
            self.manager.document = doc_before
        if doc_before is not None and doc_before.head.id != head_before:
            doc_before.checkout(head_before)

    def _turn_over(self) -> None:
        """The request that ran is finished (done, failed or stopped): the crash marker forgets it."""
        self._turn = None
        self.marker.write(self.document.id if self.document is not None else None)

    def _turn_failed(self, message: str, doc_before, head_before) -> None:
        self._revert(doc_before, head_before)
        self._turn_over()
        self._set_busy(False)
        self.chat.add_reply(f"Something went wrong: {message.splitlines()[0]}", ok=False)
        self.statusMessage.emit("The request failed", 5000)
        self.refresh()
        self._drain_queue()

    def _finish_turn(self, out, doc_before, head_before) -> None:
        self.canvas.new_trace()  # the turn had the trace drawn so far; the next stroke starts another
        cancelled = self._turn is not None and self._turn.cancelled
        self._turn_over()
        self._set_busy(False)
        if cancelled:
            self._revert(doc_before, head_before)
            dropped = self.session.drop_queued()
            for _ in dropped:
                self.chat.settle_pending("Not run: you stopped the request before it. Send it again "
                                         "(↑ in the input recalls it) if you still want it.")
            after = {0: "", 1: " The request typed after it was not run either."}.get(
                len(dropped), f" The {len(dropped)} requests typed after it were not run either.")
            self.chat.add_note("Stopped; nothing was changed." + after)
            self.statusMessage.emit("Stopped", 3000)
            self.refresh()
            self._drain_queue()
            return
        result, thumb, screen = out
        doc = self.manager.document
        if thumb is not None and doc is not None:
            self.thumbs[doc.head.pixels] = thumb
            self._remember_image(doc.head.pixels, screen)
        label = turn_label(result.commands) if result.commands else result.utterance
        self.session.show_overlays(result.data.get("overlays") or [])
        if doc is not doc_before:
            # a handler (search) opened another picture: an undoable switch
            self.manager.document = doc_before
            self.stack.push(SwitchDocumentCommand(self, doc_before, doc, label))
        elif isinstance(result.command, (Undo, Redo)) and result.ok:
            kind = "undo" if isinstance(result.command, Undo) else "redo"
            steps = result.command.steps if kind == "undo" else 1
            key = "original" if kind == "undo" and result.command.original else \
                kind if steps == 1 else f"{kind} {steps}"
            step = self.session.planned(key)
            if step.checkout:
                self.stack.push(CheckoutCommand(step.document, step.document.head.id, step.version_id,
                                                f"{kind} {step.text}"))
            elif kind == "undo":
                for _ in range(steps):
                    self.stack.undo()
            else:
                self.stack.redo()
        elif doc is not None and doc.head.id != head_before:
            self.stack.push(EditCommand(doc, head_before, doc.head.id, label))
        else:
            self.refresh()  # overlays only
        doc = self.manager.document
        version = result.version
        shown_thumb = None
        if version is not None and doc is not None and version.id in doc.versions \
                and result.command is not None and result.command.edits_image:
            shown_thumb = self.thumbnail(version)
        asks = result.reply.rstrip().endswith("?")  # a question ("Open it anyway?") is kept whole for its "yes"
        self.chat.add_reply(short_refusal(result.reply) if not result.ok and not asks else result.reply,
                            segments=result.data.get("segments"), thumbnail=shown_thumb,
                            version_id=version.id if version is not None else None, ok=result.ok,
                            command="; ".join(c.format() for c in result.commands) or None)
        self._show_matches(result)
        self.statusMessage.emit(result.reply.splitlines()[0] if result.reply else "", 5000)
        self.turnFinished.emit(result)
        self._perceive_later(self.manager.document)
        self._drain_queue()

    # -- undo stack ------------------------------------------------------------------------------

    def checkout(self, version_id: str) -> None:
        doc = self.document
        if doc is None or self.busy or version_id not in doc.versions or version_id == doc.head.id:
            return
        v = doc.versions[version_id]
        self.stack.push(CheckoutCommand(doc, doc.head.id, version_id,
                                        f"go to {v.seq}. {v.command or 'original'}"))
        self.statusMessage.emit(f"Showing version {v.seq}: {v.command or 'the original'}", 3000)

    def switch_photo(self, index: int) -> None:
        """Show the ``index``-th photo open in this conversation (a tab clicked): one undo entry."""
        photos = self.manager.open_photos()
        if self.busy or not 0 <= index < len(photos) or photos[index] is self.document:
            self.viewsChanged.emit()  # the bar shows the photo on screen again
            return
        before, after = self.document, photos[index]
        self.manager.photos, self.manager.previous = photos, before
        self.stack.push(SwitchDocumentCommand(self, before, after, f"switch to {Path(after.title).name}"))
        self.statusMessage.emit(f"Showing {Path(after.title).name}", 3000)

    def undo(self) -> None:
        if not self.busy:
            self.stack.undo()

    def redo(self) -> None:
        if not self.busy:
            self.stack.redo()

    def compare_with(self, version_id: str | None) -> None:
        """Pick the "before" of the compare view (and of ``explain``)."""
        self.session.compare_with(version_id)
        self.refresh()

    # -- files -----------------------------------------------------------------------------------

    def save_to(self, path: str, *, quality: int | None = None, overwrite: bool = False,
                remember: bool = True) -> Path:
        """Write the current version (format from the suffix, EXIF and ICC kept).

        Raises ImageFileError with a message for the person (exists, bad suffix, no folder).
        """
        doc = self.document
        if doc is None:
            raise ImageFileError("there is no image to save")
        q = quality if quality is not None else self.settings.jpeg_quality
        out = write_image(path, doc.pixels(), meta=saved_meta(doc), quality=q, overwrite=overwrite)
        if remember:
            self.save_paths[doc.id] = str(Path(path).resolve())
            self.stack.setClean()
            self.viewsChanged.emit()
        self.settings.add_recent(str(out))
        self.statusMessage.emit(f"Saved {out}", 5000)
        return out

    def is_original(self, path: str) -> bool:
        doc = self.document
        return bool(doc is not None and doc.source_path
                    and Path(path).resolve() == Path(doc.source_path).resolve())

    def commands_help(self) -> str:
        return usage()

    # -- exit ------------------------------------------------------------------------------------

    def shutdown(self, timeout_ms: int = 3000) -> None:
        """Clean exit: stop workers, remove the crash marker, close the database."""
        self.workers.cancel_all()
        self.workers.wait(timeout_ms)
        self.cutter.shutdown()
        flush = getattr(self.store, "flush", None)
        if flush is not None:
            flush()  # version files still being written (app.storage) reach the disk before exit
        self.marker.remove()
        self.settings.sync()
