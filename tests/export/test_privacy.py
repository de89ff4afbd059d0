"""The public export holds no source names, paths, titles, pages, clips or internal ids."""

import json

import pytest

from labeler.errors import ExportError
from labeler.export.exporter import export_project
from tests.export.export_fixtures import PAGE, SOURCE_NAME, SOURCE_TITLE


def all_files(folder):
    return {p.relative_to(folder).as_posix(): p for p in folder.rglob("*") if p.is_file()}


def json_values(value):
    """Every scalar in a JSON document (dict keys included)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from json_values(v)
    elif isinstance(value, list):
        for v in value:
            yield from json_values(v)
    else:
        yield value


def test_public_export_contains_no_source_name_page_or_ids(project, source_pdf, tmp_path):
    out = tmp_path / "public"
    export_project(project, out)
    files = all_files(out)
    assert set(files) == {"README.md", "items.jsonl", "results.jsonl", "sample/results.jsonl"}
    internal = [i.id for i in project.items.list()]
    forbidden = [SOURCE_NAME, source_pdf.stem, str(source_pdf), SOURCE_TITLE, "Campbell", *internal]
    for name, path in files.items():
        text = path.read_text(encoding="utf-8")
        for secret in forbidden:
            assert secret.lower() not in text.lower(), (name, secret)
        if name.endswith(".jsonl"):
            for line in text.splitlines():
                values = list(json_values(json.loads(line)))
                assert PAGE not in values and "page" not in values and "clip" not in values
                assert 72.0 not in values and 500.25 not in values  # the clip's coordinates
    assert f"p{PAGE}" not in "".join(p.read_text() for p in files.values())


def test_private_export_adds_provenance(project, source_pdf, tmp_path):
    out = tmp_path / "team"
    export_project(project, out, private=True)
    rows = [json.loads(x) for x in (out / "provenance.jsonl").read_text().splitlines()]
    heart = next(r for r in rows if r["internal_id"] == "campbell-p137-fig42-3")
    assert heart["source_path"] == str(source_pdf.resolve())
    assert heart["source_title"] == SOURCE_TITLE and heart["page"] == PAGE
    assert heart["clip"] == [72.0, 90.5, 410.0, 500.25] and len(heart["sha256"]) == 64
    assert heart["item_id"].startswith("NALANDA-")
    # the public files of a private export are the same as a public export's
    export_project(project, tmp_path / "public")
    for name in ("README.md", "items.jsonl", "results.jsonl"):
        assert (out / name).read_bytes() == (tmp_path / "public" / name).read_bytes()


def test_re_export_without_private_drops_the_provenance_file(project, tmp_path):
    out = tmp_path / "out"
    export_project(project, out, private=True)
    export_project(project, out)
    assert not (out / "provenance.jsonl").exists()


@pytest.mark.parametrize(
    "leak",
    [SOURCE_NAME, SOURCE_TITLE, "see campbell-p137-fig42-3"],
)
def test_a_leak_typed_into_a_subject_stops_the_export(project, tmp_path, leak):
    item = project.items.list(status="ready")[0]
    project.items.update(item.id, subject=f"heart ({leak})")
    with pytest.raises(ExportError, match="contains private text"):
        export_project(project, tmp_path / "out")
    assert not (tmp_path / "out").exists()
