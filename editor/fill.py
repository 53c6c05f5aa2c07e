"""Inpainting: fill a masked region of an image from its surroundings.

:func:`inpaint` is a multi-scale exemplar fill: expectation-maximisation over patches in the manner
of Wexler, Shechtman and Irani ("Space-Time Completion of Video", 2007), with PatchMatch (Barnes
et al. 2009) as the matcher, texture features as in Newson et al. ("Non-local patch-based image
inpainting", IPOL 2017), and a Poisson seam (Perez et al. 2003):

1. Holes far apart are filled one group at a time (:func:`hole_groups`: the pieces whose boxes,
   grown by half their larger side, meet), the others not yet filled being no source. In each,
   only the region around the hole is looked at (its box grown by the hole's larger side), on a
   copy at most :data:`WORK_SIDE` pixels a side; a pyramid of that copy is built until the hole
   is about 3 pixels deep (or the copy 24 pixels a side). Each pixel carries its colour and two
   texture features (the mean absolute x and y derivative over a patch), so that a textured place
   is not matched to a smooth one of the same colour; where the surroundings are 2 or 3 clearly
   different regions (sky, a plain, grass) in large pieces, not the blobs of one mottled texture,
   it also carries its region, fixed in the hole along the regions' edges
   (:mod:`editor.fill_regions`), so the sky is filled from the sky.
2. Sources come from the surroundings: a source patch keeps a band of 2% of the hole's side clear
   of the hole (an object's shadow or halo lies there, and would be copied back in), and its cost
   grows with its distance from the hole and from the target it fills (on the two coarsest
   levels, where the fill's structure is decided, from half a hole-side on), so the fill is made
   of what is next to the hole, not of a similar-looking but unrelated place further off (a
   removed helmet was filled with the suit's collar). What the caller asks to avoid (the other
   objects, left in place) is no source, and its part near the hole is filled along with it and
   then put back, so it neither shades the fill nor is copied into it.
3. The coarsest level starts from Telea's fill (``cv2.inpaint``). On every level, coarse to fine,
   each patch that overlaps the hole is matched to a source (PatchMatch: propagation and random
   search, seeded), and each hole pixel becomes the weighted mean of what the patches covering it
   say (weights ``exp(-d / 2 median d)``); three rounds a level. A finer level starts from the
   coarse matches scaled up and is rebuilt from its own pixels through them.
4. The last round on the finest level copies, for each hole pixel, one source pixel: the offset
   that most of the patches covering it share (coherent pieces rather than a mosaic of patches).
   The seam that the copy leaves against the photo around the hole (the photo on the ring next to
   the hole, minus what the copy's sources have there) is interpolated into the hole by a membrane
   (the screened Laplace equation, solved coarse to fine, fading over a quarter of the hole's
   side) and added: the fill meets its surroundings without a step, and a shade that crosses the
   hole carries through. (A halo touching the mask is carried in as well, fading, as by Telea's
   fill: the removal mask is dilated to cover the object's.)
5. At full resolution each hole pixel copies the full-resolution source pixels that the work
   level's matches point to (blended bilinearly between neighbouring matches), so the fill has the
   photo's own fine detail; its low band is then replaced by the work fill's, and the remaining
   fine seam is taken out by a membrane in a band along the edge.
6. The fill's faint fine texture is settled on a membrane (:mod:`editor.fill_settle`): its band
   between sigmas 1 and 6 (blade and pebble shapes) is the copy's wherever it is a texture at all
   (grass, gravel, from 5 levels of local RMS) and the membrane's where it is fainter (an
   out-of-phase copy of a blurred background costs most there and shows least); where the copy's offset is seen to predict the
   hole's surroundings too (a periodic texture, whose copy is in phase), the copy is kept whole.
   The copy's finer detail, its coarser structure and its shading are its own: when the membrane
   gave everything coarser than 6 pixels, composites scored higher, but every large removal left
   a smooth patch the shape of the object (a horse at the foot of a mountain, a dog in a meadow).
   Only where the surroundings have no structure at that scale (a clear sky, a plain wall:
   :func:`editor.fill_settle.coarse_strength`) is the shading the membrane's, since there the
   copy's own gradient, seamed in, was a dark blob above a light one.
7. Thin lines that enter the hole and leave it on the same straight line (a stem, a wire, a lane
   marking) are drawn across it with their own cross-section (:mod:`editor.fill_lines`): the
   copy, made of patches in which such a line is a small part, often stops them at the edge.

Diffusion fills such as Telea's or Navier-Stokes' smear the hole's border into streaks once the
hole is more than a few pixels wide; ``bench/fill.py`` compares the three on 46 composites (PSNR,
SSIM and the fine detail kept). The loops are compiled by numba (``cache=True``: compiled once per
installation). Pixels outside the mask are returned unchanged, bit for bit.
"""

from __future__ import annotations

import math
import threading

import cv2
import numpy as np

from editor import fill_lines, fill_regions, fill_settle
from editor.fill_settle import SETTLE_BAND, TRUST_SIGMA, blur, membrane, per_group
from editor.ops import check_image, full_scale

__all__ = ["hole_groups", "hole_psnr", "inpaint"]

WORK_SIDE = 384  # the matching runs on a copy of the region at most this many pixels a side
MIN_SIDE = 24  # the coarsest pyramid level keeps at least this many pixels a side
COARSE_DEPTH = 3  # ... and the pyramid stops once the hole is at most this many pixels deep
CONTEXT = 1.0  # the region looked at: the hole's box grown by this many times its larger side
_ITERATIONS = 3  # match-and-vote rounds per pyramid level
PATCH_R = 3  # 7x7 patches (5x5 on levels under 40 pixels a side)
TEXTURE_WEIGHT = 0.5  # weight of the texture features against the colours in the patch distance
BAND = 0.02  # sources keep this share of the hole's larger side (at least 2 pixels) away from it
DIST_WEIGHT = 30.0  # cost of a source half a side away from the hole, per patch pixel (levels^2)
FAR_WEIGHT = 400.0  # cost of a source twice as far from its target as is free, per patch pixel
NEAR = 2.0  # sources within this many half-sides of the hole from their target cost nothing more
NEAR_COARSE = 0.5  # ... on the two coarsest levels, where the fill's structure is decided
REGION_WEIGHT = 60.0  # weight of the region channels (one-hot) against the colours in the patch distance
AVOID_MIN_SOURCES = 64  # sources left once what is to be avoided is taken out, else it is not
AVOID_MARGIN = 0.5  # what is to be avoided this near the hole (share of its larger side) is filled with it
FADE = 0.25  # the seam's correction fades over this share of the hole's larger side
LOWBAND = 0.75  # at full resolution the fill's low band (this sigma, in work pixels) is the work fill's
GROUP_REACH = 0.5  # holes whose boxes, grown by this share of their larger side, meet are filled together


def _check_hole(mask: np.ndarray, image: np.ndarray) -> np.ndarray:
    if not isinstance(mask, np.ndarray) or mask.shape != image.shape[:2]:
        raise ValueError(f"mask shape {getattr(mask, 'shape', None)} does not match the image's "
                         f"{image.shape[:2]}")
    if mask.dtype.kind not in "buif":
        raise ValueError(f"mask must be bool or numeric, got {mask.dtype}")
    return mask > 0.5 if mask.dtype.kind == "f" else mask.astype(bool)


_compiled = False
_compile_lock = threading.Lock()


def _compile() -> None:
    """Compile the loops below with numba, once, on first use: importing numba costs about a
    second, which the app's start need not pay. ``cache=True`` keeps the machine code on disk, so
    later processes load it instead of compiling again. ``_dist`` goes first: the others call it."""
    global _compiled
    with _compile_lock:
        if _compiled:
            return
        import numba

        g = globals()  # (editor.fill_settle's loops compile themselves: editor.jit.lazy_njit)
        for name in ("_dist", "_far", "_patchmatch", "_vote", "_compose", "_ring_residual"):
            g[name] = numba.njit(cache=True, nogil=True)(g[name])
        _compiled = True


def _dist(img, ty, tx, sy, sx, r, limit):
    """Squared difference of the patches at (ty, tx) and (sy, sx), stopping once over ``limit``.
    Target pixels outside the image are skipped (targets may touch the border, sources do not)."""
    h, w, c = img.shape
    acc = 0.0
    for dy in range(-r, r + 1):
        y, yy = ty + dy, sy + dy
        if y < 0 or y >= h or yy < 0 or yy >= h:
            continue
        for dx in range(-r, r + 1):
            x, xx = tx + dx, sx + dx
            if x < 0 or x >= w or xx < 0 or xx >= w:
                continue
            for k in range(c):
                e = img[y, x, k] - img[yy, xx, k]
                acc += e * e
        if acc > limit:
            return acc
    return acc


def _far(y, x, cy, cx, near, weight):
    """The cost of taking the source (cy, cx) for the target (y, x): ``weight`` times the square of
    how much farther than ``near`` it is (in units of ``near``)."""
    e = math.sqrt(float((cy - y) * (cy - y) + (cx - x) * (cx - x))) / near - 1.0
    return weight * e * e if e > 0 else 0.0


def _patchmatch(img, valid, prior, ty, tx, tidx, sy, sx, r, iters, seed, near, far_w):
    """PatchMatch (Barnes et al. 2009): scan the targets in raster order (reversed every other
    pass), take a neighbour's match shifted by one if it is better, then search at random around
    the current match with a halving radius. A source's cost is its patch distance plus ``prior``
    at the source (far from the hole costs more) plus :func:`_far` (far from its target costs
    more). Returns the final costs."""
    np.random.seed(seed)
    h, w = valid.shape
    n = len(ty)
    d = np.empty(n, np.float32)
    for i in range(n):
        d[i] = prior[sy[i], sx[i]] + _far(ty[i], tx[i], sy[i], sx[i], near, far_w)
        d[i] += _dist(img, ty[i], tx[i], sy[i], sx[i], r, np.inf)
    for it in range(iters):
        step = 1 if it % 2 == 0 else -1
        for j in range(n):
            i = j if step == 1 else n - 1 - j
            y, x = np.int64(ty[i]), np.int64(tx[i])
            for side in range(2):
                ny = y - step if side == 0 else y
                nx = x if side == 0 else x - step
                if ny < 0 or ny >= h or nx < 0 or nx >= w:
                    continue
                q = tidx[ny, nx]
                if q < 0:
                    continue
                cy, cx = sy[q] + (y - ny), sx[q] + (x - nx)
                if cy < 0 or cy >= h or cx < 0 or cx >= w or not valid[cy, cx]:
                    continue
                p = prior[cy, cx] + _far(y, x, cy, cx, near, far_w)
                if p >= d[i]:
                    continue
                dd = p + _dist(img, y, x, cy, cx, r, d[i] - p)
                if dd < d[i]:
                    d[i], sy[i], sx[i] = dd, cy, cx
            radius = max(h, w)
            while radius >= 1:
                cy = sy[i] + np.random.randint(-radius, radius + 1)
                cx = sx[i] + np.random.randint(-radius, radius + 1)
                if 0 <= cy < h and 0 <= cx < w and valid[cy, cx]:
                    p = prior[cy, cx] + _far(y, x, cy, cx, near, far_w)
                    if p < d[i]:
                        dd = p + _dist(img, y, x, cy, cx, r, d[i] - p)
                        if dd < d[i]:
                            d[i], sy[i], sx[i] = dd, cy, cx
                radius //= 2
    return d


def _vote(img, nc, hole, tidx, sy, sx, wt, r, mode, offy, offx):
    """Each hole pixel's first ``nc`` channels become what the patches covering it say they are:
    their weighted mean (``mode`` 0), the best-matching patch's pixel (1), or the pixel of the
    offset that the most weight of them shares (2: coherent pieces, fewer seams than 1).
    ``offy``/``offx`` get the offset to the source pixel chosen (for the mean: the best's)."""
    h, w, c = img.shape
    out = img.copy()
    acc = np.zeros(nc, np.float64)
    n = (2 * r + 1) * (2 * r + 1)
    oys = np.zeros(n, np.int64)
    oxs = np.zeros(n, np.int64)
    ows = np.zeros(n, np.float64)
    for y in range(h):
        for x in range(w):
            if not hole[y, x]:
                continue
            acc[:] = 0.0
            den = 0.0
            top = -1.0
            m = 0
            for oy in range(-r, r + 1):
                for ox in range(-r, r + 1):
                    qy, qx = y - oy, x - ox
                    if qy < 0 or qy >= h or qx < 0 or qx >= w:
                        continue
                    q = tidx[qy, qx]
                    if q < 0:
                        continue
                    py, px = sy[q] + oy, sx[q] + ox
                    if py < 0 or py >= h or px < 0 or px >= w:
                        continue
                    if wt[q] > top:
                        top = wt[q]
                        offy[y, x], offx[y, x] = py - y, px - x
                    if mode == 0:
                        for k in range(nc):
                            acc[k] += wt[q] * img[py, px, k]
                        den += wt[q]
                    else:
                        found = False
                        for j in range(m):
                            if oys[j] == py - y and oxs[j] == px - x:
                                ows[j] += wt[q] if mode == 2 else 0.0
                                found = True
                                break
                        if not found:
                            oys[m], oxs[m], ows[m] = py - y, px - x, wt[q]
                            m += 1
            if mode != 0 and m > 0:
                jb = 0
                for j in range(1, m):
                    if ows[j] > ows[jb]:
                        jb = j
                offy[y, x], offx[y, x] = oys[jb], oxs[jb]
                for k in range(nc):
                    acc[k] = img[y + oys[jb], x + oxs[jb], k]
                den = 1.0
            if den > 0:
                for k in range(nc):
                    out[y, x, k] = acc[k] / den
    return out


def _compose(full, fill, hole, y0, x0, offy, offx, fy, fx, out):
    """Full-resolution pixels of the hole from the work level's matches: each ``fill`` pixel of the
    box at (``y0``, ``x0``) of ``out``'s shape takes the source pixels that the four nearest work pixels'
    offsets (scaled by 1/``fy``, 1/``fx``) point to, weighted bilinearly; sources in the hole or off
    the region are skipped (a known work pixel's offset is 0: the hole pixel itself, skipped).
    Where none qualifies ``out`` is left as it is."""
    h, w, c = full.shape
    wh, ww = offy.shape
    bh, bw = out.shape[0], out.shape[1]
    acc = np.zeros(c, np.float64)
    for yy in range(bh):
        y = y0 + yy
        gy = min(max((y + 0.5) * fy - 0.5, 0.0), wh - 1.0)
        a0 = int(gy)
        a1 = min(a0 + 1, wh - 1)
        ay = gy - a0
        for xx in range(bw):
            x = x0 + xx
            if not fill[y, x]:
                continue
            gx = min(max((x + 0.5) * fx - 0.5, 0.0), ww - 1.0)
            b0 = int(gx)
            b1 = min(b0 + 1, ww - 1)
            ax = gx - b0
            acc[:] = 0.0
            den = 0.0
            for j in range(4):
                qy = a0 if j < 2 else a1
                qx = b0 if j % 2 == 0 else b1
                wgt = (1 - ay if j < 2 else ay) * (1 - ax if j % 2 == 0 else ax)
                if wgt <= 0:
                    continue
                sy = y + int(round(offy[qy, qx] / fy))
                sx = x + int(round(offx[qy, qx] / fx))
                if sy < 0 or sy >= h or sx < 0 or sx >= w or hole[sy, sx]:
                    continue
                for k in range(c):
                    acc[k] += wgt * full[sy, sx, k]
                den += wgt
            if den > 0:
                for k in range(c):
                    out[yy, xx, k] = acc[k] / den


def _ring_residual(img, nc, hole, offy, offx, out):
    """For each known pixel next to the hole: the photo there minus what the sources of its hole
    neighbours have at the same place relative to them (the seam a copy leaves), averaged over
    those neighbours. Written to ``out``; returns the mask of pixels written."""
    h, w, c = img.shape
    done = np.zeros((h, w), np.bool_)
    for y in range(h):
        for x in range(w):
            if hole[y, x]:
                continue
            n = 0
            for k in range(nc):
                out[y, x, k] = 0.0
            for dy in range(-1, 2):
                for dx in range(-1, 2):
                    py, px = y + dy, x + dx
                    if py < 0 or py >= h or px < 0 or px >= w or not hole[py, px]:
                        continue
                    sy, sx = y + int(offy[py, px]), x + int(offx[py, px])
                    if sy < 0 or sy >= h or sx < 0 or sx >= w or hole[sy, sx]:
                        continue
                    for k in range(nc):
                        out[y, x, k] += img[y, x, k] - img[sy, sx, k]
                    n += 1
            if n > 0:
                for k in range(nc):
                    out[y, x, k] /= n
                done[y, x] = True
    return done


def coarse_fill(values: np.ndarray, hole: np.ndarray) -> np.ndarray:
    """The first guess on the coarsest level: Telea's fill (it carries edges such as a horizon into
    a hole a few pixels wide) on an 8-bit copy, in groups of 3 channels or one by one."""
    top = max(1.0, float(values.max()))
    scale = 255.0 / top if top > 255 else 1.0
    mask = hole.astype(np.uint8)
    out = values.copy()
    c = values.shape[2]
    # cv2.inpaint takes 1 or 3 channels
    groups = [(k, k + 3) for k in range(0, c - c % 3, 3)] + [(k, k + 1) for k in range(c - c % 3, c)]
    for start, stop in groups:
        group = values[:, :, start:stop]
        u8 = np.clip(group * scale + 0.5, 0, 255).astype(np.uint8)
        filled = cv2.inpaint(np.ascontiguousarray(u8), mask, 3, cv2.INPAINT_TELEA)
        filled = filled.reshape(u8.shape).astype(np.float32) / scale
        out[:, :, start:start + u8.shape[2]][hole] = filled[hole]
    return out


def _resize(img: np.ndarray, size: tuple[int, int], interpolation: int) -> np.ndarray:
    return per_group(lambda a: cv2.resize(a, size, interpolation=interpolation), img)


class _Level:
    """The matching structures of one pyramid level: valid sources, their prior, and targets."""

    def __init__(self, hole: np.ndarray, r: int, band: int, size: float, nc: int, free: float,
                 avoid: np.ndarray | None = None):
        self.h, self.w = hole.shape
        self.r = r
        k = np.ones((2 * r + 1, 2 * r + 1), np.uint8)
        near = cv2.dilate(hole.astype(np.uint8), k) > 0
        # Sources keep ``band`` pixels clear of the hole: an object's shadow and halo lie there.
        kb = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * (r + band) + 1,) * 2)
        valid = cv2.dilate(hole.astype(np.uint8), kb) == 0
        valid[:r], valid[self.h - r:], valid[:, :r], valid[:, self.w - r:] = False, False, False, False
        if avoid is not None and avoid.any():  # no patch that overlaps what is not to be copied
            spared = valid & (cv2.dilate(avoid.astype(np.uint8), k) == 0)
            valid = spared if spared.sum() >= AVOID_MIN_SOURCES else valid
        if not valid.any():  # a hole that leaves no whole patch: any known pixel will do
            valid = ~hole
        if not valid.any():  # a coarse level where the hole covers everything
            raise ValueError("the mask leaves too little of the image to fill it from")
        self.valid = np.ascontiguousarray(valid)
        d = cv2.distanceTransform((~hole).astype(np.uint8), cv2.DIST_L2, 3)
        npix = (2 * r + 1) ** 2 * nc / 3.0
        self.prior = np.ascontiguousarray((DIST_WEIGHT * npix * (d / max(size, 1.0)) ** 2).astype(np.float32))
        self.near = max(2.0, free * size)  # sources this far from their target cost nothing more
        self.far_w = FAR_WEIGHT * npix
        vy, vx = np.nonzero(valid)
        self.vy, self.vx = vy.astype(np.int32), vx.astype(np.int32)
        ty, tx = np.nonzero(near)  # every patch that overlaps the hole is matched
        self.ty, self.tx = ty.astype(np.int32), tx.astype(np.int32)
        self.tidx = np.full((self.h, self.w), -1, np.int32)
        self.tidx[ty, tx] = np.arange(len(ty), dtype=np.int32)
        self.offy = np.zeros((self.h, self.w), np.float32)
        self.offx = np.zeros((self.h, self.w), np.float32)

    def random_sources(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        i = rng.integers(0, len(self.vy), n)
        return self.vy[i].copy(), self.vx[i].copy()


def _match(feat, lv: _Level, sy, sx, seed: int) -> np.ndarray:
    """Improve the matches (in place) and return the patch weights for voting."""
    d = _patchmatch(feat, lv.valid, lv.prior, lv.ty, lv.tx, lv.tidx, sy, sx, lv.r, 2, seed,
                    lv.near, lv.far_w)
    fin = np.isfinite(d)
    sigma2 = float(np.median(d[fin])) if fin.any() else 1.0
    return np.where(fin, np.exp(-d / (2 * sigma2 + 1e-6)), 0.0).astype(np.float32)


def _seamless(v, nc, hole, lv: _Level, sy, sx, wt) -> np.ndarray:
    """The final vote: each hole pixel copies one source pixel (the offset most of the patches
    covering it share, :func:`_vote` mode 2), and the seam such a copy leaves against the photo
    around the hole is taken out by a membrane (Perez et al. 2003, Poisson image editing): the
    ring's residual (:func:`_ring_residual`) interpolated harmonically into the hole."""
    pred = _vote(v, nc, hole, lv.tidx, sy, sx, wt, lv.r, 2, lv.offy, lv.offx)[:, :, :nc]
    res = np.zeros_like(v)
    ring = _ring_residual(np.ascontiguousarray(v), nc, hole, lv.offy, lv.offx, res)
    out = v.copy()
    _, _, bw, bh = cv2.boundingRect(hole.astype(np.uint8))
    out[hole] = pred[hole] + membrane(res, ring, hole, FADE * max(bw, bh))[hole]
    return out


def _texture(values: np.ndarray) -> np.ndarray:
    """Texture features (Newson et al. 2017, "Non-local patch-based image inpainting"): the mean
    absolute x and y derivative of the grey image over a patch, so that a textured place is not
    matched to a smooth one of the same colour (their coarse copies look alike)."""
    g = values.mean(axis=2)
    gx = np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=1))
    gy = np.abs(cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=1))
    return np.stack([cv2.blur(gx, (7, 7)), cv2.blur(gy, (7, 7))], axis=2)


def _patch_fill(values: np.ndarray, hole: np.ndarray, band: float, rng, avoid: np.ndarray | None = None):
    """Multi-scale fill of ``hole`` in ``values`` (float32, H x W x C, 8-bit units), from sources
    that do not overlap ``avoid``. Returns the estimate and the finest level (whose
    ``offy``/``offx`` hold each hole pixel's source offset)."""
    c = values.shape[2]
    # The texture features are matched and voted like two more colours; the region label
    # (editor.fill_regions), where the surroundings are 2 or 3 regions, like one more per region, fixed in the hole.
    guide = fill_regions.region_guide(values, hole) if REGION_WEIGHT > 0 else None
    extra = [TEXTURE_WEIGHT * _texture(values)] + ([REGION_WEIGHT * guide] if guide is not None else [])
    values = np.concatenate([values, *extra], axis=2)
    nc = values.shape[2]
    ng = 0 if guide is None else guide.shape[2]
    if avoid is None:
        avoid = np.zeros(hole.shape, bool)
    levels = [(values, hole, avoid)]
    while min(levels[-1][1].shape) >= 2 * MIN_SIDE:
        v, hl, av = levels[-1]
        if cv2.distanceTransform(hl.astype(np.uint8), cv2.DIST_L2, 3).max() <= COARSE_DEPTH:
            break
        size = ((v.shape[1] + 1) // 2, (v.shape[0] + 1) // 2)
        levels.append((_resize(v, size, cv2.INTER_AREA),
                       cv2.resize(hl.astype(np.float32), size, interpolation=cv2.INTER_AREA) > 0,
                       cv2.resize(av.astype(np.float32), size, interpolation=cv2.INTER_AREA) > 0))
    n = len(levels)
    _, _, bw, bh = cv2.boundingRect(hole.astype(np.uint8))
    est = sy = sx = lv = None

    def fixed(e, v, hl):  # the label is the guide's in the hole, whatever the votes made of it
        if ng:
            e[:, :, nc - ng:][hl] = v[:, :, nc - ng:][hl]
        return e

    for depth in range(n - 1, -1, -1):
        v, hl, av = levels[depth]
        f = 2.0 ** -depth
        r = PATCH_R if min(hl.shape) >= 40 else PATCH_R - 1
        free = NEAR_COARSE if depth >= n - 2 else NEAR
        new = _Level(hl, r, max(1, round(band * f)), max(bw, bh) * f / 2, nc, free, av)
        if est is None:
            est = fixed(coarse_fill(v, hl), v, hl)
            sy, sx = new.random_sources(len(new.ty), rng)
        else:
            # The coarse matches, scaled up, start the search here.
            cy, cx = np.minimum(new.ty // 2, lv.h - 1), np.minimum(new.tx // 2, lv.w - 1)
            q = lv.tidx[cy, cx]
            coarse_y, coarse_x = sy, sx
            sy, sx = new.random_sources(len(new.ty), rng)
            has = q >= 0
            sy[has] = np.clip(coarse_y[q[has]] * 2 + new.ty[has] % 2, 0, new.h - 1)
            sx[has] = np.clip(coarse_x[q[has]] * 2 + new.tx[has] % 2, 0, new.w - 1)
            bad = ~new.valid[sy, sx]
            sy[bad], sx[bad] = new.random_sources(int(bad.sum()), rng)
            # Rebuild the hole from this level's own pixels through the scaled-up matches, not
            # from the coarse estimate resized: that one is smooth, and matching a smooth hole
            # finds the flattest patches of the photo.
            est = fixed(_vote(v, nc, hl, new.tidx, sy, sx, np.ones(len(sy), np.float32), r, 0, new.offy, new.offx),
                        v, hl)
        lv = new
        for it in range(_ITERATIONS):
            wt = _match(np.ascontiguousarray(est), lv, sy, sx, int(rng.integers(1 << 30)) + it)
            if depth == 0 and it == _ITERATIONS - 1:
                est = _seamless(v, nc, hl, lv, sy, sx, wt)
            else:
                # Expectation-maximisation (Wexler et al. 2007): the weighted mean of the
                # overlapping matches, which the next round of matching sharpens.
                est = fixed(_vote(est, nc, hl, lv.tidx, sy, sx, wt, lv.r, 0, lv.offy, lv.offx), v, hl)
    return est[:, :, :c], lv


def inpaint(image: np.ndarray, mask: np.ndarray, *, seed: int = 0, settle: bool = True,
            avoid: np.ndarray | None = None) -> np.ndarray:
    """Fill the pixels where ``mask`` is set from the rest of the image (multi-scale exemplar fill).

    Parameters
    ----------
    image : ndarray
        ``uint8`` or ``uint16`` grey, RGB or RGBA image (alpha is filled like the colours).
    mask : ndarray
        ``(H, W)`` bool or numeric; nonzero (above 0.5 for floats) marks the pixels to fill. An
        empty mask returns an identical copy; a mask over the whole image raises ``ValueError``.
    seed : int
        Seed of the random search, so a fill is reproducible.
    settle : bool
        Settle the exemplar fill's faint fine texture on a membrane (:mod:`editor.fill_settle`:
        its band between sigmas 1 and 6 where that is weak and not known to be in phase; its
        finer detail, coarser structure and shading kept, but for the shading where the
        surroundings have no coarse structure), then carry thin lines across the hole.
        ``False`` keeps the copied pixels as they are.
    avoid : ndarray, optional
        ``(H, W)`` mask of pixels not to copy into the hole: the other things in the picture (a
        removed camel's hole filled with pieces of the calf beside it showed as a ghost calf).
        Ignored where it would leave too few sources.

    Returns
    -------
    ndarray
        A new image of the same shape and dtype, equal to ``image`` outside the mask; inside,
        pieces of the hole's surroundings, seamed into it (see the module's description).

    Examples
    --------
    >>> img = np.tile(np.arange(64, dtype=np.uint8) * 4, (64, 1))
    >>> hole = np.zeros((64, 64), bool); hole[20:40, 20:40] = True
    >>> out = inpaint(img, hole)
    >>> bool((out[~hole] == img[~hole]).all()), int(np.abs(out[hole].astype(int) - img[hole]).mean()) < 12
    (True, True)
    """
    check_image(image)
    hole = _check_hole(mask, image)
    if not hole.any():
        return image.copy()
    _compile()
    if hole.all():
        raise ValueError("the mask covers the whole image: there is nothing left to fill it from")
    groups = hole_groups(hole)
    if len(groups) == 1:
        return _inpaint_one(image, hole, seed, settle, avoid)
    # Holes far apart are filled one group at a time, each from its own surroundings: filled as
    # one, 14 tourists along a square made one hole as wide as the photo, seen at a 384-pixel copy
    # where each was a few pixels, with sources "near" it anywhere in the photo (the Eiffel Tower's
    # lattice was copied onto the lawn). The holes not yet filled are no source (``avoid``).
    out = image
    pending = hole.copy()
    for group in groups:
        pending &= ~group
        out = _inpaint_one(out, group, seed, settle, pending if avoid is None else (avoid | pending))
    return out


def hole_groups(hole: np.ndarray) -> list[np.ndarray]:
    """The pieces of ``hole`` to fill together: its connected parts, joined where their boxes, each
    grown by :data:`GROUP_REACH` of its larger side, meet (a person's legs apart from the body, or
    a group of people, are one fill). Largest first."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(hole.astype(np.uint8), connectivity=8)
    if n <= 2:
        return [hole]
    boxes = []
    for i in range(1, n):
        x, y, bw, bh = stats[i, :4]
        g = GROUP_REACH * max(bw, bh)
        boxes.append((x - g, y - g, x + bw + g, y + bh + g))
    parent = list(range(n - 1))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n - 1):
        for j in range(i + 1, n - 1):
            a, b = boxes[i], boxes[j]
            if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                parent[root(i)] = root(j)
    roots = np.array([root(i) for i in range(n - 1)])
    lut = np.concatenate([[-1], roots])
    grouped = lut[labels]
    groups = [grouped == r for r in np.unique(roots)]
    return sorted(groups, key=lambda g: -int(g.sum()))


def _inpaint_one(image: np.ndarray, hole: np.ndarray, seed: int, settle: bool, avoid: np.ndarray | None) -> np.ndarray:
    """:func:`inpaint` of one group of holes (:func:`hole_groups`)."""
    h, w = hole.shape
    x, y, bw, bh = cv2.boundingRect(hole.astype(np.uint8))
    written = hole
    if avoid is not None:
        # What is to be avoided next to the hole is filled too, then left as it was: the fill is
        # neither copied from it nor shaded by it (a calf's white head beside the camel removed
        # bled into the hole from its edge), and meets it as an object in front.
        avoid = _check_hole(avoid, image) & ~hole
        m = max(3, int(AVOID_MARGIN * max(bw, bh)))
        # (a distance transform: a dilation by an ellipse half the hole wide took minutes at 9 MP)
        near = cv2.distanceTransform((~hole).astype(np.uint8), cv2.DIST_L2, 3) <= m
        grown = hole | (avoid & near)
        if not grown.all():
            hole = grown
            x, y, bw, bh = cv2.boundingRect(hole.astype(np.uint8))
    pad = int(CONTEXT * max(bw, bh)) + 16
    x1, y1, x2, y2 = max(0, x - pad), max(0, y - pad), min(w, x + bw + pad), min(h, y + bh + pad)
    sub = image[y1:y2, x1:x2]
    if sub.ndim == 2:
        sub = sub[:, :, None]
    sub_hole = np.ascontiguousarray(hole[y1:y2, x1:x2])
    sub_avoid = None if avoid is None else avoid[y1:y2, x1:x2] & ~sub_hole
    rng = np.random.default_rng(seed)
    band = max(2.0, BAND * max(bw, bh))  # sources keep this far from the hole (full-resolution pixels)
    scale = min(1.0, WORK_SIDE / max(sub_hole.shape))
    if scale < 1:
        size = (max(8, round(sub.shape[1] * scale)), max(8, round(sub.shape[0] * scale)))
        work = cv2.resize(sub, size, interpolation=cv2.INTER_AREA).reshape(size[1], size[0], -1).astype(np.float32)
        work_hole = cv2.resize(sub_hole.astype(np.float32), size, interpolation=cv2.INTER_AREA) > 0
        work_avoid = None if sub_avoid is None else cv2.resize(
            sub_avoid.astype(np.float32), size, interpolation=cv2.INTER_AREA) > 0
    else:
        work, work_hole, work_avoid = sub.astype(np.float32), sub_hole, sub_avoid
    if work_hole.all():
        raise ValueError("the mask leaves too little of the image to fill it from")
    unit = full_scale(image) / 255.0  # the matching's costs are in 8-bit levels
    est, lv = _patch_fill(work / unit, work_hole, band * scale, rng, work_avoid)
    trust = fill_settle.trust(work / unit, work_hole, lv.offy, lv.offx, max(1.0, TRUST_SIGMA * scale)) if settle else None
    est *= unit
    if scale == 1:
        filled, box = est, (0, 0, sub.shape[1], sub.shape[0])
    else:
        filled, box = _full_resolution(sub, sub_hole, est, lv, scale)
    # The settling blurs: its box keeps 3 sigmas of photo around the hole.
    hx, hy, hw, hh = cv2.boundingRect(sub_hole.astype(np.uint8))
    g = int(3 * SETTLE_BAND) + 2
    bx, by = max(0, hx - g), max(0, hy - g)
    bx2, by2 = min(sub.shape[1], hx + hw + g), min(sub.shape[0], hy + hh + g)
    canvas = sub[by:by2, bx:bx2].astype(np.float32)
    inner = (slice(hy - by, hy - by + hh), slice(hx - bx, hx - bx + hw))
    fbox = filled[hy - box[1]:hy - box[1] + hh, hx - box[0]:hx - box[0] + hw]
    hole_in = sub_hole[hy:hy + hh, hx:hx + hw]
    canvas[inner][hole_in] = fbox.reshape(hh, hw, -1)[hole_in]
    if settle and scale < 1:
        trust = cv2.resize(trust, (sub.shape[1], sub.shape[0]), interpolation=cv2.INTER_LINEAR)
    if settle:
        coarse = fill_settle.coarse_strength(sub, sub_hole, unit)[by:by2, bx:bx2]
        filled = fill_settle.settle(canvas, sub_hole[by:by2, bx:bx2], canvas, trust[by:by2, bx:bx2], unit, coarse)
        # Lines that cross the hole, looked for in its surroundings (the region around the box).
        lm = max(g, int(fill_lines.RING * max(hh, hw)) + 4)
        ly, lx = max(0, hy - lm), max(0, hx - lm)
        ly2, lx2 = min(sub.shape[0], hy + hh + lm), min(sub.shape[1], hx + hw + lm)
        lines = fill_lines.find_lines(sub[ly:ly2, lx:lx2], sub_hole[ly:ly2, lx:lx2], unit)
        if lines:
            around = sub[ly:ly2, lx:lx2].astype(np.float32)
            around[by - ly:by2 - ly, bx - lx:bx2 - lx] = filled.reshape(by2 - by, bx2 - bx, -1)
            around = fill_lines.carry_lines(around, sub[ly:ly2, lx:lx2], sub_hole[ly:ly2, lx:lx2], lines)
            filled = around[by - ly:by2 - ly, bx - lx:bx2 - lx].reshape(filled.shape)
    else:
        filled = canvas
    m = full_scale(image)
    out = image.copy()
    region = out[y1 + by:y1 + by2, x1 + bx:x1 + bx2]
    inside = written[y1 + by:y1 + by2, x1 + bx:x1 + bx2]
    filled = filled.reshape(by2 - by, bx2 - bx, -1)
    res = np.clip(np.floor(filled[inside] + 0.5), 0, m).astype(image.dtype)
    region[inside] = res.reshape(region[inside].shape)
    return out


def _full_resolution(sub: np.ndarray, hole: np.ndarray, work: np.ndarray, lv: _Level, scale: float):
    """The hole at full resolution: each pixel from the full-resolution source pixels the work
    level's matches point to (the photo's own detail), then the low band replaced by the work
    estimate's (so the seams and the shading follow the work fill). Returns the filled box of
    ``sub`` (float32) and its place (x1, y1, x2, y2) in ``sub``."""
    H, W = hole.shape
    wh, ww = lv.h, lv.w
    fy, fx = wh / H, ww / W
    sigma = LOWBAND / scale
    m = int(3 * sigma) + 2
    x, y, bw, bh = cv2.boundingRect(hole.astype(np.uint8))
    bx1, by1, bx2, by2 = max(0, x - m), max(0, y - m), min(W, x + bw + m), min(H, y + bh + m)
    # The work estimate at full resolution over the box (bilinear), and the known pixels.
    gx = ((np.arange(bx1, bx2, dtype=np.float32) + 0.5) * fx - 0.5)
    gy = ((np.arange(by1, by2, dtype=np.float32) + 0.5) * fy - 0.5)
    mapx, mapy = np.meshgrid(gx, gy)
    up = cv2.remap(work, mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    up = up.reshape(by2 - by1, bx2 - bx1, -1)
    known = sub[by1:by2, bx1:bx2].astype(np.float32)
    inside = hole[by1:by2, bx1:bx2]
    target = known.copy()
    target[inside] = up[inside]
    # The hole and a one-pixel ring around it are copied: the ring's copy against the photo there
    # is the seam a plain copy leaves, which a membrane then takes out of the hole.
    ring_hole = cv2.dilate(inside.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    ring = ring_hole & ~inside
    fill = np.zeros(hole.shape, bool)
    fill[by1:by2, bx1:bx2] = ring_hole
    est = target.copy()
    _compose(np.ascontiguousarray(sub), fill, hole, by1, bx1, lv.offy, lv.offx, fy, fx, est)
    est[ring_hole] += blur(target - est, sigma)[ring_hole]
    # What seam is left is fine detail (the low band is the work fill's, seamless already): its
    # membrane is solved in a band along the edge, held at 0 beyond it.
    depth = cv2.distanceTransform(inside.astype(np.uint8), cv2.DIST_L2, 3)
    width = max(4.0, 2.0 / scale)
    band = inside & (depth <= width)
    res = np.zeros_like(est)
    res[ring] = known[ring] - est[ring]
    fill_settle.relax(res, band, int(2 * width) + 4, 1.7, 0.0)
    est[band] += res[band]
    est[ring] = known[ring]
    return est, (bx1, by1, bx2, by2)


def hole_psnr(result: np.ndarray, clean: np.ndarray, hole: np.ndarray) -> float:
    """PSNR (dB) of ``result`` against ``clean`` over the ``hole`` pixels only."""
    m = full_scale(clean)
    diff = result[hole].astype(np.float64) - clean[hole].astype(np.float64)
    mse = float(np.mean(diff ** 2))
    return math.inf if mse == 0 else 10 * math.log10(m * m / mse)
