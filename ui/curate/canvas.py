"""A zoomable, pannable picture of a page or figure, in PDF points.

Both the page viewer and the erase preview draw in *scene coordinates = PDF
points of the page*, so boxes from the core (labels, clips, proposals, anchors)
are placed as they are, whatever resolution the picture behind them was
rendered at. Ctrl+wheel (any wheel where ``wheel_zooms``) zooms about the point
under the cursor, +/- zoom, 0 fits, 1 is 100 %; the middle button or Alt+drag pans
(a plain left drag too where ``drag_pans``), and a left drag on empty space
reports a rectangle (``rect_drawn``) — or, while a brush is set
(``brush_width``), paints a stroke and reports its path (``stroke_drawn``).
:class:`ZoomControls` is the − 100 % + Fit row both viewers show.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QPixmap,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsPixmapItem,
    QGraphicsRectItem,
    QGraphicsScene,
    QGraphicsView,
    QHBoxLayout,
    QLabel,
    QToolButton,
    QWidget,
)

from labeler.store.records import Box
from ui.theme import OVERLAY

MIN_ZOOM, MAX_ZOOM = 0.1, 8.0
MIN_DRAG = 4.0  # points: smaller drags are clicks
ZOOM_STEP = 1.25  # one +/- press or button click
WHEEL_STEP = 1.15  # one wheel notch (120 eighths of a degree)


def rect_of(box: Box) -> QRectF:
    """A ``QRectF`` from an ``(x0, y0, x1, y1)`` box."""
    x0, y0, x1, y1 = box
    return QRectF(QPointF(x0, y0), QPointF(x1, y1)).normalized()


def box_of(rect: QRectF) -> Box:
    """An ``(x0, y0, x1, y1)`` box (rounded to 0.01 pt) from a ``QRectF``."""
    r = rect.normalized()
    return tuple(round(v, 2) for v in (r.left(), r.top(), r.right(), r.bottom()))


def brush_pen(width: float, alpha: int = 110) -> QPen:
    """The translucent red pen of a painted mask stroke, ``width`` in points (zooms with it)."""
    colour = QColor(OVERLAY["mask"])
    colour.setAlpha(alpha)
    return QPen(
        colour, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin
    )


def stroke_path(points: list[tuple[float, float]]) -> QPainterPath:
    """The centre line of a stroke (a lone point is a zero-length segment: a dot)."""
    path = QPainterPath(QPointF(*points[0]))
    for point in points[1:] or points:
        path.lineTo(QPointF(*point))
    return path


def outline(colour: QColor, width: float = 2.0, style=Qt.PenStyle.SolidLine) -> QPen:
    """A cosmetic pen (same on-screen width at any zoom)."""
    pen = QPen(colour, width, style)
    pen.setCosmetic(True)
    return pen


class BoxItem(QGraphicsRectItem):
    """A box overlay; clicking it calls ``on_click(box)`` when that is given."""

    def __init__(
        self,
        box: Box,
        pen: QPen,
        on_click: Callable[[Box], None] | None = None,
        tooltip: str = "",
        fill: QColor | None = None,
    ) -> None:
        super().__init__(rect_of(box))
        self.box = box
        self.on_click = on_click
        self.setPen(pen)
        self._fill = QBrush(fill) if fill is not None else QBrush(Qt.BrushStyle.NoBrush)
        self.setBrush(self._fill)
        self.setToolTip(tooltip)
        if on_click is not None:
            self.setAcceptHoverEvents(True)
            self.setCursor(Qt.CursorShape.PointingHandCursor)

    def hoverEnterEvent(self, event) -> None:
        hover = QColor(self.pen().color())
        hover.setAlpha(40)
        self.setBrush(QBrush(hover))
        super().hoverEnterEvent(event)

    def hoverLeaveEvent(self, event) -> None:
        self.setBrush(self._fill)
        super().hoverLeaveEvent(event)

    def mousePressEvent(self, event) -> None:
        if self.on_click is not None and event.button() == Qt.MouseButton.LeftButton:
            event.accept()
            # Deferred: the handler may rebuild the overlays, deleting this item.
            QTimer.singleShot(0, lambda box=self.box, click=self.on_click: click(box))
        else:
            super().mousePressEvent(event)


class Canvas(QGraphicsView):
    """The shared view: picture placement, zoom, pan, rectangle dragging."""

    rect_drawn = Signal(tuple)  # a Box in points
    stroke_drawn = Signal(list)  # a painted stroke's path: [(x, y), ...] in points
    zoom_changed = Signal(float)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHints(
            QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform
        )
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)
        self._follow_palette()
        self.picture = QGraphicsPixmapItem()
        self.picture.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        self.scene().addItem(self.picture)
        self.drawing_enabled = True
        self.wheel_zooms = False  # True: the plain wheel zooms (else only Ctrl+wheel)
        self.drag_pans = False  # True: a left drag on empty space pans (when not drawing)
        self.brush_width: float | None = None  # points; when set, a left drag paints
        self._stroke: list[tuple[float, float]] = []
        self._stroke_item: QGraphicsPathItem | None = None
        self._drag_start: QPointF | None = None
        self._rubber: QGraphicsRectItem | None = None
        self._pan_from: QPointF | None = None
        self._auto_fit = False

    def _follow_palette(self) -> None:
        self.setBackgroundBrush(QBrush(self.palette().color(QPalette.ColorRole.Mid)))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange:  # light/dark switched while open
            self._follow_palette()
        super().changeEvent(event)

    # -- picture and zoom ----------------------------------------------------------

    def set_picture(self, image: QImage | QPixmap, origin: tuple[float, float], dpi: float) -> None:
        """Show ``image`` (rendered at ``dpi``) with its top-left at ``origin`` (points)."""
        pixmap = image if isinstance(image, QPixmap) else QPixmap.fromImage(image)
        self.picture.setPixmap(pixmap)
        self.picture.setScale(72.0 / dpi)
        self.picture.setPos(*origin)

    def set_page_rect(self, rect: QRectF) -> None:
        """The scrollable area (the page, in points) with a small margin."""
        self.setSceneRect(rect.adjusted(-12, -12, 12, 12))

    def zoom(self) -> float:
        """Screen pixels per point."""
        return self.transform().m11()

    def set_zoom(self, value: float) -> None:
        """Zoom to ``value`` screen pixels per point (clamped); the view stops auto-fitting."""
        self._auto_fit = False
        self._scale_to(value)

    def _scale_to(self, value: float) -> None:
        value = min(MAX_ZOOM, max(MIN_ZOOM, value))
        factor = value / self.zoom()
        if abs(factor - 1) > 1e-6:
            self.scale(factor, factor)
            self.zoom_changed.emit(self.zoom())

    def request_fit(self) -> None:
        """Fit the whole scene, and keep fitting it as the view resizes until the user zooms."""
        self._auto_fit = True
        if self.isVisible():
            self.fit_all()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._auto_fit:
            self.fit_all()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._auto_fit and self.isVisible():
            self.fit_all()

    def fit_all(self) -> None:
        """Zoom so the whole scene is visible (and follow resizes again)."""
        self._auto_fit = True
        rect = self.sceneRect()
        if rect.width() > 0 and rect.height() > 0 and self.viewport().width() > 1:
            scale = min(
                (self.viewport().width() - 4) / rect.width(),
                (self.viewport().height() - 4) / rect.height(),
            )
            self._scale_to(scale)
            self.centerOn(rect.center())

    def zoom_at(self, value: float, at: QPointF) -> None:
        """Zoom to ``value`` keeping the scene point under viewport position ``at`` in place."""
        target = self.mapToScene(at.toPoint())
        anchor = self.transformationAnchor()
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        self._auto_fit = False
        self._scale_to(value)
        self.setTransformationAnchor(anchor)
        moved = self.mapFromScene(target) - at.toPoint()
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + moved.x())
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() + moved.y())

    def zoom_in(self) -> None:
        """One step closer (about the centre of the view)."""
        self.set_zoom(self.zoom() * ZOOM_STEP)

    def zoom_out(self) -> None:
        """One step further away."""
        self.set_zoom(self.zoom() / ZOOM_STEP)

    def actual_size(self) -> None:
        """100 %: one screen pixel per point, the size the page prints at on a 72 dpi screen."""
        self.set_zoom(1.0)

    def wheelEvent(self, event: QWheelEvent) -> None:
        if self.wheel_zooms or event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            steps = event.angleDelta().y() / 120
            self.zoom_at(self.zoom() * (WHEEL_STEP**steps), event.position())
            event.accept()
        else:
            super().wheelEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key = event.key()
        if key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_in()
        elif key == Qt.Key.Key_Minus:
            self.zoom_out()
        elif key == Qt.Key.Key_0:
            self.fit_all()
        elif key == Qt.Key.Key_1:
            self.actual_size()
        else:
            super().keyPressEvent(event)

    # -- pan and drag ------------------------------------------------------------

    def mousePressEvent(self, event: QMouseEvent) -> None:
        pan = event.button() == Qt.MouseButton.MiddleButton or (
            event.button() == Qt.MouseButton.LeftButton
            and event.modifiers() & Qt.KeyboardModifier.AltModifier
        )
        if pan:
            self._pan_from = event.position()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            return
        if event.button() == Qt.MouseButton.LeftButton and self.brush_width is not None:
            self._stroke = [self._scene_point(event)]
            self._stroke_item = self.scene().addPath(stroke_path(self._stroke))
            self._stroke_item.setPen(brush_pen(self.brush_width))
            self._stroke_item.setZValue(100)
            return
        if event.button() == Qt.MouseButton.LeftButton and (self.drawing_enabled or self.drag_pans):
            item = self.itemAt(event.position().toPoint())
            if item is None or item is self.picture or not self.is_clickable(item):
                if self.drawing_enabled:
                    self._drag_start = self.mapToScene(event.position().toPoint())
                else:
                    self._pan_from = event.position()
                    self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
                return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None:
            delta = event.position() - self._pan_from
            self._pan_from = event.position()
            self.horizontalScrollBar().setValue(
                self.horizontalScrollBar().value() - round(delta.x())
            )
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - round(delta.y()))
            return
        if self._stroke_item is not None:
            self._stroke.append(self._scene_point(event))
            self._stroke_item.setPath(stroke_path(self._stroke))
            return
        if self._drag_start is not None:
            rect = QRectF(
                self._drag_start, self.mapToScene(event.position().toPoint())
            ).normalized()
            if self._rubber is None:
                self._rubber = self.scene().addRect(
                    rect, outline(OVERLAY["selection"], 1.5, Qt.PenStyle.DashLine)
                )
                self._rubber.setZValue(100)
            self._rubber.setRect(rect)
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None:
            self._pan_from = None
            self.viewport().unsetCursor()
            return
        if self._stroke_item is not None:
            self._stroke.append(self._scene_point(event))
            self.scene().removeItem(self._stroke_item)
            self._stroke_item = None
            # consecutive duplicates (no movement between events) add nothing
            points = [p for i, p in enumerate(self._stroke) if i == 0 or p != self._stroke[i - 1]]
            self.stroke_drawn.emit(points)
            return
        if self._drag_start is not None:
            rect = QRectF(
                self._drag_start, self.mapToScene(event.position().toPoint())
            ).normalized()
            self._drag_start = None
            if self._rubber is not None:
                self.scene().removeItem(self._rubber)
                self._rubber = None
            if rect.width() >= MIN_DRAG and rect.height() >= MIN_DRAG:
                self.rect_drawn.emit(box_of(rect))
            else:
                self.empty_click(rect.topLeft())
            return
        super().mouseReleaseEvent(event)

    def _scene_point(self, event: QMouseEvent) -> tuple[float, float]:
        point = self.mapToScene(event.position().toPoint())
        return (round(point.x(), 2), round(point.y(), 2))

    def is_clickable(self, item: QGraphicsItem) -> bool:
        """Whether a press on ``item`` goes to the item instead of starting a drag."""
        return isinstance(item, BoxItem) and item.on_click is not None

    def empty_click(self, point: QPointF) -> None:
        """A click (not a drag) on empty space; subclasses may react."""


def tool_button(parent: QWidget, text: str, tip: str, slot: Callable[[], None]) -> QToolButton:
    """A flat, narrow tool button (``text``, tooltip ``tip``) that calls ``slot``: what the zoom
    row and the page viewer's page arrows are made of, so the two bars look alike."""
    button = QToolButton(parent)
    button.setText(text)
    button.setToolTip(tip)
    button.setAutoRaise(True)
    button.setMinimumWidth(28)
    button.clicked.connect(slot)
    return button


class ZoomControls(QWidget):
    """− 100 % + Fit 1:1 for a :class:`Canvas`: the zoom row of the page viewer and the preview."""

    def __init__(self, canvas: Canvas, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.canvas = canvas
        self.label = QLabel("100%", self)
        self.label.setMinimumWidth(44)
        self.label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        canvas.zoom_changed.connect(lambda z: self.label.setText(f"{z * 100:.0f}%"))
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(2)
        row.addWidget(tool_button(self, "−", "Zoom out (-)", canvas.zoom_out))
        row.addWidget(self.label)
        row.addWidget(
            tool_button(self, "+", "Zoom in (+, or the wheel over the point)", canvas.zoom_in)
        )
        row.addWidget(tool_button(self, "Fit", "Fit the whole picture (0)", canvas.fit_all))
        row.addWidget(tool_button(self, "1:1", "100 %: a pixel per point (1)", canvas.actual_size))
