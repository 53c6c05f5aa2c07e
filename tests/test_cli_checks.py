"""Every entry point checks its arguments before working, and no input ends in a traceback."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile

import numpy as np
import pytest

import agent.dialogue.assistant
import main
from agent.dialogue.manager import DialogueManager, GrammarParser
from agent.grammar.turns import Prediction, TurnResult
from editor.document import Document
from editor.imageio import read_image, write_image


@pytest.fixture
def photo(tmp_path):
    rng = np.random.default_rng(7)
    return write_image(tmp_path / "in.png", rng.integers(0, 256, (30, 40, 3), dtype=np.uint8))


@pytest.fixture
def grammar_only(monkeypatch):
    monkeypatch.setattr(agent.dialogue.assistant, "load_parser", GrammarParser)


@pytest.mark.parametrize("output, extra, message", [
    ("missing/out.png", [], "no such folder"),
    ("in.png", [], "is the input file"),
    ("out.xyz", [], "unknown file type"),
    ("exists.png", [], "exists"),
    ("folder.png", ["--overwrite"], "is a folder"),
])
def test_edit_checks_the_output_before_running_any_request(photo, tmp_path, monkeypatch, capsys,
                                                            grammar_only, output, extra, message):
    (tmp_path / "exists.png").write_bytes(b"x")
    (tmp_path / "folder.png").mkdir()
    ran = []
    monkeypatch.setattr(DialogueManager, "handle", lambda self, u: ran.append(u))
    code = main.main(["edit", str(photo), "rotate 90", "-o", str(tmp_path / output), *extra])
    assert code == 2 and ran == []
    assert message in capsys.readouterr().err


def test_apply_to_an_existing_folder_with_overwrite_is_refused(photo, tmp_path, capsys):
    (tmp_path / "folder.png").mkdir()
    code = main.main(["apply", str(photo), "rotate 90", "-o", str(tmp_path / "folder.png"), "--overwrite"])
    err = capsys.readouterr().err
    assert code == 2 and "is a folder" in err and "Traceback" not in err
    assert (tmp_path / "folder.png").is_dir()


def test_a_crop_beyond_the_image_is_said(photo, tmp_path, capsys, grammar_only):
    out = tmp_path / "out.png"
    assert main.main(["apply", str(photo), "crop 0 0 999999 999999", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "beyond the 40x30 image" in err and "kept 0 0 40 30" in err
    assert np.array_equal(read_image(out).pixels, read_image(photo).pixels)
    assert main.main(["edit", str(photo), "crop 10 5 100 20", "-o", str(tmp_path / "e.png"), "--json"]) == 0
    reply = json.loads(capsys.readouterr().out)["reply"]
    assert "beyond the 40x30 image" in reply and "kept 10 5 40 20" in reply
    assert read_image(tmp_path / "e.png").pixels.shape == (15, 30, 3)


def test_numbers_out_of_range_and_long_commands(photo, tmp_path, capsys):
    assert main.main(["apply", str(photo), "rotate 1e9", "-o", str(tmp_path / "o.png")]) == 2
    err = capsys.readouterr().err
    assert "out of range" in err and "not a number" not in err
    huge = "adjust_color " + "b" * 40000 + " 1"
    assert main.main(["apply", str(photo), huge, "-o", str(tmp_path / "o.png")]) == 2
    err = capsys.readouterr().err
    assert "unknown colour" in err and len(err) < 1000
    assert main.main(["apply", str(photo), "search " + "cat " * 10000, "-o", str(tmp_path / "o.png")]) == 2
    assert len(capsys.readouterr().err) < 1000


def _bad_inputs(tmp_path, photo) -> list[list[str]]:
    garbage = tmp_path / "garbage.jpg"
    garbage.write_bytes(b"\xff\xd8\xff" + bytes(range(256)) * 4)
    bad_trace = tmp_path / "trace.json"
    bad_trace.write_text('[[{"x": "left"}]]')
    o = str(tmp_path / "o.png")
    return [
        ["apply", str(tmp_path / "nope.png"), "rotate 90", "-o", o],
        ["apply", str(tmp_path), "rotate 90", "-o", o],
        ["apply", str(garbage), "rotate 90", "-o", o],
        ["apply", str(photo), "", "-o", o],
        ["apply", str(photo), "crop 0 0 " + "9" * 5000 + " 1", "-o", o],
        ["apply", str(photo), "crop 5 5 5 5", "-o", o],
        ["apply", str(photo), "rotate 90", "-o", o, "--quality", "0"],
        ["apply", str(photo), "rotate 90", "-o", "/proc/easel/o.png"],
        ["apply", str(photo), "rotate 90", "-o", str(photo) + "/x.png"],
        ["edit", str(photo), "rotate 90", "-o", o, "--db", str(tmp_path)],
        ["edit", str(garbage), "rotate 90", "-o", o],
        ["explain", str(photo), str(garbage)],
        ["caption", str(photo), "--trace", str(bad_trace)],
        ["caption", str(photo), "--trace", str(tmp_path / "none.json")],
        ["caption", str(photo), "--draw", str(tmp_path / "x" / "d.png")],
        ["locate", str(garbage), "a cat"],
        ["search", "cat", "--limit", "0"],
        ["index", str(tmp_path / "nowhere")],
        ["index", str(tmp_path), "--db", str(tmp_path)],
        ["search", "cat", "--db", str(tmp_path)],
        ["search", "cat", "--db", str(garbage)],
        ["edit", str(photo), "rotate 90", "-o", o, "--db", str(garbage)],
        ["annotate", "stats", "--db", str(garbage)],
        ["annotate", "export", "--format", "caise", str(tmp_path / "none" / "x.json")],
    ]


def test_no_bad_input_ends_in_a_traceback(photo, tmp_path, capsys, grammar_only):
    for argv in _bad_inputs(tmp_path, photo):
        try:
            code = main.main(argv)  # an exception escaping here is what a person sees as a traceback
            err = capsys.readouterr().err
        except SystemExit as exc:  # sys.exit("easel: ...") prints the message, exit status 1
            code, err = (1, str(exc.code)) if isinstance(exc.code, str) else (exc.code, capsys.readouterr().err)
        # 3 is the catch-all for bugs: a bad input must get its own message
        assert code in (1, 2) and err.startswith("easel:") and "Traceback" not in err, (argv[:3], err)
        assert len(err) < 2000


def test_an_internal_error_is_reported_in_one_line(photo, tmp_path, monkeypatch, capsys):
    import agent.edits.run

    def boom(command, pixels):
        raise RuntimeError("a bug")

    monkeypatch.setattr(agent.edits.run, "execute", boom)
    assert main.main(["apply", str(photo), "rotate 90", "-o", str(tmp_path / "o.png")]) == 3
    assert "RuntimeError: a bug" in capsys.readouterr().err


def _with_search(monkeypatch, tmp_path):
    """``search`` opens another photo, as the library's handler does."""
    other = np.arange(8 * 8 * 3, dtype=np.uint8).reshape(8, 8, 3)
    real = agent.dialogue.assistant.build_manager

    class ReadsSearch:  # the learned model reading "find me a sandwich" as a search
        def predict(self, history, concepts):
            return Prediction("search sandwich", 0.9)

    def build(document=None, **kwargs):
        manager = real(document, parser=ReadsSearch(), **kwargs)
        manager.concepts = lambda doc: []

        def search(manager, command):
            doc = Document.create(manager.document.store, other, title="someone_else.jpg",
                                  source_path=str(tmp_path / "library" / "someone_else.jpg"))
            manager.document = doc
            return TurnResult(command.format(), "Here is someone_else.jpg.", command, doc.head)

        manager.handlers["search"] = search
        return manager

    monkeypatch.setattr(agent.dialogue.assistant, "build_manager", build)
    return other


def test_a_search_in_edit_does_not_silently_become_the_output(photo, tmp_path, monkeypatch, capsys):
    other = _with_search(monkeypatch, tmp_path)
    out = tmp_path / "out.png"
    # "make me a sandwich" is not even read as a search any more (no words ask for a photo)
    assert main.main(["edit", str(photo), "make me a sandwich", "-o", str(out)]) == 1
    assert "became a search" not in capsys.readouterr().err
    out.unlink()
    assert main.main(["edit", str(photo), "find me a sandwich", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "became a search" in err and "someone_else.jpg" in err and not out.exists()
    assert main.main(["edit", str(photo), "find me a sandwich", "flip vertical", "-o", str(out),
                      "--found-photo"]) == 0
    assert "someone_else.jpg" in capsys.readouterr().err
    assert np.array_equal(read_image(out).pixels, other[::-1])
    out.unlink()
    # typed as a command, the search asks for the photo: it is written (and said)
    assert main.main(["edit", str(photo), "search sandwich", "-o", str(out)]) == 0
    assert "someone_else.jpg" in capsys.readouterr().err
    assert np.array_equal(read_image(out).pixels, other)


def test_edit_without_db_cleans_up_after_itself_and_after_killed_runs(photo, tmp_path, monkeypatch,
                                                                      grammar_only):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()  # a process id that no longer runs: a killed edit's folder
    left = tmp_path / "tmp" / f"{main.EDIT_TMP_PREFIX}{dead.pid}-abc"
    (left / "versions" / "ab").mkdir(parents=True)
    (left / "easel.db").write_bytes(b"x" * 1000)
    running = tmp_path / "tmp" / f"{main.EDIT_TMP_PREFIX}{os_getpid()}-zzz"  # a run still going
    running.mkdir()
    assert main.main(["edit", str(photo), "rotate 90", "-o", str(tmp_path / "o.png")]) == 0
    assert not left.exists() and running.exists()
    assert sorted(p.name for p in (tmp_path / "tmp").iterdir()) == [running.name]


def os_getpid() -> int:
    import os

    return os.getpid()
