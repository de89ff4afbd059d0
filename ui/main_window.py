"""The main window: a sidebar of views, menus, status bar, remembered state.

Views are looked up by name in :data:`VIEWS` and imported on demand, so the
window does not need to know any view's internals, and a view that is not
built yet (or fails to import) shows a placeholder instead of stopping the
application.
"""

from __future__ import annotations

import importlib
import sys
import traceback
from pathlib import Path

from PySide6.QtCore import QByteArray, QSize, Qt
from PySide6.QtGui import QAction, QActionGroup, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QStackedWidget,
    QWidget,
)

from labeler.lexicon_project import create_project
from ui import workers
from ui.errors import show_error
from ui.help import fill_menu
from ui.session import Session
from ui.settings import app_settings, recent_projects, remember_project
from ui.shortcuts import ShortcutRegistry, ShortcutsDialog
from ui.theme import THEMES, apply_theme
from ui.undo_menu import EditUndo
from ui.watch import ProjectWatcher
from ui.welcome import WelcomePage

# name -> (sidebar title, "module:Class"). Each class takes (session, parent=None).
VIEWS: dict[str, tuple[str, str]] = {
    "curate": ("Curate", "ui.curate.view:CurateView"),
    "review": ("Review", "ui.review.view:ReviewView"),
    "leaderboard": ("Leaderboard", "ui.leaderboard.view:LeaderboardView"),
    "lexicon": ("Lexicon", "ui.lexicon.view:LexiconView"),
    "run": ("Run", "ui.run.view:RunView"),
}
EXPORT_DIALOG = "ui.export.dialog:ExportDialog"
#: Whether File ▸ New project starts with the starter lexicon (a checkable File menu item).
STARTER_SETTING = "new_project/starter_lexicon"


def load_class(target: str) -> type | None:
    """Import ``"module:Class"``; None if that module does not exist (yet)."""
    module_name, _, class_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        # Only a missing view module means "not built yet"; a missing dependency is a bug.
        if exc.name and module_name.startswith(exc.name):
            return None
        raise
    return getattr(module, class_name)


class Placeholder(QLabel):
    """Stands in for a view that is not available."""

    def __init__(self, title: str, reason: str, parent: QWidget | None = None) -> None:
        super().__init__(f"<h2>{title}</h2><p>{reason}</p>", parent)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setObjectName("placeholder")


class MainWindow(QMainWindow):
    """Curate | Review | Leaderboard | Lexicon | Run, over one :class:`Session`."""

    def __init__(self, session: Session | None = None) -> None:
        super().__init__()
        self.session = session or Session(self)
        self.shortcuts = ShortcutRegistry()
        self.views: dict[str, QWidget] = {}
        self.remember_state = True  # False: closing does not write the layout (tests)
        self.setWindowTitle("Labeler")
        self.setMinimumSize(QSize(960, 600))

        self.sidebar = QListWidget(self)
        self.sidebar.setObjectName("sidebar")
        self.sidebar.setFixedWidth(132)
        self.sidebar.setFrameShape(QFrame.Shape.NoFrame)
        self.stack = QStackedWidget(self)
        for name, (title, target) in VIEWS.items():
            item = QListWidgetItem(title)
            item.setData(Qt.ItemDataRole.UserRole, name)
            item.setSizeHint(QSize(120, 40))
            self.sidebar.addItem(item)
            self.views[name] = self._make_view(title, target)
            self.stack.addWidget(self.views[name])
        self.welcome = WelcomePage(self.new_project, self.choose_project, self.open_project, self)
        self.stack.addWidget(self.welcome)  # shown until a project is open
        self.sidebar.currentRowChanged.connect(self._show_row)
        self.sidebar.setStyleSheet(
            "QListWidget#sidebar { background: palette(base); border: none;"
            " border-right: 1px solid palette(mid); padding-top: 10px; outline: 0; }"
            "QListWidget#sidebar::item { padding-left: 14px; border: none;"
            " border-left: 3px solid transparent; color: palette(window-text); }"
            "QListWidget#sidebar::item:hover { background: palette(alternate-base); }"
            "QListWidget#sidebar::item:selected { background: palette(window);"
            " color: palette(highlight); border-left: 3px solid palette(highlight);"
            " font-weight: bold; }"
        )
        central = QWidget(self)
        layout = QHBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.sidebar)
        layout.addWidget(self.stack, 1)
        self.setCentralWidget(central)

        self.project_label = QLabel("No project open", self)
        self.statusBar().addPermanentWidget(self.project_label)
        self.session.status_message.connect(lambda text: self.statusBar().showMessage(text, 6000))
        self.session.project_opened.connect(self._on_project_opened)
        self.watcher = ProjectWatcher(self.session, self)  # another process's writes
        self._build_menus()
        self.restore_state()
        self._show_row(self.sidebar.currentRow())

    # -- views ---------------------------------------------------------------

    def _make_view(self, title: str, target: str) -> QWidget:
        try:
            cls = load_class(target)
        except Exception:
            print(traceback.format_exc(), file=sys.stderr)
            return Placeholder(title, "This view failed to load; see the log for details.", self)
        if cls is None:
            return Placeholder(title, "This view is not part of this build yet.", self)
        return cls(self.session, self)

    def show_view(self, name: str) -> None:
        """Switch to the view called ``name`` (curate, review, leaderboard, lexicon, run)."""
        if name not in VIEWS:
            raise ValueError(f"unknown view {name!r}; choose from {', '.join(VIEWS)}")
        self.sidebar.setCurrentRow(list(VIEWS).index(name))

    def _show_row(self, row: int) -> None:
        """The view of the sidebar's row, or the welcome page while no project is open."""
        if self.session.project is None:
            self.stack.setCurrentWidget(self.welcome)
        else:
            self.stack.setCurrentIndex(max(row, 0))

    def current_view_name(self) -> str:
        """The name of the view on screen."""
        return list(VIEWS)[max(self.sidebar.currentRow(), 0)]

    # -- menus ---------------------------------------------------------------

    def _action(
        self, menu: QMenu, action_id: str, text: str, slot, key: str | QKeySequence = ""
    ) -> QAction:
        action = QAction(text, self)
        action.triggered.connect(slot)
        menu.addAction(action)
        self.addAction(action)  # shortcuts work whichever view has focus
        return self.shortcuts.register(action_id, action, key)

    def scan_document(self) -> None:
        """File ▸ Scan: the Curate view lists the open document's labelled figures."""
        self.show_view("curate")
        self.views["curate"].scan_document()

    def _build_menus(self) -> None:
        bar = self.menuBar()
        file = bar.addMenu("&File")
        self._action(
            file, "file.new", "&New project…", self.new_project, QKeySequence.StandardKey.New
        )
        self.starter_action = QAction("Start new projects with the starter &lexicon", self)
        self.starter_action.setCheckable(True)
        self.starter_action.setChecked(bool(app_settings().value(STARTER_SETTING, True, type=bool)))
        self.starter_action.toggled.connect(lambda on: app_settings().setValue(STARTER_SETTING, on))
        file.addAction(self.starter_action)
        self._action(
            file, "file.open", "&Open project…", self.choose_project, QKeySequence.StandardKey.Open
        )
        self.recent_menu = file.addMenu("Recent projects")
        self.recent_menu.aboutToShow.connect(self._fill_recent)
        file.addSeparator()
        self.add_pdf_action = self._action(
            file, "file.add_pdf", "&Add PDF…", self.add_document, "Ctrl+Shift+A"
        )
        self._action(
            file, "file.scan", "&Scan document for figures…", self.scan_document, "Ctrl+Shift+F"
        )
        self.export_action = self._action(file, "file.export", "&Export…", self.export, "Ctrl+E")
        file.addSeparator()
        self._action(file, "file.quit", "&Quit", self.close, "Ctrl+Q")

        edit = bar.addMenu("&Edit")
        self.edit_undo = EditUndo(self.session.undo_stack, self)  # or the focused panel's undo
        for action_id, action, key in (
            ("edit.undo", self.edit_undo.undo_action, QKeySequence.StandardKey.Undo),
            ("edit.redo", self.edit_undo.redo_action, QKeySequence.StandardKey.Redo),
        ):
            edit.addAction(action)
            self.addAction(action)
            self.shortcuts.register(action_id, action, key)
        edit.addSeparator()
        self._action(edit, "edit.shortcuts", "&Keyboard shortcuts…", self.edit_shortcuts)

        view = bar.addMenu("&View")
        for number, (name, (title, _)) in enumerate(VIEWS.items(), start=1):
            self._action(
                view,
                f"view.{name}",
                title,
                lambda _=False, n=name: self.show_view(n),
                f"Ctrl+{number}",
            )
        view.addSeparator()
        themes = QActionGroup(self)
        self.theme_actions: dict[str, QAction] = {}
        for theme in THEMES:
            action = QAction(f"{theme.title()} palette", self, checkable=True)
            action.triggered.connect(lambda _=False, t=theme: self.set_theme(t))
            themes.addAction(action)
            view.addAction(action)
            self.theme_actions[theme] = action

        self.help_menu = bar.addMenu("&Help")
        self.help_actions = fill_menu(self.help_menu, self.shortcuts, self)

        for view_widget in self.views.values():
            register = getattr(view_widget, "register_shortcuts", None)
            if register is not None:
                register(self.shortcuts)

    def _fill_recent(self) -> None:
        self.recent_menu.clear()
        paths = recent_projects()
        for path in paths:
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _=False, p=path: self.open_project(p))
        if not paths:
            self.recent_menu.addAction("No recent projects").setEnabled(False)

    # -- commands ------------------------------------------------------------

    def open_project(self, folder: str | Path) -> None:
        """Open a project folder; errors are shown, the previous project stays open."""
        try:
            self.session.open(folder)
        except Exception as exc:
            show_error(exc, self)

    def new_project(self) -> None:
        """Ask for a folder and create a project in it."""
        folder = QFileDialog.getExistingDirectory(self, "Folder for the new project")
        if folder:
            try:
                create_project(folder, starter=self.starter_action.isChecked()).close()
            except Exception as exc:
                show_error(exc, self)
                return
            self.open_project(folder)

    def choose_project(self) -> None:
        """Ask for a project folder and open it."""
        folder = QFileDialog.getExistingDirectory(self, "Open a Labeler project")
        if folder:
            self.open_project(folder)

    def add_document(self) -> None:
        """Ask for a PDF/SVG/image and hand it to the Curate view."""
        if self.session.project is None:
            self.session.status_message.emit("Open or create a project first")
            return
        path, _ = QFileDialog.getOpenFileName(
            self, "Add a document", "", "Documents (*.pdf *.svg *.png *.jpg *.jpeg)"
        )
        if path:
            self.show_view("curate")
            self.views["curate"].add_document(path)

    def export(self) -> None:
        """Open the Export dialog."""
        if self.session.project is None:
            self.session.status_message.emit("Open a project to export it")
            return
        cls = load_class(EXPORT_DIALOG)
        if cls is None:
            self.session.status_message.emit("Export is not part of this build yet")
            return
        dialog: QDialog = cls(self.session, self)
        dialog.exec()

    def edit_shortcuts(self) -> None:
        """Open the shortcuts table."""
        ShortcutsDialog(self.shortcuts, self).exec()

    def set_theme(self, theme: str) -> None:
        """Switch palette and remember the choice."""
        apply_theme(QApplication.instance(), theme)
        self.theme_actions[theme].setChecked(True)
        app_settings().setValue("ui/theme", theme)

    def _on_project_opened(self) -> None:
        project = self.session.require_project()
        self._show_row(self.sidebar.currentRow())
        remember_project(project.folder)
        self.setWindowTitle(f"{project.name} — Labeler")
        self.project_label.setText(f"{project.name}  ·  {project.folder}")
        self.add_pdf_action.setEnabled(True)
        # queued after the turns the views took for their first work (Curate's "Opening
        # document…"), so the status bar's last word on opening is still this one
        opened = f"Opened {project.name}"
        workers.next_turn(lambda: self.session.status_message.emit(opened), self)

    # -- state ---------------------------------------------------------------

    def restore_state(self) -> None:
        """Geometry, dock/toolbar state, last view and theme from the settings."""
        settings = app_settings()
        geometry = settings.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self.resize(1280, 800)
        state = settings.value("window/state")
        if isinstance(state, QByteArray):
            self.restoreState(state)
        view = str(settings.value("window/view", "curate"))
        self.show_view(view if view in VIEWS else "curate")
        self.theme_actions[str(settings.value("ui/theme", "light"))].setChecked(True)
        for widget in self.views.values():
            restore = getattr(widget, "restore_state", None)
            if restore is not None:
                restore(settings)

    def save_state(self) -> None:
        """Write geometry, state and the current view to the settings."""
        settings = app_settings()
        settings.setValue("window/geometry", self.saveGeometry())
        settings.setValue("window/state", self.saveState())
        settings.setValue("window/view", self.current_view_name())
        for widget in self.views.values():
            save = getattr(widget, "save_state", None)
            if save is not None:
                save(settings)
        settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_state()
        for widget in self.views.values():
            shutdown = getattr(widget, "shutdown", None)
            if shutdown is not None:
                shutdown()
        self.session.close()
        super().closeEvent(event)
