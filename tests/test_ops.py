from __future__ import annotations

import numpy as np
import pytest

from editor import ops
from editor.colors import COLORS


def ref_round(x):
    """Round half up and clip, computed per pixel in plain Python (independent of the LUTs)."""
    import math

    return [[max(0, min(255, math.floor(v + 0.5))) for v in row] for row in x]


def test_brightness_formula_pixel_by_pixel():
    img = np.array([[0, 10, 128, 250, 255]], np.uint8)
    out = ops.adjust_brightness(img, amount=10)
    assert out.tolist() == ref_round([[v + 25.5 for v in img[0]]])
    out = ops.adjust_brightness(img, amount=-50)
    assert out.tolist() == ref_round([[v - 127.5 for v in img[0]]])


def test_contrast_every_value_exact():
    from fractions import Fraction

    ramp = np.arange(256, dtype=np.uint8)[None]
    for amount in (-70, -25, 10, 30, 45, 100):
        out = ops.adjust_contrast(ramp, amount=amount)
        g = 1 + Fraction(amount, 100)
        for v in range(256):
            exact = (v - Fraction(255, 2)) * g + Fraction(255, 2)
            assert out[0, v] == min(255, max(0, int(exact + Fraction(1, 2)) if exact > -1 else 0)), (amount, v)


def test_contrast_formula_pixel_by_pixel():
    img = np.array([[0, 60, 127, 128, 200, 255]], np.uint8)
    out = ops.adjust_contrast(img, amount=40)
    assert out.tolist() == ref_round([[(v - 127.5) * 1.4 + 127.5 for v in img[0]]])
    assert np.all(ops.adjust_contrast(img, amount=-100) == 128)


@pytest.mark.parametrize("color", sorted(COLORS))
@pytest.mark.parametrize("intensity", ["0.3", "0.25", "0.5", "0.14"])
def test_color_formula_every_value_exact(color, intensity):
    from fractions import Fraction

    i = Fraction(intensity)
    ramp = np.arange(256, dtype=np.uint8)
    img = np.stack([ramp, ramp[::-1], ramp], axis=-1)[None]  # every value in every channel
    out = ops.adjust_color(img, color=color, intensity=float(intensity))
    target = COLORS[color]
    for x in range(256):
        for c in range(3):
            exact = (1 - i) * int(img[0, x, c]) + i * target[c]
            assert out[0, x, c] == int(exact + Fraction(1, 2)), (x, c)  # half up


def test_full_intensity_is_the_colour(rgb_small):
    full = ops.adjust_color(rgb_small, color="red", intensity=1.0)
    assert np.all(full == np.array(COLORS["red"], np.uint8))


@pytest.mark.parametrize(
    "op, kwargs",
    [
        (ops.adjust_brightness, {"amount": 0}),
        (ops.adjust_contrast, {"amount": 0}),
        (ops.adjust_color, {"color": "green", "intensity": 0}),
        (ops.rotate, {"degrees": 0}),
        (ops.rotate, {"degrees": 360}),
    ],
)
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
@pytest.mark.parametrize("channels", [3, 4])
def test_identity_parameters_give_identical_pixels(op, kwargs, dtype, channels):
    rng = np.random.default_rng(1)
    img = rng.integers(0, np.iinfo(dtype).max + 1, (5, 6, channels), dtype=dtype)
    before = img.copy()
    out = op(img, **kwargs)
    assert out is not img
    assert out.dtype == dtype and out.shape == img.shape
    assert np.array_equal(out, img)
    assert np.array_equal(img, before)


ALL_OPS = [
    (ops.adjust_brightness, {"amount": 30}),
    (ops.adjust_contrast, {"amount": -25}),
    (ops.adjust_color, {"color": "purple", "intensity": 0.4}),
    (ops.rotate, {"degrees": 90}),
    (ops.rotate, {"degrees": 33}),
    (ops.flip, {"axis": "horizontal"}),
    (ops.crop, {"box": (1, 1, 4, 3)}),
]


@pytest.mark.parametrize("op, kwargs", ALL_OPS)
@pytest.mark.parametrize("dtype", [np.uint8, np.uint16])
def test_input_untouched_dtype_and_alpha_kept(op, kwargs, dtype):
    rng = np.random.default_rng(2)
    img = rng.integers(0, np.iinfo(dtype).max + 1, (6, 8, 4), dtype=dtype)
    img.setflags(write=False)  # any attempt to write in place raises
    out = op(img, **kwargs)
    assert out.dtype == dtype
    assert out.ndim == 3 and out.shape[2] == 4


@pytest.mark.parametrize("op, kwargs", ALL_OPS)
def test_grey_images_accepted(op, kwargs):
    img = np.arange(48, dtype=np.uint8).reshape(6, 8)
    out = op(img, **kwargs)
    assert out.dtype == np.uint8


def test_point_ops_leave_alpha_alone():
    img = np.zeros((2, 2, 4), np.uint8)
    img[..., 3] = [[0, 50], [200, 255]]
    for op, kw in ALL_OPS[:3]:
        assert np.array_equal(op(img, **kw)[..., 3], img[..., 3])


def test_sixteen_bit_brightness_uses_full_scale():
    img = np.array([[0, 1000, 65535]], np.uint16)
    out = ops.adjust_brightness(img, amount=10)
    assert out.tolist() == [[6554, 7554, 65535]]  # + round(6553.5)


def test_rotate_quarter_turns_are_exact_transposes(rgb_small):
    r90 = ops.rotate(rgb_small, degrees=90)
    assert np.array_equal(r90, np.rot90(rgb_small, 1))  # counter-clockwise
    assert np.array_equal(ops.rotate(rgb_small, degrees=270), np.rot90(rgb_small, -1))
    assert np.array_equal(ops.rotate(rgb_small, degrees=180), rgb_small[::-1, ::-1])
    x = rgb_small
    for _ in range(4):
        x = ops.rotate(x, degrees=90)
    assert np.array_equal(x, rgb_small)


def test_rotate_counter_clockwise_direction():
    img = np.zeros((3, 3), np.uint8)
    img[0, 2] = 255  # top-right corner
    assert ops.rotate(img, degrees=90)[0, 0] == 255  # goes to top-left when turned CCW


def test_rotate_arbitrary_enlarges_canvas_with_transparent_corners():
    img = np.full((100, 200, 3), 200, np.uint8)
    out = ops.rotate(img, degrees=45)
    side = (100 + 200) / np.sqrt(2)
    assert abs(out.shape[0] - side) <= 2 and abs(out.shape[1] - side) <= 2
    assert out.shape[2] == 4
    assert out[0, 0, 3] == 0 and np.all(out[0, 0, :3] == 0)
    cy, cx = out.shape[0] // 2, out.shape[1] // 2
    assert out[cy, cx, 3] == 255 and np.all(out[cy, cx, :3] == 200)


def test_crop_and_flip_copy_exact_pixels(rgb_small):
    assert np.array_equal(ops.crop(rgb_small, box=(2, 1, 5, 4)), rgb_small[1:4, 2:5])
    assert np.array_equal(ops.crop(rgb_small, box=(5, 4, 2, 1)), rgb_small[1:4, 2:5])
    assert np.array_equal(ops.crop(rgb_small, box=(7, 5, 100, 100)), rgb_small[5:, 7:])
    assert np.array_equal(ops.flip(rgb_small, axis="horizontal"), rgb_small[:, ::-1])
    assert np.array_equal(ops.flip(rgb_small, axis="vertical"), rgb_small[::-1])


@pytest.mark.parametrize(
    "op, kwargs, message",
    [
        (ops.adjust_brightness, {"amount": 101}, "-100 to 100"),
        (ops.adjust_brightness, {"amount": float("nan")}, "-100 to 100"),
        (ops.adjust_contrast, {"amount": "lots"}, "must be a number"),
        (ops.adjust_color, {"color": "teal", "intensity": 0.5}, "valid colours"),
        (ops.adjust_color, {"color": "red", "intensity": 1.5}, "0 to 1"),
        (ops.rotate, {"degrees": 9999}, "0 to 360"),
        (ops.flip, {"axis": "sideways"}, "horizontal"),
        (ops.crop, {"box": (100, 100, 200, 200)}, "holds no part"),
    ],
)
def test_bad_parameters_raise_clear_errors(rgb_small, op, kwargs, message):
    with pytest.raises(ValueError, match=message):
        op(rgb_small, **kwargs)


def test_bad_images_raise():
    with pytest.raises(ValueError, match="uint8 or uint16"):
        ops.adjust_brightness(np.zeros((2, 2, 3), np.float32), amount=1)
    with pytest.raises(ValueError, match="shape"):
        ops.adjust_brightness(np.zeros((2, 2, 5), np.uint8), amount=1)


def test_cutout_with_given_mask_blackens_background():
    img = np.full((4, 4, 3), 100, np.uint8)
    mask = np.zeros((4, 4), np.float32)
    mask[1:3, 1:3] = 1
    out = ops.image_cutout(img, mask=mask)
    assert out.shape == (4, 4, 4)
    assert np.all(out[0, 0] == 0)
    assert np.all(out[1, 1] == [100, 100, 100, 255])


@pytest.mark.slow
def test_cutout_keeps_the_subject_of_a_real_photo(astronaut, no_network):
    out = ops.image_cutout(astronaut)
    assert out.shape == astronaut.shape[:2] + (4,)
    alpha = out[..., 3]
    # The astronaut's face and suit (centre) are kept, the background top-right corner is black.
    assert alpha[150:250, 200:300].mean() > 200
    assert alpha[0:60, 440:].mean() < 30
    assert np.all(out[alpha == 0][:, :3] == 0)
    kept = alpha == 255
    assert np.array_equal(out[kept][:, :3], astronaut[kept])


def test_missing_model_is_a_clear_error_and_no_download(tmp_path, monkeypatch, no_network):
    monkeypatch.setenv("EASEL_MODELS", str(tmp_path / "nothing-here"))
    monkeypatch.setattr(ops._u2netp_session, "_value", None)
    with pytest.raises(ops.ModelMissingError, match="make setup"):
        ops.image_cutout(np.zeros((8, 8, 3), np.uint8))
