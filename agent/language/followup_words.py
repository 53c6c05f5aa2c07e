"""How a follow-up's words are read before its rules see them (:mod:`agent.language.followups`):
slips of the few words follow-ups are read by put right ("tone it dwon"), the words around the
request taken off ("no, ...", "... please"), and how much a size word asks for ("a bit", "way").
"""

from __future__ import annotations

import re

from agent.language.words import POLITE, clean_text

_LEAD = re.compile(r"^(?:(?:no|nope|nah|hmm+|hm+|um+|uh+|err+|oh|oops|ugh|actually|well|ok|okay|wait|sorry|"
                   r"yeah|yes|ah|argh|whoa|woah|wow|eh|meh|hey|please|pls|plz|i think|now|so|and|then|but|maybe|perhaps|just)\b[\s,.!]*)+")
_TAIL = re.compile(r"(?:[\s,.!]+(?:please|pls|plz|now|then|thanks|thank you|i think|imo|for me|though|"
                   r"overall|actually|still|stil|than that|than this))+$")
# Misspellings of the few words follow-ups are read by ("tone it dwon", "stil too dark"): a word one
# letter off (or two swapped) from one of these, and not itself one of them, is read as it.
_VOCABULARY = ("down", "back", "less", "more", "still", "much", "strong", "stronger", "weaker", "again", "original",
               "other", "opposite", "direction", "enough", "bright", "brighter", "dark", "darker", "warm", "warmer",
               "cool", "cooler", "sharp", "sharper", "contrast", "saturation", "saturated", "brightness", "little",
               "previous", "better", "repeat", "vertically", "horizontally", "same", "undo", "tone", "dial")
_SIZE_LARGE = re.compile(r"\b(?:way|far|much|a lot|lots|really|very|waa+y|a whole lot|significantly|"
                         r"considerably)\s+(?:too|less|more|stronger|weaker|over|further)\b|\bdouble\b|\btwice as\b")
_SIZE_SMALL = re.compile(r"\b(?:a (?:little |tiny |wee )?bit|a little|a tad|a touch|slightly|somewhat|little|tiny bit|"
                         r"a smidge|a hair|"
                         r"just a (?:bit|little|tad|touch))\s+(?:too|less|more|stronger|weaker|over|further)\b|"
                         r"\b(?:a (?:little )?bit|a little|a tad|a touch|slightly) much\b")


def _one_off(a: str, b: str) -> bool:
    """Whether ``a`` is ``b`` with one letter changed, added or dropped, or two neighbours swapped."""
    if abs(len(a) - len(b)) > 1 or a == b:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                                  and a[diff[1]] == b[diff[0]])
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


# Real words one letter from a follow-up word, which are no slip: "the one on the right" was read as
# "on the bright", "some" would be "same", "black" "back", "lighter" "brighter"
_REAL_WORDS = frozenset(re.findall(r"[a-z]+",
    "right fright light lighter fighter night black pack rack lack sack hack jack bank bark park mark lark dart dank "
    "town gown dawn sown mess lens mode core bore sore wore move stall skill spill such mulch otter worm ward farm "
    "harm warn swarm coal fool pool tool wool bitter butter letter setter sale sane save some game name came tune "
    "bone cone done gone lone none stone tons tonne repeal strung string stronger wrong"))


def spelled(text: str) -> str:
    """``text`` with words of four letters or more that are one slip from a follow-up word put right
    (real words that are one letter from one are left: :data:`_REAL_WORDS`).

    >>> spelled("tone it dwon"), spelled("stil too dark"), spelled("go back to the orignal")
    ('tone it down', 'still too dark', 'go back to the original')
    >>> spelled("and the one on the right too"), spelled("some more")
    ('and the one on the right too', 'some more')
    """
    def fix(m: re.Match) -> str:
        w = m.group(0)
        if len(w) < 4 or w in _VOCABULARY or w in _REAL_WORDS:
            return w
        return next((v for v in _VOCABULARY if _one_off(w, v)), w)

    return re.sub(r"[a-z]+", fix, text)


_JUST_THERE = re.compile(r"\bjust (?=(?:the (?!same\b)|on |in |to |for ))")


def tidy(text: str) -> str:
    """``text`` as the follow-up rules read it: spelled, lower case, lead-in and tail words off."""
    c = spelled(clean_text(text)).strip(" .!?,;")
    c = _JUST_THERE.sub("only ", c)  # "just the sky": a part, read by _only_there; "just" alone is polite
    c = _LEAD.sub("", c)
    c = POLITE.sub("", c)
    c = _LEAD.sub("", c)
    return _TAIL.sub("", c).strip(" .!?,;")


# A thing's place as the words give it: "on the left", "at the top right", "in the middle", "on the far left"
PLACE_WORDS = r"(?:on|at|in) the (?:far )?(?:left|right|top|bottom|middle|centre|center)(?: (?:left|right))?"
SIZE_AFTER = re.compile(r"\s+(?:a (?:little |tiny |wee )?bit|a little|a tad|a touch|slightly|some|a smidge|a hair)$")


def size_of(c: str) -> str:
    """"large", "small" or "normal": how much the size words of ``c`` ask for."""
    if _SIZE_LARGE.search(c):
        return "large"
    if _SIZE_SMALL.search(c) or SIZE_AFTER.search(c):  # "tone it down a bit"
        return "small"
    return "normal"


def without_place(thing: str) -> str:
    """A thing's words without the place that says which one: "the giraffe in the middle" -> "the
    giraffe", "the person next to the car" -> "the person"."""
    return re.sub(r"\s+(?:on|at|in|by|near|next to|beside)\s+the\s+.*$", "", thing.strip())


OPPOSITE = {"left": "right", "right": "left", "top": "bottom", "bottom": "top"}  # "the other one" of two


def side_phrase(side: str) -> str:
    """A side as it follows a thing: "left" -> "on the left", "top left" -> "at the top left",
    "middle" -> "in the middle".

    >>> side_phrase("far left"), side_phrase("upper right"), side_phrase("centre")
    ('on the far left', 'at the top right', 'in the centre')
    """
    side = side.replace("upper", "top").replace("lower", "bottom")
    if side in ("left", "right", "far left", "far right"):
        return f"on the {side}"
    return f"in the {side}" if side in ("middle", "centre", "center") else f"at the {side}"


# "a bit wider", "zoom out", "tighter" after a crop: how much more of the picture it keeps
_FRAMING_SIZE = r"(?P<size>a (?:little |tiny )?bit|a little|slightly|a touch|a tad|much|way|a lot|even|still)"
_WIDER = (r"wider|looser|less tight(?:ly)?|not so (?:tight|close)|too (?:tight|close|tightly cropped|zoomed in|"
          r"cramped)|zoom(?: it)? out|pull (?:it )?back|(?:with |leave |give it )?more (?:room|space)(?: around (?:it|him|"
          r"her|them))?|show more(?: of (?:the )?(?:background|picture|photo|surroundings|scene|it))?|include more"
          r"(?: of (?:the )?(?:background|picture|photo|surroundings|scene|it))?|less zoom(?:ed)?|crop (?:less|looser)"
          r"|(?:don'?t|do not) crop (?:so|as|that) (?:close|tight|much)")
_TIGHTER = (r"tighter|closer(?: in)?|zoom(?: it)? in(?: more| closer| further)?|too (?:loose|wide|far)|too much "
            r"(?:room|space)|less (?:room|space)|crop (?:tighter|closer|(?:it )?more)|more zoom(?:ed)?|get closer")
_FRAMING = re.compile(rf"(?:(?:it'?s|that'?s|that is|it is|make it|crop it|go) )?(?:{_FRAMING_SIZE} )?"
                      rf"(?:(?P<wider>{_WIDER})|(?P<tighter>{_TIGHTER}))"
                      r"(?: (?P<after>a (?:little |tiny )?bit|a little|slightly|a touch|still|please))?")


def framing(c: str) -> float | None:
    """What a follow-up to a crop asks of its size, as the factor the crop's "amount" is scaled by
    (:func:`agent.language.revisions.scaled`: over 1 crops closer), or None when it says nothing of it.

    >>> framing("a bit wider"), framing("zoom out"), framing("tighter"), framing("too tight"), framing("brighter")
    (0.9, 0.8, 1.25, 0.8, None)
    """
    m = _FRAMING.fullmatch(c)
    if m is None:
        return None
    size = m.group("size") or m.group("after") or ""  # "a bit wider", "zoom out a bit"
    small, large = size in ("a bit", "a little bit", "a tiny bit", "a little", "slightly", "a touch", "a tad"), \
        size in ("much", "way", "a lot")
    if m.group("wider"):
        return 0.9 if small else 0.6 if large else 0.8
    return 1.12 if small else 1.5 if large else 1.25


# How an edit of one of several says which it took (agent.edits.removal, agent.edits.regions): "I see 2
# giraffes and changed the one on the right", "I see 4 of them and removed the chicken on the right"
TOOK = re.compile(r"\bI see (?P<n>\d+) .*?\b(?:removed|changed|cropped to) the (?:[a-z]+ )*?"
                  r"(?P<where>(?:on|at|in) the (?:far )?(?:left|right|top|bottom|middle|centre|center)(?: (?:left|right))?)")
def other_of_two(said: str, placed: str = "") -> str | None:
    """Where "the other one" is ("on the left"): opposite the one an edit took, when its reply
    (``said``) says it saw two, or else opposite ``placed``, the place the request itself gave
    ("on the right"); None when neither tells.

    >>> other_of_two("I see 2 giraffes and changed the one on the right"), other_of_two("", "at the top")
    ('on the left', 'at the bottom')
    >>> other_of_two("I see 4 of them and removed the chicken on the right") is None
    True
    """
    took = TOOK.search(said)
    done = re.fullmatch(r"(?:on|at) the (left|right|top|bottom)", took.group("where") if took else placed)
    if done is None or (took is not None and took.group("n") != "2"):
        return None
    return side_phrase(OPPOSITE[done.group(1)])


# How a removal of one of several says which it took (agent.edits.removal), read back by "you missed a bit"
REMOVED_ONE_OF = "I see {n} of them and removed the {label} {where}"
REMOVED_ONE_OF_TWO = re.compile(r"\b" + REMOVED_ONE_OF.format(n=2, label="(?P<kind>[a-z][a-z ]*?)",
                                                                 where="on the (?P<side>left|right)") + r"\b")
