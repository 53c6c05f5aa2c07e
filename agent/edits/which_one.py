"""Which one of several things of a kind the words mean, by what they are or look like: "the foal"
(the young of a kind, the clearly smaller one), "the grey horse" (by the colour the caption gives
it) and, when the words say nothing more, the one the photo is of (:func:`the_prominent`); asked
when none is (:func:`agent.edits.objects.match_objects` places them among the rest)."""

from __future__ import annotations

import re

import cv2
import numpy as np

from agent.perception.models import Detection
from agent.perception.things import YOUNG_SHARE, ObjectNotFound
from agent.perception.vocabulary import plural, with_article


def colours_of(rgb: np.ndarray, dets: list[Detection], label: str) -> dict[int, str | None]:
    """Each detection's colour as the caption says it (:func:`agent.perception.naming.object_colour`:
    its mask's, a person's clothes'), so "the grey horse" is the one described "a grey horse". The
    box's mean colour took in the sky around a black horse and called it "grey"."""
    from agent.perception.colour_terms import photo_light
    from agent.perception.naming import object_colour

    light = photo_light(rgb)
    return {id(d): object_colour(rgb, tuple(int(v) for v in d.box), label, light=light) for d in dets}


# Colours near enough to each other that one may be named the other (a tan dog "orange" or "brown"); a
# thing asked for by a colour none of several is, nor a near one, is asked about, not guessed.
NEAR_COLOURS = {"brown": {"orange", "beige", "red"}, "black": {"grey"}, "grey": {"white", "black", "skyblue"},
                 "white": {"grey", "beige"}, "beige": {"brown", "white", "yellow"}, "orange": {"brown", "red", "yellow"},
                 "red": {"orange", "pink", "brown"}, "pink": {"red", "purple"}, "purple": {"pink", "blue"},
                 "blue": {"purple", "skyblue"}, "skyblue": {"blue", "grey"}, "yellow": {"orange", "beige"}, "green": set()}


PART_OF_IT = 0.15  # a black or white this share of one thing's middle is its colour too (a German shepherd's back)


def _much_of(rgb: np.ndarray, box, colour: str) -> bool:
    """Whether a good part (:data:`PART_OF_IT`) of the middle of ``box`` is black or white (L* under 25,
    or over 75 with a chroma under 18): the colour one thing is named by is its main one, and a black
    and tan dog is "the black dog" to its owner, a panda "the white panda" (its middle 22% white, 47%
    black; a camel's 0% white)."""
    if colour not in ("black", "white"):
        return False
    x1, y1, x2, y2 = (int(v) for v in box)
    dx, dy = (x2 - x1) // 5, (y2 - y1) // 5
    middle = rgb[y1 + dy:y2 - dy, x1 + dx:x2 - dx]
    if middle.size == 0:
        return False
    lab = cv2.cvtColor(np.ascontiguousarray(middle[:, :, :3]), cv2.COLOR_RGB2LAB).reshape(-1, 3).astype(np.float32)
    light, chroma = lab[:, 0] * 100 / 255, np.hypot(lab[:, 1] - 128, lab[:, 2] - 128)
    share = np.mean(light < 25) if colour == "black" else np.mean((light > 75) & (chroma < 18))
    return float(share) >= PART_OF_IT


def some_of_colour(colour: str, label: str, dets: list[Detection], colours: dict[int, str | None],
                   rgb: np.ndarray | None = None) -> None:
    """Raise :class:`ObjectNotFound` when none of several ``dets`` is ``colour`` or near it: "the brown
    horse" among a black, a black and a grey one (the brown foal a "cow" to the detector) took the
    surest, a black one. One found is asked about too, unless a good part of it is the black or white
    asked for (``rgb``: the picture)."""
    said = [colours.get(id(d)) for d in dets]
    if any(c is None or c == colour or c in NEAR_COLOURS.get(colour, ()) for c in said):
        return
    seen = list(dict.fromkeys(c for c in said if c))
    if len(dets) == 1 and rgb is not None and _much_of(rgb, dets[0].box, colour):
        return
    if len(dets) == 1:
        raise ObjectNotFound(f"I see one {label}, and it looks {seen[0]} to me, not {colour}",
                             seen=[(label, tuple(int(v) for v in dets[0].box))])
    raise ObjectNotFound(
        f"I see {len(dets)} {plural(label)} but none looks {colour} to me (" +
        (", ".join(seen[:-1]) + " and " + seen[-1] if len(seen) > 1 else seen[0]) +
        f"); say which one, for example “the {label} on the left”",
        seen=[(label, tuple(int(v) for v in d.box)) for d in dets])




def the_young(dets: list[Detection], young: str, phrase, *, every: bool = False) -> list[Detection]:
    """Those of ``dets`` of a kind that ``young`` ("foal", "calf", "cygnets") may name: the ones
    clearly smaller than the largest (:data:`agent.perception.things.YOUNG_SHARE`), when it is one, when the words also say
    where or what colour ("the foal on the right": placed among them), or, ``every`` ("the
    cygnets"), all of them; else it is asked. "remove the foal" among three grown horses (the foals
    a "cow" to the detector, and missed) removed the black horse on the right, the caption having
    called it "an animal"; "the foal on the right" was then the grown horse most to the right."""
    largest = max(_area(d) for d in dets)
    small = [d for d in dets if _area(d) <= YOUNG_SHARE * largest]
    if len(small) == 1 or (small and (every or phrase.position or phrase.colour)):
        return small
    kind = phrase.label
    if len(dets) == 1:
        raise ObjectNotFound(f"I see 1 {kind} and none smaller that could be the {young}",
                             seen=[(kind, tuple(int(v) for v in dets[0].box))])
    raise ObjectNotFound(
        f"I see {len(dets)} {plural(kind)} and can't tell which one is the {young}" +
        (" (none of them looks smaller than the others)" if not small else "") +
        f"; say which one, for example “the {kind} on the left”",
        seen=[(kind, tuple(int(v) for v in d.box)) for d in dets])


def _area(d: Detection) -> int:
    return (d.box[2] - d.box[0]) * (d.box[3] - d.box[1])


# "the kangaroo" with no more said is the one the photo is of when every other one's box is at most
# this share of its area: a mother and her joey (a 0.16 share) were both "wallabies", the joey the
# surer one, and "make the kangaroo brighter" brightened the joey.
PROMINENT_SHARE = 0.25


def the_prominent(dets: list[Detection]) -> Detection | None:
    """Of several ``dets`` of a kind, the one whose box is over 1 / :data:`PROMINENT_SHARE` times as
    large as every other's (a grown animal beside its young, a person before a crowd), else None
    (alike in size: the surest is taken and the reply says which, or it is asked).

    >>> the_prominent([Detection("dog", 0.9, (0, 0, 10, 10)), Detection("dog", 0.6, (0, 0, 30, 30))]).score
    0.6
    >>> the_prominent([Detection("dog", 0.9, (0, 0, 10, 10)), Detection("dog", 0.6, (0, 0, 15, 15))]) is None
    True
    """
    if len(dets) < 2:
        return None
    area = [_area(d) for d in dets]
    k = int(np.argmax(area))
    return dets[k] if all(a <= PROMINENT_SHARE * area[k] for j, a in enumerate(area) if j != k) else None


EITHER_SIDE = 1.25  # two of a kind on either side of a thing, the farther at most this much farther: asked


def either_side(dets: list[Detection], beside: list, label: str, other: str, *, placed: bool = False) -> None:
    """Raise :class:`ObjectNotFound` asking which, when the nearest two of ``dets`` to the thing
    ``beside`` (its boxes; ``other`` its words) are on either side of it and about as near (under
    :data:`EITHER_SIDE`): "and the one next to it" after an edit of the meerkat in the middle took the
    one on the right, of one on each side. Not when the words say where (``placed``)."""
    if placed or len(dets) < 2 or not beside:
        return
    bx = [(b[0] + b[2]) / 2 for b in beside]
    by = [(b[1] + b[3]) / 2 for b in beside]

    def gap(d) -> float:
        cx, cy = (d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2
        return min(float(np.hypot(cx - x, cy - y)) for x, y in zip(bx, by))

    a, b = sorted(dets, key=gap)[:2]
    left = [(d.box[0] + d.box[2]) / 2 < bx[0] for d in (a, b)]
    if left[0] != left[1] and gap(b) <= EITHER_SIDE * max(1.0, gap(a)):
        raise ObjectNotFound(f"I see {with_article(label)} on either side of {other}: say which, for example “the {label} "
                             f"on the left”", seen=[(label, tuple(int(v) for v in d.box)) for d in (a, b)])


# "the second giraffe", "the third person from the right", "the last one": counted along a row, from
# the left unless another side is said (how a person counts what they see; "brighten the second
# giraffe" brightened the surest one, whichever it was, and "the first giraffe" the same one)
ORDINAL = re.compile(r"\bthe (first|1st|second|2nd|third|3rd|fourth|4th|fifth|5th|sixth|6th|last)\b")
_ORDINALS = {"first": 0, "1st": 0, "second": 1, "2nd": 1, "third": 2, "3rd": 2, "fourth": 3, "4th": 3,
             "fifth": 4, "5th": 4, "sixth": 5, "6th": 5, "last": -1}


def by_ordinal(dets: list[Detection], word: str, side: str | None, label: str) -> Detection:
    """The detection ``word`` ("second") counts to from ``side`` ("left" when None or not a side);
    :class:`ObjectNotFound` when there are fewer.

    >>> from agent.perception.models import Detection
    >>> row = [Detection("giraffe", 0.9, (300, 0, 400, 90)), Detection("giraffe", 0.5, (0, 0, 100, 90))]
    >>> by_ordinal(row, "first", None, "giraffe").box, by_ordinal(row, "second", "right", "giraffe").box
    ((0, 0, 100, 90), (0, 0, 100, 90))
    >>> by_ordinal(row, "third", None, "giraffe")
    Traceback (most recent call last):
    ...
    agent.perception.things.ObjectNotFound: I see only 2 giraffes, so there is no third one
    """
    side = side if side in ("left", "right", "top", "bottom") else "left"
    axis = 0 if side in ("left", "right") else 1
    row = sorted(dets, key=lambda d: (d.box[axis] + d.box[axis + 2]) / 2, reverse=side in ("right", "bottom"))
    n = _ORDINALS[word]
    if n >= len(row):
        raise ObjectNotFound(f"I see only {len(row)} {plural(label) if len(row) != 1 else label}, so there is no "
                             f"{word} one", seen=[(label, tuple(int(v) for v in d.box)) for d in row])
    return row[n]
