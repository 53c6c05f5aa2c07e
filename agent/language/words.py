"""The words of real requests: politeness to strip, amounts, directions, what each kind of edit is
called, colours, where one request ends and the next begins, and which words a command's kind needs.

:mod:`agent.language.reader` reads requests with these; nothing here decides what to run.
"""

from __future__ import annotations

import math
import re

from agent.grammar import lexicon
from agent.grammar.commands import Command, command_type
from agent.grammar.lexicon import COLOUR_WORD, DEFAULT_AMOUNTS, word_pattern
from agent.perception.wordnet import said_of  # (WordNet's index only: "the cute dog" is the dog)
from editor.colors import COLORS

POLITE = re.compile(
    r"^(?:(?:hi|hello|hey)(?: guys| there| all| everyone)?[,!.]?\s+)?(?:(?:please|pls|plz|kindly)[,]?\s+)?"
    r"(?:(?:can|could|would|will) (?:you|someone|somebody|anyone|anybody)(?: please| kindly)?\s+"
    r"|i(?:'d| would) (?:like|love) (?:you |someone |somebody )?to\s+|i want (?:you |someone )?to\s+"
    r"|i need (?:you |someone )?to\s+|is it possible to\s+|help me\s+|try to\s+|let's\s+|let us\s+"
    r"|(?:please|pls)\s+|just\s+|also\s+)*"
)
TRAILING = re.compile(r"[\s,.!?]*(?:(?:please|pls|thanks|thank you|thx|for me|if possible|thanks in advance|"
                       r"many thanks|now)[\s,.!?]*)*$")
SMALL = re.compile(word_pattern(lexicon.SMALL, lexicon.SMALL_PHRASES))
LARGE = re.compile(word_pattern(lexicon.LARGE, lexicon.LARGE_PHRASES))
UP = re.compile(r"\b(?:increase[sd]?|increasing|more|raise|boost|higher|add|enhance|improve|stronger|intensify|"
                 r"up|pump|bump|extra|heighten|amplify|deepen|maximi[sz]e|richer|bolder)\b")
DOWN = re.compile(r"\b(?:decrease[sd]?|decreasing|reduce[sd]?|reducing|less|lower|tone down|drop|cut|"
                   r"minimi[sz]e|weaker|fewer|down|lessen|soften|diminish|tone it down|too much|too strong|"
                   r"too high|over)\b")
# A number as people type it, exponent included: "1e309" is one number (too large), not a 1.
NUMBER = re.compile(r"(?<![\w.])([+-]?(?:\d+(?:\.\d+)?|\.\d+)(?:e[+-]?\d+)?)\s*(%|percent|per cent|points?|degrees?|°)?")

COLOUR_WORDS = frozenset(COLORS) | {"grey", "gray", "black", "white"}  # colour names a part or a thing may carry
# Nouns that mean the whole picture; any other noun after a determiner names a part of it.
WHOLE = {
    "image", "picture", "photo", "photograph", "pic", "shot", "it", "whole", "everything", "overall",
    "entire", "all", "scene", "frame", "this", "one", "thing", "file", "colors", "colours", "color",
    "colour", "tone", "tones", "lighting", "light", "exposure", "brightness", "contrast", "saturation",
    "sharpness", "hue", "hues", "warmth", "temperature", "quality", "look", "details", "detail", "bit",
    "lot", "little", "way", "focus", "clarity", "definition", "levels", "shadows", "highlights", "vibrance",
    "intensity", "filter", "tint", "cast", "balance", "white", "amount", "effect", "same", "rest", "edges",
    "lights", "darks", "blacks", "whites", "version", "result", "original", "left", "right", "top", "bottom",
    "lightness", "darkness", "blurriness", "blur", "general", "possible", "most", "best", "vibrancy", "mood",
    "atmosphere", "feel", "feeling", "vibe", "camera", "lens", "end", "other",
    # the place the photo shows, all of it (Wine's room: "brighten the room a bit" was "I can't find the room")
    "room", "landscape", "scenery", "view", "interior", "setting", "kitchen", "bedroom", "living", "office",
} | COLOUR_WORDS
DETERMINER = re.compile(r"\b(?:the|his|her|their|my|its|our|your|this|that|these|those)\s+([a-z]+)(?:\s+([a-z]+))?")


def clean_text(text: str) -> str:
    t = text.lower().strip()
    t = t.replace("’", "'").replace("colour", "color").replace("grey", "gray")
    t = re.sub(r"\bb\s*[&/]\s*w\b|\bblack\s*,?\s*(?:&|and|n|-)\s*white\b|\bwhite\s*(?:&|and|n|-)\s*black\b",
               "black_and_white", t)
    t = re.sub(r"\bphoto shop", "photoshop", t)
    t = re.sub(r"\b(?:un|de)[- ]?blur(?:r?ed|r?y)?\b", "sharpen", t)  # "unblur it", "de-blur this"
    # "the background sky needs to be purple" (GIER) is the sky: it replaced the whole background
    # with plain purple; "the sky background" too
    t = re.sub(r"\b(?:background|backdrop) (skies|sky)\b|\b(skies|sky) (?:background|backdrop)\b", r"\1\2", t)
    t = re.sub(r"\s+", " ", t)
    return t


# ("crop it so the giraffes are centred" says how to crop: the crop_rules' centring reads it)
PURPOSE = re.compile(r"(?<!except)(?<!like)(?<!love)\s+(?:so(?! (?:that )?(?:the|my) [a-z ]+? (?:is |are )?(?:cent|in the "
                     r"(?:middle|cent)))(?: that)? (?:you|we|i|it|they|he|she|the)|in order to|because|since(?! (?:(?:the (?:original|start|beginning|first|last)|then|my first)(?: (?:version|photo|picture|image|one|edit))?|(?:i|we|you) (?:opened|started|began|loaded)\b.*)\W*$)|as it|as they|"
                      r"(?:enough )?to (?:see|show|reveal|bring out)|for (?:my|our|a|the) )\b.*$")


def strip_polite(clause: str) -> str:
    c = PURPOSE.sub("", clause.strip(" ,.;!"))
    c = POLITE.sub("", c)
    c = re.sub(r"^(?:and|then|also|plus|but|so|and then|and also|after that|next|no|nah|naah|nope|hmm|well|ok|"
               r"okay|oh)\b[\s,]*", "", c)
    c = POLITE.sub("", c)
    return TRAILING.sub("", c).strip()


# "very little", "a tiny bit": small, whatever "very" says elsewhere
VERY_SMALL = re.compile(r"\bvery (?:little|slight(?:ly)?|small|subtle|subtly|light(?:ly)?|mild(?:ly)?|bit|gently|minor)\b|"
                        r"\btin(?:y|iest)\b|\bhint of\b|\bbarely\b|\bjust a touch\b|\bminimal(?:ly)?\b")


_THING_SIZE = re.compile(r"\b(?:the|a|an|this|that|these|those|my|his|her|their|its|your)\s+(?:very\s+)?"
                         r"(?:small(?:er|est)?|little|tiny|tinier|tiniest|big(?:ger|gest)?|large(?:r|st)?|huge)\s+([a-z]+)")


def size_of(clause: str) -> str:
    """"small", "large" or "normal": how much the size words of ``clause`` ask for; a size that says
    which thing ("make the small giraffe brighter", "the big dog") is not how much.

    >>> size_of("make the small giraffe brighter"), size_of("make it a little brighter"), size_of("brighten the dog a lot")
    ('normal', 'small', 'large')
    """
    from agent.perception.things import thing_words  # loads no model

    things = thing_words()
    clause = _THING_SIZE.sub(lambda m: m.group(0) if m.group(1) not in things else f"the {m.group(1)}", clause)
    if VERY_SMALL.search(clause):
        return "small"
    if LARGE.search(re.sub(r"\b(?:too|so) much\b", "too", clause)):  # "a little too much": a little
        return "large"
    if SMALL.search(clause):
        return "small"
    return "normal"


def unusable_number(clause: str) -> str | None:
    """The first number of ``clause`` that is not finite once read ("1e309", "inf"), else None.

    >>> unusable_number("make it 1e309 percent brighter")
    '1e309'
    >>> unusable_number("make it 20 percent brighter") is None
    True
    """
    if re.search(r"\b(?:inf|infinity|infinite|nan)\b", clause):
        return re.search(r"\b(?:inf|infinity|infinite|nan)\b", clause).group(0)
    for m in NUMBER.finditer(clause):
        if not math.isfinite(float(m.group(1))):
            return m.group(1)
    return None


def explicit_number(clause: str, unit: str | None = None) -> float | None:
    for m in NUMBER.finditer(clause):
        if unit == "degrees" and m.group(2) and not m.group(2).startswith(("degree", "°")):
            continue
        if unit == "percent" and m.group(2) and m.group(2).startswith(("degree", "°")):
            continue
        return float(m.group(1))
    return None


POSITIONS = {"left", "right", "top", "bottom", "middle", "front", "back", "first", "second", "third", "fourth",
             "fifth", "last", "big", "small", "little", "other", "upper", "lower"}


def local_part(clause: str, own_words: set[str], nouns: frozenset[str] = frozenset()) -> str | None:
    """The part of the picture a clause names ("the sky" in "brighten the sky"), if any; a colour
    before one of ``nouns`` says which ("her pink clothes": the clothes)."""
    clause = re.sub(r"\b(the|his|her|their|my|its|our|your|this|that|these|those) (?:\w+ly )+", r"\1 ", clause)  # adverbs
    for m in DETERMINER.finditer(clause):
        if m.group(2) in WHOLE and m.group(2) not in COLOUR_WORDS and m.group(1) not in POSITIONS:
            continue  # "the overexposed image", "the whole photo": the picture itself ("the shirt red": the shirt)
        for word in (m.group(1), m.group(2)):
            if word is None:
                continue
            if word in POSITIONS and m.group(2) and word == m.group(1):
                continue  # "the left cat": the thing is the next word
            if word == m.group(1) and word in COLOUR_WORDS and m.group(2) in nouns:
                continue  # "her pink clothes": the clothes (they were the whole picture, brightened)
            if word == m.group(1) and m.group(2) and said_of(word, m.group(2)):
                continue  # "this groovy motorhome": the motorhome (it was "I can't find the groovy")
            if word in WHOLE or word in own_words or word.rstrip("s") in WHOLE:
                break  # "the image", "the brightness of ...": the whole picture so far
            if word in {"a", "an", "of", "and", "to", "into", "in", "by", "more", "less", "up", "down", "the", "above",
                        "first", "previous", "current", "last", "new", "next", "same", "present", "given",
                        "edited", "final", "selected", "complete", "full"}:
                break
            return word
    m = re.search(r"\b(?:on|in|at|around) the (left|right|top|bottom|middle|center|centre|corner|edges?)\b", clause)
    if m and not re.search(r"\b(?:rotate|turn|crop|flip)\b", clause):
        return m.group(1)
    return None


# --- clause splitting -------------------------------------------------------------------------

SPLIT = re.compile(r"\s*(?:[;!]|\.(?!\d)|,|\band then\b|\band also\b|\bthen\b|\bplus\b|\band\b|\balso\b|"
                    r"\bas well as\b|\bafter that\b)\s*")
# A clause starting with one of these is a request of its own; any other is the previous one's
# continuation ("remove the cat and the dog" is one removal, "increase contrast and brightness" two).
STARTS = re.compile(
    r"^(?:make|increase|decrease|add|remove|rotate|turn|crop|flip|mirror|sharpen|blur|brighten|darken|lighten|"
    r"boost|bump|reduce|raise|lower|lessen|whiten|change|convert|fix|enhance|improve|delete|erase|get rid|take|cut|isolate|put|set|"
    r"replace|zoom|straighten|give|adjust|tone|warm|cool|desaturate|saturate|undo|redo|search|find|show|"
    r"describe|explain|what|where|how|why|is|are|can|could|would|please|soften|correct|balance|clean|clear|"
    r"color|colorize|tint|bring|set|apply|paint|fill|black_and_white|restore|swap|move|resize|enlarge|"
    r"eliminate|cutout|extract|keep|leave|let|try|go|revert|i|it's|it is|this|the (?:image|picture|photo)|use|edit|"
    r"do not|don't|never|too|more|less|a bit|slightly|also|maybe|then|just|blurry|sharper|brighter|darker|lighter|warmer|cooler)\b"
)


# "... and the forest greener", "... and the sky purple": a part and the colour it should get (more
# of), the verb left out (it was glued to the clause before: "make the sky darker and the forest
# greener" tinted the sky green). A part, not a verb: "lessen the orange" is a clause of its own
_PART_TINTED = re.compile(r"(?:(?:the|its|his|her|their|my) [a-z]+(?: [a-z]+)?|sky|clouds|forest|grass|trees|plants|"
                          r"lawn|leaves|water|sea|background|foreground) (?:(?:a bit|a little|much|way|"
                          r"slightly|a lot) )?(?:greener|bluer|redder|yellower|pinker|purpler|oranger|browner|"
                          r"(?:more |less )?(?:green|blue|red|yellow|pink|purple|orange))")


def split_clauses(text: str) -> list[str]:
    """The requests one utterance makes, in order.

    >>> split_clauses("brighten it a bit and add some contrast")
    ['brighten it a bit', 'add some contrast']
    >>> split_clauses("remove the cat and the dog")
    ['remove the cat and the dog']
    >>> split_clauses("make the sky darker and the forest greener")
    ['make the sky darker', 'the forest greener']
    """
    parts = [p for p in SPLIT.split(text) if p and p.strip()]
    seps = [m.group(0) for m in SPLIT.finditer(text)]
    clauses: list[str] = []
    for i, part in enumerate(parts):
        part = part.strip()
        glue = seps[i - 1].strip() if 0 < i <= len(seps) else ""
        if clauses and not STARTS.match(strip_polite(part)) and not attribute_words(part) \
                and not _PART_TINTED.fullmatch(strip_polite(part)):
            clauses[-1] = f"{clauses[-1]} {glue or 'and'} {part}".replace(" , ", ", ")
        else:
            clauses.append(part)
    return clauses


# --- what each kind of edit is called ---------------------------------------------------------

ATTR_PATTERNS: dict[str, tuple[str, str, str]] = {
    # attr: (words that name it, words that raise it, words that lower it)
    "brightness": (
        r"bright|brightness|light(?:en|er)?(?!ing)|dark(?:en|er|ness)?|dim(?:mer)?|exposure|(?:over|under)?-?exposed|expose|"
        r"gloomy|shadows|highlights|mid-?tones",
        r"brighten|brighter|bright\b|lighten|lighter|light up|too dark|underexposed|under-exposed|more light|"
        r"dark(?:er)? shadows|lift the shadows|brightness up",
        r"darken|darker|dim|dimmer|too bright|overexposed|over-exposed|blown out|less bright|too light|"
        r"less light|brightness down|deepen|deeper|crush|recover|tame|tone down|dark\b",
    ),
    "contrast": (r"contrast|punch(?:y|ier)?|pop|stand(?:s|ing)? out|blend(?:s|ing)? in less|dramatic|drama",
                 r"punch|pop|stand(?:s|ing)? out|blend(?:s|ing)? in less|more contrast|dramatic|drama",
                 r"less contrast|too much contrast|flat"),
    "saturation": (
        r"saturat\w*|vibran\w*|vivid|colorful|color intensity|intensity of (?:the )?colors?|muted|dull|"
        r"washed[- ]out|colors? (?:\w+ )?(?:pop|stand out)|richer colors?|enhance (?:the )?colors?|more colors?|boost (?:the )?colors?|"
        r"add (?:some |more )?colors?|(?:increase|boost|intensify|brighten) (?:the )?colors?|desaturat\w*|mute\w*|"
        r"tone down (?:the )?colors?|colors? (?:are|is) too (?:strong|intense|bright|vivid)|"
        r"soft(?:en|er)? (?:the |all |its )?colors?|colors? soft(?:er)?|colors? (?:less|more) (?:intense|strong)",
        r"saturate|vibrant|vivid|colorful|richer|pop|more colors?|enhance (?:the )?colors?|boost (?:the )?colors?|"
        r"add (?:some |more )?colors?|washed[- ]out|(?:increase|boost|intensify|brighten) (?:the )?colors?|"
        r"(?:too|so|very|rather|quite|looks?|are|is|seems?) (?:\w+ )?(?:dull|muted)",  # "it looks too dull": raise
        r"desaturat\w*|mute\w*|dull|less colorful|too saturated|oversaturated|over-saturated|too colorful|less colors?|"
        r"tone down (?:the )?colors?|colors? (?:are|is) too (?!dull|muted|flat|pale|weak|faded)|"
        r"soft(?:en|er)? (?:the |all |its )?colors?|colors? soft(?:er)?|colors? less (?:intense|strong)",
    ),
    "sharpness": (
        r"sharp\w*|crisp\w*|clarity|clear(?:er)?|defin(?:e|ed|ition)\b|detail\w*|focus\w*|blur\w*|soft(?:en|er)?|smooth\w*|"
        r"fuzzy|hazy",
        r"sharpen|sharper|crisp|clarity|clearer|clear|defin(?:e|ed|ition)\b|detail|in focus|focus|fuzzy|blurr?y|hazy|less blur",
        r"blur(?!r?y)|soft|soften|softer|smooth|dreamy|out of focus|less sharp|too sharp|make (?:it |the \w+ )?"
        r"(?:(?!less\b)\w+ ){0,3}blurr?(?:y|ier)",
    ),
    "warmth": (
        r"warm\w*|cooler|cooling|cool (?:it|down|the (?:colou?rs|tones?|image|picture|photo))|cool tones?|(?:less|not so|too) cool|"
        r"cold(?:er)?|temperature",
        r"warm|too cold|too cool|too blue",
        r"cool|cold|too warm|too yellow|too orange",
    ),
}


def attribute_words(clause: str) -> list[str]:
    c = clean_text(clause)
    return [a for a, (name, _, _) in ATTR_PATTERNS.items() if re.search(rf"\b(?:{name})", c)]


VERB_UP = re.compile(r"\b(?:increase|raise|boost|add|enhance|intensify|heighten|amplify|pump up|bump up|turn up|up)\b")
VERB_DOWN = re.compile(r"\b(?:decrease|reduce|lower|tone down|cut|drop|minimi[sz]e|lessen|diminish|turn down|"
                        r"take down|bring down)\b")


# The nouns that name an attribute itself, not one of its ends ("the contrast", not "the darkness")
_OWN_NOUN = {"brightness": "brightness|exposure", "contrast": "contrast", "saturation": "saturation|vibrance",
             "warmth": "warmth", "sharpness": "sharpness|sharpening"}


def direction_of(clause: str, attr: str) -> int:
    """+1 to raise ``attr``, -1 to lower it.

    The words of the attribute itself decide ("darker", "too dark", "more muted"), the earliest
    first ("too cold" before "cold"; "less warm" is cooler), unless a verb comes before them
    ("reduce the warmth").
    """
    _, up, down = ATTR_PATTERNS[attr]
    if attr in _OWN_NOUN and re.search(rf"\b(?:remove|take away|get rid of|take out)\s+(?:the |some |all (?:of )?"
                                       rf"(?:the )?|any |that )?(?:{_OWN_NOUN[attr]})\b", clause):
        return -1  # "remove the contrast", "take away the saturation" raised it ("remove the darkness" brightens)
    found = [(m.start(), -sign if re.search(r"\b(?:less|not so|not as|not that) $", clause[max(0, m.start() - 12):m.start()])
              else sign)
             for sign, pattern in ((1, up), (-1, down)) for m in re.finditer(rf"\b(?:{pattern})", clause)]
    verbs = [(m.start(), sign) for sign, pattern in ((1, VERB_UP), (-1, VERB_DOWN)) for m in pattern.finditer(clause)]
    if verbs and (not found or min(verbs)[0] < min(found)[0]):
        return min(verbs)[1]
    if found:
        return min(found)[1]
    return -1 if DOWN.search(clause) else 1


def amount_of(clause: str, attr: str, unit: str = "percent") -> float:
    n = explicit_number(clause, unit)
    if n is not None and abs(n) > 0:
        return min(abs(n), 100.0)
    small, normal, large = DEFAULT_AMOUNTS[attr]
    return {"small": small, "normal": normal, "large": large}[size_of(clause)]


COLOR_RE = "|".join(sorted((re.escape(w) for w in COLOUR_WORD), key=len, reverse=True))
HUE = {"red": 0, "orange": 30, "yellow": 60, "green": 120, "skyblue": 197, "blue": 240, "purple": 285,
        "pink": 330, "brown": 10}


def has_evidence(command: Command, clause: str, *, photo_open: bool = False) -> bool:
    """Whether the words of ``clause`` could ask for ``command``'s kind at all.

    The learned model is kept only where they could: "sharpen it" read as a search, or "tell me a joke"
    read as a rotation, is dropped. With a photo open, a search (which replaces it with another photo)
    needs words that ask for one ("find", "show me", "a picture of"); a tint needs its colour named
    or a colour referred to ("the colour of the jacket"). Keyed by command type: a type not listed
    here is refused, whatever it is.
    """
    c = clean_text(clause)
    kind = command_type(command)
    if kind == "adjust_color" and not re.search(rf"\b{command.color}|\b(?:same|like|match\w*|of the|that|color of|"
                                                rf"in-?lin\w*|similar|again|by)\b", c):
        names = {w for w, colour in COLOUR_WORD.items() if colour == command.color}
        if not any(re.search(rf"\b{re.escape(w)}", c) for w in names):
            return False
    strict_search = (r"find|search|look(?:ing)? for|show me|(?:picture|photo|image|pic|photograph)s? (?:of|with|where|"
                     r"that)|another (?:one|picture|photo|image)|get me|do you have|something (?:with|like)")
    patterns = {
        # "make the car white" is not black and white: the model's grayscale needs words for it
        "grayscale": r"black_and_white|gr[ae]y|monochrom\w*|mono|noir|colou?rless|desaturat\w*|no colou?rs?|sepia|"
                     r"remove (?:the |all )?colou?rs?|without colou?rs?",
        "search": strict_search if photo_open else
                  strict_search + r"|picture|photo|image|pic|want|need|see|another|other|one (?:with|of|where)|"
                                  r"some|any|an? \w+",
        "rotate": r"rotat|turn|spin|degree|clockwise|upside|sideways|tilt|orientation|left|right|\d",
        "adjust_color": rf"color|tint|tone|hue|shade|filter|{COLOR_RE}|warm|cool|same|like|match|that|again",
        "image_cutout": r"cut|background|subject|isolate|extract|only|just|segment|alone|object|foreground",
        "crop": r"crop|trim|cut|zoom|frame|\d",
        "flip": r"flip|mirror|reverse|upside|horizontal|vertical",
        "undo": r"undo|back|revert|previous|cancel|before|last|original",
        "redo": r"redo|again|back|forward",
        "explain": r"change|differ|compare|what|where|how|anything|which|why|original",
        "describe": r"describe|caption|what|see|tell|about|who|where|show",
        # once missing, so any reading of these kinds ran: "tell me a joke" read as `background white` would
        "remove": r"remov|eras|delet|rid|take (?:\w+ )*(?:out|away|off)|out$|disappear|vanish|go away|hide|without|"
                  r"no |clean|clear|photobomb",
        "background": r"background|backdrop|behind|bokeh|transparent|surround|the rest|everything (?:else|but|except)",
        "auto_enhance": r"enhanc|improv|better|fix|correct|balanc|auto|expos|light|quality|nicer|good|pop|"
                        r"professional|touch ?up|tone|colou?r",
        "hue": r"hues?|colou?rs?|shift|swap|into|invert",
    }
    if kind in ATTR_PATTERNS:
        name = ATTR_PATTERNS[kind][0]
        return bool(re.search(rf"\b(?:{name})", c) or re.search(r"\b(?:more|less|again|same|even|further|"
                                                                   r"bit|little|lot|another|too|increas\w*|decreas\w*|"
                                                                   r"reduc\w*|rais\w*|lower\w*|boost\w*)\b", c))
    pattern = patterns.get(kind)
    return pattern is not None and bool(re.search(rf"\b(?:{pattern})", c))  # a kind not listed has no evidence


