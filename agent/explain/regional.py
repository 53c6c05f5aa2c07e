"""Regional edits as the explainer says them: "brighten the sky", "darken the shadows", "make the
background black and white" (:func:`agent.explain.engine.explain_images`).

A robust whole-picture fit takes an edit of most of the picture for the picture's, and the
unchanged rest for a local change; :func:`regional_part` finds the part such an edit changed,
:func:`tonal_part` whether it is a range of tones, :func:`tonal_edit` whether the whole change is
a brightness change in one range of tones, and :func:`name_sky` / :func:`name_background`
name the local finding made of it.
"""

from __future__ import annotations

import cv2
import numpy as np

from agent.explain.align import box_to_small, chanmax, grey_of
from agent.explain.types import Finding

# A whole-picture fit is a regional edit's when this share of the picture's mid-tones is unchanged (a
# tenth missed three musicians in black kept in colour, their faces and hands 3% of the mid-tones),
PART_SAME = 0.03
PART_SAME_MOVE = 4.0  # ... though the fit would have moved it by this many levels (median) or more,
PART_BIG = 0.25  # ... or when the fit is none and this share changed (by too little for a local change)
PART_KEPT_CHROMA = 12.0  # ... and the part unchanged kept colour (median channel spread, levels)
PART_KEPT = 0.25  # ... or when this share of the mid-tones, coloured, is unchanged beside a solid part that
PART_TINTED = 0.1  # ... holds this share of the picture, whatever the fit is


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
    if same.sum() >= PART_KEPT * mid.sum() and part.sum() >= PART_TINTED * valid.sum() \
            and (kept_colour(wf, same) or kept_colour(wf, _bright_kept(wf, moved, valid, mid))) and solid(part):
        # the fit is a colour map that moves the part's colours and happens to leave the rest's, each
        # colour being one or the other's alone: a sky tinted red over a green field was "Its colours
        # were changed (I cannot name the adjustment)", and a bluer one "It was sharpened" too. A whole-
        # picture colour edit leaves no quarter of a photo's coloured mid-tones as they were.
        return part
    return None


OTHER_WAY = 0.002  # a piece of a regional edit's part that went the other way, this share of the picture or more ...
OTHER_WAY_LEVELS = 6.0  # ... by this many levels (median grey) or more, is a change of its own


def other_way(wf: np.ndarray, af: np.ndarray, part: np.ndarray) -> np.ndarray | None:
    """The pieces of a regional edit's ``part`` that got brighter where most of it got darker (or
    the other way round), when they are a place of their own: a few solid pieces (:func:`solid`),
    each :data:`OTHER_WAY` of the picture or more, moved :data:`OTHER_WAY_LEVELS` or more, and
    the part is no contrast change (:func:`contrast_change`: its dark tones go down and its light
    ones up all over it). "make the background darker" then "make the giraffe on the right
    brighter" changed one connected part, and the original against the last version said only
    "the background got darker". Else None."""
    if part.sum() < 100:
        return None
    d = cv2.GaussianBlur(grey_of(np.clip(af, 0, 255).astype(np.uint8)).astype(np.float32)
                         - grey_of(np.clip(wf, 0, 255).astype(np.uint8)).astype(np.float32), (5, 5), 0)
    sign = 1.0 if float(np.median(d[part])) >= 0 else -1.0
    other = (part & (sign * d < -2)).astype(np.uint8)
    other = cv2.morphologyEx(other, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(other, 8)
    keep = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= OTHER_WAY * part.size]
    if not keep:
        return None
    piece = np.isin(lab, keep)
    if piece.sum() > 0.5 * part.sum() or not solid(piece, pieces=3) \
            or float(np.median(np.abs(d[piece]))) < OTHER_WAY_LEVELS:
        return None
    if contrast_change(wf[part], af[part]) is not None:
        return None
    return piece


def _bright_kept(wf: np.ndarray, moved: np.ndarray, valid: np.ndarray, mid: np.ndarray) -> np.ndarray:
    """The unchanged pixels with one channel near clipping (a bright blue sky), in solid pieces of
    :data:`PART_TINTED` of the picture or more (else none): a saturation or hue change would have moved
    their other channels. After "raise the contrast of the sky" the sky's blue was clipped, the
    unchanged mid-tones were the grey castle alone, and "make the grass greener" next was "Its colours
    were changed (I cannot name the adjustment)"."""
    bright = (valid & ~mid & (wf.min(axis=2) > 8) & (wf.min(axis=2) < 247) & (moved <= 2)).astype(np.uint8)
    bright = cv2.morphologyEx(bright, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)) > 0
    return bright if bright.sum() >= PART_TINTED * valid.sum() else np.zeros_like(bright)


def kept_colour(wf: np.ndarray, same: np.ndarray) -> bool:
    """Whether the part of a picture left unchanged (``same``) has colour (its median channel spread
    :data:`PART_KEPT_CHROMA` levels or more): a saturation or hue change would have moved it."""
    return bool(same.any()) and float(np.median((wf.max(axis=2) - wf.min(axis=2))[same])) >= PART_KEPT_CHROMA


def solid(part: np.ndarray, pieces: int = 1) -> bool:
    """Whether ``part`` is one piece, or ``pieces`` (its largest 8-connected pieces at least 90% of
    it): a place edited, not the coloured things a saturation change moves all over a grey photo."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(part.astype(np.uint8), 8)
    return n > 1 and np.sort(stats[1:, cv2.CC_STAT_AREA])[::-1][:pieces].sum() >= 0.9 * part.sum()


def lab_change(wf: np.ndarray, af: np.ndarray, mask: np.ndarray) -> tuple[float, float]:
    """The mean change of OpenCV's 8-bit L* over ``mask`` from ``wf`` to ``af``, and the mean change
    of its colour (|a*| + |b*|); zeros for an empty mask."""
    if not mask.any():
        return 0.0, 0.0
    lab_a, lab_b = (cv2.cvtColor(np.clip(x, 0, 255).astype(np.uint8), cv2.COLOR_RGB2LAB)[mask].astype(np.float64)
                    for x in (af, wf))
    return float((lab_a[:, 0] - lab_b[:, 0]).mean()), float(np.abs(lab_a[:, 1:] - lab_b[:, 1:]).sum(axis=1).mean())


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
    dl8, dab = lab_change(wf, af, part)
    if dab > max(2.0, abs(dl8)):
        return None  # its colours changed more than its lightness: a background made grey around dark people
    from editor.masks import tonal_mask

    if _place_fits(wf, af, valid, part, tonal_mask(np.clip(wf + 0.5, 0, 255).astype(np.uint8), name)):
        return None
    dl = dl8 * 100 / 255
    params = {"region": name, "lightness_change": round(dl, 1), "changed_fraction": round(float(inside.mean()), 3)}
    how = f"got {'brighter' if dl > 0 else 'darker'} (lightness {dl:+.0f} of 100)" if abs(dl) >= 1.5 \
        else "changed colour"
    return params, f"The {name} {how}; the other tones are unchanged."


TONAL_FIT = 1.5  # a tonal edit explains the change when its mean error is at most this many levels ...
TONAL_FIT_PER = 0.1  # ... plus this share of the brightness added (the working copy is smaller: edges blend)
TONAL_BETTER = 0.35  # ... and at most this share of the other ranges' and a whole-picture brightness change's
TONAL_UNTOUCHED = 0.05  # ... and the tones it leaves alone are at least this share of the picture


CONTRAST_STEP = 1.12  # a part's tones spread this many times wider (or narrower, 1 / this) around ...
CONTRAST_PIVOT = (64.0, 192.0)  # ... a level between these (8-bit grey) had its contrast changed
CONTRAST_SPREAD = 3.0  # ... when its unclipped tones spread at least this much (levels, std) before
CONTRAST_FIT = 0.9  # ... and the line fits this well (R^2)
CONTRAST_FREE = 0.1  # ... each channel fitted on this share of the pixels at least, where it is not clipped


PART_TINT = 4.0  # a regional edit's part whose mean a*b* moved this far (OpenCV's 8-bit Lab) is tinted


def colourfulness(before_lab: np.ndarray, after_lab: np.ndarray) -> float | None:
    """How much a regional edit's part's colours were scaled from grey (1.2: 20% more colourful), from
    its pixels' OpenCV 8-bit Lab before and after ``(n, 3)``, when that explains the change better
    than the same a*b* shift for all (a tint: "make the left side warmer"; both move a blue sky's mean
    the same way); else None."""
    own = before_lab[:, 1:].astype(np.float32) - 128
    moved = after_lab[:, 1:].astype(np.float32) - before_lab[:, 1:].astype(np.float32)
    k = float((moved * own).sum() / max(1e-6, float((own * own).sum())))
    return 1 + k if np.abs(moved - k * own).mean() < np.abs(moved - moved.mean(axis=0)).mean() else None


def contrast_change(before: np.ndarray, after: np.ndarray) -> float | None:
    """The factor by which a part's contrast changed (> 1: more), when each colour channel's levels
    after are a line of those before with a slope that far from 1 and a mid-grey pivot, as the
    editor's contrast makes them (``(v - 127.5) * k + 127.5``), else None. A brightness change adds
    (slope 1); a gain would pivot at black. Each channel is fitted on the pixels where it is clipped
    neither before nor after: a pale blue sky brightened clips its blue, and the grey levels of its
    bluer pixels rose less, a slope of 1.35. "make the sky more dramatic" raised the contrast of a
    bright sky, whose mean went up, and it was said as "the sky got brighter". ``before`` and
    ``after``: the part's RGB levels (8-bit, N x 3), the same pixels."""
    b, a = before.reshape(-1, 3).astype(np.float64), after.reshape(-1, 3).astype(np.float64)
    slopes = []
    for c in range(3):
        free = (b[:, c] > 3) & (b[:, c] < 252) & (a[:, c] > 3) & (a[:, c] < 252)  # clipped: no slope
        if free.sum() < max(50, CONTRAST_FREE * len(b)) or b[free, c].std() < CONTRAST_SPREAD:
            continue  # (a sky's blue, clipped by a contrast raised before, is fitted on its few dark pixels)
        slope, icept = np.polyfit(b[free, c], a[free, c], 1)
        res = a[free, c] - (slope * b[free, c] + icept)
        fit = 1.0 - float(np.var(res)) / max(float(np.var(a[free, c])), 1e-9)
        if fit < CONTRAST_FIT or 1 / CONTRAST_STEP < slope < CONTRAST_STEP:
            return None
        pivot = icept / (1.0 - slope)  # the level the change leaves where it was
        if not CONTRAST_PIVOT[0] <= pivot <= CONTRAST_PIVOT[1]:
            return None
        slopes.append(float(slope))
    if not slopes or (max(slopes) > 1) != (min(slopes) > 1):
        return None
    return round(float(np.median(slopes)), 2)


def _tonal_fit(before: np.ndarray, after: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """The saturating add ``k`` (levels) that, weighted by ``w``, best makes ``after`` of ``before``
    (least squares over pixels it does not clip, twice refined), and its mean error (levels)."""
    delta = after - before
    free = (w > 0.3) & (before.min(axis=1) > 3) & (before.max(axis=1) < 252) \
        & (after.min(axis=1) > 1) & (after.max(axis=1) < 254)
    k = 0.0
    for _ in range(3):
        if free.sum() < 50:
            return 0.0, np.inf
        k = float((delta[free] * w[free, None]).sum() / max(1e-6, 3 * float((w[free] ** 2).sum())))
        free &= (before.min(axis=1) + k > 1) & (before.max(axis=1) + k < 254)
    pred = before + w[:, None] * (np.clip(before + k, 0, 255) - before)
    return k, float(np.abs(after - pred).max(axis=1).mean())


def _place_fits(wf: np.ndarray, af: np.ndarray, valid: np.ndarray, place: np.ndarray, weight: np.ndarray) -> bool:
    """Whether the change is a place brightened or darkened all alike (``place`` times one add) at
    least as well as a range of tones (their ``weight`` times one add), away from the place's edge
    (a soft mask's): "make the dog brighter" once the background was darkened, the dog the
    brightest thing left in the picture, was "the highlights got brighter"."""
    edge = cv2.dilate(place.astype(np.uint8), np.ones((5, 5), np.uint8)) > cv2.erode(place.astype(np.uint8), np.ones((5, 5), np.uint8))
    core = valid & ~edge
    if core.sum() < 100:
        return False
    before, after = wf[core], af[core]
    return _tonal_fit(before, after, place[core].astype(np.float32))[1] <= _tonal_fit(before, after, weight[core])[1]


def tonal_edit(wf: np.ndarray, af: np.ndarray, valid: np.ndarray) -> tuple[dict, str, np.ndarray] | None:
    """``(params, sentence, changed)`` when the whole change is a brightness change made in one
    range of tones ("brighten the highlights": ``editor.masks.tonal_mask``'s weight of the before
    picture's luma times a saturating add, as the editor makes it), to :data:`TONAL_FIT` levels
    (and :data:`TONAL_FIT_PER` of the add) and far better (:data:`TONAL_BETTER`) than the other
    ranges or a brightness change of the whole picture; else None.

    Read as anything else it was wrong: +25 in the highlights of a château under white clouds was
    "the background was replaced by plain white" (the clouds clip), +25 in the midtones "the
    background got brighter", +25 in the shadows and -25 in the midtones "its colours were changed
    (I cannot name the adjustment)"."""
    from editor.masks import TONES, tonal_mask

    before, after = wf[valid], af[valid]
    if len(before) < 100 or (np.abs(after - before).max(axis=1) > 2).mean() < 0.05:
        return None
    w8 = np.clip(wf + 0.5, 0, 255).astype(np.uint8)
    fits = {"whole": (*_tonal_fit(before, after, np.ones(len(before), np.float32)), 0.0)}
    for tone in TONES:
        w = tonal_mask(w8, tone)[valid]
        fits[tone] = (*_tonal_fit(before, after, w), float((w < 0.05).mean()))
    tone = min(TONES, key=lambda t: fits[t][1])
    k, err, untouched = fits[tone]
    rivals = min(e for t, (_, e, _) in fits.items() if t != tone)
    if abs(k) < 3 or err > TONAL_FIT + TONAL_FIT_PER * abs(k) or err > TONAL_BETTER * rivals \
            or untouched < TONAL_UNTOUCHED:
        return None
    changed = valid & (chanmax(np.abs(af - wf)) > 2)
    if _place_fits(wf, af, valid, changed, tonal_mask(w8, tone)):
        return None
    dl = lab_change(wf, af, changed)[0] * 100 / 255
    params = {"region": tone, "lightness_change": round(dl, 1),
              "changed_fraction": round(float(changed.sum()) / max(1, int(valid.sum())), 3)}
    return params, (f"The {tone} got {'brighter' if k > 0 else 'darker'} (lightness {dl:+.0f} of 100); "
                    "the other tones are unchanged."), changed


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


SKY_OUTSIDE = 0.15  # a regional edit's part with more than this share of it outside the sky is not the sky


def name_sky(local: list[Finding], sky: np.ndarray, Sa: np.ndarray, part: np.ndarray | None = None) -> None:
    """Say "the sky" for a changed part that is the ``sky`` (:func:`sky_of`) of the before picture,
    as "brighten the sky" made it, instead of a part "in the middle". A regional edit's ``part``
    that goes on below the sky (:data:`SKY_OUTSIDE` of it) is not: "make the background black and
    white" around horses on a meadow under a large sky was "the sky was made black and white"."""
    if sky.mean() < 0.01:
        return
    if part is not None and (part & ~sky).sum() > SKY_OUTSIDE * max(1, int(part.sum())):
        return
    # the part's box against the sky's own box: the part's pixels are not kept this far
    ys, xs = np.nonzero(sky)
    sbox = np.zeros_like(sky)
    sbox[ys.min():ys.max() + 1, xs.min():xs.max() + 1] = True
    for fd in local:
        # a regional edit's part is the sky even where the detector sees a building in its box
        if fd.kind not in ("region_changed", "object_recolored") or (fd.params.get("object") and not fd.params.get("in_part")):
            continue
        x1, y1, x2, y2 = box_to_small(fd.after_box, Sa)
        box = np.zeros_like(sky)
        box[y1:y2, x1:x2] = True
        if (box & sbox).sum() >= SKY_PART * (box | sbox).sum():
            fd.params["region"] = "sky"
            fd.params.pop("object", None)


PART_BOX = 0.7  # a change whose changed pixels are this share of a found part (the clouds, the greenery; of the before picture) ...
PART_MAP = 0.7  # ... and that one colour mapping explains this well (the part's own pixels, toned), is the part's


def found_in(small: np.ndarray, name: str) -> np.ndarray:
    """A region found by name ("clouds", "greenery": :func:`editor.masks.region_mask`, the masks the
    edits use) in a small copy of the before picture, as a bool mask, its soft edge and thin parts
    included: an edit of the part changes them too."""
    from editor.masks import region_mask

    return region_mask(small, name) > 0.2


HALF_SHARE = 0.9  # a region's change with this share of its changed pixels in one half is said to be there


def _one_half(changed: np.ndarray, found: np.ndarray) -> str:
    """" on the left" or " on the right" when the changed pixels of a region lie in that half
    (:data:`HALF_SHARE`: "make the trees on the left darker") and the region itself does not (clouds
    only on the left are "the clouds"), else ""."""
    def left_share(m: np.ndarray) -> float:
        xs = np.nonzero(m)[1]
        return float((xs < m.shape[1] / 2).mean()) if len(xs) else 0.5

    left, whole = left_share(changed), left_share(found)
    if left >= HALF_SHARE and whole < HALF_SHARE:
        return " on the left"
    return " on the right" if left <= 1 - HALF_SHARE and whole > 1 - HALF_SHARE else ""


def name_region(local: list[Finding], found: np.ndarray, name: str, Sa: np.ndarray, wf: np.ndarray,
                af: np.ndarray) -> list[Finding]:
    """Say the region ``name`` (``found`` in the small before picture: "clouds", "greenery") for a
    change of its tone or colour ("make the clouds darker", "make the trees darker"), as one
    finding, the largest: a darkened cloud beside the rest was "the skyblue object on the left was
    removed", and the others "the part on the right got darker"; trees darkened by 40 were "the
    grey object on the left was removed". A change whose changed pixels (by 3 levels, in its box;
    ``wf`` and ``af`` the small copies before and after) are :data:`PART_BOX` the region's and that
    one colour mapping explains (:data:`PART_MAP`) is the region's; once one is, the other changes
    of the region (a piece "moved", "added", "removed") are its pieces."""
    if not found.any():
        return local
    moved = chanmax(np.abs(af - wf)) > 3

    def within(fd: Finding) -> bool:
        x1, y1, x2, y2 = box_to_small(fd.after_box or fd.before_box, Sa)
        inside = moved[y1:y2, x1:x2]
        return x2 > x1 and y2 > y1 and bool(inside.any()) and float(found[y1:y2, x1:x2][inside].mean()) >= PART_BOX

    kinds = ("region_changed", "object_recolored", "object_removed", "object_added", "object_moved")
    theirs = [fd for fd in local if fd.kind in kinds and not fd.params.get("region") and within(fd)]
    toned = [fd for fd in theirs if fd.kind != "object_moved" and fd.params.get("colour_map_r2", 0.0) >= PART_MAP]
    if not toned:
        return local
    keep = max(toned, key=lambda fd: fd.params.get("area_fraction", 0.0))
    dl = keep.params.get("lightness_change", 0.0)
    if keep.kind != "object_recolored" or (dl >= 12 and keep.params.get("chroma_change", 0.0) < dl):
        keep.kind = "region_changed"  # lightened more than tinted (a blue-grey cloud whitens): "got brighter"
    keep.params["region"] = name + _one_half(moved & found, found)
    for k in ("object", "object_score", "object_box", "added_score", "fill_score"):
        keep.params.pop(k, None)
    return [fd for fd in local if fd is keep or fd not in theirs]


FACE_BOX = 0.3  # a tone or colour change whose box overlaps a face's this much (IoU) is the face's


def name_faces(local: list[Finding], before: np.ndarray) -> None:
    """Say "the face" (and where, when there are several) for a change of tone or colour over a face
    the face detector finds in ``before`` (full size), as "brighten the face" made it: it was "the
    part at the top right got brighter"."""
    todo = [fd for fd in local if fd.kind in ("region_changed", "object_recolored") and not fd.params.get("region")]
    if not todo:
        return
    from agent.perception.faces import find_faces
    from agent.perception.models import box_iou
    from agent.perception.places import box_place, place_phrase

    faces = find_faces(before)
    h, w = before.shape[:2]
    for fd in todo:
        box = fd.after_box or fd.before_box
        best = max(faces, key=lambda f: box_iou(f.box, box), default=None)
        if best is None or box_iou(best.box, box) < FACE_BOX:
            continue
        fd.params["region"] = "face" + (f" {place_phrase(box_place(best.box, (w, h)))}" if len(faces) > 1 else "")
        for k in ("object", "object_score", "object_box", "added_score", "fill_score"):
            fd.params.pop(k, None)
