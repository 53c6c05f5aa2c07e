"""File ▸ Save Edits as Recipe… and File ▸ Apply Recipe to Photos…: the window's side of
:mod:`agent.batch` (a conversation's edits as a recipe; a recipe applied to a folder or a selection
of photos in a worker thread, with a progress bar, Stop, and a summary)."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from agent.batch.recipes import Recipe, RecipeError
from app.workers import Workers

RECIPE_FILTER = "Recipes (*.json);;All files (*)"
PHOTO_FILTER = "Photos (*.jpg *.jpeg *.png *.webp *.tif *.tiff *.bmp)"


def save_recipe_dialog(parent, document, start_dir: str = "") -> str | None:
    """Ask where, then save the edits that made the current version; the path, or None."""
    if document is None:
        return None
    recipe = Recipe.from_document(document)
    if not recipe.commands:
        QMessageBox.information(parent, "No edits yet", "This photo has no edits to save as a recipe yet.")
        return None
    stem = Path(document.title or "recipe").stem
    path, _ = QFileDialog.getSaveFileName(parent, "Save edits as recipe",
                                          str(Path(start_dir or ".") / f"{stem}-recipe.json"), RECIPE_FILTER)
    if not path:
        return None
    recipe.name = Path(path).stem
    try:
        recipe.save(path, overwrite=Path(path).exists())  # the dialog asked about replacing
    except (RecipeError, OSError, ValueError) as exc:
        QMessageBox.warning(parent, "Cannot save the recipe", str(exc))
        return None
    return path


class ApplyRecipeDialog(QDialog):
    """Choose a recipe, photos (a folder or files) and an output folder; run; Stop; a summary."""

    def __init__(self, parent=None, *, recipe_path: str = "", start_dir: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("Apply recipe to photos")
        self.resize(640, 520)
        self.start_dir = start_dir
        self.workers = Workers(self, max_threads=1)
        self.worker = None
        self.summary = None
        self.recipe_edit = QLineEdit(recipe_path)
        self.recipe_edit.textChanged.connect(self._show_recipe)
        self.recipe_label = QLabel()
        self.recipe_label.setWordWrap(True)
        self.inputs = QListWidget()
        self.out_edit = QLineEdit()
        self.count = QSpinBox()
        self.count.setRange(1, max(1, os.cpu_count() or 1))
        self.count.setValue(1)
        self.bar = QProgressBar()
        self.bar.setRange(0, 1)
        self.bar.setValue(0)
        self.status = QLabel("")
        self.status.setWordWrap(True)
        self.report = QPlainTextEdit()
        self.report.setReadOnly(True)
        self.report.setPlaceholderText("What each photo got, and what could not apply, shows here.")

        def browse_row(edit: QLineEdit, slot) -> QWidget:
            w = QWidget()
            row = QHBoxLayout(w)
            row.setContentsMargins(0, 0, 0, 0)
            row.addWidget(edit)
            b = QPushButton("Browse…")
            b.clicked.connect(slot)
            row.addWidget(b)
            return w

        add = QWidget()
        add_row = QHBoxLayout(add)
        add_row.setContentsMargins(0, 0, 0, 0)
        for text, slot in (("Add Folder…", self.add_folder), ("Add Photos…", self.add_photos),
                           ("Clear", self.inputs.clear)):
            b = QPushButton(text)
            b.clicked.connect(slot)
            add_row.addWidget(b)
        add_row.addStretch(1)
        form = QFormLayout()
        form.addRow("Recipe:", browse_row(self.recipe_edit, self.choose_recipe))
        form.addRow("", self.recipe_label)
        form.addRow("Photos:", self.inputs)
        form.addRow("", add)
        form.addRow("Save to folder:", browse_row(self.out_edit, self.choose_output))
        form.addRow("Worker processes:", self.count)
        self.buttons = QDialogButtonBox()
        self.start_button = self.buttons.addButton("Start", QDialogButtonBox.ButtonRole.AcceptRole)
        self.stop_button = self.buttons.addButton("Stop", QDialogButtonBox.ButtonRole.ActionRole)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.start_button.clicked.connect(self.start)
        self.stop_button.clicked.connect(self.stop)
        self.close_button.clicked.connect(self.reject)
        self.stop_button.setEnabled(False)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.bar)
        layout.addWidget(self.status)
        layout.addWidget(self.report, 1)
        layout.addWidget(self.buttons)
        self._show_recipe()

    # -- choosing --------------------------------------------------------------------------------

    def _recipe(self) -> Recipe | None:
        path = self.recipe_edit.text().strip()
        if not path:
            return None
        try:
            return Recipe.load(path)
        except RecipeError as exc:
            self.recipe_label.setText(str(exc))
            return None

    def _show_recipe(self) -> None:
        recipe = self._recipe()
        if recipe is not None:
            self.recipe_label.setText(f"{recipe.name}: " + "; ".join(recipe.commands))
        elif not self.recipe_edit.text().strip():
            self.recipe_label.setText("Save one from a conversation with File ▸ Save Edits as Recipe…")

    def choose_recipe(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Choose a recipe", self.start_dir, RECIPE_FILTER)
        if path:
            self.recipe_edit.setText(path)

    def add_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Photos in a folder", self.start_dir)
        if folder:
            self.add_inputs([folder])

    def add_photos(self) -> None:
        files, _ = QFileDialog.getOpenFileNames(self, "Choose photos", self.start_dir, PHOTO_FILTER)
        self.add_inputs(files)

    def add_inputs(self, paths: list[str]) -> None:
        have = {self.inputs.item(i).text() for i in range(self.inputs.count())}
        for p in paths:
            if p not in have:
                self.inputs.addItem(p)
        if paths and not self.out_edit.text():
            first = Path(paths[0])
            base = first if first.is_dir() else first.parent
            self.out_edit.setText(str(base.parent / f"{base.name}-edited"))

    def choose_output(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Save the edited photos in", self.start_dir)
        if folder:
            self.out_edit.setText(folder)

    # -- running ---------------------------------------------------------------------------------

    def start(self):
        from agent.batch.batch import run_batch

        recipe = self._recipe()
        inputs = [self.inputs.item(i).text() for i in range(self.inputs.count())]
        out = self.out_edit.text().strip()
        problem = ("Choose a recipe." if recipe is None else "Add a folder or some photos." if not inputs
                   else "Choose a folder to save the edited photos in." if not out else "")
        if problem:
            self.status.setText(problem)
            return None
        self.report.clear()
        self.summary = None
        self.bar.setRange(0, 0)  # busy until the first photo is done
        self.status.setText("Starting…")
        self._running(True)
        workers = self.count.value()

        def job(worker):
            def progress(done, total, line):
                worker.progress(int(100 * done / max(1, total)), f"{done} of {total} photos\t{_line_text(line)}")

            return run_batch(recipe, inputs, out, workers=workers, progress=False, on_progress=progress,
                             should_stop=lambda: worker.cancelled)

        self.worker = self.workers.start(job, name="batch", on_result=self._done, on_error=self._failed,
                                         on_progress=self._progress, on_finished=lambda: self._running(False))
        return self.worker

    def stop(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
            self.status.setText("Stopping after the photos under way…")

    def _running(self, on: bool) -> None:
        self.start_button.setEnabled(not on)
        self.stop_button.setEnabled(on)
        self.close_button.setEnabled(not on)

    def _progress(self, percent: int, text: str) -> None:
        counted, _, line = text.partition("\t")
        self.bar.setRange(0, 100)
        self.bar.setValue(percent)
        if not (self.worker is not None and self.worker.cancelled):
            self.status.setText(f"Working: {counted} done…")
        self.report.appendPlainText(line)

    def _done(self, summary) -> None:
        self.summary = summary
        self.bar.setRange(0, 100)
        self.bar.setValue(100 if not summary.stopped else self.bar.value())
        self.status.setText(("Stopped: " if summary.stopped else "Done: ") + summary.text())

    def _failed(self, message: str) -> None:
        self.bar.setRange(0, 100)
        self.status.setText(message.splitlines()[0])

    def reject(self) -> None:
        if self.worker is not None and not self.worker.done:
            self.stop()
            return  # Close is disabled while it runs; Esc asks it to stop first
        super().reject()


def _line_text(line: dict) -> str:
    name = Path(line.get("input", "")).name
    if line.get("status") != "done":
        return f"{name}: {line.get('status')} — {line.get('error') or line.get('reason', '')}"
    missed = line.get("not_applied") or []
    if not missed:
        return f"{name}: all {len(line.get('commands_run', []))} edits"
    why = "; ".join(f"{m['command']} ({m['reason']})" for m in missed)
    return f"{name}: {len(line['commands_run'])} edits; not applied: {why}"
