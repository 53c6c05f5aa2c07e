"""The last step of :func:`editor.fill.inpaint`: the exemplar fill's faint fine texture settled on a membrane.

A copied random texture (grass, gravel, leaves) is never in phase with what the object hid, and an
out-of-phase texture is farther from it, in PSNR and SSIM, than its smooth mean; to the eye,
though, a hole filled with a smooth patch is a ghost of the object's outline. Until the fill kept
the copy's shading, everything coarser than :data:`SETTLE_BAND` came from a membrane (the harmonic
interpolation of the hole's edge): on composites that scored best, but a horse removed from the
foot of a mountain, a dog from a meadow or a goat from a slope left a blurred silhouette of the
animal where the snow streaks, grass clumps and rocks should have gone on, tinted by the ground
below it. :func:`settle` now keeps the copy's structure and shading (seamed to the hole's edge
by :func:`editor.fill._full_resolution`) and settles one band only:

- above :data:`SETTLE_SIGMA` (1 pixel), the copy's fine detail (grain, blade edges, the photo's
  noise) is kept whole, so the fill has the sharpness of its surroundings;
- the band between :data:`SETTLE_SIGMA` and :data:`SETTLE_BAND` (blade and pebble shapes) is the
  copy's wherever it is a texture at all (local RMS above about :data:`SETTLE_TEXTURE` levels:
  grass, gravel, even a soft photo's grass), and the membrane's (:func:`membrane`, guided by the
  copy: :func:`edge_guide`) where it is faint (a blurred background, a sky's grain), where an
  out-of-phase copy costs most (SSIM compares contrast against a constant of about 8 levels) and
  shows least. With the bound at 20 levels, the grass of a sheep's and a pig's meadow (about 5
  levels there) was smoothed into a patch the shape of the animal;
- where the copy's offset is seen to predict the hole's surroundings too (:func:`trust`: a
  periodic texture, stripes, planks, brick, whose copy is in phase), the copy is kept whole;
- coarser than :data:`SETTLE_BAND`, the copy's own structure and shading, except where the hole's
  surroundings have no structure at that scale (a sky, a wall, a blurred background:
  :func:`coarse_strength`), where the shading is the membrane's: a copy seamed with its own
  gradient into a sky's was a dark blob above a light one.

``bench/fill.py`` measures the choice (see its docstring for the figures, with "structure kept":
how much of the clean photo's structure at a tenth to a fortieth of the hole's size the fill has).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from editor.jit import lazy_njit

SETTLE_SIGMA = 1.0  # the copy's detail finer than this sigma (full-resolution pixels) is kept whole
SETTLE_BAND = 6.0  # the copy's band between SETTLE_SIGMA and this sigma is kept where its texture is strong:
SETTLE_TEXTURE = 5.0  # ... half of it where its local RMS is this many 8-bit levels, all of it well above
GUIDE_SIGMA = 2.0  # the membrane's guide is the copy blurred by this sigma (full-resolution pixels) ...
GUIDE_CONTRAST = 32.0  # ... and a step this many times its typical step around the hole cuts the membrane
GUIDE_MIN = 6.0  # ... (a step of at least this many 8-bit levels)
# Coarser than SETTLE_BAND the copy's shading is kept (a horse's ghost otherwise), but not where the
# surroundings have no structure at that scale: in a sky's gradient a copy seamed to the hole's edge
# with its own gradient was a dark blob above a light one (4 levels off a smooth gradient; the
# membrane, 0.7). Where the surroundings' band between SETTLE_BAND and COARSE_BAND sigmas has an RMS
# under about COARSE_TEXTURE levels (:func:`coarse_strength`; a clear sky 0.1-0.8, rippled water
# 3-4, grass and snow far more), the shading is the membrane's.
COARSE_BAND = 24.0
COARSE_TEXTURE = 2.0
COARSE_SIDE = 512  # coarse_strength works on a copy this many pixels on its longer side at most
TRUST_SIGMA = 2.0  # the detail that trust correlates is above this sigma (full-resolution pixels)


def per_group(fn, img: np.ndarray) -> np.ndarray:
    """``fn`` applied to groups of at most 4 channels (OpenCV's limit for many filters)."""
    parts = [fn(np.ascontiguousarray(img[:, :, k:k + 4])) for k in range(0, img.shape[2], 4)]
    parts = [p.reshape(p.shape[0], p.shape[1], -1) for p in parts]
    return parts[0] if len(parts) == 1 else np.concatenate(parts, axis=2)


def blur(img: np.ndarray, sigma: float) -> np.ndarray:
    return per_group(lambda a: cv2.GaussianBlur(a, (0, 0), sigma), img)


@lazy_njit
def relax(cur, hole, iters, omega, screen):
    """Successive over-relaxation of the screened Laplace equation on the ``hole`` pixels of
    ``cur`` (in place): each becomes the sum of its 4 neighbours (those off the image are left
    out) over their number plus ``screen`` (0: the mean, a membrane; above 0 the solution fades
    away from the boundary); the pixels outside the hole are the fixed boundary."""
    h, w, c = cur.shape
    ys, xs = np.nonzero(hole)
    for _ in range(iters):
        for i in range(len(ys)):
            y, x = ys[i], xs[i]
            for k in range(c):
                s = 0.0
                n = 0
                if y > 0:
                    s += cur[y - 1, x, k]
                    n += 1
                if y < h - 1:
                    s += cur[y + 1, x, k]
                    n += 1
                if x > 0:
                    s += cur[y, x - 1, k]
                    n += 1
                if x < w - 1:
                    s += cur[y, x + 1, k]
                    n += 1
                cur[y, x, k] += omega * (s / (n + screen) - cur[y, x, k])


@lazy_njit
def relax_guided(cur, hole, wts, iters, omega):
    """As :func:`relax` with no screening, each neighbour weighted by ``wts[y, x, j]`` (up, down,
    left, right; 0 cuts the link): Laplace's equation on a graph whose links are weak across the
    guide's edges, so a value spreads within a region and not over its edge."""
    h, w, c = cur.shape
    ys, xs = np.nonzero(hole)
    for _ in range(iters):
        for i in range(len(ys)):
            y, x = ys[i], xs[i]
            wu, wd, wl, wr = wts[y, x, 0], wts[y, x, 1], wts[y, x, 2], wts[y, x, 3]
            n = wu + wd + wl + wr
            if n < 1e-6:
                continue
            for k in range(c):
                s = 0.0
                if wu > 0:
                    s += wu * cur[y - 1, x, k]
                if wd > 0:
                    s += wd * cur[y + 1, x, k]
                if wl > 0:
                    s += wl * cur[y, x - 1, k]
                if wr > 0:
                    s += wr * cur[y, x + 1, k]
                cur[y, x, k] += omega * (s / n - cur[y, x, k])


@lazy_njit
def link_weights(guide, hole, contrast, out):
    """The weights of each ``hole`` pixel's links to its 4 neighbours (up, down, left, right; 0
    off the image) from a guide image, into ``out`` (h, w, 4): ``exp(-|g_p - g_q|^2 /
    contrast^2)``, at least 1e-3 so that no region is cut off entirely."""
    h, w, c = guide.shape
    ys, xs = np.nonzero(hole)
    inv = 1.0 / (contrast * contrast)
    for i in range(len(ys)):
        y, x = ys[i], xs[i]
        for j in range(4):
            qy, qx = y, x
            if j == 0:
                qy = y - 1
            elif j == 1:
                qy = y + 1
            elif j == 2:
                qx = x - 1
            else:
                qx = x + 1
            if qy < 0 or qy >= h or qx < 0 or qx >= w:
                out[y, x, j] = 0.0
                continue
            d = 0.0
            for k in range(c):
                t = guide[y, x, k] - guide[qy, qx, k]
                d += t * t
            out[y, x, j] = max(math.exp(-d * inv), 1e-3)


def membrane(values: np.ndarray, known: np.ndarray, hole: np.ndarray, fade: float,
             guide: np.ndarray | None = None, contrast: float = 0.0) -> np.ndarray:
    """A membrane interpolation of ``values`` from the pixels where ``known`` is set into ``hole``,
    fading over ``fade`` pixels away from them: the screened Laplace equation ``lap(u) = u / fade^2``
    with the known values as boundary, solved coarse to fine (each level of a pull-push pyramid
    starts from the coarser level's solution and relaxes it: a cascadic multigrid). Values outside
    ``known`` and ``hole`` are a smooth extension."""
    w = known.astype(np.float32)
    v = values * w[:, :, None]
    pyr = [(v, w, hole)]
    guides = [guide.reshape(guide.shape[0], guide.shape[1], -1).astype(np.float32)] if guide is not None else []
    while min(pyr[-1][1].shape) > 4 and pyr[-1][2].sum() > 64:
        v, w, hl = pyr[-1]
        size = ((w.shape[1] + 1) // 2, (w.shape[0] + 1) // 2)
        pyr.append((per_group(cv2.pyrDown, v), cv2.pyrDown(w),
                    cv2.resize(hl.astype(np.float32), size, interpolation=cv2.INTER_AREA) > 0))
        if guides:
            guides.append(per_group(cv2.pyrDown, guides[-1]))
    cur = None
    for level in range(len(pyr) - 1, -1, -1):
        v, w, hl = pyr[level]
        own = v / np.maximum(w, 1e-6)[:, :, None]
        if cur is None:
            cur = np.where((w > 0)[:, :, None], own, 0.0)
            iters = 60
        else:
            up = per_group(lambda a, size=(w.shape[1], w.shape[0]): cv2.pyrUp(a, dstsize=size), cur)
            a = np.clip(w * 4, 0, 1)[:, :, None]
            cur = a * own + (1 - a) * up
            iters = 12
        cur = np.ascontiguousarray(cur, dtype=np.float32)
        if guides:
            wts = np.zeros(hl.shape + (4,), np.float32)
            link_weights(np.ascontiguousarray(guides[level]), hl, contrast, wts)
            relax_guided(cur, hl, wts, 2 * iters, 1.7)
        else:
            relax(cur, hl, iters, 1.7, (2.0 ** level / max(fade, 1e-3)) ** 2)
    return cur


@lazy_njit
def offset_ncc(det, known, by, bx, oys, oxs, out):
    """For each offset (``oys[j]``, ``oxs[j]``): the normalised correlation of the detail ``det`` at
    the band pixels (``by``, ``bx``) with the detail at the same pixels shifted by the offset, over
    the shifted pixels that are known (``out[j]``; 0 where too few are)."""
    h, w = det.shape
    for j in range(len(oys)):
        sab = saa = sbb = 0.0
        n = 0
        for i in range(len(by)):
            y, x = by[i] + oys[j], bx[i] + oxs[j]
            if y < 0 or y >= h or x < 0 or x >= w or not known[y, x]:
                continue
            a, b = det[by[i], bx[i]], det[y, x]
            sab += a * b
            saa += a * a
            sbb += b * b
            n += 1
        out[j] = sab / math.sqrt(saa * sbb) if n >= 16 and saa > 0 and sbb > 0 else 0.0


def trust(values: np.ndarray, hole: np.ndarray, offy: np.ndarray, offx: np.ndarray, sigma: float) -> np.ndarray:
    """How far each hole pixel's copied detail can be trusted to be in phase with what was there:
    the copy's offset tried on the surroundings of the hole (the correlation of their detail, above
    ``sigma``, with the detail the same offset away). A periodic texture (stripes, planks, brick)
    predicts itself, near 1; grass, gravel or leaves do not, near 0. ``offy``, ``offx``: the copy's
    offsets (source minus target) per pixel. Returns 0..1 over ``hole``."""
    g = values.mean(axis=2).astype(np.float32)
    det = np.ascontiguousarray(g - cv2.GaussianBlur(g, (0, 0), sigma))
    _, _, bw, bh = cv2.boundingRect(hole.astype(np.uint8))
    near = cv2.distanceTransform((~hole).astype(np.uint8), cv2.DIST_L2, 3) <= max(4.0, 0.25 * max(bw, bh))
    by, bx = np.nonzero(near & ~hole)
    keep = np.linspace(0, len(by) - 1, min(len(by), 4000)).astype(np.int64)  # a sample is enough
    oy, ox = offy[hole].astype(np.int64), offx[hole].astype(np.int64)
    pairs, inv = np.unique(np.stack([oy, ox], 1), axis=0, return_inverse=True)
    ncc = np.zeros(len(pairs), np.float64)
    offset_ncc(det, np.ascontiguousarray(~hole), by[keep], bx[keep], pairs[:, 0].copy(), pairs[:, 1].copy(), ncc)
    out = np.zeros(hole.shape, np.float32)
    out[hole] = np.clip(ncc[inv.ravel()], 0, 1)
    return out


def edge_guide(filled: np.ndarray, hole: np.ndarray, unit: float) -> tuple[np.ndarray, float]:
    """The guide of the settling's membrane: the copy blurred by :data:`GUIDE_SIGMA`, and the
    contrast of an edge that cuts the membrane's links (:data:`GUIDE_CONTRAST` times the median
    step between neighbouring pixels of that guide around the hole: a texture's own steps do not
    cut it, a horizon's or a table edge's do), at least :data:`GUIDE_MIN` levels."""
    guide = blur(filled, GUIDE_SIGMA)
    near = cv2.dilate(hole.astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
    ys, xs = np.nonzero(near[1:-1, 1:-1])
    pick = np.linspace(0, len(ys) - 1, min(len(ys), 20000)).astype(np.int64)  # a sample is enough
    ys, xs = ys[pick] + 1, xs[pick] + 1
    steps = np.concatenate([np.abs(guide[ys + 1, xs] - guide[ys, xs]).sum(axis=1),
                            np.abs(guide[ys, xs + 1] - guide[ys, xs]).sum(axis=1)])
    return guide, max(GUIDE_CONTRAST * float(np.median(steps)), GUIDE_MIN * unit)


def coarse_strength(image: np.ndarray, hole: np.ndarray, unit: float = 1.0) -> np.ndarray:
    """How much coarse structure (between sigmas :data:`SETTLE_BAND` and :data:`COARSE_BAND`:
    clumps, rocks, streaks) the surroundings of the hole have, carried into it: 0 for a sky or a
    blurred background, 1 for grass or snow; ``r^4 / (r^4 + T^4)`` of the band's local RMS ``r``
    over the known pixels within 2 x COARSE_BAND of the hole, carried into the hole by a membrane
    from its edge, ``T`` = :data:`COARSE_TEXTURE` levels. The
    band is taken with the hole filled by a membrane (what hid there, and a one-sided average of a
    sky's gradient, do not count), on a copy of at most :data:`COARSE_SIDE` pixels. ``image`` (h,
    w, c), ``hole`` (h, w) bool; returns (h, w) float32."""
    h, w = hole.shape
    grey = image.reshape(h, w, -1).astype(np.float32).mean(axis=2)
    scale = min(1.0, COARSE_SIDE / max(h, w))
    if scale < 1:
        size = (max(8, round(w * scale)), max(8, round(h * scale)))
        grey = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
        small = cv2.resize(hole.astype(np.float32), size, interpolation=cv2.INTER_AREA) > 0
    else:
        small = hole
    mu = float(grey[~small].mean())
    grey[small] = membrane((grey - mu)[:, :, None], ~small, small, 1e6)[:, :, 0][small] + mu
    band = (cv2.GaussianBlur(grey, (0, 0), max(0.5, SETTLE_BAND * scale))
            - cv2.GaussianBlur(grey, (0, 0), max(1.0, COARSE_BAND * scale)))
    dist = cv2.distanceTransform((~small).astype(np.uint8), cv2.DIST_L2, 3)
    ring = ((dist > 0) & (dist <= 2 * COARSE_BAND * scale)).astype(np.float32)
    spread = max(1.0, COARSE_BAND * scale)
    power = np.sqrt(cv2.GaussianBlur(band ** 2 * ring, (0, 0), spread)
                    / np.maximum(cv2.GaussianBlur(ring, (0, 0), spread), 1e-6))
    # into the hole as a membrane from its edge: a splash on one side is not the sky on the other
    power[small] = membrane(power[:, :, None], ring > 0, small, 1e6)[:, :, 0][small]
    strength = (power ** 4 / (power ** 4 + (COARSE_TEXTURE * unit) ** 4 + 1e-12)).astype(np.float32)
    return cv2.resize(strength, (w, h), interpolation=cv2.INTER_LINEAR) if scale < 1 else strength


def settle(known: np.ndarray, hole: np.ndarray, filled: np.ndarray, trust: np.ndarray,
            unit: float = 1.0, coarse: np.ndarray | None = None) -> np.ndarray:
    """The exemplar fill with its band between :data:`SETTLE_SIGMA` and :data:`SETTLE_BAND`
    settled (see the module's docstring): the copy's band weighted by its local strength,
    ``r^4 / (r^4 + T^4)`` for an RMS ``r`` and ``T`` = :data:`SETTLE_TEXTURE` (x ``unit``, the
    image's 8-bit level), or by ``trust`` (0..1 over the hole) where that is higher; the guided
    membrane's band for the rest. Detail above the band and shading below it are the copy's, but
    for the shading where ``coarse`` (0..1 over the box, :func:`coarse_strength`; or ``trust``) is
    low: the membrane's there.
    ``known`` and ``filled`` are the same box (float ``filled``); returns ``filled`` settled."""
    k = known.reshape(known.shape[0], known.shape[1], -1).astype(np.float32)
    e = filled.reshape(k.shape).astype(np.float32)
    e[~hole] = k[~hole]
    h = k.copy()
    # Every known pixel is given (not only the ring, which alone decides the exact solution): the
    # coarse levels of the solver then see the surroundings' values, not empty pixels; the solver
    # starts the pixels it has not reached from the mean of the hole's edge (a hole that leaves a
    # corner of the photo would otherwise stay near 0).
    ring = (cv2.dilate(hole.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0) & ~hole
    mu = k[ring].mean(axis=0) if ring.any() else k[~hole].mean(axis=0)
    h[hole] = membrane(k - mu, ~hole, hole, 1e6, *edge_guide(e, hole, unit))[hole] + mu
    # The copy over the membrane, d = e - h (0 outside the hole): the band's weight g swaps
    # (1 - g) of the copy's band for the membrane's, e - (1 - g) (d_f - d_b).
    d = e - h
    band = blur(e, SETTLE_SIGMA) - blur(e, SETTLE_BAND)
    power = cv2.GaussianBlur((band ** 2).mean(axis=2), (0, 0), 2 * SETTLE_BAND)
    strong = power ** 2 / (power ** 2 + (SETTLE_TEXTURE * unit) ** 4 + 1e-12)
    g = np.maximum(strong, trust.astype(np.float32))[:, :, None]
    settled = e - (1 - g) * (blur(d, SETTLE_SIGMA) - blur(d, SETTLE_BAND))
    if coarse is not None:
        # the copy's shading, where the surroundings have no coarse structure (a sky, a wall, a
        # blurred background), is the membrane's: a copy seamed to the hole's edge with another
        # gradient is a blob there
        g2 = np.maximum(coarse, trust.astype(np.float32))[:, :, None]
        settled = settled - (1 - g2) * blur(d, SETTLE_BAND)
    out = np.where(hole[:, :, None], settled, e)
    return out.reshape(filled.shape)
