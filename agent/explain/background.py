"""A background replaced by a plain colour or blurred, the subject kept (``background <colour>|blur``).

:func:`editor.regions.replace_background` keeps the subject (u2netp's soft mask ``m``) and makes the
rest ``(1 - m)*C`` (a colour) or a Gaussian blur of standard deviation ``max(H, W)/60``. Seen from
the two pictures: a large area of the after picture is exactly one colour where the before picture
(as the global edits made it) showed something else, or a large area is the before picture
strongly blurred while the rest is unchanged. Black is the cutout's background and is told as a
removed background by the engine itself.
"""

from __future__ import annotations

import cv2
import numpy as np

from editor.regions import BACKGROUND_COLORS, BLUR_FRACTION, masked_blur

# A part made plain white whose every pixel (but 5%) had all its channels at this level or above was
# brightened until it clipped, not replaced: "brighten the sky", then "more", on a pale sky above
# horses was answered "the background was replaced by plain white; the main subject is kept".
WHITE_LIGHT = 150


def _big_parts(mask: np.ndarray, share: float = 0.01) -> np.ndarray:
    n, lab, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), 8)
    big = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] > share * mask.size]
    return np.isin(lab, big) if big else np.zeros(mask.shape, bool)


def replaced_background(a_rgb: np.ndarray, pred: np.ndarray, valid: np.ndarray) -> tuple[str, np.ndarray] | None:
    """``(colour name, mask)`` when a large part of the after picture (small copy) is one plain
    colour of :data:`BACKGROUND_COLORS` (black excepted) where ``pred`` is not."""
    af = a_rgb.astype(np.int16)
    best = None
    for name, rgb in BACKGROUND_COLORS.items():
        if name in ("black", "gray"):
            continue
        c = np.array(rgb, np.int16)
        near = np.abs(af - c).max(axis=2) <= 3
        if near.mean() < 0.05:
            continue
        far = np.abs(pred - c.astype(np.float32)).max(axis=2) > 30
        m = _big_parts(near & far & valid)
        if name == "white" and m.any() and np.percentile(pred[m].min(axis=1), 5) >= WHITE_LIGHT:
            continue  # a light part brightened until it clipped ("brighten the sky", "more"), not replaced
        if m.mean() > 0.05 and (best is None or m.sum() > best[1].sum()):
            best = (name, m)
    return best


def clipped_brighter(before: np.ndarray, after: np.ndarray) -> bool:
    """Whether a part (N x 3 levels, the same pixels before and after) was brightened until it
    clipped: most of it white after, no pixel darker, and what is not clipped brighter by one
    amount (a fill puts anything anywhere), or, when nearly all of it clipped, every pixel (but
    5%) light before (:data:`WHITE_LIGHT`). Flat and white with no rim, it looked like a fill:
    "the skyblue object at the top was removed" after the sky over Chambord was brightened twice."""
    if len(before) == 0:
        return False
    b, a = before.reshape(-1, 3).astype(np.int16), after.reshape(-1, 3).astype(np.int16)
    if (a.min(axis=1) >= 250).mean() < 0.5 or ((a - b).min(axis=1) >= -3).mean() < 0.95:
        return False
    free = a < 250  # each channel where it did not clip
    if free.mean() < 0.05:
        return bool(np.percentile(b.min(axis=1), 5) >= WHITE_LIGHT)
    d = (a - b)[free].astype(np.float64)
    k = float(np.median(d))
    return bool(k >= 10 and (np.abs(d - k) <= max(8.0, 0.25 * k)).mean() >= 0.8)


def darkened_to_black(before: np.ndarray, after: np.ndarray, black: np.ndarray, valid: np.ndarray) -> bool:
    """Whether the black part ``black`` of the after picture (small copies, float) is a part darkened
    until it clipped rather than a background taken away: what changed elsewhere went darker, never
    lighter, and under the black the before picture was no lighter than the most anything was
    darkened (its 5th percentile, on each pixel's brightest channel): a cutout blacks out the bright
    sky too. "make the trees a lot darker" (brightness -40 in the greenery) on Neuschwanstein was "the
    background was removed (now black); only the main subject is left"."""
    d = after.max(axis=2) - before.max(axis=2)
    moved = valid & ~black & (np.abs(d) > 3)
    if moved.sum() < 20 or float((d[moved] > 0).mean()) > 0.05:
        return False
    k = float(np.percentile(d[moved], 5))
    return k <= -10 and float(np.percentile(before[black].max(axis=1), 95)) <= -k + 12


# A background blurred at a strength other than the usual is taken only where that blur makes the
# part within this many levels (median): those "less" and "more" make are within 4.2 on gcompris'
# bison, owl and chickens, and the fill of scikit-image's removed cup, which a weak blur explains
# better than nothing, is 26.7 off.
OTHER_BLUR_FIT = 8.0


def blurred_background(pred: np.ndarray, af: np.ndarray, valid: np.ndarray) -> np.ndarray | None:
    """The part of the after picture (small copy, float32) that is ``pred`` strongly blurred, when it
    is a large part and the rest is unchanged; None otherwise."""
    h, w = af.shape[:2]
    k = (9, 9)
    e0 = cv2.blur(np.abs(af - pred).max(axis=2), k)
    # the usual blur first, then those "less" and "more" make: a blur made "less" (x 0.5) was
    # "It was blurred (sharpness -100). A snake was added at the top" over a herd of bison
    usual = None  # (the usual strength's blur and its error, which the faint look below takes again)
    for strength in sorted(BLUR_STRENGTHS, key=lambda s: abs(np.log(s))):
        blurred = cv2.GaussianBlur(pred, (0, 0), max(h, w) * BLUR_FRACTION * strength)
        e1 = cv2.blur(np.abs(af - blurred).max(axis=2), k)
        usual = usual or (blurred, e1)
        found = _blurred_part(pred, af, valid, blurred, e0, e1, 4.0)
        if found is not None and strength != 1.0 and (float(np.median(e1[found])) > OTHER_BLUR_FIT
                                                      or not _kept_subject(pred, af, valid, blurred, found)):
            found = None  # at another strength only with a subject kept exactly: a blur of it all keeps none
        if found is not None or not ((e0 > 4.0) & (e1 < 0.5 * e0) & valid).any():
            break
    if found is None:
        blurred, e1 = usual
        # A flat photo's background (a plain wall behind the clock) loses only its fine grain to
        # the blur, a level or two: seen where the blur explains the pixels far better than the
        # picture as it was, the fine detail is gone, and the subject is left exactly as it was
        # (which recompression, that changes every part a little, does not do).
        faint = valid & (e0 > 0.4) & (e1 < 0.5 * e0)
        # Too little of it to be a background (closing grows it a little at most): stop early,
        # as for most pairs, which keeps this look cheap.
        found = _blurred_part(pred, af, valid, blurred, e0, e1, 0.4) if faint.sum() >= 0.05 * valid.sum() else None
        if found is not None:
            lap_b = np.abs(cv2.Laplacian(pred.mean(axis=2), cv2.CV_32F))[found].mean()
            lap_a = np.abs(cv2.Laplacian(af.mean(axis=2), cv2.CV_32F))[found].mean()
            if lap_a > 0.35 * lap_b or float(np.median(e1[found])) > 0.5 * float(np.median(e0[found])):
                found = None
    return found


def subject_kept_sharp(pred: np.ndarray, af: np.ndarray, valid: np.ndarray) -> bool:
    """Whether the after picture is ``pred`` with its background blurred and a subject kept exactly
    as it was (:func:`_kept_subject`), which a blur of the whole picture never keeps: the detail
    model read one bison kept sharp before a blurred herd as "It was blurred (sharpness -100)" and
    the bison as "a snake was added"."""
    m = blurred_background(pred, af, valid)
    if m is None:
        return False
    blurred = cv2.GaussianBlur(pred, (0, 0), blur_sigma(pred, af, m))
    return _kept_subject(pred, af, valid, blurred, m)


def _blurred_part(pred, af, valid, blurred, e0, e1, least: float) -> np.ndarray | None:
    """:func:`blurred_background` with the change it looks at at least ``least`` levels."""
    h, w = af.shape[:2]
    m = valid & (e0 > least) & (e1 < 0.5 * e0)
    r = max(3, int(0.03 * max(h, w)) | 1)
    m = cv2.morphologyEx(m.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((r, r), np.uint8)).astype(bool)
    m = _big_parts(m & valid, 0.02)
    if m.sum() < 0.1 * valid.sum():
        return None
    # The rest must be unchanged (the subject is kept exactly) or, where it changed a little (faint
    # texture the test above missed, the soft parts of the subject's mask), changed toward the blur.
    rest = valid & ~cv2.dilate(m.astype(np.uint8), np.ones((r, r), np.uint8)).astype(bool)
    if rest.sum() < 0.03 * valid.sum():
        # A small subject (a ladybird on soft bokeh) leaves too little rest to judge by its median
        # change, the soft edge of its matte being most of it: found by the subject itself instead.
        return m if _kept_subject(pred, af, valid, blurred, m) else None
    if float(np.median(e0[rest])) > 3 and _unblurred(pred, af, blurred, e0, rest) > 0.25:
        return None
    return m


def _kept_subject(pred, af, valid, blurred, m) -> bool:
    """Whether one compact part the blur would have changed visibly is exactly as it was, as a
    background blur keeps its subject; a blur of the whole picture (or any other edit of it all)
    keeps no such part. Inside the blurred part ``m`` such pixels must be next to none, so that
    a blur whose strength merely varies is not read as a subject kept."""
    telling = np.abs(blurred - pred).max(axis=2) > 8
    same = cv2.blur(np.abs(af - pred).max(axis=2), (5, 5)) < 3
    if (telling & same & m).sum() > 0.001 * m.sum():
        return False
    away = ~cv2.dilate(m.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    return bool(_big_parts(valid & telling & same & away, 0.0015).any())


def _unblurred(pred: np.ndarray, af: np.ndarray, blurred: np.ndarray, e0: np.ndarray, part: np.ndarray) -> float:
    """The share of ``part`` that changed but is no blend ``(1 - t)*pred + t*blurred`` (``t`` in
    [0, 1]): the soft parts of the subject's mask blend some of the blur in, other edits do not."""
    v = blurred - pred
    t = ((af - pred) * v).sum(axis=2) / np.maximum((v * v).sum(axis=2), 1.0)
    off = cv2.blur(np.abs(af - pred - np.clip(t, 0, 1)[..., None] * v).max(axis=2), (9, 9))
    return float(((off > 3) & (e0 > 3))[part].mean())


def blur_explains(wf: np.ndarray, af: np.ndarray, valid: np.ndarray, a: float, b: np.ndarray
                  ) -> tuple[np.ndarray | None, bool]:
    """``(blurred mask, whether the tone fit is to be dropped)``: the background blurred after the
    tone change ``(a, b)``, or else after no tone change at all. A blurred background is a large
    part of the picture with less contrast than before, so the robust tone fit can read it as
    "less contrast" of the whole; when the blur alone explains the pair, that tone is not said."""
    blurred = blurred_background(np.clip(a * wf + b.astype(np.float32), 0, 255), af, valid)
    if blurred is not None or (a == 1.0 and not np.any(b)):
        return blurred, False
    blurred = blurred_background(wf, af, valid)
    return blurred, blurred is not None


def kept_box(valid: np.ndarray, bg: np.ndarray) -> list[int] | None:
    """Small-copy box of what is left of the picture once the background ``bg`` is taken away."""
    keep = _big_parts(valid & ~cv2.dilate(bg.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool))
    ys, xs = np.nonzero(keep)
    if not len(xs):
        return None
    return [int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1]


def unblended(wf: np.ndarray, af: np.ndarray, colour: str, t_min: float = 0.03) -> np.ndarray:
    """Pixels of the after picture that are not ``wf`` (before, aligned) blended toward the new
    background colour. u2netp's matte is soft well inside the subject, so after a background is
    replaced much of what is kept is ``(1 - t)*before + t*C`` with ``t`` varying: read as one
    picture-wide fit, that is a false tint toward ``C``. A tint of the whole picture is measured on
    the other pixels only (a real tint toward ``C`` itself cannot be told from the matte and is
    left unsaid)."""
    return ~(matte_edge(wf, af, colour) & (_blend_t(wf, af, colour) > t_min))


def _blend_t(pred: np.ndarray, af: np.ndarray, colour: str) -> np.ndarray:
    v = np.array(BACKGROUND_COLORS[colour], np.float32) - pred
    return ((af - pred) * v).sum(axis=2) / np.maximum((v * v).sum(axis=2), 1.0)


def matte_edge(pred: np.ndarray, af: np.ndarray, colour: str | None, sigma: float | None = None,
               background: np.ndarray | None = None) -> np.ndarray:
    """Pixels of the after picture that are a blend of ``pred`` and the new background (the soft
    edge of the subject's mask): ``af = (1 - t)*pred + t*C`` for some ``t`` in [0, 1], ``C`` the
    background colour or, with ``colour`` None, the blurred background: ``pred`` blurred as
    ``background blur`` does, at the usual sigma or at ``sigma`` (:func:`blur_sigma`: "less" and
    "more" blur), or of the ``background``'s pixels alone at that sigma, as the editor blurs (the
    subject does not bleed into it, so beside the subject the blur differs from the whole
    picture's); only where the blur differs from ``pred`` enough to tell."""
    if colour is None:
        h, w = pred.shape[:2]
        usual = max(h, w) * BLUR_FRACTION
        edge = _blend_of(pred, af, cv2.GaussianBlur(pred, (0, 0), usual) - pred)
        if sigma and sigma != usual:
            edge |= _blend_of(pred, af, cv2.GaussianBlur(pred, (0, 0), sigma) - pred)
        if background is not None and background.any():  # (where the background found is short of the editor's)
            edge |= _blend_of(pred, af, masked_blur(pred, background.astype(np.float32), sigma or usual) - pred)
        return edge
    v = np.array(BACKGROUND_COLORS[colour], np.float32) - pred
    return _blend_of(pred, af, v, telling=False)


def _blend_of(pred: np.ndarray, af: np.ndarray, v: np.ndarray, telling: bool = True) -> np.ndarray:
    """Where ``af = pred + t*v`` for some ``t`` in [0, 1] (to 14 levels), and, with ``telling``,
    ``v`` is large enough (8 levels) to tell."""
    tell = np.abs(v).max(axis=2) > 8 if telling else True
    n2 = np.maximum((v * v).sum(axis=2), 1.0)
    t = ((af - pred) * v).sum(axis=2) / n2
    off = np.abs(af - pred - np.clip(t, 0, 1)[..., None] * v).max(axis=2)
    return (t > -0.05) & (t < 1.05) & (off < 14) & tell


def blurred_there(pred: np.ndarray, af: np.ndarray, box: list[int], sigma: float, background: np.ndarray) -> bool:
    """Whether the after picture in ``box`` (small copy) is the before picture blurred as the
    background was (at ``sigma``, of the whole picture or of the ``background`` alone): its median
    difference from that blur under half its difference from the before. A bright reflection in a
    black background, blurred twice as much as usual, spread into a grey blob the blurred part's
    edges left out, and it was said as "an object was added"."""
    x1, y1, x2, y2 = (int(v) for v in box)
    if x2 - x1 < 2 or y2 - y1 < 2:
        return False
    m = 2 * int(np.ceil(3 * sigma))  # the blur's reach around the box
    h, w = pred.shape[:2]
    X1, Y1, X2, Y2 = max(0, x1 - m), max(0, y1 - m), min(w, x2 + m), min(h, y2 + m)
    p, a = pred[Y1:Y2, X1:X2], af[Y1:Y2, X1:X2]
    inner = (slice(y1 - Y1, y2 - Y1), slice(x1 - X1, x2 - X1))
    none = float(np.median(np.abs(a - p)[inner].max(axis=2)))
    if none < 4:
        return False
    plain = np.abs(a - cv2.GaussianBlur(p, (0, 0), sigma))[inner].max(axis=2)
    bg = background[Y1:Y2, X1:X2].copy()
    bg[inner] = True  # (a piece the blurred part left out is the background the editor blurred)
    alone = np.abs(a - masked_blur(p, bg.astype(np.float32), sigma))[inner].max(axis=2)
    return float(np.median(np.minimum(plain, alone))) < 0.5 * none


BLUR_STRENGTHS = (0.25, 0.5, 1.0, 2.0, 4.0)  # background blurs of BLUR_RANGE, each way from the usual


def blur_sigma(pred: np.ndarray, af: np.ndarray, blurred: np.ndarray) -> float:
    """The sigma (pixels of the small copy) of the background blur that best makes ``af`` of
    ``pred`` over the ``blurred`` part, of the strengths "less" and "more" give
    (:data:`BLUR_STRENGTHS`). The soft edge around the subject is a blend toward that blur: at the
    usual sigma, a blur made "less" (x 0.5) left a strip of blurred grass beside a dog's head that
    was said as "the grey object at the top right was removed"."""
    h, w = pred.shape[:2]
    base = max(h, w) * BLUR_FRACTION
    if blurred.sum() < 100:
        return base
    sel = blurred[::2, ::2]
    err = {k: float(np.median(np.abs(cv2.GaussianBlur(pred, (0, 0), base * k) - af).max(axis=2)[::2, ::2][sel]))
           for k in BLUR_STRENGTHS}
    return base * min(err, key=err.get)


def blurred_subject_box(pred: np.ndarray, af: np.ndarray, valid: np.ndarray, blurred: np.ndarray,
                        sigma: float | None = None) -> list[int] | None:
    """Small-copy box of the subject a background blur kept: the pixels the blur would have changed
    visibly but that are unchanged. Flat parts of the background (a black wall, the sky), which the
    blur leaves as they were, are no part of it, as they are of :func:`kept_box`'s rest."""
    h, w = pred.shape[:2]
    telling = np.abs(cv2.GaussianBlur(pred, (0, 0), sigma or max(h, w) * BLUR_FRACTION) - pred).max(axis=2) > 8
    same = cv2.blur(np.abs(af - pred).max(axis=2), (5, 5)) < 3
    away = ~cv2.dilate(blurred.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool)
    kept = valid & telling & same & away
    keep = _big_parts(kept, 0.005)
    ys, xs = np.nonzero(keep)
    if len(xs) < 0.02 * valid.sum():
        box = kept_box(valid, blurred)
        # A small subject (a ladybird, 1% of the picture) is no big part, and what the blurred part
        # leaves is then mostly the picture's border: the box would be most of the picture.
        ys, xs = np.nonzero(_big_parts(kept, 0.0015))
        if len(xs) and (box is None or (box[2] - box[0]) * (box[3] - box[1]) > 0.5 * valid.size):
            return [int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1]
        return box
    return [int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1]
