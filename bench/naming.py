"""How sure the ImageNet classifier must be before Easel names a thing with its word.

Crops from the development set's photos (scikit-image and scikit-learn sample images, all
redistributable): things with a known everyday word (the cat, the cup, the motorcycle, the rocket,
the astronaut's helmet, the camera man's tripod) at several crop sizes, and crops that show no thing
(grass, brick, gravel, the Hubble deep field, coins, the moon, the page of text, a flat wall, the
Chinese temple's roof and sky). For each threshold T the classifier's best everyday word (ImageNet
probabilities summed per word, :func:`agent.perception.classify.word_probs`) is taken when its probability is at
least T (square crops, as :func:`agent.perception.naming.name_objects` classifies). Printed: right names among things, wrong names among things, and names given to crops with
no thing (flat crops, which :func:`agent.perception.classify.has_structure` rules out, count as unnamed); the threshold in :data:`agent.perception.naming.NAME_CONFIDENCE` is the smallest T with no wrong
name at all, rounded up.

    OMP_NUM_THREADS=1 .venv/bin/python bench/naming.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agent.perception.classify import classify_crops, has_structure, word_probs  # noqa: E402
from agent.perception.models import to_rgb8  # noqa: E402
from agent.perception.naming import NAME_CONFIDENCE  # noqa: E402


def _sklearn_image(name: str) -> np.ndarray:
    import sklearn
    from skimage import io

    return io.imread(os.path.join(os.path.dirname(sklearn.__file__), "datasets", "images", name))


def crops() -> tuple[list[tuple[np.ndarray, tuple, set[str]]], list[tuple[np.ndarray, tuple]]]:
    """``(things, nothings)``: things as (image, box, accepted words), nothings as (image, box)."""
    from skimage import data

    moto = data.stereo_motorcycle()[0]
    things_base = [
        (data.chelsea(), (9, 0, 408, 297), {"cat"}),
        (data.coffee(), (173, 13, 412, 240), {"cup", "coffee", "mug"}),
        (moto, (103, 65, 680, 445), {"motorbike", "scooter"}),
        (data.rocket(), (150, 0, 450, 427), {"rocket", "space shuttle"}),
        (data.astronaut(), (290, 344, 500, 510), {"helmet"}),
        (data.camera(), (0, 61, 302, 508), {"tripod", "camera"}),
    ]
    things = []
    for img, (x1, y1, x2, y2), words in things_base:
        for shrink in (0.0, 0.1, 0.2):  # the box a trace or a detector gives is rarely exact
            dx, dy = int((x2 - x1) * shrink / 2), int((y2 - y1) * shrink / 2)
            things.append((to_rgb8(img), (x1 + dx, y1 + dy, x2 - dx, y2 - dy), words))
    china = _sklearn_image("china.jpg")
    wall = np.full((300, 300, 3), (180, 170, 150), np.uint8)
    wall = np.clip(wall + np.random.default_rng(0).normal(0, 6, wall.shape), 0, 255).astype(np.uint8)
    nothings = []
    for img in (data.grass(), data.brick(), data.gravel(), data.hubble_deep_field(), data.coins(),
                data.moon(), data.page(), wall, china[:120], data.astronaut()[:150, :150],
                data.coffee()[250:, :]):
        rgb = to_rgb8(img)
        h, w = rgb.shape[:2]
        nothings += [(rgb, (0, 0, w, h)), (rgb, (w // 4, h // 4, 3 * w // 4, 3 * h // 4))]
    return things, nothings


def main() -> int:
    import torch

    torch.set_num_threads(1)
    things, nothings = crops()
    print(f"{len(things)} crops of things, {len(nothings)} crops of no thing")
    # square (as name_objects and name_regions classify), then the surer of square and as it is
    # (name_regions also classifies a dwell as it is, unless it is a long strip)
    for as_is in (False, True):
        _table(things, nothings, as_is)
    return 0


def _best(img: np.ndarray, box: tuple, as_is: bool) -> tuple[str, float]:
    from agent.perception.naming import shape_word

    ways = [classify_crops(img, [box], square=True)[0]]
    if as_is and shape_word(box) == "":
        ways.append(classify_crops(img, [box])[0])
    return max((max(word_probs(p).items(), key=lambda kv: kv[1]) for p in ways), key=lambda wp: wp[1])


def _table(things, nothings, as_is: bool) -> None:
    best_things = []
    for img, box, words in things:
        w, p = _best(img, box, as_is)
        best_things.append((w in words, p, w))
    best_none = []
    for img, box in nothings:
        w, p = _best(img, box, as_is)
        best_none.append((w, p if has_structure(img, box) else 0.0))  # flat crops are never named
    print("\nthe surer of square and as it is" if as_is else "\nsquare crops")
    print(f"{'T':>5} {'right':>7} {'wrong':>7} {'named nothing':>14}")
    chosen = None
    for t in np.arange(0.10, 0.75, 0.05):
        right = sum(ok and p >= t for ok, p, _ in best_things)
        wrong = sum((not ok) and p >= t for ok, p, _ in best_things)
        fp = sum(p >= t for _, p in best_none)
        print(f"{t:5.2f} {right:>4}/{len(things)} {wrong:>4}/{len(things)} {fp:>8}/{len(nothings)}")
        if chosen is None and wrong == 0 and fp == 0:
            chosen = t
    print("\nwrong or unnamed things:", [(w, round(p, 2)) for ok, p, w in best_things if not ok])
    print("highest word on a crop with no thing:", max(best_none, key=lambda kv: kv[1]))
    print(f"smallest threshold with no wrong name: {chosen:.2f} (agent.perception.naming.NAME_CONFIDENCE = "
          f"{NAME_CONFIDENCE})" if chosen is not None else "no threshold gives no wrong name")
    return 0


if __name__ == "__main__":
    sys.exit(main())
