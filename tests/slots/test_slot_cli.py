"""``labeler slots show|order`` as a curator runs them (a real subprocess, a real project)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PIL import Image

from labeler.slots import slot_order
from labeler.store import Project
from tests.slots.slot_support import BY_POSITION, copy_project

ROOT = Path(__file__).resolve().parents[2]


def _labeler(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "labeler", "slots", *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)


def test_show_order_and_reset(tmp_path, erased):
    copy_project(tmp_path / "p", erased).close()
    folder = str(tmp_path / "p")
    shown = _labeler("show", folder, "heart-00", "--png", str(tmp_path / "s.png"))
    assert shown.returncode == 0, shown.stderr
    assert [line.split("\t")[1] for line in shown.stdout.splitlines()[:6]] == BY_POSITION
    assert Image.open(tmp_path / "s.png").size[0] > 500
    assert _labeler("order", folder, "heart-00", "2,0,1").returncode == 0
    with Project.open(folder) as project:
        assert slot_order(project, "heart-00") == [2, 0, 1]
    bad = _labeler("order", folder, "heart-00", "2,2")
    assert bad.returncode != 0 and "numbered once" in bad.stderr and "Traceback" not in bad.stderr
    assert _labeler("order", folder, "heart-00", "--reset").returncode == 0
    with Project.open(folder) as project:
        assert slot_order(project, "heart-00") == [0, 1, 2, 3, 4, 5]


def test_an_item_is_named_by_its_public_id_once_exported(tmp_path, erased):
    from labeler.export.exporter import export_project
    from labeler.export.ids import stored_public_ids

    with copy_project(tmp_path / "p", erased) as project:
        export_project(project, tmp_path / "out")
        public = stored_public_ids(project)["heart-00"]
    folder = str(tmp_path / "p")
    shown = _labeler("show", folder, public)
    assert shown.returncode == 0, shown.stderr
    assert [line.split("\t")[1] for line in shown.stdout.splitlines()[:6]] == BY_POSITION
    assert _labeler("order", folder, public, "1,0").returncode == 0
    with Project.open(folder) as project:
        assert slot_order(project, "heart-00") == [1, 0]
