"""Is a changed region only the global edit's colour map? A test by the colours of the rest.

A global edit (brightness, contrast, saturation, warmth, hue, curves, black and white, a tint, and
several of them in a row, with clipping) gives every pixel of one colour the same new colour,
wherever it is. The engine's parametric models of such edits fit most of a photo, but what they
miss (a curve's bend, a hue turned through clipping, warmth on a saturated sky) is left in the
residual and, thresholded, looked like a local change: "a beige object was added at the top".

Here the leftover error of the parametric model is learned as a function of the *before* colour
alone, from the pixels outside every changed region (tables over RGB grids of 4 to 16 levels a bin). A region
whose pixels the table predicts (the same before colour went to the same after colour elsewhere in
the picture) changed as the whole picture did: nothing was added, removed or recoloured there. A
real local change breaks the rule: the same before colour went somewhere else than in the rest of
the picture. Where the region's before colours do not occur outside it, nothing is known and the
region is kept.
"""

from __future__ import annotations

import cv2
import numpy as np

LEVELS = (64, 32, 16)  # bins per channel, finest first: 4, 8 and 16 levels a bin
MIN_SUPPORT = 5  # pixels outside the changed regions that a bin needs to be trusted
CHANNEL_STEP = 4  # the per-channel maps' bins: 4 levels a bin
CHANNEL_REACH = 24  # ... trusted this many levels beyond the nearest bin seen outside
NEAR = 12.0  # a pixel within this (0..255, largest channel) of the table's colour follows the map


class ColourTable:
    """The parametric model's leftover error as a function of the before colour.

    Tables at three bin sizes: a pixel is looked up in the finest bin that enough pixels outside
    the changed regions share (a fine bin follows a steep curve; a coarse one reaches colours
    that are rare outside)."""

    def __init__(self, before: np.ndarray, after: np.ndarray, pred: np.ndarray, outside: np.ndarray,
                 valid: np.ndarray | None = None):
        self.before = before
        self.err = after.astype(np.float32) - pred.astype(np.float32)
        sel = np.broadcast_to(outside, before.shape[:2]).ravel()
        self.poly = _fit_poly(before, self.err, np.ones(before.shape[:2], bool) if valid is None else valid)
        e = self.err.reshape(-1, 3)[sel]
        # Per channel, the error as a function of that channel's before value alone: most global
        # edits (levels, curves, brightness, contrast, warmth) map each channel on its own, which
        # reaches colours the rest of the picture does not have (a cubic misses a levels clip).
        self.channel = []
        for c in range(3):
            v = before[..., c].ravel()[sel].astype(np.int32) // CHANNEL_STEP
            count = np.bincount(v, minlength=256 // CHANNEL_STEP)
            mean = np.bincount(v, weights=e[:, c], minlength=256 // CHANNEL_STEP) / np.maximum(count, 1)
            self.channel.append((count, mean.astype(np.float32)))
        self.tables = []
        for bins in LEVELS:
            idx = _bin_index(before, bins)
            n = bins ** 3
            ids = idx.ravel()[sel]
            count = np.bincount(ids, minlength=n)
            mean = np.stack([np.bincount(ids, weights=e[:, c], minlength=n) for c in range(3)], axis=1)
            mean /= np.maximum(count, 1)[:, None]
            self.tables.append((idx, count, mean.astype(np.float32)))

    def follows(self, mask: np.ndarray) -> tuple[float, float]:
        """(share of the region's pixels whose before colour is known outside it, share of those
        known pixels whose after colour is what the rest of the picture predicts)."""
        err = self.err[mask]
        if err.size == 0:
            return 0.0, 0.0
        expect = np.full_like(err, np.nan)
        for idx, count, mean in self.tables:
            ids = idx[mask]
            use = np.isnan(expect[:, 0]) & (count[ids] >= MIN_SUPPORT)
            expect[use] = mean[ids[use]]
        known = ~np.isnan(expect[:, 0])
        left = np.full(len(err), np.inf, np.float32)
        left[known] = np.abs(err[known] - expect[known]).max(axis=1)
        share = float(known.mean())
        if not known.all():
            # Colours the rest of the picture does not have: a smooth map of the whole picture's
            # colours (fitted with the worst pixels, any local change, left out), or each
            # channel's own map, must hold there.
            rest = self.before[mask][~known]
            guesses = []
            if self.poly is not None:
                guesses.append(_poly_features(rest) @ self.poly)
            guesses.append(np.stack([_channel_map(rest[:, c], *self.channel[c]) for c in range(3)], 1))
            left[~known] = np.min([np.abs(err[~known] - g).max(axis=1) for g in guesses], axis=0)
            share = float((left < np.inf).mean())
        if share == 0.0:
            return 0.0, 0.0
        return share, float((left[left < np.inf] <= NEAR).mean())


def global_only(table: ColourTable, mask: np.ndarray) -> bool:
    """True when a changed region is explained by the colour map of the rest of the picture."""
    inner = cv2.erode(mask.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    if inner.sum() < 20:
        inner = mask
    known, follows = table.follows(inner)
    return known >= 0.6 and follows >= 0.8


def _channel_map(values: np.ndarray, count: np.ndarray, mean: np.ndarray) -> np.ndarray:
    """One channel's error at ``values``, interpolated between the bins seen outside (held
    constant beyond the last of them, up to :data:`CHANNEL_REACH` levels; farther: unknown, inf)."""
    seen = np.flatnonzero(count >= MIN_SUPPORT)
    if seen.size < 2:
        return np.full(values.shape, np.inf, np.float32)
    at = (seen + 0.5) * CHANNEL_STEP
    out = np.interp(values.astype(np.float32), at, mean[seen]).astype(np.float32)
    gap = np.min(np.abs(values.astype(np.float32)[:, None] - at[None, :]), axis=1)
    out[gap > CHANNEL_REACH] = np.inf
    return out


def _poly_features(rgb: np.ndarray) -> np.ndarray:
    x = rgb.reshape(-1, 3).astype(np.float32) / 255.0
    r, g, b = x[:, 0], x[:, 1], x[:, 2]
    return np.stack([np.ones_like(r), r, g, b, r * r, g * g, b * b, r * g, r * b, g * b,
                     r * g * b, r ** 3, g ** 3, b ** 3], axis=1)


def _fit_poly(before: np.ndarray, err: np.ndarray, valid: np.ndarray) -> np.ndarray | None:
    """A cubic map of the before colour to the leftover error, fitted twice with the worst
    fifth of the pixels left out the second time (on at most 20000 pixels, normal equations)."""
    idx = np.flatnonzero(valid.ravel())
    if idx.size < 200:
        return None
    idx = idx[:: max(1, idx.size // 20000)]
    X = _poly_features(before.reshape(-1, 3)[idx]).astype(np.float64)
    y = err.reshape(-1, 3)[idx].astype(np.float64)

    def solve(X, y):
        return np.linalg.solve(X.T @ X + 1e-6 * np.eye(X.shape[1]), X.T @ y)

    coef = solve(X, y)
    r = np.abs(y - X @ coef).max(axis=1)
    keep = r <= np.quantile(r, 0.8)
    return solve(X[keep], y[keep]).astype(np.float32)


def _bin_index(rgb: np.ndarray, bins: int) -> np.ndarray:
    q = (rgb.astype(np.int32) * bins) // 256
    return (q[..., 0] * bins + q[..., 1]) * bins + q[..., 2]
