"""`labeler init --db postgresql://… DIR` and opening that folder, on a real PostgreSQL server."""

import subprocess
import sys
import tomllib

import psycopg
import pytest

from labeler.errors import ProjectError
from labeler.store import NewItem, Project
from labeler.store.project import POINTER_NAME, is_project


def labeler(*args):
    return subprocess.run(
        [sys.executable, "-m", "labeler", *args], capture_output=True, text=True, timeout=120
    )


def test_init_with_db_makes_a_folder_that_points_at_the_database(tmp_path, pg_server):
    url = pg_server.database()
    out = labeler("init", str(tmp_path / "team"), "--db", url, "--id-prefix", "bio")
    assert out.returncode == 0, out.stderr
    assert "database postgresql://" in out.stdout and "2170 lexicon rows" in out.stdout
    folder = tmp_path / "team"
    assert not (folder / "project.sqlite").exists() and (folder / "assets").is_dir()
    pointer = tomllib.loads((folder / POINTER_NAME).read_text())
    assert pointer == {"database": {"url": url}}
    assert is_project(folder)
    with Project.open(folder) as project:
        assert project.database_url == url and project.id_prefix == "BIO"
        item = project.items.add(NewItem(subject="heart", question_png=b"\x89PNG q"))
    # the rows are in PostgreSQL, the image in the shared folder
    with psycopg.connect(url) as db:
        assert db.execute("SELECT subject FROM items").fetchall() == [("heart",)]
    with Project.open(folder) as again:
        assert again.assets.read(again.items.get(item.id).question_asset) == b"\x89PNG q"


def test_a_password_in_the_url_is_refused_before_anything_is_written(tmp_path, pg_server):
    url = pg_server.database().replace("postgres@", "postgres:secret@")
    out = labeler("init", str(tmp_path / "team"), "--db", url)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "~/.pgpass" in out.stderr and "secret" not in out.stdout
    assert not (tmp_path / "team").exists()


def test_a_database_that_already_holds_tables_is_refused(tmp_path, pg_server):
    url = pg_server.database()
    Project.create(tmp_path / "first", db_url=url).close()
    with pytest.raises(ProjectError, match="not empty"):
        Project.create(tmp_path / "second", db_url=url)
    assert not (tmp_path / "second").exists()


def test_a_database_sorting_by_a_language_is_refused(tmp_path, pg_server):
    name = f"t_icu_{abs(hash(str(tmp_path))) % 10**8}"
    with psycopg.connect(pg_server.url("postgres"), autocommit=True) as db:
        db.execute(
            f"CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8' "
            "LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'"
        )
    with pytest.raises(ProjectError, match="createdb --locale=C"):
        Project.create(tmp_path / "p", db_url=pg_server.url(name))
    assert not (tmp_path / "p").exists()


def test_an_unreachable_database_is_a_clear_error(tmp_path, pg_server):
    url = pg_server.url("no_such_db")
    with pytest.raises(ProjectError, match="cannot connect to the project database"):
        Project.create(tmp_path / "p", db_url=url)
    (tmp_path / "q").mkdir()
    (tmp_path / "q" / POINTER_NAME).write_text("[database]\nurl = 3\n")
    with pytest.raises(ProjectError, match="not a PostgreSQL URL"):
        Project.open(tmp_path / "q")
