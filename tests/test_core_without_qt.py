"""The core must import and work without Qt (the napari rule).

A subprocess blocks PySide6/shiboken6 at import time, imports every module
under ``labeler`` and runs the CLI's parser. If any core module imports Qt,
the import fails loudly here.
"""

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_core_module_imports_with_qt_blocked():
    script = textwrap.dedent(
        """
        import importlib, pkgutil, sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {"PySide6", "shiboken6", "PyQt5", "PyQt6", "ui"}:
                    raise ImportError(f"core imported {name}")
        sys.meta_path.insert(0, Block())
        import labeler
        names = [m.name for m in pkgutil.walk_packages(labeler.__path__, "labeler.")]
        names = [n for n in names if not n.endswith("__main__")]
        for name in names:
            importlib.import_module(name)
        from labeler.cli import build_parser
        build_parser()
        assert not any(k.startswith(("PySide6", "shiboken6")) for k in sys.modules)
        print(len(names))
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert int(out.stdout.strip()) >= 3


def test_import_linter_contracts_hold():
    lint_imports = Path(sys.executable).with_name("lint-imports")
    out = subprocess.run(
        [str(lint_imports), str(ROOT / "pyproject.toml")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
