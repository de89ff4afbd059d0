"""In the dark theme an unticked check box or radio button has a rim that reads (gui11).

Fusion alone draws it near black on the near-black window (about 1.2:1), so Run's unticked
conditions and Export's "Only items marked ready" looked like empty space.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QRadioButton,
    QStyle,
    QStyleOptionButton,
    QWidget,
)

from ui.theme import apply_theme, palette

#: WCAG 2.1 §1.4.11: a control's boundary needs 3:1 against what is next to it.
NON_TEXT_CONTRAST = 3.0
#: and text 4.5:1 (§1.4.3).
TEXT_CONTRAST = 4.5


def _luminance(colour: QColor) -> float:
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in (colour.redF(), colour.greenF(), colour.blueF()))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: QColor, b: QColor) -> float:
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.fixture
def dark(qapp: QApplication) -> Iterator[QColor]:
    apply_theme(qapp, "dark")
    yield palette("dark").color(palette("dark").ColorRole.Window)
    apply_theme(qapp, "light")


@pytest.mark.parametrize(
    ("kind", "element"),
    [
        (QCheckBox, QStyle.SubElement.SE_CheckBoxIndicator),
        (QRadioButton, QStyle.SubElement.SE_RadioButtonIndicator),
    ],
)
def test_an_unticked_indicator_stands_out_from_the_dark_window(qtbot, dark, kind, element):
    holder = QWidget()
    qtbot.addWidget(holder)
    button = kind("Only items marked ready", holder)
    button.setChecked(False)
    holder.resize(300, 40)
    holder.show()
    qtbot.waitExposed(holder)
    option = QStyleOptionButton()
    option.initFrom(button)
    rect = button.style().subElementRect(element, option, button)
    image = button.grab().toImage()
    assert image.pixelColor(1, 1) == dark  # the picture is of the dark window
    best = max(
        contrast(image.pixelColor(x, y), dark)
        for x in range(rect.left(), rect.right() + 1)
        for y in range(rect.top(), rect.bottom() + 1)
    )
    assert best >= NON_TEXT_CONTRAST, (kind.__name__, round(best, 2))
