"""Which of several things is "in the background" or "in front": depth from the boxes alone.

"Brighten the people in the background", "make the man in front warmer": the detector gives boxes,
not distances, so depth is read from two cues that hold on a ground plane (people, animals, cars
standing on the same floor or street):

- a thing farther away looks smaller: its box is at most :data:`SMALLER` of the height of the
  tallest box of its kind;
- and its foot is higher in the frame: its bottom edge is above the tallest one's by at least
  :data:`HIGHER` of the picture's height (a child beside an adult is smaller, but stands as low).

A box with both cues is behind; the tallest box, and any box that is neither smaller nor higher, is
in front. When the cues do not separate them (one thing only, or all about the same size and
height) nothing is guessed: :class:`DepthUnclear` says so and the dialogue asks the person to point.
No Qt, no models.
"""

from __future__ import annotations

import re

from agent.perception.vocabulary import counted

Box = tuple[int, int, int, int]
SMALLER = 0.6  # behind: a box at most this share of the tallest one's height...
HIGHER = 0.02  # ... whose bottom edge is above the tallest one's by this share of the picture's height
HERD_GAP = 2.0  # sizes that step down by this ratio or more part the ones nearby from a herd behind

BACK, FRONT = "back", "front"
_BACK = re.compile(r"\s*\b(?:(?:in|at|to(?:wards?)?) the (?:background|back|distance)|far away|further away|"
                   r"farther away|in the distance)\b\s*")
_FRONT = re.compile(r"\s*\b(?:(?:in|at) the (?:foreground|front)|in front|up front|closest to (?:me|the camera)|"
                    r"nearest to (?:me|the camera))\b\s*")


class DepthUnclear(LookupError):
    """The boxes do not say which thing is in front or behind; ``boxes`` are the candidates."""

    def __init__(self, message: str, boxes: list[Box]):
        super().__init__(message)
        self.boxes = boxes


def depth_words(words: str) -> tuple[str, str | None]:
    """``(words without the depth phrase, "back" | "front" | None)``.

    >>> depth_words("the people in the background"), depth_words("the man in front"), depth_words("the dog")
    (('the people', 'back'), ('the man', 'front'), ('the dog', None))
    """
    for pattern, where in ((_BACK, BACK), (_FRONT, FRONT)):
        if pattern.search(words):
            rest = " ".join(pattern.sub(" ", words).split())
            if rest:
                return rest, where
    return words, None


def _height(b: Box) -> int:
    return b[3] - b[1]


def split_by_depth(boxes: list[Box], image_height: int) -> tuple[list[Box], list[Box], Box]:
    """``(in front, behind, the nearest)`` of the boxes of one kind of thing (see the module's cues).

    >>> front, back, near = split_by_depth([(0, 40, 20, 100), (50, 30, 58, 50), (70, 50, 90, 100)], 100)
    >>> back, near
    ([(50, 30, 58, 50)], (0, 40, 20, 100))
    >>> split_by_depth([(0, 0, 50, 100), (60, 50, 80, 90), (90, 10, 95, 20), (96, 12, 99, 21)], 100)[1]
    [(90, 10, 95, 20), (96, 12, 99, 21)]
    """
    near = max(boxes, key=lambda b: (_height(b), b[3]))
    back = [b for b in boxes if b != near and _height(b) <= SMALLER * _height(near)
            and b[3] <= near[3] - HIGHER * image_height]
    # a herd far off behind one or two nearer ones: the background is beyond the widest gap in size
    # (a bison half the nearest one's height beside it is not "in the background" of a photo whose
    # herd grazes at a tenth of it)
    heights = sorted({_height(b) for b in boxes}, reverse=True)
    gaps = [(heights[i] / max(1, heights[i + 1]), i) for i in range(len(heights) - 1)]
    if len(gaps) > 1:
        widest, at = max(gaps)
        if at > 0 and widest >= HERD_GAP and widest > gaps[0][0]:
            back = [b for b in back if _height(b) <= heights[at + 1]]
    front = [b for b in boxes if b not in back]
    return front, back, near


def pick(boxes: list[Box], where: str, *, plural: bool, label: str, image_height: int) -> tuple[list[Box], str]:
    """The boxes ``where`` ("back" or "front") names among ``boxes`` (every detection of one kind),
    and a sentence that says how they were chosen; :class:`DepthUnclear` when the cues do not tell.

    A plural phrase ("the people in the background") takes every box on that side; a singular
    one takes the nearest for "front" and, for "back", the only one behind or else the largest of
    those behind (the sentence says so: its box goes on the canvas).
    """
    if not boxes:
        raise DepthUnclear(f"I see no {label} to place", [])
    side = "in the background" if where == BACK else "in front"
    if len(boxes) == 1:
        raise DepthUnclear(f"I see only one {label}, so I can't tell whether it is {side}", list(boxes))
    front, back, near = split_by_depth(boxes, image_height)
    if not back:
        raise DepthUnclear(f"the {counted(len(boxes), label)} look about as near as each other (their boxes are "
                           f"about the same size and as low in the frame), so I can't tell which are {side}",
                           list(boxes))
    if where == BACK:
        chosen = back if plural or len(back) == 1 else [max(back, key=_height)]
        them = f"the {counted(len(chosen), label)}" if len(chosen) > 1 else f"the {label}"
        note = (f"I took {them} in the background to be {'those' if len(chosen) > 1 else 'the one'} smaller and "
                f"higher in the frame than the {label} in front")
        if len(chosen) < len(back):
            note += f" (the largest of the {len(back)} behind)"
    else:
        chosen = front if plural else [near]
        them = f"the {counted(len(chosen), label)}" if len(chosen) > 1 else f"the {label}"
        note = (f"I took {them} in front to be {'those' if len(chosen) > 1 else 'the one'} largest and lowest "
                f"in the frame, with {counted(len(back), label)} smaller and higher behind")
    return chosen, note + " (boxes on the picture); say which if you meant others"
