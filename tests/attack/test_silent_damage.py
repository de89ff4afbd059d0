"""Damage MuPDF survives silently is stored as a visible warning, never as a clean item."""

import pytest
from attack_support import cli
from hostile_docs import blank_page_pdf, repaired_pdf, small_pdf, unreadable_text_pdf

from labeler.curation import add_item_from_document, item_as_json
from labeler.store import NewItem, Project

CASES = {
    "repaired": (repaired_pdf, "source", "had to repair this PDF"),
    "unreadable-text": (unreadable_text_pdf, "item", "none can be read"),
    "blank": (blank_page_pdf, "item", "renders blank"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_damaged_documents_give_items_with_a_stored_warning(tmp_path, case):
    build, where, needle = CASES[case]
    pdf = tmp_path / f"{case}.pdf"
    pdf.write_bytes(build())
    with Project.create(tmp_path / "p", name="d") as project:
        item = add_item_from_document(project, pdf, 1, item=NewItem(subject="the heart"))
        source = project.sources.get(item.source_id)
        stored = source.warning if where == "source" else project.items.get(item.id).warning
        assert needle in stored
        assert any(needle in w for w in item_as_json(project, item)["warnings"])
    with Project.open(tmp_path / "p") as project:  # stored, not only returned
        assert any(needle in w for w in (project.sources.all()[0].warning, item.warning))


def test_a_clean_document_gives_no_warning(tmp_path):
    pdf = tmp_path / "clean.pdf"
    pdf.write_bytes(small_pdf())
    with Project.create(tmp_path / "p", name="d") as project:
        item = add_item_from_document(project, pdf, 1, item=NewItem(subject="the heart"))
        assert item.warning == "" and project.sources.get(item.source_id).warning == ""
        assert item_as_json(project, item)["warnings"] == []
        assert {e.name for e in project.items.key(item.id)} == {"aorta", "left ventricle"}


def test_add_item_prints_the_warning(tmp_path):
    pdf = tmp_path / "repaired.pdf"
    pdf.write_bytes(repaired_pdf())
    Project.create(tmp_path / "p", name="d").close()
    code, out = cli("add-item", str(tmp_path / "p"), "--pdf", str(pdf), "--page", "1",
                    "--subject", "the heart")  # fmt: skip
    assert code == 0, out
    assert "labeler: warning:" in out and "had to repair this PDF" in out
