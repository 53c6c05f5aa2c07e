"""The grammar's foundation: the :class:`Command` base class, the registry every command class joins
with :func:`command`, and the number helpers their parsers share (kept apart from
:mod:`agent.grammar.commands` so that the commands that do not fit there, :mod:`agent.grammar.output`,
build on the same base without an import cycle)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import ClassVar

from agent.grammar.errors import CommandError, shown


def number_text(value: float, text: str | None) -> str:
    """The spelling of a number: the one it was parsed from if it still denotes ``value``."""
    if text is not None and float(text) == value:
        return text
    if float(value).is_integer():
        return str(int(value))
    return format(Decimal(repr(float(value))), "f")  # shortest exact spelling, never 1e-05


def amount_text(value: float) -> str:
    """A number as a person reads it: 20, 0.5, 12.5."""
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0").rstrip(".")


NUMBER_RE = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")
INT_RE = re.compile(r"^[+-]?\d+$")


def read_number(token: str, cls: type[Command]) -> float:
    if not NUMBER_RE.match(token):
        raise CommandError(f"{cls.name}: {shown(token)} is not a number; usage: {cls.usage}")
    return float(token)


def take_args(args: list[str], n: int, cls: type[Command]) -> list[str]:
    if len(args) != n:
        raise CommandError(f"{cls.name} takes {n} argument(s), got {len(args)}; usage: {cls.usage}")
    return args


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
        take_args(args, 0, cls)
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
