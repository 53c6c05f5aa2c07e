"""Which animal: where the COCO detector and the ImageNet classifier disagree about an animal.

The detector knows ten animals (:data:`COCO_ANIMALS`) and gives anything else its nearest one (a
goat a "cow", a rhinoceros an "elephant"); the classifier knows some 400 kinds of animals but reads
texture more than shape. :func:`disputed` says when the classifier names another animal more
surely than the detector's label (:mod:`agent.perception.naming` then says "an animal"), and
:func:`flat_fill` when a thing is a silhouette, whose class the classifier only guesses.
"""

from __future__ import annotations

import functools

import cv2
import numpy as np

from agent.perception.models import Detection, box_iou, classifier_and_labels, detect_objects
from agent.perception.region_evidence import crop_box
from agent.perception.vocabulary import agrees, animal_words, everyday_words

COCO_ANIMALS = {"bird", "cat", "dog", "horse", "sheep", "cow", "elephant", "bear", "zebra", "giraffe"}
SPECIES = animal_words(one_word=False)  # "red panda", "snow leopard" too
# A silhouette's share of pixels in one tone (:func:`flat_fill`): the dev sets' horse 0.52, the
# animals of real photos at most 0.21 (bench/animals.py; a person in black clothes 0.74).
FLAT_FILL = 0.4
# A "person" the detector is this unsure of (gcompris' swans: cygnets at 0.33-0.49), at least
# PERSON_SIDE pixels on its short side (a tourist 30 pixels tall is a "dog" to the classifier), whose
# square crop is an animal to the classifier (ImageNet kinds summed, at least PERSON_ANIMAL: four
# cygnets 0.50-0.91, a fifth 0.15) and whom the detector shown the box alone does not call a person
# at PERSON_SURE (:func:`closer_look`) is an animal (:func:`mistaken_people`). Of the persons at least
# 64 pixels wide and tall found on the development photos of gcompris' animals, peoples and
# monuments (the detector and its closer look, from 0.3), one other was an animal at 0.1 or more
# (0.34, a person on the closer look at 0.77).
PERSON_DOUBT = 0.6
PERSON_SIDE = 64
PERSON_ANIMAL = 0.4
PERSON_SURE = 0.85


def flat_fill(rgb: np.ndarray, box: tuple[int, int, int, int], mask: np.ndarray) -> bool:
    """Whether the thing's pixels (``mask`` in ``box``) are mostly one tone (:data:`FLAT_FILL` of
    them within 3 grey levels of their median): a silhouette, where the classifier, which reads
    texture more than shape, only guesses (a horse's is a "dog" at 0.65-0.83)."""
    x1, y1, x2, y2 = box
    px = cv2.cvtColor(np.ascontiguousarray(rgb[y1:y2, x1:x2]), cv2.COLOR_RGB2GRAY)[mask]
    if px.size == 0:
        return False
    return float(np.mean(np.abs(px.astype(np.float32) - np.median(px)) <= 3)) >= FLAT_FILL


def disputed(label: str, words: dict[str, float], contains=()) -> bool:
    """Whether the classifier, which has classes for the detector's animal ``label``, names another
    animal more surely than it (``contains``: words of things in view that do not count)."""
    if label not in COCO_ANIMALS or not classifier_knows(label):
        return False
    best, p_best = max(((w, p) for w, p in words.items() if w not in contains), key=lambda kv: kv[1],
                       default=("", 0.0))
    support = sum(p for w, p in words.items() if agrees(w, label))
    return best in SPECIES and not agrees(best, label) and p_best > support


@functools.cache
def classifier_knows(label: str) -> bool:
    """Whether some ImageNet class's everyday word agrees with a COCO label (the classifier can
    support a "dog" or a "laptop", never a "kite")."""
    _, labels = classifier_and_labels()
    return any(agrees(w, label) for w in everyday_words(labels) if w is not None)


# A detection left as "an animal" takes the species another detection of the photo was named by,
# when that species is also its own first word with this much: two jaguars side by side were a
# "jaguar" (0.65) and, at 0.53 for "jaguar" and 0.34 for "leopard" (under the 0.55 a species needs
# on its own), "an animal": "I count 1 jaguar" (bench/animals.py's jaguar photo).
SAME_SPECIES = 0.4


def same_species(named: list[tuple[str, str, str]], words: list[dict[str, float]]) -> dict[int, str]:
    """Which detections left as a kind or an object take a species named for another one in the
    same photo: ``named`` holds each detection's ``(noun, said, source)`` as
    :func:`agent.perception.naming.name_objects` decided it, ``words`` its crop's word
    probabilities. Index -> species. A thing of the same species beside a surely named one is the
    likelier reading of a first word that falls short of the bar alone; the other's species must
    be the classifier's (or both models'), not the detector's coarse label.

    >>> same_species([("jaguar", "jaguar", "classifier"), ("animal", "animal", "both")],
    ...              [{"jaguar": 0.65}, {"jaguar": 0.53, "leopard": 0.34}])
    {1: 'jaguar'}
    >>> same_species([("jaguar", "jaguar", "classifier"), ("animal", "animal", "both")],
    ...              [{"jaguar": 0.65}, {"leopard": 0.5, "jaguar": 0.3}])
    {}
    """
    sure = {said for _, said, source in named if source in ("classifier", "both") and said in SPECIES}
    out = {}
    for k, ((noun, _, _), w) in enumerate(zip(named, words)):
        best, p = max(w.items(), key=lambda kv: kv[1], default=("", 0.0))
        if noun in ("animal", "object") and best in sure and p >= SAME_SPECIES:
            out[k] = best
    return out


# A herd's small ones (this share of the surely named one's box or less) are too small for the
# classifier to tell (a 60-pixel bison: "pig" 0.41, "dog" 0.22) and are named as it is.
HERD_SHARE = 0.25


def herd(named: list[tuple[str, str, str]], labels: list[str], areas: list[float]) -> dict[int, str]:
    """Which detections left as a kind, an object or the detector's coarse label take the species of
    a larger one the detector gave the same label and the classifier named surely: the bison in the
    background of a bison were "a cow", "two animals" and "a bison" (bench/animals.py's bison photo).
    ``named`` as for :func:`same_species`, ``labels`` the detector's labels, ``areas`` the boxes'
    areas. Index -> species.

    >>> herd([("cow", "bison", "both"), ("cow", "cow", "both"), ("animal", "animal", "both")],
    ...      ["cow", "cow", "cow"], [1000.0, 100.0, 900.0])
    {1: 'bison'}
    """
    leaders = sorted((k for k, (_, said, source) in enumerate(named)
                      if labels[k] in COCO_ANIMALS and source in ("classifier", "both") and said in SPECIES
                      and said != labels[k]), key=lambda k: -areas[k])
    out = {}
    for k, (noun, said, _) in enumerate(named):
        if labels[k] not in COCO_ANIMALS or not (noun in ("animal", "object") or said == labels[k]):
            continue
        lead = next((j for j in leaders if labels[j] == labels[k] and areas[k] <= HERD_SHARE * areas[j]), None)
        if lead is not None:
            out[k] = named[lead][1]
    return out


def closer_look(rgb: np.ndarray, box: tuple[int, int, int, int], min_score: float) -> str | None:
    """The label of the surest thing the detector, shown the box grown by 15%, finds filling it
    (IoU >= 0.5) at ``min_score`` or more; None when it finds none."""
    x1, y1, x2, y2 = crop_box(box, rgb.shape, pad=0.15)
    if x2 - x1 < 16 or y2 - y1 < 16:
        return None
    for d in sorted(detect_objects(rgb[y1:y2, x1:x2], min_score=min_score), key=lambda d: -d.score):
        b = (d.box[0] + x1, d.box[1] + y1, d.box[2] + x1, d.box[3] + y1)
        if box_iou(b, box) >= 0.5:
            return d.label
    return None


def mistaken_people(rgb: np.ndarray, dets: list[Detection], probs: np.ndarray | None = None) -> set[int]:
    """Which of ``dets`` are "persons" the detector is unsure of that are animals (:data:`PERSON_DOUBT`):
    the cygnets beside a swan were "a person in black" in describe, 5 people in "how many people?" and
    the one removed by "remove the person". ``probs``: the classifier's square crops of ``dets``,
    when already run."""
    from agent.perception.classify import classify_crops, kind_probs

    doubt = [k for k, d in enumerate(dets) if d.label == "person" and d.score < PERSON_DOUBT
             and min(d.box[2] - d.box[0], d.box[3] - d.box[1]) >= PERSON_SIDE]
    if not doubt:
        return set()
    if probs is None:
        crops = classify_crops(rgb, [dets[k].box for k in doubt], square=True)
        probs_of = dict(zip(doubt, crops))
    else:
        probs_of = {k: probs[k] for k in doubt}
    return {k for k in doubt if kind_probs(probs_of[k]).get("animal", 0.0) >= PERSON_ANIMAL
            and closer_look(rgb, dets[k].box, PERSON_SURE) != "person"}


def without_mistaken_people(rgb: np.ndarray, dets: list[Detection]) -> list[Detection]:
    """``dets`` without the "persons" that are animals (:func:`mistaken_people`)."""
    wrong = mistaken_people(rgb, dets)
    return [d for k, d in enumerate(dets) if k not in wrong]
