"""Rotating without empty corners, and resizing: the geometry as pure functions, then the operations.

A picture ``w`` x ``h`` turned by an angle no longer fills an upright frame: :func:`editor.ops.rotate`
enlarges the canvas and leaves transparent wedges in the corners. :func:`largest_upright_rect` is
the size of the largest upright rectangle that fits inside the turned picture (centred, which is
where the largest one lies), and :func:`rotate_crop` turns and keeps exactly that.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from editor.ops import check_image, rotate


def largest_upright_rect(width: float, height: float, degrees: float) -> tuple[float, float]:
    """Width and height of the largest axis-aligned rectangle inside a ``width`` x ``height``
    rectangle turned by ``degrees`` about its centre (both centred).

    With a = |angle| folded into [0, 90], s = sin a, c = cos a, L the long side and S the short one:
    when S <= 2 s c L (a steep turn of a long picture) the rectangle touches both long sides and its
    half short side is S/2, so its sides are (S/2)/s and (S/2)/c; otherwise it touches all four sides:
    ``w' = (w c - h s) / (c² - s²)``, ``h' = (h c - w s) / (c² - s²)``.

    >>> [round(side, 6) for side in largest_upright_rect(100, 100, 45)]
    [70.710678, 70.710678]
    >>> largest_upright_rect(400, 300, 0)
    (400.0, 300.0)
    >>> largest_upright_rect(400, 300, 90)
    (300.0, 400.0)
    """
    if width <= 0 or height <= 0:
        raise ValueError(f"a rectangle needs positive sides, got {width} x {height}")
    a = math.radians(degrees % 180)
    s, c = abs(math.sin(a)), abs(math.cos(a))
    if s < 1e-12:
        return float(width), float(height)
    if c < 1e-12:
        return float(height), float(width)
    long_side, short_side = (width, height) if width >= height else (height, width)
    if short_side <= 2 * s * c * long_side or abs(s - c) < 1e-10:
        x = 0.5 * short_side
        return (x / s, x / c) if width >= height else (x / c, x / s)
    cos_2a = c * c - s * s
    return (width * c - height * s) / cos_2a, (height * c - width * s) / cos_2a


def crop_box(width: int, height: int, degrees: float) -> tuple[int, int, int, int]:
    """The pixel box (x1, y1, x2, y2; x2, y2 exclusive) that :func:`rotate_crop` keeps of the canvas
    :func:`editor.ops.rotate` makes of a ``width`` x ``height`` picture: the largest upright
    rectangle, one pixel in from each side (the turned edge is interpolated against transparency
    there), rounded inwards and centred.

    >>> crop_box(100, 100, 0)
    (0, 0, 100, 100)
    """
    quarter = degrees / 90
    if abs(quarter - round(quarter)) < 1e-9:
        w, h = (width, height) if round(quarter) % 2 == 0 else (height, width)
        return 0, 0, w, h
    rad = math.radians(degrees)
    cw, sw = abs(math.cos(rad)), abs(math.sin(rad))
    canvas_w = int(math.ceil(width * cw + height * sw - 1e-6))
    canvas_h = int(math.ceil(width * sw + height * cw - 1e-6))
    rw, rh = largest_upright_rect(width, height, degrees)
    keep_w, keep_h = max(1, int(math.floor(rw)) - 2), max(1, int(math.floor(rh)) - 2)
    x1, y1 = (canvas_w - keep_w) // 2, (canvas_h - keep_h) // 2
    return x1, y1, x1 + keep_w, y1 + keep_h


def rotate_crop(image: np.ndarray, *, degrees: float) -> np.ndarray:
    """Rotate counter-clockwise by ``degrees`` and keep the largest upright rectangle inside the
    turned picture (:func:`crop_box`): no transparent or black wedge is left, and the result has the
    input's channels (an alpha channel only if the input had one).

    >>> img = np.full((30, 40, 3), 200, np.uint8)
    >>> out = rotate_crop(img, degrees=5)
    >>> out.shape[2], int(out.min())
    (3, 200)
    """
    check_image(image)
    turned = rotate(image, degrees=degrees)
    x1, y1, x2, y2 = crop_box(image.shape[1], image.shape[0], degrees)
    out = turned[y1:y2, x1:x2]
    had_alpha = image.ndim == 3 and image.shape[2] == 4
    if turned.ndim == 3 and turned.shape[2] == 4 and not had_alpha:
        out = out[:, :, :3] if image.ndim == 3 else out[:, :, 0]
    return np.ascontiguousarray(out)


def resize(image: np.ndarray, *, width: int, height: int) -> np.ndarray:
    """Scale to ``width`` x ``height`` pixels: area averaging when shrinking (no aliasing), bicubic
    when enlarging; dtype and channels kept.

    >>> resize(np.zeros((10, 20, 3), np.uint8), width=10, height=5).shape
    (5, 10, 3)
    """
    check_image(image)
    if not (1 <= width <= 100_000 and 1 <= height <= 100_000):
        raise ValueError(f"a size in pixels is 1 to 100000 a side, got {width} x {height}")
    h, w = image.shape[:2]
    if (w, h) == (width, height):
        return image.copy()
    shrink = width * height < w * h
    out = cv2.resize(image, (int(width), int(height)), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_CUBIC)
    return out.reshape((height, width, *image.shape[2:]))
