"""From a command to pixels: one function per command type (:data:`RUNNERS`), run by :func:`execute`.

The grammar (:mod:`agent.grammar.commands`) says what a command means and holds no pixels; this
module is the one place that says which operation of :mod:`editor` (or which object edit of
:mod:`agent.edits.objects`) carries it out, and the one entry point the dialogue manager, the CLI
and the annotator call.

An edit with a region (``adjust_attr brightness 20 in sky``) runs the same operation on the whole
picture and keeps it only inside the region's mask (:func:`editor.masks.apply_in_region`; the mask
from :func:`agent.edits.regions.resolve`), so outside it the pixels are unchanged bit for bit.
``selection`` (what the person drew) is a mask the caller supplies: ``in selection``,
``remove selection`` and ``crop selection`` need it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from agent.edits import objects, regions, removal, retouch
from agent.grammar import commands as c
from agent.perception.vocabulary import counted
from editor import adjust, geometry, masks, ops

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


def _crop_to(cmd: c.CropTo, px: np.ndarray) -> np.ndarray:
    if cmd.inset is not None:  # "zoom in a little": the same share off each side
        h, w = px.shape[:2]
        dx, dy = round(w * cmd.inset / 100), round(h * cmd.inset / 100)
        return ops.crop(px, box=(dx, dy, w - dx, h - dy))
    if cmd.edges is not None:  # "crop off the bottom": that share of the picture off each side named
        h, w = px.shape[:2]
        sides, share = cmd.edges
        cut = {s: round((h if s in ("top", "bottom") else w) * share / 100) for s in sides}
        return ops.crop(px, box=(cut.get("left", 0), cut.get("top", 0), w - cut.get("right", 0), h - cut.get("bottom", 0)))
    if cmd.centred is not None:
        return objects.centre_on(px, cmd.centred)
    if c.face_words(cmd.target) is not None:
        return retouch.crop_face(px, cmd.target, room=1.0 if cmd.margin is None else cmd.margin / c.FACE_MARGIN)
    if cmd.aspect:
        return objects.crop_aspect(px, cmd.aspect)
    return objects.crop_object(px, cmd.target, margin=c.CROP_MARGIN if cmd.margin is None else cmd.margin)


def _rotate(cmd: c.Rotate, px: np.ndarray) -> np.ndarray:
    return geometry.rotate_crop(px, degrees=cmd.degrees) if cmd.crop else ops.rotate(px, degrees=cmd.degrees)


def _resize(cmd: c.Resize, px: np.ndarray) -> np.ndarray:
    width, height = cmd.size(px.shape[1], px.shape[0])
    return geometry.resize(px, width=width, height=height)


RUNNERS: dict[type, Callable[..., np.ndarray]] = {
    c.Rotate: _rotate,
    c.Resize: _resize,
    c.RemoveLocation: lambda cmd, px: px.copy(),  # the pixels stay; the files saved leave out the place
    c.AdjustColor: lambda cmd, px: ops.adjust_color(px, color=cmd.color, intensity=cmd.intensity),
    c.AdjustAttr: _attr,
    c.ImageCutout: lambda cmd, px: ops.image_cutout(px),
    c.Crop: lambda cmd, px: ops.crop(px, box=(cmd.x1, cmd.y1, cmd.x2, cmd.y2)),
    c.CropTo: _crop_to,
    c.Flip: lambda cmd, px: ops.flip(px, axis=cmd.axis),
    c.Grayscale: lambda cmd, px: adjust.grayscale(px),
    c.AutoEnhance: lambda cmd, px: adjust.auto_enhance(px),
    c.Remove: lambda cmd, px: objects.remove_objects(px, cmd.words),
    c.Background: lambda cmd, px: objects.background(px, cmd.mode, cmd.keep, cmd.strength),
    c.RedEye: lambda cmd, px: retouch.red_eye(px)[0],
}


SELECTION_WORDS = ("selection", "the selection")
# Edits that map each pixel on its own: inside a region they run on the region's bounding box only
# (editor.masks.apply_in_region(pointwise=True), the same pixels). Sharpness looks at neighbours
# and auto_enhance at the whole picture's statistics: they run on the whole picture.
POINTWISE_ATTRS = ("brightness", "contrast", "saturation", "warmth", "hue")


def is_pointwise(command: c.Command) -> bool:
    """Whether ``command``'s operation maps each pixel on its own (see :data:`POINTWISE_ATTRS`)."""
    if isinstance(command, c.AdjustAttr):
        return command.attr in POINTWISE_ATTRS
    return isinstance(command, (c.AdjustColor, c.Grayscale))


@dataclass
class Outcome:
    """What an edit made: the pixels, and what the person should see and be told about where."""

    pixels: np.ndarray
    overlays: list[dict] = field(default_factory=list)  # the boxes of objects a region used
    note: str = ""  # which one, when the words named one of several


def uses_selection(command: c.Command) -> bool:
    """Whether ``command`` applies to what the person drew (``in selection``, ``remove selection``,
    ``crop selection``, or "everything except" it)."""
    region = getattr(command, "region", "")
    if region:
        return c.region_kind(c.region_parts(region)[1]) == c.SELECTION
    if isinstance(command, c.Remove):
        return c.is_selection(command.words)
    if isinstance(command, c.CropTo):
        return command.target in SELECTION_WORDS
    return False


def stored_selection(command: c.Command) -> str | None:
    """The hash of the stored mask ``command``'s selection names (``in selection <sha256>``), or None."""
    if isinstance(command, c.Remove):
        return c.selection_ref(command.words)
    region = getattr(command, "region", "")
    return c.selection_ref(c.region_parts(region)[1]) if region else None


def quantized(mask: np.ndarray) -> np.ndarray:
    """A selection's mask as it is stored with the command that uses it: 8 bits, rounded half up
    (``floor(255*m + 0.5)``); the edit runs with exactly this mask, so replaying it from the stored
    file gives the same pixels."""
    m = masks.check_mask(mask)
    return np.floor(m * 255 + 0.5).astype(np.uint8)


def selection_box(selection: np.ndarray) -> c.Crop:
    """``crop x1 y1 x2 y2`` of the selection's bounding box (its part at 0.5 and above): "crop to
    this" runs and is recorded as a CAISE crop, which replays without the drawing."""
    box = masks.bounding_box(selection)
    if box is None:
        raise regions.RegionNotFound("the selection is empty")
    return c.Crop(*box)


def run(command: c.Command, pixels: np.ndarray, *, selection: np.ndarray | None = None,
        cutout: Callable[[np.ndarray], np.ndarray] | None = None,
        load: Callable[[str], np.ndarray] | None = None) -> Outcome:
    """The new pixels ``command`` makes from ``pixels`` (which are left unchanged), with the boxes
    and the sentence a region leaves for the person.

    ``selection`` is the mask of what the person drew (``in selection``); ``cutout`` a function that
    cuts out the main subject, whose alpha is the region ``subject`` (the app's helper process).
    Raises ``ValueError`` for commands that do not edit an image (search, undo, explain, ...) and
    :class:`agent.edits.regions.RegionNotFound` (a ``LookupError``) when the region is not in the
    picture: nothing is edited instead.

    A command that names a stored selection (``in selection <sha256>``) takes ``selection`` when
    given, else the mask ``load(sha256)`` returns (the store's pixel files: replay).
    """
    runner = RUNNERS.get(type(command))
    if not command.edits_image or runner is None:
        raise ValueError(f"{command.format()!r} does not edit an image")
    ref = stored_selection(command)
    if selection is None and ref is not None and load is not None:
        try:
            selection = masks.check_mask(load(ref))
        except (OSError, ValueError):
            raise regions.RegionNotFound("the selection this edit used is no longer stored") from None
    if uses_selection(command) and selection is None:
        raise regions.RegionNotFound("nothing is selected")
    if isinstance(command, c.Remove) and c.is_selection(command.words):
        return Outcome(objects.remove_region(pixels, selection))
    if isinstance(command, c.CropTo) and command.target in SELECTION_WORDS:
        return Outcome(RUNNERS[c.Crop](selection_box(selection), pixels))
    if isinstance(command, c.CropTo) and not command.aspect and command.inset is None and command.edges is None \
            and c.face_words(command.target) is None:  # says which one, of several ("Cropped to the bison.")
        found = objects.match_objects(pixels, command.centred or command.target)
        verb = "centred" if command.centred else "cropped to"
        notes = [f"I see {counted(len(m.others) + 1, m.label)} and {verb} the one {regions.which_one(m.boxes[0], m.others)}"
                 "; say which if you meant another" for m in found if m.others and not m.plural and not m.positioned]
        margin = c.CROP_MARGIN if command.margin is None else command.margin
        out = objects.centre_on(pixels, command.centred, matches=found) if command.centred else \
            objects.crop_object(pixels, command.target, matches=found, margin=margin)
        return Outcome(out, note=". ".join(notes) + ("." if notes else ""))
    region = getattr(command, "region", "")
    if isinstance(command, c.Remove) and not region:  # says which one went, or why none did
        out, overlays, note = removal.remove(pixels, command.words)
        return Outcome(out, overlays, note)
    if isinstance(command, c.RedEye):  # says how many, or raises: no face, no red eye
        out, note = retouch.red_eye(pixels)
        return Outcome(out, note=note)
    if not region:
        out = runner(command, pixels)
        return Outcome(out, note=enhance_note(pixels, out) if isinstance(command, c.AutoEnhance) else "")
    where = regions.resolve(region, pixels, selection=selection, cutout=cutout)
    out = masks.apply_in_region(pixels, where.mask, lambda px: runner(command, px), pointwise=is_pointwise(command))
    return Outcome(out, where.overlays, where.note)


def enhance_note(before: np.ndarray, after: np.ndarray) -> str:
    """What ``auto_enhance`` changed, in the figures a critique uses ("make it look better" says
    how much, not only that it ran): mean brightness, the span of the tones, the colour cast of
    near-grey tones and the saturation, each before -> after when it moved.

    >>> ramp = np.linspace(60, 180, 64 * 64).reshape(64, 64).astype(np.uint8)
    >>> enhance_note(ramp, ramp[::-1].copy())
    'Nothing measurable changed.'
    """
    from agent.perception import measure as m

    a, b = m.measure(before), m.measure(after)
    pct = lambda x: f"{100 * x:.0f}%"  # noqa: E731
    said = []
    if round(100 * a.mean) != round(100 * b.mean):
        said.append(f"mean brightness {pct(a.mean)} -> {pct(b.mean)}")
    if round(100 * a.spread) != round(100 * b.spread):
        said.append(f"tones span {pct(a.spread)} -> {pct(b.spread)} of the range")
    if not (a.grey or b.grey) and abs(a.cast_b - b.cast_b) >= 1:
        said.append(f"colour cast b* {a.cast_b:+.1f} -> {b.cast_b:+.1f} (+ yellow, - blue)")
    if not (a.grey or b.grey) and round(100 * a.saturation) != round(100 * b.saturation):
        said.append(f"saturation {pct(a.saturation)} -> {pct(b.saturation)}")
    return ("Measured: " + "; ".join(said) + ".") if said else "Nothing measurable changed."


def execute(command: c.Command, pixels: np.ndarray, *, selection: np.ndarray | None = None) -> np.ndarray:
    """The new pixels ``command`` makes from ``pixels`` (which are left unchanged); :func:`run`
    without what it says about where.

    Raises ``ValueError`` for commands that do not edit an image (search, undo, explain, ...).

    >>> img = np.full((2, 4, 3), 100, np.uint8)
    >>> execute(c.parse_command("adjust_attr brightness 20 in left half"), img)[0, :, 0].tolist()
    [151, 151, 100, 100]
    """
    return run(command, pixels, selection=selection).pixels


def pointing_example(command: c.Command) -> str:
    """How to ask for ``command`` on a drawn region, for a reply that asks the person to point:
    "brighten this", "make this black and white"."""
    if isinstance(command, c.AdjustAttr):
        up = command.amount >= 0
        return {"brightness": "brighten this" if up else "darken this",
                "contrast": "more contrast here" if up else "less contrast here",
                "saturation": "make this more vivid" if up else "make this duller",
                "sharpness": "sharpen this" if up else "blur this",
                "warmth": "make this warmer" if up else "make this cooler",
                "hue": "shift the hues here"}[command.attr]
    if isinstance(command, c.AdjustColor):
        return f"make this more {command.color}"
    if isinstance(command, c.Grayscale):
        return "make this black and white"
    if isinstance(command, c.Remove):
        return "remove this"
    if isinstance(command, (c.Crop, c.CropTo)):
        return "crop to this"
    return "enhance this"


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
    if isinstance(command, c.Resize):
        before, after = f"{before_shape[1]}×{before_shape[0]}", f"{after_shape[1]}×{after_shape[0]}"
        if before == after:
            return f"Left it at {after} pixels: it is already no larger than that."
        why = (f" (the long side at most {command.long} px, a size for sharing and the web; save it to write "
               "the smaller file, and undo brings back the full size)") if command.long is not None else ""
        return f"Resized from {before} to {after} pixels{why}."
    if isinstance(command, c.Rotate) and command.crop and command.degrees % 90:
        return f"{command.reply()[:-1]}: {after_shape[1]}×{after_shape[0]} pixels."
    if isinstance(command, c.Crop):
        kept = f"Cropped to {after_shape[1]}×{after_shape[0]} pixels."
        note = crop_note(command, before_shape)
        return f"{kept} {note}" if note else kept
    return command.reply()


def replay(line: str, pixels: np.ndarray, *, load: Callable[[str], np.ndarray] | None = None) -> np.ndarray:
    """Run a stored command line on ``pixels`` again (:attr:`editor.store.Store.replay`, which
    makes a lost version file again from its parent). A line that used what the person drew
    carries the hash of the selection's stored mask (``adjust_attr brightness 20 in selection
    <sha256>``, ``remove selection <sha256>``) and ``load`` reads it (the store's
    :meth:`~editor.store.Store.get_pixels`); without it, or without the hash, such a line raises
    LookupError (the store then keeps the version lost rather than make other pixels)."""
    return run(c.parse_command(line), pixels, load=load).pixels
