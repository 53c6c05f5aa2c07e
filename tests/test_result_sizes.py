"""Operations refuse results above the input pixel limit before computing them, crop reports what
it keeps, and unusual pixel types are converted correctly or refused clearly (issue 32)."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from editor import adjust, imageio, ops
from editor.imageio import ImageFileError, decode_image, write_image

ROOT = Path(__file__).resolve().parent.parent


def test_rotating_a_thin_strip_is_refused_before_any_allocation():
    strip = np.zeros((2, 100_000, 3), np.uint8)
    with pytest.raises(ValueError, match=r"70713x70713 image .* more than the 200-megapixel limit"):
        ops.rotate(strip, degrees=45)
    assert ops.rotate(strip, degrees=90).shape == (100_000, 2, 3)  # lossless turns keep the count


def test_the_result_limit_is_the_input_limit(monkeypatch):
    monkeypatch.setattr(ops, "MAX_PIXELS", 10_000)
    img = np.zeros((100, 100, 3), np.uint8)  # exactly the limit: fine
    assert adjust.grayscale(img).shape[:2] == (100, 100)
    with pytest.raises(ValueError, match="rotating the 100x100 image by 30 degrees"):
        ops.rotate(img, degrees=30)  # 137x137: above
    with pytest.raises(ValueError, match="megapixel limit"):
        ops.adjust_brightness(np.zeros((101, 100), np.uint8), amount=10)  # input above: refused


def test_crop_reports_the_box_it_keeps():
    img = np.zeros((30, 40, 3), np.uint8)
    assert ops.crop_kept(img.shape, (0, 0, 999_999_999, 999_999_999)) == (0, 0, 40, 30)
    assert ops.crop(img, box=(0, 0, 999_999_999, 999_999_999)).shape == (30, 40, 3)
    assert ops.crop_kept(img.shape, (30, 20, -5, 5)) == (0, 5, 30, 20)
    with pytest.raises(ValueError, match="whole numbers"):
        ops.crop(img, box=(0, 0, float("inf"), 3))
    with pytest.raises(ValueError, match="holds no part"):
        ops.crop(img, box=(50, 50, 60, 60))


def _tiff(arr: np.ndarray, mode: str | None = None) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(arr, mode=mode).save(buf, format="TIFF")
    return buf.getvalue()


def test_float_tiffs_are_scaled_not_blacked_out():
    rng = np.random.default_rng(0)
    grey = rng.random((20, 30)).astype(np.float32)
    px = decode_image(_tiff(grey, "F")).pixels
    assert px.dtype == np.uint16 and np.abs(px / 65535 - grey).max() < 1e-4
    rgb = rng.random((20, 30, 3)).astype(np.float32)  # Pillow cannot open this one; OpenCV can
    ok, buf = cv2.imencode(".tif", np.ascontiguousarray(rgb[:, :, ::-1]))
    px = decode_image(buf.tobytes()).pixels
    assert px.shape == (20, 30, 3) and np.abs(px / 65535 - rgb).max() < 1e-4
    counts = (rng.random((8, 8)) * 1000).astype(np.int32)  # 32-bit integers within 16 bits
    px = decode_image(_tiff(counts, "I")).pixels
    assert px.dtype == np.uint16 and np.array_equal(px, counts)


@pytest.mark.parametrize("arr, why", [
    (np.full((4, 4), np.nan, np.float32), "NaN or infinite"),
    (np.full((4, 4), -3.5, np.float32), "scaled 0..1"),
    (np.full((4, 4), 70_000, np.int32), "outside 0..65535"),
])
def test_unusual_values_are_refused_with_a_reason(arr, why):
    mode = "F" if arr.dtype.kind == "f" else "I"
    with pytest.raises(ImageFileError, match=why):
        decode_image(_tiff(arr, mode))


def test_signed_16_bit_tiff_is_refused_or_read():
    ok, buf = cv2.imencode(".tif", np.full((4, 4, 3), -5, np.int16))
    with pytest.raises(ImageFileError, match="outside 0..65535"):
        decode_image(buf.tobytes())
    ok, buf = cv2.imencode(".tif", np.full((4, 4, 3), 300, np.int16))
    assert decode_image(buf.tobytes()).pixels.dtype == np.uint16


def test_to_supported_dtype_keeps_what_pixels_mean():
    assert imageio.to_supported_dtype(np.array([[True, False]])).tolist() == [[255, 0]]
    assert imageio.to_supported_dtype(np.array([[0.0, 255.0]])).dtype == np.uint8
    assert imageio.to_supported_dtype(np.array([[0.5]], np.float64)).tolist() == [[32768]]


def test_apply_rotate_45_of_a_thin_png_fails_fast_with_a_message(tmp_path):
    thin = tmp_path / "thin.png"
    write_image(thin, np.zeros((2, 100_000, 3), np.uint8))
    r = subprocess.run([sys.executable, str(ROOT / "main.py"), "apply", str(thin), "rotate 45", "-o",
                        str(tmp_path / "out.png")], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 2 and "megapixel limit" in r.stderr, r.stderr
    assert not (tmp_path / "out.png").exists()
