"""Working copies and alignment for the relation engine (:mod:`agent.explain.engine`).

Small copies of both images at one common scale; the eight exact square transforms (quarter turns,
with and without a mirror) scored by correlation; ORB (or SIFT) features matched to a similarity
transform with RANSAC and refined by ECC; a plain crop located by template matching and refined
to the exact pixel at full size.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

# --- preparing working copies -----------------------------------------------------------------


def small_copy(image: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray | None]:
    """RGB uint8 and alpha (or None) copies resized to ``size = (w, h)``."""
    h, w = image.shape[:2]
    arr = image
    if (w, h) != size:
        if w > 4 * size[0] and h > 4 * size[1]:
            # Area averaging from 12 megapixels costs ~80 ms; a bilinear step down to twice the
            # target first (2 ms) and area averaging from there give the same working copy.
            arr = cv2.resize(arr, (2 * size[0], 2 * size[1]), interpolation=cv2.INTER_LINEAR)
        arr = cv2.resize(arr, size, interpolation=cv2.INTER_AREA)
    if arr.dtype == np.uint16:
        arr = (arr >> 8).astype(np.uint8)
    if arr.ndim == 2:
        return cv2.cvtColor(arr, cv2.COLOR_GRAY2RGB), None
    if arr.shape[2] == 4:
        return np.ascontiguousarray(arr[:, :, :3]), np.ascontiguousarray(arr[:, :, 3])
    return np.ascontiguousarray(arr), None


def scale_matrix(full: tuple[int, int], small: tuple[int, int]) -> np.ndarray:
    """3x3 map from full-size pixel coordinates to the small copy's (pixel centres aligned)."""
    fx, fy = small[0] / full[0], small[1] / full[1]
    return np.array([[fx, 0, 0.5 * fx - 0.5], [0, fy, 0.5 * fy - 0.5], [0, 0, 1]], np.float64)


def chanmax(x: np.ndarray) -> np.ndarray:
    """Per-pixel maximum over the three channels (much faster than ``max(axis=2)``)."""
    return np.maximum(np.maximum(x[..., 0], x[..., 1]), x[..., 2])


def grey_of(rgb: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)


# --- alignment --------------------------------------------------------------------------------


def dihedral_matrix(k: int, flip: bool, w: int, h: int) -> np.ndarray:
    """3x3 matrix of "mirror left-right (if flip), then turn k quarter turns counter-clockwise"."""
    m = np.eye(3)
    if flip:
        m = np.array([[-1, 0, w - 1], [0, 1, 0], [0, 0, 1]], np.float64)
    cw, ch = w, h
    for _ in range(k % 4):  # one counter-clockwise quarter turn of a cw x ch image: (x, y) -> (y, cw-1-x)
        q = np.array([[0, 1, 0], [-1, 0, cw - 1], [0, 0, 1]], np.float64)
        m = q @ m
        cw, ch = ch, cw
    return m


def apply_dihedral(img: np.ndarray, k: int, flip: bool) -> np.ndarray:
    out = img[:, ::-1] if flip else img
    return np.ascontiguousarray(np.rot90(out, k))


def corr(a: np.ndarray, b: np.ndarray) -> float:
    a = a.astype(np.float32).ravel()
    b = b.astype(np.float32).ravel()
    a = a - a.mean()
    b = b - b.mean()
    d = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum() / d) if d > 1e-6 else (1.0 if not a.any() and not b.any() else 0.0)


def try_dihedral(bfull: tuple[int, int], afull: tuple[int, int], bg: np.ndarray, ag: np.ndarray,
                  a_alpha: np.ndarray | None = None) -> tuple[np.ndarray, float] | None:
    """Best exact square transform whose size fits, as (3x3 full-size matrix, correlation).

    Only what after still shows is compared (not its transparent or black background)."""
    wb, hb = bfull
    best = None
    bgb = cv2.GaussianBlur(bg, (5, 5), 0)
    agb = cv2.GaussianBlur(ag, (5, 5), 0)
    shown = (a_alpha > 127) if a_alpha is not None else (ag > 3)
    if shown.mean() < 0.05 or shown.all():
        shown = None
    else:
        agb = agb[shown]
    for flip in (False, True):
        for k in range(4):
            size = (wb, hb) if k % 2 == 0 else (hb, wb)
            if size != afull:
                continue
            t = apply_dihedral(bgb, k, flip)
            if t.shape != ag.shape:
                t = cv2.resize(t, (ag.shape[1], ag.shape[0]), interpolation=cv2.INTER_LINEAR)
            c = corr(t if shown is None else t[shown], agb)
            if best is None or c > best[1] + 1e-3:
                best = (dihedral_matrix(k, flip, wb, hb), c)
    return best


_orb = None


def keypoint_features(grey: np.ndarray, mask: np.ndarray | None = None, sift: bool = False):
    global _orb
    if _orb is None:
        _orb = cv2.ORB_create(nfeatures=1500, scaleFactor=1.2, nlevels=8, fastThreshold=12)
    # Equalised grey copies make the features blind to brightness, contrast and tint.
    eq = cv2.equalizeHist(grey)
    det = cv2.SIFT_create(nfeatures=1500) if sift else _orb
    return det.detectAndCompute(eq, mask)


def match_similarity(kp_des_b, kp_des_a) -> tuple[np.ndarray, int] | None:
    """Similarity (2x3, small before -> small after) fitted by RANSAC on feature matches, with inliers."""
    kb, db = kp_des_b
    ka, da = kp_des_a
    if db is None or da is None or len(kb) < 8 or len(ka) < 8:
        return None
    matcher = cv2.BFMatcher(cv2.NORM_HAMMING if db.dtype == np.uint8 else cv2.NORM_L2)
    pairs = matcher.knnMatch(db, da, k=2)
    good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < 0.8 * p[1].distance]
    if len(good) < 8:
        return None
    src = np.float32([kb[m.queryIdx].pt for m in good])
    dst = np.float32([ka[m.trainIdx].pt for m in good])
    m, inl = cv2.estimateAffinePartial2D(src, dst, method=cv2.RANSAC, ransacReprojThreshold=3.0,
                                         maxIters=3000, confidence=0.995)
    if m is None:
        return None
    n = int(inl.sum())
    # Refit on the inliers only by least squares: RANSAC's pick is a minimal-sample model.
    sel = inl.ravel().astype(bool)
    if n >= 6:
        m2, _ = cv2.estimateAffinePartial2D(src[sel], dst[sel], method=cv2.LMEDS)
        if m2 is not None:
            m = m2
    s = math.hypot(m[0, 0], m[0, 1])
    if not 0.05 < s < 20:  # a degenerate fit
        return None
    return m, n


def refine_ecc(M: np.ndarray, bg: np.ndarray, ag: np.ndarray, Sb: np.ndarray, Sa: np.ndarray) -> np.ndarray:
    """Polish a feature-based similarity by ECC (intensity alignment, robust to gain and offset).

    Features pin a transform to about a working pixel; ECC brings it to a small fraction of one,
    which keeps strong edges from showing up as changes. A refinement that fails or wanders far
    is dropped."""
    Ms = Sa @ M @ np.linalg.inv(Sb)
    # ECC warps the after image into before's frame: it needs the inverse map.
    inv = np.linalg.inv(Ms)[:2].astype(np.float32)
    h, w = bg.shape
    g = min(1.0, 400 / max(h, w, *ag.shape))
    if g < 1:
        T = np.diag([g, g, 1.0])
        bq = cv2.resize(bg, (round(w * g), round(h * g)), interpolation=cv2.INTER_AREA)
        aq = cv2.resize(ag, (round(ag.shape[1] * g), round(ag.shape[0] * g)), interpolation=cv2.INTER_AREA)
        inv_q = (T @ np.vstack([inv, [0, 0, 1]]) @ np.linalg.inv(T))[:2].astype(np.float32)
    else:
        T, bq, aq, inv_q = np.eye(3), bg, ag, inv
    try:
        # template = after, input = before: ECC finds W with before(W(x)) = after(x).
        crit = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 40, 1e-5)
        _, out = cv2.findTransformECC(aq.astype(np.float32), bq.astype(np.float32), inv_q.copy(),
                                      cv2.MOTION_AFFINE, crit, None, 3)
    except cv2.error:
        return M
    out3 = np.linalg.inv(T) @ np.vstack([out, [0, 0, 1]]) @ T
    # Back to a similarity: the nearest rotation-and-scale to the fitted linear part.
    A = out3[:2, :2]
    det = np.linalg.det(A)
    a_, b_ = (A[0, 0] + A[1, 1]) / 2, (A[0, 1] - A[1, 0]) / 2
    if det < 0:
        a_, b_ = (A[0, 0] - A[1, 1]) / 2, (A[0, 1] + A[1, 0]) / 2
        lin = np.array([[a_, b_], [b_, -a_]])
    else:
        lin = np.array([[a_, b_], [-b_, a_]])
    out3[:2, :2] = lin
    new_s = np.linalg.inv(out3)
    # Reject a refinement that moved any corner by more than 3 working pixels.
    corners = np.array([[0, 0, 1], [w, 0, 1], [0, h, 1], [w, h, 1]], np.float64).T
    if np.abs((new_s @ corners)[:2] - (Ms @ corners)[:2]).max() > 3:
        return M
    return np.linalg.inv(Sa) @ new_s @ Sb


def locate_crop(bg: np.ndarray, ag: np.ndarray) -> tuple[float, float] | None:
    """Where ``ag`` sits inside ``bg`` (small-copy pixels) if it is a plain crop of it."""
    hb, wb = bg.shape
    ha, wa = ag.shape
    if ha > hb or wa > wb or (ha == hb and wa == wb) or min(ha, wa) < 8:
        return None
    g = min(1.0, 320 / max(hb, wb))
    if g < 1:
        bq = cv2.resize(bg, (max(1, round(wb * g)), max(1, round(hb * g))), interpolation=cv2.INTER_AREA)
        aq = cv2.resize(ag, (max(1, round(wa * g)), max(1, round(ha * g))), interpolation=cv2.INTER_AREA)
    else:
        bq, aq = bg, ag
    if aq.shape[0] > bq.shape[0] or aq.shape[1] > bq.shape[1] or aq.std() < 2:
        return None
    res = cv2.matchTemplate(bq, aq, cv2.TM_CCOEFF_NORMED)  # invariant to gain and offset
    _, best, _, loc = cv2.minMaxLoc(res)
    if best < 0.8:
        return None
    return loc[0] / g, loc[1] / g


def refine_translation(before: np.ndarray, after: np.ndarray, tx: float, ty: float, radius: int
                        ) -> tuple[int, int] | None:
    """Exact integer offset (x, y) of ``after`` inside ``before`` near (tx, ty), at full size."""
    hb, wb = before.shape[:2]
    ha, wa = after.shape[:2]
    p = min(96, ha, wa)
    ax, ay = (wa - p) // 2, (ha - p) // 2
    tpl = small_copy(after[ay:ay + p, ax:ax + p], (p, p))[0]
    x0 = int(round(tx)) + ax - radius
    y0 = int(round(ty)) + ay - radius
    x1, y1 = x0 + p + 2 * radius, y0 + p + 2 * radius
    x0c, y0c, x1c, y1c = max(0, x0), max(0, y0), min(wb, x1), min(hb, y1)
    if x1c - x0c < p or y1c - y0c < p:
        return None
    win = small_copy(before[y0c:y1c, x0c:x1c], (x1c - x0c, y1c - y0c))[0]
    tg, wg = grey_of(tpl), grey_of(win)
    if tg.std() < 2:  # a flat patch cannot pin the offset down
        return None
    res = cv2.matchTemplate(wg, tg, cv2.TM_CCOEFF_NORMED)
    _, best, _, loc = cv2.minMaxLoc(res)
    if best < 0.9:
        return None
    ox, oy = x0c + loc[0] - ax, y0c + loc[1] - ay
    if ox < 0 or oy < 0 or ox + wa > wb or oy + ha > hb:
        return None
    return ox, oy


def box_to_small(box: list[int], S: np.ndarray) -> list[int]:
    """A full-size box to the small copy's pixels (S maps full -> small): :func:`box_to_full`'s inverse."""
    fx, fy = S[0, 0], S[1, 1]
    return [int(round(box[0] * fx)), int(round(box[1] * fy)), int(round(box[2] * fx)), int(round(box[3] * fy))]


def box_to_full(box: list[int], S: np.ndarray) -> list[int]:
    """A small-copy box to full-size pixels (S maps full -> small)."""
    fx, fy = S[0, 0], S[1, 1]
    return [int(round(box[0] / fx)), int(round(box[1] / fy)), int(round(box[2] / fx)), int(round(box[3] / fy))]


def map_box(box: list[int], M: np.ndarray, size: tuple[int, int]) -> list[int]:
    """Bounding box of ``box`` mapped through 3x3 ``M``, clipped to ``size = (w, h)``."""
    x1, y1, x2, y2 = box
    pts = np.array([[x1, y1, 1], [x2, y1, 1], [x1, y2, 1], [x2, y2, 1]], np.float64).T
    q = (M @ pts)[:2]
    w, h = size
    out = [max(0, q[0].min()), max(0, q[1].min()), min(w, q[0].max()), min(h, q[1].max())]
    out = [int(round(v)) for v in out]
    if out[2] <= out[0] or out[3] <= out[1]:
        return [0, 0, 0, 0]
    return out


def same_frame(M: np.ndarray, dih: tuple[np.ndarray, float] | None, bg: np.ndarray, ag: np.ndarray,
               Sb: np.ndarray, Sa: np.ndarray) -> bool:
    """Whether the untouched frame (``dih``'s identity) fits at least as well as ``M``, a shift of a
    pixel or two found by features: a large local change (a cup filled in) lowers the whole-frame
    correlation below the dihedral test's bar, and a centre patch that changed can then pin the
    shift to the wrong pixel, which reads later as a false tint or contrast."""
    if dih is None or dih[1] <= 0.5 or bg.shape != ag.shape or not np.allclose(dih[0], np.eye(3)):
        return False
    if np.abs(M[:2, :2] - np.eye(2)).max() > 0.01 or np.abs(M[:2, 2]).max() > 3:
        return False
    Ms = Sa @ M @ np.linalg.inv(Sb)
    shifted = cv2.warpAffine(bg, Ms[:2], (ag.shape[1], ag.shape[0]), flags=cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_REPLICATE)
    e = 4  # the border the shift fills in is left out
    d_shift = np.abs(ag.astype(np.float32) - shifted.astype(np.float32))[e:-e, e:-e]
    d_same = np.abs(ag.astype(np.float32) - bg.astype(np.float32))[e:-e, e:-e]
    return float(np.median(d_same)) <= float(np.median(d_shift))
