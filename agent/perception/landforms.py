"""What a whole photo with no object in it shows when the classifier names no thing: a landscape of
mountains or of bare rock (ImageNet's landform classes), for :func:`agent.describe.words.describe_regions`."""

from __future__ import annotations

import numpy as np

from agent.perception.classify import classify_crops, has_structure
from agent.perception.models import classifier_and_labels, to_rgb8

# ImageNet's landforms, which name no thing (a whole scene): mountains, or bare rock
_MOUNTAINS, _ROCKS = ("alp", "valley", "volcano"), ("cliff", "promontory")
LANDFORM_SURE = 0.6  # their summed probability on the whole photo


def scene_landform(pixels: np.ndarray) -> str | None:
    """"mountains" or "rocks" when the classifier, shown the whole photo, is sure it is a landscape of
    them (:data:`LANDFORM_SURE`, the classes summed: Machu Picchu is alp 0.38, valley 0.28 and cliff
    0.16, Mount Rushmore cliff 0.69 and alp 0.16); else None."""
    rgb = to_rgb8(pixels)
    h, w = rgb.shape[:2]
    if not has_structure(rgb, (0, 0, w, h)):
        return None
    probs = classify_crops(rgb, [(0, 0, w, h)], square=True)[0]
    _, labels = classifier_and_labels()
    share = {}
    for i, label in enumerate(labels):
        head = label.split(",")[0]
        if head in _MOUNTAINS + _ROCKS:
            share[head] = float(probs[i])
    mountains, rocks = sum(share[k] for k in _MOUNTAINS), sum(share[k] for k in _ROCKS)
    if mountains + rocks < LANDFORM_SURE:
        return None
    return "mountains" if mountains >= rocks else "rocks"
