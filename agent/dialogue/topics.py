"""What "it", "the left one" and "the other one" mean in a request: the thing talked about last
(a question's, a caption's lead, or the thing the last edit was made in), read into the request's
words before the request rules read them (:class:`agent.dialogue.manager.DialogueManager`)."""

from __future__ import annotations

import re

from agent.language.followup_words import OPPOSITE, side_phrase, without_place
from agent.language.questions import WORN
from agent.perception.things import YOUNG, one_of
from agent.perception.vocabulary import KIND_ONLY, KIND_WORDS, plural, singular

# "it", "them", "him", and "her" where it is not "her dress" ("make her brighter", "where is she?")
IT = re.compile(r"\b(?:it|them|they|him|he|she)\b|\bher\b(?=\s*$|\s+(?:\w+er|more|less|a bit|a little|look|stand|pop)\b)")
_AGREEING = re.compile(r"\b(?:do|go for|apply|undo|redo|keep|leave) it\b")


# "the left one", "the one on the right", "the top left one": one of the things talked about, by its place
_SIDE = r"(?:(?:far |top |bottom |upper |lower )?(?:left|right)|top|bottom|middle|centre|center)"
# "the bigger one", "the taller one" ("make the taller one brighter" after two giraffes brightened everything)
SIZE_WORD = r"(?:big|large|small|little|tiny|tall|short)(?:g?er|g?est)?"
# "the white one", "the brown ones" (after "how many chickens?" both were the whole picture)
_COLOUR = r"(?:white|black|brown|gr[ae]y|red|orange|yellow|green|blue|purple|pink|beige|golden|dark|light)"
ONE = re.compile(rf"\bthe (?:one (?P<place>(?:on|at|in) the (?:far )?(?:left|right|top|bottom|middle|centre|center)"
                  rf"(?: (?:left|right))?|in (?:the )?(?:front|back|background|foreground))|(?P<side>{_SIDE}) one|"
                  rf"(?P<size>{SIZE_WORD}) one|(?P<colour>{_COLOUR}) (?P<ones>ones?)|"
                  rf"(?P<ordinal>first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th) one)\b")
# "and the mother warmer" after "make the joey brighter" ("I can't find the mother on my own"): the grown
# one of the young's kind, the biggest of them (as "the joey" is the smaller)
PARENT = re.compile(r"\bthe (?:mother|mom|mum|mommy|mummy|mama|father|dad|daddy|parent|adult|grown-?up)\b")


def kind_of_young(noun: str) -> str | None:
    """The kind a young one's word names ("joey" -> "kangaroo"), None for other words (people's young
    are people, whose "mother" Easel cannot tell)."""
    kind = YOUNG.get(noun)
    return kind if kind not in (None, "person") else None


# "blur everything else", "make the rest darker": all but the thing the last edit was made in
REST = re.compile(r"\b(?:everything|all|everyone|everybody) else\b|\bthe rest(?: of (?:it|the (?:picture|photo|image)))?\b")
_OTHER_ONE = re.compile(r"\bthe other(?: one)?\b(?! (?:way|side|direction)\b)")
# "make the remaining ones warmer" after "remove the smallest one": every one of the kind still there
_REMAINING = re.compile(r"\bthe (?:remaining ones|ones (?:that are )?(?:left|remaining)|rest of them|remaining \w+s)\b")


# "no, it's a duck", "that's a duck, not a goose", "it's not a goose, it's a duck": what the person says the
# thing talked about is (gcompris' duck, which describe calls "a grey goose"; it was not understood)
_NAMED_AS = re.compile(r"(?:(?:no|nope|actually|well|hmm|um)[,!.]?\s+)*(?:it'?s|it is|that'?s|that is|this is|thats|its)\s+"
                       r"(?:actually\s+|really\s+)?(?:a|an)\s+(?P<w>[a-z]+)(?:\s*,?\s*not\s+(?:a|an)\s+[a-z]+)?[.!]?"
                       r"|(?:it'?s|that'?s|this is|it is) not (?:a|an) [a-z]+\s*[,;]?\s*(?:it'?s|that'?s|it is|but) (?:a|an) "
                       r"(?P<v>[a-z]+)[.!]?")


def named_as(utterance: str) -> str | None:
    """The noun the person names the thing talked about with ("no, it's a duck": "duck"), when it is a
    word for a thing ("it's a bit dark" names none), else None.

    >>> named_as("no, it's a duck"), named_as("it's not a goose, it's a duck"), named_as("it's a bit dark")
    ('duck', 'duck', None)
    """
    m = _NAMED_AS.fullmatch(utterance.strip().lower())
    if m is None:
        return None
    word = singular(m.group("w") or m.group("v"))
    return word if _names_a_thing(word) else None


def _names_a_thing(word: str) -> bool:
    from agent.perception.things import animal_noun, thing_words  # (loads no model)

    return word in thing_words() or animal_noun(word) is not None


def names_thing(noun: str, line: str) -> bool:
    """Whether a command line is about ``noun``: its words, or the region found by name it means ("in
    greenery" for the grass: "where is the grass?", then "make it greener" tinted the whole picture)."""
    from agent.describe.questions import found_part

    found = found_part(noun)
    return noun in line or (found is not None and re.search(rf"\bin {found}\b", line) is not None)


def topic_noun(topic: str) -> str:
    """The noun of a thing talked about, singular: "the giraffes" -> "giraffe", "the giraffe in the
    middle" -> "giraffe", "the person on the left" -> "person"."""
    return singular(without_place(topic).split()[-1])


def about_topic(utterance: str, topic: str, *, last_region: str = "", count: int | None = None) -> str | None:
    """``utterance`` with its first "it" or "them" read as ``topic`` ("make it brighter" -> "make the
    horse brighter"), or None when it has neither or only agrees or undoes ("yes do it", "undo it").

    "the left one" ("the one on the right") is the thing of the topic there: after "how many giraffes
    are there?", "make the left one brighter" -> "make the giraffe on the left brighter" (it was the
    whole picture brightened). "the other one", when the question counted two and the last edit was
    made in one of them by its side, is the one on the other side; else the follow-ups ask which.

    >>> about_topic("make the left one brighter", "the giraffes")
    'make the giraffe on the left brighter'
    >>> about_topic("now the other one", "the giraffes", last_region="the giraffe on the left", count=2)
    'now the one on the right'
    >>> about_topic("now the other one", "the giraffes", last_region="the giraffe on the left", count=3) is None
    True
    >>> about_topic("make the big one brighter", "the giraffes", count=2)
    'make the big giraffe brighter'
    >>> about_topic("which is the biggest?", "the bison", count=4), about_topic("remove the one in front", "the bison")
    ('which bison is the biggest?', 'remove the bison in front')
    >>> about_topic("remove the smallest", "the chickens", count=3), about_topic("remove the smallest dog", "the chickens")
    ('remove the smallest chicken', None)
    >>> about_topic("make the tall grass greener", "the giraffes", count=2) is None
    True
    >>> about_topic("what are they doing?", "the giraffe in the middle")
    'what are the giraffes doing?'
    >>> about_topic("what colour is his shirt?", "the man on the left")
    'what colour is the shirt of the man on the left?'
    >>> about_topic("is it too dark?", "the horse") is None
    True
    >>> about_topic("brighten the second one", "the giraffes", count=2)
    'brighten the second giraffe'
    >>> about_topic("make the white one brighter", "the chickens"), about_topic("and the brown ones warmer", "the chickens")
    ('make the white chicken brighter', 'and the brown chickens warmer')
    >>> about_topic("and the other one darker", "the jaguars", last_region="the jaguar on the right", count=2)
    'and the jaguar on the left darker'
    >>> about_topic("blur everything else", "the penguin", last_region="the penguin")
    'blur everything except the penguin'
    >>> about_topic("make its fur warmer", "the dog")
    "make the dog's fur warmer"
    >>> about_topic("and the mother warmer", "the joey")
    'and the biggest kangaroo warmer'
    >>> about_topic("make the remaining ones warmer", "the chicken")
    'make the chickens warmer'
    """
    words = utterance.strip().lower()
    noun = topic_noun(topic)
    parent = PARENT.search(words)
    if parent and kind_of_young(noun):  # "and the mother warmer" after the joey: the biggest kangaroo
        return words[:parent.start()] + f"the biggest {kind_of_young(noun)}" + words[parent.end():]
    which = re.match(r"(which )(?:one|of (?:them|these|those)|(?=(?:is|are) the \w+est\b))\b", words)
    if which:  # "which one is the biggest?": of the giraffes talked about
        return f"which {noun}" + (" " if words[which.end():which.end() + 1] not in " ?" else "") + words[which.end():]
    bare = re.search(rf"\bthe ({SIZE_WORD})(?: (\w+))?\b", words)
    if bare and not ONE.search(words) and (bare.group(2) is None or re.fullmatch(
            r"\w+er|more|less|a|and|too|please|out|up|down|as|to|from|in", bare.group(2))
            and not _names_a_thing(bare.group(2))):
        # "remove the smallest" after "how many chickens?": the smallest chicken
        words = words[:bare.end(1)] + " one" + words[bare.end(1):]
    remaining = _REMAINING.search(words)
    if remaining:  # ("I can't find the remaining on my own")
        kind = one_of(noun) if singular(topic.split()[-1]) != topic.split()[-1] else noun
        return words[:remaining.start()] + f"the {plural(kind)}" + words[remaining.end():]
    one = ONE.search(words)
    if one and one.group("size"):  # "the big one" of the giraffes counted (the objects' finder reads its size)
        if (count or 0) < 2:
            return None  # of the things described ("a wallaby, and an animal"), not of the one kind: asked
        return words[:one.start()] + f"the {one.group('size')} {noun}" + words[one.end():]
    if one and one.group("ordinal"):  # "the second one" of the giraffes counted: counted from the left
        if (count or 0) < 2:
            return None
        return words[:one.start()] + f"the {one.group('ordinal')} {noun}" + words[one.end():]
    if one and one.group("colour"):  # "the white one": the thing of the topic of that colour
        kind = one_of(noun) if singular(topic.split()[-1]) != topic.split()[-1] else noun
        return words[:one.start()] + f"the {one.group('colour')} " + (
            plural(kind) if one.group("ones") == "ones" else kind) + words[one.end():]
    if one:
        place = one.group("place") or side_phrase(one.group("side"))
        if singular(topic.split()[-1]) != topic.split()[-1]:  # one of "the kids" is the person there
            noun = one_of(noun)
        return words[:one.start()] + f"the {noun} {place}" + words[one.end():]
    other = _OTHER_ONE.search(words)
    if other:
        done = re.fullmatch(rf"the {re.escape(noun)} on the (left|right)|the {re.escape(noun)} at the (top|bottom)", last_region)
        if count != 2 or not done:
            return None
        side = OPPOSITE[done.group(1) or done.group(2)]  # (said as "the one there": a follow-up reads it)
        bare = re.fullmatch(r"(?:(?:and|now|then|ok|okay),? )*the other(?: one)?(?: too| as well| also| please)*[.!?]?", words)
        what = "the one" if bare else f"the {noun}"  # "and the other one darker": an edit of its own, there
        return words[:other.start()] + f"{what} {side_phrase(side)}" + words[other.end():]
    worn = re.search(rf"\b(?:his|her|their) ({WORN})\b", words)
    if worn:  # "what colour is his shirt?" after "where is the man on the left?"
        return words[:worn.start()] + f"the {worn.group(1)} of {topic}" + words[worn.end():]
    rest = REST.search(words)
    if rest and last_region.startswith("the "):  # "blur everything else" after "make the penguin sharper"
        return words[:rest.start()] + f"everything except {last_region}" + words[rest.end():]
    its = re.search(r"\bits ([a-z]+)\b", words)
    if its and not IT.search(words):  # "make its fur warmer" after the dog: the dog's fur (the dog)
        return words[:its.start()] + f"the {noun}'s {its.group(1)}" + words[its.end():]
    if not IT.search(words) or _AGREEING.search(words):
        return None
    if re.match(r"(?:is|isn't|was) it (?:(?:a bit|a little|still|now|way|much|not) )*too\b", words):
        return None  # "is it too dark?": the photo, as a fault it has ("is the horse too dark?" is the horse)
    if IT.search(words).group(0) in ("they", "them"):  # "what are they doing?" after the giraffes: the giraffes;
        return IT.sub(f"the {plural(noun)}", words, count=1)  # "remove all of them" after "which is the biggest?"
    return IT.sub(topic, words, count=1)


def name_said(regions: list[str], overlays: list[dict]) -> tuple[tuple[int, int, int, int], str] | None:
    """The box an edit found by the person's word for it and that word, when the models call it
    something else: "make the duck stand out more" found the bird the caption calls a goose, and
    "what changed?" then said "the goose in the middle got more contrast". The person's word is the
    thing's name from then on, as "no, it's a duck" makes it. None unless one thing was found by a
    one-word name.

    >>> name_said(["the duck"], [{"kind": "box", "box": [1, 2, 30, 40], "label": "bird"}])
    ((1, 2, 30, 40), 'duck')
    >>> [name_said([words], [{"kind": "box", "box": [1, 2, 30, 40], "label": label}])
    ...  for words, label in [("the duck on the left", "bird"), ("the animal", "dog"), ("the man", "person"),
    ...                       ("the joey", "bear")]]
    [None, None, None, None]
    """
    found = [o for o in overlays if o.get("kind") == "box" and not o.get("label", "").startswith("other ")
             and not o.get("label", "").endswith("?")]
    words = {re.fullmatch(r"the ([a-z]+)", r.strip().lower()) for r in regions if r}
    if len(found) != 1 or len(words) != 1 or None in words:
        return None
    word = next(iter(words)).group(1)
    if word == found[0].get("label") or found[0].get("label") == "person" or singular(word) != word \
            or word in KIND_ONLY or word in KIND_WORDS or word in YOUNG or not _names_a_thing(word):
        # (not "the animal", nor "the man": a kind says less than the models' name; nor "the joey", which
        # says which of its kind it is: named so, it was no kangaroo to "make the joey warmer" next)
        return None
    return tuple(int(v) for v in found[0]["box"]), word
