"""Reading and writing image files without losing pixels, bit depth or metadata.

Images are NumPy arrays: ``(H, W)`` grey, ``(H, W, 3)`` RGB or ``(H, W, 4)`` RGBA, ``uint8`` or
``uint16``. Files are checked before their pixels are decoded: unknown formats, corrupt or truncated
data and decompression bombs (more than :data:`MAX_PIXELS`) raise :class:`ImageFileError` with a
message meant for the person who picked the file. EXIF orientation is applied on load, and the EXIF
written back says "upright" so other programs do not rotate the pixels a second time.
"""

from __future__ import annotations

import io
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageFile, UnidentifiedImageError

from editor.files import OutputError, check_output, write_atomic

MAX_PIXELS = 200_000_000
FORMATS = {  # Pillow format name -> file suffixes we read and write
    "JPEG": (".jpg", ".jpeg"),
    "PNG": (".png",),
    "WEBP": (".webp",),
    "TIFF": (".tif", ".tiff"),
    "BMP": (".bmp",),
}
SUFFIX_FORMAT = {s: f for f, suffixes in FORMATS.items() for s in suffixes}
ALPHA_FORMATS = {"PNG", "WEBP", "TIFF"}
SIXTEEN_BIT_FORMATS = {"PNG", "TIFF"}
_ORIENTATION = 0x0112

# Pillow's own bomb check warns at MAX_IMAGE_PIXELS and raises at twice that; we check the header
# ourselves, so lift its limit rather than let it fire with a less helpful message.
Image.MAX_IMAGE_PIXELS = None
ImageFile.LOAD_TRUNCATED_IMAGES = False


class ImageFileError(ValueError):
    """A file that cannot be read as an image, or cannot be written where asked."""


@dataclass
class ImageMeta:
    """What a file carries besides pixels."""

    format: str = "PNG"
    exif: bytes | None = None
    icc_profile: bytes | None = None
    source: str | None = None
    extra: dict = field(default_factory=dict)


@dataclass
class LoadedImage:
    pixels: np.ndarray
    meta: ImageMeta


def _apply_orientation(pixels: np.ndarray, orientation: int) -> np.ndarray:
    """Undo EXIF orientation 1..8 with exact transposes."""
    ops = {
        2: lambda a: a[:, ::-1],
        3: lambda a: a[::-1, ::-1],
        4: lambda a: a[::-1, :],
        5: lambda a: np.swapaxes(a, 0, 1),
        6: lambda a: np.rot90(a, -1),
        7: lambda a: np.swapaxes(a, 0, 1)[::-1, ::-1],
        8: lambda a: np.rot90(a, 1),
    }
    if orientation not in ops:
        return pixels
    return np.ascontiguousarray(ops[orientation](pixels))


def _decode_16bit(data: bytes) -> np.ndarray | None:
    """Decode with OpenCV, which keeps 16 bits per channel where Pillow would drop to 8."""
    arr = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    if arr is None:
        return None
    if arr.ndim == 3 and arr.shape[2] == 3:
        arr = cv2.cvtColor(arr, cv2.COLOR_BGR2RGB)
    elif arr.ndim == 3 and arr.shape[2] == 4:
        arr = cv2.cvtColor(arr, cv2.COLOR_BGRA2RGBA)
    return arr


def _is_16bit(im: Image.Image, data: bytes) -> bool:
    if im.format == "PNG":
        return len(data) > 24 and data[24] == 16  # IHDR bit depth
    if im.format == "TIFF":
        bits = im.tag_v2.get(258)  # BitsPerSample
        bits = bits if isinstance(bits, tuple) else (bits,)
        return any(b == 16 for b in bits if b)
    return False


def to_supported_dtype(arr: np.ndarray, name: str = "image") -> np.ndarray:
    """Pixels of any numeric type as uint8 or uint16, converted without losing what they mean,
    or :class:`ImageFileError` saying why not.

    - uint8 and uint16 are kept; bool becomes 0/255;
    - floats are read as 0..1 (the TIFF/EXR convention) and scaled to 16 bits; floats that are
      whole numbers within 0..65535 are taken as counts (16 bits, or 8 when all are below 256);
      NaN, infinity, negative values and other ranges are refused (no guess would be right);
    - other integers within 0..255 become uint8, within 0..65535 uint16; others are refused.
    """
    if arr.dtype in (np.uint8, np.uint16):
        return arr
    if arr.dtype == np.bool_:
        return arr.astype(np.uint8) * 255
    if arr.dtype.kind not in "fiu":
        raise ImageFileError(f"{name}: pixels of type {arr.dtype} cannot be read")
    if arr.size == 0:
        raise ImageFileError(f"{name}: the image has no pixels")
    if arr.dtype.kind == "f":
        if not np.isfinite(arr).all():
            raise ImageFileError(f"{name}: a {arr.dtype} image with NaN or infinite pixels; "
                                 "Easel cannot tell what they should look like")
        lo, hi = float(arr.min()), float(arr.max())
        if lo >= 0.0 and hi <= 1.0:
            return np.round(arr.astype(np.float64) * 65535.0).astype(np.uint16)
        if lo >= 0.0 and hi <= 65535.0 and np.array_equal(arr, np.round(arr)):
            return arr.astype(np.uint8 if hi <= 255 else np.uint16)
        raise ImageFileError(f"{name}: a {arr.dtype} image with values from {lo:g} to {hi:g}; "
                             "Easel reads floating-point images scaled 0..1 (convert it to 8 or "
                             "16 bits first)")
    lo, hi = int(arr.min()), int(arr.max())
    if lo >= 0 and hi <= 255:
        return arr.astype(np.uint8)
    if lo >= 0 and hi <= 65535:
        return arr.astype(np.uint16)
    raise ImageFileError(f"{name}: a {arr.dtype} image with values from {lo} to {hi}, outside 0..65535; "
                         "Easel edits 8- and 16-bit images (convert it first)")


def _pil_to_array(im: Image.Image, name: str = "image") -> np.ndarray:
    mode = im.mode
    if mode in ("RGB", "RGBA", "L"):
        return np.asarray(im).copy()
    if mode in ("I;16", "I;16B", "I;16L"):
        return np.asarray(im.convert("I")).astype(np.uint16)
    if mode in ("F", "I") or mode.startswith(("I;", "F;")):  # 32-bit float or int: never clip to 8 bits
        return to_supported_dtype(np.asarray(im), name)
    has_alpha = mode in ("LA", "PA", "RGBa", "La") or (
        mode == "P" and "transparency" in im.info
    )
    return np.asarray(im.convert("RGBA" if has_alpha else "RGB")).copy()


def read_image(path: str | os.PathLike) -> LoadedImage:
    """Read an image file into an array, upright, with its EXIF and ICC profile.

    Raises
    ------
    ImageFileError
        If the file is missing, not an image, corrupt, truncated or larger than 200 megapixels.

    Examples
    --------
    >>> img = read_image("photo.jpg")                         # doctest: +SKIP
    >>> img.pixels.shape, img.meta.format                      # doctest: +SKIP
    ((3024, 4032, 3), 'JPEG')
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ImageFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ImageFileError(f"{path}: is a folder, not an image file") from None
    except OSError as exc:
        raise ImageFileError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    return decode_image(data, name=str(path))


def decode_image(data: bytes, *, name: str = "image") -> LoadedImage:
    """Like :func:`read_image`, from bytes already in memory."""
    if not data:
        raise ImageFileError(f"{name}: the file is empty")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            im = Image.open(io.BytesIO(data))
    except UnidentifiedImageError:
        if data[:4] in (b"II*\x00", b"MM\x00*"):  # a TIFF Pillow cannot read: float or signed RGB
            return _decode_tiff_opencv(data, name)
        raise ImageFileError(
            f"{name}: not an image Easel can read (JPEG, PNG, WebP, TIFF or BMP)"
        ) from None
    if im.format not in FORMATS:
        raise ImageFileError(
            f"{name}: {im.format} files are not supported; use JPEG, PNG, WebP, TIFF or BMP"
        )
    w, h = im.size
    if w * h > MAX_PIXELS:
        raise ImageFileError(
            f"{name}: {w}x{h} is {w * h / 1e6:.0f} megapixels, more than the "
            f"{MAX_PIXELS / 1e6:.0f}-megapixel limit (a decompression bomb or a scan too large to edit)"
        )
    if w == 0 or h == 0:
        raise ImageFileError(f"{name}: the image has no pixels ({w}x{h})")
    try:
        im.load()
    except (OSError, SyntaxError, ValueError) as exc:
        raise ImageFileError(f"{name}: the file is corrupt or truncated ({exc})") from None

    exif = im.info.get("exif")
    orientation = 1
    try:
        exif_obj = im.getexif()
        orientation = int(exif_obj.get(_ORIENTATION, 1) or 1)
        if exif is None and len(exif_obj):
            exif = exif_obj.tobytes()
    except Exception:  # malformed EXIF must not stop the picture from opening
        exif_obj = None
    if _is_16bit(im, data):
        pixels = _decode_16bit(data)
        if pixels is None:
            raise ImageFileError(f"{name}: the 16-bit image data is corrupt")
    else:
        pixels = _pil_to_array(im, name)
    pixels = _channels(to_supported_dtype(pixels, name), name)
    pixels = _apply_orientation(pixels, orientation)
    if exif is not None and orientation != 1:
        exif = _upright_exif(exif)
    meta = ImageMeta(format=im.format, exif=exif, icc_profile=im.info.get("icc_profile"), source=name)
    return LoadedImage(pixels=pixels, meta=meta)


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a TIFF's first directory (read before any pixel is decoded)."""
    import struct

    bo = "<" if data[:2] == b"II" else ">"
    try:
        (ifd,) = struct.unpack_from(bo + "I", data, 4)
        (n,) = struct.unpack_from(bo + "H", data, ifd)
        size = {}
        for i in range(min(n, 4096)):
            tag, typ, _count = struct.unpack_from(bo + "HHI", data, ifd + 2 + 12 * i)
            if tag in (256, 257):
                fmt = "H" if typ == 3 else "I"
                (size[tag],) = struct.unpack_from(bo + fmt, data, ifd + 2 + 12 * i + 8)
        return size[256], size[257]
    except (struct.error, KeyError):
        return None


def _decode_tiff_opencv(data: bytes, name: str) -> LoadedImage:
    size = _tiff_size(data)
    if size is None:
        raise ImageFileError(f"{name}: a TIFF file whose size cannot be read")
    w, h = size
    if w * h > MAX_PIXELS:
        raise ImageFileError(f"{name}: {w}x{h} is {w * h / 1e6:.0f} megapixels, more than the "
                             f"{MAX_PIXELS / 1e6:.0f}-megapixel limit")
    arr = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_UNCHANGED)
    if arr is None:
        raise ImageFileError(f"{name}: a TIFF file Easel cannot decode (its pixel type or "
                             "compression is not supported)")
    if arr.ndim == 3 and arr.shape[2] == 3:
        arr = arr[:, :, ::-1]
    elif arr.ndim == 3 and arr.shape[2] == 4:
        arr = arr[:, :, [2, 1, 0, 3]]
    pixels = _channels(to_supported_dtype(np.ascontiguousarray(arr), name), name)
    return LoadedImage(pixels=pixels, meta=ImageMeta(format="TIFF", source=name))


def _channels(pixels: np.ndarray, name: str) -> np.ndarray:
    """Grey, RGB or RGBA; grey+alpha becomes RGBA; anything else is refused."""
    if pixels.ndim == 2 or (pixels.ndim == 3 and pixels.shape[2] in (3, 4)):
        return pixels
    if pixels.ndim == 3 and pixels.shape[2] == 1:
        return pixels[:, :, 0].copy()
    if pixels.ndim == 3 and pixels.shape[2] == 2:
        g, a = pixels[:, :, 0], pixels[:, :, 1]
        return np.stack([g, g, g, a], axis=2)
    raise ImageFileError(f"{name}: an image with {pixels.shape[2] if pixels.ndim == 3 else '?'} "
                         "channels; Easel edits grey, RGB and RGBA images")


def _upright_exif(exif: bytes) -> bytes:
    e = Image.Exif()
    e.load(exif)
    e[_ORIENTATION] = 1
    return e.tobytes()


_GPS_IFD = 0x8825


def strip_location(meta: ImageMeta | None) -> ImageMeta | None:
    """``meta`` without the place the photo was taken: EXIF's GPS block is left out (the rest of the
    EXIF, the ICC profile and the format are kept). Unreadable EXIF is dropped whole rather than
    written back with a position in it."""
    if meta is None or not meta.exif:
        return meta
    try:
        e = Image.Exif()
        e.load(meta.exif)
        if _GPS_IFD in e:
            del e[_GPS_IFD]
        exif = e.tobytes()
    except Exception:  # broken EXIF: better none than one that may still say where
        exif = None
    return ImageMeta(format=meta.format, exif=exif, icc_profile=meta.icc_profile, source=meta.source,
                     extra=dict(meta.extra))


def has_location(exif: bytes | None) -> bool:
    """Whether raw EXIF bytes carry a GPS block."""
    if not exif:
        return False
    try:
        e = Image.Exif()
        e.load(exif)
        return _GPS_IFD in e and bool(e.get_ifd(_GPS_IFD))
    except Exception:
        return False


def format_for_path(path: str | os.PathLike) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIX_FORMAT:
        raise ImageFileError(
            f"{path}: unknown file type {suffix!r}; save as "
            + ", ".join(s for suffixes in FORMATS.values() for s in suffixes)
        )
    return SUFFIX_FORMAT[suffix]


def encode_image(
    pixels: np.ndarray,
    fmt: str,
    *,
    meta: ImageMeta | None = None,
    quality: int = 95,
) -> bytes:
    """Encode pixels as ``fmt`` (a key of :data:`FORMATS`), keeping EXIF and ICC where it can.

    Alpha is dropped for formats without it (cut-out and rotated corners are already black there);
    16-bit pixels are written at 16 bits to PNG and TIFF and reduced to 8 bits elsewhere.
    """
    if fmt not in FORMATS:
        raise ImageFileError(f"cannot write {fmt} files")
    if not 1 <= quality <= 100:
        raise ImageFileError(f"JPEG/WebP quality must be 1..100, got {quality}")
    arr = pixels
    if arr.ndim == 3 and arr.shape[2] == 4 and fmt not in ALPHA_FORMATS:
        arr = arr[:, :, :3]
    if arr.dtype == np.uint16 and fmt in SIXTEEN_BIT_FORMATS:
        return _encode_16bit(arr, fmt)
    if arr.dtype == np.uint16:
        arr = (arr.astype(np.uint32) * 255 + 32767) // 65535
    arr = np.ascontiguousarray(arr.astype(np.uint8, copy=False))
    im = Image.fromarray(arr)
    kwargs: dict = {}
    if meta is not None and meta.exif and fmt in ("JPEG", "PNG", "WEBP", "TIFF"):
        kwargs["exif"] = meta.exif
    if meta is not None and meta.icc_profile and fmt != "BMP":
        kwargs["icc_profile"] = meta.icc_profile
    if fmt == "JPEG":
        kwargs.update(quality=quality, subsampling=0 if quality >= 90 else 2)
    elif fmt == "WEBP":
        kwargs.update(quality=quality)
    elif fmt == "PNG":
        kwargs.update(compress_level=6)
    elif fmt == "TIFF":
        kwargs.update(compression="tiff_deflate")
    buf = io.BytesIO()
    im.save(buf, format=fmt, **kwargs)
    return buf.getvalue()


def _encode_16bit(arr: np.ndarray, fmt: str) -> bytes:
    if arr.ndim == 3 and arr.shape[2] == 3:
        arr = cv2.cvtColor(arr, cv2.COLOR_RGB2BGR)
    elif arr.ndim == 3 and arr.shape[2] == 4:
        arr = cv2.cvtColor(arr, cv2.COLOR_RGBA2BGRA)
    ok, buf = cv2.imencode(".png" if fmt == "PNG" else ".tif", arr)
    if not ok:
        raise ImageFileError(f"OpenCV could not encode a 16-bit {fmt}")
    return buf.tobytes()


def write_image(
    path: str | os.PathLike,
    pixels: np.ndarray,
    *,
    meta: ImageMeta | None = None,
    quality: int = 95,
    overwrite: bool = False,
    db: str | os.PathLike | None = None,
) -> Path:
    """Write ``pixels`` to ``path`` atomically; the format follows the suffix.

    An existing file is replaced only with ``overwrite=True``: originals are never overwritten
    unless the caller has asked the person. Nothing is ever written inside the profile folder or
    over a database (:func:`editor.files.check_output`; ``db``: a database in use elsewhere).
    """
    path = Path(path)
    fmt = format_for_path(path)
    try:
        check_output(path, overwrite=overwrite, db=db)
    except OutputError as exc:
        raise ImageFileError(str(exc)) from None
    data = encode_image(pixels, fmt, meta=meta, quality=quality)
    try:
        return write_atomic(path, data, overwrite=overwrite, checked=True)
    except OutputError as exc:  # the file appeared while the pixels were encoded
        raise ImageFileError(str(exc)) from None
