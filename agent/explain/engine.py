"""The relation engine: what changed between two images, measured and grounded.

:func:`explain_images` takes a *before* and an *after* image of any sizes and returns an
:class:`Explanation`: a list of :class:`Finding` (DESIGN.md's schema: ``kind``, ``params``,
``before_box``, ``after_box``, ``sentence``) and the whole answer as text. It works in four steps,
all on small copies (at most :data:`WORK_SIDE` pixels a side, one common scale for both images) so
a pair of 12-megapixel photos takes well under a second:

1. **Align.** Identical arrays answer at once. Then the eight exact square transforms (quarter
   turns, with and without a mirror) are tried where the sizes allow, scored by the correlation of
   the aligned grey images, which no brightness, contrast or tint change can lower. Otherwise ORB
   features on histogram-equalised grey copies (of the image and of its mirror) are matched and a
   similarity transform (rotation, uniform scale, translation) is fitted with RANSAC. A pure crop is
   then refined at full resolution to the exact pixel.
2. **Geometry.** The before-to-after transform is read as flip, rotation (counter-clockwise degrees,
   like ``rotate``), scale and crop (the part of *before* that *after* still shows).
3. **Tone.** The aligned pixels are fitted robustly with ``after = a*before + b_c`` (one slope, one
   offset per channel; clipped pixels and local changes left out), which is exactly the form of
   Easel's operations: contrast ``p`` is ``a = 1 + p/100`` about mid-grey, brightness ``p`` adds
   ``p/100*255`` (reported in the "contrast, then brightness" order), and a tint toward colour ``c``
   at intensity ``i`` is ``a = 1 - i``, ``b = i*rgb(c)``, so ``i`` and ``rgb(c)`` invert directly.
   Black or transparent pixels where *before* had content are a removed background. A sharpening
   or blur (:mod:`agent.explain.detail`), a colour map the tone model cannot fit (saturation,
   warmth, hue, black and white, curves: :mod:`agent.explain.colour`) and a background replaced by
   a plain colour or blurred (:mod:`agent.explain.background`) are measured here too.
4. **Local changes.** What the global model does not explain is thresholded into regions. A region
   whose grey structure survives but whose colour changed is *recoloured*; one that gained detail
   in *after* is an *added* object, one that lost it (as an inpainted hole does) a *removed* one;
   a removed and an added region with the same content are one *moved* object. Objects are named
   with :func:`agent.perception.models.detect_objects` where the detector recognises them, else by
   colour.

Boxes are ``[x1, y1, x2, y2]`` pixels (``x2``, ``y2`` exclusive) of the full-size image they
belong to; a local finding has a box in both images (where the change is, or where it maps to).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from agent.explain import background as _bg
from agent.explain.align import (  # noqa: F401  (small_copy is also used by agent.explain.chat)
    apply_dihedral,
    box_to_full,
    box_to_small,
    chanmax,
    corr,
    dihedral_matrix,
    grey_of,
    keypoint_features,
    locate_crop,
    map_box,
    match_similarity,
    refine_ecc,
    refine_translation,
    same_frame,
    scale_matrix,
    small_copy,
    try_dihedral,
)
from agent.explain.background import (
    blur_explains,
    clipped_brighter,
    darkened_to_black,
    kept_box,
    matte_edge,
    replaced_background,
    subject_kept_sharp,
    unblended,
)
from agent.explain.colour import colour_model
from agent.explain.colour_lut import ColourTable, global_only
from agent.explain.detail import detail_change, unclipped
from agent.explain.fill import filled_or_pasted
from agent.explain.objects import find_content, inside, name_findings
from agent.explain.regional import (
    PART_BIG,
    PART_TINT,
    colourfulness,
    contrast_change,
    found_in,
    kept_colour,
    name_background,
    name_faces,
    name_region,
    name_sky,
    other_way,
    regional_part,
    sky_of,
    sky_part,
    solid,
    tonal_edit,
    tonal_part,
)
from agent.explain.reshoot import camera_motion, motion_sentence, new_content, real_change, tolerant_diff
from agent.explain.tone import clip_to_piles, fit_tone, tone_changes
from agent.explain.types import KINDS, Explanation, Finding, told
from agent.explain.words import local_sentence, rotation_sentence, unnamed_difference, where_phrase
from agent.perception.models import box_iou

__all__ = ["Explanation", "Finding", "explain_images", "KINDS", "WORK_SIDE"]

WORK_SIDE = 640  # side of the working copies; alignment and change maps are computed at this size










def _check(image: np.ndarray, name: str) -> None:
    if not isinstance(image, np.ndarray):
        raise TypeError(f"the {name} image must be a NumPy array, got {type(image).__name__}")
    if image.dtype not in (np.uint8, np.uint16):
        raise ValueError(f"the {name} image must be uint8 or uint16, got {image.dtype}")
    if not (image.ndim == 2 or (image.ndim == 3 and image.shape[2] in (3, 4))):
        raise ValueError(f"the {name} image must be (H, W), (H, W, 3) or (H, W, 4), got {image.shape}")
    if image.shape[0] < 2 or image.shape[1] < 2:
        raise ValueError(f"the {name} image is too small to compare ({image.shape[1]}x{image.shape[0]})")


# --- the engine -------------------------------------------------------------------------------


def explain_images(before: np.ndarray, after: np.ndarray, *, name_objects: bool = True,
                   max_local: int = 6) -> Explanation:
    """Find and measure what changed from ``before`` to ``after``.

    Parameters
    ----------
    before, after : ndarray
        Easel images (``(H, W)``, ``(H, W, 3)`` or ``(H, W, 4)``, ``uint8`` or ``uint16``) of any
        sizes.
    name_objects : bool
        Name local changes with the COCO detector (about 70 ms a region); off, they are named by
        colour only.
    max_local : int
        At most this many local changes are reported, largest first.

    Returns
    -------
    Explanation
        ``findings`` (a single ``identical`` finding when nothing changed) and ``text``.

    Examples
    --------
    >>> from skimage import data
    >>> from editor import ops
    >>> img = data.astronaut()
    >>> explain_images(img, ops.adjust_brightness(img, amount=20), name_objects=False).text
    'It is brighter by about 20 points (brightness +20).'
    """
    _check(before, "before")
    _check(after, "after")
    hb, wb = before.shape[:2]
    ha, wa = after.shape[:2]
    bsize, asize = (wb, hb), (wa, ha)
    if (before.shape == after.shape and before.dtype == after.dtype
            and np.array_equal(before[::97], after[::97])  # a cheap look first (150 ms at 12 MP)
            and np.array_equal(before, after)):
        f = Finding("identical", {"exact": True}, [0, 0, wb, hb], [0, 0, wa, ha],
                    "The two images are identical.")
        return Explanation([f], f.sentence, bsize, asize, [[1, 0, 0], [0, 1, 0]], 1.0)

    # One scale for both copies keeps a crop at the size it has in the original; small images
    # are not enlarged, and a small crop of a big photo still gets enough pixels to match.
    biggest = max(wb, hb, wa, ha)
    f = min(1.0, WORK_SIDE / biggest)
    smallest = min(max(wb, hb), max(wa, ha))
    f = min(1.0, max(f, min(200 / smallest, 2 * WORK_SIDE / biggest)))
    bs_size = (max(2, round(wb * f)), max(2, round(hb * f)))
    as_size = (max(2, round(wa * f)), max(2, round(ha * f)))
    b_rgb, b_alpha = small_copy(before, bs_size)
    a_rgb, a_alpha = small_copy(after, as_size)
    Sb, Sa = scale_matrix(bsize, bs_size), scale_matrix(asize, as_size)
    bg, ag = grey_of(b_rgb), grey_of(a_rgb)

    # -- 1. align
    M = None  # 3x3 full-size before -> after
    exact = False
    weak = False  # an alignment assumed, not found
    loc = None
    dih = try_dihedral(bsize, asize, bg, ag, a_alpha)
    if dih is not None and dih[1] > 0.8:
        M, exact = dih[0], True
    else:
        loc = locate_crop(bg, ag)
        if loc is not None:  # translation only, refined to the exact pixel below
            ms = np.array([[1, 0, -loc[0]], [0, 1, -loc[1]], [0, 0, 1]], np.float64)
            M = np.linalg.inv(Sa) @ ms @ Sb
        else:
            bmask = None if b_alpha is None else cv2.erode((b_alpha > 127).astype(np.uint8),
                                                           np.ones((7, 7), np.uint8))
            amask = None if a_alpha is None else cv2.erode((a_alpha > 127).astype(np.uint8),
                                                           np.ones((7, 7), np.uint8))
            cands = []
            for sift in (False, True):  # SIFT when ORB finds too little (flat or saturated images)
                if cands and cands[0][0] >= 15:
                    break
                a_feat = keypoint_features(ag, amask, sift)
                for flipped in (False, True):
                    if cands and cands[0][0] >= 60:  # a clear match without the mirror
                        break
                    src = bg[:, ::-1].copy() if flipped else bg
                    smask = None if bmask is None else (bmask[:, ::-1].copy() if flipped else bmask)
                    r = match_similarity(keypoint_features(src, smask, sift), a_feat)
                    if r is not None:
                        Fs = dihedral_matrix(0, flipped, *bs_size)
                        ms = np.vstack([r[0], [0, 0, 1]]) @ Fs
                        cands.append((r[1], flipped, np.linalg.inv(Sa) @ ms @ Sb))
                cands.sort(key=lambda c: -c[0])
            if cands and cands[0][0] >= 10:
                M = cands[0][2]
            elif dih is not None and dih[1] > 0.5:
                M, exact = dih[0], True
            elif bsize == asize:
                # Nothing to match (a flat picture, say): same size suggests the same frame;
                # checked below by how much of the picture that explains.
                M, exact, weak = np.eye(3), True, True
    if M is None:
        return _unrelated(bsize, asize)

    if not exact and loc is None:
        M = refine_ecc(M, bg, ag, Sb, Sa)
        if same_frame(M, dih, bg, ag, Sb, Sa):
            M, exact = dih[0], True

    # -- 2. geometry
    lin = M[:2, :2]
    flipped = np.linalg.det(lin) < 0
    Fb = dihedral_matrix(0, True, wb, hb)
    R = M @ Fb if flipped else M  # the rotation-and-scale part, applied after the mirror
    scale = float(math.hypot(R[0, 0], R[0, 1]))
    angle = math.degrees(math.atan2(R[0, 1], R[0, 0])) % 360.0
    if exact:
        angle = round(angle / 90) * 90 % 360
        scale = 1.0
    if flipped and abs(angle - 180) < 1.0:  # mirror left-right + half turn is a top-bottom mirror
        flip_axis, angle = "vertical", 0.0
    else:
        flip_axis = "horizontal" if flipped else None
    if min(angle, 360 - angle) < 0.5:
        angle = 0.0
    if abs(scale - 1) < 0.02:
        scale = 1.0
    # A pure crop (translation only) is refined to the exact pixel at full size.
    pure_shift = not flipped and angle == 0.0 and scale == 1.0 and not exact
    if pure_shift:
        tx, ty = -M[0, 2], -M[1, 2]
        off = refine_translation(before, after, tx, ty, radius=int(math.ceil(3 / f)) + 2)
        if off is not None:
            M = np.array([[1, 0, -off[0]], [0, 1, -off[1]], [0, 0, 1]], np.float64)
        else:
            M = np.array([[1, 0, -round(tx)], [0, 1, -round(ty)], [0, 0, 1]], np.float64)
    Minv = np.linalg.inv(M)

    findings: list[Finding] = []
    if flip_axis:
        findings.append(Finding("flip", {"axis": flip_axis}, [0, 0, wb, hb], [0, 0, wa, ha],
                                "It was mirrored left to right (flipped horizontally)."
                                if flip_axis == "horizontal" else
                                "It was turned upside down by a top-to-bottom mirror (flipped vertically)."))
    if angle:
        a_r = round(angle, 1)
        findings.append(Finding("rotate", {"degrees": a_r, "clockwise_degrees": round((360 - a_r) % 360, 1)},
                                [0, 0, wb, hb], [0, 0, wa, ha], rotation_sentence(a_r)))
    if scale != 1.0:
        findings.append(Finding("scale", {"factor": round(scale, 3)}, [0, 0, wb, hb], [0, 0, wa, ha],
                                f"It was {'enlarged' if scale > 1 else 'shrunk'} to {scale * 100:.0f}% "
                                f"of its size."))
    # What part of before does after still show?
    corners = np.array([[0, 0, 1], [wa, 0, 1], [0, ha, 1], [wa, ha, 1]], np.float64).T
    cb = (Minv @ corners)[:2]
    vis = [max(0, cb[0].min()), max(0, cb[1].min()), min(wb, cb[0].max()), min(hb, cb[1].max())]
    vis = [int(round(v)) for v in vis]
    vis_frac = max(0, vis[2] - vis[0]) * max(0, vis[3] - vis[1]) / (wb * hb)
    if vis_frac < 0.97 and not exact:
        findings.append(Finding(
            "crop", {"box": vis, "kept_fraction": round(vis_frac, 3)}, vis, [0, 0, wa, ha],
            f"It was cropped to the part from ({vis[0]}, {vis[1]}) to ({vis[2]}, {vis[3]}) of the "
            f"original, {where_phrase(vis, bsize).replace('in the centre', 'around the centre')}, keeping "
            f"{vis_frac * 100:.0f}% of it."))

    # -- 3. tone, on the aligned small copies
    Ms = Sa @ M @ np.linalg.inv(Sb)
    if exact:
        k = int(round(angle / 90)) % 4
        mirror = flip_axis is not None
        if flip_axis == "vertical":  # vertical mirror = horizontal mirror then a half turn
            k = (k + 2) % 4
        warped = apply_dihedral(b_rgb, k, mirror)
        if warped.shape[:2] != a_rgb.shape[:2]:
            warped = cv2.resize(warped, as_size, interpolation=cv2.INTER_LINEAR)
        valid = np.ones(a_rgb.shape[:2], bool)
    else:
        warped = cv2.warpAffine(b_rgb, Ms[:2], as_size, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT)
        foot = cv2.warpAffine(np.full(b_rgb.shape[:2], 255, np.uint8), Ms[:2], as_size,
                              flags=cv2.INTER_NEAREST, borderMode=cv2.BORDER_CONSTANT)
        valid = cv2.erode(foot, np.ones((5, 5), np.uint8)) > 0
    if b_alpha is not None:  # transparent parts of before carry no colour to compare
        wal = (apply_dihedral(b_alpha, 0, False) if not exact else None)
        if exact:
            k = int(round(angle / 90)) % 4
            wal = apply_dihedral(b_alpha, (k + 2) % 4 if flip_axis == "vertical" else k,
                                  flip_axis is not None)
            if wal.shape != a_rgb.shape[:2]:
                wal = cv2.resize(wal, as_size, interpolation=cv2.INTER_NEAREST)
        else:
            wal = cv2.warpAffine(b_alpha, Ms[:2], as_size, flags=cv2.INTER_NEAREST)
        valid &= wal > 127
    if not valid.any():
        valid = np.ones(a_rgb.shape[:2], bool)
    # Content beyond the original's frame: no edit makes that, a second shot does.
    reshoot = not exact and not flip_axis and new_content(valid, a_rgb, a_alpha) > 0
    if reshoot:
        motion = camera_motion(M, bsize, asize)
        findings = [fd for fd in findings if fd.kind not in ("scale", "crop", "rotate")]
        findings.insert(0, Finding("reshoot", motion, [0, 0, wb, hb], [0, 0, wa, ha],
                                   motion_sentence(motion)))

    aligned = warped  # before's own colours, aligned: what a global colour map is a function of
    # A removed background: black or transparent in after where before showed something.
    wf = warped.astype(np.float32)
    af = a_rgb.astype(np.float32)
    detail = None
    if (exact or pure_shift) and not weak and not reshoot:  # resampling would blur by itself
        from editor.adjust import detail_scale

        sc = as_size[0] / wa
        detail = detail_change(grey_of(warped).astype(np.float32), grey_of(a_rgb).astype(np.float32),
                               valid & unclipped(warped, a_rgb), detail_scale(before.shape) * sc, sc)
        if detail is not None and detail[1]["amount"] < 0 and subject_kept_sharp(wf, af, valid):
            detail = None  # the background blurred about a small subject (a bison of a herd), not it all
        if detail is not None:  # from here on, "before" is the before picture sharpened or blurred
            wf = np.clip(detail[3](wf), 0, 255)
            warped = np.clip(wf + 0.5, 0, 255).astype(np.uint8)
    # First tone fit over everything aligned: black background pixels are clipped (0) and so
    # left out already, and the robust fit ignores the rest of what changed.
    a, b, sigma = fit_tone(wf, af, valid)
    # Saturation, warmth, hue, black and white, curves: a colour map the tone model cannot fit.
    cmodel = None if reshoot else colour_model(wf, af, valid, a, b, warped)
    if (exact or pure_shift) and not weak and not reshoot and detail is None and a_alpha is None:
        tonal = tonal_edit(wf, af, valid)
        if tonal is not None:  # "brighten the highlights": said as such, not as a white background
            findings.append(Finding("tone_curve", tonal[0], [0, 0, wb, hb], [0, 0, wa, ha], tonal[1]))
            valid = valid & ~cv2.dilate(tonal[2].astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
            a, b, cmodel = 1.0, np.zeros(3), None
    if a_alpha is not None:
        dark = a_alpha < 128
    else:
        # Black where the tone change alone would have left something visible.
        pred0 = chanmax(cmodel.apply(wf) if cmodel else a * wf + b.astype(np.float32)[None, None, :])
        dark = (chanmax(a_rgb) <= 6) & (pred0 > 30)
    bg_mask = dark & valid
    bg_frac = float(bg_mask.sum()) / max(1, int(valid.sum()))
    if bg_frac > 0.05 and a_alpha is None:
        # Black pixels must form large areas, not just dark spots of the photo.
        n, lab, stats, _ = cv2.connectedComponentsWithStats(bg_mask.astype(np.uint8), 8)
        big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] > 0.01 * bg_mask.size]
        bg_mask = np.isin(lab, big) if big else np.zeros_like(bg_mask)
        bg_frac = float(bg_mask.sum()) / max(1, int(valid.sum()))
    has_bg = bg_frac > 0.05 and (a_alpha is not None or not darkened_to_black(wf, af, bg_mask, valid))
    bg_colour = None  # a background replaced by a plain colour other than black
    if not has_bg and a_alpha is None and not reshoot:
        pred1 = np.clip(cmodel.apply(wf) if cmodel else a * wf + b.astype(np.float32), 0, 255)  # clipped white is no background
        hit = replaced_background(a_rgb, pred1, valid)
        if hit is not None:
            bg_colour, bg_mask = hit
            bg_frac = float(bg_mask.sum()) / max(1, int(valid.sum()))
            has_bg = True
    if has_bg:
        # A cutout's soft matte darkens the subject's rim: refit far from the background only.
        dist = cv2.distanceTransform((~bg_mask).astype(np.uint8), cv2.DIST_L2, 3)
        plain = unblended(wf, af, bg_colour) if bg_colour else valid  # the matte is no tint
        fit_mask = valid & plain & (dist > max(12, 0.03 * max(as_size)))
        if fit_mask.sum() < 0.02 * valid.size:
            fit_mask = valid & plain & (dist > 4)
        if fit_mask.any():
            a, b, sigma = fit_tone(wf, af, fit_mask)
            cmodel = cmodel and colour_model(wf, af, fit_mask, a, b, warped)
            if cmodel and not bg_colour and cmodel.findings[0][0] in ("tone_curve", "color_changed"):
                cmodel = None  # the cutout's soft matte bends the tones near it: not a curve of its own
        elif bg_colour:  # all that is kept is blended by the matte: no tone change can be measured
            a, b, cmodel = 1.0, np.zeros(3), None
    if reshoot:
        # A least-squares slope shrinks toward 0 when the pixels are not exactly aligned, as
        # between two shots; means and spreads of the common part do not.
        sel = valid & ~bg_mask
        mb, ma = wf[sel].mean(axis=0), af[sel].mean(axis=0)
        a = float(np.clip(grey_of(a_rgb)[sel].std() / max(1e-3, float(grey_of(warped)[sel].std())), 0.5, 2.0))
        b = (ma - a * mb).astype(np.float64)
    part = None  # the part a regional edit changed ("brighten the sky"): a local change below
    sky = None  # the before picture's sky on the small copy, once looked for
    if (exact or pure_shift) and not weak and not reshoot and not has_bg and detail is None:
        part = regional_part(wf, af, valid, cmodel, a, b)
        if part is not None:
            a, b, cmodel = 1.0, np.zeros(3), None
            sky = sky_of(warped)
            tonal = None if sky_part(part, sky) else tonal_part(wf, af, part, valid)
            if tonal is not None:  # "darken the shadows": said as such, not as scattered local changes
                findings.append(Finding("tone_curve", tonal[0], [0, 0, wb, hb], [0, 0, wa, ha], tonal[1]))
                valid = valid & ~cv2.dilate(part.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
                part = None
    tone = [Finding(kind, params, [0, 0, wb, hb], [0, 0, wa, ha], sentence)
            for kind, params, sentence in (cmodel.findings if cmodel else tone_changes(a, b, has_bg))]
    if cmodel:  # from here on, "before" is the before picture with the colour change made
        wf = cmodel.apply(wf)
        warped = np.clip(wf + 0.5, 0, 255).astype(np.uint8)
        a, b = 1.0, np.zeros(3)
    full_b, full_a = [0, 0, wb, hb], [0, 0, wa, ha]
    tone.sort(key=lambda t: t.kind != "brightness")  # brightness is what people ask about first
    if reshoot:  # exposure may differ between shots; the rest is the misalignment's
        tone = [t for t in tone if t.kind == "brightness" and abs(t.params["amount"]) >= 8]
    if detail is not None:
        tone.append(Finding(detail[0], detail[1], [0, 0, wb, hb], [0, 0, wa, ha], detail[2]))
    findings += tone
    blur_sd = None  # a background blur's sigma, once one is found
    if has_bg:
        shown = (a_alpha >= 128) if a_alpha is not None else (chanmax(a_rgb) > 6)
        keep = (valid & shown).astype(np.uint8)
        n, lab, stats, _ = cv2.connectedComponentsWithStats(keep, 8)
        big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] > 0.01 * keep.size]
        ys, xs = np.nonzero(np.isin(lab, big)) if big else np.nonzero(keep)
        sb = kept_box(valid, bg_mask) if bg_colour else (
            [int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1] if len(xs) else None)
        if sb:
            ab = box_to_full(sb, Sa)
            bb = map_box(ab, Minv, bsize)
        else:
            ab, bb = None, None
        if bg_colour:
            findings.append(Finding("background_replaced", {"color": bg_colour, "replaced_fraction": round(bg_frac, 3)},
                                    bb, ab, f"The background was replaced by plain {bg_colour}; the main "
                                    "subject is kept."))
        else:
            findings.append(Finding("background_removed",
                                    {"removed_fraction": round(bg_frac, 3),
                                     "transparent": a_alpha is not None},
                                    bb, ab,
                                    "The background was removed (now " +
                                    ("transparent" if a_alpha is not None else "black") +
                                    "); only the main subject is left."))
    elif not reshoot:
        blurred, no_tone = blur_explains(wf, af, valid, a, b)
        if blurred is not None and not no_tone and (a != 1.0 or np.any(b)):
            # the tone fit took the blurred part's lost contrast for the picture's: none on the rest
            rest = valid & ~cv2.dilate(blurred.astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)
            no_tone = rest.sum() >= 0.02 * valid.size and not tone_changes(*fit_tone(wf, af, rest)[:2], False)
        if blurred is not None:
            if no_tone:  # the blur lowered the contrast the tone fit saw: no tone change of its own
                findings, a, b = [fd for fd in findings if fd not in tone], 1.0, np.zeros(3)
            bg_mask = blurred
            blur_pred = np.clip(a * wf + b.astype(np.float32), 0, 255)
            blur_sd = _bg.blur_sigma(blur_pred, af, blurred)  # "less" blur: the soft edge blends toward a weaker one
            sb = _bg.blurred_subject_box(blur_pred, af, valid, blurred, blur_sd)
            ab = box_to_full(sb, Sa) if sb else None
            findings.append(Finding("background_blurred", {"blurred_fraction": round(float(blurred.mean()), 3)},
                                    map_box(ab, Minv, bsize) if ab else None, ab,
                                    "The background was blurred; the main subject is kept sharp."))

    # -- 4. local changes
    pred = np.clip(a * wf + b.astype(np.float32)[None, None, :], 0, 255)
    tone_on = a != 1.0 or bool(np.any(b))  # a combined edit may have clipped in an earlier step
    if tone_on:
        pred = clip_to_piles(pred, af, wf, valid)
    pb = cv2.GaussianBlur(pred, (5, 5), 0)
    abl = cv2.GaussianBlur(af, (5, 5), 0)
    diff = cv2.absdiff(abl, pb)
    if reshoot:  # parallax moves things by a few pixels: a change must survive small shifts
        diff = tolerant_diff(abl, pb, max(2, int(0.025 * max(as_size))))
    elif (angle or scale != 1.0) and not exact:  # a rotation or scale is estimated to a fraction of a degree: the far
        diff = tolerant_diff(abl, pb, 1)  # parts of the picture may sit a pixel off (a cup's rim)
    # Where the model clips, full-size pixels clipped inside one working pixel: not trustworthy.
    diff[((pb > 240) & (abl > 235)) | ((pb < 15) & (abl < 20))] = 0
    res = chanmax(diff)
    if a < 1:  # compare in before's units: lower contrast shrinks every difference
        res = res / max(a, 0.3)
    region_mask = valid & ~cv2.dilate(bg_mask.astype(np.uint8), np.ones((9, 9), np.uint8)).astype(bool)
    if has_bg and not bg_colour:
        # The matte's soft edge only darkens (colour times alpha): not a change of its own.
        region_mask &= chanmax(af - pred) > 6
    elif bg_colour or "background_blurred" in [fd.kind for fd in findings]:  # ... or blends toward
        region_mask &= ~matte_edge(pred, af, bg_colour, blur_sd, None if bg_colour else bg_mask)  # the new background (a colour, the blur)
    rs = res[region_mask]
    noise = 1.4826 * float(np.median(rs)) if rs.size else 0.0
    thr = max(28.0, 6 * noise)
    # Hysteresis: strong differences seed a region, which grows through weaker ones around them
    # (the edges of a filled-in hole differ less than its middle).
    strong = (res > thr) & region_mask
    weak_px = ((res > max(14.0, 0.45 * thr)) & region_mask).astype(np.uint8)
    n_w, lab_w = cv2.connectedComponents(weak_px, connectivity=8)
    seeds = np.unique(lab_w[strong])
    changed = np.isin(lab_w, seeds[seeds > 0]) if len(seeds) else strong
    other = None  # a piece of the part that went the other way: a change of its own ("... and brighten the giraffe")
    if part is not None:  # changed by a few levels all over it, under the threshold of a local change
        other = other_way(wf, af, part)
        if other is not None:
            part = part & ~other
        changed |= part & region_mask
        if other is not None:
            changed &= ~cv2.dilate(other.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    unchanged_fraction = 1 - float(changed.sum()) / max(1, int(region_mask.sum()))
    if weak and unchanged_fraction < 0.5:
        return _unrelated(bsize, asize)
    # Interpolated (not exactly transposed) pixels leave faint edge residue: larger regions only.
    local = _local_changes(changed, warped, a_rgb, a, b, as_size, Sa, Minv, bsize, asize, max_local,
                           min_area=0.0025 if exact or pure_shift else 0.004, piles_of=valid if tone_on else None,
                           valid=valid, aligned=aligned, part=part)
    if blur_sd is not None:  # a blurred background's own pieces its found part left out
        local = [fd for fd in local if not _bg.blurred_there(blur_pred, af, box_to_small(fd.after_box, Sa), blur_sd, bg_mask)]
    if other is not None:
        local += _local_changes(other & region_mask, warped, a_rgb, a, b, as_size, Sa, Minv, bsize, asize, max_local,
                                min_area=0.002, valid=valid, aligned=aligned)
    if reshoot:
        pred_small = np.clip(a * wf + b.astype(np.float32)[None, None, :], 0, 255).astype(np.uint8)
        local = [fd for fd in local
                 if real_change(fd.kind, box_to_small(fd.after_box, Sa), pred_small, a_rgb)]
    if (not local and not tone and part is None and (exact or pure_shift) and not weak and not reshoot
            and not has_bg and detail is None and blur_sd is None):  # (what a blurred background left is its own)
        # Nothing said yet: a change too slight for a local change's threshold, in a few pieces
        # under PART_BIG of the picture ("darken the horse" by 10: its body and legs), where the
        # rest kept colours a saturation or hue change would have moved, is said where it is
        # rather than "they differ in a way I cannot name" (a larger part is regional_part's).
        quiet = (region_mask & (chanmax(np.abs(af - wf)) > 2)).astype(np.uint8)
        quiet = cv2.morphologyEx(quiet, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))  # dark parts moved less
        quiet = cv2.morphologyEx(quiet, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)) > 0
        share = quiet.sum() / max(1, int(region_mask.sum()))
        if 0.002 <= share < PART_BIG and solid(quiet, pieces=5) and kept_colour(wf, region_mask & ~quiet):
            local = _local_changes(quiet, warped, a_rgb, a, b, as_size, Sa, Minv, bsize, asize, max_local,
                                   min_area=0.002, valid=valid, aligned=aligned, part=quiet)
    if local and name_objects:
        name_findings(local, before, after)
    if any(fd.kind in ("region_changed", "object_recolored") and (not fd.params.get("object") or fd.params.get("in_part"))
           for fd in local):
        name_sky(local, sky if sky is not None else sky_of(warped), Sa, part)
    if local and any(fd.params.get("colour_map_r2", 0.0) >= 0.7 and not fd.params.get("region") for fd in local):
        local = name_region(local, found_in(warped, "clouds"), "clouds", Sa, wf, af)  # "make the clouds darker"
    if local and any(fd.params.get("colour_map_r2", 0.0) >= 0.7 and not fd.params.get("region") for fd in local):
        local = name_region(local, found_in(warped, "greenery"), "greenery", Sa, wf, af)  # "make the trees darker"
    if local and name_objects:
        name_faces(local, before)  # "brighten the face"
    if part is not None:
        name_background(local, part, Sa)
        # the sky said as one: a piece of it cut off by a tower is not "the part at the top right"
        if any(fd.params.get("region") and fd.params.get("in_part") for fd in local):
            local = [fd for fd in local if fd.params.get("region") or not fd.params.get("in_part")
                     or fd.kind not in ("region_changed", "object_recolored")]
    for fnd in local:
        local_sentence(fnd, bsize, asize)
    findings += local

    if not findings:
        kind, sent = unnamed_difference(before, after)
        findings = [Finding(kind, {"exact": False, "residual": round(sigma, 2)},
                            full_b, full_a, sent)]
    text = told(findings)
    return Explanation(findings, text, bsize, asize, [[float(v) for v in row] for row in M[:2]],
                       unchanged_fraction)


def _unrelated(bsize: tuple[int, int], asize: tuple[int, int]) -> Explanation:
    text = ("These look like different pictures: I could not match any part of one to the "
            "other, so I cannot say what changed.")
    fnd = Finding("region_changed", {"aligned": False}, [0, 0, *bsize], [0, 0, *asize], text)
    return Explanation([fnd], text, bsize, asize, None, 0.0, aligned=False)


def _colour_map_r2(src: np.ndarray, dst: np.ndarray) -> float:
    """How much of ``dst``'s variation one affine colour map (3x4) of ``src`` explains (N x 3)."""
    if len(src) < 12:
        return 0.0
    X = np.hstack([src, np.ones((len(src), 1))])
    coef, *_ = np.linalg.lstsq(X, dst, rcond=None)
    # Trimmed: the worst 15% (unchanged pixels the region's outline took in) are left out.
    r = ((dst - X @ coef) ** 2).sum(axis=1)
    keep = r <= np.quantile(r, 0.85)
    X, dst = X[keep], dst[keep]
    coef, *_ = np.linalg.lstsq(X, dst, rcond=None)
    ss_res = float(((dst - X @ coef) ** 2).sum())
    ss_tot = float(((dst - dst.mean(axis=0)) ** 2).sum())
    return 1 - ss_res / ss_tot if ss_tot > 1e-6 else 0.0


def _detail(grey: np.ndarray, mask: np.ndarray) -> float:
    lap = cv2.Laplacian(grey, cv2.CV_32F, ksize=1)
    m = cv2.erode(mask.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    if m.sum() < 10:
        m = mask
    return float(np.abs(lap[m]).mean()) if m.any() else 0.0


def _rim_step(grey: np.ndarray, mask: np.ndarray) -> float:
    """Mean gradient on the region's outline."""
    m = mask.astype(np.uint8)
    rim = (cv2.dilate(m, np.ones((3, 3), np.uint8)) - cv2.erode(m, np.ones((3, 3), np.uint8))).astype(bool)
    return _texture(grey, rim)


def _texture(grey: np.ndarray, mask: np.ndarray) -> float:
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.sqrt(gx * gx + gy * gy)
    return float(mag[mask].mean()) if mask.any() else 0.0


def _local_changes(changed, warped, a_rgb, a, b, as_size, Sa, Minv, bsize, asize, max_local,
                   min_area=0.0025, piles_of=None, valid=None, aligned=None, part=None):
    """Regions of ``changed`` (small after-frame mask) as local findings with both boxes.

    A region that the rest of the picture's colour map explains (:mod:`agent.explain.colour_lut`:
    the same before colour went to the same after colour outside it) is the global edit's, not a
    change of its own, and is left out."""
    h, w = changed.shape
    area = h * w
    m = cv2.morphologyEx(changed.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    ksz = max(5, int(round(min(h, w) * 0.025)) | 1)
    m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (ksz, ksz)))
    n, lab, stats, _ = cv2.connectedComponentsWithStats(m, 8)
    comps = []
    for i in range(1, n):
        x, y, cw, ch, ar = stats[i]
        if ar < max(30, min_area * area):
            continue
        comps.append(([int(x), int(y), int(x + cw), int(y + ch)], lab == i, int(ar)))
    # Parts of one change broken up by the threshold: merge boxes that overlap once padded.
    merged = True
    while merged and len(comps) > 1:
        merged = False
        for i in range(len(comps)):
            for j in range(i + 1, len(comps)):
                bi, bj = comps[i][0], comps[j][0]
                pad = 0.02 * max(w, h)
                if (bi[0] - pad < bj[2] and bj[0] - pad < bi[2] and bi[1] - pad < bj[3]
                        and bj[1] - pad < bi[3]):
                    box = [min(bi[0], bj[0]), min(bi[1], bj[1]), max(bi[2], bj[2]), max(bi[3], bj[3])]
                    comps[i] = (box, comps[i][1] | comps[j][1], comps[i][2] + comps[j][2])
                    del comps[j]
                    merged = True
                    break
            if merged:
                break
    comps.sort(key=lambda c: -c[2])
    comps = comps[: max_local + 2]

    pred = np.clip(a * warped.astype(np.float32) + b[None, None, :], 0, 255)
    if piles_of is not None:  # channels clipped by an earlier step of a combined edit
        pred = clip_to_piles(pred, a_rgb.astype(np.float32), warped.astype(np.float32), piles_of)
    pred = pred.astype(np.uint8)
    pg, ag = grey_of(pred), grey_of(a_rgb)
    plab = cv2.cvtColor(pred, cv2.COLOR_RGB2LAB).astype(np.float32)
    alab = cv2.cvtColor(a_rgb, cv2.COLOR_RGB2LAB).astype(np.float32)
    table = None
    if comps:
        grown = cv2.dilate(m, np.ones((9, 9), np.uint8)).astype(bool)
        table = ColourTable(warped if aligned is None else aligned, a_rgb, pred,
                            (valid if valid is not None else True) & ~grown, valid)
    found = []
    for box, mask, ar in comps:
        x1, y1, x2, y2 = box
        # A regional edit's part is most of what the colour map was fitted on: it follows itself.
        in_part = part is not None and (mask & part).sum() >= 0.5 * mask.sum()
        if not in_part and global_only(table, mask):
            continue
        sub = mask[y1:y2, x1:x2]
        # The colour map is judged inside, away from the rim where old and new pixels mix.
        inner = cv2.erode(sub.astype(np.uint8), np.ones((7, 7), np.uint8)).astype(bool)
        if inner.sum() < 20:
            inner = sub
        pr = pred[y1:y2, x1:x2][inner].astype(np.float64)
        ar_ = a_rgb[y1:y2, x1:x2][inner].astype(np.float64)
        r2 = _colour_map_r2(pr, ar_)
        dchroma = float(np.linalg.norm(alab[y1:y2, x1:x2][sub][:, 1:].mean(axis=0)
                                       - plab[y1:y2, x1:x2][sub][:, 1:].mean(axis=0)))
        std_b, std_a = float(pg[y1:y2, x1:x2][sub].std()), float(ag[y1:y2, x1:x2][sub].std())
        # Fine detail (Laplacian energy) inside, and the step along the rim: a pasted object
        # brings both; a filled-in hole has less detail than before and no rim.
        db_, da_ = _detail(pg, mask), _detail(ag, mask)
        rb, ra = _rim_step(pg, mask), _rim_step(ag, mask)
        info = {"colour_map_r2": round(r2, 3), "chroma_change": round(dchroma, 1),
                "detail_before": round(db_, 2), "detail_after": round(da_, 2),
                "rim_before": round(rb, 2), "rim_after": round(ra, 2),
                "area_fraction": round(ar / area, 4)}
        k = contrast_change(pred[y1:y2, x1:x2][inner], a_rgb[y1:y2, x1:x2][inner])  # "make the sky more dramatic"
        if k is not None:
            info["contrast"] = k
        flat = std_b < 6 and std_a < 6
        # signed: + lighter after (OpenCV's 8-bit L, 0..255); the sentence says which way
        signed_dl = float(alab[y1:y2, x1:x2][inner][:, 0].mean() - plab[y1:y2, x1:x2][inner][:, 0].mean())
        dl = abs(signed_dl)
        info["lightness_change"] = round(signed_dl, 1)
        shift = alab[y1:y2, x1:x2][sub][:, 1:].mean(axis=0) - plab[y1:y2, x1:x2][sub][:, 1:].mean(axis=0)
        info["chroma_shift"] = [round(float(v), 1) for v in shift]  # a*, b*: + redder, + yellower
        # a regional edit's part made black and white: its colours gone, whatever they were
        sat_b = float(np.linalg.norm(plab[y1:y2, x1:x2][sub][:, 1:] - 128, axis=1).mean())
        sat_a = float(np.linalg.norm(alab[y1:y2, x1:x2][sub][:, 1:] - 128, axis=1).mean())
        if in_part and sat_b >= 4 and sat_a < 0.35 * sat_b:
            info["grayscale"] = True
        if sat_b >= 4:  # duller or more colourful: the shift runs along the part's own colour ("less green grass")
            own = plab[y1:y2, x1:x2][sub][:, 1:].mean(axis=0) - 128
            along = float(np.dot(shift, own) / max(1e-6, float(np.linalg.norm(shift) * np.linalg.norm(own))))
            info["saturation_ratio"], info["shift_along_colour"] = round(sat_a / sat_b, 2), round(along, 2)
        k = colourfulness(plab[y1:y2, x1:x2][sub], alab[y1:y2, x1:x2][sub]) if in_part and sat_b >= 4 else None
        if k is not None:
            info["colourfulness"] = round(k, 2)
        if r2 > 0.85 or flat:  # one colour mapping explains the change: same thing, new colour
            # (a regional edit's own part, which the rest's colour map does not explain, tells a
            # smaller tint: "make the left side warmer" moved its b* by 5 and was "they differ in a
            # way I cannot name")
            tint = PART_TINT if in_part and not flat else 15 if flat else 8
            if dchroma < tint and dl < 12 and not info.get("grayscale") and "contrast" not in info:
                continue  # what is left of the global model's error, not a change of its own
            # a regional edit's part brightened more than tinted (a blue sky brightened pales toward
            # white); an object recoloured pink or yellow gets brighter too, and is recoloured
            lighter = in_part and dl >= 12 and dchroma < dl
            kind = "object_recolored" if (dchroma >= min(8, tint) or info.get("grayscale")) and not lighter else "region_changed"
            if in_part and dchroma < 8 and not info.get("grayscale"):
                info["small_tint"] = True  # said as its shift, not as colour names (a warmer cat is no "grey" one)
        else:
            # The rim decides first: pasting leaves a step along the outline, filling a hole
            # continues what is around it; fine detail decides when the rim is ambiguous.
            rim = math.log((ra + 1) / (rb + 1))
            score = rim if abs(rim) > math.log(1.25) else math.log((da_ + 1) / (db_ + 1)) + 0.5 * rim
            info["added_score"] = round(score, 3)
            kind = "object_added" if score > 0.15 else "object_removed" if score < -0.15 else "region_changed"
            kind = filled_or_pasted(kind, pred, a_rgb, box, mask, info)
            if kind in ("object_removed", "object_added") and clipped_brighter(pred[y1:y2, x1:x2][sub], a_rgb[y1:y2, x1:x2][sub]):
                kind = "region_changed"  # "brighten the sky" twice on a pale sky: white, flat, no rim
            if kind == "object_removed" and dchroma >= 10:
                # A fill takes its colours from around the hole: colour where the picture around
                # it is grey came from elsewhere (a coloured patch pasted over a grey page loses
                # the text's detail and read as a removal).
                ring = cv2.dilate(mask.astype(np.uint8), np.ones((15, 15), np.uint8)).astype(bool) & ~mask
                sat = np.linalg.norm(alab[..., 1:] - 128, axis=2)
                if ring.any() and float(np.median(sat[ring])) < 4 and float(np.median(sat[mask])) >= 10:
                    kind = "object_added"
        if in_part:
            info["in_part"] = True  # a piece of a regional edit's part (its sky, its background)
        found.append({"kind": kind, "box": box, "mask": mask, "info": info})

    # An added region whose content was already in before, where something was removed, is one
    # object that moved; where it was is found by matching its content in before.
    used = set()
    moves = []
    whole = [0, 0, changed.shape[1], changed.shape[0]]
    for j, q in enumerate(found):
        if q["kind"] not in ("object_added", "region_changed") or q["info"].get("in_part"):
            continue  # (a piece of the sky brightened, cut off by a tower, is no object moved across the sky)
        hit = find_content(a_rgb, q["box"], pred, whole)
        if hit is None or hit[1] < 0.6:
            continue
        hb_ = hit[0]
        # Its old place must have changed too (the object left a hole behind): much of it, or a
        # removal found there (a smooth fill that matches the background on one side changes only
        # part of the old place, and the move was told as an addition and a removal).
        hole = any(r["kind"] == "object_removed" and (box_iou(r["box"], hb_) > 0.2 or inside(r["box"], hb_))
                   for r in found)
        if changed[hb_[1]:hb_[3], hb_[0]:hb_[2]].mean() < 0.15 and not hole:
            continue
        used.add(j)
        for i, r in enumerate(found):
            if i != j and (box_iou(r["box"], hb_) > 0.2 or inside(r["box"], hb_)):
                used.add(i)
        moves.append((None, j, hit[1], hb_))
    out: list[Finding] = []
    for _i, j, sim, src_box in moves:
        q = found[j]
        # The object's box: where it was in before (mapped back) and where it is now.
        bbox = map_box(box_to_full(src_box, Sa), Minv, bsize)
        abox = box_to_full(q["box"], Sa)
        out.append(Finding("object_moved", {"similarity": round(sim, 3),
                                            "area_fraction": q["info"]["area_fraction"]}, bbox, abox))
    for i, r in enumerate(found):
        if i in used:
            continue
        abox = box_to_full(r["box"], Sa)
        bbox = map_box(abox, Minv, bsize)
        out.append(Finding(r["kind"], dict(r["info"]), bbox, abox))
    out.sort(key=lambda fd: -((fd.after_box[2] - fd.after_box[0]) * (fd.after_box[3] - fd.after_box[1])))
    out = out[:max_local]
    # Colours for recoloured regions, measured on the small copies.
    for fd in out:
        if fd.kind == "object_recolored":
            from agent.perception.models import color_name

            sb = box_to_small(fd.after_box, Sa)
            sub = next((r["mask"] for r in found if r["box"] == sb), None)
            fd.params["from_color"] = color_name(pred, tuple(sb), sub)
            fd.params["to_color"] = color_name(a_rgb, tuple(sb), sub)
    return out

