"""On PostgreSQL a write locks only its item's row: another curator's item is never waited for."""

import subprocess
import sys
import time

from labeler.store import NewItem, Project

EDIT = """
import sys, time
from labeler.store import Project
with Project.open(sys.argv[1]) as p:
    t = time.monotonic()
    p.db.execute("SET lock_timeout = '3s'")
    p.items.update(sys.argv[2], notes="from the other process")
    print(round(time.monotonic() - t, 3))
"""


def edit_elsewhere(folder, item_id):
    return subprocess.run(
        [sys.executable, "-c", EDIT, str(folder), item_id],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_an_open_edit_of_one_item_does_not_hold_up_another_item(tmp_path, pg_server):
    with Project.create(tmp_path / "p", db_url=pg_server.database()) as project:
        mine = project.items.add(NewItem(subject="heart"))
        theirs = project.items.add(NewItem(subject="lung"))
        with project.transaction():
            project.items.update(mine.id, notes="still typing")  # holds its row lock
            started = time.monotonic()
            other = edit_elsewhere(project.folder, theirs.id)
            assert other.returncode == 0, other.stderr
            assert time.monotonic() - started < 20 and float(other.stdout) < 1.0
            # the same item does wait, and gives up at the lock timeout with a store error
            same = edit_elsewhere(project.folder, mine.id)
            assert same.returncode != 0 and "lock timeout" in same.stderr
        assert project.items.get(theirs.id).notes == "from the other process"
        assert project.items.get(mine.id).notes == "still typing"
