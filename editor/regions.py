"""Operations on parts of an image: background replacement and crops about a box.

The same contract as :mod:`editor.ops` (pure functions, arguments checked first, input untouched,
dtype/alpha/full resolution kept). Which part is the subject or which box is the object is decided
by the caller (``agent.edits.objects`` finds them with the detector and u2netp); these functions only
take a mask or a box.
"""

from __future__ import annotations

import math
import re

import cv2
import numpy as np

from editor.colors import COLORS
from editor.ops import check_image, check_range, crop, full_scale, with_alpha

__all__ = ["BACKGROUND_COLORS", "crop_aspect", "crop_to_box", "replace_background", "aspect_ratio"]

# CAISE's nine colours plus the plain backgrounds people ask for most ("make the background white").
BACKGROUND_COLORS: dict[str, tuple[int, int, int]] = {
    **COLORS, "white": (255, 255, 255), "black": (0, 0, 0), "grey": (128, 128, 128),
    "gray": (128, 128, 128),
}
BLUR_FRACTION = 1 / 60  # background blur: sigma = max(H, W)/60 (a strong, portrait-like blur)


def _check_mask(mask: np.ndarray, image: np.ndarray) -> np.ndarray:
    """``mask`` as float32 in [0, 1]; bool, uint8 (0..255) and float masks are accepted."""
    if not isinstance(mask, np.ndarray) or mask.shape != image.shape[:2]:
        shape = getattr(mask, "shape", None)
        raise ValueError(f"mask shape {shape} does not match the image's {image.shape[:2]}")
    if mask.dtype == bool:
        return mask.astype(np.float32)
    if mask.dtype == np.uint8:
        return mask.astype(np.float32) / 255
    if mask.dtype.kind == "f":
        return np.clip(np.nan_to_num(mask.astype(np.float32)), 0, 1)
    raise ValueError(f"mask must be bool, uint8 or float, got {mask.dtype}")


def masked_blur(image: np.ndarray, keep: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur of the pixels where ``keep`` is 1, normalised by the blurred ``keep``, so the
    subject does not bleed into the blurred background. Run on a copy shrunk so sigma is ~4 px
    (the result is smooth, so nothing is lost) and resized back."""
    h, w = image.shape[:2]
    scale = min(1.0, 4.0 / sigma)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    src = image.astype(np.float32)
    if src.ndim == 2:
        src = src[:, :, None]
    small = cv2.resize(src * keep[:, :, None], size, interpolation=cv2.INTER_AREA)
    small_k = cv2.resize(keep, size, interpolation=cv2.INTER_AREA)
    s = sigma * scale
    if small.ndim == 2:
        small = small[:, :, None]
    num = cv2.GaussianBlur(small, (0, 0), s, borderType=cv2.BORDER_REFLECT_101)
    den = cv2.GaussianBlur(small_k, (0, 0), s, borderType=cv2.BORDER_REFLECT_101)
    if num.ndim == 2:
        num = num[:, :, None]
    # Where there is almost no background near (inside a big subject), fall back to the plain blur.
    plain = cv2.GaussianBlur(cv2.resize(src, size, interpolation=cv2.INTER_AREA), (0, 0), s)
    if plain.ndim == 2:
        plain = plain[:, :, None]
    d = den[:, :, None]
    bg = np.where(d > 1e-3, num / np.maximum(d, 1e-3), plain)
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR).reshape(h, w, -1)


def replace_background(image: np.ndarray, *, mask: np.ndarray, mode: str, strength: float = 1.0) -> np.ndarray:
    """Keep the subject (``mask``) and replace the background with a colour, a blur or transparency.

    With ``m`` the mask in [0, 1] (1 on the subject; soft edges blend):

    - ``mode`` a colour name of :data:`BACKGROUND_COLORS`: ``out = m*in + (1 - m)*rgb(mode)``
      (grey images become RGB, an alpha channel is kept);
    - ``"blur"``: ``out = m*in + (1 - m)*B`` with ``B = G(in*(1-m))/G(1-m)``, ``G`` a Gaussian of
      standard deviation ``strength * max(H, W)/60`` computed on a reduced copy (the subject does
      not bleed into the blurred background);
    - ``"transparent"``: colours kept, ``alpha = min(alpha, m*M)`` (an alpha channel is added).

    Examples
    --------
    >>> img = np.full((2, 2, 3), 100, np.uint8)
    >>> m = np.array([[1, 0], [0, 0]], np.float32)
    >>> replace_background(img, mask=m, mode="white")[:, :, 0]
    array([[100, 255],
           [255, 255]], dtype=uint8)
    """
    check_image(image)
    if not isinstance(mode, str):
        raise ValueError(f"background mode must be a string, got {mode!r}")
    mode = mode.strip().lower()
    if mode not in BACKGROUND_COLORS and mode not in ("blur", "transparent"):
        raise ValueError(f"unknown background {mode!r}; use blur, transparent or a colour: "
                         f"{', '.join(BACKGROUND_COLORS)}")
    if not 0 < strength <= 16:
        raise ValueError(f"blur strength must be in (0, 16], got {strength!r}")
    m_f = _check_mask(mask, image)
    top = full_scale(image)
    if mode == "transparent":
        out = with_alpha(image).copy()
        alpha = np.floor(m_f * top + 0.5).astype(image.dtype)
        out[:, :, 3] = np.minimum(out[:, :, 3], alpha)
        return out
    if mode == "blur":
        src = image
        bg = masked_blur(src[:, :, :3] if src.ndim == 3 else src, 1 - m_f,
                          max(image.shape[:2]) * BLUR_FRACTION * strength)
    else:
        src = np.repeat(image[:, :, None], 3, axis=2) if image.ndim == 2 else image
        bg = np.array(BACKGROUND_COLORS[mode], np.float32) * (top / 255)
    colour = src[:, :, :3] if src.ndim == 3 else src[:, :, None]
    mm = m_f[:, :, None]
    res = mm * colour.astype(np.float32) + (1 - mm) * bg
    res = np.clip(np.floor(res + 0.5), 0, top).astype(image.dtype)
    out = src.copy()
    if out.ndim == 2:
        out[:] = res[:, :, 0]
    else:
        out[:, :, :3] = res
    # Exactly the input where the mask is exactly 1 (float rounding must not touch the subject).
    keep = m_f >= 1
    out[keep] = src[keep]
    return out


def _check_box(box) -> tuple[int, int, int, int]:
    try:
        x1, y1, x2, y2 = (int(round(float(v))) for v in box)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"box must be four numbers x1 y1 x2 y2, got {box!r}") from None
    return min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)


def crop_to_box(image: np.ndarray, *, box, margin: float = 0.1) -> np.ndarray:
    """Crop to ``box = (x1, y1, x2, y2)`` grown by ``margin`` times its width and height on each side.

    ``margin`` is from 0 (exactly the box, ``x2``/``y2`` exclusive) to 1; the grown box is rounded
    outward and clipped to the image. A box with nothing of the image inside raises ``ValueError``.

    Examples
    --------
    >>> crop_to_box(np.zeros((100, 100), np.uint8), box=(40, 40, 60, 50), margin=0.1).shape
    (12, 24)
    """
    check_image(image)
    margin = check_range("crop margin", margin, 0, 1)
    x1, y1, x2, y2 = _check_box(box)
    dx, dy = (x2 - x1) * margin, (y2 - y1) * margin
    grown = (math.floor(x1 - dx), math.floor(y1 - dy), math.ceil(x2 + dx), math.ceil(y2 + dy))
    return crop(image, box=grown)


_ASPECTS = {"square": 1.0, "1:1": 1.0}


def aspect_ratio(aspect: str | float) -> float:
    """Width over height of ``"square"``, ``"W:H"`` (``"4:3"``, ``"16:9"``, ``"3:4"``) or a number."""
    if isinstance(aspect, (int, float)) and not isinstance(aspect, bool):
        r = float(aspect)
    elif isinstance(aspect, str) and aspect.strip().lower() in _ASPECTS:
        r = _ASPECTS[aspect.strip().lower()]
    elif isinstance(aspect, str) and re.fullmatch(r"\s*\d+(\.\d+)?\s*[:x/]\s*\d+(\.\d+)?\s*", aspect):
        a, b = re.split(r"[:x/]", aspect)
        r = float(a) / float(b) if float(b) > 0 else float("nan")
    else:
        raise ValueError(f"aspect must be 'square', 'W:H' such as '4:3' or '16:9', or a number; got {aspect!r}")
    if not math.isfinite(r) or not 0.1 <= r <= 10:
        raise ValueError(f"aspect ratio must be from 1:10 to 10:1, got {aspect!r}")
    return r


def crop_aspect(image: np.ndarray, *, aspect: str | float, centre_box=None) -> np.ndarray:
    """The largest crop of the given aspect (width:height), centred on ``centre_box``'s centre.

    ``aspect`` is ``"square"``, ``"W:H"`` (``"4:3"`` and ``"16:9"`` are landscape, ``"3:4"`` portrait)
    or a number ``W/H``. The crop is ``w = min(W, H*r)``, ``h = min(H, W/r)`` (rounded), centred on
    the box's centre (the image's centre when ``centre_box`` is None) and slid to stay inside the
    image. An image that already has the aspect comes back as an identical copy.

    Examples
    --------
    >>> crop_aspect(np.zeros((300, 800), np.uint8), aspect="square", centre_box=(0, 0, 100, 300)).shape
    (300, 300)
    """
    check_image(image)
    r = aspect_ratio(aspect)
    h, w = image.shape[:2]
    cw = min(w, max(1, int(math.floor(h * r + 0.5))))
    ch = min(h, max(1, int(math.floor(w / r + 0.5))))
    if centre_box is None:
        cx, cy = w / 2, h / 2
    else:
        x1, y1, x2, y2 = _check_box(centre_box)
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    left = int(min(max(math.floor(cx - cw / 2 + 0.5), 0), w - cw))
    top = int(min(max(math.floor(cy - ch / 2 + 0.5), 0), h - ch))
    return image[top:top + ch, left:left + cw].copy()
