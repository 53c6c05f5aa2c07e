"""Canvas tools and the pure geometry they rely on.

The geometry helpers at the top are plain functions of numbers (unit-tested without a window).
The tools below are small objects with ``press``/``move``/``release``/``cancel``: a drag shows a
temporary overlay on the canvas and, on release, the tool asks the canvas to emit a signal. No tool
ever changes the image; the controller decides what a finished trace or box means (both become the
selection that "this", "here" and "it" refer to; a box never crops on release).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsRectItem

MIN_ZOOM, MAX_ZOOM = 0.01, 64.0

# -- geometry ---------------------------------------------------------------------------------


def clamp_zoom(scale: float, lo: float = MIN_ZOOM, hi: float = MAX_ZOOM) -> float:
    """Keep a zoom factor within what is still usable (1% .. 6400%)."""
    return min(hi, max(lo, scale))


def wheel_zoom_factor(angle_delta: float) -> float:
    """Zoom factor for a wheel turn: one notch (120 eighths of a degree) zooms by 1.25.

    Exponential in the angle, so a notch in and a notch out return to the same zoom and
    touchpads sending small deltas zoom smoothly.
    """
    return 1.25 ** (angle_delta / 120.0)


def fit_scale(image_w: float, image_h: float, view_w: float, view_h: float, margin: float = 8) -> float:
    """The scale that shows the whole image inside the view with a small margin."""
    if image_w <= 0 or image_h <= 0:
        return 1.0
    return clamp_zoom(max(1e-6, min((view_w - 2 * margin) / image_w, (view_h - 2 * margin) / image_h)))


def normalise_point(x: float, y: float, width: int, height: int) -> tuple[float, float]:
    """Image pixel coordinates to 0..1 coordinates (Localized Narratives convention)."""
    return x / width, y / height


def drag_box(p0: tuple[float, float], p1: tuple[float, float]) -> tuple[float, float, float, float]:
    """The rectangle spanned by two drag corners, in any order, as (x1, y1, x2, y2) with x1 <= x2."""
    return min(p0[0], p1[0]), min(p0[1], p1[1]), max(p0[0], p1[0]), max(p0[1], p1[1])


def crop_box(p0: tuple[float, float], p1: tuple[float, float], width: int, height: int,
             min_side: int = 2) -> tuple[int, int, int, int] | None:
    """The whole-pixel crop box (x2, y2 exclusive) covered by a drag, clipped to the image.

    Returns ``None`` for a drag too small to mean a crop (a click) or entirely outside the image.

    >>> crop_box((10.4, 20.6), (2.2, 5.0), 100, 100)
    (2, 5, 11, 21)
    """
    x1, y1, x2, y2 = drag_box(p0, p1)
    xa, ya = max(0, math.floor(x1)), max(0, math.floor(y1))
    xb, yb = min(width, math.ceil(x2)), min(height, math.ceil(y2))
    if xb - xa < min_side or yb - ya < min_side:
        return None
    return xa, ya, xb, yb


@dataclass
class TraceRecorder:
    """Collects pointer positions into a Localized Narratives trace.

    Points closer than ``min_step`` image pixels to the previous one are skipped (a resting
    mouse adds nothing); times are seconds since the first point.
    """

    width: int
    height: int
    min_step: float = 1.0
    strokes: list[list[dict]] = field(default_factory=list)
    _t0: float | None = None

    def begin(self, x: float, y: float, t: float) -> None:
        if self._t0 is None:
            self._t0 = t
        self.strokes.append([])
        self.add(x, y, t, force=True)

    def add(self, x: float, y: float, t: float, *, force: bool = False) -> bool:
        if not self.strokes:
            self.begin(x, y, t)
            return True
        stroke = self.strokes[-1]
        nx, ny = normalise_point(x, y, self.width, self.height)
        if stroke and not force:
            last = stroke[-1]
            dx, dy = (nx - last["x"]) * self.width, (ny - last["y"]) * self.height
            if math.hypot(dx, dy) < self.min_step:
                return False
        stroke.append({"x": round(nx, 5), "y": round(ny, 5), "t": round(t - (self._t0 or t), 3)})
        return True

    def trace(self) -> list[list[dict]]:
        """The strokes with at least one point (Localized Narratives form)."""
        return [list(s) for s in self.strokes if s]

    def point_count(self) -> int:
        return sum(len(s) for s in self.strokes)


def trace_pixels(points: list, width: int, height: int) -> list[tuple[float, float]]:
    """Normalised points (``{"x","y"}`` dicts or ``[x, y]`` pairs) back to image pixels."""
    out = []
    for p in points:
        x, y = (p["x"], p["y"]) if isinstance(p, dict) else (p[0], p[1])
        out.append((float(x) * width, float(y) * height))
    return out


# -- tools ------------------------------------------------------------------------------------

DRAFT_COLOR = QColor("#ffcc00")


class Tool:
    """A canvas interaction. Positions are in image pixels (scene coordinates)."""

    name = "tool"
    cursor = Qt.CursorShape.ArrowCursor

    def __init__(self, canvas) -> None:
        self.canvas = canvas
        self.active = False

    def press(self, pos: QPointF, t: float) -> None:
        self.active = True

    def move(self, pos: QPointF, t: float) -> None:
        pass

    def release(self, pos: QPointF, t: float) -> None:
        self.active = False

    def cancel(self) -> None:
        self.active = False


class PanTool(Tool):
    """Drag to scroll the view (the middle button and space+drag borrow it from any tool)."""

    name = "pan"
    cursor = Qt.CursorShape.OpenHandCursor

    def __init__(self, canvas) -> None:
        super().__init__(canvas)
        self._last: QPointF | None = None

    def press(self, pos: QPointF, t: float) -> None:
        super().press(pos, t)
        self._last = self.canvas.cursor_view_pos()

    def move(self, pos: QPointF, t: float) -> None:
        if self._last is None:
            return
        now = self.canvas.cursor_view_pos()
        self.canvas.scroll_by(self._last.x() - now.x(), self._last.y() - now.y())
        self._last = now

    def release(self, pos: QPointF, t: float) -> None:
        super().release(pos, t)
        self._last = None

    def cancel(self) -> None:
        super().cancel()
        self._last = None


class TraceTool(Tool):
    """Draw a mouse trace (one stroke per drag; strokes add up until the trace is sent)."""

    name = "trace"
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, canvas) -> None:
        super().__init__(canvas)
        self.recorder: TraceRecorder | None = None
        self._item: QGraphicsPathItem | None = None
        self._path = QPainterPath()

    def press(self, pos: QPointF, t: float) -> None:
        super().press(pos, t)
        w, h = self.canvas.image_size()
        if self.recorder is None or (self.recorder.width, self.recorder.height) != (w, h):
            self.recorder = TraceRecorder(w, h)  # a new trace; later strokes add to it
        self.recorder.begin(pos.x(), pos.y(), t)
        self._path = QPainterPath(pos)
        pen = QPen(DRAFT_COLOR, 3)
        pen.setCosmetic(True)  # same on-screen width at every zoom
        self._item = self.canvas.add_draft(QGraphicsPathItem(self._path), pen)

    def move(self, pos: QPointF, t: float) -> None:
        if not self.active or self.recorder is None:
            return
        if self.recorder.add(pos.x(), pos.y(), t):
            self._path.lineTo(pos)
            self._item.setPath(self._path)

    def release(self, pos: QPointF, t: float) -> None:
        if not self.active or self.recorder is None:
            return
        self.move(pos, t)
        super().release(pos, t)
        self._clear()
        if len(self.recorder.strokes[-1]) < 2:  # a click, not a stroke: the trace stays as it was
            self._drop_last_stroke()
            return
        self.canvas.traceFinished.emit(self.recorder.trace())

    def cancel(self) -> None:
        """Esc during a stroke: that stroke goes, the trace's earlier strokes stay."""
        super().cancel()
        self._clear()
        self._drop_last_stroke()

    def _drop_last_stroke(self) -> None:
        if self.recorder is not None and self.recorder.strokes:
            self.recorder.strokes.pop()
        if self.recorder is not None and not self.recorder.point_count():
            self.recorder = None

    def new_trace(self) -> None:
        """The next stroke starts a new trace (a turn has read this one, or another image is shown)."""
        if not self.active:
            self.recorder = None

    def _clear(self) -> None:
        if self._item is not None:
            self.canvas.remove_draft(self._item)
            self._item = None


class RectSelectTool(Tool):
    """Drag a rectangle; on release the canvas emits the whole-pixel box: a selection (cropping to
    it is a request, "crop to this", or Edit ▸ Crop to Selection)."""

    name = "box"
    cursor = Qt.CursorShape.CrossCursor

    def __init__(self, canvas) -> None:
        super().__init__(canvas)
        self._start: QPointF | None = None
        self._item: QGraphicsRectItem | None = None

    def press(self, pos: QPointF, t: float) -> None:
        super().press(pos, t)
        self._start = QPointF(pos)
        pen = QPen(DRAFT_COLOR, 2, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        self._item = self.canvas.add_draft(QGraphicsRectItem(QRectF(pos, pos)), pen)

    def move(self, pos: QPointF, t: float) -> None:
        if not self.active or self._start is None:
            return
        x1, y1, x2, y2 = drag_box((self._start.x(), self._start.y()), (pos.x(), pos.y()))
        self._item.setRect(QRectF(x1, y1, x2 - x1, y2 - y1))

    def release(self, pos: QPointF, t: float) -> None:
        if not self.active or self._start is None:
            return
        super().release(pos, t)
        w, h = self.canvas.image_size()
        box = crop_box((self._start.x(), self._start.y()), (pos.x(), pos.y()), w, h)
        self._clear()
        if box is not None:
            self.canvas.boxSelected.emit(box)

    def cancel(self) -> None:
        super().cancel()
        self._clear()

    def _clear(self) -> None:
        self._start = None
        if self._item is not None:
            self.canvas.remove_draft(self._item)
            self._item = None
