"""Numpy pixels to Qt images: display copies, device-pixel-ratio aware pixmaps, thumbnails.

QImage may be built in any thread (workers make thumbnails); QPixmap only in the GUI thread.
"""

from __future__ import annotations

import cv2
import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPixmap

THUMB_SIDE = 192  # stored size: sharp at 96 logical pixels on a 2x screen


def display_array(pixels: np.ndarray) -> np.ndarray:
    """8-bit, C-contiguous pixels for the screen (16-bit images are shown at 8 bits)."""
    arr = pixels
    if arr.dtype == np.uint16:
        arr = (arr >> 8).astype(np.uint8)
    elif arr.dtype != np.uint8:
        arr = np.clip(arr, 0, 255).astype(np.uint8)
    return np.ascontiguousarray(arr)


def to_qimage(pixels: np.ndarray) -> QImage:
    """A QImage copy of 8- or 16-bit grey, RGB or RGBA pixels (it owns its memory)."""
    arr = display_array(pixels)
    h, w = arr.shape[:2]
    if arr.ndim == 2:
        fmt, bpl = QImage.Format.Format_Grayscale8, w
    elif arr.shape[2] == 3:
        fmt, bpl = QImage.Format.Format_RGB888, 3 * w
    elif arr.shape[2] == 4:
        fmt, bpl = QImage.Format.Format_RGBA8888, 4 * w
    else:
        raise ValueError(f"cannot show an image with {arr.shape[2]} channels")
    return QImage(arr.data, w, h, bpl, fmt).copy()


def thumbnail_array(pixels: np.ndarray, side: int = THUMB_SIDE) -> np.ndarray:
    """A copy whose longer side is at most ``side`` pixels (area-averaged, so no aliasing)."""
    arr = display_array(pixels)
    h, w = arr.shape[:2]
    scale = min(1.0, side / max(h, w))
    if scale == 1.0:
        return arr.copy()
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    return cv2.resize(arr, size, interpolation=cv2.INTER_AREA)


def thumbnail_image(pixels: np.ndarray, side: int = THUMB_SIDE) -> QImage:
    """A thumbnail QImage; safe to call from a worker thread."""
    return to_qimage(thumbnail_array(pixels, side))


def checkerboard(size: int = 8) -> QPixmap:
    """The grey checkerboard painters use behind transparent pixels."""
    pm = QPixmap(2 * size, 2 * size)
    pm.fill(QColor(200, 200, 200))
    p = QPainter(pm)
    p.fillRect(0, 0, size, size, QColor(150, 150, 150))
    p.fillRect(size, size, size, size, QColor(150, 150, 150))
    p.end()
    return pm


def hidpi_pixmap(image: QImage, logical_side: int, dpr: float) -> QPixmap:
    """``image`` scaled to ``logical_side`` logical pixels, rendered at the screen's device ratio.

    On a 2x screen a 96-pixel thumbnail is drawn from 192 real pixels, so it stays sharp.
    """
    dpr = max(1.0, float(dpr))
    target = round(logical_side * dpr)
    scaled = image.scaled(target, target, Qt.AspectRatioMode.KeepAspectRatio,
                          Qt.TransformationMode.SmoothTransformation)
    pm = QPixmap.fromImage(scaled)
    pm.setDevicePixelRatio(dpr)
    return pm


def display_image(pixels: np.ndarray) -> QImage:
    """The screen copy of a version, in the format the raster painter draws fastest.

    Opaque pixels become ``Format_RGB32`` and alpha ``Format_ARGB32_Premultiplied`` (both BGRA
    bytes in memory). OpenCV writes straight into the QImage's buffer and releases the GIL while
    it does, so a worker makes the copy of a 12-megapixel photo in a few tens of milliseconds
    without stalling the GUI thread, and painting it needs no further conversion.
    """
    arr = display_array(pixels)
    h, w = arr.shape[:2]
    opaque = arr.ndim == 2 or arr.shape[2] == 3
    fmt = QImage.Format.Format_RGB32 if opaque else QImage.Format.Format_ARGB32_Premultiplied
    image = QImage(w, h, fmt)
    if image.isNull():
        raise MemoryError(f"not enough memory to show a {w}x{h} image")
    dst = _bgra_view(image)
    if arr.ndim == 2:
        cv2.cvtColor(arr, cv2.COLOR_GRAY2BGRA, dst=dst)
    elif opaque:
        cv2.cvtColor(arr, cv2.COLOR_RGB2BGRA, dst=dst)
    else:
        r, g, b, a = cv2.split(arr)
        # premultiply: c * a / 255, rounded and saturated, in C
        cv2.merge([cv2.multiply(c, a, scale=1 / 255) for c in (b, g, r)] + [a], dst=dst)
    return image


class Mipmaps:
    """A screen copy plus copies of half, quarter, ... the size, for drawing zoomed out.

    Painting a 12-megapixel QImage scaled down to a window costs tens of milliseconds a frame;
    painting the smallest level that still has a pixel for every screen pixel costs a few.
    """

    def __init__(self, levels: list[QImage]) -> None:
        self.levels = levels

    def width(self) -> int:
        return self.levels[0].width()

    def height(self) -> int:
        return self.levels[0].height()

    @property
    def full(self) -> QImage:
        return self.levels[0]

    def level_for(self, scale: float) -> QImage:
        """The smallest level with at least one pixel per device pixel at ``scale`` (device px per image px)."""
        best = self.levels[0]
        for img in self.levels[1:]:
            if img.width() >= self.width() * scale:
                best = img
            else:
                break
        return best


MIN_LEVEL_SIDE = 512


def _bgra_view(image: QImage) -> np.ndarray:
    h, w = image.height(), image.width()
    return np.frombuffer(image.bits(), np.uint8).reshape(h, image.bytesPerLine())[:, : 4 * w].reshape(h, w, 4)


def screen_copy(pixels: np.ndarray) -> Mipmaps:
    """:func:`display_image` and its smaller levels (area-averaged with OpenCV; safe in a worker)."""
    full = display_image(pixels)
    levels = [full]
    src = _bgra_view(full)
    while max(src.shape[:2]) > 2 * MIN_LEVEL_SIDE:
        h, w = max(1, src.shape[0] // 2), max(1, src.shape[1] // 2)
        img = QImage(w, h, full.format())
        dst = _bgra_view(img)
        cv2.resize(src, (w, h), dst=dst, interpolation=cv2.INTER_AREA)
        levels.append(img)
        src = dst
    return Mipmaps(levels)


def thumbnail_of(screen: Mipmaps, side: int = THUMB_SIDE) -> QImage:
    """A thumbnail from a screen copy's smallest level (safe in a worker).

    Area-averaging the full 12-megapixel array down to a thumbnail costs about 90 ms of a turn;
    the smallest mipmap level (at most ~1000 pixels a side) is already averaged, so scaling it down
    costs a few milliseconds and looks the same.
    """
    small = screen.levels[-1]
    if max(small.width(), small.height()) <= side:
        return small.copy()
    return small.scaled(side, side, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation)


MATCH_THUMBS = 4  # search matches shown in the chat


def match_thumbnails(results: list[dict]) -> list[tuple[str, QImage, str]]:
    """(path, thumbnail, description) of a search's best matches; in the turn's worker."""
    from editor.imageio import ImageFileError, read_image

    out = []
    for r in results[:MATCH_THUMBS]:
        try:
            out.append((r["path"], thumbnail_image(read_image(r["path"]).pixels), r.get("description", "")))
        except (ImageFileError, OSError, KeyError, ValueError):
            continue  # a file gone since indexing: no thumbnail, the reply still names it
    return out
