"""The ImageNet classifiers' view of a box: crops, probabilities, and the everyday words and kinds
they sum to.

Two classifiers ship in installed packages: EfficientNet-Lite0 (float, 224x224, torch) is the one
every threshold of :mod:`agent.perception.naming` was measured on; EfficientNet-Lite3 (int8,
280x280, LiteRT) is averaged in where both name a crop with the same first word
(:func:`classify_crops`). Alone, Lite3 named more crops right but was surer where it was wrong (a
camera man a "tripod" at 0.9, bench/classifiers.py). Where no detector found a thing (a dwell of
a trace over what the detector does not know), :mod:`agent.perception.naming` asks Lite0 alone:
there both classifiers' nearest class for an unknown thing is often the same wrong one (the
rocket photo's towers a "crane").
"""

from __future__ import annotations

import functools
import logging
import threading

import cv2
import numpy as np

from agent.perception.models import (
    IMAGENET_MEAN,
    IMAGENET_STD,
    LITE3_SIDE,
    classifier_and_labels,
    lite3_probs,
)
from agent.perception.region_evidence import crop_box
from agent.perception.vocabulary import class_kinds, everyday_words
from editor.models import ModelMissingError

_run_lock = threading.Lock()
log = logging.getLogger(__name__)


def square_box(box: tuple[int, int, int, int], shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """``box`` widened on its short side to a square about its centre, as far as the image allows."""
    h, w = shape[:2]
    x1, y1, x2, y2 = box
    half = max(x2 - x1, y2 - y1) / 2
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    return (max(0, int(cx - half)), max(0, int(cy - half)), min(w, int(np.ceil(cx + half))),
            min(h, int(np.ceil(cy + half))))


def classify_crops(rgb: np.ndarray, boxes: list[tuple[int, int, int, int]], *,
                   square: bool = False, lite3: bool = True) -> np.ndarray:
    """ImageNet probabilities (n, 1000) of each box's crop, in one batch.

    With ``square`` each crop is widened to a square with the picture around it, so the
    classifier sees the thing undistorted: a rocket squeezed from a tall box into 224x224 was a
    "rocket" at 0.26-0.46, square at 0.74-0.83 (bench/naming.py). With ``lite3`` (the default),
    EfficientNet-Lite3 confirms Lite0 where they agree (:func:`_with_lite3`); without, Lite0 alone.
    """
    import torch

    if not boxes:
        return np.zeros((0, 1000), np.float32)
    xs, crops = [], []
    for b in boxes:
        x1, y1, x2, y2 = crop_box(b, rgb.shape)
        if square:
            x1, y1, x2, y2 = square_box((x1, y1, x2, y2), rgb.shape)
        crop = rgb[y1:max(y2, y1 + 1), x1:max(x2, x1 + 1)]
        x = cv2.resize(crop, (224, 224), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
        xs.append(((x - IMAGENET_MEAN) / IMAGENET_STD).transpose(2, 0, 1))
        if lite3:
            crops.append(cv2.resize(crop, (LITE3_SIDE, LITE3_SIDE), interpolation=cv2.INTER_AREA))
    net, _ = classifier_and_labels()
    with _run_lock, torch.inference_mode():
        # One thread: a few 224x224 crops take ~20 ms a crop on one core, but with two OpenMP
        # threads on a busy machine one forward took 1.4 s (threads spinning for each other).
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            probs = net(torch.from_numpy(np.ascontiguousarray(np.stack(xs)))).softmax(-1)
        finally:
            torch.set_num_threads(threads)
    return _with_lite3(probs.numpy(), crops) if lite3 else probs.numpy()


def _with_lite3(p0: np.ndarray, crops: list[np.ndarray]) -> np.ndarray:
    """Lite0's probabilities, with EfficientNet-Lite3's averaged in for each crop whose first
    everyday word both models agree on (gcompris' owl, a "bird" to the detector, is an "owl" at
    0.54 to Lite0 and 0.73 with Lite3 averaged in; its chameleon a "lizard" at 0.32, then 0.61).
    Where they disagree, Lite0's stand alone, so a species that disputes the detector's label (the
    moose's "antelope" against its "cow") still does. Averaging every crop named more things right
    but kept fewer disputes: the rhinoceros (no ImageNet class) became the detector's "elephant"
    and the moose a "cow" (bench/classifiers.py, bench/animals.py). Without the LiteRT package,
    Lite0 alone."""
    try:
        p3 = lite3_probs(crops)
    except ModelMissingError as exc:
        _warn_lite3(str(exc))
        return p0
    out = p0.copy()
    for i in range(len(p0)):
        if _first_word(p0[i]) == _first_word(p3[i]):
            out[i] = (p0[i] + p3[i]) / 2
    return out


@functools.cache
def _warn_lite3(message: str) -> None:
    log.warning("naming with EfficientNet-Lite0 alone: %s", message)


def _first_word(probs: np.ndarray) -> str:
    return max(word_probs(probs).items(), key=lambda kv: kv[1], default=("", 0.0))[0]


def has_structure(rgb: np.ndarray, box: tuple[int, int, int, int], *, min_std: float = 10.0) -> bool:
    """Whether a box shows more than a flat area: the classifier calls flat noise a "bird" at
    0.62 (bench/naming.py), so a flat crop is never named."""
    x1, y1, x2, y2 = box
    crop = rgb[y1:max(y2, y1 + 1), x1:max(x2, x1 + 1)]
    grey = cv2.cvtColor(cv2.resize(crop, (64, 64), interpolation=cv2.INTER_AREA), cv2.COLOR_RGB2GRAY)
    return float(grey.std()) >= min_std


def word_probs(probs: np.ndarray) -> dict[str, float]:
    """Probabilities summed per everyday word (classes that are not things left out)."""
    _, labels = classifier_and_labels()
    words = everyday_words(labels)
    out: dict[str, float] = {}
    for i in np.argsort(-probs)[:30]:
        w = words[int(i)]
        if w is not None:
            out[w] = out.get(w, 0.0) + float(probs[int(i)])
    return out


def kind_probs(probs: np.ndarray) -> dict[str, float]:
    """ImageNet probabilities summed per kind ("animal", "vehicle"; WordNet hypernyms)."""
    _, labels = classifier_and_labels()
    kinds = class_kinds(labels)
    out: dict[str, float] = {}
    for i in np.argsort(-probs)[:50]:
        k = kinds[int(i)]
        if k is not None:
            out[k] = out.get(k, 0.0) + float(probs[int(i)])
    return out
