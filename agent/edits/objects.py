"""Edits about named objects: find them, mask them, remove them, crop to them; background edits.

This is the glue between language ("the person on the left", "the dogs") and the pixel
operations of :mod:`editor`: the phrase is read by :func:`agent.perception.things.parse_phrases`, the
objects come from the SSD-MobileNet COCO detector (:func:`agent.perception.things.detect`, duplicates
suppressed), an object's mask is u2netp's subject mask of a crop around its box (GrabCut when
u2netp sees nothing there), and the main subject of the whole photo is :func:`editor.ops.subject_mask`.
No Qt: usable from scripts and the command line.

>>> from skimage import data
>>> out = remove_objects(data.astronaut(), "the person")   # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass

import cv2
import numpy as np

from agent.edits import apart as kept_apart
from agent.edits import which_one
from agent.edits.apart import apart, grow_box, object_mask
from agent.edits.attached import attached_parts
from agent.edits.depth import split_by_depth
from agent.edits.text_removal import find_text, text_mask
from agent.edits.which_one import NEAR_COLOURS, colours_of, some_of_colour, the_prominent, the_young
from agent.language.scope import ALL_BUT, EVERYONE, names_text
from agent.perception.animals import without_mistaken_people
from agent.perception.models import (
    COCO_LABELS,
    Detection,
    box_iou,
    detect_objects,
    to_rgb8,
)
from agent.perception.places import box_place, on_side, place_phrase, position_score
from agent.perception.things import (  # SPLIT
    COLOR_WORDS,
    SYNONYMS,
    YOUNG,
    ObjectNotFound,
    detect,
    inside_share,
    look_closer,
    names_object,
    object_phrase,
)
from agent.perception.vocabulary import plural, same_in_plural, singular, with_article
from editor import ops, regions
from editor.fill import inpaint
from editor.sky import fill_small_holes

__all__ = [
    "Match",
    "ObjectNotFound",
    "background",
    "crop_aspect",
    "crop_object",
    "find_objects",
    "hole_for",
    "match_objects",
    "neighbour_boxes",
    "object_mask",
    "removal_hole",
    "remove_objects",
    "remove_region",
    "subject_box",
]

Box = tuple[int, int, int, int]
MIN_SCORE = 0.3  # the detector's threshold for a first look
SECOND_LOOK = 0.15  # a named object is looked for again at this threshold before giving up
NAMED_SURE = 0.6  # a thing the caption's naming calls so this surely is no weak guess, whatever the detector's score
PART_SCORE = 0.5  # a detection under this score within a removed object's box ...
PART_AREA = 0.1  # ... and under this share of its area is a piece of it, not a neighbour to keep
FURTHER_SCORE = 0.35  # "the one on the left": another found at this score further left makes it unsure
# An object whose box is under this share of the picture is removed with all of its box, grown by
# SMALL_GROW of its sides: u2netp and GrabCut, shown a crop of a few dozen pixels, took the coat of a
# tourist 70 pixels tall and left the head and the legs standing (5 dusk silhouettes at the Brandenburg
# Gate, a man against a cathedral's doorway), and the detector's box of one so small is often a head
# or a pair of feet short. What else the box holds is filled too, as a brush over it would.
SMALL_SHARE = 0.02
SMALL_GROW = 0.12
# A neighbour left in place within this many of a removed object's larger box side (the region the
# fill takes its sources from) is no source, touching the hole or not: a walker 20 pixels beside the
# group removed at the Brandenburg Gate was copied into its hole, a ghost of him.
KEPT_REACH = 1.0
GAP_SHARE = 0.05  # a gap enclosed by an object's mask, under this share of it, is the object's


# Words that make a phrase mean every matching object ("the people", "all the cats", "both dogs").
_ALL_WORDS = {"all", "every", "each", "both", "everyone", "everybody", "people", "men", "women",
              "children", "kids", "persons", "guys", "ladies", "folks"}
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5}
# "in the background": the farther ones (smaller, for things of one kind); "in front": the nearer.
_FAR = re.compile(r"\b(background|at the back|in the back|far|farther|further|distant|distance)\b"
                  r"(?!\s+(?:left|right|top|bottom|end|side|corner|edge))")  # "the far right" is a place
# "the person on the far right": the one furthest that way, however unsure the detector is of it
_EXTREME = re.compile(r"\b(?:far|very|extreme)\s+(?:left|right|top|bottom)\b")
_NEAR = re.compile(r"\b(foreground|in front|front|nearest|closest|nearer|closer)\b")
# "the small camel", "the biggest dog": by the area of their boxes (it took the surest one)
_SMALL = re.compile(r"\b(?:small|smaller|smallest|little|littler|littlest|tiny|tinier|tiniest|baby|young|younger|"
                    r"youngest|shortest|shorter)\b")
_BIG = re.compile(r"\b(?:big|bigger|biggest|large|larger|largest|huge|giant|great big|adult|grown|tallest|taller|tall)\b")
# "the dog next to the bike": the one nearest the other named thing
_BESIDE = re.compile(r"\b(?:next to|beside|near|close to|behind|in front of)\s+(.+)$")


def _is_plural(text: str, label: str) -> bool:
    toks = re.findall(r"[a-z]+", text)
    if any(t in _ALL_WORDS or t in _NUMBER_WORDS for t in toks):
        return True
    last = label.split()[-1]  # ("the dancers": every person, as "the people" is)
    return any(t in (last + "s", last + "es") or (singular(t) != t and SYNONYMS.get(singular(t)) == label) for t in toks)


@dataclass(frozen=True)
class Match:
    """What :func:`match_objects` found for a phrase: the boxes it names, and what else was there.

    ``boxes`` are the objects the words name (one for a singular phrase: "the dog"); ``others`` are
    the other detections of the same kind that the words did not pick ("the dog" in a photo of
    two); ``weak`` is true when a chosen object was found only on the detector's second look
    (:data:`SECOND_LOOK`, below :data:`MIN_SCORE`): perhaps not that thing at all. ``label`` is the
    detector's class, ``plural`` whether the words ask for every such object.
    """

    boxes: list[Box]
    others: list[Box]
    label: str
    plural: bool
    weak: bool
    positioned: bool  # the words said which one ("on the left", "the red car")
    detected: tuple[str, ...] = ()  # the detector's classes of the boxes ("sheep" for a "camel")


def match_objects(pixels: np.ndarray, words: str) -> list[Match]:
    """One :class:`Match` per part of ``words`` ("the cat and the cup" is two), in order; raises
    :class:`ObjectNotFound` as :func:`find_objects` does."""
    if not isinstance(words, str) or not words.strip():
        raise ObjectNotFound("no object was named")
    rgb = to_rgb8(pixels)
    but = ALL_BUT.fullmatch(words.strip())
    if but:
        return [_all_but(rgb, but.group("all"), but.group("keep"))]
    parts = [p for p in re.split(r"\band\b|,|;", words) if p.strip()]
    found = [_match_one(rgb, part) for part in parts or [words]]
    for i, m in enumerate(found):
        if m.plural or m.positioned:
            continue
        # "the man and the woman": two people, not the surest one twice (it edited one person); the
        # parts that said which one keep theirs ("the woman and the man on the right")
        taken = {b for j, o in enumerate(found) if j != i and (j < i or o.plural or o.positioned) for b in o.boxes}
        free = [b for b in m.others if b not in taken]
        if taken.issuperset(m.boxes) and free:
            found[i] = dataclasses.replace(m, boxes=free[:1], others=[b for b in [*m.boxes, *m.others] if b != free[0]])
    chosen = {b for m in found for b in m.boxes}  # another part's choice is no "other" left unpicked
    return [dataclasses.replace(m, others=[b for b in m.others if b not in chosen]) for m in found]


KEEP_OVERLAP = 0.5  # a box overlapping one kept this much (IoU) is that one


def _all_but(rgb: np.ndarray, every_words: str, keep_words: str) -> Match:
    """The things ``every_words`` names (all of them: "all the people", "everyone", "the cars in the
    background") except those ``keep_words`` names, as one plural match whose others are the ones
    kept. It was "I can't keep only some of them" (GIER: 23 requests). Raises
    :class:`ObjectNotFound` when the ones to keep are not found (nothing is guessed) or are all."""
    every_words = EVERYONE.sub("the people", every_words.strip(), count=1)
    every = _match_one(rgb, every_words if re.match(r"(?:all|every|each|both)\b", every_words) else f"all {every_words}")
    try:
        kept = [b for part in re.split(r"\band\b|,|;", keep_words) if part.strip()
                for b in _match_one(rgb, part).boxes]
    except ObjectNotFound:
        raise ObjectNotFound(f"I can't tell which {plural(every.label)} are {keep_words.strip()}") from None
    chosen = [b for b in [*every.boxes, *every.others] if not any(box_iou(b, k) > KEEP_OVERLAP for k in kept)]
    if not chosen:
        raise ObjectNotFound(f"every {every.label} I see is {keep_words.strip()}: there is none to remove")
    return Match(chosen, kept, every.label, plural=True, weak=every.weak, positioned=True, detected=every.detected)


def find_objects(pixels: np.ndarray, words: str) -> list[Box]:
    """The boxes ``(x1, y1, x2, y2)`` (pixels, ``x2``/``y2`` exclusive) of the objects ``words`` names.

    "the people", "all the cats", "both dogs", "two cups" give every matching object, left to
    right; "the person on the left" the leftmost one, "the red car" the one whose colour is
    closest to red, "the dog" the most confident detection; "the cat and the cup" both (parts
    joined by "and" or a comma are looked for one by one). Raises :class:`ObjectNotFound` when a
    part names no COCO object or none is detected.

    Examples
    --------
    >>> from skimage import data
    >>> find_objects(data.coffee(), "the cup")        # doctest: +SKIP
    [(36, 1, 564, 322)]
    """
    boxes: list[Box] = []
    for match in match_objects(pixels, words):
        for b in match.boxes:
            if b not in boxes:
                boxes.append(b)
    return boxes


def _named_dets(rgb: np.ndarray, word: str) -> tuple[list[Detection], bool, dict[Box, str]]:
    """The detections the caption's naming (:func:`agent.perception.naming.name_objects`) calls
    ``word`` ("swan" for a detector's "bird", "camel" for its "sheep"; "animal" for any animal),
    as detections labelled ``word`` and scored by the naming's confidence; whether all of them
    are weak (an unsure detector and an unsure name); and each box's detector class. Raises
    :class:`ObjectNotFound` naming what was seen instead, with their boxes (``exc.seen``)."""
    from agent.perception.naming import COCO_KINDS, name_objects
    from agent.perception.things import animal_noun
    from agent.perception.vocabulary import animal_words
    from agent.perception.wordnet import first_is_a

    dets = detect(rgb, min_score=SECOND_LOOK)
    names = name_objects(rgb, dets)
    animal = word in animal_words() or animal_noun(word) is not None
    hits, loose, seen = [], [], []
    for d, n in zip(dets, names):
        said = n.said or n.noun
        kind = COCO_KINDS.get(n.noun) or ("animal" if said in animal_words() else None)
        box = tuple(int(v) for v in d.box)
        if word in (said, n.noun) or word == kind or (animal and said != word and first_is_a(said, word)):
            # (a "wallaby" is a kangaroo: "make the kangaroo brighter")
            hits.append((Detection(word, max(d.score, n.confidence), box), d, n))
        elif animal and (said == "animal" or first_is_a(word, d.label)):
            # "the gorilla" where the caption, unsure which, says "an animal"; "the owl" where it says
            # "a bird", which an owl is by WordNet (it was refused: "I can see a bird"; a bison is no cow)
            loose.append((Detection(word, max(d.score, n.confidence), box), d, n))
        elif n.noun != "object" and d.score >= MIN_SCORE:
            seen.append((said, box))
    hits = hits or loose
    weak = all(d.score < MIN_SCORE and n.confidence < NAMED_SURE for _, d, n in hits)
    classes = {h.box: d.label for h, d, _ in hits}
    hits = [h for h, _, _ in hits]
    if not hits:
        raise ObjectNotFound(f"I couldn't find {with_article(word)} in the picture" + (
            f"; I can see {_join_seen(seen)} ({'the boxes are' if len(seen) > 1 else 'its box is'} on the picture)"
            if seen else ""), seen=seen)
    return hits, weak, classes


def _join_seen(seen: list[tuple[str, Box]]) -> str:
    words = list(dict.fromkeys(w for w, _ in seen))[:3]
    said = [with_article(w) for w in words]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]


def _match_one(rgb: np.ndarray, words: str) -> Match:
    phrase, text = object_phrase(words)
    h, w = rgb.shape[:2]
    each = _is_plural(text, phrase.label)  # every one the words leave ("the people on the left": on that side)
    # "the bison in the background" among a herd: every one there, counted in the reply (one of eight
    # went, and the reply said "Removed the bison in the background")
    each = each or (same_in_plural(phrase.label) and bool(phrase.position or _FAR.search(text)))
    if phrase.label in COCO_LABELS.values():
        dets = [d for d in detect(rgb, min_score=MIN_SCORE) if d.label == phrase.label]
        if each:  # every one of them: looked at closer too, or the small ones far off are left standing
            dets = look_closer(rgb, dets, min_score=MIN_SCORE, label=phrase.label)
        weak = False
        if not dets:  # small or unusual objects score low; look again before saying no
            dets = [d for d in detect(rgb, min_score=SECOND_LOOK) if d.label == phrase.label]
            weak = bool(dets)
        if phrase.label == "person":  # not the cygnets beside a swan
            dets = without_mistaken_people(rgb, dets)
        if not dets:
            raise ObjectNotFound(f"I couldn't find {phrase.text or phrase.label!r} in the picture")
        classes = {tuple(int(v) for v in d.box): d.label for d in dets}
    else:  # "the swan", "the camel", "the animal": a word of the caption's, not the detector's
        dets, weak, classes = _named_dets(rgb, phrase.label)
        dets = sorted(dets, key=lambda d: -d.score)
    every = [tuple(int(v) for v in d.box) for d in dets]
    positioned = bool(phrase.position or (phrase.colour and phrase.colour in COLOR_WORDS))
    rel = _BESIDE.search(text)
    if rel is not None and not names_object(rel.group(1)):
        rel = None  # "the bench by the old oak": not a thing the detector could place
    head = text[:rel.start()] if rel is not None else text
    depth = "far" if _FAR.search(head) else "near" if _NEAR.search(head) else None
    if depth is not None:
        dets, positioned = _by_depth(dets, depth, phrase.label, each, h), True
    size = "small" if _SMALL.search(head) else "big" if _BIG.search(head) else None
    young = next((t for t in re.findall(r"[a-z]+", words.lower()) if t in YOUNG), None)
    # the young of a kind only the classifier names are seldom found as that kind (cygnets are
    # "persons" to the detector): one, or all, clearly smaller than another of the kind, else asked
    # ("remove the cygnets" removed the grown swan beside them, the one "swan" found)
    if young and size is None and (phrase.label not in COCO_LABELS.values() or (not each and len(dets) > 1)):
        dets = the_young(dets, young, phrase, every=each)
        positioned = positioned or len(dets) == 1
    if size is not None and len(dets) > 1:
        tall = re.search(r"\b(?:tall|taller|tallest|shorter|shortest)\b", head)  # by height, as "which one is the tallest?" answers
        area = {id(d): (d.box[3] - d.box[1]) * (1 if tall else d.box[2] - d.box[0]) for d in dets}
        pick = min if size == "small" else max
        dets, positioned = [pick(dets, key=lambda d: area[id(d)])], True
    beside = None
    if rel is not None:
        try:
            other = _match_one(rgb, rel.group(1))
        except ObjectNotFound as exc:
            raise ObjectNotFound(f"I couldn't find {rel.group(1).strip()!r}, which {phrase.text or phrase.label!r} "
                                 f"is next to ({exc})") from None
        beside = list(other.boxes)
        dets = [d for d in dets if tuple(int(v) for v in d.box) not in beside] or dets
        which_one.either_side(dets, beside, phrase.label, rel.group(1).strip(), placed=bool(phrase.position))
        positioned = True
    if each and phrase.position:
        # "the people on the left" took the one most to the left, under a group of three, and
        # said "Removed the people on the left": every one on that side, or, if none is, the one
        # nearest it when it is on that half (the reply counts it: "removed 1 person"), else none
        # (the nearest pointed at)
        side = [d for d in dets if on_side(d.box, phrase.position, w, h)]
        if not side:
            side = [max(dets, key=lambda d: position_score(d.box, phrase.position, w, h))]
            nearest = tuple(int(v) for v in side[0].box)
            if _other_side(nearest, phrase.position, w, h):
                raise ObjectNotFound(
                    f"I see no {plural(phrase.label)} {place_phrase(phrase.position)}; the nearest "
                    f"{phrase.label} is {place_phrase(box_place(nearest, (w, h)))} (its box is on the picture)",
                    seen=[(phrase.label, nearest)])
        dets, positioned = side, True
    if each:  # each one the words leave ("the people in the background": the far ones), surest first
        boxes = [tuple(int(v) for v in d.box) for d in sorted(dets, key=lambda d: -d.score)]
        wanted = next((n for t, n in _NUMBER_WORDS.items() if re.search(rf"\b{t}\b", text)), None)
        if wanted is not None:  # "the two dogs": the two surest
            boxes = boxes[:wanted]
        boxes = sorted(boxes, key=lambda b: (b[0] + b[2]))
        return Match(boxes, [b for b in every if b not in boxes], phrase.label, True, weak, positioned,
                     tuple(dict.fromkeys(classes[b] for b in boxes)))

    ordinal = which_one.ORDINAL.search(head)
    if ordinal is not None:  # "the second giraffe", "the third person from the right"
        best = tuple(int(v) for v in which_one.by_ordinal(dets, ordinal.group(1), phrase.position, phrase.label).box)
        return Match([best], [b for b in every if b != best], phrase.label, False, weak, True, (classes[best],))
    extreme = bool(phrase.position and _EXTREME.search(head))
    # (one found is asked about too: "make the white one warmer" of a brown camel said "the white camel")
    colours = colours_of(rgb, dets, phrase.label) if phrase.colour in COLOR_WORDS else {}
    if colours:
        some_of_colour(phrase.colour.replace("gray", "grey"), phrase.label, dets, colours, rgb)

    def score(d) -> float:
        s = d.score * (0.01 if extreme else 1.0)
        if phrase.position:
            s += 2 * position_score(d.box, phrase.position, w, h)
        if phrase.colour and phrase.colour in COLOR_WORDS:
            want, got = phrase.colour.replace("gray", "grey"), colours.get(id(d))
            s += 0.5 if got == want else 0.25 if got in NEAR_COLOURS.get(want, ()) else 0.0
        if beside is not None:  # nearest the other thing, in units of the image's diagonal
            cx, cy = (d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2
            s -= 4 * min(math.hypot(cx - (b[0] + b[2]) / 2, cy - (b[1] + b[3]) / 2) for b in beside) / math.hypot(w, h)
        return s

    main = None if positioned or beside is not None or extreme or young else the_prominent(dets)
    best = tuple(int(v) for v in (main or max(dets, key=score)).box)
    # (one in the middle is not "the person on the right" either: it was brightened and said so)
    if phrase.position and len(every) == 1 and (_other_side(best, phrase.position, w, h) if extreme
                                                else not on_side(best, phrase.position, w, h)):
        _only_one_elsewhere(rgb, best, phrase.position, phrase.label)
    if phrase.position and phrase.position != "centre" and not extreme:
        _further_found(best, phrase.position, phrase.label, every, w, h)
        _none_further(rgb, best, phrase.position, phrase.label, every)
    return Match([best], [b for b in every if b != best], phrase.label, False, weak, positioned, (classes[best],))


def _other_side(box: Box, position: str, w: int, h: int) -> bool:
    """Whether the box's centre is on the other half of the picture from ``position`` ("right" for
    a box left of the middle)."""
    cx, cy = (box[0] + box[2]) / 2 / w, (box[1] + box[3]) / 2 / h
    return any(word == "left" and cx > 0.5 or word == "right" and cx < 0.5 or word == "top" and cy > 0.5
               or word == "bottom" and cy < 0.5 for word in position.split())


def _only_one_elsewhere(rgb: np.ndarray, best: Box, position: str, word: str) -> None:
    """Raises :class:`ObjectNotFound` for "the swan on the right" where the one swan found is on the
    left: it was removed, and the reply said "Removed the swan on the right". What the detector
    finds on the side asked about is pointed at too (the other swan, a "bird" to the naming)."""

    from agent.perception.animals import without_mistaken_people

    h, w = rgb.shape[:2]
    # (not the "persons" that are animals: the cygnets beside a swan were "on the right I see a person")
    there = [(d.label, tuple(int(v) for v in d.box)) for d in without_mistaken_people(rgb, detect(rgb, min_score=SECOND_LOOK))
             if not _other_side(d.box, position, w, h) and box_iou(d.box, best) < 0.3]
    asked = place_phrase(position)
    said = f"I see one {word}, {place_phrase(box_place(best, (w, h)))}, and none {asked}"
    if there:
        said += f"; {asked} I see {_join_seen(there)}"
    raise ObjectNotFound(said + " (the boxes are on the picture)", seen=[(word, best), *there])


# another one found is further that way than the surest one chosen by this share of the picture:
# then which one "the X on the right" means is asked, not guessed
FURTHER_BY = 0.1


def _further_found(best: Box, position: str, word: str, every: list[Box], w: int, h: int) -> None:
    """Raises :class:`ObjectNotFound` (both boxes to point at) when another ``word`` found is further
    in the direction ``position`` names than ``best``, which the detector was surer of: of four
    musicians, the detector was sure of the man in the middle right (0.94) and not of the violinist
    at the right edge (0.32), and "remove the person on the right" removed the man."""
    further = [b for b in every if b != best
               and position_score(b, position, w, h) > position_score(best, position, w, h) + FURTHER_BY]
    if further:
        side = position.split()[-1]
        raise ObjectNotFound(f"I'm not sure which {word} is the one on the {position}: I'm surest of one, and "
                             f"there is another further {side} (both boxes are on the picture); say “the {word} "
                             f"on the far {side}” for that one", seen=[(word, best), (word, further[0])])


def _none_further(rgb: np.ndarray, best: Box, position: str, word: str, every: list[Box]) -> None:
    """Raises :class:`ObjectNotFound` (both boxes to point at) when the detector, shown the part of
    the picture beyond ``best`` in the direction ``position`` names, finds another ``word`` there
    that it missed on the whole picture: then ``best`` is not "the one on the left". Of three
    meerkats the detector found the middle and the right one, and "remove the meerkat on the left"
    removed the middle one."""
    h, w = rgb.shape[:2]
    x1, y1, x2, y2 = best
    crop = [0, 0, w, h]  # all of the picture past the box's edge (a piece of it confuses the detector)
    for side in position.split():
        if side == "left":
            crop[2] = x1
        elif side == "right":
            crop[0] = x2
        elif side == "top":
            crop[3] = y1
        elif side == "bottom":
            crop[1] = y2
    if crop[2] - crop[0] < 32 or crop[3] - crop[1] < 32 or crop == [0, 0, w, h]:
        return
    found = [Detection(d.label, d.score, (d.box[0] + crop[0], d.box[1] + crop[1], d.box[2] + crop[0], d.box[3] + crop[1]))
             for d in detect_objects(rgb[crop[1]:crop[3], crop[0]:crop[2]], min_score=FURTHER_SCORE)]
    # not one already found, nor a piece of one the crop cut (a bird's tail past the crop's edge)
    beyond = [d for d in found if all(box_iou(d.box, b) < 0.3 and inside_share(d.box, b) < 0.5 for b in [best, *every])
              and position_score(d.box, position, w, h) > position_score(best, position, w, h)]
    if not beyond:
        return
    if word in COCO_LABELS.values():
        more = [d for d in beyond if d.label == word]
    else:
        from agent.perception.naming import name_objects

        more = [d for d, n in zip(beyond, name_objects(rgb, beyond))
                if word in (n.said, n.noun) and n.confidence >= NAMED_SURE]
    if more:
        box = tuple(int(v) for v in more[0].box)
        raise ObjectNotFound(f"I'm not sure which {word} is the one on the {position}: I found one, and then "
                             f"another further {position.split()[-1]} (both boxes are on the picture)",
                             seen=[(word, best), (word, box)])


def _by_depth(dets: list, depth: str, label: str, every: bool, image_height: int) -> list:
    """The detections "in the background" (``far``: smaller and standing higher in the frame than the
    nearest one, :func:`agent.edits.depth.split_by_depth`) or "in the foreground" (``near``: the
    others). Raises :class:`ObjectNotFound` when the cues do not say (one object, or all alike);
    ``every``: the words ask for all of them ("the people in the background"). By height alone, a
    bison cut off by the frame's edge beside the nearest one was "in the background" and removed
    with the herd behind, its tail left standing."""
    boxes = [tuple(int(v) for v in d.box) for d in dets]
    front, back, _ = split_by_depth(boxes, image_height) if len(dets) > 1 else (boxes, [], None)
    chosen = [d for d, b in zip(dets, boxes) if (b in back) == (depth == "far")]
    if not back or not chosen:
        where = "in the background" if depth == "far" else "in the foreground"
        which = f"which {plural(label)} are" if every else f"which {label} is"
        raise ObjectNotFound(f"I can't tell {which} {where}: they look about the same distance away")
    return chosen


def removal_mask(pixels: np.ndarray, boxes: list[Box], *, keep: tuple[Box, ...] | list[Box] = ()) -> np.ndarray:
    """The union of the objects' masks (:func:`object_mask`, which leaves the objects in ``keep``
    out), dilated so the fill also covers their soft edges and a thin halo (by 1.5% of the larger
    box side plus 3 pixels), but not into those neighbours."""
    return _removal(pixels, boxes, keep)[0]


def _removal(pixels: np.ndarray, boxes: list[Box], keep) -> tuple[np.ndarray, np.ndarray]:
    """:func:`removal_mask`, and what the fill is not to copy: the own masks of the neighbours in
    ``keep`` within :data:`KEPT_REACH` of an object removed (a farther one is not among the fill's
    sources; a false detection's box there once took the sky the fill needed)."""
    h, w = pixels.shape[:2]
    hole = np.zeros((h, w), np.uint8)
    kept = np.zeros((h, w), bool)
    cache: dict = {}
    for box in boxes:
        m, others = apart(pixels, box, keep, cache)
        if (box[2] - box[0]) * (box[3] - box[1]) < SMALL_SHARE * h * w:
            gx1, gy1, gx2, gy2 = grow_box(box, SMALL_GROW, w, h)
            m[gy1:gy2, gx1:gx2] = True  # a small one's box, a head or feet's margin round it, is its hole
            m &= ~others
        else:  # what u2netp left out of it in its box: a duck's orange feet, its shadow
            m |= attached_parts(pixels, m, box) & ~others
        r = int(0.015 * max(box[2] - box[0], box[3] - box[1])) + 3
        k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
        # the halo grows into the background, not into a neighbour left in place (its edge a pixel in)
        grown = (cv2.dilate(m.astype(np.uint8), k) > 0) & ~(cv2.erode(others.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0)
        hole |= fill_small_holes(grown, GAP_SHARE * grown.sum()) & ~others  # an antler's lit palm u2netp missed: left floating
        kept |= others
    for k in keep:
        k = tuple(int(v) for v in k)
        if not any(_near(k, b, KEPT_REACH) for b in boxes):
            continue
        if (k[2] - k[0]) * (k[3] - k[1]) < SMALL_SHARE * h * w:  # a small one's mask is a coat: its box
            gx1, gy1, gx2, gy2 = grow_box(k, SMALL_GROW, w, h)
            kept[gy1:gy2, gx1:gx2] = True
        else:
            if k not in cache:
                cache[k] = kept_apart.own_mask(pixels, k)  # (one module's name: tests replace it there)
            kept |= cache[k]
    return hole > 0, kept & ~(hole > 0)


def _near(a: Box, b: Box, reach: float) -> bool:
    """Whether box ``a`` meets box ``b`` grown by ``reach`` times its larger side."""
    g = reach * max(b[2] - b[0], b[3] - b[1])
    return a[0] < b[2] + g and b[0] - g < a[2] and a[1] < b[3] + g and b[1] - g < a[3]


def neighbour_boxes(pixels: np.ndarray, boxes: list[Box]) -> list[Box]:
    """The other objects the detector sees (any kind, not one of ``boxes``): what a removal must leave.

    A small unsure detection within a removed object's box is a piece of it, not a neighbour (a
    swan's orange beak seen as a "frisbee" at 0.3 stayed floating on the water when the swan went):
    under :data:`PART_SCORE` and :data:`PART_AREA` of that box's area."""
    out = []
    for d in detect(to_rgb8(pixels), min_score=MIN_SCORE):
        b = tuple(int(v) for v in d.box)
        area = (b[2] - b[0]) * (b[3] - b[1])
        part = d.score < PART_SCORE and any(
            inside_share(b, t) >= 0.9 and area < PART_AREA * (t[2] - t[0]) * (t[3] - t[1]) for t in boxes)
        if all(box_iou(b, t) < 0.7 for t in boxes) and not part:
            out.append(b)
    return out


def removal_hole(pixels: np.ndarray, words: str) -> tuple[np.ndarray, list[Match], np.ndarray | None]:
    """The hole :func:`remove_objects` fills for ``words``, the matches it came from (none for
    text: :func:`text_mask`), and the pixels the fill is not to copy (:func:`hole_for`; None for
    text). Each object's mask leaves out the other objects the detector sees
    (:func:`object_mask`'s ``keep``: never a neighbour in the same box)."""
    if names_text(words):
        return text_mask(pixels, find_text(pixels, words)[0]), [], None  # as the chat's removal picks them
    found = match_objects(pixels, words)
    hole, kept = hole_for(pixels, found)
    return hole, found, kept


def hole_for(pixels: np.ndarray, found: list[Match]) -> tuple[np.ndarray, np.ndarray]:
    """The removal mask of the boxes ``found`` chose, leaving out the other objects the detector
    sees and the others of the same kind the words did not choose, however unsure the detector was
    of them (a calf beside the camel removed, a 0.27 "cow" to the detector, lost its head with it);
    and those objects' pixels, which the fill is not to copy (``inpaint``'s ``avoid``: pieces of
    the calf in the camel's hole showed as a ghost)."""
    boxes: list[Box] = []
    for m in found:
        boxes += [b for b in m.boxes if b not in boxes]
    keep = neighbour_boxes(pixels, boxes)
    keep += [b for m in found for b in m.others if b not in boxes and b not in keep]
    return _removal(pixels, boxes, keep)


def remove_objects(pixels: np.ndarray, words: str) -> np.ndarray:
    """The image with the objects ``words`` names removed and filled from their surroundings.

    Each object found by :func:`find_objects` ("remove the people" removes every person; "the
    people in the background" the smaller ones; "the dog next to the bike" the one nearest a
    bike) is masked (:func:`object_mask`, leaving out the other objects the detector sees), the
    masks are dilated (:func:`removal_mask`) and the hole is filled by :func:`editor.fill.inpaint`;
    "the text", "the caption", "the watermark" is the OCR model's lines (:func:`text_mask`).
    Pixels outside the dilated mask are unchanged. Raises :class:`ObjectNotFound` when nothing matches.
    """
    hole, _, kept = removal_hole(pixels, words)
    return inpaint(pixels, hole, avoid=kept)


def remove_region(pixels: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The image with the region ``mask`` (what the person drew: a soft or hard mask, the part of
    it at 0.5 and above) removed and filled from its surroundings (:func:`editor.fill.inpaint`),
    dilated as :func:`removal_mask` dilates an object's mask (1.5% of its larger side plus 3
    pixels). Pixels outside the dilated region are unchanged. ``ValueError`` for an empty region."""
    hard = np.asarray(mask) >= 0.5
    if hard.shape != pixels.shape[:2] or not hard.any():
        raise ValueError("the region to remove is empty or not the size of the picture")
    ys, xs = np.nonzero(hard.any(axis=1))[0], np.nonzero(hard.any(axis=0))[0]
    r = int(0.015 * max(ys[-1] - ys[0] + 1, xs[-1] - xs[0] + 1)) + 3
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    return inpaint(pixels, cv2.dilate(hard.astype(np.uint8), k) > 0)


def background(pixels: np.ndarray, mode: str, keep: str = "", strength: float = 1.0) -> np.ndarray:
    """The main subject kept (u2netp's mask, :func:`editor.ops.subject_mask`), or the objects ``keep``
    names ("the dog", "the two people": :func:`find_objects`, each masked by :func:`object_mask`,
    edges feathered by a Gaussian of ``max(H, W)/1000`` px), and the background replaced by
    ``mode``: a colour name, ``"blur"`` (``strength`` times the usual) or ``"transparent"``
    (:func:`editor.regions.replace_background`). Raises :class:`ObjectNotFound` when ``keep`` names
    nothing found."""
    if not isinstance(mode, str) or (mode.strip().lower() not in regions.BACKGROUND_COLORS
                                     and mode.strip().lower() not in ("blur", "transparent")):
        raise ValueError(f"unknown background {mode!r}; use blur, transparent or a colour: "
                         f"{', '.join(regions.BACKGROUND_COLORS)}")
    if not keep:
        return regions.replace_background(pixels, mask=ops.subject_mask(pixels), mode=mode, strength=strength)
    h, w = pixels.shape[:2]
    kept = np.zeros((h, w), bool)
    for box in find_objects(pixels, keep):
        kept |= object_mask(pixels, box)
    mask = cv2.GaussianBlur(kept.astype(np.float32), (0, 0), sigmaX=max(1.0, max(h, w) / 1000))
    return regions.replace_background(pixels, mask=mask, mode=mode, strength=strength)


def crop_object(pixels: np.ndarray, words: str, *, margin: float = 0.1,
                matches: list[Match] | None = None) -> np.ndarray:
    """Crop to the object ``words`` names (all of them, for a plural) with ``margin`` of the box's
    size on each side (:func:`editor.regions.crop_to_box`); ``matches`` what :func:`match_objects`
    found for them, when already known. Raises :class:`ObjectNotFound`."""
    found = match_objects(pixels, words) if matches is None else matches
    boxes = list(dict.fromkeys(b for m in found for b in m.boxes))
    union = (min(b[0] for b in boxes), min(b[1] for b in boxes),
             max(b[2] for b in boxes), max(b[3] for b in boxes))
    return regions.crop_to_box(pixels, box=union, margin=margin)


def centre_on(pixels: np.ndarray, words: str, *, matches: list[Match] | None = None) -> np.ndarray:
    """The largest crop with the object ``words`` names (all of them, for a plural) in its middle:
    "crop it so the giraffes are centred". It holds the whole object (its box's centre is the crop's).
    Raises :class:`ObjectNotFound`."""
    found = match_objects(pixels, words) if matches is None else matches
    boxes = list(dict.fromkeys(b for m in found for b in m.boxes))
    x1, y1 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x2, y2 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    h, w = pixels.shape[:2]
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    half_w, half_h = min(cx, w - cx), min(cy, h - cy)
    return ops.crop(pixels, box=(int(round(cx - half_w)), int(round(cy - half_h)),
                                 int(round(cx + half_w)), int(round(cy + half_h))))


def subject_box(pixels: np.ndarray) -> Box | None:
    """The bounding box of the main subject (u2netp's mask above 0.5), or None when it is empty."""
    small = ops.mask_input(pixels)
    m = ops.predict_mask_small(small) > 127
    if m.sum() < 0.005 * m.size:
        return None
    ys, xs = np.nonzero(m)
    h, w = pixels.shape[:2]
    fy, fx = h / m.shape[0], w / m.shape[1]
    return (int(xs.min() * fx), int(ys.min() * fy), int((xs.max() + 1) * fx), int((ys.max() + 1) * fy))


def crop_aspect(pixels: np.ndarray, aspect: str | float) -> np.ndarray:
    """The largest ``aspect`` crop ("square", "4:3", "16:9", ...) centred on the main subject
    (:func:`subject_box`; the image centre when there is none; :func:`editor.regions.crop_aspect`)."""
    regions.aspect_ratio(aspect)  # check the argument before running a model
    return regions.crop_aspect(pixels, aspect=aspect, centre_box=subject_box(pixels))
