"""An object's mask kept apart from its neighbours': what a removal or an edit of one thing takes, and
never a neighbour in the same box (issue 29). Split from :mod:`agent.edits.objects`, which finds the
objects; :func:`object_mask` is its entry, :func:`apart` the same with the neighbours' masks cached.
"""

from __future__ import annotations

import cv2
import numpy as np

from agent.perception.models import to_rgb8
from editor import masks, ops

Box = tuple[int, int, int, int]
OUTSIDE_ODDS = 0.25  # past our box, in a neighbour's: theirs unless our colours are 4 times likelier
ALIKE = 0.8  # two objects' colours this alike (Bhattacharyya coefficient) are not told apart by colour


def grow_box(box: Box, frac: float, w: int, h: int) -> Box:
    x1, y1, x2, y2 = box
    dx, dy = int((x2 - x1) * frac) + 2, int((y2 - y1) * frac) + 2
    return max(0, x1 - dx), max(0, y1 - dy), min(w, x2 + dx), min(h, y2 + dy)


def object_mask(pixels: np.ndarray, box: Box, *, keep: tuple[Box, ...] | list[Box] = ()) -> np.ndarray:
    """A bool mask (the image's height and width) of the object in ``box``.

    u2netp (the background-removal model) is shown a crop around the box, grown by 15% so the
    object stands out from its surroundings; its mask, thresholded at 0.5, is kept inside that
    grown box (a detector box can cut off a paw or a tail). When u2netp finds less than 10% of
    the box, GrabCut initialised with the box decides instead; when it finds less too (a person a
    few pixels wide), the ellipse the box holds is the mask.

    ``keep`` are the boxes of other objects, which the mask must not take: u2netp sees whatever
    stands out in the crop, a dog beside the bicycle as much as the bicycle. Where the mask and a
    neighbour's own mask overlap, a pixel goes to the one whose own pixels' colours it is likelier
    under (:func:`_claimed_by`). When the box lies within
    another object's box (a tie on a person), the mask is kept to the box grown by 5%: u2netp
    would take the person around it.
    """
    return apart(pixels, box, keep, {})[0]


def apart(pixels: np.ndarray, box: Box, keep, cache: dict) -> tuple[np.ndarray, np.ndarray]:
    """:func:`object_mask` with ``keep``, and the union of the neighbours' own masks that touch it
    (``cache``: box -> mask, so that a neighbour is masked once for several objects)."""

    def own(b):
        if b not in cache:
            cache[b] = own_mask(pixels, b)
        return cache[b]

    mask = own(tuple(int(v) for v in box)).copy()
    others = np.zeros_like(mask)
    if not keep:
        return mask, others
    h, w = mask.shape
    box = tuple(int(v) for v in box)
    area = max(1, (box[2] - box[0]) * (box[3] - box[1]))
    grown = grow_box(box, 0.15, w, h)
    for k in keep:
        ix = max(0, min(box[2], k[2]) - max(box[0], k[0]))
        iy = max(0, min(box[3], k[3]) - max(box[1], k[1]))
        if ix * iy >= 0.9 * area:  # within the neighbour: the box itself says where the object is
            gx1, gy1, gx2, gy2 = grow_box(box, 0.05, w, h)
            inside = np.zeros_like(mask)
            inside[gy1:gy2, gx1:gx2] = True
            mask &= inside
    for k in keep:
        k = tuple(int(v) for v in k)
        ix = max(0, min(box[2], k[2]) - max(box[0], k[0]))
        iy = max(0, min(box[3], k[3]) - max(box[1], k[1]))
        if ix * iy >= 0.9 * area or k[0] >= grown[2] or k[2] <= grown[0] or k[1] >= grown[3] or k[3] <= grown[1]:
            continue
        theirs = own(k)
        both = mask & theirs
        if both.any():
            # outside our box and inside theirs, a pixel both masks take is theirs: each mask looks
            # 15% past its box, and a calf's head before a camel's legs was the camel's by colour
            # unless its colour is far likelier ours (the camel's own dark leg in the calf's box)
            outside = both & (masks.from_box(mask.shape, k) > 0) & ~(masks.from_box(mask.shape, box) > 0)
            rgb = to_rgb8(pixels)
            if _alike(rgb, theirs & ~mask, mask & ~theirs):
                # colours cannot tell two giraffes apart: a pixel both take is the one's it is nearer to
                # (the neck of the giraffe left in place, behind the one removed, went with it)
                inside = _nearer(both & ~outside, theirs & ~mask, mask & ~theirs)
            else:
                inside = _claimed_by(rgb, both & ~outside, theirs & ~mask, mask & ~theirs)
            claimed = inside | _claimed_by(rgb, outside, theirs & ~mask, mask & ~theirs, odds=OUTSIDE_ODDS)
            # a claim is a piece of the neighbour: it touches what is the neighbour's alone. The
            # black horse's white blaze, claimed by the colours of the foal's blaze beside it, was
            # an island in the horse and was left floating in the sky when the horse was removed.
            mask &= ~_touching(claimed, _largest(theirs & ~mask))
            # what we keep of the overlap is a region too, not specks on the neighbour, and ours:
            # it touches what is ours alone (when there is any: a tie is all within its wearer)
            kept = cv2.morphologyEx((mask & both).astype(np.uint8), cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)) > 0
            alone = _largest(mask & ~both)
            mask &= ~both | (_touching(kept, alone) if alone.any() else kept)
        others |= theirs
    return mask, others & ~mask


def _codes(pixels: np.ndarray) -> np.ndarray:
    """Each RGB pixel's bin of a 16-level colour histogram (0..4095)."""
    q = (pixels // 16).astype(np.int32)
    return (q[..., 0] * 16 + q[..., 1]) * 16 + q[..., 2]


def _histogram(rgb: np.ndarray, where: np.ndarray, *, floor: float = 0.0) -> np.ndarray:
    """The smoothed 16-level colour histogram of ``rgb`` where ``where`` (4096 bins, neighbouring levels
    blurred together), each bin raised by ``floor`` (no colour impossible) and summing to 1."""
    hist = np.bincount(_codes(rgb[where]), minlength=4096).astype(np.float32)
    hist = cv2.GaussianBlur(hist.reshape(16, 256), (0, 0), 1.0).ravel()
    return (hist + floor) / max(float(hist.sum()) + 4096 * floor, 1e-6)


def _alike(rgb: np.ndarray, theirs: np.ndarray, ours: np.ndarray) -> bool:
    """Whether two objects' own pixels have the same colours (Bhattacharyya coefficient of their
    histograms at least :data:`ALIKE`): two of a kind, whom colour does not tell apart."""
    if not theirs.any() or not ours.any():
        return False
    return float(np.sum(np.sqrt(_histogram(rgb, theirs) * _histogram(rgb, ours)))) >= ALIKE


def _nearer(both: np.ndarray, theirs: np.ndarray, ours: np.ndarray) -> np.ndarray:
    """The pixels of ``both`` nearer to ``theirs`` than to ``ours`` (straight-line distance)."""
    if not theirs.any():
        return np.zeros_like(both)
    to_theirs = cv2.distanceTransform((~theirs).astype(np.uint8), cv2.DIST_L2, 3)
    to_ours = cv2.distanceTransform((~ours).astype(np.uint8), cv2.DIST_L2, 3) if ours.any() else np.inf
    return both & (to_theirs < to_ours)


def _touching(region: np.ndarray, seed: np.ndarray) -> np.ndarray:
    """The connected pieces of ``region`` that touch ``seed`` (or overlap it)."""
    n, lab = cv2.connectedComponents(region.astype(np.uint8), connectivity=8)
    if n <= 1:
        return region.copy()
    near = cv2.dilate(seed.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    hit = np.unique(lab[near & region])
    return np.isin(lab, hit[hit > 0])


def _largest(region: np.ndarray) -> np.ndarray:
    """The largest connected piece of ``region`` (8-connected)."""
    n, lab, stats, _ = cv2.connectedComponentsWithStats(region.astype(np.uint8), connectivity=8)
    if n <= 2:
        return region.copy()
    return lab == 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))


def _claimed_by(rgb: np.ndarray, both: np.ndarray, theirs: np.ndarray, ours: np.ndarray, *,
                odds: float = 1.0) -> np.ndarray:
    """The pixels of ``both`` (claimed by two masks) whose colour is likelier under the colours of
    ``theirs`` (the neighbour's own pixels) than ``odds`` times under those of ``ours``: smoothed
    16-level colour histograms, as GrabCut's colour models decide. A neighbour with no pixels of
    its own claims nothing."""
    if not theirs.any() or not both.any():
        return np.zeros_like(both)
    pt = _histogram(rgb, theirs, floor=1e-3)
    po = _histogram(rgb, ours, floor=1e-3) if ours.any() else np.full(4096, 1 / 4096, np.float32)
    c = _codes(rgb[both])
    out = np.zeros_like(both)
    out[both] = pt[c] > odds * po[c]
    # a claim is a region, not scattered pixels
    return cv2.morphologyEx(out.astype(np.uint8), cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)).astype(bool) & both


def own_mask(pixels: np.ndarray, box: Box) -> np.ndarray:
    rgb = to_rgb8(pixels)
    h, w = rgb.shape[:2]
    x1, y1, x2, y2 = (int(v) for v in box)
    x1, y1, x2, y2 = max(0, x1), max(0, y1), min(w, x2), min(h, y2)
    if x2 <= x1 or y2 <= y1:
        raise ValueError(f"box {box} holds no part of the {w}x{h} image")
    cx1, cy1, cx2, cy2 = grow_box((x1, y1, x2, y2), 0.15, w, h)
    crop = rgb[cy1:cy2, cx1:cx2]
    small = ops.mask_input(crop)
    prob = ops.upscale_mask(ops.predict_mask_small(small), crop.shape) > 127
    mask = np.zeros((h, w), bool)
    mask[cy1:cy2, cx1:cx2] = prob
    if mask[y1:y2, x1:x2].mean() >= 0.1:
        return mask
    mask = _grabcut(rgb, (x1, y1, x2, y2))
    if mask[y1:y2, x1:x2].mean() >= 0.1:
        return mask
    # Neither finds it (a person 14 pixels wide at the foot of a tower): the ellipse the box holds,
    # not nothing; "remove the people" had removed one of three and said so of all
    ellipse = np.zeros((h, w), np.uint8)
    cv2.ellipse(ellipse, ((x1 + x2) // 2, (y1 + y2) // 2), (max(1, (x2 - x1 + 1) // 2), max(1, (y2 - y1 + 1) // 2)),
                0, 0, 360, 1, -1)
    return mask | (ellipse > 0)


def _grabcut(rgb: np.ndarray, box: Box) -> np.ndarray:
    h, w = rgb.shape[:2]
    x1, y1, x2, y2 = box
    # GrabCut on a copy at most 512 px a side: its cost grows with the pixels, its answer does not.
    cx1, cy1, cx2, cy2 = grow_box(box, 0.3, w, h)
    crop = rgb[cy1:cy2, cx1:cx2]
    scale = min(1.0, 512 / max(crop.shape[:2]))
    small = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else crop
    rect = (int((x1 - cx1) * scale), int((y1 - cy1) * scale),
            max(1, int((x2 - x1) * scale)), max(1, int((y2 - y1) * scale)))
    gc = np.zeros(small.shape[:2], np.uint8)
    bgd, fgd = np.zeros((1, 65), np.float64), np.zeros((1, 65), np.float64)
    cv2.setRNGSeed(0)  # its colour models start from random k-means: the same box, the same mask
    try:
        cv2.grabCut(cv2.cvtColor(small, cv2.COLOR_RGB2BGR), gc, rect, bgd, fgd, 4, cv2.GC_INIT_WITH_RECT)
        fg = ((gc == cv2.GC_FGD) | (gc == cv2.GC_PR_FGD)).astype(np.uint8)
    except cv2.error:  # a box too thin for GrabCut's models: the box itself
        fg = np.zeros(small.shape[:2], np.uint8)
        fg[rect[1]:rect[1] + rect[3], rect[0]:rect[0] + rect[2]] = 1
    fg = cv2.resize(fg, (crop.shape[1], crop.shape[0]), interpolation=cv2.INTER_NEAREST) > 0
    mask = np.zeros((h, w), bool)
    mask[cy1:cy2, cx1:cx2] = fg
    return mask
