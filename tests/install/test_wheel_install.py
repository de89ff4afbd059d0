"""A built wheel installs and runs anywhere: no file of the source tree is needed at run time.

The wheel is built from a copy of the checkout's files (tracked and new, not ignored), so what
it carries is what a clean clone would ship; it is then installed into a fresh virtual
environment and ``labeler demo --screenshot-dir`` runs from there, headless, in a folder outside
the repository. The demo reads the sample textbook and the starter lexicon, so a data file left
out of the wheel fails here the way it failed for users.

Why the fresh venv borrows this venv's dependencies instead of installing its own: installing
the wheel's dependencies from PyPI would unpack well over 600 MB (PySide6, pymupdf, pandas,
onnxruntime, OpenCV), need the network and take minutes on CI's two cores, and would test PyPI
rather than the wheel. A venv created from a
venv with ``--system-site-packages`` does not help: it sees the base interpreter's packages, not
this venv's. So the wheel is installed with ``--no-deps``, and one ``.pth`` line puts this venv's
site-packages after the fresh venv's own. A ``.pth`` line adds only that folder; the ``.pth``
files inside it (the one that makes the editable install of this checkout importable) are not
run, so ``labeler`` and ``ui`` can only come from the wheel. The test asserts that too. The
wheel is built with ``--no-build-isolation`` by the setuptools of the ``test`` extra, so nothing
is fetched from the network: tests talk to 127.0.0.1 only.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from labeler.demo import REAL_FIGURES
from labeler.samples.book import layout
from labeler.store import Project

ROOT = Path(__file__).resolve().parents[2]
WHERE_FROM = "import labeler, ui; print(labeler.__file__, ui.__file__)"
VIEWS = ("curate", "review", "leaderboard", "lexicon", "run")

pytestmark = pytest.mark.slow


def _checkout_copy(dest: Path) -> Path:
    """The checkout's tracked and new (not ignored) files, copied to ``dest``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = ROOT / name
        if source.is_file():  # a file deleted in the work tree but still tracked is skipped
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(source.read_bytes())
    return dest


def _pip(*args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", *args],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The ``bin`` folder of a fresh venv holding only the built wheel (dependencies borrowed)."""
    base = tmp_path_factory.mktemp("wheel")
    source = _checkout_copy(base / "src")
    _pip("wheel", "--no-deps", "--no-build-isolation", "-w", str(base / "dist"), str(source))
    (wheel,) = (base / "dist").glob("labeler-*.whl")
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    _pip("--python", str(python), "install", "--no-deps", str(wheel))
    fresh_site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (Path(fresh_site) / "borrowed-test-deps.pth").write_text("\n".join(sorted(ours)) + "\n")
    return venv / "bin"


def _outside_env() -> dict[str, str]:
    """The environment of a user's shell: offscreen Qt, nothing pointing into the checkout."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["QT_QPA_PLATFORM"] = "offscreen"
    return env


def test_the_wheel_alone_provides_labeler_and_ui(installed, tmp_path):
    where = subprocess.run(
        [str(installed / "python"), "-c", WHERE_FROM],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_outside_env(),
    )
    assert where.returncode == 0, where.stderr
    venv = installed.parent.resolve()
    for module_file in where.stdout.split():
        assert Path(module_file).resolve().is_relative_to(venv), module_file


def test_installed_demo_renders_every_view_from_outside_the_checkout(installed, tmp_path):
    project, shots = tmp_path / "demo", tmp_path / "shots"
    done = subprocess.run(
        [str(installed / "labeler"), "demo", "--project", project, "--screenshot-dir", shots],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=_outside_env(),
        timeout=900,  # the demo erases five real figures too (three by OCR)
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    for view in VIEWS:
        png = shots / f"{view}.png"
        assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n"), view
        assert png.stat().st_size > 10_000, view  # a drawn window, not an empty image
    with Project.open(project) as demo:
        items = demo.items.list()
        real = [f.subject for f in REAL_FIGURES]
        assert [i.subject for i in items] == real + [f.spec.subject for f in layout()]
        assert all(demo.items.key(i.id) for i in items)
