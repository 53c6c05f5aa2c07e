"""Image pairs made with Easel's own operations, with the truth of each edit and its instructions.

Used by the relation-engine benchmark (``bench/explain.py``) and to train the relational speaker
(``python -m training train-speaker``). A pair is a base photo and the same photo after one or
two edits: the operations of :mod:`editor.ops` (rotate, brightness, contrast, colour tint, flip,
crop, cutout) and object edits (a patch from another photo pasted in: added; a region filled by
``cv2.inpaint``: removed; a patch moved and its old place filled: moved; a region tinted toward
another colour: recoloured), with random parameters. The truth names each edit with its parameters
and boxes; :func:`instructions` turns it into what a person would have asked for
("rotate it 90 degrees clockwise and make it brighter"), in a few phrasings.

The bases are scikit-image's bundled photos (no download) and two synthetic composites; any
folder of photos can be added with :func:`load_folder`.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from agent.explain.engine import where_phrase
from editor import ops
from editor.colors import COLORS

MAX_SIDE = 640


def fit_pair(img: np.ndarray) -> np.ndarray:
    if img.dtype == bool:
        img = img.astype(np.uint8) * 255
    h, w = img.shape[:2]
    s = MAX_SIDE / max(h, w)
    if s < 1:
        img = cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(img)


def synthetic_photo(seed: int) -> np.ndarray:
    """A composite: a gradient, textured noise and a few coloured shapes."""
    rng = np.random.default_rng(seed)
    h, w = 420, 560
    y, x = np.mgrid[0:h, 0:w]
    img = np.stack([x / w * 180 + 40, y / h * 160 + 50, (x + y) / (w + h) * 120 + 60], -1)
    noise = cv2.GaussianBlur(rng.normal(0, 40, (h, w)).astype(np.float32), (0, 0), 2)
    img = img + noise[..., None]
    img = np.clip(img, 0, 255).astype(np.uint8)
    for _ in range(14):
        col = tuple(int(c) for c in rng.integers(0, 256, 3))
        cx, cy = int(rng.integers(0, w)), int(rng.integers(0, h))
        if rng.random() < 0.5:
            cv2.circle(img, (cx, cy), int(rng.integers(10, 50)), col, -1)
        else:
            cv2.rectangle(img, (cx, cy), (cx + int(rng.integers(15, 90)), cy + int(rng.integers(15, 90))),
                          col, -1)
    return img


def load_bases() -> dict[str, np.ndarray]:
    from skimage import data

    bases = {
        "astronaut": data.astronaut(), "coffee": data.coffee(), "chelsea": data.chelsea(),
        "rocket": data.rocket(), "motorcycle": data.stereo_motorcycle()[0], "camera": data.camera(),
        "hubble": data.hubble_deep_field(), "retina": data.retina(), "page": data.page(),
        "coins": data.coins(), "immunohistochemistry": data.immunohistochemistry(),
        "clock": data.clock(), "synthetic1": synthetic_photo(1), "synthetic2": synthetic_photo(2),
    }
    return {k: fit_pair(v) for k, v in bases.items()}


# --- edits with their truth -------------------------------------------------------------------


def rgb8_of(img: np.ndarray) -> np.ndarray:
    return np.repeat(img[:, :, None], 3, axis=2) if img.ndim == 2 else img[:, :, :3]


def _texture_box(rng, img: np.ndarray, frac: tuple[float, float], tries: int = 12,
                 avoid: list | None = None) -> list[int]:
    """A random box of the given size fraction, the most textured of a few candidates."""
    h, w = img.shape[:2]
    g = cv2.cvtColor(rgb8_of(img), cv2.COLOR_RGB2GRAY).astype(np.float32)
    mag = np.abs(cv2.Laplacian(g, cv2.CV_32F))
    best, score = None, -1.0
    for _ in range(tries):
        bw = int(w * rng.uniform(*frac))
        bh = int(h * rng.uniform(*frac))
        x = int(rng.integers(0, w - bw))
        y = int(rng.integers(0, h - bh))
        box = [x, y, x + bw, y + bh]
        if avoid and any(_iou_pad(box, a) for a in avoid):
            continue
        s = float(mag[y:y + bh, x:x + bw].mean())
        if s > score:
            best, score = box, s
    return best


def _iou_pad(a, b, pad=10) -> bool:
    return a[0] - pad < b[2] and b[0] - pad < a[2] and a[1] - pad < b[3] and b[1] - pad < a[3]


def _ellipse_mask(shape, box) -> np.ndarray:
    m = np.zeros(shape[:2], np.uint8)
    x1, y1, x2, y2 = box
    cv2.ellipse(m, (((x1 + x2) / 2, (y1 + y2) / 2), (x2 - x1 - 1, y2 - y1 - 1), 0), 255, -1)
    return m


def _paste(img, patch, box):
    out = rgb8_of(img).copy()
    x1, y1, x2, y2 = box
    out[y1:y2, x1:x2] = cv2.resize(rgb8_of(patch), (x2 - x1, y2 - y1), interpolation=cv2.INTER_AREA)
    return out


def edit_added(rng, img, others):
    donor = others[int(rng.integers(len(others)))]
    pb = _texture_box(rng, donor, (0.2, 0.4))
    patch = rgb8_of(donor)[pb[1]:pb[3], pb[0]:pb[2]]
    h, w = img.shape[:2]
    bw, bh = int(w * rng.uniform(0.15, 0.3)), int(h * rng.uniform(0.15, 0.3))
    x, y = int(rng.integers(0, w - bw)), int(rng.integers(0, h - bh))
    box = [x, y, x + bw, y + bh]
    return _paste(img, patch, box), {"object_added": {"after_box": box, "before_box": box}}


def edit_removed(rng, img, others):
    box = _texture_box(rng, img, (0.15, 0.3))
    m = _ellipse_mask(img.shape, box)
    out = cv2.inpaint(rgb8_of(img).copy(), m, 5, cv2.INPAINT_TELEA)
    return out, {"object_removed": {"before_box": box, "after_box": box}}


def edit_moved(rng, img, others):
    src = _texture_box(rng, img, (0.15, 0.25))
    h, w = img.shape[:2]
    bw, bh = src[2] - src[0], src[3] - src[1]
    for _ in range(50):
        x, y = int(rng.integers(0, w - bw)), int(rng.integers(0, h - bh))
        dst = [x, y, x + bw, y + bh]
        if not _iou_pad(src, dst, pad=15):
            break
    else:
        return None
    rgb = rgb8_of(img)
    patch = rgb[src[1]:src[3], src[0]:src[2]].copy()
    m = np.zeros(img.shape[:2], np.uint8)
    m[src[1]:src[3], src[0]:src[2]] = 255
    out = cv2.inpaint(rgb.copy(), m, 5, cv2.INPAINT_TELEA)
    out[dst[1]:dst[3], dst[0]:dst[2]] = patch
    return out, {"object_moved": {"before_box": src, "after_box": dst}}


def edit_recolored(rng, img, others):
    box = _texture_box(rng, img, (0.15, 0.3))
    rgb = rgb8_of(img)
    x1, y1, x2, y2 = box
    mean = rgb[y1:y2, x1:x2].reshape(-1, 3).mean(axis=0)
    far = sorted(COLORS, key=lambda c: -np.linalg.norm(np.array(COLORS[c]) - mean))[:4]
    color = far[int(rng.integers(len(far)))]
    tinted = ops.adjust_color(rgb, color=color, intensity=float(rng.uniform(0.55, 0.85)))
    m = _ellipse_mask(img.shape, box).astype(bool)
    out = rgb.copy()
    out[m] = tinted[m]
    return out, {"object_recolored": {"before_box": box, "after_box": box, "color": color}}


def edit_rotate(rng, img, others):
    deg = float(rng.choice([90, 180, 270])) if rng.random() < 0.3 else round(float(rng.uniform(1.5, 358.5)), 1)
    return ops.rotate(img, degrees=deg), {"rotate": {"degrees": deg}}


def edit_flip(rng, img, others):
    axis = "horizontal" if rng.random() < 0.5 else "vertical"
    return ops.flip(img, axis=axis), {"flip": {"axis": axis}}


def edit_crop(rng, img, others):
    h, w = img.shape[:2]
    bw, bh = int(w * rng.uniform(0.4, 0.9)), int(h * rng.uniform(0.4, 0.9))
    x, y = int(rng.integers(0, w - bw + 1)), int(rng.integers(0, h - bh + 1))
    box = [x, y, x + bw, y + bh]
    return ops.crop(img, box=box), {"crop": {"box": box}}


def _amount(rng):
    return round(float(rng.choice([-1, 1]) * rng.uniform(5, 60)), 1)


def edit_brightness(rng, img, others):
    p = _amount(rng)
    return ops.adjust_brightness(img, amount=p), {"brightness": {"amount": p}}


def edit_contrast(rng, img, others):
    p = _amount(rng)
    return ops.adjust_contrast(img, amount=p), {"contrast": {"amount": p}}


def edit_tint(rng, img, others):
    c = list(COLORS)[int(rng.integers(len(COLORS)))]
    i = round(float(rng.uniform(0.1, 0.6)), 2)
    return ops.adjust_color(img, color=c, intensity=i), {"color_tint": {"color": c, "intensity": i}}


_masks: dict[int, np.ndarray] = {}


def edit_cutout(rng, img, others):
    key = id(img)
    if key not in _masks:
        _masks[key] = ops.subject_mask(img)
    m = _masks[key]
    if not 0.1 < float((m > 0.5).mean()) < 0.85:  # no clear subject: the cutout shows little
        return None
    out = ops.image_cutout(img, mask=m)
    if rng.random() < 0.5:
        out = out[:, :, :3].copy()  # as saved to a format without alpha: a black background
    return out, {"background_removed": {}}


SINGLE = {
    "rotate": edit_rotate, "flip": edit_flip, "crop": edit_crop, "brightness": edit_brightness,
    "contrast": edit_contrast, "color_tint": edit_tint, "background_removed": edit_cutout,
    "object_added": edit_added, "object_removed": edit_removed, "object_moved": edit_moved,
    "object_recolored": edit_recolored,
}
# Combined edits, applied left to right. Contrast then brightness is the order the engine reports in.
COMBOS = [
    ("rotate", "brightness"), ("crop", "contrast"), ("flip", "color_tint"),
    ("contrast", "brightness"), ("object_added", "brightness"), ("object_removed", "contrast"),
    ("object_recolored", "flip"), ("crop", "brightness"),
]


def _flip_box(box, axis, w, h):
    x1, y1, x2, y2 = box
    return [w - x2, y1, w - x1, y2] if axis == "horizontal" else [x1, h - y2, x2, h - y1]


def make_pair(rng, img, others, kinds: tuple[str, ...]):
    """Apply the edits in order; returns (after, truth) with boxes in the final images' frames."""
    truth: dict = {}
    out = img
    for k in kinds:
        r = SINGLE[k](rng, out, others)
        if r is None:
            return None
        new, t = r
        if k == "flip":  # move the after boxes of earlier local edits with the pixels
            h, w = out.shape[:2]
            for v in truth.values():
                if "after_box" in v:
                    v["after_box"] = _flip_box(v["after_box"], t["flip"]["axis"], w, h)
        out = new
        truth.update(t)
    return out, truth


def make_pairs(n: int, seed: int, bases: dict[str, np.ndarray]):
    rng = np.random.default_rng(seed)
    names = list(bases)
    kinds = list(SINGLE)
    specs = []
    i = 0
    while len(specs) < n:
        base = names[i % len(names)]
        if i % 4 == 3:
            spec = COMBOS[(i // 4) % len(COMBOS)]
        else:
            spec = (kinds[(i - i // 4) % len(kinds)],)
        specs.append((base, spec))
        i += 1
    for base, spec in specs:
        img = bases[base]
        others = [v for k, v in bases.items() if k != base]
        r = make_pair(rng, img, others, spec)
        if r is None:
            continue
        yield base, spec, img, r[0], r[1]



# --- instructions -----------------------------------------------------------------------------


def _strength(v: float) -> str:
    v = abs(v)
    return "slightly" if v < 15 else "a lot" if v > 40 else ""


def _phrases(kind: str, t: dict, size) -> list[str]:
    """Three ways to ask for one edit."""
    if kind == "rotate":
        d = t["degrees"]
        if abs(d - 180) < 1:
            return ["rotate it 180 degrees", "turn the image upside down", "rotate the picture by 180 degrees"]
        if d < 180:
            n = round(d / 5) * 5 if d % 90 else int(d)
            return [f"rotate it {n} degrees counter clockwise", f"turn the image {n} degrees to the left",
                    f"rotate the picture left by {n} degrees"]
        n = round((360 - d) / 5) * 5 if d % 90 else int(360 - d)
        return [f"rotate it {n} degrees clockwise", f"turn the image {n} degrees to the right",
                f"rotate the picture right by {n} degrees"]
    if kind == "flip":
        if t["axis"] == "horizontal":
            return ["flip the image horizontally", "mirror it left to right", "flip it horizontally"]
        return ["flip the image vertically", "flip it upside down", "mirror it top to bottom"]
    if kind == "crop":
        where = where_phrase(t["box"], size)
        return [f"crop the part {where}", f"crop the image to the region {where}", f"cut out the area {where}"]
    if kind in ("brightness", "contrast"):
        v = t["amount"]
        s = _strength(v)
        s_ = f" {s}" if s else ""
        if kind == "brightness":
            word = "brighter" if v > 0 else "darker"
            verb = "brighten" if v > 0 else "darken"
            return [f"make it{s_} {word}", f"{verb} the image{s_}", f"make the photo{s_} {word}"]
        more = "increase" if v > 0 else "reduce"
        word = "more" if v > 0 else "less"
        return [f"{more} the contrast{s_}", f"give it{s_} {word} contrast", f"{more} the image contrast{s_}"]
    if kind == "color_tint":
        c = t["color"]
        return [f"add a {c} tint", f"make it more {c}", f"tint the image {c}"]
    if kind == "background_removed":
        return ["remove the background", "cut out the main subject", "get rid of the background"]
    if kind == "object_added":
        where = where_phrase(t["after_box"], size)
        return [f"add an object {where}", f"put something {where}", f"paste an object {where}"]
    if kind == "object_removed":
        where = where_phrase(t["before_box"], size)
        return [f"remove the object {where}", f"erase the thing {where}", f"delete the object {where}"]
    if kind == "object_moved":
        a = where_phrase(t["before_box"], size).split(" ", 1)[1]
        b = where_phrase(t["after_box"], size).split(" ", 1)[1]
        return [f"move the object from {a} to {b}", f"move the thing at {a} to {b}",
                f"shift the object from {a} to {b}"]
    if kind == "object_recolored":
        where = where_phrase(t["after_box"], size)
        c = t["color"]
        return [f"make the region {where} {c}", f"change the colour {where} to {c}", f"colour the part {where} {c}"]
    raise ValueError(f"no phrasing for {kind}")


def instructions(truth: dict, before_size: tuple[int, int], after_size: tuple[int, int]) -> list[str]:
    """Three reference instructions for a pair's truth (edits joined with "and", in order)."""
    per = []
    for kind, t in truth.items():
        size = after_size if kind in ("object_added", "object_recolored") else before_size
        per.append(_phrases(kind, t, size))
    return [" and ".join(p[i] for p in per) for i in range(3)]


def load_folder(folder: str | Path, limit: int = 50) -> dict[str, np.ndarray]:
    """Extra base photos from a folder (readable images only, fitted to 640 pixels)."""
    from editor.imageio import ImageFileError, read_image

    out = {}
    for p in sorted(Path(folder).iterdir())[: limit * 4]:
        if len(out) >= limit:
            break
        try:
            img = read_image(p).pixels
        except (ImageFileError, OSError):
            continue
        if img.dtype == np.uint16:
            img = (img >> 8).astype(np.uint8)
        out[p.stem] = fit_pair(img[..., :3] if img.ndim == 3 else img)
    return out
