"""Run an image-editing :class:`~agent.commands.Command` on pixels.

Each command declares how it changes pixels (:meth:`agent.commands.Command.apply`); this module is
the one entry point the dialogue manager, the CLI and the annotator call.
"""

from __future__ import annotations

import numpy as np

from agent.commands import Command


def execute(command: Command, pixels: np.ndarray) -> np.ndarray:
    """The new pixels ``command`` makes from ``pixels`` (which are left unchanged).

    Raises ``ValueError`` for commands that do not edit an image (search, undo, explain, ...).
    """
    if not command.edits_image:
        raise ValueError(f"{command.format()!r} does not edit an image")
    return command.apply(pixels)
