"""Can Qt open a window? Asked before Qt tries, because Qt's own answer kills the process.

When a system library of the xcb platform plugin is missing, ``QApplication()`` prints "could
not load the Qt platform plugin" with a hint that names the wrong library (on a fresh Debian it
named libxcb-cursor0; libxcb-icccm4 and libxcb-keysyms1 were missing) and aborts the
interpreter, so no ``except`` can turn it into a message. ``ldd`` on PySide6's plugin lists every
missing library at once; :func:`check_window_platform` raises one :class:`DisplayError` naming
them and the Debian/Ubuntu packages that provide them. No Qt is imported here: PySide6 is only
located, which keeps this usable from the core CLI (see pyproject's import-linter contracts).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from labeler.errors import DisplayError

#: The Debian/Ubuntu package of every shared library PySide6's xcb plugin loads (from ``ldd`` on
#: ``PySide6/Qt/plugins/platforms/libqxcb.so``, PySide6 6.8-6.11, and ``dpkg -S`` on each).
DEBIAN_PACKAGES: Mapping[str, str] = {
    "libGL.so.1": "libgl1",
    "libEGL.so.1": "libegl1",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libX11.so.6": "libx11-6",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxcb.so.1": "libxcb1",
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
}


_NO_WINDOW = "Screenshots need no window: gui --screenshot PATH, demo --screenshot-dir DIR"


def check_window_platform(screenshot: bool, env: Mapping[str, str] | None = None) -> None:
    """Raise :class:`DisplayError` if Qt will use xcb and cannot: its plugin's libraries are
    missing, or there is no X display (``DISPLAY`` unset), which Qt also answers by aborting.

    ``screenshot``: the window is only drawn to a file, which ``ui.app.run_app`` does offscreen
    unless ``QT_QPA_PLATFORM`` says otherwise. Nothing is checked off Linux, for other
    platforms, or when PySide6 or ``ldd`` cannot be found (then Qt reports for itself).
    """
    env = os.environ if env is None else env
    if not sys.platform.startswith("linux") or qt_platform(screenshot, env) != "xcb":
        return
    plugin = xcb_plugin()
    if plugin is not None:
        check_plugin(plugin)
    if not env.get("DISPLAY"):
        raise DisplayError(
            "Qt cannot open a window: there is no X display (DISPLAY is not set); run Labeler "
            f"in a desktop session or over ssh -X. {_NO_WINDOW}"
        )


def check_plugin(plugin: Path) -> None:
    """Raise :class:`DisplayError` naming every library ``plugin`` needs that is not installed."""
    missing = missing_libraries(plugin)
    if missing:
        raise DisplayError(missing_message(missing))


def qt_platform(screenshot: bool, env: Mapping[str, str]) -> str:
    """The platform plugin Qt will try first: ``QT_QPA_PLATFORM`` (first of a ``;`` list,
    without ``:options``), else offscreen for a screenshot, wayland in a Wayland session, xcb."""
    chosen = env.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip()
    if chosen:
        return chosen
    if screenshot:
        return "offscreen"
    if env.get("WAYLAND_DISPLAY") and env.get("XDG_SESSION_TYPE") == "wayland":
        return "wayland"
    return "xcb"


def xcb_plugin() -> Path | None:
    """PySide6's xcb platform plugin, located without importing PySide6."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    package = Path(next(iter(spec.submodule_search_locations)))
    plugin = package / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return plugin if plugin.is_file() else None


def missing_libraries(plugin: Path) -> list[str]:
    """The shared libraries ``ldd`` cannot find for ``plugin``, direct or indirect (sorted)."""
    try:
        done = subprocess.run(
            ["ldd", str(plugin)], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    return sorted(
        {
            line.split("=>")[0].strip()
            for line in done.stdout.splitlines()
            if line.rstrip().endswith("=> not found")
        }
    )


def missing_message(missing: list[str]) -> str:
    """The one message for ``missing`` libraries: their packages where known, and a way on."""
    packages = sorted({DEBIAN_PACKAGES[name] for name in missing if name in DEBIAN_PACKAGES})
    unknown = [name for name in missing if name not in DEBIAN_PACKAGES]
    install = f"; on Debian/Ubuntu: sudo apt-get install {' '.join(packages)}" if packages else ""
    other = f"; install the packages providing {', '.join(unknown)}" if unknown else ""
    return (
        f"Qt cannot open a window: system libraries its xcb platform plugin needs are missing "
        f"({', '.join(missing)}){install}{other} (README: 'Qt's system libraries'). {_NO_WINDOW}"
    )
