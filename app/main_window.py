"""The main window: lays out the canvas, chat, history and compare views, and holds the menus.

It owns no logic beyond asking the person things (file names, confirmations): the
:class:`~app.controller.Controller` does the work. Every menu action has a keyboard shortcut.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QByteArray, Qt, QUrl
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.canvas import Canvas
from app.chat import ChatPane
from app.compare import CompareView
from app.controller import Controller
from app.dialogs import PreferencesDialog, SessionsDialog
from app.history_panel import HistoryPanel
from app.photo_tabs import PhotoTabs
from editor.imageio import SUFFIX_FORMAT, ImageFileError

OPEN_FILTER = "Images (*.jpg *.jpeg *.png *.webp *.tif *.tiff *.bmp);;All files (*)"
SAVE_FILTER = "JPEG (*.jpg *.jpeg);;PNG (*.png);;WebP (*.webp);;TIFF (*.tif *.tiff);;BMP (*.bmp)"


class MainWindow(QMainWindow):
    def __init__(self, controller: Controller | None = None) -> None:
        super().__init__()
        self.controller = c = controller or Controller()
        self.setAcceptDrops(True)
        self.resize(1280, 800)

        self.canvas = Canvas()
        self.compare = CompareView()
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.canvas, "Image")
        self.tabs.addTab(self.compare, "Before / After")
        self.photo_tabs = PhotoTabs()  # the photos open beside each other (a search's match beside the edit)
        central = QWidget()
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.photo_tabs)
        column.addWidget(self.tabs, 1)
        self.setCentralWidget(central)

        self.chat = ChatPane()
        self.chat_dock = self._dock("Chat", self.chat, Qt.DockWidgetArea.LeftDockWidgetArea, 380)
        self.history = HistoryPanel()
        self.history_dock = self._dock("History", self.history, Qt.DockWidgetArea.RightDockWidgetArea, 260)

        self.zoom_label = QLabel("")
        self.pos_label = QLabel("")
        self.model_label = QLabel("")
        self.loading_label = QLabel("")  # what is loading, until the models are ready
        self.loading_label.setStyleSheet("color: #e0b050")
        self.index_bar = QProgressBar()
        self.index_bar.setMaximumWidth(160)
        self.index_bar.setFormat("library %v/%m")
        self.index_stop = QPushButton("Stop")
        self.index_stop.setToolTip("Stop adding photos to the library (what is indexed stays)")
        self.index_stop.clicked.connect(c.stop_indexing)
        # permanent: temporary status messages would hide it, and it must stay until ready
        for w in (self.loading_label, self.index_bar, self.index_stop, self.pos_label, self.zoom_label, self.model_label):
            self.statusBar().addPermanentWidget(w)
        self.index_bar.hide()
        self.index_stop.hide()
        self._show_parser(c.parser_name)
        self._show_loading(c.loading_text)

        self.destroyed.connect(c.detach)
        c.attach(chat=self.chat, canvas=self.canvas, history=self.history, compare=self.compare)
        c.viewsChanged.connect(self._update_title)
        c.viewsChanged.connect(self._update_photo_tabs)
        self.photo_tabs.photoChosen.connect(c.switch_photo)
        c.statusMessage.connect(lambda text, ms: self.statusBar().showMessage(text, ms))
        c.parserChanged.connect(self._show_parser)
        c.loadingChanged.connect(self._show_loading)
        c.indexProgress.connect(self._index_progress)
        c.indexFinished.connect(self._index_finished)
        c.busyChanged.connect(lambda _b: self._update_actions())
        self.history.compareRequested.connect(self.compare_with)
        self.canvas.zoomChanged.connect(lambda pct: self.zoom_label.setText(f"{pct:.0f}%"))
        self.canvas.pointerMoved.connect(self._pointer)
        self.canvas.escaped.connect(self.clear_overlays)
        self._build_menus()
        self._update_title()
        self.chat.add_note("Open a photo (Ctrl+O or drop it here), then ask for an edit. "
                           "Press F1 for the commands I understand.")
        self._restore_geometry()

    def _update_photo_tabs(self) -> None:
        c = self.controller
        self.photo_tabs.set_photos(c.manager.open_photos(), c.document)

    def _dock(self, title: str, widget, area, width: int) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"{title.lower()}_dock")
        dock.setWidget(widget)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QDockWidget.DockWidgetFeature.DockWidgetClosable
                         | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
        self.addDockWidget(area, dock)
        self.resizeDocks([dock], [width], Qt.Orientation.Horizontal)
        return dock

    # -- menus -----------------------------------------------------------------------------------

    def _action(self, menu, text: str, shortcut, slot, tip: str = "") -> QAction:
        a = QAction(text, self)
        keys = shortcut if isinstance(shortcut, list) else [shortcut]
        a.setShortcuts([QKeySequence(k) for k in keys])
        a.setStatusTip(tip or text.replace("&", "").rstrip("…"))
        a.triggered.connect(lambda _checked=False: slot())
        menu.addAction(a)
        return a

    def set_speaker_phrasing(self, on: bool | None = None) -> None:
        """Choose who phrases explanations: the learned speaker or the engine (kept in settings)."""
        on = self.speaker_action.isChecked() if on is None else on
        self.controller.settings.speaker_phrasing = on
        self.controller.session.set_phrasing(on)

    def _build_menus(self) -> None:
        c = self.controller
        bar = self.menuBar()
        f = bar.addMenu("&File")
        self.open_action = self._action(f, "&Open…", QKeySequence.StandardKey.Open, self.open_dialog,
                                        "Open a photo")
        self.recent_menu = f.addMenu("Open &Recent")
        self.reopen_action = self._action(f, "Reopen &Conversation…", "Ctrl+Shift+O", self.sessions_dialog,
                                          "Bring back an earlier conversation with its versions")
        f.addSeparator()
        self.save_action = self._action(f, "&Save", QKeySequence.StandardKey.Save, self.save,
                                        "Save the current version (asks before replacing the original)")
        self.save_as_action = self._action(f, "Save &As…", "Ctrl+Shift+S", self.save_as)
        self.export_action = self._action(f, "&Export a Copy…", "Ctrl+E", self.export_copy,
                                          "Write the current version to another file, choosing the quality")
        f.addSeparator()
        self.add_folder_action = self._action(
            f, "Add &Folder to Library…", "Ctrl+Shift+F", self.add_folder_dialog,
            "Index the photos of a folder so that you can search them by words")
        self.save_recipe_action = self._action(
            f, "Sa&ve Edits as Recipe…", "Ctrl+Shift+E", self.save_recipe,
            "Save the edits that made this version as a recipe for other photos")
        self._action(f, "Appl&y Recipe to Photos…", "Ctrl+Shift+B", self.apply_recipe,
                     "Apply a saved recipe to a folder or a selection of photos")
        f.addSeparator()
        self.prefs_action = self._action(f, "&Preferences…", "Ctrl+,", self.preferences)
        self._action(f, "&Quit", "Ctrl+Q", self.close)
        f.aboutToShow.connect(self._fill_recent)
        self._fill_recent()

        e = bar.addMenu("&Edit")
        self.undo_action = c.stack.createUndoAction(self, "&Undo")
        self.undo_action.setShortcuts([QKeySequence("Ctrl+Z")])
        self.redo_action = c.stack.createRedoAction(self, "&Redo")
        self.redo_action.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        # the stack's own actions call stack.undo(); route them through the controller (busy check)
        for a, slot in ((self.undo_action, c.undo), (self.redo_action, c.redo)):
            a.triggered.disconnect()
            a.triggered.connect(lambda _checked=False, s=slot: s())
            e.addAction(a)
        e.addSeparator()
        self.stop_action = self._action(e, "S&top Request", "Ctrl+.", c.cancel,
                                        "Stop the request in progress")
        self._action(e, "Focus &Chat", "Ctrl+L", lambda: self.chat.input.setFocus(),
                     "Type a request")
        e.addSeparator()
        self.crop_selection_action = self._action(
            e, "C&rop to Selection", "Ctrl+Shift+R", c.crop_to_selection,
            "Crop to the box around what you drew (the same as saying “crop to this”)")

        v = bar.addMenu("&View")
        self._action(v, "Zoom &In", [QKeySequence.StandardKey.ZoomIn, "Ctrl+="], self.canvas.zoom_in)
        self._action(v, "Zoom &Out", QKeySequence.StandardKey.ZoomOut, self.canvas.zoom_out)
        self._action(v, "&Fit to Window", "Ctrl+0", self.canvas.fit)
        self._action(v, "&Actual Pixels (100%)", "Ctrl+1", self.canvas.actual_pixels)
        v.addSeparator()
        self.compare_action = self._action(v, "&Before / After", "Y", self.toggle_compare,
                                           "Compare the current version with the one before it")
        self.compare_original_action = self._action(
            v, "Compare with the &Original", "Shift+Y", self.compare_original)
        v.addSeparator()
        for dock, key in ((self.chat_dock, "Ctrl+Shift+C"), (self.history_dock, "Ctrl+Shift+H")):
            a = dock.toggleViewAction()
            a.setShortcut(QKeySequence(key))
            v.addAction(a)
        self._action(v, "C&lear Overlays", "Ctrl+Shift+X", self.clear_overlays)

        t = bar.addMenu("&Tools")
        group = QActionGroup(self)
        self.tool_actions = {}
        for name, text, key in (("trace", "&Trace (draw where you look)", "T"),
                                ("box", "&Box (select a rectangle)", "B"),
                                ("pan", "&Pan", "H")):
            a = self._action(t, text, key, lambda n=name: self.canvas.set_tool(n))
            a.setCheckable(True)
            group.addAction(a)
            self.tool_actions[name] = a
        self.tool_actions[self.canvas.tool.name].setChecked(True)
        self.canvas.toolChanged.connect(lambda n: self.tool_actions[n].setChecked(True))
        t.addSeparator()
        self._action(t, "Cancel Drawing / Clear Selection", "Esc", self.canvas.cancel_tool)
        t.addSeparator()
        self.speaker_action = self._action(
            t, "&Learned Phrasing for Explanations", "Ctrl+Shift+L", self.set_speaker_phrasing,
            "Open answers to 'what changed?' with the learned relational speaker's sentence")
        self.speaker_action.setCheckable(True)
        self.speaker_action.setChecked(self.controller.settings.speaker_phrasing)
        self.set_speaker_phrasing(self.controller.settings.speaker_phrasing)

        h = bar.addMenu("&Help")
        self._action(h, "&Commands", "F1", self.show_commands)
        self._update_actions()

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        files = self.controller.settings.recent_files()
        for i, path in enumerate(files):
            a = self.recent_menu.addAction(f"&{(i + 1) % 10} {Path(path).name}")
            a.setToolTip(path)
            if i < 9:
                a.setShortcut(QKeySequence(f"Ctrl+Alt+{i + 1}"))
            a.triggered.connect(lambda _c=False, p=path: self.open_path(p))
        self.recent_menu.setEnabled(bool(files))

    def _update_actions(self) -> None:
        has_doc = self.controller.document is not None
        busy = self.controller.busy
        for a in (self.save_action, self.save_as_action, self.export_action, self.save_recipe_action):
            a.setEnabled(has_doc)
        self.undo_action.setEnabled(self.controller.stack.canUndo() and not busy)
        self.redo_action.setEnabled(self.controller.stack.canRedo() and not busy)
        self.stop_action.setEnabled(busy)
        self.open_action.setEnabled(not busy)
        self.reopen_action.setEnabled(not busy)

    def _update_title(self) -> None:
        self.setWindowTitle(self.controller.title())
        self._update_actions()

    def _show_parser(self, name: str) -> None:
        self.model_label.setText(f"Understands: {name}")
        self.model_label.setToolTip("Requests in words are read by the learned command model; "
                                    "commands typed exactly (F1 lists them) always work.")

    def _show_loading(self, text: str) -> None:
        """The status line says what is loading; typed requests wait for it and are answered after."""
        self.loading_label.setText(f"{text} Requests typed now are answered when it is ready."
                                   if text else "")
        self.loading_label.setVisible(bool(text))

    def _index_progress(self, done: int, total: int, name: str) -> None:
        self.index_bar.setRange(0, max(1, total))
        self.index_bar.setValue(done)
        self.index_bar.setToolTip(name)
        self.index_bar.show()
        self.index_stop.show()

    def _index_finished(self, text: str) -> None:
        self.index_bar.hide()
        self.index_stop.hide()
        self.statusBar().showMessage(text, 8000)

    def add_folder_dialog(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Add a folder to the library",
                                                  self.controller.settings.last_dir)
        if folder:
            self.add_folder(folder)

    def add_folder(self, folder: str):
        worker = self.controller.index_folder(folder)
        if worker is not None:
            self.index_bar.setRange(0, 0)  # busy until the first file is done
            self.index_bar.show()
            self.index_stop.show()
        return worker

    def _pointer(self, x: int, y: int) -> None:
        self.pos_label.setText(f"{x}, {y}" if x >= 0 else "")

    # -- view ------------------------------------------------------------------------------------

    def toggle_compare(self) -> None:
        self.tabs.setCurrentIndex(1 - self.tabs.currentIndex())

    def compare_original(self) -> None:
        doc = self.controller.document
        if doc is not None:
            self.compare_with(doc.root.id)

    def compare_with(self, version_id: str) -> None:
        """Show the current version against ``version_id`` (also what ``explain`` compares with)."""
        self.controller.compare_with(version_id)
        self.tabs.setCurrentIndex(1)

    def clear_overlays(self) -> None:
        """View ▸ Clear Overlays (and Esc): boxes, traces and the selection go."""
        self.controller.clear_drawn()
        self.compare.view.overlays = []
        self.compare.view.update()

    def show_commands(self) -> None:
        box = QMessageBox(QMessageBox.Icon.Information, "What Easel understands",
                          "Ask in your own words, or type a command exactly as below.", parent=self)
        box.setInformativeText(self.controller.commands_help())
        self.commands_box = box  # tests read it
        box.open()

    # -- files -----------------------------------------------------------------------------------

    def ask(self, title: str, text: str) -> bool:
        """A yes/no question (tests replace it)."""
        answer = QMessageBox.question(self, title, text)
        return answer == QMessageBox.StandardButton.Yes

    def open_path(self, path: str):
        if self.controller.busy:
            self.statusBar().showMessage("Wait for the current request to finish", 3000)
            return None
        return self.controller.open_path(path)

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open image", self.controller.settings.last_dir, OPEN_FILTER)
        if path:
            self.open_path(path)

    def sessions_dialog(self) -> None:
        dialog = SessionsDialog(self.controller.documents(), self)
        if dialog.exec() and dialog.selected_id:
            self.controller.reopen(dialog.selected_id)

    def save(self) -> bool:
        doc = self.controller.document
        if doc is None:
            return False
        target = self.controller.save_paths.get(doc.id)
        if target is None:
            return self.save_as()  # never write over the file that was opened without asking
        return self._write(target, overwrite=True)

    def _suggested_name(self) -> str:
        doc = self.controller.document
        src = Path(doc.source_path) if doc and doc.source_path else Path(self.controller.settings.last_dir or ".") / "untitled.png"
        suffix = src.suffix.lower() if src.suffix.lower() in SUFFIX_FORMAT else ".png"
        if doc is not None and doc.head.channels == 4 and suffix in (".jpg", ".jpeg", ".bmp"):
            suffix = ".png"  # keep the cut-out's transparency
        return str(src.with_name(f"{src.stem}-edited{suffix}"))

    def save_as(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self, "Save as", self._suggested_name(), SAVE_FILTER)
        if not path:
            return False
        return self._write(path, overwrite=Path(path).exists())  # the dialog asked about replacing

    def export_copy(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self, "Export a copy", self._suggested_name(), SAVE_FILTER)
        if not path:
            return False
        quality = None
        if Path(path).suffix.lower() in (".jpg", ".jpeg", ".webp"):
            quality, ok = QInputDialog.getInt(self, "Quality", "JPEG/WebP quality (1–100):",
                                              self.controller.settings.jpeg_quality, 1, 100)
            if not ok:
                return False
        return self._write(path, overwrite=Path(path).exists(), quality=quality, remember=False)

    def _write(self, path: str, *, overwrite: bool, quality: int | None = None, remember: bool = True) -> bool:
        if self.controller.is_original(path) and not self.ask(
                "Replace the original?",
                f"{Path(path).name} is the photo you opened. Replace it with the edited version?"):
            return False
        try:
            self.controller.save_to(path, quality=quality, overwrite=overwrite, remember=remember)
        except (ImageFileError, OSError) as exc:
            QMessageBox.warning(self, "Cannot save", str(exc))
            return False
        return True

    def save_recipe(self) -> str | None:
        from app.recipes import save_recipe_dialog

        path = save_recipe_dialog(self, self.controller.document, self.controller.settings.last_dir)
        if path:
            self.last_recipe = path
            self.statusBar().showMessage(f"Recipe saved to {path}", 8000)
        return path

    def apply_recipe(self):
        from app.recipes import ApplyRecipeDialog

        self.recipe_dialog = ApplyRecipeDialog(self, recipe_path=getattr(self, "last_recipe", ""),
                                               start_dir=self.controller.settings.last_dir)
        self.recipe_dialog.show()
        return self.recipe_dialog

    def preferences(self) -> None:
        PreferencesDialog(self.controller.settings, self).exec()

    # -- drag and drop ---------------------------------------------------------------------------

    @staticmethod
    def _dropped_file(mime) -> str | None:
        for url in mime.urls() if mime.hasUrls() else []:
            if isinstance(url, QUrl) and url.isLocalFile() and Path(url.toLocalFile()).suffix.lower() in SUFFIX_FORMAT:
                return url.toLocalFile()
        return None

    def dragEnterEvent(self, event) -> None:
        if self._dropped_file(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event) -> None:
        path = self._dropped_file(event.mimeData())
        if path:
            event.acceptProposedAction()
            self.open_path(path)

    # -- start and exit --------------------------------------------------------------------------

    def offer_restore(self) -> bool:
        """After a crash, offer to bring back the conversation that was open."""
        info = self.controller.stale_session
        doc_id = (info or {}).get("document_id")
        row = self.controller.store.document(doc_id) if doc_id else None
        if row is None:
            return False
        title = row["title"]
        pending = (info or {}).get("pending")
        unfinished = f"\nYour request “{pending}” was not finished." if pending else ""
        if not self.ask("Restore session?", f"Easel did not close properly last time.{unfinished}\n"
                                             f"Restore the conversation about {title}?"):
            return False
        self.controller.reopen(doc_id)
        if pending and self.ask("Run the request again?", f"Run “{pending}” again?"):
            self.controller.submit(pending)  # waits for the reopened photo, like any request typed now
        return True

    def _restore_geometry(self) -> None:
        q = self.controller.settings.q
        geometry, state = q.value("window/geometry"), q.value("window/state")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        if isinstance(state, QByteArray):
            self.restoreState(state)

    def closeEvent(self, event) -> None:
        c = self.controller
        if c.document is not None and not c.stack.isClean() and not self.ask(
                "Quit without saving?",
                "The edited image has not been saved to a file. The conversation and every version stay "
                "in Easel's history (File ▸ Reopen Conversation). Quit anyway?"):
            event.ignore()
            return
        q = self.controller.settings.q
        q.setValue("window/geometry", self.saveGeometry())
        q.setValue("window/state", self.saveState())
        self.controller.shutdown()
        self.controller.detach()
        super().closeEvent(event)
