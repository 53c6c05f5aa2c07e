"""Retouching people at full resolution: red eyes (the pixel half; agent.edits.retouch finds the eyes).

A red eye is the flash's light on the retina: pupils far redder than green or blue. Within a circle
around each eye, a pixel is red when its red exceeds both green and blue by :data:`RED_MARGIN` of full
scale and is :data:`RED_RATIO` times the larger of them; the red pixels in one piece with the
circle's middle third (the pupil, not a red scarf at the circle's edge) take the mean of their green
and blue as red, blended by a mask feathered one pixel. Everything else is unchanged bit for bit.
"""

from __future__ import annotations

import cv2
import numpy as np

RED_MARGIN = 0.2  # red above max(green, blue) by this share of full scale
RED_RATIO = 1.6  # ... and at least this many times it


def red_mask(pixels: np.ndarray, x: float, y: float, radius: float) -> np.ndarray:
    """The red-eye mask (float32 ``(H, W)``, 0..1) of the circle at ``(x, y)``: empty when no red pupil."""
    h, w = pixels.shape[:2]
    out = np.zeros((h, w), np.float32)
    r = max(2, int(round(radius)))
    x1, y1, x2, y2 = max(0, int(x) - r), max(0, int(y) - r), min(w, int(x) + r + 1), min(h, int(y) + r + 1)
    if x1 >= x2 or y1 >= y2:
        return out
    full = 65535.0 if pixels.dtype == np.uint16 else 255.0
    crop = pixels[y1:y2, x1:x2, :3].astype(np.float32) / full
    red, other = crop[..., 0], np.maximum(crop[..., 1], crop[..., 2])
    yy, xx = np.mgrid[y1:y2, x1:x2]
    inside = (xx - x) ** 2 + (yy - y) ** 2 <= r * r
    hit = inside & (red - other >= RED_MARGIN) & (red >= RED_RATIO * np.maximum(other, 1e-3))
    count, labels = cv2.connectedComponents(hit.astype(np.uint8), connectivity=8)
    middle = (xx - x) ** 2 + (yy - y) ** 2 <= (r / 3) ** 2
    keep = set(np.unique(labels[middle & hit]).tolist()) - {0}
    if not keep:
        return out
    piece = np.isin(labels, list(keep)).astype(np.uint8)
    piece = cv2.dilate(piece, np.ones((3, 3), np.uint8))  # the pink rim the threshold leaves
    out[y1:y2, x1:x2] = cv2.GaussianBlur(piece.astype(np.float32), (3, 3), 0.8) * inside
    return out


def fix_red_eyes(pixels: np.ndarray, eyes: list[tuple[float, float, float]]) -> tuple[np.ndarray, int]:
    """``pixels`` with the red eyes in the circles ``(x, y, radius)`` fixed, and how many were red.

    >>> img = np.full((40, 40, 3), 200, np.uint8); img[17:23, 17:23] = (220, 40, 40)
    >>> out, n = fix_red_eyes(img, [(20, 20, 8)])
    >>> n, out[20, 20].tolist(), bool((out[2, 2] == img[2, 2]).all())
    (1, [40, 40, 40], True)
    """
    if pixels.ndim != 3 or pixels.shape[2] < 3:
        return pixels.copy(), 0  # a grey picture has no red eye
    mask = np.zeros(pixels.shape[:2], np.float32)
    n = 0
    for x, y, radius in eyes:
        one = red_mask(pixels, x, y, radius)
        n += bool(one.any())
        mask = np.maximum(mask, one)
    out = pixels.copy()
    if n:
        src = pixels[..., :3].astype(np.float32)
        fixed = src.copy()
        fixed[..., 0] = (src[..., 1] + src[..., 2]) / 2
        blended = src + (fixed - src) * mask[..., None]
        changed = mask > 0
        out[..., :3][changed] = np.floor(blended[changed] + 0.5).astype(pixels.dtype)
    return out, n
