"""The window's recipes: File ▸ Save Edits as Recipe… writes the conversation's edits; File ▸ Apply
Recipe to Photos… runs a batch in a worker thread with a progress bar, Stop and a summary."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from agent.batch.recipes import Recipe
from tests.test_app import make_window, open_photo, say

pytestmark = pytest.mark.gui


@pytest.fixture
def folder(tmp_path, astronaut):
    d = tmp_path / "shoot"
    d.mkdir()
    for i in range(4):
        Image.fromarray(astronaut[i * 8::4, ::4]).save(d / f"p{i}.png")
    return d


def test_save_edits_as_recipe_then_apply_it_to_a_folder(qtbot, tmp_path, folder, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    w = make_window(qtbot, tmp_path)
    open_photo(qtbot, w, folder / "p0.png")
    assert w.save_recipe_action.isEnabled()
    say(qtbot, w, "adjust_attr brightness 20")
    say(qtbot, w, "grayscale in left half")
    target = tmp_path / "look.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    assert w.save_recipe() == str(target)
    assert json.loads(target.read_text())["commands"] == ["adjust_attr brightness 20", "grayscale in left half"]

    dialog = w.apply_recipe()
    assert dialog.recipe_edit.text() == str(target)  # the recipe just saved
    assert "grayscale in left half" in dialog.recipe_label.text()
    dialog.add_inputs([str(folder)])
    assert dialog.out_edit.text() == str(tmp_path / "shoot-edited")  # never the photos' own folder
    worker = dialog.start()
    assert not dialog.start_button.isEnabled() and dialog.stop_button.isEnabled()
    qtbot.waitUntil(lambda: dialog.summary is not None, timeout=60000)
    qtbot.waitUntil(lambda: dialog.start_button.isEnabled(), timeout=5000)
    assert worker.done and dialog.summary.done == 4
    assert dialog.bar.value() == 100 and dialog.status.text().startswith("Done: 4 done")
    assert sorted(p.name for p in (tmp_path / "shoot-edited").glob("*.png")) == [f"p{i}.png" for i in range(4)]
    assert dialog.report.toPlainText().count("all 2 edits") == 4
    w.controller.workers.wait(5000)


def test_stop_ends_the_batch_and_a_second_start_resumes(qtbot, tmp_path, folder, monkeypatch):
    import time

    from agent.batch import batch
    from app.recipes import ApplyRecipeDialog

    process = batch.process
    stopping = [True]

    def after_the_first_wait_for_stop(job):  # no photo after the first finishes before Stop
        if stopping[0] and not job.input.endswith("p0.png"):
            t0 = time.monotonic()
            while dialog.worker is not None and not dialog.worker.cancelled and time.monotonic() - t0 < 20:
                time.sleep(0.01)
        return process(job)

    monkeypatch.setattr(batch, "process", after_the_first_wait_for_stop)

    recipe = Recipe("r", ["adjust_attr contrast 20", "grayscale in selection"]).save(tmp_path / "r.json")
    dialog = ApplyRecipeDialog(recipe_path=str(recipe))
    qtbot.addWidget(dialog)
    dialog.add_inputs([str(folder / f"p{i}.png") for i in range(4)])
    dialog.out_edit.setText(str(tmp_path / "out"))
    dialog._progress = lambda *a, d=dialog._progress: (d(*a), dialog.stop())  # Stop after the first photo
    dialog.start()
    qtbot.waitUntil(lambda: dialog.summary is not None, timeout=60000)
    first = dialog.summary
    assert first.stopped and first.done in (1, 2)  # Stop came after photo 1 (photo 2 finishes if started)
    assert dialog.status.text().startswith("Stopped:") and "resume" in dialog.status.text()
    assert "not applied: grayscale in selection" in dialog.report.toPlainText()
    stopping[0] = False
    dialog._progress = lambda *a: None
    qtbot.waitUntil(lambda: dialog.start_button.isEnabled(), timeout=5000)
    dialog.start()
    qtbot.waitUntil(lambda: dialog.summary is not None and not dialog.summary.stopped, timeout=60000)
    assert (dialog.summary.done, dialog.summary.skipped) == (4 - first.done, first.done)
    assert dialog.summary.incomplete == 4 - first.done  # each said which command could not apply
    qtbot.waitUntil(lambda: dialog.start_button.isEnabled(), timeout=5000)
