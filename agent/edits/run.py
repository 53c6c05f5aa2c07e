"""Run an image-editing :class:`~agent.grammar.commands.Command` on pixels.

Each command declares how it changes pixels (:meth:`agent.grammar.commands.Command.apply`); this module is
the one entry point the dialogue manager, the CLI and the annotator call.
"""

from __future__ import annotations

import numpy as np

from agent.grammar.commands import Command, Crop


def execute(command: Command, pixels: np.ndarray) -> np.ndarray:
    """The new pixels ``command`` makes from ``pixels`` (which are left unchanged).

    Raises ``ValueError`` for commands that do not edit an image (search, undo, explain, ...).
    """
    if not command.edits_image:
        raise ValueError(f"{command.format()!r} does not edit an image")
    return command.apply(pixels)


def crop_note(command: Command, shape: tuple[int, ...]) -> str | None:
    """A sentence when a crop box reaches beyond an image of ``shape`` (the part inside is kept,
    and the person should know), else None.

    >>> crop_note(Crop(0, 0, 999, 10), (20, 30, 3))
    'The box reaches beyond the 30x20 image; kept 0 0 30 10.'
    """
    if not isinstance(command, Crop):
        return None
    h, w = shape[:2]
    (xa, xb), (ya, yb) = sorted((command.x1, command.x2)), sorted((command.y1, command.y2))
    if xb <= w and yb <= h:
        return None
    return f"The box reaches beyond the {w}x{h} image; kept {xa} {ya} {min(xb, w)} {min(yb, h)}."


def replay(line: str, pixels: np.ndarray) -> np.ndarray:
    """Run a stored command line on ``pixels`` again (:attr:`editor.store.Store.replay`, which
    makes a lost version file again from its parent)."""
    from agent.grammar.commands import parse_command

    return execute(parse_command(line), pixels)
