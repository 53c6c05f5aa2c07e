"""The commands about the photo as a file and the photos open beside it: ``resize``, ``remove_location``
and ``switch``.

They join the same registry as :mod:`agent.grammar.commands`, which imports this module after its
own classes (so the README's table lists them last); import the grammar from there, not from here.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from agent.grammar.base import Command, command
from agent.grammar.base import amount_text as _amount
from agent.grammar.errors import CommandError, shown

MAX_SIDE = 100_000  # pixels: a side longer than this is a typo, not a size
SHARE_SIDE = 2048  # "save it smaller": the long side of a photo for sharing and the web


def _pixels(token: str, cls: type[Command]) -> int:
    if not re.fullmatch(r"\d{1,6}", token) or not 1 <= int(token) <= MAX_SIDE:
        raise CommandError(f"resize: {shown(token)} is not a size in pixels (1 to {MAX_SIDE}); usage: {cls.usage}")
    return int(token)


@command
@dataclass(frozen=True)
class Resize(Command):
    """A new size in pixels: one side (the other keeps the proportions), both, a percentage, or the
    long side (never enlarged: "save it smaller" on a small photo leaves it as it is)."""

    width: int | None = None
    height: int | None = None
    percent: float | None = None
    long: int | None = None
    name = "resize"
    usage = "resize width <px>|height <px>|<W>x<H>|<N>%|long <px>"
    meaning = ("scale the picture (area averaging when it shrinks, bicubic when it grows): to a width or a "
               "height with the other side in proportion, to W×H exactly, to N% of each side, or so that the "
               "long side is at most px (never enlarged; \"save it smaller\" is `resize long 2048`)")
    edits_image = True

    def __post_init__(self) -> None:
        given = [v for v in (self.width, self.height, self.percent, self.long) if v is not None]
        both = self.width is not None and self.height is not None and self.percent is None and self.long is None
        if not given or (len(given) > 1 and not both):
            raise CommandError(f"resize takes one size; usage: {self.usage}")
        if self.percent is not None and (not math.isfinite(self.percent) or not 0 < self.percent <= 1000):
            raise CommandError(f"resize {self.percent:g}% is out of range: a percentage from above 0 to 1000")

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        words = [a.lower() for a in args]
        if len(words) == 2 and words[0] in ("width", "height", "long"):
            return cls(**{words[0]: _pixels(words[1], cls)})
        if len(words) == 1 and re.fullmatch(r"\d+x\d+", words[0]):
            w, h = words[0].split("x")
            return cls(width=_pixels(w, cls), height=_pixels(h, cls))
        if len(words) == 1 and re.fullmatch(r"(\d+(\.\d+)?|\.\d+)%", words[0]):
            return cls(percent=float(words[0][:-1]))
        raise CommandError(f"resize: {shown(rest.strip())} is not a size; usage: {cls.usage}")

    def format(self) -> str:
        if self.percent is not None:
            return f"resize {_amount(self.percent)}%"
        if self.long is not None:
            return f"resize long {self.long}"
        if self.width is not None and self.height is not None:
            return f"resize {self.width}x{self.height}"
        return f"resize width {self.width}" if self.width is not None else f"resize height {self.height}"

    def size(self, width: int, height: int) -> tuple[int, int]:
        """The new (width, height) of a ``width`` x ``height`` picture, each side at least 1 pixel.

        >>> Resize(width=1080).size(4000, 3000)
        (1080, 810)
        >>> Resize(long=2048).size(1000, 800)
        (1000, 800)
        """
        if self.width is not None and self.height is not None:
            return self.width, self.height
        if self.percent is not None:
            f = self.percent / 100
        elif self.long is not None:
            f = min(1.0, self.long / max(width, height))
        elif self.width is not None:
            f = self.width / width
        else:
            f = self.height / height
        w = self.width if self.width is not None else max(1, int(math.floor(width * f + 0.5)))
        h = self.height if self.height is not None else max(1, int(math.floor(height * f + 0.5)))
        return w, h

    def reply(self) -> str:
        more = " Enlarging adds pixels, not detail." if self.percent is not None and self.percent > 100 else ""
        return f"Resized ({self.format()[7:]}).{more}"

    def label(self) -> str:
        return f"Resize {self.format()[7:]}"


@command
@dataclass(frozen=True)
class RemoveLocation(Command):
    """Leave the place out of every file saved from this version on (the pixels are unchanged)."""

    name = "remove_location"
    usage = "remove_location"
    meaning = ("leave the GPS position (EXIF's GPS block) out of the files saved from this version on; the "
               "pixels and the rest of the EXIF are unchanged, and undo brings the location back")
    edits_image = True

    def reply(self) -> str:
        return ("Removed the location: files you save from now on carry no GPS position (the rest of the "
                "metadata stays).")

    def label(self) -> str:
        return "Location removed"


@command
@dataclass(frozen=True)
class Switch(Command):
    """Show another photo open in this conversation: ``previous`` (the one shown before) or a name."""

    target: str
    name = "switch"
    usage = "switch previous|<photo name>"
    meaning = ("show another photo open beside this one (a search opens what it finds beside the photo being "
               "edited): the one shown before, or the one with that file name; each keeps its own versions")

    def __post_init__(self) -> None:
        if not self.target.strip():
            raise CommandError(f"switch needs which photo; usage: {self.usage}")

    @classmethod
    def parse(cls, args: list[str], rest: str) -> Command:
        return cls(target=" ".join(args))

    def format(self) -> str:
        return f"switch {self.target}"

    def label(self) -> str:
        return f"Switch to {self.target}"
