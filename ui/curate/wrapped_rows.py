"""Table rows that show a column's text whole: wrapped, and grown to fit while on screen.

Curate's items list is narrow, and a subject cut to "leaf cross…" hides what the item is.
The subject column therefore wraps its text at word boundaries, breaking a word only where it
is wider than the column itself (:func:`draw_wrapped`), so nothing is elided. Rows
must then grow to their text; making every row fit (``ResizeToContents``) measures every row
at each reload, which at 100k items is the GUI-thread cost decision 0024 took out. So rows
keep one line's height until they are shown: whenever the visible rows change (scroll,
resize, reload, a column's width) just those are measured (:class:`VisibleRowFit`), and only
in the wrapped column: the others hold one line, which the row's height already fits, and
``sizeHintForRow`` would ask every cell of the row for every role (~60 model calls a row, at
each reload: the end of a run re-reads the list).
"""

from __future__ import annotations

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPointF,
    QRect,
    QSize,
    QTimer,
)
from PySide6.QtGui import QFont, QPainter, QTextLayout, QTextOption
from PySide6.QtWidgets import (
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
)

MARGIN_X, MARGIN_Y = 4, 3  # around the text, as the default item text margins


def _wrapped(text: str, font: QFont, width: float) -> tuple[QTextLayout, float]:
    """``text`` laid out in lines of ``width``, and the lines' total height."""
    layout = QTextLayout(text, font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(option)
    layout.beginLayout()
    height = 0.0
    while (line := layout.createLine()).isValid():
        line.setLineWidth(max(width, 1.0))
        line.setPosition(QPointF(0, height))
        height += line.height()
    layout.endLayout()
    return layout, height


def draw_wrapped(painter: QPainter, cell: QRect, text: str, font: QFont) -> None:
    """``text`` in ``cell`` in as many lines as its width needs, centred as one-line cells,
    in the painter's pen (the table that draws the column calls this)."""
    rect = cell.adjusted(MARGIN_X, MARGIN_Y, -MARGIN_X, -MARGIN_Y)
    layout, height = _wrapped(text, font, rect.width())
    top = rect.top() + max(0.0, (rect.height() - height) / 2)
    painter.save()
    painter.setClipRect(cell)
    layout.draw(painter, QPointF(rect.left(), top))
    painter.restore()


class WrappedTextDelegate(QStyledItemDelegate):
    """Sizes a cell to its text wrapped at the column's width (:func:`draw_wrapped` draws it)."""

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        width = opt.rect.width() - 2 * MARGIN_X
        _, height = _wrapped(opt.text, opt.font, width)
        return QSize(opt.rect.width(), int(height + 0.999) + 2 * MARGIN_Y)


class VisibleRowFit(QObject):
    """Fits the heights of ``table``'s visible rows to ``column``'s wrapped text.

    ``column`` is drawn by a :class:`WrappedTextDelegate`; every other column holds
    one line, which the table's default row height fits.
    """

    def __init__(self, table: QTableView, column: int) -> None:
        super().__init__(table)
        self.table = table
        self.column = column
        self.delegate = WrappedTextDelegate(table)
        table.setItemDelegateForColumn(column, self.delegate)
        self.line = table.verticalHeader().defaultSectionSize()  # one line's row
        table.setWordWrap(True)  # the view then measures a cell at its column's width
        self._pending = QTimer(self, singleShot=True, interval=0)  # one fit per burst
        self._pending.timeout.connect(self.fit)
        table.verticalScrollBar().valueChanged.connect(self._later)
        table.horizontalHeader().sectionResized.connect(self._later)
        table.viewport().installEventFilter(self)
        model = table.model()
        for signal in (model.modelReset, model.layoutChanged, model.rowsInserted):
            signal.connect(self._later)
        model.dataChanged.connect(self._later)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show):
            self._later()
        return False

    def fit(self) -> None:
        """Size every row now on screen to what its text needs (one line at least).

        A list behind another view has no rows on screen: it is fitted when it is shown.
        Asking a hidden table which row is at its bottom answers "none", which once made
        this fit all 2,500 rows of a project opened on Review (a third of a second of the
        GUI thread); the rows fitted are now bounded by what the viewport can hold.
        """
        table = self.table
        rows = table.model().rowCount()
        if not rows or not table.isVisible():
            return
        height = table.viewport().height()
        first = max(table.rowAt(0), 0)
        last = table.rowAt(height - 1)
        if last < 0:  # the rows end above the viewport's bottom, or it is not laid out yet
            last = min(rows - 1, first + height // max(self.line, 1) + 1)
        option = QStyleOptionViewItem()
        option.initFrom(table)
        option.font = table.font()
        option.rect = QRect(0, 0, table.columnWidth(self.column), self.line)
        model = table.model()
        for row in range(first, last + 1):
            hint = self.delegate.sizeHint(option, model.index(row, self.column))
            height = max(self.line, hint.height() + table.showGrid())  # as sizeHintForRow
            if table.rowHeight(row) != height:
                table.setRowHeight(row, height)

    def _later(self, *_: object) -> None:
        self._pending.start()
