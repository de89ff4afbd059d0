"""``labeler export`` says so before it publishes drafts or a licence nobody chose."""

from __future__ import annotations

import subprocess
import sys

from labeler.store import KeyEntry, NewItem, Project


def _export(folder, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "labeler",
            "export",
            str(folder),
            "--out",
            str(folder / "out"),
            *extra,
        ],
        capture_output=True,
        text=True,
    )


def test_drafts_and_a_default_licence_are_warned_about(tmp_path):
    folder = tmp_path / "p"
    with Project.create(folder) as project:
        project.items.add(NewItem(subject="heart", status="ready", key=[KeyEntry("Aorta")]))
        project.items.add(NewItem(subject="cell", status="draft", key=[KeyEntry("Nucleus")]))
    first = _export(folder)
    assert first.returncode == 0, first.stderr
    assert "exporting 1 draft item(s)" in first.stderr and "--only-ready" in first.stderr
    assert "no licence chosen" in first.stderr and "--license" in first.stderr
    chosen = _export(folder, "--only-ready", "--license", "cc-by-4.0")
    assert chosen.returncode == 0, chosen.stderr
    assert "warning" not in chosen.stderr
    assert "exported 1 item," in chosen.stdout
