from __future__ import annotations

import io
import os

import numpy as np
import pytest
from PIL import Image, ImageOps

from editor import imageio
from editor.imageio import ImageFileError, read_image, write_image


def _save_pil(path, arr, **kw):
    Image.fromarray(arr).save(path, **kw)
    return path


@pytest.mark.parametrize("suffix", [".jpg", ".png", ".webp", ".tif", ".bmp"])
def test_every_format_reads_and_writes(tmp_path, astronaut, suffix):
    out = write_image(tmp_path / f"a{suffix}", astronaut)
    img = read_image(out)
    assert img.pixels.shape == astronaut.shape and img.pixels.dtype == np.uint8
    lossy = suffix in (".jpg", ".webp")
    diff = np.abs(img.pixels.astype(int) - astronaut).mean()
    assert diff < 3 if lossy else diff == 0


@pytest.mark.parametrize("suffix", [".png", ".tif"])
def test_sixteen_bit_and_alpha_survive(tmp_path, suffix):
    rng = np.random.default_rng(0)
    arr = rng.integers(0, 65536, (20, 30, 4), dtype=np.uint16)
    back = read_image(write_image(tmp_path / f"x{suffix}", arr)).pixels
    assert back.dtype == np.uint16 and np.array_equal(back, arr)
    rgb = arr[..., :3].copy()
    assert np.array_equal(read_image(write_image(tmp_path / f"y{suffix}", rgb)).pixels, rgb)


def test_alpha_dropped_for_jpeg(tmp_path):
    arr = np.zeros((8, 8, 4), np.uint8)
    assert read_image(write_image(tmp_path / "x.jpg", arr)).pixels.shape == (8, 8, 3)


@pytest.mark.parametrize("orientation", range(1, 9))
def test_exif_orientation_applied_like_pillow(tmp_path, orientation):
    arr = np.arange(4 * 6 * 3, dtype=np.uint8).reshape(4, 6, 3) * 3
    exif = Image.Exif()
    exif[0x0112] = orientation
    path = _save_pil(tmp_path / "o.png", arr, exif=exif.tobytes())
    img = read_image(path)
    want = np.asarray(ImageOps.exif_transpose(Image.open(path)))
    assert np.array_equal(img.pixels, want)
    # What we write back says "upright", so nobody rotates the pixels twice.
    back = Image.open(write_image(tmp_path / "o2.png", img.pixels, meta=img.meta))
    assert back.getexif().get(0x0112, 1) == 1


def test_exif_and_icc_kept_on_save(tmp_path, astronaut):
    exif = Image.Exif()
    exif[0x010F] = "EaselCam"  # Make
    from PIL import ImageCms

    icc_bytes = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    path = _save_pil(tmp_path / "m.jpg", astronaut, exif=exif.tobytes(), icc_profile=icc_bytes)
    img = read_image(path)
    for suffix in (".jpg", ".png", ".webp", ".tif"):
        out = Image.open(write_image(tmp_path / f"out{suffix}", img.pixels, meta=img.meta))
        assert out.getexif().get(0x010F) == "EaselCam", suffix
        assert out.info.get("icc_profile") == icc_bytes, suffix


def test_corrupt_truncated_and_non_images_are_refused(tmp_path, astronaut):
    good = io.BytesIO()
    Image.fromarray(astronaut).save(good, format="JPEG")
    (tmp_path / "trunc.jpg").write_bytes(good.getvalue()[: len(good.getvalue()) // 2])
    (tmp_path / "text.png").write_text("not an image at all")
    (tmp_path / "empty.jpg").write_bytes(b"")
    png = io.BytesIO()
    Image.fromarray(astronaut).save(png, format="PNG")
    data = bytearray(png.getvalue())
    data[len(data) // 2 : len(data) // 2 + 200] = b"\x00" * 200
    (tmp_path / "bad.png").write_bytes(bytes(data))
    cases = {
        "trunc.jpg": "corrupt or truncated",
        "text.png": "not an image",
        "empty.jpg": "empty",
        "bad.png": "corrupt or truncated",
        "missing.png": "no such file",
    }
    for name, message in cases.items():
        with pytest.raises(ImageFileError, match=message):
            read_image(tmp_path / name)


def test_decompression_bomb_refused_before_decoding(tmp_path):
    # A 20000x20000 PNG of zeros compresses to almost nothing but would need 1.2 GB to decode.
    import struct
    import zlib

    w = h = 20000
    raw = zlib.compress(b"".join(b"\x00" + b"\x00" * (w * 3) for _ in range(10)))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", raw) + chunk(b"IEND", b"")
    (tmp_path / "bomb.png").write_bytes(png)
    with pytest.raises(ImageFileError, match="400 megapixels, more than the 200-megapixel limit"):
        read_image(tmp_path / "bomb.png")


def test_never_overwrites_without_permission(tmp_path, rgb_small):
    path = write_image(tmp_path / "orig.png", rgb_small)
    before = path.read_bytes()
    with pytest.raises(ImageFileError, match="exists"):
        write_image(path, rgb_small[::-1].copy())
    assert path.read_bytes() == before
    write_image(path, rgb_small[::-1].copy(), overwrite=True)
    assert np.array_equal(read_image(path).pixels, rgb_small[::-1])


def test_written_images_get_ordinary_permissions(tmp_path, rgb_small):
    """Written through a private temporary file, the image must still be readable as a plain open()
    would leave it (not 0600), and replacing a file keeps that file's mode."""
    old = os.umask(0o022)
    try:
        path = write_image(tmp_path / "out.png", rgb_small)
        assert path.stat().st_mode & 0o777 == 0o644
        path.chmod(0o640)
        write_image(path, rgb_small[::-1].copy(), overwrite=True)
        assert path.stat().st_mode & 0o777 == 0o640
    finally:
        os.umask(old)


def test_unknown_suffix_and_missing_folder(tmp_path, rgb_small):
    with pytest.raises(ImageFileError, match="unknown file type"):
        write_image(tmp_path / "x.gif", rgb_small)
    with pytest.raises(ImageFileError, match="no such folder"):
        write_image(tmp_path / "nope" / "x.png", rgb_small)
    assert imageio.format_for_path("A.JPEG") == "JPEG"
