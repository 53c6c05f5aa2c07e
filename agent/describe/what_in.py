"""What is in, on or next to a part the person names: "what's in the sky?", "what is on the
grass?", "what's on the bench?", "what is next to the dog?".

They were "I can't answer that" (gcompris' Golden Temple: "what's in the water?"). A part found by
name (the sky, the clouds, the greenery: :func:`agent.describe.questions.found_part`) holds a thing
when most of the thing's box lies on the part's mask ("in the sky"), or most of its lowest rows do
("on the grass": what stands on it); a thing the detector finds (a bench, a table) holds what most
lies within its box; "next to" is the nearest things beside it. A part Easel cannot find (the water,
a building) is said so, with how to point at it: nothing is guessed.
"""

from __future__ import annotations

import math

import numpy as np

from agent.grammar.commands import Command
from agent.perception.vocabulary import listed
from agent.perception.vocabulary import with_article as _a

# "on the grass": the box's lowest rows (this share of its height) are what it stands on
_FEET = 0.15
_MOSTLY = 0.5  # of a box on the part (or of a thing's box in another's): the thing is in it
# of its lowest rows and the band below them: the thing stands on it (its own legs and shadow take the
# rest: gcompris' German shepherd on a dry meadow, 0.47)
_STANDING = 0.35
_NEAR = 1.0  # "next to": a gap under this many of the larger box's sides
_KEPT = 4  # at most this many things said
_BESIDE = ("next to", "beside", "near", "by", "around")


def what_in(pixels: np.ndarray, prep: str, about: str) -> tuple[str, dict, list[Command]]:
    """The answer to "what is <prep> <about>?" (prep: in, on, inside, next to, beside, near, ...)."""
    from agent.describe.placing import BOX_COLOR, SURE, UNSURE, found_part, found_region
    from agent.perception.models import box_iou, to_rgb8
    from agent.perception.naming import name_objects
    from agent.perception.things import detect, inside_share

    rgb = to_rgb8(pixels)
    h, w = rgb.shape[:2]
    said = f"{prep} {about}"
    found = detect(rgb, min_score=UNSURE)  # one look: what is sure (SURE) is said as seen, the rest "I think"
    dets = [d for d in found if d.score >= SURE]
    part = found_part(about)
    holder = None
    if part is not None and prep not in _BESIDE:
        _, mask, _ = found_region(rgb, part)
        if not mask.any():
            return f"I don't see {about} in this picture.", {}, []
        on = prep in ("on", "on top of")
        kept = [d for d in dets if _share_on(mask, d.box, (h, w), feet=on) >= (_STANDING if on else _MOSTLY)]
    else:
        from agent.edits.objects import match_objects
        from agent.perception.things import ObjectNotFound, object_phrase

        try:
            object_phrase(about)
        except ObjectNotFound:  # (the water, a building, the stage)
            return (f"I can't find {about} on my own: I find people, animals, vehicles and everyday objects, the "
                    "sky and the plants. Draw around it with the trace tool (T) and ask “what is this?”.", {}, [])
        try:
            holder = match_objects(rgb, about)[0].boxes[0]
        except ObjectNotFound as exc:  # not there, or not sure which ("the man on the right" of four)
            seen = [{"kind": "box", "target": "current", "box": [int(v) for v in box], "color": BOX_COLOR,
                     "label": f"{word}?"} for word, box in exc.seen]
            return f"{exc}.", {"overlays": seen} if seen else {}, []
        others = [d for d in dets if box_iou(d.box, holder) < 0.6]
        if prep == "under":
            return _under(rgb, holder, about, found)
        if prep in _BESIDE:
            kept = sorted((d for d in others if _gap(d.box, holder) <= _NEAR * _side(d.box, holder)),
                          key=lambda d: _gap(d.box, holder))
        elif prep in ("on", "on top of"):
            # what stands on a table or a bench rises above its box: its lowest rows are on it (Wine's table,
            # "what's on the table?" said nothing of the bottle on it, which "make the bottle stand out" found)
            kept = [d for d in found if box_iou(d.box, holder) < 0.6 and (inside_share(d.box, holder) >= _MOSTLY or
                                                                            inside_share(_feet(d.box), holder) >= _STANDING)]
        else:
            kept = [d for d in others if inside_share(d.box, holder) >= _MOSTLY]
    kept = sorted(kept, key=lambda d: -d.score)[:_KEPT]
    data: dict = {"overlays": [{"kind": "box", "target": "current", "box": [int(v) for v in holder],
                                "color": BOX_COLOR, "label": about.removeprefix("the ")}]} if holder is not None else {}
    if not kept:
        return f"I see nothing I can name {said}.", data, []
    names = name_objects(rgb, kept)
    words = list(dict.fromkeys(_a(n.phrase) for d, n in zip(kept, names) if d.score >= SURE))
    maybe = list(dict.fromkeys(_a(n.phrase) for d, n in zip(kept, names) if d.score < SURE and _a(n.phrase) not in words))
    data.setdefault("overlays", []).extend({"kind": "box", "target": "current", "box": [int(v) for v in d.box],
                                            "color": BOX_COLOR, "label": n.said or n.noun} for d, n in zip(kept, names))
    if len(kept) == 1 and names[0].noun != "object":  # "what's in the sky?", then "make it brighter"
        data["topic"] = f"the {names[0].said or names[0].noun}"
    boxes = "its box is" if len(kept) == 1 else "their boxes are"
    lead = f"{said[0].upper()}{said[1:]}"
    if not words:  # (under SURE: "I think", with the detector's score, as the other answers say it)
        low = math.floor(100 * max(d.score for d in kept)) / 100
        return f"{lead} I think I can see {listed(maybe)}, but I'm not sure (score {low:.2f}; {boxes} on the picture).", data, []
    also = f", and I think {listed(maybe)}" if maybe else ""
    return f"{lead} I can see {listed(words)}{also} ({boxes} on the picture).", data, []


def _share_on(mask: np.ndarray, box, shape: tuple[int, int], *, feet: bool) -> float:
    """The share of ``box`` (full-size pixels) on ``mask`` (a smaller copy's), or of its lowest
    :data:`_FEET` rows and a band as tall below them when ``feet``."""
    h, w = shape
    sy, sx = mask.shape[0] / h, mask.shape[1] / w
    x1, y1, x2, y2 = _feet(box) if feet else (float(v) for v in box)
    y2 = min(h, y2)
    rows = slice(int(y1 * sy), max(int(y1 * sy) + 1, int(np.ceil(y2 * sy))))
    cols = slice(int(x1 * sx), max(int(x1 * sx) + 1, int(np.ceil(x2 * sx))))
    part = mask[rows, cols]
    return float(part.mean()) if part.size else 0.0


def _under(rgb: np.ndarray, holder, about: str, found) -> tuple[str, dict, list[Command]]:
    """What the thing in ``holder`` stands, sits or lies on: a thing found under its lowest rows (a bench,
    a table, a couch), else the part of the picture there as describe names it (the ground, the grass);
    "what is the camel standing on?" was "I can't answer that". ``found``: the detector's finds from
    UNSURE on."""
    from agent.describe.placing import BOX_COLOR, SURE
    from agent.describe.words import describe_region
    from agent.perception.colour_terms import fit_side
    from agent.perception.models import box_iou
    from agent.perception.naming import name_objects
    from agent.perception.things import inside_share
    from editor.greenery import greenery_mask
    from editor.sky import sky_mask

    h, w = rgb.shape[:2]
    x1, _, x2, y2 = (float(v) for v in holder)
    feet = _feet(holder)
    data = {"overlays": [{"kind": "box", "target": "current", "box": [int(v) for v in holder], "color": BOX_COLOR,
                          "label": about.removeprefix("the ")}]}
    lead = f"{about[0].upper()}{about[1:]}"
    under = [d for d in found if box_iou(d.box, holder) < 0.6 and d.box[3] > y2
             and inside_share(feet, d.box) >= _STANDING]  # (its box goes on below the thing's feet: it holds them up)
    if under:
        best = max(under, key=lambda d: d.score)
        name = name_objects(rgb, [best])[0]
        data["overlays"].append({"kind": "box", "target": "current", "box": [int(v) for v in best.box],
                                 "color": BOX_COLOR, "label": name.said or name.noun})
        if best.score < SURE:  # ("I think", with the score, as the other answers say it)
            return (f"I think {about} is on {_a(name.phrase)}, but I'm not sure (score {math.floor(100 * best.score) / 100:.2f}; "
                    "the boxes are on the picture).", data, [])
        return f"{lead} is on {_a(name.phrase)} (the boxes are on the picture).", data, []
    if y2 >= h - 2:
        return f"{lead} goes on to the picture's bottom edge, so I can't see what it stands on.", data, []
    small = fit_side(rgb, 512)
    s = small.shape[0] / h
    _, top, _, bottom = feet  # (its lowest rows and as much below them)
    band = (int(x1 * s), int(top * s), max(int(x1 * s) + 1, int(x2 * s)),
            max(int(top * s) + 1, int(min(h, bottom) * s)))
    sky = sky_mask(small)
    noun, _ = describe_region(small, band, sky, greenery_mask(small, sky=sky))
    # what lies right under its box, said as seen, not as what it stands on: a nuthatch clinging to a trunk
    # has the ground far below it
    return f"Right under {about} I can see {noun} (its box is on the picture).", data, []


def _feet(box) -> tuple[float, float, float, float]:
    """The lowest :data:`_FEET` rows of ``box`` and a band as tall below them: what it stands on."""
    x1, y1, x2, y2 = (float(v) for v in box)
    tall = (y2 - y1) * _FEET
    return x1, y2 - tall, x2, y2 + tall


def _gap(a, b) -> float:
    dx = max(0.0, max(a[0], b[0]) - min(a[2], b[2]))
    dy = max(0.0, max(a[1], b[1]) - min(a[3], b[3]))
    return float(np.hypot(dx, dy))


def _side(a, b) -> float:
    return float(max(a[2] - a[0], a[3] - a[1], b[2] - b[0], b[3] - b[1]))
