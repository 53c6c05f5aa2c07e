"""The development set for trace captions: composites of redistributable photos with known objects,
traced in known orders the ways people trace.

Objects are cut from scikit-image's sample photos (public domain / CC0, see
resources/library/README.md): chelsea's cat, coffee's cup, the stereo motorcycle, the astronaut (a
person in an orange suit), the camera man (a person in a black coat) and the rocket (not a COCO
class: only the ImageNet classifier can name it). They are pasted at random places over sky and
grass (640x480), 2 or 3 to a scene. Each scene is traced one of four ways:

- ``lift``: one stroke per object, the pen lifted between them;
- ``multi``: as ``lift``, but one object is traced in two strokes (the pen lifted in the middle);
- ``linger``: one stroke over the objects in order that then goes back and forth over objects
  already traced, two to four more times (a person talking while they point);
- ``region``: one of the dwells is on the grass with no object on it.

The truth is the objects (and the grass) in the order they are first traced; each must be named
once. Persons carry the colour of their clothes, to check no one is described by their skin.

The held-out part (:func:`held_out_things`, ``held_out=True``) is not looked at while tuning: other
crops of the same photos (the astronaut's head and shoulders, the cat's face, the rocket's top), two
things no earlier rule was written for (scikit-image's horse, a black silhouette the classifier
calls a dog; scikit-learn's flower, which neither model knows, so "object" is the right word), a wall
over a gravel floor as well as sky over grass, and its own random seed. Since its region traces fell
(0.6 -> 0.3) after a rule written on part one, it had to be looked at: it is now the development
set's second part ("dev part 2"), printed scene by scene like part one.

The held-out part v2 (:func:`held_out_v2_things`, ``part="v2"``) replaces it and is not looked at
while tuning; only its figures are printed. Its things are mirror images and other crops (the right
view of the stereo motorcycle; a brown horse silhouette), and its backgrounds are photographed
textures and gradients none of the earlier rules was written on: a sky gradient over scikit-image's
grass photo, its brick wall over its gravel, the dark bokeh behind scikit-learn's flower over a brown
earth, an overcast gradient over sand. It has its own random seed and scale range. Its figures
(named right, once, in order; lift, multi, linger, region): 0.475 (0.7, 0.5, 0.4, 0.3) when it was
made, 0.500 (0.7, 0.5, 0.4, 0.4) after the segmentation and clothing changes of branch naming2,
0.600 (0.9, 0.6, 0.5, 0.4; no wrong noun, the rocket named in 10 of 15 scenes, was 2) after the
naming of dwells over busy backgrounds of branch textures, 0.550 (0.8, 0.6, 0.5, 0.3; no wrong noun,
the rocket in 6 of 15) after branch nouns asked 0.63 of a classifier-only name for a dwell (the
wrong nouns on real photos, bench/photoset.py, were classifier words at 0.56-0.62).

Since those figures did not carry over to textured backgrounds, the development set has a third part
(:func:`dev3_things`, ``part="dev3"``, printed scene by scene) on real photographed material that v2
does not use: scikit-learn's china.jpg (hazy sky, trees), the dark wall and wooden table behind
scikit-image's coffee, the shelves and concrete floor behind the stereo motorcycle, the camera man's
grey sky and grass, the astronaut's studio backdrop, the rocket's dusk sky and the moon's surface,
each rescaled to a band above or below a horizon. Its things are other crops of the same photos (the
left motorcycle mirrored, a dark grey horse). A region dwell there is right when it is described as
a region (any region word but "sky": trees may be "the grass" or "a green area", a table "a brown
area"), wrong when it is named as a thing.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

W, H = 640, 480
KINDS = ("lift", "multi", "linger", "region")


@dataclass
class Thing:
    label: str  # the noun a caption must use
    crop: np.ndarray
    clothing: str | None = None  # for persons: the colour of what they wear
    coco: bool = True


def things() -> list[Thing]:
    from skimage import data

    left = data.stereo_motorcycle()[0]
    cam = np.repeat(data.camera()[40:512, 0:330, None], 3, axis=2)
    return [
        Thing("cat", data.chelsea()[0:300, 0:410]),
        Thing("cup", data.coffee()[10:250, 170:415]),
        Thing("motorcycle", left[60:450, 100:690]),
        Thing("person", data.astronaut()[0:512, 0:380], clothing="orange"),
        Thing("person", cam, clothing="black"),
        Thing("rocket", data.rocket()[0:427, 150:450], coco=False),
    ]


def held_out_things() -> list[Thing]:
    import os

    import sklearn
    from skimage import data, io

    left = data.stereo_motorcycle()[0]
    cam = np.repeat(data.camera()[60:480, 40:300, None], 3, axis=2)
    horse = np.repeat(np.where(data.horse(), 255, 0).astype(np.uint8)[:, :, None], 3, axis=2)
    flower = io.imread(os.path.join(os.path.dirname(sklearn.__file__), "datasets", "images", "flower.jpg"))
    return [
        Thing("cat", data.chelsea()[20:300, 80:380]),
        Thing("cup", data.coffee()[0:260, 150:430]),
        Thing("motorcycle", left[40:470, 60:720]),
        Thing("person", data.astronaut()[0:300, 60:420], clothing="orange"),
        Thing("person", cam, clothing="black"),
        Thing("rocket", data.rocket()[0:300, 200:400], coco=False),
        Thing("horse", horse),
        Thing("object", flower[60:400, 120:560], coco=False),
    ]


def _sky_grass(rng: np.random.Generator, wall: bool = False) -> tuple[np.ndarray, int]:
    img = np.empty((H, W, 3), np.float32)
    horizon = int(H * rng.uniform(0.45, 0.55))
    img[:horizon] = (200, 190, 170) if wall else (135, 190, 235)
    img[horizon:] = (70, 140, 60)
    if wall:  # a gravel floor: grey-brown speckle
        img[horizon:] = (120, 110, 100)
        img[horizon:] += rng.normal(0, 25, img[horizon:].shape)
    img += rng.normal(0, 6, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8), horizon


def _free(box, boxes, gap: int = 10) -> bool:
    return all(box[2] + gap <= b[0] or b[2] + gap <= box[0] or box[3] + gap <= b[1] or b[3] + gap <= box[1]
               for b in boxes)


def held_out_v2_things() -> list[Thing]:
    from skimage import data

    right = data.stereo_motorcycle()[1]
    cam = np.repeat(data.camera()[30:500, 20:320, None], 3, axis=2)[:, ::-1]
    horse = np.where(data.horse()[:, ::-1, None], np.uint8([245, 245, 245]), np.uint8([120, 72, 40]))
    return [
        Thing("cat", data.chelsea()[10:295, 40:440, :][:, ::-1]),
        Thing("cup", data.coffee()[0:270, 130:450][:, ::-1]),
        Thing("motorcycle", right[50:460, 80:700]),
        Thing("person", data.astronaut()[0:512, 20:440][:, ::-1], clothing="orange"),
        Thing("person", cam, clothing="black"),
        Thing("rocket", data.rocket()[0:427, 170:470][:, ::-1], coco=False),
        Thing("horse", np.ascontiguousarray(horse)),
    ]


def dev3_things() -> list[Thing]:
    from skimage import data

    left = data.stereo_motorcycle()[0]
    cam = np.repeat(data.camera()[40:500, 10:310, None], 3, axis=2)
    horse = np.where(data.horse()[:, :, None], np.uint8([235, 235, 230]), np.uint8([60, 60, 60]))
    return [
        Thing("cat", data.chelsea()[0:300, 30:430]),
        Thing("cup", data.coffee()[20:260, 160:430]),
        Thing("motorcycle", np.ascontiguousarray(left[50:460, 80:710][:, ::-1])),
        Thing("person", data.astronaut()[0:480, 0:400], clothing="orange"),
        Thing("person", cam, clothing="black"),
        Thing("rocket", data.rocket()[0:427, 160:460], coco=False),
        Thing("horse", np.ascontiguousarray(horse)),
    ]


def _photo_bands() -> list[tuple[np.ndarray, np.ndarray, str]]:
    """``(above, below, region word)``: pieces of real photos, none used by v2."""
    import os

    import sklearn
    from skimage import data, io

    china = io.imread(os.path.join(os.path.dirname(sklearn.__file__), "datasets", "images", "china.jpg"))
    coffee, moto, astro, rocket = data.coffee(), data.stereo_motorcycle()[0], data.astronaut(), data.rocket()
    cam, moon = (np.repeat(g[:, :, None], 3, axis=2) for g in (data.camera(), data.moon()))
    return [
        (china[0:95, 260:640], china[300:427, 380:640], "trees"),  # hazy sky over trees
        (coffee[0:50, 0:90], coffee[0:150, 470:600], "table"),  # a dark wall over a wooden table
        (moto[0:110, 330:740], moto[440:500, 0:620], "floor"),  # garage shelves over a concrete floor
        (cam[0:110, 300:512], cam[300:480, 420:512], "grass"),  # grey sky over grey grass
        (astro[0:160, 310:360], moon, "ground"),  # a studio backdrop over the moon's surface
        (rocket[0:330, 345:435], china[300:427, 380:640], "trees"),  # a dusk sky over trees
    ]


def _dev3_background(rng: np.random.Generator) -> tuple[np.ndarray, int, str]:
    above, below, label = _photo_bands()[int(rng.integers(0, 6))]
    horizon = int(H * rng.uniform(0.4, 0.55))
    img = np.empty((H, W, 3), np.float32)
    for band, y0, y1 in ((above, 0, horizon), (below, horizon, H)):
        if rng.random() < 0.5:
            band = band[:, ::-1]
        img[y0:y1] = cv2.resize(np.ascontiguousarray(band), (W, y1 - y0), interpolation=cv2.INTER_AREA)
    img += rng.normal(0, 3, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8), horizon, label


def _texture(gray: np.ndarray, h: int, tint, scale: float, rng: np.random.Generator) -> np.ndarray:
    """A grey texture photo, rescaled and tinted, ``h`` rows of ``W``."""
    g = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA).astype(np.float32)
    reps = (h // g.shape[0] + 1, W // g.shape[1] + 1)
    g = np.tile(g, reps)
    y0, x0 = int(rng.integers(0, g.shape[0] - h + 1)), int(rng.integers(0, g.shape[1] - W + 1))
    g = g[y0:y0 + h, x0:x0 + W] / 255.0
    return (g[:, :, None] * 1.6) * np.float32(tint)


def _v2_background(rng: np.random.Generator) -> tuple[np.ndarray, int, str]:
    import os

    import sklearn
    from skimage import data, io

    img = np.empty((H, W, 3), np.float32)
    horizon = int(H * rng.uniform(0.42, 0.56))
    kind = int(rng.integers(0, 4))
    k = np.linspace(0, 1, horizon)[:, None, None]
    if kind == 0:  # sky gradient over a grass photo
        img[:horizon] = (60, 110, 200) * (1 - k) + (190, 215, 240) * k
        img[horizon:] = _texture(data.grass(), H - horizon, (70, 125, 50), rng.uniform(0.5, 1.0), rng)
        label = "grass"
    elif kind == 1:  # a brick wall over gravel
        img[:horizon] = _texture(data.brick(), horizon, (150, 80, 60), rng.uniform(0.6, 1.0), rng)
        img[horizon:] = _texture(data.gravel(), H - horizon, (115, 110, 105), rng.uniform(0.5, 1.0), rng)
        label = "ground"
    elif kind == 2:  # the dark bokeh behind the flower, over brown earth
        flower = io.imread(os.path.join(os.path.dirname(sklearn.__file__), "datasets", "images", "flower.jpg"))
        img[:horizon] = cv2.resize(flower[0:90, 0:150], (W, horizon)).astype(np.float32)
        img[horizon:] = _texture(data.gravel(), H - horizon, (110, 80, 55), rng.uniform(1.0, 1.6), rng)
        label = "ground"
    else:  # an overcast gradient over sand
        img[:horizon] = (170, 175, 185) * (1 - k) + (225, 225, 225) * k
        img[horizon:] = (205, 180, 140)
        img[horizon:] += rng.normal(0, 10, img[horizon:].shape)
        label = "ground"
    img += rng.normal(0, 4, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8), horizon, label


def make_scene(rng: np.random.Generator, pool: list[Thing], kind: str, held_out: bool = False,
               part: str = ""):
    """``(image, targets, strokes)`` or None when the objects do not fit; ``targets`` are
    ``(label, box, thing or None)`` in first-traced order (``"grass"`` for a region dwell).
    ``held_out`` is the development set's second part, ``part="v2"`` the held-out part v2,
    ``part="dev3"`` the development set's third part (photographed backgrounds)."""
    n = int(rng.integers(2, 4))
    chosen = [pool[int(i)] for i in rng.choice(len(pool), size=n, replace=False)]
    if part == "v2":
        img, horizon, ground = _v2_background(rng)
        sizes = (130, 220)
    elif part == "dev3":
        img, horizon, ground = _dev3_background(rng)
        sizes = (130, 220)
    else:
        wall = held_out and rng.random() < 0.5
        img, horizon = _sky_grass(rng, wall=wall)
        ground = "ground" if wall else "grass"
        sizes = (120, 230) if held_out else (150, 210)
    boxes = []
    for t in chosen:
        c = t.crop
        for _ in range(200):
            s = rng.uniform(*sizes) / max(c.shape[:2])
            ch, cw = int(c.shape[0] * s), int(c.shape[1] * s)
            x, y = int(rng.integers(0, W - cw)), int(rng.integers(0, H - ch))
            if _free((x, y, x + cw, y + ch), boxes):
                break
        else:
            return None
        img[y:y + ch, x:x + cw] = cv2.resize(c, (cw, ch), interpolation=cv2.INTER_AREA)
        boxes.append((x, y, x + cw, y + ch))
    targets = [(t.label, b, t) for t, b in zip(chosen, boxes)]
    if kind == "region":
        for _ in range(300):
            gw, gh = int(rng.integers(90, 140)), int(rng.integers(40, 70))
            x, y = int(rng.integers(0, W - gw)), int(rng.integers(horizon + 25, max(horizon + 26, H - gh)))
            g = (x, y, x + gw, min(H, y + gh))
            if g[3] - g[1] > 30 and _free(g, boxes, gap=30):
                targets.insert(int(rng.integers(0, len(targets) + 1)), (ground, g, None))
                break
        else:
            return None
    return img, targets, trace_for(rng, [b for _, b, _ in targets], kind)


def _loop(rng, box, t0: float, dwell: float | None = None, size: tuple[int, int] = (W, H)) -> np.ndarray:
    from agent.describe.traces import synthetic_trace

    w, h = size
    nb = (box[0] / w, box[1] / h, box[2] / w, box[3] / h)
    s = synthetic_trace([nb], dwell=dwell or float(rng.uniform(0.8, 2.0)), cover=float(rng.uniform(0.5, 0.9)),
                        rng=rng, jitter=0.008)[0]
    s[:, 2] += t0
    return s


def _join(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    k = np.linspace(0, 1, 8)[1:-1, None]
    return np.concatenate([a, a[-1] + k * (b[0] - a[-1]), b])


# Seconds between lifting the pen and putting it down on the next thing (lift and multi traces).
# People move on faster than this too: ``bench/trace.py --lift-gap 0.3 0.6`` times the same
# traces with quicker lifts, shorter than the captioner's pause.
LIFT_GAP = (0.8, 1.5)


def trace_for(rng: np.random.Generator, boxes, kind: str, size: tuple[int, int] = (W, H)) -> list[np.ndarray]:
    """Strokes over ``boxes`` (pixels of a ``size`` = (width, height) image) in order, traced the
    way ``kind`` says (see the module docstring)."""
    strokes: list[np.ndarray] = []
    t = 0.0
    split = int(rng.integers(0, len(boxes)))
    for i, b in enumerate(boxes):
        s = _loop(rng, b, t, size=size)
        if kind == "multi" and i == split:  # this one in two strokes, a short lift between
            half = len(s) // 2
            s2 = s[half:].copy()
            s2[:, 2] += 0.9
            strokes += [s[:half], s2]
            s = s2
        elif kind in ("linger", "region") and strokes:
            strokes[-1] = _join(strokes[-1], s)
        else:
            strokes.append(s)
        t = float(s[-1, 2]) + (float(rng.uniform(*LIFT_GAP)) if kind in ("lift", "multi") else 0.3)
    if kind == "linger":  # back and forth over what was already traced
        for _ in range(int(rng.integers(2, 5))):
            b = boxes[int(rng.integers(0, len(boxes)))]
            s = _loop(rng, b, float(strokes[-1][-1, 2]) + 0.3, dwell=float(rng.uniform(0.6, 1.2)), size=size)
            strokes[-1] = _join(strokes[-1], s)
    return strokes
