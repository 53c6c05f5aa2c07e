"""Words of the relation engine's answers: where a box is, a rotation, a local change."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agent.explain.types import Finding

from agent.perception.models import box_iou
from agent.perception.places import box_place, place_phrase

Box = list[int]


def where_phrase(box: Box | None, size: tuple[int, int]) -> str:
    """'at the top left', 'on the left', 'in the middle', ... for a box in an image of ``size = (w,
    h)``, by the table every answer uses (:mod:`agent.perception.places`)."""
    if box is None:
        return ""
    return place_phrase(box_place(box, size))


def _fmt(v: float) -> str:
    return f"{v:.0f}" if abs(v - round(v)) < 0.05 else f"{v:.1f}"


def rotation_sentence(deg: float) -> str:
    if deg <= 180:
        return f"It was rotated {_fmt(deg)}° counter-clockwise."
    return f"It was rotated {_fmt(360 - deg)}° clockwise."


# A local change whose lightness moved this much (OpenCV's 8-bit L; the engine's own bound for a change
# of its own) is said as brighter or darker
LIGHTER = 12.0
SAME_THING = 0.5  # a changed part is the thing found in it when their boxes overlap this much (IoU)


DULLER = 0.75  # a recoloured part whose mean chroma is at most this share of before's is "duller" ...
ALONG = 0.7  # ... when the shift runs back along its own colour: cosine at most minus this
COLOURFULNESS = 0.05  # a regional edit's part whose colours scaled from grey by this share is duller or more colourful


TINT_SHIFT = 8.0  # a part's mean a* or b* moved this much (8-bit Lab) ...
TINT_SHARE = 0.4  # ... and this share of its lightness change is a tint said beside the lightness


def shift_word(shift) -> str:
    """"bluer", "warmer", "greener", "redder" for a mean (a*, b*) shift of OpenCV's 8-bit Lab, the
    larger of the two axes, when it is at least 4; else ""."""
    if not shift:
        return ""
    da, db = shift
    if max(abs(da), abs(db)) < 4:
        return ""
    if abs(db) >= abs(da):
        return "bluer" if db < 0 else "yellower"
    return "redder" if da > 0 else "greener"


def local_sentence(fd: Finding, bsize: tuple[int, int], asize: tuple[int, int]) -> None:
    obj = fd.params.get("object")
    col = fd.params.get("color")
    thing = f"a {obj}" if obj else (f"a {col} object" if col else "an object")
    if thing[2:3] in ("a", "e", "i", "o", "u"):  # "an orange object", "an elephant"
        thing = "an " + thing[2:]
    the = f"the {obj}" if obj else (f"the {col} object" if col else "the object")
    if fd.params.get("text"):  # "the text “HAPPY BIRTHDAY”", read by the OCR model (agent.explain.objects.text_gone)
        thing = the = f"the text “{fd.params['text']}”"
    if obj and fd.params.get("count", 1) > 1 and fd.kind in ("object_added", "object_removed"):
        # a group changed together: not counted, since the detector sees 2 of a group of 4 at the gate
        from agent.perception.vocabulary import plural

        done, box, size = ("added", fd.after_box, asize) if fd.kind == "object_added" else ("removed", fd.before_box, bsize)
        fd.sentence = f"{plural(obj)[0].upper() + plural(obj)[1:]} {where_phrase(box, size)} were {done}."
    elif fd.kind == "object_added":
        fd.sentence = f"{thing[0].upper() + thing[1:]} was added {where_phrase(fd.after_box, asize)}."
    elif fd.kind == "object_removed":
        fd.sentence = f"{the[0].upper() + the[1:]} {where_phrase(fd.before_box, bsize)} was removed."
    elif fd.kind == "object_moved":
        fd.sentence = (f"{the[0].upper() + the[1:]} moved from {where_phrase(fd.before_box, bsize).split(' ', 1)[1]} "
                       f"to {where_phrase(fd.after_box, asize).split(' ', 1)[1]}.")
    elif fd.kind in ("object_recolored", "region_changed") and fd.params.get("contrast") \
            and not fd.params.get("grayscale") and fd.params.get("from_color") == fd.params.get("to_color"):
        # "make the sky more dramatic": its tones spread around mid-grey (agent.explain.regional)
        k, region = fd.params["contrast"], fd.params.get("region")
        what = f"The {region}" if region else f"The {obj}" if obj else "The part"
        where = "" if region else " " + where_phrase(fd.after_box, asize)
        fd.sentence = (f"{what}{where} got {'more' if k > 1 else 'less'} contrast (its tones spread "
                       f"×{k:.2f} around mid-grey).")
    elif fd.kind == "object_recolored":
        fr, to = fd.params.get("from_color"), fd.params.get("to_color")
        region = fd.params.get("region")
        what = f"The {region}" if region else f"The {obj}" if obj else "A region"
        where = "" if region else " " + where_phrase(fd.after_box, asize)
        if fd.params.get("grayscale"):
            fd.sentence = f"{what}{where} was made black and white."
        elif abs(fd.params.get("colourfulness", 1.0) - 1) >= COLOURFULNESS:  # a part's colours scaled from grey
            k = fd.params["colourfulness"]
            fd.sentence = f"{what}{where} became {'duller' if k < 1 else 'more colourful'} (colourfulness {(k - 1) * 100:+.0f}%)."
        elif fd.params.get("saturation_ratio", 1.0) <= DULLER and fd.params.get("shift_along_colour", 0.0) <= -ALONG:
            # "make the grass less green": its own colour weaker, not "bluer" nor "from brown to black" (a
            # tint toward its own colour, as a bluer sky, is said as the tint)
            fd.sentence = f"{what}{where} became duller (colourfulness {(fd.params['saturation_ratio'] - 1) * 100:+.0f}%)."
        elif fd.params.get("small_tint") and fd.params.get("chroma_shift"):  # a regional edit's slight tint
            shift = fd.params["chroma_shift"]
            fd.sentence = f"{what}{where} became {shift_word([4 * v / max(1e-6, *map(abs, shift)) for v in shift])}."
        elif fr and to and fr != to and not _names_contradicted(fr, to, fd.params.get("saturation_ratio", 1.0)):
            fd.sentence = f"{what}{where} changed colour from {fr} to {to}."
        elif shift_word(fd.params.get("chroma_shift")):  # a tint: the same colour name, shifted
            dl = fd.params.get("lightness_change", 0.0)
            if abs(dl) >= LIGHTER:  # "brighten the sky" clips a pale sky's blue: brighter first, then yellower
                fd.sentence = (f"{what}{where} got {'brighter' if dl > 0 else 'darker'} and "
                               f"{shift_word(fd.params['chroma_shift'])} (lightness {dl * 100 / 255:+.0f} of 100).")
            else:
                fd.sentence = f"{what}{where} became {shift_word(fd.params['chroma_shift'])}."
        else:
            fd.sentence = f"{what}{where} changed colour {f'to {to}' if to else ''}".rstrip() + "."
    elif fd.kind == "region_changed" and abs(fd.params.get("lightness_change", 0.0)) >= LIGHTER:
        # "the gorilla got brighter": what the explainer measured, not "something changed in the middle"
        dl = fd.params["lightness_change"] * 100 / 255
        # the thing found there, when the change is that thing ("brighten the gorilla"), not a part of
        # the picture that holds some of it ("darken the left side")
        box = fd.params.get("object_box")
        whole_thing = obj and box is not None and box_iou(box, fd.after_box) >= SAME_THING
        what = the if whole_thing else "The part"
        where = " " + where_phrase(fd.after_box, asize)
        if fd.params.get("region"):  # a regional edit of the sky or the background (agent.explain.regional)
            what, where = f"the {fd.params['region']}", ""
        # "make the sky red" was "the sky got darker" alone: a tint is said with it, not the small shift
        # a brightening leaves (the sky's blue clipped: a* -3, b* +7 for lightness +42 in 8-bit units)
        shift = fd.params.get("chroma_shift") or (0.0, 0.0)
        big = max(abs(v) for v in shift)
        tint = shift_word(shift) if big >= TINT_SHIFT and big >= TINT_SHARE * abs(fd.params["lightness_change"]) else ""
        fd.sentence = (f"{what[0].upper() + what[1:]}{where} got {'brighter' if dl > 0 else 'darker'}"
                       f"{f' and {tint}' if tint else ''} (lightness {dl:+.0f} of 100).")
    else:
        fd.sentence = f"Something changed {where_phrase(fd.after_box, asize)}."


def unnamed_difference(before, after) -> tuple[str, str]:
    """The finding's kind and sentence when no change could be named: "identical" ("the same") only
    when the pixels nearly are, else "unnamed".

    Otherwise it says how much differs, measured, instead of a name it cannot back
    (a sharpening of a flat picture, a blur behind a small subject, a one-pixel crop).
    """
    import numpy as np

    if before.shape[:2] != after.shape[:2]:
        (hb, wb), (ha, wa) = before.shape[:2], after.shape[:2]
        return "unnamed", (f"The size changed from {wb}×{hb} to {wa}×{ha} pixels, but I could not tell "
                           "how the picture was changed.")
    c = min(before.shape[2] if before.ndim == 3 else 1, after.shape[2] if after.ndim == 3 else 1, 3)
    b = before.reshape(*before.shape[:2], -1)[..., :c].astype(np.int16)
    a = after.reshape(*after.shape[:2], -1)[..., :c].astype(np.int16)
    diff = np.abs(a - b).max(axis=2)
    changed = float((diff > 8).mean())
    # A shift of a few levels the same way over the whole picture (a light warmth on a dark, muted
    # photo changes no pixel by more than 8) is a change made, not recompression's noise.
    shift = float(np.abs((a - b).reshape(-1, c).mean(axis=0)).max())
    if changed < 0.005 and shift >= 2.0:
        return "unnamed", (f"They differ slightly in a way I cannot name: the colours moved by {shift:.0f} levels "
                           f"on average, by {int(diff.max())} at most.")
    if changed < 0.005:
        return "identical", ("The two images look the same; only tiny pixel differences (such as "
                             "recompression) remain.")
    return "unnamed", (f"They differ in a way I cannot name: {changed:.0%} of the pixels changed by more than a few "
                       f"levels (by {int(np.percentile(diff[diff > 8], 90))} at most for nine in ten of them).")


_NEUTRAL = ("grey", "white", "black")


def _names_contradicted(fr: str, to: str, saturation_ratio: float) -> bool:
    """Whether the two colour names say the opposite of the measured colourfulness: a bluer sky (its
    box's median taken over the trees in it) was "from skyblue to grey" with its saturation x 2.24.
    The shift is said instead ("became bluer")."""
    return (to in _NEUTRAL and fr not in _NEUTRAL and saturation_ratio > 1.2) or (
        fr in _NEUTRAL and to not in _NEUTRAL and saturation_ratio < 0.8)
