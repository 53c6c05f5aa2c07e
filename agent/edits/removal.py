"""``remove <words>`` as the person should hear it: the right thing removed, or why nothing was.

:func:`agent.edits.objects.remove_objects` makes the pixels; this says what happened. A thing that is
not found (or is found only on the detector's weak second look) is not removed and the reply asks
the person to point at it (:class:`agent.edits.regions.RegionNotFound`: the dialogue manager's
"draw around it ... and say 'remove this'"), never a removal of something else with "Removed the
tie". When the words name one of several ("the dog" in a photo of two) the reply says which one
went, with every box on the picture; when the detector still sees the thing where it was, the
reply says that too.
"""

from __future__ import annotations

import numpy as np

from agent.edits import objects, text_removal
from agent.edits.regions import RegionNotFound, not_found_sentence, which_one
from agent.language.followup_words import REMOVED_ONE_OF
from agent.language.rules import CLOUDS
from agent.language.scope import names_text
from agent.perception.models import box_iou
from agent.perception.things import ObjectNotFound, detect
from agent.perception.vocabulary import KIND_ONLY, counted, with_article
from editor.fill import inpaint

REMOVED_COLOR = "#33ccff"  # the boxes of what was removed, on the canvas
LEFT_COLOR = "#999999"  # ... and of the others of its kind, left in place


def _overlay(box, label: str, color: str) -> dict:
    return {"kind": "box", "target": "current", "box": [int(v) for v in box], "color": color, "label": label}


def _quote(lines) -> str:
    return ", ".join(f"“{ln.text}”" for ln in lines[:4]) + (" and more" if len(lines) > 4 else "")


def _remove_text(pixels: np.ndarray, words: str) -> tuple[np.ndarray, list[dict], str]:
    """"remove the watermark", "the text at the bottom", "the text “OKC”": the lines the OCR model
    reads surely there, each boxed and quoted in the reply; lines it is unsure of are boxed and
    asked about, not removed (texture read as "ce")."""
    try:
        sure, unsure = text_removal.find_text(pixels, words)
    except ObjectNotFound as exc:
        raise RegionNotFound(str(exc)) from None
    if not sure:
        if not unsure:  # a quoted text no line says
            raise RegionNotFound(f"I can't read {words.strip()} in the picture")
        raise RegionNotFound(
            f"I can read only {_quote(unsure)} (boxed), and I'm not sure it is text (say “remove the text "
            f"“{unsure[0].text}”” if it is)", [_overlay(ln.box, f"text? {ln.text}", LEFT_COLOR) for ln in unsure])
    overlays = [_overlay(ln.box, f"removed “{ln.text}”", REMOVED_COLOR) for ln in sure]
    overlays += [_overlay(ln.box, f"text? {ln.text}", LEFT_COLOR) for ln in unsure]
    lines = "1 line" if len(sure) == 1 else f"{len(sure)} lines"
    note = f"It was {lines} of text: {_quote(sure)} ({'its box is' if len(sure) == 1 else 'the boxes are'} on the picture)"
    if unsure:
        note += f". I left {_quote(unsure)}, which I'm not sure is text (boxed in grey)"
    out = inpaint(pixels, text_removal.text_mask(pixels, sure))
    still = text_removal.text_left(out, sure)
    if still:  # the fill kept letters' shapes (text over a busy pattern): said, not claimed gone
        note += f". I can still read {_quote(still)} there: look, and undo if it is not gone"
    return out, overlays, note + "."


# The hole stops short of an object's box by this share of the box's side, and the object may go on
# there: on 18 real animal photos (bench/remove_photos.py) the hole came within 0.14 of every side of
# its box; the legs of seated musicians in black trousers on a black stage were left, the hole
# stopping 0.35-0.45 of the box's height above its bottom, and the reply had said only "Removed the
# person"
SHORT_OF_BOX = 0.25


def _remove_clouds(pixels: np.ndarray) -> tuple[np.ndarray, list[dict], str]:
    """The clouds taken out of the sky (:func:`editor.sky.clear_sky`), or why not."""
    from editor.sky import clear_sky

    try:
        out, share = clear_sky(pixels)
    except ValueError as exc:
        raise RegionNotFound(f"I can't remove these clouds: {exc} (an overcast sky has no blue to put there)",
                             []) from None
    if share == 0.0:
        raise RegionNotFound("I don't see clouds against a blue sky in this picture", [])
    return out, [], (f"They covered {share:.0%} of the sky, which I filled from the clear sky around them. Clouds "
                     "low over the horizon, which look like haze to me, may be left: draw around them and say "
                     "“remove this”.")


def _short_of_box(hole: np.ndarray, boxes: list) -> str:
    """Where the hole stops short of one of ``boxes`` (:data:`SHORT_OF_BOX`): "below", "above", "to the
    left of", "to the right of"; "" when it reaches every side of each."""
    for x1, y1, x2, y2 in boxes:
        ys, xs = np.nonzero(hole[y1:y2, x1:x2])
        if len(ys) == 0:
            continue
        bh, bw = max(1, y2 - y1), max(1, x2 - x1)
        gaps = {"below": 1 - (ys.max() + 1) / bh, "above": ys.min() / bh,
                "to the left of": xs.min() / bw, "to the right of": 1 - (xs.max() + 1) / bw}
        side, gap = max(gaps.items(), key=lambda kv: kv[1])
        if gap >= SHORT_OF_BOX:
            return side
    return ""


# A hole from this share of the picture is said to be large: gcompris' didgeridoo player, 45% of his
# photo, was filled with a strip of tree stump, a green smear and a pale band, and the reply said only
# "Removed the man and filled in the background."
LARGE_HOLE = 0.25


def remove(pixels: np.ndarray, words: str) -> tuple[np.ndarray, list[dict], str]:
    """The picture with what ``words`` name removed, the boxes to show, and a sentence for the
    reply ("" when the command's own reply says it all). Raises ``RegionNotFound`` when nothing
    was removed: not found, a weak guess (its box shown), or no outline."""
    if CLOUDS.fullmatch(words.strip()):
        return _remove_clouds(pixels)
    if names_text(words):
        return _remove_text(pixels, words)
    try:
        found = objects.match_objects(pixels, words)
    except ObjectNotFound as exc:  # what was seen instead, if anything ("a cow" for "the bison"), boxed
        raise RegionNotFound(not_found_sentence(words.strip(), exc),
                             [_overlay(b, f"{said}?", LEFT_COLOR) for said, b in exc.seen]) from None
    overlays, notes, boxes = [], [], []
    for m in found:
        if m.weak:
            raise RegionNotFound(f"I'm not sure I see {words.strip()}: the best guess is weak (its box is on "
                                 "the picture)", [_overlay(b, f"{m.label}?", LEFT_COLOR) for b in m.boxes])
        boxes += [b for b in m.boxes if b not in boxes]
        overlays += [_overlay(b, f"removed {m.label}", REMOVED_COLOR) for b in m.boxes]
        if m.others and not m.plural and not m.positioned:
            n = len(m.others) + 1
            note = (REMOVED_ONE_OF.format(n=n, label=m.label, where=which_one(m.boxes[0], m.others))
                    + " (the boxes are on the picture); say which if you meant another")
            if n == 2 and box_iou(m.boxes[0], m.others[0]) > 0:
                # one thing may be two boxes to the detector (a lying cheetah's head and shoulders, and
                # its body as "another cheetah"): said, not guessed; "yes" to "you missed a bit" removes it
                note += (f". The other one touches it: if it is part of the same {m.label}, say “remove the "
                         f"{m.label} {which_one(m.others[0], m.boxes)}”")
            notes.append(note)
        left = m.others if m.plural and m.positioned else []  # "the people in the background": the nearer stay
        overlays += [_overlay(b, f"other {m.label}", LEFT_COLOR) for b in (m.others if not m.plural else left)]
        if m.plural:  # "remove the people": how many went, so that one the detector missed is not taken as done
            notes.append(f"I found and removed {counted(len(m.boxes), m.label)}" + (
                f" and left {counted(len(left), 'other')} (all the boxes are on the picture)" if left else
                f" ({'its box is' if len(m.boxes) == 1 else 'the boxes are'} on the picture)"))
    hole, kept = objects.hole_for(pixels, found)
    if not hole.any():
        raise RegionNotFound(f"I found {words.strip()} but could not tell its outline from the rest", overlays)
    out = inpaint(pixels, hole, avoid=kept)
    short = _short_of_box(hole, boxes)
    if short:
        label = found[0].label
        notes.append(f"{'Its box goes' if len(boxes) == 1 else 'A box goes'} on {short} what I took: if part of the "
                     f"{label} is left there, draw around it and say “remove this”")
    from agent.perception.naming import COCO_KINDS, called_otherwise

    for m in found:  # "remove the cow" of gcompris' moose, which describe calls "an animal": said, not hidden
        if not m.plural and COCO_KINDS.get(m.label) == "animal" and m.label in m.detected:
            other = called_otherwise(pixels, m.boxes[0], m.label, min_score=objects.MIN_SCORE)
            if other is not None:
                notes.append(f"my detector took it for {with_article(m.label)}, but to me it looked like " + (
                    f"{with_article(other)} I can't name more closely" if other in KIND_ONLY else with_article(other)))
    classes = {c: m.label for m in found for c in (m.detected or (m.label,))}  # "sheep" -> "camel"
    still = [d for d in detect(out, min_score=objects.MIN_SCORE)
             if d.label in classes and any(box_iou(d.box, b) > 0.3 for b in boxes)]
    if still:
        notes.append(f"the detector still sees a {classes[still[0].label]} there: look, and undo if it is not gone")
    elif hole.mean() >= LARGE_HOLE:  # a man filling a third of the photo: the fill is mostly made up
        notes.append(f"it took {hole.mean():.0%} of the picture, and a fill that large is made up from what is "
                     "around it: look at it closely, and say “undo” if it does not look right")
    note = ". ".join(n[:1].upper() + n[1:] for n in notes)
    return out, overlays, note + ("." if note else "")
