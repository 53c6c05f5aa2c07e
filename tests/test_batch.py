"""Recipes and batches: a conversation's edits saved as command lines, applied to many photos on a
local process pool, never over an original, resumable, with a report line per photo."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest
from PIL import Image

import main
from agent.batch.batch import BatchError, plan, run_batch
from agent.batch.recipes import Recipe, RecipeError, apply
from agent.edits.run import execute
from agent.grammar.commands import parse_command
from editor.imageio import read_image

RECIPE = ["adjust_attr brightness 20", "adjust_attr contrast 15", "adjust_attr brightness 10 in left half",
          "adjust_attr saturation -30"]


def _photos(folder, astronaut):
    """Three small photos: a JPEG with EXIF and an ICC profile, a PNG, and one in a subfolder."""
    folder.mkdir()
    (folder / "sub").mkdir()
    exif = Image.Exif()
    exif[0x010F] = "EaselCam"  # Make
    icc = b"\x00" * 16 + b"fake icc profile for the test"
    Image.fromarray(astronaut[::4, ::4]).save(folder / "a.jpg", exif=exif.tobytes(), icc_profile=icc,
                                              quality=92)
    Image.fromarray(astronaut[100:228, 50:242]).save(folder / "b.png")
    Image.fromarray(astronaut[::8, ::8]).save(folder / "sub" / "c.jpg", quality=90)
    return folder


@pytest.fixture
def photos(tmp_path, astronaut):
    return _photos(tmp_path / "in", astronaut)


def test_recipe_round_trips_and_refuses_what_is_not_an_edit(tmp_path):
    r = Recipe("warm", ["ADJUST_ATTR  brightness 20", "grayscale in sky"])
    assert r.commands == ["adjust_attr brightness 20", "grayscale in sky"]  # canonical lines
    path = r.save(tmp_path / "warm.json")
    assert json.loads(path.read_text()) == {"name": "warm", "commands": r.commands}
    assert Recipe.load(path) == r
    with pytest.raises(RecipeError, match="does not edit"):
        Recipe("x", ["search red bus"])
    with pytest.raises(RecipeError):
        Recipe("x", ["adjust_attr brightness lots"])
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(RecipeError, match="not JSON"):
        Recipe.load(tmp_path / "bad.json")
    with pytest.raises(Exception, match="exists"):
        r.save(path)  # never over a file without overwrite


def test_edit_saves_the_recipe_of_its_conversation(photos, tmp_path, capsys):
    out, recipe = tmp_path / "out.jpg", tmp_path / "look.json"
    code = main.main(["edit", str(photos / "a.jpg"), "adjust_attr brightness 20", "rotate 90", "undo",
                      "grayscale in left half", "-o", str(out), "--save-recipe", str(recipe)])
    assert code == 0
    saved = json.loads(recipe.read_text())
    # the undone rotation is not part of what the person kept
    assert saved == {"name": "look", "commands": ["adjust_attr brightness 20", "grayscale in left half"]}
    # the recipe replays to the same pixels as the conversation made
    src = read_image(photos / "a.jpg").pixels
    assert np.array_equal(apply(Recipe.load(recipe), src).pixels,
                          execute(parse_command("grayscale in left half"),
                                  execute(parse_command("adjust_attr brightness 20"), src)))
    # refused before any request runs: the recipe may not replace the input
    assert main.main(["edit", str(photos / "a.jpg"), "rotate 90", "-o", str(tmp_path / "o2.jpg"),
                      "--save-recipe", str(photos / "a.jpg"), "--overwrite"]) == 2
    assert "input" in capsys.readouterr().err


def test_a_command_that_cannot_apply_is_reported_and_the_others_run(rgb_small):
    done = apply(["adjust_attr brightness 20", "grayscale in selection", "remove selection",
                  "crop 0 0 9999 10"], rgb_small)
    assert done.run == ["adjust_attr brightness 20", "crop 0 0 9999 10"]
    assert [n["command"] for n in done.not_applied] == ["grayscale in selection", "remove selection"]
    assert all("drawn" in n["reason"] for n in done.not_applied)
    assert done.notes and "reaches beyond" in done.notes[0]


def test_batch_writes_every_photo_in_its_format_with_its_metadata(photos, tmp_path):
    out = tmp_path / "out"
    summary = run_batch(Recipe("r", RECIPE), [photos], out, workers=1, progress=False)
    assert (summary.done, summary.skipped, summary.failed) == (3, 0, 0)
    for name in ("a.jpg", "b.png", "sub/c.jpg"):
        src, got = read_image(photos / name), read_image(out / name)
        assert got.meta.format == src.meta.format
        if name.endswith(".png"):  # lossless: exactly the recipe's pixels
            assert np.array_equal(got.pixels, apply(RECIPE, src.pixels).pixels)
    a_in, a_out = Image.open(photos / "a.jpg"), Image.open(out / "a.jpg")
    assert a_out.info.get("icc_profile") == a_in.info.get("icc_profile")
    assert a_out.getexif().get(0x010F) == "EaselCam"
    lines = [json.loads(x) for x in (out / "easel-batch.jsonl").read_text().splitlines()]
    assert {x["status"] for x in lines} == {"done"} and len(lines) == 3
    assert all(x["commands_run"] == RECIPE and x["not_applied"] == [] and x["seconds"] >= 0 for x in lines)
    assert {os.path.basename(x["input"]) for x in lines} == {"a.jpg", "b.png", "c.jpg"}


def test_two_workers_write_the_same_bytes_as_one(photos, tmp_path):
    run_batch(Recipe("r", RECIPE), [photos], tmp_path / "one", workers=1, progress=False)
    s = run_batch(Recipe("r", RECIPE), [photos], tmp_path / "two", workers=2, progress=False)
    assert s.done == 3
    for name in ("a.jpg", "b.png", "sub/c.jpg"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


def test_never_over_an_original_and_resumes_after_a_stop(photos, tmp_path):
    before = {p: p.read_bytes() for p in photos.rglob("*") if p.is_file()}
    with pytest.raises(BatchError, match="original"):
        plan(Recipe("r", RECIPE), [photos], photos)
    out = tmp_path / "out"
    out.mkdir()
    stale = out / ".easel-999999999-abcdef-a.jpg.part"  # what a killed writer leaves
    stale.write_bytes(b"half a photo")
    calls = []
    first = run_batch(Recipe("r", RECIPE), [photos], out, progress=False,
                      on_progress=lambda n, total, line: calls.append(n), should_stop=lambda: bool(calls))
    assert first.stopped and first.done == 1 and "resume" in first.text()
    again = run_batch(Recipe("r", RECIPE), [photos], out, progress=False)
    assert (again.done, again.skipped, again.stopped) == (2, 1, False)
    full = run_batch(Recipe("r", RECIPE), [photos], tmp_path / "full", progress=False)
    assert full.done == 3
    for name in ("a.jpg", "b.png", "sub/c.jpg"):
        assert (out / name).read_bytes() == (tmp_path / "full" / name).read_bytes()
    assert not list(out.rglob("*.part"))
    assert {p: p.read_bytes() for p in photos.rglob("*") if p.is_file()} == before
    statuses = [json.loads(x)["status"] for x in (out / "easel-batch.jsonl").read_text().splitlines()]
    assert statuses.count("done") == 3 and statuses.count("skipped") == 1


def test_cli_batch_reports_unreadable_photos_and_can_change_the_format(photos, tmp_path, capsys):
    (photos / "broken.jpg").write_bytes(b"not a jpeg")
    recipe = Recipe("r", RECIPE).save(tmp_path / "r.json")
    out = tmp_path / "out"
    code = main.main(["batch", str(recipe), str(photos), "-o", str(out), "--format", "png", "-q"])
    assert code == 1  # one photo failed
    assert "3 done" in capsys.readouterr().out
    assert sorted(p.name for p in out.rglob("*.png")) == ["a.png", "b.png", "c.png"]
    failed = [json.loads(x) for x in (out / "easel-batch.jsonl").read_text().splitlines()
              if json.loads(x)["status"] == "failed"]
    assert [os.path.basename(x["input"]) for x in failed] == ["broken.jpg"] and failed[0]["error"]
    assert main.main(["batch", str(tmp_path / "none.json"), str(photos), "-o", str(out)]) == 2
    assert main.main(["batch", str(recipe), str(photos), "-o", str(out), "--workers", "0"]) == 2


def test_pool_keeps_the_order_when_asked_and_returns_errors_as_results():
    from agent.batch.pool import imap

    items = [-3, 1, -2, "x", 5]
    for workers in (1, 2):
        got = list(imap(abs, items, workers=workers, ordered=True))
        assert [i for i, _ in got] == [0, 1, 2, 3, 4]
        assert [r for _, r in got if not isinstance(r, Exception)] == [3, 1, 2, 5]
        assert isinstance(got[3][1], TypeError)  # abs("x"): reported, the rest still ran
