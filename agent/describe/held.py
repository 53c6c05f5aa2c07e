"""What someone is holding: "what is the man on the left holding?", "what is she playing?".

Two kinds of evidence, said as what they are:

- a thing the detector finds that a person carries (a phone, a cup, an umbrella, a racket; not a
  chair or a car), small beside the person and mostly inside their box;
- a musical instrument the ImageNet classifier sees on the person's crop (the classes WordNet puts
  under "musical instrument"), when those classes together hold :data:`INSTRUMENT_SURE` of it. Its
  best class alone is often wrong between neighbours (a trumpeter's crop: trombone 0.46, cornet
  0.43; a guitarist's: violin 0.39), so the answer names the instrument's family (WordNet's brass,
  strings, woodwind, ...) and the best guesses in it as guesses ("a brass instrument: a trombone or a
  trumpet, I think", "a string instrument, perhaps a violin").

Nothing else is guessed: "I can't tell what ... is holding" names what it can see.
"""

from __future__ import annotations

import numpy as np

# COCO things people hold or carry
HOLDABLE = {"cell phone", "cup", "bottle", "wine glass", "book", "umbrella", "handbag", "tennis racket",
            "baseball bat", "baseball glove", "frisbee", "kite", "skateboard", "surfboard", "skis", "snowboard",
            "sports ball", "remote", "knife", "fork", "spoon", "banana", "apple", "sandwich", "orange", "donut",
            "pizza", "hot dog", "cake", "scissors", "teddy bear", "hair drier", "toothbrush", "laptop", "mouse",
            "keyboard", "vase", "suitcase", "tie"}
_SAID = {"cell phone": "phone", "sports ball": "ball", "hair drier": "hair dryer", "remote": "remote control"}
INSIDE = 0.6  # a held thing's box lies at least this share inside the person's ...
SMALLER = 0.5  # ... and is at most this share of its area
INSTRUMENT_SURE = 0.5  # the instrument classes' summed probability on the person's crop
OTHER_GUESS = 0.2  # a second instrument of the same family with this share of that sum is named beside the first
# WordNet's families of instruments, narrowest first, and how they are said
FAMILIES = (("brass", "brass instrument"), ("bowed_stringed_instrument", "string instrument"),
            ("woodwind", "woodwind instrument"), ("keyboard_instrument", "keyboard instrument"),
            ("stringed_instrument", "string instrument"), ("percussion_instrument", "percussion instrument"))
_INSTRUMENT_SAID = {"cornet": "trumpet", "upright": "piano", "grand piano": "piano", "sax": "saxophone",
                    "chime": "bell"}


def _area(b) -> int:
    return max(1, (b[2] - b[0]) * (b[3] - b[1]))


def carried_thing(dets, person_box) -> tuple[str, tuple[int, int, int, int]] | None:
    """The surest detection of a thing people carry inside ``person_box``: ``(word, box)``."""
    from agent.perception.things import inside_share

    held = [d for d in dets if d.label in HOLDABLE and inside_share(d.box, person_box) >= INSIDE
            and _area(d.box) <= SMALLER * _area(person_box)]
    if not held:
        return None
    d = max(held, key=lambda d: d.score)
    return _SAID.get(d.label, d.label), tuple(int(v) for v in d.box)


def instrument(rgb: np.ndarray, person_box) -> str | None:
    """The instrument the classifier sees on the person's crop, as words ("a trumpet", "a brass
    instrument: a trombone or a trumpet, I think"), or None when the instruments are not sure."""
    from agent.perception import wordnet
    from agent.perception.classify import classify_crops
    from agent.perception.models import classifier_and_labels
    from agent.perception.vocabulary import everyday_words, with_article

    if not wordnet.available():
        return None
    _, labels = classifier_and_labels()
    probs = classify_crops(rgb, [tuple(int(v) for v in person_box)], square=True)[0]
    kinds = [i for i in np.argsort(-probs)[:50] if wordnet.class_is_a(labels, int(i), "musical_instrument")]
    total = float(sum(probs[i] for i in kinds))
    if total < INSTRUMENT_SURE:
        return None
    words = everyday_words(labels)

    def said(i) -> str:
        w = words[int(i)] or labels[int(i)].split(",")[0]
        return _INSTRUMENT_SAID.get(w, w)

    def family(i) -> str:
        return next((name for syn, name in FAMILIES if wordnet.class_is_a(labels, int(i), syn)), "musical instrument")

    first = kinds[0]
    second = next((i for i in kinds[1:] if probs[i] >= OTHER_GUESS * total and family(i) == family(first)), None)
    if second is None:  # the family, and its best guess as a guess: a guitarist's crop is a "violin" to it
        return f"{with_article(family(first))}, perhaps {with_article(said(first))}"
    return f"{with_article(family(first))}: {with_article(said(first))} or {with_article(said(second))}, I think"


def held_answer(rgb: np.ndarray, dets, person_box, who: str) -> tuple[str, list]:
    """The sentence for "what is <who> holding?" and the boxes to draw (label, box)."""
    thing = carried_thing(dets, person_box)
    if thing is not None:
        from agent.perception.vocabulary import with_article

        return f"{who[0].upper()}{who[1:]} seems to be holding {with_article(thing[0])} (its box is on the picture).", [thing]
    played = instrument(rgb, person_box)
    if played is not None:
        return f"{who[0].upper()}{who[1:]} seems to be holding {played}.", []
    return (f"I can't tell what {who} is holding: I see nothing in their hands that I know (I know the 80 kinds of "
            "things my detector finds, and musical instruments).", [])
