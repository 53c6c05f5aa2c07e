"""The two ImageNet classifiers together: Lite3 confirms Lite0 where both name a crop alike."""

from __future__ import annotations

import cv2
import numpy as np
from skimage import data

from agent.perception import classify
from agent.perception.classify import classify_crops, square_box, word_probs
from agent.perception.models import LITE3_SIDE, lite3_probs
from agent.perception.region_evidence import crop_box
from editor.models import ModelMissingError


def _first(probs: np.ndarray) -> tuple[str, float]:
    return max(word_probs(probs).items(), key=lambda kv: kv[1])


def _lite3_alone(rgb: np.ndarray, box) -> np.ndarray:
    x1, y1, x2, y2 = square_box(crop_box(box, rgb.shape), rgb.shape)
    return lite3_probs([cv2.resize(rgb[y1:y2, x1:x2], (LITE3_SIDE, LITE3_SIDE), interpolation=cv2.INTER_AREA)])[0]


def test_where_both_models_name_the_crop_alike_their_probabilities_are_averaged():
    cat = data.chelsea()
    box = (0, 0, cat.shape[1], cat.shape[0])
    lite0 = classify_crops(cat, [box], square=True, lite3=False)[0]
    lite3 = _lite3_alone(cat, box)
    both = classify_crops(cat, [box], square=True)[0]
    assert _first(lite0)[0] == _first(lite3)[0] == "cat"
    np.testing.assert_allclose(both, (lite0 + lite3) / 2, atol=1e-6)
    assert not np.allclose(both, lite0)


def test_where_they_disagree_lite0_stands_alone():
    rng = np.random.default_rng(3)
    found = 0
    for seed in range(12):
        noise = cv2.GaussianBlur(rng.integers(0, 256, (96, 96, 3), dtype=np.uint8), (0, 0), 1 + seed % 4)
        box = (0, 0, 96, 96)
        lite0 = classify_crops(noise, [box], square=True, lite3=False)[0]
        both = classify_crops(noise, [box], square=True)[0]
        if _first(lite0)[0] != _first(_lite3_alone(noise, box))[0]:
            np.testing.assert_array_equal(both, lite0)
            found += 1
    assert found, "no crop of noise on which the two models disagree"


def test_without_the_litert_package_lite0_names_alone(monkeypatch):
    def missing(crops):
        raise ModelMissingError("the package ai-edge-litert is not installed; run `make setup`")

    monkeypatch.setattr(classify, "lite3_probs", missing)
    cat = data.chelsea()
    box = (0, 0, cat.shape[1], cat.shape[0])
    np.testing.assert_array_equal(classify_crops(cat, [box], square=True),
                                  classify_crops(cat, [box], square=True, lite3=False))
