"""Measurements of a photo that a person's questions and a critique rest on: exposure and clipping,
contrast, saturation, colour cast, sharpness and the tilt of its uprights or horizon.

Every figure is computed on the pixels alone (no model), on a copy at most :data:`SIDE` pixels on
its long side, so it takes a few milliseconds at any resolution. What each figure means, and the
limits a critique judges it by, are in :class:`Measures`; the limits were set on the sample library
and scikit-image's photos (``bench/conversations.py`` asks about them) and are stated with each answer,
so a person can disagree with the figure rather than with a vague word.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from agent.perception.models import to_rgb8

SIDE = 768

# Limits the answers and the critique judge the figures by (fractions of full scale unless said).
DARK_MEAN, BRIGHT_MEAN = 0.30, 0.68  # mean luma below / above: "dark" / "bright"
CLIPPED = 0.02  # more than 2% of pixels at pure white (or black) is blown highlights (crushed shadows)
FLAT_SPREAD = 0.55  # the middle 96% of luma spans less than this: flat, low contrast
HARSH_SPREAD = 0.92  # ... and more than this with clipping at both ends: harsh
DULL_SATURATION, VIVID_SATURATION = 0.15, 0.75  # mean HSV saturation of coloured pixels
CAST = 8.0  # mean b* (yellow-blue) or a* (red-green) of near-grey mid-tones, in OpenCV's Lab units: a cast shows
NEAR_GREY = 20.0  # Lab chroma under which a pixel would be grey without a cast
SOFT_DETAIL = 0.015  # mean gradient magnitude below this: soft, lacking detail (photos here: 0.023 to 0.076)
SHARP_DETAIL = 0.023  # ... and from this up, sharp: the least of the sharp photos here
FLAT_DETAIL = 0.004  # ... and below this a drawing or a plain area, which sharpening cannot help
TILT_MIN, TILT_MAX = 0.7, 10.0  # degrees: a long line tilted by this much looks crooked (more: on purpose)
# The tilt's lines (:func:`_tilt`), set on bench/tilt.py's development photos: the uprights' shortest
# (share of the height), their length in all (heights) and the share of it that must agree; the same
# for a horizon (shares of the width); agreeing is lying within AGREE_DEGREES of the median.
UPRIGHT_MIN, UPRIGHT_TOTAL, UPRIGHT_AGREE = 0.1, 1.5, 0.5
HORIZON_MIN, HORIZON_TOTAL, HORIZON_AGREE = 0.5, 0.9, 0.6
AGREE_DEGREES = 0.5
# Grain (``noise``, 0..255 luma levels, at SIDE px): on the 8 real photos of the sample library and the 12 of
# mate-backgrounds it measures 0.2 to 1.3 clean and 3.1 to 4.0 with Gaussian noise of sd 5 added (6.0-7.2 at
# sd 10, 11.5-13.6 at sd 20): above this a photo is grainy.
NOISY = 2.5
_LAPLACE = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)


@dataclass(frozen=True)
class Measures:
    """Figures of one photo. Luma is Rec. 601 in 0..1.

    ``mean``: mean luma; ``clipped_white`` / ``clipped_black``: share of pixels at 250+ / 5- (8 bits);
    ``spread``: luma's 98th minus 2nd percentile; ``saturation``: mean HSV saturation (0..1) of the
    pixels that are not near black or white; ``cast_b`` / ``cast_a``: mean Lab b* (+ yellow, - blue)
    and a* (+ magenta, - green) of the mid-tone pixels near grey (0 when under 3% are); ``detail``: mean gradient magnitude of luma
    (Sobel, at :data:`SIDE` px); ``tilt``: how far the uprights or a horizon say it is turned, in
    degrees (+ counter-clockwise), None when no straight line says it surely (:func:`_tilt`); ``grey``: the picture has no colour.
    """

    mean: float
    clipped_white: float
    clipped_black: float
    spread: float
    saturation: float
    cast_b: float
    cast_a: float
    detail: float
    tilt: float | None
    grey: bool
    noise: float = 0.0


def measure(pixels: np.ndarray) -> Measures:
    """The figures of ``pixels`` (any Easel image: grey, RGB or RGBA, 8 or 16 bits).

    >>> m = measure(np.full((40, 60, 3), 128, np.uint8))
    >>> round(m.mean, 2), m.spread, m.grey, m.tilt
    (0.5, 0.0, True, None)
    """
    rgb, _ = _at_side(pixels)
    f = rgb.astype(np.float32) / 255.0
    luma = f @ np.array([0.299, 0.587, 0.114], np.float32)
    lo, hi = np.percentile(luma, [2, 98])
    hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)
    value = hsv[..., 2].astype(np.float32) / 255.0
    lit = (value > 0.08) & (luma < 0.95)
    sat = float(hsv[..., 1][lit].mean() / 255.0) if lit.any() else 0.0
    lab = cv2.cvtColor(rgb, cv2.COLOR_RGB2LAB).astype(np.float32) - np.array([0, 128, 128], np.float32)
    # A cast shows in what should be grey: the mid-tone pixels of low chroma (a red cup is not a cast)
    chroma = np.hypot(lab[..., 1], lab[..., 2])
    near_grey = (luma > 0.15) & (luma < 0.9) & (chroma < NEAR_GREY)
    if near_grey.mean() >= 0.03:
        cast_a, cast_b = float(lab[..., 1][near_grey].mean()), float(lab[..., 2][near_grey].mean())
    else:
        cast_a = cast_b = 0.0  # nothing near grey to judge by
    grey = bool(np.abs(rgb.astype(np.int16) - rgb[..., :1].astype(np.int16)).max() <= 2)
    gx = cv2.Sobel(luma, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(luma, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    detail = float(np.sqrt(gx * gx + gy * gy).mean())
    return Measures(
        mean=float(luma.mean()), clipped_white=float((rgb.min(axis=2) >= 250).mean()),
        clipped_black=float((rgb.max(axis=2) <= 5).mean()), spread=float(hi - lo), saturation=sat,
        cast_b=cast_b, cast_a=cast_a, detail=detail, tilt=_tilt(luma), grey=grey, noise=_noise(luma, gx, gy))


def _at_side(pixels: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo as 8-bit RGB at most :data:`SIDE` pixels a side, and the scale it was shrunk by."""
    rgb = to_rgb8(pixels)
    h, w = rgb.shape[:2]
    scale = min(1.0, SIDE / max(h, w))
    if scale < 1.0:
        rgb = cv2.resize(rgb, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    return rgb, scale


def edges_in(pixels: np.ndarray, box) -> tuple[float, float]:
    """The strength of the sharpest edges (the 99th percentile of the largest channel's gradient)
    inside ``box`` (x1, y1, x2, y2, full-size pixels) and over the rest of the picture: "is the cheetah
    in focus?". A thing's mean luma gradient said a flat red balloon with a crisp outline was soft
    (0.006), and the luma alone lost its edge once it was brightened to the sky's lightness. The rest is
    0 when the box holds the whole picture."""
    rgb, scale = _at_side(pixels)
    f = rgb.astype(np.float32) / 255.0  # each channel's gradient, the largest: a red balloon brightened to the
    # sky's luma keeps its edge
    grad = np.max(np.hypot(cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=3)), axis=2) / 8.0
    x1, y1, x2, y2 = (int(round(v * scale)) for v in box)
    inside = np.zeros(grad.shape, bool)
    inside[max(0, y1):max(y1 + 1, y2), max(0, x1):max(x1 + 1, x2)] = True
    return (float(np.percentile(grad[inside], 99)),
            float(np.percentile(grad[~inside], 99)) if (~inside).any() else 0.0)


def _noise(luma: np.ndarray, gx: np.ndarray, gy: np.ndarray) -> float:
    """Immerkær's fast noise estimate (sd, 0..255) on the flatter half of the picture (by gradient)."""
    if min(luma.shape) < 3:
        return 0.0
    r = cv2.filter2D(luma * 255.0, -1, _LAPLACE)[1:-1, 1:-1]
    mag = np.hypot(gx, gy)[1:-1, 1:-1]
    flat = mag <= np.percentile(mag, 50)
    return float(math.sqrt(math.pi / 2) * np.abs(r[flat]).mean() / 6) if flat.any() else 0.0


def _tilt(luma: np.ndarray) -> float | None:
    """How far the picture's straight lines say it is turned (+ counter-clockwise), None when they
    do not say it surely.

    The uprights first (a building's edges, a column, a mast: a camera turned about its axis turns
    them by as much, and looking left or right does not): the line segments (OpenCV's LSD) within 12
    degrees of vertical and at least :data:`UPRIGHT_MIN` of the height long, :data:`UPRIGHT_TOTAL`
    heights of them in all, of which :data:`UPRIGHT_AGREE` of the length lies within
    :data:`AGREE_DEGREES` of their length-weighted median, which is the tilt. Else a horizon: the
    segments within 12 degrees of horizontal at least half the width long, :data:`HORIZON_TOTAL`
    widths in all, :data:`HORIZON_AGREE` of them agreeing so. The length-weighted median of every
    long near-horizontal line, which this replaced, read a perspective's slanting hedges, a
    branch or a pyramid's side as a crooked horizon: "straighten it" turned 25 of bench/tilt.py's 67
    level development photos (the Eiffel Tower by 3.5 degrees) and left 152 of 402 turned ones more
    than half a degree off; now none of either (28 of the 402 levelled, the rest "can't tell").
    """
    h, w = luma.shape
    found = cv2.createLineSegmentDetector().detect((np.clip(luma, 0, 1) * 255).astype(np.uint8))[0]
    if found is None:
        return None
    x1, y1, x2, y2 = found.reshape(-1, 4).T
    length = np.hypot(x2 - x1, y2 - y1)
    angle = (-np.degrees(np.arctan2(y2 - y1, x2 - x1)) + 90) % 180 - 90  # from horizontal, + counter-clockwise
    upright = angle % 180 - 90  # from vertical, + counter-clockwise
    for off, shortest, total, agree, side in ((upright, UPRIGHT_MIN, UPRIGHT_TOTAL, UPRIGHT_AGREE, h),
                                               (angle, HORIZON_MIN, HORIZON_TOTAL, HORIZON_AGREE, w)):
        keep = (np.abs(off) <= 12) & (length >= shortest * side)
        if length[keep].sum() < total * side:
            continue
        a, wt = off[keep], length[keep]
        order = np.argsort(a)
        cum = np.cumsum(wt[order])
        median = float(a[order][int(np.searchsorted(cum, cum[-1] / 2))])
        if wt[np.abs(a - median) <= AGREE_DEGREES].sum() >= agree * wt.sum():
            return median
    return None
