"""``labeler gui``/``demo`` name Qt's missing system libraries instead of letting Qt abort.

The fake plugin environment is a PySide6 tree whose xcb plugin is a copy of the real one with
one needed library renamed to a name no system has (same length, so the ELF stays valid); its
``Qt/lib`` links to the real Qt libraries so everything else resolves as it does for real.
``ldd`` and the CLI run for real on it.
"""

from __future__ import annotations

import ctypes
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from labeler.cli._qt_check import (
    DEBIAN_PACKAGES,
    check_plugin,
    check_window_platform,
    missing_libraries,
    missing_message,
    qt_platform,
    xcb_plugin,
)
from labeler.errors import DisplayError

ABSENT = "libxcb-absent.so.0"  # stands in for libxcb-cursor.so.0 (same length)
# Libraries of the window system (not libc and friends, not Qt's own, not their dependencies).
WINDOW_LIBRARY = r"lib(xcb|X11|xkbcommon|GL\.|EGL|fontconfig|freetype|dbus|glib|gthread)"


@pytest.fixture(scope="module")
def fake_pyside(tmp_path_factory) -> Path:
    """A folder holding a fake ``PySide6`` package whose xcb plugin needs :data:`ABSENT`."""
    real = xcb_plugin()
    assert real is not None, "PySide6's xcb plugin is part of the pyside6-essentials wheel"
    root = tmp_path_factory.mktemp("fake-site")
    package = root / "PySide6"
    (package / "Qt" / "plugins" / "platforms").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "Qt" / "lib").symlink_to(real.parents[2] / "lib")
    data = real.read_bytes()
    assert b"libxcb-cursor.so.0\0" in data
    patched = data.replace(b"libxcb-cursor.so.0\0", ABSENT.encode() + b"\0")
    (package / "Qt" / "plugins" / "platforms" / "libqxcb.so").write_bytes(patched)
    return root


def test_ldd_names_the_missing_library_and_only_unloadable_ones(fake_pyside):
    missing = missing_libraries(fake_pyside / "PySide6/Qt/plugins/platforms/libqxcb.so")
    assert ABSENT in missing
    assert not any(name.startswith("libQt6") for name in missing)  # Qt's own libs resolve
    for name in missing:
        with pytest.raises(OSError):
            ctypes.CDLL(name)


def _cli(
    fake_root: Path, *argv: str, cwd: Path, drop: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    gone = ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY", *drop)
    env = {k: v for k, v in os.environ.items() if k not in gone}
    if "DISPLAY" not in drop:
        env.setdefault("DISPLAY", ":0")  # a display is named; the libraries are what is missing
    env["PYTHONPATH"] = str(fake_root)  # found before site-packages: the fake PySide6 wins
    return subprocess.run(
        [sys.executable, "-m", "labeler", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
    )


@pytest.mark.parametrize("command", [["gui"], ["demo", "--project", "demo"]])
def test_gui_and_demo_print_one_message_listing_the_libraries(fake_pyside, tmp_path, command):
    done = _cli(fake_pyside, *command, cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr
    assert lines[0].startswith("labeler: error: Qt cannot open a window: system libraries")
    assert ABSENT in lines[0] and "--screenshot" in lines[0]
    assert not (tmp_path / "demo").exists()  # checked before the demo project is built


def test_without_an_x_display_gui_says_so_instead_of_aborting(tmp_path):
    """A "plugin" whose libraries all resolve (the Python interpreter stands in), no ``DISPLAY``."""
    package = tmp_path / "site" / "PySide6"
    (package / "Qt" / "plugins" / "platforms").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    plugin = package / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    plugin.write_bytes(Path(sys.executable).resolve().read_bytes())
    assert missing_libraries(plugin) == []
    done = _cli(tmp_path / "site", "gui", cwd=tmp_path, drop=("DISPLAY",))
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("labeler: error: Qt cannot open a window: there is no X display")
    assert "--screenshot" in line


def test_the_plugin_check_raises_one_error_naming_the_library(fake_pyside):
    plugin = fake_pyside / "PySide6/Qt/plugins/platforms/libqxcb.so"
    with pytest.raises(DisplayError, match=ABSENT):
        check_plugin(plugin)


def test_known_libraries_get_their_packages_and_unknown_ones_their_names():
    message = missing_message(["libxcb-absent.so.0", "libxcb-icccm.so.4", "libxcb-keysyms.so.1"])
    assert "sudo apt-get install libxcb-icccm4 libxcb-keysyms1;" in message
    assert "install the packages providing libxcb-absent.so.0" in message


def test_every_window_library_of_the_real_plugin_has_its_debian_package():
    """Keeps the table (and the README's apt-get line) true when PySide6 is upgraded."""
    listed = subprocess.run(["ldd", str(xcb_plugin())], capture_output=True, text=True).stdout
    names = {line.split("=>")[0].strip() for line in listed.splitlines() if "=>" in line}
    window = {n for n in names if re.match(WINDOW_LIBRARY, n)}
    assert {"libxcb-icccm.so.4", "libxcb-keysyms.so.1", "libxcb-cursor.so.0"} <= window
    assert window <= set(DEBIAN_PACKAGES), window - set(DEBIAN_PACKAGES)


@pytest.mark.parametrize(
    ("env", "screenshot", "expected"),
    [
        ({}, False, "xcb"),
        ({}, True, "offscreen"),
        ({"QT_QPA_PLATFORM": "xcb"}, True, "xcb"),
        ({"QT_QPA_PLATFORM": "offscreen"}, False, "offscreen"),
        ({"QT_QPA_PLATFORM": "wayland;xcb"}, False, "wayland"),
        ({"QT_QPA_PLATFORM": "xcb:nomitshm"}, False, "xcb"),
        ({"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "wayland"}, False, "wayland"),
        ({"WAYLAND_DISPLAY": "wayland-0", "XDG_SESSION_TYPE": "x11"}, False, "xcb"),
    ],
)
def test_the_platform_qt_will_try_first(env, screenshot, expected):
    assert qt_platform(screenshot, env) == expected


def test_offscreen_needs_no_window_libraries():
    check_window_platform(screenshot=False, env={"QT_QPA_PLATFORM": "offscreen"})  # no raise
