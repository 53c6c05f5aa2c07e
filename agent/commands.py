"""The command grammar: CAISE's executable commands plus Easel's extensions.

Every command is a frozen dataclass that parses from and formats to one line of text::

    search <words>                      Search(words="kids umbrella")
    rotate <deg>                        Rotate(degrees=270)       # counter-clockwise, 0..360
    adjust_color <color> <intensity>    AdjustColor(color="red", intensity=0.3)
    adjust_attr brightness <-100..100>  AdjustAttr(attr="brightness", amount=40)
    adjust_attr contrast <-100..100>    AdjustAttr(attr="contrast", amount=-20)
    image_cutout                        ImageCutout()
    crop x1 y1 x2 y2                    Crop(x1=10, y1=20, x2=300, y2=400)
    undo / redo                         Undo() / Redo()
    flip horizontal|vertical            Flip(axis="horizontal")
    explain [<what>]                    Explain(target="")        # describe the change between versions
    describe                            Describe()                # caption the current image

Parsing and formatting are exact inverses on CAISE's data: numbers keep the spelling they were
written with (``+10``, ``.25``), so ``format_command(parse_command(s)) == s.strip()``. Commands built
in code format canonically (``adjust_color red 0.3``). Surrounding whitespace is not part of a command
(CAISE writes ``"undo "`` and ``"image_cutout "``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from decimal import Decimal

from editor.colors import COLORS

ATTRS = ("brightness", "contrast")
FLIP_AXES = ("horizontal", "vertical")

# Command names, in the order the grammar lists them; CAISE's six target types come first.
COMMAND_NAMES = (
    "search",
    "rotate",
    "adjust_color",
    "adjust_attr",
    "image_cutout",
    "crop",
    "undo",
    "redo",
    "flip",
    "explain",
    "describe",
)


class CommandError(ValueError):
    """A command line that does not parse, or a parameter outside its valid range."""


def _number_text(value: float, text: str | None) -> str:
    """The spelling of a number: the one it was parsed from if it still denotes ``value``."""
    if text is not None and float(text) == value:
        return text
    if float(value).is_integer():
        return str(int(value))
    return format(Decimal(repr(float(value))), "f")  # shortest exact spelling, never 1e-05


@dataclass(frozen=True)
class Command:
    """Base class; ``name`` is the first word of the command line."""

    name = ""

    def format(self) -> str:  # pragma: no cover - every subclass overrides it
        raise NotImplementedError

    def __str__(self) -> str:
        return self.format()

    @property
    def edits_image(self) -> bool:
        """True for commands that make a new version of the current image."""
        return False


@dataclass(frozen=True)
class Search(Command):
    words: str
    text: str | None = field(default=None, compare=False, repr=False)  # spelling, spaces and all
    name = "search"

    def __post_init__(self) -> None:
        if not self.words.strip():
            raise CommandError("search needs words to look for, e.g. 'search red umbrella'")

    def format(self) -> str:
        if self.text is not None and " ".join(self.text.split()) == " ".join(self.words.split()):
            return f"search {self.text}"
        return f"search {self.words}"


@dataclass(frozen=True)
class Rotate(Command):
    degrees: float
    text: str | None = field(default=None, compare=False, repr=False)
    name = "rotate"

    def __post_init__(self) -> None:
        if not math.isfinite(self.degrees) or not 0 <= self.degrees <= 360:
            raise CommandError(
                f"rotate takes counter-clockwise degrees from 0 to 360, got {self.degrees:g} "
                "(for clockwise 90 write 'rotate 270')"
            )

    def format(self) -> str:
        return f"rotate {_number_text(self.degrees, self.text)}"

    @property
    def edits_image(self) -> bool:
        return True


@dataclass(frozen=True)
class AdjustColor(Command):
    color: str
    intensity: float
    text: str | None = field(default=None, compare=False, repr=False)
    name = "adjust_color"

    def __post_init__(self) -> None:
        if self.color not in COLORS:
            raise CommandError(
                f"unknown colour {_short(self.color)!r}; valid colours: {', '.join(COLORS)}"
            )
        if not math.isfinite(self.intensity) or not 0 <= self.intensity <= 1:
            raise CommandError(
                f"adjust_color intensity must be between 0 and 1, got {self.intensity:g}"
            )

    def format(self) -> str:
        return f"adjust_color {self.color} {_number_text(self.intensity, self.text)}"

    @property
    def edits_image(self) -> bool:
        return True


@dataclass(frozen=True)
class AdjustAttr(Command):
    attr: str
    amount: float
    text: str | None = field(default=None, compare=False, repr=False)
    name = "adjust_attr"

    def __post_init__(self) -> None:
        if self.attr not in ATTRS:
            raise CommandError(
                f"adjust_attr takes brightness or contrast, got {_short(self.attr)!r}"
            )
        if not math.isfinite(self.amount) or not -100 <= self.amount <= 100:
            raise CommandError(
                f"adjust_attr {self.attr} takes a percentage from -100 to 100, got {self.amount:g}"
            )

    def format(self) -> str:
        return f"adjust_attr {self.attr} {_number_text(self.amount, self.text)}"

    @property
    def edits_image(self) -> bool:
        return True


@dataclass(frozen=True)
class ImageCutout(Command):
    name = "image_cutout"

    def format(self) -> str:
        return "image_cutout"

    @property
    def edits_image(self) -> bool:
        return True


@dataclass(frozen=True)
class Crop(Command):
    """Crop to the pixel box x1 y1 x2 y2 (x2, y2 exclusive); corners may come in any order."""

    x1: int
    y1: int
    x2: int
    y2: int
    name = "crop"

    def __post_init__(self) -> None:
        for v in (self.x1, self.y1, self.x2, self.y2):
            if v < 0:
                raise CommandError(f"crop coordinates are pixels from 0 up, got {v}")

    def format(self) -> str:
        return f"crop {self.x1} {self.y1} {self.x2} {self.y2}"

    @property
    def edits_image(self) -> bool:
        return True


@dataclass(frozen=True)
class Undo(Command):
    name = "undo"

    def format(self) -> str:
        return "undo"


@dataclass(frozen=True)
class Redo(Command):
    name = "redo"

    def format(self) -> str:
        return "redo"


@dataclass(frozen=True)
class Flip(Command):
    axis: str
    name = "flip"

    def __post_init__(self) -> None:
        if self.axis not in FLIP_AXES:
            raise CommandError(f"flip takes horizontal or vertical, got {_short(self.axis)!r}")

    def format(self) -> str:
        return f"flip {self.axis}"

    @property
    def edits_image(self) -> bool:
        return True


@dataclass(frozen=True)
class Explain(Command):
    """Explain what changed; ``target`` names what to compare with (empty: the parent version)."""

    target: str = ""
    name = "explain"

    def format(self) -> str:
        return f"explain {self.target}".rstrip()


@dataclass(frozen=True)
class Describe(Command):
    name = "describe"

    def format(self) -> str:
        return "describe"


_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)$")
_INT = re.compile(r"^[+-]?\d+$")

_USAGE = {
    "search": "search <words>",
    "rotate": "rotate <degrees 0..360, counter-clockwise>",
    "adjust_color": f"adjust_color <{'|'.join(COLORS)}> <intensity 0..1>",
    "adjust_attr": "adjust_attr brightness|contrast <-100..100>",
    "image_cutout": "image_cutout",
    "crop": "crop x1 y1 x2 y2",
    "undo": "undo",
    "redo": "redo",
    "flip": "flip horizontal|vertical",
    "explain": "explain [what to compare with]",
    "describe": "describe",
}


def usage() -> str:
    """One line per command: what the grammar accepts."""
    return "\n".join(_USAGE.values())


_RANGES = {"rotate": (0, 360), "adjust_color": (0, 1), "adjust_attr": (-100, 100)}


def _short(text: str, limit: int = 40) -> str:
    """A token as echoed in an error: a 40 KB one is cut, not repeated whole."""
    return text if len(text) <= limit else f"{text[:limit]}…({len(text)} characters)"


def _num(token: str, cmd: str) -> float:
    if not _NUMBER.match(token):
        try:
            value = float(token)  # 1e9, inf: numbers, just not spelled as the grammar spells them
            if math.isnan(value):
                raise ValueError(token)
        except ValueError:
            raise CommandError(f"{cmd}: {_short(token)!r} is not a number; usage: {_USAGE[cmd]}") from None
        lo, hi = _RANGES[cmd]
        if not (math.isfinite(value) and lo <= value <= hi):
            raise CommandError(f"{cmd}: {_short(token)} is out of range ({lo} to {hi}); usage: {_USAGE[cmd]}")
        raise CommandError(f"{cmd}: write {_short(token)} in plain digits ({value:g}); usage: {_USAGE[cmd]}")
    return float(token)


def _args(args: list[str], n: int, cmd: str) -> list[str]:
    if len(args) != n:
        raise CommandError(f"{cmd} takes {n} argument(s), got {len(args)}; usage: {_USAGE[cmd]}")
    return args


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
    args = rest.split()
    if name == "search":
        return Search(words=" ".join(rest.split()), text=rest)
    if name == "rotate":
        (deg,) = _args(args, 1, name)
        return Rotate(degrees=_num(deg, name), text=deg)
    if name == "adjust_color":
        color, amount = _args(args, 2, name)
        return AdjustColor(color=color.lower(), intensity=_num(amount, name), text=amount)
    if name == "adjust_attr":
        attr, amount = _args(args, 2, name)
        return AdjustAttr(attr=attr.lower(), amount=_num(amount, name), text=amount)
    if name == "crop":
        coords = _args(args, 4, name)
        for c in coords:
            if not _INT.match(c):
                raise CommandError(f"crop: {_short(c)!r} is not a whole pixel coordinate; usage: crop x1 y1 x2 y2")
            if len(c.lstrip("+-")) > 9:  # no image is a billion pixels wide (and int() has a limit)
                raise CommandError(f"crop: {_short(c)} is out of range; usage: crop x1 y1 x2 y2")
        x1, y1, x2, y2 = (int(c) for c in coords)
        return Crop(x1=x1, y1=y1, x2=x2, y2=y2)
    if name == "flip":
        (axis,) = _args(args, 1, name)
        return Flip(axis=axis.lower())
    if name == "explain":
        return Explain(target=rest.strip())
    simple = {"image_cutout": ImageCutout, "undo": Undo, "redo": Redo, "describe": Describe}
    if name in simple:
        _args(args, 0, name)
        return simple[name]()
    raise CommandError(f"unknown command {_short(name)!r}; commands are:\n" + usage())


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
