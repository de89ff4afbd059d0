"""The erase preview zooms about the cursor and pans, so a 4 px label can be read."""

from __future__ import annotations

import pymupdf
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolButton

from labeler.store.records import KeyEntry
from ui.curate.preview import ErasePreview, Figure

CLIP = (0.0, 0.0, 600.0, 400.0)
TINY = (400.0, 300.0, 440.0, 304.0)  # a label box 4 points tall


def tiny_label_figure() -> Figure:
    """A wide figure (rendered by pymupdf at 72 dpi) with one very small printed label."""
    doc = pymupdf.open()
    page = doc.new_page(width=CLIP[2], height=CLIP[3])
    page.draw_rect(pymupdf.Rect(20, 20, 580, 380), color=(0, 0, 0), width=1)
    page.insert_text((TINY[0], TINY[3]), "Axon hillock", fontsize=4)
    png = page.get_pixmap(dpi=72).tobytes("png")
    doc.close()
    key = (KeyEntry(name="Axon hillock", bbox=TINY),)
    return Figure(question_png=png, answer_png=png, clip=CLIP, dpi=72, key=key)


def shown(qtbot) -> ErasePreview:
    preview = ErasePreview()
    qtbot.addWidget(preview)
    preview.resize(420, 360)
    preview.set_figure(tiny_label_figure())
    preview.show()
    qtbot.waitExposed(preview)
    return preview


def wheel(canvas, at: QPoint, notches: int) -> None:
    event = QWheelEvent(
        QPointF(at),
        QPointF(canvas.viewport().mapToGlobal(at)),
        QPoint(0, 0),
        QPoint(0, 120 * notches),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(canvas.viewport(), event)


def screen_height(canvas, box) -> float:
    top = canvas.mapFromScene(QPointF(box[0], box[1]))
    bottom = canvas.mapFromScene(QPointF(box[0], box[3]))
    return float(bottom.y() - top.y())


def test_the_wheel_zooms_about_the_point_under_the_cursor(qtbot):
    preview = shown(qtbot)
    canvas = preview.canvas
    fitted = canvas.zoom()
    assert screen_height(canvas, TINY) <= 4  # fitted, the label is a smudge
    at = canvas.mapFromScene(QPointF(420, 302))  # the middle of the tiny label
    before = canvas.mapToScene(at)

    wheel(canvas, at, 6)

    assert canvas.zoom() > fitted * 2
    assert canvas.transform().m11() == canvas.zoom() and canvas.transform().m22() == canvas.zoom()
    after = canvas.mapToScene(at)
    assert abs(after.x() - before.x()) < 1.5 / canvas.zoom() + 0.5
    assert abs(after.y() - before.y()) < 1.5 / canvas.zoom() + 0.5
    assert preview.zoom.label.text() == f"{canvas.zoom() * 100:.0f}%"

    wheel(canvas, at, 10)  # on to a size a person reads
    assert screen_height(canvas, TINY) >= 12
    after = canvas.mapToScene(at)
    assert abs(after.x() - 420) < 2 and abs(after.y() - 302) < 2

    wheel(canvas, at, -3)
    assert canvas.zoom() < 8.0


def test_keys_and_buttons_fit_zoom_and_show_100_percent(qtbot):
    preview = shown(qtbot)
    canvas = preview.canvas
    fitted = canvas.zoom()
    canvas.setFocus()
    QTest.keyClick(canvas, Qt.Key.Key_Plus)
    assert abs(canvas.zoom() - fitted * 1.25) < 1e-6
    QTest.keyClick(canvas, Qt.Key.Key_Minus)
    QTest.keyClick(canvas, Qt.Key.Key_Minus)
    assert abs(canvas.zoom() - fitted / 1.25) < 1e-6
    QTest.keyClick(canvas, Qt.Key.Key_1)
    assert abs(canvas.zoom() - 1.0) < 1e-6
    QTest.keyClick(canvas, Qt.Key.Key_0)
    assert abs(canvas.zoom() - fitted) < 1e-6

    buttons = {b.text(): b for b in preview.zoom.findChildren(QToolButton)}
    buttons["1:1"].click()
    assert abs(canvas.zoom() - 1.0) < 1e-6
    buttons["+"].click()
    assert abs(canvas.zoom() - 1.25) < 1e-6
    buttons["Fit"].click()
    assert abs(canvas.zoom() - fitted) < 1e-6


def test_a_left_drag_on_the_figure_pans_it(qtbot):
    preview = shown(qtbot)
    canvas = preview.canvas
    canvas.set_zoom(3.0)
    canvas.centerOn(QPointF(300, 200))
    viewport = canvas.viewport()
    start = QPoint(200, 150)
    grabbed = canvas.mapToScene(start)
    end = QPoint(120, 90)
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    QTest.mouseMove(viewport, QPoint(160, 120))
    QTest.mouseMove(viewport, end)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end)
    moved = canvas.mapToScene(end)
    # the point grabbed followed the mouse
    assert abs(moved.x() - grabbed.x()) < 1 and abs(moved.y() - grabbed.y()) < 1
    assert abs(canvas.zoom() - 3.0) < 1e-6
