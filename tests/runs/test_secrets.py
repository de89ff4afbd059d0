"""API keys never reach the project, the console or an export (only the variable's name does)."""

import os
import subprocess
import sys
from pathlib import Path

from runs_support import KEY_ENV, make_project, models_toml

ROOT = Path(__file__).resolve().parents[2]
KEY = "sk-test-Zq7vNw3Rk9Lp2Xm5"


def test_a_run_and_an_export_never_contain_the_api_key(tmp_path, server):
    make_project(tmp_path / "p").close()
    toml = models_toml(tmp_path / "models.toml", server.url)
    env = {**os.environ, "PYTHONPATH": str(ROOT), KEY_ENV: KEY}
    outputs = []
    for args in (
        ["run", str(tmp_path / "p"), "--models", str(toml), "--model", "t/openai"],
        ["export", str(tmp_path / "p"), "--out", str(tmp_path / "out"), "--private"],
    ):
        out = subprocess.run(
            [sys.executable, "-m", "labeler", *args], capture_output=True, text=True, env=env
        )
        assert out.returncode == 0, out.stderr
        outputs.append(out.stdout + out.stderr)
    assert server.seen, "the run reached the server"
    files = [p for p in tmp_path.rglob("*") if p.is_file() and p.suffix != ".toml"]
    assert any(p.name == "project.sqlite" for p in files) and any(
        p.suffix == ".jsonl" for p in files
    )
    for path in files:
        assert KEY.encode() not in path.read_bytes(), path
    assert all(KEY not in text for text in outputs)
    assert KEY_ENV in (tmp_path / "models.toml").read_text()  # the name, never the value
