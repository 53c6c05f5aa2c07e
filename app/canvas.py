"""The canvas: a QGraphicsView showing the current version, its overlays and the active tool.

Wheel zooms about the cursor, the middle button or space+drag pans, "fit" and "100%" as in any
editor (100% means one image pixel per device pixel, so it is truly 1:1 on a high-DPI screen).
The canvas never changes the image: tools emit :attr:`traceFinished` and :attr:`boxSelected`, and
the controller decides what happens. Esc with nothing being drawn emits :attr:`escaped` (the window
clears traces, boxes and the selection).
"""

from __future__ import annotations

import time

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsSimpleTextItem,
    QGraphicsView,
    QStyleOptionGraphicsItem,
)

from app.images import Mipmaps, checkerboard, screen_copy
from app.tools import (
    PanTool,
    RectSelectTool,
    Tool,
    TraceTool,
    clamp_zoom,
    fit_scale,
    trace_pixels,
    wheel_zoom_factor,
)


class ImageItem(QGraphicsItem):
    """Paints a screen copy directly (no QPixmap conversion of a 12-megapixel photo on the GUI
    thread), from the smallest mipmap level that still fills every device pixel."""

    def __init__(self, image: Mipmaps) -> None:
        super().__init__()
        self.image = image
        self.smooth = True

    def set_image(self, image: Mipmaps) -> None:
        self.prepareGeometryChange()
        self.image = image
        self.update()

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, self.image.width(), self.image.height())

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, self.smooth)
        scale = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
        scale *= painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
        painter.drawImage(self.boundingRect(), self.image.level_for(scale))


class Canvas(QGraphicsView):
    traceFinished = Signal(object)  # Localized Narratives trace: [[{"x","y","t"}, ...], ...]
    boxSelected = Signal(object)  # (x1, y1, x2, y2) whole pixels, x2/y2 exclusive: a selection
    escaped = Signal()  # Esc with no drag in progress: clear what was drawn
    zoomChanged = Signal(float)  # percent of actual pixels
    pointerMoved = Signal(int, int)  # image pixel under the cursor, (-1, -1) outside
    toolChanged = Signal(str)

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setBackgroundBrush(QColor(58, 58, 60))
        self.setAcceptDrops(False)  # dropped files go to the main window
        self.viewport().setAcceptDrops(False)
        self.setMinimumSize(320, 240)
        # panning is drag and wheel-zoom; scrollbars would only eat room (they still drive the pan)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._checker = QBrush(checkerboard())
        self._image_item: ImageItem | None = None
        self._shown: Mipmaps | None = None  # the image shown (a new one starts a new trace)
        self._image_size = (0, 0)
        self._overlay_items: list[QGraphicsItem] = []
        self._drafts: list[QGraphicsItem] = []
        self._fitted = True
        self._space = False
        self._last_view_pos = QPointF()
        self._drag_button = Qt.MouseButton.NoButton
        self.tools: dict[str, Tool] = {t.name: t for t in (PanTool(self), TraceTool(self), RectSelectTool(self))}
        self.tool: Tool = self.tools["trace"]
        self._drag_tool: Tool | None = None
        self.placeholder = "Drop a photo here, or press Ctrl+O to open one"

    # -- image -----------------------------------------------------------------------------------

    def has_image(self) -> bool:
        return self._image_item is not None

    def image_size(self) -> tuple[int, int]:
        return self._image_size

    def set_image(self, image: Mipmaps | QImage | np.ndarray | None) -> None:
        """Show a version (best :func:`app.images.screen_copy`, made in a worker).

        The view refits when the size changes or when it was fitted before.
        """
        if image is None:
            self._shown = None
            self.new_trace()
            self.scene().clear()
            self._image_item = None
            self._overlay_items, self._drafts = [], []
            self._image_size = (0, 0)
            self.viewport().update()
            return
        if isinstance(image, np.ndarray):
            image = screen_copy(image)
        elif isinstance(image, QImage):
            image = Mipmaps([image])
        if image is not self._shown:
            self.new_trace()  # strokes drawn on another version are not one trace with the next
        self._shown = image
        w, h = image.width(), image.height()
        resized = (w, h) != self._image_size
        if self._image_item is None:
            self._image_item = ImageItem(image)
            self.scene().addItem(self._image_item)
            self._image_item.setZValue(0)
        else:
            self._image_item.set_image(image)
        self._image_size = (w, h)
        self._update_sampling()
        self.scene().setSceneRect(QRectF(-w, -h, 3 * w, 3 * h))  # room to pan past the edges
        if resized or self._fitted:
            self.clear_overlays()
            self.fit()

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        super().drawBackground(painter, rect)
        if self._image_item is not None:
            w, h = self._image_size
            painter.fillRect(QRectF(0, 0, w, h).intersected(rect), self._checker)

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:
        if self._image_item is None:
            painter.save()
            painter.resetTransform()
            painter.setPen(QColor(200, 200, 200))
            f = QFont(self.font())
            f.setPointSizeF(f.pointSizeF() * 1.3)
            painter.setFont(f)
            painter.drawText(self.viewport().rect(), Qt.AlignmentFlag.AlignCenter, self.placeholder)
            painter.restore()

    # -- zoom and pan ----------------------------------------------------------------------------

    def _dpr(self) -> float:
        return max(1.0, self.devicePixelRatioF())

    def scale_factor(self) -> float:
        return self.transform().m11()

    def zoom_percent(self) -> float:
        """Zoom in percent of actual (device) pixels."""
        return self.scale_factor() * self._dpr() * 100

    def set_scale(self, scale: float, anchor: QPointF | None = None) -> None:
        """Zoom to ``scale`` keeping the image point under ``anchor`` (view pixels) in place."""
        scale = clamp_zoom(scale)
        if anchor is None:
            anchor = QPointF(self.viewport().rect().center())
        before = self.mapToScene(anchor.toPoint())
        self.resetTransform()
        self.scale(scale, scale)
        after = self.mapFromScene(before)
        self.scroll_by(after.x() - anchor.x(), after.y() - anchor.y())
        self._update_sampling()
        self.zoomChanged.emit(self.zoom_percent())

    def zoom_by(self, factor: float, anchor: QPointF | None = None) -> None:
        self._fitted = False
        self.set_scale(self.scale_factor() * factor, anchor)

    def zoom_in(self) -> None:
        self.zoom_by(1.25)

    def zoom_out(self) -> None:
        self.zoom_by(0.8)

    def actual_pixels(self) -> None:
        """100%: one image pixel per device pixel."""
        self._fitted = False
        self.set_scale(1.0 / self._dpr())
        if self._image_item is not None:
            self.centerOn(self._image_item)

    def fit(self) -> None:
        self._fitted = True
        if self._image_item is None:
            return
        w, h = self._image_size
        vp = self.viewport().rect()
        self.set_scale(fit_scale(w, h, vp.width(), vp.height()))
        self.centerOn(QPointF(w / 2, h / 2))
        self.zoomChanged.emit(self.zoom_percent())

    def scroll_by(self, dx: float, dy: float) -> None:
        h, v = self.horizontalScrollBar(), self.verticalScrollBar()
        h.setValue(h.value() + round(dx))
        v.setValue(v.value() + round(dy))

    def cursor_view_pos(self) -> QPointF:
        """The last pointer position over the view, in view pixels (what panning follows)."""
        return QPointF(self._last_view_pos)

    def _update_sampling(self) -> None:
        # Smooth when zoomed out, crisp pixels when zoomed in (as in GIMP and Krita).
        if self._image_item is not None:
            self._image_item.smooth = self.scale_factor() * self._dpr() < 2
            self._image_item.update()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._fitted:
            self.fit()

    def wheelEvent(self, event) -> None:
        if self._image_item is None:
            return
        delta = event.angleDelta().y() or event.angleDelta().x()
        if delta:
            self.zoom_by(wheel_zoom_factor(delta), event.position())
        event.accept()

    # -- tools -----------------------------------------------------------------------------------

    def set_tool(self, name: str) -> None:
        if name not in self.tools:
            raise ValueError(f"unknown tool {name!r}; tools are {', '.join(self.tools)}")
        if self.tool.active:
            self.tool.cancel()
        self.tool = self.tools[name]
        self.viewport().setCursor(self.tool.cursor)
        self.toolChanged.emit(name)

    def add_draft(self, item: QGraphicsItem, pen: QPen) -> QGraphicsItem:
        item.setPen(pen)
        item.setZValue(20)
        self.scene().addItem(item)
        self._drafts.append(item)
        return item

    def remove_draft(self, item: QGraphicsItem) -> None:
        if item in self._drafts:
            self._drafts.remove(item)
            self.scene().removeItem(item)

    def _scene_pos(self, event) -> QPointF:
        self._last_view_pos = event.position()
        return self.mapToScene(event.position().toPoint())

    def mousePressEvent(self, event) -> None:
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        if self._image_item is None or self._drag_tool is not None:
            return
        button = event.button()
        if button == Qt.MouseButton.MiddleButton or (button == Qt.MouseButton.LeftButton and self._space):
            self._drag_tool = self.tools["pan"]
        elif button == Qt.MouseButton.LeftButton:
            self._drag_tool = self.tool
        else:
            return
        self._drag_button = button
        if self._drag_tool.name == "pan":
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
        self._drag_tool.press(self._scene_pos(event), time.monotonic())
        event.accept()

    def mouseMoveEvent(self, event) -> None:
        pos = self._scene_pos(event)
        w, h = self._image_size
        inside = self._image_item is not None and 0 <= pos.x() < w and 0 <= pos.y() < h
        self.pointerMoved.emit(int(pos.x()) if inside else -1, int(pos.y()) if inside else -1)
        if self._drag_tool is not None:
            self._drag_tool.move(pos, time.monotonic())
            event.accept()

    def mouseReleaseEvent(self, event) -> None:
        if self._drag_tool is None or event.button() != self._drag_button:
            return
        tool, self._drag_tool = self._drag_tool, None
        tool.release(self._scene_pos(event), time.monotonic())
        self.viewport().setCursor(Qt.CursorShape.OpenHandCursor if self._space else self.tool.cursor)
        event.accept()

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            if self._drag_tool is None:
                self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            event.accept()
            return
        if event.key() == Qt.Key.Key_Escape:
            self.cancel_tool()
            event.accept()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            if self._drag_tool is None:
                self.viewport().setCursor(self.tool.cursor)
            event.accept()
            return
        super().keyReleaseEvent(event)

    def cancel_tool(self) -> None:
        """Esc: drop the drag in progress (nothing is emitted); between strokes, start a new trace and
        emit :attr:`escaped` (the traces and the selection are cleared)."""
        if self._drag_tool is not None:
            self._drag_tool.cancel()
            self._drag_tool = None
        elif self.tool.active:
            self.tool.cancel()
        else:
            self.new_trace()
            self.escaped.emit()
        self.viewport().setCursor(self.tool.cursor)

    def new_trace(self) -> None:
        """The next stroke of the trace tool starts a new trace instead of adding to the last one."""
        tool = getattr(self, "tools", {}).get("trace")
        if tool is not None:
            tool.new_trace()

    # -- overlays --------------------------------------------------------------------------------

    def clear_overlays(self) -> None:
        for item in self._overlay_items:
            if item.scene() is self.scene():
                self.scene().removeItem(item)
        self._overlay_items = []

    def set_overlays(self, overlays: list[dict]) -> None:
        """Draw the agent's boxes and traces for the current image (``target`` "current"). A label
        that would cover one already drawn with the same words, at the present zoom, is left off
        (its box is drawn): 14 people removed on a square were a pile of "removed person" tags."""
        self.clear_overlays()
        placed: list[tuple[str, QRectF]] = []
        for ov in overlays or []:
            if ov.get("target", "current") != "current":
                continue
            if ov.get("kind") == "box" and ov.get("label") and ov.get("box") is not None:
                at = self._label_rect(str(ov["label"]), ov["box"])
                if any(words == ov["label"] and at.intersects(r) for words, r in placed):
                    ov = {k: v for k, v in ov.items() if k != "label"}
                else:
                    placed.append((str(ov["label"]), at))
            self.add_overlay(ov)

    def _label_rect(self, words: str, box) -> QRectF:
        """Where a box's label goes, in the scene's units at the present zoom."""
        size = QGraphicsSimpleTextItem(words).boundingRect()
        scale = max(1e-6, abs(self.transform().m11()))
        return QRectF(float(box[0]), float(box[1]), (size.width() + 6) / scale, (size.height() + 2) / scale)

    def add_overlay(self, ov: dict) -> None:
        if self._image_item is None:
            return
        color = QColor(ov.get("color") or "#ffcc00")
        pen = QPen(color, 3 if ov.get("kind") == "trace" else 2)
        pen.setCosmetic(True)
        label_at: QPointF | None = None
        if ov.get("kind") == "box" and ov.get("box") is not None:
            x1, y1, x2, y2 = (float(v) for v in ov["box"])
            item = QGraphicsRectItem(QRectF(x1, y1, x2 - x1, y2 - y1))
            label_at = QPointF(x1, y1)
        elif ov.get("kind") == "region" and ov.get("polygons"):  # a selection: filled outlines
            w, h = self._image_size
            path = QPainterPath()
            for poly in ov["polygons"]:
                pts = trace_pixels(poly, w, h)
                path.moveTo(QPointF(*pts[0]))
                for p in pts[1:]:
                    path.lineTo(QPointF(*p))
                path.closeSubpath()
            item = QGraphicsPathItem(path)
            if ov.get("fill", True):  # the selection before an edit; after it, only where it applied
                fill = QColor(color)
                fill.setAlpha(70)
                item.setBrush(QBrush(fill))
            pen.setStyle(Qt.PenStyle.DashLine)
            top = min((p for poly in ov["polygons"] for p in poly), key=lambda p: (p[1], p[0]))
            label_at = QPointF(top[0] * w, top[1] * h)
        elif ov.get("kind") == "trace" and ov.get("points"):
            w, h = self._image_size
            path = QPainterPath()
            for stroke in ov.get("strokes") or [ov["points"]]:  # the pen lifts between strokes
                pts = trace_pixels(stroke, w, h)
                path.moveTo(QPointF(*pts[0]))
                for p in pts[1:]:
                    path.lineTo(QPointF(*p))
                if label_at is None:
                    label_at = QPointF(*pts[0])  # the label where the trace starts
            item = QGraphicsPathItem(path)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        else:
            return
        item.setPen(pen)
        item.setZValue(10)
        self.scene().addItem(item)
        self._overlay_items.append(item)
        if ov.get("label") and label_at is not None:
            text = QGraphicsSimpleTextItem(str(ov["label"]))
            text.setBrush(QColor("white"))
            text.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
            bg = QGraphicsRectItem(text.boundingRect().adjusted(-3, -1, 3, 1))
            bg.setBrush(color.darker(130))
            bg.setPen(QPen(Qt.PenStyle.NoPen))
            bg.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
            bg.setPos(label_at)
            text.setParentItem(bg)
            # the thing acted on keeps its label in front where small boxes' labels overlap ("removed
            # person" was hidden under "other person")
            bg.setZValue(10.5 if str(ov["label"]).startswith("other ") else 11)
            self.scene().addItem(bg)
            self._overlay_items.append(bg)

    def overlay_count(self) -> int:
        return len(self._overlay_items)
