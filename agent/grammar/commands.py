"""The command grammar: CAISE's executable commands plus Easel's extensions, declared in one place.

Every command is a frozen dataclass that parses from and formats to one line of text, and declares
everything else that is said or done about it: its usage line, its meaning (the README's table is
generated from these, and a test keeps the two equal), the reply after it ran ("Brightened by 20
points.") and its history label ("Brighter +20"). It holds no pixels: which operation of
:mod:`editor` (or object edit of :mod:`agent.edits.objects`) carries a command out is said once, in
:data:`agent.edits.run.RUNNERS`. Adding an operation means adding one class here (decorated with
:func:`command`), its op, and its runner.

::

    search <words>                      Search(words="kids umbrella")
    rotate <deg>                        Rotate(degrees=270)       # counter-clockwise, 0..360
    adjust_color <color> <intensity>    AdjustColor(color="red", intensity=0.3)
    adjust_attr <attr> <amount>         AdjustAttr(attr="brightness", amount=40)
    image_cutout                        ImageCutout()
    crop x1 y1 x2 y2                    Crop(x1=10, y1=20, x2=300, y2=400)
    crop <object words>|square|4:3|16:9 CropTo(target="the dog")
    undo / redo                         Undo() / Redo()
    flip horizontal|vertical            Flip(axis="horizontal")
    grayscale / auto_enhance            Grayscale() / AutoEnhance()
    ... in <region>                     AdjustAttr("brightness", 20, region="sky")  # point and say
    remove <object words>               Remove(words="the person on the left")
    background <colour>|blur|transparent Background(mode="white")
    explain [<what>]                    Explain(target="")
    describe                            Describe()

Parsing and formatting are exact inverses on CAISE's data: numbers keep the spelling they were
written with (``+10``, ``.25``), so ``format_command(parse_command(s)) == s.strip()``. Commands built
in code format canonically (``adjust_color red 0.3``). Surrounding whitespace is not part of a command
(CAISE writes ``"undo "`` and ``"image_cutout "``).
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import ClassVar

from editor.colors import COLORS
from editor.masks import (
    CENTER_FULL,
    CENTER_ZERO,
    DRAWN_FEATHER,
    HALF_FEATHER,
    OBJECT_FEATHER,
    SIDE_FULL,
    SIDE_ZERO,
    canonical_region_name,
)
from editor.regions import BACKGROUND_COLORS

# adjust_attr's attributes and the largest magnitude each takes; CAISE's two come first.
ATTR_RANGES: dict[str, int] = {
    "brightness": 100, "contrast": 100, "saturation": 100, "sharpness": 100, "warmth": 100, "hue": 180,
}
ATTRS = tuple(ATTR_RANGES)
FLIP_AXES = ("horizontal", "vertical")
ASPECTS = ("square", "4:3", "16:9")
# Background colours: CAISE's tint colours and the plain ones people ask for (editor.regions' palette).
BACKGROUND_COLOURS: dict[str, tuple[int, int, int]] = {
    name: rgb for name, rgb in BACKGROUND_COLORS.items() if name != "gray"
}
BACKGROUND_MODES = (*BACKGROUND_COLOURS, "blur", "transparent")
CAISE_TYPES = ("search", "rotate", "adjust_color", "brightness", "contrast", "image_cutout")


class CommandError(ValueError):
    """A command line that does not parse, or a parameter outside its valid range."""


def _number_text(value: float, text: str | None) -> str:
    """The spelling of a number: the one it was parsed from if it still denotes ``value``."""
    if text is not None and float(text) == value:
        return text
    if float(value).is_integer():
        return str(int(value))
    return format(Decimal(repr(float(value))), "f")  # shortest exact spelling, never 1e-05


def _amount(value: float) -> str:
    """A number as a person reads it: 20, 0.5, 12.5."""
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0").rstrip(".")


_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
_INT = re.compile(r"^[+-]?\d+$")


def _shown(token: str, limit: int = 24) -> str:
    """A token quoted for an error message, cut short: a 40 KB argument is not echoed back."""
    return repr(token if len(token) <= limit else token[:limit] + "...")


def _num(token: str, cls: type[Command]) -> float:
    if not _NUMBER.match(token):
        raise CommandError(f"{cls.name}: {_shown(token)} is not a number; usage: {cls.usage}")
    return float(token)


def _args(args: list[str], n: int, cls: type[Command]) -> list[str]:
    if len(args) != n:
        raise CommandError(f"{cls.name} takes {n} argument(s), got {len(args)}; usage: {cls.usage}")
    return args


# --- regions (point and say) --------------------------------------------------------------------
#
# An edit of the light or the colours may name where it applies, after the command in CAISE's
# shape: ``adjust_attr brightness 20 in sky``, ``grayscale in the cat``, ``adjust_attr warmth -30 in
# selection``, ``adjust_color blue 0.2 in everything except the cat``. The grammar keeps the words
# (lower case, single spaces) and says what kind of region they are; agent.edits.regions turns them
# into a mask on the version the edit applies to. A command without a region is the line CAISE wrote.

EXCEPT = "everything except "
REGION_USAGE = "[in <region>]"
# Regions that are not a mask of editor.masks' names and not an object the detector looks for.
SUBJECT, BACKGROUND, SELECTION = "subject", "background", "selection"
_REGION_WORDS = re.compile(r"^[a-z0-9][a-z0-9' :-]*$")
_NAMED_PHRASES = {
    "left": "the left side", "right": "the right side", "top": "the top", "bottom": "the bottom",
    "center": "the centre", SUBJECT: "the main subject", BACKGROUND: "the background",
    SELECTION: "your selection",
}
_DETERMINERS = re.compile(r"^(?:the|a|an|this|that|these|those|his|her|their|my|our|your|its|all|both|every|"
                          r"each|one|two|three|four|five)\b")


# What the person drew travels with the command that used it: the dialogue stores the selection's mask
# (8-bit, lossless) beside the versions and writes its hash after the word, ``in selection <sha256>``
# (``remove selection <sha256>``), so the line replays to the same pixels (agent.edits.run.replay).
_SELECTION_REF = re.compile(r"^(?:the )?selection(?: ([0-9a-f]{64}))?$")


def selection_ref(words: str) -> str | None:
    """The hash of the stored mask a selection region names, or None (none written, or no selection).

    >>> selection_ref("selection " + "ab" * 32)[:4], selection_ref("selection"), selection_ref("sky")
    ('abab', None, None)
    """
    m = _SELECTION_REF.match(words or "")
    return m.group(1) if m else None


def is_selection(words: str) -> bool:
    """Whether region (or remove) words name what the person drew: "selection", with or without
    the hash of its stored mask."""
    return bool(_SELECTION_REF.match(words or ""))


def shown_line(line: str) -> str:
    """A command line as the chat shows it: a stored selection's hash cut to its first 8 digits.

    >>> shown_line("grayscale in selection " + "0123456789" * 6 + "abcd")
    'grayscale in selection 01234567…'
    """
    return re.sub(r"\bselection ([0-9a-f]{8})[0-9a-f]{56}\b", r"selection \1…", line)


def _shown_in(region: str) -> str:
    """``_in(region)`` for labels: a selection without its hash."""
    inverted, words = region_parts(region)
    return _in((EXCEPT if inverted else "") + SELECTION) if is_selection(words) else _in(region)


def region_parts(region: str) -> tuple[bool, str]:
    """``(inverted, words)``: "everything except the cat" is the cat's region inverted.

    >>> region_parts("everything except the cat"), region_parts("sky")
    ((True, 'the cat'), (False, 'sky'))
    """
    return (True, region[len(EXCEPT):]) if region.startswith(EXCEPT) else (False, region)


def region_kind(words: str) -> str:
    """What the words of a region (without "everything except") name: ``"named"`` (a side, half,
    corner, the centre, a tonal range or the sky: :data:`editor.masks.REGION_NAMES`), ``"subject"``,
    ``"background"`` (the cutout mask and its inverse), ``"selection"`` (what the person drew) or
    ``"object"`` (words the detector looks for: "the dog", "the man on the right").

    >>> [region_kind(w) for w in ("sky", "the left side", "background", "selection", "the dog")]
    ['named', 'named', 'background', 'selection', 'object']
    """
    if words in (SUBJECT, "the subject", "main subject", "the main subject", "foreground", "the foreground"):
        return SUBJECT
    if words in (BACKGROUND, "the background"):
        return BACKGROUND
    if is_selection(words):
        return SELECTION
    try:
        canonical_region_name(words)
    except ValueError:
        return "object"
    return "named"


def region_phrase(region: str) -> str:
    """The region in words, for replies: "the sky", "the left side", "the top left corner",
    "your selection", "everything except the cat".

    >>> region_phrase("top left"), region_phrase("everything except dog")
    ('the top left corner', 'everything except the dog')
    """
    inverted, words = region_parts(region)
    kind = region_kind(words)
    if kind == "named":
        name = canonical_region_name(words)
        text = _NAMED_PHRASES.get(name) or (f"the {name} corner" if " " in name and "half" not in name
                                             else f"the {name}")
    elif kind in _NAMED_PHRASES:
        text = _NAMED_PHRASES[kind]
    else:
        text = words if _DETERMINERS.match(words) else f"the {words}"
    return EXCEPT + text if inverted else text


def _check_region(cmd: Command) -> None:
    """Normalise a command's region words (lower case, single spaces) and refuse what is no region."""
    region = " ".join(str(cmd.region).lower().split())
    object.__setattr__(cmd, "region", region)
    if not region:
        return
    inverted, words = region_parts(region)
    if not words.strip() or words.startswith(EXCEPT.strip()) or not _REGION_WORDS.match(words):
        raise CommandError(f"{cmd.name}: {_shown(region)} is not a region; write 'in' and a region, for example "
                           f"'in sky', 'in shadows', 'in the dog', 'in selection', 'in everything except the cat'")


def _split_region(args: list[str], n: int, cls: type[Command]) -> tuple[list[str], str]:
    """The command's own ``n`` arguments and the words of its ``in <region>`` suffix ("" for none)."""
    if len(args) > n:
        if args[n].lower() != "in" or len(args) == n + 1:
            raise CommandError(f"{cls.name} takes {n} argument(s) and an optional 'in <region>', got "
                               f"{_shown(' '.join(args[n:]), 40)} after them; usage: {cls.usage}")
        return args[:n], " ".join(args[n + 1:])
    return args, ""


def _in(region: str) -> str:
    return f" in {region}" if region else ""


def _region_meaning() -> str:
    """The README's row about regions: what each resolves to and its feathered edge."""
    return (
        "any adjust_attr, adjust_color, grayscale and auto_enhance may end with `in <region>`: the operation "
        "runs on the whole picture and is kept only inside the region's soft mask m, `out = m*op(in) + "
        "(1-m)*in`, so pixels where m = 0 are unchanged bit for bit. Regions and their edges (D the "
        "diagonal): `left`/`right`/`top`/`bottom` 1 up to "
        f"{SIDE_FULL:.3g} of the way across, a linear ramp to 0 at {SIDE_ZERO:.3g}; `left half` ... a ramp "
        f"{HALF_FEATHER:g}*D wide on the middle line; `top left` ... the product of two sides; `center` 1 "
        f"inside {CENTER_FULL:.3g} of the half-axes, 0 beyond {CENTER_ZERO:.3g}; `shadows`/`midtones`/"
        "`highlights` luminance smoothsteps (shadows full below L 0.2, none above 0.6; midtones full 0.4-0.6, "
        "none below 0.1 or above 0.9; highlights none below 0.4, full above 0.8); `sky` found from colour, "
        "texture and position, edge about 2 px on a 1280-px copy; `subject`/`background` the cutout's soft "
        "alpha and its inverse; object words (`the dog`, `the man on the right`, `the cars`) each found "
        f"by the detector, masked to its edge and feathered {OBJECT_FEATHER:g}*D; `selection` the stroke or "
        "box drawn in the window, snapped to the edges it encloses (GrabCut) or, where that fails, "
        f"feathered {DRAWN_FEATHER:g}*D, recorded as `selection <sha256>`: the hash of its mask, stored (8 bits) "
        "beside the versions so the line replays to the same pixels; `everything except <region>` is 1 - m. "
        "A region that is not found "
        "(no sky, no such object) is said, never replaced by the whole picture (Easel extension)"
    )


# --- the grammar --------------------------------------------------------------------------------

GRAMMAR: dict[str, list[type[Command]]] = {}


def command(cls: type[Command]) -> type[Command]:
    """Register a command class; the first class registered under a name parses that name's lines."""
    GRAMMAR.setdefault(cls.name, []).append(cls)
    return cls


@dataclass(frozen=True)
class Command:
    """Base class; ``name`` is the first word of the command line."""

    name: ClassVar[str] = ""
    usage: ClassVar[str] = ""  # the grammar line, as Help > Commands and error messages show it
    meaning: ClassVar[str] = ""  # what it does, exactly (the README's table)
    caise: ClassVar[bool] = False  # one of CAISE's own commands
    edits_image: ClassVar[bool] = False  # makes a new version of the current image

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        _args(args, 0, cls)
        return cls()

    def format(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.format()

    def reply(self) -> str:
        """What the assistant says after running it."""
        return "Done."

    def label(self) -> str:
        """A short name for the version it made (the history panel)."""
        return self.format()


@command
@dataclass(frozen=True)
class Search(Command):
    words: str
    text: str | None = field(default=None, compare=False, repr=False)  # spelling, spaces and all
    name = "search"
    usage = "search <words>"
    meaning = "find a photo in the library"
    caise = True

    def __post_init__(self) -> None:
        if not self.words.strip():
            raise CommandError("search needs words to look for, e.g. 'search red umbrella'")

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        return cls(words=" ".join(args), text=rest)

    def format(self) -> str:
        if self.text is not None and " ".join(self.text.split()) == " ".join(self.words.split()):
            return f"search {self.text}"
        return f"search {self.words}"

    def label(self) -> str:
        return f"Search: {self.words}"


@command
@dataclass(frozen=True)
class Rotate(Command):
    degrees: float
    text: str | None = field(default=None, compare=False, repr=False)
    name = "rotate"
    usage = "rotate <degrees 0..360, counter-clockwise>"
    meaning = ("counter-clockwise degrees, 0–360 (\"clockwise 90\" is `rotate 270`); the canvas grows to "
               "hold the whole image, multiples of 90 are exact")
    caise = True
    edits_image = True

    def __post_init__(self) -> None:
        if not math.isfinite(self.degrees) or not 0 <= self.degrees <= 360:
            raise CommandError(
                f"rotate {self.degrees:g} is out of range: rotate takes counter-clockwise degrees from 0 to 360 "
                "(for clockwise 90 write 'rotate 270')"
            )

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        (deg,) = _args(args, 1, cls)
        return cls(degrees=_num(deg, cls), text=deg)

    def format(self) -> str:
        return f"rotate {_number_text(self.degrees, self.text)}"

    def _turn(self) -> tuple[float, str]:
        deg = self.degrees % 360
        return (deg, "counter-clockwise") if deg <= 180 else (360 - deg, "clockwise")

    def reply(self) -> str:
        deg, way = self._turn()
        return "Rotated by 0°: nothing changed." if deg == 0 else f"Rotated {_amount(deg)}° {way}."

    def label(self) -> str:
        deg, way = self._turn()
        return f"Rotate {_amount(deg)}° {'CW' if way == 'clockwise' else 'CCW'}"


@command
@dataclass(frozen=True)
class AdjustColor(Command):
    color: str
    intensity: float
    text: str | None = field(default=None, compare=False, repr=False)
    region: str = ""  # where: "sky", "the cat", "selection" ("": the whole picture)
    name = "adjust_color"
    usage = f"adjust_color <{'|'.join(COLORS)}> <intensity 0..1> {REGION_USAGE}"
    meaning = ("blend toward red, orange, green, blue, skyblue, purple, brown, yellow or pink: "
               "`out = (1-i)*in + i*rgb(colour)`")
    caise = True
    edits_image = True

    def __post_init__(self) -> None:
        if self.color not in COLORS:
            raise CommandError(f"unknown colour {_shown(self.color)}; valid colours: {', '.join(COLORS)}")
        if not math.isfinite(self.intensity) or not 0 <= self.intensity <= 1:
            raise CommandError(f"adjust_color intensity {self.intensity:g} is out of range: it must be between 0 and 1")
        _check_region(self)

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        args, region = _split_region(args, 2, cls)
        color, amount = _args(args, 2, cls)
        return cls(color=color.lower(), intensity=_num(amount, cls), text=amount, region=region)

    def format(self) -> str:
        return f"adjust_color {self.color} {_number_text(self.intensity, self.text)}{_in(self.region)}"

    def reply(self) -> str:
        where = f" {region_phrase(self.region)}" if self.region else ""
        return f"Tinted{where} toward {self.color} at {_amount(round(self.intensity * 100, 1))}%."

    def label(self) -> str:
        return f"Tint {self.color} {_amount(round(self.intensity * 100, 1))}%{_shown_in(self.region)}"


# (reply when raised, reply when lowered, label word, label word when lowered); in the replies {n} is
# the amount and, for an edit of a region, {w} is " the sky", {of} " of the sky" and {it} "the sky"
# (without a region: "", "" and "it", the words CAISE's replies had).
_ATTR_WORDS = {
    "brightness": ("Brightened{w} by {n} points.", "Darkened{w} by {n} points.", "Brighter", "Darker"),
    "contrast": ("Raised the contrast{of} by {n} points.", "Lowered the contrast{of} by {n} points.", "Contrast",
                 "Contrast"),
    "saturation": ("Made the colours{of} more vivid by {n} points.", "Made the colours{of} duller by {n} points.",
                   "Saturation", "Saturation"),
    "sharpness": ("Sharpened{w} by {n} points.", "Softened (blurred){w} by {n} points.", "Sharper", "Softer"),
    "warmth": ("Made {it} warmer by {n} points.", "Made {it} cooler by {n} points.", "Warmer", "Cooler"),
    "hue": ("Shifted the hues{of} by {n}°.", "Shifted the hues{of} by -{n}°.", "Hue", "Hue"),
}


def _place(region: str) -> dict[str, str]:
    """The words of a reply's place slots for ``region`` (see :data:`_ATTR_WORDS`)."""
    if not region:
        return {"w": "", "of": "", "it": "it"}
    where = region_phrase(region)
    return {"w": f" {where}", "of": f" of {where}", "it": where}


@command
@dataclass(frozen=True)
class AdjustAttr(Command):
    attr: str
    amount: float
    text: str | None = field(default=None, compare=False, repr=False)
    region: str = ""  # where: "sky", "shadows", "the dog", "selection" ("": the whole picture)
    name = "adjust_attr"
    usage = (f"adjust_attr brightness|contrast|saturation|sharpness|warmth <-100..100> | hue <-180..180> "
             f"{REGION_USAGE}")
    meaning = (
        "brightness p: `out = in + p/100*M`; contrast p: `out = (in-M/2)*(1+p/100)+M/2`; saturation p: "
        "`out = Y + (in-Y)*(1+p/100)` with luma Y (-100 is black and white); sharpness p > 0: unsharp mask "
        "`out = in + 1.5*p/100*(in - G(in))`, p < 0: Gaussian blur; warmth p: R x(1+0.2t), G x(1+0.04t), "
        "B x(1-0.2t), t = p/100; hue d: colours turned d degrees about the grey axis (Easel's attributes: "
        "saturation, sharpness, warmth, hue)"
    )
    caise = True  # brightness and contrast are CAISE's; the other attributes are Easel's
    edits_image = True

    def __post_init__(self) -> None:
        if self.attr not in ATTR_RANGES:
            raise CommandError(f"adjust_attr takes {', '.join(ATTRS)}, got {_shown(self.attr)}")
        top = ATTR_RANGES[self.attr]
        if not math.isfinite(self.amount) or not -top <= self.amount <= top:
            unit = "degrees" if self.attr == "hue" else "a percentage"
            raise CommandError(
                f"adjust_attr {self.attr} {self.amount:g} is out of range: it takes {unit} from -{top} to {top}"
            )
        _check_region(self)

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        args, region = _split_region(args, 2, cls)
        attr, amount = _args(args, 2, cls)
        return cls(attr=attr.lower(), amount=_num(amount, cls), text=amount, region=region)

    def format(self) -> str:
        return f"adjust_attr {self.attr} {_number_text(self.amount, self.text)}{_in(self.region)}"

    def reply(self) -> str:
        up, down, *_ = _ATTR_WORDS[self.attr]
        place = _place(self.region)
        if self.amount == 0:
            return f"Changed the {self.attr}{place['of']} by 0: nothing changed."
        if self.attr == "saturation" and self.amount == -100:
            return f"Made {place['it']} black and white (saturation -100)."
        return (up if self.amount > 0 else down).format(n=_amount(abs(self.amount)), **place)

    def label(self) -> str:
        _, _, more, less = _ATTR_WORDS[self.attr]
        sign = "+" if self.amount >= 0 else "-"
        unit = "°" if self.attr == "hue" else ""
        return f"{more if self.amount >= 0 else less} {sign}{_amount(abs(self.amount))}{unit}{_shown_in(self.region)}"


@command
@dataclass(frozen=True)
class ImageCutout(Command):
    name = "image_cutout"
    usage = "image_cutout"
    meaning = "keep the main subject, background black (alpha = mask where the format has alpha)"
    caise = True
    edits_image = True

    def reply(self) -> str:
        return ("Cut out the main subject: the background is now transparent (black when saved in a "
                "format without transparency, such as JPEG).")

    def label(self) -> str:
        return "Cut out subject"


@command
@dataclass(frozen=True)
class Crop(Command):
    """Crop to the pixel box x1 y1 x2 y2 (x2, y2 exclusive); corners may come in any order."""

    x1: int
    y1: int
    x2: int
    y2: int
    name = "crop"
    usage = "crop x1 y1 x2 y2"
    meaning = "keep a pixel box (x2, y2 exclusive; corners in any order)"
    caise = True
    edits_image = True

    def __post_init__(self) -> None:
        for v in (self.x1, self.y1, self.x2, self.y2):
            if v < 0:
                raise CommandError(f"crop coordinates are pixels from 0 up, got {v}")

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        if args and not _NUMBER.match(args[0]):
            return CropTo.parse(args, rest)
        coords = _args(args, 4, cls)
        for c in coords:
            if not _INT.match(c):
                raise CommandError(f"crop: {_shown(c)} is not a whole pixel coordinate; usage: crop x1 y1 x2 y2")
            if len(c.lstrip("+-")) > 9:
                raise CommandError(f"crop: {_shown(c)} is out of range (pixel coordinates, at most 999999999)")
        x1, y1, x2, y2 = (int(c) for c in coords)
        return cls(x1=x1, y1=y1, x2=x2, y2=y2)

    def format(self) -> str:
        return f"crop {self.x1} {self.y1} {self.x2} {self.y2}"

    def reply(self) -> str:
        return f"Cropped to {abs(self.x2 - self.x1)}×{abs(self.y2 - self.y1)} pixels."

    def label(self) -> str:
        return f"Crop {abs(self.x2 - self.x1)}×{abs(self.y2 - self.y1)}"


@command
@dataclass(frozen=True)
class CropTo(Command):
    """Crop to an object the words name, or to an aspect ratio about the main subject."""

    target: str
    name = "crop"
    usage = "crop <object words>|square|4:3|16:9"
    meaning = ("crop to the named object with a margin, or to that aspect ratio (landscape) centred on the "
               "main subject (Easel extension)")
    edits_image = True

    def __post_init__(self) -> None:
        if not self.target.strip():
            raise CommandError(f"crop needs a box or what to crop to; usage: {Crop.usage} or {self.usage}")

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        return cls(target=" ".join(args).lower())

    def format(self) -> str:
        return f"crop {self.target}"

    @property
    def aspect(self) -> str | None:
        return self.target if self.target in ASPECTS else None

    def reply(self) -> str:
        if self.aspect:
            return f"Cropped to {'a square' if self.aspect == 'square' else self.aspect} around the main subject."
        return f"Cropped to {self.target}."

    def label(self) -> str:
        return f"Crop {self.target}"


@command
@dataclass(frozen=True)
class Undo(Command):
    """Go back; a request may ask for more than one step ("undo the last two edits": ``steps=2``)
    or for the original ("go back to the original": ``original=True``). Both are readings of
    words, not of the command line, which stays CAISE's ``undo``."""

    steps: int = field(default=1, compare=False)
    original: bool = field(default=False, compare=False)
    name = "undo"
    usage = "undo"
    meaning = "go back one version"
    caise = True


@command
@dataclass(frozen=True)
class Redo(Command):
    name = "redo"
    usage = "redo"
    meaning = "go forward again after undo"


@command
@dataclass(frozen=True)
class Flip(Command):
    axis: str
    name = "flip"
    usage = "flip horizontal|vertical"
    meaning = "mirror left-right (horizontal) or top-bottom (vertical)"
    edits_image = True

    def __post_init__(self) -> None:
        if self.axis not in FLIP_AXES:
            raise CommandError(f"flip takes horizontal or vertical, got {_shown(self.axis)}")

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        (axis,) = _args(args, 1, cls)
        return cls(axis=axis.lower())

    def format(self) -> str:
        return f"flip {self.axis}"

    def reply(self) -> str:
        return "Mirrored it left to right." if self.axis == "horizontal" else "Flipped it upside down."

    def label(self) -> str:
        return "Mirror" if self.axis == "horizontal" else "Flip upside down"


class _Regional(Command):
    """A command without arguments of its own that may end with ``in <region>``."""

    def __post_init__(self) -> None:
        _check_region(self)

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        args, region = _split_region(args, 0, cls)
        return cls(region=region)

    def format(self) -> str:
        return f"{self.name}{_in(self.region)}"


@command
@dataclass(frozen=True)
class Grayscale(_Regional):
    region: str = ""  # where ("": the whole picture)
    name = "grayscale"
    usage = f"grayscale {REGION_USAGE}"
    meaning = "black and white: luma `Y = 0.299 R + 0.587 G + 0.114 B` in every colour channel"
    edits_image = True

    def reply(self) -> str:
        return f"Made {region_phrase(self.region) if self.region else 'it'} black and white."

    def label(self) -> str:
        return f"Black and white{_shown_in(self.region)}"


@command
@dataclass(frozen=True)
class AutoEnhance(_Regional):
    region: str = ""  # where ("": the whole picture; the curves are always measured on all of it)
    name = "auto_enhance"
    usage = f"auto_enhance {REGION_USAGE}"
    meaning = ("automatic white balance (on the brightest 1% of pixels), levels (0.5% clipped at each end) and "
               "a gamma toward mid-grey, one curve per channel (\"make it look better\", \"fix the lighting\")")
    edits_image = True

    def reply(self) -> str:
        return (f"Enhanced {region_phrase(self.region) if self.region else 'it'} automatically: levels, white "
                "balance and contrast.")

    def label(self) -> str:
        return f"Auto enhance{_shown_in(self.region)}"


@command
@dataclass(frozen=True)
class Remove(Command):
    words: str
    name = "remove"
    usage = "remove <object words>"
    meaning = ("find the named object(s) with the detector (\"the people\" is each person, \"in the background\" "
               "the smaller ones, \"next to the Y\" the nearest to a Y; \"the text\", \"the caption\", \"the "
               "watermark\": the OCR model's lines), mask each inside its box (u2netp, else GrabCut) leaving out the "
               "other objects the detector sees, dilate, and fill the holes with a multi-scale exemplar fill "
               "(patches of the hole's surroundings, seamed in); pixels outside the dilated masks are unchanged")
    edits_image = True

    def __post_init__(self) -> None:
        if not self.words.strip():
            raise CommandError(f"remove needs what to remove; usage: {self.usage}")

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        return cls(words=" ".join(args).lower())

    def format(self) -> str:
        return f"remove {self.words}"

    def reply(self) -> str:
        return f"Removed {'your selection' if is_selection(self.words) else self.words} and filled in the background."

    def label(self) -> str:
        return f"Remove {SELECTION if is_selection(self.words) else self.words}"


@command
@dataclass(frozen=True)
class Background(Command):
    mode: str
    keep: str = ""  # the object(s) to keep ("the dog"); empty: the main subject
    name = "background"
    usage = f"background <{'|'.join(BACKGROUND_COLOURS)}>|blur|transparent [behind <object words>]"
    meaning = ("keep the main subject (the cutout mask m), or the objects named after `behind` (each found by "
               "the detector and masked as for remove), and replace the rest: `out = m*in + (1-m)*bg` with a "
               "plain colour, a blur of the background alone, or transparency (alpha = m)")
    edits_image = True

    def __post_init__(self) -> None:
        if self.mode not in BACKGROUND_MODES:
            raise CommandError(f"background takes a colour ({', '.join(BACKGROUND_COLOURS)}), blur or "
                               f"transparent, got {self.mode!r}")

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        if len(args) > 1 and args[1].lower() == "behind" and len(args) > 2:
            keep = " ".join(args[2:]).lower()
            args = args[:1]
        else:
            keep = ""
        (mode,) = _args(args, 1, cls)
        mode = mode.lower()
        return cls(mode="grey" if mode == "gray" else mode, keep=keep)

    def format(self) -> str:
        return f"background {self.mode}" + (f" behind {self.keep}" if self.keep else "")

    def reply(self) -> str:
        behind = f"behind {self.keep}" if self.keep else "behind the main subject"
        if self.mode == "blur":
            return f"Blurred the background {behind}."
        if self.mode == "transparent":
            return (f"Made the background {behind} transparent (black when saved in a format without "
                    "transparency).")
        return f"Replaced the background {behind} with {self.mode}." if self.keep else \
            f"Replaced the background with {self.mode}."

    def label(self) -> str:
        return f"Background {self.mode}" + (f" behind {self.keep}" if self.keep else "")


@command
@dataclass(frozen=True)
class Explain(Command):
    """Explain what changed; ``target`` names what to compare with (empty: the parent version)."""

    target: str = ""
    name = "explain"
    usage = "explain [what to compare with]"
    meaning = "say what changed between two versions, with boxes and measured amounts"

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        return cls(target=rest.strip())

    def format(self) -> str:
        return f"explain {self.target}".rstrip()


@command
@dataclass(frozen=True)
class Describe(Command):
    """Caption the picture; ``question`` holds a question about it ("what colour is the cup?", "what
    would you improve?"), read from words and answered from perception, recorded as ``describe``."""

    question: str = field(default="", compare=False)
    name = "describe"
    usage = "describe"
    meaning = "caption the image, or the part of it the drawn trace follows"


COMMAND_NAMES = tuple(GRAMMAR)
# The commands that may end with ``in <region>``.
REGIONAL: tuple[type[Command], ...] = (AdjustColor, AdjustAttr, Grayscale, AutoEnhance)


def with_region(command: Command, region: str) -> Command:
    """``command`` applied to ``region`` (a region's words; "" for the whole picture).

    >>> with_region(AdjustAttr("brightness", 20), "sky").format()
    'adjust_attr brightness 20 in sky'
    """
    if not isinstance(command, REGIONAL):
        raise CommandError(f"{command.name} cannot apply to a region; only {', '.join(c.name for c in REGIONAL)} can")
    return dataclasses.replace(command, region=region)


def with_selection_ref(command: Command, digest: str) -> Command:
    """``command`` with the hash of the stored mask of the selection it uses written after
    "selection" (see :func:`selection_ref`); other commands unchanged.

    >>> with_selection_ref(Grayscale(region="selection"), "0" * 64).format() == "grayscale in selection " + "0" * 64
    True
    """
    if isinstance(command, REGIONAL) and command.region:
        inverted, words = region_parts(command.region)
        if is_selection(words):
            return dataclasses.replace(command, region=(EXCEPT if inverted else "") + f"{SELECTION} {digest}")
    if isinstance(command, Remove) and is_selection(command.words):
        return dataclasses.replace(command, words=f"{SELECTION} {digest}")
    return command


def command_classes() -> list[type[Command]]:
    """Every command class, in the grammar's order."""
    return [cls for classes in GRAMMAR.values() for cls in classes]


def usage() -> str:
    """One line per command: what the grammar accepts."""
    return "\n".join(cls.usage for cls in command_classes())


def readme_table() -> str:
    """The README's table of commands, generated from the grammar."""
    rows = ["| command | meaning |", "| --- | --- |"]
    for cls in command_classes():
        use = cls.usage.replace("|", "\\|")
        extension = "" if cls.caise else " (Easel extension)"
        meaning = cls.meaning if "extension" in cls.meaning else cls.meaning + extension
        rows.append(f"| `{use}` | {meaning} |")
    rows.append(f"| `... in <region>` | {_region_meaning()} |")
    return "\n".join(rows)


def parse_command(line: str) -> Command:
    """Parse one command line; raise :class:`CommandError` with the usage if it is not valid.

    >>> parse_command("rotate 270")
    Rotate(degrees=270.0)
    >>> parse_command("adjust_color blue .25").format()
    'adjust_color blue .25'
    """
    text = line.strip()
    if not text:
        raise CommandError("empty command; commands are:\n" + usage())
    name, _, rest = text.partition(" ")
    name = name.lower()
    classes = GRAMMAR.get(name)
    if classes is None:
        raise CommandError(f"unknown command {_shown(name)}; commands are:\n" + usage())
    return classes[0].parse(rest.split(), rest)


def format_command(command: Command) -> str:
    """The command line of ``command`` (inverse of :func:`parse_command`)."""
    return command.format()


def command_type(command: Command | str) -> str:
    """CAISE's command type: search, rotate, adjust_color, brightness, contrast, image_cutout, ..."""
    if isinstance(command, str):
        command = parse_command(command)
    if isinstance(command, AdjustAttr):
        return command.attr
    return command.name


if __name__ == "__main__":  # python -m agent.grammar.commands --readme: the README's table of commands
    print(readme_table() if "--readme" in __import__("sys").argv else usage())
