"""Sharpening and blurring: spatial changes of the whole picture, measured.

:func:`editor.adjust.adjust_sharpness` sharpens with an unsharp mask
(``out = in + 1.5*p/100*(in - G_s(in))``) and blurs with a Gaussian (``out = G_t(in)``,
``t = -p/100*4*s``), ``s = max(1, max(H, W)/1000)``. A tone fit reads a sharpening as more
contrast (the slope of a sharpened picture against the original is above 1) and a blur as less.
On the aligned grey working copies (where every colour operation is close to a straight line),
:func:`detail_change` fits both models with a free gain and offset and keeps one when it explains
the textured pixels clearly better than gain and offset alone. Only exact alignments (same frame,
quarter turns, mirrors, plain crops) are measured: resampling a rotated picture blurs it too.
"""

from __future__ import annotations

import cv2
import numpy as np

from editor.adjust import gaussian_kernel


def _g(x: np.ndarray, sigma: float) -> np.ndarray:
    if sigma <= 0.05:
        return x
    k = gaussian_kernel(sigma).astype(np.float32)
    return cv2.sepFilter2D(x, cv2.CV_32F, k, k, borderType=cv2.BORDER_REFLECT_101)


def _fit(cols: list[np.ndarray], y: np.ndarray, full: bool = False):
    X = np.stack(cols + [np.ones_like(y)], 1)
    coef, *_ = np.linalg.lstsq(X, y, rcond=None)
    res = np.abs(X @ coef - y)
    r = np.sort(res)
    trimmed = float(r[: int(0.8 * len(r))].mean())  # the worst 20% (local changes) left out
    return (coef, trimmed, res) if full else (coef, trimmed)


def unclipped(before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Pixels with no channel at either end of the range in either picture. A brightness change
    with the sharpening clips single channels (the blue of a brown cup) while the grey stays
    inside the range; such pixels bend the grey fit and hid the sharpening."""
    out = np.ones(before.shape[:2], bool)
    for x in (before, after):
        if x.ndim == 3:
            out &= (x.min(axis=2) > 1) & (x.max(axis=2) < 254)
    return out


UNTOUCHED = 0.5  # a sharpening or blur leaves under this share of the detailed pixels exactly as they were


def detail_change(bg: np.ndarray, ag: np.ndarray, mask: np.ndarray, unit: float, scale: float):
    """``(kind, params, sentence, transform)`` for a sharpening or blur from grey ``bg`` to ``ag``
    (aligned float32 working copies, ``mask`` the pixels to judge), or None.

    ``unit`` is the operation's ``s`` in working pixels and ``scale`` working pixels per full-size
    pixel; ``transform(x)`` makes the same change to a float32 (H, W, C) working copy."""
    hp = bg - _g(bg, max(unit, 0.5))
    inner = cv2.erode(mask.astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)
    clipped = (ag <= 1) | (ag >= 254) | (bg <= 1) | (bg >= 254)
    sel = inner & ~clipped & (np.abs(hp) > 2.0)
    if sel.sum() < 0.01 * mask.size:
        # A soft photo (a flower on bokeh) has few pixels of strong fine detail; the fainter
        # detail still tells a blur, and the fits below must then explain it clearly.
        sel = inner & ~clipped & (np.abs(hp) > 1.0)
    if sel.sum() < 300 or sel.sum() < 0.005 * mask.size:
        return None
    idx = np.flatnonzero(sel)
    if len(idx) > 40000:
        idx = idx[:: len(idx) // 40000]
    y = ag.ravel()[idx].astype(np.float64)
    x0 = bg.ravel()[idx].astype(np.float64)
    if float(np.mean(np.abs(y - x0) < 0.5)) >= UNTOUCHED:
        # most of the picture's fine detail is as it was: an edit of a part (a sky tinted blue over a
        # green field was "It was sharpened (sharpness +50)", the grass's blades untouched)
        return None
    _, r0, res0 = _fit([x0], y, full=True)
    if r0 < 0.5:
        return None
    # Below 1.2 levels of change the fit must explain nearly all of it: a small change of
    # another kind (a colour edit seen in grey) is not to be read as a light sharpening.
    least = 0.6 if r0 >= 1.2 else 0.35
    # Sharpened: y = a*x + beta*(x - G_s x) + c.
    (a, beta, _), r_sharp, res_s = _fit([x0, hp.ravel()[idx].astype(np.float64)], y, full=True)
    best = ("sharpen", r_sharp, beta / a if abs(a) > 0.2 else 0.0, res_s)
    if best[2] <= 0:  # an unsharp mask taken away is a light blur: the blur model is to tell it
        best = ("sharpen", np.inf, 0.0, res_s)
    # Blurred: y = a*G_t(x) + c for a range of t.
    for t in np.geomspace(0.25, 4.5, 24) * max(unit, 0.5):
        _, r_t, res_t = _fit([_g(bg, float(t)).ravel()[idx].astype(np.float64)], y, full=True)
        if r_t < best[1]:
            best = ("blur", r_t, float(t), res_t)
    kind, r, v, res = best
    if r > least * r0:
        return None
    # The whole picture, not a part: a blurred background leaves the subject as it was, and
    # there the blur model does worse than none.
    if float(np.mean(res > res0 + 3)) > 0.1:
        return None
    if kind == "sharpen":
        amount = round(v / 1.5 * 100, 1)
        if not 3 <= amount <= 130:
            return None
        amount = min(amount, 100.0)
        sigma = max(unit, 0.5)

        def transform(x, k=v, sg=sigma):
            return x + np.float32(k) * (x - _g_multi(x, sg))

        return ("sharpness", {"amount": amount},
                f"It was sharpened (sharpness {amount:+.0f}).", transform)
    amount = round(-v / max(scale, 1e-6) / (4 * unit / max(scale, 1e-6)) * 100, 1)
    if amount > -3:
        return None
    amount = max(amount, -100.0)

    def blur(x, t=v):
        return _g_multi(x, t)

    return ("sharpness", {"amount": amount},
            f"It was blurred (sharpness {amount:+.0f}).", blur)


def _g_multi(x: np.ndarray, sigma: float) -> np.ndarray:
    if x.ndim == 2:
        return _g(x, sigma)
    return np.stack([_g(np.ascontiguousarray(x[..., c]), sigma) for c in range(x.shape[2])], -1)
