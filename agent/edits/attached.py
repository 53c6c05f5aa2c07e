"""What belongs to an object that its subject mask left out: a duck's orange feet, an owl's talons,
the cast shadow under a bison.

u2netp's mask (:func:`agent.edits.objects.object_mask`) is of what stands out as one subject, and
it leaves out what is unlike the body: gcompris' white duck was removed and its two orange feet
stood on the grass, floating. The detector's box holds them, and what tells them from the
background inside the box is that their colours are seldom seen around it. A piece is taken when

1. its colours are rare in a ring around the box (under :data:`RARE` of the ring's pixels within
   eight levels of CIELAB, the 32-level histogram smoothed over neighbouring bins), grown through
   the colours under :data:`RARE_LOOSE` (a foot's shaded toes);
2. it lies within :data:`REACH` of the box's larger side of the mask (a foot under a leg the mask
   stopped short of) and is not a speck (:data:`MIN_SHARE` of the mask);
3. it meets none of the box's top, left and right sides: what crosses them goes on outside, a
   branch the bird perches on, the leaf beside a chameleon (a box's lower side is where feet and a
   shadow end);
4. the object is not below it over :data:`BEFORE` of it: a branch across an owl, its tail hanging
   below, lies before the object, where feet and a shadow lie at its foot;
5. where it meets the lower side, its colours do not go on past it, connected, farther than
   :data:`FAR` of the box's side (a branch under a kingfisher's feet runs on; a duck's toes cut by
   its box end a few pixels on);
6. all taken stay under :data:`MAX_SHARE` of the mask; more is no missed foot but a scene the box
   holds (a chameleon's leaves, a mariachi's guitar and shirt), and nothing is taken.

For a removal only: a shadow goes with the thing that casts it, but "brighten the duck" would not
brighten the grass it darkens. Looked at on 39 development photos of animals and people (gcompris',
Wikimedia's), the pieces taken were the duck's feet, a gosling's raised foot, the shadows under a
bison, a cat and a goat, a calf's chest, bits of heather by a moose and plants at a jaguar's feet
(1.3% of its mask, wrongly); a kingfisher's, an owl's and a red panda's branches and a chameleon's
leaves were left.
"""

from __future__ import annotations

import cv2
import numpy as np

from agent.perception.models import to_rgb8

__all__ = ["attached_parts"]

RARE = 0.002  # a colour under this share of the ring around the box is seldom seen around it
RARE_LOOSE = 0.01  # ... and a piece grows through colours under this share (its shaded part)
RING = 0.3  # the ring: the box grown by this share of its larger side, less the box and near the mask
REACH = 0.04  # a piece lies within this share of the box's larger side of the mask
MIN_SHARE = 0.002  # a piece under this share of the mask is a speck
FAR = 0.12  # its colours going on past the box's lower side this far (of the box's side): a branch
SEEN = 0.005  # a colour is a piece's own above this share of its rare pixels
BEFORE = 0.5  # a piece with the object below this share of it lies before the object
MAX_SHARE = 0.08  # all taken over this share of the mask: no missed part, a scene; nothing taken


def _bins(rgb: np.ndarray) -> np.ndarray:
    """Each pixel's bin of a 32-level CIELAB histogram (eight levels of OpenCV's 8-bit Lab each)."""
    q = (cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB) // 8).astype(np.int32)
    return q[..., 0] * 1024 + q[..., 1] * 32 + q[..., 2]


def _density(bins: np.ndarray, where: np.ndarray) -> np.ndarray:
    """The share of ``where``'s pixels in each bin and its neighbours (flat, 32768 long)."""
    from scipy.ndimage import uniform_filter  # lazily: scipy.ndimage costs 0.14 s at import

    hist = np.bincount(bins[where], minlength=32768).astype(np.float32).reshape(32, 32, 32)
    return (uniform_filter(hist, size=3, mode="constant") * 27).reshape(-1) / max(1, int(where.sum()))


def _runs_on(bins: np.ndarray, piece: np.ndarray, core: np.ndarray, box) -> bool:
    """Do ``piece``'s own colours (those of its ``core``, its rarest pixels) go on outside ``box``,
    connected to it, farther than :data:`FAR` of the box's larger side?"""
    x1, y1, x2, y2 = box
    h, w = piece.shape
    src = piece & core
    if not src.any():
        return False
    own = _density(bins, src)
    side = max(x2 - x1, y2 - y1)
    reach = int(FAR * side)
    wx1, wy1, wx2, wy2 = max(0, x1 - 2 * reach), max(0, y1 - 2 * reach), min(w, x2 + 2 * reach), min(h, y2 + 2 * reach)
    inside = np.zeros((wy2 - wy1, wx2 - wx1), bool)
    inside[y1 - wy1:y2 - wy1, x1 - wx1:x2 - wx1] = True
    at = piece[wy1:wy2, wx1:wx2]
    region = ((own[bins[wy1:wy2, wx1:wx2]] > SEEN) & ~inside) | at
    _, lab = cv2.connectedComponents(region.astype(np.uint8), connectivity=8)
    hit = np.unique(lab[at])
    out = np.isin(lab, hit[hit > 0]) & ~inside
    if not out.any():
        return False
    dist = cv2.distanceTransform((~inside).astype(np.uint8), cv2.DIST_L2, 3)
    return float(dist[out].max()) > reach


def attached_parts(pixels: np.ndarray, mask: np.ndarray, box) -> np.ndarray:
    """The pixels of ``box`` outside ``mask`` (the object's subject mask) that belong to the object
    by the rules of this module's docstring: a bool mask, empty when none do. ``pixels`` is any
    Easel image; only the window around the box is converted to 8-bit RGB."""
    mask = np.asarray(mask) > 0
    h, w = mask.shape
    x1, y1, x2, y2 = (int(v) for v in box)
    x1, y1, x2, y2 = max(0, x1), max(0, y1), min(w, x2), min(h, y2)
    taken = np.zeros((h, w), bool)
    total = int(mask.sum())
    if total == 0 or x2 - x1 < 8 or y2 - y1 < 8:
        return taken
    side = max(x2 - x1, y2 - y1)
    # all is worked out in the window the ring spans (a 12-megapixel photo is not converted whole)
    g = int(RING * side) + 2
    wx1, wy1, wx2, wy2 = max(0, x1 - g), max(0, y1 - g), min(w, x2 + g), min(h, y2 + g)
    part = _parts(to_rgb8(pixels[wy1:wy2, wx1:wx2]), mask[wy1:wy2, wx1:wx2], (x1 - wx1, y1 - wy1, x2 - wx1, y2 - wy1), total)
    taken[wy1:wy2, wx1:wx2] = part
    return taken


def _parts(rgb: np.ndarray, mask: np.ndarray, box, total: int) -> np.ndarray:
    """:func:`attached_parts` within the ring's window (``box`` in its coordinates)."""
    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1)
    none = np.zeros(mask.shape, bool)
    inbox = none.copy()
    inbox[y1:y2, x1:x2] = True
    r = max(3, int(0.02 * side))
    near = cv2.dilate(mask.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))) > 0
    ring = ~inbox & ~near
    if not ring.any():
        return none
    bins = _bins(rgb)
    around = _density(bins, ring)[bins]
    free = inbox & ~mask
    core = free & (around < RARE)
    seeds = cv2.morphologyEx(core.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) > 0
    _, lab = cv2.connectedComponents((free & (around < RARE_LOOSE)).astype(np.uint8), connectivity=8)
    hit = np.unique(lab[seeds])
    pieces = np.isin(lab, hit[hit > 0])
    n, lab, stats, _ = cv2.connectedComponentsWithStats(pieces.astype(np.uint8), connectivity=8)
    g = max(5, int(REACH * side))
    close = cv2.dilate(mask.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * g + 1, 2 * g + 1))) > 0
    # what has the object below it lies before it (the branch across an owl, its tail hanging
    # below): feet and a shadow are at the object's foot
    under = np.zeros_like(mask)
    under[:-1] = np.flip(np.logical_or.accumulate(np.flip(mask[1:] & inbox[1:], 0), 0), 0)
    taken = none.copy()
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < MIN_SHARE * total:
            continue
        piece = lab == i
        if not (piece & close).any():
            continue
        if piece[y1:y2, x1].any() or piece[y1:y2, x2 - 1].any() or piece[y1, x1:x2].any():
            continue
        if (piece & under).sum() > BEFORE * stats[i, cv2.CC_STAT_AREA]:
            continue
        if piece[y2 - 1, x1:x2].any() and _runs_on(bins, piece, core, (x1, y1, x2, y2)):
            continue
        taken |= piece
    if taken.sum() > MAX_SHARE * total:
        return none
    return taken
