"""The greenery of a photo (grass, trees, leaves, plants) as a soft mask (:func:`greenery_mask`), from
colour and texture.

:mod:`editor.masks` names it as the region ``greenery``; the request reader sends "the grass", "the
trees", "the leaves", "the plants" to it. "make the grass greener" was refused (Easel could not find
the grass on its own) and "make the grass a lot less green" brightened and balanced the whole picture.
One region stands for all of them: telling a lawn from the trees behind it takes more than colour.
"""

from __future__ import annotations

import cv2
import numpy as np

from editor.ops import check_image, full_scale
from editor.sky import sky_mask

__all__ = ["greenery_mask"]

GREEN_SIDE = 640  # the colour test runs on a copy this size on its long side; texture on one half that
GREEN_HUE = (93.0, 100.0, 165.0, 185.0)  # CIELAB hue angle h_ab in degrees: none below the first, all from the second, down to none at the last
GREEN_CHROMA = (6.0, 12.0)  # chroma C*ab: none below the first, all from the second
GREEN_OLIVE = (105.0, 115.0, 45.0, 60.0)  # yellow-green hue (fully under the first, not from the second): chroma over the third fades to none at the fourth (a lemon, not a lawn)
GREEN_PALE = (0.15, 0.3)  # chroma over lightness: a white wall in green light or shade is pale, not green
GREEN_LIGHT = (4.0, 8.0)  # lightness L*: a leaf in deep shade still counts from the second
GREEN_TEXTURE = (0.01, 0.025)  # a region's mean luma gradient on the texture copy: a painted wall is under the first
GREEN_GAP_DARK = 30.0  # inside found greenery, gaps darker than this L* are leaves in shade
GREEN_SPREAD = (0.04, 0.07)  # ... or the standard deviation of its L*/100 (a blurred lawn behind an animal)
GREEN_MIN = 0.005  # greenery covering less than this share of the picture is none
GREEN_PIECE = 0.0005  # ... nor a green piece smaller than this share (a button, a logo)
GREEN_HOLE = 0.002  # holes inside found greenery up to this share of the picture are filled (twigs, needles)


def _ramp(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    return np.clip((x - lo) / (hi - lo), 0.0, 1.0)


def _pieces(where: np.ndarray, grad: np.ndarray, light: np.ndarray, min_area: float) -> np.ndarray:
    """Each connected piece of ``where`` weighted by how much it looks like plants: textured (its mean
    gradient, :data:`GREEN_TEXTURE`) or, out of focus, with light that varies across it
    (:data:`GREEN_SPREAD`; a painted wall's does not)."""
    n, pid, stats, _ = cv2.connectedComponentsWithStats(where.astype(np.uint8), connectivity=8)
    area = np.maximum(stats[:, cv2.CC_STAT_AREA].astype(np.float64), 1)
    ids, l1 = pid.ravel(), light.ravel()
    mean_l = np.bincount(ids, weights=l1, minlength=n) / area
    spread = np.sqrt(np.maximum(np.bincount(ids, weights=l1 * l1, minlength=n) / area - mean_l ** 2, 0))
    texture = np.bincount(ids, weights=grad.ravel(), minlength=n) / area
    keep = np.maximum(_ramp(spread, *GREEN_SPREAD), _ramp(texture, *GREEN_TEXTURE)) * (area >= min_area)
    keep[0] = 0.0
    return keep[pid].astype(np.float32)


def _fill_holes(m: np.ndarray, max_area: float) -> np.ndarray:
    """``m`` with its small holes filled: pieces under 0.5 no larger than ``max_area`` that the greenery
    surrounds (not touching the picture's edge) take the weight of the greenery around them. A forest
    floor's twigs and brown needles were holes, and "brighten the trees" left them as dark blotches
    (plasma-workspace-wallpapers' Path)."""
    out = (m < 0.5).astype(np.uint8)
    n, pid, stats, _ = cv2.connectedComponentsWithStats(out, connectivity=4)
    h, w = m.shape
    x, y, bw, bh, area = (stats[:, k] for k in range(5))
    small = (area <= max_area) & (x > 0) & (y > 0) & (x + bw < w) & (y + bh < h)
    small[0] = False  # (label 0 is the greenery itself)
    fill = small[pid] & (out == 1)
    if not fill.any():
        return m
    kept = (~fill).astype(np.float32)  # the weight around each hole, averaged over what is not hole
    around = cv2.GaussianBlur(m * kept, (0, 0), 4.0) / np.maximum(cv2.GaussianBlur(kept, (0, 0), 4.0), 1e-3)
    return np.where(fill, np.maximum(m, around), m).astype(np.float32)


def greenery_mask(image: np.ndarray, *, sky: np.ndarray | None = None) -> np.ndarray:
    """Where the photo shows growing plants, as a float32 ``(H, W)`` mask in [0, 1] (all zeros when it
    shows none):

    1. green by colour, in CIELAB: hue angle from yellow-green to the green side of cyan
       (:data:`GREEN_HUE`), with chroma (:data:`GREEN_CHROMA`), not pale for its lightness
       (:data:`GREEN_PALE`), not lemon-bright where it is yellowish (:data:`GREEN_OLIVE`), not black
       (:data:`GREEN_LIGHT`). Olive lawns (hue about 100 degrees) are found; yellowed, dry grass and
       autumn leaves (under 93) are not;
    2. like plants, each connected green piece as a whole: textured (its mean gradient on a copy
       half as large, :data:`GREEN_TEXTURE`), or out of focus with light that varies across it
       (:data:`GREEN_SPREAD`). A flat green wall or backdrop on its own is not; one standing on a
       lawn joins the lawn's piece and is taken with it;
    3. not sky (``sky``: the photo's sky mask at its size, when the caller has it; else it is found),
       and not pieces under :data:`GREEN_PIECE` of the picture; less than :data:`GREEN_MIN`
       in all is none;
    4. the dark gaps between leaves inside the found greenery are filled (:data:`GREEN_GAP_DARK`),
       and the mask softened by a pixel of the colour copy.

    Green things that are not plants are taken when their colour is a plant's: the Statue of
    Liberty's patina, a green caterpillar, marble lit green (the Lincoln Memorial at dusk); bench/greenery.py
    has the figures.

    >>> rng = np.random.default_rng(0)
    >>> img = np.zeros((60, 80, 3), np.uint8); img[:30] = (200, 200, 205)
    >>> img[30:] = np.clip(rng.normal((60, 120, 40), 25, (30, 80, 3)), 0, 255)
    >>> m = greenery_mask(img)
    >>> bool(m[45, 40] > 0.9), bool(m[10, 40] == 0)
    (True, True)
    >>> flat = np.full((60, 80, 3), (60, 140, 60), np.uint8)  # a green wall: no texture
    >>> bool(greenery_mask(flat).max() == 0)
    True
    """
    check_image(image)
    h, w = image.shape[:2]
    none = np.zeros((h, w), np.float32)
    if image.ndim == 2 or image.shape[2] < 3:
        return none
    f = min(1.0, GREEN_SIDE / max(h, w))
    size = (max(8, round(w * f)), max(8, round(h * f)))
    small = cv2.resize(np.ascontiguousarray(image[:, :, :3]), size, interpolation=cv2.INTER_AREA).astype(np.float32)
    small /= np.float32(full_scale(image))
    lab = cv2.cvtColor(small, cv2.COLOR_RGB2Lab)  # float input: L* 0..100, a* and b* about -128..127
    light, a_, b_ = lab[..., 0], lab[..., 1], lab[..., 2]
    hue = np.degrees(np.arctan2(b_, a_)) % 360
    chroma = np.hypot(a_, b_)
    h0, h1, h2, h3 = GREEN_HUE
    hue_w = np.minimum(_ramp(hue, h0, h1), 1.0 - _ramp(hue, h2, h3))
    o0, o1, c0, c1 = GREEN_OLIVE
    not_lemon = 1.0 - (1.0 - _ramp(hue, o0, o1)) * _ramp(chroma, c0, c1)
    vivid = np.minimum(_ramp(chroma, *GREEN_CHROMA), _ramp(chroma / np.maximum(light, 1.0), *GREEN_PALE))
    colour = (hue_w * not_lemon * vivid * _ramp(light, *GREEN_LIGHT)).astype(np.float32)
    if colour.max() > 0:
        colour *= 1.0 - cv2.resize((sky_mask(image) if sky is None else sky).astype(np.float32), size,
                                   interpolation=cv2.INTER_AREA)
    core = colour > 0.5
    if core.mean() < GREEN_MIN:
        return none
    # texture on a copy half as large, each green piece as a whole
    half = (max(4, size[0] // 2), max(4, size[1] // 2))
    luma = cv2.resize(light / 100, half, interpolation=cv2.INTER_AREA)
    grad = np.hypot(cv2.Sobel(luma, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(luma, cv2.CV_32F, 0, 1, ksize=3)) / 8
    grad = cv2.resize(grad, size, interpolation=cv2.INTER_LINEAR)
    closed = cv2.morphologyEx(core.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)).astype(bool)
    pieces = _pieces(closed, grad, light / 100, GREEN_PIECE * size[0] * size[1])
    # inside a kept piece, the dark gaps between leaves (closed above) count; elsewhere the colour's own weight
    m = np.where(closed.astype(bool), np.maximum(colour, 0.75 * (light < GREEN_GAP_DARK)), colour) * pieces
    m = _fill_holes(m.astype(np.float32), GREEN_HOLE * size[0] * size[1])
    m = cv2.GaussianBlur(m, (0, 0), 0.7)
    if float((m > 0.5).mean()) < GREEN_MIN:
        return none
    return np.clip(cv2.resize(m, (w, h), interpolation=cv2.INTER_LINEAR), 0.0, 1.0)
