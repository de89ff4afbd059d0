"""`labeler migrate` SQLite → PostgreSQL → SQLite: the export is byte-identical at each step."""

import subprocess
import sys

import pytest

from labeler.errors import ProjectError
from labeler.export.exporter import export_project
from labeler.store import Project
from labeler.store.transfer import to_postgres
from tests.export.export_fixtures import MODELS, PAGE, answer, build_project, make_pdf


def labeler(*args):
    return subprocess.run(
        [sys.executable, "-m", "labeler", *args], capture_output=True, text=True, timeout=180
    )


def export_bytes(folder, out):
    with Project.open(folder) as project:
        export_project(project, out, private=True)
    files = sorted(p for p in out.rglob("*") if p.is_file())
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in files}


@pytest.fixture
def sqlite_project(tmp_path):
    pdf = make_pdf(tmp_path / "book.pdf", PAGE + 3)
    with build_project(tmp_path / "proj", pdf) as project:
        project.residual_checks.record(
            "campbell-p137-fig42-3", ["Aorta"], method="pdf-text", read_text="Aorta", question=None
        )
        project.items.update("campbell-p140-fig6-8", notes="edited twice")
        project.items.update("campbell-p140-fig6-8", notes="edited three times")
    return tmp_path / "proj"


def test_migrate_round_trip_exports_byte_identical(tmp_path, sqlite_project, pg_server):
    before = export_bytes(sqlite_project, tmp_path / "before")
    assert "items.jsonl" in before and "results.jsonl" in before
    url = pg_server.database()
    out = labeler("migrate", str(sqlite_project), "--to", url)
    assert out.returncode == 0, out.stderr
    assert "now uses postgresql://" in out.stdout
    assert (sqlite_project / "project.toml").is_file()
    assert (sqlite_project / "project.sqlite.migrated").is_file()
    assert not (sqlite_project / "project.sqlite").exists()
    with Project.open(sqlite_project) as project:
        assert project.database_url == url
        assert project.items.get("campbell-p140-fig6-8").version == 3
        last = project.db.execute("SELECT MAX(id) FROM responses").fetchone()[0]
    on_postgres = export_bytes(sqlite_project, tmp_path / "on-postgres")
    assert on_postgres == before
    with Project.open(sqlite_project) as project:  # identities go on after the copied ids
        assert answer(project, "campbell-p140-fig6-8", MODELS[0], "blind", ["x"]) == last + 1
        project.db.execute("DELETE FROM responses WHERE id = ?", (last + 1,))

    back = labeler("migrate", str(sqlite_project), "--to", "sqlite")
    assert back.returncode == 0, back.stderr
    assert (sqlite_project / "project.sqlite").is_file()
    assert (sqlite_project / "project.toml.migrated").is_file()
    with Project.open(sqlite_project) as project:
        assert project.database_url is None
    assert export_bytes(sqlite_project, tmp_path / "back") == before


def test_migrate_refuses_what_it_cannot_do_without_touching_the_project(
    tmp_path, sqlite_project, pg_server
):
    url = pg_server.database()
    Project.create(tmp_path / "other", db_url=url).close()
    with pytest.raises(ProjectError, match="not empty"):
        to_postgres(sqlite_project, url)
    assert (sqlite_project / "project.sqlite").is_file()
    assert not (sqlite_project / "project.toml").exists()
    again = labeler("migrate", str(tmp_path / "other"), "--to", pg_server.database())
    assert again.returncode == 2 and "already on PostgreSQL" in again.stderr
    nothing = labeler("migrate", str(tmp_path / "none"), "--to", "sqlite")
    assert nothing.returncode == 2 and "not a Labeler project" in nothing.stderr
