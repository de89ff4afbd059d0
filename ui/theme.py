"""Light and dark palettes on Qt's Fusion style.

Fusion draws the same on every platform, so one pair of palettes gives a
readable, consistent look; colours are chosen for contrast in tables and for
the figure overlays, which use :data:`OVERLAY` in both themes.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleOption, QWidget

THEMES = ("light", "dark")

_COLOURS = {
    "light": {
        "Window": "#f3f4f6",
        "WindowText": "#1f2328",
        "Base": "#ffffff",
        "AlternateBase": "#f6f8fa",
        "Text": "#1f2328",
        "Button": "#eceef1",
        "ButtonText": "#1f2328",
        "Highlight": "#2f6fde",
        "HighlightedText": "#ffffff",
        "ToolTipBase": "#ffffff",
        "ToolTipText": "#1f2328",
        "PlaceholderText": "#6e7781",
        "Link": "#2f6fde",
        "Mid": "#c8ccd2",
        "Dark": "#a0a6ad",
    },
    "dark": {
        "Window": "#1f2226",
        "WindowText": "#e6e8eb",
        "Base": "#16181b",
        "AlternateBase": "#22262b",
        "Text": "#e6e8eb",
        "Button": "#2b2f35",
        "ButtonText": "#e6e8eb",
        "Highlight": "#3d7be0",
        "HighlightedText": "#ffffff",
        "ToolTipBase": "#2b2f35",
        "ToolTipText": "#e6e8eb",
        "PlaceholderText": "#8b949e",
        "Link": "#6ea8fe",
        "Mid": "#3a3f46",
        "Dark": "#111315",
    },
}

# Overlay colours on figures (always drawn over a white page, so theme-independent).
OVERLAY = {
    "label": QColor("#d6336c"),
    "kept": QColor("#2f9e44"),
    "extra": QColor("#f08c00"),
    "removed": QColor("#868e96"),
    "anchor": QColor("#1c7ed6"),
    "proposal": QColor("#1c7ed6"),
    "selection": QColor("#e8590c"),
    "mask": QColor("#e03131"),
}


def palette(theme: str) -> QPalette:
    """The QPalette for ``theme`` ("light" or "dark")."""
    pal = QPalette()
    for role_name, colour in _COLOURS[theme].items():
        role = getattr(QPalette.ColorRole, role_name)
        pal.setColor(QPalette.ColorGroup.All, role, QColor(colour))
    disabled = QColor(_COLOURS[theme]["PlaceholderText"])
    for role in (
        QPalette.ColorRole.Text,
        QPalette.ColorRole.WindowText,
        QPalette.ColorRole.ButtonText,
    ):
        pal.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    return pal


# Fusion draws a checked tool button almost like an unchecked one; make modes obvious.
STYLE = """
QToolButton:checked { background: palette(highlight); color: palette(highlighted-text);
                      border: 1px solid palette(highlight); border-radius: 3px; }
QTableView { gridline-color: palette(mid); }
QHeaderView::section { padding: 3px 6px; }
"""


class ThemeStyle(QProxyStyle):
    """Fusion, with check box and radio button rims that read on a dark window.

    Fusion draws an indicator's rim in the window colour made darker, which on the dark
    palette is near black on near black: an unticked box (Run's "slots", Export's "Only items
    marked ready") vanished. On a dark window the rim is drawn again in the placeholder-text
    colour, which stands out about 4:1 from the window; the light theme is untouched.
    """

    def __init__(self) -> None:
        super().__init__("Fusion")

    def drawPrimitive(
        self,
        element: QStyle.PrimitiveElement,
        option: QStyleOption,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        super().drawPrimitive(element, option, painter, widget)
        box = QStyle.PrimitiveElement.PE_IndicatorCheckBox
        radio = QStyle.PrimitiveElement.PE_IndicatorRadioButton
        if element not in (box, radio) or option.palette.window().color().lightness() >= 128:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, element == radio)
        painter.setPen(QPen(option.palette.color(QPalette.ColorRole.PlaceholderText), 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        if element == radio:
            painter.drawEllipse(option.rect.toRectF().adjusted(1.5, 1.5, -1.5, -1.5))
        else:
            painter.drawRect(option.rect.adjusted(0, 0, -1, -1))
        painter.restore()


def apply_theme(app: QApplication, theme: str) -> None:
    """Switch the whole application to ``theme``."""
    if theme not in THEMES:
        theme = "light"
    app.setStyle(ThemeStyle())
    app.setPalette(palette(theme))
    app.setStyleSheet(STYLE)
    app.setProperty("labeler_theme", theme)
