"""What a request is about: the open photo or another one, the whole picture or a part of it, a thing
Easel can find or one it cannot, something to do or something not to do.

:mod:`agent.language.reader` asks these before it runs anything, because a wrong edit is worse than no edit:

- a clause that says what *not* to do ("don't remove the girl in the middle") is a condition, not a
  request (:func:`negated`);
- "this picture of my kids", "I took a photo of my cousin" talk about the open photo, they do not ask
  for another one (:func:`names_open_photo`); a search in a request that also edits is dropped by
  :mod:`agent.language.reader`, since it would replace the photo the edits are for;
- "brighten face", "hair darker" name a part of the picture without "the" (:func:`bare_part`), which
  the whole-picture edits cannot serve;
- "blur the background behind the dog" keeps the dog: :func:`keep_phrase` finds the object words of
  "behind ...", "except ..." phrases;
- "remove the shadow of the car" removes a shadow, not the car: what a removal names is the words
  before the first preposition (:func:`removal_head`).
"""

from __future__ import annotations

import re

from agent.grammar.commands import BACKGROUND_COLOURS

# Parts of a picture (and things in it) that people ask to edit on their own.
PARTS = {
    "face", "faces", "skin", "hair", "eyes", "eye", "teeth", "lips", "nose", "cheeks", "forehead", "neck",
    "arm", "arms", "hand", "hands", "legs", "body", "sky", "clouds", "cloud", "grass", "trees", "tree",
    "leaves", "greenery", "flowers", "flower", "water", "sea", "ocean", "lake", "river", "beach", "sand",
    "snow", "mountains", "mountain", "hills", "field", "road", "street", "wall", "walls", "floor", "ground",
    "ceiling", "door", "window", "building", "foreground", "subject", "subjects", "shirt", "dress", "suit",
    "jacket", "coat", "clothes", "hat", "tie", "man", "men", "woman", "women", "person", "people", "guy",
    "girl", "boy", "baby", "kid", "kids", "child", "children", "lady", "dog", "cat", "car", "bird",
}

_NEGATED = re.compile(r"^(?:but |and |please |pls )*(?:do not|don't|dont|never|no need to|without|"
                      r"(?:make sure|be careful) (?:not to|you don't)|try not to|avoid)\b")


def negated(clause: str) -> bool:
    """'don't remove the girl in the pink dress', 'without changing the colours': not a request.

    >>> negated("don't remove the girl"), negated("remove the girl")
    (True, False)
    """
    return bool(_NEGATED.match(clause.strip()))


_OPEN_PHOTO = re.compile(
    r"\b(?:this|that|my|our|his|her|their|your|its|favou?rite|best|only)\s+"
    r"(?:\w+\s+){0,2}?(?:picture|photo|photograph|image|pic|shot|snap)s?\s+(?:of|with|from|at)\b"
    r"|\b(?:took|taken|snapped)\s+(?:a|an|this|the|one)\s+(?:\w+\s+)?"
    r"(?:picture|photo|photograph|image|pic|shot|snap)s?\b"
    r"|\b(?:picture|photo|photograph|pic|shot|snap)s? (?:of|with) (?:me|us|my|our)\b")


# Words that ask for another photo: with them, "a picture of my dog" is a search after all.
ASKS_SEARCH = re.compile(r"\b(?:find|search|look(?:ing)? for|show me|(?:get|bring) (?:me|us|an?|some|another|that)|"
                         r"fetch|do you have)\b")


def names_open_photo(clause: str) -> bool:
    """Whether a clause's "picture of ..." is the photo being edited ("this picture of my kids",
    "I took a photo of my cousin"), not a request for another one ("find a picture of a dog").

    >>> names_open_photo("i love this picture of my kids"), names_open_photo("show me a picture of a dog")
    (True, False)
    """
    return bool(_OPEN_PHOTO.search(clause))


_VERB = (r"make|brighten|darken|lighten|sharpen|blur|saturate|desaturate|warm|cool|color|tint|whiten|soften|"
         r"enhance|smooth|clear|fix|increase|decrease|boost|reduce")
_BARE = re.compile(rf"\b(?:{_VERB})(?: up)?\s+(?:\w+'s?\s+)?([a-z]+)\b|^(?:\w+'s?\s+)?([a-z]+)\s+(?:a bit |a little |much |"
                   r"slightly |more |less |too )?(?:\w+er|more \w+|less \w+|(?:needs|should) to be)\b")


def bare_part(clause: str) -> str | None:
    """A part of the picture a clause names without a determiner ("brighten face", "hair darker",
    "lighten man's face"), or None.

    >>> bare_part("brighten face"), bare_part("hair darker"), bare_part("brighten image")
    ('face', 'hair', None)
    """
    for m in _BARE.finditer(clause):
        word = m.group(1) or m.group(2)
        if word in PARTS:
            return word
    return None


_QUANTIFIER = re.compile(r"^(?:(?:all|some|one|two|three|four|five|each|both|any|most|many|several|the rest|a few|"
                         r"either|none|every one|several|few|couple)\s+(?:or \w+\s+)?of\s+|"
                         r"(?:the |an? )?(?:image|picture|photo|group|bunch|crowd|pair|line|row)\s+of\s+)+")
_PREPOSITION = re.compile(r"\s(?:of|from|on|in|at|behind|near|next|under|above|below|over|by|to|with|around|"
                          r"beside|between|inside|across|along|off|out|away|that|who|which|where|so|for)\b")


def removal_head(what: str) -> str:
    """The words of a removal before its first preposition: what goes ("the shadow" of "the shadow
    of the car"), not where it is. A leading "all of", "two of" is skipped ("all of the people").

    >>> removal_head("the shadow of the car"), removal_head("all of the people on the left")
    ('the shadow', 'the people')
    """
    w = _QUANTIFIER.sub("", what.strip())
    m = _PREPOSITION.search(w)
    return w[:m.start()].strip() if m else w


_KEEP = re.compile(r"\b(?:behind|except(?: for)?|other than|apart from|but not|but|around|surrounding)\s+(.+)")
_KEEP_STOP = re.compile(r"(?:to|into|with|in|and|please|blurr?y?|blurred|out|transparent|plain|solid|background|"
                        rf"bg|gr[ae]y|{'|'.join(BACKGROUND_COLOURS)})$")


def keep_phrase(c: str) -> tuple[str, str]:
    """The clause without its "behind the dog" / "except the cat" phrase, and the object words of that
    phrase when they name something the detector can find ("the dog"); "" for the main subject
    ("behind her", "except my son")."""
    from agent.perception.things import names_object  # the detector's words; loads no model

    m = _KEEP.search(c)
    if not m:
        return c, ""
    tokens = m.group(1).split()
    words: list[str] = []
    for i, word in enumerate(tokens):
        if word == "and" and words and names_object(" ".join(tokens[i + 1:i + 3])):
            words.append(word)  # "behind the bowl and plate": both are kept
            continue
        if _KEEP_STOP.fullmatch(word.strip(".,!?")) and not (
                word in BACKGROUND_COLOURS and i + 1 < len(tokens) and not _KEEP_STOP.fullmatch(tokens[i + 1])):
            break  # a colour word ends the phrase unless a noun follows it ("this yellow bunny")
        words.append(word)
        if len(words) == 6 or word[-1] in ".,!?":
            break
    phrase = " ".join(words)
    rest = " ".join((c[:m.start()] + " " + c[m.start(1) + len(phrase):]).split())
    return rest, (phrase.strip(".,!?") if words and names_object(phrase) else "")
