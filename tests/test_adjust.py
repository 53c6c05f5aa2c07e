"""The colour/detail adjustments (editor.adjust) against their formulas, computed independently."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import ndimage

from editor import adjust

ALL = [
    ("adjust_saturation", "amount", -100, 100),
    ("adjust_sharpness", "amount", -100, 100),
    ("adjust_warmth", "amount", -100, 100),
    ("adjust_hue", "degrees", -180, 180),
]


def _images():
    rng = np.random.default_rng(3)
    rgb = rng.integers(0, 256, (23, 31, 3), dtype=np.uint8)
    rgba = np.concatenate([rgb, rng.integers(0, 256, (23, 31, 1), dtype=np.uint8)], axis=2)
    grey = rgb[:, :, 0].copy()
    rgb16 = rng.integers(0, 65536, (17, 19, 3), dtype=np.uint16)
    return {"rgb": rgb, "rgba": rgba, "grey": grey, "rgb16": rgb16}


def half_up(x, top):
    """Round half up and clip, element by element in Python floats."""
    return np.vectorize(lambda v: max(0, min(top, math.floor(v + 0.5 + 1e-9))))(x)


@pytest.mark.parametrize("name, param, lo, hi", ALL)
@pytest.mark.parametrize("kind", ["rgb", "rgba", "grey", "rgb16"])
def test_contract_identity_dtype_input_alpha(name, param, lo, hi, kind):
    img = _images()[kind]
    before = img.copy()
    fn = getattr(adjust, name)
    assert np.array_equal(fn(img, **{param: 0}), img)
    for value in (lo, hi / 3, hi):
        out = fn(img, **{param: value})
        assert out.dtype == img.dtype and out.shape[:2] == img.shape[:2]
        if kind == "rgba":
            assert np.array_equal(out[:, :, 3], img[:, :, 3])
    assert np.array_equal(img, before)
    for bad in (lo - 1, hi + 0.5, float("nan"), "lots", None):
        with pytest.raises(ValueError):
            fn(img, **{param: bad})


def test_saturation_formula():
    img = _images()["rgb"]
    for amount in (-60, -100, 35, 100):
        out = adjust.adjust_saturation(img, amount=amount)
        x = img.astype(np.float64)
        y = (0.299 * x[..., 0] + 0.587 * x[..., 1] + 0.114 * x[..., 2])[..., None]
        want = half_up(y + (x - y) * (1 + amount / 100), 255)
        assert np.array_equal(out, want), amount


def test_saturation_minus_100_is_grayscale_and_grey():
    img = _images()["rgba"]
    out = adjust.adjust_saturation(img, amount=-100)
    assert np.array_equal(out, adjust.grayscale(img))
    assert (out[..., 0] == out[..., 1]).all() and (out[..., 1] == out[..., 2]).all()


def test_grayscale_is_rec601_luma_exactly():
    img = _images()["rgb"]
    out = adjust.grayscale(img)
    from fractions import Fraction

    for y in range(0, img.shape[0], 5):
        for x in range(img.shape[1]):
            r, g, b = (int(v) for v in img[y, x])
            exact = Fraction(299 * r + 587 * g + 114 * b, 1000)
            assert out[y, x].tolist() == [int(exact + Fraction(1, 2))] * 3
    assert np.array_equal(adjust.grayscale(img[:, :, 0]), img[:, :, 0])
    assert adjust.grayscale(_images()["rgb16"]).dtype == np.uint16


def test_warmth_formula_and_direction():
    img = _images()["rgb"]
    out = adjust.adjust_warmth(img, amount=40)
    x = img.astype(np.float64)
    want = half_up(x * np.array([1.08, 1.016, 0.92]), 255)
    assert np.array_equal(out, want)
    grey = np.full((4, 4, 3), 128, np.uint8)
    warm, cool = adjust.adjust_warmth(grey, amount=50), adjust.adjust_warmth(grey, amount=-50)
    assert warm[0, 0, 0] > 128 > warm[0, 0, 2] and cool[0, 0, 2] > 128 > cool[0, 0, 0]
    assert adjust.adjust_warmth(grey[:, :, 0], amount=20).shape == (4, 4, 3)  # grey becomes RGB


def test_hue_rotation():
    img = _images()["rgb"]
    d = 37.0
    out = adjust.adjust_hue(img, degrees=d)
    # Independent reference: Rodrigues' rotation about the unit grey axis, vector by vector.
    k = np.ones(3) / math.sqrt(3)
    t = math.radians(d)
    x = img.reshape(-1, 3).astype(np.float64)
    rot = (x * math.cos(t) + np.cross(k, x) * math.sin(t)
           + np.outer(x @ k, k) * (1 - math.cos(t)))
    assert np.array_equal(out.reshape(-1, 3), half_up(rot, 255))
    red = np.array([[[255, 0, 0]]], np.uint8)
    assert adjust.adjust_hue(red, degrees=120).tolist() == [[[0, 255, 0]]]
    assert adjust.adjust_hue(red, degrees=-120).tolist() == [[[0, 0, 255]]]
    assert adjust.adjust_hue(red, degrees=180).tolist() == [[[0, 170, 170]]]  # cyan, sum kept
    greys = np.full((3, 3, 3), 77, np.uint8)
    assert np.array_equal(adjust.adjust_hue(greys, degrees=90), greys)


def _gauss(x, sigma):
    r = max(1, math.ceil(3 * sigma))
    taps = np.exp(-0.5 * (np.arange(-r, r + 1) / sigma) ** 2)
    taps /= taps.sum()
    out = ndimage.correlate1d(x, taps, axis=0, mode="mirror")
    return ndimage.correlate1d(out, taps, axis=1, mode="mirror")


def test_sharpness_formulas():
    img = _images()["rgba"]
    col = img[:, :, :3].astype(np.float64)
    blurred = np.stack([_gauss(col[:, :, c], 1.0) for c in range(3)], axis=-1)
    out = adjust.adjust_sharpness(img, amount=60)
    want = half_up(col + 0.9 * (col - blurred), 255)
    # float32 filtering against a float64 reference: equal but for rare ties
    diff = np.abs(out[:, :, :3].astype(int) - want)
    assert diff.max() <= 1 and (diff == 0).mean() > 0.99
    out = adjust.adjust_sharpness(img, amount=-50)
    want = half_up(np.stack([_gauss(col[:, :, c], 2.0) for c in range(3)], axis=-1), 255)
    diff = np.abs(out[:, :, :3].astype(int) - want)
    assert diff.max() <= 1 and (diff == 0).mean() > 0.99
    assert np.array_equal(out[:, :, 3], img[:, :, 3])


def test_sharpness_scales_with_resolution():
    assert adjust.detail_scale((3000, 4000)) == 4.0 and adjust.detail_scale((300, 400)) == 1.0
    edge = np.zeros((60, 60), np.uint8)
    edge[:, 30:] = 200
    sharp = adjust.adjust_sharpness(edge, amount=100)
    assert sharp[0, 29] == 0 and sharp[0, 30] == 255  # overshoot on both sides of the edge


def test_auto_enhance_stretches_balances_and_keeps_alpha():
    from skimage import data

    base = data.astronaut()[::4, ::4].astype(np.float64)  # white highlights: a suit, a shuttle
    # a dull, dark, blue-cast copy
    dull = np.clip(base * np.array([0.35, 0.4, 0.5]) + 30, 0, 255).astype(np.uint8)
    h, w = dull.shape[:2]
    rgba = np.concatenate([dull, np.full((h, w, 1), 200, np.uint8)], axis=2)
    before = rgba.copy()
    out = adjust.auto_enhance(rgba)
    assert np.array_equal(rgba, before)
    assert out.dtype == np.uint8 and np.array_equal(out[:, :, 3], rgba[:, :, 3])
    span_in = np.percentile(dull.mean(2), 99) - np.percentile(dull.mean(2), 1)
    span_out = np.percentile(out[:, :, :3].mean(2), 99) - np.percentile(out[:, :, :3].mean(2), 1)
    assert span_out > 1.5 * span_in
    # the cast, measured as the original's colour balance would have it
    def cast(img):
        return img[..., 2].mean() / img[..., 0].mean() - base[..., 2].mean() / base[..., 0].mean()
    assert abs(cast(out[:, :, :3].astype(float))) < abs(cast(dull.astype(float))) / 2
    assert out[:, :, :3].mean() > dull.mean()  # dark: brighter mid-tones
    # each channel is a monotone curve of its input
    for c in range(3):
        order = np.argsort(rgba[..., c], axis=None)
        assert (np.diff(out[..., c].ravel()[order].astype(int)) >= 0).all()
    assert adjust.auto_enhance(_images()["rgb16"]).dtype == np.uint16
    flat = np.full((8, 8), 120, np.uint8)
    assert np.ptp(adjust.auto_enhance(flat)) == 0  # a flat image stays flat


def test_auto_enhance_does_not_tint_a_colourful_scene():
    scene = np.zeros((60, 80, 3), np.uint8)
    scene[:30] = (90, 150, 230)  # sky
    scene[30:] = (40, 140, 40)  # grass
    scene[8:14, 10:30] = 250  # a white cloud
    out = adjust.auto_enhance(scene).astype(int)
    assert out[0, 0, 2] > out[0, 0, 1] > out[0, 0, 0]  # the sky is still blue
    assert out[50, 0, 1] > out[50, 0, 0] + 50 and out[50, 0, 1] > out[50, 0, 2] + 50  # grass green
    assert np.ptp(out[10, 20]) <= 3  # the cloud still white
