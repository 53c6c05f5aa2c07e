"""Issue 27, item 6: direction and size words are read the way they point, in every request.

Each row is a request as people type it and what it must do: the attribute, the sign (+1 raise, -1
lower) and the size (small, normal or large: the attribute's three default amounts in
:data:`agent.grammar.lexicon.DEFAULT_AMOUNTS`), and where when it names a part. No edit may move
opposite to what was asked. Rows marked "was wrong" moved the wrong way (or were refused) before
this table was written.
"""

from __future__ import annotations

import pytest

from agent.grammar.commands import AdjustAttr
from agent.grammar.lexicon import DEFAULT_AMOUNTS
from agent.language.reader import read

SIZES = {"small": 0, "normal": 1, "large": 2}

TABLE = [
    # (request, attribute, sign, size, region)
    ("fix the blur", "sharpness", +1, "normal", ""),
    ("it's a little too much out of focus", "sharpness", +1, "small", ""),
    ("brighten the photo very little", "brightness", +1, "small", ""),
    ("soften colors", "saturation", -1, "normal", ""),
    ("make background significantly darker", "brightness", -1, "large", "background"),
    ("make the background a lot darker", "brightness", -1, "large", "background"),
    ("brighten it slightly", "brightness", +1, "small", ""),
    ("make it much brighter", "brightness", +1, "large", ""),
    ("make it a tiny bit darker", "brightness", -1, "small", ""),
    ("darken it a lot", "brightness", -1, "large", ""),
    ("reduce the brightness a little", "brightness", -1, "small", ""),
    ("it's too bright", "brightness", -1, "normal", ""),
    ("the photo is too dark", "brightness", +1, "normal", ""),
    ("it's way too bright", "brightness", -1, "large", ""),
    ("make it less dark", "brightness", +1, "normal", ""),  # was wrong: darkened
    ("make the image less dark", "brightness", +1, "normal", ""),  # was wrong: darkened
    ("make it not so dark", "brightness", +1, "normal", ""),  # was refused
    ("make it not so bright", "brightness", -1, "normal", ""),
    ("make it less bright", "brightness", -1, "normal", ""),
    ("it's overexposed", "brightness", -1, "normal", ""),  # was refused
    ("it's underexposed", "brightness", +1, "normal", ""),  # was refused
    ("decrease the darkness", "brightness", +1, "normal", ""),
    ("increase the darkness", "brightness", -1, "normal", ""),
    ("lower the exposure", "brightness", -1, "normal", ""),
    ("dim it a little", "brightness", -1, "small", ""),
    ("brighter, not too bright", "brightness", +1, "normal", ""),
    ("tone down the contrast", "contrast", -1, "normal", ""),
    ("boost the contrast", "contrast", +1, "normal", ""),
    ("too much contrast", "contrast", -1, "normal", ""),
    ("not enough contrast", "contrast", +1, "normal", ""),
    ("increase contrast slightly", "contrast", +1, "small", ""),
    ("reduce the contrast a lot", "contrast", -1, "large", ""),
    ("dramatically increase the contrast", "contrast", +1, "large", ""),
    ("desaturate it a little", "saturation", -1, "small", ""),
    ("make the colours more vivid", "saturation", +1, "normal", ""),
    ("colors are too strong", "saturation", -1, "normal", ""),
    ("the colours are too dull", "saturation", +1, "normal", ""),  # was wrong: lowered the saturation
    ("make the colors less intense", "saturation", -1, "normal", ""),  # was refused
    ("the picture is washed out", "saturation", +1, "normal", ""),  # was refused
    ("make it more muted", "saturation", -1, "normal", ""),
    ("it's too blurry", "sharpness", +1, "normal", ""),
    ("it's out of focus", "sharpness", +1, "normal", ""),  # was refused
    ("it looks blurry, fix it", "sharpness", +1, "normal", ""),  # was auto_enhance (the fault was skipped as a statement)
    ("remove the blur", "sharpness", +1, "normal", ""),
    ("decrease the blurriness", "sharpness", +1, "normal", ""),  # was refused ("can't find the blurriness")
    ("add more blur", "sharpness", -1, "normal", ""),
    ("make it a bit more blurry", "sharpness", -1, "small", ""),
    ("make it less sharp", "sharpness", -1, "normal", ""),
    ("sharpen it a lot", "sharpness", +1, "large", ""),
    ("it's too warm", "warmth", -1, "normal", ""),
    ("it's too cold", "warmth", +1, "normal", ""),
    ("make it less warm", "warmth", -1, "normal", ""),
    ("make it less cool", "warmth", +1, "normal", ""),  # was refused
    ("add a hint of warmth", "warmth", +1, "small", ""),  # was refused ("can't add new things")
    ("make it slightly cooler", "warmth", -1, "small", ""),
    ("make the shadows less dark", "brightness", +1, None, "shadows"),  # was wrong: darkened the shadows
    ("the background is too dark", "brightness", +1, "normal", "background"),
    ("it's not bright enough", "brightness", +1, "normal", ""),  # was refused
    ("it isn't dark enough", "brightness", -1, "normal", ""),  # was refused
    ("the colours are not vivid enough", "saturation", +1, "normal", ""),  # was refused
    ("it doesn't look warm enough", "warmth", +1, "normal", ""),  # was refused
    ("the picture is still not sharp enough", "sharpness", +1, "normal", ""),  # was refused
]


@pytest.mark.parametrize("request_", ["it is not too dark", "it's not too dark", "it isn't too bright",
                                      "the colours aren't too dull", "the photo doesn't look too warm"])
def test_saying_a_fault_is_not_there_changes_nothing(request_):
    reading = read(request_)  # was: "it is not too dark" brightened the photo
    assert reading.commands == [] and reading.reply.startswith("Good, I left it as it is")


@pytest.mark.parametrize("request_, attr, sign, size, region", TABLE, ids=[row[0] for row in TABLE])
def test_direction_and_size(request_, attr, sign, size, region):
    commands = read(request_).commands
    assert len(commands) == 1 and isinstance(commands[0], AdjustAttr), [c.format() for c in commands]
    (command,) = commands
    assert command.attr == attr and command.region == region
    assert (command.amount > 0) == (sign > 0), f"{request_!r} moved the wrong way: {command.format()}"
    if size is not None:
        assert abs(command.amount) == DEFAULT_AMOUNTS[attr][SIZES[size]], command.format()


def test_the_table_is_large_enough():
    assert len(TABLE) >= 40
