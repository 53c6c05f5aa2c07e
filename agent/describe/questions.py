"""Answers to questions about the open picture, from perception and measurements, never from an edit.

"what colour is the cup?" (and "is the cup red?") names the colour of the cup's own pixels (:func:`agent.perception.naming.object_colour`)
and draws its box; "is there a spoon?", "how many cats are there?", "where is the dog?" come from the
detector (:func:`agent.perception.things.detect`), with boxes; "is it too dark?" (warm, blurry,
crooked...) from the measurements of :mod:`agent.perception.measure`, each answer with its figure;
"what would you improve?" is a critique (:mod:`agent.describe.critique`) whose plan "yes" runs.

How sure the detector must be (its score, 0..1): :data:`SURE` and more is said as seen; from
:data:`UNSURE` to :data:`SURE` the answer says "I think ... but I'm not sure" with the score; below,
"I don't see ...". The two limits are measured by ``bench/question_confidence.py``: the detector's
39 finds (score 0.1 and more) on 16 real photos whose things were listed by eye (8 of the sample
library, 8 of mate-backgrounds) are 11 true and 28 false. Under 0.3, 23 false to 1 true: "I don't
see". From 0.3 to 0.5, 3 false (a frisbee and an umbrella in flowers, a mouse on the astronaut) to 2
true (the coffee's spoon, the cat beside the cup): "not sure". From 0.5, 8 true to 2 false (a banana
for a yellow flower at 0.72, a motorcycle in a splash at 0.58): said as seen; a higher limit would
have hedged on the two cats (0.58, 0.62) and the astronaut (0.72).
"""

from __future__ import annotations

import re

import numpy as np

from agent.describe.besides import doing, kind_unconfirmed, unknown_animal
from agent.describe.critique import critique
from agent.describe.measured import extreme_part, measured, thing_focus
from agent.describe.placing import (  # noqa: F401 (callers import where_words and found_part here)
    BOX_COLOR,
    SKY_SIDE,
    SURE,
    UNSURE,
    found_part,
    found_region,
    where_words,
)
from agent.grammar.commands import Command
from agent.grammar.turns import TurnResult
from agent.language.questions import Question, read_question
from agent.perception.things import ROLES, YOUNG, inside_share
from agent.perception.vocabulary import KIND_ONLY, listed, plural, singular
from agent.perception.vocabulary import with_article as _a

SECOND_LOOK = 0.15  # what the naming calls so (NAMED_SURE) counts from this detector score on, as the edits find it
NAMED_SURE = 0.6
_THINGS = "people, animals, vehicles and everyday objects"


def _plural(word: str, n: int) -> str:
    return word if n == 1 else plural(word)


_PLACE = re.compile(r"\s+(?:on|at|in|to) the (far )?(left|right|top|bottom|middle|centre|center)(?: (left|right))?"
                    r"(?: (?:side|corner))?$")


def where_words_for(place: str) -> str:
    """"on the left", "at the top right", "in the middle" for a place a question gave."""
    from agent.perception.places import place_phrase

    return place_phrase("centre" if place in ("middle", "centre", "center") else place)


def _thing(words: str) -> tuple[str, str, str] | None:
    """The label for the words of a question (the detector's, or the caption's word for what it
    finds: "camel", "swan"), the word to say it with, and the place the words give ("right")."""
    from agent.perception.things import ObjectNotFound, object_phrase

    words = words.strip()
    place = _PLACE.search(words)
    if place:
        words = words[:place.start()]
    try:
        phrase, _ = object_phrase(f"the {words}")
    except ObjectNotFound:
        return None
    owner = re.search(r"([a-z]+)(?:'s|s') [a-z]+$", words)  # "the cat's fur": said as the cat
    return phrase.label, singular(owner.group(1) if owner else words.split()[-1]), \
        " ".join(g.strip() for g in (place.groups() if place else ()) if g)


def _found(pixels: np.ndarray, label: str, place: str = "", *, every: bool = False) -> list:
    """The detections of ``label``, surest first, or nearest ``place`` first when one is given. A
    word the detector has no class for ("camel", "swan", "animal") is what the caption's naming
    calls a detection (:func:`agent.perception.naming.name_objects`), as describe says it.
    ``every``: each one is wanted (a count), and a detector class is looked for closer too
    (:func:`agent.perception.things.look_closer`: "how many people?" at a palace counted 5 of 20)."""
    from agent.perception.models import COCO_LABELS, Detection, to_rgb8
    from agent.perception.things import detect, look_closer

    dets = detect(pixels, min_score=UNSURE)
    if label in COCO_LABELS.values():
        found = [d for d in dets if d.label == label]
        if every:
            found = look_closer(pixels, found, min_score=UNSURE, label=label)
        if label == "person":  # not the cygnets beside a swan
            from agent.perception.animals import without_mistaken_people

            found = without_mistaken_people(to_rgb8(pixels), found)
    else:
        from agent.perception.naming import name_objects
        from agent.perception.vocabulary import animal_words
        from agent.perception.wordnet import first_is_a

        animals = animal_words()
        if every:  # a thing the classifier names surely, the detector unsure of it: "how many meerkats?"
            # counted 1 of 3 (the middle one a "bird" at 0.23, a meerkat at 0.75), where "make the one
            # in the middle brighter" found it (agent.edits.objects: the naming's confidence counts)
            dets = detect(pixels, min_score=SECOND_LOOK)
        named = [(Detection(d.label, max(d.score, n.confidence), d.box), n) for d, n in zip(dets, name_objects(pixels, dets))
                 if d.score >= UNSURE or (n.source != "none" and n.confidence >= NAMED_SURE)]
        found = [Detection(label, d.score, d.box) for d, n in named
                 if label in (n.said, n.noun, _kind_of(n, animals))
                 or (n.said in animals and n.said != label and first_is_a(n.said, label))]  # a wallaby is a kangaroo
        # "the owl" where describe says "a bird", which an owl is (WordNet), as the edits take it
        found = found or [Detection(label, d.score, d.box) for d, n in named if first_is_a(label, d.label)]
    if place:  # nearest the place first, as the edits choose "the one on the left"; of those said to be
        # there, a sure one before an unsure one further that way (gcompris' Irish band: "who is on the
        # right?" was "a person in pink", and "what is she wearing?" then the unsure violinist's black)
        from agent.perception.places import position_score

        h, w = pixels.shape[:2]
        far, place = place.startswith("far "), place.removeprefix("far ")  # ("the far right": the last one that way)
        there = set(where_words_for(place).split())
        return sorted(found, key=lambda d: (not far and not (d.score >= SURE and there <= set(where_words(d.box, pixels.shape).split())),
                                            -position_score(d.box, place, w, h) - 0.01 * d.score))
    return sorted(found, key=lambda d: -d.score)


def _whole_photo_is(pixels: np.ndarray, label: str) -> bool:
    """Whether the whole photo is what describe calls ``label`` when no box holds it
    (:func:`agent.perception.naming.whole_image_thing`: "In this picture I can see a meerkat")."""
    from agent.perception.naming import whole_image_thing
    from agent.perception.vocabulary import agrees

    word = whole_image_thing(pixels)
    return word is not None and (word == label or agrees(word, label))


def _by_size(pixels: np.ndarray, found: list, said: str, size: str) -> tuple[str, dict, list]:
    """"which horse is the biggest?": the one whose box is largest (tallest: highest), where it is,
    boxed; with one or none found, said so. The boxes' sizes are what is measured: a thing farther
    off looks smaller, and the answer says it is the one that looks so."""
    if not found:
        return f"I don't see any {_plural(said, 2)}.", {}, []
    if len(found) == 1:
        return f"I see only one {said}, {where_words(found[0].box, pixels.shape)}.", {"overlays": [_box(found[0], said)]}, []
    def measure(d):
        w, h = d.box[2] - d.box[0], d.box[3] - d.box[1]
        return h if size in ("tallest", "shortest") else w * h
    pick = (max if size in ("biggest", "tallest") else min)(found, key=measure)
    where = where_words(pick.box, pixels.shape)
    return (f"The {said} {where} looks the {size} of the {len(found)} I see (its box is on the picture).",
            {"overlays": [_box(pick, said)]}, [])


_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _listed(pixels: np.ndarray, kind: str) -> tuple[str, dict, list[Command]]:
    """"what animals are in the picture?": the things of ``kind`` ("animal", "vehicle", "person" or
    "thing" for all) the detector finds surely (with a closer look, as counts are), as describe
    names them, left to right, boxed."""
    from agent.perception.naming import name_objects
    from agent.perception.things import detect, look_closer
    from agent.perception.vocabulary import animal_words

    animals = animal_words(one_word=False)
    # looked at closer, as a count is ("how many people?" said 8 where this said "three people")
    dets = look_closer(pixels, detect(pixels, min_score=SURE), min_score=SURE)
    named = [(d, n) for d, n in zip(dets, name_objects(pixels, dets))
             if kind == "thing" or kind == ("person" if n.noun == "person" else _kind_of(n, animals))]
    group = {"animal": "animals", "vehicle": "vehicles", "person": "people", "thing": "things"}[kind]
    if not named:
        return f"I don't see any {group}.", {}, []
    named.sort(key=lambda dn: dn[0].box[0] + dn[0].box[2])
    said: dict[str, list] = {}
    for d, n in named:
        said.setdefault(n.said or n.noun, []).append(d)
    parts = []
    for word, found in said.items():
        places = list(dict.fromkeys(where_words(d.box, pixels.shape) for d in found))
        if len(found) == 1:
            parts.append(f"{_a(word)} {places[0]}")
            continue
        many = f"{_NUMBERS[len(found)] if len(found) < len(_NUMBERS) else len(found)} {_plural(word, len(found))}"
        if len(places) == 1:
            parts.append(f"{many} {places[0]}")
        elif len(found) == 2:
            parts.append(f"{many}, one {places[0]} and one {places[1]}")
        else:
            parts.append(f"{many} ({', '.join(places[:-1])} and {places[-1]})")
    if any("," in p for p in parts):  # "two people, one on the left and one on the right; a dog ..."
        text = "I see " + "; ".join(parts) + "."
    else:
        text = "I see " + listed(parts) + "."
    return text, {"overlays": [_box(d, n.said or n.noun) for d, n in named]}, []


def _kind_of(n, animals: set[str]) -> str | None:
    """The kind of a thing describe names ``n`` ("animal", "vehicle" or None): its COCO label's, or
    "animal" for a species word of ``animals`` (:func:`agent.perception.vocabulary.animal_words`)."""
    from agent.perception.naming import COCO_KINDS

    return COCO_KINDS.get(n.noun) or ("animal" if n.noun == "animal" or (n.said or n.noun) in animals else None)


def _which_kind(pixels: np.ndarray, about: str) -> tuple[str, dict, list[Command]]:
    """"what animal is it?", "what kind of bird is this?": what describe calls the largest thing of
    that kind, boxed; where it names only the kind ("an animal": the classifier does not confirm
    the detector's species), that it can't tell which, with the detector's guess said as a guess."""
    from agent.perception.naming import name_objects
    from agent.perception.things import detect
    from agent.perception.vocabulary import animal_words
    from agent.perception.wordnet import first_is_a

    animals = animal_words(one_word=False)
    found = []
    dets = detect(pixels, min_score=UNSURE)
    for d, n in zip(dets, name_objects(pixels, dets)):
        word = n.said or n.noun
        if (_kind_of(n, animals) == "animal" if about == "animal" else about in (word, n.noun, d.label) or first_is_a(word, about)):
            found.append((d, word))
    if not found:
        return f"I don't see {_a(about)} in this picture.", {}, []
    d, word = max(found, key=lambda dw: (dw[0].box[2] - dw[0].box[0]) * (dw[0].box[3] - dw[0].box[1]))
    where = where_words(d.box, pixels.shape)
    overlays = {"overlays": [_box(d, word)]}
    finer = _finer_kind(pixels, d.box, word) if word == about else None
    if finer is not None:  # "what breed is the dog?": the classifier's class of that word, when it is sure
        return (f"It looks like {_a(finer[0])} to me (the {word} {where}: my classifier gives it {finer[1]:.2f}).",
                overlays, [])
    if word in KIND_ONLY or word == about:
        guess = (f": my detector's guess is {_a(d.label)}, which my classifier does not confirm"
                 if d.label != word and d.label in animals and d.label not in KIND_ONLY else "")  # (not "a bird" of an owl)
        return f"I can see {_a(word)} {where}, but I can't tell which kind it is{guess}.", overlays, []
    more = f" (of the {len(found)} I see, the largest)" if len(found) > 1 else ""
    # "what colour is it?" next is about the panda named, not "the animal" asked about
    topic = f"the {word} {where}" if len(found) > 1 else f"the {word}"
    return f"It looks like {_a(word)} to me, {where}{more}.", {**overlays, "topic": topic}, []


FINER_SURE = 0.5  # the classifier's probability of one class of a word ("German shepherd" of "dog") to say it


def _finer_kind(pixels: np.ndarray, box, word: str) -> tuple[str, float] | None:
    """The ImageNet class among those ``word`` stands for ("German shepherd" for a "dog", "tabby" for
    a "cat") that the classifier gives the box's square crop at :data:`FINER_SURE` or more, with that
    probability; None when it is unsure or the word stands for one class only."""
    from agent.perception.classify import classify_crops
    from agent.perception.models import classifier_and_labels, to_rgb8
    from agent.perception.vocabulary import everyday_words

    _, labels = classifier_and_labels()
    words = everyday_words(labels)
    mine = [i for i, w in enumerate(words) if w == word]
    if len(mine) < 2:
        return None
    probs = classify_crops(to_rgb8(pixels), [tuple(int(v) for v in box)], square=True)[0]
    best = max(mine, key=lambda i: probs[i])
    return (labels[best].split(",")[0].strip(), float(probs[best])) if probs[best] >= FINER_SURE else None


def _box(d, label: str) -> dict:
    return {"kind": "box", "target": "current", "box": [int(v) for v in d.box], "color": BOX_COLOR, "label": label}


_PRONOUNS = {"it", "this", "that", "them", "they", "him", "her", "these", "those", "one", "this one", "that one"}


def _not_a_thing(about: str) -> str:
    if about.strip() in ("she", "he", "her", "him"):  # "what is she wearing?" with no one talked about
        return (f"Which person do you mean by “{about.strip()}”? Say where they are (for example “what is the "
                "person on the left wearing?”), or ask “who is on the left?” first.")
    if about.strip() in _PRONOUNS:  # no thing talked about yet that "it" could be
        return (f"Which thing do you mean by “{about.strip()}”? Say its name (for example “what colour is the "
                "dog?”); I can look for people, animals, vehicles and everyday objects.")
    return (f"I can only look for {_THINGS} (the 80 kinds my detector knows), and “{about}” is not one of them, "
            "so I can't tell. 'describe' says what I see.")


def _role(pixels: np.ndarray, question: Question, role: str) -> tuple[str, dict, list[Command]]:
    """"is there a conductor?", "how many dancers are there?": the people seen, and that which of
    them does what is not something the models tell (it was "Yes, there is a conductor on the left")."""
    text, data, plan = answer_question(pixels, Question("count", re.sub(rf"\b{role}s?\b", "people", question.about)))
    if text.startswith("I don't see"):
        return text, data, plan
    which = f"which of them are {plural(role)}" if question.kind == "count" else f"whether one of them is {_a(role)}"
    return f"{text} I can't tell {which}: my models find people, not what they do.", data, plan


def answer_question(pixels: np.ndarray, question: Question, removed: tuple | None = None) -> tuple[str, dict, list[Command]]:
    """The answer in words, the data to draw (boxes), and what "yes" would run (a proposal).
    ``removed``: the box of what the last edit removed and the words it was named by, which "is it
    gone?" looks at (the other giraffe, still there, was "No: I still see a giraffe on the right"); ()
    when nothing was removed from the photo."""
    if question.kind == "critique":
        c = critique(pixels)
        return c.text(), {"plan": [p.format() for p in c.plan]}, c.plan
    if question.kind == "measure":
        text, data, plan = measured(pixels, question.about)
        if question.value == "amount" and text.startswith(("No, ", "Yes, ")):  # "what is the brightness?"
            text = text.split(", ", 1)[1][:1].upper() + text.split(", ", 1)[1][1:]
        return text, data, plan
    if question.kind == "extreme":
        return extreme_part(pixels, question.value)
    if question.kind == "measure_part":
        return _part_measured(pixels, question.about, question.value)
    if question.kind == "what_in":  # "what's in the water?", "what's on the grass?"
        from agent.describe.what_in import what_in

        return what_in(pixels, question.value, question.about)
    if question.kind == "what_at":
        return _what_at(pixels, question.about, who=question.value == "who")
    if question.kind == "list":
        return _listed(pixels, question.about)
    if question.kind == "else":  # "is there anything else?"
        from agent.describe.besides import anything_else

        return anything_else(pixels, unsure=UNSURE, sure=SURE)
    if question.kind == "which_kind":
        return _which_kind(pixels, question.about)
    found = found_part(question.about)
    if found is not None:
        return _found_answer(pixels, found, question.kind, question.value)
    if re.fullmatch(r"(?:the |any |a |all (?:the )?)?faces?", question.about.strip()):
        return _faces_answer(pixels, question.kind)
    if question.kind == "extent" and question.about == "picture":
        h, w = pixels.shape[:2]
        return f"The picture is {w} x {h} pixels ({w * h / 1e6:.1f} megapixels).", {}, []
    thing = _thing(question.about)
    if thing is None:
        return _not_a_thing(question.about), {}, []
    label, said, place = thing
    if singular(said) in ROLES and question.kind in ("present", "count") and question.value not in ("gone", "still"):
        return _role(pixels, question, singular(said))
    # "where are the chickens?": each of them, looked for as closely as a count does
    each = question.kind == "where" and not place and (
        question.value == "each" or singular(question.about.split()[-1]) != question.about.split()[-1])
    # ("is anyone left?" after "remove the people" looks as closely as the removal did; "which one is the
    # tallest?" after "I count 3 meerkats" compared 2)
    found = _found(pixels, label, place, every=question.kind in ("count", "size") or each or question.value in ("gone", "still"))
    removed_one = bool(removed) and not re.search(r"\b(?:all|every|each|both|everyone|everybody|two|three|four)\b",
                                                        removed[1]) and singular(removed[1].split()[-1]) == removed[1].split()[-1]
    if removed_one and question.value in ("gone", "still") and (_thing(removed[1]) or ("", ""))[:2] == (label, said):
        # (one thing removed; "is anyone left?" after "remove the people" looks anywhere)
        there = [d for d in found if inside_share(d.box, removed[0]) >= 0.5]
        if not there:  # what was removed is not there; others of its kind may be (the joey's mother: a kangaroo)
            rest = f" I still see {_a(YOUNG.get(said, said))} {where_words(found[0].box, pixels.shape)}." if found else ""
            return (f"{'Yes' if question.value == 'gone' else 'No'}: I don't see it there any more.{rest}",
                    {"overlays": [_box(found[0], YOUNG.get(said, said))]} if found else {}, [])
        found = there
    sure = [d for d in found if d.score >= SURE]
    unsure = [d for d in found if d.score < SURE]
    if not found and question.kind in ("count", "present", "where", "extent", "colour"):
        maybe = unknown_animal(pixels, singular(said), unsure=UNSURE)  # "how many rhinos?": "an animal"
        if maybe is not None:
            return maybe
    if not found:
        whole = _whole_photo_is(pixels, label)
        if whole:  # describe said "a meerkat" from the whole photo, and the count said "I don't see any"
            if question.kind == "count":
                return (f"The photo as a whole looks like {_a(said)} to me, but I can't find each one in it to "
                        "count them.", {}, [])
            if question.kind in ("present", "where"):
                yes = "Yes, I think so: the" if question.kind == "present" else "The"
                return (f"{yes} photo as a whole looks like {_a(said)} to me, but I can't find where it is in "
                        "it.", {}, [])
            return f"The photo as a whole looks like {_a(said)} to me, but I can't find it to tell its colour.", {}, []
    if question.kind == "size":
        return _by_size(pixels, found, said, question.value)
    if question.kind == "extent" and found:  # "how big is the owl?": the share of the picture its box takes
        x1, y1, x2, y2 = (int(v) for v in found[0].box)
        h, w = pixels.shape[:2]
        return (f"The {said} {where_words(found[0].box, pixels.shape)} takes up about "
                f"{100 * (x2 - x1) * (y2 - y1) / (w * h):.0f}% of the picture: its box is {x2 - x1} x {y2 - y1} "
                f"pixels, {100 * (x2 - x1) / w:.0f}% of the width and {100 * (y2 - y1) / h:.0f}% of the height. "
                "How big it is in life I can't tell from a photo.", {"overlays": [_box(found[0], said)]}, [])
    if question.kind == "doing":  # "what is the dog doing?"
        return doing(pixels, found[:1] if place else found, said, question.value)  # "the dog on the left": that one
    if question.kind == "count":
        boxes = [_box(d, said) for d in found]
        if not found:
            return f"I don't see any {_plural(said, 2)}.", {}, []
        text = f"I count {len(sure)} {_plural(said, len(sure))}" if sure else f"I'm not sure there are any {_plural(said, 2)}"
        if unsure:
            text += f" (and maybe {len(unsure)} more I'm not sure of, score {unsure[0].score:.2f})"
        return text + ".", {"overlays": boxes}, []
    if question.kind == "present" and question.value in ("gone", "still") and said in YOUNG and len(found) < 2:
        found = []  # a young one is told apart as the smaller of its kind: the joey gone, its mother is no joey
    if not found:
        if question.kind == "present" and question.value in ("gone", "still") and removed == ():
            return f"I don't see {_a(said)}, and nothing has been removed from this photo.", {}, []
        if question.kind == "present" and question.value in ("gone", "still"):
            return (f"{'Yes' if question.value == 'gone' else 'No'}: I don't see {_a(said)} any more.", {}, [])
        return f"I don't see {_a(said)}.", {}, []
    if each and len(sure) > 1:  # it answered "The chicken is on the left" for three
        return _where_each(pixels, sure, said), {"overlays": [_box(d, said) for d in sure]}, []
    best = found[0]
    where = where_words(best.box, pixels.shape)
    hedge = "" if best.score >= SURE else f"I think there is {_a(said)} {where}, but I'm not sure (score {best.score:.2f}). "
    if place and not set(place.removeprefix("far ").replace("centre", "middle").replace("center", "middle").split()) <= set(where.split()):
        # "is the camel on the left brown?" with one camel, on the right: about that one, said so
        hedge = f"I don't see {_a(said)} {where_words_for(place.removeprefix('far '))}; I see one {where}. " + hedge
    overlays = {"overlays": [_box(best, said)]}
    from agent.perception.models import COCO_LABELS
    from agent.perception.naming import COCO_KINDS, called_otherwise
    from agent.perception.wordnet import some_is_a

    if COCO_KINDS.get(label) == "animal" and label in COCO_LABELS.values():
        other = called_otherwise(pixels, best.box, label, min_score=UNSURE)  # "is it a cow?" of a moose: "Yes, there is a cow"
        if other is not None and some_is_a(other, said):  # "is there a bird?" of a heron: it is one
            if question.kind == "present":
                return f"Yes, there is {_a(said)} {where}: {_a(other)}, I think.", overlays, []
            other = None
        if other is not None:
            seen = f"I see {_a(other)} {where} that my detector takes for {_a(said)}, but "
            if question.kind == "present":
                return seen + ("I can't confirm it is one." if other in KIND_ONLY else
                               f"it looks more like {_a(other)} to me."), overlays, []
            doubt = f"I'm not sure it is {_a(said)}: " + (f"I can't tell which {other} it is. " if other in KIND_ONLY
                                                          else f"to me it looks like {_a(other)}. ")
            if question.kind == "where":
                return doubt + (hedge.strip() or f"It is {where} (the box on the picture)."), overlays, []
            hedge = doubt + hedge
    if question.kind == "present" and question.value in ("gone", "still"):  # "is the joey gone?" after its removal
        where_said = hedge.strip() or f"I still see {_a(said)} {where} (the box on the picture)."
        where_said = where_said if where_said.startswith("I ") else where_said[0].lower() + where_said[1:]
        return ("No: " if question.value == "gone" else "Yes: ") + where_said, overlays, []
    if question.kind == "present":
        if hedge:
            return hedge.strip(), overlays, []
        if said in YOUNG and YOUNG[said] != "person":
            # gcompris' German shepherd: "is it a puppy?" said "Yes, there is a puppy", and on the kangaroo
            # "is there a joey?" boxed the mother: a young one is one clearly smaller than another of its
            # kind (as the edits take it); one alone is not told young or grown
            from agent.perception.things import YOUNG_SHARE

            area = [(d.box[2] - d.box[0]) * (d.box[3] - d.box[1]) for d in found]
            small = [d for d, a in zip(found, area) if a <= YOUNG_SHARE * max(area)]
            if len(small) == 1:
                young = small[0]
                return (f"Yes, I think the smaller {YOUNG[said]} {where_words(young.box, pixels.shape)} is "
                        f"{_a(said)} (the box on the picture).", {"overlays": [_box(young, said)]}, [])
            return (f"I see {_a(YOUNG[said]) if len(found) == 1 else f'{len(found)} {plural(YOUNG[said])}'} "
                    f"{where if len(found) == 1 else 'here'}, but I can't tell whether {'it is' if len(found) == 1 else 'one is'} "
                    f"{_a(said)}: my models find what kind of animal it is, not how old.", overlays, [])
        doubt = kind_unconfirmed(pixels, best, label, said, where)
        if doubt is not None:  # ("is it an eagle?" of a bird the classifier does not name)
            return doubt[0], {"overlays": [_box(best, doubt[1])]}, []
        more = f" ({len(sure)} of them)" if len(sure) > 1 else ""
        return f"Yes, there is {_a(said)} {where}{more}.", overlays, []
    if question.kind == "where":
        text = hedge.strip() if hedge else f"The {said} is {where} (the box on the picture)."
        if question.value == "facing":  # "is the horse facing left?": a rotation was proposed
            text += (" Which way it faces I can't tell: my models find where things are, not which way they turn. "
                     "To mirror the picture, say “flip it”.")
        return text, overlays, []
    if question.kind == "holding":
        if label != "person":
            return f"I can only tell what people are holding, and the {said} is not a person to me.", overlays, []
        from agent.describe.held import held_answer
        from agent.perception.things import detect

        text, things = held_answer(pixels, detect(pixels, min_score=UNSURE), best.box, f"the {said} {where}")
        overlays["overlays"] += [{**_box(best, w), "box": [int(v) for v in b]} for w, b in things]
        return hedge + text, overlays, []
    from agent.perception.naming import BLACK_AND_WHITE, object_colour

    if not place and not hedge and len(sure) > 1:  # "what colour is the chicken?" of four: each one's
        return _colours_of_each(pixels, sure, label, said, question)
    # a coat whose pattern is what people see is its two colours ("the panda is black", from whichever
    # of its patches is larger)
    colour = "black and white" if said in BLACK_AND_WHITE or label in BLACK_AND_WHITE else \
        object_colour(pixels, best.box, label)
    if colour is None:
        return f"{hedge}I can't tell the colour of the {said}: too little of it shows.", overlays, []
    colour = {"skyblue": "light blue", "grey": "grey"}.get(colour, colour)
    if question.kind == "colour_is":
        verb = "is wearing" if label == "person" else "is"
        if " and " in colour and any(same_colour(question.value, c) for c in colour.split(" and ")):
            return f"{hedge}Partly: the {said} {where} {verb} {colour}.", overlays, []  # "is the panda white?"
        if same_colour(question.value, colour):
            return f"{hedge}Yes, the {said} {where} {verb} {colour}.", overlays, []
        return f"{hedge}No, the {said} {where} {verb} {colour}, I would say.", overlays, []
    if label == "person":
        return f"{hedge}The {said} {where} is wearing {colour}.", overlays, []
    return f"{hedge}The {said} {where} is {colour}.", overlays, []


EACH_AT_MOST = 6  # "what colour is the person?" in a crowd: the surest six, said as such


def _colours_of_each(pixels: np.ndarray, found: list, label: str, said: str,
                     question: Question) -> tuple[str, dict, list[Command]]:
    """"what colour is the chicken?" (or "is the chicken brown?") where several are seen and none is
    said: each one's colour, from left to right, every one boxed. It was the surest one's alone, a
    different one than a removal took ("the chicken on the left is brown"; "removed the chicken on
    the right")."""
    from agent.perception.colour_terms import photo_light
    from agent.perception.models import to_rgb8
    from agent.perception.naming import BLACK_AND_WHITE, object_colour

    shown = sorted(found[:EACH_AT_MOST], key=lambda d: d.box[0] + d.box[2])
    pattern = said in BLACK_AND_WHITE or label in BLACK_AND_WHITE
    light = None if pattern else photo_light(to_rgb8(pixels))  # (the photo's, once for all of them)
    colours = [{"skyblue": "light blue"}.get(c, c) if c else None for c in
               ("black and white" if pattern else object_colour(pixels, d.box, label, light=light) for d in shown)]
    overlays = {"overlays": [_box(d, said) for d in shown]}
    n, many = len(shown), plural(said)
    known = [c for c in colours if c]
    if not known:
        return f"I can't tell the colours of the {many}: too little of each shows.", overlays, []
    group = ("both " if n == 2 else f"all {n} ") + many if n == len(found) else \
        f"the {n} {many} I'm surest of (of {len(found)})"
    wear = "wearing " if label == "person" else ""
    order = f"from left to right, the {many} are {wear}{listed([c or 'hard to tell' for c in colours])}"
    if n < len(found):
        order += f" (the {n} I'm surest of, of {len(found)})"
    same = colours[0] if len(set(colours)) == 1 else None
    if question.kind == "colour_is":
        yes = [c for c in known if any(same_colour(question.value, part) for part in (c, *c.split(" and ")))]
        if len(yes) == n:
            return f"Yes, {group} are {wear}{question.value}.", overlays, []
        if not yes:
            return (f"No, {group} are {wear}{same}, I would say." if same else f"No: {order}, I would say."), overlays, []
        return f"{len(yes)} of the {n} are: {order}.", overlays, []
    if same:
        return f"{group[:1].upper()}{group[1:]} are {wear}{same}.", overlays, []
    return f"{order[:1].upper()}{order[1:]}.", overlays, []


SKY_SHOWN = 0.02  # a sky mask under this share of the picture is no sky to speak of


# Colour words a person asks with, and the basic terms Easel names colours by that answer them yes
_SAME_COLOUR = {"light blue": {"blue"}, "skyblue": {"blue"}, "navy": {"blue"}, "teal": {"blue", "green"},
                "turquoise": {"blue", "green"}, "cyan": {"blue"}, "violet": {"purple"}, "maroon": {"red", "brown"},
                "cream": {"white", "beige"}, "tan": {"beige", "brown"}, "gold": {"yellow", "orange"},
                "silver": {"grey", "white"}}


def same_colour(asked: str, seen: str) -> bool:
    """Whether the colour asked about ("is the sky blue?") is the one seen ("light blue": yes)."""
    return asked == seen or seen in _SAME_COLOUR.get(asked, ()) or asked in _SAME_COLOUR.get(seen, ()) \
        or seen.endswith(f" {asked}")  # "dark green", "yellowish green": green


def _found_overlay(box: list[int], label: str) -> dict:
    return {"overlays": [{"kind": "box", "target": "current", "box": box, "color": BOX_COLOR, "label": label}]}


# how a found part is said: the sky and the clouds by name, the greenery by what it may be
_SAID = {"sky": "the sky", "clouds": "the clouds", "greenery": "the plants (grass or trees)"}


def _green_word(pixels: np.ndarray) -> str:
    """The colour of the greenery's pixels (N x 3, 8-bit): green by how it was found (CIELAB hue from
    93 degrees, :mod:`editor.greenery`), said "yellowish green" for an olive lawn (median hue under
    105) and "dark green" for a forest in shade (median L* under 30). The basic colour terms put an
    olive lawn's pixels at "yellow", and "is the grass green?" was answered "No"."""
    from agent.perception.colour_terms import to_lab
    from editor.greenery import GREEN_OLIVE

    lab = to_lab(pixels)
    hue = float(np.median(np.degrees(np.arctan2(lab[:, 2], lab[:, 1])) % 360))
    if float(np.median(lab[:, 0])) < 30:
        return "dark green"
    return "yellowish green" if hue < GREEN_OLIVE[0] else "green"


def _faces_answer(pixels: np.ndarray, kind: str) -> tuple[str, dict, list[Command]]:
    """"how many faces are there?", "is there a face?", "where are the faces?": the face detector's
    faces, counted and placed, their boxes drawn ("how many faces?" was "I can only look for ...")."""
    from agent.perception.faces import find_faces

    faces = sorted(find_faces(pixels), key=lambda f: f.box[0])
    if not faces:
        return "I don't see a face in this picture.", {}, []
    overlays = {"overlays": [_box(f, "face") for f in faces]}
    places = [where_words(f.box, pixels.shape) for f in faces]
    placed = ", ".join(dict.fromkeys(places))
    n = len(faces)
    if kind == "count":
        return f"I count {n} {_plural('face', n)} ({placed}); the boxes are on the picture.", overlays, []
    if kind in ("present", "where"):
        lead = "Yes, I see" if kind == "present" else "I see"
        return f"{lead} {n if n > 1 else 'one'} {_plural('face', n)}, {placed}; the boxes are on the picture.", overlays, []
    return (f"I see {n if n > 1 else 'one'} {_plural('face', n)} ({placed}), but I can't tell that about a face.",
            overlays, [])


def _where_each(pixels: np.ndarray, found: list, said: str) -> str:
    """Where each of several things is, by place from left to right, counted where several share one:
    "I see 3 chickens: on the left, in the middle and on the right (the boxes are on the picture)."."""
    places: dict[str, int] = {}
    for d in sorted(found, key=lambda d: d.box[0] + d.box[2]):
        where = where_words(d.box, pixels.shape)
        places[where] = places.get(where, 0) + 1
    counted = any(n > 1 for n in places.values())  # "5 on the left, 1 at the bottom and 2 on the right"
    parts = [f"{n} {where}" if counted else where for where, n in places.items()]
    return f"I see {len(found)} {_plural(said, len(found))}: {listed(parts)} (the boxes are on the picture)."


def _found_answer(pixels: np.ndarray, name: str, kind: str, asked: str = "") -> tuple[str, dict, list[Command]]:
    """A part found by name (the sky, the clouds, the greenery), from the mask the edits use: whether
    and where it shows, with its box and share of the picture, and its colour (the basic colour term
    of its pixels after the photo's white balance, as a region is named). "is there any grass?" and
    "where are the trees?" were "I can only look for people, animals, vehicles..."."""
    from agent.perception.colour_terms import colour_term, white_balance_gains

    rgb, mask, box = found_region(pixels, name)
    share = float(mask.mean())
    said = _SAID[name]
    if share < SKY_SHOWN:
        return f"I don't see any {'plants (grass or trees)' if name == 'greenery' else name} in this picture.", {}, []
    overlays = _found_overlay(box, name)
    if name == "sky":  # a sky is at the top (the mask holds to the top edge): how far down it comes says where
        rows = np.nonzero(mask.mean(axis=1) >= 0.3)[0]
        down = (rows.max() + 1) / mask.shape[0] if len(rows) else box[3] / mask.shape[0]
        shown = f"at the top, down to {100 * down:.0f}% of the picture's height ({100 * share:.0f}% of its area)"
    else:
        shown = f"{where_words(box, pixels.shape)} ({100 * share:.0f}% of the picture)"
    are, it = ("is", "It is") if name == "sky" else ("are", "They are")
    if kind in ("colour", "colour_is"):
        word = _green_word(rgb[mask]) if name == "greenery" else colour_term(rgb[mask], white_balance_gains(rgb))
        if kind == "colour_is":
            yes = "Yes" if same_colour(asked, word) else "No"
            return f"{yes}, {said} {are} {word}{', I would say' if yes == 'No' else ''}. {it} {shown}.", overlays, []
        return f"{said[0].upper()}{said[1:]} {are} {word}. {it} {shown}.", overlays, []
    if kind == "where":
        return f"{said[0].upper()}{said[1:]} {are} {shown}; the box is on the picture.", overlays, []
    return f"Yes, {said} {'show' if name != 'sky' else 'shows'} {shown}.", overlays, []


def _part(pixels: np.ndarray, about: str) -> tuple[np.ndarray | None, str, dict]:
    """The pixels of the part a question names ("the sky" by its mask, a thing by its box), the
    words to say it with, and its box to draw; None when it is not found (the words say why)."""
    from agent.perception.models import to_rgb8

    rgb = to_rgb8(pixels)
    found = found_part(about)
    if found is not None:
        small, mask, box = found_region(rgb, found)
        if mask.mean() < SKY_SHOWN:
            return None, _found_answer(rgb, found, "exists")[0], {}
        return small[mask], _SAID[found], _found_overlay(box, found)
    thing = _thing(about)
    if thing is None:
        return None, _not_a_thing(about), {}
    label, said, place = thing
    found = _found(pixels, label, place)
    if not found:
        return None, f"I don't see {_a(said)}.", {}
    x1, y1, x2, y2 = (int(v) for v in found[0].box)
    return (rgb[y1:y2, x1:x2].reshape(-1, 3), f"the {said} {where_words(found[0].box, rgb.shape)}",
            {"overlays": [_box(found[0], said)]})


def _part_measured(pixels: np.ndarray, about: str, quality: str) -> tuple[str, dict, list[Command]]:
    """How bright, warm or colourful a part is, against the whole picture: "how bright is the sky?"
    (it was read as "brighten the sky"); sharpness of a thing against the rest (measured.thing_focus)."""
    import cv2

    from agent.perception.colour_terms import fit_side
    from agent.perception.models import to_rgb8

    part, said, data = _part(pixels, about)
    if quality in ("sharp", "blurry"):
        if part is not None and found_part(about) is None:  # a thing: its own detail against the rest's
            return thing_focus(pixels, data["overlays"][0]["box"], said), data, []
        text, data, plan = measured(pixels, quality)
        return f"I measure sharpness over the whole picture and over things only. {text}", data, plan
    if part is None:
        return said, data, []
    whole = fit_side(to_rgb8(pixels), SKY_SIDE).reshape(-1, 3)
    if quality in ("dark", "bright", "light"):
        luma = lambda px: float((px.astype(np.float32) @ np.array([0.299, 0.587, 0.114], np.float32)).mean() / 255)  # noqa: E731
        a, b = luma(part), luma(whole)
        how = "brighter than" if a > b + 0.05 else "darker than" if a < b - 0.05 else "about as bright as"
        return (f"The mean brightness of {said} is {100 * a:.0f}%, against {100 * b:.0f}% for the whole picture: "
                f"{how} the rest (its box is on the picture).", data, [])
    lab = lambda px: cv2.cvtColor(px.reshape(-1, 1, 3), cv2.COLOR_RGB2LAB).reshape(-1, 3).astype(np.float32) - (0, 128, 128)  # noqa: E731
    pa, pb = lab(part), lab(whole)
    if quality in ("warm", "cold", "cool"):
        a, b = float(pa[:, 2].mean()), float(pb[:, 2].mean())
        how = "warmer than" if a > b + 3 else "cooler than" if a < b - 3 else "about as warm as"
        return (f"{said[:1].upper() + said[1:]} measures b* {a:+.1f} (+ yellow, - blue), against {b:+.1f} for the "
                f"whole picture: {how} the rest (its box is on the picture).", data, [])
    a, b = float(np.hypot(pa[:, 1], pa[:, 2]).mean()), float(np.hypot(pb[:, 1], pb[:, 2]).mean())
    how = "more colourful than" if a > b + 3 else "less colourful than" if a < b - 3 else "about as colourful as"
    return (f"The colours of {said} measure a chroma of {a:.0f}, against {b:.0f} for the whole picture: {how} the "
            f"rest (its box is on the picture).", data, [])


def _what_at(pixels: np.ndarray, place: str, *, who: bool = False) -> tuple[str, dict, list[Command]]:
    """What is in one part of the picture ("on the left", "at the top right"): the things found
    whose centre lies there, named as describe names them, with their boxes; with none, the part
    itself as describe names a region ("the sky", "a green area"). ``who``: the people there ("who is
    on the left?"), said first; one thing said is the topic "she", "it" then mean (``data["topic"]``)."""
    from agent.describe.words import describe_region
    from agent.perception.models import to_rgb8
    from agent.perception.naming import name_objects
    from agent.perception.things import detect

    rgb = to_rgb8(pixels)
    h, w = rgb.shape[:2]
    words = place.split()
    xs = {"left": (0.0, 0.4), "right": (0.6, 1.0)}.get(words[-1], (0.0, 1.0) if words[0] in ("top", "bottom") else (0.3, 0.7))
    ys = {"top": (0.0, 0.4), "bottom": (0.6, 1.0)}.get(words[0], (0.0, 1.0) if words[-1] in ("left", "right") else (0.3, 0.7))
    every = detect(rgb, min_score=SURE)
    dets = [d for d in every
            if xs[0] <= (d.box[0] + d.box[2]) / 2 / w <= xs[1] and ys[0] <= (d.box[1] + d.box[3]) / 2 / h <= ys[1]]
    there = where_words_for(place)
    if who:
        dets = [d for d in dets if d.label == "person"]
        if not dets:
            return f"I don't see anyone {there}.", {}, []
        counts: dict[str, int] = {}
        for n in name_objects(rgb, sorted(dets, key=lambda d: d.box[0])):
            counts[n.phrase] = counts.get(n.phrase, 0) + 1
        said = [_a(p) if k == 1 else f"{k} {plural(p.split()[0])}{p[len(p.split()[0]):]}" for p, k in counts.items()]
        data = {"overlays": [_box(d, "person") for d in dets]}  # ("2 people in orange")
        if len(dets) == 1:
            data["topic"] = f"the person {there}"
        return (f"{there[0].upper()}{there[1:]} I can see {listed(said)} (the {'box is' if len(dets) == 1 else 'boxes are'} "
                "on the picture).", data, [])
    box = (int(xs[0] * w), int(ys[0] * h), max(int(xs[0] * w) + 1, int(xs[1] * w)), max(int(ys[0] * h) + 1, int(ys[1] * h)))
    # the part itself first, as describe names a region ("the sky", "a green area"); the classifier
    # is not asked: its square crop of a part takes in the things there, named again ("a camel")
    text = f"{there[0].upper()}{there[1:]} I can see {describe_region(rgb, box)[0]}"
    if not dets:
        return text + ".", {}, []
    names = name_objects(rgb, dets)
    said = list(dict.fromkeys(_a(n.phrase) for n in names))[:4]
    data = {"overlays": [_box(d, n.said or n.noun) for d, n in zip(dets, names)]}
    if len(dets) == 1 and names[0].noun != "object":  # "what is on the left?", then "make it brighter"
        data["topic"] = f"the {names[0].said or names[0].noun} {there}"
    return (f"{text}. There {'is' if len(said) == 1 else 'are'} also {listed(said)} "
            f"(the {'box is' if len(dets) == 1 else 'boxes are'} on the picture).", data, [])


def _removed(doc) -> tuple | None:
    """The box of the pixels the head's removal changed and the words it removed, when the head was
    made by a removal; () when no version the head was made from was ("is the calf gone?" after a
    removal that found no calf said "Yes: I don't see a calf any more"); else None."""
    from agent.grammar.commands import CommandError, Remove, parse_command

    if not any((v.command or "").startswith("remove ") for v in doc.lineage()):
        return ()
    parent = doc.parent()
    try:
        command = parse_command(doc.head.command or "")
    except CommandError:
        return None
    if parent is None or not isinstance(command, Remove):
        return None
    before, after = doc.pixels(parent.id), doc.pixels()
    if before.shape != after.shape:
        return None
    ys, xs = np.nonzero(np.abs(before.astype(np.int32) - after).max(axis=2) > 8)
    return ((int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1), command.words) if len(xs) else None


def register(manager) -> None:
    """Answer ``describe`` requests that carry a question; plain ones go to the caption handler
    registered before (:mod:`agent.describe.caption`)."""
    caption = manager.handlers.get("describe")

    def handle(manager, command) -> TurnResult:
        question = read_question(getattr(command, "question", "") or "")
        if question is None:
            if caption is None:
                return TurnResult(command.format(), "I can't describe pictures here.", command, ok=False)
            return caption(manager, command)
        if manager.document is None:
            return TurnResult(manager.typed() or command.format(), "Open a photo first, then ask me about it.",
                              command, ok=False)
        # (what a removal changed is read only for "is it gone?": a full-resolution difference otherwise unused)
        removed = _removed(manager.document) if question.value in ("gone", "still") else None
        text, data, proposal = answer_question(manager.document.pixels(), question, removed)
        if proposal:
            manager.context.proposal = proposal  # "yes" runs it, "only the first one" part of it
        if question.kind == "size" and len(data.get("overlays", [])) == 1:
            manager.context.topic = f"the {question.value} {question.about}"  # "make it brighter": the biggest horse
        elif question.kind in ("else", "what_at", "what_in", "which_kind") and data.get("topic"):  # what the description led with
            manager.context.topic = data.pop("topic")
        elif question.kind in ("colour", "colour_is", "where", "present", "count", "doing", "extent",
                               "which_kind") and data.get("overlays"):
            about = question.about.split()  # (one found of "the giraffes" after a crop: "it" is that one)
            if len(data["overlays"]) == 1 and question.kind != "count" and about:
                about[-1] = singular(about[-1])
            manager.context.topic = f"the {' '.join(about)}"  # "make it brighter" next: that thing
            # "how many giraffes?", then "make the left one brighter", "now the other one"
            manager.context.topic_count = len(data["overlays"]) if question.kind == "count" or (
                question.kind in ("where", "doing") and len(data["overlays"]) > 1) else None  # ("where are they?": each)
        return TurnResult(manager.typed() or command.format(), text, command, data=data)

    manager.handlers["describe"] = handle
