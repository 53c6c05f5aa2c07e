"""The explainer on Easel's operations beyond CAISE's: what it must not say (false statements)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from agent.explain import explain_images
from agent.explain.align import same_frame
from agent.explain.colour import family_finding
from agent.explain.tone import fit_tone
from agent.grammar.commands import ATTR_RANGES
from editor import ops
from editor.regions import BACKGROUND_COLORS


@pytest.fixture(scope="module")
def coffee() -> np.ndarray:
    from skimage import data

    return data.coffee()


def explain(before, after):
    return explain_images(before, after, name_objects=False)


def test_a_soft_matte_toward_the_new_background_is_no_tint(coffee):
    """u2netp's matte is soft inside the subject: the kept pixels blend a little toward the new
    colour by varying amounts. That was told as "it was tinted green" besides the new background."""
    h, w = coffee.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    inside = ((xx - w / 2) / (0.3 * w)) ** 2 + ((yy - h / 2) / (0.35 * h)) ** 2
    m = np.clip(1.6 - inside, 0, 1)  # 1 in the middle, soft toward the rim
    rng = np.random.default_rng(0)
    m = np.where(m > 0, np.clip(m - rng.uniform(0, 0.35, m.shape) * (m > 0.5), 0, 1), 0)
    m = cv2.GaussianBlur(m.astype(np.float32), (0, 0), 6)
    m[inside > 1.6] = 0
    c = np.array(BACKGROUND_COLORS["green"], np.float32)
    after = np.round(m[..., None] * coffee + (1 - m[..., None]) * c).astype(np.uint8)
    exp = explain(coffee, after)
    assert "background_replaced" in exp.kinds()
    assert exp.findings[[f.kind for f in exp.findings].index("background_replaced")].params["color"] == "green"
    assert "color_tint" not in exp.kinds(), exp.text


def test_a_large_filled_hole_keeps_the_frame(coffee):
    """A large change in the middle (the cup filled in) lowers the whole-frame correlation, and the
    features then pinned the frame one pixel off, which read as a brown tint of the whole photo."""
    mask = np.zeros(coffee.shape[:2], np.uint8)
    mask[13:240, 173:412] = 255
    after = cv2.inpaint(coffee, mask, 5, cv2.INPAINT_TELEA)
    exp = explain(coffee, after)
    assert exp.matrix == [[1, 0, 0], [0, 1, 0]]
    assert set(exp.kinds()) <= {"object_removed", "region_changed"}, exp.text
    assert "object_removed" in exp.kinds()


def test_same_frame_only_for_small_shifts_the_frame_fits_better():
    rng = np.random.default_rng(1)
    g = cv2.GaussianBlur(rng.uniform(0, 255, (120, 160)).astype(np.float32), (0, 0), 2)
    eye = np.eye(3)
    shift = np.array([[1, 0, 1.0], [0, 1, -1.0], [0, 0, 1]])
    assert same_frame(shift, (eye, 0.7), g, g, eye, eye)
    moved = np.roll(g, (1, -1), axis=(0, 1))  # really shifted: the shift fits better
    assert not same_frame(np.array([[1, 0, -1.0], [0, 1, 1.0], [0, 0, 1]]), (eye, 0.7), g, moved, eye, eye)
    assert not same_frame(np.array([[1, 0, 9.0], [0, 1, 0], [0, 0, 1]]), (eye, 0.7), g, g, eye, eye)
    assert not same_frame(shift, None, g, g, eye, eye)


def test_no_amount_outside_easels_range_is_said(coffee):
    """Warmth gains beyond what ``adjust_attr warmth 100`` makes: not "warmth +150"."""
    t = 1.5
    gains = np.array([1 + 0.2 * t, 1 + 0.04 * t, 1 - 0.2 * t], np.float32)
    after = np.clip(np.round(coffee.astype(np.float32) * gains), 0, 255).astype(np.uint8)
    exp = explain(coffee, after)
    assert exp.findings and exp.findings[0].kind != "identical"
    for f in exp.findings:
        for key in ("amount", "degrees"):
            v = f.params.get(key)
            if v is not None and f.kind in ATTR_RANGES:
                assert abs(v) <= ATTR_RANGES[f.kind], exp.text
    assert family_finding("warmth", {"t": -1.05}) is None
    assert family_finding("warmth", {"t": 0.5})[1] == {"amount": 50.0}
    assert family_finding("saturation", {"k": 2.4}) is None


def test_a_fit_pulled_by_a_local_change_gives_way_to_no_change():
    """Most pixels unchanged and a tenth of them changed a lot: no change of the whole picture."""
    rng = np.random.default_rng(2)
    src = rng.uniform(20, 230, (100, 100, 3)).astype(np.float32)
    dst = src.copy()
    dst[:40] = np.clip(dst[:40] * 0.5 + np.array([120, 40, 10], np.float32), 0, 255)
    a, b, _ = fit_tone(src, dst, np.ones((100, 100), bool))
    assert a == 1.0 and not np.any(b)


@pytest.fixture(scope="module")
def starfield() -> np.ndarray:
    """A mostly dark grey picture with coloured spots spread all over it (as the Hubble photo)."""
    rng = np.random.default_rng(3)
    img = cv2.GaussianBlur(rng.uniform(10, 70, (300, 400)).astype(np.float32), (0, 0), 3)
    img = np.repeat(img[..., None], 3, axis=2)
    for _ in range(60):
        x, y, r = int(rng.uniform(10, 390)), int(rng.uniform(10, 290)), int(rng.uniform(4, 12))
        colour = [float(v) for v in rng.uniform(40, 240, 3)]
        cv2.circle(img, (x, y), r, colour, -1)
    return np.clip(cv2.GaussianBlur(img, (0, 0), 1.2), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("op", ["hue", "grayscale"])
def test_a_colour_change_of_a_mostly_grey_picture_is_one_change(starfield, op):
    """The grey majority hid the colour map: the coloured spots were told as recoloured regions
    and a contrast change that was not made."""
    from editor import adjust

    after = adjust.adjust_hue(starfield, degrees=-80) if op == "hue" else adjust.grayscale(starfield)
    exp = explain(starfield, after)
    assert exp.kinds() == [op], exp.text


@pytest.mark.parametrize("name", ["coffee", "astronaut"])
def test_a_blurred_background_is_not_less_contrast_and_removed_objects(name):
    """The blurred part has less contrast, which pulled the tone fit into "less contrast" of the
    whole; the blur test then failed and the blurred parts were told as removed objects."""
    from skimage import data

    from editor.regions import replace_background

    img = getattr(data, name)()
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    inside = ((xx - w / 2) / (0.35 * w)) ** 2 + ((yy - h / 2) / (0.4 * h)) ** 2
    m = np.clip((1 - inside) / 0.3, 0, 1).astype(np.float32)
    exp = explain(img, replace_background(img, mask=m, mode="blur"))
    assert exp.kinds() == ["background_blurred"], exp.text


def test_a_sharpening_with_a_darkening_that_clips_single_channels(coffee):
    """Darker by 24 points clips the blue of the brown cup and table while their grey stays inside
    the range: the sharpening was missed (only "darker" was said)."""
    from editor import adjust

    after = ops.adjust_brightness(adjust.adjust_sharpness(coffee, amount=32), amount=-23.5)
    exp = explain(coffee, after)
    assert sorted(exp.kinds()) == ["brightness", "sharpness"], exp.text
    sharp = exp.findings[exp.kinds().index("sharpness")].params["amount"]
    assert abs(sharp - 32) <= 8


def test_a_part_of_the_subject_half_blended_into_the_blurred_background(coffee):
    """u2netp's matte may be half-sure inside the subject: there the after picture is a blend of
    the photo and its blurred background, not "something changed" of its own."""
    from editor.regions import replace_background

    h, w = coffee.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    inside = ((xx - w / 2) / (0.35 * w)) ** 2 + ((yy - h / 2) / (0.4 * h)) ** 2
    m = np.clip((1 - inside) / 0.3, 0, 1).astype(np.float32)
    m[h // 2:h // 2 + 40, w // 2 - 60:w // 2 + 20] = 0.5
    exp = explain(coffee, replace_background(coffee, mask=m, mode="blur"))
    assert exp.kinds() == ["background_blurred"], exp.text
