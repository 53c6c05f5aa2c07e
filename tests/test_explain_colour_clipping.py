"""The explainer on coloured photos whose channels clip or span narrow ranges, and on flat photos:
changes that were told as a tint, or not seen at all (issue 19)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from agent.explain import explain_images
from agent.explain.tone import fit_tone
from editor import adjust, ops, regions


@pytest.fixture(scope="module")
def retina() -> np.ndarray:
    """scikit-image's retina at the bench's size: red, its channels each in a narrow range."""
    from skimage import data

    img = data.retina()
    return cv2.resize(img, (480, 480), interpolation=cv2.INTER_AREA)


@pytest.fixture(scope="module")
def coffee() -> np.ndarray:
    from skimage import data

    return data.coffee()


def explain(before, after):
    return explain_images(before, after, name_objects=False)


def test_more_contrast_then_darker_on_a_red_photo_is_no_tint(retina):
    """More contrast clips the retina's red at 255 and its blue at 0, at different pixels; the fit
    kept only pixels with no channel clipped and read "colours shifted toward orange"."""
    after = ops.adjust_brightness(ops.adjust_contrast(retina, amount=30), amount=-15)
    exp = explain(retina, after)
    assert "color_tint" not in exp.kinds(), exp.text
    f = {fd.kind: fd for fd in exp.findings}
    assert set(f) == {"contrast", "brightness"}, exp.text
    assert abs(f["contrast"].params["amount"] - 30) <= 5
    assert abs(f["brightness"].params["amount"] + 15) <= 5


def test_a_pile_clipped_by_an_earlier_step_is_left_out_of_the_fit(coffee):
    """Contrast clips the highlights at 255, then darker moves that pile down to about 104, inside
    the range: those pixels are not on the line and pulled the slope (contrast +36 for +53, and a
    green tint)."""
    after = ops.adjust_brightness(ops.adjust_contrast(coffee, amount=53), amount=-59)
    a, b, _ = fit_tone(coffee.astype(np.float32), after.astype(np.float32), np.ones(coffee.shape[:2], bool))
    assert abs(a - 1.53) < 0.03
    assert float(np.ptp(b)) < 3
    exp = explain(coffee, after)
    assert set(exp.kinds()) == {"contrast", "brightness"}, exp.text


def test_warmth_on_a_red_photo_is_warmth_not_an_orange_tint(retina):
    """Warmth scales the channels, a tint offsets them; on the retina the offsets fitted within the
    colour model's margin and the change was told as "colours shifted toward orange"."""
    exp = explain(retina, adjust.adjust_warmth(retina, amount=42))
    assert exp.kinds() == ["warmth"], exp.text
    assert abs(exp.findings[0].params["amount"] - 42) <= 8
    assert "made warmer" in exp.text


def test_a_tint_is_still_a_tint(retina, coffee):
    """The warmth check must not take a real tint (offsets) for warmth."""
    for img in (retina, coffee):
        exp = explain(img, ops.adjust_color(img, color="orange", intensity=0.2))
        assert "warmth" not in exp.kinds(), exp.text
        assert "color_tint" in exp.kinds(), exp.text


def test_a_blurred_background_on_a_flat_photo_is_seen():
    """Behind the clock the wall is flat: the blur changes it by a level or so, and the pair was
    told as identical (a false statement)."""
    from skimage import data

    from training.speaker_data import fit_pair

    clock = fit_pair(data.clock())
    h, w = clock.shape[:2]
    mask = np.zeros((h, w), np.float32)
    cv2.ellipse(mask, (w // 2, h // 2), (w // 5, h // 4), 0, 0, 360, 1.0, -1)
    after = regions.replace_background(clock, mask=mask, mode="blur")
    exp = explain(clock, after)
    assert exp.kinds() == ["background_blurred"], exp.text


def test_recompression_is_no_blurred_background(coffee):
    """The flat-photo blur check must not take a small change of every pixel for a blur."""
    ok, enc = cv2.imencode(".jpg", coffee[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 92])
    after = cv2.imdecode(enc, cv2.IMREAD_COLOR)[..., ::-1].copy()
    exp = explain(coffee, after)
    assert "background_blurred" not in exp.kinds(), exp.text


@pytest.fixture(scope="module")
def camera() -> np.ndarray:
    from skimage import data

    from training.speaker_data import fit_pair, rgb8_of

    return rgb8_of(fit_pair(data.camera()))


def test_a_move_whose_old_place_is_partly_filled_like_the_background_is_a_move(camera):
    """cv2.inpaint's smooth fill matched the grass on one side of the cameraman's old place: only
    part of it changed, and the move was told as an addition and a removal."""
    src, dst = [313, 335, 438, 433], [379, 181, 504, 279]
    m = np.zeros(camera.shape[:2], np.uint8)
    m[src[1]:src[3], src[0]:src[2]] = 255
    after = cv2.inpaint(camera.copy(), m, 5, cv2.INPAINT_TELEA)
    after[dst[1]:dst[3], dst[0]:dst[2]] = camera[src[1]:src[3], src[0]:src[2]]
    exp = explain(camera, after)
    assert exp.kinds() == ["object_moved"], exp.text


def test_a_coloured_patch_over_a_grey_page_is_an_addition():
    """A flat coloured patch over text has less detail than the text: read as a removal, though no
    fill of a grey page makes colour."""
    from skimage import data

    from training.speaker_data import fit_pair, rgb8_of

    page = rgb8_of(fit_pair(data.page()))
    after = page.copy()
    after[38:91, 249:362] = (205, 150, 90)
    after[38:91, 249:362] += np.random.default_rng(0).integers(0, 12, (53, 113, 3), dtype=np.uint8)
    exp = explain(page, after)
    assert exp.kinds() == ["object_added"], exp.text
