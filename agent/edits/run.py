"""From a command to pixels: one function per command type (:data:`RUNNERS`), run by :func:`execute`.

The grammar (:mod:`agent.grammar.commands`) says what a command means and holds no pixels; this
module is the one place that says which operation of :mod:`editor` (or which object edit of
:mod:`agent.edits.objects`) carries it out, and the one entry point the dialogue manager, the CLI
and the annotator call.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from agent.grammar import commands as c
from editor import adjust, ops

# adjust_attr's attribute -> the operation and its keyword
ATTR_OPS: dict[str, tuple[Callable, str]] = {
    "brightness": (ops.adjust_brightness, "amount"),
    "contrast": (ops.adjust_contrast, "amount"),
    "saturation": (adjust.adjust_saturation, "amount"),
    "sharpness": (adjust.adjust_sharpness, "amount"),
    "warmth": (adjust.adjust_warmth, "amount"),
    "hue": (adjust.adjust_hue, "degrees"),
}


def _attr(cmd: c.AdjustAttr, px: np.ndarray) -> np.ndarray:
    op, keyword = ATTR_OPS[cmd.attr]
    return op(px, **{keyword: cmd.amount})


def _objects():
    """The object edits, imported on first use: they bring the detector's module, whose colour
    tables cost OpenCV about half a second to set up, which no other edit needs."""
    from agent.edits import objects

    return objects


def _crop_to(cmd: c.CropTo, px: np.ndarray) -> np.ndarray:
    if cmd.aspect:
        return _objects().crop_aspect(px, cmd.aspect)
    return _objects().crop_object(px, cmd.target)


RUNNERS: dict[type, Callable[..., np.ndarray]] = {
    c.Rotate: lambda cmd, px: ops.rotate(px, degrees=cmd.degrees),
    c.AdjustColor: lambda cmd, px: ops.adjust_color(px, color=cmd.color, intensity=cmd.intensity),
    c.AdjustAttr: _attr,
    c.ImageCutout: lambda cmd, px: ops.image_cutout(px),
    c.Crop: lambda cmd, px: ops.crop(px, box=(cmd.x1, cmd.y1, cmd.x2, cmd.y2)),
    c.CropTo: _crop_to,
    c.Flip: lambda cmd, px: ops.flip(px, axis=cmd.axis),
    c.Grayscale: lambda cmd, px: adjust.grayscale(px),
    c.AutoEnhance: lambda cmd, px: adjust.auto_enhance(px),
    c.Remove: lambda cmd, px: _objects().remove_objects(px, cmd.words),
    c.Background: lambda cmd, px: _objects().background(px, cmd.mode, cmd.keep),
}


def execute(command: c.Command, pixels: np.ndarray) -> np.ndarray:
    """The new pixels ``command`` makes from ``pixels`` (which are left unchanged).

    Raises ``ValueError`` for commands that do not edit an image (search, undo, explain, ...).
    """
    runner = RUNNERS.get(type(command))
    if not command.edits_image or runner is None:
        raise ValueError(f"{command.format()!r} does not edit an image")
    return runner(command, pixels)


def crop_note(command: c.Command, shape: tuple[int, ...]) -> str | None:
    """A sentence when a crop box reaches beyond an image of ``shape`` (the part inside is kept,
    and the person should know), else None.

    >>> crop_note(c.Crop(0, 0, 999, 10), (20, 30, 3))
    'The box reaches beyond the 30x20 image; kept 0 0 30 10.'
    """
    if not isinstance(command, c.Crop):
        return None
    h, w = shape[:2]
    box = (command.x1, command.y1, command.x2, command.y2)
    if max(box[0], box[2]) <= w and max(box[1], box[3]) <= h:
        return None
    try:
        xa, ya, xb, yb = ops.crop_kept(shape, box)
    except ValueError:
        return None
    return f"The box reaches beyond the {w}x{h} image; kept {xa} {ya} {xb} {yb}."


def reply_for(command: c.Command, before_shape: tuple[int, ...], after_shape: tuple[int, ...]) -> str:
    """What the assistant says after ``command`` turned an image of ``before_shape`` into one of
    ``after_shape``: the command's own reply, except that a crop reports the size it really kept.

    >>> reply_for(c.Crop(0, 0, 999999999, 999999999), (20, 30, 3), (20, 30, 3))
    'Cropped to 30×20 pixels. The box reaches beyond the 30x20 image; kept 0 0 30 20.'
    """
    if isinstance(command, c.Crop):
        kept = f"Cropped to {after_shape[1]}×{after_shape[0]} pixels."
        note = crop_note(command, before_shape)
        return f"{kept} {note}" if note else kept
    return command.reply()


def replay(line: str, pixels: np.ndarray) -> np.ndarray:
    """Run a stored command line on ``pixels`` again (:attr:`editor.store.Store.replay`, which
    makes a lost version file again from its parent)."""
    return execute(c.parse_command(line), pixels)
