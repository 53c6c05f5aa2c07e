"""Objects in a difference: where a region's content went (a move), and what to call it.

Used by :mod:`agent.explain.engine`'s local changes: :func:`find_content` finds a region's grey
content in the other image (``cv2.matchTemplate``), and :func:`name_findings` names local findings
with the COCO detector, confirmed or corrected by the ImageNet classifier (:mod:`agent.perception.naming`),
and by colour.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import cv2
import numpy as np

from agent.explain.align import grey_of, small_copy
from agent.perception.models import box_iou

if TYPE_CHECKING:
    from agent.explain.types import Finding

Box = list[int]


def find_content(img1: np.ndarray, box1: Box, img2: np.ndarray, near: Box) -> tuple[Box, float] | None:
    """Where box1's content of img1 best matches in img2 around box ``near``: (box, correlation)."""
    x1, y1, x2, y2 = box1
    p = grey_of(img1[y1:y2, x1:x2])
    ph, pw = p.shape
    H, W = img2.shape[:2]
    X1, Y1 = max(0, near[0] - pw), max(0, near[1] - ph)
    X2, Y2 = min(W, near[2] + pw), min(H, near[3] + ph)
    win = grey_of(img2[Y1:Y2, X1:X2])
    if win.shape[0] < ph or win.shape[1] < pw or p.size < 16 or p.std() < 1:
        return None
    res = cv2.matchTemplate(win, p, cv2.TM_CCOEFF_NORMED)
    _, best, _, loc = cv2.minMaxLoc(res)
    box = [X1 + loc[0], Y1 + loc[1], X1 + loc[0] + pw, Y1 + loc[1] + ph]
    if box_iou(box, box1) > 0.3:  # found where it is now: not a move
        return None
    return box, float(best)


def inside(a: Box, b: Box, pad: int = 4) -> bool:
    """Whether box ``a`` lies within box ``b`` (give or take ``pad`` pixels)."""
    return a[0] >= b[0] - pad and a[1] >= b[1] - pad and a[2] <= b[2] + pad and a[3] <= b[3] + pad


def name_findings(findings: list[Finding], before: np.ndarray, after: np.ndarray) -> None:
    """Attach a COCO label (``params["object"]``) and a colour name to local findings."""
    from agent.perception.models import color_name, detect_objects

    try:
        import editor.models as _m  # noqa: F401  (ModelMissingError lives there)
    except ImportError:  # pragma: no cover
        return
    read: dict[int, list] = {}  # each image's lines of text, read once and only when asked for
    seen: dict = {}  # ... and its things (and clouds), found once and only when asked for
    for n, fd in enumerate(findings):
        use_after = fd.kind in ("object_added", "object_moved", "object_recolored", "region_changed")
        img = after if use_after else before
        box = fd.after_box if use_after else fd.before_box
        if not box or box[2] <= box[0] or box[3] <= box[1]:
            continue
        h, w = img.shape[:2]
        bw, bh = box[2] - box[0], box[3] - box[1]
        mx, my = int(0.15 * bw), int(0.15 * bh)
        crop = [max(0, box[0] - mx), max(0, box[1] - my), min(w, box[2] + mx), min(h, box[3] + my)]
        patch = img[crop[1]:crop[3], crop[0]:crop[2]]
        # Colour from a small copy of the patch (fast at any size).
        ps = small_copy(patch, (max(2, min(96, patch.shape[1])), max(2, min(96, patch.shape[0]))))[0]
        with contextlib.suppress(ValueError):
            fd.params["color"] = color_name(ps)
        if n >= 3:  # the detector costs ~70 ms a call; the largest changes are named
            continue
        try:
            dets = detect_objects(patch, min_score=0.45)
        except Exception:  # a missing model must not stop the explanation
            return
        pw, ph = crop[2] - crop[0], crop[3] - crop[1]
        if fd.kind in ("object_removed", "object_added") and not any(
                (d.box[2] - d.box[0]) * (d.box[3] - d.box[1]) > 0.2 * pw * ph for d in dets):
            said = text_gone(read, img, before if use_after else after, crop)
            if said:  # lettering, not "a green object": the grass between its letters gave the colour
                fd.params["object"], fd.params["text"] = "text", said
                continue
        group = group_of(dets, box, crop) if fd.kind in ("object_removed", "object_added") else []
        if group:  # "remove the people" took 3 standing together: "people ... were removed", not "a pink object"
            noun = confirm_name(patch, group[0])
            if noun is not None:
                fd.params["object"], fd.params["count"] = noun, len(group)
                continue
        # the thing that best covers the change first: the giraffe brightened, not the other one
        # whose side the patch around it cut (its box then reached the patch's edge: "the part on
        # the right got brighter")
        local = (box[0] - crop[0], box[1] - crop[1], box[2] - crop[0], box[3] - crop[1])
        for d in sorted(dets, key=lambda d: -box_iou(d.box, local)):
            dw, dh = d.box[2] - d.box[0], d.box[3] - d.box[1]
            if dw * dh > 0.2 * pw * ph:
                # the classifier confirms or corrects the detector's label (agent.perception.naming)
                noun = confirm_name(patch, d)
                if noun is not None:
                    fd.params["object"] = noun
                    fd.params["object_score"] = round(d.score, 3)
                    # its box in the picture, unless the patch's edge cut it (then it goes on beyond
                    # the change: "darken the left side" over half a gorilla is not the gorilla changed)
                    cut = (d.box[0] <= 2 < crop[0] or d.box[1] <= 2 < crop[1] or d.box[2] >= pw - 2 and crop[2] < w - 2
                           or d.box[3] >= ph - 2 and crop[3] < h - 2)
                    # ... though a box that is most of the change's is the thing (a giraffe's box reached
                    # the patch's edge over the other giraffe behind it)
                    cut = cut and box_iou(d.box, local) < CUT_SAME
                    if not cut:
                        fd.params["object_box"] = [int(crop[0] + d.box[0]), int(crop[1] + d.box[1]),
                                                   int(crop[0] + d.box[2]), int(crop[1] + d.box[3])]
                break
        if "object" not in fd.params and fd.kind == "object_removed" and clouds_gone(seen, before, after, box):
            fd.params["object"], fd.params["count"] = "cloud", 2  # "Clouds at the top were removed."
        if "object" not in fd.params and fd.kind in ("object_removed", "object_added", "region_changed",
                                                      "object_recolored"):
            # (a change of a thing's tone must be the thing's whole box: "darken the left side"
            # over half a gorilla is not the gorilla changed)
            toned = fd.kind in ("region_changed", "object_recolored")
            found = named_whole(seen, img, box, WHOLE_TONED if toned else WHOLE_SAME)
            if found is not None:
                fd.params["object"], fd.params["object_box"] = found
        if fd.params.get("object") and fd.params["object"] != "text":
            fd.params["object"] = kept(img, fd.params.get("object_box") or box, fd.params["object"])
    one_thing_once(findings)


def kept(img: np.ndarray, box: Box, noun: str) -> str:
    """``noun``, or the name the photo as opened gave the thing at ``box`` when the dialogue keeps
    names through edits (:mod:`agent.perception.names_kept`): a panda brightened, then removed, was
    "the bear" removed."""
    from agent.perception.names_kept import kept_name, reference_things
    from agent.perception.naming import Named, things_named

    was = kept_name(box, Named(noun, noun, None, "detector", 1.0, noun), reference_things(img, things_named))
    return noun if was is None else (was.said or was.noun)


def one_thing_once(findings: list[Finding]) -> None:
    """One removal or addition of a thing said once. A panda removed was three changes (its black
    and its white parts, lighter and darker, and a piece at its ear), said "The panda in the middle
    was removed. The bear at the bottom was removed. The grey object at the top left was removed."
    A later one of the same kind whose box lies within an earlier one's (:data:`PIECE_INSIDE`) goes
    when it names nothing or the same thing (or a word that agrees with it: a bear, for a panda)."""
    from agent.perception.things import inside_share
    from agent.perception.vocabulary import agrees

    keep: list[Finding] = []
    for fd in findings:
        box, said = fd.before_box if fd.kind == "object_removed" else fd.after_box, fd.params.get("object")
        whole = next((k for k in keep if k.kind == fd.kind and fd.kind in ("object_removed", "object_added")
                      and box and inside_share(box, k.before_box if fd.kind == "object_removed" else k.after_box)
                      >= PIECE_INSIDE and (not said or said == k.params.get("object")
                                           or agrees(said, k.params.get("object") or "")
                                           or agrees(k.params.get("object") or "", said))), None)
        if whole is None:
            keep.append(fd)
    findings[:] = keep


PIECE_INSIDE = 0.9  # a change this much within another's box of the same kind is a piece of that one


# A thing found in the whole picture is the one a removal or an addition took when its box and the
# change's overlap this much (IoU), the one whose tone changed when they overlap WHOLE_TONED
WHOLE_SAME = 0.5
WHOLE_TONED = 0.7


CLOUDS_GONE = 0.6  # a removal whose changed pixels were this much clouds took clouds


def clouds_gone(seen: dict, before: np.ndarray, after: np.ndarray, box: Box) -> bool:
    """Whether the change at ``box`` took clouds: :data:`CLOUDS_GONE` of the pixels that changed
    there (by more than 20 levels) were in :func:`editor.sky.clouds_mask` of the picture before
    ("remove the clouds" was "the skyblue object at the top was removed"). ``seen`` keeps the mask,
    found once."""
    from editor.sky import clouds_mask

    if before.shape != after.shape:
        return False
    key = ("clouds", id(before))
    if key not in seen:
        seen[key] = clouds_mask(before)
    x1, y1, x2, y2 = (max(0, int(v)) for v in box)
    changed = np.abs(before[y1:y2, x1:x2].astype(np.int16) - after[y1:y2, x1:x2]).reshape(y2 - y1, x2 - x1, -1).max(
        axis=2) > 20
    return bool(changed.any()) and float((seen[key][y1:y2, x1:x2][changed] > 0.05).mean()) >= CLOUDS_GONE


def named_whole(seen: dict, img: np.ndarray, box: Box, same: float = WHOLE_SAME) -> tuple[str, list[int]] | None:
    """What describe calls the thing of the whole picture ``img`` whose box is the change's ``box``
    (their IoU ``same`` or more), and the thing's box; or None. The detector shown the patch
    around a change alone can miss what it finds in the whole picture: a jaguar removed was "the
    grey object" (no detection in its patch, a "bird" at 0.98 in the photo, a jaguar once named).
    ``seen`` keeps each image's detections and names, found once."""
    from agent.perception.naming import things_named

    if id(img) not in seen:
        seen[id(img)] = things_named(img, min_score=0.45)
    best = max(seen[id(img)], key=lambda dn: box_iou(dn[0].box, box), default=None)
    if best is None or box_iou(best[0].box, box) < same or best[1].noun == "object":
        return None
    return best[1].said or best[1].noun, [int(v) for v in best[0].box]


CUT_SAME = 0.7  # a detection reaching the patch's edge is still the thing changed when its box and the change's overlap this much (IoU)
GROUP_SHARE = 0.08  # several things of a kind, together this share of the patch, are what changed there ...
GROUP_EACH = 0.01  # ... each at least this share of it ...
GROUP_INSIDE = 0.7  # ... and this share of each one's box within the change's


def group_of(dets: list, box: Box, crop: list[int]) -> list:
    """The detections (of the patch ``crop`` around a change's ``box``) of one kind, two or more,
    that lie within the change and together are :data:`GROUP_SHARE` of the patch: a group of
    people removed together is one change, and each of them too small a part of it to name it."""
    from agent.perception.things import inside_share

    pw, ph = crop[2] - crop[0], crop[3] - crop[1]
    local = (box[0] - crop[0], box[1] - crop[1], box[2] - crop[0], box[3] - crop[1])
    if not dets:
        return []
    kind = [d for d in dets if d.label == dets[0].label and (d.box[2] - d.box[0]) * (d.box[3] - d.box[1])
            >= GROUP_EACH * pw * ph and inside_share(d.box, local) >= GROUP_INSIDE]
    area = sum((d.box[2] - d.box[0]) * (d.box[3] - d.box[1]) for d in kind)
    big = any((d.box[2] - d.box[0]) * (d.box[3] - d.box[1]) > 0.2 * pw * ph for d in kind)
    return kind if len(kind) >= 2 and area >= GROUP_SHARE * pw * ph and not big else []


def text_gone(read: dict, img: np.ndarray, other: np.ndarray, crop: Box) -> str | None:
    """The text the OCR model reads surely within ``crop`` of ``img`` and not in ``other`` (the
    same place in the other image): what a removal of text took, or what an addition of it wrote;
    None when there is none, or no OCR model. Each image is read whole, once (``read`` keeps its
    lines: a small patch is scaled up to the OCR's detection size, and took 1-1.7 s, the whole
    picture about 0.3 s)."""
    import re

    from agent.perception.models import SURE_TEXT, text_lines
    from editor.models import ModelMissingError

    def lines(im) -> list:
        if id(im) not in read:
            # read surely (as a removal takes a line) and 3 letters or digits at least
            read[id(im)] = [(t, q) for t, s, q in text_lines(im)
                            if s >= SURE_TEXT and len(re.sub(r"\W", "", t)) >= 3]
        return read[id(im)]

    def within(q, sx: float = 1.0, sy: float = 1.0) -> bool:
        cx, cy = float(q[:, 0].mean()) * sx, float(q[:, 1].mean()) * sy
        return crop[0] <= cx <= crop[2] and crop[1] <= cy <= crop[3]

    try:
        here = [t for t, q in lines(img) if within(q)]
        if not here:
            return None
        sx, sy = img.shape[1] / other.shape[1], img.shape[0] / other.shape[0]
        there = {re.sub(r"\W", "", t).lower() for t, q in lines(other) if within(q, sx, sy)}
    except ModelMissingError:
        return None
    gone = [t for t in here if re.sub(r"\W", "", t).lower() not in there]
    return " ".join(gone) if gone else None


def confirm_name(patch: np.ndarray, d) -> str | None:
    """The detector's label as the ImageNet classifier confirms or corrects it; None when
    neither is sure (then the change is "an object" of its colour)."""
    try:
        from agent.perception.classify import classify_crops, word_probs
        from agent.perception.models import to_rgb8
        from agent.perception.naming import decide_noun

        words = word_probs(classify_crops(to_rgb8(patch), [d.box])[0])
    except Exception:  # a missing classifier leaves the detector's word
        return d.label
    noun, _, _ = decide_noun(d.label, d.score, words)
    return None if noun == "object" else noun
