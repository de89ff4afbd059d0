"""The erase preview: erased or original figure with the key drawn over it.

Space (or the toggle button) flips between the question image (labels erased)
and the answer image (original). Over either, the preview draws every key
label's box, its marker letter and the leader-line anchor it names. Four
tools turn clicks into the edits ``erase_figure`` accepts: *Keep* (leave
a printed text, e.g. a scale bar, on the figure), *Add box* (drag: erase
whatever is printed there and make it a label), *Reject box* (reject a
proposed label box), *Paint* (brush over ink the automatic erasure missed; [ and
] change the brush, *Clear mask* drops every stroke); every change emits
``edits_changed`` so the view re-runs the erase in a worker.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QFont, QKeySequence, QPixmap, QResizeEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QDoubleSpinBox,
    QGraphicsItem,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from labeler.erase.edits import EraseEdits
from labeler.erase.mask import Stroke
from labeler.store.records import Box, KeyEntry
from ui.curate.canvas import BoxItem, Canvas, ZoomControls, brush_pen, outline, stroke_path
from ui.theme import OVERLAY

BRUSH_WIDTHS = (1.0, 40.0)  # points
BRUSH_DEFAULT = 6.0
TOOLS = {
    "inspect": ("Inspect", "Click a label to select it in the key"),
    "keep": (
        "Keep",
        "Click a label to leave it printed and out of the key (e.g. a scale bar)",
    ),
    "extra_boxes": ("Add box", "Drag a box: what is printed there is erased and becomes a label"),
    "removed_boxes": ("Reject box", "Click a proposed label box that is not a label"),
    "mask_strokes": (
        "Paint",
        "Paint over ink the erasure missed (a stray glyph, a smudge): it is erased as painted."
        " [ and ] change the brush",
    ),
}


@dataclass(frozen=True)
class Figure:
    """What the preview shows: both images, where they sit on the page, the key, the edits."""

    question_png: bytes
    answer_png: bytes
    clip: Box  # page points
    dpi: int
    key: tuple[KeyEntry, ...]
    edits: EraseEdits = field(default_factory=EraseEdits)
    method: str = ""

    def with_edit(self, kind: str, value: Box | Stroke, add: bool) -> Figure:
        """A copy with ``value`` (a box, or a stroke) added to or removed from ``kind``."""
        return replace(self, edits=self.edits.with_edit(kind, value, add))

    def cleared(self, kind: str) -> Figure:
        """A copy without any ``kind`` edit (e.g. every painted stroke)."""
        return replace(self, edits=self.edits.cleared(kind))


class ErasePreview(QWidget):
    """Toolbar + canvas; owns the current :class:`Figure` and the tool mode."""

    edits_changed = Signal(object)  # the new Figure (with its edits) to erase again
    label_selected = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.figure: Figure | None = None
        self.showing_original = False
        self.highlighted = -1
        self._overlay_items: list[QGraphicsItem] = []
        self._pixmaps: tuple[QPixmap, QPixmap] | None = None
        self.canvas = Canvas(self)
        self.canvas.drawing_enabled = False
        self.canvas.wheel_zooms = True  # a figure fits the pane; the wheel looks closer
        self.zoom = ZoomControls(self.canvas, self)
        self.canvas.rect_drawn.connect(self._drawn)
        self.canvas.stroke_drawn.connect(self._painted)

        self.toggle_action = QAction("Toggle original / erased", self)
        self.toggle_action.setCheckable(True)
        self.toggle_action.setShortcut(QKeySequence("Space"))  # rebindable in the main window
        self.toggle_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.toggle_action.toggled.connect(self._set_original)
        self.addAction(self.toggle_action)
        # A two-way switch "Erased | Original" driven by the (rebindable) toggle action.
        self.erased_button = self._switch("Erased", "Show the question image (labels erased)")
        self.original_button = self._switch("Original", "Show the answer image (as printed)")
        self.erased_button.setChecked(True)
        self.erased_button.clicked.connect(lambda: self.toggle_action.setChecked(False))
        self.original_button.clicked.connect(lambda: self.toggle_action.setChecked(True))

        self.tools = QButtonGroup(self)
        self.tools.setExclusive(True)
        # a tool bar: buttons that do not fit a narrow window go behind its » menu, whole,
        # instead of being squeezed to "E…d"
        bar = QToolBar(self)
        bar.setContentsMargins(4, 2, 4, 2)
        bar.addWidget(self.erased_button)
        bar.addWidget(self.original_button)
        bar.addSeparator()
        for name, (text, tip) in TOOLS.items():
            button = QToolButton(self)
            button.setText(text)
            button.setToolTip(tip)
            button.setCheckable(True)
            button.setProperty("tool", name)
            self.tools.addButton(button)
            bar.addWidget(button)
            if name == "inspect":
                button.setChecked(True)
        self.tools.buttonToggled.connect(lambda *_: self._tool_changed())
        # The overlay switch sits on the status row below, keeping the tool row narrow
        # enough that the items list keeps its width at 1280 px.
        self.show_boxes = QCheckBox("Show boxes", self)
        self.show_boxes.setChecked(True)
        self.show_boxes.toggled.connect(lambda _: self._draw_overlays())
        self.method_label = QLabel("", self)
        self.method_label.setStyleSheet("color: palette(placeholder-text);")
        # a pane narrower than the summary's own line clips its end (the tooltip has it whole)
        self.method_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.empty = QLabel("Choose a region on a page, or an item, to see its erasure here.", self)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(bar)
        layout.addWidget(self._brush_bar())
        layout.addWidget(self.canvas, 1)
        layout.addWidget(self.empty, 1)
        # the credit line an openly licensed figure must carry wherever it is shown
        self.attribution = QLabel("", self)
        self.attribution.setWordWrap(True)
        self.attribution.setContentsMargins(8, 2, 8, 0)
        self.attribution.setStyleSheet("color: palette(placeholder-text); font-size: 11px;")
        self.attribution.hide()
        layout.addWidget(self.attribution)
        # the zoom row; the summary sits at its left, or on a line of its own above it when the
        # pane is too narrow for both (a 1024 px window), so "8 labels" is never cut to "8 labe"
        self.footer = QGridLayout()
        self.footer.setContentsMargins(8, 2, 8, 4)
        self.footer.setHorizontalSpacing(6)
        self.footer.setVerticalSpacing(0)
        self.footer.setColumnStretch(0, 1)
        self.footer.addWidget(self.zoom, 1, 1)
        self.footer.addWidget(self.show_boxes, 1, 2)
        self.footer.addWidget(self.method_label, 1, 0)
        layout.addLayout(self.footer)
        self.set_figure(None)
        self._tool_changed()

    def _brush_bar(self) -> QWidget:
        """The Paint tool's row: brush width and Clear mask (shown while Paint is active)."""
        self.brush_row = QWidget(self)
        self.brush = QDoubleSpinBox(self)
        self.brush.setRange(*BRUSH_WIDTHS)
        self.brush.setDecimals(0)
        self.brush.setSuffix(" pt")
        self.brush.setValue(BRUSH_DEFAULT)
        self.brush.setToolTip("Brush width in points — [ and ] change it")
        self.brush.valueChanged.connect(lambda _: self._tool_changed())
        self.smaller_action = QAction("Smaller brush", self)
        self.larger_action = QAction("Larger brush", self)
        for action, step in ((self.smaller_action, -1), (self.larger_action, 1)):
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.triggered.connect(lambda _=False, s=step: self.step_brush(s))
            self.addAction(action)  # keys set (rebindable) by the view: [ and ]
        self.clear_mask_action = QAction("Clear mask", self)
        self.clear_mask_action.setToolTip("Drop every painted stroke and erase again")
        self.clear_mask_action.triggered.connect(self._clear_mask)
        self.addAction(self.clear_mask_action)
        clear = QToolButton(self)
        clear.setDefaultAction(self.clear_mask_action)
        hint = QLabel("Paint over ink the erasure missed · [ ] brush size", self)
        hint.setStyleSheet("color: palette(placeholder-text);")
        row = QHBoxLayout(self.brush_row)
        row.setContentsMargins(8, 0, 8, 6)
        row.setSpacing(6)
        row.addWidget(QLabel("Brush", self))
        row.addWidget(self.brush)
        row.addWidget(clear)
        row.addSpacing(8)
        row.addWidget(hint, 1)
        return self.brush_row

    def step_brush(self, step: int) -> None:
        """Grow (``step`` > 0) or shrink the brush, by about 20% (at least 1 pt)."""
        width = self.brush.value()
        self.brush.setValue(width + step * max(1.0, round(0.2 * width)))

    # -- content -------------------------------------------------------------

    def set_figure(self, figure: Figure | None, refit: bool = True) -> None:
        """Show ``figure`` (None: the empty state)."""
        self.figure = figure
        self.clear_mask_action.setEnabled(bool(figure and figure.edits.mask_strokes))
        self.canvas.setVisible(figure is not None)
        self.empty.setVisible(figure is None)
        if figure is None:
            self._pixmaps = None
            self.method_label.setText("")
            self.set_attribution("")
            return
        question, answer = QPixmap(), QPixmap()
        question.loadFromData(figure.question_png, "PNG")
        answer.loadFromData(figure.answer_png, "PNG")
        self._pixmaps = (question, answer)
        x0, y0, x1, y1 = figure.clip
        self.canvas.set_page_rect(QRectF(x0, y0, x1 - x0, y1 - y0))
        self._show_picture()
        self._draw_overlays()
        labels = len(figure.key)
        count = f"{labels} label{'s' * (labels != 1)}"
        summary = f"{count} · {figure.dpi} dpi" + (
            f" · erased by {figure.method}" if figure.method else ""
        )
        # the short form fits a narrow pane beside the zoom row; the tooltip has it all
        self.method_label.setText(f"{count} · {figure.method}" if figure.method else count)
        self.method_label.setToolTip(summary)
        self._place_summary()
        if refit:
            self.canvas.request_fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Move the summary above the zoom row when the pane gets too narrow for both."""
        super().resizeEvent(event)
        self._place_summary()

    def _place_summary(self) -> None:
        left, _, right, _ = self.footer.getContentsMargins()
        text = self.method_label.fontMetrics().horizontalAdvance(self.method_label.text())
        spacing = 2 * self.footer.horizontalSpacing()
        beside = self.zoom.sizeHint().width() + self.show_boxes.sizeHint().width() + spacing
        own_line = left + text + beside + right > self.width()
        if own_line == (
            self.footer.getItemPosition(self.footer.indexOf(self.method_label))[0] == 0
        ):
            return
        self.footer.removeWidget(self.method_label)
        if own_line:
            self.footer.addWidget(self.method_label, 0, 0, 1, 3)
        else:
            self.footer.addWidget(self.method_label, 1, 0)

    def set_attribution(self, text: str) -> None:
        """Show the figure's credit line under it (empty: none to show)."""
        self.attribution.setText(text)
        self.attribution.setToolTip(text)
        self.attribution.setVisible(bool(text))

    def set_key(self, key: list[KeyEntry]) -> None:
        """Redraw the overlays for an edited key (images unchanged)."""
        if self.figure is not None:
            self.figure = replace(self.figure, key=tuple(key))
            self._draw_overlays()

    def highlight(self, row: int) -> None:
        """Emphasise key entry ``row`` (selected in the key table)."""
        self.highlighted = row
        self._draw_overlays()

    def toggle_original(self) -> None:
        """Flip between the erased and the original image."""
        self.toggle_action.toggle()

    def tool(self) -> str:
        """The active tool's name."""
        button = self.tools.checkedButton()
        return button.property("tool") if button is not None else "inspect"

    def set_tool(self, name: str) -> None:
        """Activate a tool by name."""
        for button in self.tools.buttons():
            if button.property("tool") == name:
                button.setChecked(True)

    # -- drawing -------------------------------------------------------------

    def _switch(self, text: str, tip: str) -> QToolButton:
        button = QToolButton(self)
        button.setText(text)
        button.setToolTip(f"{tip} — Space toggles")
        button.setCheckable(True)
        button.setAutoExclusive(True)
        return button

    def _set_original(self, original: bool) -> None:
        self.showing_original = original
        (self.original_button if original else self.erased_button).setChecked(True)
        self._show_picture()

    def _show_picture(self) -> None:
        if self.figure is None or self._pixmaps is None:
            return
        pixmap = self._pixmaps[1 if self.showing_original else 0]
        self.canvas.set_picture(pixmap, self.figure.clip[:2], self.figure.dpi)

    def _tool_changed(self) -> None:
        tool = self.tool()
        painting = tool == "mask_strokes"
        self.canvas.drawing_enabled = tool == "extra_boxes"
        self.canvas.drag_pans = not painting  # a drag on the figure (not on a box) moves it
        self.canvas.brush_width = self.brush.value() if painting else None
        if painting:
            self.canvas.viewport().setCursor(Qt.CursorShape.CrossCursor)
        else:
            self.canvas.viewport().unsetCursor()
        self.brush_row.setVisible(painting)
        self._draw_overlays()

    def _draw_overlays(self) -> None:
        scene = self.canvas.scene()
        for item in self._overlay_items:
            scene.removeItem(item)
        self._overlay_items = []
        if self.figure is None or not self.show_boxes.isChecked():
            return
        tool = self.tool()
        for row, entry in enumerate(self.figure.key):
            self._draw_entry(row, entry, tool)
        for kind, colour, tip in (
            ("keep", OVERLAY["kept"], "Kept printed: click (Keep tool) to erase it again"),
            ("extra_boxes", OVERLAY["extra"], "Added box: click (Add box tool) to drop it"),
            (
                "removed_boxes",
                OVERLAY["removed"],
                "Rejected box, not in the key: click (Reject box tool) to restore it",
            ),
        ):
            click = (lambda b, k=kind: self._undo_edit(k, b)) if tool == kind else None
            for box in getattr(self.figure.edits, kind):
                self._add(BoxItem(box, outline(colour, 1.5, Qt.PenStyle.DashLine), click, tip), 30)
                if kind == "removed_boxes":
                    self._strike(box)
        for stroke in self.figure.edits.mask_strokes:
            path = self.canvas.scene().addPath(stroke_path(list(stroke.points)))
            path.setPen(brush_pen(stroke.width, alpha=60))
            path.setToolTip("Painted mask: erased as painted (Clear mask drops it)")
            self._add(path, 30)

    def _strike(self, box: Box) -> None:
        """Strike a rejected box through (grey, corner to corner): no longer a label."""
        x0, y0, x1, y1 = box
        pen = outline(OVERLAY["removed"], 1.5)
        for line in ((x0, y0, x1, y1), (x0, y1, x1, y0)):
            self._add(self.canvas.scene().addLine(*line, pen), 31)

    def _draw_entry(self, row: int, entry: KeyEntry, tool: str) -> None:
        colour = OVERLAY["label"]
        width = 3.0 if row == self.highlighted else 1.5
        if entry.bbox is not None:
            click = None
            if tool in ("inspect", "keep", "removed_boxes"):
                click = lambda b, r=row: self._label_clicked(r, b)  # noqa: E731
            name = entry.name or "(unnamed)"
            tip = f"{row + 1}. {name}" + (f" — marker {entry.marker}" if entry.marker else "")
            self._add(BoxItem(entry.bbox, outline(colour, width), click, tip), 40)
        if entry.anchor is not None:
            anchor = QPointF(*entry.anchor)
            if entry.bbox is not None:
                x0, y0, x1, y1 = entry.bbox
                # From the box edge nearest the anchor, so the line never crosses the label.
                start = QPointF(min(max(anchor.x(), x0), x1), min(max(anchor.y(), y0), y1))
                line = self.canvas.scene().addLine(
                    start.x(),
                    start.y(),
                    anchor.x(),
                    anchor.y(),
                    outline(OVERLAY["anchor"], 1.0, Qt.PenStyle.DotLine),
                )
                self._add(line, 35)
            radius = 2.5
            dot = self.canvas.scene().addEllipse(
                anchor.x() - radius,
                anchor.y() - radius,
                2 * radius,
                2 * radius,
                outline(QColor("#ffffff"), 1.0),
                QBrush(OVERLAY["anchor"]),
            )
            dot.setToolTip(f"{entry.name or entry.marker}: leader line ends here")
            self._add(dot, 45)
        if entry.bbox is not None:
            # The marker letter, or the row number that links the box to the key table.
            text = entry.marker or str(row + 1)
            self._add_badge(text, QPointF(entry.bbox[0], entry.bbox[1]), filled=bool(entry.marker))

    def _add_badge(self, text: str, at: QPointF, filled: bool) -> None:
        scene = self.canvas.scene()
        label = scene.addSimpleText(text)
        font = QFont()
        font.setBold(True)
        font.setPointSizeF(6.5)
        label.setFont(font)
        label.setBrush(QBrush(QColor("#ffffff") if filled else OVERLAY["label"]))
        bounds = label.boundingRect().adjusted(-2, -1, 2, 1)
        back = scene.addRect(
            bounds,
            outline(OVERLAY["label"], 1.0),
            QBrush(OVERLAY["label"] if filled else QColor("#ffffff")),
        )
        back.setPos(at.x() - bounds.width() - 1, at.y() - bounds.height() / 2)
        label.setPos(back.pos())
        self._add(back, 50)
        self._add(label, 51)

    def _add(self, item: QGraphicsItem, z: float) -> None:
        item.setZValue(z)
        if item.scene() is None:
            self.canvas.scene().addItem(item)
        self._overlay_items.append(item)

    # -- edits ---------------------------------------------------------------

    def _label_clicked(self, row: int, box: Box) -> None:
        tool = self.tool()
        if tool == "inspect":
            self.label_selected.emit(row)
        elif self.figure is not None:
            self.edits_changed.emit(self.figure.with_edit(tool, tuple(box), add=True))

    def _undo_edit(self, kind: str, box: Box) -> None:
        if self.figure is not None:
            self.edits_changed.emit(self.figure.with_edit(kind, tuple(box), add=False))

    def _painted(self, points: list[tuple[float, float]]) -> None:
        if self.figure is not None and self.tool() == "mask_strokes":
            stroke = Stroke.from_json({"width": self.brush.value(), "points": points})
            self.edits_changed.emit(self.figure.with_edit("mask_strokes", stroke, add=True))

    def _clear_mask(self) -> None:
        if self.figure is not None and self.figure.edits.mask_strokes:
            self.edits_changed.emit(self.figure.cleared("mask_strokes"))

    def _drawn(self, box: Box) -> None:
        if self.figure is not None and self.tool() == "extra_boxes":
            self.edits_changed.emit(self.figure.with_edit("extra_boxes", tuple(box), add=True))
