"""The cases of ``bench/fill.py``: photos, the objects pasted on them and the holes that remove them.

The development and held-out windows picked by eye (:data:`PHOTOS`), the fresh part's and the
monuments' windows drawn at random, the development part's stroke windows, and the people standing
in whole monument photos (:func:`scene_cases`); see ``bench/fill.py`` for what each part is for.
"""

from __future__ import annotations

import math
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from agent.edits.objects import SMALL_GROW, SMALL_SHARE  # noqa: E402

MATE = "/usr/share/backgrounds/mate/nature"

# Photo -> windows (x, y, w, h, what the background is). Coordinates are in the photo as loaded by
# :func:`load`: scikit-image and scikit-learn photos at their own size, mate-backgrounds photos
# scaled to 1280 pixels on their long side. Picked by looking at each photo, before any fill ran.
PHOTOS: dict[str, list[tuple[int, int, int, int, str]]] = {
    "astronaut": [(260, 0, 252, 330, "wall, shuttle"), (0, 0, 200, 300, "flag stripes")],
    "camera": [(380, 250, 132, 262, "grass"), (330, 40, 182, 250, "sky, horizon, buildings")],
    "coffee": [(0, 0, 230, 400, "table wood, saucer rim"), (380, 0, 220, 240, "table wood")],
    "rocket": [(0, 0, 300, 300, "sky, tower"), (380, 0, 260, 427, "sky, tower, horizon")],
    "moto_left": [(0, 300, 300, 200, "concrete floor"), (0, 0, 350, 260, "wall, bench")],
    "grass": [(0, 0, 320, 320, "grass"), (192, 192, 320, 320, "grass")],
    "gravel": [(0, 0, 320, 320, "gravel"), (192, 192, 320, 320, "gravel")],
    "brick": [(0, 0, 320, 320, "brick wall"), (192, 192, 320, 320, "brick wall")],
    "china": [(330, 0, 310, 250, "sky, water"), (360, 180, 280, 247, "water, trees"),
              (60, 28, 300, 360, "pagoda")],
    "flower": [(0, 0, 250, 427, "leaves, blurred"), (200, 50, 300, 300, "dahlia petals")],
    "clock": [(0, 0, 400, 300, "plain wall")],
    "Aqua": [(0, 200, 500, 400, "water, smooth"), (850, 200, 400, 400, "water drop")],
    "Blinds": [(0, 0, 500, 500, "leaf veins"), (600, 300, 500, 500, "leaf veins")],
    "Dune": [(0, 0, 500, 400, "sky, sea, dune grass"), (700, 350, 500, 450, "dune grass, sand")],
    "FreshFlower": [(0, 0, 500, 500, "petals"), (700, 400, 500, 500, "petals")],
    "Garden": [(0, 0, 450, 450, "blurred flowers"), (650, 200, 500, 500, "marigold")],
    "GreenMeadow": [(0, 0, 500, 500, "grass"), (600, 500, 500, 500, "grass")],
    "LadyBird": [(0, 300, 450, 450, "leaves, flowers"), (600, 0, 500, 400, "blurred garden")],
    "RainDrops": [(100, 150, 450, 450, "leaf, drops"), (800, 0, 480, 400, "grass blades")],
    "Storm": [(300, 200, 500, 400, "sky, horizon, rail"), (500, 500, 600, 353, "asphalt road, lines")],
    "TwoWings": [(0, 0, 450, 450, "blurred flowers"), (600, 350, 500, 450, "blurred, dandelion")],
    "Wood": [(0, 0, 500, 500, "wooden floor planks"), (600, 400, 600, 500, "wooden floor planks")],
    "YellowFlower": [(0, 0, 450, 450, "dark, petals"), (600, 200, 500, 500, "petals")],
}
HELD_OUT_EVERY = 4  # every 4th photo (index 3, 7, ...) is held out
OBJECTS = ("person", "cat", "horse", "cup", "blob", "drawn_person")


def load(name: str) -> np.ndarray:
    """A photo as 8-bit RGB."""
    import sklearn
    from skimage import data, io

    if os.path.exists(os.path.join(MATE, f"{name}.jpg")):
        bgr = cv2.imread(os.path.join(MATE, f"{name}.jpg"))
        f = 1280 / max(bgr.shape[:2])
        bgr = cv2.resize(bgr, (round(bgr.shape[1] * f), round(bgr.shape[0] * f)), interpolation=cv2.INTER_AREA)
        return np.ascontiguousarray(bgr[:, :, ::-1])
    sk = os.path.join(os.path.dirname(sklearn.__file__), "datasets", "images")
    if name in ("china", "flower"):
        img = io.imread(os.path.join(sk, f"{name}.jpg"))
    elif name == "moto_left":
        img = data.stereo_motorcycle()[0]
    else:
        img = getattr(data, name)()
    if img.ndim == 2:
        img = np.repeat(img[:, :, None], 3, axis=2)
    return np.ascontiguousarray(img[:, :, :3])


def _u2netp_cutout(name: str, crop) -> tuple[np.ndarray, np.ndarray]:
    """An object photo and its u2netp mask (hard, feathered by a pixel), tight around the mask.
    Cached in the temp folder: the masks do not change and rembg's first import is slow."""
    cache = Path(tempfile.gettempdir()) / f"easel_fill_bench_{name}.npz"
    if cache.exists():
        z = np.load(cache)
        return z["img"], z["mask"]
    from editor import ops

    img = load(name)
    x1, y1, x2, y2 = crop
    img = img[y1:y2, x1:x2]
    m = cv2.GaussianBlur((ops.subject_mask(img) > 0.5).astype(np.float32), (0, 0), 1.0)
    ys, xs = np.nonzero(m > 0.5)
    img, m = img[ys.min():ys.max() + 1, xs.min():xs.max() + 1].copy(), m[ys.min():ys.max() + 1, xs.min():xs.max() + 1].copy()
    np.savez(cache, img=img, mask=m)
    return img, m


def drawn_person(rng) -> np.ndarray:
    """A standing person's silhouette: head, torso, arms and legs as thick strokes."""
    m = np.zeros((400, 200), np.uint8)
    cv2.circle(m, (100, 40), 28, 1, -1)
    cv2.ellipse(m, (100, 150), (42, 85), 0, 0, 360, 1, -1)
    a = rng.uniform(-0.4, 0.4, 4)
    for sx, ang in ((-1, a[0]), (1, a[1])):  # arms
        cv2.line(m, (100 + sx * 35, 90), (int(100 + sx * (40 + 60 * math.sin(0.3 + ang))), int(90 + 110 * math.cos(ang))), 1, 18)
    for sx, ang in ((-1, a[2] * 0.5), (1, a[3] * 0.5)):  # legs
        cv2.line(m, (100 + sx * 18, 220), (int(100 + sx * (22 + 40 * abs(math.sin(ang)))), 390), 1, 26)
    return m.astype(np.float32)


def _blob(rng) -> np.ndarray:
    """A random smooth blob (the largest part of thresholded smooth noise)."""
    n = cv2.GaussianBlur(rng.standard_normal((300, 300)).astype(np.float32), (0, 0), 25)
    yy, xx = np.mgrid[:300, :300]
    n = n / n.std() - ((yy - 150) ** 2 + (xx - 150) ** 2) / 150.0 ** 2 * 2.5
    b = (n > np.quantile(n, 0.72)).astype(np.uint8)
    k, lab, stats, _ = cv2.connectedComponentsWithStats(b)
    b = (lab == 1 + np.argmax(stats[1:, cv2.CC_STAT_AREA])).astype(np.float32)
    ys, xs = np.nonzero(b)
    return b[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def object_for(kind: str, rng) -> tuple[np.ndarray, np.ndarray]:
    """(pixels, mask in [0, 1]) of an object of ``kind``."""
    if kind == "person":
        return _u2netp_cutout("astronaut", (0, 0, 380, 512))
    if kind == "cat":
        return _u2netp_cutout("chelsea", (0, 0, 451, 300))
    if kind == "cup":
        return _u2netp_cutout("coffee", (150, 0, 450, 260))
    if kind == "horse":
        from skimage import data

        m = (~data.horse()).astype(np.float32)
        ys, xs = np.nonzero(m)
        m = m[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    elif kind == "blob":
        m = _blob(rng)
    else:
        m = drawn_person(rng)
    m = cv2.GaussianBlur(m, (0, 0), 1.0)
    # Object pixels: a piece of the astronaut's suit, so that the "before" shows a thing.
    suit = load("astronaut")[250:512, 0:260]
    pix = cv2.resize(suit, (m.shape[1], m.shape[0]), interpolation=cv2.INTER_AREA)
    return pix, m


@dataclass
class Case:
    name: str
    photo: str
    background: str
    held_out: bool
    obj: str
    mode: str
    clean: np.ndarray
    comp: np.ndarray
    hole: np.ndarray


def _case(i: int, photo: str, what: str, held_out: bool, clean: np.ndarray, kinds=OBJECTS,
          height=(0.35, 0.6), feet=None) -> Case:
    """Case ``i``: an object pasted on the window ``clean`` of ``photo``, and the hole that removes it:
    ``height`` the range of its height (share of the window's), centred at 55-90% of the window's
    height, or standing with its bottom at ``feet`` (a range of shares)."""
    rng = np.random.default_rng(1000 + i)
    clean = np.ascontiguousarray(clean)
    kind = kinds[i % len(kinds)]
    mode = "stroke" if i % 3 == 2 else "name"
    pix, m = object_for(kind, rng)
    H, W = clean.shape[:2]
    s = rng.uniform(*height) * H / m.shape[0]
    s = min(s, 0.5 * W / m.shape[1])  # at most half the window's width
    ow, oh = max(8, round(m.shape[1] * s)), max(8, round(m.shape[0] * s))
    o = cv2.resize(pix, (ow, oh), interpolation=cv2.INTER_AREA).astype(np.float32)
    a = cv2.resize(m, (ow, oh), interpolation=cv2.INTER_LINEAR)
    x1 = int(np.clip(rng.uniform(0.3, 0.7) * W - ow / 2, 4, W - ow - 4))
    centre = rng.uniform(0.55, 0.9) * H - oh / 2 if feet is None else rng.uniform(*feet) * H - oh
    y1 = int(np.clip(centre, 4, H - oh - 4))
    comp = clean.copy()
    region = comp[y1:y1 + oh, x1:x1 + ow].astype(np.float32)
    comp[y1:y1 + oh, x1:x1 + ow] = np.clip(a[:, :, None] * o + (1 - a[:, :, None]) * region + 0.5,
                                          0, 255).astype(np.uint8)
    alpha = np.zeros((H, W), np.uint8)
    alpha[y1:y1 + oh, x1:x1 + ow] = a > 0.02
    r = int(0.015 * max(ow, oh)) + 3 if mode == "name" else int(0.08 * max(ow, oh)) + 6
    hole = cv2.dilate(alpha, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
    if mode == "name" and ow * oh < SMALL_SHARE * H * W:  # removed by name, a small one is its grown box
        gx, gy = int(ow * SMALL_GROW) + 2, int(oh * SMALL_GROW) + 2
        hole[max(0, y1 - gy):y1 + oh + gy, max(0, x1 - gx):x1 + ow + gx] = 1
    if mode == "stroke":
        c = 2 * r + 1
        hole = cv2.morphologyEx(hole, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (c, c)))
    return Case(f"{i:02d} {photo}:{what}", photo, what, held_out, kind, mode, clean, comp, hole > 0)


def make_cases() -> list[Case]:
    out = []
    i = 0
    for p, (photo, windows) in enumerate(PHOTOS.items()):
        img = load(photo)
        for x, y, w, h, what in windows:
            out.append(_case(i, photo, what, p % HELD_OUT_EVERY == HELD_OUT_EVERY - 1, img[y:y + h, x:x + w]))
            i += 1
    return out


# The fresh part: real photos no fill work ever looked at, each scaled to 1280 pixels on its long
# side, with two 480x480 windows placed by a seeded draw (not picked by eye: whatever background
# falls there), the objects and holes of :func:`_case`: bench/described_photos.py's photos of the
# Debian packages lomiri-wallpapers-16.04 and plasma-workspace-wallpapers. Added when the other two parts held 23 photos; run once, printed as a summary only.
FRESH_SIDE, FRESH_WINDOW = 1280, 480


def fresh_photos() -> dict[str, str]:
    """Name -> file of the fresh part's photos that are installed."""
    import described_photos

    found = {n: described_photos.path_of(n) for n in (*described_photos.LOMIRI, *described_photos.PLASMA)}
    return {n: f for n, f in found.items() if f and os.path.exists(f)}


def fresh_cases() -> list[Case]:
    out = []
    for k, (name, path) in enumerate(sorted(fresh_photos().items())):
        bgr = cv2.imread(path)
        f = FRESH_SIDE / max(bgr.shape[:2])
        img = cv2.resize(bgr, (round(bgr.shape[1] * f), round(bgr.shape[0] * f)), interpolation=cv2.INTER_AREA)[:, :, ::-1]
        rng = np.random.default_rng(5000 + k)
        for j in range(2):
            x = int(rng.integers(0, img.shape[1] - FRESH_WINDOW + 1))
            y = int(rng.integers(0, img.shape[0] - FRESH_WINDOW + 1))
            out.append(_case(100 + 2 * k + j, name, f"window {x},{y}", True,
                             img[y:y + FRESH_WINDOW, x:x + FRESH_WINDOW]))
    return out


# The monuments part: 49 photos of gcompris-qt-data's explore_monuments activity (Wikimedia Commons
# photos of buildings, ruins, statues and landscapes; their authors and licences, public domain and
# CC BY / CC BY-SA, are in the package's resource README), read by bench/colour_sources.py at 640
# pixels on the long side. Two windows of each, placed by a seeded draw, the first with its object
# removed by name, the second from a drawn stroke. Added when the fresh part's stroke holes had been
# looked at case by case: this part is the one no fill work has looked at. Printed as a summary only.
MONUMENT_WINDOW = 400


def monument_photos() -> list[str]:
    """``explore_monuments/<path>`` of the part's photos, when gcompris-qt-data is installed."""
    sys.path.insert(0, str(ROOT / "bench"))
    import colour_sources

    if not colour_sources.gcompris_present():
        return []
    files = colour_sources._rcc("explore_monuments")
    return sorted("explore_monuments/" + k.split("/resource/", 1)[1] for k in files if k.endswith(".webp"))


def monument_cases() -> list[Case]:
    import colour_sources

    out = []
    for k, photo in enumerate(monument_photos()):
        img = colour_sources.gcompris(photo)
        side = min(MONUMENT_WINDOW, *img.shape[:2])
        rng = np.random.default_rng(9000 + k)
        for j in (0, 2):  # _case's mode: i % 3 == 2 is a stroke
            x = int(rng.integers(0, img.shape[1] - side + 1))
            y = int(rng.integers(0, img.shape[0] - side + 1))
            out.append(_case(300 + 3 * k + j, photo.split("/")[-1].removesuffix(".webp"), f"window {x},{y}",
                             True, img[y:y + side, x:x + side]))
    return out


def scene_cases() -> list[Case]:
    """People standing in whole photos: on each of the monuments part's photos (gcompris-qt-data's
    explore_monuments, about 1024 pixels wide), a person (the astronaut's cutout, or a drawn
    silhouette) 12-25% of the photo tall with its feet at 70-95% of its height, twice, one removed by
    name and one from a stroke. What is behind a person in a scene is the scene's layers (ground,
    a hedge's foot, a horizon), which a window's close-up does not have; every 4th photo is held out."""
    import colour_sources

    out = []
    for k, photo in enumerate(monument_photos()):
        img = np.ascontiguousarray(colour_sources.gcompris(photo))
        for j in (0, 2):  # _case's mode: i % 3 == 2 is a stroke
            out.append(_case(600 + 3 * k + j, photo.split("/")[-1].removesuffix(".webp"), "scene",
                             k % HELD_OUT_EVERY == HELD_OUT_EVERY - 1, img, kinds=("person", "drawn_person"),
                             height=(0.12, 0.25), feet=(0.7, 0.95)))
    return out


def drawn_stroke_cases() -> list[Case]:
    """A development part of stroke holes only: two windows of each development photo placed by a
    seeded draw, as the fresh part's are, each with an object removed from a drawn stroke (the
    stroke holes of :func:`make_cases` are a third of its picked windows)."""
    out = []
    n = 0
    for p, photo in enumerate(PHOTOS):
        if p % HELD_OUT_EVERY == HELD_OUT_EVERY - 1:
            continue
        img = load(photo)
        side = min(FRESH_WINDOW, *img.shape[:2])
        rng = np.random.default_rng(7000 + p)
        for _ in range(2):
            x = int(rng.integers(0, img.shape[1] - side + 1))
            y = int(rng.integers(0, img.shape[0] - side + 1))
            out.append(_case(201 + 3 * n + 2, photo, f"window {x},{y}", False, img[y:y + side, x:x + side]))
            n += 1
    return out
