"""Answers past the description: "is there anything else?" and "what is the dog doing?".

"anything else?" after "what is in this picture?" was read as "what changed?" ("I have nothing to
compare with") or refused. It is answered with what the description left out: the things found
that it did not name (the surest first; unsure ones said so, with the detector's score), and the
sky and the greenery where they show, each boxed, after the things the description led with. Where
there is nothing more, it says what Easel can name, so "no" is not read as "nothing is there".

"what is the dog doing?" was refused with the capabilities: no model here tells actions, so the
answer says so and where the dog is, boxed, rather than guessing from its pose.
"""

from __future__ import annotations

import collections
import re

import numpy as np

from agent.describe.placing import found_region, where_words
from agent.grammar.commands import Command
from agent.perception.vocabulary import plural

REGION_SHOWN = {"sky": 0.02, "greenery": 0.05}  # shares of the picture under which a region is not said
REGION_WORDS = {"sky": "the sky", "greenery": "greenery (grass, trees or plants)"}
MAX_MORE = 5  # things said past the description, surest first
COLOR = "#66ccff"


def _box(box, label: str) -> dict:
    return {"kind": "box", "target": "current", "box": [int(v) for v in box], "color": COLOR, "label": label}


def _within(a, b) -> bool:
    """Whether box ``a`` is box ``b`` or mostly inside it (one of "many more bison" in the background)."""
    from agent.perception.models import box_iou

    ix = max(0, min(a[2], b[2]) - max(a[0], b[0])) * max(0, min(a[3], b[3]) - max(a[1], b[1]))
    return box_iou(a, b) > 0.5 or ix >= 0.8 * max(1, (a[2] - a[0]) * (a[3] - a[1]))


def _word(segment, named: list) -> tuple[str, int]:
    """The description's word for a segment ("chicken", where the detector's label is "bird"; "bison"
    for "many more bison") and how many things it stands for."""
    inside = [n for d, n in named if _within(d.box, segment.box)]
    text = segment.words.lower()
    word = next((w for n in inside for w in (n.said, n.noun) if w and re.search(rf"\b{re.escape(w)}", text)),
                segment.label)
    return word, max(1, len(inside))


def _led_with(words: list[tuple[str, int]]) -> str:
    """"the 2 jaguars", "the giraffe and the person": what the description named."""
    counts: collections.Counter = collections.Counter()
    for w, n in words:
        counts[w] += n
    said = [f"the {n} {plural(w)}" if n > 1 else f"the {w}" for w, n in counts.items()]
    return said[0] if len(said) == 1 else ", ".join(said[:-1]) + f" and {said[-1]}"


def anything_else(pixels: np.ndarray, *, unsure: float, sure: float) -> tuple[str, dict, list[Command]]:
    """What the description of ``pixels`` did not say: things (from the detector's score ``unsure``;
    under ``sure`` said as not sure) and the sky and the greenery, with their boxes."""
    from agent.describe.caption import describe_image, first_thing
    from agent.perception.naming import name_objects
    from agent.perception.things import detect

    caption = describe_image(pixels)
    said = [s for s in caption.segments if s.kind == "object"]
    dets = detect(pixels, min_score=unsure)
    named = list(zip(dets, name_objects(pixels, dets)))
    more = [(d, n) for d, n in named if not any(_within(d.box, s.box) for s in said)]
    words = [_word(s, named) for s in said]
    parts, overlays = [], []
    for d, n in sorted(more, key=lambda dn: -dn[0].score)[:MAX_MORE]:
        word = n.phrase or n.said or n.noun
        doubt = f" (I'm not sure of it: score {d.score:.2f})" if d.score < sure else ""
        parts.append(f"{'an' if word[:1] in 'aeiou' else 'a'} {word} {where_words(d.box, pixels.shape)}{doubt}")
        overlays.append(_box(d.box, f"{n.said or n.noun}?" if doubt else n.said or n.noun))
    for name, least in REGION_SHOWN.items():
        if any(s.label == name for s in caption.segments):
            continue  # the description said it already ("the sky at the top")
        _, mask, box = found_region(pixels, name)
        if mask.mean() >= least:
            h, w = pixels.shape[:2]
            wide = box[2] - box[0] >= 0.8 * w and box[3] - box[1] >= 0.8 * h  # (its box is the picture's)
            around = "around it" if sum(n for _, n in words) == 1 else "around them"  # (the dog: "around it")
            parts.append(f"{REGION_WORDS[name]} {around if wide and said else where_words(box, pixels.shape)}")
            if not wide:  # (a box around the whole picture points at nothing)
                overlays.append(_box(box, name))
    lead = f"Besides {_led_with(words)}, " if said else ""
    data = {"overlays": overlays, "topic": first_thing(caption.segments, pixels.shape)}
    if not parts:
        return (f"{lead or 'Besides what I described, '}I find nothing else I can name. I know people, animals, "
                "vehicles and everyday objects, the sky and greenery; draw around anything else with the trace "
                "tool (T) and ask “what is this?”.", data, [])
    listed = parts[0] if len(parts) == 1 else "; ".join(parts[:-1]) + f"; and {parts[-1]}"
    return f"{lead}I can see {listed}.", data, []


def doing(pixels: np.ndarray, found: list, said: str, asked: str = "") -> tuple[str, dict, list[Command]]:
    """"what is the dog doing?" (``asked`` "": what; "sleeping": "is the cat sleeping?"): Easel cannot
    tell, said so, and where the dog is, boxed (each one of several)."""
    cannot = "my models find what things are and where they are, not what they do"
    if not found:
        return f"I don't see {'an' if said[:1] in 'aeiou' else 'a'} {said}; and what things do, I can't tell: {cannot}.", {}, []
    overlays = {"overlays": [_box(d.box, said) for d in found]}
    one = len(found) == 1
    what = (f"whether the {said if one else plural(said)} {'is' if one else 'are'} {asked}" if asked else
            f"what the {said} is doing" if one else f"what the {plural(said)} are doing")
    if one:
        return (f"I can't tell {what}: {cannot}. It is {where_words(found[0].box, pixels.shape)} "
                "(its box is on the picture).", overlays, [])
    return (f"I can't tell {what}: {cannot}. I see {len(found)} of them (their boxes are on the picture).", overlays, [])


def unknown_animal(pixels: np.ndarray, said: str, *, unsure: float) -> tuple[str, dict, list[Command]] | None:
    """"how many rhinos?" where describe says "a brown animal" (the classifier knows no rhinoceros): an
    animal whose kind Easel cannot tell may be the one asked about, said so with its box, where the
    answer was "I don't see any rhinos" and "remove the rhino" removed it (the edits take an animal of
    unknown kind for any animal named). None when no such animal is found, or ``said`` is no animal."""
    from agent.perception.naming import name_objects
    from agent.perception.things import animal_noun, detect
    from agent.perception.vocabulary import KIND_ONLY, animal_words, with_article

    if said not in animal_words() and animal_noun(said) is None:
        return None
    dets = detect(pixels, min_score=unsure)
    # an animal of no kind, or one only the detector calls by a kind ("a bird": gcompris' flying fox,
    # which the classifier does not confirm; "is it a fox?" was "I don't see a fox")
    unknown = [(d, n.said or n.noun) for d, n in zip(dets, name_objects(pixels, dets))
               if (n.said or n.noun) == "animal" or (n.source == "detector" and (n.said or n.noun) in KIND_ONLY)]
    if not unknown:
        return None
    (d, kind), where = unknown[0], where_words(unknown[0][0].box, pixels.shape)
    seen = f"I see an animal {where}" if kind == "animal" else \
        f"I see what my detector calls {with_article(kind)} {where}, which my classifier does not confirm,"
    return (f"{seen} that may be {with_article(said)}, but I can't tell which kind it is (its box is on the picture).",
            {"overlays": [_box(d.box, f"{kind}?")]}, [])


def kind_unconfirmed(pixels: np.ndarray, best, label: str, said: str, where: str) -> tuple[str, str] | None:
    """"is it an eagle?" of what the detector calls a bird: "Yes, there is an eagle" where the classifier
    does not name it so (gcompris' flying fox). A kind of the detector's animal class asked about is
    confirmed only by the naming; else what it says and the word for its box (None when it confirms, or the
    words name the class)."""
    from agent.perception.models import COCO_LABELS
    from agent.perception.naming import COCO_KINDS, name_objects
    from agent.perception.things import YOUNG, animal_noun
    from agent.perception.vocabulary import KIND_ONLY, animal_words
    from agent.perception.vocabulary import with_article as _a
    from agent.perception.wordnet import some_is_a

    if said == label or said in YOUNG or label not in COCO_LABELS.values() or COCO_KINDS.get(label) != "animal" \
            or (said not in animal_words() and animal_noun(said) is None) or not some_is_a(said, label):
        return None
    named = name_objects(pixels, [best])[0]
    word = named.said or named.noun
    if word == said or some_is_a(word, said):
        return None
    if word in (label, "animal") or word in KIND_ONLY:
        return f"I see {_a(label)} {where}, but I can't tell whether it is {_a(said)}: my classifier does not name its kind.", label
    return f"I see {_a(label)} {where}, but it looks like {_a(word)} to me, not {_a(said)}.", word
