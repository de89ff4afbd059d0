"""Atomic export folders: all files or none; never clobber a folder that is not an export."""

import pytest

from labeler.errors import ExportError
from labeler.export.exporter import export_project
from labeler.export.writer import write_export
from labeler.store import KeyEntry, NewItem


def listing(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*"))


def test_failed_validation_writes_nothing_and_keeps_the_old_export(project, tmp_path):
    out = tmp_path / "exports" / "heart"
    export_project(project, out)
    before = {p: (out / p).read_bytes() for p in listing(out) if (out / p).is_file()}
    project.items.add(NewItem(subject="forgot the key", status="ready"))
    with pytest.raises(ExportError, match=r"export not written.*no answer key"):
        export_project(project, out)
    assert {p: (out / p).read_bytes() for p in listing(out) if (out / p).is_file()} == before
    assert listing(tmp_path / "exports") == ["heart", *[f"heart/{p}" for p in listing(out)]]


def test_failed_first_export_leaves_no_folder(project, tmp_path):
    project.items.add(NewItem(subject="no key", status="ready"))
    with pytest.raises(ExportError):
        export_project(project, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out")]  # no staging left


def test_re_export_replaces_the_folder(project, tmp_path):
    out = tmp_path / "out"
    export_project(project, out)
    first = (out / "items.jsonl").read_text()
    project.items.add(NewItem(subject="a new heart", key=[KeyEntry("Aorta")], status="ready"))
    export_project(project, out)
    assert (out / "items.jsonl").read_text() != first
    assert "a new heart" in (out / "items.jsonl").read_text()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out")]


def test_refuses_to_replace_a_folder_with_other_files(project, tmp_path):
    out = tmp_path / "Documents"
    out.mkdir()
    (out / "thesis.docx").write_bytes(b"precious")
    with pytest.raises(ExportError, match=r"not an earlier export.*thesis\.docx"):
        export_project(project, out)
    assert (out / "thesis.docx").read_bytes() == b"precious" and listing(out) == ["thesis.docx"]
    target = tmp_path / "file.txt"
    target.write_text("x")
    with pytest.raises(ExportError, match="not a folder"):
        write_export(target, {"README.md": b"x"})


def test_empty_existing_folder_is_fine(tmp_path):
    out = tmp_path / "empty"
    out.mkdir()
    write_export(out, {"README.md": b"card", "sample/results.jsonl": b"{}\n"})
    assert listing(out) == ["README.md", "sample", "sample/results.jsonl"]


def test_nothing_to_export(project, tmp_path):
    for item in project.items.list():
        project.items.update(item.id, status="excluded")
    with pytest.raises(ExportError, match="nothing to export"):
        export_project(project, tmp_path / "out")


def test_a_failed_swap_restores_the_previous_export(project, tmp_path, monkeypatch):
    import os

    from labeler.export import writer

    out = tmp_path / "out"
    export_project(project, out)
    before = (out / "results.jsonl").read_bytes()
    real_replace = os.replace

    def failing_replace(src, dst):
        if str(src).endswith(".tmp"):  # the new folder going into place
            raise OSError(28, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing_replace)
    # the two-rename swap of systems without renameat2(RENAME_EXCHANGE)
    monkeypatch.setattr(writer, "_exchange", lambda a, b: False)
    with pytest.raises(ExportError, match="is on a full disk"):
        write_export(out, {"README.md": b"new card"})
    monkeypatch.undo()
    assert (out / "results.jsonl").read_bytes() == before
    assert (out / "README.md").read_bytes() != b"new card"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".out")) == []
