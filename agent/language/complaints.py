"""A fault said of the picture or of a part of it, and which way the edit that mends it goes.

People say what is wrong more often than what to do: "the sky is too blue", "it's a bit dark",
"the highlights are blown", "this is too contrasty", "too much red in the sky", "the photo feels
cold". The mend is the opposite of the quality named, where it was named: a darker sky, a brighter
picture, less contrast, a warmer picture. One reading serves every quality, so that "too soft"
sharpens as "too blurry" does and "feels cold" warms as "too cold" does (both were read as asking
for more of what they complain of).

:func:`complaint` reads the words; :func:`agent.language.rules` turns a reading into a command,
finding the part ("the sky", "the horse on the left") as every other request does. A quality said
without "too" or a degree ("the photo is dark") may describe the picture rather than fault it: it is
read as ``sure=False``, and the edit is proposed, not run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agent.grammar.lexicon import COLOUR_WORD

# How much: "a bit dark", "way too saturated" (words.size_of reads the amount from the same words)
_DEGREE = (r"(?:a (?:little )?bit|a little|a tad|a touch|slightly|somewhat|way|much|far|really|very|kind of|sort of|"
           r"rather|just|still|quite|so|a lot|overly|extremely|pretty|super|bit|too)")
# words between the verb and the quality that say no degree ("the sky is now blue" states a fact)
_FILLER = r"(?:(?:now|all|also|even|getting|becoming) )*"
_COPULA = (r"(?:is|are|was|were|'s|'re|looks?|looked|seems?|seemed|appears?|appeared|feels?|felt|got|gets|"
           r"came out|comes out|has become|have become|became|is getting|are getting|turned out|(?:is|are) looking)")
_OPENING = r"(?:(?:i think|i feel|i find|honestly|hmm|well|but|and|now|still|ok|okay|oh|so),? )*"

# quality -> (attribute, sign of the mend, said as a fault even without "too" or a degree)
_QUALITIES: tuple[tuple[str, str, int, bool], ...] = (
    (r"under-?exposed|murky|gloomy|muddy", "brightness", 1, True),
    (r"dark|dim|black|shadowy", "brightness", 1, False),
    (r"over-?exposed|blown(?: out)?|burn(?:ed|t) out|blinding", "brightness", -1, True),
    (r"bright|light|white|glaring", "brightness", -1, False),
    (r"flat|lifeless|low[- ]contrast|lacking contrast", "contrast", 1, True),
    (r"contrasty|harsh|high[- ]contrast|punchy", "contrast", -1, False),
    (r"washed[- ]out|faded|dull|muted|drab|colou?rless|lacklustre|lackluster", "saturation", 1, True),
    (r"gr[ae]y|pale|desaturated", "saturation", 1, False),
    (r"over-?saturated|saturated|garish|loud|vivid|vibrant|colou?rful|intense|strong|neon|cartoonish", "saturation", -1,
     False),
    (r"blurr?y|blurred|fuzzy|out of focus|unfocused|unsharp", "sharpness", 1, True),
    (r"soft", "sharpness", 1, False),
    (r"over-?sharpened|sharp|crisp|crunchy", "sharpness", -1, False),
    (r"cold|cool|icy|chilly", "warmth", 1, False),
    (r"warm|hot", "warmth", -1, False),
)
_COLOURS = "|".join(sorted((re.escape(w) for w in COLOUR_WORD), key=len, reverse=True))
_QUALITY = "|".join(p for p, *_ in _QUALITIES) + "|" + _COLOURS
# "the sky is too blue", "it's a bit dark", "too dark", "this looks way too contrasty now"
_SAID = re.compile(rf"{_OPENING}(?:(?P<subject>[a-z' ]+?)(?: |(?='))(?P<copula>{_COPULA}) )?{_FILLER}(?P<degree>(?:{_DEGREE} )*?)"
                   rf"(?P<too>too (?:(?:{_DEGREE}) )*)?(?P<quality>{_QUALITY})(?: (?:now|still|again|here|there|"
                   r"overall|in (?:general|places)|for me|to me|i think))?")
# "too much red in the sky", "too much contrast", "there is too much yellow"
_TOO_MUCH = re.compile(rf"{_OPENING}(?:there(?:'s| is) |it has |it's got )?(?:(?:way|far|a bit|a little|slightly|much) )?"
                       rf"too much (?P<quality>{_COLOURS}|contrast|saturation|color|colors|warmth|blur|light|"
                       rf"brightness|exposure|sharpening|sharpness)(?: (?:color|tone|tint|cast))?"
                       rf"(?: (?:in|on) (?P<subject>(?:the |this |that |her |his |their |my )?[a-z' ]+?))?")
# "the colours are off", "the skin tones look unnatural": a cast, which white balance mends
_COLOURS_OFF = re.compile(rf"{_OPENING}(?:the |its |all the )?(?:colou?rs?|skin ?tones?|tones?|white balance)(?: (?:in|of) "
                          rf"(?:it|the (?:photo|picture|image)))? {_COPULA} (?:(?:{_DEGREE}) )*(?:off|wrong|weird|strange|"
                          r"unnatural|odd|funny|not right|not natural)(?: now| still)?")
_NOUNS = {"contrast": ("contrast", -1), "saturation": ("saturation", -1), "color": ("saturation", -1),
          "colors": ("saturation", -1), "warmth": ("warmth", -1), "blur": ("sharpness", 1),
          "light": ("brightness", -1), "brightness": ("brightness", -1), "exposure": ("brightness", -1),
          "sharpening": ("sharpness", -1), "sharpness": ("sharpness", -1)}
# The picture itself, not a part of it
_WHOLE = re.compile(r"(?:it|this|that|everything|(?:the |this |my |that )?(?:whole )?(?:image|picture|photo|"
                    r"pic|shot|photograph|thing|result|edit|lighting|light|exposure|overall look|look|tones?|whites)|the "
                    r"(?:whole|entire) (?:thing|image|picture|photo))")
# The colours themselves: "the colours are too bright" is too saturated, not too light
_COLOURS_SUBJECT = re.compile(r"(?:the |its |all the |all )?colors?(?: (?:of|in) (?P<rest>.+))?")
# The tonal ranges by the names photographers give them
_TONES = re.compile(r"(?:the |its |my )?(whites|white|highlights|lights|blacks|black|shadows|dark areas|darks)")
# Things that are white of their own ("the snow looks grey": too dark, not dull)
_WHITE_THINGS = re.compile(r"(?:the )?(?:snow|clouds?)")
# Where a colour is the part's own: "the sky is too blue" asks for a less saturated sky, not a warmer one
NATURAL_COLOUR = {"sky": "blue", "sea": "blue", "water": "blue", "lake": "blue", "grass": "green",
                  "trees": "green", "tree": "green", "leaves": "green", "plants": "green", "forest": "green",
                  "lawn": "green", "foliage": "green", "greenery": "green"}
_NOT_SUBJECT = re.compile(r"\b(?:what|why|how|is it|are they|do|does|did|can|could|would|should|will|not|n't|never|"
                          r"make|turn|get|want|need|like|wish|keep|leave|if|when|whether|than|because|on purpose|"
                          r"intentional\w*|supposed|meant)\b")


@dataclass(frozen=True)
class Complaint:
    """``subject``: the words of the part the fault is in ("" or "it": the whole picture);
    ``attr`` and ``sign``: the edit that mends it (``attr`` None: a colour cast, which white balance
    mends); ``colour``: the colour complained of ("blue" in "too blue"), if any; ``sure``: said as a
    fault ("too dark", "a bit dark", "blown") rather than maybe as a description ("it is dark");
    ``degree``: "too" or a degree said with it."""

    subject: str
    attr: str | None
    sign: int
    colour: str = ""
    sure: bool = True
    degree: bool = True  # "too" or a degree said ("too blurry", "a bit blurry"), not the bare word

    @property
    def whole(self) -> bool:
        return not self.subject or bool(_WHOLE.fullmatch(self.subject))


def colour_mend(colour: str, subject: str) -> tuple[str | None, int]:
    """The edit that mends "too <colour>": less saturation where the colour is the part's own ("the
    sky is too blue"); warmer for blue, cooler for yellow and orange; elsewhere, in a part, less
    saturation ("the face is too red"); over the whole picture, a colour cast (``None``)."""
    own = NATURAL_COLOUR.get(subject.split()[-1] if subject else "", "")
    if own and own == colour.replace("skyblue", "blue"):
        return "saturation", -1
    if colour in ("blue", "skyblue"):
        return "warmth", 1
    if colour in ("yellow", "orange"):
        return "warmth", -1
    return (None, -1) if not subject or _WHOLE.fullmatch(subject) else ("saturation", -1)


def complaint(clause: str) -> Complaint | None:
    """The fault ``clause`` states, or None when it states none (or asks, or wants).

    >>> complaint("the sky is too blue")
    Complaint(subject='the sky', attr='saturation', sign=-1, colour='blue', sure=True, degree=True)
    >>> complaint("it's a bit dark").attr, complaint("it's a bit dark").sign, complaint("the photo feels cold").sign
    ('brightness', 1, 1)
    >>> complaint("the photo is dark").sure, complaint("too much red in the sky").subject
    (False, 'the sky')
    >>> complaint("make it darker") is None, complaint("is it too dark") is None
    (True, True)
    """
    c = clause.strip(" .!?,")
    if _COLOURS_OFF.fullmatch(c):
        return Complaint("", None, -1)
    m = _TOO_MUCH.fullmatch(c)
    if m:
        subject = (m.group("subject") or "").strip()
        word = m.group("quality")
        if word in _NOUNS:
            attr, sign = _NOUNS[word]
            return Complaint(subject, attr, sign)
        colour = COLOUR_WORD[word]
        attr, sign = colour_mend(colour, subject)
        return Complaint(subject, attr, sign, colour)
    m = _SAID.fullmatch(c)
    if not m:
        return None
    subject = (m.group("subject") or "").strip()
    if _NOT_SUBJECT.search(subject) or len(subject.split()) > 6:
        return None  # "why is it dark", "I want it to look less flat"
    if not subject and not m.group("too"):
        return None  # "dark", "a bit flat": a bare word, which the other rules read
    word = m.group("quality")
    # "looks dark", "feels cold": said of how it comes across, a fault; "the photo is dark" may describe it
    degree = bool(m.group("too") or m.group("degree").strip())
    sure = bool(degree or re.match(r"(?:looks?|seems?|feels?|appears?)\b",
                                                                       m.group("copula") or ""))
    if word in COLOUR_WORD:
        if not degree:
            return None  # "the sky is blue", "the car looks red": what it is, not what is wrong
        colour = COLOUR_WORD[word]
        subject = "" if re.fullmatch(r"(?:the )?snow", subject) else subject  # (snow shows the photo's cast)
        attr, sign = colour_mend(colour, subject)
        return Complaint(subject, attr, sign, colour, sure, degree)
    tone = _TONES.fullmatch(subject)
    if tone and re.fullmatch(r"gr[ae]y|washed[- ]out|faded|flat|dull|pale|muddy", word):
        # "the whites look grey": lighter highlights; "the blacks are too grey": deeper shadows (it
        # raised the saturation)
        dark = tone.group(1) in ("blacks", "black", "shadows", "dark areas", "darks")
        return Complaint("the shadows" if dark else "the highlights", "brightness", -1 if dark else 1, "",
                         True, degree)
    if _WHITE_THINGS.fullmatch(subject) and re.fullmatch(r"gr[ae]y|dull|muddy|dingy|dirty", word):
        # "the snow looks grey" (Picos de Europa) was read as dull colours, "make this more colourful": a white
        # thing looks grey when it is too dark; snow grey all over is an underexposed photo (as a meter makes it)
        return Complaint("" if subject.endswith("snow") else subject, "brightness", 1, "", True, degree)
    for pattern, attr, sign, fault in _QUALITIES:
        if re.fullmatch(pattern, word):
            colours = _COLOURS_SUBJECT.fullmatch(subject)
            if colours and (attr == "brightness" and sign < 0 or attr == "contrast"):
                attr = "saturation"  # "the colours are too bright": too vivid, not too light; "lifeless": dull
            if colours:
                subject = colours.group("rest") or ""
            return Complaint(subject, attr, sign, "", sure or fault, degree)
    return None
