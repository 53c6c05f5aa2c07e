""""zoom in a little", "crop 10% off each side": the same share off each side, about the centre.

They were "Crop to what? Name a thing ('crop to the dog') or a shape".
"""

from __future__ import annotations

import numpy as np
import pytest

from agent.edits.run import execute
from agent.grammar.commands import CommandError, parse_command
from agent.language.reader import read


def _said(words: str) -> list[str]:
    return [c.format() for c in read(words, model=lambda *a, **k: None).commands]


def test_zoom_in_reads_as_a_share_off_each_side():
    assert _said("zoom in a little") == ["crop in 5%"]
    assert _said("Please, zoom in photo, sharpen to make look more visible") == ["crop in 10%",
                                                                                 "adjust_attr sharpness 40"]
    assert _said("zoom in a lot") == ["crop in 20%"]
    assert _said("zoom the picture a little bit") == ["crop in 5%"]
    assert _said("crop 10% off each side") == ["crop in 10%"]
    assert _said("crop all sides by 5%") == ["crop in 5%"]
    assert _said("zoom in on the dog") == ["crop the dog"]  # a thing: cropped to it


def test_crop_in_cuts_the_share_of_each_side_and_refuses_too_much():
    img = np.arange(100 * 200 * 3, dtype=np.uint32).reshape(100, 200, 3).astype(np.uint8)
    out = execute(parse_command("crop in 10%"), img)
    assert out.shape == (80, 160, 3) and np.array_equal(out, img[10:90, 20:180])
    for bad in ("crop in 0%", "crop in 45%", "crop in lots%"):
        with pytest.raises(CommandError):
            parse_command(bad)


def test_a_side_cut_off_is_that_share_of_the_picture_and_revised_by_more_or_less():
    """"crop off the bottom" was "Crop out means different things", "trim the left edge" "I can't find
    'the left edge'", and "cut the top a bit" cut the subject out of its background."""
    from agent.language.followups import Recent, read_follow_up

    assert _said("crop off the bottom") == ["crop off bottom 10%"]
    assert _said("trim the left edge") == ["crop off left 10%"]
    assert _said("cut the top a bit") == ["crop off top 5%"]
    assert _said("chop the top off") == ["crop off top 10%"]
    assert _said("crop the bottom half") == ["crop off bottom 50%"]
    assert _said("crop 5% off the right") == ["crop off right 5%"]
    assert _said("crop off the bottom and brighten it") == ["crop off bottom 10%", "adjust_attr brightness 20"]
    assert _said("crop to the top half") == ["crop off bottom 50%"]  # the top kept
    assert _said("crop the top edge of the picture by 10%") == ["crop off top 10%"]  # (it was refused)
    img = np.arange(100 * 200 * 3, dtype=np.uint32).reshape(100, 200, 3).astype(np.uint8)
    assert np.array_equal(execute(parse_command("crop off bottom 10%"), img), img[:90])
    assert np.array_equal(execute(parse_command("crop off left and right 5%"), img), img[:, 10:190])
    assert parse_command("crop off top 5%").reply() == "Cropped 5% off the top."
    for bad in ("crop off bottom 80%", "crop off left and right 50%", "crop off middle 10%", "crop off top and top 5%"):
        with pytest.raises(CommandError):
            parse_command(bad)
    more = read_follow_up("a bit more", Recent.of("crop off bottom 10%"))
    assert [c.format() for c in more.commands] == ["crop off bottom 12.5%"] and more.revise
    assert [c.format() for c in read_follow_up("too much", Recent.of("crop off left and right 40%")).commands] == [
        "crop off left and right 20%"]


def test_more_and_too_much_after_a_zoom_revise_its_share():
    from agent.language.followups import Recent, read_follow_up

    later = read_follow_up("more", Recent.of("crop in 5%"))
    assert [c.format() for c in later.commands] == ["crop in 7.5%"] and later.revise
    assert [c.format() for c in read_follow_up("too much", Recent.of("crop in 40%")).commands] == ["crop in 20%"]


def test_a_percent_written_before_its_number_is_read_and_enlarging_says_it_adds_no_detail():
    """"make the image %50 larger" (GIER) was "I resize in pixels: tell me the size"."""
    assert _said("make the image %50 larger") == ["resize 150%"]
    assert parse_command("resize 150%").reply() == "Resized (150%). Enlarging adds pixels, not detail."
    assert parse_command("resize 50%").reply() == "Resized (50%)."


def test_a_bit_wider_after_a_crop_to_a_thing_keeps_more_around_it(monkeypatch):
    """"crop to the dog", then "a bit wider" was not understood ("Sorry, I don't know how to do that"),
    "zoom out" too. The crop is made again with more (or, "tighter", less) room around the thing."""
    from conftest import fake_detector

    from agent.edits.run import run
    from agent.language.followups import Recent, read_follow_up
    from agent.perception.models import Detection

    fake_detector(monkeypatch, [Detection("dog", 0.9, (150, 50, 250, 150))])
    img = np.zeros((200, 400, 3), np.uint8)
    assert run(parse_command("crop the dog"), img).pixels.shape[:2] == (120, 120)  # 10% on each side
    wider = read_follow_up("a bit wider", Recent.of("crop the dog"))
    assert [c.format() for c in wider.commands] == ["crop the dog margin 17%"] and wider.revise
    assert run(wider.commands[0], img).pixels.shape[:2] == (134, 134)
    assert parse_command("crop the dog margin 17%") == wider.commands[0]  # the history's line reads back
    for words, line in (("zoom out", "crop the dog margin 25%"), ("tighter", "crop the dog margin 0%"),
                        ("too tight", "crop the dog margin 25%"), ("zoom in", "crop the dog margin 0%")):
        assert [c.format() for c in read_follow_up(words, Recent.of("crop the dog")).commands] == [line], words
    assert read_follow_up("wider", Recent.of("adjust_attr brightness 20")) is None
    with pytest.raises(CommandError):
        parse_command("crop the dog margin 150%")


def test_a_bit_wider_after_a_headshot_gives_the_face_more_room(monkeypatch):
    """"crop to his face", then "a bit wider" said "“Crop face” has no amount I can change"."""
    from agent.edits import retouch
    from agent.edits.run import run
    from agent.language.followups import Recent, read_follow_up

    face = type("Face", (), {"box": (180, 80, 220, 130), "score": 0.9})()
    monkeypatch.setattr(retouch, "find_faces", lambda pixels: [face])
    img = np.zeros((300, 400, 3), np.uint8)
    usual = run(parse_command("crop face"), img).pixels.shape[:2]
    wider = read_follow_up("a bit wider", Recent.of("crop face"))
    assert [c.format() for c in wider.commands] == ["crop face margin 61%"] and wider.revise
    assert all(a > b for a, b in zip(run(wider.commands[0], img).pixels.shape[:2], usual))
    assert wider.commands[0].reply() == "Cropped to the face, with more room around it."


def test_centring_a_thing_is_the_largest_crop_with_it_in_the_middle(monkeypatch):
    """"crop it so the giraffes are centered" was "Crop to what?" (the words after "so" were cut off as a
    purpose), "put the cat in the middle" "I can't add new things to a photo"."""
    from conftest import fake_detector

    from agent.edits.run import run
    from agent.perception.models import Detection

    assert _said("ok better. now crop it so the giraffes are centered") == ["crop centre the giraffes"]
    assert _said("put the cat in the middle") == ["crop centre the cat"]
    assert _said("the dog is not centred") == ["crop centre the dog"]
    assert _said("brighten it so the dog stands out") == ["adjust_attr brightness 20"]  # (a purpose, as before)
    fake_detector(monkeypatch, [Detection("dog", 0.9, (50, 40, 110, 120))])
    img = np.zeros((200, 400, 3), np.uint8)
    done = run(parse_command("crop centre the dog"), img)
    assert done.pixels.shape[:2] == (160, 160)  # the dog's centre (80, 80): 80 each way to the left and the top
    assert parse_command("crop centre the dog").reply() == "Cropped so that the dog is in the middle."


def test_zoom_in_after_a_thing_said_to_look_too_small_is_on_that_thing():
    """gcompris' cheetah: "the cheetah looks too small, zoom in" zoomed in about the centre (the cheetah
    is on the right, and a crop about the centre cuts it)."""
    assert _said("the cheetah looks too small, zoom in") == ["crop the cheetah"]
    assert _said("the picture looks too small, zoom in") == ["crop in 10%"]
    assert _said("zoom in") == ["crop in 10%"]
