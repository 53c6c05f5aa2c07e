"""The sky of a photo as a soft mask, from colour, smoothness and position (:func:`sky_mask`).

Split from :mod:`editor.masks`, which names it as the region ``sky``; how it is found and how well
(IoU on hand-labelled photos, false skies on photos without one) is in ``bench/regions.py``.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from editor.ops import check_image, full_scale

__all__ = ["clouds_mask", "sky_mask"]

# --- finding it --------------------------------------------------------------------------------------

SKY_SIDE = 320  # the sky is found on a copy this size on its long side
SKY_EDGE_SIDE = 1280  # ... and its edge drawn again by colour on one this size
SKY_SMOOTH = 0.012  # seed pixels: mean luma gradient (per pixel of the copy) at most this
SKY_GROW_SMOOTH = 0.02  # grown pixels: at most this
SKY_MIN_AREA = 0.01  # a sky smaller than this share of the picture is no sky
SKY_MAX_BOTTOM = 0.25  # nor one along more than this share of the bottom edge (a wall, water, bokeh)
SKY_NEUTRAL = -0.03  # grey sky: blue minus red at least this (not warm: wood, skin, sand)
SKY_GREY_MIN = 0.5  # ... and luma at least this
SKY_COLOUR_SHARE = 0.5  # a sky region is at least this share sky-coloured
SKY_HORIZON_MARGIN = 0.02  # ... and begins this share of the height above the horizon
SKY_CLOUD_MIN = 0.7  # clouds: luma at least this,
SKY_CLOUD_TEX = 0.03  # ... mean texture at most this (twice it at most anywhere),
SKY_CLOUD_GAP = 4  # ... within this many pixels of the sky
SKY_CLOUD_BLUE = 0.05  # ... of a sky whose mean blue minus red is at least this
SKY_BAND = 3  # pixels within this many of the sky's edge are decided by colour
SKY_COLOUR_DIST = 0.1  # a piece cut off by a bar or branches: mean colour this close to the sky's
SKY_HOLE_COLOUR = 0.9  # a hole in the sky above the horizon is sky when this share of it is sky-coloured,
SKY_HOLE_BLUE = 0.3  # ... and it is white or this share as blue as the sky (a shaded cloud 0.5, stone 0.1)


def _sky_small(rgb: np.ndarray) -> np.ndarray:
    """The sky as a bool mask of the small float RGB copy ``rgb`` (values 0..1)."""
    h, w = rgb.shape[:2]
    lum = rgb @ np.array([0.299, 0.587, 0.114], np.float32)
    # Texture: the largest colour gradient of the three channels, averaged over 5x5. A colour
    # edge stops the sky even where brightness does not change (a blue sea under a blue sky).
    grad = np.zeros((h, w), np.float32)
    for c in range(3):
        ch = np.ascontiguousarray(rgb[..., c])
        gx = cv2.Scharr(ch, cv2.CV_32F, 1, 0) / 32
        gy = cv2.Scharr(ch, cv2.CV_32F, 0, 1) / 32
        grad = np.maximum(grad, cv2.magnitude(gx, gy))
    tex = cv2.blur(grad, (5, 5))
    grey, colour = _sky_colours(rgb, lum)
    seed = colour & (tex <= SKY_SMOOTH)
    grow = (tex <= SKY_GROW_SMOOTH).astype(np.uint8)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(grow, connectivity=4)
    area = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    n_colour = np.bincount(lab[colour], minlength=n)
    # A smooth region joined to a top-connected seed, mostly of a sky's colour (a grey studio
    # wall has a few neutral pixels, a sunset's orange sits under a larger blue).
    seed_top = _touching_top(seed)
    ok = (np.bincount(lab[seed_top], minlength=n) > 0) & (n_colour >= SKY_COLOUR_SHARE * area)
    ok[0] = False
    sky = ok[lab]
    if sky.mean() < SKY_MIN_AREA or sky[-1].mean() > SKY_MAX_BOTTOM:
        return np.zeros((h, w), bool)
    # Sky cut off from the top by a bar, a cable or branches: smooth regions, mostly
    # sky-coloured, that begin above the horizon (the lowest row the sky reaches, less a margin:
    # the sea under a sky begins at the horizon), of the sky's colour in the rows they share.
    horizon = int(np.nonzero(sky.any(axis=1))[0][-1]) - SKY_HORIZON_MARGIN * h
    for i in np.nonzero(~ok & (n_colour >= SKY_COLOUR_SHARE * area) & (area >= 0.001 * h * w))[0]:
        y, a = stats[i, cv2.CC_STAT_TOP], stats[i, cv2.CC_STAT_HEIGHT]
        if i == 0 or y > horizon or y + a >= h:  # down to the bottom edge: ground (rule 5, and below)
            continue
        part = lab == i
        if _row_colour_gap(rgb[y:y + a], part[y:y + a], sky[y:y + a]) <= SKY_COLOUR_DIST:
            sky |= part
    sky = _snap_band(rgb, fill_small_holes(sky, 0.01 * h * w), colour)
    # Clouds: white, fluffy (their texture cuts them off from the blue at their fringe), near
    # the sky and beginning above the horizon (snow fields lie below it). Only beside a blue sky:
    # under a grey one a white building is as much a cloud as anything (the camera man's dome).
    blue_sky = float((rgb[..., 2] - rgb[..., 0])[sky].mean()) >= SKY_CLOUD_BLUE
    sat = (rgb.max(axis=2) - rgb.min(axis=2)) / np.maximum(rgb.max(axis=2), 1e-3)
    white = ((lum >= SKY_CLOUD_MIN) & (sat <= 0.3) & (tex <= 2 * SKY_CLOUD_TEX) & ~sky).astype(np.uint8)
    nc, clab, cst, _ = cv2.connectedComponentsWithStats(white, connectivity=8)
    added = False
    if nc > 1 and blue_sky:
        gap = 2 * SKY_CLOUD_GAP + 1
        touch = np.bincount(clab[cv2.dilate(sky.astype(np.uint8), np.ones((gap, gap), np.uint8)) > 0], minlength=nc)
        ctex = np.bincount(clab.ravel(), weights=tex.ravel(), minlength=nc) / np.maximum(cst[:, cv2.CC_STAT_AREA], 1)
        for i in range(1, nc):
            # Nor does a cloud reach the bottom edge, where the sky may not run (rule 5): a white
            # patch that does is lit or blurred ground under the sky (a bright out-of-focus
            # background, a white wall), however smooth.
            if (touch[i] and ctex[i] <= SKY_CLOUD_TEX and cst[i, cv2.CC_STAT_TOP] <= horizon
                    and cst[i, cv2.CC_STAT_TOP] + cst[i, cv2.CC_STAT_HEIGHT] < h
                    and cst[i, cv2.CC_STAT_AREA] >= 0.002 * h * w):
                sky |= clab == i
                added = True
    if added:
        sky = _snap_band(rgb, fill_small_holes(sky, 0.01 * h * w), colour)
    horizon = int(np.nonzero(sky.any(axis=1))[0][-1]) - SKY_HORIZON_MARGIN * h
    return _fill_sky_holes(rgb, lum, sky, horizon)


def _fill_sky_holes(rgb: np.ndarray, lum: np.ndarray, sky: np.ndarray, horizon: float) -> np.ndarray:
    """``sky`` with its holes of a sky's colour filled, however large: the blue between clouds,
    a thin or shaded cloud, whose texture kept them out of the smooth regions. A hole is a part of
    the rest that does not reach the bottom edge, ends above ``horizon`` (it may reach a side or
    the top: a cloud cut by the frame), is :data:`SKY_HOLE_COLOUR` of a sky's colour and, on
    average, white as a cloud or at least :data:`SKY_HOLE_BLUE` as blue as the sky (grey stone cut
    off by the sky's edge, as a tower's top can be, is neither); a building, a tree or a mast
    stands on the ground and is never one. A sky's colour is here relative to this sky's lightness (not warm, at least
    0.6 of its median luma), so that a shaded cloud stays sky after the whole photo is darkened."""
    h = sky.shape[0]
    n, lab, stats, _ = cv2.connectedComponentsWithStats((~sky).astype(np.uint8), connectivity=4)
    area = np.maximum(stats[:, cv2.CC_STAT_AREA], 1)
    br = rgb[..., 2] - rgb[..., 0]
    like = (br >= SKY_NEUTRAL) & (lum >= 0.6 * float(np.median(lum[sky])))
    share = np.bincount(lab[like], minlength=n) / area
    blue = np.bincount(lab.ravel(), weights=br.ravel(), minlength=n) / area
    white = np.bincount(lab.ravel(), weights=lum.ravel(), minlength=n) / area
    skyish = (white >= SKY_CLOUD_MIN) | (blue >= SKY_HOLE_BLUE * float(br[sky].mean()))
    bottom = stats[:, cv2.CC_STAT_TOP] + stats[:, cv2.CC_STAT_HEIGHT]
    fill = (share >= SKY_HOLE_COLOUR) & skyish & (bottom < h) & (bottom <= horizon)
    fill[0] = False
    return sky | fill[lab] if fill.any() else sky


def _snap_band(rgb: np.ndarray, sky: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """Decide the pixels near the sky's edge (within :data:`SKY_BAND` pixels; texture measures
    blur it) by colour: sky where a sky-coloured pixel is nearer the mean colour of the sky
    around it than to that of the rest around it."""
    k = np.ones((2 * SKY_BAND + 1,) * 2, np.uint8)
    s8 = sky.astype(np.uint8)
    band = (cv2.dilate(s8, k) > 0) & ~(cv2.erode(s8, k) > 0)
    if not band.any():
        return sky
    ws, ms, mn = _local_means(rgb, sky)
    ds = np.abs(rgb - ms).sum(axis=2)
    dn = np.abs(rgb - mn).sum(axis=2)
    out = sky.copy()
    out[band] = (colour & (ds < dn) & (ws > 1e-3))[band]
    return out


def _sky_colours(rgb: np.ndarray, lum: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``(grey, any)``: pixels of an overcast or white sky's colour, and of any sky's colour
    (grey, daylight blue or dark evening blue), of a float RGB image in 0..1."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    if lum is None:
        lum = rgb @ np.array([0.299, 0.587, 0.114], np.float32)
    br = b - r
    grey = (br >= SKY_NEUTRAL) & (lum >= SKY_GREY_MIN)  # overcast, haze, clouds
    blue = (br >= 0.05) & (b >= 0.35)  # a daylight blue sky
    dusk = (br >= 0.1) & (b - g >= 0.05) & (b >= 0.12)  # a dark blue evening sky
    return grey, grey | blue | dusk


def _local_means(rgb: np.ndarray, sky: np.ndarray):
    """``(ws, ms, mn)``: how much sky is near each pixel, and the mean colours of the sky and of
    the rest near it (Gaussian weights of 2*SKY_BAND pixels)."""
    sig = 2.0 * SKY_BAND
    sf = sky.astype(np.float32)
    ws = cv2.GaussianBlur(sf, (0, 0), sig)
    wn = cv2.GaussianBlur(1 - sf, (0, 0), sig)
    ms = cv2.GaussianBlur(rgb * sf[..., None], (0, 0), sig) / np.maximum(ws, 1e-6)[..., None]
    mn = cv2.GaussianBlur(rgb * (1 - sf)[..., None], (0, 0), sig) / np.maximum(wn, 1e-6)[..., None]
    return ws, ms, mn


def _edge(rgb: np.ndarray, sky_small: np.ndarray, rgb_small: np.ndarray) -> np.ndarray:
    """The sky found on the small copy, on ``rgb`` (a larger copy, float 0..1): pixels where the
    upsampled mask is neither 0 nor 1 (and one pixel around) are decided by colour against the
    mean colours of the sky and of the rest near them, as :func:`_snap_band` does."""
    h, w = rgb.shape[:2]
    ws, ms, mn = _local_means(rgb_small, sky_small)
    up = cv2.resize(sky_small.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    band = ((up > 0) & (up < 1)).astype(np.uint8)
    k = 2 * int(math.ceil(w / sky_small.shape[1])) + 1
    band = cv2.dilate(band, np.ones((k, k), np.uint8)).astype(bool)
    out = up >= 0.5
    if not band.any():
        return out
    ys, xs = np.nonzero(band)
    sy, sx = sky_small.shape[0] / h, sky_small.shape[1] / w
    # the small copy's local means at the band's pixels (nearest small pixel is enough: they are smooth)
    iy = np.minimum(((ys + 0.5) * sy).astype(np.int32), sky_small.shape[0] - 1)
    ix = np.minimum(((xs + 0.5) * sx).astype(np.int32), sky_small.shape[1] - 1)
    px = rgb[ys, xs]
    ds = np.abs(px - ms[iy, ix]).sum(axis=1)
    dn = np.abs(px - mn[iy, ix]).sum(axis=1)
    _, colour = _sky_colours(px[None])
    out[ys, xs] = colour[0] & (ds < dn) & (ws[iy, ix] > 1e-3)
    return out


def _row_colour_gap(rgb: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    """How far the colours of regions ``a`` and ``b`` are apart, row by row (a sky is lighter near
    the horizon): the largest channel's mean absolute difference of their mean colours over rows
    both have at least 3 pixels in; infinite when fewer than 3 such rows."""
    na, nb = a.sum(axis=1), b.sum(axis=1)
    rows = (na >= 3) & (nb >= 3)
    if rows.sum() < 3:
        return math.inf
    ma = (rgb * a[..., None]).sum(axis=1)[rows] / na[rows, None]
    mb = (rgb * b[..., None]).sum(axis=1)[rows] / nb[rows, None]
    return float(np.abs(ma - mb).mean(axis=0).max())


def _touching_top(m: np.ndarray) -> np.ndarray:
    """The parts of ``m`` connected (4-way) to the top row."""
    n, lab = cv2.connectedComponents(m.astype(np.uint8), connectivity=4)
    top = np.unique(lab[0][m[0]])
    return np.isin(lab, top[top > 0]) if len(top) else np.zeros_like(m, bool)


def fill_small_holes(mask: np.ndarray, max_area: float) -> np.ndarray:
    """Bool ``mask`` with its enclosed holes (4-connected, not touching the border) of at most
    ``max_area`` pixels filled: a bird in the sky, an antler's lit palm a matte missed."""
    m = np.asarray(mask, bool)
    n, lab, stats, _ = cv2.connectedComponentsWithStats((~m).astype(np.uint8), connectivity=4)
    h, w = m.shape
    x, y, bw, bh, area = (stats[:, i] for i in range(5))
    small = (area <= max_area) & (x > 0) & (y > 0) & (x + bw < w) & (y + bh < h)
    small[0] = False  # the label of the mask's own pixels
    return m | small[lab]


def sky_mask(image: np.ndarray) -> np.ndarray:
    """The sky of a photo as a soft mask (all zeros when it shows none).

    Found on a copy :data:`SKY_SIDE` pixels on its long side, from colour, texture and position:

    1. texture is the largest of the three channels' gradients, averaged over 5x5 pixels, so a
       colour edge stops the sky where brightness does not change (a blue sea under a blue sky);
    2. sky colours: blue (``B - R >= 0.05``, ``B >= 0.35``), dark evening blue, or grey to white
       and not warm (``B - R >= SKY_NEUTRAL``, luma at least :data:`SKY_GREY_MIN`);
    3. the sky is the smooth regions (texture at most :data:`SKY_GROW_SMOOTH`) that hold a smooth
       (:data:`SKY_SMOOTH`) sky-coloured seed connected to the top edge and are at least
       :data:`SKY_COLOUR_SHARE` sky-coloured (a sunset's orange under its blue is kept, a grey
       studio wall with a few neutral pixels is not);
    4. regions cut off from the top by a bar, cables or branches are added when they begin above
       the horizon (the sky's lowest row, less :data:`SKY_HORIZON_MARGIN`) and have the sky's
       colour in the rows they share (:data:`SKY_COLOUR_DIST`); beside a blue sky, white
       low-texture regions within :data:`SKY_CLOUD_GAP` pixels of it that begin above the
       horizon are clouds and are added too; neither a piece nor a cloud may reach the bottom
       edge (where, by 5, the sky does not run: it is ground, such as a bright blurred background);
    5. no sky when it covers under :data:`SKY_MIN_AREA` of the picture, or more than
       :data:`SKY_MAX_BOTTOM` of the bottom edge (a smooth blue wall, water or bokeh down to the
       bottom is not a sky); holes under 1% of the picture are filled (a bird), and larger ones
       of a sky's colour above the horizon too (the blue between clouds, a thin or shaded cloud:
       :func:`_fill_sky_holes`);
    6. pixels within :data:`SKY_BAND` of the edge are decided by colour (nearer the sky around them
       or the rest), and again on a copy :data:`SKY_EDGE_SIDE` pixels on its long side for the
       pixels the upsampled edge leaves between 0 and 1; the result is upsampled to full
       resolution with an edge about 2 pixels wide on that copy (6 on a 4000-pixel photo).

    Not handled: the textured fringe of clouds, the glare around a low sun (warm and textured),
    night skies, sky seen through foliage, and smooth white or grey surfaces joined to the top
    edge (a white wall, concrete, a blurred bright background) that pass for an overcast sky.
    bench/regions.py measures it.

    Examples
    --------
    >>> img = np.zeros((60, 80, 3), np.uint8)
    >>> img[:25] = (110, 160, 235)  # blue above
    >>> img[25:] = np.random.default_rng(0).integers(40, 140, (35, 80, 3))  # rough ground below
    >>> m = sky_mask(img)
    >>> bool(m[:20].min() == 1 and m[30:].max() == 0)
    True
    """
    check_image(image)
    h, w = image.shape[:2]
    rgb = image if image.ndim == 3 else image[:, :, None]
    rgb = rgb[:, :, :3] if rgb.shape[2] >= 3 else np.repeat(rgb, 3, axis=2)
    f = min(1.0, SKY_SIDE / max(h, w))
    size = (max(8, round(w * f)), max(8, round(h * f)))
    small = cv2.resize(np.ascontiguousarray(rgb), size, interpolation=cv2.INTER_AREA)
    small = small.astype(np.float32) / np.float32(full_scale(image))
    sky = _sky_small(small)
    if not sky.any():
        return np.zeros((h, w), np.float32)
    # The edge is drawn again on a copy SKY_EDGE_SIDE pixels on its long side, by colour.
    fe = min(1.0, SKY_EDGE_SIDE / max(h, w))
    esize = (max(8, round(w * fe)), max(8, round(h * fe)))
    mid = cv2.resize(np.ascontiguousarray(rgb), esize, interpolation=cv2.INTER_AREA)
    edge = _edge(mid.astype(np.float32) / np.float32(full_scale(image)), sky, small)
    soft = cv2.GaussianBlur(edge.astype(np.float32), (0, 0), 0.7)
    out = cv2.resize(soft, (w, h), interpolation=cv2.INTER_LINEAR)
    out[out < 1e-3] = 0
    out[out > 1 - 1e-3] = 1
    return out




# --- the clouds in it ----------------------------------------------------------------------------

CLOUD_SIDE = 320  # the clouds are found on a copy this size on its long side
CLOUD_BELOW_BLUE = 0.1  # a cloud's saturation is this far under the blue sky's of its row (its 75th percentile) ...
CLOUD_BLEND = 0.1  # ... fully cloud this much further under, blended between
CLOUD_LIGHT = 0.45  # ... and its value (max / full scale) from this up (a grey storm cloud still is)
CLOUD_WHITE = (0.2, 0.6)  # white beside the sky and above its horizon (saturation under, value over) is sky too
CLOUD_MIN = 0.005  # clouds covering less than this share of the picture are none
CLOUD_TEXTURE = 0.04  # a cloud's mean luma gradient (per pixel of the copy) is under this (blended from half of it)


def clouds_mask(image: np.ndarray, *, sky: np.ndarray | None = None) -> np.ndarray:
    """The clouds of a photo's sky as a soft mask (all zeros when it shows none), on a copy
    :data:`CLOUD_SIDE` pixels on its long side, upsampled:

    1. the sky (:func:`sky_mask`), with the white regions beside it that begin above its horizon
       (bright white cloud tops the sky's own texture test leaves out, :data:`CLOUD_WHITE`);
    2. in it, what is greyer than the blue sky of its own row (its saturation :data:`CLOUD_BELOW_BLUE`
       under the row's 75th percentile, fully from :data:`CLOUD_BLEND` further) and not dark
       (:data:`CLOUD_LIGHT`). A row's own blue is the reference, so the pale haze along a horizon,
       greyer than the sky above it but as grey as the rest of its row, is no cloud. An overcast
       sky, grey in every row, shows none;
    3. soft: its mean gradient under :data:`CLOUD_TEXTURE` (not the lattice of a tower against the sky).

    "make the clouds darker" was refused (Easel could not find clouds on its own).

    >>> img = np.zeros((60, 80, 3), np.uint8); img[:40] = (70, 130, 230); img[5:20, 10:40] = 240
    >>> img[40:] = (60, 110, 40); m = clouds_mask(img)
    >>> bool(m[12, 25] > 0.9), bool(m[30, 60] < 0.1), bool(m[50, 40] == 0)
    (True, True, True)
    """
    check_image(image)
    h, w = image.shape[:2]
    sky_full = sky_mask(image) if sky is None else sky  # (``sky``: the photo's sky_mask, when the caller has it)
    if not sky_full.any():
        return sky_full
    rgb = image if image.ndim == 3 else image[:, :, None]
    rgb = rgb[:, :, :3] if rgb.shape[2] >= 3 else np.repeat(rgb, 3, axis=2)
    f = min(1.0, CLOUD_SIDE / max(h, w))
    size = (max(8, round(w * f)), max(8, round(h * f)))
    small = cv2.resize(np.ascontiguousarray(rgb), size, interpolation=cv2.INTER_AREA).astype(np.float32)
    small /= np.float32(full_scale(image))
    sky = cv2.resize(sky_full, size, interpolation=cv2.INTER_AREA) > 0.5
    hi, lo = small.max(axis=2), small.min(axis=2)
    sat = (hi - lo) / np.maximum(hi, 1e-3)
    # 1. white cloud tops beside the sky, above its horizon (the lowest sky pixel of the column)
    rows = np.arange(size[1])[:, None]
    horizon = np.where(sky.any(axis=0), size[1] - 1 - np.argmax(sky[::-1], axis=0), -1)
    white = (sat < CLOUD_WHITE[0]) & (hi > CLOUD_WHITE[1]) & (rows < horizon[None, :]) & ~sky
    n, lab = cv2.connectedComponents(white.astype(np.uint8), connectivity=8)
    near = cv2.dilate(sky.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    touching = np.unique(lab[near & white])
    region = sky | np.isin(lab, touching[touching > 0])
    # 2. greyer than its row's blue
    ref = np.full(size[1], np.nan, np.float32)
    for y in range(size[1]):
        if sky[y].sum() >= 3:
            ref[y] = np.percentile(sat[y][sky[y]], 75)
    if np.isnan(ref).all():
        return np.zeros((h, w), np.float32)
    ref = np.where(np.isnan(ref), np.nanpercentile(ref, 75), ref)[:, None]
    grey = np.clip((ref - CLOUD_BELOW_BLUE - sat) / CLOUD_BLEND, 0.0, 1.0)
    light = np.clip((hi - CLOUD_LIGHT) / 0.1, 0.0, 1.0)
    # soft, as clouds are: not the lattice of a tower seen against the sky (its grey pixels are greyer than blue)
    luma = small.mean(axis=2)
    texture = cv2.blur(np.hypot(cv2.Sobel(luma, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(luma, cv2.CV_32F, 0, 1, ksize=3)) / 8,
                       (5, 5))
    smooth = np.clip((CLOUD_TEXTURE - texture) / (0.5 * CLOUD_TEXTURE), 0.0, 1.0)
    m = (region * grey * light * smooth).astype(np.float32)
    m = cv2.GaussianBlur(m, (0, 0), 1.0)
    if float(m.mean()) < CLOUD_MIN:
        return np.zeros((h, w), np.float32)
    return np.clip(cv2.resize(m, (w, h), interpolation=cv2.INTER_LINEAR), 0.0, 1.0)


CLEAR_SIDE = 512  # the clear sky is interpolated on a copy this size on its long side (a sky is smooth)
CLEAR_MIN = 0.15  # a sky needs this share of clear blue (not cloud) to be filled from
CLEAR_CLOUD = 0.05  # a pixel whose cloud mask is over this is cloud ...
CLEAR_RIM = 0.012  # ... and so is what lies this share of the copy's long side around it (the clouds' soft rims)
CLEAR_AROUND = 0.9  # a cloud is removed only when this share of what borders it is sky


def clear_sky(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo with its clouds taken out of the sky, and the share of the sky they covered (0 and
    the photo unchanged when :func:`clouds_mask` finds none). "remove the clouds" asked for a drawing.

    The clouds (their mask over :data:`CLEAR_CLOUD`, grown by :data:`CLEAR_RIM`) are filled by a
    membrane through the clear sky around them (the smooth surface through its colours: a sky's
    gradient from the horizon up carries on), on a copy :data:`CLEAR_SIDE` pixels on its long
    side, blended in with a soft edge at full resolution. Only clouds with sky all around them
    (:data:`CLEAR_AROUND`) are taken: white against the land may be a sunlit rock or a wall. What is not sky (a tower, trees) is no
    source, so its colours do not bleed in, and is left as it is. Raises ``ValueError`` when too
    little clear sky is left to fill from (an overcast sky: under :data:`CLEAR_MIN` of it).

    >>> img = np.zeros((60, 80, 3), np.uint8); img[:40] = (70, 130, 230); img[5:20, 10:40] = 240
    >>> img[40:] = (60, 110, 40); out, share = clear_sky(img)
    >>> sky_left = np.abs(out[:40].astype(int) - (70, 130, 230)).max(axis=2)
    >>> out[12, 25].tolist(), float(sky_left.mean()) < 1, bool((out[40:] == img[40:]).all()), round(share, 2)
    ([70, 130, 230], True, True, 0.16)
    """
    from editor.fill_settle import membrane

    check_image(image)
    sky_full = sky_mask(image)
    clouds = clouds_mask(image, sky=sky_full)
    if not clouds.any():
        return image.copy(), 0.0
    h, w = image.shape[:2]
    f = min(1.0, CLEAR_SIDE / max(h, w))
    size = (max(8, round(w * f)), max(8, round(h * f)))
    small_clouds = cv2.resize(clouds, size, interpolation=cv2.INTER_AREA)
    sky = cv2.resize((sky_full > 0.5).astype(np.uint8), size, interpolation=cv2.INTER_NEAREST) > 0
    r = max(2, round(CLEAR_RIM * max(size)))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    open_sky = sky.copy()
    found = cv2.dilate((small_clouds > CLEAR_CLOUD).astype(np.uint8), disc) > 0
    # clear sky, off the clouds' rims and off the sky's own edge (a roof's edge beside it, taken for sky
    # on the copy, put a dark smudge above Neuschwanstein's roof)
    inner = cv2.erode(sky.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    known = inner & ~cv2.dilate(found.astype(np.uint8), disc).astype(bool)
    # a cloud is taken only where sky is all around it: white that touches land is left (Mount
    # Rushmore's sunlit granite beside a clear sky was "clouds", and filled with blue)
    cloud = np.zeros_like(found)
    n, pieces = cv2.connectedComponents(found.astype(np.uint8), connectivity=8)
    ring_disc = np.ones((3, 3), np.uint8)
    for k in range(1, n):
        piece = pieces == k
        ring = cv2.dilate(piece.astype(np.uint8), ring_disc).astype(bool) & ~piece
        inside = ring[1:-1, 1:-1]  # (the picture's edge is no land)
        if not inside.any() or float((sky | found)[1:-1, 1:-1][inside].mean()) >= CLEAR_AROUND:
            cloud |= piece
    sky |= cloud
    share = float(cloud.sum()) / max(1, int(sky.sum()))
    if not cloud.any():
        return image.copy(), 0.0
    if known.sum() < CLEAR_MIN * sky.sum():
        raise ValueError(f"the sky is {share:.0%} clouds: there is too little clear sky to fill them from")
    rgb = image if image.ndim == 3 else image[:, :, None]
    small = cv2.resize(np.ascontiguousarray(rgb), size, interpolation=cv2.INTER_AREA).astype(np.float32)
    small = small.reshape(size[1], size[0], -1)
    mean = small[known].mean(axis=0)
    filled = membrane(small - mean, known, ~known, fade=1e4) + mean  # (pure Laplace: no fading)
    filled = cv2.resize(filled, (w, h), interpolation=cv2.INTER_CUBIC).reshape(h, w, -1)
    # fully replaced over the clouds and their rims, fading out over the rims' width
    # (never over what is neither sky nor a cloud's own pixels: a wisp just above a roof took the roof's edge)
    alpha = np.clip(2.0 * cv2.GaussianBlur(cloud.astype(np.float32), (0, 0), r / 2), 0.0, 1.0) * (
        (open_sky | (small_clouds > CLEAR_CLOUD)) & ~known)
    alpha = np.clip(cv2.resize(alpha, (w, h), interpolation=cv2.INTER_LINEAR), 0.0, 1.0)[:, :, None]
    out = rgb.astype(np.float32) * (1.0 - alpha) + filled * alpha
    out = np.clip(np.rint(out), 0, full_scale(image)).astype(image.dtype)
    return (out if image.ndim == 3 else out[:, :, 0]), share
