"""Region masks and edits inside them: the pixel half of "point and say" (DESIGN.md, Regions).

A region is a soft mask ``m``: ``float32``, ``(H, W)``, values in ``[0, 1]``, at the image's full
resolution. :func:`apply_in_region` runs any whole-picture operation and keeps its result only
where the mask says::

    out = m*op(in) + (1 - m)*in      (rounded half up, as editor.ops rounds)

so where ``m == 0`` the output is the input bit for bit, and where ``m == 1`` it is ``op(in)`` bit
for bit. Masks come from words (:func:`region_mask`, :data:`REGION_NAMES`) or from what the user
drew (:func:`from_box`, :func:`from_stroke`, snapped to edges by :func:`refine_to_edges`), or from
the cutout model (:func:`from_cutout`). Masks combine with ``np.minimum`` (both), ``np.maximum``
(either) and :func:`invert` ("everything except").

Word-named regions and their edges (``W``, ``H`` the image's width and height, ``D`` its
diagonal; coordinates run over ``[0, W] x [0, H]`` with pixel centres at ``x + 0.5``; every ramp
is linear, like Lightroom's linear gradient):

==================================  ==========================================================
name                                mask
==================================  ==========================================================
``left``, ``right``, ``top``,       a side, as a graduated filter: 1 from that edge to a third
``bottom``                          of the way across, falling linearly to 0 at the middle line
                                    (:data:`SIDE_FULL`, :data:`SIDE_ZERO`); the far half is 0.
``left half``, ``right half``,      a half: 1 up to the middle line, 0 beyond it, with a linear
``top half``, ``bottom half``       ramp :data:`HALF_FEATHER` ``* D`` wide centred on the line.
``top left``, ``top right``,        a corner: the product of its two sides, so 1 in the corner's
``bottom left``, ``bottom right``   ninth (a third of the width by a third of the height) and 0
                                    beyond either middle line.
``center``                          an ellipse: with ``r = hypot((x - W/2)/(W/2), (y - H/2)/(H/2))``,
                                    1 for ``r <= 1/3``, falling linearly to 0 at ``r = 2/3``
                                    (:data:`CENTER_FULL`, :data:`CENTER_ZERO`).
``shadows``, ``midtones``,          luminance ranges, pixel by pixel, of ``L = Y/M`` (Rec. 601
``highlights``                      luma over full scale); see :data:`TONES`.
``sky``                             :func:`sky_mask`: colour, brightness, texture and position.
``clouds``                          :func:`editor.sky.clouds_mask`: the sky's grey, soft part.
``greenery``                        :func:`editor.greenery.greenery_mask`: plants by colour and
                                    texture ("grass", "trees", "plants" name it too).
==================================  ==========================================================

Tonal curves, with ``s(a, b)`` the smoothstep rising from 0 at ``L = a`` to 1 at ``L = b``
(``t = clip((L - a)/(b - a), 0, 1)``, ``s = t*t*(3 - 2t)``):

- ``shadows = 1 - s(0.2, 0.6)``: full below L 0.2, none above 0.6;
- ``midtones = s(0.1, 0.4) * (1 - s(0.6, 0.9))``: full from 0.4 to 0.6, none below 0.1 or
  above 0.9;
- ``highlights = s(0.4, 0.8)``: none below L 0.4, full above 0.8.

The ramps are wide so that an edit inside them keeps the order of tones: a smoothstep over a
width ``b - a`` has a slope of at most ``1.5/(b - a)``, so a brightness change of ``p`` percent
cannot make a darker pixel overtake a brighter one while ``p/100*1.5/(b - a) <= 1``: up to
``|p| = 26`` in shadows and highlights, 20 in midtones. Beyond that, pixels in the ramp can
cross (a pixel at L 0.2 lifted by 40 ends brighter than one at L 0.45), as with any luminance
mask.

Drawn regions: :func:`from_box` and :func:`from_stroke` are hard (0 or 1); :func:`feather` softens
an edge into a ramp ``px`` wide (pixels farther than ``px/2`` from every edge keep their value), and
:func:`refine_to_edges` snaps a rough box or stroke to the edges of what it encloses (GrabCut).
The wiring applies :data:`DRAWN_FEATHER` ``* D`` to a drawn region that was not refined.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

import cv2
import numpy as np

from editor.greenery import greenery_mask
from editor.jit import lazy_njit
from editor.ops import check_image, check_range, full_scale
from editor.sky import clouds_mask, sky_mask

__all__ = [
    "CENTER_FULL",
    "CENTER_ZERO",
    "DRAWN_FEATHER",
    "HALF_FEATHER",
    "OBJECT_FEATHER",
    "FOUND_NAMES",
    "REGION_NAMES",
    "SIDE_FULL",
    "SIDE_ZERO",
    "TONES",
    "apply_in_region",
    "bounding_box",
    "check_mask",
    "feather",
    "from_box",
    "from_cutout",
    "from_stroke",
    "geometric_mask",
    "invert",
    "is_loop",
    "linear_gradient",
    "refine_to_edges",
    "region_mask",
    "sky_mask",
    "tonal_mask",
]

SIDE_FULL = 1 / 3  # a side's mask is 1 from its edge to this fraction of the way across
SIDE_ZERO = 1 / 2  # ... and 0 from this fraction on (the middle line)
HALF_FEATHER = 0.05  # a half's edge: a linear ramp this fraction of the diagonal wide
CENTER_FULL = 1 / 3  # the centre ellipse: 1 inside this normalised radius
CENTER_ZERO = 2 / 3  # ... 0 outside this one
DRAWN_FEATHER = 0.01  # feather for a drawn box or stroke that is not refined, as a fraction of the diagonal
OBJECT_FEATHER = 0.004  # feather for a detected object's mask (already at its edge), as a fraction of the diagonal
# name: (a, b, c, d) for the trapezoid s(a, b) * (1 - s(c, d)) of L in [0, 1]; None is an open end.
TONES: dict[str, tuple[float | None, float | None, float | None, float | None]] = {
    "shadows": (None, None, 0.2, 0.6),
    "midtones": (0.1, 0.4, 0.6, 0.9),
    "highlights": (0.4, 0.8, None, None),
}

_SIDES = ("left", "right", "top", "bottom")
_HALVES = tuple(f"{s} half" for s in _SIDES)
_CORNERS = ("top left", "top right", "bottom left", "bottom right")
GEOMETRIC_NAMES = _SIDES + _HALVES + _CORNERS + ("center",)
REGION_NAMES: tuple[str, ...] = GEOMETRIC_NAMES + tuple(TONES) + ("sky", "clouds", "greenery")
_HALF = 0.5 + 1e-9  # round half up; the 1e-9 as in editor.ops, for ties float lands just below


# --- checking -----------------------------------------------------------------------------------


def _shape2(shape) -> tuple[int, int]:
    """``(H, W)`` from an image's shape (or an image); ``ValueError`` unless both are positive."""
    if isinstance(shape, np.ndarray):
        shape = shape.shape
    try:
        h, w = (int(v) for v in tuple(shape)[:2])
    except (TypeError, ValueError):
        raise ValueError(f"shape must be (H, W) or an image's shape, got {shape!r}") from None
    if h <= 0 or w <= 0 or len(tuple(shape)) not in (2, 3):
        raise ValueError(f"shape must be (H, W) or (H, W, C) with H, W > 0, got {tuple(shape)!r}")
    return h, w


def bounding_box(mask: np.ndarray, at: float = 0.5) -> tuple[int, int, int, int] | None:
    """``(x1, y1, x2, y2)`` of the pixels where ``mask >= at`` (``x2``/``y2`` exclusive), None when
    there are none.

    >>> m = np.zeros((4, 6), np.float32); m[1:3, 2:5] = 0.8
    >>> bounding_box(m), bounding_box(m, at=0.9)
    ((2, 1, 5, 3), None)
    """
    hard = np.asarray(mask) >= at
    ys, xs = np.nonzero(hard.any(axis=1))[0], np.nonzero(hard.any(axis=0))[0]
    if len(ys) == 0:
        return None
    return int(xs[0]), int(ys[0]), int(xs[-1]) + 1, int(ys[-1]) + 1


def check_mask(mask: np.ndarray, shape=None) -> np.ndarray:
    """Return ``mask`` as a float array in [0, 1] (``float32``, or ``float64`` if it was), never a
    view that could change the caller's mask; raise ``ValueError`` if it is not a region mask.

    Accepted: ``bool``; ``uint8`` (0..255) and ``uint16`` (0..65535) as fractions of full scale;
    floats in ``[0, 1]`` (NaN or values outside raise). ``shape``, when given, is the image's
    shape (or the image) whose height and width the mask must have.
    """
    return _as_float(mask, shape, copy=True)


def _as_float(mask: np.ndarray, shape=None, *, copy: bool) -> np.ndarray:
    """:func:`check_mask`; with ``copy=False`` a float mask comes back as it is (no 12-megapixel copy
    for a caller that only reads it)."""
    if not isinstance(mask, np.ndarray) or mask.ndim != 2:
        raise ValueError(f"a region mask must be a 2-D (H, W) array, got {getattr(mask, 'shape', type(mask).__name__)}")
    if shape is not None and mask.shape != _shape2(shape):
        raise ValueError(f"mask shape {mask.shape} does not match the image's {_shape2(shape)}")
    if mask.dtype == bool:
        return mask.astype(np.float32)
    if mask.dtype in (np.uint8, np.uint16):
        return mask.astype(np.float32) / np.float32(np.iinfo(mask.dtype).max)
    if mask.dtype.kind != "f":
        raise ValueError(f"a region mask must be bool, uint8, uint16 or float, got {mask.dtype}")
    out = mask.astype(np.float64 if mask.dtype == np.float64 else np.float32, copy=copy)
    lo, hi = (float(v) for v in cv2.minMaxLoc(out)[:2]) if out.size else (0.0, 0.0)
    # a NaN or an infinity anywhere makes the sum NaN or infinite (values in [0, 1] cannot overflow it)
    if not (math.isfinite(lo) and math.isfinite(hi) and math.isfinite(float(out.sum()))):
        raise ValueError("a region mask must not contain NaN or infinite values")
    if lo < 0 or hi > 1:
        raise ValueError(f"a region mask must lie in [0, 1], got values from {lo:g} to {hi:g}")
    return out


# --- applying an operation inside a mask --------------------------------------------------------


@lazy_njit  # one pass over the pixels, about 10x faster than the same float64 arithmetic in NumPy
def _blend_kernel(src, res, m, out):
    """``out = src + floor(m*(res - src) + 0.5 + 1e-9)`` per pixel row of ``(N, C)`` arrays, in
    float64 (exact: ``m`` has 24 or 53 bits and ``res - src`` at most 17); ``src`` where
    ``m <= 0`` and ``res`` where ``m >= 1``, selected, not computed. The result lies between
    ``src`` and ``res``, so it needs no clipping."""
    n, c = src.shape
    for i in range(n):
        w = m[i]
        if w <= 0:
            for k in range(c):
                out[i, k] = src[i, k]
        elif w >= 1:
            for k in range(c):
                out[i, k] = res[i, k]
        else:
            wd = np.float64(w)
            for k in range(c):
                a = np.int64(src[i, k])
                out[i, k] = a + np.int64(np.floor(wd * np.float64(np.int64(res[i, k]) - a) + 0.5000000010))


def _like(image: np.ndarray, result: np.ndarray) -> np.ndarray:
    """``image`` in the channel layout of ``result`` (grey repeated to RGB, an opaque alpha added)
    so the two can be blended; ``ValueError`` when the operation changed the size or dropped
    channels (rotate, crop: they have no meaning inside a region)."""
    if result.shape[:2] != image.shape[:2] or result.dtype != image.dtype:
        raise ValueError(
            f"the operation changed the image from {image.shape} {image.dtype} to {result.shape} "
            f"{result.dtype}; only operations that keep the size and dtype can apply to a region"
        )
    n_in = 1 if image.ndim == 2 else image.shape[2]
    n_out = 1 if result.ndim == 2 else result.shape[2]
    if n_in == n_out:
        return image
    if n_out < n_in or n_out not in (3, 4):
        raise ValueError(f"the operation turned {n_in} channels into {n_out}; cannot blend them in a region")
    src = np.repeat(image[:, :, None], 3, axis=2) if n_in == 1 else image[:, :, :3]
    if n_out == 4:
        alpha = image[:, :, 3:] if n_in == 4 else np.full(image.shape[:2] + (1,), full_scale(image), image.dtype)
        src = np.concatenate([src, alpha], axis=2)
    return src


def apply_in_region(image: np.ndarray, mask: np.ndarray, op: Callable[[np.ndarray], np.ndarray], *,
                    pointwise: bool = False) -> np.ndarray:
    """Apply ``op`` to the whole image and keep its result only inside the region ``mask``.

    ``out = m*op(image) + (1 - m)*image``, computed per channel in float64 and rounded half up
    (``floor(v + 0.5)``, with editor.ops' 1e-9 tolerance for ties), so with ``d = op(image) - image``
    an integer, ``out = image + floor(m*d + 0.5 + 1e-9)``. Where ``m == 0`` the output is the input
    bit for bit and where ``m == 1`` it is ``op(image)`` bit for bit (those pixels are selected,
    not blended).

    Parameters
    ----------
    image : ndarray
        ``uint8`` or ``uint16`` grey, RGB or RGBA image (editor.ops' contract); not changed.
    mask : ndarray
        The region, ``(H, W)``: floats in [0, 1], or ``bool``/``uint8``/``uint16`` (as fractions
        of full scale). See :func:`check_mask`.
    op : callable
        ``op(image) -> ndarray`` of the same height, width and dtype, for example
        ``lambda im: ops.adjust_brightness(im, amount=20)``. It sees the whole image, so an
        operation that looks at neighbours (sharpness) or statistics (auto_enhance) behaves inside
        the region as it does on the whole picture. An operation that turns grey into RGB
        (adjust_color, warmth) makes the result RGB: the pixels outside become grey RGB.

    pointwise : bool
        Say that ``op`` maps each pixel on its own (brightness, contrast, a tint, grayscale,
        saturation, warmth, hue; not sharpness or auto_enhance, which look at neighbours or at
        the whole picture): it then runs on the bounding box of ``mask > 0`` only, which gives
        the same pixels (the box's result is the crop of the whole picture's) in a fraction of
        the time when the region is small. An ``op`` that changes the channel layout runs on
        the whole image as usual.

    Returns
    -------
    ndarray
        A new image of the operation's dtype and channel layout; alpha (4th channel) is blended
        like the colours, so an operation that keeps alpha keeps it.

    Examples
    --------
    >>> img = np.full((1, 3), 100, np.uint8)
    >>> m = np.array([[0.0, 0.5, 1.0]], np.float32)
    >>> apply_in_region(img, m, lambda im: im + 51)
    array([[100, 126, 151]], dtype=uint8)
    """
    check_image(image)
    m = _as_float(mask, image.shape, copy=False)  # only read here: no copy of a 12-megapixel mask
    if not callable(op):
        raise ValueError(f"op must be a function image -> image, got {op!r}")
    if pointwise:
        box = _support(m)
        if box is None:  # an empty region: nothing changes (op still checks its arguments)
            op(image[:1, :1])
            return image.copy()
        y1, y2, x1, x2 = box
        if (y2 - y1) * (x2 - x1) < image.shape[0] * image.shape[1]:
            part = apply_in_region(image[y1:y2, x1:x2], m[y1:y2, x1:x2], op)
            if part.ndim == image.ndim and part.shape[2:] == image.shape[2:]:
                out = image.copy()
                out[y1:y2, x1:x2] = part
                return out
    result = op(image)
    if not isinstance(result, np.ndarray):
        raise ValueError(f"the operation returned {type(result).__name__}, not an image")
    src = _like(image, result)
    n = 1 if src.ndim == 2 else src.shape[2]
    flat_src = np.ascontiguousarray(src).reshape(-1, n)
    flat_res = np.ascontiguousarray(result).reshape(-1, n)
    out = np.empty_like(flat_res)
    _blend_kernel(flat_src, flat_res, np.ascontiguousarray(m).reshape(-1), out)
    return out.reshape(result.shape)


def _support(m: np.ndarray) -> tuple[int, int, int, int] | None:
    """``(y1, y2, x1, x2)`` of the smallest box holding every ``m > 0``, or None when none is."""
    rows, cols = np.flatnonzero(m.any(axis=1)), np.flatnonzero(m.any(axis=0))
    if len(rows) == 0:
        return None
    return int(rows[0]), int(rows[-1]) + 1, int(cols[0]), int(cols[-1]) + 1


# --- geometric regions --------------------------------------------------------------------------


def _ramp(coord: np.ndarray, full: float, zero: float) -> np.ndarray:
    """1 at ``coord <= full``, 0 at ``coord >= zero``, linear between (``full != zero``); float32."""
    return np.clip((zero - coord) / (zero - full), 0, 1).astype(np.float32)


def linear_gradient(shape, *, start: tuple[float, float], end: tuple[float, float]) -> np.ndarray:
    """Lightroom's linear gradient: 1 on ``start``'s side of the line through ``start``, 0 beyond
    the parallel line through ``end``, falling linearly between.

    ``start`` and ``end`` are ``(x, y)`` points in pixels (the image spans ``[0, W] x [0, H]``,
    pixel ``(i, j)`` has its centre at ``(j + 0.5, i + 0.5)``); both lines are perpendicular to
    ``end - start``.

    Examples
    --------
    >>> linear_gradient((1, 4), start=(1, 0), end=(3, 0))
    array([[1.  , 0.75, 0.25, 0.  ]], dtype=float32)
    """
    h, w = _shape2(shape)
    try:
        x0, y0 = (float(v) for v in start)
        x1, y1 = (float(v) for v in end)
    except (TypeError, ValueError):
        raise ValueError(f"start and end must be (x, y) points, got {start!r} and {end!r}") from None
    dx, dy = x1 - x0, y1 - y0
    n2 = dx * dx + dy * dy
    if not math.isfinite(n2) or n2 == 0:
        raise ValueError(f"start and end must be two different finite points, got {start!r} and {end!r}")
    xs = ((np.arange(w, dtype=np.float64) + 0.5 - x0) * dx / n2).astype(np.float32)
    ys = ((np.arange(h, dtype=np.float64) + 0.5 - y0) * dy / n2).astype(np.float32)
    t = ys[:, None] + xs[None, :]  # the fraction of the way from start to end
    return np.clip(1 - t, 0, 1, out=t)


def _axis(n: int) -> np.ndarray:
    """Pixel centres along an axis of ``n`` pixels, as fractions of it (float64: these are 1-D)."""
    return (np.arange(n, dtype=np.float64) + 0.5) / n


def geometric_mask(shape, name: str) -> np.ndarray:
    """The mask of a side, half, corner or the centre of an image of ``shape`` (see the module's
    table: :data:`SIDE_FULL`, :data:`SIDE_ZERO`, :data:`HALF_FEATHER`, :data:`CENTER_FULL`,
    :data:`CENTER_ZERO`).

    Examples
    --------
    >>> geometric_mask((1, 12), "left")
    array([[1.  , 1.  , 1.  , 1.  , 0.75, 0.25, 0.  , 0.  , 0.  , 0.  , 0.  ,
            0.  ]], dtype=float32)
    """
    h, w = _shape2(shape)
    if name not in GEOMETRIC_NAMES:
        raise ValueError(f"unknown geometric region {name!r}; known: {', '.join(GEOMETRIC_NAMES)}")
    xs, ys = _axis(w), _axis(h)
    if name == "center":
        rx = (((xs - 0.5) * 2) ** 2).astype(np.float32)
        ry = (((ys - 0.5) * 2) ** 2).astype(np.float32)
        r = np.sqrt(ry[:, None] + rx[None, :])
        return _ramp(r, CENTER_FULL, CENTER_ZERO)
    if name in _HALVES:
        side = name.split()[0]
        f = HALF_FEATHER * math.hypot(h, w) / (w if side in ("left", "right") else h) / 2
        full, zero = 0.5 - f, 0.5 + f
    else:
        full, zero = SIDE_FULL, SIDE_ZERO
    parts = name.split()[:2] if name in _CORNERS else [name.split()[0]]
    out = np.ones((h, w), np.float32)
    for side in parts:
        coord = {"left": xs, "right": 1 - xs, "top": ys, "bottom": 1 - ys}[side]
        ramp = _ramp(coord, full, zero)
        out *= ramp[None, :] if side in ("left", "right") else ramp[:, None]
    return out


# --- tonal regions -------------------------------------------------------------------------------


def _smoothstep(x: np.ndarray, a: float, b: float) -> np.ndarray:
    """``t*t*(3 - 2t)``, ``t = clip((x - a)/(b - a), 0, 1)``, in float32, in place on one new array
    (a 12-megapixel mask is 48 MB; temporaries cost more than the arithmetic)."""
    t = np.subtract(x, np.float32(a), dtype=np.float32)
    t *= np.float32(1 / (b - a))
    np.maximum(t, 0, out=t)
    np.minimum(t, 1, out=t)
    u = np.multiply(t, np.float32(-2))
    u += np.float32(3)
    u *= t
    u *= t
    return u


def luminance(image: np.ndarray) -> np.ndarray:
    """``L = (0.299 R + 0.587 G + 0.114 B)/M`` as float32 in [0, 1] (the grey value of a grey image);
    alpha is ignored."""
    check_image(image)
    m = np.float32(full_scale(image))
    if image.ndim == 2:
        return image.astype(np.float32) / m
    mat = np.array([[0.299, 0.587, 0.114]], np.float32) / m
    # cv2.transform keeps the input's depth, so the input must be float32 for a float result.
    rgb = image[:, :, :3].astype(np.float32)
    return cv2.transform(rgb, mat).reshape(image.shape[:2])


def tonal_mask(image: np.ndarray, tone: str) -> np.ndarray:
    """The luminance-range mask of ``tone`` (``"shadows"``, ``"midtones"``, ``"highlights"``).

    Pixel by pixel, ``L`` the Rec. 601 luma over full scale and ``s(a, b)`` a smoothstep from 0 at
    ``a`` to 1 at ``b``: shadows ``1 - s(0.2, 0.6)``, midtones ``s(0.1, 0.4)*(1 - s(0.6, 0.9))``,
    highlights ``s(0.4, 0.8)`` (:data:`TONES`; the module's docstring says how large an edit
    inside them keeps the order of tones).

    Examples
    --------
    >>> tonal_mask(np.array([[0, 51, 100, 128, 160, 255]], np.uint8), "shadows").round(3)
    array([[1.   , 1.   , 0.529, 0.151, 0.   , 0.   ]], dtype=float32)
    """
    check_image(image)
    if tone not in TONES:
        raise ValueError(f"unknown tonal range {tone!r}; known: {', '.join(TONES)}")
    lum = luminance(image)
    a, b, c, d = TONES[tone]
    out = _smoothstep(lum, a, b) if a is not None else None
    if c is not None:
        down = _smoothstep(lum, c, d)
        np.subtract(np.float32(1), down, out=down)
        out = down if out is None else np.multiply(out, down, out=out)
    return out


# --- drawn regions and mask arithmetic ----------------------------------------------------------


def invert(mask: np.ndarray) -> np.ndarray:
    """``1 - mask``: "everything except" a region. 0 and 1 swap exactly.

    Examples
    --------
    >>> invert(np.array([[0.0, 0.25, 1.0]], np.float32))
    array([[1.  , 0.75, 0.  ]], dtype=float32)
    """
    m = check_mask(mask)
    return (1 - m).astype(m.dtype)


def feather(mask: np.ndarray, px: float) -> np.ndarray:
    """Soften a mask's edges: a hard edge becomes a smooth ramp ``px`` pixels wide, centred on it.

    A stack blur (OpenCV's ``stackBlur``, a near-Gaussian tent kernel whose support is exactly
    ``px`` rounded up to an odd size) of the mask. Pixels farther than ``px/2`` from every edge
    keep their value exactly (so 0 stays 0 and 1 stays 1 there); values within 1e-6 of 0 or 1
    are snapped to it. ``px`` from 0 (a copy) up; borders repeat the edge pixel, so a region
    touching the image's edge stays full up to it.

    Examples
    --------
    >>> m = np.zeros((1, 9), np.float32); m[0, 4:] = 1
    >>> (feather(m, 5)[0] * 9).round(4)  # ninths: the tent kernel's ramp
    array([0., 0., 1., 3., 6., 8., 9., 9., 9.], dtype=float32)
    """
    m = check_mask(mask).astype(np.float32)
    px = check_range("feather width", px, 0, 1e6)
    k = int(math.ceil(px))
    if k <= 1:
        return m
    k += 1 - k % 2  # odd
    kx = min(k, 2 * (m.shape[1] // 2) + 1)
    ky = min(k, 2 * (m.shape[0] // 2) + 1)
    out = cv2.stackBlur(cv2.copyMakeBorder(m, ky // 2, ky // 2, kx // 2, kx // 2, cv2.BORDER_REPLICATE), (kx, ky))
    out = out[ky // 2: ky // 2 + m.shape[0], kx // 2: kx // 2 + m.shape[1]]
    out[out < 1e-6] = 0
    out[out > 1 - 1e-6] = 1
    return np.ascontiguousarray(out)


def from_box(shape, box) -> np.ndarray:
    """A hard rectangular region: 1 inside ``box = (x1, y1, x2, y2)`` (pixels, ``x2``/``y2``
    exclusive, corners in either order, clipped to the image), 0 outside. ``ValueError`` when no
    part of the image is inside.

    Examples
    --------
    >>> from_box((3, 4), (1, 0, 3, 2))
    array([[0., 1., 1., 0.],
           [0., 1., 1., 0.],
           [0., 0., 0., 0.]], dtype=float32)
    """
    h, w = _shape2(shape)
    try:
        x1, y1, x2, y2 = (int(round(float(v))) for v in box)
    except (TypeError, ValueError):
        raise ValueError(f"box must be four numbers x1 y1 x2 y2, got {box!r}") from None
    xa, xb = sorted((x1, x2))
    ya, yb = sorted((y1, y2))
    xa, xb, ya, yb = max(0, xa), min(w, xb), max(0, ya), min(h, yb)
    if xb <= xa or yb <= ya:
        raise ValueError(f"box {x1} {y1} {x2} {y2} holds no part of the {w}x{h} image")
    out = np.zeros((h, w), np.float32)
    out[ya:yb, xa:xb] = 1
    return out


STROKE_WIDTH = 0.04  # a scribble's brush: this fraction of the image's diagonal
CLOSE_GAP = 0.25  # a stroke is a loop when its ends are this close, as a fraction of its extent
LOOP_FILL = 0.3  # ... and the polygon it draws covers at least this share of its bounding box


def _is_loop(pts: np.ndarray, width: float) -> bool:
    """Does a stroke circle something? Its ends meet (within :data:`CLOSE_GAP` of its extent), it
    is more than a dot, and the polygon it draws is not a thin zigzag (its area is at least
    :data:`LOOP_FILL` of its bounding box: a circle's is pi/4 of it, a back-and-forth scribble's
    shoelace area nearly cancels)."""
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    extent = float(np.hypot(*(hi - lo)))
    if len(pts) < 4 or extent < 2 * width:
        return False
    if float(np.hypot(*(pts[-1] - pts[0]))) > CLOSE_GAP * extent:
        return False
    area = abs(cv2.contourArea(pts.astype(np.float32)))
    return area >= LOOP_FILL * max(1e-9, float(np.prod(hi - lo)))


def is_loop(shape, points, *, width: float | None = None, normalized: bool = False) -> bool:
    """Whether a stroke circles something (:func:`from_stroke` fills it) rather than scribbles over
    it (:func:`from_stroke` draws its path): the caller refines a loop within it and lets a
    scribble's region grow past the brush (``refine_to_edges(..., reach=...)``).

    Examples
    --------
    >>> is_loop((10, 10), [(2, 2), (7, 2), (7, 7), (2, 7), (2, 3)]), is_loop((10, 10), [(1, 1), (8, 8)])
    (True, False)
    """
    h, w = _shape2(shape)
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(pts) == 0 or not np.isfinite(pts).all():
        raise ValueError("a stroke needs at least one finite (x, y) point")
    if normalized:
        pts = pts * (w, h)
    diag = math.hypot(h, w)
    return _is_loop(pts, STROKE_WIDTH * diag if width is None else float(width))


def from_stroke(shape, points, *, width: float | None = None, normalized: bool = False) -> np.ndarray:
    """A hard region from a drawn stroke: the filled polygon of a stroke that circles something,
    else the path itself, ``width`` pixels wide (a scribble over it).

    Parameters
    ----------
    shape : tuple
        The image's shape.
    points : sequence of (x, y)
        The stroke in order, in pixels (or in 0..1 of the width and height with
        ``normalized=True``, as a Localized Narratives trace stores them).
    width : float, optional
        The brush width for a scribble, in pixels; :data:`STROKE_WIDTH` of the diagonal by default.

    A stroke is a loop when its ends come within :data:`CLOSE_GAP` of its extent and the polygon
    it draws covers at least :data:`LOOP_FILL` of its bounding box; a loop's polygon is filled
    (closing the gap) together with the line drawn one pixel wide.

    Examples
    --------
    >>> ring = [(2, 2), (7, 2), (7, 7), (2, 7), (2, 3)]
    >>> int(from_stroke((10, 10), ring).sum())
    36
    """
    h, w = _shape2(shape)
    try:
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    except (TypeError, ValueError):
        raise ValueError("points must be a sequence of (x, y) pairs") from None
    if len(pts) == 0 or not np.isfinite(pts).all():
        raise ValueError("a stroke needs at least one finite (x, y) point")
    if normalized:
        pts = pts * (w, h)
    diag = math.hypot(h, w)
    width = STROKE_WIDTH * diag if width is None else check_range("stroke width", width, 1, 2 * diag)
    out = np.zeros((h, w), np.uint8)
    shift = 4  # sub-pixel coordinates for OpenCV's drawing
    ipts = np.round((pts - 0.5) * (1 << shift)).astype(np.int32)
    if _is_loop(pts, width):
        cv2.fillPoly(out, [ipts], 1, lineType=cv2.LINE_8, shift=shift)
        cv2.polylines(out, [ipts], True, 1, 1, cv2.LINE_8, shift)
    else:
        t = max(1, int(round(width)))
        if len(ipts) == 1:
            ipts = np.vstack([ipts, ipts])
        cv2.polylines(out, [ipts], False, 1, t, cv2.LINE_8, shift)
        for p in ipts:  # round joins and ends
            cv2.circle(out, (int(p[0]), int(p[1])), (t << shift) // 2, 1, -1, cv2.LINE_8, shift)
    if not out.any():
        raise ValueError("the stroke lies outside the image")
    return out.astype(np.float32)


def from_cutout(alpha: np.ndarray) -> np.ndarray:
    """A region from a cutout's alpha or a subject mask: ``uint8``/``uint16`` alpha as a fraction
    of full scale, a float mask in [0, 1] as is, ``bool`` as 0/1; an ``(H, W, 4)`` image's alpha
    channel is taken. For "the background", :func:`invert` the result.

    Examples
    --------
    >>> from_cutout(np.array([[0, 255, 51]], np.uint8))
    array([[0. , 1. , 0.2]], dtype=float32)
    """
    if isinstance(alpha, np.ndarray) and alpha.ndim == 3 and alpha.shape[2] == 4:
        alpha = alpha[:, :, 3]
    return check_mask(alpha).astype(np.float32)


# --- snapping a drawn region to edges ------------------------------------------------------------

REFINE_SIDE = 320  # GrabCut runs on a copy of the region's neighbourhood this size on its long side
REFINE_ITERS = 4


def refine_to_edges(image: np.ndarray, rough: np.ndarray, *, reach: float = 0.0) -> np.ndarray:
    """Snap a rough region (a box, a circled or scribbled stroke) to the edges of what it holds.

    GrabCut (OpenCV) on a copy of the region's neighbourhood at most :data:`REFINE_SIDE` pixels a
    side: pixels of ``rough >= 0.5`` are probably the thing, pixels within ``reach`` pixels outside
    it probably not, and everything farther out is background for certain (``reach=0``, for a box
    or a loop around the thing: nothing outside the drawn region is taken; a scribble over a thing
    may pass ``reach`` so the result can grow past the brush). The result, upsampled to full
    resolution, has an edge about one working pixel wide (soft), and is never outside
    ``rough`` grown by ``reach``.

    When GrabCut keeps less than 5% of the drawn region or more than 98% of what it may take (a
    flat region with nothing to separate, or a region with no background around it to learn
    from), ``rough`` is returned unchanged (as float32): the user's drawing is the best there is.

    Examples
    --------
    >>> img = np.zeros((60, 60, 3), np.uint8); img[20:40, 20:40] = (200, 30, 30)
    >>> img[::3, ::2] += 12  # a little texture for the colour models
    >>> m = refine_to_edges(img, from_box(img.shape, (10, 10, 50, 50)))
    >>> bool(m[30, 30] == 1 and m[12, 12] == 0)
    True
    """
    check_image(image)
    r = check_mask(rough, image.shape) >= 0.5
    reach = check_range("reach", reach, 0, 1e6)
    h, w = image.shape[:2]
    ys, xs = np.nonzero(r.any(axis=1))[0], np.nonzero(r.any(axis=0))[0]
    if len(ys) == 0:
        raise ValueError("the rough region is empty")
    y1, y2, x1, x2 = int(ys[0]), int(ys[-1]) + 1, int(xs[0]), int(xs[-1]) + 1
    pad = int(math.ceil(reach + 0.15 * max(y2 - y1, x2 - x1) + 2))
    cy1, cy2, cx1, cx2 = max(0, y1 - pad), min(h, y2 + pad), max(0, x1 - pad), min(w, x2 + pad)
    f = min(1.0, REFINE_SIDE / max(cy2 - cy1, cx2 - cx1))
    sw, sh = max(4, round((cx2 - cx1) * f)), max(4, round((cy2 - cy1) * f))
    crop = image[cy1:cy2, cx1:cx2]
    rgb = crop if crop.ndim == 3 else np.repeat(crop[:, :, None], 3, axis=2)
    rgb = rgb[:, :, :3]
    if rgb.dtype == np.uint16:
        rgb = (rgb >> 8).astype(np.uint8)
    small = cv2.resize(np.ascontiguousarray(rgb), (sw, sh), interpolation=cv2.INTER_AREA)
    r_small = cv2.resize(r[cy1:cy2, cx1:cx2].astype(np.uint8), (sw, sh), interpolation=cv2.INTER_NEAREST).astype(bool)
    near = r_small
    if reach > 0:
        k = max(1, int(round(reach * f)))
        near = cv2.dilate(r_small.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))).astype(bool)
    gc = np.full((sh, sw), cv2.GC_BGD, np.uint8)
    gc[near] = cv2.GC_PR_BGD
    gc[r_small] = cv2.GC_PR_FGD
    fallback = r.astype(np.float32)
    if (gc == cv2.GC_BGD).sum() < 16 or r_small.sum() < 16:
        return fallback
    try:
        cv2.setRNGSeed(0)  # GrabCut seeds its colour models with k-means: the same drawing, the same region
        cv2.grabCut(cv2.cvtColor(small, cv2.COLOR_RGB2BGR), gc, None, np.zeros((1, 65), np.float64),
                    np.zeros((1, 65), np.float64), REFINE_ITERS, cv2.GC_INIT_WITH_MASK)
    except cv2.error:
        return fallback
    fg = np.isin(gc, (cv2.GC_FGD, cv2.GC_PR_FGD))
    if fg.sum() < 0.05 * r_small.sum() or fg.sum() > 0.98 * near.sum():
        return fallback
    soft = cv2.resize(fg.astype(np.float32), (cx2 - cx1, cy2 - cy1), interpolation=cv2.INTER_LINEAR)
    soft[soft < 1e-6] = 0
    soft[soft > 1 - 1e-6] = 1
    out = np.zeros((h, w), np.float32)
    out[cy1:cy2, cx1:cx2] = soft
    if reach > 0:
        k = int(math.ceil(reach))
        allowed = cv2.dilate(r.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1)))
        out[allowed == 0] = 0
    else:
        out[~r] = 0
    return out


# --- names ----------------------------------------------------------------------------------------

FOUND_NAMES = ("sky", "clouds", "greenery")  # regions found in the picture, which may be kept to one half
# "greenery on the left": the found part in that half ("darken the trees on the left" darkened every tree)
_PLACED = re.compile(r"(.+?) (?:on|at|in|to) (?:the )?(left|right|top|bottom)(?: half| side)?")
_ALIASES = {
    "centre": "center", "middle": "center", "the middle": "center",
    "upper left": "top left", "upper right": "top right", "lower left": "bottom left",
    "lower right": "bottom right", "left top": "top left", "right top": "top right",
    "left bottom": "bottom left", "right bottom": "bottom right",
    "upper half": "top half", "lower half": "bottom half",
    "shadow": "shadows", "highlight": "highlights", "midtone": "midtones", "mid tones": "midtones",
    "dark areas": "shadows", "darks": "shadows", "lights": "highlights", "bright areas": "highlights",
    "skies": "sky", "the sky": "sky", "cloud": "clouds", "the clouds": "clouds",
    "grass": "greenery", "trees": "greenery", "plants": "greenery", "vegetation": "greenery", "foliage": "greenery",
    "tree": "greenery", "lawn": "greenery", "lawns": "greenery", "leaves": "greenery", "bushes": "greenery",
    "shrubs": "greenery", "hedge": "greenery", "hedges": "greenery", "forest": "greenery", "woods": "greenery",
    "bamboo": "greenery", "ferns": "greenery", "reeds": "greenery",
}


def canonical_region_name(name: str) -> str:
    """The :data:`REGION_NAMES` entry ``name`` means: case, hyphens, a leading "the" and a trailing
    "side", "edge" or "part" are ignored, and a few synonyms map ("centre", "upper left",
    "lower half", "highlight"). ``ValueError`` for anything else (``selection`` included: the
    caller holds the drawn selection)."""
    if not isinstance(name, str):
        raise ValueError(f"a region name must be a string, got {name!r}")
    s = re.sub(r"[\s_-]+", " ", name.strip().lower())
    s = re.sub(r"^the ", "", s)
    s = re.sub(r"( hand)?( side| edge| part)$", "", s).strip()
    s = _ALIASES.get(s, s)
    if s in REGION_NAMES:
        return s
    placed = _PLACED.fullmatch(s)
    if placed and _ALIASES.get(placed.group(1), placed.group(1)) in FOUND_NAMES:
        side = placed.group(2)
        return f"{_ALIASES.get(placed.group(1), placed.group(1))} {'at' if side in ('top', 'bottom') else 'on'} the {side}"
    if s == "selection":
        raise ValueError("'selection' is the region the user drew; the caller resolves it, not region_mask")
    raise ValueError(f"unknown region {name!r}; known: {', '.join(REGION_NAMES)}")


def region_mask(image: np.ndarray, name: str) -> np.ndarray:
    """The mask of a word-named region of ``image`` (float32 ``(H, W)`` in [0, 1]).

    ``name`` is one of :data:`REGION_NAMES` (or a variant :func:`canonical_region_name` accepts, or
    one of :data:`FOUND_NAMES` kept to a half: "greenery on the left" is the greenery times the
    left half's mask):
    sides, halves, corners and the centre (:func:`geometric_mask`), ``shadows``/``midtones``/
    ``highlights`` (:func:`tonal_mask`), ``sky`` (:func:`sky_mask`), ``clouds`` and ``greenery``;
    the last three may be all zeros, when the photo shows none: the caller should then say so
    rather than edit nothing.

    Examples
    --------
    >>> img = np.zeros((2, 4, 3), np.uint8)
    >>> region_mask(img, "the Left side")[0]
    array([1.  , 0.75, 0.  , 0.  ], dtype=float32)
    """
    check_image(image)
    s = canonical_region_name(name)
    if s in GEOMETRIC_NAMES:
        return geometric_mask(image.shape, s)
    if s in TONES:
        return tonal_mask(image, s)
    placed = _PLACED.fullmatch(s)
    if placed:  # a found part kept to one half, the half's feathered edge included
        part, side = region_mask(image, placed.group(1)), placed.group(2)
        rows = np.nonzero(part.max(axis=1) > 0.5)[0]
        if side in ("top", "bottom") and len(rows) > 1:
            # the top of the sky is the upper half of the sky, not of the picture (which holds all of it)
            half = np.zeros_like(part)
            half[rows[0]:rows[-1] + 1] = geometric_mask((rows[-1] + 1 - rows[0], part.shape[1]), f"{side} half")
            half[:rows[0]] = 1.0 if side == "top" else 0.0
            half[rows[-1] + 1:] = 0.0 if side == "top" else 1.0
            return part * half
        return part * geometric_mask(image.shape, f"{side} half")
    if s == "greenery":
        return greenery_mask(image)
    return clouds_mask(image) if s == "clouds" else sky_mask(image)
