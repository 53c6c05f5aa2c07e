"""Everyday words for ImageNet's 1000 classes, and which COCO labels each word agrees with.

ImageNet names are WordNet synonym lists ("tabby, tabby cat", "Egyptian cat", "espresso"); people
say "cat" and "cup". :func:`everyday_word` maps a class index to the word a person would use, or
``None`` for classes that are scenes or textures rather than things one points at ("alp",
"honeycomb", "velvet"), which must never name an object.

The map, documented by rule:

- animals (indices 0-397) by WordNet group: the 118 dog breeds -> "dog", the five domestic cats
  ("tabby", "tiger cat", "Persian cat", "Siamese cat", "Egyptian cat") -> "cat", the big cats by
  their own names ("tiger", "lion", "leopard", ...), fish -> "fish", and so on
  (:data:`_ANIMAL_RANGES`); the birds -> "bird", except those people tell apart and name by their
  own word (owl, eagle, vulture, toucan, hornbill, hummingbird, stork, spoonbill, flamingo, heron,
  pelican; a bittern and an egret are herons, by WordNet), which are also COCO "bird"s; a ring-tailed
  lemur and an indri are lemurs, not monkeys; a bison is a "bison" (and a COCO "cow");
- things (398-999): the first synonym, lower-cased, unless :data:`_THING_WORDS` says otherwise
  ("espresso" -> "coffee", "coffee mug" -> "mug", "missile", "projectile" and "space shuttle" -> "rocket", "moped" -> "motorbike");
- :data:`_NOT_THINGS` lists classes that are places, textures or parts (``None``);
- :data:`_GROUPS` gives one word to classes a person would not tell apart and would call by one
  word, so that their probabilities add up: a pagoda is not in ImageNet and the classifier spreads
  it over "bell cote" (0.37), "palace" (0.27), "church", "castle" and "stupa"; each alone is
  unsure, together they are a sure "building" (0.86, bench/photoset.py's temple box).

The kind of each class comes from WordNet's hypernyms (:mod:`agent.perception.wordnet`, Debian's
``wordnet-base``): a tabby is a cat and a cat is an animal, a school bus is a vehicle. Easel says
the kind ("an animal", "a vehicle") where it is sure of the kind but not of the species
(:func:`class_kinds`). ``tests/test_wordnet.py`` checks the map above against WordNet: every
class called "cat" is under WordNet's cat, every "dog" under its dog, every class of the animal
ranges an animal.

:data:`COCO_AGREES` says which everyday words are the same thing as a COCO label (a "mug" is a
COCO "cup", a "moped" a "motorcycle"), so the detector and the classifier can be combined.
"""

from __future__ import annotations

# (first, last, word): inclusive index ranges of ImageNet's animal classes.
_ANIMAL_RANGES: list[tuple[int, int, str]] = [
    (0, 6, "fish"), (7, 8, "chicken"), (9, 9, "ostrich"), (10, 21, "bird"), (22, 22, "eagle"),
    (23, 23, "vulture"), (24, 24, "owl"), (25, 29, "newt"),
    (30, 32, "frog"), (33, 37, "turtle"), (38, 48, "lizard"), (49, 50, "crocodile"),
    (51, 51, "dinosaur"), (52, 68, "snake"), (69, 69, "trilobite"), (70, 71, "scorpion"),
    (72, 77, "spider"), (78, 78, "tick"), (79, 79, "centipede"), (80, 83, "bird"),
    (84, 84, "peacock"), (85, 86, "bird"), (87, 90, "parrot"), (91, 92, "bird"), (93, 93, "hornbill"),
    (94, 94, "hummingbird"), (95, 95, "bird"), (96, 96, "toucan"), (97, 98, "duck"),
    (99, 99, "goose"), (100, 100, "swan"), (101, 101, "elephant"), (102, 102, "echidna"),
    (103, 103, "platypus"), (104, 104, "wallaby"), (105, 105, "koala"), (106, 106, "wombat"),
    (107, 107, "jellyfish"), (108, 108, "sea anemone"), (109, 109, "coral"), (110, 111, "worm"),
    (112, 112, "shell"), (113, 114, "snail"), (115, 115, "sea slug"), (116, 116, "chiton"),
    (117, 117, "shell"), (118, 121, "crab"), (122, 123, "lobster"), (124, 124, "crayfish"),
    (125, 125, "crab"), (126, 126, "woodlouse"), (127, 128, "stork"), (129, 129, "spoonbill"),
    (130, 130, "flamingo"), (131, 133, "heron"), (134, 143, "bird"), (144, 144, "pelican"), (145, 145, "penguin"),
    (146, 146, "bird"), (147, 148, "whale"), (149, 149, "dugong"), (150, 150, "sea lion"),
    (151, 268, "dog"), (269, 272, "wolf"), (273, 275, "wild dog"), (276, 276, "hyena"),
    (277, 280, "fox"), (281, 285, "cat"), (286, 286, "puma"), (287, 287, "lynx"),
    (288, 288, "leopard"), (289, 289, "snow leopard"), (290, 290, "jaguar"), (291, 291, "lion"),
    (292, 292, "tiger"), (293, 293, "cheetah"), (294, 297, "bear"), (298, 298, "mongoose"),
    (299, 299, "meerkat"), (300, 307, "beetle"), (308, 308, "fly"), (309, 309, "bee"),
    (310, 310, "ant"), (311, 312, "grasshopper"), (313, 313, "stick insect"),
    (314, 314, "cockroach"), (315, 315, "mantis"), (316, 316, "cicada"), (317, 318, "insect"),
    (319, 320, "dragonfly"), (321, 326, "butterfly"), (327, 327, "starfish"),
    (328, 328, "sea urchin"), (329, 329, "sea cucumber"), (330, 332, "rabbit"),
    (333, 333, "hamster"), (334, 334, "porcupine"), (335, 335, "squirrel"), (336, 336, "marmot"),
    (337, 337, "beaver"), (338, 338, "guinea pig"), (339, 339, "horse"), (340, 340, "zebra"),
    (341, 343, "pig"), (344, 344, "hippo"), (345, 345, "cow"), (346, 346, "buffalo"), (347, 347, "bison"),
    (348, 348, "sheep"), (349, 350, "goat"), (351, 353, "antelope"), (354, 354, "camel"),
    (355, 355, "llama"), (356, 359, "weasel"), (360, 360, "otter"), (361, 361, "skunk"),
    (362, 362, "badger"), (363, 363, "armadillo"), (364, 364, "sloth"), (365, 365, "orangutan"),
    (366, 366, "gorilla"), (367, 367, "chimpanzee"), (368, 369, "gibbon"), (370, 382, "monkey"), (383, 384, "lemur"),
    (385, 386, "elephant"), (387, 387, "red panda"), (388, 388, "panda"), (389, 397, "fish"),
]

# Things whose first ImageNet synonym is not what people say.
_THING_WORDS: dict[int, str] = {
    399: "robe", 400: "gown", 401: "accordion", 403: "ship", 404: "airliner", 405: "airship",
    409: "clock", 412: "bin", 413: "rifle", 418: "pen", 436: "car", 440: "bottle", 441: "glass",
    444: "bicycle", 468: "taxi", 487: "phone", 504: "mug", 508: "keyboard", 511: "car",
    518: "helmet", 528: "phone", 530: "clock", 531: "watch", 532: "table", 547: "train",
    555: "fire engine", 559: "chair", 560: "helmet", 565: "train", 567: "frying pan",
    579: "piano", 608: "jeans", 609: "jeep", 610: "T-shirt", 617: "lab coat", 620: "laptop",
    627: "car", 628: "ship", 639: "swimsuit", 638: "swimsuit", 651: "microwave", 656: "van",
    657: "rocket", 661: "car", 664: "monitor", 665: "motorbike", 670: "scooter",
    671: "bicycle", 673: "computer mouse", 681: "laptop", 697: "pyjamas", 705: "train carriage",
    717: "pickup truck", 737: "bottle", 738: "flowerpot", 744: "rocket", 751: "racing car",
    752: "racket", 754: "radio", 759: "camera", 761: "remote control", 765: "rocking chair",
    770: "shoe", 779: "bus", 780: "sailing boat", 782: "screen", 805: "football",
    812: "rocket", 814: "speedboat", 817: "car", 820: "train", 829: "tram", 834: "suit", 836: "sunglasses",
    837: "sunglasses", 850: "teddy bear", 851: "television", 867: "lorry", 874: "bus",
    881: "piano", 882: "vacuum cleaner", 892: "clock", 895: "plane", 898: "bottle", 907: "bottle",
    934: "hot dog", 936: "cabbage", 943: "cucumber", 948: "apple", 963: "pizza", 966: "wine",
    967: "coffee", 968: "cup", 981: "person", 982: "person", 983: "diver", 987: "corn",
    992: "mushroom", 993: "mushroom", 994: "mushroom", 997: "mushroom", 999: "toilet paper",
}

# Words for groups of classes (see the module docstring), applied before _NOT_THINGS.
# "building": buildings seen from outside, and their roofs. Not the classes that are mostly
# interiors or shop fronts (cinema, library, restaurant, prison, greenhouse, the shops), whose
# crops are rooms and walls, nor towers and monuments (beacon, water tower, obelisk,
# triumphal arch), which have words of their own.
# "flower": the two flowers ImageNet has (daisy, yellow lady's slipper); other flowers look most
# like them (scikit-learn's dahlia is a "daisy" at 0.51), and "flower" is right for all.
_GROUPS: dict[str, set[int]] = {
    "building": {425, 442, 449, 483, 497, 538, 663, 668, 698, 727, 832, 853, 858},
    "flower": {985, 986},
}

# Places, scenes, textures and parts: never the name of a thing in a box.
_NOT_THINGS: set[int] = {
    410, 415, 421, 424, 425, 449, 454, 460, 467, 483, 489, 497, 498, 500, 509, 525, 536, 538, 540,
    580, 582, 599, 611, 624, 634, 646, 649, 663, 668, 698, 706, 716, 718, 727, 743, 762, 788, 789,
    799, 815, 821, 825, 832, 839, 853, 858, 860, 865, 873, 884, 885, 888, 904, 911, 912, 913, 916,
    917, 918, 919, 921, 922, 970, 971, 972, 973, 974, 975, 976, 977, 978, 979, 980, 490, 506, 442,
    439, 458, 581, 641,
}

# Everyday words that are the same thing as a COCO label (each label also agrees with itself).
COCO_AGREES: dict[str, set[str]] = {
    "person": {"person", "diver"},
    "bicycle": {"bicycle", "tricycle", "unicycle"},
    "car": {"car", "taxi", "jeep", "racing car", "van", "minibus", "pickup truck", "police van",
            "ambulance", "go-kart", "golfcart"},
    "motorcycle": {"motorbike", "scooter", "motorcycle"},
    "airplane": {"airliner", "plane", "warplane", "airship"},
    "bus": {"bus", "minibus", "school bus", "trolleybus"},
    "train": {"train", "tram", "train carriage", "bullet train", "passenger car"},
    "truck": {"lorry", "fire engine", "garbage truck", "tow truck", "pickup truck", "moving van",
              "tractor"},
    "boat": {"ship", "sailing boat", "speedboat", "canoe", "lifeboat", "gondola", "fireboat",
             "catamaran", "trimaran", "yawl", "schooner", "submarine", "paddlewheel"},
    "cat": {"cat"}, "dog": {"dog", "wolf", "wild dog"}, "bird": {"bird", "chicken", "duck", "goose",
    "swan", "parrot", "peacock", "penguin", "ostrich", "eagle", "vulture", "owl", "hornbill",
    "hummingbird", "toucan", "stork", "spoonbill", "flamingo", "heron", "pelican"},
    "horse": {"horse"}, "sheep": {"sheep", "goat"}, "cow": {"cow", "buffalo", "bison", "ox"},
    "elephant": {"elephant"}, "bear": {"bear", "panda"}, "zebra": {"zebra"},
    "cup": {"cup", "mug", "coffee", "measuring cup", "eggnog"},
    "bowl": {"soup bowl", "mixing bowl", "bowl"},
    "wine glass": {"goblet", "glass", "wine"}, "bottle": {"bottle", "pill bottle", "water jug"},
    "laptop": {"laptop"}, "tv": {"television", "monitor", "screen"}, "mouse": {"computer mouse"},
    "keyboard": {"keyboard", "typewriter keyboard"}, "cell phone": {"phone", "iPod"},
    "clock": {"clock", "stopwatch"}, "teddy bear": {"teddy bear"}, "umbrella": {"umbrella"},
    "backpack": {"backpack"}, "handbag": {"purse", "mailbag", "wallet"},
    "chair": {"chair", "folding chair", "rocking chair", "barber chair", "throne"},
    "couch": {"studio couch"}, "bed": {"four-poster", "quilt", "crib"},
    "dining table": {"table", "desk", "pool table"}, "vase": {"vase", "flowerpot", "pitcher"},
    "potted plant": {"flowerpot", "pot"}, "sports ball": {"football", "baseball", "basketball",
    "tennis ball", "golf ball", "volleyball", "rugby ball", "croquet ball", "ping-pong ball"},
    "banana": {"banana"}, "orange": {"orange", "lemon"}, "apple": {"apple"}, "pizza": {"pizza"},
    "hot dog": {"hot dog"}, "broccoli": {"broccoli"}, "toaster": {"toaster"},
    "microwave": {"microwave"}, "refrigerator": {"refrigerator"}, "sink": {"washbasin"},
    "toilet": {"toilet seat"}, "book": {"book jacket", "binder", "comic book"},
    "scissors": {"scissors"}, "tennis racket": {"racket"}, "skis": {"ski"},
    "traffic light": {"traffic light"}, "parking meter": {"parking meter"},
    "bench": {"park bench"}, "kite": {"kite"}, "surfboard": {"surfboard"},
    "hair drier": {"hair dryer"}, "remote": {"remote control"}, "oven": {"stove"},
}

_LABELS: list[str] | None = None
_WORDS: list[str | None] | None = None


def _words(labels: list[str]) -> list[str | None]:
    out: list[str | None] = []
    for i, name in enumerate(labels):
        if i < 398:
            out.append(next((w for a, b, w in _ANIMAL_RANGES if a <= i <= b), None))
        elif group := next((g for g, members in _GROUPS.items() if i in members), None):
            out.append(group)
        elif i in _NOT_THINGS:
            out.append(None)
        else:
            out.append(_THING_WORDS.get(i, name.split(",")[0].strip().lower()))
    return out


def everyday_words(labels: list[str]) -> list[str | None]:
    """The everyday word of each of ImageNet's 1000 classes (given their names in index order).

    >>> names = ["x"] * 1000
    >>> ws = everyday_words(names)
    >>> ws[281], ws[292], ws[155], ws[970], ws[698], ws[985]
    ('cat', 'tiger', 'dog', None, 'building', 'flower')
    """
    global _LABELS, _WORDS
    if _LABELS is not labels:
        _LABELS, _WORDS = labels, _words(labels)
    assert _WORDS is not None
    return _WORDS


# The kinds a thing may be named by when no species is sure (see the module docstring).
KIND_WORDS = ("animal", "vehicle")
# What describe says of a thing it cannot name closer: "which animal is it?" is then not known
KIND_ONLY = frozenset({"animal", "bird", "fish", "insect", "object"})


def class_kinds(labels: list[str]) -> tuple[str | None, ...]:
    """The kind word of each ImageNet class ("animal", "vehicle" or None), from WordNet; without
    the WordNet files, the animal ranges are animals and the rest has no kind.

    >>> from agent.perception.models import classifier_and_labels
    >>> ks = class_kinds(classifier_and_labels()[1])    # doctest: +SKIP
    >>> ks[281], ks[779], ks[504]                       # doctest: +SKIP
    ('animal', 'vehicle', None)
    """
    from agent.perception import wordnet

    if wordnet.available():
        return wordnet.kinds_of_classes(labels)
    return tuple("animal" if i < 398 else None for i in range(len(labels)))


def animal_words(one_word: bool = True) -> set[str]:
    """The animal names of the map ("tiger", "fox"): one-word ones only for reading captions back,
    all of them ("red panda", "snow leopard") with ``one_word=False``."""
    return {w for _, _, w in _ANIMAL_RANGES if not one_word or " " not in w}


def caption_nouns() -> set[str]:
    """One-word nouns a caption may use beyond COCO's labels (animals and a few things)."""
    return animal_words() | {"rocket", "flower", "helmet", "tripod"} | set(_GROUPS) | set(KIND_WORDS)


def listed(items: list[str], last: str = "and") -> str:
    """Words in a list as a sentence says them: "a, b and c".

    >>> listed(["a dog"]), listed(["red", "green", "blue"])
    ('a dog', 'red, green and blue')
    """
    return "".join(items) if len(items) <= 1 else ", ".join(items[:-1]) + f" {last} " + items[-1]


def with_article(phrase: str) -> str:
    """``phrase`` after "a" or "an" ("an orange cup", "a cow").

    >>> with_article("owl"), with_article("brown cow")
    ('an owl', 'a brown cow')
    """
    return ("an " if phrase[:1].lower() in "aeiou" else "a ") + phrase


# Nouns whose plural is not the noun and an "s" or "es" (and those that do not change).
_PLURALS = {"person": "people", "man": "men", "woman": "women", "child": "children", "mouse": "mice",
            "goose": "geese", "foot": "feet", "tooth": "teeth", "knife": "knives", "leaf": "leaves",
            "wolf": "wolves", "calf": "calves", "shelf": "shelves", "ox": "oxen", "cactus": "cacti"}
_SAME_PLURAL = {"sheep", "deer", "fish", "bison", "moose", "aircraft", "skis", "scissors", "people", "glasses"}
_SINGULARS = {v: k for k, v in _PLURALS.items()}


def same_in_plural(noun: str) -> bool:
    """Whether ``noun``'s last word is the same in the plural ("sheep", "bison"): "the sheep in the
    background" may be one or several."""
    return noun.rpartition(" ")[2] in _SAME_PLURAL


def plural(phrase: str) -> str:
    """``phrase`` with its last word in the plural.

    >>> plural("person"), plural("white cup"), plural("bus"), plural("pony"), plural("sheep")
    ('people', 'white cups', 'buses', 'ponies', 'sheep')
    """
    head, _, last = phrase.rpartition(" ")
    if last in _PLURALS:
        last = _PLURALS[last]
    elif last in _SAME_PLURAL or last in _SINGULARS:
        pass
    elif last.endswith("y") and last[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        last = last[:-1] + "ies"
    else:
        last += "es" if last.endswith(("s", "sh", "ch", "x", "z")) else "s"
    return f"{head} {last}".strip()


def singular(word: str) -> str:
    """The singular of a noun a person wrote in the plural, or the noun itself.

    >>> singular("people"), singular("cats"), singular("buses"), singular("ponies"), singular("glass")
    ('person', 'cat', 'bus', 'pony', 'glass')
    """
    if word in _SINGULARS:
        return _SINGULARS[word]
    if word in _SAME_PLURAL or word in _PLURALS or len(word) <= 3:
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "uses", "zes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun``, in the plural unless it is one ("1 cat", "3 people").

    >>> counted(1, "person"), counted(2, "person"), counted(0, "dish")
    ('1 person', '2 people', '0 dishes')
    """
    return f"{n} {noun if n == 1 else plural(noun)}"


def agrees(word: str, coco_label: str) -> bool:
    """Whether an everyday word names the same thing as a COCO label ("mug" and "cup": yes)."""
    return word == coco_label or word in COCO_AGREES.get(coco_label, ())


def coco_label(word: str) -> str:
    """The COCO label an everyday word is the same thing as ("motorbike" -> "motorcycle"), or the
    word itself when COCO has no such class ("tiger").

    >>> coco_label("mug"), coco_label("tiger")
    ('cup', 'tiger')
    """
    if word in COCO_AGREES:
        return word
    return next((label for label, words in COCO_AGREES.items() if word in words), word)

