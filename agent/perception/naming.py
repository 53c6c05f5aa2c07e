"""Naming detected objects: the COCO detector and the ImageNet classifier together, and the colour
of an object from its own pixels.

SSD-MobileNet knows 80 COCO classes, so a tiger comes back as a "zebra" or a "cat" and a helmet as a
"sports ball". EfficientNet-Lite0 knows 1000 ImageNet classes but not where things are. Each
detection's crop is classified; the probabilities are summed per everyday word
(:mod:`agent.perception.vocabulary`: "tabby" and "Egyptian cat" both count for "cat"), and:

- a species COCO has no class for ("tiger", "wolf", "lion"), named by the classifier at
  :data:`FINE_CONFIDENCE` or more, wins over the detector's animal label, which is only its nearest
  class ("zebra", "dog", "cat"); the detector's box is kept (:data:`FINE_CONFIDENCE`);
- a word that agrees with the detector's label ("mug" for "cup") confirms it;
- a word the classifier is sure of (probability >= :data:`NAME_CONFIDENCE`) that the detector
  does not know replaces its label ("tiger" for a "zebra");
- where the detector's label gets no support, the detector is not sure (< :data:`DETECTOR_SURE`)
  and the classifier names another thing with probability >= :data:`OVERRIDE_CONFIDENCE`, the
  classifier's word is taken (a rocket the detector calls an "airplane");
- a detector label the classifier does not support is kept only when the detector is sure
  (score >= :data:`DETECTOR_CONFIDENCE`), else the thing is "an object", described by its colour;
- a classifier's word, for a detection or a dwell, is taken only when it holds in another view of
  the box (:func:`holds_reframed`, :func:`keeps_its_word`): guesses hold in one framing only.
- where no species is sure but ImageNet's classes of the detector's kind together are
  (:data:`KIND_CONFIDENCE`; kinds from WordNet's hypernyms, :mod:`agent.perception.wordnet`), the
  kind is said: "an animal", "a vehicle", rather than a wrong species or "an object";
- where the classifier names another animal more surely than the detector's (a goat the detector
  calls a "cow" and the classifier a "dog"; :func:`agent.perception.animals.disputed`), one model
  is wrong and both say "an animal" (:data:`ANIMAL_AGREED`), unless the thing is a silhouette
  (:func:`agent.perception.animals.flat_fill`), on which the classifier only guesses; the
  detector shown the box alone does not undo that kind;
- both models agreeing on a finer word of the detector's animal ("bison" for a "cow", "chicken"
  for a "bird") say the finer word; a fine class does not win over a label ImageNet has no class
  for (a giraffe's head is a "jaguar" to the classifier);
- two of a species side by side are named alike (:func:`agent.perception.animals.same_species`),
  and a thing keeps the name the photo as opened gave it (:mod:`agent.perception.names_kept`).

``bench/trace.py --animals N`` measures these on real photos of animals (bench/animals.py).

:data:`NAME_CONFIDENCE` was measured by ``bench/naming.py`` on 18 crops of things and 22 crops
of no thing from the development set: no thing got a wrong word at any threshold from 0.10, and
no crop of no thing (flat crops left out by :func:`has_structure`) got a word at 0.55 or above.
What a trace dwells on where the detector found nothing is named only from
:data:`DWELL_CONFIDENCE`: on whole photos the classifier's nearest class for what it does not know
came out at up to 0.62.

The colour comes from the object's pixels: a GrabCut mask inside the box (the box's edges are the
background's), not the box's median, named with a basic colour term in CIELAB after the photo's
white balance (:mod:`agent.perception.colour_terms`; ``bench/colours.py``). People are never described by the colour of their skin: a
person's colour is their clothing's, with skin-coloured pixels and the head left out
("a person in orange"), or no colour when too little clothing shows.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from agent.perception.animals import COCO_ANIMALS as _COCO_ANIMALS
from agent.perception.animals import SPECIES as _SPECIES
from agent.perception.animals import (
    classifier_knows,
    closer_look,
    disputed,
    flat_fill,
    herd,
    mistaken_people,
    same_species,
)
from agent.perception.classify import classify_crops, has_structure, kind_probs, square_box, word_probs
from agent.perception.clothing import face_in, faces_of, person_clothing_colour, skin_mask  # noqa: F401 - naming's own words
from agent.perception.colour_terms import colour_term, photo_light, two_tone
from agent.perception.models import COCO_LABELS, Detection, classifier_and_labels, to_rgb8
from agent.perception.names_kept import given_word, kept_name, reference_things
from agent.perception.region_evidence import contrast_with_surroundings, crop_box, goes_on_to_an_edge
from agent.perception.vocabulary import agrees, coco_label

_COCO_VEHICLES = {"bicycle", "car", "motorcycle", "airplane", "bus", "train", "truck", "boat"}
# The kind of each COCO label that has one (agent.perception.vocabulary.KIND_WORDS).
COCO_KINDS = {**{a: "animal" for a in _COCO_ANIMALS}, **{v: "vehicle" for v in _COCO_VEHICLES}}
_COCO_NAMES = set(COCO_LABELS.values())

# A species the classifier names at least this surely wins over the detector's animal label when
# COCO has no class for it (a "tiger", a "wolf", a "lion", a "fox"): the detector could not have
# said it and gives its nearest class ("zebra", "dog", "cat"), so its label is no evidence against
# the species. Same bar as any classifier name (bench/naming.py: no wrong word from 0.10 on crops
# of things). Between two COCO animals (a "cow" the detector calls a "horse") the classifier still
# has to be surer than the detector: a horse's black silhouette is a "horse" to the detector at
# 0.97 and a "dog" to the classifier at 0.65-0.83 (bench/classifiers.py, bench/trace.py dev sets).
FINE_CONFIDENCE = 0.55
# The classes of one kind ("animal", "vehicle": WordNet, agent.perception.vocabulary.class_kinds)
# together this sure name the kind when no species is sure: "an animal", not a wrong species and
# not "an object".
KIND_CONFIDENCE = 0.6
# Where the detector names an animal and the classifier another (:func:`disputed`), both say it is
# an animal: the classifier's animal classes need only this much (0.46-0.71 there, bench/animals.py).
ANIMAL_AGREED = 0.4
# A detector's animal whose species the classifier supports under this much is "an animal" (not
# a silhouette, whose class the classifier only guesses).
WEAK_SPECIES = 0.25

# Measured by bench/naming.py (see the module docstring).
NAME_CONFIDENCE = 0.55
DETECTOR_CONFIDENCE = 0.6
# Where the detector found a thing whose label the classifier does not support at all, and the
# detector is below DETECTOR_SURE (a horse's black silhouette is a "horse" at 0.97 and a
# retriever to the classifier). 0.35 with Lite0 alone; with Lite3 averaged in where the two agree
# (agent.perception.classify), a fundus photo the detector called an "umbrella" at 0.39 was a
# "lampshade" at 0.36 (Lite0 0.18, Lite3 0.54). At 0.4 bench/trace.py's parts and
# bench/describe_human.py's development photos name everything else as at 0.35.
OVERRIDE_CONFIDENCE = 0.4
DETECTOR_SURE = 0.8
# A detector label the classifier gives no support at all (< 0.05), where the classifier has a
# word for that label, is kept only this sure. On the development set (bench/trace.py, parts 1 and
# 2) such labels were wrong up to 0.94 (a rocket "laptop" 0.94, the camera man a "dog" 0.82-0.88,
# the flower an "orange" or a "tv" 0.61-0.75) and right from 0.87 (the horse silhouette 0.87-0.99):
# a wrong name is worse than "an object", so the threshold is above every wrong one.
UNSUPPORTED_SURE = 0.95
# Where the classifier renames a detection, the detector shown that box alone decides whether it is
# a person when it says so at least this surely: on the development set the camera man's crop was
# a person at 0.95-0.99 and the rocket's at most a "boat" at 0.66 (bench/trace.py).
PERSON_CLOSER_LOOK = 0.85
# A dwell where the detector found nothing and the classifier is unsure is "an object" (not "an
# area") when the colours inside it are this far from those around it
# (:func:`contrast_with_surroundings`): on the development set dwells on grass scored at most 0.4
# and dwells on things at least 5.5 (95% above 6; 80 scenes, two dwell sizes each); 10 leaves room
# for real grass and gravel, which are less even than the development set's.
STANDS_OUT = 10.0
# What a trace dwells on where the detector found nothing is named by the classifier alone only
# this sure. On crops known to hold a thing (bench/naming.py) 0.55 gave no wrong word, but dwells
# on whole photos hold what no model here knows (a launch tower, a pagoda, a shuttle model, a
# dahlia) and the classifier's nearest class came out at 0.56-0.62: a "crane", a "theater
# curtain", a "bottle" and a "lampshade" (bench/trace.py --photos 60); the rocket of the
# development set's part 3 was named from its dwell at 0.64-0.81, the tripod at 0.78-0.97.
DWELL_CONFIDENCE = 0.63
# A dwell narrower than this (pixels) is too little to tell a thing from what is around it.
MIN_SIDE = 8
# Garments the classifier can name on a person's crop, when it is this sure.
GARMENT_CONFIDENCE = 0.3
_GARMENTS = {"suit", "lab coat", "T-shirt", "jeans", "gown", "robe", "kimono", "cardigan", "sweatshirt",
             "trench coat", "fur coat", "poncho", "swimsuit", "pyjamas", "military uniform", "apron",
             "cloak", "sarong", "miniskirt", "bikini"}

# Animals whose coat's pattern is what people see, not one colour: the main colour of stripes or
# patches is one of theirs at random ("a brown zebra", "a grey giraffe": issue 30), so none is said.
_PATTERNED = {"zebra", "giraffe", "tiger", "leopard", "cheetah", "jaguar", "snow leopard", "panda"}
# ... and of them, those whose colours people say together: "what colour is the panda?" is "black and
# white", not its larger patch's "black"
BLACK_AND_WHITE = {"panda", "giant panda", "zebra", "skunk", "dalmatian", "orca", "killer whale"}

# Animals with a white coat, by the classifier's ImageNet class (its first name): people call them
# white in shade or against the light, where their pixels are grey or beige (a polar bear walking
# against a low sun was "a grey bear", L* 64 under snow at 91)
_WHITE_COATS = {"ice bear", "Arctic fox", "white wolf", "Samoyed", "kuvasz", "Great Pyrenees", "Maltese dog",
                "West Highland white terrier"}
COAT_SURE = 0.5  # the classifier's probability of that class, at least


def coat_colour(colour: str | None, probs: np.ndarray) -> str | None:
    """``colour``, or "white" for a grey or beige thing the classifier surely calls an animal with a
    white coat (:data:`_WHITE_COATS`)."""
    if colour not in ("grey", "beige"):
        return colour
    _, labels = classifier_and_labels()
    top = int(np.argmax(probs))
    return "white" if probs[top] >= COAT_SURE and labels[top].split(",")[0] in _WHITE_COATS else colour


# COCO labels as people say them ("a red table", not "a red dining table").
_SAID = {"coffee": "cup", "dining table": "table", "tv": "television", "cell phone": "phone", "sports ball": "ball"}


@dataclass(frozen=True)
class Named:
    """What to call one detected object.

    ``noun`` is the head word ("cat", "tiger", "object"); ``phrase`` the noun phrase without an
    article ("grey cat", "person in orange", "round white object"); ``colour`` the colour name used
    (None for no colour); ``source`` says who named it ("both", "detector", "classifier", "none");
    ``confidence`` the evidence for the noun; ``said`` the word the caption uses for it ("swan" for a
    detector's "bird" the classifier named so; ``noun`` is then the COCO label, "bird").
    """

    noun: str
    phrase: str
    colour: str | None
    source: str
    confidence: float
    said: str = ""


def weakly_seen(label: str, words: dict[str, float]) -> bool:
    """Whether the detector's animal ``label`` (not "bird", which is a kind already) is one the
    classifier has classes for and supports under :data:`WEAK_SPECIES` in ``words``."""
    return (label in _COCO_ANIMALS and label != "bird" and classifier_knows(label)
            and sum(p for w, p in words.items() if agrees(w, label)) < WEAK_SPECIES)


def decide_noun(label: str, score: float, words: dict[str, float], *, contains: list[str] = (),
                kinds: dict[str, float] | None = None, flat: bool = False) -> tuple[str, str, float]:
    """``(noun, source, confidence)`` from a detection and its crop's word probabilities.

    ``contains`` are the nouns of other objects inside this box: a table's crop is about the cup
    on it, so the classifier's word is not taken when it names one of them. ``kinds`` are the
    crop's probabilities summed per kind (:func:`kind_probs`): where neither model is sure of
    the species but the kind is sure (:data:`KIND_CONFIDENCE`) and the detector's label is of
    that kind, the kind is said ("animal", source "both"); so it is where the classifier prefers
    another animal than the detector's (:func:`disputed`), unless the thing is ``flat``
    (:func:`flat_fill`: a silhouette, whose class the classifier only guesses).

    >>> decide_noun("zebra", 0.9, {"tiger": 0.8})
    ('tiger', 'classifier', 0.8)
    >>> decide_noun("dog", 0.9, {"wolf": 0.6, "dog": 0.3})
    ('wolf', 'classifier', 0.6)
    >>> decide_noun("horse", 0.7, {"dog": 0.45, "horse": 0.01}, kinds={"animal": 0.9})
    ('animal', 'both', 0.9)
    >>> decide_noun("cup", 0.9, {"coffee": 0.7, "cup": 0.1})
    ('cup', 'both', 0.8)
    >>> decide_noun("mouse", 0.5, {"helmet": 0.2, "loudspeaker": 0.22})
    ('object', 'none', 0.5)
    """
    support = sum(p for w, p in words.items() if agrees(w, label))
    best, p_best = max(words.items(), key=lambda kv: kv[1], default=("", 0.0))
    if label == "person":
        # ImageNet has no class for people (only what they wear and hold), so only a surer name
        # of something else (a dog, a statue) overrides the detector.
        # What a person holds or stands at (a tripod, a guitar) fills their crop too: only an
        # animal overrides.
        if p_best >= max(NAME_CONFIDENCE, score) and best in _SPECIES and best not in contains:
            return best, "classifier", round(p_best, 4)
        return "person", "detector", score
    if (label in _COCO_ANIMALS and best in _SPECIES and best not in _COCO_NAMES
            and p_best >= FINE_CONFIDENCE and best not in contains and classifier_knows(label)):
        # a species COCO has no class for: the detector's animal label is its nearest class (not
        # against one ImageNet lacks: a giraffe's head is a "jaguar" to the classifier)
        return best, "classifier", round(p_best, 4)
    if (not flat and weakly_seen(label, words) and kinds and kinds.get("animal", 0.0) >= ANIMAL_AGREED
            and sum(words.get(c, 0.0) for c in set(contains)) < WEAK_SPECIES):
        # an animal the detector knows, its species barely seen by the classifier, which has
        # classes for it: most often an animal COCO has no class for (a moose a "cow" at 0.90,
        # cow-like classes 0.17 to the classifier; a rhinoceros an "elephant" at 0.99, elephant
        # 0.21). Not a "bird", which is the kind already; nor where the crop is about a thing in
        # front of it or beside it (a cat in the dog's box).
        return "animal", "both", round(kinds["animal"], 4)
    if support >= 0.15 and support >= 0.5 * p_best:
        if label in _COCO_ANIMALS and best != label and agrees(best, label) and p_best >= FINE_CONFIDENCE:
            # the finer word of the detector's animal ("buffalo" for a "cow", "chicken" for a
            # "bird", "panda" for a "bear"): both models say it, even where a neighbour is one too
            return best, "both", round(support, 4)
        return label, "both", round(support, 4)
    # The classifier overrides the detector only when it is surer: a horse's black silhouette
    # is a "horse" to the detector (0.97) and a retriever to the classifier (0.65).
    if p_best >= max(NAME_CONFIDENCE, score) and best not in contains and not agrees(best, "person"):
        return best, "classifier", round(p_best, 4)
    if not flat and disputed(label, words, contains) and kinds and kinds.get("animal", 0.0) >= ANIMAL_AGREED:
        # two animals (a goat: a "cow" to the detector at 0.95, a "dog" to the classifier at
        # 0.72; a rhinoceros an "elephant" and a warthog): one is wrong, both say "animal"
        return "animal", "both", round(kinds["animal"], 4)
    contradicted = (support < 0.05 and p_best >= OVERRIDE_CONFIDENCE and best not in contains
                    and score < DETECTOR_SURE)
    # Two animals named by two unsure models is a disagreement on which animal, not a thing the
    # detector mistook: a horse's silhouette is a "horse" at 0.56-0.62 and a "dog" at 0.44-0.48
    # to the classifier (bench/trace.py's development set); neither name is said.
    species = label in _COCO_ANIMALS and best in _SPECIES
    if contradicted and not agrees(best, "person") and not species:
        # The detector found a thing but the classifier sees another one: on crops known to
        # hold a thing the classifier gave no wrong word at any threshold (bench/naming.py).
        return best, "classifier", round(p_best, 4)
    # (what the classifier sees instead must not be a thing inside the box: a table's crop is
    # about the cup on it)
    unsupported = support < 0.05 and bool(best) and best not in contains and classifier_knows(label)
    if score >= DETECTOR_CONFIDENCE and not contradicted and (score >= UNSUPPORTED_SURE or not unsupported):
        return label, "detector", score
    kind = COCO_KINDS.get(label)
    if kind is not None and kinds and kinds.get(kind, 0.0) >= KIND_CONFIDENCE:
        # two animals named by two unsure models, or an animal label the classifier does not
        # support: the kind is what both say
        return kind, "both", round(kinds[kind], 4)
    return "object", "none", score


# -- colour from the object's own pixels ----------------------------------------------------------


def _coat(pixels: np.ndarray, gains, white: float, label: str) -> str:
    """The colour word of an object's pixels; an animal's black and white patches are both."""
    two = label in _COCO_ANIMALS and two_tone(pixels, gains)
    return "black and white" if two else colour_word(pixels, gains, white=white)


def colour_word(pixels: np.ndarray, gains: np.ndarray | None = None, *, white: float | None = None) -> str:
    """The basic colour term a person would use for a set of RGB pixels ``(n, 3)``: their main
    colour in CIELAB (three k-means clusters, the largest, a coloured one weighted up, the lit and
    the shaded side of one hue counted together), after the
    photo's white balance ``gains`` (:func:`agent.perception.colour_terms.white_balance_gains`);
    with ``white`` (the photo's :func:`agent.perception.colour_terms.white_level`) a light, nearly
    neutral thing that reaches the photo's whites is white, even in shade;
    :mod:`agent.perception.colour_terms` says how the terms were bounded.

    >>> colour_word(np.array([[250, 0, 0]] * 10, np.uint8))
    'red'
    """
    return colour_term(pixels, gains, white=white)


def object_mask(rgb: np.ndarray, box: tuple[int, int, int, int], *, side: int = 96) -> np.ndarray:
    """A boolean mask of the object inside ``box`` (same size as the box), by GrabCut on a small
    copy of the box with a margin around it; the inner half of the box if GrabCut keeps too little
    or nearly everything (a flat crop)."""
    mask = grabcut_mask(rgb, box, side=side)
    if mask is not None:
        return mask
    bw, bh = max(1, box[2] - box[0]), max(1, box[3] - box[1])
    inner = np.zeros((bh, bw), bool)
    inner[bh // 4: bh - bh // 4 or 1, bw // 4: bw - bw // 4 or 1] = True
    return inner


def grabcut_mask(rgb: np.ndarray, box: tuple[int, int, int, int], *, side: int = 96) -> np.ndarray | None:
    """:func:`object_mask` by GrabCut, or None where GrabCut keeps too little or nearly everything
    (a flat crop, or a box with no background around it to learn from).

    Where GrabCut started from the box alone gives everything to the background (the thing's
    colours are also around it: a grey kangaroo on grey paving, a lemur on a grey rock), it is run
    again with an ellipse about the box's centre, :data:`CORE` of its half-sides, held as the
    thing's (:func:`_cut`): on the development photos of bench/animals.py, 32 of 66 detections
    had lost everything, and 17 of them came out whole this way (alpacas, a calf, a giraffe, a
    gosling, lemurs, mariachis); a cut that keeps only about that ellipse is no better than the box's
    inner half and is not taken."""
    x1, y1, x2, y2 = box
    bw, bh = max(1, x2 - x1), max(1, y2 - y1)
    if bw < 8 or bh < 8:
        return None
    cx1, cy1, cx2, cy2 = crop_box(box, rgb.shape, pad=0.15)
    crop = rgb[cy1:cy2, cx1:cx2]
    f = min(1.0, side / max(crop.shape[:2]))
    small = cv2.resize(crop, (max(4, round(crop.shape[1] * f)), max(4, round(crop.shape[0] * f))),
                       interpolation=cv2.INTER_AREA)
    rx1, ry1 = int((x1 - cx1) * f), int((y1 - cy1) * f)
    rx2, ry2 = int(np.ceil((x2 - cx1) * f)), int(np.ceil((y2 - cy1) * f))
    rect = (max(1, rx1), max(1, ry1), max(2, min(small.shape[1] - 2, rx2) - max(1, rx1)),
            max(2, min(small.shape[0] - 2, ry2) - max(1, ry1)))

    def kept(mask: np.ndarray | None) -> tuple[np.ndarray | None, float]:
        if mask is None:
            return None, 0.0
        fg = np.isin(mask, (cv2.GC_FGD, cv2.GC_PR_FGD)).astype(np.uint8)
        big = cv2.resize(fg, (cx2 - cx1, cy2 - cy1), interpolation=cv2.INTER_NEAREST)
        out = big[y1 - cy1: y2 - cy1, x1 - cx1: x2 - cx1].astype(bool)
        return (out, float(out.mean())) if out.shape == (bh, bw) else (None, 0.0)

    out, share = kept(_cut(small, rect, 0.0))
    if out is not None and share < 0.1:
        out, share = kept(_cut(small, rect, CORE))
        if share < 0.1 + CORE * CORE:  # the ellipse and little more: nothing learnt
            return None
    return out if out is not None and 0.1 <= share <= 0.95 else None


# The share of a box's half-sides held as the thing's when GrabCut is run again (:func:`grabcut_mask`).
CORE = 0.2


def _cut(small: np.ndarray, rect: tuple[int, int, int, int], core: float) -> np.ndarray | None:
    """GrabCut's labels on ``small`` (RGB) for the thing in ``rect`` (x, y, w, h): from the
    rectangle alone, or, with ``core``, with an ellipse of that share of its half-sides about its
    centre held as the thing's. None where OpenCV refuses."""
    if core > 0:
        x, y, w, h = rect
        mask = np.full(small.shape[:2], cv2.GC_BGD, np.uint8)
        mask[y:y + h, x:x + w] = cv2.GC_PR_FGD
        yy, xx = np.mgrid[:small.shape[0], :small.shape[1]]
        ell = ((xx - x - w / 2) / (core * w / 2)) ** 2 + ((yy - y - h / 2) / (core * h / 2)) ** 2 <= 1
        mask[ell] = cv2.GC_FGD
        mode, rect = cv2.GC_INIT_WITH_MASK, None
    else:
        mask, mode = np.zeros(small.shape[:2], np.uint8), cv2.GC_INIT_WITH_RECT
    # GrabCut starts its colour models from k-means, whose starts are random: seeded, so that the
    # same box gets the same mask whatever ran before (bench/colours.py moved by up to 3 crops a part
    # with the state other code had left)
    cv2.setRNGSeed(0)
    try:
        cv2.grabCut(cv2.cvtColor(small, cv2.COLOR_RGB2BGR), mask, rect, np.zeros((1, 65), np.float64),
                    np.zeros((1, 65), np.float64), 3, mode)
    except cv2.error:
        return None
    return mask


# -- everything together ----------------------------------------------------------------------------


def _article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def shape_word(box: tuple[int, int, int, int]) -> str:
    w, h = box[2] - box[0], box[3] - box[1]
    if h > 1.8 * w:
        return "tall "
    if w > 1.8 * h:
        return "long "
    return ""


def object_colour(pixels: np.ndarray, box: tuple[int, int, int, int], label: str = "", *,
                  light: tuple[np.ndarray, float] | None = None) -> str | None:
    """The colour :func:`name_objects` gives a thing in ``box``: its mask's main colour, or for a
    person the colour of their clothes (None when too little shows); a box past the picture's edge
    is cut to it. ``light``: the photo's :func:`agent.perception.colour_terms.photo_light`."""
    rgb = to_rgb8(pixels)
    h, w = rgb.shape[:2]
    box = (max(0, box[0]), max(0, box[1]), min(w, box[2]), min(h, box[3]))
    mask = object_mask(rgb, box)
    gains, white = light if light is not None else photo_light(rgb)
    if label == "person":
        face = face_in(box, faces_of(rgb, [Detection("person", 1.0, box)]))
        return person_clothing_colour(rgb, box, mask, gains, white=white, face=face)
    x1, y1, x2, y2 = box
    region = rgb[y1:y2, x1:x2]
    if region.size == 0:
        return None
    colour = _coat(region[mask] if mask.any() else region, gains, white, label)
    if colour in ("grey", "beige") and label in _COCO_ANIMALS:
        colour = coat_colour(colour, classify_crops(rgb, [box], square=True)[0])
    return colour


def called_otherwise(pixels: np.ndarray, box, label: str, *, min_score: float = 0.3) -> str | None:
    """What describe calls the detector's ``label`` in ``box`` when that is neither ``label`` nor a
    kind of it ("animal" for gcompris' moose, the detector's "cow" at 0.90 that the classifier does
    not confirm; "bison" for a "cow"), else None (also when no detection from ``min_score`` has
    that box). The detections are named together, as describe names them."""
    from agent.perception.things import detect
    from agent.perception.wordnet import first_is_a

    dets = detect(pixels, min_score=min_score)
    want = tuple(int(v) for v in box)
    for d, n in zip(dets, name_objects(pixels, dets)):
        if tuple(int(v) for v in d.box) == want and d.label == label:
            word = n.said or n.noun
            return None if word == label or first_is_a(word, label) else word
    return None


def name_objects(pixels: np.ndarray, dets: list[Detection], *, context: list[Detection] = ()) -> list[Named]:
    """What to call each detection, with its colour: one classifier batch and one GrabCut a box.

    A word for another thing in view (another of ``dets`` or of ``context``, things found
    before) does not rename a detection (:func:`neighbour_words`).
    """
    rgb = to_rgb8(pixels)
    if not dets:
        return []
    probs = classify_crops(rgb, [d.box for d in dets], square=True)
    _, labels = classifier_and_labels()
    gains, white = photo_light(rgb)
    out, seen_words = [], []
    faces: list | None = None  # the people's faces, looked for once, when a person is named
    not_people = mistaken_people(rgb, dets, probs)
    for k, d in enumerate(dets):
        words = word_probs(probs[k])
        seen = words
        others = [o for o in list(dets) + list(context) if o is not d]
        contains = [o.label for o in others if _inside(o.box, d.box)]
        beside = neighbour_words(d.box, _square_crop(d.box, rgb.shape), others)
        inner_words = [w for w in words if any(agrees(w, c) for c in contains) or w in beside]
        kinds = kind_probs(probs[k])
        mask = object_mask(rgb, d.box)
        flat = d.label in _COCO_ANIMALS and flat_fill(rgb, d.box, mask)
        noun, source, conf = decide_noun(d.label, d.score, words, contains=inner_words, kinds=kinds, flat=flat)
        if k in not_people:  # a cygnet the detector took for a person
            noun, source, conf = "animal", "both", round(kinds.get("animal", 0.0), 4)
        # a word the classifier puts on another thing than the detector's must hold when the
        # square crop it came from moves in or out (:func:`holds_reframed`); else the next word
        for _ in range(3):
            if source != "classifier" or agrees(noun, d.label) or holds_reframed(rgb, d.box, noun):
                break
            words = {w: p for w, p in words.items() if w != noun}
            noun, source, conf = decide_noun(d.label, d.score, words, contains=inner_words, kinds=kinds, flat=flat)
        if source == "classifier" and not agrees(noun, d.label) and not holds_reframed(rgb, d.box, noun):
            noun, source, conf = "object", "none", d.score
        closer = source == "classifier" or (source == "none" and d.label in _COCO_ANIMALS)
        # which COCO animal it is, when the detector on the whole picture was not sure of it or
        # the two models do not say it together: a horse's silhouette over trees or a table is a
        # "dog" to the classifier (0.61-0.84) and a "dog" or an unsure "horse" to the detector
        # on the whole picture, a horse at 0.93 and more shown its own box (bench/trace.py's dev
        # part 3)
        animal = coco_label(noun) in _COCO_ANIMALS or (noun in ("object", "animal") and d.label in _COCO_ANIMALS)
        # a species COCO has no class for, named surely by the classifier, is not given back to
        # the detector: shown the box alone it says its nearest class again ("zebra" for a tiger)
        fine = source == "classifier" and noun in _SPECIES and noun not in _COCO_NAMES
        unsure = animal and not fine and (d.score < DETECTOR_SURE or source != "both" or noun == "animal")
        look = closer_look(rgb, d.box, PERSON_CLOSER_LOOK) if (closer and not agrees(noun, d.label)) or unsure else None
        if look == "person" and closer and not agrees(noun, d.label):
            # ImageNet has no person class: a camera man is a "tripod" to it, and a "dog" to
            # the detector on the whole picture, but a person at 0.95 and more to the detector
            # shown his own box (bench/trace.py's development set)
            noun, source, conf = "person", "detector", PERSON_CLOSER_LOOK
        elif (look in _COCO_ANIMALS and unsure and look != coco_label(noun)
              and (noun != "animal" or flat or not (disputed(look, seen, inner_words) or weakly_seen(look, seen)))):
            # (the kind said for two models' disagreement stays: a joey a "bear" shown its box
            # and a "wolf" to the classifier is "an animal"; so does a moose, a "cow" shown its
            # box and barely one to the classifier)
            noun, source, conf = look, "detector", PERSON_CLOSER_LOOK
        said = noun
        noun = coco_label(noun)  # "motorbike" is said, "motorcycle" is the label others match
        if noun == "person":
            if faces is None:
                faces = faces_of(rgb, [o for o in dets if o.label == "person"] or [d])
            colour = person_clothing_colour(rgb, d.box, mask, gains, white=white, face=face_in(d.box, faces))
            garment = max(((w, p) for w, p in words.items() if w in _GARMENTS), key=lambda kv: kv[1],
                          default=("", 0.0))
            if colour is None:
                phrase = "person"
            elif garment[1] >= GARMENT_CONFIDENCE:
                phrase = f"person in {_article(colour)} {colour} {garment[0]}"
            else:
                phrase = f"person in {colour}"
        else:
            x1, y1, x2, y2 = d.box
            region = rgb[y1:y2, x1:x2]
            colour = coat_colour(_coat(region[mask] if mask.any() else region, gains, white, d.label), probs[k])
            phrase = _thing_phrase(noun, said, colour, words, d.box)
        out.append(Named(noun, phrase, colour, source, float(conf), _SAID.get(said, said)))
        seen_words.append(seen)
    # two of a species side by side: one named surely, the other short of the bar alone
    named = [(n.noun if d.label in _COCO_ANIMALS else "", n.said, n.source) for n, d in zip(out, dets)]
    renamed = {k: Named(coco_label(w), "", None, "classifier", round(seen_words[k][w], 4), _SAID.get(w, w))
               for k, w in same_species(named, seen_words).items()}
    areas = [float((d.box[2] - d.box[0]) * (d.box[3] - d.box[1])) for d in dets]
    for k, w in herd(named, [d.label for d in dets], areas).items():
        if k not in renamed:
            renamed[k] = Named(coco_label(w), "", None, out[k].source if out[k].source != "none" else "detector",
                               out[k].confidence, _SAID.get(w, w))
    things = reference_things(rgb, things_named)  # what the photo as opened called it
    renamed.update({k: kept for k, d in enumerate(dets) if (kept := kept_name(d.box, out[k], things))})
    renamed.update({k: Named(d.label, "", None, "both", 1.0, word)  # what the person said it is
                    for k, d in enumerate(dets) if (word := given_word(d.box)) and d.label != "person"})
    for k, r in renamed.items():
        phrase = _thing_phrase(r.noun, r.said, out[k].colour, seen_words[k], dets[k].box)
        out[k] = Named(r.noun, phrase, out[k].colour, r.source, r.confidence, r.said)
    return out


def things_named(rgb: np.ndarray, min_score: float | None = None) -> list:
    """Each thing the detector finds in ``rgb`` (from ``min_score``; its default when None), with
    its :class:`Named`."""
    from agent.perception.things import detect

    dets = detect(rgb) if min_score is None else detect(rgb, min_score=min_score)
    return list(zip(dets, name_objects(rgb, dets)))


def _thing_phrase(noun: str, said: str, colour: str | None, words: dict[str, float], box) -> str:
    """The noun phrase of a thing that is not a person, without an article."""
    if noun == "object":
        return f"{shape_word(box)}{colour} object"
    if noun == "cup" and words.get("coffee", 0.0) >= NAME_CONFIDENCE:
        return "cup of coffee"  # what is in it is what people see, not a colour
    if said in _PATTERNED:
        return said  # its pattern is its colour: not "a brown zebra", "a grey giraffe"
    return f"{colour} {_SAID.get(said, said)}"


def name_regions(pixels: np.ndarray, boxes: list[tuple[int, int, int, int]], *,
                 min_area: float = 0.02, known: list[Detection] = ()) -> list[Named | None]:
    """A name for what each box shows where the detector found nothing: the classifier's word when
    it is sure of a thing word (:data:`NAME_CONFIDENCE`) and the box is not flat; "object" with
    its shape and colour ("tall blue object") when the box stands out from what is around it
    (:data:`STANDS_OUT`) but no model can name it; else None (a region: grass, sky).

    The boxes are what a trace dwelt on, usually inside the thing: each is classified as it is and
    grown by a quarter of its size to a square, and the surer thing word of the two counts.
    ``known`` are the things already detected: a word for one of them is not taken for a dwell
    mostly off it whose crop takes it in (:func:`neighbour_words`).
    """
    rgb = to_rgb8(pixels)
    h, w = rgb.shape[:2]
    out: list[Named | None] = [None] * len(boxes)
    grown = [crop_box(b, rgb.shape, pad=0.25) for b in boxes]
    big = [i for i, b in enumerate(grown) if (b[2] - b[0]) * (b[3] - b[1]) >= min_area * w * h]
    # a small dwell (a thin tower, a shuttle model far off) is not classified, but it is "an
    # object" when it stands out from what is around it: not "the ground" behind it
    small = [i for i, b in enumerate(boxes) if i not in big and min(b[2] - b[0], b[3] - b[1]) >= MIN_SIDE]
    todo = [i for i in big if has_structure(rgb, grown[i])]
    # Lite0 alone on dwells (no detector found a thing there): where no model knows the thing, both
    # classifiers may agree on its nearest class, and Lite3 is surer (bench/trace.py --photos: the
    # rocket photo's towers a "crane")
    probs = classify_crops(rgb, [grown[i] for i in todo], square=True, lite3=False) if todo else np.zeros((0, 1000))
    # the dwell itself too, as it is: squared and grown, the crop of a thing pasted over trees or
    # a cluttered room is half what is around it (bench/trace.py's dev part 3: the rocket there
    # was a "rocket" at 0.64-0.81 from its dwell and at 0.16-0.30 squared)
    # (not a long strip, which squeezed into 224x224 is something else: a strip of the flower's
    # petals was a "snake" at 0.58 on dev part 2)
    whole = [i for i in todo if shape_word(boxes[i]) == ""]
    tight = classify_crops(rgb, [boxes[i] for i in whole], lite3=False) if whole else np.zeros((0, 1000))
    words_of = {i: [word_probs(probs[k])] for k, i in enumerate(todo)}
    for k, i in enumerate(whole):
        words_of[i].append(word_probs(tight[k]))
    # a wide dwell squared takes in what is above and below it, on a whole photo often the thing
    # it lies on: its square crop's word counts only when the classifier says that word first
    # for the dwell as it is (bench/trace.py --photos: the bench's back behind a motorcycle,
    # squared, was a "motorbike" at 0.40-0.82, as it is a "shovel" or a "window shade"; a dwell
    # over a saucer and a spoon was "coffee", the cup above them). Not a tall one: a rocket
    # squeezed is still a rocket first, and tall dwells on rockets are common.
    for i in [i for i in todo if shape_word(boxes[i]) == "long "]:
        first = first_word_as_is(rgb, grown[i])
        words_of[i] = [{w: p for w, p in ws.items() if w == first} for ws in words_of[i]]

    for i in todo:
        banned = neighbour_words(boxes[i], _square_crop(grown[i], rgb.shape), known)
        words_of[i] = [{w: p for w, p in ws.items() if w not in banned} for ws in words_of[i]]

    def thing_word(words: dict[str, float]) -> tuple[str, float]:
        best, p = max(words.items(), key=lambda kv: kv[1], default=("", 0.0))
        return (best, p) if not agrees(best, "person") and best not in _GARMENTS else ("", 0.0)

    gains, white = photo_light(rgb)
    for i in sorted(big + small):
        best, p = max((thing_word(ws) for ws in words_of.get(i, ())), key=lambda bp: bp[1], default=("", 0.0))
        named = p >= DWELL_CONFIDENCE and keeps_its_word(rgb, boxes[i], best)
        # not an object when it does not stand out from what is around it, or when it goes on
        # alike to an edge of the picture: a region (a meadow, the sky over dunes; agent.perception.region_evidence)
        if not named and (contrast_with_surroundings(rgb, boxes[i]) < STANDS_OUT
                          or goes_on_to_an_edge(rgb, boxes[i])):
            continue
        x1, y1, x2, y2 = grown[i]
        mask = object_mask(rgb, grown[i])
        region = rgb[y1:y2, x1:x2]
        colour = colour_word(region[mask] if mask.any() else region, gains, white=white)
        if named:
            out[i] = Named(best, best if best in _PATTERNED else f"{colour} {best}", colour, "classifier", round(p, 4))
        else:
            out[i] = Named("object", f"{shape_word(boxes[i])}{colour} object", colour, "none", round(p, 4))
    return out


# A dwell's word must keep this much support in a second view of the dwell (:func:`keeps_its_word`).
SECOND_VIEW = 0.3


def keeps_its_word(rgb: np.ndarray, box: tuple[int, int, int, int], word: str) -> bool:
    """Whether the classifier gives ``word`` :data:`SECOND_VIEW` or more in at least two of six
    views of ``box``: the box with its own margin, its inner 70% and the box grown by a quarter,
    each squared and as it is.

    What the classifier knows keeps its word when the framing moves a little; its nearest class
    for what it does not know does not (bench/trace.py -v, the views of the dwells it named): the
    camera on its tripod, squared and grown, was a "tripod" at 0.78 and at most 0.13 in the five
    other views, a blurred garden a "beetle" at 0.77 and at most 0.13, where every dwell on the
    development set's rockets kept 0.30 or more in a second view, the tripod and the ladybird 0.6
    or more. Not "every view agrees", nor their mean: a rocket pasted over trees is a rocket at
    0.93 as it is and at 0.00-0.21 in three other views (a mean of 0.29), at 0.48 in its inner part.
    """
    x1, y1, x2, y2 = box
    dx, dy = (x2 - x1) * 0.15, (y2 - y1) * 0.15
    inner = (int(x1 + dx), int(y1 + dy), max(int(x1 + dx) + 1, int(x2 - dx)), max(int(y1 + dy) + 1, int(y2 - dy)))
    views = [box, inner, crop_box(box, rgb.shape, pad=0.25)]
    probs = np.concatenate([classify_crops(rgb, views, square=True, lite3=False), classify_crops(rgb, views, lite3=False)])
    support = sorted((word_probs(pr).get(word, 0.0) for pr in probs), reverse=True)
    return support[1] >= SECOND_VIEW


def holds_reframed(rgb: np.ndarray, box: tuple[int, int, int, int], word: str) -> bool:
    """Whether ``word``, which the classifier gave a detection's square crop, keeps
    :data:`SECOND_VIEW` in the square crop of the box's inner 70% or of the box grown by a quarter.

    On detections the classifier renamed (bench/trace.py -v), guesses held in no such view: the
    water splash of mate-backgrounds' Aqua, a "motorcycle" at 0.58 to the detector, was a
    "strainer" at 0.49 and then 0.16 and 0.04; forget-me-nots a "pinwheel" at 0.81 (0.17, 0.06)
    or a "butterfly" at 0.47-0.55 (0.22 at most); dandelion seeds a "paintbrush" at 0.37 (0.12).
    Every rocket the development set's detector called a "boat" or an "airplane" kept 0.52 or
    more inner or 0.60 grown, the yellow flower (a "banana") 0.64, the ladybird 0.93.
    """
    x1, y1, x2, y2 = box
    dx, dy = (x2 - x1) * 0.15, (y2 - y1) * 0.15
    inner = (int(x1 + dx), int(y1 + dy), max(int(x1 + dx) + 1, int(x2 - dx)), max(int(y1 + dy) + 1, int(y2 - dy)))
    probs = classify_crops(rgb, [inner, crop_box(box, rgb.shape, pad=0.25)], square=True)
    return max(word_probs(pr).get(word, 0.0) for pr in probs) >= SECOND_VIEW


def _square_crop(box: tuple[int, int, int, int], shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """What :func:`classify_crops` shows the classifier of ``box`` with ``square``."""
    return square_box(crop_box(box, shape), shape)


# A known thing with this share of its box inside a crop is in the classifier's view of that crop.
IN_VIEW = 0.3


def neighbour_words(box: tuple[int, int, int, int], crop: tuple[int, int, int, int],
                    known: list[Detection]) -> set[str]:
    """The everyday words that name a known thing beside ``box``: one whose box holds less than
    half of ``box`` but has :data:`IN_VIEW` of itself inside ``crop`` (what the classifier is
    shown). Such a word is what the classifier sees of the neighbour, not what ``box`` shows: on
    the coffee photo a dwell on the saucer, squared, takes in the cup and was "coffee" at
    0.79-0.84, and a table beside the cup a "cup" (bench/trace.py --photos 60).

    >>> sorted(neighbour_words((0, 50, 40, 90), (0, 0, 100, 100), [Detection("cup", 0.9, (40, 0, 100, 60))]))[:3]
    ['coffee', 'cup', 'eggnog']
    """
    from agent.perception.vocabulary import COCO_AGREES, coco_label

    out: set[str] = set()
    for k in known:
        if _share_in(box, k.box) >= 0.5 or _share_in(k.box, crop) < IN_VIEW:
            continue
        label = coco_label(k.label)
        out |= {label} | COCO_AGREES.get(label, set())
    return out


def _share_in(a, b) -> float:
    """Share of box ``a``'s area inside box ``b``."""
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    return ix * iy / max(1, (a[2] - a[0]) * (a[3] - a[1]))


def first_word_as_is(rgb: np.ndarray, box: tuple[int, int, int, int]) -> str:
    """The classifier's first word for ``box`` grown by a quarter and not squared: a long dwell
    squared is mostly what is around it (the bench's back behind a motorcycle, squared, was a
    "motorbike" at 0.40-0.82, as it is a "shovel" or a "window shade"; bench/trace.py --photos)."""
    words = word_probs(classify_crops(rgb, [crop_box(box, rgb.shape, pad=0.25)])[0])
    return max(words.items(), key=lambda kv: kv[1], default=("", 0.0))[0]


def whole_image_thing(pixels: np.ndarray) -> str | None:
    """The everyday word for what the whole photo shows, when the classifier is sure of a thing
    (:data:`NAME_CONFIDENCE`) and the photo is not flat; else None."""
    rgb = to_rgb8(pixels)
    h, w = rgb.shape[:2]
    if not has_structure(rgb, (0, 0, w, h)):
        return None
    words = word_probs(classify_crops(rgb, [(0, 0, w, h)], square=True)[0])
    best, p = max(words.items(), key=lambda kv: kv[1], default=("", 0.0))
    return best if p >= NAME_CONFIDENCE and not agrees(best, "person") else None


def _inside(a, b, share: float = 0.7) -> bool:
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    area = max(1, (a[2] - a[0]) * (a[3] - a[1]))
    return ix * iy / area >= share and (b[2] - b[0]) * (b[3] - b[1]) > 1.5 * area
