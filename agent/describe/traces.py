"""Mouse traces in Localized Narratives form: validation, segmentation into pieces, boxes.

A trace is ``[[{"x": .., "y": .., "t": ..}, ...], ...]``: a list of strokes (the pen was lifted between
them), each a list of points with ``x`` and ``y`` normalised to the image (0..1, may stray slightly
outside) and ``t`` in seconds. Internally a stroke is a float array of shape (n, 3) with columns x, y, t.

Segmentation follows what a person does when they narrate while pointing: they pause or lift the
pen between things, and the pointer dwells on one thing while they talk about it. So a trace is cut
where the pen lifts or pauses, and where the pointer moves from one region to another (regions are
object boxes from perception, or cells of a 3x3 grid on the background, where the pointer travelling
in a straight line from one dwell to the next also separates them); runs too short to be looked
at (passing over something on the way to the next thing) are absorbed into their neighbours.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

# Coordinates may stray outside the image (people overshoot at the border), but not far.
_MARGIN = 0.5
# An hour of tracing at 50 points a second; anything longer is not a mouse trace.
MAX_POINTS = 180_000


class TraceError(ValueError):
    """The trace is not in Localized Narratives form, or holds impossible values."""


def validate_trace(trace: object) -> list[np.ndarray]:
    """Check a trace in Localized Narratives form and return its strokes as (n, 3) float arrays.

    Accepts the list of strokes, a single stroke (a list of points), or a Localized Narratives record
    (a dict with a ``"traces"`` key). Empty strokes are dropped.

    Raises
    ------
    TraceError
        With a message that says which stroke and point are wrong.

    Examples
    --------
    >>> s = validate_trace([[{"x": 0.1, "y": 0.2, "t": 0.0}, {"x": 0.3, "y": 0.2, "t": 0.1}]])
    >>> s[0].shape
    (2, 3)
    """
    if isinstance(trace, dict):
        if "traces" not in trace:
            raise TraceError("a trace record needs a 'traces' key holding a list of strokes")
        trace = trace["traces"]
    if not isinstance(trace, (list, tuple)):
        raise TraceError(f"a trace is a list of strokes, got {type(trace).__name__}")
    if trace and isinstance(trace[0], dict):  # one stroke given without the outer list
        trace = [trace]
    strokes = []
    last_t = -math.inf
    total = 0
    for i, stroke in enumerate(trace):
        if not isinstance(stroke, (list, tuple)):
            raise TraceError(f"stroke {i} is not a list of points")
        total += len(stroke)
        if total > MAX_POINTS:
            raise TraceError(f"the trace has more than {MAX_POINTS} points")
        rows = []
        for j, p in enumerate(stroke):
            if not isinstance(p, dict) or not {"x", "y", "t"} <= set(p):
                raise TraceError(f"stroke {i} point {j}: a point is {{'x': .., 'y': .., 't': ..}}")
            try:
                x, y, t = float(p["x"]), float(p["y"]), float(p["t"])
            except (TypeError, ValueError):
                raise TraceError(f"stroke {i} point {j}: x, y and t must be numbers") from None
            if not all(math.isfinite(v) for v in (x, y, t)):
                raise TraceError(f"stroke {i} point {j}: x, y and t must be finite")
            if not (-_MARGIN <= x <= 1 + _MARGIN and -_MARGIN <= y <= 1 + _MARGIN):
                raise TraceError(f"stroke {i} point {j}: x={x:g}, y={y:g} is far outside the image "
                                 "(coordinates are normalised to 0..1)")
            if t < last_t - 1e-6:
                raise TraceError(f"stroke {i} point {j}: time goes backwards ({t:g} s after {last_t:g} s)")
            last_t = t
            rows.append((x, y, t))
        if rows:
            strokes.append(np.asarray(rows, dtype=np.float64))
    if not strokes:
        raise TraceError("the trace has no points")
    return strokes


def load_trace(path: str | Path) -> list[np.ndarray]:
    """Read a trace from a JSON file (Localized Narratives form) and validate it."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TraceError(f"no such trace file: {path}") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TraceError(f"{path} is not a JSON trace: {exc}") from None
    return validate_trace(data)


def to_ln(strokes: Sequence[np.ndarray], ndigits: int = 4) -> list[list[dict]]:
    """Strokes back to Localized Narratives form (JSON-ready)."""
    return [[{"x": round(float(x), ndigits), "y": round(float(y), ndigits), "t": round(float(t), 3)}
             for x, y, t in s] for s in strokes]


def points_box(points: np.ndarray) -> tuple[float, float, float, float]:
    """The bounding box ``(x1, y1, x2, y2)`` of points (columns x, y, ...), clipped to 0..1."""
    xy = np.clip(np.asarray(points, dtype=np.float64)[:, :2], 0.0, 1.0)
    return (float(xy[:, 0].min()), float(xy[:, 1].min()), float(xy[:, 0].max()), float(xy[:, 1].max()))


@dataclass
class TraceSegment:
    """A piece of a trace that dwells on one region; ``box`` is normalised (x1, y1, x2, y2)."""

    points: np.ndarray  # (n, 3): x, y, t
    region: int  # index into the regions given to segment_trace, or -1 - grid cell for background
    # which points dwell on the region (False: passing over on the way in or out); None: all do
    core: np.ndarray | None = None

    @property
    def t0(self) -> float:
        return float(self.points[0, 2])

    @property
    def t1(self) -> float:
        return float(self.points[-1, 2])

    @property
    def box(self) -> tuple[float, float, float, float]:
        """Bounding box of the points that dwell on the region (travel in and out left out)."""
        if self.core is not None and self.core.any():
            return points_box(self.points[self.core])
        return points_box(self.points)


def grid_cell(x: float, y: float) -> int:
    """The 3x3 grid cell (0..8, row-major) of a normalised point."""
    col = min(2, max(0, int(x * 3)))
    row = min(2, max(0, int(y * 3)))
    return row * 3 + col


def _point_regions(xy: np.ndarray, regions: Sequence[tuple[float, float, float, float]],
                   margin: float = 0.12) -> np.ndarray:
    """Region of each point: the smallest region box holding it, else the smallest box holding it
    once grown by ``margin`` of its size on each side (people overshoot the edges of what they
    circle, and detector boxes are often a little tight), else -1 - its grid cell."""
    labels = np.array([-1 - grid_cell(x, y) for x, y in xy], dtype=np.int64)
    if not regions:
        return labels
    boxes = np.asarray(regions, dtype=np.float64).reshape(-1, 4)
    size = boxes[:, 2:] - boxes[:, :2]
    area = size[:, 0] * size[:, 1]
    for grow in (0.0, margin):
        b = boxes + np.concatenate([-size, size], axis=1) * grow
        inside = ((xy[:, None, 0] >= b[None, :, 0]) & (xy[:, None, 0] <= b[None, :, 2])
                  & (xy[:, None, 1] >= b[None, :, 1]) & (xy[:, None, 1] <= b[None, :, 3]))
        # the smallest box holding the point wins: a cup on a table belongs to the cup
        score = np.where(inside, area[None, :], np.inf)
        best = np.argmin(score, axis=1)
        has = np.isfinite(score[np.arange(len(xy)), best]) & (labels < 0)
        labels[has] = best[has]
    return labels


def segment_trace(strokes: Sequence[np.ndarray], *,
                  regions: Sequence[tuple[float, float, float, float]] = (),
                  pause: float = 0.6, min_dwell: float = 0.3, min_points: int = 3,
                  background_grid: bool = True) -> list[TraceSegment]:
    """Cut a trace into segments that each dwell on one region, in time order.

    Parameters
    ----------
    strokes : list of (n, 3) arrays
        From :func:`validate_trace`.
    regions : sequence of normalised boxes
        Object boxes to cut along (the smallest box holding a point claims it).
    pause : float
        A gap in time longer than this (seconds) between two points ends a segment.
    min_dwell : float
        A run over one region shorter than this (seconds), or than ``min_points`` points, or a
        straight run shorter than twice this, is a pass-over and joins its neighbour.
    background_grid : bool
        Cut the background into the cells of a 3x3 grid (else the background is one region).

    Returns
    -------
    list of TraceSegment
        Consecutive segments have different regions unless a pause separates them.
    """
    if pause <= 0:
        raise ValueError(f"pause must be positive, got {pause}")
    runs: list[_Run] = []
    for s in strokes:
        labels = _point_regions(s[:, :2], regions)
        if not background_grid:
            labels = np.where(labels < 0, -1, labels)
        # off the objects, the pointer travelling from one dwell to the next separates them even
        # within one grid cell (a loop over something the detector missed, then the grass below it)
        labels = np.where(labels < 0, labels - 9 * _dwell_index(s), labels)
        start = 0
        for k in range(1, len(s) + 1):
            cut = k == len(s) or labels[k] != labels[start] or s[k, 2] - s[k - 1, 2] > pause
            if cut:
                brk = start == 0 or s[start, 2] - s[start - 1, 2] > pause
                runs.append(_Run.of(s[start:k], int(labels[start]), brk))
                start = k
    if not runs:
        return []

    def short(r: _Run) -> bool:
        dur = r.t1 - r.t0
        if r.n < min_points or dur < min_dwell:
            return True
        # a straight, brisk run is the pointer travelling to the next thing, not looking at this one
        straight = float(np.linalg.norm(r.last - r.first)) / r.path if r.path > 0 else 0.0
        return dur < 2 * min_dwell and straight > 0.85

    # absorb pass-overs: a short run goes to the run before it (or, first of all, to the one after
    # it), keeping its times but not its box (core False); a merged run that is still short is
    # merged again, so a stretch of short glances ends up with its neighbour. Runs before the
    # merge point are unchanged (not short), so the scan resumes there.
    i = 0
    while i < len(runs) and len(runs) > 1:
        if not short(runs[i]):
            i += 1
            continue
        j = i - 1 if i > 0 else i + 1
        if runs[i].brk:
            # A run that starts a stroke (after a pen lift or a pause) belongs to what follows it
            # in its stroke, never to what came before the lift; a whole stroke on its own was
            # drawn on purpose and stays, unless it is a mere click.
            if i + 1 < len(runs) and not runs[i + 1].brk:
                j = i + 1
            elif runs[i].n >= min_points:
                i += 1
                continue
        lo = min(i, j)
        runs[lo:lo + 2] = [_Run.merge(runs[lo], runs[lo + 1], keep=runs[j])]
        i = lo
    # join neighbours over the same region unless a deliberate break (pen lift or pause) separates
    # them on a background cell; on an object the same region is the same thing, so always join
    out: list[_Run] = [runs[0]]
    for r in runs[1:]:
        prev = out[-1]
        if r.region == prev.region and (r.region >= 0 or not r.brk):
            out[-1] = _Run.merge(prev, r, keep=None)
        else:
            out.append(r)
    return [TraceSegment(points=np.concatenate(r.pieces), region=r.region, core=np.concatenate(r.cores))
            for r in out]


def _dwell_index(s: np.ndarray, travel: float = 0.08) -> np.ndarray:
    """For each point of a stroke, how many travels came before it: a travel is a stretch of
    points moving over three times the stroke's median speed, or turning by less than 6 degrees
    at each point, that goes more than ``travel`` (normalised) in a nearly straight line."""
    idx = np.zeros(len(s), np.int64)
    if len(s) < 5:
        return idx
    step = np.linalg.norm(np.diff(s[:, :2], axis=0), axis=1) / np.maximum(np.diff(s[:, 2]), 1e-3)
    speed = np.maximum(np.r_[step[0], step], np.r_[step, step[-1]])
    d = np.diff(s[:, :2], axis=0)
    cos = np.einsum("ij,ij->i", d[:-1], d[1:]) / np.maximum(
        np.linalg.norm(d[:-1], axis=1) * np.linalg.norm(d[1:], axis=1), 1e-9)
    cuts = []
    for moving in (speed > 3 * np.median(speed), np.r_[False, cos > 0.995, False]):
        start = None
        for i in range(len(s) + 1):
            if i < len(s) and moving[i]:
                start = i if start is None else start
                continue
            if start is not None:
                lo, hi = max(0, start - 1), min(len(s), i + 1)  # the steps into and out of it
                gone = float(np.linalg.norm(s[hi - 1, :2] - s[lo, :2]))
                path = float(np.linalg.norm(np.diff(s[lo:hi, :2], axis=0), axis=1).sum())
                if gone > travel and gone >= 0.9 * path:
                    cuts.append((lo, hi))
                start = None
    for lo, hi in sorted(cuts):
        if idx[(lo + hi) // 2] == idx[lo]:  # the same travel seen both ways counts once
            idx[(lo + hi) // 2:] += 1
    return idx


@dataclass
class _Run:
    """Consecutive points over one region; pieces are concatenated only at the end (merges of
    many short runs into one would otherwise copy it again and again)."""

    pieces: list[np.ndarray]
    cores: list[np.ndarray]
    region: int
    brk: bool  # starts after a pen lift or a pause
    n: int
    t0: float
    t1: float
    path: float  # length of the path, normalised units
    first: np.ndarray
    last: np.ndarray

    @classmethod
    def of(cls, pts: np.ndarray, region: int, brk: bool) -> _Run:
        path = float(np.linalg.norm(np.diff(pts[:, :2], axis=0), axis=1).sum())
        return cls([pts], [np.ones(len(pts), bool)], region, brk, len(pts), float(pts[0, 2]),
                   float(pts[-1, 2]), path, pts[0, :2], pts[-1, :2])

    @staticmethod
    def merge(a: _Run, b: _Run, keep: _Run | None) -> _Run:
        """``a`` then ``b`` (``a`` is extended in place); with ``keep`` given, only its core
        survives and its region is taken."""
        if keep is b:  # only when a short first run joins the next one: a is small
            a.cores = [np.zeros(len(c), bool) for c in a.cores]
            a.region = b.region
        a.cores.extend(b.cores if keep is None or keep is b else [np.zeros(len(c), bool) for c in b.cores])
        a.pieces.extend(b.pieces)
        a.path += float(np.linalg.norm(b.first - a.last)) + b.path
        a.n += b.n
        a.t1 = b.t1
        a.last = b.last
        return a


def synthetic_trace(boxes: Sequence[tuple[float, float, float, float]], *, dwell: float = 1.2,
                    travel: float = 0.25, rate: float = 20.0, cover: float = 0.8,
                    rng: np.random.Generator | None = None, jitter: float = 0.0) -> list[np.ndarray]:
    """A one-stroke trace that circles inside each normalised box in turn (for ``locate``, benchmarks).

    The pointer makes a loop covering ``cover`` of each box's width and height for ``dwell`` seconds
    (so the bounding box of that piece of the trace is about the box shrunk to ``cover``), then moves
    to the next box in ``travel`` seconds. ``jitter`` adds Gaussian noise (normalised units).
    """
    if not boxes:
        raise ValueError("synthetic_trace needs at least one box")
    if not 0 < cover <= 1:
        raise ValueError(f"cover must be in (0, 1], got {cover}")
    rng = rng or np.random.default_rng(0)
    pts: list[tuple[float, float, float]] = []
    t = 0.0
    n_loop = max(8, int(dwell * rate))
    n_move = max(2, int(travel * rate))
    for bi, (x1, y1, x2, y2) in enumerate(boxes):
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        rx, ry = (x2 - x1) * cover / 2, (y2 - y1) * cover / 2
        phase = rng.uniform(0, 2 * np.pi)
        loop = [(cx + rx * math.cos(phase + 2 * math.pi * k / (n_loop - 1)),
                 cy + ry * math.sin(phase + 2 * math.pi * k / (n_loop - 1))) for k in range(n_loop)]
        if bi > 0:  # travel from the last point to the start of this loop
            px, py, _ = pts[-1]
            for k in range(1, n_move):
                a = k / n_move
                t += travel / n_move
                pts.append((px + a * (loop[0][0] - px), py + a * (loop[0][1] - py), t))
        for k, (x, y) in enumerate(loop):
            if k or bi:
                t += dwell / n_loop
            pts.append((x, y, t))
    arr = np.asarray(pts, dtype=np.float64)
    if jitter > 0:
        arr[:, :2] += rng.normal(0, jitter, size=(len(arr), 2))
    return [arr]


def window_boxes(strokes: Sequence[np.ndarray], window: float = 0.4) -> list[tuple[float, float, float, float]]:
    """The trace as a sequence of boxes, one per ``window`` seconds (MITR's trace representation).

    Each box is the bounding box of the points whose time falls in that window; empty windows
    (pen up) are skipped.
    """
    if window <= 0:
        raise ValueError(f"window must be positive, got {window}")
    pts = np.concatenate(list(strokes))
    if len(pts) == 0:
        return []
    t0 = pts[0, 2]
    idx = np.floor((pts[:, 2] - t0) / window).astype(np.int64)
    return [points_box(pts[idx == k]) for k in np.unique(idx)]
