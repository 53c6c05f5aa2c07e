"""Global edits never report a local change (issue 30, item 4; ``bench/explain_global.py``).

A global edit gives every pixel of one colour the same new colour. What the engine's parametric
models of such edits miss must not become "an object was added at the top":
:mod:`agent.explain.colour_lut` learns the leftover error from the before colour outside the
changed regions, and a region that follows it is not a change of its own. A real local change (a
patch pasted in, a hole filled) breaks that rule and is kept."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from agent.explain import LOCAL_KINDS, explain_images
from agent.explain.colour_lut import ColourTable, global_only
from editor import adjust, ops


@pytest.fixture(scope="module")
def photo() -> np.ndarray:
    from skimage import data

    return cv2.resize(data.astronaut(), (320, 320), interpolation=cv2.INTER_AREA)


def _box_mask(shape, box) -> np.ndarray:
    m = np.zeros(shape[:2], bool)
    x1, y1, x2, y2 = box
    m[y1:y2, x1:x2] = True
    return m


def test_a_curve_the_model_missed_is_the_rest_of_the_pictures_map(photo):
    # The parametric model said nothing changed (pred = before); auto enhance and warmth did.
    after = adjust.adjust_warmth(adjust.auto_enhance(photo), amount=60)
    region = _box_mask(photo.shape, (150, 40, 230, 120))
    table = ColourTable(photo, after, photo, ~region)
    assert global_only(table, region)


def test_colours_only_the_region_has_follow_each_channels_own_map(photo):
    # A pale sky brighter than anything else but a grey ramp: its colours (3-D bins) are unknown
    # outside, each channel's levels are not. Levels clipped at the top and a gamma, per channel,
    # with no cubic to fall back on (valid=None fits one; here each channel's map must carry it).
    before = (photo.astype(np.float32) * 0.6).astype(np.uint8)
    before[300:] = np.linspace(0, 255, 320).astype(np.uint8)[None, :, None]
    region = _box_mask(photo.shape, (150, 20, 260, 100))
    sky = np.array([150, 185, 235], np.float32) + np.linspace(-25, 15, 80)[:, None, None] + np.zeros((1, 110, 1))
    before[region] = np.clip(sky + np.random.default_rng(0).normal(0, 3, sky.shape), 0, 255).astype(np.uint8).reshape(-1, 3)
    x = before.astype(np.float32) / 255
    after = np.stack([255 * np.clip((x[..., c] * g - 0.06) / 0.66, 0, 1) ** 0.6 for c, g in enumerate((1, 0.92, 1.1))], -1)
    after = np.floor(after + 0.5).astype(np.uint8)
    no_cubic = np.zeros(photo.shape[:2], bool)
    table = ColourTable(before, after, before, ~region, no_cubic)
    assert table.poly is None and global_only(table, region)
    pasted = after.copy()
    pasted[region] = np.roll(after, 60, axis=1)[region][::-1]  # another part of the picture, pasted
    assert not global_only(ColourTable(before, pasted, before, ~region, no_cubic), region)


def test_a_pasted_patch_and_a_filled_hole_are_not(photo):
    after = adjust.adjust_warmth(photo, amount=60)
    pasted = (40, 200, 110, 270)
    patch = photo[10:80, 200:270]  # another part of the same photo, pasted elsewhere
    after[pasted[1]:pasted[3], pasted[0]:pasted[2]] = adjust.adjust_warmth(patch, amount=60)
    hole = (200, 200, 260, 260)
    m = _box_mask(photo.shape, hole).astype(np.uint8) * 255
    after = cv2.inpaint(after, m, 5, cv2.INPAINT_TELEA)
    changed = _box_mask(photo.shape, pasted) | _box_mask(photo.shape, hole)
    table = ColourTable(photo, after, photo, ~changed)
    assert not global_only(table, _box_mask(photo.shape, pasted))
    assert not global_only(table, _box_mask(photo.shape, hole))


@pytest.mark.parametrize("edit", [
    lambda im: adjust.auto_enhance(im),
    lambda im: adjust.adjust_warmth(im, amount=70),
    lambda im: adjust.adjust_saturation(adjust.adjust_warmth(im, amount=50), amount=60),
    lambda im: adjust.adjust_hue(im, degrees=100),
    lambda im: ops.adjust_contrast(ops.adjust_brightness(im, amount=30), amount=40),
])
def test_global_edits_of_a_real_photo_report_no_local_change(edit):
    from skimage import data

    for before in (data.coffee(),):
        exp = explain_images(before, edit(before), name_objects=False)
        assert not [f.sentence for f in exp.findings if f.kind in LOCAL_KINDS]


@pytest.mark.parametrize("degrees", [3.0, 5.0, 355.0])
def test_a_small_rotation_reports_no_local_change(degrees):
    # The angle is estimated to a fraction of a degree: far from the centre the rim of the retina's
    # disc sat a pixel off and read as "a region at the bottom changed colour from black to brown".
    from skimage import data

    before = data.retina()
    exp = explain_images(before, ops.rotate(before, degrees=degrees), name_objects=False)
    assert "rotate" in [f.kind for f in exp.findings]
    assert not [f.sentence for f in exp.findings if f.kind in LOCAL_KINDS]
