"""Revisions of an edit: its amount scaled ("too much": x 0.5, "more": x 1.5), the same edit the other
way, and the reply that says what changed (:mod:`agent.language.followups` reads the words that
ask for them); and of a request of several edits: all of them scaled ("a bit less" after "make it
moodier"), or the one the words name with those after it made again (:func:`revise_at`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from agent.grammar.commands import (
    ATTR_RANGES,
    BLUR_RANGE,
    CROP_MARGIN,
    FACE_MARGIN,
    MAX_INSET,
    AdjustAttr,
    AdjustColor,
    Background,
    Command,
    CropTo,
    Flip,
    Remove,
    Rotate,
    edge_limit,
    face_words,
)
from agent.grammar.regions import region_phrase
from agent.language.followup_words import without_place
from agent.language.recent import FollowUp, Recent

# -- amounts -----------------------------------------------------------------------------------

LESS = {"small": 0.75, "normal": 0.5, "large": 0.25}
MORE = {"small": 1.25, "normal": 1.5, "large": 2.0}
# The colour a tint turns to when the person says "the other way": its opposite across the grey axis.
OPPOSITE_TINT = {"red": "skyblue", "skyblue": "red", "orange": "blue", "blue": "orange", "yellow": "purple",
                 "purple": "yellow", "green": "pink", "pink": "green", "brown": "skyblue"}
_ATTR_NAMES = {"brightness": "Brightness", "contrast": "Contrast", "saturation": "Saturation",
               "sharpness": "Sharpness", "warmth": "Warmth", "hue": "Hue"}


def signed_degrees(rotate: Rotate) -> float:
    """A rotation's degrees counter-clockwise, in (-180, 180]: 270 is -90 (90 clockwise)."""
    deg = rotate.degrees % 360
    return deg if deg <= 180 else deg - 360


def scaled(command: Command, factor: float) -> Command | None:
    """``command`` with its amount times ``factor``, clamped and rounded; None if it has no amount.

    >>> scaled(AdjustAttr("contrast", 40), 0.25).format(), scaled(AdjustAttr("saturation", -30), 1.5).format()
    ('adjust_attr contrast 10', 'adjust_attr saturation -45')
    >>> scaled(AdjustColor("blue", 0.2), 0.5).format(), scaled(Rotate(10), 0.5).format()
    ('adjust_color blue 0.1', 'rotate 5')
    >>> scaled(Background("blur"), 1.5).format(), scaled(Background("white"), 1.5)
    ('background blur 1.5', None)
    >>> scaled(CropTo("the dog"), 0.5).format(), scaled(CropTo("the dog"), 1.5).format()
    ('crop the dog margin 70%', 'crop the dog margin 0%')
    """
    if isinstance(command, AdjustAttr):
        top = ATTR_RANGES[command.attr]
        sign = 1 if command.amount >= 0 else -1
        new = max(1, min(top, round(abs(command.amount) * factor)))
        return dataclasses.replace(command, amount=float(sign * new), text=None)
    if isinstance(command, AdjustColor):
        new = min(1.0, max(0.01, round(command.intensity * factor, 2)))
        return dataclasses.replace(command, intensity=new, text=None)
    if isinstance(command, Rotate):
        signed = signed_degrees(command)
        sign = 1 if signed >= 0 else -1
        new = max(0.1, min(180.0, round(abs(signed) * factor, 1)))
        return dataclasses.replace(command, degrees=(sign * new) % 360, text=None)
    if isinstance(command, CropTo) and command.inset is not None:  # "a bit more" after "zoom in a little"
        return dataclasses.replace(command, target=f"in {max(1.0, min(MAX_INSET, round(command.inset * factor, 1))):g}%")
    if isinstance(command, CropTo) and command.edges is not None:  # "a bit more" after "crop off the bottom"
        sides, share = command.edges
        new = max(1.0, min(edge_limit(sides), round(share * factor, 1)))
        return dataclasses.replace(command, target=f"off {' and '.join(sides)} {new:g}%")
    if isinstance(command, CropTo) and not command.aspect and command.centred is None:
        # a crop to a thing or a face: "more" crops closer (the crop's size over ``factor``), "a bit wider" less
        usual = FACE_MARGIN if face_words(command.target) is not None else CROP_MARGIN
        margin = usual if command.margin is None else command.margin
        return dataclasses.replace(command, margin=min(1.0, max(0.0, round(((1 + 2 * margin) / factor - 1) / 2, 2))))
    if isinstance(command, Background) and command.mode == "blur":  # "more" after "blur the background"
        lo, hi = BLUR_RANGE
        return dataclasses.replace(command, strength=min(hi, max(lo, round(command.strength * factor, 2))))
    return None


def reversed_edit(command: Command) -> Command | None:
    """The same edit the other way: the amount negated, a tint toward the opposite colour, a
    rotation the other way round, a flip about the other axis; None for edits without a direction.

    >>> reversed_edit(AdjustAttr("brightness", 20)).format(), reversed_edit(Rotate(270)).format()
    ('adjust_attr brightness -20', 'rotate 90')
    """
    if isinstance(command, AdjustAttr):
        return dataclasses.replace(command, amount=-command.amount, text=None)
    if isinstance(command, AdjustColor):
        return dataclasses.replace(command, color=OPPOSITE_TINT[command.color], text=None)
    if isinstance(command, Rotate):
        return dataclasses.replace(command, degrees=(-signed_degrees(command)) % 360, text=None)
    if isinstance(command, Flip):
        return Flip("vertical" if command.axis == "horizontal" else "horizontal")
    return None


def shown(command: Command) -> str:
    if isinstance(command, AdjustAttr):
        unit = "°" if command.attr == "hue" else ""
        return f"{command.amount:+g}{unit}"
    if isinstance(command, AdjustColor):
        return f"{command.color} at {round(command.intensity * 100, 1):g}%"
    if isinstance(command, Rotate):
        signed = signed_degrees(command)
        return f"{abs(signed):g}° {'counter-clockwise' if signed >= 0 else 'clockwise'}"
    return command.label()


def _where_done(command: Command) -> str:
    region = getattr(command, "region", "")
    return region_phrase(region) if region else "the whole picture"


def revision_reply(old: Command, new: Command) -> str:
    """What the assistant says after a revision: the new amount and the one it replaces, or the
    new part and the one it replaces.

    >>> revision_reply(AdjustAttr("contrast", 40), AdjustAttr("contrast", 20))
    'Contrast now +20 instead of +40.'
    >>> revision_reply(AdjustAttr("brightness", 20), AdjustAttr("brightness", 20, region="the dog"))
    'Brightened the dog by 20 points, instead of the whole picture.'
    >>> revision_reply(AdjustAttr("brightness", 20, region="selection"), AdjustAttr("brightness", 20, region="left"))
    'Brightened the left side by 20 points, instead of your selection.'
    >>> revision_reply(AdjustAttr("brightness", 20, region="the giraffe"),
    ...                AdjustAttr("brightness", 20, region="the giraffe on the left"))
    'Brightened the giraffe on the left by 20 points, instead of the one I changed before.'
    >>> revision_reply(Remove("the chicken"), Remove("the chicken on the left"))
    'Put back the one I removed, and removed the chicken on the left instead.'
    >>> revision_reply(CropTo("the dog"), CropTo("the dog", margin=0.25))
    'Cropped wider around the dog: 25% of its size on each side, instead of 10%.'
    """
    if isinstance(new, Remove) and isinstance(old, Remove):  # "no, the one on the left"
        return f"Put back the one I removed, and removed {new.words} instead."
    if getattr(new, "region", "") != getattr(old, "region", ""):  # "no, only the giraffe"
        before, now = getattr(old, "region", ""), getattr(new, "region", "")
        if before.startswith("the ") and without_place(before) == without_place(now):
            return f"{new.reply().rstrip('.')}, instead of the one I changed before."  # "no, the left one"
        return f"{new.reply().rstrip('.')}, instead of {_where_done(old)}."
    if isinstance(new, AdjustAttr) and isinstance(old, AdjustAttr) and new.attr == old.attr:
        return f"{_ATTR_NAMES[new.attr]} now {shown(new)} instead of {shown(old)}."
    if isinstance(new, AdjustColor):
        return f"Tint now {shown(new)} instead of {shown(old)}."
    if isinstance(new, Rotate):
        return f"Rotation now {shown(new)} instead of {shown(old)}."
    if isinstance(new, CropTo) and isinstance(old, CropTo) and new.target == old.target and new.margin is not None:
        face = face_words(new.target) is not None
        before = (FACE_MARGIN if face else CROP_MARGIN) if old.margin is None else old.margin  # "a bit wider"
        way = "wider" if new.margin > before else "closer"
        if face:  # (a headshot's room is uneven: the hair above, the shoulders below)
            return (f"Cropped {way} around {region_phrase(new.target)}: the room around it {new.margin / FACE_MARGIN:.2g} "
                    f"times the usual, instead of {before / FACE_MARGIN:.2g}.")
        return (f"Cropped {way} around {new.target}: {new.margin * 100:.0f}% of its size on each side, "
                f"instead of {before * 100:.0f}%.")
    if isinstance(new, CropTo) and isinstance(old, CropTo) and new.inset is not None and old.inset is not None:
        return f"Crop now {new.inset:g}% off each side instead of {old.inset:g}%."
    if isinstance(new, CropTo) and isinstance(old, CropTo) and new.edges is not None and old.edges is not None:
        return f"Crop now {new.edges_said()} instead of {old.edges[1]:g}%."
    if isinstance(new, Background) and isinstance(old, Background) and new.mode == old.mode == "blur":
        return f"Background blur now {new.strength:g} times the usual instead of {old.strength:g}."
    return f"{new.reply().rstrip('.')} instead ({old.label()} taken back)."


# -- revisions of a request's edits (agent.language.followups reads the words that ask for them) ---------


def no_amount(last: Command) -> FollowUp:
    return FollowUp(reply=f"“{last.label()}” has no amount I can change. Say 'undo' to take it back, or tell me "
                          "what to do instead.")


def request_of(recent: Recent) -> tuple[Command, ...]:
    """The last request's edits, the one on screen last."""
    request = recent.request
    return request if request and request[-1] == recent.last else (recent.last,)


def revise_at(recent: Recent, index: int, factor: float) -> FollowUp:
    """The last request's edit at ``index`` with its amount times ``factor``, and its edits after it
    made again after it ("too dark" after "make it moodier" lightens its darkening, and keeps its
    contrast and colours as they were)."""
    request = request_of(recent)
    last = request[index]
    new = scaled(last, factor)
    if new is None:
        return no_amount(last)
    if new == last:
        edge = "most" if factor > 1 else "least"
        return FollowUp(reply=f"It is already at the {edge} I can do: {shown(last)}. Say 'undo' to take it back.")
    return FollowUp([new, *request[index + 1:]], revise=len(request) - index)


def revise_all(recent: Recent, factor: float) -> FollowUp:
    """'a bit less' after a request of several adjustments ("make it moodier": darker, more contrast,
    duller colours): every one of them scaled, made again from the picture before the request."""
    request = request_of(recent)
    if len(request) < 2 or not all(isinstance(c, (AdjustAttr, AdjustColor)) for c in request):
        return revise_at(recent, len(request) - 1, factor)  # ("crop to the dog and brighten it": the last)
    new = [scaled(c, factor) for c in request]
    if new == list(request):
        return revise_at(recent, len(request) - 1, factor)  # (at the edge: said of the last)
    return FollowUp(new, revise=len(request))


def named_edit(recent: Recent, fits: Callable[[Command], bool]) -> int | None:
    """The index of the last request's last edit that ``fits`` ("too dark" after "make it moodier":
    its darkening, not its colours), None when none does."""
    request = request_of(recent)
    return next((i for i in range(len(request) - 1, -1, -1) if fits(request[i])), None)
