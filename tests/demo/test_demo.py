"""The demo project a fresh install opens: real items, real scored baseline answers."""

from labeler.demo import build_demo_project
from labeler.prompts import ALL_CONDITIONS
from labeler.results import load_results
from labeler.samples.book import layout
from labeler.slot_results import slot_results


def test_demo_project_has_curated_items_and_scored_baseline_answers(tmp_path):
    project = build_demo_project(tmp_path / "demo")
    items = project.items.list()
    figures = layout()
    assert [i.subject for i in items] == [f.spec.subject for f in figures]
    for item, figure in zip(items, figures, strict=True):
        assert sorted(e.name for e in project.items.key(item.id)) == sorted(figure.spec.key_names)
        assert item.status == "ready"
    markers = {e.marker: e.name for e in project.items.key(items[2].id)}
    assert markers == figures[2].spec.marker_names and items[2].pattern == "C"
    assert "ocr" in items[5].erase_method  # the raster plate
    cells = load_results(project)
    assert len(cells) == len(items) * len(ALL_CONDITIONS)  # the card's four and both slot ones
    assert len(slot_results(project)) == len(items) * 2  # every demo item has slots
    assert {c.status for c in cells} == {"ok"}
    assert any(c.f1 > 0 for c in cells)  # cell subjects share words, so the prior scores
    assert len(project.lexicon.rows()) > 400
    project.close()
