"""Dwells inside a detection's box that are not on the object: the flag beside the astronaut, the
bench behind the motorcycle, the wall between two cats.

On whole photos a detection's box holds much that is not the object: a person's box takes in the
flag behind her shoulder, a motorcycle's the bench and the boxes on the shelf behind it. A trace
that dwells there is about that, not about the object whose box it is in. :func:`split_off_object`
cuts such a dwell out of the object's piece of trace and gives it to the background (where the
classifier may name it, or it is described as a region or "an object").

The piece of trace is cut into dwells where the pen lifts or travels fast (:func:`dwells`). A dwell
is cut out only when all of these hold, so that a loop over the object, or over a part of it, stays
the object's:

- it lasts at least :data:`OFF_DWELL` seconds (two shorter dwells in a row on one place count as
  one) and its box covers at most :data:`SMALL_PART` of the detection's box (a loop over the
  whole object covers more: only then is a mask computed), or at most :data:`LARGE_PART` with
  at most :data:`FAR_OFF` of its points on the mask when it lasts :data:`LINGER` seconds or
  more (a trace lingering between two things behind the object);
- at most :data:`ON_SHARE` of its points are on the object's GrabCut mask (at :data:`MASK_SIDE`
  pixels: at GrabCut's usual 96 the astronaut's mask lost her head, at 200 it holds it; a skin
  test was tried to keep faces and dropped: the flag's shaded stripes are half "skin"), or more
  when the classifier, which has words for the object, gives the dwell's crop almost none of
  them (:data:`NO_SUPPORT`: GrabCut took a red bin for part of a red motorcycle); a dwell the
  classifier sees as the object (:data:`SEEN`) is the object's wherever the mask is;
- GrabCut found the object, with room around the box to learn the background from
  (:data:`ROOM`: a table box that fills the picture gives none, and nothing is cut);
- where the classifier has no word for the object (a person), it does not call the dwell's crop
  what the detector called the object.
"""

from __future__ import annotations

import numpy as np

OFF_DWELL = 0.6
SMALL_PART = 0.2
# A dwell over a larger part of the box (up to LARGE_PART) is off the object when at most FAR_OFF
# of its points are on the mask: a trace lingering back and forth between the bench and a box
# behind a motorcycle, or between the flag and the shuttle model beside the astronaut, covered a
# third to 0.58 of the box with 4-12% of its points on the mask, where loops over the whole
# motorcycle or the astronaut had 35-77% (bench/trace.py --photos 60). Only a dwell of LINGER
# seconds or more: those lingers lasted 4.4-4.5 s, while half a loop round a rocket the detector
# boxed too narrowly (a "boat"), 0.6 s, had none of its points on a mask that missed the rocket
# (bench/trace.py's development set).
LARGE_PART = 0.6
FAR_OFF = 0.15
LINGER = 2.0
ON_SHARE = 0.3
MASK_SIDE = 200
# share of GrabCut's crop that must lie outside the box (the coffee photo's "dining table" fills
# the picture: 1.5% outside, and its mask left out the table top a trace dwelt on)
ROOM = 0.1
# a gap in time (a pen lift) or a step this many times the piece's median speed ends a dwell
LIFT = 0.3
TRAVEL = 3.0


def dwells(points: np.ndarray) -> list[tuple[int, int]]:
    """``[start, end)`` index ranges of the dwells in a piece of trace (x, y, t rows): runs of
    points between pen lifts and fast travel."""
    n = len(points)
    if n < 3:
        return [(0, n)]
    t = points[:, 2]
    dt = np.diff(t)
    step = np.linalg.norm(np.diff(points[:, :2], axis=0), axis=1) / np.maximum(dt, 1e-3)
    cut = (dt > LIFT) | (step > TRAVEL * np.median(step))
    out, a = [], 0
    for i in np.nonzero(cut)[0]:
        if i + 1 > a:
            out.append((a, i + 1))
        a = i + 1
    out.append((a, n))
    return [(a, b) for a, b in out if b - a >= 2]


def on_mask(points: np.ndarray, box, mask: np.ndarray, w: int, h: int) -> np.ndarray:
    """Per point (normalised x, y, ...), whether it lies on ``mask`` (the object inside ``box``,
    pixels); points outside the box are off it."""
    x = np.asarray(points[:, 0]) * w - box[0]
    y = np.asarray(points[:, 1]) * h - box[1]
    xi, yi = np.floor(x).astype(int), np.floor(y).astype(int)
    inside = (xi >= 0) & (yi >= 0) & (xi < mask.shape[1]) & (yi < mask.shape[0])
    out = np.zeros(len(points), bool)
    out[inside] = mask[yi[inside], xi[inside]]
    return out


def _small(points: np.ndarray, box, w: int, h: int, part: float = SMALL_PART) -> bool:
    xy = points[:, :2] * (w, h)
    area = max(1.0, float((box[2] - box[0]) * (box[3] - box[1])))
    return float(np.ptp(xy[:, 0]) * np.ptp(xy[:, 1])) <= part * area


def _pixel_box(points: np.ndarray, w: int, h: int) -> tuple[int, int, int, int]:
    xy = np.clip(points[:, :2], 0, 1) * (w, h)
    x1, y1 = int(xy[:, 0].min()), int(xy[:, 1].min())
    return (x1, y1, max(x1 + 1, int(np.ceil(xy[:, 0].max()))), max(y1 + 1, int(np.ceil(xy[:, 1].max()))))


def _room_around(box, w: int, h: int) -> bool:
    """Whether GrabCut's crop around ``box`` (a 15% margin) has enough outside the box to learn the
    background from (:data:`ROOM`)."""
    from agent.perception.naming import crop_box

    c = crop_box(box, (h, w), pad=0.15)
    crop = (c[2] - c[0]) * (c[3] - c[1])
    return crop - (box[2] - box[0]) * (box[3] - box[1]) >= ROOM * crop


def _joined(spans: list[tuple[int, int]], points: np.ndarray, w: int, h: int) -> list[tuple[int, int]]:
    """A dwell too short to count (:data:`OFF_DWELL`) joined by the next when their boxes
    overlap: a thing looked at twice in a row (a box on a shelf behind a motorcycle, in two dwells
    of half a second each)."""
    out: list[tuple[int, int]] = []
    for a, b in spans:
        if out and points[out[-1][1] - 1, 2] - points[out[-1][0], 2] < OFF_DWELL:
            p, q = _pixel_box(points[out[-1][0]:out[-1][1]], w, h), _pixel_box(points[a:b], w, h)
            if min(p[2], q[2]) > max(p[0], q[0]) and min(p[3], q[3]) > max(p[1], q[1]):
                out[-1] = (out[-1][0], b)
                continue
        out.append((a, b))
    return out


# Support for the object's label (ImageNet probabilities summed over the words that agree with
# it) in the dwell's crop as it is: below NO_SUPPORT a small dwell on the object's mask is on
# something else GrabCut took for it (a red bin beside a red motorcycle, "motorbike" under 0.05,
# a "shopping basket" to it); from SEEN a dwell off the mask is still on the object (the
# motorcycle's mask misses most of its engine, a "motorbike" and "scooter" at 0.4-0.6 there,
# and a loop there is the motorcycle). bench/trace.py --photos 60.
NO_SUPPORT = 0.05
SEEN = 0.15


def _support(rgb: np.ndarray, box, label: str) -> float | None:
    """The classifier's support for ``label`` in the dwell's crop (grown by a quarter, not
    squared: a long dwell squared is mostly what is around it); None where it has no word for
    the label (people: ImageNet has no class for them, a dwell on a face gets no support)."""
    from agent.perception.classify import classify_crops, word_probs
    from agent.perception.naming import classifier_knows, crop_box
    from agent.perception.vocabulary import agrees

    if label == "person" or not classifier_knows(label):
        return None
    words = word_probs(classify_crops(rgb, [crop_box(box, rgb.shape, pad=0.25)])[0])
    return sum(p for word, p in words.items() if agrees(word, label))


def split_off_object(segs, rgb: np.ndarray, dets) -> list:
    """``segs`` (:class:`agent.describe.traces.TraceSegment`, ``region`` indexing ``dets``) with the dwells
    off each object cut out into background segments (``region`` -1)."""
    from agent.describe.traces import TraceSegment
    from agent.perception.naming import grabcut_mask, name_regions
    from agent.perception.vocabulary import agrees

    h, w = rgb.shape[:2]
    masks: dict[int, np.ndarray | None] = {}
    out = []
    for s in segs:
        if s.region < 0 or len(s.points) < 5:
            out.append(s)
            continue
        d = dets[s.region]
        box = tuple(int(v) for v in d.box)
        if not _room_around(box, w, h):
            out.append(s)
            continue
        cand = [(a, b) for a, b in _joined(dwells(s.points), s.points, w, h)
                if s.points[b - 1, 2] - s.points[a, 2] >= OFF_DWELL and _small(s.points[a:b], box, w, h, LARGE_PART)]
        cuts = []
        for a, b in cand:
            if s.region not in masks:
                masks[s.region] = grabcut_mask(rgb, box, side=MASK_SIDE)
            mask = masks[s.region]
            if mask is None:
                continue
            on = on_mask(s.points[a:b], box, mask, w, h).mean()
            if not _small(s.points[a:b], box, w, h) and (on > FAR_OFF or s.points[b - 1, 2] - s.points[a, 2] < LINGER):
                continue
            support = _support(rgb, _pixel_box(s.points[a:b], w, h), d.label)
            if support is not None:  # the classifier has words for it: it decides
                if support >= (NO_SUPPORT if on > ON_SHARE else SEEN):
                    continue
            else:
                named = name_regions(rgb, [_pixel_box(s.points[a:b], w, h)])[0]
                if on > ON_SHARE or named is not None and (agrees(named.noun, d.label) or named.noun == d.label):
                    continue
            cuts.append((a, b))
        if not cuts:
            out.append(s)
            continue
        core = s.core if s.core is not None else np.ones(len(s.points), bool)
        edges = [0] + [i for c in cuts for i in c] + [len(s.points)]
        for n, (a, b) in enumerate(zip(edges[:-1], edges[1:])):
            if b - a >= 2:
                out.append(TraceSegment(points=s.points[a:b], region=-1 if n % 2 else s.region, core=core[a:b]))
    return out
