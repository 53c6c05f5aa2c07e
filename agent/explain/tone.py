"""Tone changes between two aligned images: brightness, contrast and colour tint, with amounts.

The aligned pixels are fitted with ``after = a*before + b_c`` (one slope, an offset per channel;
:func:`fit_tone`). Easel's operations are all of that form (with ``m`` = 127.5):

- tint toward colour ``C`` at intensity ``i``: ``a = 1 - i``, ``b = i*C``;
- contrast ``c`` (a fraction): ``a = 1 + c``, ``b = -c*m``; brightness ``p``: ``b = 2.55*p``.

Tint, then contrast, then brightness compose to ``a = (1 - i)(1 + c)`` and ``b = k*C + s`` with
``k = i(1 + c)`` and ``s = 2.55*p - c*m``; :func:`tone_changes` inverts that. A tint with only a
brightness change (``k = 1 - a``) is tried first; when it leaves a clear residue, ``k`` and ``s``
are fitted for every palette colour and the contrast comes out as ``a + k - 1``, so a tint made
together with brightness and contrast is reported as all three, with their amounts. A colour shift
no tint explains is named by its hue, as a person names a colour (a shift toward red-yellow is
orange, not the nearest palette RGB).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from editor.colors import COLORS

MID = 127.5


def fit_tone(src: np.ndarray, dst: np.ndarray, mask: np.ndarray) -> tuple[float, np.ndarray, float]:
    """Robust fit of ``dst = a*src + b_c`` over ``mask``; returns (a, b[3], residual sigma).

    Clipping is judged per channel, not per pixel: a strong contrast or brightness change clips
    the channels of a coloured photo at different places (a red retina's red at 255, its blue at
    0), and dropping every pixel with one clipped channel left a few unrepresentative pixels whose
    fit read as a tint. A clipped value only says the model went past the end of the range there,
    so it is left out of its own channel's equation and kept in the others'."""
    idx = np.flatnonzero(mask)
    if len(idx) > 60000:  # a fixed stride keeps it fast and deterministic
        idx = idx[:: len(idx) // 60000]
    s = src.reshape(-1, 3)[idx].astype(np.float32)
    d = dst.reshape(-1, 3)[idx].astype(np.float32)
    ok = (d > 0.5) & (d < 254.5)  # (pixel, channel) entries that are not clipped
    # ... nor piled up at a channel's end inside the range: clipped by an earlier step of a
    # combined edit (more contrast clips at 255, then darker moves the pile down to 200).
    lo, hi = piles(d, s)
    ok &= (d > lo + 1.5) & (d < hi - 1.5)
    if len(s) > 20000:
        step = len(s) // 20000
        s, d, ok = s[::step], d[::step], ok[::step]
    if len(s) < 20:
        return 1.0, np.zeros(3), 0.0
    if ok.sum() < 600:  # nearly everything clipped: use what there is
        ok[:] = True
    w = np.ones(len(s), bool)
    a, b, sigma = 1.0, np.zeros(3), 0.0
    for _ in range(4):
        e = ok & w[:, None]
        n_c = e.sum(axis=0)
        if n_c.sum() < 60:
            break
        # Unknowns a, b0, b1, b2, over the unclipped entries of the pixels kept.
        has = n_c >= 20
        n_safe = np.maximum(n_c, 1)
        mean_s = (s * e).sum(axis=0, dtype=np.float64) / n_safe
        mean_d = (d * e).sum(axis=0, dtype=np.float64) / n_safe
        cs = (s - mean_s.astype(np.float32)) * e * has
        cd = (d - mean_d.astype(np.float32)) * e * has
        den = float(np.einsum("ij,ij->", cs, cs, dtype=np.float64))
        if den < 9.0 * max(1, int((e & has).sum())):
            # A flat picture cannot show a slope: only an offset is measurable.
            a = 1.0
            b = np.array([np.median((d - s)[e[:, c], c]) if has[c] else np.nan for c in range(3)])
        else:
            a = float(np.einsum("ij,ij->", cs, cd, dtype=np.float64) / den)
            b = np.where(has, mean_d - a * mean_s, np.nan)
        b = _unmeasured(b, a, s, d)
        p = a * s + b.astype(np.float32)
        r = np.where(ok, np.abs(d - p), 0)
        res = r.max(axis=1)
        sigma = 1.4826 * float(np.median(res[w]))
        w = res < max(3.0 * sigma, 4.0)
        # A working-copy pixel averages full-size ones, some of which may have clipped: leave out
        # pixels the model puts near the ends of the range.
        inside = ((p > 12) & (p < 243) | ~ok).all(axis=1) & ok.any(axis=1)
        if (w & inside).sum() >= 200:
            w &= inside
    keep = ok.all(axis=1)
    if keep.sum() >= 200:
        s, d = s[keep], d[keep]
    return _unless_unchanged(s, d, a, b, sigma)


def piles(d: np.ndarray, s: np.ndarray, share: float = 0.005) -> tuple[np.ndarray, np.ndarray]:
    """Per channel, the lowest and highest after value (``d``, N x 3) where at least ``share`` of
    the pixels pile up although their before values (``s``) differ: a channel clipped there, maybe
    by an earlier step. Else -2 and 257 (no pile). A flat part left as it was (a grey canvas an
    object was pasted on) piles up too, but its before values are the same: no clipping."""
    lo, hi = np.full(3, -2.0), np.full(3, 257.0)
    if len(d) < 100:
        return lo, hi
    for c in range(3):
        mn, mx = float(d[:, c].min()), float(d[:, c].max())
        for at, edge in ((d[:, c] <= mn + 1, "lo"), (d[:, c] >= mx - 1, "hi")):
            if at.mean() >= share and float(np.ptp(s[at, c])) > 4:
                if edge == "lo":
                    lo[c] = mn
                else:
                    hi[c] = mx
    return lo, hi


def clip_to_piles(pred: np.ndarray, after: np.ndarray, before: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``pred`` (H, W, 3, the tone model's after picture) clipped per channel where ``after``'s
    pixels pile up: a channel clipped by an earlier step of a combined edit sits there, which the
    one-step model overshoots and which would otherwise read as a recoloured region."""
    idx = np.flatnonzero(mask)
    idx = idx[:: max(1, len(idx) // 60000)]  # a fixed stride, as in the fit: fast and deterministic
    lo, hi = piles(after.reshape(-1, 3)[idx], before.reshape(-1, 3)[idx])
    if (lo < 0).all() and (hi > 255).all():  # no pile: nothing to clip (most pairs)
        return pred
    return np.clip(pred, np.maximum(lo, 0).astype(np.float32), np.minimum(hi, 255).astype(np.float32))


def _unmeasured(b: np.ndarray, a: float, s: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Offsets of channels clipped nearly everywhere (NaN in ``b``): the mean of the measured ones,
    no tint, unless that would leave visible values where the channel clipped, in which case the
    offset is the nearest one that clips them all. Nothing can be read from a clipped channel,
    and a tint claimed from nothing is a false statement."""
    if not np.isnan(b).any():
        return b
    known = b[~np.isnan(b)]
    out = b.copy()
    for c in np.flatnonzero(np.isnan(b)):
        guess = float(known.mean()) if known.size else 0.0
        low, high = d[:, c] <= 0.5, d[:, c] >= 254.5
        if low.sum() >= high.sum() and low.any():  # clipped at 0: a*s + b <= 0 there
            guess = min(guess, float(np.quantile(-a * s[low, c], 0.1)))
        elif high.any():  # clipped at 255: a*s + b >= 255 there
            guess = max(guess, float(np.quantile(255 - a * s[high, c], 0.9)))
        out[c] = guess
    return out


def _unless_unchanged(s: np.ndarray, d: np.ndarray, a: float, b: np.ndarray, sigma: float):
    """``(a, b, sigma)``, or no change (1, 0) when leaving the pixels as they were explains them
    at least as well: a change of the picture as a whole moves most of its pixels, while a large
    local change (a white cup filled in brown) can pull the fit into a "tint" the rest of the
    picture does not show."""
    r_id = np.abs(d - s).max(axis=1)
    if float(np.median(r_id)) > 2.0:
        return a, b, sigma
    r_fit = np.abs(d - (a * s + b.astype(np.float32))).max(axis=1)
    if float(np.median(r_id)) <= float(np.median(r_fit)):
        return 1.0, np.zeros(3), 1.4826 * float(np.median(r_id))
    return a, b, sigma


def _tint_and_offset(b: np.ndarray, intensity: float) -> tuple[str, float, float]:
    """The palette colour c and the offset s, the same on every channel, that best explain a tone
    fit's intercept ``b = intensity * c + s`` (a brightness change before or after a tint adds the
    same to every channel, so without s a brightened yellow tint reads as pink); and the residual."""
    best = ("", 0.0, math.inf)
    for name, rgb in COLORS.items():
        r = np.asarray(b, np.float64) - intensity * np.array(rgb, np.float64)
        s = float(r.mean())
        err = float(np.linalg.norm(r - s))
        if err < best[2]:
            best = (name, s, err)
    return best


def _tint_free(b: np.ndarray) -> tuple[str, float, float, float]:
    """The palette colour C and the amounts k > 0 and s that best explain ``b = k*C + s``:
    ``(name, k, s, residual)``."""
    best = ("", 0.0, 0.0, math.inf)
    bb = np.asarray(b, np.float64)
    for name, rgb in COLORS.items():
        A = np.stack([np.array(rgb, np.float64), np.ones(3)], axis=1)
        (k, s), *_ = np.linalg.lstsq(A, bb, rcond=None)
        if k <= 0:
            continue
        err = float(np.linalg.norm(A @ np.array([k, s]) - bb))
        if err < best[3]:
            best = (name, float(k), float(s), err)
    return best


def _boosted_tint(a: float, b: np.ndarray, c_min: float) -> bool:
    """Whether a fit with slope ``a`` above 1.02 is a palette tint with more contrast: the
    intercept is ``k*C + s`` for a palette colour C almost exactly (a shift of the channels
    that only resembles a palette colour is no tint), with an intensity ``k/(a + k)`` a tint
    has and a contrast of at least ``c_min``."""
    fname, k, s, ferr = _tint_free(b)
    if not fname or k <= 0:
        return False
    spread = float(np.max(b) - np.min(b))
    # A slope near 1 is the channels shifted (which can resemble a palette colour closely); a
    # tint with just enough contrast to cancel its own lowering of the slope is left as that.
    return (a > 1.02 and ferr <= max(2.0, 0.04 * spread) and 0.05 <= k / (a + k) <= 0.6
            and (a + k - 1) * 100 >= c_min)


def hue_name(offsets: np.ndarray) -> str:
    """The colour a shift of the channels by ``offsets`` goes toward, named by its hue.

    >>> hue_name(np.array([30.0, 8.0, -25.0]))
    'orange'
    >>> hue_name(np.array([-20.0, -5.0, 30.0]))
    'blue'
    """
    d = np.asarray(offsets, np.float64) - float(np.mean(offsets))
    scale = 90 / max(1e-6, float(np.abs(d).max()))
    rgb = np.clip(MID + d * scale, 0, 255).astype(np.uint8).reshape(1, 1, 3)
    hue = float(cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV_FULL)[0, 0, 0]) * 360 / 256
    for limit, name in ((12, "red"), (45, "orange"), (70, "yellow"), (165, "green"), (205, "skyblue"),
                        (255, "blue"), (290, "purple"), (340, "pink"), (361, "red")):
        if hue < limit:
            return name
    return "red"


def brightness_finding(points: float) -> tuple[str, dict, str]:
    p = round(points, 1)
    return ("brightness", {"amount": p},
            f"It is {'brighter' if p > 0 else 'darker'} by about {abs(p):.0f} points (brightness {p:+.0f}).")


def contrast_finding(amount: float, slope: float) -> tuple[str, dict, str]:
    c = round(amount, 1)
    return ("contrast", {"amount": c, "slope": round(slope, 4)},
            f"It has {'more' if c > 0 else 'less'} contrast, by about {abs(c):.0f} points (contrast {c:+.0f}).")


def _tint(cname: str, i: float, rgb: np.ndarray) -> tuple[str, dict, str]:
    return ("color_tint", {"color": cname, "intensity": round(i, 3),
                           "rgb": [round(float(v)) for v in np.clip(rgb, 0, 255)]},
            f"It was tinted {cname} (intensity {i:.2f}).")


def tone_changes(a: float, b: np.ndarray, has_bg: bool = False) -> list[tuple[str, dict, str]]:
    """``(kind, params, sentence)`` of each tone change in a fit ``after = a*before + b``,
    brightness first (what people ask about first).

    >>> [k for k, _, _ in tone_changes(0.96, np.array([-25.5 + 0.24 * 255, -25.5 + 0.24 * 165, -25.5]))]
    ['color_tint', 'contrast']
    """
    b = np.asarray(b, np.float64)
    spread = float(b.max() - b.min())
    c_min, b_min = (10, 8) if has_bg else (3, 2)  # a cutout's soft matte darkens a little of what is kept
    # ... and blends a little of the new background into the subject's colours, which the fit
    # reads as a faint tint (0.04 yellow behind a yellow flower on green): a tint needs more.
    a_max = 0.94 if has_bg else 0.97
    out: list[tuple[str, dict, str]] = []
    if spread > 6 and a >= 0.97 and _boosted_tint(a, b, c_min):
        # A tint with more contrast: the tint lowers the slope by its intensity, the contrast
        # raises it, and at intensity 0.2 with contrast +35 the slope is above 1 (1.08), so the
        # slope alone cannot tell it from a shift of the channels ("colours shifted toward").
        fname, k, s, _ = _tint_free(b)
        contrast = (a + k - 1) * 100
        out.append(_tint(fname, k / (a + k), (b - s) / k))
        out.append(contrast_finding(contrast, a))
        bright = (s + contrast / 100 * MID) / 2.55
        if abs(bright) >= b_min:
            out.append(brightness_finding(bright))
    elif spread > 6 and a < a_max:
        i = 1 - a
        cname, offset, err = _tint_and_offset(b, i)
        fname, k, s, ferr = _tint_free(b)
        contrast = (a + k - 1) * 100 if fname else 0.0
        if err > max(6.0, 3 * ferr) and abs(contrast) >= c_min and 0 < k < a + k:
            # A tint with a contrast change: k = i(1 + c), a = (1 - i)(1 + c).
            i = k / (a + k)
            out.append(_tint(fname, i, (b - s) / k))
            out.append(contrast_finding(contrast, a))
            bright = (s + contrast / 100 * MID) / 2.55
        else:
            out.append(_tint(cname, i, (b - offset) / i))
            bright = offset / 2.55
        if abs(bright) >= b_min:  # a brightness change before or after the tint
            out.append(brightness_finding(bright))
    elif spread > 12:
        cname = hue_name(b)
        out.append(("color_tint", {"color": cname, "intensity": None,
                                   "offsets": [round(float(v), 1) for v in b]},
                    f"Its colours shifted toward {cname}."))
    else:
        contrast = (a - 1) * 100
        bright = (float(b.mean()) - MID * (1 - a)) / 2.55
        if abs(contrast) >= c_min:
            out.append(contrast_finding(contrast, a))
        if abs(bright) >= b_min:
            out.append(brightness_finding(bright))
    out.sort(key=lambda t: t[0] != "brightness")
    return out
