"""Build resources/library/: the sample photo library that ships with Easel, and its perception cache.

    python scripts/make_sample_library.py          # images, then perception.json (runs the models)

The photos are scikit-image's bundled sample data (public domain or CC0, see README.md in the
folder); the rest are made here from them or drawn from scratch, so everything can be rebuilt
byte for byte from installed packages. JPEGs carry an EXIF DateTimeOriginal so the library's date
column has something to show.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
from PIL import Image
from skimage import data

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
OUT = ROOT / "resources" / "library"
MAX_SIDE = 640


def _rgb(img: np.ndarray) -> np.ndarray:
    if img.dtype == bool:
        img = np.where(img, 0, 255).astype(np.uint8)  # the horse: a black silhouette on white
    if img.ndim == 2:
        img = np.repeat(img[:, :, None], 3, axis=2)
    return np.ascontiguousarray(img[:, :, :3])


def _fit(img: np.ndarray) -> np.ndarray:
    s = MAX_SIDE / max(img.shape[:2])
    return cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA) if s < 1 else img


def _save(name: str, img: np.ndarray, date: str) -> None:
    im = Image.fromarray(_fit(_rgb(img)))
    exif = Image.Exif()
    exif.get_ifd(0x8769)[36867] = date  # DateTimeOriginal
    exif[306] = date
    path = OUT / name
    if name.endswith(".png"):
        im.save(path, optimize=True, exif=exif.tobytes())
    else:
        im.save(path, quality=85, optimize=True, exif=exif.tobytes())


def _sky(h: int, w: int, top=(90, 150, 230), bottom=(180, 215, 245)) -> np.ndarray:
    t = np.linspace(0, 1, h)[:, None, None]
    return ((1 - t) * np.array(top) + t * np.array(bottom)).repeat(w, axis=1).astype(np.uint8)


def _text(img: np.ndarray, text: str, center: tuple[int, int], scale: float, color, thick: int) -> None:
    font = cv2.FONT_HERSHEY_DUPLEX
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    cv2.putText(img, text, (center[0] - tw // 2, center[1] + th // 2), font, scale, color, thick, cv2.LINE_AA)


def made_images() -> dict[str, np.ndarray]:
    from editor.ops import adjust_color

    cat, coffee = data.chelsea(), data.coffee()
    out: dict[str, np.ndarray] = {}
    h = 300
    coffee_small = cv2.resize(coffee, (int(coffee.shape[1] * h / coffee.shape[0]), h), interpolation=cv2.INTER_AREA)
    out["cat_and_coffee.jpg"] = np.concatenate([cat, coffee_small], axis=1)
    out["blue_cat.jpg"] = adjust_color(cat, color="blue", intensity=0.45)
    out["two_cats.jpg"] = np.concatenate([cat, cat[:, ::-1]], axis=1)
    out["astronaut_face.jpg"] = data.astronaut()[0:260, 120:360]

    rng = np.random.default_rng(7)
    stop = np.full((400, 400, 3), (200, 200, 195), np.uint8)
    oct_pts = np.array([[200 + 170 * np.cos(np.pi / 8 + k * np.pi / 4), 200 + 170 * np.sin(np.pi / 8 + k * np.pi / 4)]
                        for k in range(8)], np.int32)
    cv2.fillPoly(stop, [oct_pts], (200, 20, 30), cv2.LINE_AA)
    cv2.polylines(stop, [oct_pts], True, (245, 245, 245), 8, cv2.LINE_AA)
    _text(stop, "STOP", (200, 200), 3.0, (250, 250, 250), 8)
    out["stop_sign.png"] = stop

    exit_ = np.full((300, 600, 3), (40, 40, 45), np.uint8)
    cv2.rectangle(exit_, (60, 60), (540, 240), (20, 150, 60), -1)
    _text(exit_, "EXIT", (300, 150), 4.0, (250, 250, 250), 10)
    out["exit_sign.png"] = exit_

    sale = np.full((480, 360, 3), (250, 215, 30), np.uint8)
    _text(sale, "BIG SALE", (180, 140), 2.0, (20, 20, 20), 5)
    _text(sale, "50% OFF", (180, 260), 2.0, (200, 20, 30), 5)
    _text(sale, "this weekend only", (180, 370), 1.0, (20, 20, 20), 2)
    out["sale_poster.png"] = sale

    balloon = _sky(480, 640)
    cv2.line(balloon, (330, 300), (340, 470), (60, 60, 60), 2, cv2.LINE_AA)
    cv2.ellipse(balloon, (320, 200), (80, 100), 0, 0, 360, (215, 25, 35), -1, cv2.LINE_AA)
    cv2.ellipse(balloon, (295, 160), (15, 25), -20, 0, 360, (240, 120, 120), -1, cv2.LINE_AA)
    out["red_balloon.jpg"] = balloon

    t = np.linspace(0, 1, 480)[:, None, None]
    sunset = ((1 - t) * np.array([90, 40, 120]) + t * np.array([250, 140, 40])).repeat(640, axis=1).astype(np.uint8)
    cv2.circle(sunset, (320, 380), 70, (255, 220, 90), -1, cv2.LINE_AA)
    hills = np.array([[0, 400], [120, 360], [260, 410], [420, 350], [640, 390], [640, 480], [0, 480]], np.int32)
    cv2.fillPoly(sunset, [hills], (30, 20, 30), cv2.LINE_AA)
    out["sunset.jpg"] = sunset

    field = _sky(480, 640)
    field[300:] = (60, 150, 50)
    field[300:] = np.clip(field[300:].astype(int) + rng.integers(-25, 25, field[300:].shape), 0, 255).astype(np.uint8)
    for x, y in [(120, 120), (180, 110), (460, 90)]:
        cv2.ellipse(field, (x, y), (60, 25), 0, 0, 360, (250, 250, 250), -1, cv2.LINE_AA)
    out["green_field.jpg"] = field

    snow = np.full((480, 640, 3), (235, 238, 245), np.uint8)
    snow = np.clip(snow.astype(int) + rng.integers(-12, 12, snow.shape), 0, 255).astype(np.uint8)
    tree = np.array([[320, 80], [420, 360], [220, 360]], np.int32)
    cv2.fillPoly(snow, [tree], (20, 90, 40), cv2.LINE_AA)
    cv2.rectangle(snow, (305, 360), (335, 420), (90, 60, 30), -1)
    out["snowy_tree.jpg"] = snow

    flags = np.full((400, 600, 3), 255, np.uint8)
    flags[:, :200] = (0, 85, 164)
    flags[:, 400:] = (239, 65, 53)
    out["tricolour_flag.png"] = flags
    return out


SKIMAGE = {
    "astronaut.jpg": data.astronaut, "chelsea.jpg": data.chelsea, "coffee.jpg": data.coffee,
    "rocket.jpg": data.rocket, "motorcycle.jpg": lambda: data.stereo_motorcycle()[0],
    "hubble_deep_field.jpg": data.hubble_deep_field, "camera.png": data.camera, "page.png": data.page,
    "coins.png": data.coins, "moon.png": data.moon, "retina.jpg": data.retina,
    "immunohistochemistry.jpg": data.immunohistochemistry, "horse.png": data.horse,
    "brick.jpg": data.brick, "grass.jpg": data.grass, "gravel.jpg": data.gravel, "text.png": data.text,
    "clock.jpg": data.clock, "cell.png": data.cell, "logo.png": data.logo,
}


def main() -> int:
    import torch

    from agent.perception.concepts import perceive

    torch.set_num_threads(1)
    OUT.mkdir(parents=True, exist_ok=True)
    images = {name: fn() for name, fn in SKIMAGE.items()}
    images.update(made_images())
    for i, (name, img) in enumerate(sorted(images.items())):
        _save(name, img, f"2024:0{1 + i % 9}:{10 + i:02d} 12:00:00")
    # The perception cache of exactly the shipped files (as decoded), OCR included.
    from editor.imageio import read_image

    entries = []
    for path in sorted(OUT.iterdir()):
        if path.suffix.lower() in (".jpg", ".png"):
            p = perceive(read_image(path).pixels, ocr=True, db=":memory:", use_cache=False)
            entries.append(p.to_json())
            print(f"{path.name}: {p.description()}")
    (OUT / "perception.json").write_text(json.dumps(entries, indent=0) + "\n")
    total = sum(f.stat().st_size for f in OUT.iterdir())
    print(f"{len(entries)} images, {total / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
