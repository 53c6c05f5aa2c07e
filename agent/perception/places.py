"""Where a thing is in a picture, in the words every answer uses.

Describe, the answers to questions and the difference explainer each had their own table (a centre
left of 0.35, 0.36 or 0.37 of the width was "left"), so one box could be "on the right" in one reply
and "in the centre" in the next. One table now serves all three.
"""

from __future__ import annotations

SIDE = 0.37  # a centre left of this share of the width is "left", right of 1 - SIDE "right"; so for rows


def place(cx: float, cy: float) -> str:
    """Where a normalised point is: "top left", "top", "right", "centre", "bottom right", ...

    >>> place(0.2, 0.5), place(0.5, 0.9), place(0.5, 0.5), place(0.7, 0.1)
    ('left', 'bottom', 'centre', 'top right')
    """
    col = "left" if cx < SIDE else "right" if cx > 1 - SIDE else ""
    row = "top" if cy < SIDE else "bottom" if cy > 1 - SIDE else ""
    return " ".join(w for w in (row, col) if w) or "centre"


def box_place(box, size: tuple[int, int]) -> str:
    """:func:`place` of a box's centre in a picture of ``size = (w, h)``."""
    w, h = size
    return place((box[0] + box[2]) / 2 / w, (box[1] + box[3]) / 2 / h)


def place_phrase(where: str) -> str:
    """A place as words inside a sentence: "on the left", "at the top right", "in the middle".

    >>> place_phrase("left"), place_phrase("top right"), place_phrase("centre")
    ('on the left', 'at the top right', 'in the middle')
    """
    if where == "centre":
        return "in the middle"
    if where in ("left", "right"):
        return f"on the {where}"
    return f"at the {where}"


def on_side(box, position: str, w: int, h: int) -> bool:
    """Whether the box is on the side ``position`` names, every word of it ("top left": both), as
    :func:`box_place` says where it is: "the people on the left" are those a reply would call on
    the left; "centre" ("middle") is neither left nor right.

    >>> on_side((0, 0, 30, 10), "left", 100, 100), on_side((40, 0, 60, 10), "left", 100, 100)
    (True, False)
    """
    there = box_place(box, (w, h)).split()
    words = position.split()
    return bool(words) and all(("left" not in there and "right" not in there) if word in ("centre", "middle", "center")
                               else word in there for word in words)


def position_score(box, position: str, w: int, h: int) -> float:
    """Higher the better the box's centre matches "left", "top right", "centre" (or "middle")...
    (0..-2): which of several things "the one on the left" is.

    >>> position_score((0, 0, 10, 10), "left", 100, 100) > position_score((80, 0, 90, 10), "left", 100, 100)
    True
    """
    cx, cy = (box[0] + box[2]) / 2 / w, (box[1] + box[3]) / 2 / h
    score = 0.0
    for word in position.split():
        if word == "left":
            score -= cx
        elif word == "right":
            score -= 1 - cx
        elif word == "top":
            score -= cy
        elif word == "bottom":
            score -= 1 - cy
        elif word in ("centre", "middle", "center"):
            score -= abs(cx - 0.5) + abs(cy - 0.5)
    return score
