"""Region edges carried through a filled hole: a horizon, a field against the sky, a wall meeting a
floor, the edge of a table.

An exemplar fill decides the hole's structure on its coarsest levels, where a patch of the ground
with a strip of sky above it looks much like a patch of sky with hills in it; a camel removed from
a steppe left an arch of ground pasted into the sky above the horizon. :func:`region_guide` splits
the hole's surroundings into 3 or 2 regions of clearly different colour (k-means on the blurred
colours of a ring around the hole, in CIE L*a*b*, the ring starting past the blur's reach of the
hole), when the split is coherent (each region in large pieces, not the light and dark grain of
one texture), and carries the split into the hole along the direction the region edges in the ring
share (a horizon runs on level: each hole pixel takes the region of the nearer known pixel on its
line through that direction); where no edge direction is shared, or no line reaches a known pixel,
by a membrane (the harmonic interpolation of the regions from the ring). The fill matches the
regions as one-hot channels of its patches (:func:`editor.fill.inpaint`), so the sky above the
horizon is filled from the sky and the ground below it from the ground.
"""

from __future__ import annotations

import cv2
import numpy as np

from editor import fill_settle

RING = 0.35  # the regions are read from a ring this share of the hole's larger side wide (at least 4 px)
SPLIT = 22.0  # the regions' mean colours are at least this far apart (CIE L*a*b* units) ...
MIN_SHARE = 0.15  # ... each holds at least this share of the ring (x 2 / k) ...
COHERENCE = 0.9  # ... and this share of the ring's pixels agree with most of their 7x7 neighbours
CROSSINGS = 40.0  # ... and their edges cross the ring at most about this many times
EDGE_COHERENCE = 0.8  # the region edges in the ring share one direction this much (0..1) to be carried straight
CHORD_THIN = 0.15  # the edge's points lie along a line: their spread across it under this share of along it ...
CHORD_TURN = 15.0  # ... within this many degrees of the local edges' direction
RAGGED_SCALE = 0.1  # ... else at a blur of this share of the ring's width (a ragged edge, straight from afar),
RAGGED_DISAGREE = 0.2  # ... where at most this share of the hole lies between different regions on its two sides
BLUR = 2.0  # colours are compared after a blur of this sigma (pixels of the level it runs on)


def region_guide(values: np.ndarray, hole: np.ndarray) -> np.ndarray | None:
    """The regions of ``values`` (H x W x C, 8-bit units, the first 3 channels RGB) around ``hole``
    as one-hot channels (H x W x k, k = 3 or 2: each pixel outside the hole to its nearer region's
    mean colour, each pixel inside to the region the edges carry there along their own direction,
    else to the region whose membrane pulls it most), or None when its
    surroundings are not 2 or 3 clearly different, coherent regions (tried 3 first: mountains, a
    plain and grass).

    >>> img = np.zeros((60, 60, 3), np.float32); img[:30] = (90, 150, 230); img[30:] = (80, 120, 40)
    >>> hole = np.zeros((60, 60), bool); hole[20:45, 15:45] = True
    >>> g = region_guide(img, hole)
    >>> g.shape[2], bool((g[25, 30] == g[5, 30]).all() and (g[40, 30] == g[55, 30]).all())
    (2, True)
    """
    if values.shape[2] < 3 or not hole.any():
        return None
    x, y, bw, bh = cv2.boundingRect(hole.astype(np.uint8))
    width = max(4.0, RING * max(bw, bh))
    dist = cv2.distanceTransform((~hole).astype(np.uint8), cv2.DIST_L2, 3)
    hole = hole | (dist <= 3 * BLUR)  # the blur carries the hole's own colours this far out
    ring = ~hole & (dist <= width + 3 * BLUR)
    if ring.sum() < 50:
        return None
    rgb = np.clip(values[:, :, :3], 0, 255).astype(np.uint8)
    lab = cv2.cvtColor(cv2.GaussianBlur(rgb, (0, 0), BLUR), cv2.COLOR_RGB2Lab).astype(np.float32)
    lab[..., 0] *= 100.0 / 255.0  # OpenCV's 8-bit L* is scaled to 0-255; a* and b* are offset by 128
    samples = np.ascontiguousarray(lab[ring])
    for k in (3, 2):
        labels = _regions(lab, samples, ring, hole, k, width)
        if labels is not None:
            break
    else:
        return None
    onehot = np.stack([labels == j for j in range(k)], axis=2).astype(np.float32)
    # straight edges go on straight; what they do not reach, the membrane's
    along = _along_edges(labels, ring, hole, width)
    inside = np.full(hole.shape, -1, np.int64) if along is None else along
    if (inside[hole] < 0).any():
        pull = fill_settle.membrane(onehot, ring, hole, 1e6)
        inside = np.where(inside >= 0, inside, pull.argmax(axis=2))
    onehot[hole] = np.eye(k, dtype=np.float32)[inside[hole]]
    return onehot


def _along_edges(labels: np.ndarray, ring: np.ndarray, hole: np.ndarray, width: float) -> np.ndarray | None:
    """The labels carried into the hole along the direction of the region edges in the ring (a
    horizon runs on level: each hole pixel takes the label of the nearer known pixel on its line
    through that direction, the farther one's when they agree), -1 where no line reaches a known
    pixel; None when the edges do not share one direction, at the labels' scale nor, for a ragged
    edge, at a coarser one (a curved edge), or, read at the coarser one, when more than
    :data:`RAGGED_DISAGREE` of the hole lies between different regions (one on one side only)."""
    smooth = cv2.medianBlur(labels.astype(np.uint8), 7).astype(np.float32)  # the edges' direction: not a texture's specks
    clear = cv2.erode((~hole).astype(np.uint8), np.ones((9, 9), np.uint8)) > 0  # the filters see no hole pixel
    normal = _edge_normal(smooth, ring & clear)
    ragged = normal is None
    if ragged:
        # A ragged edge (heather's stalks against a forest) is straight at a coarser scale: the
        # labels of the known pixels blurred (normalised: the hole's own pixels weigh nothing).
        # A moose removed there left its back's outline as the forest's edge.
        sigma = max(2.0, RAGGED_SCALE * width)
        known = (~hole).astype(np.float32)
        coarse = cv2.GaussianBlur(smooth * known, (0, 0), sigma) / np.maximum(cv2.GaussianBlur(known, (0, 0), sigma), 1e-3)
        where = ring & (cv2.distanceTransform((~hole).astype(np.uint8), cv2.DIST_L2, 3) > 4)
        normal = _edge_normal(coarse, where)
        if normal is not None and labels.max() == 1:
            normal = _chord(coarse, where, normal)
    if normal is None:
        return None
    h, w = labels.shape
    centre = (w / 2, h / 2)
    turn = cv2.getRotationMatrix2D(centre, normal - 90.0, 1.0)  # the edges along the rows
    side = int(np.ceil(np.hypot(h, w)))
    turn[:, 2] += (side - w) / 2, (side - h) / 2
    flags = cv2.INTER_NEAREST
    lab_r = cv2.warpAffine(labels.astype(np.float32) + 1, turn, (side, side), flags=flags, borderValue=0)  # 0: outside the picture
    hole_r = cv2.warpAffine(hole.astype(np.uint8), turn, (side, side), flags=flags, borderValue=0) > 0
    known = (lab_r > 0) & ~hole_r
    cols = np.arange(side)[None, :].repeat(side, axis=0)
    left = np.maximum.accumulate(np.where(known, cols, -1), axis=1)
    right = np.minimum.accumulate(np.where(known, cols, side)[:, ::-1], axis=1)[:, ::-1]
    rows = np.arange(side)[:, None]
    lv = np.where(left >= 0, lab_r[rows, np.clip(left, 0, side - 1)], 0)
    rv = np.where(right < side, lab_r[rows, np.clip(right, 0, side - 1)], 0)
    near_left = (cols - left) <= (right - cols)
    both = (lv > 0) & (rv > 0)
    if ragged and (both & (lv != rv))[hole_r].mean() > RAGGED_DISAGREE:
        return None  # a region on one side only (a clock's disc beside a cup): carried straight, a band
    val = np.where(both, np.where(lv == rv, lv, np.where(near_left, lv, rv)), np.maximum(lv, rv))
    back = cv2.invertAffineTransform(turn)
    out = cv2.warpAffine((val * hole_r).astype(np.float32), back, (w, h), flags=flags, borderValue=0)
    return np.where(hole, out.astype(np.int64) - 1, -1)


def _edge_normal(smooth: np.ndarray, where: np.ndarray) -> float | None:
    """The direction (degrees) of the gradient of ``smooth`` that its edges within ``where`` share
    (the structure tensor's), or None when they do not share one (coherence under
    :data:`EDGE_COHERENCE`) or there are too few."""
    gx = cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3)
    edge = where & ((np.abs(gx) > 1e-3) | (np.abs(gy) > 1e-3))
    if edge.sum() < 8:
        return None
    jxx, jyy, jxy = float((gx[edge] ** 2).sum()), float((gy[edge] ** 2).sum()), float((gx[edge] * gy[edge]).sum())
    coherence = np.hypot(jxx - jyy, 2 * jxy) / max(jxx + jyy, 1e-9)
    if coherence < EDGE_COHERENCE:
        return None
    return float(0.5 * np.degrees(np.arctan2(2 * jxy, jxx - jyy)))  # the edge runs across it


def _chord(coarse: np.ndarray, where: np.ndarray, normal: float) -> float:
    """The direction (degrees, of the normal) of the line that the edge between two regions
    (``coarse``'s 0.5 level within ``where``) lies along on both sides of the hole, when it does
    (the points' second moment thin along that line, within :data:`CHORD_TURN` degrees of
    ``normal``, the local edges' direction); else ``normal``. The local edges of a ragged horizon
    are each a little off its line, and carried along their mean direction the two sides met in a step."""
    edge = where & (np.abs(coarse - 0.5) < 0.25)
    ys, xs = np.nonzero(edge)
    if len(xs) < 16:
        return normal
    pts = np.stack([xs, ys], axis=1).astype(np.float64)
    pts -= pts.mean(axis=0)
    vals, vecs = np.linalg.eigh(pts.T @ pts / len(pts))
    if vals[0] > (CHORD_THIN ** 2) * vals[1]:
        return normal
    along = float(np.degrees(np.arctan2(vecs[1, 1], vecs[0, 1])))
    fitted = along + 90.0
    turn = (fitted - normal + 90.0) % 180.0 - 90.0
    return normal + turn if abs(turn) <= CHORD_TURN else normal


def _regions(lab: np.ndarray, samples: np.ndarray, ring: np.ndarray, hole: np.ndarray, k: int,
             width: float) -> np.ndarray | None:
    """Each pixel's region (0..k-1) by k-means of the ring's colours, or None when the regions are
    not clearly apart (:data:`SPLIT`), each a share of the ring (:data:`MIN_SHARE` / k * 2),
    coherent (:data:`COHERENCE`) and in large pieces (:data:`CROSSINGS`; ``width``: the ring's)."""
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    # k-means starts from OpenCV's global random state: seeded, so that a hole is filled the same
    # way whatever ran before (the explainer's test of a filled helmet passed alone and failed after
    # other fills)
    cv2.setRNGSeed(0)
    _, lab_ring, centres = cv2.kmeans(samples, k, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    shares = np.bincount(lab_ring.ravel(), minlength=k) / len(lab_ring)
    gaps = [np.linalg.norm(centres[i] - centres[j]) for i in range(k) for j in range(i + 1, k)]
    if min(gaps) < SPLIT or shares.min() < MIN_SHARE * 2 / k:
        return None
    labels = np.linalg.norm(lab[:, :, None, :] - centres[None, None], axis=3).argmin(axis=2)
    # coherent regions, not a texture's grain: the ring's pixels mostly agree with their neighbours
    known = (~hole).astype(np.float32)
    count = np.maximum(cv2.blur(known, (7, 7)), 1e-6)
    agree = np.zeros(hole.shape, bool)
    for j in range(k):
        own = labels == j
        agree |= own & (cv2.blur(own * known, (7, 7)) / count > 0.5)
    if agree[ring].mean() < COHERENCE:
        return None
    # in large pieces: the blobs of a mottled texture (leaves, a cheetah's coat) are coherent at
    # 7x7 too, and a hole told to be all one of them was filled flat, an object-shaped blot. A
    # region edge crosses the ring a few times (a horizon twice), each crossing about the ring's
    # width long; a texture's blobs edge it all along.
    smooth = cv2.medianBlur(labels.astype(np.uint8), 5)
    step = np.zeros(hole.shape, bool)
    step[:, 1:] |= smooth[:, 1:] != smooth[:, :-1]
    step[1:] |= smooth[1:] != smooth[:-1]
    crossings = float((step & ring).sum()) / width
    return labels if crossings <= CROSSINGS else None
