"""Things the detector can find, named in words: COCO labels and the words people use for them, the
detector run with duplicates suppressed (:func:`detect`), and noun phrases read from a caption or a
request (:func:`parse_phrases`, :func:`names_object`)."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

import numpy as np

from agent.grammar.lexicon import THING_COLOURS
from agent.perception.models import Detection, box_iou, detect_objects, to_rgb8

MIN_SCORE = 0.35


# Words people use for COCO classes (the label itself always works, plurals too).
SYNONYMS: dict[str, str] = {
    "kitten": "cat", "kitty": "cat", "puppy": "dog", "doggy": "dog",
    "man": "person", "woman": "person", "men": "person", "women": "person", "people": "person",
    "boy": "person", "girl": "person", "child": "person", "kid": "person", "lady": "person",
    "guy": "person", "astronaut": "person", "player": "person", "someone": "person",
    "baby": "person", "human": "person",
    "mug": "cup", "coffee": "cup", "teacup": "cup", "saucer": "cup",
    "motorbike": "motorcycle", "scooter": "motorcycle", "bike": "bicycle", "cycle": "bicycle",
    "automobile": "car", "taxi": "car", "sofa": "couch", "television": "tv", "monitor": "tv",
    "phone": "cell phone", "mobile": "cell phone", "cellphone": "cell phone", "smartphone": "cell phone",
    "table": "dining table", "plant": "potted plant", "ball": "sports ball", "glass": "wine glass",
    "teddy": "teddy bear", "doughnut": "donut", "ship": "boat", "plane": "airplane",
    "aeroplane": "airplane", "puppies": "dog", "bag": "handbag", "purse": "handbag",
}
# The words real requests use for people, birds and other COCO classes ("edit the priest out", "remove
# the seagulls"): each finds its class. Once a second list in the request reader, which accepted words
# this module could not look for ("remove the priest" then failed when it ran).
# Words for whom someone is to the person asking ("my son", "her ex") are not among them: the detector
# finds people, not which one is the son, so such a phrase is left to the main subject or a pointer.
# What someone does or is there for ("the priest", "the dancers"): a person to the detector, which cannot
# tell which person that is; a question about one is answered about the people seen
# (agent.describe.questions: "is there a conductor?" was "Yes, there is a conductor on the left").
ROLES = frozenset({
    "priest", "photographer", "officer", "soldier", "bride", "groom", "swimmer", "surfer", "skier",
    "runner", "cyclist", "rider", "fan", "spectator", "audience", "guest", "drinker", "onlooker",
    "cameraman", "vet", "lifeguard", "tourist", "photobomber", "stranger", "bystander", "pedestrian", "worker",
    "dancer", "musician", "singer", "player", "performer", "athlete", "actor", "actress", "drummer",
    "guitarist", "violinist", "pianist", "piper", "conductor",
})
SYNONYMS.update({w: "person" for w in [
    *ROLES, "female", "male", "gentleman", "somebody", "everyone", "everybody", "crowd", "adult", "dude",
    "individual", "figure",
]})
SYNONYMS.update({w: "bird" for w in ["seagull", "gull", "duck", "pigeon", "goose", "geese", "eagle", "hawk", "crow"]})
# The young of a kind the detector or the classifier knows: that kind (and the smaller one of them,
# agent.edits.objects); a kangaroo is a "wallaby" to the classifier, which "kangaroo" agrees with
YOUNG: dict[str, str] = {"joey": "kangaroo", "joeys": "kangaroo", "cygnet": "swan", "cygnets": "swan",
                         "piglet": "pig", "piglets": "pig", "foal": "horse", "foals": "horse", "colt": "horse",
                         "filly": "horse", "calf": "cow",
                         "calves": "cow", "lamb": "sheep", "lambs": "sheep", "cub": "bear", "cubs": "bear",
                         "chick": "bird", "chicks": "bird", "duckling": "bird", "ducklings": "bird",
                         "gosling": "bird", "goslings": "bird", "puppy": "dog", "puppies": "dog", "kitten": "cat",
                         "kittens": "cat", "child": "person", "kid": "person", "baby": "person", "babies": "person",
                         "children": "person", "kids": "person", "toddler": "person", "infant": "person"}
SYNONYMS.update({w: label for w, label in YOUNG.items() if w not in ("children", "kids", "kittens")})
YOUNG_SHARE = 0.5  # the young of a kind ("the foal") is a box under this share of the largest one's area
SYNONYMS.update({"pony": "horse", "yacht": "boat", "kayak": "boat", "canoe": "boat", "stool": "chair",
                 "seat": "chair", "van": "car", "vehicle": "car", "luggage": "suitcase", "fridge": "refrigerator",
                 "hydrant": "fire hydrant", "racket": "tennis racket", "glove": "baseball glove",
                 "bat": "baseball bat", "gentlemen": "person", "babies": "person", "benches": "bench",
                 "buses": "bus", "couches": "couch", "sandwiches": "sandwich", "knives": "knife", "mice": "mouse"})


def one_of(noun: str) -> str:
    """The word for one of the things ``noun`` names: "kids" -> "person" (one of the kids edited together
    is the person there; "the kid" alone is looked for as the smaller person), "dogs" -> "dog"."""
    from agent.perception.vocabulary import singular

    one = singular(noun)
    return YOUNG.get(one, one)


def detector_words() -> frozenset[str]:
    """Every single word that names a thing the detector can find: COCO's labels (and each word of a
    two-word label's last word: "light" is not one, "hydrant" is through :data:`SYNONYMS`), the
    words people use for them, and their plurals. The request reader checks removals, crops and
    tints of things against this list, so what it accepts is what :func:`names_object` accepts.

    >>> {"priest", "priests", "seagulls", "dog", "dogs"} <= detector_words()
    True
    >>> "light" in detector_words() or "animal" in detector_words()
    False
    """
    words = {lab for lab in _labels() if " " not in lab} | set(SYNONYMS)
    return frozenset(words | {w + "s" for w in words if not w.endswith("s")})



# Regions that are not COCO objects: where they usually are (normalised y band).
REGION_NOUNS: dict[str, tuple[float, float]] = {
    "sky": (0.0, 0.4), "clouds": (0.0, 0.4), "cloud": (0.0, 0.4),
    "grass": (0.6, 1.0), "ground": (0.6, 1.0), "floor": (0.6, 1.0), "road": (0.6, 1.0),
    "field": (0.5, 1.0), "water": (0.5, 1.0), "sand": (0.6, 1.0),
    "wall": (0.0, 1.0), "background": (0.0, 1.0),
}


COLOR_WORDS = THING_COLOURS


def _labels() -> set[str]:
    from agent.perception.models import COCO_LABELS

    return set(COCO_LABELS.values())


def inside_share(a, b) -> float:
    """Share of box a's area inside box b."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    area = (a[2] - a[0]) * (a[3] - a[1])
    return ix * iy / area if area > 0 else 0.0


def clean_detections(dets: list[Detection]) -> list[Detection]:
    """Non-maximum suppression: one detection per object (SSD often reports a part or a twin label)."""
    kept: list[Detection] = []
    for d in sorted(dets, key=lambda d: -d.score):
        same = any(d.label == k.label and (box_iou(d.box, k.box) > 0.4 or inside_share(d.box, k.box) > 0.8)
                   for k in kept)
        # the same thing under two labels (cup and bowl): keep the surer
        twin = any(box_iou(d.box, k.box) > 0.7 for k in kept)
        if not (same or twin):
            kept.append(d)
    return kept


def _looked(pixels: np.ndarray, min_score: float, window: tuple[int, int, int, int] | None = None) -> list[Detection]:
    """The detector's finds in ``pixels`` (its ``window`` x1, y1, x2, y2 only, boxes in the window's
    pixels). On the picture on screen made by edits that move no pixel, the finds on the picture
    before them (agent.perception.names_kept.unmoved_reference): light and colour edits neither add
    nor take away a thing, and brightening a meerkat made the detector lose it."""
    from agent.perception.names_kept import unmoved_reference

    x1, y1, x2, y2 = window or (0, 0, pixels.shape[1], pixels.shape[0])
    ref = unmoved_reference(to_rgb8(pixels))
    return detect_objects((pixels if ref is None else ref)[y1:y2, x1:x2], min_score=min_score)


def detect(pixels: np.ndarray, *, min_score: float = MIN_SCORE) -> list[Detection]:
    """Detections of the image after suppression of duplicates."""
    return clean_detections(_looked(pixels, min_score))


# A closer look for every thing of a kind ("remove the people"): the detector sees the image at
# 300 x 300, where a tourist 60 pixels tall in a 1024-pixel photo is 20 pixels and often missed. On
# the 5 monument photos of the development part with people in them (gcompris-qt-data's
# explore_monuments), "remove the people" found 49 people with 2 x 2 tiles a quarter overlapping,
# against 29 on the whole image; 2 boxes of the 49 (on a bus and a van) held no one clearly.
TILES = 2
TILE_OVERLAP = 0.25
# A tile's find this large (its box's share of the tile) that the whole image's look did not find is
# no small thing missed but a mistake: gcompris' drums on grass, "make the kids brighter", brightened
# a "person" a tile found over half a drum (498 x 290 pixels of 1024 x 640) and said "Brightened the kids"
TILE_FIND_AT_MOST = 0.25


def look_closer(pixels: np.ndarray, found: list[Detection], *, min_score: float = MIN_SCORE,
                label: str | None = None) -> list[Detection]:
    """``found`` (the whole image's detections) with what :data:`TILES` x :data:`TILES`
    overlapping tiles show besides (each tile seen at the detector's 300 x 300 too, so twice as
    close), of ``label`` only when given. A tile's find that is one already found
    (:func:`overlaps_known`) widens its box to hold both: a small person's box is often a head or a
    pair of feet short, and the two looks are short at different ends; a new find larger than
    :data:`TILE_FIND_AT_MOST` of its tile is left out. Best first."""
    h, w = pixels.shape[:2]
    th, tw = int(h / (TILES - (TILES - 1) * TILE_OVERLAP)), int(w / (TILES - (TILES - 1) * TILE_OVERLAP))
    if min(th, tw) < 150:  # a small image: the whole of it is already seen closely enough
        return list(found)
    tiles: list[Detection] = []
    for i in range(TILES):
        for j in range(TILES):
            y, x = int(i * th * (1 - TILE_OVERLAP)), int(j * tw * (1 - TILE_OVERLAP))
            tiles += [Detection(d.label, d.score, (d.box[0] + x, d.box[1] + y, d.box[2] + x, d.box[3] + y))
                      for d in _looked(pixels, min_score, (x, y, x + tw, y + th))
                      if label is None or d.label == label]
    tiles = [d for d in tiles if (d.box[2] - d.box[0]) * (d.box[3] - d.box[1]) <= TILE_FIND_AT_MOST * th * tw
             or overlaps_known(d, [o for o in found if o.label == d.label])]
    tiles = clean_detections(tiles)
    out = [o for o in found if not _group_box(o, tiles)]
    for d in tiles:
        same = [k for k, o in enumerate(out) if o.label == d.label and overlaps_known(d, [o])]
        if not same:
            out.append(d)
            continue
        o = out[same[0]]
        out[same[0]] = Detection(o.label, max(o.score, d.score), (
            min(o.box[0], d.box[0]), min(o.box[1], d.box[1]), max(o.box[2], d.box[2]), max(o.box[3], d.box[3])))
    return sorted(out, key=lambda d: -d.score)


# The whole image's look at a crowd may box the crowd as one thing: gcompris' orchestra was one
# "person" over 40 musicians (1000 x 411 pixels), into which every musician the tiles found was
# merged ("how many people?": "I count 2 people"). A box holding at least GROUP_FINDS of the tiles'
# finds of its kind, each under GROUP_PART of its area, is a crowd's box: its finds stand for it.
GROUP_FINDS = 3
GROUP_PART = 0.1


def _group_box(known: Detection, tiles: list[Detection]) -> bool:
    area = (known.box[2] - known.box[0]) * (known.box[3] - known.box[1])
    inner = [d for d in tiles if d.label == known.label and inside_share(d.box, known.box) > 0.8
             and (d.box[2] - d.box[0]) * (d.box[3] - d.box[1]) < GROUP_PART * area]
    return len(inner) >= GROUP_FINDS


def detect_in(pixels: np.ndarray, box: tuple[int, int, int, int], min_score: float,
               pad: float = 1.0) -> list[Detection]:
    """Detect within a crop around ``box`` grown by ``pad`` times its size on each side (small
    objects vanish when the whole image is shrunk to 300x300)."""
    h, w = pixels.shape[:2]
    bw, bh = box[2] - box[0], box[3] - box[1]
    px, py = max(pad * bw, 32), max(pad * bh, 32)
    x1, y1 = max(0, int(box[0] - px)), max(0, int(box[1] - py))
    x2, y2 = min(w, int(box[2] + px)), min(h, int(box[3] + py))
    if x2 - x1 < 16 or y2 - y1 < 16:
        return []
    out = []
    for d in _looked(pixels, min_score, (x1, y1, x2, y2)):
        b = d.box
        out.append(Detection(d.label, d.score, (b[0] + x1, b[1] + y1, b[2] + x1, b[3] + y1)))
    return out


def overlaps_known(d: Detection, known: list[Detection]) -> bool:
    """A second-look detection that is a piece of an object already found (a close crop of a cup
    finds the cup again, a little differently) is not a new object."""
    return any(box_iou(d.box, k.box) > 0.2 or inside_share(d.box, k.box) > 0.5
               or inside_share(k.box, d.box) > 0.5 for k in known)


@dataclass
class Phrase:
    """A noun phrase read from a caption: its words, its noun's label, and its modifiers."""

    text: str
    label: str  # a COCO label or a region noun
    kind: str  # "object" or "region"
    colour: str | None = None
    position: str | None = None  # absolute: "left", "top right", ...
    relation: str | None = None  # relative to the previous phrase: "left", "right", "above", "below"


def _noun(tok: str, labels: set[str]) -> bool:
    return (tok in labels or tok in SYNONYMS or tok in REGION_NOUNS or tok.rstrip("s") in labels
            or tok.rstrip("s") in SYNONYMS or any(lab.startswith(tok + " ") for lab in labels))


_TOKEN = re.compile(r"[a-z]+|[;,.]")


_STOP_BEFORE = {"of", "on", "in", "at", "to", "the", "a", "an", "there", "is", "are", "and", "with"}


def _noun_at(toks: list[str], i: int, labels: set[str]) -> tuple[str | None, int]:
    """The label of a noun starting at token i and its length in tokens, or (None, 1)."""
    tok = toks[i]
    if tok in COLOR_WORDS and i + 1 < len(toks) and _noun(toks[i + 1], labels):
        return None, 1  # "orange cup": a colour here, not the fruit
    if tok in COLOR_WORDS and (toks[i - 1:i] == ["in"] or toks[i - 2:i] in (["in", "a"], ["in", "an"])):
        return None, 1  # "a person in orange", "in an orange suit": what someone wears
    if tok in ("cup", "cups") and toks[i + 1:i + 3] == ["of", "coffee"]:
        return "cup", 3
    if tok in ("object", "objects", "thing", "things"):
        return "object", 1
    if tok in ("baby", "babies") and i + 1 < len(toks) and toks[i + 1] not in ("boy", "boys", "girl", "girls") \
            and _noun_at(toks, i + 1, labels)[0] not in (None, "person"):
        return None, 1  # "the baby camel": a young camel, not a baby and a camel
    two = " ".join(toks[i:i + 2])
    if two in labels:
        return two, 2
    if tok in labels:
        return tok, 1
    if tok in SYNONYMS:
        return SYNONYMS[tok], 1
    if tok.endswith("s") and tok[:-1] in labels:
        return tok[:-1], 1
    if tok.endswith("s") and tok[:-1] in SYNONYMS:
        return SYNONYMS[tok[:-1]], 1
    if tok in REGION_NOUNS:
        return tok, 1
    if tok in _everyday():  # what the classifier names beyond COCO: "tiger", "rocket"
        return tok, 1
    if tok.endswith("s") and tok[:-1] in _everyday():  # "the swans"
        return tok[:-1], 1
    return None, 1


def _everyday() -> set[str]:
    from agent.perception.vocabulary import caption_nouns

    return caption_nouns()


# Words that end what can be said after a noun about that noun ("a cat on the left, then ...").
_BREAKS = {";", ",", ".", "and", "then", "while", "next", "beside", "behind", "near", "with"}


def parse_phrases(caption: str) -> list[Phrase]:
    """The noun phrases of a caption in order, each with its colour and position words.

    Colour and position words before a noun, and position words after it up to the next comma,
    "and" or "then", belong to it; "to its right", "below it" are relations to the previous phrase.

    >>> [(p.label, p.colour, p.position) for p in parse_phrases("On the left a grey cat, then a white mug")]
    [('cat', 'grey', 'left'), ('cup', 'white', None)]
    >>> [(p.label, p.position, p.relation) for p in parse_phrases("a cup at the top left and a cat to its right")]
    [('cup', 'top left', None), ('cat', None, 'right')]
    """
    labels = _labels()
    toks = _TOKEN.findall(caption.lower())
    nouns: list[tuple[int, int, str]] = []
    i = 0
    while i < len(toks):
        label, n = _noun_at(toks, i, labels)
        if label is not None:
            nouns.append((i, n, label))
        i += n
    phrases: list[Phrase] = []
    start = 0
    for k, (i, n, label) in enumerate(nouns):
        nxt = nouns[k + 1][0] if k + 1 < len(nouns) else len(toks)
        after = i + n
        while after < nxt and toks[after] not in _BREAKS:
            after += 1
        before = toks[start:i]
        ctx = before + toks[i + n:after]
        colour = next((t for t in reversed(before) if t in COLOR_WORDS), None)
        after_noun = toks[i + n:after]
        if colour is None and "in" in after_noun:  # "a person in orange", "in an orange suit"
            colour = next((t for t in after_noun[after_noun.index("in"):] if t in COLOR_WORDS), None)
        colour = "grey" if colour == "gray" else colour
        relative = "its" in ctx or "it" in ctx
        row = next((t for t in ctx if t in ("top", "upper", "bottom", "lower", "above", "below")), None)
        col = next((t for t in ctx if t in ("left", "right")), None)
        centre = any(t in ("middle", "centre", "center") for t in ctx)
        position = relation = None
        if relative:
            relation = col or {"above": "above", "below": "below", "top": "above",
                               "bottom": "below"}.get(row or "")
        else:
            r = {"upper": "top", "lower": "bottom", "above": "top", "below": "bottom"}.get(row or "", row)
            position = " ".join(x for x in (r, col) if x) or ("centre" if centre else None)
        kind = "region" if label in REGION_NOUNS else "object"
        words = toks[start:after]
        while words and words[0] in _BREAKS:  # "and the table": the phrase is "the table"
            words = words[1:]
        phrases.append(Phrase(" ".join(words).strip(" ;,."), label, kind, colour, position, relation))
        start = after
    return phrases



class ObjectNotFound(ValueError):
    """The phrase names nothing that could be found in the image (or nothing Easel can look for).
    ``seen``: what was found instead, ``(word, box)`` each, worth pointing at."""

    def __init__(self, message: str, *, seen: list[tuple[str, tuple[int, int, int, int]]] | None = None):
        super().__init__(message)
        self.seen = seen or []


# "the man's hat", "the dog's eyes": a possessive and what it owns, which is not the owner
_OWNED = re.compile(r"\b([a-z]+)(?:'s|s') ([a-z]+)\b")
# ... except what covers the owner all over: "make the dog's fur warmer" is the dog; and the face, which
# the request rules find themselves (agent.perception.faces) and a crop takes as the person ("zoom in on
# the man's face")
WHOLE_COVER = frozenset({"face", "fur", "coat", "feathers", "plumage", "wool", "fleece", "body", "hide", "skin", "shell",
                         "scales", "paint", "paintwork", "colour", "colours", "color", "colors", "whole", "own",
                         "entire"})

# Words the phrase reader does not know, rewritten to ones it does (plurals stay plural).
_REWRITE = {"children": "people", "child": "person", "folks": "people", "ladies": "people",
            "guys": "people", "everyone": "people", "everybody": "people", "puppies": "dogs", "couple": "two people",
            "kittens": "cats", "leftmost": "on the left", "rightmost": "on the right"}


def object_phrase(words: str):
    if not isinstance(words, str) or not words.strip():
        raise ObjectNotFound("no object was named")
    text = words.lower()
    for word, replacement in _REWRITE.items():
        text = re.sub(rf"\b{word}\b", replacement, text)
    owned = _OWNED.search(text)
    if owned and owned.group(2) not in WHOLE_COVER and not re.search(
            r"\b(?:in|on|at|near|next|beside|by|with|from|of|behind|under|above|below|holding|wearing)\b",
            text[:owned.start()]):  # (not "the dog in the man's arms": that is the dog)
        # "remove the man's hat" removed the man (and said "Removed the man's hat"): what is owned is
        # looked for itself ("the man's tie": the tie), or it is a part Easel cannot find on its own
        try:
            return object_phrase(f"the {text[owned.start(2):]}")
        except ObjectNotFound:
            raise ObjectNotFound(f"I can't find the {owned.group(1)}'s {owned.group(2)} on its own: I find whole "
                                 "things (people, animals, vehicles and everyday objects), not their parts or "
                                 "what they wear") from None
    labels = _labels()  # what the detector can find
    named = named_words()  # "the tiger", "the swans": the classifier's words for what the detector finds
    # (a young one's kind through SYNONYMS: "the joey" is looked for as "the kangaroo")
    phrases = [p for p in parse_phrases(text)
               if p.kind == "object" and (p.label in labels or p.label in named or animal_noun(p.label))]
    if not phrases:
        phrases = _animal_phrases(text)
    if not phrases:
        raise ObjectNotFound(f"I can't tell which object {words.strip()!r} means; I can find people, "
                             "animals, vehicles and everyday things (the 80 COCO classes)")
    return phrases[0], text


def named_words() -> frozenset[str]:
    """The words beyond COCO's labels that name what the detector finds, as the caption names it:
    the classifier's animals ("tiger", "swan", "camel"), the kinds ("animal", "vehicle") and the
    classifier's things (:func:`object_words`: "balloon", "violin")."""
    from agent.perception.vocabulary import KIND_WORDS, animal_words

    return frozenset(animal_words() - _NOT_ANIMALS | set(KIND_WORDS)) | object_words()


# Classifier words that requests use for parts, places or qualities, not the thing ("the screen" of a
# phone, "the stage", "the lighter areas", "the scale"), or that the reader knows as parts already
_NOT_OBJECTS = {"building", "camera", "ear", "flower", "jeans", "plate", "screen", "suit", "sunglasses", "wing",
                "rule", "scale", "switch", "slot", "lighter", "trifle", "stage", "person", "chest", "organ", "crane"}


@functools.cache
def object_words() -> frozenset[str]:
    """The one-word names the classifier gives things (ImageNet's everyday words of its non-animal
    classes) that WordNet knows as nouns at least as often as verbs and never as adjectives or
    adverbs: describe called the red balloon "a red balloon" and "the balloon is too dark" was "I
    can't find the balloon on my own". Empty without the labels or WordNet."""
    from agent.perception import wordnet
    from agent.perception.models import ModelMissingError, imagenet_labels
    from agent.perception.vocabulary import everyday_words

    try:
        labels = imagenet_labels()
    except ModelMissingError:
        return frozenset()
    if not wordnet.available():
        return frozenset()
    words = {w for i, w in enumerate(everyday_words(labels)) if i >= 398 and w and w.isalpha() and w.islower()}
    return frozenset(w for w in words - _NOT_OBJECTS if wordnet.noun_first(w))


def animal_noun(word: str) -> str | None:
    """``word`` (or its singular) when WordNet knows it as an animal and it is no COCO or caption
    word ("kangaroo", "owls" -> "owl"), else None: such a thing is looked for, and when nothing
    is named so, what was seen is said instead of a refusal."""
    from agent.perception import wordnet

    for w in (word, word[:-1] if word.endswith("s") else None, word[:-2] if word.endswith("es") else None):
        if (w and len(w) > 2 and w not in _labels() and w not in SYNONYMS and w not in _NOT_ANIMALS
                and wordnet.first_is_a(w, "animal") and not wordnet.modifier(w)):
            return w
    return None


# Words whose first sense in WordNet is an animal but that requests use otherwise.
_NOT_ANIMALS = {"young", "drone", "queen", "hind", "game", "pet", "tick"}  # "the tick mark"


def _animal_phrases(text: str) -> list[Phrase]:
    """The phrase of the first animal noun of ``text`` that no list here holds ("the bison on the
    left"), or of a thing the classifier names (:func:`object_words`), read as "the animal on the
    left" is, under its own word."""
    objects = object_words()
    for tok in re.findall(r"[a-z]+", text):
        word = animal_noun(tok) or (tok if tok in objects else tok[:-1] if tok.endswith("s") and tok[:-1] in objects
                                    else None)  # (a thing the classifier names: "the balloon")
        if word is not None:
            kind = "animals" if tok != word else "animal"  # plural stays plural
            ps = [p for p in parse_phrases(re.sub(rf"\b{tok}\b", kind, text, count=1)) if p.label == "animal"]
            if ps:
                p = ps[0]
                return [Phrase(p.text.replace(kind, tok), word, "object", p.colour, p.position, p.relation)]
    return []


def thing_words() -> frozenset[str]:
    """Every single word that names a thing Easel can look for in a picture: the detector's
    (:func:`detector_words`) and the caption's names for what it finds (:func:`named_words`),
    with plurals ("the swans"). The request reader accepts removals, crops and edits of things
    named with these words, or with any animal's name (:func:`animal_noun`).

    >>> {"tiger", "swans", "animal", "dog"} <= thing_words(), "sky" in thing_words()
    (True, False)
    """
    named = named_words()
    return detector_words() | named | frozenset(w + "s" for w in named if not w.endswith("s"))


def names_object(words: str) -> bool:
    """Whether ``words`` name something :func:`find_objects` can look for ("the dog", "the two people":
    yes; "my son", "her": no)."""
    try:
        object_phrase(words)
    except ObjectNotFound:
        return False
    return True

