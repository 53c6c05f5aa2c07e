"""The request reader's rules for light and colour: a fault said of the picture ("the sky is too blue",
"it's a bit dark"), a swap of hues ("turn the reds into blue"), a tint ("make it bluer", "remove the
blue cast"), the attributes (brightness, contrast, saturation, sharpness, warmth: "brighten the sky a
bit", "lift the shadows"), a hue shift by degrees and the automatic enhance. Each reads one clause
(cleaned and stripped of politeness, as :func:`agent.language.rules.read_clause` gives it) into
commands, None when the clause is not of its kind, or raises :class:`agent.language.rule_base.Refusal`;
their order and examples are in :data:`agent.language.rules.RULES`.
"""

from __future__ import annotations

import re

from agent.grammar.commands import AdjustAttr, AdjustColor, AutoEnhance, Grayscale
from agent.grammar.lexicon import COLOUR_WORD, DEFAULT_AMOUNTS
from agent.language.complaints import NATURAL_COLOUR, colour_mend, complaint
from agent.language.rule_base import TONAL_LIFT, Refusal, RuleResult, detectable, region_or_ask
from agent.language.scope import PARTS, Unfindable, region_of
from agent.language.words import (
    ATTR_PATTERNS,
    COLOR_RE,
    DOWN,
    HUE,
    VERB_DOWN,
    VERB_UP,
    amount_of,
    attribute_words,
    direction_of,
    explicit_number,
    size_of,
)
from agent.perception.wordnet import compound_noun

# The edit that mends a fault, as a person would ask for it on a part they point at
_MEND = {("brightness", 1): "brighten this", ("brightness", -1): "darken this",
         ("contrast", 1): "more contrast here", ("contrast", -1): "less contrast here",
         ("saturation", 1): "make this more colourful", ("saturation", -1): "make this less colourful",
         ("sharpness", 1): "sharpen this", ("sharpness", -1): "soften this",
         ("warmth", 1): "make this warmer", ("warmth", -1): "make this cooler"}


def said_fault(c: str) -> RuleResult:
    """'the sky is too blue' -> adjust_attr saturation -30 in sky; 'it's a bit dark' -> brightness 10;
    'the highlights are blown' -> brightness -25 in highlights; 'the photo is dark': proposed, not run
    (:mod:`agent.language.complaints` reads the fault; the mend is its opposite, where it was said)."""
    said = complaint(c)
    if said is None:
        return None
    if said.attr is None:
        return [AutoEnhance()]  # "the photo is too red": a colour cast over the whole picture
    if said.attr == "sharpness" and said.sign > 0 and not said.degree \
            and re.search(r"\b(?:background|backdrop|bg)\b", said.subject):
        return None  # "the background is blurry" may be wanted so: the background rule asks which way
    region = "" if said.whole else region_or_ask(said.subject, example=_MEND[said.attr, said.sign])
    amount = amount_of(c, said.attr)
    if region in ("shadows", "highlights", "midtones") and said.attr == "brightness" and size_of(c) == "normal" \
            and explicit_number(c, "percent") is None:
        amount = TONAL_LIFT  # "the shadows are too dark": as "lift the shadows"
    command = AdjustAttr(said.attr, said.sign * amount, region=region)
    if not said.sure:
        raise Refusal(f"I can mend that: should I do “{command.label()}”? Say yes and I will.",
                      proposal=[command], asks=True)
    return [command]


def hue_swap(c: str) -> RuleResult:
    """'turn the reds into blue' -> adjust_attr hue -120 (every hue turns by the same angle)."""
    m = re.search(rf"\b(?:turn|change|make|convert|swap|shift|replace)\s+(?:all\s+)?(?:of\s+)?(?:the\s+)?(?:\w+\s+)?"
                  rf"({COLOR_RE})(?:s)?\s*(?:colou?rs?|parts?|tones?|areas?|things?)?\s+(?:in (?:the|this) "
                  rf"(?:image|picture|photo)\s+)?(?:(?:in)?to|with|for)\s+(?:a\s+)?(?:\w+\s+)?({COLOR_RE})\b", c)
    if not m:
        return None
    a, b = COLOUR_WORD[m.group(1)], COLOUR_WORD[m.group(2)]
    delta = (HUE[b] - HUE[a] + 180) % 360 - 180
    if delta == 0:
        return None
    return [AdjustAttr("hue", float(delta))]


# "make it less yellow", "make the grass a lot less green", "reduce the yellow in the sky": less of a colour
# named as such (not "the blue cast", "the blue tint": a cast, which white balance mends)
_LESS_COLOUR = re.compile(rf"\b(?:less|lessen|reduce|decrease|lower|tone down|minimi[sz]e|get rid of|remove)\b(?: (?:of )?(?:the|some|a (?:bit|little|lot) of))?"
                          rf" ({COLOR_RE})(?:ness)?\b(?! (?:colou?r\w*|tones?|tint|cast|hue|filter)\b)")


def _less_colour(c: str) -> RuleResult:
    """'make the grass a lot less green' -> adjust_attr saturation -60 in greenery (green is the
    grass's own colour, so: less of it); 'make it less yellow' -> warmth -25; 'make the sky less
    yellow' -> warmth -25 in sky: the mend of "too <colour>" (:func:`colour_mend`), where it was said.
    None over the whole picture for a colour warmth cannot take away ("less green": a cast, which white
    balance mends) and for words that are not of this kind. They all ran the whole picture's
    automatic enhance, which can add the colour (on the horses it took b* from -5.5 to -3.1, yellower)."""
    m = _LESS_COLOUR.search(c)
    if not m or re.search(r"\b(?:more|add|into|to)\b", c[m.end():]):
        return None  # "less blue and more green": two changes, which the model reads
    colour = COLOUR_WORD[m.group(1)]
    said = c[:m.start(1)] + "color" + c[m.end():]  # "remove the yellowness from the image": no part named "from"
    own = {"color", "colors", "tone", "tint"}
    try:
        region = region_of(said, own) or ""
    except Unfindable as exc:
        if exc.part not in PARTS:
            return None  # "reduce the purple note": not a part of the picture, the cast as before
        region = region_or_ask(c, own | {m.group(1), m.group(1) + "ness"})  # "make the water less green": asks
    noun = next((w for w in re.findall(r"[a-z]+", c) if w in NATURAL_COLOUR), "")
    attr, sign = colour_mend(colour, noun or region)
    if attr is None:
        return None
    return [AdjustAttr(attr, sign * amount_of(c, attr), region=region)]


def tint(c: str) -> RuleResult:
    """'add a yellow tone' -> adjust_color yellow 0.2; 'make it bluer' -> adjust_color blue 0.2;
    'remove the blue tint', 'fix the colours' -> auto_enhance (white balance)."""
    less = _less_colour(c)
    if less is not None:
        return less
    if re.search(r"\b(?:remove|reduce|decrease|lower|tone down|minimi[sz]e|fix|correct|neutrali[sz]e|get rid of|"
                 rf"less|too)\b.*\b(?:(?:tint|tone|ton|cast|hue)s?|redness|yellowness|blueness|greenness|(?:{COLOR_RE})(?: colou?r\w*| tones?| tint| cast)?)\b|\bwhite balance\b|\bcolor correct\w*|\bnatural colors?\b|\bfix (?:the )?colors?\b|"
                 rf"\btoo ({COLOR_RE})\b", c):
        return [AutoEnhance()]
    m = None
    for m in re.finditer(rf"\b({COLOR_RE})\b", c):
        thing = re.match(r"\s+([a-z]+)", c[m.end():])
        if not (thing and thing.group(1) != "light" and (thing.group(1) in detectable() | PARTS
                                                         or compound_noun(m.group(1), thing.group(1)))):
            break  # ("make the red car blue": blue; it was refused, and the model read "red" in the car)
        m = None  # "the reddish car", "the man in the blue shirt": a colour that says which thing ("brighten the
        # golden retriever" tinted it orange)
    if not m:
        return None
    colour = COLOUR_WORD[m.group(1)]
    if re.search(r"\b(?:with|against|from|than|like|beside|near|next to)\s+(?:the |a |an |its |their )?$", c[:m.start()]) \
            and not re.match(r"\s+(?:tones?|tint|cast|filter|hue|glow|look|feel|wash|overlay|shade|effect)\b", c[m.end():]):
        return None  # "contrast more with the red rocks": the colour of another thing ("with a sepia tone" is a tint)
    region = region_or_ask(c, {"color", "colors", "tone", "tint"})
    if region:  # "make the dog's fur more orange", "I'd like the sky to be bluer": only there
        small, normal, large = DEFAULT_AMOUNTS["tint"]
        return [AdjustColor(colour, {"small": small, "normal": normal, "large": large}[size_of(c)], region=region)]
    if re.fullmatch(rf"(?:make|turn|change|color) (?:it |this |all |everything |the (?:whole )?(?:image|picture|photo) )?"
                    rf"(?:more |a bit |slightly |to |into )?(?:a )?({COLOR_RE})(?: colou?r| and white)?", c):
        return [AdjustColor(colour, DEFAULT_AMOUNTS["tint"][1])]
    raised = re.search(r"\b(?:increase|raise|boost|bump up|intensify|bring out)\b", c) and not attribute_words(c)
    if not raised and not re.search(r"\b(?:tint|tone|tones|toned|cast|filter|hues?|shade|light|glow|look|feel|"
                                    r"overlay|wash|more|bit|slightly|add|make it|make the (?:image|picture|photo)|"
                                    r"turn it|give it|redder|bluer|greener|yellower|pinker|\w+ish)\b", c):
        return None  # ("raise the yellow hues", "increase the yellow": the colour; "increase saturation of green": not)
    small, normal, large = DEFAULT_AMOUNTS["tint"]
    intensity = {"small": small, "normal": normal, "large": large}[size_of(c)]
    n = explicit_number(c, "percent")
    if n is not None and 0 < n <= 100:
        intensity = n / 100 if n > 1 else n
    return [AdjustColor(colour, round(intensity, 2))]


# whiter than it is, not white ("make the horse white" recolours, which an edit of light cannot do)
_WHITER = re.compile(r"\b(?:whiter|more white|whiten(?:ed)?)\b")
_GREYER = re.compile(r"\b(?:gr[ae]yer|more gr[ae]y)\b")


def whiter(c: str) -> RuleResult:
    """'make the sky whiter' -> adjust_attr saturation -30 in sky, adjust_attr brightness 10 in sky
    (less colour, a little lighter: white is both); 'make the clouds greyer' -> saturation -30 in
    clouds. They were refused ("I don't know how to do that"). "black and white" is the grayscale
    rule's, "the background white" the background rule's, both earlier; "make the horse white" is no
    more or less of anything and is left to the others."""
    white = _WHITER.search(c)
    if (not white and not _GREYER.search(c)) or re.search(r"\bblack (?:and|&) white\b|\bwhite balance\b", c):
        return None
    region = region_or_ask(c, {"white", "whiter", "whiten", "grey", "gray", "greyer", "grayer"},
                           example="make this whiter" if white else "make this greyer")
    commands = [AdjustAttr("saturation", -amount_of(c, "saturation"), region=region)]
    if white:
        commands.append(AdjustAttr("brightness", DEFAULT_AMOUNTS["brightness"][0] * {"small": 0.5, "normal": 1, "large": 2}[
            size_of(c)], region=region))
    return commands


_SOFT_COLOURS = re.compile(r"\bsoft(?:en|er)? (?:the |all |its )?colors?\b|\bcolors? soft(?:er)?\b")
# Blur named as a fault ("fix the blur", "too much out of focus", "it's blurry"), not as an effect to add
_UNBLUR = re.compile(r"\b(?:fix|correct|repair|remove|get rid of|clean up|undo)\b.*\b(?:blur\w*|out of focus|unfocused|"
                     r"fuzz\w*|soft(?:ness)?)\b|\bout of focus\b|\bunfocused\b|\b(?:too|very|quite|so|is|are|looks?|"
                     r"seems?|it's|its) (?:\w+ ){0,3}?(?:blurr?(?:y|ed)|fuzzy)\b")
_MAKE_BLUR = re.compile(r"\b(?:make|put|turn|throw|render|want|like|add|increase|more)\b(?: \w+){0,4} (?:blurr?(?:y|ier|ed)?|"
                        r"out of focus|fuzzy|soft(?:er)?)\b")


_HAZY_PARTS = r"\b(?:sky|skies|clouds?|air|haze|water|sea|lake|river|ocean|pool)\b"


def attributes(c: str) -> RuleResult:
    """'brighten it a bit' -> adjust_attr brightness 10; 'more contrast' -> contrast 20; 'sharpen it' ->
    sharpness 40; 'make it warmer' -> warmth 25; 'increase the saturation' -> saturation 30."""
    c = re.sub(r"^(?:but )?not (?:too|overly) \w+$|(?:,\s*|\s+but\s+)not (?:too|overly|so) \w+\b", "", c)  # a limit:
    # "sharper but not too sharp", "brighter, not too bright" ("make it not so dark" is a request)
    found = attribute_words(c)
    if not found:
        return None
    if "brightness" in found and "saturation" in found and re.search(
            r"\bbright(?:en|er)? (?:up )?(?:the |all )?colors?\b|\bcolors? (?:\w+ )?bright(?:er)?\b", c):
        found.remove("brightness")  # "brighten the colours": more vivid, not a lighter picture
    # "clear" and "detail" name sharpness only when nothing else does ("make the colours clearer").
    if len(found) > 1 and "sharpness" in found and not re.search(r"\bsharp|\bblur|\bcrisp|\bfocus|\bsoft", c):
        found.remove("sharpness")
    if "saturation" in found and "sharpness" in found and _SOFT_COLOURS.search(c):
        found.remove("sharpness")  # "soften colors": gentler colours, not a blur
    if len(found) > 1 and "contrast" in found and re.search(r"\bpop\b|\bstand(?:s|ing)? out\b", c) and "saturation" in found:
        found.remove("contrast")  # "make the colours pop", "... stand out": more vivid
    if len(found) > 1 and "brightness" in found and re.search(rf"\b(?:{COLOR_RE}|the) lights?\b", c) \
            and not re.search(r"\b(?:bright\w*|dark\w*|light(?:en|er)\b|exposure)", c):
        # "more contrast with the red light", "make the light warmer": the light is a thing, not the brightness
        found.remove("brightness")
        if found == ["sharpness"] and re.search(r"\bsoft(?:er|en)?\b", c):
            found = ["contrast"]  # "make the light softer": gentler light, less contrast (not a blur)
            c = re.sub(r"\bsoft(?:er|en)?\b", "less contrast", c)
    attr = found[0]
    if attr == "sharpness" and re.search(r"\bclear(?:er)?\b", c) and re.search(_HAZY_PARTS, c) \
            and not re.search(r"\b(?:sharp\w*|crisp\w*|focus\w*|blur\w*|detail\w*)\b", c):
        # "make the sky clear" was "sharpen the sky": clouds, haze and murky water are not a blur
        raise Refusal("I can't clear clouds, haze or murky water away: sharpening would only add grain. I can make "
                      "it bluer (“make the sky bluer”), darker or brighter, or give it more contrast.")
    # "make the dark areas brighter" was a darkening: the part's words say where, not which way
    # ... and "make the dark sky brighter" darkened it: a quality before a thing's noun says which thing
    said = re.sub(r"\b(?:the )?(?:dark(?:er)?|black|bright(?:er)?|white|light) (?:areas|parts|tones|spots|"
                  r"regions|bits)\b", "", c)
    said = re.sub(r"\b(?:the|this|that|his|her|their|my|its|our|your) (?:dark|bright|dim|black|white|pale)"
                  r" (?=(?!and\b|or\b|enough\b|but\b)[a-z]{3,})", "the ", said)
    sign = direction_of(said, attr)
    n = explicit_number(c, "percent")
    if n is not None and n < 0:
        sign = -1  # "adjust the brightness by -30"
    elif re.search(r"\b(?:darkness|blur\w*|dullness)\b", c) and (VERB_UP.search(c) or VERB_DOWN.search(c)):
        # "increase the darkness", "reduce the blurriness": the noun is the attribute's opposite
        sign = 1 if VERB_DOWN.search(c) and not VERB_UP.search(c) else -1
    elif attr == "sharpness" and _UNBLUR.search(c) and not _MAKE_BLUR.search(c):
        sign = 1  # "fix the blur", "it's a little too much out of focus": a fault to correct, so sharpen
    elif attr == "sharpness" and _MAKE_BLUR.search(c) and not re.search(r"\b(?:less|not|no|don't|never)\b", c):
        sign = -1  # "make it a bit more blurry": a blur wanted
    amount = amount_of(c, attr)
    region = region_or_ask(c, set(re.findall(r"[a-z]+", ATTR_PATTERNS[attr][0])))
    if region in ("shadows", "highlights", "midtones") and attr == "brightness" and size_of(c) == "normal" \
            and explicit_number(c, "percent") is None:
        amount = TONAL_LIFT  # "lift the shadows": the most that keeps the order of tones (editor.masks)
    return [AdjustAttr(attr, sign * amount, region=region)]


def hue(c: str) -> RuleResult:
    """'shift the hue by 30 degrees' -> adjust_attr hue 30."""
    if not re.search(r"\bhues?\b", c) or re.search(rf"\b(?:remove|reduce|fix|correct|get rid of|less|too|{COLOR_RE})\b", c):
        return None  # "remove the yellow hue" is a colour cast, "a blue hue" a tint: the tint rule reads both
    n = explicit_number(c, "degrees")
    if n is None:
        raise Refusal("By how many degrees should I turn the hues? For example 'shift the hue by 30 degrees'.")
    sign = -1 if (DOWN.search(c) or re.search(r"\b(?:minus|backwards?|negative)\b", c)) and n > 0 else 1
    return [AdjustAttr("hue", max(-180.0, min(180.0, sign * n)))]


def enhance(c: str) -> RuleResult:
    """'make it look better', 'fix the lighting', 'enhance the photo' -> auto_enhance."""
    if re.search(r"\d|\b(?:increas|decreas|reduc|rais|lower|boost|turn|rotat|chang|adjust|alter)\w*\b.*\b(?:it|that|"
                 r"this|same)\b|\bif (?:you|we)\b", c):
        return None  # "it will be better if you increase it by 40": a follow-up for the model
    if re.search(r"\b(?:enhance|improve|look (?:better|nicer|good|great)|better quality|nicer|fix|retouch|touch up|"
                 r"touch-up|correct|optimi[sz]e|professional|quality|aesthetic\w*|pleasing|beautify|edit it|polish|"
                 r"pop|clean up|look natural|more natural|brush up|liven|touch (?:it |this |the \w+ )?up|improvements?|processing|appealing|"
                 r"appeti[sz]ing|lighting|adjust(?:ment)? (?:this|the) (?:photo|image|picture)|color adjustment|"
                 r"true colou?rs?|color balance|levels)\b", c):
        try:  # "fix the colours of the sky"; but "fix the slightly underexposed image" is all of it
            region = region_of(c, {"color", "colors", "lighting", "quality", "photo", "levels"}) or ""
        except Unfindable:
            region = ""  # "fix their eyes": a loose reading of the whole picture, as before regions
        return [AutoEnhance(region=region)]
    return None


# Names of a look, and what they are in Easel's edits (GIER's requests that were "Sorry, I don't know
# how to do that")
_LOOKS = [
    (re.compile(r"\bcolou?r ?splash\b"), lambda: [Grayscale(region="background")]),  # the subject alone in colour
    (re.compile(r"\bcolou?r (?:enhancement|boost)\b"), lambda: [AdjustAttr("saturation", 30.0)]),
    (re.compile(r"\b(?:hd|high[- ]definition)\b"), lambda: [AdjustAttr("sharpness", 40.0)]),
    (re.compile(r"\b(?:gr[ae]y(?:er|ish)?) (?:tone|tint|look|filter)\b"), lambda: [AdjustAttr("saturation", -30.0)]),
    (re.compile(r"\bso (?:that )?(?:i|we|he|she|they|you|it|everyone|my \w+|the \w+)(?: (?:am|is|are|can|could|will|would))?"
                r"(?: be)?(?: more)? (?:visible|seen)\b"), lambda: [AutoEnhance()]),
]


def looks(c: str) -> RuleResult:
    """'colour splash' -> grayscale in background; 'color enhancement' -> saturation +30; 'HD this
    image' -> sharpness +40; 'a gray tone' -> saturation -30; 'enhance it so my daughter can be seen'
    -> auto_enhance."""
    for pattern, made in _LOOKS:
        if pattern.search(c):
            return made()
    return None
