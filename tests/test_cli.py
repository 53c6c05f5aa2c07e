from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

import main
from agent.dialogue.manager import DialogueManager
from editor.document import Document
from editor.imageio import read_image, write_image
from editor.store import Store
from tests.conftest import ROOT


@pytest.fixture
def photo(tmp_path, astronaut):
    exif = Image.Exif()
    exif[0x010F] = "EaselCam"
    path = tmp_path / "photo.jpg"
    Image.fromarray(astronaut).save(path, exif=exif.tobytes(), quality=95)
    return path


def test_apply_runs_commands_in_order(photo, tmp_path, capsys):
    out = tmp_path / "out.png"
    assert main.main(["apply", str(photo), "rotate 270", "adjust_attr brightness 20", "-o", str(out)]) == 0
    src = read_image(photo).pixels
    from editor import ops

    want = ops.adjust_brightness(ops.rotate(src, degrees=270), amount=20)
    got = read_image(out)
    assert np.array_equal(got.pixels, want)
    assert Image.open(out).getexif().get(0x010F) == "EaselCam"
    assert capsys.readouterr().out.splitlines() == ["rotate 270", "adjust_attr brightness 20"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["rotate 9999"], "0 to 360"),
        (["adjust_color magenta 0.2"], "valid colours"),
        (["undo"], "does not edit an image"),
    ],
)
def test_apply_bad_commands(photo, tmp_path, capsys, args, message):
    out = tmp_path / "o.png"
    assert main.main(["apply", str(photo), *args, "-o", str(out)]) == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


def test_apply_never_overwrites_input(photo, capsys):
    before = photo.read_bytes()
    assert main.main(["apply", str(photo), "rotate 90", "-o", str(photo)]) == 2
    assert "--overwrite" in capsys.readouterr().err
    assert photo.read_bytes() == before


def test_apply_corrupt_input(tmp_path, capsys):
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"\xff\xd8\xff garbage")
    assert main.main(["apply", str(bad), "rotate 90", "-o", str(tmp_path / "o.png")]) == 2
    assert "bad.jpg" in capsys.readouterr().err


def test_edit_json_one_object_per_turn(photo, tmp_path, capsys):
    out = tmp_path / "out.png"
    code = main.main(["edit", str(photo), "rotate 90", "flip horizontal", "undo", "--json", "-o", str(out)])
    assert code == 0
    turns = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [t["command"] for t in turns] == ["rotate 90", "flip horizontal", "undo"]
    assert all(t["ok"] for t in turns)
    assert np.array_equal(read_image(out).pixels, np.rot90(read_image(photo).pixels))


def test_edit_reports_what_it_did_not_understand(photo, tmp_path, capsys):
    code = main.main(["edit", str(photo), "rotate 400", "-o", str(tmp_path / "o.png"), "--json"])
    turn = json.loads(capsys.readouterr().out)
    assert code == 1 and not turn["ok"] and "0 to 360" in turn["reply"]


def test_dialogue_manager_history_is_caise_form(tmp_path, rgb_small):
    store = Store(tmp_path / "db.sqlite")
    doc = Document.create(store, rgb_small)
    m = DialogueManager(doc)
    assert m.handle("rotate 90").ok
    r = m.handle("please do something clever")
    assert not r.ok and r.reply.startswith("Sorry") and "I can" in r.reply
    assert m.history[1:4] == ["user_text: rotate 90", "rotate 90", "assistant_text: Rotated 90° counter-clockwise."]
    turns = store.turns(doc.id)
    assert [t["role"] for t in turns] == ["user", "assistant"] * 2
    assert turns[1]["command"] == "rotate 90" and turns[1]["version_id"] == doc.head.id
    assert not m.handle("undo").version.parent_id
    assert not m.handle("undo").ok


def test_cli_entry_point_runs_as_a_script(tmp_path):
    src = write_image(tmp_path / "in.png", np.zeros((4, 4, 3), np.uint8))
    res = subprocess.run(
        [sys.executable, str(ROOT / "main.py"), "apply", str(src), "flip vertical", "-o", str(tmp_path / "o.png")],
        capture_output=True, text=True, timeout=120,
    )
    assert res.returncode == 0, res.stderr


def test_ops_and_cutout_make_no_network_connection(no_network, astronaut):
    from agent.edits.run import execute
    from agent.grammar.commands import parse_command

    for line in ["rotate 45", "adjust_color blue 0.3", "adjust_attr contrast 20", "image_cutout"]:
        execute(parse_command(line), astronaut)


def test_edit_with_a_box_or_a_trace_acts_as_if_drawn_first(photo, tmp_path, capsys):
    """`--box` and `--trace` select before the first request: "brighten this" changes only there."""
    src = read_image(photo).pixels
    out = tmp_path / "box.png"
    assert main.main(["edit", str(photo), "brighten this", "--box", "100", "50", "300", "250", "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "selected with the box" in text and "adjust_attr brightness 20 in selection" in text
    changed = np.any(read_image(out).pixels.astype(int) != src, axis=2)
    ys, xs = np.nonzero(changed)
    assert changed.any() and xs.min() >= 95 and xs.max() < 305 and ys.min() >= 45 and ys.max() < 255
    loop = [[{"x": 0.3 + 0.15 * np.cos(a), "y": 0.3 + 0.15 * np.sin(a), "t": i / 10}
             for i, a in enumerate(np.linspace(0, 2 * np.pi, 30))]]
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps(loop))
    out = tmp_path / "trace.png"
    assert main.main(["edit", str(photo), "make this black and white", "--trace", str(trace), "--json",
                      "-o", str(out)]) == 0
    (turn,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    (line,) = turn["commands"]
    assert line.startswith("grayscale in selection ") and turn["ok"]  # with its stored mask's hash
    edited = read_image(out).pixels
    assert np.array_equal(edited[400:], src[400:])  # far from the loop: unchanged
    assert main.main(["edit", str(photo), "brighten this", "--trace", str(trace), "--box", "1", "2", "3", "4",
                      "-o", str(tmp_path / "both.png")]) == 2
    assert main.main(["edit", str(photo), "brighten this", "--box", "600", "600", "700", "700",
                      "-o", str(tmp_path / "outside.png")]) == 2
