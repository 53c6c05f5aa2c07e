"""Regional edits as the explainer says them: "brighten the sky", "darken the shadows", "make the
background black and white" (:func:`agent.explain.engine.explain_images`).

A robust whole-picture fit takes an edit of most of the picture for the picture's, and the
unchanged rest for a local change; :func:`regional_part` finds the part such an edit changed,
:func:`tonal_part` whether it is a range of tones, and :func:`name_sky` / :func:`name_background`
name the local finding made of it.
"""

from __future__ import annotations

import cv2
import numpy as np

from agent.explain.align import box_to_small, chanmax, grey_of
from agent.explain.types import Finding

PART_SAME = 0.1  # a whole-picture fit is a regional edit's when this share of the picture is unchanged,
PART_SAME_MOVE = 4.0  # ... though the fit would have moved it by this many levels (median) or more,
PART_BIG = 0.25  # ... or when the fit is none and this share changed (by too little for a local change)
PART_KEPT_CHROMA = 12.0  # ... and the part unchanged kept colour (median channel spread, levels)


def regional_part(wf: np.ndarray, af: np.ndarray, valid: np.ndarray, cmodel, a: float,
                   b: np.ndarray) -> np.ndarray | None:
    """The part of the picture a regional edit changed, when the whole-picture change fitted
    (``cmodel``, else ``a*x + b``) is one's; else None.

    It is one's when a large, solid part of the picture (:data:`PART_SAME` of its mid-tones:
    clipped ends stay put under any edit) is unchanged to 2 levels, where the fit would have moved
    it by :data:`PART_SAME_MOVE` or more. "brighten the sky" over 56% of a picture made the robust
    fit the sky's brightening, and the unchanged ground below it "a region changed from beige to
    grey". A contrast change leaves the tones at its pivot in place, as the fit says: not one.

    It is one too when the fit is no change (the rest's) and :data:`PART_BIG` of the picture
    changed by less than a local change must (+20 brightness over two thirds of a picture, -25 in
    the shadows), in one piece or in one range of tones, and the part left unchanged kept colour
    (:func:`kept_colour`: a saturation or hue change the colour model missed leaves a grey photo's
    concrete as it was, and moves its coloured things all over it).

    The part is what changed by more than 2 levels, in solid pieces."""
    mid = valid & (wf.min(axis=2) > 8) & (wf.max(axis=2) < 247)
    moved = chanmax(np.abs(af - wf))
    open5 = np.ones((5, 5), np.uint8)
    same = cv2.morphologyEx((mid & (moved <= 2)).astype(np.uint8), cv2.MORPH_OPEN, open5) > 0
    if same.sum() < PART_SAME * max(1, int(mid.sum())):
        return None
    part = cv2.morphologyEx((valid & (moved > 2)).astype(np.uint8), cv2.MORPH_OPEN, open5) > 0
    fit = chanmax(np.abs((cmodel.apply(wf) if cmodel else a * wf + b.astype(np.float32)[None, None, :]) - wf))
    if float(np.median(fit[same])) >= PART_SAME_MOVE:
        return part  # the fit is the part's change
    if part.sum() >= PART_BIG * valid.sum() and float(np.median(fit[part])) < 2 \
            and ((kept_colour(wf, same) and solid(part)) or tonal_part(wf, af, part, valid) is not None):
        return part  # the fit is the rest's (none), and the part changed too little to stand out below
    return None


def kept_colour(wf: np.ndarray, same: np.ndarray) -> bool:
    """Whether the part of a picture left unchanged (``same``) has colour (its median channel spread
    :data:`PART_KEPT_CHROMA` levels or more): a saturation or hue change would have moved it."""
    return bool(same.any()) and float(np.median((wf.max(axis=2) - wf.min(axis=2))[same])) >= PART_KEPT_CHROMA


def solid(part: np.ndarray, pieces: int = 1) -> bool:
    """Whether ``part`` is one piece, or ``pieces`` (its largest 8-connected pieces at least 90% of
    it): a place edited, not the coloured things a saturation change moves all over a grey photo."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(part.astype(np.uint8), 8)
    return n > 1 and np.sort(stats[1:, cv2.CC_STAT_AREA])[::-1][:pieces].sum() >= 0.9 * part.sum()


TONAL_SURE = 0.85  # a regional edit's part is a tonal range when the lightness bins say in or out this surely


def tonal_part(wf: np.ndarray, af: np.ndarray, part: np.ndarray, valid: np.ndarray) -> tuple[dict, str] | None:
    """``(params, sentence)`` when a regional edit's ``part`` is a range of tones (the shadows, the
    highlights or the midtones: ``editor.masks.tonal_mask``'s regions) rather than a place: in 16
    bins of the before picture's lightness, the darkest (brightest, middle) bins are
    :data:`TONAL_SURE` changed and the others as surely not, save the one or two bins its soft
    edge crosses. Else None."""
    lum = grey_of(np.clip(wf, 0, 255).astype(np.uint8))[valid]
    inside = part[valid]
    counts = np.bincount(lum // 16, minlength=16)
    share = np.bincount(lum // 16, weights=inside.astype(np.float64), minlength=16) / np.maximum(counts, 1)
    seen = counts >= max(20, 0.002 * lum.size)
    on, off = seen & (share >= TONAL_SURE), seen & (share <= 1 - TONAL_SURE)
    if not on.any() or not off.any() or (seen & ~on & ~off).sum() > 2:
        return None
    lo, hi = int(np.flatnonzero(on).min()), int(np.flatnonzero(on).max())
    if off[lo:hi + 1].any():
        return None  # changed tones in two ranges: not one of the three
    dark_off, light_off = off[:lo].any(), off[hi + 1:].any()
    name = ("shadows" if not dark_off and light_off else "highlights" if dark_off and not light_off
            else "midtones" if dark_off and light_off else "")
    if not name:
        return None
    la = cv2.cvtColor(np.clip(af, 0, 255).astype(np.uint8), cv2.COLOR_RGB2LAB)[..., 0][part].astype(np.float64)
    lb = cv2.cvtColor(np.clip(wf, 0, 255).astype(np.uint8), cv2.COLOR_RGB2LAB)[..., 0][part].astype(np.float64)
    dl = float((la - lb).mean()) * 100 / 255
    params = {"region": name, "lightness_change": round(dl, 1), "changed_fraction": round(float(inside.mean()), 3)}
    how = f"got {'brighter' if dl > 0 else 'darker'} (lightness {dl:+.0f} of 100)" if abs(dl) >= 1.5 \
        else "changed colour"
    return params, f"The {name} {how}; the other tones are unchanged."


SKY_PART = 0.7  # a regional edit's part is the sky when it and the sky's mask overlap this much (IoU)


def sky_of(small: np.ndarray) -> np.ndarray:
    """The sky of a small copy of the before picture, as a bool mask (:func:`editor.sky.sky_mask`)."""
    from editor.sky import sky_mask

    return sky_mask(small) >= 0.5


def sky_part(part: np.ndarray, sky: np.ndarray) -> bool:
    """Whether a regional edit's part is the ``sky`` (:func:`sky_of`) of the before picture (pixel
    IoU :data:`SKY_PART`): a place, though it is the brightest tones of the picture too."""
    return bool((sky & part).sum() >= SKY_PART * max(1, int((sky | part).sum())))


BACKGROUND_PART = 0.9  # a regional edit's part whose box covers this share of the picture is the background


def name_background(local: list[Finding], part: np.ndarray, Sa: np.ndarray) -> None:
    """Say "the background" for a regional edit's part that goes around what was kept ("make the
    background black and white"): its box covers :data:`BACKGROUND_PART` of the picture and the
    part leaves some of it out."""
    h, w = part.shape
    for fd in local:
        if fd.kind not in ("region_changed", "object_recolored") or fd.params.get("region"):
            continue
        x1, y1, x2, y2 = box_to_small(fd.after_box, Sa)
        if (x2 - x1) * (y2 - y1) >= BACKGROUND_PART * w * h and part.mean() < 0.97:
            fd.params["region"] = "background"
            fd.params.pop("object", None)


def name_sky(local: list[Finding], sky: np.ndarray, Sa: np.ndarray) -> None:
    """Say "the sky" for a changed part that is the ``sky`` (:func:`sky_of`) of the before picture,
    as "brighten the sky" made it, instead of a part "in the middle"."""
    if sky.mean() < 0.01:
        return
    # the part's box against the sky's own box: the part's pixels are not kept this far
    ys, xs = np.nonzero(sky)
    sbox = np.zeros_like(sky)
    sbox[ys.min():ys.max() + 1, xs.min():xs.max() + 1] = True
    for fd in local:
        if fd.kind not in ("region_changed", "object_recolored") or fd.params.get("object"):
            continue
        x1, y1, x2, y2 = box_to_small(fd.after_box, Sa)
        box = np.zeros_like(sky)
        box[y1:y2, x1:x2] = True
        if (box & sbox).sum() >= SKY_PART * (box | sbox).sum():
            fd.params["region"] = "sky"
