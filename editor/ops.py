"""Image operations: pure functions ``op(image, *, param=...) -> new array``.

Every operation

- leaves its input untouched and returns a new array;
- keeps the dtype (``uint8`` or ``uint16``), the full resolution and an alpha channel;
- accepts ``(H, W)`` grey, ``(H, W, 3)`` RGB and ``(H, W, 4)`` RGBA arrays;
- checks its parameters first and raises ``ValueError`` naming the valid range.

The formulas are Easel's contract (DESIGN.md), written with ``M`` the full scale of the dtype
(255 or 65535); results are rounded half up and clipped to ``[0, M]``:

- brightness ``p``: ``out = in + p/100*M``
- contrast ``p``: ``out = (in - M/2)*(1 + p/100) + M/2``
- adjust_color ``c, i``: ``out = (1-i)*in + i*rgb(c)`` (``rgb(c)`` scaled to ``M``; grey images
  become RGB)
- rotate ``d``: counter-clockwise about the centre, the canvas enlarged to hold the whole image, the
  new corners transparent (an alpha channel is added) and black. Multiples of 90 degrees are exact
  transposes and add no alpha.
- image_cutout: the main subject kept, the background black, the subject mask as alpha.
- crop, flip: exact copies of pixels.

Sizes: no operation takes or makes an image above :data:`~editor.imageio.MAX_PIXELS` (the limit a
file is opened with): :func:`check_image` refuses larger inputs and :func:`check_result_size`
refuses a result before a byte of it is allocated (a 45-degree turn of a 100000x2 strip would be
70712x70712, 5 gigapixels, 20 GB).

Alpha is never changed by the point operations. Brightness is a saturating integer add; contrast
and colour are per-channel affine maps whose exact result is a lookup table per channel, run with
OpenCV's SIMD ``transform`` once it has been checked to reproduce those tables (see
:func:`per_channel_affine`).
"""

from __future__ import annotations

import math
import os

import cv2
import numpy as np

from editor.colors import COLORS
from editor.imageio import MAX_PIXELS
from editor.models import ModelMissingError, lazy, model_path

__all__ = [
    "adjust_brightness",
    "adjust_color",
    "adjust_contrast",
    "crop",
    "flip",
    "image_cutout",
    "rotate",
    "subject_mask",
    "ModelMissingError",
]


def check_image(image: np.ndarray) -> None:
    """Raise ``TypeError``/``ValueError`` unless ``image`` is an array the operations accept."""
    if not isinstance(image, np.ndarray):
        raise TypeError(f"expected a NumPy array, got {type(image).__name__}")
    if image.dtype not in (np.uint8, np.uint16):
        raise ValueError(f"images must be uint8 or uint16, got {image.dtype}")
    if image.ndim == 3 and image.shape[2] in (3, 4):
        pass
    elif image.ndim != 2:
        raise ValueError(f"expected an (H, W), (H, W, 3) or (H, W, 4) image, got shape {image.shape}")
    if image.shape[0] == 0 or image.shape[1] == 0:
        raise ValueError(f"the image has no pixels (shape {image.shape})")
    h, w = image.shape[:2]
    if h * w > MAX_PIXELS:
        raise ValueError(f"the image is {w}x{h}, {w * h / 1e6:.0f} megapixels, more than the "
                         f"{MAX_PIXELS / 1e6:.0f}-megapixel limit Easel edits")


def check_result_size(width: int, height: int, what: str) -> None:
    """Raise ``ValueError`` if ``what`` would make a ``width`` x ``height`` image above the limit
    (called before the result is computed)."""
    if width * height > MAX_PIXELS:
        raise ValueError(f"{what} would make a {width}x{height} image ({width * height / 1e6:,.0f} "
                         f"megapixels), more than the {MAX_PIXELS / 1e6:.0f}-megapixel limit Easel "
                         "opens and edits; crop or shrink the image first")


def crop_kept(shape: tuple[int, ...], box) -> tuple[int, int, int, int]:
    """The part of an image of ``shape`` that :func:`crop` keeps for ``box``: ``(x1, y1, x2, y2)``
    clipped to the image, corners in order (what a reply should report, not the box asked for).
    Raises ``ValueError`` when the box holds no part of the image."""
    try:
        x1, y1, x2, y2 = (int(v) for v in box)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"crop box must be four whole numbers x1 y1 x2 y2, got {box!r}") from None
    h, w = shape[:2]
    xa, xb = sorted((x1, x2))
    ya, yb = sorted((y1, y2))
    xa, xb = max(0, xa), min(w, xb)
    ya, yb = max(0, ya), min(h, yb)
    if xb <= xa or yb <= ya:
        raise ValueError(f"crop box {x1} {y1} {x2} {y2} holds no part of the {w}x{h} image")
    return xa, ya, xb, yb


def full_scale(image: np.ndarray) -> int:
    return int(np.iinfo(image.dtype).max)


def check_range(name: str, value: float, lo: float, hi: float) -> float:
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a number from {lo:g} to {hi:g}, got {value!r}") from None
    if not math.isfinite(value) or not lo <= value <= hi:
        raise ValueError(f"{name} must be from {lo:g} to {hi:g}, got {value:g}")
    return value


def _table(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Round half up and clip a float lookup table to ``dtype``.

    The 1e-9 makes ties that float arithmetic lands just below (0.7*255 = 178.49999999999997)
    round up as they do in exact arithmetic.
    """
    m = np.iinfo(dtype).max
    return np.clip(np.floor(values + 0.5 + 1e-9), 0, m).astype(dtype)


def apply_tables(image: np.ndarray, tables: list[np.ndarray]) -> np.ndarray:
    """Apply one lookup table per colour channel; alpha (a 4th channel) passes through."""
    if image.ndim == 2:
        (t,) = tables[:1]
        return cv2.LUT(image, t) if image.dtype == np.uint8 else t[image]
    n = image.shape[2]
    identity = np.arange(full_scale(image) + 1, dtype=image.dtype)
    tables = list(tables) + [identity] * (n - len(tables))
    if image.dtype == np.uint8:
        lut = np.stack(tables, axis=-1).reshape(256, 1, n)
        return cv2.LUT(image, lut)
    out = np.empty_like(image)
    for c in range(n):
        out[..., c] = tables[c][image[..., c]]
    return out


def per_channel_affine(image: np.ndarray, gains: list[float], offsets: list[float]) -> np.ndarray:
    """``out[c] = round_half_up(gains[c]*in[c] + offsets[c])``, clipped; alpha passes through.

    The exact answer is a lookup table per channel. OpenCV's ``transform`` computes the same map
    several times faster but in float32 with its own rounding, so it is used only after checking
    that it reproduces the exact tables for every possible input value (the map of each channel
    depends on that channel's value alone, so checking every value on a ramp checks every image).
    Otherwise the tables are applied.
    """
    m = full_scale(image)
    x = np.arange(m + 1, dtype=np.float64)
    tables = [_table(g * x + o, image.dtype) for g, o in zip(gains, offsets)]
    n = 1 if image.ndim == 2 else image.shape[2]
    # Each value appears at several positions so SIMD bodies and scalar tails are both checked.
    ramp = np.tile(np.arange(m + 1, dtype=image.dtype), 5)[: 5 * (m + 1) - 3]
    ramp_img = np.repeat(ramp[None, :, None], n, axis=2) if n > 1 else ramp[None, :]
    want = np.stack([t[ramp] for t in tables] + [ramp] * (n - len(tables)), axis=-1).reshape(
        ramp_img.shape)
    # OpenCV rounds half to even; a small nudge makes exact ties round up as the contract says.
    for nudge in (1e-3, 1e-4, 0.0):
        mat = np.zeros((n, n + 1), np.float64)
        for c in range(n):
            mat[c, c] = gains[c] if c < len(gains) else 1.0
            mat[c, n] = offsets[c] + nudge if c < len(offsets) else 0.0
        if np.array_equal(cv2.transform(ramp_img, mat).reshape(want.shape), want):
            return cv2.transform(image, mat).reshape(image.shape)
    return apply_tables(image, tables)


def adjust_brightness(image: np.ndarray, *, amount: float) -> np.ndarray:
    """Add ``amount`` percent of full scale to every colour channel.

    Parameters
    ----------
    image : ndarray
        ``uint8`` or ``uint16`` grey, RGB or RGBA image.
    amount : float
        Percentage from -100 to 100; 0 returns an identical copy.

    Examples
    --------
    >>> adjust_brightness(np.array([[10, 250]], np.uint8), amount=10)
    array([[ 36, 255]], dtype=uint8)
    """
    check_image(image)
    amount = check_range("brightness", amount, -100, 100)
    m = full_scale(image)
    # in is an integer, so round_half_up(in + d) = in + round_half_up(d): a saturating integer add.
    k = int(math.floor(amount / 100 * m + 0.5))
    n = 1 if image.ndim == 2 else image.shape[2]
    shift = tuple([abs(k)] * min(n, 3) + [0] * (4 - min(n, 3)))
    return cv2.add(image, shift) if k >= 0 else cv2.subtract(image, shift)


def adjust_contrast(image: np.ndarray, *, amount: float) -> np.ndarray:
    """Scale every colour channel around mid-grey by ``1 + amount/100``.

    ``amount`` is a percentage from -100 (flat grey) to 100 (double contrast); 0 is the identity.

    Examples
    --------
    >>> adjust_contrast(np.array([[100, 200]], np.uint8), amount=50)
    array([[ 86, 236]], dtype=uint8)
    """
    check_image(image)
    amount = check_range("contrast", amount, -100, 100)
    m = full_scale(image)
    g = 1 + amount / 100
    n = 1 if image.ndim == 2 else 3
    return per_channel_affine(image, [g] * n, [m / 2 * (1 - g)] * n)


def adjust_color(image: np.ndarray, *, color: str, intensity: float) -> np.ndarray:
    """Blend every pixel toward a named colour: ``out = (1 - i)*in + i*rgb(color)``.

    ``color`` is one of :data:`editor.colors.COLORS`; ``intensity`` is from 0 (identity) to 1 (a
    flat field of the colour). Grey images become RGB.

    Examples
    --------
    >>> adjust_color(np.zeros((1, 1, 3), np.uint8), color="red", intensity=0.5)
    array([[[128,   0,   0]]], dtype=uint8)
    """
    check_image(image)
    if color not in COLORS:
        raise ValueError(f"unknown colour {color!r}; valid colours: {', '.join(COLORS)}")
    intensity = check_range("colour intensity", intensity, 0, 1)
    if image.ndim == 2:
        image = np.repeat(image[:, :, None], 3, axis=2)
    m = full_scale(image)
    target = np.array(COLORS[color], dtype=np.float64) * (m / 255)
    return per_channel_affine(image, [1 - intensity] * 3, [intensity * t for t in target])


def flip(image: np.ndarray, *, axis: str) -> np.ndarray:
    """Mirror the image: ``axis="horizontal"`` swaps left and right, ``"vertical"`` top and bottom."""
    check_image(image)
    if axis == "horizontal":
        return cv2.flip(image, 1)
    if axis == "vertical":
        return cv2.flip(image, 0)
    raise ValueError(f"flip axis must be 'horizontal' or 'vertical', got {axis!r}")


def crop(image: np.ndarray, *, box: tuple[int, int, int, int]) -> np.ndarray:
    """Keep the pixels in ``box = (x1, y1, x2, y2)``, ``x2`` and ``y2`` exclusive.

    The corners may come in either order (a rectangle dragged up and to the left); the box is
    clipped to the image, and a box with nothing of the image inside raises ``ValueError``.
    """
    check_image(image)
    xa, ya, xb, yb = crop_kept(image.shape, box)
    return image[ya:yb, xa:xb].copy()


def with_alpha(image: np.ndarray) -> np.ndarray:
    m = full_scale(image)
    if image.ndim == 2:
        image = np.repeat(image[:, :, None], 3, axis=2)
    if image.shape[2] == 4:
        return image
    alpha = np.full(image.shape[:2] + (1,), m, dtype=image.dtype)
    return np.concatenate([image, alpha], axis=2)


def rotate(image: np.ndarray, *, degrees: float) -> np.ndarray:
    """Rotate counter-clockwise by ``degrees`` (0..360) about the centre, enlarging the canvas.

    Multiples of 90 degrees are lossless transposes. Other angles interpolate bicubically and add
    an alpha channel so the new corners are transparent (and black where a format has no alpha).

    Examples
    --------
    >>> rotate(np.array([[1, 2], [3, 4]], np.uint8), degrees=90)
    array([[2, 4],
           [1, 3]], dtype=uint8)
    """
    check_image(image)
    degrees = check_range("rotation", degrees, 0, 360)
    quarter = degrees / 90
    if abs(quarter - round(quarter)) < 1e-9:
        k = int(round(quarter)) % 4
        codes = {1: cv2.ROTATE_90_COUNTERCLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_CLOCKWISE}
        return image.copy() if k == 0 else cv2.rotate(image, codes[k])
    h, w = image.shape[:2]
    rad = math.radians(degrees)
    c, s = abs(math.cos(rad)), abs(math.sin(rad))
    new_w = int(math.ceil(w * c + h * s - 1e-6))
    new_h = int(math.ceil(w * s + h * c - 1e-6))
    check_result_size(new_w, new_h, f"rotating the {w}x{h} image by {degrees:g} degrees")
    src = with_alpha(image)
    mat = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), degrees, 1.0)
    mat[0, 2] += (new_w - w) / 2
    mat[1, 2] += (new_h - h) / 2
    return cv2.warpAffine(
        src, mat, (new_w, new_h), flags=cv2.INTER_CUBIC,
        borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0),
    )


# --- background removal ---------------------------------------------------------------------

MASK_SIDE = 640  # u2netp works at 320x320; a small copy is all it needs to see.


@lazy
def _u2netp_session():
    """rembg's u2netp session on the bundled model file; never downloads."""
    path = model_path("u2netp.onnx")  # raises ModelMissingError with the fix
    os.environ["U2NET_HOME"] = str(path.parent)
    os.environ.setdefault("MODEL_CHECKSUM_DISABLED", "1")
    from editor.offline import onnxruntime

    ort = onnxruntime()  # telemetry off before rembg starts a session
    from rembg import new_session

    opts = ort.SessionOptions()
    opts.log_severity_level = 3
    # Threads that wait for work sleep instead of spinning: on the shared 2-core machine a spinning
    # pool burnt a third more CPU for the same inference and was 15-20% slower under load (bench/region_speed.py)
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return new_session("u2netp", sess_opts=opts, providers=["CPUExecutionProvider"])


def mask_input(image: np.ndarray) -> np.ndarray:
    """The small 8-bit RGB copy (at most :data:`MASK_SIDE` a side) that u2netp is shown."""
    rgb = image
    if rgb.dtype == np.uint16:
        rgb = (rgb >> 8).astype(np.uint8)
    if rgb.ndim == 2:
        rgb = np.repeat(rgb[:, :, None], 3, axis=2)
    rgb = rgb[:, :, :3]
    h, w = rgb.shape[:2]
    scale = min(1.0, MASK_SIDE / max(h, w))
    if scale == 1.0:
        return np.ascontiguousarray(rgb)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return cv2.resize(rgb, size, interpolation=cv2.INTER_AREA)


def predict_mask_small(small: np.ndarray) -> np.ndarray:
    """u2netp's subject mask (uint8) of a :func:`mask_input` copy, at that copy's size."""
    from PIL import Image

    (mask,) = _u2netp_session().predict(Image.fromarray(small))
    return np.asarray(mask, dtype=np.uint8)


def upscale_mask(mask: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """A small uint8 mask resized to the height and width of ``shape``."""
    h, w = shape[:2]
    return mask if mask.shape == (h, w) else cv2.resize(mask, (w, h), interpolation=cv2.INTER_LINEAR)


def _predict_mask(image: np.ndarray) -> np.ndarray:
    """u2netp's subject mask as uint8 at full resolution (predicted on a small copy)."""
    return upscale_mask(predict_mask_small(mask_input(image)), image.shape)


def subject_mask(image: np.ndarray) -> np.ndarray:
    """The salient-subject mask of ``image`` as float32 in [0, 1] at full resolution (u2netp)."""
    check_image(image)
    return _predict_mask(image).astype(np.float32) / 255.0


def image_cutout(image: np.ndarray, *, mask: np.ndarray | None = None) -> np.ndarray:
    """Keep the main subject and blacken the background; the mask becomes the alpha channel.

    The colour channels are multiplied by the mask (soft edges fade to black) and the alpha channel
    is the mask. ``mask`` (float in [0, 1] with the image's height and width) overrides the u2netp
    prediction. An existing alpha channel is combined with the mask (the smaller wins). Raises
    :class:`editor.models.ModelMissingError` if the u2netp model file is not installed.
    """
    check_image(image)
    m = full_scale(image)
    if mask is None:
        alpha = _predict_mask(image)
        if image.dtype == np.uint16:
            alpha = alpha.astype(np.uint16) * 257
    else:
        if mask.shape != image.shape[:2]:
            raise ValueError(f"mask shape {mask.shape} does not match image {image.shape[:2]}")
        alpha = np.floor(np.clip(mask, 0, 1) * m + 0.5).astype(image.dtype)
    src = with_alpha(image)
    channels = list(cv2.split(src))
    alpha = cv2.min(alpha, channels[3])
    # cv2.multiply rounds and saturates: out = round(c * alpha / M), exact in integers.
    out = [cv2.multiply(c, alpha, scale=1.0 / m) for c in channels[:3]]
    return cv2.merge(out + [alpha])
