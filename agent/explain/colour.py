"""Colour changes that one slope and three offsets cannot explain: saturation, warmth, hue,
black and white, and tone curves (auto-enhance).

:mod:`agent.explain.tone` fits ``after = a*before + b_c``, the form of brightness, contrast and
tint. Easel's other colour operations (:mod:`editor.adjust`) mix or scale the channels unequally:

- saturation ``p``: ``A = k*I + (1 - k)*1 l^T`` with ``k = 1 + p/100`` and ``l`` the Rec. 601 luma
  weights (``k = 0`` is black and white);
- warmth ``t``: ``A = diag(1 + 0.2 t, 1 + 0.04 t, 1 - 0.2 t)``, ``t = amount/100``;
- hue ``d``: ``A`` the rotation by ``d`` about the grey axis, ``cos d I + (1 - cos d) J/3 + sin d/sqrt 3 K``;
- auto_enhance: one monotone curve per channel.

Each family is fitted with a contrast gain ``g`` and a brightness offset (``after = g*A before + s``),
so "warmer and brighter" is both. :func:`colour_model` is asked only when the tone model leaves a
residue that a general colour map (3x3 plus offsets) does not; it picks the family that explains the
pixels about as well as the general map, and when none does it says only that the colours changed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from agent.explain.tone import MID, brightness_finding, contrast_finding

LUMA = np.array([0.299, 0.587, 0.114])
WARM = np.array([0.2, 0.04, -0.2])
_K = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], np.float64)


@dataclass
class ColourModel:
    """What a colour change is: findings ``(kind, params, sentence)`` and the 3x3 map and offsets
    that predict the after image from the (aligned) before image, or a per-channel table."""

    findings: list = field(default_factory=list)
    matrix: np.ndarray | None = None
    offset: np.ndarray | None = None
    tables: np.ndarray | None = None  # (3, 256) per-channel curves, when the change is a curve

    def apply(self, x: np.ndarray) -> np.ndarray:
        """The predicted after image from float32 before pixels (H, W, 3)."""
        if self.tables is not None:
            idx = np.clip(np.round(x), 0, 255).astype(np.intp)
            return np.stack([self.tables[c][idx[..., c]] for c in range(3)], -1).astype(np.float32)
        out = x.reshape(-1, 3) @ self.matrix.T.astype(np.float32) + self.offset.astype(np.float32)
        return out.reshape(x.shape)


def _sample(src: np.ndarray, dst: np.ndarray, mask: np.ndarray, n: int = 20000):
    idx = np.flatnonzero(mask)
    if len(idx) > n:
        idx = idx[:: len(idx) // n]
    s = src.reshape(-1, 3)[idx].astype(np.float64)
    d = dst.reshape(-1, 3)[idx].astype(np.float64)
    keep = (d.min(axis=1) > 0.5) & (d.max(axis=1) < 254.5)
    return (s[keep], d[keep]) if keep.sum() >= 200 else (s, d)


def _resid(pred: np.ndarray, d: np.ndarray) -> np.ndarray:
    return np.abs(pred - d).max(axis=1)


def _robust_affine(s: np.ndarray, d: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``d = s A^T + o`` fitted by least squares, refitted without outliers (local changes)."""
    X = np.hstack([s, np.ones((len(s), 1))])
    w = np.ones(len(s), bool)
    for _ in range(3):
        coef, *_ = np.linalg.lstsq(X[w], d[w], rcond=None)
        r = _resid(X @ coef, d)
        w = r < max(3 * 1.4826 * float(np.median(r[w])), 3.0)
        if w.sum() < 50:
            w[:] = True
            break
    return coef[:3].T, coef[3], w


def _fit_gain_offset(base: np.ndarray, d: np.ndarray) -> tuple[float, float]:
    """``d = g*base + s`` (one gain, one offset for every channel)."""
    x, y = base.ravel(), d.ravel()
    X = np.stack([x, np.ones_like(x)], 1)
    (g, s), *_ = np.linalg.lstsq(X, y, rcond=None)
    return float(g), float(s)


def _tone_of(g: float, s: float) -> list:
    """Contrast and brightness findings of a gain ``g`` and offset ``s`` (contrast about mid-grey)."""
    out = []
    contrast = (g - 1) * 100
    bright = (s - MID * (1 - g)) / 2.55
    if abs(bright) >= 2:
        out.append(brightness_finding(bright))
    if abs(contrast) >= 3:
        out.append(contrast_finding(contrast, g))
    return out


def _saturation(s, d):
    y = s @ LUMA
    # d = u*s + v*y + o per channel, u and v shared: three unknowns.
    X = np.stack([s.ravel(), np.repeat(y, 3), np.ones(s.size)], 1)
    (u, v, o), *_ = np.linalg.lstsq(X, d.ravel(), rcond=None)
    g = u + v
    if abs(g) < 0.2:
        return None
    k = u / g
    mat = u * np.eye(3) + v * np.outer(np.ones(3), LUMA)
    return {"k": float(k), "g": float(g), "s": float(o), "matrix": mat, "offset": np.full(3, o)}


def _warmth(s, d):
    # d_c = g*s_c + h*WARM_c*s_c + o: three unknowns; t = h/g.
    X = np.stack([s.ravel(), (s * WARM).ravel(), np.ones(s.size)], 1)
    (g, h, o), *_ = np.linalg.lstsq(X, d.ravel(), rcond=None)
    if abs(g) < 0.2:
        return None
    return {"t": float(h / g), "g": float(g), "s": float(o), "matrix": np.diag(g + h * WARM),
            "offset": np.full(3, o)}


def _hue(A: np.ndarray, s, d):
    # Project the general map on I, J/3 and K; then read the angle.
    basis = np.stack([np.eye(3).ravel(), (np.ones((3, 3)) / 3).ravel(), _K.ravel()], 1)
    (alpha, beta, gamma), *_ = np.linalg.lstsq(basis, A.ravel(), rcond=None)
    g = math.hypot(alpha, math.sqrt(3) * gamma)
    if g < 0.2:
        return None
    deg = math.degrees(math.atan2(math.sqrt(3) * gamma, alpha))
    c, sn = math.cos(math.radians(deg)), math.sin(math.radians(deg))
    rot = c * np.eye(3) + (1 - c) / 3 * np.ones((3, 3)) + sn / math.sqrt(3) * _K
    gg, o = _fit_gain_offset(s @ rot.T, d)
    return {"deg": deg, "g": gg, "s": o, "matrix": gg * rot, "offset": np.full(3, o)}


def _curves(s: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Per-channel monotone tables (3, 256): the median after value for each before value,
    interpolated where a value is missing and made non-decreasing."""
    out = np.zeros((3, 256))
    for c in range(3):
        x = np.round(s[:, c]).astype(int).clip(0, 255)
        order = np.argsort(x, kind="stable")
        xs, ys = x[order], d[order, c]
        vals, starts = np.unique(xs, return_index=True)
        meds = np.array([np.median(ys[a:b]) for a, b in zip(starts, list(starts[1:]) + [len(xs)])])
        table = np.interp(np.arange(256), vals, meds)
        out[c] = np.maximum.accumulate(table)
    return out


def _r(model, s, d) -> float:
    return float(np.median(_resid(s @ model["matrix"].T + model["offset"], d)))


def colour_model(wf: np.ndarray, af: np.ndarray, mask: np.ndarray, a: float, b: np.ndarray,
                 before_small: np.ndarray | None = None) -> ColourModel | None:
    """The colour change from ``wf`` to ``af`` (aligned float working copies) over ``mask`` when
    the tone model ``(a, b)`` does not explain it; None when it does (or nothing can be said).

    A colour map moves only coloured pixels: in a mostly grey picture with colour spread over it
    (a starfield) the grey majority hides it, and the coloured parts were told as local
    "recoloured regions" beside a false contrast. There the coloured pixels are judged alone."""
    found = _colour_model(wf, af, mask, a, b, before_small)
    if found is None:
        chromatic = mask & (wf.max(axis=2) - wf.min(axis=2) > 15)
        if 0.03 * mask.sum() <= chromatic.sum() < 0.5 * mask.sum() and _spread(chromatic):
            found = _colour_model(wf, af, chromatic, a, b, before_small)
            if found is not None and found.findings[0][0] in ("tone_curve", "color_changed"):
                found = None  # only a named colour map is told from the coloured pixels alone
    return found


def _spread(m: np.ndarray, cells: int = 6) -> bool:
    """Whether ``m`` has pixels in at least half of a ``cells`` x ``cells`` grid over the picture:
    a colour change of the whole picture, not of one coloured object."""
    h, w = m.shape
    hit = [m[i * h // cells:(i + 1) * h // cells, j * w // cells:(j + 1) * w // cells].mean() > 0.01
           for i in range(cells) for j in range(cells)]
    return sum(hit) >= cells * cells / 2


def _colour_model(wf: np.ndarray, af: np.ndarray, mask: np.ndarray, a: float, b: np.ndarray,
                  before_small: np.ndarray | None = None) -> ColourModel | None:
    s, d = _sample(wf, af, mask)
    # Pixels the tone model puts near the ends of the range are left out: on a working copy a
    # pixel may average clipped and unclipped ones, which bends a straight line into a "curve".
    p = a * s + b
    # A channel clipped in an earlier step of a combined edit ("tint, then contrast, then brighter")
    # sits at the channel's lowest or highest after value: those pixels are left out too.
    lo, hi = d.min(axis=0), d.max(axis=0)
    inside = (p.min(axis=1) > 12) & (p.max(axis=1) < 243) & (d.min(axis=1) > 3) & (d.max(axis=1) < 252)
    inside &= ((d > lo + 2) & (d < hi - 2)).all(axis=1)
    if inside.sum() < 200:  # too little left unclipped to tell a colour map from clipping
        return None
    s, d = s[inside], d[inside]
    r_tone = float(np.median(_resid(a * s + b, d)))
    # The tone model refitted on just these pixels (the robust fit's slope can be pulled by clipping).
    X = np.zeros((s.size, 4))
    X[:, 0] = s.ravel()
    X[np.arange(s.size), 1 + np.arange(s.size) % 3] = 1
    (ta, *tb), *_ = np.linalg.lstsq(X, d.ravel(), rcond=None)
    r_tone = min(r_tone, float(np.median(_resid(ta * s + np.array(tb), d))))
    A, o, w = _robust_affine(s, d)
    s_in, d_in = s[w], d[w]
    r_full = float(np.median(_resid(s_in @ A.T + o, d_in)))
    # The margin keeps plain brightness and contrast from being read as a colour map. When the
    # tone model itself says the colours shifted (offsets that differ by channel) the choice is
    # between two colour changes, and the better fit decides: warmth scales the channels, a tint
    # offsets them, and on a photo whose channels each span a narrow range (a red retina) the
    # offsets come within the wide margin of a warmth change and were told as an orange tint.
    tinted = float(np.ptp(b)) > 6
    if r_tone < (0.6 if tinted else 1.0) or r_tone < (1.25 * r_full + 0.25 if tinted else 1.6 * r_full + 0.6):
        return None
    # The before picture must have colour for a colour map to be measurable.
    chroma = float(np.median(s.max(axis=1) - s.min(axis=1)))
    after_grey = float(np.quantile(d.max(axis=1) - d.min(axis=1), 0.98)) <= 2.0
    if after_grey and chroma > 4:
        y = s_in @ LUMA
        g, off = _fit_gain_offset(np.repeat(y[:, None], 3, 1), d_in)
        sentence = "It was made black and white (grayscale)."
        return ColourModel([("grayscale", {"saturation": -100}, sentence), *_tone_of(g, off)],
                           g * np.outer(np.ones(3), LUMA), np.full(3, off))
    fits = {}
    for name, fn in (("saturation", _saturation), ("warmth", _warmth)):
        m = fn(s_in, d_in)
        if m is not None:
            fits[name] = m
    m = _hue(A, s_in, d_in)
    if m is not None:
        fits["hue"] = m
    scored = sorted(((_r(m, s_in, d_in), n, m) for n, m in fits.items()), key=lambda t: t[0])
    curve_r = None
    if scored and scored[0][0] <= 1.3 * r_full + 0.75 and chroma > 4:
        r, name, m = scored[0]
        found = family_finding(name, m)
        if found is not None:
            return ColourModel([found, *_tone_of(m["g"], m["s"])], m["matrix"], m["offset"])
    # Per-channel curves (auto_enhance is one): better than any linear map?
    tables = _curves(s, d)
    idx = np.round(s).astype(int).clip(0, 255)
    pred = np.stack([tables[c][idx[:, c]] for c in range(3)], 1)
    curve_r = float(np.median(_resid(pred, d)))
    if curve_r < 0.6 * min(r_tone, r_full) and curve_r < 2.5:
        return ColourModel([_curve_finding(tables, s, d, before_small)], tables=tables)
    if r_full < 0.6 * r_tone and chroma > 4:  # a colour map I cannot name: say only that
        return ColourModel([("color_changed", {}, "Its colours were changed (I cannot name the adjustment).")],
                           A, o)
    return None


def family_finding(name: str, m: dict):
    """The finding of a fitted family, or None when it is too small to tell or outside Easel's
    own range for it (``agent.grammar.commands.ATTR_RANGES``): an amount no operation can make means the
    family is the wrong model, and the caller falls back to a curve or "its colours were changed"."""
    from agent.grammar.commands import ATTR_RANGES

    if name == "saturation":
        p = round((m["k"] - 1) * 100, 1)
        if abs(p) < 4 or not -103 <= p <= ATTR_RANGES["saturation"]:
            return None
        if p <= -97:
            return ("grayscale", {"saturation": -100}, "It was made black and white (grayscale).")
        return ("saturation", {"amount": p},
                f"Its colours are {'more' if p > 0 else 'less'} saturated, by about {abs(p):.0f} points "
                f"(saturation {p:+.0f}).")
    if name == "warmth":
        t = round(m["t"] * 100, 1)
        if abs(t) < 4 or abs(t) > ATTR_RANGES["warmth"]:
            return None
        # Said as the edit a person asks for ("make it warmer"), with what it does to the colours,
        # so it is not taken for an orange or blue tint (a different operation).
        return ("warmth", {"amount": t},
                f"It was made {'warmer (more orange-red)' if t > 0 else 'cooler (bluer)'}, by about {abs(t):.0f} "
                f"points (warmth {t:+.0f}).")
    d = round(m["deg"], 1)
    if abs(d) < 3:
        return None
    return ("hue", {"degrees": d},
            f"Its hues were turned by about {abs(d):.0f}° ({'red toward yellow and green' if d > 0 else 'red toward purple and blue'}; hue {d:+.0f}).")


def _curve_finding(tables: np.ndarray, s: np.ndarray, d: np.ndarray, before_small):
    """A tone curve: compared with auto_enhance's own curves for this picture when they match."""
    mean_shift = float(d.mean() - s.mean()) / 2.55
    params = {"mean_brightness_change": round(mean_shift, 1)}
    if before_small is not None:
        from editor.adjust import enhance_curves

        want = np.stack([np.asarray(c)[:256] for c in enhance_curves(before_small.astype(np.uint8))])
        if want.shape == (3, 256):
            lo, hi = np.percentile(s, [2, 98])
            span = slice(int(lo), int(hi) + 1)
            if float(np.abs(want[:, span] - tables[:, span]).mean()) < 4.0:
                params["auto_enhance"] = True
                return ("tone_curve", params,
                        "It was auto-enhanced: white balance, levels and mid-tones adjusted by a curve "
                        f"(on average {'brighter' if mean_shift > 0 else 'darker'} by about {abs(mean_shift):.0f} points).")
    return ("tone_curve", params,
            "Its tones were re-mapped by a curve, not a straight brightness or contrast change "
            f"(on average {'brighter' if mean_shift > 0 else 'darker'} by about {abs(mean_shift):.0f} points).")
