"""What makes a regional edit of an object quicker must not change what it does (issue 28): the
masks made ahead on a photo just opened are the ones a request makes, the detector's kept output is
its output for the same input, two threads asking for the same mask make it once, the blend reads
the caller's mask without changing it, and black and white is the exact integer luma. No timings
here: bench/region_speed.py measures them."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from agent.edits import objects, regions
from agent.edits.run import run
from agent.grammar.commands import parse_command
from agent.perception import models
from agent.perception.models import Detection
from editor import adjust, masks


@pytest.fixture(autouse=True)
def _fresh():
    regions.clear_cache()
    yield
    regions.clear_cache()


def _photo(h=100, w=200):
    return np.random.default_rng(7).integers(30, 200, (h, w, 3), dtype=np.uint8)


def _fakes(monkeypatch, dets):
    calls = []
    monkeypatch.setattr(objects, "detect", lambda rgb, min_score=0.3: [d for d in dets if d.score >= min_score])

    def box_mask(pixels, box, keep=()):
        calls.append(tuple(box))
        m = np.zeros(pixels.shape[:2], bool)
        m[box[1] + 2:box[3] - 2, box[0] + 2:box[2] - 2] = True
        return m

    monkeypatch.setattr(objects, "object_mask", box_mask)
    return calls


def test_masks_made_ahead_are_the_ones_a_request_makes_and_are_not_made_again(monkeypatch):
    img = _photo()
    dets = [Detection("dog", 0.9, (120, 20, 180, 80)), Detection("cat", 0.8, (10, 10, 40, 40)),
            Detection("cup", 0.5, (60, 60, 70, 70)), Detection("bird", 0.4, (80, 5, 90, 12))]
    calls = _fakes(monkeypatch, dets)
    fresh = {w: run(parse_command(f"grayscale in the {w}"), img).pixels for w in ("dog", "cat")}
    regions.clear_cache()
    calls.clear()
    assert regions.prepare(img, limit=3) == 3
    assert sorted(calls) == sorted([(120, 20, 180, 80), (10, 10, 40, 40), (60, 60, 70, 70)])  # the 3 largest
    calls.clear()
    for w in ("dog", "cat"):
        assert np.array_equal(run(parse_command(f"grayscale in the {w}"), img.copy()).pixels, fresh[w])
    assert calls == []  # both masks were made ahead


def test_masking_ahead_stops_when_asked(monkeypatch):
    img = _photo()
    calls = _fakes(monkeypatch, [Detection("dog", 0.9, (120, 20, 180, 80)), Detection("cat", 0.8, (10, 10, 40, 40))])
    asked = []
    assert regions.prepare(img, stop=lambda: len(asked) > 1 or asked.append(1)) == 1  # a request started
    assert calls == [(120, 20, 180, 80)]
    assert regions.prepare(img, stop=lambda: True) == 0


def test_two_threads_asking_for_one_mask_make_it_once(monkeypatch):
    img = _photo()
    made = []

    def slow_mask(pixels, box, keep=()):
        made.append(box)
        time.sleep(0.2)
        m = np.zeros(pixels.shape[:2], bool)
        m[box[1]:box[3], box[0]:box[2]] = True
        return m

    monkeypatch.setattr(objects, "detect", lambda rgb, min_score=0.3: [Detection("dog", 0.9, (120, 20, 180, 80))])
    monkeypatch.setattr(objects, "object_mask", slow_mask)
    ahead = threading.Thread(target=regions.prepare, args=(img,))
    ahead.start()
    time.sleep(0.05)  # the request comes while the mask is being made ahead
    out = run(parse_command("adjust_attr brightness 20 in the dog"), img).pixels
    ahead.join()
    assert len(made) == 1
    assert out[50, 150, 0] != img[50, 150, 0] and np.array_equal(out[:, :100], img[:, :100])


class _CountingNet:
    def __init__(self):
        self.forwards = 0
        self.blob = None

    def setInput(self, blob):  # noqa: N802 (cv2.dnn.Net's name)
        self.blob = blob

    def forward(self):
        self.forwards += 1
        out = np.zeros((1, 1, 2, 7), np.float32)
        out[0, 0, 0] = (0, 17, 0.9, 0.1, 0.1, 0.5, 0.5)  # a cat, sure
        out[0, 0, 1] = (0, 18, 0.2, 0.5, 0.5, 0.9, 0.9)  # a dog, weak
        out[0, 0, :, 2] += float(self.blob.mean()) * 1e-6  # the output depends on the input
        return out


def test_the_detector_runs_once_for_the_same_input_and_again_for_another(monkeypatch):
    net = _CountingNet()
    monkeypatch.setattr(models, "_ssd", lambda: net)
    models.clear_forward_cache()
    img = _photo()
    sure = models.detect_objects(img, min_score=0.3)
    weak = models.detect_objects(img.copy(), min_score=0.15)  # the second, weaker look: the same pass
    assert net.forwards == 1
    assert [d.label for d in sure] == ["cat"] and [d.label for d in weak] == ["cat", "dog"]
    other = img.copy()
    other[::2] = 255 - other[::2]
    models.detect_objects(other)
    assert net.forwards == 2
    models.clear_forward_cache()
    models.detect_objects(img)
    assert net.forwards == 3


def test_the_blend_reads_the_callers_mask_and_leaves_it_as_it_was():
    img = _photo()
    m = np.zeros(img.shape[:2], np.float32)
    m[20:60, 30:90] = 0.5
    m[30:50, 40:80] = 1.0
    before = m.copy()
    for pointwise in (False, True):
        out = masks.apply_in_region(img, m, lambda im: adjust.grayscale(im), pointwise=pointwise)
        assert np.array_equal(m, before)
        assert np.array_equal(out[m == 0], img[m == 0])
        assert np.array_equal(out[m == 1], adjust.grayscale(img)[m == 1])
    view = np.zeros((img.shape[0], img.shape[1] * 2), np.float32)[:, ::2]  # a strided view is read too
    assert np.array_equal(masks.apply_in_region(img, view, lambda im: im + 1), img)
    with pytest.raises(ValueError):
        bad = m.copy()
        bad[0, 0] = np.nan
        masks.apply_in_region(img, bad, lambda im: im)


@pytest.mark.parametrize("dtype,channels", [(np.uint8, 3), (np.uint8, 4), (np.uint16, 3), (np.uint16, 4)])
def test_black_and_white_is_the_exact_integer_luma(dtype, channels):
    hi = np.iinfo(dtype).max
    img = np.random.default_rng(3).integers(0, hi + 1, (17, 23, channels)).astype(dtype)
    img[0, 0, :3] = (hi, hi, hi)
    out = adjust.grayscale(img)
    wide = img.astype(np.int64)
    y = (wide[..., 0] * 299 + wide[..., 1] * 587 + wide[..., 2] * 114 + 500) // 1000
    assert out.dtype == dtype and out.shape == img.shape
    for c in range(3):
        assert np.array_equal(out[..., c], y)
    if channels == 4:
        assert np.array_equal(out[..., 3], img[..., 3])
    assert np.array_equal(adjust.grayscale(img[:, ::2]), adjust.grayscale(img)[:, ::2])  # a view
