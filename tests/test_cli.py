"""The command line as a user runs it (a real subprocess)."""

import subprocess
import sys


def labeler(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "labeler", *args], capture_output=True, text=True, cwd=cwd
    )


def test_init_creates_project_and_refuses_twice(tmp_path):
    out = labeler("init", str(tmp_path / "p"), "--id-prefix", "bio")
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "p" / "project.sqlite").is_file()
    again = labeler("init", str(tmp_path / "p"))
    assert again.returncode == 2
    assert again.stderr.startswith("labeler: error:") and "already" in again.stderr
    assert "Traceback" not in again.stderr
