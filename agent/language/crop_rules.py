"""Crops said in words (the request reader's ``crop`` rule, :mod:`agent.language.rules`): a shape
("crop it square"), a zoom about the centre ("zoom in a little", "crop it closer", "crop 10% off each
side"), a headshot ("crop to his face"), a thing ("crop to the dog"), four numbers, or a question back
when the words name nothing Easel can crop to ("crop to the dog's face": it cannot find a dog's face).
Split from :mod:`agent.language.rules`."""

from __future__ import annotations

import re

from agent.grammar.commands import MAX_INSET, CommandError, Crop, CropTo, edge_limit
from agent.language.rule_base import Refusal, RuleResult
from agent.language.scope import THING_PARTS

_ZOOM_IN = re.compile(r"\bzoom(?:ed)?(?: in|(?= (?:the|this|my) (?:photo|picture|image|pic)))(?: (?:on |to )?(?:the |this |my )?(?:whole |entire )?(?:photo|picture|image|pic|shot))?"
                      r"(?: (?:a|the) little bit| a (?:little|tiny|wee) bit| a (?:little|bit|touch|tad)| slightly| just a bit"
                      r"| a lot| (?:much|way|a bit) more| more)?\s*$")
_EACH_SIDE = re.compile(r"(\d+(?:\.\d+)?) ?(?:%|percent)(?: (?:off|from|of|on|at|around))? (?:each|every|all|both|the) "
                        r"(?:four )?(?:sides?|edges?|borders?)|(?:each|every|all) (?:four )?(?:sides?|edges?|borders?)"
                        r"(?: of the (?:photo|picture|image))? by (\d+(?:\.\d+)?) ?(?:%|percent)")


# "crop it closer", "crop in a bit tighter": no thing named, a tighter frame about the centre (it was "Crop to what?")
_CLOSER = re.compile(r"\b(?:crop|trim|frame)(?: it| this| the (?:image|picture|photo|pic|shot))?(?: in)?"
                     r"(?: (?:a (?:little |tiny )?bit|a little|slightly|a touch|a tad|a lot|much|way))?"
                     r" (?:closer|tighter|more tightly|in)(?: please)?\s*$")


def _inset(c: str) -> float | None:
    """The share of each side "zoom in a little" (5), "zoom in" (10), "zoom in a lot" (20) and "crop
    10% off each side" cut, about the centre; None when the words name no such crop ("zoom in on the
    dog" crops to the dog). They were "Crop to what?"."""
    m = _EACH_SIDE.search(c)
    if m and re.search(r"\b(?:crop\w*|trim|cut|zoom)\b", c):
        return min(float(m.group(1) or m.group(2)), float(MAX_INSET))
    m = _ZOOM_IN.search(c) or _CLOSER.search(c)
    if m is None:
        return None
    said = m.group(0)
    if re.search(r"\b(?:lot|much|way)\b", said):
        return 20.0
    little = r"\b(?:little|bit|tiny|wee|touch|tad|slightly)\b"
    return 5.0 if re.search(little, said) or re.search(little + r"\s+zoom", c) else 10.0


_SIDE = r"(?P<side>top|bottom|left|right)(?: (?:and|&) (?:the )?(?P<side2>top|bottom|left|right))?"
_PART = r"(?: (?P<part>half|third|quarter|sides?|edges?|parts?|strips?|bits?|borders?|portions?|ends?|areas?|sections?))?"
_OF_PICTURE = r"(?: of (?:the|this|my) (?:whole |entire )?(?:photo|picture|image|pic|shot|frame))?"
_SOME = (r"(?P<some>a (?:little |tiny |wee )?bit(?: more)?|a little|slightly|a touch|a tad|a lot|much more|way more|more"
         r"|(?:by )?(?:about |around |roughly |approximately |some )?(?P<n>\d+(?:\.\d+)?) ?(?:%|percent))")
# "crop off the bottom", "cut the top a bit", "trim the left edge", "chop the top off", "crop the right side of the
# image by about 5%", "crop the bottom half": that side of the picture cut off (they were "Crop out means different
# things", "I can't find 'the left edge'", and "cut the top a bit" a cutout of the subject)
_EDGE_CUT = re.compile(rf"^(?:please )?(?:can you |could you )?(?:crop|cut|trim|chop|shave|slice)(?: (?:off|out|away))?"
                       rf"(?: (?P<some0>a (?:little |tiny )?bit|a little|some|a lot))?(?: (?:off |from |of )?the {_SIDE}{_PART}{_OF_PICTURE}"
                       rf"(?: (?:off|out|away))?(?: {_SOME})?)(?: please)?\s*$")
_EDGE_AMOUNT = re.compile(rf"^(?:crop|cut|trim|chop|shave|slice)(?: off)? (?P<n>\d+(?:\.\d+)?) ?(?:%|percent) (?:off|from) "
                          rf"(?:the )?{_SIDE}{_PART}{_OF_PICTURE}\s*$")
_KEEP_HALF = re.compile(rf"^(?:crop|trim|cut)(?: it| the (?:photo|picture|image))? (?:down )?to the {_SIDE} half{_OF_PICTURE}\s*$")
_OPPOSITE = {"top": "bottom", "bottom": "top", "left": "right", "right": "left"}


def edge_cut(c: str) -> str | None:
    """``crop off``'s target for words that cut a side of the picture away ("crop off the bottom": 10%,
    "cut the top a bit": 5%, "a lot": 20%, "crop the bottom half": 50%, "crop 5% off the right"; "crop to
    the left half" cuts the right half), or None."""
    m = _KEEP_HALF.match(c)
    if m:
        if m.group("side2"):
            return None
        return f"off {_OPPOSITE[m.group('side')]} 50%"
    m = _EDGE_CUT.match(c) or _EDGE_AMOUNT.match(c)
    if m is None:
        return None
    sides = tuple(s for s in (m.group("side"), m.group("side2")) if s)
    part = m.group("part") or ""
    some = (m.groupdict().get("some") or "") + " " + (m.groupdict().get("some0") or "")
    number = m.group("n")
    if part in ("half", "third", "quarter"):
        share = {"half": 50.0, "third": 33.3, "quarter": 25.0}[part]
    elif number:
        share = float(number)
    elif re.search(r"\b(?:lot|much|way)\b", some):
        share = 20.0
    elif re.search(r"\b(?:bit|little|slightly|touch|tad)\b", some):
        share = 5.0
    else:
        share = 10.0
    if not 1 <= share <= edge_limit(sides):
        raise Refusal(f"I can cut from 1% to {edge_limit(sides):g}% of the picture off {'each of those sides' if len(sides) > 1 else 'a side'}"
                      f", not {share:g}%.")
    return f"off {' and '.join(sides)} {share:g}%"


_MIDDLE = r"(?:cent(?:ered|red|er|re)|in the (?:middle|centre|center)(?: of the (?:frame|picture|photo|image|shot))?)"
_CENTRE = re.compile(
    rf"(?:^|[.,;!?] |\b(?:now|then|and|also|next),? )(?:(?:crop|frame|reframe)(?: it| the (?:photo|picture|image))? (?:so(?: that)?|to have|with) (?P<a>(?:the|my) [a-z ]+?) "
    rf"(?:is |are )?{_MIDDLE}"
    rf"|(?:put|move|place|get) (?P<b>(?:the|my) [a-z ]+?) (?:in|into|to) the (?:middle|centre|center)(?: of the (?:frame|picture|photo|image))?"
    rf"|cent(?:er|re) (?P<c>(?:the|my) [a-z ]+?)(?: in the (?:frame|picture|photo|image|middle))?"
    rf"|(?P<d>(?:the|my) [a-z ]+?) (?:is|are)(?:n't| not) {_MIDDLE})(?: please)?\s*$")


def centre(c: str) -> RuleResult:
    """'crop it so the giraffes are centred', 'put the cat in the middle', 'centre the dog', 'the dog
    isn't centred' -> the largest crop with it in the middle (``crop centre the giraffes``). They were
    "Crop to what?" and "I can't add new things to a photo"."""
    m = _CENTRE.search(c)
    if m is None:
        return None
    what = m.group("a") or m.group("b") or m.group("c") or m.group("d")  # ("the dog isn't centred": a complaint)
    from agent.perception.things import names_object  # the detector's words; loads no model

    if not names_object(what):
        raise Refusal(f"I can centre something I can recognise (people, animals, vehicles, everyday objects), and I "
                      f"can't find {what!r} that way. Draw a box around it (the box tool, B) and say “crop to this”.")
    return [CropTo(f"centre {what}")]


def crop(c: str) -> RuleResult:
    """'crop it square' -> crop square; 'crop to the dog', 'zoom in on the girl' -> crop the dog / the girl."""
    edge = edge_cut(c)
    if edge is not None:
        return [CropTo(edge)]
    if not re.search(r"\b(?:crop\w*|trim|zoom(?:ed)? in|zoom (?:the|this|my)|close[- ]?up|reframe)\b|^make (?:it|the \w+) (?:an? )?(?:square|4:3|16:9)$", c):
        return None
    numbers = re.findall(r"(?<![\d.])\d+(?![\d.]|:\d)", c)
    if len(numbers) == 4:
        try:
            return [Crop(*(int(n) for n in numbers))]  # "crop from (40, 20) to (480, 500)"
        except CommandError as exc:
            raise Refusal(str(exc)) from None
    m = re.search(r"\b(square|1:1|4:3|16:9|4 ?x ?3|16 ?x ?9|instagram|widescreen|wide)\b", c)
    if m:
        word = m.group(1).replace(" ", "")
        aspect = {"1:1": "square", "instagram": "square", "4x3": "4:3", "16x9": "16:9", "widescreen": "16:9",
                  "wide": "16:9"}.get(word, word)
        return [CropTo(aspect)]
    inset = _inset(c)
    if inset is not None:
        return [CropTo(f"in {inset:g}%")]
    face = re.search(r"\bhead ?shot\b|\b(?:crop|zoom|close[- ]?up)\b.*?\b(?:the|his|her|my|their|our|your|only|just) "
                     r"(faces?(?: (?:on|at) the (?:left|right|top|bottom))?)\b", c)
    if face:
        return [CropTo(face.group(1) or "face")]  # a headshot: agent.perception.faces' face
    owned = re.search(r"\b(?:crop|zoom|close[- ]?up)\b.*?\bthe ([a-z]+)'s ([a-z]+)\b", c)
    if owned and owned.group(2) in THING_PARTS | {"face", "faces"}:
        from agent.perception.things import SYNONYMS

        if owned.group(2).startswith("face") and SYNONYMS.get(owned.group(1), owned.group(1)) in ("person", "man", "woman"):
            return [CropTo("face")]  # "crop to the man's face": a headshot, as "his face" is
        # "crop to the dog's face" cropped to the dog and said "Cropped to the dog's face"
        raise Refusal(f"I can't find the {owned.group(1)}'s {owned.group(2)} on my own. Draw a box around it (the "
                      f"box tool, B) and say “crop to this”, or say “crop to the {owned.group(1)}”.")
    if re.search(r"\b(?:remove|delete|erase)\s*/\s*crop\b|\bcrop\s*/\s*(?:remove|delete|erase)\b", c):
        raise Refusal("Remove it, or crop to it? Say 'remove the …' or 'crop to the …'.")
    if re.search(r"\bcrop (?:out|away|off)\b|\bcrop (?:\w+ ){1,6}?(?:out|away|off)(?: of| from)?\b", c):
        raise Refusal("Crop out means different things. Say 'crop to the …' to keep something, or "
                      "'remove the …' to take it out of the picture.")
    # ("crop closer to the bird", "zoom in closer on the dog" were "Crop to what?")
    m = re.search(r"\b(?:crop(?: it| this| the (?:image|picture|photo))?(?: in)?(?:(?: a (?:bit|little))? (?:closer|tighter|"
                  r"close|tight|in))?(?: to| around| on| onto)?|"
                  r"zoom(?:ed)? in(?: (?:closer|tighter|close))?(?: on| to)?|close[- ]?up(?: of| on)?|"
                  r"(?:reframe|trim)(?: to| around)?)\s+"
                  r"((?:the|his|her|their|my|that|this|these|those|only|just|a|an)\b.*|selection\b)", c)
    if m:
        what = re.sub(r"^(?:only|just)\s+", "", m.group(1)).strip()
        what = re.split(r"[?!.(:;\"]|,", what)[0].strip()
        what = re.sub(r"\s+(?:only|please|a (?:tiny |little )?bit|a little|slightly)$", "", what)
        if re.fullmatch(r"(?:the )?selection", what):
            return [CropTo("selection")]  # "crop to this" with a drawn selection
        from agent.perception.things import names_object  # the detector's words; loads no model

        if names_object(what):
            return [CropTo(what)]
        if not re.fullmatch(r"(?:the |this |that )?(?:whole |entire )?(?:image|picture|photo|pic|edges?|sides?|"
                            r"borders?|little bit|bit)", what):
            raise Refusal(f"I can crop to something I can recognise (people, animals, vehicles, everyday objects), "
                          f"and I can't find {what!r} that way. I can crop to a shape ('crop square', 'crop 16:9') "
                          "or to a box you draw (the box tool, B) and “crop to this”.")
    raise Refusal("Crop to what? Name a thing ('crop to the dog') or a shape ('crop square', 'crop 16:9').")
