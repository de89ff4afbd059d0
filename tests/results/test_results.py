"""labeler.results: the latest response per cell, scored with global + per-item lexicon."""

import gc

import pytest

from labeler.results import (
    FRAME_COLUMNS,
    key_names,
    load_results,
    project_lexicon,
    results_frame,
    score_cell,
)
from labeler.scoring import NameScore, score_names
from labeler.store import NewItem
from tests.export.export_fixtures import MODELS, answer

HEART = "campbell-p137-fig42-3"
CELL = "campbell-p140-fig6-8"


def by_cell(cells):
    return {(c.item_id, c.model, c.condition): c for c in cells}


def test_one_cell_per_item_model_condition_from_the_latest_response(project):
    cells = by_cell(load_results(project))
    # no-image for the heart was sent twice by MODELS[0]; the second (full) answer counts
    latest = cells[(HEART, MODELS[0], "no-image")]
    assert latest.predicted_names == ("Left atrium", "mitral valve", "aorta", "right ventricle")
    assert latest.f1 == 1.0 and latest.n_key == 4 and latest.status == "ok"
    assert len(cells) == len(load_results(project))  # no duplicate cells
    history = project.responses.history(HEART, MODELS[0], "no-image")
    assert latest.response_id == history[-1].id and len(history) == 2


def test_scores_use_global_synonyms_and_plurals(project):
    told = by_cell(load_results(project))[(HEART, MODELS[1], "told")]
    # "Left atria" = plural, "bicuspid valve" = global synonym of "Mitral valve"
    assert (told.precision, told.recall) == (1.0, 0.75)
    assert isinstance(told.score, NameScore)
    assert {(m.pred, m.how) for m in told.score.matches} >= {
        ("Left atria", "plural"),
        ("bicuspid valve", "synonym"),
    }
    assert told.score.missed_key == ["Right ventricle"]


def test_item_additions_apply_to_their_item_only(project):
    cells = by_cell(load_results(project))
    # "powerhouse" = "mitochondrion" is an addition of the cell item only
    assert cells[(CELL, MODELS[0], "no-image")].f1 == 1.0
    answer(project, HEART, MODELS[1], "blind", ["powerhouse", "left atrium"])
    heart = by_cell(load_results(project))[(HEART, MODELS[1], "blind")]
    assert heart.score.unmatched_pred == ["powerhouse"]


def test_distinct_row_vetoes_a_match(project):
    told = by_cell(load_results(project))[(CELL, MODELS[0], "told")]
    # nucleolus is declared distinct from nucleus; mitochondria is a plural of the key name
    assert told.score.unmatched_pred == ["nucleolus"] and told.f1 == 0.5


def test_lexicon_edits_rescore_on_the_next_load(project):
    before = by_cell(load_results(project))[(HEART, MODELS[0], "blind")]
    assert before.score.unmatched_pred == ["valve"]
    project.lexicon.add("Mitral valve", "valve", item_id=HEART)
    after = by_cell(load_results(project))[(HEART, MODELS[0], "blind")]
    assert after.score.unmatched_pred == [] and after.f1 > before.f1


def test_score_cell_is_the_score_load_results_gives_each_cell(project):
    keys = project.items.keys()
    cells = load_results(project)
    assert len(cells) > 10
    for c in cells:
        lexicon = project_lexicon(project, c.item_id)
        scored = score_cell(list(c.predicted_names), key_names(keys[c.item_id]), lexicon)
        assert scored is c.score  # one code path: the same memoised object
        assert scored == score_names(c.predicted_names, c.key_names, lexicon)
    # the item-only addition counts for its item: "powerhouse" = "mitochondrion"
    heart_key, cell_key = key_names(keys[HEART]), key_names(keys[CELL])
    powerhouse = next(n for n in cell_key if "mitochondri" in n.lower())
    assert score_cell(["powerhouse"], [powerhouse], project_lexicon(project, CELL)).f1 == 1.0
    assert score_cell(["powerhouse"], [powerhouse], project_lexicon(project)).f1 == 0.0
    assert score_cell(["bicuspid valve"], heart_key, project_lexicon(project, HEART)).precision == 1


def test_flags_follow_the_card(project):
    cells = load_results(project)
    flags = {c.item_id: (c.unsolved_core, c.recitable) for c in cells}
    # heart: solved (F1 1.0) under no-image -> solved and recitable
    assert flags[HEART] == (False, True)
    draft = next(i.id for i in project.items.list(status="draft"))
    assert flags[draft] == (True, False)
    # one cell's flags are the item's flags, identical across its cells
    assert len({(c.unsolved_core, c.recitable) for c in cells if c.item_id == HEART}) == 1


def test_recitable_needs_half_f1_without_image(project):
    draft = next(i.id for i in project.items.list(status="draft"))
    answer(project, draft, MODELS[0], "no-image", ["alveoli"])  # F1 = 2/3
    assert all(c.recitable for c in load_results(project, [draft]))
    answer(project, draft, MODELS[0], "no-image", ["trachea"])  # latest is wrong
    assert not any(c.recitable for c in load_results(project, [draft]))


def test_api_errors_are_cells_but_not_answers(project):
    draft = next(i.id for i in project.items.list(status="draft"))
    cells = by_cell(load_results(project, [draft]))
    failed = cells[(draft, MODELS[1], "no-image")]
    assert failed.status == "api_error" and not failed.answered
    assert all(c.answered for k, c in cells.items() if k != (draft, MODELS[1], "no-image"))


def test_filter_by_items_and_frame(project):
    cells = load_results(project, [CELL])
    assert {c.item_id for c in cells} == {CELL} and len(cells) == 4
    frame = results_frame(cells)
    assert tuple(frame.columns) == FRAME_COLUMNS
    assert frame["predicted_names"].map(type).eq(list).all()
    assert frame.loc[frame["condition"] == "no-image", "f1"].tolist() == [1.0, 1.0]
    assert frame["public_id"].isna().all()  # not exported yet, so not numbered


def test_reloads_see_new_answers_and_deleted_items(project):
    first = by_cell(load_results(project))
    answer(project, CELL, MODELS[1], "blind", ["nucleus", "mitochondrion"])
    second = by_cell(load_results(project))
    assert (CELL, MODELS[1], "blind") not in first and second[(CELL, MODELS[1], "blind")].f1 == 1.0
    assert second[(CELL, MODELS[1], "told")] == first[(CELL, MODELS[1], "told")]
    project.items.delete(CELL)
    assert CELL not in {c.item_id for c in load_results(project)}


def test_two_projects_never_share_answers(tmp_path):
    from labeler.store import KeyEntry, Project

    results = []
    for name in ("a", "b"):
        with Project.create(tmp_path / name) as p:
            item = p.items.add(NewItem(item_id="same-id", key=[KeyEntry("Aorta")]))
            answer(p, item.id, "m", "told", ["aorta"] if name == "a" else ["vein"])
            results.append(load_results(p)[0])
    assert [r.f1 for r in results] == [1.0, 0.0]
    assert results[0].response_id == results[1].response_id  # same id, different projects


def test_garbage_collection_is_left_as_it_was(project, monkeypatch):
    # the matrix build pauses the cyclic collector; it must come back, also after an error
    assert gc.isenabled()
    assert load_results(project) and gc.isenabled()
    gc.disable()
    try:
        load_results(project)
        assert not gc.isenabled()  # a caller's own pause is not undone
    finally:
        gc.enable()

    def broken(*args):
        assert not gc.isenabled()  # paused while the cells are scored
        raise RuntimeError("scorer crashed")

    monkeypatch.setattr("labeler.results.cache.score_cell", broken)  # where cells are scored
    answer(project, CELL, MODELS[0], "told", ["nucleus"])  # a new answer: not in the cache
    with pytest.raises(RuntimeError, match="scorer crashed"):
        load_results(project, item_ids=[CELL])
    assert gc.isenabled()
