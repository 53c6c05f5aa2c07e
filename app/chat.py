"""The chat pane: the conversation (with result thumbnails inline) and an input line with history.

The pane only shows and emits: :attr:`ChatPane.submitted` carries a request, the controller runs
it and calls :meth:`ChatPane.add_reply`. Phrases of a grounded answer are coloured like the boxes
and traces they belong to (``data["segments"]`` of the turn).
"""

from __future__ import annotations

import html

from PySide6.QtCore import QUrl, Signal
from PySide6.QtGui import QImage, QTextCursor, QTextDocument
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from agent.grammar.commands import shown_line

USER_BG, BOT_BG, NOTE_FG, ERROR_FG = "#2f4a6b", "#2d2d30", "#9a9a9a", "#ff8a80"
INLINE_THUMB = 120  # logical pixels
MATCH_THUMB = 80  # search matches: four fit side by side in the chat


class HistoryLineEdit(QLineEdit):
    """A line edit whose Up and Down keys walk through what was sent before (like a shell)."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.history: list[str] = []
        self._index = 0
        self._draft = ""

    def remember(self, text: str) -> None:
        if text and (not self.history or self.history[-1] != text):
            self.history.append(text)
        self._index = len(self.history)
        self._draft = ""

    def keyPressEvent(self, event) -> None:
        from PySide6.QtCore import Qt

        if event.key() == Qt.Key.Key_Up and self.history:
            if self._index == len(self.history):
                self._draft = self.text()
            self._index = max(0, self._index - 1)
            self.setText(self.history[self._index])
            return
        if event.key() == Qt.Key.Key_Down and self.history:
            self._index = min(len(self.history), self._index + 1)
            self.setText(self.history[self._index] if self._index < len(self.history) else self._draft)
            return
        super().keyPressEvent(event)


def segments_html(text: str, segments: list[dict] | None) -> str:
    """The reply as HTML, each segment in its colour; plain when the segments do not add up."""
    if not segments or "".join(s.get("text", "") for s in segments) != text:
        return html.escape(text).replace("\n", "<br>")
    parts = []
    for s in segments:
        t = html.escape(s.get("text", "")).replace("\n", "<br>")
        if s.get("color"):
            parts.append(f'<span style="color:{s["color"]}; font-weight:600">{t}</span>')
        else:
            parts.append(t)
    return "".join(parts)


class ChatPane(QWidget):
    submitted = Signal(str)
    cancelRequested = Signal()
    versionClicked = Signal(str)
    matchClicked = Signal(str)  # the path of a search match whose thumbnail was clicked

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.messages: list[tuple[str, str]] = []  # (role, text), what the pane shows
        self.match_paths: list[str] = []  # search matches shown, by their number in "match:N" links
        self._pending: list[tuple[int, int]] = []  # where the notes of waiting requests are, oldest first
        self.log = QTextBrowser()
        self.log.setOpenLinks(False)
        self.log.setOpenExternalLinks(False)
        self.log.anchorClicked.connect(self._anchor)
        self.log.document().setDefaultStyleSheet("p { margin: 0; }")
        self.input = HistoryLineEdit()
        self.input.setPlaceholderText("Ask for an edit: “rotate 90”, “a bit brighter”…")
        self.input.setClearButtonEnabled(True)
        self.input.returnPressed.connect(self._send)
        self.send_button = QPushButton("Send")
        self.send_button.clicked.connect(self._send)
        self.cancel_button = QPushButton("Stop")
        self.cancel_button.setToolTip("Stop the request in progress (its result is discarded)")
        self.cancel_button.clicked.connect(self.cancelRequested)
        self.cancel_button.hide()
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setMaximumHeight(6)
        self.progress.setTextVisible(False)
        self.progress.hide()

        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.input, 1)
        row.addWidget(self.send_button)
        row.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.log, 1)
        layout.addWidget(self.progress)
        layout.addLayout(row)

    # -- input -----------------------------------------------------------------------------------

    def _send(self) -> None:
        text = self.input.text().strip()
        if not text or not self.input.isEnabled():
            return
        self.input.remember(text)
        self.input.clear()
        self.submitted.emit(text)

    def set_busy(self, busy: bool) -> None:
        # The input stays open: a request typed during a turn waits and is answered after it.
        self.cancel_button.setVisible(busy)
        self.progress.setVisible(busy)
        if not busy:
            self.input.setFocus()

    def _anchor(self, url: QUrl) -> None:
        if url.scheme() == "version":
            self.versionClicked.emit(url.path())
        elif url.scheme() == "match":
            index = int(url.path()) if url.path().isdigit() else -1
            if 0 <= index < len(self.match_paths):
                self.matchClicked.emit(self.match_paths[index])

    # -- messages --------------------------------------------------------------------------------

    def clear(self) -> None:
        self.messages.clear()
        self._pending.clear()
        self.match_paths.clear()
        self.log.clear()

    def _append(self, body: str) -> None:
        cursor = self.log.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        self.log.setTextCursor(cursor)
        self.log.insertHtml(body)
        self.log.insertHtml("<br>")
        bar = self.log.verticalScrollBar()
        bar.setValue(bar.maximum())

    def add_user(self, text: str, *, pending: bool | str = False) -> None:
        """A request; ``pending`` ones wait (for the models, or for the turn running: a sentence
        saying so) and say so under the words."""
        self.messages.append(("user", text))
        note = pending if isinstance(pending, str) else \
            "Waiting for the models to finish loading; answered as soon as they are ready…"
        wait = f'<br><span style="color:{NOTE_FG}"><i>{html.escape(note)}</i></span>' if pending else ""
        start = self.log.document().characterCount()
        self._append(
            f'<table width="100%" cellpadding="6" style="margin-top:6px"><tr>'
            f'<td bgcolor="{USER_BG}"><b>You</b><br>{html.escape(text)}{wait}</td></tr></table>'
        )
        if pending:  # where the note is, to say later what became of the request
            found = self.log.document().find(note, max(0, start - 1))
            self._pending.append((found.selectionStart(), found.selectionEnd()))

    def settle_pending(self, outcome: str) -> None:
        """The oldest waiting request's note becomes ``outcome`` ("Answered below.", "Not run…"):
        the line that said it waits does not stay under a request that no longer does."""
        if not self._pending:
            return
        start, end = self._pending.pop(0)
        if start == end:  # the note was not found (it cannot happen with plain notes)
            return
        doc = self.log.document()
        if not outcome and doc.characterAt(start - 1) == "\u2028":  # the line break before the note
            start -= 1
        cursor = QTextCursor(doc)
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(outcome)
        shift = len(outcome) - (end - start)  # only later waiting notes move
        self._pending = [(a + shift, b + shift) for a, b in self._pending]

    def add_matches(self, matches: list[tuple[str, QImage, str]]) -> None:
        """Search matches as clickable thumbnails, best first: (path, thumbnail, description)."""
        cells = []
        for path, thumb, description in matches:
            n = len(self.match_paths)
            self.match_paths.append(path)
            url = QUrl(f"match:{n}")
            self.log.document().addResource(QTextDocument.ResourceType.ImageResource, url, thumb)
            w, h = thumb.width(), thumb.height()
            scale = MATCH_THUMB / max(w, h)
            name = html.escape(path.rsplit("/", 1)[-1])
            cells.append(f'<td align="center" title="{html.escape(description)}"><a href="match:{n}">'
                         f'<img src="match:{n}" width="{round(w * scale)}" height="{round(h * scale)}">'
                         f'</a><br><span style="color:{NOTE_FG}; font-size:small">{name}</span></td>')
        if not cells:
            return
        self.messages.append(("matches", "\n".join(p for p, _, _ in matches)))
        self._append(f'<p style="color:{NOTE_FG}"><i>Best matches (click one to open it):</i></p>'
                     f'<table cellpadding="3"><tr>{"".join(cells)}</tr></table>')

    def add_reply(self, text: str, *, segments: list[dict] | None = None, thumbnail: QImage | None = None,
                  version_id: str | None = None, ok: bool = True, command: str | None = None) -> None:
        self.messages.append(("assistant", text))
        body = segments_html(text, segments)
        who = "Easel" if ok else f'<span style="color:{ERROR_FG}">Easel ⚠</span>'
        extra = ""
        if command:
            extra += f'<br><span style="color:{NOTE_FG}; font-family:monospace">{html.escape(shown_line(command))}</span>'
        if thumbnail is not None and version_id:
            url = QUrl(f"version:{version_id}")
            self.log.document().addResource(QTextDocument.ResourceType.ImageResource, url, thumbnail)
            w, h = thumbnail.width(), thumbnail.height()
            scale = INLINE_THUMB / max(w, h)
            extra += (f'<br><a href="version:{version_id}"><img src="version:{version_id}" '
                      f'width="{round(w * scale)}" height="{round(h * scale)}"></a>')
        self._append(
            f'<table width="100%" cellpadding="6" style="margin-top:6px"><tr>'
            f'<td bgcolor="{BOT_BG}"><b>{who}</b><br>{body}{extra}</td></tr></table>'
        )

    def add_note(self, text: str) -> None:
        self.messages.append(("note", text))
        self._append(f'<p style="color:{NOTE_FG}"><i>{html.escape(text)}</i></p>')
