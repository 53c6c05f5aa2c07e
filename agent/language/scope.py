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
  before the first preposition (:func:`removal_head`); "remove the watermark", "the text at the
  bottom" name text, which the OCR model finds (:func:`names_text`), and are not refused as an edit
  of text;
- "brighten the sky", "make the dog's fur more orange", "lift the shadows", "everything except the
  cat black and white" apply to a part: :func:`region_of` says which, in the words of a command's
  region (``in sky``, ``in the dog``, ``in shadows``, ``in everything except the cat``), or raises
  :class:`Unfindable` for a part Easel cannot find on its own (a face, the sea), which the person
  then points at; "brighten the dog and the sky" names two, and :func:`joined_region` gives both.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from agent.grammar.commands import BACKGROUND_COLOURS
from editor.masks import canonical_region_name

# Parts of a picture (and things in it) that people ask to edit on their own.
PARTS = {
    "hair", "eyes", "eye", "teeth", "lips", "nose", "cheeks", "forehead", "neck",
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


# "it's not bright enough" says "too dark"; "it's not too dark" asks for nothing.
_OPPOSITE = {"bright": "dark", "light": "dark", "dark": "bright", "warm": "cool", "cool": "warm", "cold": "warm",
             "sharp": "blurry", "crisp": "blurry", "clear": "blurry", "colourful": "dull", "colorful": "dull",
             "vivid": "dull", "saturated": "dull", "vibrant": "dull", "contrasty": "flat", "punchy": "flat"}
_WHAT_IS = r"(?:it|this|that|the (?:photo|picture|image|pic|shot|colou?rs?))"
_IS_NOT = (rf"(?:{_WHAT_IS}\s+(?:still\s+)?(?:is|are|does|do|looks?|seems?)\s+(?:still\s+)?not\s+(?:look\s+|seem\s+)?"
           r"(?:to be\s+)?|(?:still\s+)?not\s+)")
_NOT_ENOUGH = re.compile(rf"^{_IS_NOT}(\w+)\s+enough(?:\s+(?:yet|now|still))?$")
_NOT_TOO = re.compile(rf"^{_WHAT_IS}\s+(?:is|are|does|do|looks?|seems?)\s+not\s+(?:look\s+|seem\s+)?too\s+(\w+)"
                      r"(?:\s+(?:now|anymore|any more))?$")


def negated_quality(clause: str) -> tuple[str, str] | None:
    """A quality said with "not": ``("fault", "it is too dark")`` for "it's not bright enough" (the
    fault it names, in the words the rules read; "still" kept), ``("fine", "dark")`` for "it's not too
    dark" (nothing to do); None for anything else. Contractions are spelled out first.

    >>> negated_quality("it's not bright enough"), negated_quality("it isn't too dark")
    (('fault', 'it is too dark'), ('fine', 'dark'))
    >>> negated_quality("the colours are still not vivid enough"), negated_quality("not too dark")
    (('fault', 'the colours are still too dull'), None)
    >>> negated_quality("it's too dark"), negated_quality("it's not big enough")
    (None, None)
    """
    c = re.sub(r"\b(is|are|does|do)n't\b", r"\1 not", clause.strip(" .!").lower())
    c = re.sub(r"\b(it|this|that)'s\b", r"\1 is", c)
    m = _NOT_ENOUGH.match(c)
    if m and m.group(1) in _OPPOSITE:
        subject = re.match(_WHAT_IS, c)
        who = subject.group(0) if subject else "it"
        verb = "are" if who.endswith("s") else "is"
        still = " still" if re.search(r"\bstill\b", c) else ""
        return "fault", f"{who} {verb}{still} too {_OPPOSITE[m.group(1)]}"
    m = _NOT_TOO.match(c)
    if m:
        return "fine", m.group(1)
    return None


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
         r"enhance|smooth|clear|fix|increase|decrease|boost|reduce|change|turn|paint")
# (a colour before the part says which it is now: "change black hair and dress to red")
_BARE = re.compile(rf"\b(?:{_VERB})(?: up)?\s+(?:\w+'s?\s+)?(?:(?:black|white|gr[ae]y|brown|blond|red|dark|light)\s+)?"
                   rf"([a-z]+)\b|^(?:\w+'s?\s+)?([a-z]+)\s+(?:a bit |a little |much |"
                   r"slightly |more |less |too )?(?:\w+er|more \w+|less \w+|(?:needs|should) to be)\b")


def bare_part(clause: str) -> str | None:
    """A part of the picture a clause names without a determiner ("brighten face", "hair darker",
    "lighten man's face"), or None.

    >>> bare_part("brighten lips"), bare_part("hair darker"), bare_part("brighten image")
    ('lips', 'hair', None)
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


# What the OCR model finds, as the head of a removal: "remove the text", "the caption at the bottom",
# "the watermark", "the date stamp", "the logo" (lettering only: the OCR model reads text)
# "all the people except the couple", "everyone but leave the two girls": what goes, and what stays
ALL_BUT = re.compile(r"(?P<all>.+?),?\s+(?:except(?: for)?|but(?: for| not)?|other than|apart from|besides|save for)"
                     r"(?:\s+(?:leave|leaving|keep|keeping)(?: in)?)?\s+(?P<keep>.+)")
# ... "everyone", "all characters": the people
EVERYONE = re.compile(r"^(?:all )?(?:of )?(?:the )?(?:everyone|everybody|anyone|anybody|characters|persons|humans)\b")


_TEXT = re.compile(r"\b(?:text|texts|caption|captions|words|writing|lettering|letters|logo|logos|watermark|"
                   r"watermarks|title|titles|subtitles?|signature|signatures|date ?stamps?|time ?stamps?|"
                   r"copyright(?: notice| mark| sign)?|credits?)\b")


def names_text(what: str) -> bool:
    """Whether a removal's words name text, by what goes (:func:`removal_head`), not where it is:
    "the text at the bottom", "the watermark", "the red logo" do; "the middle above the words",
    "the man holding the sign" do not.

    >>> [names_text(w) for w in ("the watermark", "the text at the bottom", "the middle above the words")]
    [True, True, False]
    """
    return isinstance(what, str) and bool(_TEXT.search(removal_head(what.lower())))


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


# --- where an edit applies (issue 28: point and say) ---------------------------------------------

class Unfindable(ValueError):
    """A part of the picture the request names that Easel cannot find on its own (a face, the sea,
    the grass): the person has to point at it. ``part`` is its word."""

    def __init__(self, part: str, said: str = ""):
        super().__init__(part)
        self.part = part
        self.said = said  # the words that name it, when not just "the <part>" ("the person on the left's shirt")


EXCEPT_REGION = "everything except "
_SELECTION = re.compile(r"\b(?:the )?(?:selection|selected (?:area|part|region|bit))\b")
_EXCEPT = re.compile(
    r"\b(?:everything|all|the rest|anything)(?: else)?(?: of (?:it|the (?:picture|image|photo)))?\s+"
    r"(?:except(?: for)?|but|other than|apart from|besides|aside from|save for|surrounding|around)\s+(?P<a>.+)$"
    r"|\b(?:except(?: for)?|other than|apart from|aside from|save for)\s+(?P<b>.+)$")
# "..., but keep the cat as it is" (strip_polite has cut "as it is" by now): everything except the cat
_KEEPING = re.compile(r"\S.*?\s(?:but |and |while |yet )?(?:keep(?:ing)?|leav(?:e|ing)) (?:only |just )?"
                      r"(?:the colou?rs? of )?(?P<x>.+?)(?: (?:unchanged|untouched|alone|in colou?r|the same|as (?:it|they) "
                      r"(?:is|are)|as is))?$")
# "this area", "here": a drawn region (the reader writes "the selection" for them when there is one;
# without one, the edit says nothing is selected and asks for a drawing)
_POINTING = re.compile(r"\b(?:this|that) (?:area|part|spot|region|bit|patch|section)\b|\b(?:here|there)$")
_SKY = re.compile(r"\b(?:the )?sk(?:y|ies)\b")
_CLOUDS = re.compile(r"\b(?:the )?clouds?\b")
# A found part kept to a half: "on the left", "at the top", "in the left half"
_PLACE_AFTER = re.compile(r"(?:on|at|in|to|towards) (?:the )?(left|right|top|bottom)(?:[- ]hand)?(?: (?:half|side|part|edge))?\b")
# Plants, one region (editor.greenery): "plant" alone is a potted plant the detector finds, "the leaves"
# needs its article ("it leaves a mark"), "field" is also a depth of field
_GREENERY = re.compile(r"\b(?:(?:the )?(?:grass|lawns?|meadows?|trees|foliage|plants|vegetation|bushes|shrubs|hedges?|"
                       r"greenery|forest|woods|bamboo|ferns|reeds)|the (?:green )?leaves)\b")  # ("the bamboo" behind gcompris' panda)
# Faces and skin (agent.perception.faces): after a determiner, a possessive or an edit's verb ("the face",
# "her face", "the man's face", "brighten face", "his skin tone"), not a verb ("the house faces south")
_FACE = re.compile(r"(?:\b(?:the|his|her|their|my|our|your|its|all the|all|both|[a-z]+'s|[a-z]+s')|^(?P<verb>brighten|lighten|"
                   r"darken|sharpen|blur|soften|smooth|warm|cool|whiten|tint|colou?r)(?: up)?) (?P<n>faces?|skin)\b"
                   r"(?: ?tones?)?"
                   r"(?:(?: of (?:the |my |his |her |our |their |both |all )?[a-z]+(?: [a-z]+)?)?"
                   r" (?:on|at) the (?P<at>left|right|top|bottom))?")
_TONES = [
    (re.compile(r"\b(?:the )?(?:shadows?|(?:dark(?:er)?|black|shadowy|shaded) (?:areas?|parts?|tones|spots|regions?|bits)|darks|blacks|"
                r"low ?lights)\b"), "shadows"),
    (re.compile(r"\b(?:the )?(?:highlights?|(?:bright(?:er)?|white|light) (?:areas?|parts?|tones|spots|regions?|bits)|"
                r"whites)\b"), "highlights"),
    (re.compile(r"\b(?:the )?mid[- ]?tones?\b"), "midtones"),
]
_PICTURE = r"(?: (?:of|in) (?:the|this|my) (?:picture|image|photo|pic|frame|shot))?"
_SIDE = {"upper": "top", "lower": "bottom", "centre": "center", "middle": "center"}
_GEOMETRY = re.compile(
    r"\b(?:the )?(?P<corner_v>top|upper|bottom|lower)[ -]?(?P<corner_h>left|right)(?:[ -]hand)?"
    r"(?: (?:corner|side|part|edge|area))?" + _PICTURE +
    r"|\b(?:the )?(?P<half>left|right|top|bottom|upper|lower) half" + _PICTURE +
    r"|\b(?:the )?(?P<side>left|right|top|bottom|upper|lower)(?:[ -]hand)? (?:side|part|edge|portion|area|third)"
    + _PICTURE +
    r"|\bthe (?P<bare>left|right|top|bottom)\b(?=$|" + _PICTURE[:-1] + r"\b| (?:a |more|less|slightly|much|"
    r"by|to|please|\w+er\b))"
    r"|\b(?:on|at|in|to|along) the (?P<at>left|right|top|bottom|middle|center|centre)\b(?! of the (?!picture|image|photo|frame))"
    r"|\bthe (?P<centre>center|centre|middle)(?: (?:part|area))?" + _PICTURE)
_BACKGROUND = re.compile(r"\b(?:the )?(?:background|backdrop|bg)\b")
# "blur the edges", "darken the corners": all but the centre (the centre's mask is a soft ellipse, so
# this is a vignette's shape); "blur the edges" blurred the whole picture
# ("sharpen the edges" is the details' edges: only the picture's corners, or edges said to be its own)
_EDGES = re.compile(r"\b(?:(?:the|its|all the|all four|4) )?(?:corners|outer (?:edges?|parts?|areas?)|periphery)"
                    r"(?: of (?:the|this) (?:picture|image|photo|frame))?\b"
                    r"|\b(?:(?:the|its) )?edges of (?:the|this) (?:picture|image|photo|frame)\b|\baround the edges\b"
                    r"|(?<=\bblur )(?:the |its )?edges\b")  # ("blur the edges": the picture's, a soft frame)
_SUBJECT = re.compile(r"\b(?:the )?(?:main )?(?:subject|foreground)\b")
_OBJECT_START = re.compile(r"\b(?:(?:all|both|each|every one) (?:of )?)?(?:the|his|her|their|my|our|these|those|"
                           r"that|this|its|your)\s+|\b(?:all|both)\s+(?=[a-z]+s\b)")  # ("both lemurs": it was everything)
# Words that end an object's phrase: what the request does to it, not which one it is.
_OBJECT_STOP = re.compile(
    r"^(?:more|less|a|an|bit|little|slightly|much|lot|too|very|really|so|to|into|by|and|but|please|look|looks|"
    r"seem|seems|is|are|be|black_and_white|monochrome|gr[ae]y(?:scale)?|colou?rs?|colou?rful|vivid|warm\w*|"
    r"cool\w*|sharp\w*|blurr?\w*|bright\w*|dark\w*|light\w*|dull\w*|pop|stand|as|if|than|with|who|which|that|"
    r"so|because|,|\.)$")
_COMPARATIVE = re.compile(r"^(?:bluer|redder|greener|yellower|pinker|warmer|cooler|softer|crisper|clearer|"
                          r"deeper|richer|paler|whiter|blacker|\w+ish)$")


_PREPOSITIONS = {"on", "in", "at", "near", "by", "behind", "beside", "next", "to", "with", "wearing", "holding",
                 "under", "above", "below", "over", "of"}
# Words before an object's noun that say which one ("the big red car on the left").
_MODIFIERS = {"the", "a", "an", "his", "her", "their", "my", "our", "these", "those", "that", "this", "its", "your",
              "all", "both", "each", "every", "one", "of", "two", "three", "four", "five", "left", "right", "top",
              "bottom", "middle", "center", "centre", "upper", "lower", "front", "back", "big", "small", "little",
              "large", "tall", "short", "old", "older", "young", "younger", "first", "second", "third", "fourth", "fifth", "last", "other",
              "bigger", "biggest", "smaller", "smallest", "larger", "largest", "taller", "tallest", "shorter",
              "shortest", "littlest", "tiny", "huge",
              "leftmost", "rightmost", "nearest", "closest", "far", "farthest", "main"}


_PLACES = {"left", "right", "top", "bottom", "middle", "center", "centre", "front", "back"}
_PLACE_NOUNS = {"side", "hand", "part", "edge", "corner", "half", "of", "end", "row", "left", "right"}


def _object_phrase_at(c: str, start: int) -> str | None:
    """The object words starting at ``start`` ("the dog" of "the dog's fur more orange", "the man
    on the right" of "the man on the right darker"), when their noun is a thing the detector finds
    ("the contrast on the boy" is not: its noun is the contrast)."""
    from agent.grammar.lexicon import COLOUR_WORD, THING_COLOURS
    from agent.perception import wordnet
    from agent.perception.things import animal_noun, names_object, thing_words  # loads no model

    colours = set(COLOUR_WORD) | set(THING_COLOURS)
    things = thing_words()
    tokens = re.findall(r"[a-z_]+(?:'s|s')?|[,.]", c[start:])
    words: list[str] = []
    head = False  # the noun was read
    in_pp = 0  # words read of a phrase after the noun ("on the right", "in the red shirt")
    for i, tok in enumerate(tokens):
        word = tok[:-2] if tok.endswith("'s") else tok[:-1] if tok.endswith("s'") else tok
        # "grey" or "little" before the noun says which one ("make the grey horse darker", "the little
        # dog"); after it, what to make it or how much
        which = not head and word in ("grey", "gray", "little") and i + 1 < len(tokens) and tokens[i + 1] in things
        both = (head and in_pp == 0 and tok == "and" and i + 2 < len(tokens) and tokens[i + 1] in _MODIFIERS
                and (tokens[i + 2] in things or animal_noun(tokens[i + 2]) is not None))
        if both:
            words.append(tok)  # "the dog and the cat": both (it edited the dog alone)
            head = False
            continue
        beside = tok == "to" and head and words[-1] == "next"  # "the person next to the person on the left"
        if (_OBJECT_STOP.match(tok) and not which and not beside) or _COMPARATIVE.match(tok):
            break
        if not head:
            if word in _MODIFIERS or word in colours:
                words.append(word)
                continue
            if (i + 1 < len(tokens) and tok == word and (tokens[i + 1] in things or animal_noun(tokens[i + 1]))
                    and wordnet.said_of(word, tokens[i + 1])):
                continue  # "make the cute dog brighter": the dog (it was "I can't find the cute on my own")
            if (i + 1 < len(tokens) and tok == word and wordnet.compound_noun(word, tokens[i + 1])
                    and (tokens[i + 1] in things or animal_noun(tokens[i + 1]) or animal_noun(f"{word} {tokens[i + 1]}"))):
                words.append(word)  # "the polar bear", "the hot dog" (it was "I can't find the polar on my own")
                continue
            if word not in things and animal_noun(word) is None:  # (any animal's name: "the kangaroo")
                return None  # "the contrast on the boy", "this picture of my dog": not a thing's noun
            words.append(word)
            head = True
            if word != tok:
                break  # "the dog's fur": the dog
            continue
        if in_pp == 0:
            if tok not in _PREPOSITIONS:
                break  # "the plants throughout": what follows the noun is not about which one
            words.append(tok)
            in_pp = 1
            continue
        if word in colours and words[-1] not in ("the", "a", "an", "in", "with"):
            break  # "the man on the right orange": the colour it should get
        words.append(word)
        in_pp += 1
        if word not in _MODIFIERS and word not in colours and tok not in _PREPOSITIONS or (
                word in _PLACES and (i + 1 == len(tokens) or tokens[i + 1] not in _PLACE_NOUNS)):
            in_pp = 0  # the phrase's noun: another phrase may follow ("in the middle of the road"; "on the
            # left" ends "the man on the left disappear")
        if word != tok or len(words) >= 10:
            break
    while words and (words[-1] in _PREPOSITIONS or words[-1] in ("the", "a", "an")):
        words.pop()
    phrase = re.sub(r"\s+(?:in|of|from|on) (?:the|this|my) (?:picture|image|photo|pic|shot)$", "", " ".join(words))
    if not head or " " not in phrase or not names_object(phrase):
        return None
    return phrase


def _named(c: str) -> list[tuple[int, int, str]]:
    """(start, end, region) of the regions Easel finds by name in the clause: the sky, tonal ranges,
    sides, halves, corners, the centre, the background and the main subject."""
    found: list[tuple[int, int, str]] = [(m.start(), m.end(), "sky") for m in _SKY.finditer(c)]
    found += [(m.start(), m.end(), "clouds") for m in _CLOUDS.finditer(c)]  # ("the clouds in the sky": the clouds)
    found += [(m.start(), m.end(), "greenery") for m in _GREENERY.finditer(c)]
    for i, (at, _, name) in enumerate(found):  # "the trees on the left": those in the left half
        words = re.match(r"[^,;.!?()]*", c[at:]).group(0)  # up to the clause's next punctuation
        first = re.search(r"\b(?:on|at|in|to|towards)\b", words)
        placed = _PLACE_AFTER.match(words, first.start()) if first else None
        if placed:
            found[i] = (at, at + placed.end(), canonical_region_name(f"{name} on the {placed.group(1)}"))
    for m in _FACE.finditer(c):
        plural = m.group("n") == "faces" or re.match(r"(?:their|our|both|all)\b", c[m.start():]) is not None
        name = ("skin" if m.group("n") == "skin" else "faces" if plural else "face") + (
            f" on the {m.group('at')}" if m.group("at") else "")
        found.append((m.start("n") if m.group("verb") else m.start(), m.end(), name))  # (the verb is no part)
    for pattern, tone in _TONES:
        found += [(m.start(), m.end(), tone) for m in pattern.finditer(c)]
    for m in _GEOMETRY.finditer(c):
        g = {k: v for k, v in m.groupdict().items() if v}
        if "corner_v" in g:
            name = f"{_SIDE.get(g['corner_v'], g['corner_v'])} {g['corner_h']}"
        elif "half" in g:
            name = f"{_SIDE.get(g['half'], g['half'])} half"
        else:
            word = g.get("side") or g.get("bare") or g.get("at") or g.get("centre")
            name = _SIDE.get(word, word)
        found.append((m.start(), m.end(), name))
    found += [(m.start(), m.end(), "background") for m in _BACKGROUND.finditer(c)]
    found += [(m.start(), m.end(), EXCEPT_REGION + "center") for m in _EDGES.finditer(c)]
    found += [(m.start(), m.end(), "subject") for m in _SUBJECT.finditer(c)]
    return found


def _objects(c: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, phrase) of the things the clause names by a noun the detector finds, in order
    ("the dog and the cat" is one phrase)."""
    for m in _OBJECT_START.finditer(c):
        if re.search(r"\b(?:this|that|my|our|his|her|their|your)\s+(?:\w+\s+)?(?:picture|photo|image|pic|shot|"
                     r"photograph)s? of $", c[:m.start()]):
            continue  # "this picture of my dog": the photo, not the dog
        phrase = _object_phrase_at(c, m.start())
        if phrase:
            words = re.match(r"\s+".join(re.escape(w) + r"(?:'s|s')?" for w in phrase.split()), c[m.start():])
            end = m.start() + (words.end() if words else len(phrase))
            if c[end - 2:end] in ("'s", "s'") and _FACE.match(c, end - len(phrase.split()[-1]) - 2):
                continue  # "the man's face", "the man's skin": agent.perception.faces finds them
            owned = re.match(r"\s+([a-z]+(?: plates?)?)\b", c[end:]) if c[end - 2:end] in ("'s", "s'") else None
            if owned and owned.group(1).split()[0] in THING_PARTS:  # "the owl's eyes": not the owl
                head = re.split(r" (?:on|in|at|next|near|by|behind|with) ", phrase)[0].split()[-1]  # (not "left's")
                raise Unfindable(f"{head}'s {owned.group(1)}", c[m.start():end + owned.end()])
            yield m.start(), end, phrase


# A part of a thing, after its possessive, which the thing's mask is not: "make the owl's eyes brighter"
# brightened the whole owl and said so ("the dog's fur", "the bird's feathers" are the thing itself)
THING_PARTS = frozenset({
    "eye", "eyes", "ear", "ears", "nose", "mouth", "teeth", "tongue", "lips", "beak", "bill", "head", "neck",
    "tail", "paw", "paws", "leg", "legs", "foot", "feet", "hoof", "hooves", "wing", "wings", "horn", "horns",
    "antler", "antlers", "mane", "whiskers", "spots", "stripes", "claws", "belly", "back", "hair", "beard",
    "hand", "hands", "arm", "arms", "shirt", "dress", "jacket", "hat", "cap", "shoes", "trousers", "pants",
    "jeans", "skirt", "tie", "scarf", "collar", "glasses", "sunglasses", "wheel", "wheels", "tyres", "tires",
    "windows", "window", "windshield", "windscreen", "roof", "door", "doors", "seat", "saddle", "plate",
    "license", "licence", "number", "logo", "headlights", "lights", "screen", "handle", "label", "leaves",
    "petals", "trunk"})
_PART_NOUNS = frozenset(PARTS) | THING_PARTS  # ("her pink clothes": a colour before them says which)

_JOINED = re.compile(r"\s*,?\s*(?:and|&|as well as|plus)\s+(?:also\s+)?")


def only_a_part(clause: str) -> bool:
    """"make the sky", "turn the dog": a verb and a part, nothing said yet of what to make it (the
    next clause says it: "make the sky and the dog darker")."""
    c = clause.strip()
    verb = re.match(r"(?:make|turn|get|render) ", c)
    return bool(verb) and any(start == verb.end() and end == len(c) for start, end, _ in _named(c) + list(_objects(c)))


def joined_region(clause: str, region: str) -> str | None:
    """Both parts, as one region's words, when the clause names two joined by "and" and ``region``
    is one of them ("brighten the dog and the sky": ``the dog and sky``), else None. A thing
    whose own phrase holds both ("the dog and the cat") is one region already.

    >>> joined_region("brighten the dog and the sky", "the dog"), joined_region("make the sky and the dog darker", "the dog")
    ('the dog and sky', 'sky and the dog')
    >>> joined_region("make the sky darker and the dog brighter", "sky") is None
    True
    """
    c = clause.strip()
    spans = sorted(_named(c) + list(_objects(c)))
    for _, a_end, a in spans:
        for b_start, _, b in spans:
            if b_start >= a_end and _JOINED.fullmatch(c[a_end:b_start]) and a != b and region in (a, b):
                return f"{a} and {b}"
    return None


# "the top of the sky", "the left part of the grass": that part found by name, in that half ("make the left
# part of the sky bluer" tinted the whole left side, ground and all; "the top of the sky" the whole sky)
_PART_OF_FOUND = re.compile(r"\bthe (?P<side>top|bottom|upper|lower|left|right)(?:[ -]hand)?(?: (?:part|side|half|edge|end|"
                            r"portion|area|bit))? of (?:the )?(?P<x>sky|clouds|grass|lawn|trees|foliage|greenery|plants)\b")


def _found_placed(m: re.Match) -> str:
    side = {"upper": "top", "lower": "bottom"}.get(m.group("side"), m.group("side"))
    return f"the {m.group('x')} {'on' if side in ('left', 'right') else 'at'} the {side}"


# GIER's "Increase saturation of sunset.", "Make the sunset more pronounced.": a sunset is the light of the
# whole scene, no part to find ("the sunset sky" is the sky)
_SCENE_LIGHT = re.compile(r"\b(?:the |this |that |my |our )?(?:sunset|sunrise|sundown|dusk|dawn)\b(?P<sky> sky)?")


def region_of(clause: str, own_words: set[str] | frozenset[str] = frozenset()) -> str | None:
    """Where a request's edit applies, as the words of a command's region, or None for the whole
    picture. Raises :class:`Unfindable` for a part Easel cannot find on its own ("the face", "the sea").

    - "the selection" (what the reader writes for "this", "here" when something is drawn):
      ``selection``;
    - "everything except the cat", "all but the sky": ``everything except`` and the region;
    - the sky, shadows/highlights/midtones ("the dark areas"), sides, halves, corners, the centre,
      the background, the main subject: their names (:data:`editor.masks.REGION_NAMES`);
    - things the detector finds ("the dog", "the man on the right", "the dog's fur"): the words;
    - the earliest in the clause wins ("the sky above the man" is the sky).

    ``own_words`` are the words of the edit itself ("colour" in "brighten the colours"), which name
    no part.

    >>> region_of("brighten the sky"), region_of("darken the left side"), region_of("lift the shadows")
    ('sky', 'left', 'shadows')
    >>> region_of("make the dog's fur more orange"), region_of("everything except the cat black and white")
    ('the dog', 'everything except the cat')
    >>> region_of("brighten it a bit") is None
    True
    """
    c = _PART_OF_FOUND.sub(_found_placed, clause.strip())  # "the top of the sky": the sky at the top
    c = _SCENE_LIGHT.sub(lambda m: "the sky" if m.group("sky") else "the picture", c)  # "make the sunset warmer": the scene's light, no part of it
    photo = _OPEN_PHOTO.search(c)
    if photo:  # "fix this picture of my grandpa": the open photo and who is in it, not a part
        c = c[:photo.start()] + re.sub(r"^\s*(?:(?:my|his|her|our|their|the|a|an) )?(?:[a-z']+ ){0,2}?[a-z']+"
                                       r"(?: and (?:my|his|her|our|their|the|a) (?:[a-z']+ )?[a-z']+)?(?=[\s,.;!?()]|$)",
                                       "", c[photo.end():], count=1)
    if _SELECTION.search(c) or _POINTING.search(c):
        return "selection"
    m = _KEEPING.fullmatch(c)
    if m:
        inner = region_of(m.group("x"), own_words)
        if inner is None:
            raise Unfindable(" ".join(m.group("x").split()[:3]))
        return inner if inner.startswith(EXCEPT_REGION) else EXCEPT_REGION + inner
    m = _EXCEPT.search(c)
    if m:
        rest = m.group("a") or m.group("b")
        inner = region_of(rest, own_words)
        if inner is None:
            raise Unfindable(" ".join(rest.split()[:3]))
        return inner if inner.startswith(EXCEPT_REGION) else EXCEPT_REGION + inner
    candidates = [(at, name) for at, _, name in _named(c)]
    candidates += [(at, phrase) for at, _, phrase in itertools.islice(_objects(c), 1)]
    from agent.language.words import local_part  # words imports the grammar only

    part = local_part(c, set(own_words), _PART_NOUNS) or bare_part(c)
    at = re.search(rf"\b{re.escape(part)}\b", c).start() if part is not None and re.search(
        rf"\b{re.escape(part)}\b", c) else len(c)
    if candidates and min(x[0] for x in candidates) <= at:
        return min(candidates, key=lambda x: x[0])[1]
    if part is not None and not any(part in region.split() for _, region in candidates):
        raise Unfindable(part)  # "the trees in the foreground": the trees, which Easel cannot find
    return min(candidates, key=lambda x: x[0])[1] if candidates else None
