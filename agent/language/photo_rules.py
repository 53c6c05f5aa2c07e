"""Requests about the photo as a photographer handles it: straightening ("straighten it by 3 degrees",
"rotate 5° and crop the corners"), the size of the file ("resize it to 1080 pixels wide", "make it
50% smaller", "save it smaller") and the place it was taken ("remove the location").

Each function reads one clause (cleaned and stripped of politeness, as :mod:`agent.language.rules`
gives it) and returns the commands, or None when the clause is not of its kind; the reader's
registry (:data:`agent.language.rules.RULES`) tries them before the refusals.
"""

from __future__ import annotations

import re

from agent.grammar.commands import (
    SHARE_SIDE,
    AdjustAttr,
    AdjustColor,
    RedEye,
    RemoveLocation,
    Resize,
    Rotate,
    face_words,
)
from agent.language.rule_base import Refusal
from agent.language.scope import Unfindable, region_of

_NUM = r"(\d+(?:\.\d+)?)"
_DEG = rf"{_NUM}\s*(?:°|degrees?|deg)?"
_CW = re.compile(r"\b(?:(?<!counter )(?<!counter-)(?<!anti-)(?<!anti)clockwise|cw|to the right|right)\b")

_STRAIGHTEN = re.compile(r"\b(?:straighten\w*|level(?:l?ing)? (?:it|this|the (?:horizon|photo|picture|image|shot))|"
                         r"level (?:out|off)|untilt|de-?tilt|fix (?:the )?(?:tilt|horizon|crooked\w*|slant)|"
                         r"make (?:it|the horizon|this|the (?:photo|picture|image)) (?:straight|level)|"
                         r"(?:horizon|it|photo|picture|image) (?:is|looks) (?:crooked|tilted|not straight|slanted))\b")


def straighten(c: str) -> list[Rotate] | None:
    """'straighten it by 3 degrees' -> ``rotate 3 crop``; 'straighten it 2 degrees clockwise' ->
    ``rotate 358 crop``; 'straighten it', 'level the horizon' -> a rotation by the measured tilt of the
    horizon (``level``: the dialogue measures it before it runs).

    >>> [r.format() for r in straighten("straighten it by 3 degrees")]
    ['rotate 3 crop']
    >>> straighten("straighten the horizon")[0].level
    True
    """
    if not _STRAIGHTEN.search(c):
        return None
    m = re.search(_DEG, c)
    if m is None:
        return [Rotate(0, crop=True, level=True)]
    deg = float(m.group(1)) % 360
    if deg == 0:
        return None
    return [Rotate(360 - deg if _CW.search(c) else deg, crop=True)]


# "rotate 5° and crop the corners", "rotate it 3 degrees clockwise, then crop off the empty edges"
_CROP_CORNERS = re.compile(r"\s*(?:,|;|\band\b|\bthen\b|&|\+)+\s*(?:then\s+)?(?:crop(?:ping)?|cut|trim)(?: off| out| away)?"
                           r"(?: it| the(?: empty| black| transparent| blank| white)?(?: corners?| edges?| borders?| "
                           r"wedges?| sides?| gaps?))?(?: out| off| away)?\s*[.!]*$|\s+(?:without|with no|no) "
                           r"(?:empty |black |transparent |blank )?(?:corners?|edges?|wedges?|borders?)\s*[.!]*$")


def rotate_and_crop(text: str) -> str | None:
    """The rotation of a request that asks to rotate and crop away the corners in one breath ("rotate
    5° and crop the corners" -> "rotate 5°"), read by the reader as one ``rotate <deg> crop``; None
    for any other request.

    >>> rotate_and_crop("rotate 5° and crop the corners")
    'rotate 5°'
    >>> rotate_and_crop("rotate it and crop to the dog") is None
    True
    """
    m = _CROP_CORNERS.search(text)
    if m is None or not re.search(r"\b(?:rotat\w*|turn|tilt|straighten\w*)\b", text[:m.start()]):
        return None
    return text[:m.start()].strip() or None


_RESIZE_VERB = re.compile(r"^(?:resize|rescale|scale|shrink|downsize|downscale|upscale|enlarge|reduce|cut down|make|"
                          r"save|export|change|set|bring|increase)\b(?: (?:it|this|(?:the|my|this) (?:entire |whole )?"
                          r"(?:photo|picture|image|pic|file|size|"
                          r"resolution|dimensions)(?: size)?))?(?: down| up)?\b")
_SIZE_WORDS = re.compile(r"\b(?:resize|rescale|scale|shrink|downsize|downscale|upscale|enlarge|smaller|bigger|larger|"
                         r"size|resolution|pixels?|px|wide|tall|high|width|height|dimensions)\b")
_HALF = re.compile(r"\b(?:half (?:of )?(?:the|its) (?:original )?(?:size|resolution|width)|half[- ]size|"
                   r"halve (?:it|the (?:size|resolution))|double (?:the|its) (?:size|resolution)|twice (?:as (?:big|large)|"
                   r"the size)|quarter (?:of )?(?:the|its) (?:original )?size|(?:a )?quarter size)\b")
MIN_SIDE = 16  # pixels: a smaller "size" is in inches or a print's
# what a "smaller" may be said of that is not the picture's size: an edit, an amount, a thing in it
_NOT_THE_PHOTO = re.compile(r"\b(?:make|reduce|change|set|bring) (?:the|that|this|your|my) (?!photo|picture|image|pic|"
                            r"file|size|resolution|dimensions)\w+")
_SMALLER = re.compile(r"\b(?:smaller|shrink|reduce|downsize|downscale|less|down|lighter|compress\w*)\b")


def resize(c: str) -> list[Resize] | None:
    """'resize it to 1080 pixels wide' -> ``resize width 1080``; 'make it 50% smaller' -> ``resize 50%``;
    'save it smaller' -> ``resize long 2048`` (a size for sharing: the long side 2048 px).

    >>> [r.format() for r in resize("resize it to 1080 pixels wide")]
    ['resize width 1080']
    >>> [r.format() for r in resize("make it 30% smaller")]
    ['resize 70%']
    >>> resize("make the dog bigger") is None, [r.format() for r in resize("make the image %50 larger")]
    (True, ['resize 150%'])
    """
    if not _RESIZE_VERB.search(c) or not (_SIZE_WORDS.search(c) or _HALF.search(c)):
        return None
    if re.search(r"\b(?:crop|square|background|brighter|darker|contrast|sharper|me|him|her|them|us|my|his|their|"
                 r"son|daughter|person|man|woman)\b(?! (?:photo|picture|image|pic|file)s?\b)", c) \
            or _NOT_THE_PHOTO.search(c):
        return None  # "make the tint smaller", "make the change smaller": the last edit, not the file
    if m := re.search(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(?:x|×|by)\s*(\d+(?:\.\d+)?)(?![\d.])", c):
        w, h = m.group(1), m.group(2)
        if "." in w + h or min(int(w), int(h)) < MIN_SIDE or max(int(w), int(h)) > 100_000:
            return None  # "2.5x2.5", "a 3x5 flag": inches or prints, not pixels (the refusal says so)
        return [Resize(width=int(w), height=int(h))]
    if m := re.search(r"(\d{1,6})\s*(?:px|pixels?)?\s*(?:wide|across|in width|width)\b|\bwidth(?: of| to)?\s*(\d{1,6})", c):
        return [Resize(width=int(m.group(1) or m.group(2)))]
    if m := re.search(r"(\d{1,6})\s*(?:px|pixels?)?\s*(?:tall|high|in height|height)\b|\bheight(?: of| to)?\s*(\d{1,6})", c):
        return [Resize(height=int(m.group(1) or m.group(2)))]
    if m := re.search(r"(\d+(?:\.\d+)?)\s*(?:%|percent|per cent)|%\s*(\d+(?:\.\d+)?)", c):  # ("%50 larger")
        n = float(m.group(1) or m.group(2))
        if re.search(r"\b(?:smaller|less|reduce|down|shrink)\w*\b", c) and not re.search(r"\b(?:to|of)\s*\d", c):
            n = 100 - n  # "50% smaller": half the size; "reduce it to 50%" is 50% too
        elif re.search(r"\b(?:bigger|larger|more)\b", c) and not re.search(r"\b(?:to|of)\s*\d", c):
            n = 100 + n
        return [Resize(percent=n)] if 0 < n <= 1000 else None
    if _HALF.search(c):
        said = _HALF.search(c).group(0)
        return [Resize(percent=25 if "quarter" in said else 200 if re.search(r"double|twice", said) else 50)]
    if m := re.search(r"(\d{1,6})\s*(?:px|pixels?)\b", c):
        return [Resize(long=int(m.group(1)))]
    if _SMALLER.search(c):
        return [Resize(long=SHARE_SIDE)]  # "save it smaller": a size for sharing, said in the reply
    return None


_LOCATION = re.compile(r"\b(?:remove|strip|delete|erase|drop|clear|hide|take out|get rid of|wipe|scrub|leave out|"
                       r"no|without|don't (?:include|share|show|keep|save))\b.*\b(?:location|gps|geo-?tags?|"
                       r"geo-?location|geo ?data|coordinates|where (?:it|this|the (?:photo|picture)) was taken)\b")


_SAVE = re.compile(r"(?:save|export|download|store)(?: (?:it|this|that|the (?:photo|picture|image|edits?|result|changes|"
                   r"version|file)|my (?:photo|picture|image|edits?|changes)|a copy|all of it|everything))?"
                   r"(?: (?:for me|now|please|as (?:a |an )?(?:jpe?g|png|tiff?|webp|file|new file|copy)|to (?:my )?"
                   r"(?:disk|desktop|computer|files?|folder)))*")


def save(c: str) -> None:
    """'save it', 'export the photo': where that is done (the File menu); it was "Sorry, I don't know
    how to do that"."""
    if _SAVE.fullmatch(c):
        raise Refusal("Saving is in the File menu: File ▸ Save (Ctrl+S) writes this version (and asks before "
                      "replacing your original), File ▸ Save As… (Ctrl+Shift+S) or Export a Copy… (Ctrl+E) "
                      "write a new file. Every version is also kept in the history.", asks=True)
    return None


def remove_location(c: str) -> list[RemoveLocation] | None:
    """'remove the location', 'strip the GPS data' -> ``remove_location``.

    >>> [r.format() for r in remove_location("remove the location")]
    ['remove_location']
    """
    return [RemoveLocation()] if _LOCATION.search(c) else None


_RED_EYE = re.compile(r"\bred[- ]?eyes?\b(?! (?:colou?r|make-?up|shadow|liner))|\beyes? (?:are|is|look|looks) red\b")


def red_eye(c: str) -> list[RedEye] | None:
    """'remove the red eye', 'fix the red eyes', 'red-eye removal' -> ``red_eye``.

    >>> [r.format() for r in red_eye("please could you remove the red eye from this photo")]
    ['red_eye']
    >>> red_eye("make the eyes red") is None
    True
    """
    return [RedEye()] if _RED_EYE.search(c) else None


# "blur the faces", "hide their faces", "anonymise the faces": faces made unrecognisable, the strongest
# blur there is (-40, what "blur" gives a picture, left every face known); "a bit" is a softening
_HIDE = re.compile(r"\b(?:blur(?:r?ed)?|pixelate|hide|anonymi[sz]e|obscure|censor|mask)\b(?: out| all)?"
                   r"(?! (?:around|behind|outside|except|but|everything|all))")  # "blur around the face": the rest
FACE_BLUR = -100.0


def hide_faces(c: str) -> list[AdjustAttr] | None:
    """'blur the faces', 'anonymise their faces' -> ``adjust_attr sharpness -100 in faces``.

    >>> [r.format() for r in hide_faces("blur out the faces of the kids")]
    ['adjust_attr sharpness -100 in faces']
    >>> hide_faces("blur the face a bit") is None
    True
    """
    if not _HIDE.search(c) or re.search(r"\b(?:a (?:little )?bit|a little|slightly|a touch|soft(?:en|ly)?)\b", c):
        return None
    try:
        region = region_of(c)  # the faces, as the edits read them (agent.language.scope)
    except Unfindable:
        return None
    said = face_words(region) if region else None
    return [AdjustAttr("sharpness", FACE_BLUR, region=region)] if said and said[0] == "face" else None


# "add a vignette" was refused ("I can't add effects like that"): the edges darkened, about the centre's
# soft ellipse (the region "everything except center"); "remove the vignette" lifts them
VIGNETTE_REGION = "everything except center"
_VIGNETTE = re.compile(r"\bvignett(?:e|es|ing|ed)\b")
_VIGNETTE_OFF = re.compile(r"\b(?:remove|rmove|get rid of|take (?:out|away|off)|fix|correct|undo|reduce|less|lighten|"
                           r"brighten|no)\b")
_VIGNETTE_SIZE = {"slight": 15, "slightly": 15, "subtle": 15, "light": 15, "soft": 15, "little": 15, "small": 15, "strong": 40,
                  "heavy": 40, "dark": 40, "big": 40, "dramatic": 40}


def vignette(c: str) -> list[AdjustAttr] | None:
    """'add a vignette' -> the edges darkened by 25 (15 'a subtle one', 40 'a strong one'); 'remove
    the vignetting' -> lifted by 25.

    >>> [r.format() for r in vignette("add a subtle vignette")], [r.format() for r in vignette("fix the vignetting")]
    (['adjust_attr brightness -15 in everything except center'], ['adjust_attr brightness 25 in everything except center'])
    """
    if not _VIGNETTE.search(c):
        return None
    size = next((v for w, v in _VIGNETTE_SIZE.items() if re.search(rf"\b{w}\b", c)), 25)
    sign = 1 if _VIGNETTE_OFF.search(c) else -1
    return [AdjustAttr("brightness", sign * size, region=VIGNETTE_REGION)]


# "make it moodier" was "Sorry, I don't know how to do that": a mood is darker, with more contrast and
# quieter colours (three edits; "a bit" halves them, "very" or "much" makes them half as large again);
# "less moody" and "too moody" the other way
MOOD = (("brightness", -15), ("contrast", 15), ("saturation", -20))
_MOODY = re.compile(r"\b(?:mood(?:y|ier|iest)|more mood|broody|brooding|gloomier|atmospheric|darker mood|"
                    r"more (?:of a )?(?:dark |sombre |somber )?mood)\b")
_LESS_MOODY = re.compile(r"\b(?:less|not so|too|not as|overly)\s+(?:moody|broody|atmospheric)\b")


def _look(attrs, scale: float, region: str = "", tint: tuple[str, float] | None = None, sign: int = 1
          ) -> list[AdjustAttr | AdjustColor]:
    """A look of several edits (a mood, a sunset, an old photo): each attribute's amount times ``scale``
    (and ``sign``), rounded half away from zero, then the ``tint`` if any, all in ``region``."""
    def away(x: float) -> int:
        return int(round(x + (0.01 if x > 0 else -0.01)))

    out: list[AdjustAttr | AdjustColor] = [AdjustAttr(attr, away(sign * amount * scale), region=region) for attr, amount in attrs]
    if tint is not None:
        out.append(AdjustColor(tint[0], round(tint[1] * scale, 2), region=region))
    return out


def _look_scale(c: str) -> float:
    """How much of a look of several edits the words ask for: half of it for "a bit", "subtle", else all."""
    return 0.5 if re.search(r"\b(?:a (?:bit|little|touch)|slightly|somewhat|a tad|subtle)\b", c) else 1.0


# "make it look like sunset", "golden hour" were refused as a sky replacement ("I can't replace the
# sky ..."): the light of a late sun, warmer, a little darker, a touch of red (three edits, as a mood; warmth
# alone turned a blue sky khaki, an orange tint made it sepia: compared on gcompris' Chenonceau)
SUNSET = (("warmth", 40), ("brightness", -15))
SUNSET_TINT = ("red", 0.1)
_SUNSET = re.compile(r"\b(?:golden hour|sunset (?:look|feel|light|lighting|tones?|colou?rs?|glow|vibe|mood|effect|filter)"
                     r"|(?:look|looks|feel|feels|seem) (?:more )?like (?:it was taken at |it's |it is )?(?:a |the )?sunset"
                     r"|(?:taken )?at sunset|(?:warm )?evening light)\b")


def sunset(c: str) -> list[AdjustAttr | AdjustColor] | None:
    """'make it look like sunset', 'give it a golden hour feel' -> warmer by 40, darker by 15, tinted
    red at 10% ('a bit' half of it; 'the sky' in the sky); not 'replace the sky with a sunset'.

    >>> [r.format() for r in sunset("make it look like sunset")]
    ['adjust_attr warmth 40', 'adjust_attr brightness -15', 'adjust_color red 0.1']
    """
    if not _SUNSET.search(c) or re.search(r"\b(?:replace|swap|add|put|insert|new)\b", c):
        return None
    scale = _look_scale(c)
    try:
        region = region_of(c) or ""
    except Unfindable:
        return None
    return _look(SUNSET, scale, region, SUNSET_TINT)


# "make the photo look older" was refused as a face's retouch ("I can't retouch skin ..."): an old print's
# look is faded (colours -40, contrast -15) and warm (tinted orange at 20%; a brown tint made the Eiffel
# Tower's sky pink, warmth a cool grey: compared on gcompris' Eiffel Tower)
VINTAGE = (("saturation", -40), ("contrast", -15))
VINTAGE_TINT = ("orange", 0.2)
_AGED = r"(?:older|old|vintage|retro|aged|antique|faded|old[- ]fashioned|old[- ]school|like an old (?:photo|picture|print|photograph))"
_VINTAGE = re.compile(
    rf"^(?:make|turn|get) (?:it|this|the (?:whole )?(?:photo|picture|image|pic|shot|photograph))(?: look| seem| feel)?"
    rf"(?: a (?:bit|little|lot)| slightly| much| way)? (?:more )?{_AGED}"
    rf"|\b(?:vintage|retro|old[- ]fashioned|old[- ]school|faded|aged|antique|old (?:photo|film)|film) "
    rf"(?:look|feel|style|effect|filter|vibe|tone|tones|colou?rs?)\b|^(?:vintage|retro)(?: please)?$")


def vintage(c: str) -> list[AdjustAttr | AdjustColor] | None:
    """'make the photo look older', 'give it a vintage look' -> colours -40, contrast -15, tinted orange
    at 20% ('a bit' half of it); not 'make him look older' (a face's age: refused).

    >>> [r.format() for r in vintage("make the photo look older")]
    ['adjust_attr saturation -40', 'adjust_attr contrast -15', 'adjust_color orange 0.2']
    """
    if not _VINTAGE.search(c) or re.search(r"\b(?:remove|undo|take (?:away|off|out)|get rid of|less|without|no|reduce|"
                                           r"fix|restore|too)\b", c):
        return None  # ("remove the vintage look from the picture" is no vintage look to add)
    return _look(VINTAGE, _look_scale(c), tint=VINTAGE_TINT)


def mood(c: str) -> list[AdjustAttr] | None:
    """'make it moodier' -> darker by 15, contrast +15, colours -20; 'a bit moodier' half of it, 'the
    sky moodier' in the sky; 'less moody' the other way.

    >>> [r.format() for r in mood("make it moodier")]
    ['adjust_attr brightness -15', 'adjust_attr contrast 15', 'adjust_attr saturation -20']
    >>> [r.format() for r in mood("a bit less moody")]
    ['adjust_attr brightness 8', 'adjust_attr contrast -8', 'adjust_attr saturation 10']
    """
    less = _LESS_MOODY.search(c)
    if not (less or _MOODY.search(c)):
        return None
    scale = 0.5 if re.search(r"\b(?:a (?:bit|little|touch)|slightly|somewhat|a tad)\b", c) else \
        1.5 if re.search(r"\b(?:very|much|really|a lot|way|super)\b", c) else 1.0
    sign = -1 if less else 1
    try:
        region = region_of(c) or ""
    except Unfindable:
        return None
    return _look(MOOD, scale, region, sign=sign)


# "make it look like autumn" on a green forest (plasma-workspace-wallpapers' Path) ran the command model's
# "adjust_color green 0.2 in greenery"; the rules knew no season. A season's look, as the moods above:
# autumn turns the plants' green toward olive and gold (their hues 40 degrees toward yellow: an orange
# blend at 35% painted the whole dark forest flat yellow, warmth alone left it green) and warms the light;
# winter is cooler, paler and brighter; summer warmer and more vivid; spring more vivid and lighter; a
# night darker, blue and quieter (compared on Path and Picos de Europa)
SEASONS = {
    "autumn": ((("hue", -40, "greenery"), ("warmth", 15, ""))),
    "winter": (("warmth", -25, ""), ("saturation", -30, ""), ("brightness", 10, "")),
    "summer": (("warmth", 15, ""), ("saturation", 20, ""), ("brightness", 10, "")),
    "spring": (("saturation", 15, ""), ("brightness", 10, "")),
    "night": (("brightness", -40, ""), ("warmth", -30, ""), ("saturation", -30, "")),
}
_SEASON_WORDS = {"autumn": "autumn", "autumnal": "autumn", "fall": "autumn", "winter": "winter", "wintry": "winter",
                 "wintery": "winter", "summer": "summer", "summery": "summer", "spring": "spring",
                 "springtime": "spring", "night": "night", "nighttime": "night", "night time": "night"}
_SEASON_WORD = "|".join(sorted(_SEASON_WORDS, key=len, reverse=True))
_SEASON = re.compile(
    rf"\b(?:make|have|get|let) (?:it|this|the [a-z]+(?: [a-z]+)?) (?:look|feel|seem)(?: more)? like "
    rf"(?:it was taken |it's |it is )?(?:in |at |during )?(?:an? |the )?(?P<a>{_SEASON_WORD})\b"
    rf"|\b(?:give|add|apply|want|with|use)\b[^.]*?\b(?:an? |the |some )(?:subtle |slight |light |strong |real )?"
    rf"(?P<b>{_SEASON_WORD}) (?:look|feel|vibe|mood|"
    rf"colou?rs|tones?|effect|filter)\b"
    rf"|\b(?:make|turn) (?:it|this|the (?:photo|picture|image|scene)) (?:(?:a bit|a little|slightly|much|a lot) )?"
    rf"(?:more )?(?P<c>autumnal|wintry|wintery|summery)\b")


def season(c: str) -> list[AdjustAttr] | None:
    """'make it look like autumn' -> the plants' hues 40 degrees toward yellow, warmth +15; 'a winter
    look' -> cooler, paler, brighter; 'make it look like night' -> darker, bluer, quieter ('a bit' half
    of it). Not 'remove the autumn look'.

    >>> [r.format() for r in season("make it look like autumn")]
    ['adjust_attr hue -40 in greenery', 'adjust_attr warmth 15']
    >>> [r.format() for r in season("give it a subtle winter feel")]
    ['adjust_attr warmth -13', 'adjust_attr saturation -15', 'adjust_attr brightness 5']
    """
    m = _SEASON.search(c)
    if not m or re.search(r"\b(?:remove|undo|take (?:away|off|out)|get rid of|less|without|reduce|too|not)\b", c):
        return None
    name = _SEASON_WORDS[m.group("a") or m.group("b") or m.group("c")]
    scale = _look_scale(c)
    try:
        said = region_of(c) or ""  # "make the trees look like autumn": all of it there
    except Unfindable:
        return None
    return [AdjustAttr(attr, int(round(amount * scale + (0.01 if amount > 0 else -0.01))), region=said or region)
            for attr, amount, region in SEASONS[name]]
