"""The controller's library actions: a search's matches in the chat, opening one, adding a folder.

A mixin of :class:`app.controller.Controller` (which declares the signals and owns the workers); it is
kept apart so that the controller reads as the turn's protocol.
"""

from __future__ import annotations

from pathlib import Path

from agent.grammar.turns import TurnResult
from app.images import screen_copy, thumbnail_image
from app.undo import SwitchDocumentCommand
from app.workers import Worker
from editor.document import Document
from editor.imageio import read_image


class LibraryActions:
    def _show_matches(self, result: TurnResult) -> None:
        """A search answer's best matches as thumbnails in the chat (clicking one opens it)."""
        matches = result.data.pop("match_thumbnails", None)
        if matches:
            self.chat.add_matches(matches)

    def open_match(self, path: str) -> Worker | None:
        """Open a search match in this conversation, as an undoable switch (like search's best match)."""
        if self.busy:
            self.statusMessage.emit("Still working on the last request…", 3000)
            return None
        doc_before = self.document
        store = self.store

        def job(worker: Worker):
            img = read_image(path)
            doc = Document.create(store, img.pixels, title=Path(path).name,
                                  source_path=str(Path(path).resolve()), meta=img.meta)
            return doc, thumbnail_image(img.pixels), screen_copy(img.pixels)

        def done(out) -> None:
            doc, thumb, screen = out
            self.thumbs[doc.head.pixels] = thumb
            self._remember_image(doc.head.pixels, screen)
            beside = self.manager.open_beside(doc)  # never in place of the photo being edited
            self.manager.document = doc_before  # the undo entry makes the switch
            self.manager.note_image_load()
            self.stack.push(SwitchDocumentCommand(self, doc_before, doc, f"open {Path(path).name}"))
            self.chat.add_note(f"Opened {Path(path).name}." + (f" {beside}" if beside else ""))
            self._perceive_later(doc, opened=True)

        def failed(message: str) -> None:
            self.chat.add_note(f"Could not open {Path(path).name}: {message.split('failed: ', 1)[-1].splitlines()[0]}")

        return self.workers.start(job, name="open match", on_result=done, on_error=failed)


    def index_folder(self, folder: str) -> Worker | None:
        """Add a folder to the photo library in a worker, with progress; :meth:`stop_indexing` stops it."""
        if self.library is None:
            self.statusMessage.emit("The library opens once the models are loaded; try again in a moment.", 5000)
            return None
        if self.index_worker is not None and not self.index_worker.done:
            self.statusMessage.emit("Already adding a folder to the library", 3000)
            return None
        library = self.library

        def job(worker: Worker):
            def step(done: int, total: int, path: str) -> bool:
                worker.progress(done * 100 // max(1, total), f"{done}\t{total}\t{Path(path).name}")
                return not worker.cancelled

            report = library.index([folder], progress=False, on_progress=step)
            return report, worker.cancelled

        def done(out) -> None:
            report, stopped = out
            text = (f"Stopped adding {Path(folder).name}: " if stopped else f"Added {Path(folder).name}: ") \
                + report.summary()
            self.chat.add_note(text)
            self.indexFinished.emit(text)

        def failed(message: str) -> None:
            text = f"Could not add {Path(folder).name}: {message.split('failed: ', 1)[-1].splitlines()[0]}"
            self.chat.add_note(text)
            self.indexFinished.emit(text)

        def progress(_percent: int, text: str) -> None:
            done_, total, name = text.split("\t", 2)
            self.indexProgress.emit(int(done_), int(total), name)

        self.chat.add_note(f"Adding {folder} to the library…")
        self.index_worker = self.workers.start(job, name="indexing", on_result=done, on_error=failed,
                                               on_progress=progress)
        return self.index_worker

    def stop_indexing(self) -> None:
        if self.index_worker is not None and not self.index_worker.done:
            self.index_worker.cancel()
            self.statusMessage.emit("Stopping after the current photo…", 0)
