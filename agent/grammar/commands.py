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

from agent.grammar.base import GRAMMAR, Command, command  # noqa: F401 - the base is part of the grammar's interface
from agent.grammar.base import INT_RE as _INT
from agent.grammar.base import NUMBER_RE as _NUMBER
from agent.grammar.base import amount_text as _amount
from agent.grammar.base import number_text as _number_text
from agent.grammar.base import read_number as _num
from agent.grammar.base import take_args as _args
from agent.grammar.errors import CommandError, shown
from agent.grammar.regions import (  # noqa: F401 - the region words are part of the grammar's interface
    BACKGROUND,
    EXCEPT,
    FACE,
    JOINED,
    REGION_USAGE,
    SELECTION,
    SUBJECT,
    check_region,
    face_words,
    in_region,
    is_selection,
    joined_regions,
    region_kind,
    region_meaning,
    region_parts,
    region_phrase,
    selection_ref,
    shown_in,
    shown_line,
    split_region,
)
from editor.colors import COLORS
from editor.regions import BACKGROUND_COLORS

# adjust_attr's attributes and the largest magnitude each takes; CAISE's two come first.
ATTR_RANGES: dict[str, int] = {
    "brightness": 100, "contrast": 100, "saturation": 100, "sharpness": 100, "warmth": 100, "hue": 180,
}
ATTRS = tuple(ATTR_RANGES)
FLIP_AXES = ("horizontal", "vertical")
ASPECTS = ("square", "4:3", "16:9")
MAX_INSET = 40  # percent of each side: "crop in 50%" would leave nothing
MAX_EDGE = 75  # percent of the picture cut off one side ("crop off the bottom half": 50)
_EDGE = re.compile(r"off (top|bottom|left|right)(?: and (top|bottom|left|right))? (\d+(?:\.\d+)?)%")


def edge_limit(sides: tuple[str, ...]) -> float:
    """The most of the picture ``crop off`` may cut off each of ``sides``: :data:`MAX_EDGE`, under half
    for two opposite sides."""
    return min(MAX_EDGE, 49) if set(sides) in ({"left", "right"}, {"top", "bottom"}) else MAX_EDGE


CROP_MARGIN = 0.1  # the room a crop to a thing leaves around its box, a share of the box's size on each side
FACE_MARGIN = 0.5  # ... and a headshot around a face (half its width each side; the hair and shoulders as much again)
# Background colours: CAISE's tint colours and the plain ones people ask for (editor.regions' palette).
BACKGROUND_COLOURS: dict[str, tuple[int, int, int]] = {
    name: rgb for name, rgb in BACKGROUND_COLORS.items() if name != "gray"
}
BACKGROUND_MODES = (*BACKGROUND_COLOURS, "blur", "transparent")
BLUR_RANGE = (0.25, 4.0)  # a background blur's strength, times editor.regions' usual sigma (max(H, W)/60)
CAISE_TYPES = ("search", "rotate", "adjust_color", "brightness", "contrast", "image_cutout")


@command
@dataclass(frozen=True)
class Search(Command):
    """Find a photo; ``rank`` > 1 opens the rank-th best match instead of the best ("another one",
    "the second one" after a search: ``search red balloon #2``)."""

    words: str
    text: str | None = field(default=None, compare=False, repr=False)  # spelling, spaces and all
    rank: int = field(default=1, repr=False)
    name = "search"
    usage = "search <words> [#<rank>]"
    meaning = "find a photo in the library; `#2`, `#3` ... open the second, third ... best match instead of the best"
    caise = True

    def __post_init__(self) -> None:
        if not self.words.strip():
            raise CommandError("search needs words to look for, e.g. 'search red umbrella'")
        if not 1 <= self.rank <= 99:
            raise CommandError(f"search #{self.rank}: a rank is 1 (the best match) to 99")

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        if len(args) > 1 and re.fullmatch(r"#\d{1,2}", args[-1]):
            kept = rest.rstrip()
            return cls(words=" ".join(args[:-1]), text=kept[:len(kept) - len(args[-1])].rstrip(),
                       rank=int(args[-1][1:]))
        return cls(words=" ".join(args), text=rest)

    def __repr__(self) -> str:
        return f"Search(words={self.words!r}" + (f", rank={self.rank}" if self.rank != 1 else "") + ")"

    def format(self) -> str:
        rank = f" #{self.rank}" if self.rank != 1 else ""
        if self.text is not None and " ".join(self.text.split()) == " ".join(self.words.split()):
            return f"search {self.text}{rank}"
        return f"search {self.words}{rank}"

    def label(self) -> str:
        return f"Search: {self.words}" + (f" (match {self.rank})" if self.rank != 1 else "")


@command
@dataclass(frozen=True)
class Rotate(Command):
    """Turn the picture; ``crop``: then keep the largest upright rectangle inside it (no empty
    corners). ``level`` is a reading of words, not of the line: "straighten it" with no number,
    whose angle the dialogue measures (the tilt of the horizon) before it runs."""

    degrees: float
    text: str | None = field(default=None, compare=False, repr=False)
    crop: bool = field(default=False, repr=False)
    level: bool = field(default=False, compare=False, repr=False)
    name = "rotate"
    usage = "rotate <degrees 0..360, counter-clockwise> [crop]"
    meaning = ("counter-clockwise degrees, 0–360 (\"clockwise 90\" is `rotate 270`); the canvas grows to "
               "hold the whole image, multiples of 90 are exact; with `crop` the result is cropped to the largest "
               "upright rectangle inside the turned picture, so no empty corner is left (Easel extension)")
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
        crop = len(args) == 2 and args[1].lower() == "crop"
        (deg,) = _args(args[:1] if crop else args, 1, cls)
        return cls(degrees=_num(deg, cls), text=deg, crop=crop)

    def __repr__(self) -> str:  # CAISE's rotation as it always read; the extension only when used
        return f"Rotate(degrees={self.degrees!r}" + (", crop=True" if self.crop else "") + \
            (", level=True" if self.level else "") + ")"

    def format(self) -> str:
        return f"rotate {_number_text(self.degrees, self.text)}" + (" crop" if self.crop else "")

    def _turn(self) -> tuple[float, str]:
        deg = self.degrees % 360
        return (deg, "counter-clockwise") if deg <= 180 else (360 - deg, "clockwise")

    def reply(self) -> str:
        deg, way = self._turn()
        if deg == 0:
            return "Rotated by 0°: nothing changed."
        cropped = " and cropped to the largest upright rectangle inside it (no empty corners)" if self.crop else ""
        return f"Rotated {_amount(deg)}° {way}{cropped}."

    def label(self) -> str:
        deg, way = self._turn()
        return f"Rotate {_amount(deg)}° {'CW' if way == 'clockwise' else 'CCW'}" + (", cropped" if self.crop else "")


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
            raise CommandError(f"unknown colour {shown(self.color)}; valid colours: {', '.join(COLORS)}")
        if not math.isfinite(self.intensity) or not 0 <= self.intensity <= 1:
            raise CommandError(f"adjust_color intensity {self.intensity:g} is out of range: it must be between 0 and 1")
        check_region(self)

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        args, region = split_region(args, 2, cls)
        color, amount = _args(args, 2, cls)
        return cls(color=color.lower(), intensity=_num(amount, cls), text=amount, region=region)

    def format(self) -> str:
        return f"adjust_color {self.color} {_number_text(self.intensity, self.text)}{in_region(self.region)}"

    def reply(self) -> str:
        where = f" {region_phrase(self.region)}" if self.region else ""
        return f"Tinted{where} toward {self.color} at {_amount(round(self.intensity * 100, 1))}%."

    def label(self) -> str:
        return f"Tint {self.color} {_amount(round(self.intensity * 100, 1))}%{shown_in(self.region)}"


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
            raise CommandError(f"adjust_attr takes {', '.join(ATTRS)}, got {shown(self.attr)}")
        top = ATTR_RANGES[self.attr]
        if not math.isfinite(self.amount) or not -top <= self.amount <= top:
            unit = "degrees" if self.attr == "hue" else "a percentage"
            raise CommandError(
                f"adjust_attr {self.attr} {self.amount:g} is out of range: it takes {unit} from -{top} to {top}"
            )
        check_region(self)

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        args, region = split_region(args, 2, cls)
        attr, amount = _args(args, 2, cls)
        return cls(attr=attr.lower(), amount=_num(amount, cls), text=amount, region=region)

    def format(self) -> str:
        return f"adjust_attr {self.attr} {_number_text(self.amount, self.text)}{in_region(self.region)}"

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
        return f"{more if self.amount >= 0 else less} {sign}{_amount(abs(self.amount))}{unit}{shown_in(self.region)}"


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
                raise CommandError(f"crop: {shown(c)} is not a whole pixel coordinate; usage: crop x1 y1 x2 y2")
            if len(c.lstrip("+-")) > 9:
                raise CommandError(f"crop: {shown(c)} is out of range (pixel coordinates, at most 999999999)")
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
    """Crop to an object the words name, or to an aspect ratio about the main subject. ``margin``: the
    room left around an object, a share of its box's size on each side (None: :data:`CROP_MARGIN`),
    which "a bit wider" and "tighter" change."""

    target: str
    margin: float | None = None
    name = "crop"
    usage = ("crop <object words> [margin <percent>%]|face|square|4:3|16:9|in <percent>%|off <side> [and <side>] <percent>%"
             "|centre <object words>")
    meaning = ("crop to the named object with a margin (10% of its size on each side unless said), or to the "
               "face (a headshot, margin 50% unless said: the face detector's face, "
               "the biggest or the one placed, with room for the hair and the shoulders), or to that aspect ratio "
               "(landscape) centred on the main subject, or `in P%`: P% (1 to 40) off each side, about the centre "
               "(\"zoom in a little\": 5%), or `off S P%`: P% of the picture cut off side S (top, bottom, left or "
               "right; \"crop off the bottom\": 10%), or off two sides (`off left and right 5%`), or `centre <object words>`: "
               "the largest crop with the object in its middle (Easel extension)")
    edits_image = True

    def __post_init__(self) -> None:
        if not self.target.strip():
            raise CommandError(f"crop needs a box or what to crop to; usage: {Crop.usage} or {self.usage}")
        if self.target.startswith("in ") and self.inset is None:
            raise CommandError(f"crop in takes a share of each side from 1% to {MAX_INSET}%, got "
                               f"{shown(self.target[3:])}; usage: {self.usage}")
        if self.target.startswith("off ") and self.edges is None:
            raise CommandError(f"crop off takes a side (top, bottom, left, right) and a share of the picture from 1% to "
                               f"{MAX_EDGE}% (less than half off each of two opposite sides), got {shown(self.target[4:])}")
        if self.margin is not None and not 0 <= self.margin <= 1:
            raise CommandError(f"a crop's margin is from 0% to 100% of the thing's size, got {self.margin * 100:g}%")

    @property
    def inset(self) -> float | None:
        """The share of each side cut off, for ``crop in P%`` (else None)."""
        m = re.fullmatch(r"in (\d+(?:\.\d+)?)%", self.target)
        return float(m.group(1)) if m and 1 <= float(m.group(1)) <= MAX_INSET else None

    @property
    def edges(self) -> tuple[tuple[str, ...], float] | None:
        """The sides cut and the share of the picture cut off each, for ``crop off S P%`` (else None)."""
        m = _EDGE.fullmatch(self.target)
        if m is None or m.group(1) == m.group(2):
            return None
        sides, share = tuple(s for s in m.group(1, 2) if s), float(m.group(3))
        return (sides, share) if 1 <= share <= edge_limit(sides) else None

    @property
    def centred(self) -> str | None:
        """The object words of ``crop centre <words>`` (the largest crop with it in the middle), else None."""
        m = re.fullmatch(r"cent(?:re|er) (.+)", self.target)
        return m.group(1) if m else None

    def edges_said(self) -> str:
        """"10% off the bottom", "5% off the left and right" (``crop off``'s words)."""
        sides, share = self.edges or ((), 0.0)
        return f"{share:g}% off the {' and '.join(sides)}"

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        if len(args) > 2 and args[-2].lower() == "margin" and re.fullmatch(r"\d+(?:\.\d+)?%", args[-1]):
            return cls(target=" ".join(args[:-2]).lower(), margin=float(args[-1][:-1]) / 100)
        return cls(target=" ".join(args).lower())

    def format(self) -> str:
        return f"crop {self.target}" + ("" if self.margin is None else f" margin {round(self.margin * 100):g}%")

    @property
    def aspect(self) -> str | None:
        return self.target if self.target in ASPECTS else None

    def reply(self) -> str:
        if self.aspect:
            return f"Cropped to {'a square' if self.aspect == 'square' else self.aspect} around the main subject."
        if self.inset is not None:
            return f"Cropped {self.inset:g}% off each side (zoomed in about the centre)."
        if self.edges is not None:
            return f"Cropped {self.edges_said()}."
        if self.centred is not None:
            return f"Cropped so that {self.centred} {'are' if self.centred.endswith('s') else 'is'} in the middle."
        if self.margin is not None:  # "a bit wider", "tighter" after a crop
            usual = FACE_MARGIN if face_words(self.target) is not None else CROP_MARGIN
            room = "no room" if self.margin == 0 else f"{'more' if self.margin > usual else 'less'} room"
            said = self.target if face_words(self.target) is None else region_phrase(self.target)
            return f"Cropped to {said}, with {room} around it."
        return f"Cropped to {self.target if face_words(self.target) is None else region_phrase(self.target)}."

    def label(self) -> str:
        if self.edges is not None:
            return f"Crop {self.edges_said()}"
        if self.centred is not None:
            return f"Centre on {self.centred}"
        return f"Crop {self.target}" + ("" if self.margin is None else f" (margin {round(self.margin * 100):g}%)")


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
            raise CommandError(f"flip takes horizontal or vertical, got {shown(self.axis)}")

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
        check_region(self)

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        args, region = split_region(args, 0, cls)
        return cls(region=region)

    def format(self) -> str:
        return f"{self.name}{in_region(self.region)}"


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
        return f"Black and white{shown_in(self.region)}"


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
        return f"Auto enhance{shown_in(self.region)}"


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
               "(patches of the hole's surroundings, seamed in); pixels outside the dilated masks are unchanged; "
               "\"the clouds\": the clouds with blue sky all around them, filled by a membrane through the clear "
               "sky (none when the sky is overcast)")
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
        if self.words == "the clouds":
            return "Removed the clouds."
        return f"Removed {'your selection' if is_selection(self.words) else self.words} and filled in the background."

    def label(self) -> str:
        return f"Remove {SELECTION if is_selection(self.words) else self.words}"


@command
@dataclass(frozen=True)
class Background(Command):
    mode: str
    keep: str = ""  # the object(s) to keep ("the dog"); empty: the main subject
    strength: float = 1.0  # a blur's strength, times the usual (BLUR_RANGE): "more" after "blur the background"
    name = "background"
    usage = (f"background <{'|'.join(BACKGROUND_COLOURS)}>|blur [strength]|transparent [behind <object "
             "words>]")
    meaning = ("keep the main subject (the cutout mask m), or the objects named after `behind` (each found by "
               "the detector and masked as for remove), and replace the rest: `out = m*in + (1-m)*bg` with a "
               "plain colour, a blur of the background alone (its sigma times `strength`, 1 when left out), "
               "or transparency (alpha = m)")
    edits_image = True

    def __post_init__(self) -> None:
        if self.mode not in BACKGROUND_MODES:
            raise CommandError(f"background takes a colour ({', '.join(BACKGROUND_COLOURS)}), blur or "
                               f"transparent, got {self.mode!r}")
        lo, hi = BLUR_RANGE
        if not lo <= self.strength <= hi or (self.mode != "blur" and self.strength != 1.0):
            raise CommandError(f"a background blur's strength is {lo:g} to {hi:g} times the usual blur "
                               f"(only a blur has one), got {self.strength:g}")

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        strength = 1.0
        if len(args) > 1 and args[0].lower() == "blur" and re.fullmatch(r"\d+(?:\.\d+)?", args[1]):
            strength = float(args[1])  # "background blur 1.5 [behind the dog]"
            args = args[:1] + args[2:]
        if len(args) > 1 and args[1].lower() == "behind" and len(args) > 2:
            keep = " ".join(args[2:]).lower()
            args = args[:1]
        else:
            keep = ""
        (mode,) = _args(args, 1, cls)
        mode = mode.lower()
        return cls(mode="grey" if mode == "gray" else mode, keep=keep, strength=strength)

    def format(self) -> str:
        blur = f" {self.strength:g}" if self.strength != 1.0 else ""
        return f"background {self.mode}{blur}" + (f" behind {self.keep}" if self.keep else "")

    def reply(self) -> str:
        behind = f"behind {self.keep}" if self.keep else "behind the main subject"
        if self.mode == "blur":
            how = "" if self.strength == 1.0 else f" ({self.strength:g} times the usual blur)"
            return f"Blurred the background {behind}{how}."
        if self.mode == "transparent":
            return (f"Made the background {behind} transparent (black when saved in a format without "
                    "transparency).")
        return f"Replaced the background {behind} with {self.mode}." if self.keep else \
            f"Replaced the background with {self.mode}."

    def label(self) -> str:
        blur = f" ×{self.strength:g}" if self.strength != 1.0 else ""
        return f"Background {self.mode}{blur}" + (f" behind {self.keep}" if self.keep else "")


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


# The file and the photos beside it (resize, remove_location, switch): registered after the rest.
from agent.grammar.output import SHARE_SIDE, RemoveLocation, Resize, Switch  # noqa: E402,F401 - part of the grammar
from agent.grammar.retouch import RedEye  # noqa: E402,F401 - part of the grammar

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
    rows.append(f"| `... in <region>` | {region_meaning()} |")
    return "\n".join(rows)


def version_label(command_line: str | None) -> str:
    """A version named in words: "Brighter +20" for ``adjust_attr brightness 20``, "the original" for
    none; a line that is no command, as it is."""
    if not command_line:
        return "the original"
    try:
        return parse_command(command_line).label()
    except CommandError:
        return command_line


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
        raise CommandError(f"unknown command {shown(name)}; commands are:\n" + usage())
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
