"""The project store on real SQLite files in a temp folder."""

import sqlite3

import pytest

from labeler.atomic import atomic_open, write_text
from labeler.errors import LabelerError, ProjectError
from labeler.store import KeyEntry, NewItem, NewResponse, Project
from labeler.store.database import schema_version
from labeler.store.schema import SCHEMA_VERSION

PNG_A = b"\x89PNG fake bytes A"
PNG_B = b"\x89PNG fake bytes B"


@pytest.fixture
def project(tmp_path):
    with Project.create(tmp_path / "proj", name="Demo", id_prefix="nalanda") as p:
        yield p


def test_create_then_open_keeps_settings(tmp_path, backend):
    Project.create(tmp_path / "p", name="Bio", id_prefix="bio").close()
    with Project.open(tmp_path / "p") as p:
        assert (p.name, p.id_prefix) == ("Bio", "BIO")
        assert len(p.get_meta("id_salt")) == 32
        assert schema_version(p.db) == SCHEMA_VERSION
        if backend == "sqlite":
            assert p.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert p.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        else:
            assert p.database_url.startswith("postgresql://")
            assert not (p.folder / "project.sqlite").exists()


def test_create_refuses_existing_project_and_open_refuses_non_project(tmp_path):
    Project.create(tmp_path / "p").close()
    with pytest.raises(ProjectError, match="already a Labeler project"):
        Project.create(tmp_path / "p")
    with pytest.raises(ProjectError, match="labeler init"):
        Project.open(tmp_path / "empty")


@pytest.mark.sqlite_only
def test_open_refuses_garbage_database(tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "project.sqlite").write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(ProjectError, match="not a Labeler project database"):
        Project.open(tmp_path / "p")


def test_open_refuses_database_from_newer_labeler(tmp_path):
    with Project.create(tmp_path / "p") as project:
        if project.database_url is None:
            project.db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
        else:
            project.db.set_schema_version(SCHEMA_VERSION + 1)
    with pytest.raises(ProjectError, match="newer Labeler"):
        Project.open(tmp_path / "p")


def test_item_with_images_and_key_round_trips(project):
    key = [
        KeyEntry("Periosteum", bbox=(1, 2, 30, 10), anchor=(50.5, 60.0), origin="vector"),
        KeyEntry("Compact bone", marker="B"),
    ]
    item = project.items.add(
        NewItem(
            page=3,
            clip=(10, 20, 300, 400),
            subject="long bone",
            tier="core",
            question_png=PNG_A,
            answer_png=PNG_B,
            key=key,
        )
    )
    again = Project.open(project.folder)
    stored = again.items.get(item.id)
    assert stored.clip == (10, 20, 300, 400) and stored.tier == "core"
    assert again.items.key(item.id) == key
    assert again.assets.read(stored.question_asset) == PNG_A
    assert again.assets.path(stored.answer_asset).read_bytes() == PNG_B
    again.close()


def test_identical_images_are_stored_once(project):
    a = project.items.add(NewItem(question_png=PNG_A, answer_png=PNG_A))
    b = project.items.add(NewItem(question_png=PNG_A, answer_png=PNG_B))
    assert a.question_asset == a.answer_asset == b.question_asset
    files = [p for p in (project.folder / "assets").rglob("*") if p.is_file()]
    assert len(files) == 2


def test_invalid_fields_are_refused_and_nothing_is_written(project):
    with pytest.raises(LabelerError, match="tier must be one of core, extended"):
        project.items.add(NewItem(tier="gold"))
    with pytest.raises(LabelerError, match="needs a name or a marker"):
        project.items.add(NewItem(key=[KeyEntry("ok"), KeyEntry("  ")]))
    assert project.items.list() == []


def test_update_and_filter_items(project):
    a = project.items.add(NewItem(subject="human heart"))
    project.items.add(NewItem(subject="plant cell"))
    project.items.update(a.id, status="ready", notes="checked")
    assert [i.subject for i in project.items.list(status="ready")] == ["human heart"]
    assert [i.subject for i in project.items.list(search="plant")] == ["plant cell"]
    with pytest.raises(LabelerError, match="cannot edit"):
        project.items.update(a.id, clip_x0=3)
    with pytest.raises(LabelerError, match="no item"):
        project.items.update("nope", notes="x")


def test_set_key_replaces_whole_key_atomically(project):
    item = project.items.add(NewItem(key=[KeyEntry("a"), KeyEntry("b")]))
    with pytest.raises(LabelerError):
        project.items.set_key(item.id, [KeyEntry("c"), KeyEntry("")])
    assert [e.name for e in project.items.key(item.id)] == ["a", "b"]
    project.items.set_key(item.id, [KeyEntry("b"), KeyEntry("c")])
    assert [e.name for e in project.items.key(item.id)] == ["b", "c"]


def test_nested_transaction_rolls_back_with_outer(project):
    with pytest.raises(RuntimeError), project.transaction():
        project.items.add(NewItem(subject="x"))
        raise RuntimeError("boom")
    assert project.items.list() == []


def test_lexicon_rows_global_and_per_item(project):
    item = project.items.add(NewItem())
    assert project.lexicon.add("mitral valve", "bicuspid valve")
    assert not project.lexicon.add("mitral valve", "bicuspid valve")
    assert project.lexicon.add("nucleus", "nucleolus", "distinct", item_id=item.id)
    assert project.lexicon.rows() == [("mitral valve", "bicuspid valve", "same")]
    assert project.lexicon.item_rows() == {item.id: [("nucleus", "nucleolus", "distinct")]}
    assert project.lexicon.remove("mitral valve", "bicuspid valve")
    assert not project.lexicon.remove("mitral valve", "bicuspid valve")
    with pytest.raises(LabelerError, match="relation"):
        project.lexicon.add("a", "b", "maybe")


def test_responses_latest_history_and_cascade(project):
    item = project.items.add(NewItem())
    run = project.responses.start_run({"models": ["m"]})
    base = dict(item_id=item.id, model="m", condition="told", run_id=run)
    project.responses.record(
        NewResponse(request_hash="h1", status="api_error", error="500", **base)
    )
    project.responses.record(
        NewResponse(
            request_hash="h1",
            status="ok",
            parse_ok=True,
            labels=[{"name": "aorta", "location_hint": "top"}],
            **base,
        )
    )
    project.responses.record(
        NewResponse(request_hash="h2", status="ok", **{**base, "condition": "blind"})
    )
    latest = project.responses.latest(item_ids=[item.id], conditions=["told"])
    assert [(r.status, r.predicted_names) for r in latest] == [("ok", ["aorta"])]
    assert [r.status for r in project.responses.history(item.id, "m", "told")] == [
        "api_error",
        "ok",
    ]
    assert project.responses.latest(models=[]) == []
    project.items.delete(item.id)
    assert project.responses.latest() == []


def test_unknown_response_status_is_refused(project):
    item = project.items.add(NewItem())
    with pytest.raises(LabelerError, match="unknown response status"):
        project.responses.record(NewResponse(item.id, "m", "told", "h", status="fine"))


def test_atomic_write_keeps_old_file_on_failure(tmp_path):
    target = tmp_path / "out.txt"
    write_text(target, "old")
    with pytest.raises(ValueError), atomic_open(target) as fh:
        fh.write("half")
        raise ValueError("crash mid-write")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


@pytest.mark.sqlite_only
def test_a_version_1_database_is_migrated_and_keeps_its_answers(tmp_path):
    from labeler.store.database import _statements
    from labeler.store.schema import MIGRATIONS

    folder = tmp_path / "old"
    (folder / "assets").mkdir(parents=True)
    db = sqlite3.connect(folder / "project.sqlite")
    for statement in _statements(MIGRATIONS[0]):
        db.execute(statement)
    db.execute("PRAGMA user_version=1")
    db.execute(
        "INSERT INTO items(id, subject, created_at, updated_at) VALUES ('it-1', 'heart', 't', 't')"
    )
    db.execute(
        "INSERT INTO responses(item_id, model, condition, request_hash, status, created_at) "
        "VALUES ('it-1', 'm', 'told', 'h', 'ok', 't')"
    )
    db.commit()
    db.close()
    with Project.open(folder) as project:
        assert project.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        [old] = project.responses.latest()
        assert (old.status, old.asked_subject, old.asked_image) == ("ok", None, None)


def test_a_response_records_what_it_was_asked_about(project):
    item = project.items.add(NewItem(subject="human heart", question_png=PNG_A))
    project.responses.record(NewResponse(item.id, "m", "told", "h", status="ok"))
    [answer] = project.responses.latest()
    assert (answer.asked_subject, answer.asked_image) == ("human heart", item.question_asset)
