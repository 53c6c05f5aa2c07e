"""Recipes: the edits of a conversation saved as CAISE command lines, applied again to other photos.

A recipe is a small JSON file, readable and editable by hand::

    {"name": "warm black and white",
     "commands": ["adjust_attr brightness 20", "grayscale", "adjust_attr warmth 30 in sky",
                  "remove people"]}

Each line is a command of :mod:`agent.grammar.commands` (regions included), so a recipe is CAISE
data. Lines that name things (``remove people``, ``background white``, ``crop dog``, ``... in the
dog``, ``... in sky``) are resolved again on each photo (:func:`agent.edits.run.run` finds the
objects, sky or subject in that photo's pixels). A line that cannot apply to a photo (no dog in it,
a drawing that was made on another photo) is listed in :attr:`Applied.not_applied` with the reason;
the other lines still run, so the report says exactly which edits each output has.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agent.edits.run import crop_note, run, uses_selection
from agent.grammar.commands import CommandError, parse_command
from editor.files import write_atomic
from editor.models import ModelMissingError


class RecipeError(ValueError):
    """A recipe file that cannot be read, or a line that is not an editing command."""


@dataclass
class Recipe:
    name: str
    commands: list[str]

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise RecipeError("a recipe's name must be text")
        if not isinstance(self.commands, list) or not all(isinstance(c, str) for c in self.commands):
            raise RecipeError("a recipe's commands must be a list of command lines")
        lines = []
        for line in self.commands:
            try:
                cmd = parse_command(line)
            except CommandError as exc:
                raise RecipeError(f"{line!r}: {exc}") from None
            if not cmd.edits_image:
                raise RecipeError(f"{line!r} does not edit a photo; a recipe holds edits only")
            lines.append(cmd.format())  # canonical, so a hand-edited file reads like a saved one
        self.commands = lines

    def to_json(self) -> dict:
        return {"name": self.name, "commands": list(self.commands)}

    @classmethod
    def from_json(cls, data: dict) -> Recipe:
        if not isinstance(data, dict) or "commands" not in data:
            raise RecipeError('a recipe is a JSON object {"name": ..., "commands": [...]}')
        return cls(str(data.get("name") or "recipe"), data["commands"])

    @classmethod
    def load(cls, path: str | os.PathLike) -> Recipe:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise RecipeError(f"cannot read the recipe {path}: {exc}") from None
        except json.JSONDecodeError as exc:
            raise RecipeError(f"{path} is not JSON: {exc}") from None
        return cls.from_json(data)

    def save(self, path: str | os.PathLike, *, overwrite: bool = False) -> Path:
        """Write the recipe atomically (:func:`editor.files.write_atomic`: never over a database
        or into the profile; an existing file only with ``overwrite``)."""
        return write_atomic(path, json.dumps(self.to_json(), indent=2) + "\n", overwrite=overwrite)

    @classmethod
    def from_document(cls, doc, name: str = "", *, start: str | None = None,
                      end: str | None = None) -> Recipe:
        """The edits that lead from version ``start`` (default: the original) to ``end`` (default:
        the head) of ``doc`` (:class:`editor.document.Document`): undone edits and abandoned
        branches are not part of it, a revised edit appears with its final amount."""
        lineage = doc.lineage(end)
        ids = [v.id for v in lineage]
        if start is not None:
            if start not in ids:
                raise RecipeError(f"version {start} is not an ancestor of {end or 'the head'}")
            lineage = lineage[ids.index(start) + 1:]
        lines = [v.command for v in lineage if v.command]
        return cls(name or Path(doc.title or "recipe").stem, lines)


@dataclass
class Applied:
    """What a recipe did to one photo."""

    pixels: np.ndarray
    run: list[str] = field(default_factory=list)  # the lines that edited it, in order
    not_applied: list[dict] = field(default_factory=list)  # {"command", "reason"} for each that could not
    notes: list[str] = field(default_factory=list)  # e.g. a crop box cut to the photo's size


def apply(commands: list[str] | Recipe, pixels: np.ndarray) -> Applied:
    """Run a recipe's lines on ``pixels`` in order, each on the result of the one before; a line
    that cannot apply to this photo is reported in ``not_applied`` and the next line runs.

    >>> img = np.full((4, 4, 3), 100, np.uint8)
    >>> done = apply(["adjust_attr brightness 20", "adjust_attr brightness 10 in selection"], img)
    >>> done.run, done.not_applied[0]["command"], int(done.pixels[0, 0, 0])
    (['adjust_attr brightness 20'], 'adjust_attr brightness 10 in selection', 151)
    """
    lines = commands.commands if isinstance(commands, Recipe) else list(commands)
    out = Applied(pixels)
    for line in lines:
        cmd = parse_command(line)
        if uses_selection(cmd):
            out.not_applied.append({"command": line, "reason": "it applies to what was drawn on the photo "
                                    "the recipe was made on; a recipe has no drawing for this one"})
            continue
        note = crop_note(cmd, out.pixels.shape)
        try:
            out.pixels = run(cmd, out.pixels).pixels
        except (LookupError, ValueError, ModelMissingError) as exc:
            out.not_applied.append({"command": line, "reason": str(exc)})
            continue
        out.run.append(line)
        if note:
            out.notes.append(f"{line}: {note}")
    return out
