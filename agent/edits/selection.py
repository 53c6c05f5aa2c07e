"""What the person drew, as a region: a trace that circles or scribbles over something, or a box,
snapped to the edges of what it encloses (:func:`editor.masks.refine_to_edges`).

The window (and ``main.py edit --trace/--box``) makes a :class:`Selection` from a drawing, shows its
outline (:meth:`Selection.overlay`) and keeps it for the next request that says "this", "here",
"that area", "there" or "it": the reader writes such a request with ``in selection``
(``adjust_attr brightness 20 in selection``), ``remove selection`` or ``crop selection``, and the
dialogue passes :attr:`Selection.mask` to the edit. No Qt.

How a drawing becomes a mask (each stroke of a trace on its own, then their union):

- a loop (a stroke whose ends meet around something, :func:`editor.masks.is_loop`) is filled and
  refined within itself (``reach=0``: nothing outside the loop is taken);
- a scribble is the path, :data:`editor.masks.STROKE_WIDTH` of the diagonal wide, refined with a
  reach of its extent (:data:`SCRIBBLE_REACH`), so the region can grow to the edges of the thing
  scribbled on (a scribble usually covers a part of it);
- a box is refined within itself;
- where GrabCut finds nothing to separate (it gives the drawing back unchanged), the drawing
  itself is the region, feathered :data:`editor.masks.DRAWN_FEATHER` of the diagonal.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from editor import masks
from editor.ops import check_image

Box = tuple[int, int, int, int]
MAX_STROKES = 6  # a longer trace (a narration) is taken as one rough region, refined once
SCRIBBLE_REACH = 1.0  # a scribble's region may grow this fraction of its extent past the brush
SELECTION_COLOR = "#33ff99"
SELECTION_LABEL = "selection"


@dataclass
class Selection:
    """A drawn region: its soft mask on the version it was drawn on, and what was drawn."""

    mask: np.ndarray  # float32 (H, W) in [0, 1]
    source: str  # "trace" or "box"
    refined: bool  # snapped to edges (else the drawing itself, feathered)
    drawn: list  # the trace (Localized Narratives form) or [x1, y1, x2, y2]
    version_id: str | None = None  # the version it was drawn on (the caller sets it)
    _overlay: dict | None = field(default=None, repr=False, compare=False)

    @property
    def shape(self) -> tuple[int, int]:
        return self.mask.shape

    def box(self) -> Box:
        """The bounding box of the mask at 0.5 and above, pixels, ``x2``/``y2`` exclusive."""
        h, w = self.mask.shape
        return masks.bounding_box(self.mask) or (0, 0, w, h)

    def outline(self, max_points: int = 400) -> list[list[list[float]]]:
        """The mask's outline at 0.5 as polygons of normalised ``[x, y]`` points (largest first)."""
        h, w = self.mask.shape
        f = min(1.0, 1024 / max(h, w))  # the outline of a 12-megapixel mask, found on a 1024-px copy
        small = self.mask if f == 1 else cv2.resize(self.mask, (max(1, round(w * f)), max(1, round(h * f))),
                                                      interpolation=cv2.INTER_AREA)
        hard = (small >= 0.5).astype(np.uint8)
        contours, _ = cv2.findContours(hard, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        contours = sorted(contours, key=lambda c: -cv2.contourArea(c))[:8]
        sh, sw = hard.shape
        out = []
        for c in contours:
            eps = 0.5
            poly = cv2.approxPolyDP(c, eps, True)
            while len(poly) > max_points:
                eps *= 2
                poly = cv2.approxPolyDP(c, eps, True)
            if len(poly) >= 3:
                out.append([[round(float(x) / sw, 5), round(float(y) / sh, 5)] for x, y in poly[:, 0]])
        return out

    def overlay(self) -> dict:
        """The selection as an overlay for the canvas (``kind`` "region": filled outlines)."""
        if self._overlay is None:  # drawn again at every refresh: the outline is found once
            self._overlay = {"kind": "region", "target": "current", "polygons": self.outline(),
                             "color": SELECTION_COLOR, "label": SELECTION_LABEL}
        return dict(self._overlay)


# How a loop, box or scribble is snapped: "grabcut" (editor.masks.refine_to_edges), or "cutout" (u2netp's
# subject of the drawing's neighbourhood first, GrabCut where it gives no answer). bench/pointsay.py
# --refine compares them: on its development part GrabCut was right for 21/25 loops, 19/20 boxes and
# 19/20 scribbles, the cutout first for 19/25, 20/20 and 9/20 (it takes the salient thing, not the
# one scribbled on), so GrabCut it is.
REFINE = "grabcut"


def _cutout_refine(pixels: np.ndarray, rough: np.ndarray, reach: float) -> np.ndarray | None:
    """u2netp's subject of the drawing's neighbourhood, kept within the drawing (grown by
    ``reach``); None when it is no answer (under 10% of the drawn region, or nearly all of it)."""
    from agent.edits.objects import object_mask

    hard = rough >= 0.5
    allowed = hard
    if reach > 0:
        k = int(math.ceil(reach))
        allowed = cv2.dilate(hard.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1,) * 2)) > 0
    ys, xs = np.nonzero(allowed.any(axis=1))[0], np.nonzero(allowed.any(axis=0))[0]
    try:
        found = object_mask(pixels, (int(xs[0]), int(ys[0]), int(xs[-1]) + 1, int(ys[-1]) + 1)) & allowed
    except Exception:  # noqa: BLE001 - no cutout model: GrabCut decides
        return None
    share = found.sum() / max(1, allowed.sum())
    if share < 0.1 or share > 0.98 or (reach > 0 and (found & hard).sum() < 0.5 * hard.sum()):
        return None
    return found.astype(np.float32)


def _refine(pixels: np.ndarray, rough: np.ndarray, reach: float) -> tuple[np.ndarray, bool]:
    if REFINE == "cutout":
        found = _cutout_refine(pixels, rough, reach)
        if found is not None:
            return found, True
    out = masks.refine_to_edges(pixels, rough, reach=reach)
    if reach > 0:
        out = _touching(out, rough >= 0.5)
    return out, not np.array_equal(out, (rough >= 0.5).astype(np.float32))


def _touching(soft: np.ndarray, drawn: np.ndarray) -> np.ndarray:
    """A scribble's region grows from what was scribbled on: the pieces of ``soft`` (at 0.5) that
    touch the drawn path are kept, a stray piece GrabCut found elsewhere within reach (a reflection
    of the same colour beside the thing) is dropped, with its soft edge."""
    hard = (soft >= 0.5).astype(np.uint8)
    n, labels = cv2.connectedComponents(hard, connectivity=8)
    if n <= 2:
        return soft
    keep = np.unique(labels[drawn & (hard > 0)])
    keep = keep[keep > 0]
    if len(keep) == 0 or len(keep) == n - 1:
        return soft
    near = cv2.dilate(np.isin(labels, keep).astype(np.uint8), np.ones((5, 5), np.uint8)) > 0  # the pieces' soft rims
    return np.where(near, soft, np.float32(0)).astype(np.float32)


def _finish(pixels: np.ndarray, parts: list[tuple[np.ndarray, bool]], source: str, drawn) -> Selection:
    h, w = pixels.shape[:2]
    diag = math.hypot(h, w)
    mask = np.zeros((h, w), np.float32)
    refined = True
    for part, snapped in parts:
        if not snapped:  # GrabCut found nothing to separate: the drawing itself, with a soft edge
            part = masks.feather(part, masks.DRAWN_FEATHER * diag)
            refined = False
        np.maximum(mask, part, out=mask)
    return Selection(mask, source, refined, drawn)


def from_box(pixels: np.ndarray, box) -> Selection:
    """The selection of a box drawn with the rectangle tool, snapped to what it holds."""
    check_image(pixels)
    rough = masks.from_box(pixels.shape, box)
    return _finish(pixels, [_refine(pixels, rough, 0.0)], "box", [int(v) for v in box])


def _strokes(trace) -> list[list[tuple[float, float]]]:
    """The strokes of a trace (Localized Narratives: ``[[{"x","y","t"}, ...], ...]``, or one stroke,
    or ``[x, y]`` pairs) as lists of normalised points."""
    if not isinstance(trace, (list, tuple)) or not trace:
        raise ValueError("a trace is a list of strokes, each a list of {x, y, t} points")
    if isinstance(trace[0], dict) or (isinstance(trace[0], (list, tuple)) and trace[0]
                                      and isinstance(trace[0][0], (int, float))):
        trace = [trace]  # one stroke
    out = []
    for stroke in trace:
        pts = [(float(p["x"]), float(p["y"])) if isinstance(p, dict) else (float(p[0]), float(p[1]))
               for p in stroke or []]
        if pts:
            out.append(pts)
    if not out:
        raise ValueError("the trace has no points")
    return out


def from_trace(pixels: np.ndarray, trace) -> Selection:
    """The selection of a trace (normalised points), each stroke a loop or a scribble, snapped to
    the edges of what it encloses or covers; the union of the strokes. ``ValueError`` for a trace
    without points inside the picture."""
    check_image(pixels)
    h, w = pixels.shape[:2]
    strokes = _strokes(trace)
    if len(strokes) > MAX_STROKES:  # a narration wandering over the photo: one rough region
        rough = np.zeros((h, w), np.float32)
        for s in strokes:
            np.maximum(rough, masks.from_stroke(pixels.shape, s, normalized=True), out=rough)
        return _finish(pixels, [_refine(pixels, rough, 0.0)], "trace", trace)
    parts = []
    for s in strokes:
        try:
            rough = masks.from_stroke(pixels.shape, s, normalized=True)
        except ValueError:
            continue  # a stroke outside the picture
        if masks.is_loop(pixels.shape, s, normalized=True):
            parts.append(_refine(pixels, rough, 0.0))
        else:
            xs, ys = [p[0] * w for p in s], [p[1] * h for p in s]
            reach = SCRIBBLE_REACH * max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
            parts.append(_refine(pixels, rough, reach))
    if not parts:
        raise ValueError("the trace lies outside the picture")
    return _finish(pixels, parts, "trace", trace)
