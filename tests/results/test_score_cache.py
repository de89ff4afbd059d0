"""The per-cell score cache: a project is scored once; exactly the cells an edit touches rescore.

Counting is done on the real scorer (wrapped, still scoring), and every cached number is
checked against a cold score computed independently from the store's rows.
"""

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import labeler.results as results
import labeler.results.cache as results_cache
from labeler.errors import ConfigError
from labeler.lexicon import Lexicon
from labeler.results import answer_labels, key_markers, key_names, load_results
from labeler.scoring import marker_accuracy, score_names, scoring_version
from labeler.store import KeyEntry, NewItem, NewResponse, Project
from labeler.store.records import alternative_rows

MODELS = ("lab/a", "lab/b")
CONDITIONS = ("told", "no-image")


def record(project, item_id, model, condition, labels):
    return project.responses.record(
        NewResponse(
            item_id=item_id,
            model=model,
            condition=condition,
            request_hash=f"{item_id}{model}{condition}{labels}",
            status="ok",
            parse_ok=True,
            raw_text=f"raw answer {labels}",
            labels=[{"name": n, "location_hint": h} for n, h in labels],
        )
    )


@pytest.fixture
def heart(tmp_path):
    """Two items × 2 models × 2 conditions = 8 cells; the heart prints markers."""
    with Project.create(tmp_path / "p") as project:
        project.lexicon.add("mitral valve", "bicuspid valve")
        project.lexicon.add("oesophagus", "gullet")
        heart = project.items.add(
            NewItem(
                item_id="heart",
                key=[KeyEntry("Mitral valve", marker="A"), KeyEntry("Aorta", marker="B")],
            )
        )
        cell = project.items.add(NewItem(item_id="cell", key=[KeyEntry("Nucleus")]))
        for model in MODELS:
            for condition in CONDITIONS:
                record(project, heart.id, model, condition, [("bicuspid valve", "at A")])
                record(project, cell.id, model, condition, [("nucleus", None)])
        yield project


@pytest.fixture
def scored(monkeypatch):
    """How many cells the real scorer scored since the last reset."""
    calls = []
    real = results_cache.score_cell

    def counting(predicted, key, lexicon):
        calls.append(tuple(predicted))
        return real(predicted, key, lexicon)

    monkeypatch.setattr(results_cache, "score_cell", counting)  # where cells are scored
    return calls


def test_a_project_is_scored_once(heart, scored):
    first = load_results(heart)
    assert len(scored) == 8
    assert heart.score_cache.count(scoring_version()) == 8
    scored.clear()
    again = load_results(heart)
    assert scored == [] and again == first


def test_a_lexicon_edit_of_an_unrelated_term_rescores_nothing(heart, scored):
    load_results(heart)
    scored.clear()
    heart.lexicon.add("oesophagus", "food pipe")  # no cell names the oesophagus
    heart.lexicon.add("femur", "thigh bone")  # a new group no cell reaches
    load_results(heart)
    assert scored == []


def test_a_lexicon_edit_touching_a_cells_name_rescores_exactly_those_cells(heart, scored):
    load_results(heart)
    scored.clear()
    heart.lexicon.add("nucleus", "cell nucleus")  # the 4 cells of the cell item
    cells = {(c.item_id, c.model, c.condition): c for c in load_results(heart)}
    assert len(scored) == 4 and set(scored) == {("nucleus",)}
    scored.clear()
    # joining the mitral valve's group: reaches the heart's cells (key and answers)
    heart.lexicon.add("bicuspid valve", "left AV valve")
    load_results(heart)
    assert len(scored) == 4 and set(scored) == {("bicuspid valve",)}
    assert cells[("heart", MODELS[0], "told")].f1 == pytest.approx(2 / 3)


def test_a_transitive_join_of_two_untouched_rows_rescores_and_changes_the_score(heart, scored):
    # "aortic trunk" ~ "great artery" is in no cell; a row joining it to the key's "Aorta"
    # (through a name neither cell nor key writes) changes what "great artery" means
    record(heart, "heart", MODELS[0], "told", [("great artery", "at B")])
    heart.lexicon.add("aortic trunk", "great artery")
    before = {(c.model, c.condition): c for c in load_results(heart) if c.item_id == "heart"}
    assert before[(MODELS[0], "told")].f1 == 0.0
    scored.clear()
    heart.lexicon.add("aortic trunk", "aorta")
    after = {(c.model, c.condition): c for c in load_results(heart) if c.item_id == "heart"}
    assert after[(MODELS[0], "told")].f1 == pytest.approx(2 / 3)  # P 1, R 1/2
    assert after[(MODELS[0], "told")].marker_accuracy == 0.5  # B is now right
    assert len(scored) == 4  # the key names "Aorta": every heart cell


def test_a_key_edit_rescores_that_items_cells_only(heart, scored):
    load_results(heart)
    scored.clear()
    heart.items.set_key("cell", [KeyEntry("Nucleus"), KeyEntry("Nucleolus")])
    cells = load_results(heart)
    assert len(scored) == 4
    assert [c.f1 for c in cells if c.item_id == "cell"] == [pytest.approx(2 / 3)] * 4
    scored.clear()
    heart.items.set_key("cell", [KeyEntry("Nucleus", alternatives=("karyon",))])
    load_results(heart)
    assert len(scored) == 4


def test_a_new_answer_and_an_item_addition_rescore_their_cells(heart, scored):
    load_results(heart)
    scored.clear()
    record(heart, "cell", MODELS[0], "told", [("karyon", None)])
    assert [c.f1 for c in load_results(heart) if c.response_id == max_id(heart)] == [0.0]
    assert scored == [("karyon",)]
    scored.clear()
    heart.lexicon.add("nucleus", "karyon", item_id="cell")  # the item's own rows: its cells
    assert [c.f1 for c in load_results(heart) if c.response_id == max_id(heart)] == [1.0]
    assert len(scored) == 4


def test_a_new_rules_version_rescores_every_cell(heart, scored, monkeypatch):
    load_results(heart)
    scored.clear()
    monkeypatch.setitem(results_versions(), "expert", "expert-2")
    load_results(heart)
    assert len(scored) == 8
    assert heart.score_cache.count("expert-2") == 8 and heart.score_cache.count("expert-1") == 8


def test_raw_text_is_read_for_one_cell_only(heart):
    cell = load_results(heart)[0]
    assert results.cell_raw(heart, cell.response_id) == "raw answer [('bicuspid valve', 'at A')]"
    assert results.cell_raw(heart, 10_000) is None


def max_id(project):
    return max(rid for rid, _ in project.responses.latest_ids())


def results_versions():
    from labeler.scoring import rules

    return rules.SCORING_VERSIONS


# -- property: for any edit sequence, cached results equal a cold full rescore ------------

NAMES = (
    "aorta",
    "Aortas",
    "great artery",
    "mitral valve",
    "bicuspid valve",
    "left AV valve",
    "nucleus",
    "nucleolus",
    "atrium",
    "left atria",
    "the heart",
    "ventricle",
)
LETTERS = ("A", "B", None)

labels = st.lists(st.tuples(st.sampled_from(NAMES), st.sampled_from(LETTERS)), max_size=4)
key = st.lists(st.tuples(st.sampled_from(NAMES), st.sampled_from(LETTERS)), min_size=1, max_size=3)
edit = st.one_of(
    st.tuples(
        st.just("answer"),
        st.sampled_from(("i1", "i2")),
        st.sampled_from(MODELS),
        st.sampled_from(CONDITIONS),
        labels,
    ),
    st.tuples(st.just("key"), st.sampled_from(("i1", "i2")), key),
    st.tuples(
        st.just("row"),
        st.sampled_from(NAMES),
        st.sampled_from(NAMES),
        st.sampled_from(("same", "same", "distinct")),
        st.sampled_from((None, "i1", "i2")),
    ),
    st.tuples(st.just("unrow"), st.integers(0, 20)),
)


def apply(project, step):
    kind = step[0]
    if kind == "answer":
        _, item, model, condition, given = step
        record(project, item, model, condition, [(n, f"at {m}" if m else None) for n, m in given])
    elif kind == "key":
        _, item, entries = step
        unique = dict.fromkeys(n for n, _ in entries)
        marks = dict(entries)
        project.items.set_key(item, [KeyEntry(n, marker=marks[n]) for n in unique])
    elif kind == "row":
        _, canonical, synonym, relation, item = step
        added = canonical != synonym and project.lexicon.add(canonical, synonym, relation, item)
        if added and not consistent(project):  # a conflicting row is refused, as the GUI does
            project.lexicon.remove(canonical, synonym, relation, item)
    else:
        rows = project.lexicon.rows()
        if rows:
            project.lexicon.remove(*rows[step[1] % len(rows)])


def consistent(project):
    try:
        for item in project.items.list():
            cold_lexicon(project, item.id)
    except ConfigError:
        return False
    return True


def cold_lexicon(project, item_id):
    """A fresh lexicon object (fresh scorer memos) from the store's rows."""
    own = (*project.lexicon.rows(item_id), *alternative_rows(project.items.key(item_id)))
    return Lexicon.from_rows([*project.lexicon.rows(), *own])


def assert_cached_equals_cold(project):
    cells = load_results(project)
    latest = {r.id: r for r in project.responses.latest()}
    assert {c.response_id for c in cells} == set(latest)
    for cell in cells:
        response = latest[cell.response_id]
        entries = project.items.key(cell.item_id)
        lexicon = cold_lexicon(project, cell.item_id)
        assert cell.predicted_names == tuple(response.predicted_names)
        assert cell.key_names == key_names(entries)
        assert cell.score == score_names(response.predicted_names, key_names(entries), lexicon)
        markers = key_markers(entries)
        expected = (
            marker_accuracy(answer_labels(response.labels), markers, lexicon) if markers else None
        )
        assert cell.markers == expected


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(edit, min_size=1, max_size=10))
def test_cached_results_equal_a_cold_full_rescore_after_any_edits(steps):
    with tempfile.TemporaryDirectory() as tmp, Project.create(Path(tmp) / "p") as project:
        project.lexicon.add("mitral valve", "bicuspid valve")
        project.items.add(NewItem(item_id="i1", key=[KeyEntry("Aorta", marker="A")]))
        project.items.add(NewItem(item_id="i2", key=[KeyEntry("Nucleus")]))
        for item in ("i1", "i2"):
            record(project, item, MODELS[0], "told", [("aorta", "at A"), ("nucleus", None)])
        load_results(project)  # everything cached before the edits
        for n, step in enumerate(steps):
            apply(project, step)
            if n % 3 == 2:
                load_results(project)  # some cells re-cached mid-sequence
        assert_cached_equals_cold(project)


def test_after_a_lexicon_edit_cached_cells_are_checked_once_then_trusted(heart, monkeypatch):
    from labeler.scoring.fingerprint import LexiconPrints

    load_results(heart)
    heart.lexicon.add("femur", "thigh bone")
    checks = []
    real = LexiconPrints.cell

    def counting(self, item, names):
        checks.append(tuple(names))
        return real(self, item, names)

    monkeypatch.setattr(LexiconPrints, "cell", counting)
    first = load_results(heart)
    assert len(checks) == 8  # every cached cell's components checked against the new lexicon
    checks.clear()
    assert load_results(heart) == first and checks == []  # confirmed: trusted as they are
