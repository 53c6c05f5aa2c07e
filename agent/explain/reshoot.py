"""Telling a re-shoot from an edit.

Easel's edits never add picture content beyond the original's frame: a crop keeps a part of it, a
rotation fills the new corners with black or transparency. So when the second image shows real
content (not black, not transparent, not flat) where the first image's frame, mapped through the
fitted alignment, does not reach, the two are two photos of the same scene taken from slightly
different places, not an image and its edit. Then the alignment is read as how the camera moved
("taken from a little further to the right"), and the misalignment a re-shoot leaves everywhere
(parallax along every edge) is not reported as objects: a changed region is kept only when its
content cannot be found nearby in the other photo, which is what a thing that really appeared
or disappeared looks like.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

# Share of the second image that must show content the first image's frame does not reach.
MIN_NEW_CONTENT = 0.02


def new_content(valid: np.ndarray, a_rgb: np.ndarray, a_alpha: np.ndarray | None) -> float:
    """Share of the after image (small copy) outside the before frame that shows real content."""
    # The footprint is eroded for the tone fit and resampled at its rim: only a band wider
    # than that counts as content beyond the frame.
    k = max(3, int(0.015 * max(valid.shape)) | 1)
    outside = ~cv2.dilate(valid.astype(np.uint8), np.ones((k, k), np.uint8)).astype(bool)
    if a_alpha is not None:
        outside &= a_alpha > 127
    if outside.mean() < MIN_NEW_CONTENT:
        return 0.0
    px = a_rgb[outside].astype(np.float32)
    bright = px.max(axis=1) > 12  # black corners of a rotation are not content
    if bright.mean() < 0.5 or float(px[bright].std()) < 4:
        return 0.0
    return float(outside.mean() * bright.mean())


def camera_motion(M: np.ndarray, bsize: tuple[int, int], asize: tuple[int, int]) -> dict:
    """How the camera moved between the shots, from the before -> after 3x3 transform: the
    shift of the scene (as a fraction of the frame), the scale and the turn."""
    wb, hb = bsize
    wa, ha = asize
    c = M @ np.array([wb / 2, hb / 2, 1.0])
    dx, dy = (c[0] - wa / 2) / wa, (c[1] - ha / 2) / ha
    scale = float(math.hypot(M[0, 0], M[0, 1]))
    angle = math.degrees(math.atan2(M[0, 1], M[0, 0]))
    return {"scene_shift": [round(float(dx), 3), round(float(dy), 3)], "scale": round(scale, 3),
            "angle": round(angle, 1)}


def _amount(v: float) -> str:
    return "slightly" if v < 0.04 else "a little" if v < 0.12 else "quite a bit"


def motion_sentence(motion: dict) -> str:
    """"The second photo looks like a re-shoot of the same scene, not an edit: it was taken from
    a little further to the right." The scene moving left in the frame means the camera moved
    right; a larger scene means the camera came closer."""
    dx, dy = motion["scene_shift"]
    parts = []
    if abs(dx) >= 0.01:
        parts.append(f"{_amount(abs(dx))} further to the {'right' if dx < 0 else 'left'}")
    if abs(dy) >= 0.01:
        parts.append(f"{_amount(abs(dy))} {'higher' if dy > 0 else 'lower'}")
    s = motion["scale"]
    if abs(s - 1) >= 0.04:
        parts.append(f"{_amount(abs(s - 1))} {'closer' if s > 1 else 'further back'}")
    where = "from " + (" and ".join(parts) if parts else "almost the same place")
    return ("The second photo looks like a re-shoot of the same scene, not an edit: it was taken "
            f"{where}.")


def tolerant_diff(after: np.ndarray, pred: np.ndarray, radius: int) -> np.ndarray:
    """Per-pixel difference to the best of the predicted image's shifts within ``radius`` pixels:
    what a few pixels of parallax explain is not a change."""
    best = cv2.absdiff(after, pred)
    step = max(1, radius // 3)
    for dy in range(-radius, radius + 1, step):
        for dx in range(-radius, radius + 1, step):
            if dx or dy:
                shifted = np.roll(pred, (dy, dx), axis=(0, 1))
                best = np.minimum(best, cv2.absdiff(after, shifted))
    return best


def real_change(kind: str, box_small: list[int], pred: np.ndarray, a_rgb: np.ndarray,
                radius: float = 0.08) -> bool:
    """Whether a changed region (small after-frame box) is a thing that appeared or disappeared
    rather than the re-shoot's parallax: away from the frame's edges, and its content (after's
    for an added thing, before's for a removed one) not found in the other photo within
    ``radius`` of the frame around it."""
    from agent.explain.align import grey_of

    if kind not in ("object_added", "object_removed"):
        return False
    x1, y1, x2, y2 = box_small
    h, w = a_rgb.shape[:2]
    edge = max(2, int(0.02 * max(h, w)))
    if x1 <= edge or y1 <= edge or x2 >= w - edge or y2 >= h - edge:
        return False  # what enters or leaves at the frame's edge is the camera moving
    src, dst = (a_rgb, pred) if kind == "object_added" else (pred, a_rgb)
    patch = grey_of(src[y1:y2, x1:x2])
    if patch.size < 64 or patch.std() < 3:
        return False
    h, w = dst.shape[:2]
    r = int(radius * max(h, w))
    win = grey_of(dst[max(0, y1 - r):min(h, y2 + r), max(0, x1 - r):min(w, x2 + r)])
    if win.shape[0] < patch.shape[0] or win.shape[1] < patch.shape[1]:
        return True
    best = float(cv2.matchTemplate(win, patch, cv2.TM_CCOEFF_NORMED).max())
    return best < 0.6
