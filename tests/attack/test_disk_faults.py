"""Exports onto read-only or full disks, killed exports, and file modes under the umask."""

import json
import os
import stat
import subprocess
import sys
import threading

import pytest
from attack_support import ROOT, fill

from labeler.errors import ExportError
from labeler.export.exporter import export_project
from labeler.store import Project
from tests.runs.runs_support import ITEMS, make_project


def _mode(path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def _leftovers(folder, name):
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(f".{name}."))


def _intact(folder) -> bool:
    rows = [json.loads(line) for line in (folder / "items.jsonl").read_text().splitlines()]
    return len(rows) == len(ITEMS) and (folder / "README.md").stat().st_size > 0


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o027])
def test_files_labeler_writes_respect_the_umask(tmp_path, umask):
    old = os.umask(umask)
    try:
        project = make_project(tmp_path / "p")
        export_project(project, tmp_path / "out")
        project.close()
    finally:
        os.umask(old)
    files = [p for p in (tmp_path / "p" / "assets").rglob("*") if p.is_file()]
    assert files and {_mode(p) for p in files} == {0o666 & ~umask}
    database = _mode(tmp_path / "p" / "project.sqlite")  # SQLite creates 0644 minus the umask
    assert database == 0o644 & ~umask
    assert all(_mode(p) & database == database for p in files)  # who reads one reads both
    exported = [p for p in (tmp_path / "out").rglob("*")]
    assert {_mode(p) for p in exported if p.is_file()} == {0o666 & ~umask}
    assert {_mode(p) for p in [tmp_path / "out", *exported] if p.is_dir()} == {0o777 & ~umask}


def test_an_export_onto_a_full_disk_is_a_clear_error_and_keeps_the_earlier_export(tiny_disk):
    project = make_project(tiny_disk / "p")
    export_project(project, tiny_disk / "out")
    fill(tiny_disk)
    try:
        with pytest.raises(ExportError, match="is on a full disk; nothing was changed"):
            export_project(project, tiny_disk / "out")
    finally:
        (tiny_disk / "filler").unlink()
    assert _intact(tiny_disk / "out")
    assert _leftovers(tiny_disk, "out") == []
    project.close()


def test_an_export_into_a_read_only_folder_is_a_clear_error(tmp_path):
    readonly = tmp_path / "ro"
    readonly.mkdir()
    out = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(readonly)],
        capture_output=True,
        text=True,
    )
    if out.returncode != 0:
        pytest.skip(f"cannot mount a read-only tmpfs here (needs root): {out.stderr.strip()}")
    try:
        project = make_project(tmp_path / "p")
        with pytest.raises(ExportError, match="is on a read-only disk"):
            export_project(project, readonly / "exports" / "out")
        with pytest.raises(ExportError, match="is on a read-only disk"):
            export_project(project, readonly / "out")
        with pytest.raises(ExportError, match="is a mount point or in use"):
            export_project(project, readonly)
        assert _leftovers(tmp_path, "ro") == []
        project.close()
    finally:
        subprocess.run(["umount", "-l", str(readonly)], check=False)


def test_the_export_path_never_goes_missing_while_an_export_replaces_it(tmp_path):
    project = make_project(tmp_path / "p")
    target = tmp_path / "out"
    export_project(project, target)
    missing, stop = [], threading.Event()

    def watch():
        while not stop.is_set():
            if not os.path.exists(target / "items.jsonl"):
                missing.append(1)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        for _ in range(25):
            export_project(project, target)
    finally:
        stop.set()
        watcher.join()
    assert missing == []
    assert _intact(target) and _leftovers(tmp_path, "out") == []
    project.close()


EXPORT_LOOP = """
import sys
from labeler.export.exporter import export_project
from labeler.store import Project
from labeler.store import Project
project = Project.open(sys.argv[1])
print("ready", flush=True)
while True:
    export_project(project, sys.argv[2])
"""


@pytest.mark.slow
def test_kill_9_during_exports_leaves_a_whole_export_and_no_staging_folders(tmp_path):
    make_project(tmp_path / "p").close()
    target = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for delay in (0.05, 0.13, 0.21, 0.34, 0.55, 0.89):
        proc = subprocess.Popen(
            [sys.executable, "-c", EXPORT_LOOP, str(tmp_path / "p"), str(target)],
            stdout=subprocess.PIPE,
            env=env,
        )
        assert proc.stdout.readline().strip() == b"ready"
        threading.Event().wait(delay)
        proc.kill()
        proc.wait()
        assert not target.exists() or _intact(target)
    project = Project.open(tmp_path / "p")
    export_project(project, target)  # the next export sweeps what the killed ones left
    assert _intact(target) and _leftovers(tmp_path, "out") == []
    project.close()
