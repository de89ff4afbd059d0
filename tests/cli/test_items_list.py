"""``labeler items list``: one line per item, filterable, and safe to pipe into ``head``."""

from __future__ import annotations

import subprocess
import sys

from labeler.store import KeyEntry, NewItem, Project


def _project(folder):
    with Project.create(folder) as project:
        project.items.add(
            NewItem(
                item_id="heart",
                subject="human heart",
                status="ready",
                key=[KeyEntry("Aorta"), KeyEntry("Left atrium")],
            )
        )
        project.items.add(NewItem(item_id="cell", subject="animal cell", key=[KeyEntry("Nucleus")]))
        for n in range(300):
            project.items.add(NewItem(item_id=f"extra-{n:03}", subject=f"figure {n}"))


def test_list_shows_status_labels_and_filters(tmp_path):
    _project(tmp_path / "p")
    run = [sys.executable, "-m", "labeler", "items", "list", str(tmp_path / "p")]
    ready = subprocess.run([*run, "--status", "ready"], capture_output=True, text=True)
    assert ready.returncode == 0, ready.stderr
    assert ready.stdout.splitlines() == [
        "heart\t-\tready\textended\t2 labels\thuman heart",
        "1 item(s)",
    ]
    found = subprocess.run([*run, "--search", "animal"], capture_output=True, text=True)
    assert found.stdout.splitlines()[0].startswith("cell\t-\tdraft")


def test_a_closed_pipe_is_not_a_traceback(tmp_path):
    _project(tmp_path / "p")
    lister = subprocess.Popen(
        [sys.executable, "-m", "labeler", "items", "list", str(tmp_path / "p")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert lister.stdout is not None
    lister.stdout.close()  # the reader is gone before the first line, like `| head -0`
    _, err = lister.communicate(timeout=60)
    assert lister.returncode == 0
    assert b"Traceback" not in err
