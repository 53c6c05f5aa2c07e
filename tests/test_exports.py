"""Exports and imports (CAISE, Localized Narratives, Image Editing Request) and annotator statistics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import missing_shared_data

from agent.grammar.commands import parse_command
from editor import exports
from editor.annotations import AnnotationStore
from editor.store import Store

_ROOT = Path(__file__).resolve().parent.parent
# /work/main/../shared in the main checkout, /work/wt/<name>/../../shared in a worktree
CAISE = next((p / "shared" / "data" / "caise" for p in (_ROOT.parent, _ROOT.parent.parent)
              if (p / "shared" / "data" / "caise" / "md_valid.json").exists()), _ROOT.parent / "shared")
@pytest.fixture
def needs_caise_data():
    if not (CAISE / "md_valid.json").exists():
        missing_shared_data("CAISE's md_valid.json (../shared/data/caise)")


needs_caise = pytest.mark.usefixtures("needs_caise_data")


@pytest.fixture
def ann(tmp_path):
    store = Store(tmp_path / "easel.db")
    yield AnnotationStore(store)
    store.close()


def record_dialogue(ann, user="ann", assistant="bob", item="seeds-1", commands=None):
    """A dialogue recorded the way the annotator windows record one."""
    commands = commands or ["search kids umbrella", "rotate 270", "crop 10 10 200 200",
                            "adjust_attr brightness 40", "undo", "image_cutout"]
    rec = ann.open_session("dialogue", item=item)
    name = rec.session.name
    rec.record("seed", data={"seeds": ["a.png"], "suggestions": ["rotate", "search", "crop", "contrast"]})
    rec.record("assistant_text", text="How may I help you?", role="assistant", annotator=assistant)
    rec.record("user_text", text="I want a kids umbrella", role="user", annotator=user)
    for loads, cmd in enumerate(commands, 1):
        rec.record("command", text=cmd, role="assistant", annotator=assistant, data={"ok": True})
        rec.record("image_load", text=f"{name}_image_{loads}", role="assistant", annotator=assistant)
        rec.record("assistant_text", text="Like this?", role="assistant", annotator=assistant)
        rec.record("user_text", text="yes, now the next thing", role="user", annotator=user)
    rec.record("end", role="user", annotator=user)
    return rec


@needs_caise
def test_md_valid_import_then_export_is_byte_identical(ann, tmp_path):
    src = CAISE / "md_valid.json"
    result = exports.import_file(ann, "caise", src)
    assert result.sessions == 262
    out = tmp_path / "valid.json"
    assert exports.export(ann, "caise", out) == 1002
    assert out.read_text() == src.read_text()
    again = exports.import_file(ann, "caise", src)
    assert again.sessions == 0 and again.skipped == 262


def test_local_dialogue_exports_one_instance_per_target_command(ann, tmp_path):
    rec = record_dialogue(ann)
    name = rec.session.name
    out = tmp_path / "local.json"
    assert exports.export(ann, "caise", out) == 4  # crop and undo stay in the history only
    data = json.loads(out.read_text())
    assert [d["api"] for d in data] == ["search kids umbrella", "rotate 270",
                                        "adjust_attr brightness 40", "image_cutout"]
    assert [d["uid"] for d in data] == [f"{name}_{k}" for k in range(4)]
    first, second, last = data[0], data[1], data[-1]
    assert first["history_utte"] == ["assistant_text: How may I help you?", "user_text: I want a kids umbrella"]
    assert first["history_img"] == []
    assert second["history_utte"][2:5] == ["search kids umbrella", "image_load: 1", "assistant_text: Like this?"]
    assert second["history_img"] == [f" {name}_image_1"]
    assert "crop 10 10 200 200" in last["history_utte"] and "undo" in last["history_utte"]
    assert last["history_img"][-1] == f" {name}_image_5"
    assert last["history_utte"][-2:] == ["assistant_text: Like this?", "user_text: yes, now the next thing"]


def read_caise_like_the_training_loader(path):
    """The CAISE loader shape: a JSON list of {api, history_img, history_utte, uid}."""
    instances = json.loads(Path(path).read_text())
    assert isinstance(instances, list)
    for inst in instances:
        assert set(inst) == {"api", "history_img", "history_utte", "uid"}
        assert isinstance(inst["api"], str) and isinstance(inst["uid"], str)
        assert all(isinstance(h, str) for h in inst["history_utte"])
        assert all(isinstance(h, str) and h.startswith(" ") for h in inst["history_img"])
    return instances


@needs_caise
def test_export_is_a_valid_caise_training_file(ann, tmp_path):
    record_dialogue(ann, item="a")
    record_dialogue(ann, item="b", commands=["search red car", "adjust_color blue .25", "flip horizontal",
                                             "adjust_attr contrast -20", "rotate 90"])
    exports.import_file(ann, "caise", CAISE / "md_valid.json")
    out = tmp_path / "extra.json"
    exports.export(ann, "caise", out)
    instances = read_caise_like_the_training_loader(out)
    exports.check_caise(instances)
    assert len(instances) == 4 + 4 + 1002
    assert len({i["uid"] for i in instances}) == len(instances)
    for inst in instances:
        assert parse_command(inst["api"]).format() == inst["api"].strip()
        for line in inst["history_utte"]:
            if not line.startswith(("user_text: ", "assistant_text: ", "image_load: ")):
                parse_command(line)  # every command in a history parses too


@needs_caise
def test_all_commands_makes_every_executed_command_an_instance(ann, tmp_path):
    record_dialogue(ann)
    valid = exports.load_caise(CAISE / "md_valid.json")
    with_crop = {i["uid"].rsplit("_", 1)[0] for i in valid if any(h.startswith("crop") for h in i["history_utte"])}
    keep = sorted(with_crop)[:3]  # three dialogues whose crops are history-only in CAISE
    caise = [i for i in valid if i["uid"].rsplit("_", 1)[0] in keep]
    exports.import_caise(ann, caise)
    out = tmp_path / "all.json"
    # recorded dialogues get every command; imported CAISE keeps its own instances exactly
    assert exports.export(ann, "caise", out, all_commands=True) == 6 + len(caise)
    assert json.loads(out.read_text())[6:] == caise
    apis = [i["api"] for i in json.loads(out.read_text())[:6]]
    assert apis[2:5] == ["crop 10 10 200 200", "adjust_attr brightness 40", "undo"]
    for api in apis:
        parse_command(api)


def test_caise_round_trip_of_local_sessions(ann, tmp_path):
    record_dialogue(ann)
    a = tmp_path / "a.json"
    exports.export(ann, "caise", a)
    ann2 = AnnotationStore(Store(tmp_path / "other" / "easel.db"))
    exports.import_file(ann2, "caise", a)
    b = tmp_path / "b.json"
    exports.export(ann2, "caise", b)
    assert a.read_text() == b.read_text()


def test_bad_caise_files_get_clear_errors(ann, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(exports.FormatError, match="not a readable JSON"):
        exports.import_file(ann, "caise", bad)
    bad.write_text(json.dumps([{"api": "rotate 90", "uid": "x_0"}]))
    with pytest.raises(exports.FormatError, match="exactly api"):
        exports.import_file(ann, "caise", bad)
    broken = [{"api": "rotate 90", "history_img": [], "history_utte": ["user_text: a"], "uid": "d_0"},
              {"api": "rotate 90", "history_img": [], "history_utte": ["user_text: b"], "uid": "d_1"}]
    bad.write_text(json.dumps(broken))
    with pytest.raises(exports.FormatError, match="does not continue"):
        exports.import_file(ann, "caise", bad)
    with pytest.raises(ValueError, match="unknown export format"):
        exports.export(ann, "coco", tmp_path / "x")


def record_narrative(ann, annotator="ann", item="astronaut", words=("a", "woman", "in", "a", "suit")):
    rec = ann.open_session("narrative", item=item)
    rec.record("image", annotator=annotator, data={"dataset_id": "easel", "image_id": item})
    text, t = "", 0.0
    rec.record("stroke", annotator=annotator)
    for i, word in enumerate(words):
        for ch in (" " if i else "") + word:
            text += ch
            t += 0.1
            rec.record("text", text=text, annotator=annotator, data={"t": round(t, 3)})
            rec.record("point", annotator=annotator, data={"x": round(t / 10, 4), "y": 0.5, "t": round(t, 3)})
    rec.record("end", text=text, annotator=annotator)
    return rec


def test_ln_export_aligns_words_and_round_trips(ann, tmp_path):
    record_narrative(ann)
    out = tmp_path / "ln.jsonl"
    assert exports.export(ann, "ln", out) == 1
    (rec,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert list(rec) == ["dataset_id", "image_id", "annotator_id", "caption", "timed_caption", "traces"]
    assert rec["caption"] == "a woman in a suit"
    assert [w["utterance"] for w in rec["timed_caption"]] == ["a", "woman", "in", "a", "suit"]
    # "woman" starts when its w was typed (the 3rd keystroke, t=0.3), ends when "in" starts
    assert rec["timed_caption"][1]["start_time"] == pytest.approx(0.3)
    assert rec["timed_caption"][1]["end_time"] == rec["timed_caption"][2]["start_time"]
    assert len(rec["traces"]) == 1 and all(set(p) == {"x", "y", "t"} for p in rec["traces"][0])

    ann2 = AnnotationStore(Store(tmp_path / "other" / "easel.db"))
    exports.import_file(ann2, "ln", out)
    out2 = tmp_path / "ln2.jsonl"
    exports.export(ann2, "ln", out2)
    assert out.read_text() == out2.read_text()


def test_ier_export_groups_annotators_drops_invalid_and_round_trips(ann, tmp_path):
    pair = {"img0": "a.jpg", "img1": "a_edit.jpg", "uid": "p1"}
    for who, text in (("ann", "make it brighter"), ("bob", "brighten the image")):
        rec = ann.open_session("pair", item="p1")
        rec.record("pair", annotator=who, data=pair)
        rec.record("instruction", text=text, annotator=who)
        rec.record("end", annotator=who)
    rec = ann.open_session("pair", item="p2")
    rec.record("pair", annotator="ann", data={"img0": "b.jpg", "img1": "c.jpg", "uid": "p2"})
    rec.record("invalid", text="unrelated images", annotator="ann")
    rec.record("end", annotator="ann")
    out = tmp_path / "ier.json"
    assert exports.export(ann, "ier", out) == 1
    assert json.loads(out.read_text()) == [
        {"img0": "a.jpg", "img1": "a_edit.jpg", "sents": ["make it brighter", "brighten the image"], "uid": "p1"}]
    ann2 = AnnotationStore(Store(tmp_path / "other" / "easel.db"))
    exports.import_file(ann2, "ier", out)
    out2 = tmp_path / "ier2.json"
    exports.export(ann2, "ier", out2)
    assert out.read_text() == out2.read_text()


def test_stats_items_times_types_and_agreement(ann):
    record_dialogue(ann, user="u1", assistant="bob", item="same")
    record_dialogue(ann, user="u2", assistant="cat", item="same",
                    commands=["search kids umbrella", "rotate 90", "crop 10 10 200 200",
                              "adjust_attr brightness 40", "undo", "image_cutout"])
    for who, text in (("ann", "make it brighter"), ("bob", "make the image brighter")):
        rec = ann.open_session("pair", item="p1")
        rec.record("pair", annotator=who, data={"img0": "a", "img1": "b", "uid": "p1"})
        rec.record("instruction", text=text, annotator=who)
        rec.record("end", annotator=who)
    stats = exports.compute_stats(ann)
    bob = stats["annotators"]["bob"]
    assert bob["items"] == {"dialogue": 1, "pair": 1}
    assert bob["command_types"] == {"search": 1, "rotate": 1, "crop": 1, "brightness": 1, "undo": 1,
                                    "image_cutout": 1}
    assert bob["agreement"]["dialogue"] == {"pairs": 1, "mean": pytest.approx(5 / 6)}
    # token F1 of "make it brighter" vs "make the image brighter": 2 common, P=2/3, R=2/4
    assert bob["agreement"]["pair"]["mean"] == pytest.approx(2 * (2 / 3) * 0.5 / (2 / 3 + 0.5))
    assert stats["agreement"]["dialogue"]["pairs"] == 1
    assert bob["seconds_per_item_mean"] >= 0
    text = exports.format_stats(stats)
    assert "bob:" in text and "exact command match 0.833" in text


def test_token_f1_and_match_rate():
    assert exports.token_f1("A dog.", "a DOG") == 1.0
    assert exports.token_f1("a dog", "the cat") == 0.0
    assert exports.command_match_rate(["rotate 90"], ["rotate 90", "undo"]) == 0.5


@needs_caise
def test_cli_import_export_and_stats(tmp_path, capsys):
    import main

    db = str(tmp_path / "cli" / "easel.db")
    assert main.main(["annotate", "import", "--format", "caise", str(CAISE / "md_valid.json"), "--db", db]) == 0
    assert "imported 262 session(s)" in capsys.readouterr().out
    out = tmp_path / "out.json"
    assert main.main(["annotate", "export", "--format", "caise", str(out), "--db", db]) == 0
    assert out.read_text() == (CAISE / "md_valid.json").read_text()
    assert main.main(["annotate", "stats", "--db", db]) == 0
    assert "caise: 262 dialogue" in capsys.readouterr().out
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"image_id": 1}\n')
    assert main.main(["annotate", "import", "--format", "ln", str(bad), "--db", db]) == 2
    assert "needs" in capsys.readouterr().err
    bad.write_text('[{"img0": 3, "img1": "b.png"}]')
    assert main.main(["annotate", "import", "--format", "ier", str(bad), "--db", db]) == 2
    assert "file names" in capsys.readouterr().err
    assert main.main(["annotate", "export", "--format", "ln", str(tmp_path / "no" / "x.jsonl"), "--db", db]) == 2
    assert "cannot write" in capsys.readouterr().err
    corrupt = tmp_path / "corrupt.db"
    corrupt.write_bytes(b"this is not a database" * 100)
    with pytest.raises(SystemExit, match="cannot open the database"):
        main.main(["annotate", "stats", "--db", str(corrupt)])
