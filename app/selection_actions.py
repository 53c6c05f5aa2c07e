"""The controller's canvas tools: a trace or a box becomes the selection; crop to it; clear it.

A mixin of :class:`app.controller.Controller`: drawings are snapped to edges in a worker
(:mod:`agent.edits.selection`) and kept in the session, which "this", "here" and "it" refer to.
"""

from __future__ import annotations

from app.workers import Worker


class SelectionActions:
    def trace_finished(self, trace: list) -> str | None:
        """Keep the trace for the next turn (``manager.context.trace``), store it and show it; it also
        becomes the selection that "this", "here" and "it" refer to (:meth:`select`)."""
        if self.document is None:
            return None
        trace_id = self.session.draw_trace(trace)
        self.canvas.set_overlays(self.session.overlays)
        n = sum(len(s) for s in trace)
        secs = trace[-1][-1]["t"] if trace and trace[-1] else 0.0
        strokes = f" in {len(trace)} strokes" if len(trace) > 1 else ""
        self.statusMessage.emit(f"Trace recorded: {n} points{strokes} over {secs:.1f} s. Say “brighten this” to "
                                "edit what it circles, “describe” to caption it; Esc clears it.", 8000)
        self.select("trace", trace)
        return trace_id

    def box_selected(self, box: tuple[int, int, int, int]) -> Worker | None:
        """A rectangle drawn with the box tool becomes the selection (never a crop on release:
        cropping is "crop to this" or :meth:`crop_to_selection`)."""
        if self.document is None:
            return None
        return self.select("box", [int(v) for v in box])

    def select(self, kind: str, drawn) -> Worker | None:
        """Make a drawing (``"trace"`` or ``"box"``) into the selection, snapped to the edges of
        what it encloses, in a worker; its outline is shown when it is ready. Requests typed
        meanwhile wait for it (``session.selecting``), so "brighten this" never misses it."""
        doc = self.document
        if doc is None:
            return None
        if self.busy:  # the turn's worker owns the document; a drawing on its result is next
            self.statusMessage.emit("Draw it again when the current request is done to select it.", 5000)
            return None
        version_id = doc.head.id

        def job(worker: Worker):
            from agent.edits import selection

            pixels = doc.pixels(version_id)
            return selection.from_box(pixels, drawn) if kind == "box" else selection.from_trace(pixels, drawn)

        def done(chosen) -> None:
            if self.document is not doc or doc.head.id != version_id:
                return  # the picture changed meanwhile: this drawing belongs to the one before
            self.session.select(chosen)
            if self.canvas is not None:
                self.canvas.set_overlays(self.session.overlays)
            how = "snapped to edges" if chosen.refined else "as drawn"
            self.statusMessage.emit(f"Selected ({how}): say “brighten this”, “remove this”, “crop to this”…; "
                                    "Esc clears it.", 8000)

        def failed(message: str) -> None:
            self.statusMessage.emit(f"Could not make a selection of that: {message.splitlines()[0]}", 5000)

        def finished() -> None:
            self.session.selecting -= 1
            self._drain_queue()

        self.session.selecting += 1
        return self.workers.start(job, name="selection", on_result=done, on_error=failed, on_finished=finished)

    def crop_to_selection(self) -> Worker | None:
        """Edit ▸ Crop to Selection: ``crop x1 y1 x2 y2`` of the selection's box, a turn of the
        manager's recorded as that command (CAISE's crop, which replays)."""
        if self.document is None or self.busy:
            return None
        drawn = self.manager.selection()
        if drawn is None:
            self.statusMessage.emit("Nothing is selected: draw a box (B) or circle something (T) first.", 5000)
            return None
        from agent.edits.run import selection_box

        command = selection_box(drawn.mask)
        self.chat.add_user(command.format())
        return self._start_turn(lambda m: m.gesture(command), command.format())

    def clear_drawn(self) -> None:
        """Esc or View ▸ Clear Overlays: the boxes, traces and the selection go (the next turn neither
        captions a stray trace nor edits a forgotten selection)."""
        self.session.clear_overlays()
        if self.canvas is not None:
            self.canvas.clear_overlays()
            self.canvas.new_trace()
