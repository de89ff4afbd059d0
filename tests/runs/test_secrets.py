"""API keys never reach the project, the console or an export (only the variable's name does)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.runs.runs_support import KEY_ENV, make_project, models_toml

ROOT = Path(__file__).resolve().parents[2]
KEY = "sk-test-Zq7vNw3Rk9Lp2Xm5"


@pytest.mark.sqlite_only  # reads project.sqlite; tests/pg/test_no_keys.py reads PostgreSQL
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


def test_a_key_pasted_as_api_key_env_is_rejected_without_being_echoed(tmp_path):
    make_project(tmp_path / "p").close()
    pasted = "sk-proj-Hx4Tq9Wm2Lr7Nc5Vb8"
    toml = tmp_path / "models.toml"
    toml.write_text(
        f'[[models]]\nname = "x"\nprovider = "openai"\nmodel = "gpt"\napi_key_env = "{pasted}"\n',
        encoding="utf-8",
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "labeler", "run", str(tmp_path / "p"), "--models", str(toml)]
    for extra in ([], ["--dry-run"]):
        out = subprocess.run(
            [*command, *extra],
            capture_output=True,
            text=True,
            env=env,
        )
        assert out.returncode == 2
        assert "api_key_env must be the NAME of an environment variable" in out.stderr
        assert pasted not in out.stdout + out.stderr
        assert pasted[:12] not in out.stdout + out.stderr  # not even a prefix of it
