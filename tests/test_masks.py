"""Region masks and edits inside them (editor.masks), against their documented formulas.

Expected pixels are computed here, independently: the blend in Python floats pixel by pixel, the
masks from the formulas in editor/masks.py's docstring.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from editor import adjust, masks, ops


def _images():
    rng = np.random.default_rng(7)
    rgb = rng.integers(0, 256, (13, 17, 3), dtype=np.uint8)
    rgba = np.concatenate([rgb, rng.integers(0, 256, (13, 17, 1), dtype=np.uint8)], axis=2)
    grey = rgb[:, :, 1].copy()
    rgb16 = rng.integers(0, 65536, (11, 9, 3), dtype=np.uint16)
    return {"rgb": rgb, "rgba": rgba, "grey": grey, "rgb16": rgb16}


def _mask(shape, seed=1):
    """A mask with exact 0s, exact 1s, halves and arbitrary fractions."""
    rng = np.random.default_rng(seed)
    m = rng.random(shape[:2]).astype(np.float32)
    m[rng.random(shape[:2]) < 0.25] = 0
    m[rng.random(shape[:2]) < 0.25] = 1
    m[0, :3] = (0.5, 0.25, 0.75)
    return m


def _blend_expected(src, res, m):
    """``floor(m*res + (1 - m)*src + 0.5 + 1e-9)`` element by element, in Python floats."""
    top = np.iinfo(src.dtype).max
    if src.ndim == 2 and res.ndim == 3:
        src = np.repeat(src[:, :, None], 3, axis=2)
    out = np.empty_like(res)
    for idx in np.ndindex(res.shape):
        w = float(m[idx[:2]])
        v = w * int(res[idx]) + (1 - w) * int(src[idx])
        out[idx] = max(0, min(top, math.floor(v + 0.5 + 1e-9)))
    return out


OPS = {
    "brightness": lambda im: ops.adjust_brightness(im, amount=20),
    "darker": lambda im: ops.adjust_brightness(im, amount=-35),
    "contrast": lambda im: ops.adjust_contrast(im, amount=40),
    "saturation": lambda im: adjust.adjust_saturation(im, amount=60),
    "grayscale": adjust.grayscale,
    "warmth": lambda im: adjust.adjust_warmth(im, amount=-50),
    "sharpness": lambda im: adjust.adjust_sharpness(im, amount=70),
}


@pytest.mark.parametrize("kind", ["rgb", "rgba", "grey", "rgb16"])
@pytest.mark.parametrize("opname", sorted(OPS))
def test_apply_in_region_is_the_blend_and_exact_at_0_and_1(kind, opname):
    img = _images()[kind]
    before = img.copy()
    m = _mask(img.shape)
    op = OPS[opname]
    out = masks.apply_in_region(img, m, op)
    whole = op(img)
    assert out.dtype == img.dtype and out.shape == whole.shape
    assert np.array_equal(out, _blend_expected(img, whole, m))
    src = np.repeat(img[:, :, None], 3, axis=2) if img.ndim == 2 and whole.ndim == 3 else img
    assert np.array_equal(out[m == 0], src[m == 0])
    assert np.array_equal(out[m == 1], whole[m == 1])
    if kind == "rgba":
        assert np.array_equal(out[:, :, 3], img[:, :, 3])
    assert np.array_equal(img, before)


def test_brightness_in_region_by_its_own_formula():
    img = _images()["rgb"]
    m = _mask(img.shape, seed=5)
    out = masks.apply_in_region(img, m, lambda im: ops.adjust_brightness(im, amount=20))
    k = math.floor(20 / 100 * 255 + 0.5)  # editor.ops: brightness p adds round(p/100*255), clipped
    for y, x, c in np.ndindex(img.shape):
        op = min(255, int(img[y, x, c]) + k)
        w = float(m[y, x])
        assert out[y, x, c] == math.floor(w * op + (1 - w) * int(img[y, x, c]) + 0.5 + 1e-9)


def test_ties_round_up_and_masks_of_other_types():
    img = np.array([[100, 100, 100, 100]], np.uint8)
    out = masks.apply_in_region(img, np.array([[0.5, 0.5, 0, 1]], np.float64), lambda im: im + 1)
    assert out.tolist() == [[101, 101, 100, 101]]  # 100.5 rounds up
    out = masks.apply_in_region(img, np.array([[0.5, 0.5, 0, 1]], np.float64), lambda im: im - 1)
    assert out.tolist() == [[100, 100, 100, 99]]  # 99.5 rounds up too
    assert masks.apply_in_region(img, np.array([[True, False, True, False]]), lambda im: im + 9).tolist() == [
        [109, 100, 109, 100]]
    u8 = np.array([[0, 255, 51, 255]], np.uint8)  # 0..255 as fractions of full scale
    assert masks.apply_in_region(img, u8, lambda im: im + 10).tolist() == [[100, 110, 102, 110]]


@pytest.mark.parametrize("bad", [
    np.zeros((3, 4), np.float32),  # wrong shape
    np.full((13, 17), np.nan, np.float32),
    np.full((13, 17), 1.5, np.float32),
    np.full((13, 17), -0.1, np.float32),
    np.zeros((13, 17), np.int64),
    np.zeros((13, 17, 1), np.float32),
    "sky",
])
def test_apply_in_region_rejects_bad_masks(bad):
    img = _images()["rgb"]
    with pytest.raises(ValueError):
        masks.apply_in_region(img, bad, OPS["brightness"])


def test_apply_in_region_rejects_ops_that_change_the_size_and_non_callables():
    img = _images()["rgb"]
    m = np.ones(img.shape[:2], np.float32)
    with pytest.raises(ValueError, match="size"):
        masks.apply_in_region(img, m, lambda im: ops.rotate(im, degrees=90))
    with pytest.raises(ValueError):
        masks.apply_in_region(img, m, "brightness")
    with pytest.raises(ValueError):
        masks.apply_in_region(img, m, lambda im: im.astype(np.float32))


def test_op_errors_pass_through():
    img = _images()["rgb"]
    with pytest.raises(ValueError):
        masks.apply_in_region(img, np.ones(img.shape[:2]), lambda im: ops.adjust_brightness(im, amount=500))


# --- geometric masks -----------------------------------------------------------------------------


def _ramp(v, full, zero):
    return min(1.0, max(0.0, (zero - v) / (zero - full)))


@pytest.mark.parametrize("shape", [(30, 40), (41, 23), (1, 1)])
def test_geometric_masks_follow_the_documented_formulas(shape):
    h, w = shape
    d = math.hypot(h, w)
    for name in masks.GEOMETRIC_NAMES:
        m = masks.geometric_mask(shape + (3,), name)
        assert m.dtype == np.float32 and m.shape == shape
        for y in range(h):
            for x in range(w):
                fx, fy = (x + 0.5) / w, (y + 0.5) / h
                side = {"left": fx, "right": 1 - fx, "top": fy, "bottom": 1 - fy}
                if name == "center":
                    want = _ramp(math.hypot(2 * fx - 1, 2 * fy - 1), 1 / 3, 2 / 3)
                elif name.endswith("half"):
                    s = name.split()[0]
                    half_ramp = 0.05 * d / (w if s in ("left", "right") else h)
                    want = _ramp(side[s], 0.5 - half_ramp / 2, 0.5 + half_ramp / 2)
                else:
                    want = 1.0
                    for s in name.split():
                        want *= _ramp(side[s], 1 / 3, 1 / 2)
                assert m[y, x] == pytest.approx(want, abs=1e-6), (name, y, x)


def test_sides_are_zero_beyond_the_middle_and_mirror_each_other():
    m = {n: masks.geometric_mask((60, 90), n) for n in masks.GEOMETRIC_NAMES}
    assert (m["left"][:, 45:] == 0).all() and (m["left"][:, :30] == 1).all()
    assert (m["top"][30:] == 0).all() and (m["top"][:20] == 1).all()
    assert np.array_equal(m["right"], m["left"][:, ::-1])
    assert np.array_equal(m["bottom"], m["top"][::-1])
    assert np.allclose(m["top left"], m["top"] * m["left"])
    assert (m["left half"][:, :40] == 1).all() and (m["left half"][:, 50:] == 0).all()
    assert np.allclose(m["left half"] + m["right half"], 1, atol=1e-6)


def test_linear_gradient():
    g = masks.linear_gradient((2, 5), start=(1, 0), end=(4, 0))
    assert np.allclose(g[0], [1, 5 / 6, 0.5, 1 / 6, 0])
    diag = masks.linear_gradient((10, 10), start=(0, 0), end=(10, 10))
    assert np.allclose(diag, diag.T)
    with pytest.raises(ValueError):
        masks.linear_gradient((4, 4), start=(1, 1), end=(1, 1))


# --- tonal masks ---------------------------------------------------------------------------------


def _smooth(x, a, b):
    t = min(1.0, max(0.0, (x - a) / (b - a)))
    return t * t * (3 - 2 * t)


@pytest.mark.parametrize("kind", ["rgb", "rgba", "grey", "rgb16"])
def test_tonal_masks_follow_the_documented_curves(kind):
    img = _images()[kind]
    top = np.iinfo(img.dtype).max
    curves = {
        "shadows": lambda v: 1 - _smooth(v, 0.2, 0.6),
        "midtones": lambda v: _smooth(v, 0.1, 0.4) * (1 - _smooth(v, 0.6, 0.9)),
        "highlights": lambda v: _smooth(v, 0.4, 0.8),
    }
    for tone, curve in curves.items():
        m = masks.tonal_mask(img, tone)
        assert m.dtype == np.float32 and m.shape == img.shape[:2]
        for y, x in np.ndindex(m.shape):
            p = img[y, x]
            lum = float(p) / top if img.ndim == 2 else (0.299 * int(p[0]) + 0.587 * int(p[1]) + 0.114 * int(p[2])) / top
            assert m[y, x] == pytest.approx(curve(lum), abs=2e-6), (tone, y, x)


def test_lifting_shadows_leaves_bright_pixels_bit_identical():
    ramp = np.tile(np.arange(256, dtype=np.uint8), (4, 1))
    img = np.repeat(ramp[:, :, None], 3, axis=2)
    out = masks.apply_in_region(img, masks.region_mask(img, "shadows"), lambda im: ops.adjust_brightness(im, amount=25))
    assert np.array_equal(out[:, 154:], img[:, 154:])  # L >= 0.6: no shadow
    assert np.array_equal(out[:, :51], np.minimum(img[:, :51].astype(int) + 64, 255))  # L <= 0.2: all of it
    # within the documented 26, tones keep their order
    assert (np.diff(out[0, :, 0].astype(int)) >= 0).all()


# --- feather, invert, box, stroke, cutout --------------------------------------------------------


def test_feather_ramp_is_px_wide_and_keeps_far_values():
    m = np.zeros((40, 60), np.float32)
    m[:, 30:] = 1
    f = masks.feather(m, 11)
    assert (f[:, :25] == 0).all() and (f[:, 35:] == 1).all()  # farther than 5.5 px: kept
    assert (np.diff(f[10]) >= 0).all() and 0 < f[10, 29] < 0.5 < f[10, 30] < 1
    assert np.array_equal(masks.feather(m, 0), m)
    assert np.array_equal(masks.feather(np.ones((5, 5), np.float32), 9), np.ones((5, 5)))  # edges repeat
    with pytest.raises(ValueError):
        masks.feather(m, -1)


def test_feathered_box_edit_is_unchanged_outside_the_feather():
    img = _images()["rgb"].repeat(6, axis=0).repeat(6, axis=1)  # 78 x 102
    m = masks.feather(masks.from_box(img.shape, (30, 20, 70, 50)), 9)
    out = masks.apply_in_region(img, m, lambda im: ops.adjust_brightness(im, amount=30))
    far = np.ones(img.shape[:2], bool)
    far[20 - 5:50 + 5, 30 - 5:70 + 5] = False
    assert np.array_equal(out[far], img[far])
    core = (slice(25, 45), slice(35, 65))
    assert np.array_equal(out[core], ops.adjust_brightness(img, amount=30)[core])


def test_invert_and_from_cutout():
    m = np.array([[0, 0.25, 1]], np.float32)
    assert masks.invert(m).tolist() == [[1, 0.75, 0]]
    assert np.array_equal(masks.invert(masks.invert(np.array([[0.0, 1.0]], np.float32))), [[0, 1]])
    rgba = np.zeros((1, 3, 4), np.uint8)
    rgba[0, :, 3] = (0, 255, 51)
    assert np.allclose(masks.from_cutout(rgba), [[0, 1, 0.2]])
    assert np.allclose(masks.from_cutout(np.array([[0, 65535]], np.uint16)), [[0, 1]])


def test_from_box():
    m = masks.from_box((10, 20), (15, 8, 5, 2))  # corners in either order
    assert m.sum() == 10 * 6 and m[2:8, 5:15].all()
    assert masks.from_box((10, 20), (-5, -5, 3, 3)).sum() == 9  # clipped
    for bad in [(30, 30, 40, 40), (1, 2, 3), "box", (1, 1, 1, 5)]:
        with pytest.raises(ValueError):
            masks.from_box((10, 20), bad)


def test_from_stroke_loop_is_filled_and_scribble_is_its_path():
    shape = (100, 120)
    t = np.linspace(0, 2 * np.pi * 0.95, 40)
    circle = np.stack([60 + 30 * np.cos(t), 50 + 30 * np.sin(t)], axis=1)
    m = masks.from_stroke(shape, circle)
    inside = np.zeros(shape, np.uint8)
    cv2.circle(inside, (60, 50), 28, 1, -1)
    assert m[inside > 0].all() and m.sum() < math.pi * 32 ** 2 and m[5, 5] == 0
    zig = [(20, 20), (100, 30), (20, 40), (100, 50), (20, 60)]
    s = masks.from_stroke(shape, zig, width=6)
    assert s[20, 20] == 1 and s[25, 60] == 1  # on the path
    assert s[40, 60] == 0 and s[30, 60] == 0  # between strokes: not filled
    assert 0 < s.mean() < 0.35
    norm = masks.from_stroke(shape, circle / (120, 100), normalized=True)
    assert np.array_equal(norm, m)
    with pytest.raises(ValueError):
        masks.from_stroke(shape, [])
    with pytest.raises(ValueError):
        masks.from_stroke(shape, [(500, 500), (600, 600)], width=3)


# --- refine to edges -----------------------------------------------------------------------------


def _scene():
    rng = np.random.default_rng(3)
    img = (rng.normal(0, 12, (120, 160, 3)) + (90, 140, 80)).clip(0, 255).astype(np.uint8)
    obj = np.zeros((120, 160), np.uint8)
    cv2.ellipse(obj, (80, 60), (30, 22), 20, 0, 360, 1, -1)
    img[obj > 0] = (rng.normal(0, 12, (int(obj.sum()), 3)) + (200, 60, 50)).clip(0, 255).astype(np.uint8)
    return img, obj.astype(bool)


def _iou(a, b):
    return (a & b).sum() / max(1, (a | b).sum())


def test_refine_to_edges_snaps_a_box_and_a_loose_loop_to_the_object():
    img, obj = _scene()
    before = img.copy()
    box = masks.from_box(img.shape, (40, 25, 122, 97))
    r = masks.refine_to_edges(img, box)
    assert r.dtype == np.float32 and r.shape == obj.shape
    assert _iou(r >= 0.5, obj) > 0.9
    assert (r[box == 0] == 0).all()  # never outside the drawn region
    t = np.linspace(0, 2 * np.pi, 30)
    loop = masks.from_stroke(img.shape, np.stack([80 + 48 * np.cos(t), 60 + 40 * np.sin(t)], axis=1))
    assert _iou(masks.refine_to_edges(img, loop) >= 0.5, obj) > 0.9
    assert np.array_equal(img, before)


def test_refine_scribble_with_reach_grows_past_the_brush():
    img, obj = _scene()
    scribble = masks.from_stroke(img.shape, [(65, 55), (95, 62), (70, 68)], width=6)
    r = masks.refine_to_edges(img, scribble, reach=30)
    assert _iou(r >= 0.5, obj) > 0.85


def test_refine_falls_back_to_the_drawing_on_a_flat_image():
    flat = np.full((50, 50, 3), 128, np.uint8)
    box = masks.from_box(flat.shape, (10, 10, 30, 30))
    assert np.array_equal(masks.refine_to_edges(flat, box), box)
    with pytest.raises(ValueError):
        masks.refine_to_edges(flat, np.zeros((50, 50), np.float32))


# --- sky ------------------------------------------------------------------------------------------


def _landscape(h=240, w=320, seed=0):
    """A blue sky, lighter toward a wavy horizon, over textured green ground; the exact sky mask."""
    rng = np.random.default_rng(seed)
    yy = np.arange(h)[:, None] / h
    sky = np.stack([90 + 120 * yy, 140 + 80 * yy, 230 + 0 * yy], axis=2).repeat(w, axis=1)
    ground = rng.normal(0, 25, (h, w, 3)) + (70, 110, 40)
    horizon = (0.55 * h + 0.06 * h * np.sin(np.arange(w) / w * 7)).astype(int)
    is_sky = np.arange(h)[:, None] < horizon[None, :]
    img = np.where(is_sky[..., None], sky, ground).clip(0, 255).astype(np.uint8)
    return img, is_sky


def test_sky_mask_finds_a_sky_above_a_horizon():
    img, truth = _landscape()
    m = masks.sky_mask(img)
    assert m.dtype == np.float32 and m.shape == truth.shape and m.min() >= 0 and m.max() <= 1
    assert _iou(m >= 0.5, truth) > 0.95
    big = cv2.resize(img, (960, 720), interpolation=cv2.INTER_NEAREST)
    assert _iou(masks.sky_mask(big) >= 0.5, cv2.resize(truth.astype(np.uint8), (960, 720),
                                                         interpolation=cv2.INTER_NEAREST) > 0) > 0.95
    assert _iou(masks.sky_mask(img.astype(np.uint16) * 257) >= 0.5, truth) > 0.95


def test_the_top_of_the_sky_is_the_upper_half_of_the_sky():
    """"darken the top of the sky" darkened the sky within the picture's top half, which held all of it."""
    img, truth = _landscape()
    sky, top = masks.region_mask(img, "sky"), masks.region_mask(img, "sky at the top")
    rows = np.nonzero(sky.max(axis=1) > 0.5)[0]
    assert top[rows[0]].max() > 0.9 and top[rows[-1]].max() < 0.1  # its top row kept, its lowest row not
    assert 0.3 < top.sum() / sky.sum() < 0.7
    left = masks.region_mask(img, "sky on the left")  # a side is still the picture's half
    assert np.allclose(left, sky * masks.geometric_mask(img.shape, "left half"))


def test_sky_mask_is_empty_without_sky():
    rng = np.random.default_rng(1)
    texture = (rng.normal(0, 30, (200, 300, 3)) + (90, 120, 60)).clip(0, 255).astype(np.uint8)
    assert masks.sky_mask(texture).max() == 0
    wall = np.full((200, 300, 3), (150, 170, 230), np.uint8)  # a smooth blue wall down to the floor
    assert masks.sky_mask(wall).max() == 0
    img, _ = _landscape()
    assert masks.sky_mask(img[::-1].copy()).mean() < 0.01  # upside down: the blue is at the bottom


def test_a_bright_blurred_background_under_the_sky_is_not_a_cloud():
    """White and smooth like a cloud, beside a blue sky and beginning above its horizon, but
    running down to the bottom edge: the out-of-focus ground behind a subject, not sky."""
    img, truth = _landscape()
    h, w = truth.shape
    yy, xx = np.mgrid[0:h, 0:w]
    blur = np.stack([236 - 10 * np.sin(xx / 40.0 + yy / 55.0)] * 3, axis=2)  # smooth, nearly white
    right = (xx > 0.45 * w) & ~truth
    img[right] = blur[right].astype(np.uint8)
    m = masks.sky_mask(img) >= 0.5
    assert m[right].mean() < 0.01
    assert _iou(m, truth) > 0.9


def test_thin_cloud_and_blue_between_clouds_are_sky_but_a_tower_is_not():
    """"brighten the sky" on the Taj Mahal left a dark patch: the blue between two clouds, grey
    with thin cloud and too textured to join the smooth sky, was cut out of the mask. A hole of a
    paler sky's colour is sky, whatever its texture; grey stone rising from the ground into the
    sky, or a dark thing in it, is not."""
    img, truth = _landscape()
    h, w = truth.shape
    rng = np.random.default_rng(3)
    yy, xx = np.mgrid[0:h, 0:w]
    wisp = ((xx - 110) / 60.0) ** 2 + ((yy - 45) / 22.0) ** 2 < 1  # thin cloud over blue
    img[wisp] = (rng.normal(0, 14, (int(wisp.sum()), 3)) + (150, 170, 215)).clip(0, 255).astype(np.uint8)
    kite = ((xx - 262) / 40.0) ** 2 + ((yy - 40) / 25.0) ** 2 < 1  # a dark thing in the sky (over 1%: no bird)
    img[kite] = (40, 60, 30)
    tower = (xx > 190) & (xx < 215) & (yy > 60)  # stone from the ground up into the sky
    img[tower] = (rng.normal(0, 14, (int(tower.sum()), 3)) + (160, 160, 155)).clip(0, 255).astype(np.uint8)
    m = masks.sky_mask(img) >= 0.5
    assert m[wisp].mean() > 0.95
    assert m[kite].mean() < 0.05 and m[tower].mean() < 0.05
    assert _iou(m, truth & ~kite & ~tower) > 0.95


# --- names ------------------------------------------------------------------------------------------


def test_region_mask_names():
    img, _ = _landscape(120, 160)
    for name in masks.REGION_NAMES:
        m = masks.region_mask(img, name)
        assert m.shape == img.shape[:2] and m.dtype == np.float32 and m.min() >= 0 and m.max() <= 1
    assert np.array_equal(masks.region_mask(img, "The Left-hand side"), masks.geometric_mask(img.shape, "left"))
    assert np.array_equal(masks.region_mask(img, "upper left"), masks.geometric_mask(img.shape, "top left"))
    assert np.array_equal(masks.region_mask(img, "centre"), masks.geometric_mask(img.shape, "center"))
    assert np.array_equal(masks.region_mask(img, "the sky"), masks.sky_mask(img))
    for bad in ("selection", "the cat", "", None):
        with pytest.raises(ValueError):
            masks.region_mask(img, bad)


def test_every_region_name_on_grey_rgba_and_16_bit_images():
    img, truth = _landscape(120, 160)
    grey = img[:, :, 1].copy()
    rgba = np.concatenate([img, np.full(img.shape[:2] + (1,), 200, np.uint8)], axis=2)
    for im in (grey, rgba, img.astype(np.uint16) * 257):
        for name in masks.REGION_NAMES:
            m = masks.region_mask(im, name)
            assert m.shape == truth.shape and m.dtype == np.float32
            out = masks.apply_in_region(im, m, lambda x: ops.adjust_brightness(x, amount=10))
            assert out.dtype == im.dtype and out.shape == im.shape
    assert _iou(masks.sky_mask(rgba) >= 0.5, truth) > 0.95


@pytest.mark.parametrize("kind", ["rgb", "rgba", "grey", "rgb16"])
@pytest.mark.parametrize("opname", ["brightness", "contrast", "saturation", "grayscale", "warmth", "tint"])
def test_pointwise_runs_on_the_regions_box_with_the_same_pixels(kind, opname):
    img = _images()[kind]
    m = np.zeros(img.shape[:2], np.float32)
    m[3:8, 2:7] = _mask(img.shape)[3:8, 2:7]
    m[3, 2], m[7, 6] = 0.5, 1.0  # the box is exactly 3:8, 2:7
    op = OPS.get(opname) or (lambda im: ops.adjust_color(im, color="orange", intensity=0.4))
    seen = []

    def spy(im):
        seen.append(im.shape[:2])
        return op(im)

    out = masks.apply_in_region(img, m, spy, pointwise=True)
    assert np.array_equal(out, _blend_expected(img, op(img), m))
    if not (kind == "grey" and opname in ("warmth", "tint")):  # grey to RGB runs on the whole picture
        assert seen == [(5, 5)]
    empty = masks.apply_in_region(img, np.zeros(img.shape[:2], np.float32), op, pointwise=True)
    assert np.array_equal(empty, img) and empty is not img


def test_refining_the_same_drawing_gives_the_same_region_whatever_ran_before():
    """GrabCut seeds its colour models with k-means on OpenCV's random generator: seeded, the same
    drawing on the same photo snaps to the same region (a selection is shown, then stored)."""
    from skimage import data

    img = cv2.resize(data.astronaut(), (200, 200), interpolation=cv2.INTER_AREA)
    rough = masks.from_box(img.shape, (40, 20, 170, 200))
    first = masks.refine_to_edges(img, rough)
    for i in range(3):
        cv2.randu(np.zeros((10 + i, 10)), 0, 1)  # something else used the generator meanwhile
        assert np.array_equal(masks.refine_to_edges(img, rough), first)


def test_the_clouds_are_the_sky_greyer_than_its_rows_blue_not_a_hazy_horizon():
    """"make the clouds darker" was refused: Easel found no clouds. They are the sky's part greyer
    than the blue of its own row, soft: a white cloud is, a pale haze along the horizon (greyer
    than the sky above it, as grey as the rest of its row) is not, nor is a dark lattice."""
    from editor.masks import region_mask

    h, w = 240, 320
    yy = np.linspace(0, 1, 160)[:, None, None]
    sky = (np.array([60, 120, 235]) * (1 - yy) + np.array([200, 215, 235]) * yy) * np.ones((1, w, 1))  # haze below
    img = np.zeros((h, w, 3), np.float32)
    img[:160] = sky
    img[160:] = (70, 110, 45) + np.random.default_rng(1).normal(0, 20, (80, w, 3))
    hazy = np.clip(img, 0, 255).astype(np.uint8)
    assert region_mask(hazy, "clouds").max() == 0
    cloudy = hazy.copy()
    yy, xx = np.mgrid[0:h, 0:w]
    cloud = (((xx - 100) / 50.0) ** 2 + ((yy - 50) / 20.0) ** 2) < 1
    cloudy[cloud] = (245, 245, 248)
    m = region_mask(cloudy, "clouds")
    assert m[50, 100] > 0.9 and m[50, 250] < 0.1 and m[200].max() == 0
