from __future__ import annotations

import json
import re

import pytest
from conftest import missing_shared_data
from hypothesis import given
from hypothesis import strategies as st

from agent.grammar.commands import (
    AdjustAttr,
    AdjustColor,
    CommandError,
    Crop,
    Flip,
    ImageCutout,
    Redo,
    Rotate,
    Search,
    Undo,
    command_type,
    parse_command,
)
from editor.colors import COLORS
from tests.conftest import CAISE

NOT_COMMAND = re.compile(r"^(user_text|assistant_text|image_load):")


def caise_command_lines() -> list[str]:
    lines = []
    for split in ("md_train.json", "md_valid.json"):
        path = CAISE / split
        if not path.exists():
            continue
        for inst in json.loads(path.read_text()):
            lines.append(inst["api"])
            lines += [u for u in inst["history_utte"] if not NOT_COMMAND.match(u)]
    return lines


def test_every_caise_command_round_trips():
    lines = caise_command_lines()
    if not lines:
        missing_shared_data("CAISE data (../shared/data/caise)")
    assert len(lines) > 10_000
    for line in lines:
        cmd = parse_command(line)
        assert cmd.format() == line.strip(), line
        assert parse_command(cmd.format()) == cmd


def test_examples():
    assert parse_command("rotate 270") == Rotate(270)
    assert parse_command("adjust_color blue .25") == AdjustColor("blue", 0.25)
    assert parse_command("adjust_attr brightness +10") == AdjustAttr("brightness", 10)
    assert parse_command("adjust_attr contrast -20").amount == -20
    assert parse_command("search kids umbrella") == Search("kids umbrella")
    assert parse_command("image_cutout ") == ImageCutout()
    assert parse_command("undo ") == Undo()
    assert parse_command("redo") == Redo()
    assert parse_command("flip vertical") == Flip("vertical")
    assert parse_command("crop 1 2 30 40") == Crop(1, 2, 30, 40)
    assert command_type("adjust_attr contrast 5") == "contrast"
    assert command_type("adjust_color red 0.2") == "adjust_color"


@pytest.mark.parametrize(
    "line, fragment",
    [
        ("rotate 9999", "0 to 360"),
        ("rotate -5", "0 to 360"),
        ("rotate nan", "not a number"),
        ("adjust_color magenta 0.3", "valid colours: red, orange"),
        ("adjust_color red 3", "between 0 and 1"),
        ("adjust_attr brightness 400", "-100 to 100"),
        ("adjust_attr vibrance 10", "brightness, contrast, saturation"),
        ("adjust_attr hue 200", "-180 to 180"),
        ("adjust_attr saturation -101", "-100 to 100"),
        ("rotate 1e9", "0 to 360"),
        ("rotate " + "9" * 40_000, "0 to 360"),
        ("background purple-ish", "background takes a colour"),
        ("remove", "remove needs what to remove"),
        ("grayscale please", "takes 0 argument"),
        ("crop 1 2 3", "takes 4 argument"),
        ("crop 1 2 3 x", "whole pixel"),
        ("flip diagonal", "horizontal or vertical"),
        ("search", "needs words"),
        ("", "empty command"),
        ("paint it black", "unknown command 'paint'"),
        ("image_cutout now", "takes 0 argument"),
    ],
)
def test_invalid_commands_say_what_is_valid(line, fragment):
    with pytest.raises(CommandError, match=re.escape(fragment)):
        parse_command(line)


words = st.lists(st.from_regex(r"[a-z]{1,8}", fullmatch=True), min_size=1, max_size=5).map(" ".join)
commands = st.one_of(
    words.map(Search),
    st.floats(0, 360).map(Rotate),
    st.integers(0, 360).map(Rotate),
    st.builds(AdjustColor, st.sampled_from(sorted(COLORS)), st.floats(0, 1)),
    st.builds(AdjustAttr, st.sampled_from(["brightness", "contrast"]), st.integers(-100, 100)),
    st.builds(AdjustAttr, st.sampled_from(["brightness", "contrast"]), st.floats(-100, 100)),
    st.builds(Crop, *[st.integers(0, 10_000)] * 4),
    st.sampled_from([ImageCutout(), Undo(), Redo(), Flip("horizontal"), Flip("vertical")]),
)


@given(commands)
def test_format_then_parse_is_identity(cmd):
    text = cmd.format()
    again = parse_command(text)
    assert again == cmd
    assert again.format() == text


def test_extensions_round_trip():
    for line in ["adjust_attr saturation -100", "adjust_attr hue -35", "adjust_attr sharpness 40",
                 "adjust_attr warmth 20", "grayscale", "auto_enhance", "remove the person on the left",
                 "background white", "background blur", "background transparent", "crop the dog",
                 "crop square", "crop 16:9"]:
        cmd = parse_command(line)
        assert cmd.format() == line
        assert parse_command(cmd.format()) == cmd
        assert cmd.edits_image
    assert parse_command("crop 16:9").aspect == "16:9"
    assert parse_command("crop the dog").aspect is None
    assert parse_command("background gray") == parse_command("background grey")


def test_long_arguments_are_not_echoed_back():
    with pytest.raises(CommandError) as info:
        parse_command("crop 1 2 3 " + "x" * 40_000)
    assert len(str(info.value)) < 200


@pytest.mark.parametrize(
    "line, reply, label",
    [
        ("adjust_attr brightness 20", "Brightened by 20 points.", "Brighter +20"),
        ("adjust_attr brightness -15", "Darkened by 15 points.", "Darker -15"),
        ("adjust_attr contrast +10", "Raised the contrast by 10 points.", "Contrast +10"),
        ("rotate 270", "Rotated 90° clockwise.", "Rotate 90° CW"),
        ("rotate 90", "Rotated 90° counter-clockwise.", "Rotate 90° CCW"),
        ("adjust_color red 0.3", "Tinted toward red at 30%.", "Tint red 30%"),
        ("adjust_attr saturation -100", "Made it black and white (saturation -100).", "Saturation -100"),
        ("flip horizontal", "Mirrored it left to right.", "Mirror"),
        ("crop 10 10 110 60", "Cropped to 100×50 pixels.", "Crop 100×50"),
    ],
)
def test_replies_and_labels_say_what_was_done_in_words(line, reply, label):
    cmd = parse_command(line)
    assert cmd.reply() == reply
    assert cmd.label() == label


def test_readme_table_is_the_grammar():
    from pathlib import Path

    from agent.grammar.commands import readme_table

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    assert readme_table() in readme, "regenerate the README's table: python -m agent.grammar.commands --readme"


def test_a_background_blur_has_a_strength():
    """"more" after "blur the background" had no amount to change: a blur's strength is written
    after it (1, the usual, when left out), and nothing else has one."""
    from agent.grammar.commands import Background, CommandError, parse_command

    assert parse_command("background blur").strength == 1.0
    c = parse_command("background blur 2.5 behind the dog")
    assert (c.mode, c.strength, c.keep, c.format()) == ("blur", 2.5, "the dog", "background blur 2.5 behind the dog")
    assert parse_command(c.format()) == c
    for bad in ("background blur 9", "background blur 0.1"):
        with pytest.raises(CommandError):
            parse_command(bad)
    with pytest.raises(CommandError):
        Background("white", strength=2.0)



def test_a_stronger_background_blur_blurs_more():
    import numpy as np

    from editor.regions import replace_background

    rng = np.random.default_rng(0)
    img = rng.integers(0, 256, (60, 80, 3), np.uint8)
    m = np.zeros((60, 80), np.float32)
    m[20:40, 30:50] = 1
    usual, more = (replace_background(img, mask=m, mode="blur", strength=s) for s in (1.0, 2.0))
    assert np.array_equal(usual[m == 1], img[m == 1]) and np.array_equal(more[m == 1], img[m == 1])
    assert more[m == 0].astype(float).std() < usual[m == 0].astype(float).std()
