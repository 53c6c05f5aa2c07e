"""Follow-ups: what a short request means after what this conversation did.

The first request of a conversation says what to do; what comes next often only says how it went:
"too much", "a bit less", "not so blue", "make it stronger", "the other way", "again", "do the same
for brightness", "and vertically as well", "undo the last two edits", "go back to the original",
"the previous one was better". :func:`read_follow_up` reads such a request against :class:`Recent`,
the edit that made the picture on screen and the request it belonged to, into a :class:`FollowUp`:

- a **revision** (``revise=True``): the last edit with another amount. The dialogue manager makes it
  again from the version that edit was applied to, never on top of its result, so "that's way too
  much contrast" after +40 gives the contrast of the original pixels at +10, not a milky picture
  from clipped ones; one undo brings the first try back;
- new edits: "again" runs the last request's edits once more, "do the same for brightness" the last
  adjustment's amount on brightness, "and vertically as well" a vertical flip after a horizontal one;
- going back: ``Undo(steps=2)``, ``Undo(original=True)``, ``Undo()``;
- or only a reply, when there is nothing to revise or the last edit has no amount.

Amounts (the README's "Using the app" says the same):

======================================================  ===============================================
words                                                   the last edit's amount becomes
======================================================  ===============================================
"too much", "tone it down", "less", "not so blue",      x 0.5
"too bright" (after brightening)
"a bit less", "a bit too much", "slightly less"         x 0.75
"way too much", "far too much", "much less"             x 0.25
"more", "stronger", "make it stronger", "even more",    x 1.5
"not enough", "not bright enough" (after brightening)
"a bit more", "slightly stronger"                       x 1.25
"much more", "way more", "double it"                    x 2
"the other way", "no, the other way", "the opposite"    the same amount the other way (a tint: the
                                                        opposite colour; a flip: the other axis)
======================================================  ===============================================

A quality named against the direction of the last edit turns the revision around: "still too dark"
after brightening makes the brightening stronger, "too bright" after darkening makes the darkening
stronger. Results are clamped to the command's range and rounded: whole points for
``adjust_attr``, hundredths for a tint's intensity, tenths of a degree for a rotation. Edits without
an amount (black and white, auto enhance, cutout, background, remove, crop) are not revised: the
reply says so and offers undo.

The rules form a registry, :data:`FOLLOW_UPS`, each named and with examples that run as tests
(``tests/test_request_rules.py``), like the request reader's :data:`agent.language.reader.RULES`;
they are tried before those, and only when the conversation has made an edit they can refer to.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass

from agent.grammar.commands import (
    ATTR_RANGES,
    AdjustAttr,
    AdjustColor,
    Background,
    Command,
    CropTo,
    Flip,
    Rotate,
    Undo,
)
from agent.grammar.lexicon import COLOUR_WORD
from agent.language.followup_words import PLACE_WORDS as _PLACE_WORDS
from agent.language.followup_words import SIZE_AFTER as _SIZE_AFTER
from agent.language.followup_words import (
    framing,
    other_of_two,
    without_place,
)
from agent.language.followup_words import size_of as _size
from agent.language.followup_words import tidy as _tidy
from agent.language.going_back import going_back, not_it
from agent.language.last_turn import did_it_work
from agent.language.recent import FollowUp, Recent  # noqa: F401 - the follow-ups' types, imported from here too
from agent.language.removed_which import after_removal as _after_removal
from agent.language.removed_which import wrong_one as _wrong_one
from agent.language.revisions import (
    LESS,
    MORE,
    named_edit,
    no_amount,
    request_of,
    reversed_edit,
    revise_all,
    revise_at,
    signed_degrees,
)
from agent.language.what_about import what_about
from agent.perception.things import one_of  # (loads no model)
from editor.masks import FOUND_NAMES, canonical_region_name

_SUBJECT = r"(?:(?:that'?s|that is|it'?s|it is|this is|thats|its|that was|it was|now it'?s|it looks|looks|" \
           r"that looks|the effect is|the edit is|it got|it'?s gotten|you made it|you went)\s+)?(?:still\s+)?"
_MOD = r"(?:(?:way|far|much|a lot|lots|really|very|waa+y|a (?:little |tiny |wee )?bit|a little|a tad|a touch|" \
       r"slightly|somewhat|just a (?:bit|little|tad|touch)|a smidge|a hair|even|still)\s+)?"
_LESS_CORE = (r"(?:too (?:much|strong|intense|heavy|extreme|far|harsh|drastic|obvious|dramatic|overdone|over the top)|"
              r"overdone|over the top|overkill|(?:a )?bit much|less|weaker|subtler|more subtle|gentler|"
              r"(?:tone|dial|turn|take|bring|scale|pull) (?:it|that|this|the effect) (?:down|back)|"
              r"(?:tone|dial|scale|pull) (?:down|back)(?: (?:it|that|this|the effect))?|not (?:so|as|that|too) much|"
              r"halve it|half(?: of that| as much)?|(?:reduce|lower|decrease|soften|lessen) (?:it|that|the effect)|"
              r"back off|ease off|less of (?:that|it)|(?:make it|go) (?:less|weaker|subtler|gentler|more subtle)"
              r"(?: strong| intense)?|less strong|less intense|"
              r"(?:rather|quite|pretty|kind of|kinda|a bit|a little) (?:strong|heavy|intense|harsh|extreme|much))")
_MORE_CORE = (r"(?:more|stronger|more intense|further|not enough|(?:increase|boost|intensify|strengthen|push|"
              r"amplify) (?:it|that|the effect)(?: (?:more|further))?|intensify|(?:turn|bump|crank|ramp) "
              r"(?:it|that) up|double (?:it|that)|(?:make it |do it )?twice as (?:much|strong|intense)|harder|keep going|go further|(?:make it|go) (?:even |still |a (?:little |tiny )?bit |a little |slightly |much |way )?(?:stronger|"
              r"more intense|further)|more of (?:that|it|the same)|not strong enough|too (?:weak|subtle|little|faint|mild))")
_LESS = re.compile(_SUBJECT + _MOD + _LESS_CORE + rf"(?:{_SIZE_AFTER.pattern[:-1]})?")
_MORE = re.compile(_SUBJECT + _MOD + _MORE_CORE + rf"(?:{_SIZE_AFTER.pattern[:-1]})?")

# Words that name what an edit changes, with the direction they name (0: the noun itself, either way).
# A colour word names a tint of that colour and, after a warmth edit, the warmth.
QUALITIES: dict[str, list[tuple[str, int]]] = {
    "brightness": [("brightness", 0)], "exposure": [("brightness", 0)],
    "bright": [("brightness", 1)], "light": [("brightness", 1)], "overexposed": [("brightness", 1)],
    "washed out": [("brightness", 1), ("saturation", -1), ("contrast", -1)],
    "dark": [("brightness", -1)], "dim": [("brightness", -1)], "gloomy": [("brightness", -1)],
    "underexposed": [("brightness", -1)], "murky": [("brightness", -1)],
    "contrast": [("contrast", 0)], "contrasty": [("contrast", 1)], "harsh": [("contrast", 1), ("sharpness", 1)],
    "punchy": [("contrast", 1)], "flat": [("contrast", -1)], "milky": [("contrast", -1)],
    "saturation": [("saturation", 0)], "colors": [("saturation", 0), ("tint", 0)],
    "color": [("saturation", 0), ("tint", 0)], "vibrance": [("saturation", 0)],
    "saturated": [("saturation", 1)], "oversaturated": [("saturation", 1)], "vivid": [("saturation", 1)],
    "colorful": [("saturation", 1)], "garish": [("saturation", 1)], "intense": [("saturation", 1)],
    "dull": [("saturation", -1)], "muted": [("saturation", -1)], "pale": [("saturation", -1)],
    "desaturated": [("saturation", -1)], "gray": [("saturation", -1)], "faded": [("saturation", -1)],
    "sharpness": [("sharpness", 0)], "sharpening": [("sharpness", 0)], "sharp": [("sharpness", 1)],
    "sharpened": [("sharpness", 1)], "crunchy": [("sharpness", 1)], "crisp": [("sharpness", 1)],
    "blur": [("sharpness", -1)], "blurry": [("sharpness", -1)], "blurred": [("sharpness", -1)],
    "soft": [("sharpness", -1)], "fuzzy": [("sharpness", -1)], "out of focus": [("sharpness", -1)],
    "warmth": [("warmth", 0)], "temperature": [("warmth", 0)], "warm": [("warmth", 1)], "cold": [("warmth", -1)],
    "cool": [("warmth", -1)], "hue": [("hue", 0)], "hues": [("hue", 0)],
    "tint": [("tint", 0)], "tone": [("tint", 0)], "cast": [("tint", 0)], "filter": [("tint", 0)],
    "rotated": [("rotate", 0)], "tilted": [("rotate", 0)], "turned": [("rotate", 0)], "rotation": [("rotate", 0)],
}
for _word, _colour in COLOUR_WORD.items():
    QUALITIES.setdefault(_word, []).append((f"tint {_colour}", 1))
for _word, _sign in (("blue", -1), ("bluish", -1), ("yellow", 1), ("orange", 1), ("yellowish", 1), ("orangey", 1)):
    QUALITIES[_word].append(("warmth", _sign))
_QUALITY_RE = "|".join(sorted((re.escape(w) for w in QUALITIES), key=len, reverse=True))
# "too X", "not so X", "less X", "too much X", "the X is too strong", "tone down the X": more of X than wanted
_EXCESS = re.compile(
    _SUBJECT + _MOD + rf"(?:too|overly|over|so|not (?:so|as|that|too)|less|too much|so much|much too|less of the|"
    rf"(?:tone|turn|take|bring|dial) down(?: the)?|(?:reduce|lower|decrease|soften|lessen) the|"
    rf"(?:tone|turn|take|bring|dial) (?:the )?\w+ down)\s+(?:the )?(?P<q>{_QUALITY_RE})(?:\s+(?:down|now|is too much))?$"
    rf"|^(?:the )?(?P<q2>{_QUALITY_RE}) (?:is|are|looks?|seems?) (?:way |far |much |a bit |a little |slightly )?"
    rf"(?:too|overly) (?:much|strong|high|intense|heavy|harsh|extreme|obvious|dramatic)$"
    rf"|^(?:way |far |much |a bit |a little |slightly )?too much (?P<q3>{_QUALITY_RE})(?: now)?$")
# "more X", "not X enough", "not enough X", "the X is too weak": less of X than wanted
_DEFICIT = re.compile(
    _SUBJECT + _MOD + rf"(?:more|not enough|even more|(?:increase|boost|raise|turn up|bump up) the)\s+"
    rf"(?:the )?(?P<q>{_QUALITY_RE})$"
    rf"|{_SUBJECT}not (?P<q2>{_QUALITY_RE}) enough$"
    rf"|^(?:the )?(?P<q3>{_QUALITY_RE}) (?:is|are|looks?|seems?) (?:still )?(?:too|a bit|way) (?:weak|subtle|low|faint|little)$")


# Comparatives: the quality the person wants more of than the picture on screen has ("brighter",
# "even darker", "way warmer", "cooler still"), read against the last edit like a quality. Said as a
# request ("make it a bit darker") it is a new edit, for the rules.
COMPARATIVES: dict[str, tuple[str, int]] = {
    "brighter": ("brightness", 1), "lighter": ("brightness", 1), "darker": ("brightness", -1),
    "dimmer": ("brightness", -1), "warmer": ("warmth", 1), "cooler": ("warmth", -1), "colder": ("warmth", -1),
    "sharper": ("sharpness", 1), "crisper": ("sharpness", 1), "softer": ("sharpness", -1),
    "blurrier": ("sharpness", -1), "punchier": ("contrast", 1), "flatter": ("contrast", -1),
    "duller": ("saturation", -1), "more vivid": ("saturation", 1), "more colorful": ("saturation", 1),
    "more saturated": ("saturation", 1), "less saturated": ("saturation", -1), "more contrasty": ("contrast", 1),
    "bluer": ("tint blue", 1), "redder": ("tint red", 1), "greener": ("tint green", 1), "pinker": ("tint pink", 1),
    "yellower": ("tint yellow", 1)}
_COMPARATIVE = re.compile(
    r"(?:(?:a bit|a little|a tad|slightly|even|way|much|far|a lot|still|yet|bit|somewhat|"
    r"a (?:tiny|wee|little) bit|a touch)\s+)*(?P<q>" + "|".join(sorted(COMPARATIVES, key=len, reverse=True))
    + r")(?:\s+(?:still|yet|please|then|again))*")
# A quality said of the picture as it is now ("that looks garish", "it's kinda dark"): more of it than wanted
_SAID_OF_IT = re.compile(
    r"(?:that'?s|that is|it'?s|it is|thats|its|that looks|it looks|looks|now it'?s|it'?s gotten|it got|"
    r"this is|this looks|it seems|that seems)\s+(?:(?:way|far|much|really|very|a bit|a little|kind of|kinda|quite|"
    r"pretty|so|rather|somewhat)\s+)*(?P<q>" + _QUALITY_RE + r")")


def _key(command: Command) -> tuple[str, int] | None:
    """What an edit changes and which way: ("contrast", 1), ("tint blue", 1), ("rotate", -1)."""
    if isinstance(command, AdjustAttr):
        return command.attr, (1 if command.amount >= 0 else -1)
    if isinstance(command, AdjustColor):
        return f"tint {command.color}", 1
    if isinstance(command, Rotate):
        return "rotate", (1 if signed_degrees(command) >= 0 else -1)
    if isinstance(command, Background) and command.mode == "blur":
        return "sharpness", -1  # "less blur" after "blur the background" sharpened the whole picture
    return None


def _quality_of(word: str, last: Command) -> int | None:
    """The direction (+1, -1) the quality word ``word`` names for the last edit, 0 for its noun,
    None when it is about something else."""
    key = _key(last)
    if key is None:
        return None
    for what, sign in QUALITIES.get(word, []):
        if what == key[0] or (what == "tint" and key[0].startswith("tint ")):
            return sign if sign else key[1]
    return None


def _revise(last: Command, factor: float) -> FollowUp:
    return revise_at(Recent(last, (last,)), 0, factor)


def amount_only(text: str) -> bool:
    """Whether ``text`` asks only for more or less of an edit ("a bit more", "too much", "stronger"),
    naming no quality: with no edit to revise it asks for nothing (the command model read "a bit
    more" as "brighten by 10")."""
    c = _tidy(text)  # ("it looks too harsh" names a fault: lower the contrast)
    return bool(c) and bool(_LESS.fullmatch(c) or _MORE.fullmatch(c)) and not re.search(rf"\b(?:{_QUALITY_RE})\b", c)


def only_about_last(text: str) -> str | None:
    """What ``text`` asks of the last edit when it asks nothing else ("a bit more": "make more or less
    of", "again": "do again", "the other way": "turn the other way"), else None; with no edit on
    screen it is asked for nothing ("again" and "the other way" were "Sorry, I don't know how to do that")."""
    c = _tidy(text)
    if amount_only(text):
        return "make more or less of"
    factor = framing(c)
    if factor is not None and not (factor > 1 and re.search(r"\b(?:zoom|crop)\b", c)):  # ("zoom in", "crop it closer"
        # crop the original about its centre)
        return "make tighter or looser"  # "a bit looser", "zoom out" with no crop made
    return "do again" if _REPEAT.fullmatch(c) else "turn the other way" if _OPPOSITE.fullmatch(c) else None


def _reframe(c: str, recent: Recent) -> FollowUp | None:
    """'a bit wider', 'zoom out', 'tighter' after a crop to a thing or 'zoom in a little': the crop
    made again from the version before it, keeping more or less of the picture around the thing."""
    factor = framing(c) if isinstance(recent.last, CropTo) else None
    return None if factor is None else _revise(recent.last, factor)


# "the trees are too green now" after "make the sky bluer and the trees greener": the part's edit
_PART_SAID = re.compile(rf"(?:the )?(?P<part>[a-z][a-z ]*?) (?:is|are|looks?|seems?|got) (?:now |still )?"
                        rf"(?:(?:way|far|much|a bit|a little|slightly|really|still|kind of) )*(?:(?P<too>too|overly) "
                        rf"(?P<q>{_QUALITY_RE})|not (?P<q2>{_QUALITY_RE}) enough)(?: now| anymore)?")


def _same_part(words: str, region: str) -> bool:
    """Whether ``words`` ("the trees", "the pig") name the part ``region`` ("greenery", "the pig on the left")."""
    if not region:
        return False
    try:
        return canonical_region_name(words) == canonical_region_name(region)
    except ValueError:
        return region.startswith("the ") and without_place(region) == f"the {words.removeprefix('the ')}"


def _part_quality(c: str, recent: Recent) -> FollowUp | None:
    """'the trees are too green now': the edit of the request in that part which the quality names."""
    m = _PART_SAID.fullmatch(c)
    if m is None or recent.last is None or m.group("part") in ("it", "this", "that"):
        return None
    word = m.group("q") or m.group("q2")
    i = named_edit(recent, lambda e: _same_part(m.group("part"), getattr(e, "region", "")) and _quality_of(word, e) is not None)
    if i is None:
        return None  # the part's fault, not an edit's: the complaint rules read it
    edit = request_of(recent)[i]
    same_way = _quality_of(word, edit) == _key(edit)[1]
    return revise_at(recent, i, (LESS if bool(m.group("too")) == same_way else MORE)[_size(c)])


def _less_more(c: str, recent: Recent) -> FollowUp | None:
    """'too much', 'tone it down', 'a bit less', 'not so blue', 'make it stronger', 'more', 'too dark
    now': the last edit with a smaller or larger amount, made again from the version it was applied to."""
    part = _part_quality(c, recent)
    if part is not None:
        return part
    size = _size(c)
    m = _EXCESS.fullmatch(c) or _DEFICIT.fullmatch(c)
    if m is not None:
        if recent.last is None:
            return None  # "too dark" with nothing done yet is a request of its own
        word = m.group("q") or m.group("q2") or m.group("q3")
        i = named_edit(recent, lambda e: _quality_of(word, e) is not None)
        if i is None:
            return None  # "too dark" after a rotation: a new request, for the rules
        edit = request_of(recent)[i]
        excess = m.re is _EXCESS
        same_way = _quality_of(word, edit) == _key(edit)[1]
        return revise_at(recent, i, (LESS if excess == same_way else MORE)[size])
    said = _SAID_OF_IT.fullmatch(c)
    compared = _COMPARATIVE.fullmatch(c)
    if (said or compared) and recent.last is not None:
        if said:
            word = said.group("q")
            i = named_edit(recent, lambda e: _quality_of(word, e) is not None)
            if i is not None and any(w for w, d in QUALITIES[word] if d):  # a direction, not a noun
                edit = request_of(recent)[i]
                return revise_at(recent, i, (LESS if _quality_of(word, edit) == _key(edit)[1] else MORE)[size])
        else:
            what, sign = COMPARATIVES[compared.group("q")]
            i = named_edit(recent, lambda e: (_key(e) or ("",))[0] == what)
            if i is not None:
                head = c[: compared.start("q")]
                size = "large" if re.search(r"\b(?:way|much|far|a lot)\b", head) else \
                    "small" if re.search(r"\b(?:bit|little|tad|touch|slightly|somewhat)\b", head) else "normal"
                return revise_at(recent, i, (MORE if sign == _key(request_of(recent)[i])[1] else LESS)[size])
        return None
    less, more = _LESS.fullmatch(c), _MORE.fullmatch(c)
    if not (less or more):
        return None
    if recent.last is None:
        return None  # nothing done yet: the rules and the model read it (CAISE's "more" follows its history)
    return revise_all(recent, (LESS if less else MORE)[size])


_OPPOSITE = re.compile(r"(?:(?:no|nope|wrong)[\s,]+)*(?:i meant |i said |go |do it |turn it |rotate it |"
                       r"move it |try )?(?:(?:the )?(?:other|opposite|reverse) (?:way|direction|side)(?: round| around)?"
                       r"|the opposite|opposite|(?:it went |you went |you did it |that'?s |that is )?(?:the )?"
                       r"wrong (?:way|direction)(?: round| around)?|backwards|the other way around|reverse it)")


def _opposite(c: str, recent: Recent) -> FollowUp | None:
    """'the other way', 'no, the other way', 'wrong direction': the last edit reversed, made again
    from the version it was applied to."""
    if not _OPPOSITE.fullmatch(c):
        return None
    if recent.last is None:
        return None
    new = reversed_edit(recent.last)
    if new is None:
        return no_amount(recent.last)
    # "rotate 5 degrees", "again", "the other way": every one of the repeats went the wrong way (turning
    # the last alone back left the picture as it was before, and said it had turned it)
    repeats = 1
    while len(recent.request) == 1 and repeats < min(len(recent.earlier), 4) \
            and recent.earlier[-repeats - 1] == recent.last:
        repeats += 1
    return FollowUp([new] * repeats, revise=repeats)


_REPEAT = re.compile(r"(?:(?:do|try|apply|run|make|give)\s+)?(?:it|that|this|the same(?: thing)?|the last "
                     r"(?:edit|change|one|step|thing))?\s*(?:again|once more|one more time)(?: please)?"
                     r"|repeat(?: (?:it|that|this|the (?:last )?(?:edit|change|step|one|thing)|once more))?(?: again)?"
                     r"|same again|(?:and )?again|once more|one more time|do it twice|twice")


def _repeat(c: str, recent: Recent) -> FollowUp | None:
    """'again', 'do it again', 'repeat the last edit': the last request's edits once more, on the
    picture as it is now."""
    if not _REPEAT.fullmatch(c):
        return None
    if not recent.request:
        return None
    return FollowUp(list(recent.request))


_ATTR_SYNONYMS = {"brightness": "brightness", "light": "brightness", "exposure": "brightness",
                  "lightness": "brightness", "contrast": "contrast", "saturation": "saturation",
                  "colors": "saturation", "color": "saturation", "vibrance": "saturation", "vibrancy": "saturation",
                  "sharpness": "sharpness", "sharpening": "sharpness", "details": "sharpness", "detail": "sharpness",
                  "warmth": "warmth", "temperature": "warmth", "hue": "hue", "hues": "hue"}
_AXES = {"vertical": "vertical", "vertically": "vertical", "upside down": "vertical", "top to bottom": "vertical",
         "horizontal": "horizontal", "horizontally": "horizontal", "left to right": "horizontal",
         "sideways": "horizontal"}
_TARGET_RE = "|".join(sorted((re.escape(w) for w in {*_ATTR_SYNONYMS, *_AXES, *COLOUR_WORD}), key=len, reverse=True))
_SAME_FOR = re.compile(
    rf"(?:(?:and|also|now|then)\s+)*(?:(?:do|apply|try|use)\s+)?(?:the )?same(?: thing| amount)? "
    rf"(?:for|to|with|on) (?:the )?(?P<a>{_TARGET_RE})"
    rf"|(?:(?:and|also|now|then)\s+)*(?:(?:do|apply)\s+(?:it|that)\s+)?(?:for |to |with |on )?(?:the )?"
    rf"(?P<b>{_TARGET_RE})(?:\s+(?:too|as well|also))+"
    rf"|(?:(?:and|also|now|then)\s+)*(?:for |to |with |on )?(?:the )?(?P<c>{_TARGET_RE})")


def _same_for(c: str, recent: Recent) -> FollowUp | None:
    """'do the same for brightness' (after 'increase contrast by 25': brightness +25), 'and vertically
    as well' (after a horizontal flip), 'the same with red' (after a blue tint)."""
    m = _SAME_FOR.fullmatch(c)
    if not m or recent.last is None:
        return None
    word = m.group("a") or m.group("b") or m.group("c")
    if m.group("c") and word in COLOUR_WORD and not re.match(r"(?:and|also|now|then)\b", c):
        return None  # a bare colour ("red") is a request of its own; a bare "saturation" follows the last edit
    last = recent.last
    if isinstance(last, AdjustAttr) and word in _ATTR_SYNONYMS:
        attr = _ATTR_SYNONYMS[word]
        top = ATTR_RANGES[attr]
        return FollowUp([AdjustAttr(attr, max(-top, min(top, last.amount)))])
    if isinstance(last, Flip) and word in _AXES:
        return FollowUp([Flip(_AXES[word])])
    if isinstance(last, AdjustColor) and word in COLOUR_WORD:
        return FollowUp([AdjustColor(COLOUR_WORD[word], last.intensity)])
    return None


# "and the one on the right too", "do the same for the other bison", "and the sky as well": the last
# regional edit again, somewhere else (it was refused, or read by the model as "rotate 20° clockwise")
_SIDE_ONE = r"(?:far |top |bottom )?(?:left|right)|top|bottom|middle"
_ELSEWHERE = re.compile(
    r"(?:(?:and|also|now|then|ok|okay)[,\s]+)*(?:(?:do|apply|make|try)\s+)?"
    r"(?:(?:the )?same(?: thing)?\s+(?:for|to|with|on)\s+|(?:it|that|this)\s+(?:for|to|with|on)\s+|(?:for|to|on)\s+)?"
    rf"(?P<where>the (?:one|other one|other|others) {_PLACE_WORDS}|the other(?: one| [a-z]+)?|the [a-z]+(?: [a-z]+)? {_PLACE_WORDS}"
    rf"|the (?P<side>(?:{_SIDE_ONE})) one|the (?:{_SIDE_ONE}) (?:side|half|part|edge|corner)"
    r"|the (?:top|bottom|upper|lower) (?:left|right)|the [a-z]+)(?P<too>(?:\s+(?:too|as well|also|(?:a bit |a little |even )?more))+)?")
# "the other one", "the one on the right", "the left one" refer back whatever leads in or follows ("now
# the other one": the lead-in words are off before the rules read it); "the dog" alone may be anything
_ANAPHORIC = re.compile(rf"the (?:other(?: one)?|one {_PLACE_WORDS}|(?:{_SIDE_ONE}) one)")


def _found_to_found(region: str, where: str) -> bool:
    """Whether the last edit was in a part found by name (the sky, the greenery) and ``where`` names
    another: "now the sky" after "make the grass greener" (the lead-in "now" is off by now) was
    refused. A bare thing ("the dog") stays what it was."""
    from agent.language.scope import Unfindable, region_of

    if not re.fullmatch(rf"the [a-z]+(?: {_PLACE_WORDS})?", where):
        return False  # "the sky darker at the top" asks for an edit of its own
    try:
        new = region_of(where) or ""
    except Unfindable:
        return False
    return region.split(" ")[0] in FOUND_NAMES and new.split(" ")[0] in FOUND_NAMES and new != region


# "and the one next to him" after "make the person on the left brighter" (it was not understood): the
# same edit in the thing of its kind nearest that one (the objects' finder reads "next to")
_NEXT_TO = re.compile(r"(?:(?:and|also|now|then|ok|okay)[,\s]+)*(?:(?:do|apply|make|try)\s+)?(?:(?:the )?same(?: thing)?\s+"
                      r"(?:for|to|with|on)\s+)?(?:the (?:one|[a-z]+) (?:next to|beside|by|near) (?:him|her|it|them|that one)"
                      r"|the next one)(?:\s+(?:too|as well|also))*")


def _next_to(region: str, last: Command) -> FollowUp:
    place = re.search(rf"\s+{_PLACE_WORDS}$", region)
    thing = region[:place.start()] if place else region
    one = re.sub(r"\w+$", lambda w: one_of(w.group(0)), thing)
    return FollowUp([dataclasses.replace(last, region=f"{one} next to {region}")])


def _elsewhere(c: str, recent: Recent) -> FollowUp | None:
    """'and the one on the right too' after 'make the bison on the left darker' -> the same edit in
    the bison on the right; 'and the sky as well' -> in the sky; 'the other one too' asks which. Only
    after an edit made in a part, and only said as more of the same ("and", "too", "the same for"),
    so a bare "the dog" stays what it was."""
    m = _ELSEWHERE.fullmatch(c)
    last = recent.last
    region = getattr(last, "region", "") if last is not None else ""
    if _NEXT_TO.fullmatch(c) and region.startswith("the ") and " next to " not in region:
        return _next_to(region, last)
    if not m or not region or region.startswith(("everything", "selection")):
        return None
    if not (m.group("too") or re.match(r"(?:and|also|now|then|ok|okay)\b|(?:do |apply )?(?:the )?same\b|do (?:it |that )?(?:for |to |on )?the\b", c)
            or _ANAPHORIC.fullmatch(m.group("where")) or (c == m.group("where") and _found_to_found(region, c))):
        return None
    where = m.group("where")
    if m.group("side"):  # "the left one": the one on the left
        side = m.group("side")
        where = f"the one {'on' if side.endswith(('left', 'right')) else 'in' if side == 'middle' else 'at'} the {side}"
    place = re.search(r"(?:on|at|in) the (?:far )?(left|right|top|bottom|middle|centre|center)(?: (left|right))?$", region)
    thing = region[:place.start()].strip() if place else region
    if thing == where:
        return None
    if not thing.startswith("the "):  # a part found by name ("now the sky" after the grass), or a side
        side = re.fullmatch(r"the (left|right|top|bottom)(?: side| half)?", where)
        if side and place and thing in FOUND_NAMES:  # "same for the left" after the greenery on the right
            return FollowUp([dataclasses.replace(last, region=canonical_region_name(f"{thing} on the {side.group(1)}"))])
        if where.startswith(("the one ", "the other", "the others")):
            return None
    if where.startswith(("the one ", "the other one ", "the other ", "the others ")) and re.search(_PLACE_WORDS, where):
        # "the one on the right": the same kind there (one of "the kids": the kid on the right)
        one = thing if where.startswith("the others ") else re.sub(r"\w+$", lambda w: one_of(w.group(0)), thing)
        new = f"{one} {re.search(_PLACE_WORDS, where).group(0)}"
    elif re.fullmatch(r"the other(?: one)?", where) or where == f"the other {thing.removeprefix('the ')}":
        # which is "the other" depends on how many there are and which were done already: asked, not
        # guessed (the side opposite the last one made a bison darker twice), unless the edit said it
        # saw two and took one by itself ("I see 2 giraffes and changed the one on the right")
        other = None if place else other_of_two(recent.said)
        if other is None:
            side = "left" if place and place.group(1) == "right" else "right"
            return FollowUp([], reply=f"Which one do you mean? Say where it is, for example “and the "
                                      f"{thing.removeprefix('the ')} on the {side} too”.")
        new = f"{thing} {other}"
    elif where.startswith("the other "):
        return None
    else:
        new = where  # "and the sky as well", "the dog on the left too"
    from agent.language.scope import Unfindable, region_of

    try:
        new = region_of(new) or ""
    except Unfindable as exc:
        return _draw_it(exc.part)
    return FollowUp([dataclasses.replace(last, region=new)]) if new else None


def _draw_it(part: str) -> FollowUp:
    """The reply when a part named in a follow-up cannot be found on Easel's own: how to point at it."""
    return FollowUp([], reply=f"I can't find the {part} on my own. Draw around it with the trace tool (T) or a "
                              "box (B), then say what to do there.")


# "no, only the giraffe", "just the sky", "the dog only", "I meant the background", "do it on the left
# only": the last edit, made again in that part instead of where it was (the whole picture)
_WHERE_WORDS = r"(?:the )?[a-z]+(?: [a-z]+){0,4}?"
_ONLY = re.compile(
    rf"(?:only|just) (?:(?:on|to|for|in) )?(?P<a>{_WHERE_WORDS})(?: only)?"
    rf"|(?P<b>the [a-z]+(?: [a-z]+){{0,4}}?) only"
    rf"|i (?:only )?(?:meant|said|wanted|asked for)(?: (?:it|that|this))?(?: (?:only|just))?(?: (?:on|to|for|in))? "
    rf"(?P<c>the {_WHERE_WORDS})(?: only)?"
    rf"|(?:do|apply|put|use|make) (?:it|that|this) (?:only |just )?(?:on|to|for|in) (?P<d>{_WHERE_WORDS})(?: only)?")


def _only_there(c: str, recent: Recent) -> FollowUp | None:
    """'no, only the giraffe' after 'make it brighter' -> the same brightening in the giraffe alone,
    made again from the version the last edit was applied to (it replaces it); 'just the sky',
    'I meant the background', 'do it on the left only' alike. An edit that cannot be limited to a
    part (a rotation, a crop) is said so; a part Easel cannot find is asked to be drawn."""
    m = _ONLY.fullmatch(c)
    last = recent.last
    if not m or last is None:
        return None
    where = next(g for g in m.group("a", "b", "c", "d") if g)
    if re.match(r"(?:an?|some) ", where):
        return None  # "put it on a white background" after a cut-out: a new background, a request of its own
    from agent.grammar.commands import REGIONAL
    from agent.language.scope import Unfindable, region_of

    try:
        region = region_of(where) or (region_of(f"the {where}") if not where.startswith("the ") else None)
    except Unfindable as exc:
        if not where.startswith("the "):
            return None  # "just for fun make it pink": no part named, a request of its own
        return _draw_it(exc.part)
    if not region:
        return None
    if not isinstance(last, REGIONAL):
        return FollowUp([], reply=f"“{last.label()}” applies to the whole picture; I can't limit it to {where}. "
                                  "Say 'undo' to take it back.")
    return FollowUp([dataclasses.replace(last, region=region)], revise=True)


@dataclass(frozen=True)
class FollowUpRule:
    """One named rule of :func:`read_follow_up`, with examples that run as tests: (words, the last
    request's command lines joined by "; " or "" for none, the outcome: "revise LINE", command
    lines joined by "; ", "undo", "undo 2", "original", "reply" or "none")."""

    name: str
    read: Callable[[str, Recent], FollowUp | None]
    examples: tuple[tuple[str, str, str], ...]


FOLLOW_UPS: tuple[FollowUpRule, ...] = (
    FollowUpRule("wrong_one", _wrong_one, (
        ("not that one", "remove the horse in the middle", "undo"),
        ("no, the wrong one", "adjust_attr brightness 20 in the giraffe on the left", "undo"),
        ("that's the wrong horse", "remove the horse", "undo"),
        ("not that one", "adjust_attr brightness 20", "none"), ("another one", "remove the horse", "none"))),
    FollowUpRule("going_back", going_back, (
        ("undo the last two edits", "", "undo 2"), ("go back to the original", "", "original"),
        ("put it back the way it was", "", "original"), ("the previous one was better", "", "undo"),
        ("put it back", "remove the horse", "undo"), ("put the horse back", "remove the horse", "undo"),
        ("put it back", "adjust_attr brightness 20", "original"),
        ("undo both", "", "undo 2"))),
    FollowUpRule("not_it", not_it, (("hmm, not quite", "adjust_attr brightness 20", "reply"),
                                     ("that's not what i meant", "remove the horse", "reply"),
                                     ("not quite", "", "none"), ("try again", "adjust_attr contrast 40", "reply"),
                                     ("try again", "", "reply"))),
    FollowUpRule("after_removal", _after_removal, (
        ("you missed a bit", "remove the cheetah", "reply"), ("its tail is still there", "remove the cat", "reply"),
        ("remove the rest of it", "remove the dog", "reply"), ("that looks fake", "remove the horse", "reply"),
        ("there's still some of it on the left", "remove the person", "reply"),
        ("that looks bad", "adjust_attr brightness 20", "none"), ("you missed a bit", "", "none"))),
    FollowUpRule("repeat", _repeat, (
        ("again", "rotate 270", "rotate 270"), ("repeat the last edit", "adjust_attr brightness 30; adjust_attr "
                                                "contrast 20", "adjust_attr brightness 30; adjust_attr contrast 20"),
        ("do it again", "", "none"))),
    FollowUpRule("opposite", _opposite, (
        ("no, the other way", "adjust_attr brightness 20", "revise adjust_attr brightness -20"),
        ("wrong direction", "rotate 270", "revise rotate 90"),
        ("wrong direction", "adjust_attr brightness 20 in the giraffe on the left",
         "revise adjust_attr brightness -20 in the giraffe on the left"),
        ("the other way", "grayscale", "reply"))),
    FollowUpRule("elsewhere", _elsewhere, (
        # a part found by name: "same for the left" was read by the model as "rotate 20", "now the sky" refused
        ("same for the left", "adjust_attr brightness 20 in greenery on the right",
         "adjust_attr brightness 20 in greenery on the left"),
        ("now the sky", "adjust_color green 0.2 in greenery", "adjust_color green 0.2 in sky"),
        ("now the trees", "adjust_color orange 0.25 in the red panda", "adjust_color orange 0.25 in greenery"),
        ("and the sky too", "adjust_attr brightness 20 in greenery", "adjust_attr brightness 20 in sky"),
        ("same for the right", "adjust_attr brightness -20 in left", "adjust_attr brightness -20 in right"),
        ("now the right side too", "adjust_attr brightness 20 in left", "adjust_attr brightness 20 in right"),  # (rotate 20)
        ("and the top half as well", "adjust_attr brightness 20 in left", "adjust_attr brightness 20 in top half"),
        ("the dog", "adjust_color green 0.2 in greenery", "none"),
        ("make the sky darker at the top", "adjust_attr brightness 10 in clouds", "none"),  # (it brightened the sky)
        ("the sky darker", "adjust_attr brightness 10 in clouds", "none"),
        ("the sky at the top", "adjust_attr brightness 10 in clouds", "adjust_attr brightness 10 in sky at the top"),
        ("and the one on the right too", "adjust_attr brightness -20 in the bison on the left",
         "adjust_attr brightness -20 in the bison on the right"),
        ("the other one too", "adjust_attr brightness -20 in the bison on the left", "reply"),
        ("now the other one", "adjust_attr brightness -20 in the bison on the left", "reply"),
        ("the other one too", "adjust_attr brightness 20 in the giraffe", "reply"),  # (how many: not said)
        ("now the right one", "adjust_attr brightness 20 in the giraffe on the left",
         "adjust_attr brightness 20 in the giraffe on the right"),
        ("the one on the right", "adjust_attr brightness 20 in the giraffe on the left",
         "adjust_attr brightness 20 in the giraffe on the right"),
        ("now the giraffe on the right", "adjust_attr brightness 20 in the giraffe on the left", "none"),
        ("do the same for the sky", "adjust_attr saturation 30 in the dog", "adjust_attr saturation 30 in sky"),
        ("and the dog as well", "adjust_color blue 0.2 in the cat", "adjust_color blue 0.2 in the dog"),
        ("and the dog too", "adjust_attr brightness 20", "none"),
        ("and the one next to him", "adjust_attr brightness 20 in the person on the left",  # it was not understood
         "adjust_attr brightness 20 in the person next to the person on the left"),
        ("the one next to it too", "adjust_attr brightness 20", "none"))),
    FollowUpRule("did_it_work", did_it_work, (("did it work?", "adjust_attr brightness 20", "reply"),
                                              ("did it work?", "", "reply"))),  # (it was "I can't answer that")
    FollowUpRule("what_about", what_about, (  # it was "I can't answer that"; "blur it" then blurred the kangaroo
        ("what about the background?", "adjust_attr sharpness 40 in the kangaroo", "reply"),
        ("what about the background?", "adjust_attr sharpness 40", "none"))),
    FollowUpRule("only_there", _only_there, (
        ("only the giraffe", "adjust_attr brightness 20", "revise adjust_attr brightness 20 in the giraffe"),
        ("just the sky", "adjust_color blue 0.2", "revise adjust_color blue 0.2 in sky"),
        ("the dog only", "adjust_attr saturation 30", "revise adjust_attr saturation 30 in the dog"),
        ("i meant the background", "grayscale", "revise grayscale in background"),
        ("do it on the left only", "adjust_attr brightness -20", "revise adjust_attr brightness -20 in left"),
        ("only the castle", "adjust_attr brightness 20", "reply"),
        ("only the cat", "rotate 90", "reply"), ("only the cat", "", "none"),
        ("put it on a white background", "image_cutout", "none"),
        ("just for fun make it pink", "adjust_attr brightness 20", "none"))),
    FollowUpRule("same_for", _same_for, (
        ("do the same for brightness", "adjust_attr contrast 25", "adjust_attr brightness 25"),
        ("and vertically as well", "flip horizontal", "flip vertical"),
        ("and the saturation too", "adjust_attr contrast 25", "adjust_attr saturation 25"))),
    FollowUpRule("framing", _reframe, (  # "a bit wider" after a crop to the dog was not understood
        ("a bit wider", "crop the dog", "revise crop the dog margin 17%"),
        ("tighter", "crop the dog", "revise crop the dog margin 0%"),
        ("zoom out a bit", "crop in 10%", "revise crop in 9%"), ("wider", "adjust_attr brightness 20", "none"))),
    FollowUpRule("less_more", _less_more, (
        ("that's way too much contrast", "adjust_attr contrast 40", "revise adjust_attr contrast 10"),
        ("too much, tone it down", "adjust_attr contrast 20", "revise adjust_attr contrast 10"),
        ("a bit less", "adjust_attr brightness 20", "revise adjust_attr brightness 15"),
        ("more", "background blur", "revise background blur 1.5"),
        ("a bit less", "background blur 2 behind the dog", "revise background blur 1.5 behind the dog"),
        ("less blur", "background blur", "revise background blur 0.5"),
        ("too blurry", "background blur 2", "revise background blur"),  # (1: the usual)
        ("more blur", "background blur", "revise background blur 1.5"),
        ("not so blue", "adjust_color blue 0.2", "revise adjust_color blue 0.1"),
        ("more", "adjust_attr saturation -30", "revise adjust_attr saturation -45"),
        ("make it stronger", "adjust_color pink 0.2", "revise adjust_color pink 0.3"),
        ("make it even stronger", "adjust_attr contrast 20", "revise adjust_attr contrast 30"),
        ("make it a bit stronger", "adjust_attr contrast 20", "revise adjust_attr contrast 25"),
        ("still too dark", "adjust_attr brightness 20", "revise adjust_attr brightness 30"),
        ("too dark", "rotate 90", "none"), ("a bit less", "grayscale", "reply"),
        ("tone it down a bit", "adjust_attr contrast 20", "revise adjust_attr contrast 15"),
        ("half as much", "adjust_attr brightness 20", "revise adjust_attr brightness 10"),  # it was a quarter
        ("ok, now a bit less contrast please", "adjust_attr contrast 20", "revise adjust_attr contrast 15"),
        ("hmm, tone it dwon", "adjust_attr contrast 20", "revise adjust_attr contrast 10"),
        ("way brighter", "adjust_attr brightness 10", "revise adjust_attr brightness 20"),
        ("darker", "adjust_attr brightness 20", "revise adjust_attr brightness 10"),
        ("brighter", "adjust_attr contrast 20", "none"),
        ("that looks garish", "adjust_attr saturation 50", "revise adjust_attr saturation 25"),
        # a request of several edits ("make it moodier"): all of them, or the one the words name
        ("a bit less", "adjust_attr brightness -15; adjust_attr contrast 15; adjust_attr saturation -20",
         "revise adjust_attr brightness -11; adjust_attr contrast 11; adjust_attr saturation -15"),
        ("too dark", "adjust_attr brightness -15; adjust_attr contrast 15; adjust_attr saturation -20",
         "revise adjust_attr brightness -8; adjust_attr contrast 15; adjust_attr saturation -20"),
        ("brighter", "adjust_attr brightness 20; adjust_attr contrast 20",
         "revise adjust_attr brightness 30; adjust_attr contrast 20"),
        ("a bit less", "crop the dog; adjust_attr brightness 20", "revise adjust_attr brightness 15"),
        ("the trees are too green now", "adjust_color blue 0.2 in sky; adjust_color green 0.2 in greenery",
         "revise adjust_color green 0.1 in greenery"),
        ("the pig is not pink enough", "adjust_color pink 0.2 in the pig; adjust_attr brightness 20",
         "revise adjust_color pink 0.3 in the pig; adjust_attr brightness 20"),
        ("the dog is too dark", "adjust_attr brightness 20 in the cat", "none"))),
)
FOLLOW_UP_NAMES = tuple(r.name for r in FOLLOW_UPS)


_NOW_THERE = re.compile(r"^\s*(?:(?:ok|okay|good|great|nice|thanks)[,!.]?\s+)?(?:now|then|and now|next|and|also|and also)[,]?\s+"
                        r"(the [a-z]+(?: [a-z]+){0,2})\s*[.!]?\s*$", re.IGNORECASE)  # ("and the top right": it was refused)


def read_follow_up(text: str, recent: Recent) -> FollowUp | None:
    """What ``text`` asks of the last edit, or None when it is not a follow-up (the request rules
    read it then). The words are read whole, and each comma-separated piece must ask the same
    ("too much, tone it down"); pieces that only agree ("ok", "hmm", "no") are skipped."""
    # "now the sky", "then the trees" after an edit made in a part: the same there, as "the sky too" is
    # (the lead-in is off by the time the rules read it, and a bare "the sky" may be anything)
    text = _NOW_THERE.sub(r"\1 too", text)
    pieces = [p for p in (_tidy(p) for p in re.split(r"[,;.!?]+|\s+-+\s+", text)) if p]
    if not pieces:
        return None
    found: FollowUp | None = None
    for piece in pieces:
        out = None
        for rule in FOLLOW_UPS:
            out = rule.read(piece, recent)
            if out is not None:
                break
        if out is None:
            return None  # a piece of another kind: the whole request is not a follow-up
        if found is None:
            found = out
        elif (found.revise, [c.format() for c in found.commands]) != (out.revise, [c.format() for c in out.commands]) \
                and not (found.revise and out.revise and type(found.commands[0]) is type(out.commands[0])):
            return None  # "too much, and do it again": two different requests
    return found


_JOINS = re.compile(r"[,;.!?]+\s*(?:(?:and|then|but|also|plus|after that)\b\s*)*|\s+-+\s+|"
                    r"\s+(?:and then|and also|and|then|but|plus|after that)\s+")


def split_follow_up(text: str, recent: Recent) -> tuple[FollowUp, str] | None:
    """A revision said first and a request after it in one message ("too much, and make it warmer",
    "a bit less, then sharpen it"): the revision and the words of the rest, which the request rules
    read; a going back after it ("too much, go back to the original") alone, with no words left. None
    when the message does not open with a revision or has nothing after it."""
    if recent.last is None:
        return None
    pieces = [p.strip() for p in _JOINS.split(text) if p and p.strip(" ,.;!?")]
    for k in range(len(pieces) - 1, 0, -1):
        head = read_follow_up(", ".join(pieces[:k]), recent)
        if head is not None and head.revise and head.reply is None:
            rest = " and ".join(pieces[k:])
            back = read_follow_up(rest, recent)
            if back is not None and back.commands and all(isinstance(c, Undo) for c in back.commands):
                return back, ""  # "way too strong, go back to the original": the going back answers it
            return (head, rest) if back is None and _tidy(rest) else None
    return None


def outcome(follow_up: FollowUp | None) -> str:
    """A follow-up in the examples' words ("revise adjust_attr contrast 10", "undo 2", "reply")."""
    if follow_up is None:
        return "none"
    if follow_up.reply is not None:
        return "reply"
    first = follow_up.commands[0]
    if isinstance(first, Undo):
        return "original" if first.original else ("undo" if first.steps == 1 else f"undo {first.steps}")
    lines = "; ".join(c.format() for c in follow_up.commands)
    return f"revise {lines}" if follow_up.revise else lines
