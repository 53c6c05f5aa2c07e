"""Photos of bench/colours.py's second held-out part ("held2"), loaded as 8-bit RGB.

- ``wallpaper:<Name>``: the largest image of the Debian package plasma-workspace-wallpapers
  (/usr/share/wallpapers/<Name>/contents/images), 640 pixels on its long side. The nine used are
  LGPL-3 per their metadata.json: EveningGlow (Ian Hex), ColorfulCups (Dmitri Popov), FallenLeaf
  (Martin Klapetek), BytheWater (Maciej Wiklo), Kite, OneStandsOut, Path, ColdRipple and
  summer_1am (Risto Saukonpää).
- ``stamp:<dir/name>``: a photo stamp of the Debian package tuxpaint-stamps-default
  (/usr/share/tuxpaint/stamps/<dir/name>.png, GPL-2: a real object photographed and cut out, with
  an alpha channel), :data:`STAMP_SIDE` pixels on its long side, laid over a plain neutral grey
  640 x 480 canvas at :data:`STAMP_AT`; its box is where its alpha is over half.
- ``stamp:<dir/name>@<photo>``: such a stamp laid in the middle of a development photo of
  bench/photoset.py (a real background behind it, so that its box holds other colours too); the
  development part's second half ("dev2").
- ``grace_hopper``: bench/photos/grace_hopper.jpg, matplotlib's sample photo of Grace Hopper
  (an official US Navy portrait, public domain as a work of the US government; copied from
  ``matplotlib/mpl-data/sample_data`` of the matplotlib 3.11.2 wheel), 512 x 600.
- ``gcompris:<activity>/<path>``: a photo of the Debian package gcompris-qt-data (the third
  held-out part, "held3"), read out of its Qt resource file /usr/share/gcompris-qt/rcc/<activity>.rcc
  (file gcompris/src/activities/<activity>/resource/<path>), 640 pixels on its long side when it is
  larger (the categorization activity's 320-pixel photos are kept as they are). The package is
  GPL-3+; the photos used are, per the READMEs beside them in the package (each photo's author
  and source), from Wikimedia Commons and publicdomainpictures.net: public domain, CC0-1.0,
  CC-BY-2.0, CC-BY-3.0, CC-BY-SA-4.0 and (windmill6) GPL-2+. Only the boxes and words derived
  from them are kept in this repository, not the photos.
"""

from __future__ import annotations

import functools
import glob
import io
import os
import struct
import zlib

import numpy as np

WALLPAPERS = "/usr/share/wallpapers"
STAMPS = "/usr/share/tuxpaint/stamps"
GCOMPRIS = "/usr/share/gcompris-qt/rcc"
HERE = os.path.dirname(os.path.abspath(__file__))
CANVAS = (480, 640)
GREY = 150
STAMP_SIDE = 300
STAMP_AT = (170, 90)  # x, y of the stamp's scaled image's top left corner


def _fit(rgb: np.ndarray, side: int) -> np.ndarray:
    import cv2

    f = side / max(rgb.shape[:2])
    interp = cv2.INTER_AREA if f < 1 else cv2.INTER_CUBIC
    return cv2.resize(rgb, (round(rgb.shape[1] * f), round(rgb.shape[0] * f)), interpolation=interp)


def wallpaper(name: str) -> np.ndarray:
    from PIL import Image

    files = glob.glob(os.path.join(WALLPAPERS, name, "contents", "images", "*"))
    if not files:
        raise FileNotFoundError(f"{WALLPAPERS}/{name}: apt-get install plasma-workspace-wallpapers")
    rgb = np.asarray(Image.open(max(files, key=os.path.getsize)).convert("RGB"))
    return np.ascontiguousarray(_fit(rgb, 640))


def _lay(name: str, background: np.ndarray, side: int, at: tuple[int, int] | None):
    """The stamp ``name``, ``side`` pixels on its long side, laid on ``background`` with its top
    left corner at ``at`` (x, y; in the middle when None), and its box where its alpha is over half."""
    from PIL import Image

    path = os.path.join(STAMPS, f"{name}.png")
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path}: apt-get install tuxpaint-stamps-default")
    rgba = np.clip(_fit(np.asarray(Image.open(path).convert("RGBA")).astype(np.float32), side), 0, 255)
    h, w = rgba.shape[:2]
    x, y = at if at is not None else ((background.shape[1] - w) // 2, (background.shape[0] - h) // 2)
    out = background.astype(np.float32)
    a = rgba[..., 3:] / 255.0
    out[y:y + h, x:x + w] = rgba[..., :3] * a + out[y:y + h, x:x + w] * (1 - a)
    ys, xs = np.nonzero(rgba[..., 3] > 127)
    box = (x + int(xs.min()), y + int(ys.min()), x + int(xs.max()) + 1, y + int(ys.max()) + 1)
    return np.ascontiguousarray(out.round().astype(np.uint8)), box


def stamp(name: str) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """The stamp over the grey canvas, and its box (x1, y1, x2, y2)."""
    return _lay(name, np.full((*CANVAS, 3), GREY, np.uint8), STAMP_SIDE, STAMP_AT)


def stamp_over(name: str, background: np.ndarray) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """The stamp laid in the middle of a photo, 0.6 of the photo's short side on its long side, and
    its box (x1, y1, x2, y2)."""
    return _lay(name, background, round(0.6 * min(background.shape[:2])), None)


@functools.lru_cache(maxsize=8)
def _rcc(activity: str) -> dict[str, tuple[int, int]]:
    """The files of a Qt resource file (rcc's binary format, versions 1 to 3): path -> (flags, offset
    of its data)."""
    path = os.path.join(GCOMPRIS, f"{activity}.rcc")
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path}: apt-get install gcompris-qt-data")
    with open(path, "rb") as f:
        b = f.read()
    if b[:4] != b"qres":
        raise ValueError(f"{path}: not a Qt resource file")
    version, tree, data, names = struct.unpack(">IIII", b[4:20])
    node = 22 if version >= 2 else 14  # version 2 added an 8-byte modification time
    files = {}

    def name(off: int) -> str:
        (n,) = struct.unpack(">H", b[names + off:names + off + 2])
        return b[names + off + 6:names + off + 6 + 2 * n].decode("utf-16-be")

    def walk(i: int, prefix: str) -> None:
        p = tree + i * node
        name_off, flags = struct.unpack(">IH", b[p:p + 6])
        here = prefix + name(name_off) if i else ""
        if flags & 2:  # a directory: its children are consecutive nodes
            count, first = struct.unpack(">II", b[p + 6:p + 14])
            for c in range(count):
                walk(first + c, here + "/" if i else "")
        else:
            (off,) = struct.unpack(">I", b[p + 10:p + 14])
            files[here] = (flags, data + off)

    walk(0, "")
    return files


def gcompris_paths(activity: str) -> list[str]:
    """The paths of the files in <activity>.rcc under its activity's resource folder ("horse.webp",
    "farm/horse.webp"), as :func:`gcompris_file` takes them."""
    lead = f"gcompris/src/activities/{activity}/resource/"
    return [k[len(lead):] for k in _rcc(activity) if k.startswith(lead)]


def gcompris_file(activity: str, path: str) -> bytes:
    """The bytes of gcompris/src/activities/<activity>/resource/<path> in <activity>.rcc."""
    files = _rcc(activity)
    key = f"gcompris/src/activities/{activity}/resource/{path}"
    flags, at = files[key]
    with open(os.path.join(GCOMPRIS, f"{activity}.rcc"), "rb") as f:
        f.seek(at)
        (size,) = struct.unpack(">I", f.read(4))
        raw = f.read(size)
    if flags & 1:  # qCompress: a 4-byte length, then zlib
        raw = zlib.decompress(raw[4:])
    elif flags & 4:
        raise ValueError(f"{key}: zstd-compressed, not read here")
    return raw


def gcompris(photo: str) -> np.ndarray:
    """``activity/path`` of gcompris-qt-data as 8-bit RGB, 640 pixels on its long side at most."""
    from PIL import Image

    activity, path = photo.split("/", 1)
    rgb = np.asarray(Image.open(io.BytesIO(gcompris_file(activity, path))).convert("RGB"))
    return np.ascontiguousarray(_fit(rgb, 640) if max(rgb.shape[:2]) > 640 else rgb)


def load(photo: str) -> np.ndarray:
    if "@" in photo:  # stamp:<name>@<a development photo of bench/photoset.py>
        import photoset

        name, bg = photo.split(":", 1)[1].split("@")
        return stamp_over(name, photoset.load(bg))[0]
    if photo.startswith("wallpaper:"):
        return wallpaper(photo.split(":", 1)[1])
    if photo.startswith("stamp:"):
        return stamp(photo.split(":", 1)[1])[0]
    if photo.startswith("gcompris:"):
        return gcompris(photo.split(":", 1)[1])
    if photo == "grace_hopper":
        from PIL import Image

        return np.asarray(Image.open(os.path.join(HERE, "photos", "grace_hopper.jpg")).convert("RGB"))
    raise KeyError(photo)


def present() -> bool:
    return os.path.isdir(os.path.join(WALLPAPERS, "Kite")) and os.path.isdir(os.path.join(STAMPS, "food"))


def gcompris_present() -> bool:
    return os.path.exists(os.path.join(GCOMPRIS, "categorization.rcc"))


def gcompris_or_say() -> bool:
    """:func:`gcompris_present`, saying how to install it when it is not (a bench's first check)."""
    if not gcompris_present():
        print("gcompris-qt-data is not installed: apt-get install gcompris-qt-data")
        return False
    return True
