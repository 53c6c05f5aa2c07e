"""Thin lines carried through a filled hole: a stem, a wire, a lane marking, a crack.

An exemplar fill continues what its patches see; a line a few pixels wide is a small part of each
patch's distance, so the copy often fills the hole with the texture beside the line and the line
stops at the hole's edge. :func:`find_lines` finds thin lines (ridges: dark or bright, narrower
than :data:`MAX_WIDTH` of the hole's side) in a ring around the hole and pairs the pieces that
enter the hole with pieces that leave it on the same straight line; :func:`carry_lines` checks
that both pieces have the same cross-section and that the line is alone on its background (not
one of a row of stripes or blades), and draws it across the fill: the line's own cross-section
(its median profile over both pieces, as a difference from the background beside it) over the
fill's background across the line, blended into the fill by the profile's strength, so the fill's
texture stays beside it. A line that enters and does not leave (a pole ending behind the object)
is left alone: nothing says where it ended.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

MAX_WIDTH = 0.08  # a line is at most this share of the hole's larger side wide (and 2-15 pixels)
RING = 0.6  # lines are looked for within this share of the hole's larger side around it
ANGLE = math.radians(5)  # two pieces on the same line differ in direction by less than this
OFFSET = 0.03  # ... and lie within this share of the hole's side (plus 2 pixels) of each other's line
LOOK_SIDE = 512  # lines are looked for on a copy at most this many pixels a side
MIN_CONTRAST = 12.0  # a ridge is at least this many 8-bit levels from the background beside it
MAX_RIDGES = 0.15  # where more of the ring than this is ridges, the lines are a texture, not a line


def _ridges(grey: np.ndarray, width: int, near: np.ndarray) -> np.ndarray:
    """Where a dark or bright line narrower than ``width`` pixels runs (black-hat and top-hat),
    standing out from the texture around the hole (``near``) by far more than its own grain: above
    :data:`MIN_CONTRAST` levels and above the response's median plus 5 robust deviations there."""
    k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * width + 1, 2 * width + 1))
    out = np.zeros(grey.shape, bool)
    for op in (cv2.MORPH_BLACKHAT, cv2.MORPH_TOPHAT):
        r = cv2.morphologyEx(grey, op, k)
        v = r[near]
        med = float(np.median(v)) if v.size else 0.0
        mad = float(np.median(np.abs(v - med))) if v.size else 0.0
        out |= r > max(MIN_CONTRAST, med + 5 * 1.4826 * mad)
    return out


def _segments(ridge: np.ndarray, near: np.ndarray, min_len: int) -> list[tuple[float, float, float, float]]:
    lines = cv2.HoughLinesP((ridge & near).astype(np.uint8) * 255, 1, np.pi / 360, threshold=max(10, min_len // 2),
                            minLineLength=min_len, maxLineGap=3)
    return [] if lines is None else [tuple(map(float, ln)) for ln in np.asarray(lines).reshape(-1, 4)]


def _line_of(seg):
    x1, y1, x2, y2 = seg
    d = np.array([x2 - x1, y2 - y1])
    d /= max(np.linalg.norm(d), 1e-6)
    return np.array([x1, y1]), d


def _chords(segs, hole: np.ndarray, side: float):
    """Pairs of segments on one straight line with the hole between them: (point, direction) of
    the line fitted through both, and the two segments."""
    dist_out = cv2.distanceTransform((~hole).astype(np.uint8), cv2.DIST_L2, 3)
    h, w = hole.shape
    out = []
    used = set()
    tol = OFFSET * side + 2
    for i in range(len(segs)):
        p, d = _line_of(segs[i])
        for j in range(i + 1, len(segs)):
            if i in used or j in used:
                continue
            _, e = _line_of(segs[j])
            if abs(abs(float(d @ e)) - 1) > 1 - math.cos(ANGLE):
                continue
            n = np.array([-d[1], d[0]])
            ends = np.array(segs[j]).reshape(2, 2)
            if np.abs((ends - p) @ n).max() > tol:
                continue
            # the hole must lie between the two pieces along the line
            a = np.array(segs[i]).reshape(2, 2) @ d
            b = ends @ d
            lo, hi = (a.max(), b.min()) if a.mean() < b.mean() else (b.max(), a.min())
            if hi - lo < 2:
                continue
            ts = np.linspace(lo, hi, 32)
            base = p - (p @ d) * d
            pts = base[None, :] + ts[:, None] * d[None, :]
            xs, ys = np.clip(pts[:, 0].round().astype(int), 0, w - 1), np.clip(pts[:, 1].round().astype(int), 0, h - 1)
            inside = hole[ys, xs]
            if inside.mean() < 0.3 or dist_out[ys, xs].max() > 0.5 * side:
                continue
            allp = np.vstack([np.array(segs[i]).reshape(2, 2), ends])
            c = allp.mean(axis=0)
            _, _, vt = np.linalg.svd(allp - c)
            out.append((c, vt[0], segs[i], segs[j]))
            used |= {i, j}
    return out


def _cross_section(img: np.ndarray, q, n, offs: np.ndarray) -> np.ndarray | None:
    """``img`` across the line at the point ``q``: at ``q + offs * n`` (len(offs), channels), float;
    ``None`` where that runs off the image."""
    h, w = img.shape[:2]
    xs, ys = q[0] + offs * n[0], q[1] + offs * n[1]
    if xs.min() < 0 or ys.min() < 0 or xs.max() > w - 1 or ys.max() > h - 1:
        return None
    return cv2.remap(img, xs.astype(np.float32)[None, :], ys.astype(np.float32)[None, :],
                     cv2.INTER_LINEAR).reshape(len(offs), -1).astype(np.float32)


def _detrend(prof: np.ndarray) -> np.ndarray:
    """A cross-section as the difference from the straight ramp between its two ends."""
    left, right = prof[:2].mean(axis=0), prof[-2:].mean(axis=0)
    ramp = np.linspace(0, 1, len(prof))[:, None]
    return prof - ((1 - ramp) * left + ramp * right)


def _piece_rows(img: np.ndarray, c, d, seg, half: int) -> list[np.ndarray]:
    """Cross-sections of the line at 8 points along the piece ``seg``, each on the fitted line
    through ``c`` in direction ``d``."""
    n = np.array([-d[1], d[0]])
    offs = np.arange(-half, half + 1, dtype=np.float32)
    p1, p2 = np.array(seg[:2]), np.array(seg[2:])
    rows = []
    for t in np.linspace(0.15, 0.85, 8):
        q = p1 + t * (p2 - p1)
        row = _cross_section(img, c + ((q - c) @ d) * d, n, offs)
        if row is not None:
            rows.append(row)
    return rows


def _profile(rows: list[np.ndarray], half: int) -> tuple[np.ndarray, float] | None:
    """The median cross-section of a line over its cross-sections ``rows`` (:func:`_piece_rows`):
    (2 half + 1, channels), as the difference from the background at its two ends, and how far the
    line's centre lies off the fitted line; ``None`` for a step rather than a ridge, or where no
    straight line runs."""
    offs = np.arange(-half, half + 1, dtype=np.float32)
    if len(rows) < 3:
        return None
    rows = np.stack(rows)
    # the line's centre in each cross-section (the extreme of its ridge); those far from the fitted
    # line's are sampling another thing, and the rest are shifted onto a common centre
    dev = rows.mean(axis=2) - 0.5 * (rows[:, :2].mean(axis=(1, 2)) + rows[:, -2:].mean(axis=(1, 2)))[:, None]
    mean = dev.mean(axis=0)
    sign = np.sign(mean[np.argmax(np.abs(mean))])
    mass = np.clip(sign * dev, 0, None)
    mass = np.where(mass >= 0.5 * mass.max(axis=1, keepdims=True), mass, 0)
    centre = (mass * offs[None, :]).sum(axis=1) / np.maximum(mass.sum(axis=1), 1e-6)
    ok = (np.abs(centre) <= max(2, half // 2)) & (mass.sum(axis=1) > 0)
    if ok.sum() < 3 or ok.mean() < 0.75 or np.std(centre[ok]) > max(1.5, 0.15 * half):
        return None  # no straight line runs there: the centres wander (stripes crossed at a slant)
    aligned = [np.stack([np.interp(offs + k, offs, r[:, ch]) for ch in range(r.shape[1])], axis=1)
               for r, k, good in zip(rows, centre, ok) if good]
    prof = np.median(np.stack(aligned), axis=0)
    shift = float(np.median(centre[ok]))  # the line's centre off the fitted line (pixels along n)
    left, right = prof[:2].mean(axis=0), prof[-2:].mean(axis=0)
    peak = np.abs(prof - (left + right) / 2).max()
    if np.abs(left - right).max() > 0.5 * peak:  # a step (an edge between two regions), not a line
        return None
    return _detrend(prof), shift


def _sample(img: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """``img`` (bilinear, edges replicated) at the points (``xs``, ``ys``): (n, channels)."""
    n = len(xs)
    cols = 1024
    pad = (-n) % cols
    mx = np.pad(xs.astype(np.float32), (0, pad)).reshape(-1, cols)
    my = np.pad(ys.astype(np.float32), (0, pad)).reshape(-1, cols)
    out = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(-1, img.shape[2] if img.ndim == 3 else 1)[:n]


def _same_line(a: np.ndarray, b: np.ndarray) -> bool:
    """Two cross-sections of one line: alike in shape (correlation from 0.8), in strength (within a
    factor of 1.6), narrow (at half strength under 65% of the window wide) and alone (flat in the
    outer quarters of the window, under half its strength there)."""
    x, y = a.mean(axis=1), b.mean(axis=1)
    na, nb = float(np.abs(x).max()), float(np.abs(y).max())
    if min(na, nb) <= 0 or max(na, nb) > 1.6 * min(na, nb):
        return False
    r = float(np.dot(x, y) / (np.linalg.norm(x) * np.linalg.norm(y)))
    narrow = max((np.abs(x) >= 0.5 * na).sum(), (np.abs(y) >= 0.5 * nb).sum()) < 0.65 * len(x)
    # alone on its background: the outer quarters of the cross-section are under half its strength (not the next of
    # a row of stripes, planks or blades)
    q = max(1, len(x) // 4)
    alone = all(max(np.abs(v[:q]).max(), np.abs(v[-q:]).max()) < 0.5 * m for v, m in ((x, na), (y, nb)))
    return r >= 0.8 and narrow and alone


def _chord_profile(img: np.ndarray, hole: np.ndarray, c, d, half: int) -> np.ndarray | None:
    """The fill's own mean cross-section along the chord inside the hole, as :func:`_profile`
    gives it (difference from the ends), or ``None`` where too little of the chord is in the hole."""
    n = np.array([-d[1], d[0]])
    h, w = hole.shape
    offs = np.arange(-half, half + 1, dtype=np.float32)
    rows = []
    for t in np.linspace(-h - w, h + w, 4 * (h + w) // max(half, 1)):
        q = c + t * d
        xs, ys = q[0] + offs * n[0], q[1] + offs * n[1]
        if xs.min() < 0 or ys.min() < 0 or xs.max() > w - 1 or ys.max() > h - 1:
            continue
        if hole[ys.round().astype(int), xs.round().astype(int)].all():
            rows.append(_cross_section(img, q, n, offs))
    if len(rows) < 3:
        return None
    return _detrend(np.median(np.stack(rows), axis=0))


def find_lines(original: np.ndarray, hole: np.ndarray, unit: float = 1.0) -> list:
    """The thin lines that cross ``hole`` in ``original``: (centre, direction, piece, piece) in
    ``original``'s pixels, looked for on a copy at most :data:`LOOK_SIDE` pixels a side (the hole
    itself filled there by Telea's method, so that its border is no edge)."""
    f = min(1.0, LOOK_SIDE / max(hole.shape))
    size = (max(8, round(hole.shape[1] * f)), max(8, round(hole.shape[0] * f)))
    img = original.reshape(original.shape[0], original.shape[1], -1)
    grey = (img.astype(np.float32).mean(axis=2) if f == 1 else
            cv2.resize(img, size, interpolation=cv2.INTER_AREA).reshape(size[1], size[0], -1).astype(np.float32).mean(axis=2))
    small = hole if f == 1 else cv2.resize(hole.astype(np.float32), size, interpolation=cv2.INTER_AREA) > 0.5
    if not small.any() or small.all():
        return []
    grey8 = np.clip(grey / unit, 0, 255).astype(np.uint8)
    grey = cv2.inpaint(grey8, cv2.dilate(small.astype(np.uint8), np.ones((3, 3), np.uint8)), 3,
                       cv2.INPAINT_TELEA).astype(np.float32)
    _, _, bw, bh = cv2.boundingRect(small.astype(np.uint8))
    side = float(max(bw, bh))
    width = int(np.clip(MAX_WIDTH * side, 2, 15))
    gap = cv2.distanceTransform((~small).astype(np.uint8), cv2.DIST_L2, 3)
    near = (gap > 1.5) & (gap <= RING * side)
    ridge = _ridges(grey, width, near)
    if ridge[near].mean() > MAX_RIDGES:
        return []  # a texture of lines (stripes, blades, planks): for the exemplar fill to continue
    segs = _segments(ridge, near, max(8, int(0.15 * side)))
    if len(segs) < 2:
        return []
    chords = []
    for c, d, s1, s2 in _chords(segs, small, side):  # back to full resolution
        c = (np.asarray(c) + 0.5) / f - 0.5
        s1, s2 = (tuple((np.asarray(sg) + 0.5) / f - 0.5) for sg in (s1, s2))
        chords.append((c, d, s1, s2, max(2, round(width / f))))
    return chords


def carry_lines(filled: np.ndarray, original: np.ndarray, hole: np.ndarray, chords: list) -> np.ndarray:
    """``filled`` (float, the hole filled) with the lines :func:`find_lines` found drawn through it
    (in place, and returned). ``original`` gives the lines' pieces outside the hole; pixels outside
    ``hole`` are unchanged. Each line is checked and drawn on a crop around its chord only."""
    out = filled.reshape(filled.shape[0], filled.shape[1], -1)
    known = original.reshape(original.shape[0], original.shape[1], -1)
    H, W = hole.shape
    drawn = []
    for c, d, s1, s2, width in chords:
        half = width + 2
        rows1, rows2 = _piece_rows(known, c, d, s1, half), _piece_rows(known, c, d, s2, half)
        got, one, two = _profile(rows1 + rows2, half), _profile(rows1, half), _profile(rows2, half)
        if got is None or one is None or two is None or not _same_line(one[0], two[0]):
            continue
        prof, shift = got
        n = np.array([-d[1], d[0]], np.float32)
        c = c + shift * n
        if any(abs(float(d @ d2)) > math.cos(ANGLE) and abs(float((c - c2) @ n)) <= width for c2, d2 in drawn):
            continue  # the same line, found twice (its two edges)
        drawn.append((c, d))
        ends = np.array([s1, s2], np.float32).reshape(4, 2) @ d - c @ d
        corners = np.array([c + t * d + o * n for t in (ends.min(), ends.max()) for o in (-2 * half, 2 * half)])
        x1, y1 = np.clip(np.floor(corners.min(axis=0)).astype(int), 0, [W, H])
        x2, y2 = np.clip(np.ceil(corners.max(axis=0)).astype(int) + 1, 0, [W, H])
        if x2 <= x1 or y2 <= y1:
            continue
        crop, crop_hole = out[y1:y2, x1:x2], hole[y1:y2, x1:x2]
        cc = c - np.array([x1, y1], np.float32)
        yy, xx = np.nonzero(crop_hole)
        pts = np.stack([xx, yy], axis=1).astype(np.float32)
        off, along = (pts - cc) @ n, (pts - cc) @ d
        on = (np.abs(off) <= half) & (along >= ends.min()) & (along <= ends.max())
        if not on.any():
            continue
        here = _chord_profile(np.ascontiguousarray(crop), crop_hole, cc, d, half)
        if here is not None and float((here * prof).sum()) > 0.5 * float((prof * prof).sum()):
            continue  # the fill carries the line already
        smooth = cv2.GaussianBlur(np.ascontiguousarray(crop), (0, 0), 1.5).reshape(crop.shape)
        k = np.clip(off[on] + half, 0, len(prof) - 1.001)
        k0 = np.floor(k).astype(int)
        f = (k - k0)[:, None]
        line = (1 - f) * prof[k0] + f * prof[k0 + 1]
        # the background under the line: the fill at the two ends of its cross-section, across
        py, px = yy[on].astype(np.float32), xx[on].astype(np.float32)
        sides = [_sample(smooth, px + (sgn * half - off[on]) * n[0], py + (sgn * half - off[on]) * n[1])
                 for sgn in (-1, 1)]
        r = ((off[on] + half) / (2 * half))[:, None]
        under = (1 - r) * sides[0] + r * sides[1]
        strength = np.abs(prof).max(axis=1)
        core = (1 - f[:, 0]) * strength[k0] + f[:, 0] * strength[k0 + 1]
        a = np.clip(core / max(float(strength.max()), 1e-6) * 3, 0, 1)[:, None]
        crop[yy[on], xx[on]] = (1 - a) * crop[yy[on], xx[on]] + a * (under + line)
    return filled
