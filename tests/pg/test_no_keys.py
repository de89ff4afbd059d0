"""A run on a PostgreSQL project stores no API key: not in any row, nor in the folder."""

import os
import subprocess
import sys

import psycopg

from labeler.store import NewItem, Project
from tests.runs.runs_loopback import LoopbackServer
from tests.runs.runs_support import KEY_ENV, figure, models_toml
from tests.runs.test_secrets import KEY, ROOT


def test_a_run_leaves_no_key_in_the_database_or_the_folder(tmp_path, pg_server):
    url = pg_server.database()
    with Project.create(tmp_path / "p", db_url=url) as project:
        project.items.add(NewItem(item_id="heart", subject="heart", question_png=figure()))
    with LoopbackServer(api_key=KEY) as server:
        toml = models_toml(tmp_path / "models.toml", server.url)
        env = {**os.environ, "PYTHONPATH": str(ROOT), KEY_ENV: KEY}
        out = subprocess.run(
            [sys.executable, "-m", "labeler", "run", str(tmp_path / "p"), "--models", str(toml)],
            capture_output=True,
            text=True,
            env=env,
            timeout=180,
        )
        assert out.returncode == 0, out.stderr
        assert len(server.seen) == 3 * 4 and KEY not in out.stdout + out.stderr
    with psycopg.connect(url) as db:
        listed = db.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        tables = [r[0] for r in listed]
        text = "".join(str(row) for table in tables for row in db.execute(f"SELECT * FROM {table}"))
    assert "t/openai" in text and "heart" in text  # the rows were read
    assert KEY not in text
    for path in (tmp_path / "p").rglob("*"):
        assert not path.is_file() or KEY.encode() not in path.read_bytes(), path
