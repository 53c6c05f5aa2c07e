"""Inpainting: fill a masked region of an image from its surroundings.

:func:`inpaint` is a multi-scale exemplar method in the spirit of Wexler, Shechtman and Irani's
"Space-Time Completion" with PatchMatch (Barnes et al. 2009) as the matcher:

1. Only the region around the hole is looked at (its bounding box grown by the hole's size), on a
   copy at most :data:`WORK_SIDE` pixels a side, and a pyramid of that copy is built until the hole
   is about 3 pixels deep (or the copy 24 pixels a side).
2. On the coarsest level the hole is filled by Telea's method (``cv2.inpaint``), which carries
   edges such as a horizon a few pixels in.
3. On every level, coarse to fine: every 7x7 patch that overlaps the hole is matched to a patch
   wholly outside it (PatchMatch: propagation plus random search, seeded, 2 passes), and each hole
   pixel is re-estimated from the matches of the patches that cover it: their weighted mean
   (weights ``exp(-d/(2 median d))``) on the two coarsest levels, which keeps structure stable,
   and the best-matching patch's pixel on the finer ones, which keeps texture (the mean of patches
   that disagree is a blur). Three rounds a level; the matches are scaled up to start the next.
4. At full resolution the matches are scaled up once more and each hole pixel averages the
   full-resolution source pixels that its 5x5 neighbours' matches point to, so the fill has the
   photo's own detail rather than an upscaled copy.

Diffusion fills such as Telea's smear the hole's border into streaks once the hole is more than a
few pixels wide; ``bench/remove.py`` compares the two on composed photos. The matching and voting
loops are compiled by numba (``cache=True``: compiled once per installation). Pixels outside the
mask are returned unchanged.
"""

from __future__ import annotations

import math
import threading

import cv2
import numpy as np

from editor.ops import check_image, full_scale

__all__ = ["hole_psnr", "inpaint"]

WORK_SIDE = 384  # the matching runs on a copy of the region at most this many pixels a side
MIN_SIDE = 24  # the coarsest pyramid level keeps at least this many pixels a side
_ITERATIONS = 3  # match-and-vote rounds per pyramid level
UPSAMPLE_RADIUS = 2


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

        g = globals()
        for name in ("_dist", "_patchmatch", "_vote", "_upsample_kernel"):
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


def _patchmatch(img, valid, ty, tx, tidx, sy, sx, r, iters, seed):
    """PatchMatch (Barnes et al. 2009): scan the targets in raster order (reversed every other
    pass), take a neighbour's match shifted by one if it is better, then search at random around
    the current match with a halving radius. Returns the distances of the final matches."""
    np.random.seed(seed)
    h, w = valid.shape
    n = len(ty)
    d = np.empty(n, np.float32)
    for i in range(n):
        d[i] = _dist(img, ty[i], tx[i], sy[i], sx[i], r, np.inf)
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
                dd = _dist(img, y, x, cy, cx, r, d[i])
                if dd < d[i]:
                    d[i], sy[i], sx[i] = dd, cy, cx
            radius = max(h, w)
            while radius >= 1:
                cy = sy[i] + np.random.randint(-radius, radius + 1)
                cx = sx[i] + np.random.randint(-radius, radius + 1)
                if 0 <= cy < h and 0 <= cx < w and valid[cy, cx]:
                    dd = _dist(img, y, x, cy, cx, r, d[i])
                    if dd < d[i]:
                        d[i], sy[i], sx[i] = dd, cy, cx
                radius //= 2
    return d


def _vote(img, hole, tidx, sy, sx, wt, r, best_only):
    """Each hole pixel becomes the weighted mean of what the patches covering it say it is
    (``best_only``: what the best-matching patch covering it says, which keeps texture sharp)."""
    h, w, c = img.shape
    out = img.copy()
    acc = np.zeros(c, np.float64)
    for y in range(h):
        for x in range(w):
            if not hole[y, x]:
                continue
            acc[:] = 0.0
            den = 0.0
            top = -1.0
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
                    if best_only:
                        if wt[q] > top:
                            top = wt[q]
                            for k in range(c):
                                acc[k] = img[py, px, k]
                            den = 1.0
                        continue
                    for k in range(c):
                        acc[k] += wt[q] * img[py, px, k]
                    den += wt[q]
            if den > 0:
                for k in range(c):
                    out[y, x, k] = acc[k] / den
    return out


def coarse_fill(values: np.ndarray, hole: np.ndarray) -> np.ndarray:
    """The first guess on the coarsest level: Telea's fill (it carries edges such as a horizon into
    a hole a few pixels wide) on an 8-bit copy, per group of at most 3 channels."""
    top = max(1.0, float(values.max()))
    scale = 255.0 / top if top > 255 else 1.0
    mask = hole.astype(np.uint8)
    out = values.copy()
    c = values.shape[2]
    for start in range(0, c, 3):
        group = values[:, :, start:min(c, start + 3)]
        u8 = np.clip(group * scale + 0.5, 0, 255).astype(np.uint8)
        filled = cv2.inpaint(np.ascontiguousarray(u8), mask, 3, cv2.INPAINT_TELEA)
        filled = filled.reshape(u8.shape).astype(np.float32) / scale
        out[:, :, start:start + u8.shape[2]][hole] = filled[hole]
    return out


class _Level:
    """The matching structures of one pyramid level: valid sources and targets."""

    def __init__(self, hole: np.ndarray, r: int):
        self.h, self.w = hole.shape
        self.r = r
        k = np.ones((2 * r + 1, 2 * r + 1), np.uint8)
        near = cv2.dilate(hole.astype(np.uint8), k) > 0
        valid = ~near
        valid[:r], valid[self.h - r:], valid[:, :r], valid[:, self.w - r:] = False, False, False, False
        if not valid.any():  # a hole that leaves no whole patch: any known pixel will do
            valid = ~hole
        self.valid = np.ascontiguousarray(valid)
        vy, vx = np.nonzero(valid)
        self.vy, self.vx = vy.astype(np.int32), vx.astype(np.int32)
        ty, tx = np.nonzero(near)  # every patch that overlaps the hole is matched
        self.ty, self.tx = ty.astype(np.int32), tx.astype(np.int32)
        self.tidx = np.full((self.h, self.w), -1, np.int32)
        self.tidx[ty, tx] = np.arange(len(ty), dtype=np.int32)

    def random_sources(self, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        i = rng.integers(0, len(self.vy), n)
        return self.vy[i].copy(), self.vx[i].copy()


def _match_and_vote(est, hole, lv: _Level, sy, sx, seed: int, best_only: bool):
    d = _patchmatch(est, lv.valid, lv.ty, lv.tx, lv.tidx, sy, sx, lv.r, 2, seed)
    fin = np.isfinite(d)
    sigma2 = float(np.median(d[fin])) if fin.any() else 1.0
    wt = np.where(fin, np.exp(-d / (2 * sigma2 + 1e-6)), 0.0).astype(np.float32)
    return _vote(est, hole, lv.tidx, sy, sx, wt, lv.r, best_only)


def _patch_fill(values: np.ndarray, hole: np.ndarray, rng) -> tuple[np.ndarray, _Level, np.ndarray, np.ndarray]:
    levels = [(values, hole)]
    while min(levels[-1][1].shape) >= 2 * MIN_SIDE:
        v, hl = levels[-1]
        if cv2.distanceTransform((hl > 0).astype(np.uint8), cv2.DIST_L2, 3).max() <= 3:
            break
        size = ((v.shape[1] + 1) // 2, (v.shape[0] + 1) // 2)
        v2 = cv2.resize(v, size, interpolation=cv2.INTER_AREA).reshape(size[1], size[0], -1)
        h2 = cv2.resize(hl.astype(np.float32), size, interpolation=cv2.INTER_AREA) > 0
        levels.append((v2, h2))
    est = sy = sx = lv = None
    for depth, (v, hl) in reversed(list(enumerate(levels))):
        r = 3 if min(hl.shape) >= 40 else 2
        new = _Level(hl, r)
        if est is None:
            est = coarse_fill(v, hl)
            sy, sx = new.random_sources(len(new.ty), rng)
        else:
            up = cv2.resize(est, (hl.shape[1], hl.shape[0]), interpolation=cv2.INTER_LINEAR)
            est = v.copy()
            est[hl] = up.reshape(v.shape)[hl]
            # The coarse matches, scaled up, start the search here.
            cy, cx = np.minimum(new.ty // 2, lv.h - 1), np.minimum(new.tx // 2, lv.w - 1)
            q = lv.tidx[cy, cx]
            coarse_y, coarse_x = sy, sx
            sy, sx = new.random_sources(len(new.ty), rng)
            has = q >= 0
            sy[has] = coarse_y[q[has]] * 2 + new.ty[has] % 2
            sx[has] = coarse_x[q[has]] * 2 + new.tx[has] % 2
            np.clip(sy, 0, new.h - 1, out=sy)
            np.clip(sx, 0, new.w - 1, out=sx)
            # Rebuild the hole from this level's own pixels through the scaled-up matches, not
            # from the coarse estimate resized: that one is smooth, and matching a smooth hole
            # finds the flattest patches of the photo, so the fill lost half its contrast on grass.
            est = _vote(np.ascontiguousarray(est), hl, new.tidx, sy, sx,
                        np.ones(len(sy), np.float32), r, depth < len(levels) - 2)
        lv = new
        for it in range(_ITERATIONS):
            # The two coarsest levels vote by the weighted mean (stable structure: a horizon stays
            # a line); finer ones take the best-matching patch's pixel, since the mean of patches
            # that disagree is a blur (on gravel the all-mean fill came out flat grey).
            est = _match_and_vote(np.ascontiguousarray(est), hl, lv, sy, sx,
                                  int(rng.integers(1 << 30)) + it, best_only=depth < len(levels) - 2)
    return est, lv, sy, sx


def _upsample_kernel(full, hole, work, tidx, offy, offx, out, rad):
    """For each full-resolution hole pixel, average the source pixels that the scaled-up matches of
    its 5x5 neighbours point to (sources outside the hole only); the scaled-up work estimate where
    none qualifies."""
    h, w, c = full.shape
    wh, ww = tidx.shape
    fy, fx = wh / h, ww / w
    acc = np.zeros(c, np.float64)
    for y in range(h):
        for x in range(w):
            if not hole[y, x]:
                continue
            acc[:] = 0.0
            n = 0
            for oy in range(-rad, rad + 1):
                qy = min(max(y - oy, 0), h - 1)
                wy = min(int(qy * fy), wh - 1)
                for ox in range(-rad, rad + 1):
                    qx = min(max(x - ox, 0), w - 1)
                    wx = min(int(qx * fx), ww - 1)
                    if tidx[wy, wx] < 0:
                        continue
                    sy = y + int(round(offy[wy, wx]))
                    sx = x + int(round(offx[wy, wx]))
                    if sy < 0 or sy >= h or sx < 0 or sx >= w or hole[sy, sx]:
                        continue
                    for k in range(c):
                        acc[k] += full[sy, sx, k]
                    n += 1
            if n > 0:
                for k in range(c):
                    out[y, x, k] = acc[k] / n
            else:
                # bilinear sample of the work estimate
                gy = min(max((y + 0.5) * fy - 0.5, 0.0), wh - 1.0)
                gx = min(max((x + 0.5) * fx - 0.5, 0.0), ww - 1.0)
                y0, x0 = int(gy), int(gx)
                y1, x1 = min(y0 + 1, wh - 1), min(x0 + 1, ww - 1)
                ay, ax = gy - y0, gx - x0
                for k in range(c):
                    out[y, x, k] = ((1 - ay) * ((1 - ax) * work[y0, x0, k] + ax * work[y0, x1, k])
                                    + ay * ((1 - ax) * work[y1, x0, k] + ax * work[y1, x1, k]))


def _upsample(full: np.ndarray, hole: np.ndarray, work: np.ndarray, lv: _Level, sy, sx) -> np.ndarray:
    """Fill the full-resolution hole of ``full`` (a float copy, filled in place) from the work
    level's matches scaled up (:func:`_upsample_kernel`)."""
    h, w = hole.shape
    fy, fx = lv.h / h, lv.w / w
    offy = np.zeros((lv.h, lv.w), np.float32)
    offx = np.zeros((lv.h, lv.w), np.float32)
    offy[lv.ty, lv.tx] = (sy - lv.ty) / fy
    offx[lv.ty, lv.tx] = (sx - lv.tx) / fx
    # In place: the kernel reads only pixels outside the hole and writes only pixels inside it.
    _upsample_kernel(full, np.ascontiguousarray(hole), np.ascontiguousarray(work), lv.tidx, offy, offx,
                     full, UPSAMPLE_RADIUS)
    return full


def inpaint(image: np.ndarray, mask: np.ndarray, *, seed: int = 0) -> np.ndarray:
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

    Returns
    -------
    ndarray
        A new image equal to ``image`` outside the mask; inside, patches of the surroundings
        (7x7 patch matching with weighted voting, coarse to fine, then the matches scaled up to
        full resolution).

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
    h, w = hole.shape
    x, y, bw, bh = cv2.boundingRect(hole.astype(np.uint8))
    pad = max(bw, bh) + 16  # context as large as the hole itself
    x1, y1, x2, y2 = max(0, x - pad), max(0, y - pad), min(w, x + bw + pad), min(h, y + bh + pad)
    sub = image[y1:y2, x1:x2]
    sub_hole = hole[y1:y2, x1:x2]
    vals = sub.astype(np.float32).reshape(sub.shape[0], sub.shape[1], -1)
    rng = np.random.default_rng(seed)
    scale = min(1.0, WORK_SIDE / max(sub_hole.shape))
    if scale < 1:
        size = (max(8, round(sub.shape[1] * scale)), max(8, round(sub.shape[0] * scale)))
        work = cv2.resize(vals, size, interpolation=cv2.INTER_AREA).reshape(size[1], size[0], -1)
        work_hole = cv2.resize(sub_hole.astype(np.float32), size, interpolation=cv2.INTER_AREA) > 0
    else:
        work, work_hole = vals, sub_hole
    if work_hole.all():
        raise ValueError("the mask leaves too little of the image to fill it from")
    est, lv, sy, sx = _patch_fill(work, work_hole, rng)
    filled = est if scale == 1 else _upsample(vals, sub_hole, est, lv, sy, sx)
    m = full_scale(image)
    res = np.clip(np.floor(filled[sub_hole] + 0.5), 0, m).astype(image.dtype)
    out = image.copy()
    region = out[y1:y2, x1:x2]
    region[sub_hole] = res.reshape(region[sub_hole].shape)
    return out


def hole_psnr(result: np.ndarray, clean: np.ndarray, hole: np.ndarray) -> float:
    """PSNR (dB) of ``result`` against ``clean`` over the ``hole`` pixels only."""
    m = full_scale(clean)
    diff = result[hole].astype(np.float64) - clean[hole].astype(np.float64)
    mse = float(np.mean(diff ** 2))
    return math.inf if mse == 0 else 10 * math.log10(m * m / mse)
