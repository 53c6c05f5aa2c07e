"""Two parts joined by "and" in one request: both are edited, by one edit that follow-ups revise."""

from __future__ import annotations

import numpy as np
from conftest import fake_detector

from agent.edits.regions import resolve
from agent.edits.run import execute
from agent.grammar.commands import parse_command, region_kind, region_phrase
from agent.language.followups import Recent, read_follow_up
from agent.language.reader import read
from agent.language.words import split_clauses
from agent.perception.models import Detection


def _said(words: str) -> list[str]:
    return [c.format() for c in read(words, model=lambda *a, **k: None, photo_open=True).commands]


def test_a_thing_and_a_named_part_are_one_edit_of_both():
    """"brighten the dog and the sky" brightened the dog alone; "make the sky and the dog darker"
    was split into "make the sky" and "the dog darker", and darkened the dog alone."""
    assert _said("brighten the dog and the sky") == ["adjust_attr brightness 20 in the dog and sky"]
    assert _said("make the sky and the dog darker") == ["adjust_attr brightness -20 in sky and the dog"]
    assert _said("make the dog and the grass warmer") == ["adjust_attr warmth 25 in the dog and greenery"]
    # two requests stay two
    assert _said("make the sky darker and the dog brighter") == ["adjust_attr brightness -20 in sky",
                                                                 "adjust_attr brightness 20 in the dog"]
    assert split_clauses("make the sky purple and the forest greener") == ["make the sky purple", "the forest greener"]
    assert _said("make the man on the left disappear and sharpen the image") == ["remove the man on the left",
                                                                                   "adjust_attr sharpness 40"]
    assert _said("can you make the sun shine? and the plants a little greener") == ["adjust_color green 0.1 in greenery"]


def test_a_joined_region_is_the_union_of_its_parts_and_reads_as_both():
    img = np.full((40, 60, 3), 120, np.uint8)
    assert region_kind("the dog and sky") == "joined" and region_kind("the dog and the cat") == "object"
    assert region_phrase("left and sky") == "the left side and the sky"
    both = resolve("left and right", img).mask
    left, right = resolve("left", img).mask, resolve("right", img).mask
    assert np.array_equal(both, np.maximum(left, right))
    assert parse_command("adjust_attr brightness 20 in the dog and sky").format() == \
        "adjust_attr brightness 20 in the dog and sky"


def test_too_much_after_two_parts_revises_both():
    """One edit of both parts: "too much" takes both back by half (it halved only the last part's)."""
    later = read_follow_up("too much", Recent.of("adjust_attr warmth 25 in sky and greenery"))
    assert [c.format() for c in later.commands] == ["adjust_attr warmth 12 in sky and greenery"] and later.revise


def test_two_people_named_are_two_people(monkeypatch):
    """"make the man and the woman warmer" warmed the surest person twice: one person."""
    fake_detector(monkeypatch, [Detection("person", 0.9, (10, 10, 40, 55)), Detection("person", 0.8, (60, 10, 90, 55))])
    img = np.full((60, 100, 3), 120, np.uint8)
    out = execute(parse_command("adjust_attr warmth 40 in the man and the woman"), img).astype(int)
    assert out[30, 25, 0] > out[30, 25, 2] + 10 and out[30, 75, 0] > out[30, 75, 2] + 10  # both warmer
    assert (out[:, 50] == img[:, 50]).all()  # nothing between them
    # who is placed keeps theirs: "the woman" is then the other one
    out = execute(parse_command("adjust_attr warmth 40 in the woman and the man on the left"), img).astype(int)
    assert out[30, 25, 0] > out[30, 25, 2] + 10 and out[30, 75, 0] > out[30, 75, 2] + 10
