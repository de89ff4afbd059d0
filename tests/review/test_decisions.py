"""Reviewer decisions: stored with who and when, undone by appending, counted by results."""

from __future__ import annotations

import pytest

from labeler import review
from labeler.results import counted_results
from labeler.review import ReviewError
from labeler.store import KeyEntry
from tests.export.export_fixtures import MODELS, answer

HEART = "campbell-p137-fig42-3"


def _draft(project) -> str:
    return next(i.id for i in project.items.list() if i.subject == "lung alveoli")


def _f1(project, item_id, model, condition) -> float:
    cells = counted_results(project, [item_id])
    return next(c.f1 for c in cells if c.model == model and c.condition == condition)


def test_reviewer_comes_from_the_flag_or_the_environment():
    assert review.reviewer_name("  Ada   Lovelace ") == "Ada Lovelace"
    assert review.reviewer_name(None, {"LABELER_REVIEWER": "Grace"}) == "Grace"
    with pytest.raises(ReviewError, match="--reviewer NAME or set LABELER_REVIEWER"):
        review.reviewer_name(None, {})


def test_scores_are_numbers_from_0_to_1_or_words():
    assert review.parse_score("correct") == 1.0
    assert review.parse_score("Incorrect") == 0.0
    assert review.parse_score("0.5") == 0.5
    for bad in ("1.5", "-0.1", "mostly"):
        with pytest.raises(ReviewError):
            review.parse_score(bad)


def test_an_override_changes_what_counts_and_undo_restores_the_scorer(project):
    # told: "Left atria", "bicuspid valve", "aorta" against a four-name key: P 1, R 3/4
    scored = _f1(project, HEART, MODELS[0], "told")
    assert scored == pytest.approx(6 / 7)
    event = review.override(
        project, HEART, MODELS[0], "told", "correct", "right ventricle is cut off", "Ada"
    )
    assert (event.kind, event.reviewer, event.value) == ("override", "Ada", 1.0)
    assert event.created_at.endswith("Z")
    assert _f1(project, HEART, MODELS[0], "told") == 1.0
    # the other model's same cell is untouched
    assert _f1(project, HEART, MODELS[1], "told") == pytest.approx(6 / 7)
    assert review.review_counts(project).overrides == 1

    undo = review.undo(project, event.id, "Grace")
    assert (undo.kind, undo.undoes, undo.reviewer) == ("undo", event.id, "Grace")
    assert _f1(project, HEART, MODELS[0], "told") == pytest.approx(6 / 7)
    assert review.review_counts(project).overrides == 0
    # nothing was deleted: both rows are in the trail
    assert [e.kind for e in project.reviews.events(HEART)] == ["override", "undo"]
    with pytest.raises(ReviewError, match="already undone by Grace"):
        review.undo(project, event.id, "Ada")
    with pytest.raises(ReviewError, match="itself an undo"):
        review.undo(project, undo.id, "Ada")


def test_the_latest_override_of_an_answer_wins(project):
    first = review.override(project, HEART, MODELS[0], "told", "0.25", "too generous", "Ada")
    review.override(project, HEART, MODELS[0], "told", "0.5", "half right", "Grace")
    assert _f1(project, HEART, MODELS[0], "told") == 0.5
    decisions = review.history(project, HEART)
    assert decisions[0].event.id == first.id and decisions[0].superseded
    assert decisions[1].in_force


def test_an_override_judges_one_answer_not_the_next(project):
    review.override(project, HEART, MODELS[0], "blind", "correct", "valve is fine", "Ada")
    assert _f1(project, HEART, MODELS[0], "blind") == 1.0
    answer(project, HEART, MODELS[0], "blind", ["aorta"])  # a re-run answers the cell again
    # one of four key names, one prediction: P 1, R 1/4 -> F1 0.4
    assert _f1(project, HEART, MODELS[0], "blind") == pytest.approx(0.4)
    assert review.review_counts(project).overrides == 0


def test_an_override_changes_the_items_flags(project):
    # the lung figure: both models answered only "alveoli" (F1 2/3), so nobody solved it
    draft = _draft(project)
    assert all(c.unsolved_core for c in counted_results(project, [draft]))
    review.override(project, draft, MODELS[0], "told", "correct", "bronchiole is cut", "Ada")
    assert not any(c.unsolved_core for c in counted_results(project, [draft]))


def test_overrides_need_a_reason_and_an_answer(project):
    with pytest.raises(ReviewError, match="reason is required"):
        review.override(project, HEART, MODELS[0], "told", "1", "  ", "Ada")
    with pytest.raises(ReviewError, match="no answer from"):
        review.override(project, HEART, "openai/none", "told", "1", "why", "Ada")
    with pytest.raises(ReviewError, match="failed \\(api_error\\)"):
        review.override(project, _draft(project), MODELS[1], "no-image", "1", "why", "Ada")
    assert project.reviews.events() == []


def test_approving_marks_ready_and_undo_puts_the_status_back(project):
    draft = _draft(project)
    event = review.approve(project, draft, "Ada")
    assert project.items.get(draft).status == "ready"
    assert event.detail == "draft"
    assert review.review_counts(project).items_reviewed == 1
    review.undo(project, event.id, "Ada")
    assert project.items.get(draft).status == "draft"
    assert review.review_counts(project).items_reviewed == 0


def test_a_confirmed_key_stops_counting_when_the_key_changes(project):
    review.confirm_key(project, HEART, "Ada")
    assert review.review_counts(project).confirmed_keys == 1
    key = project.items.key(HEART)
    project.items.set_key(HEART, [*key, KeyEntry("Pulmonary vein")])
    (decision,) = review.history(project, HEART)
    assert decision.stale and not decision.in_force
    assert "[key changed since]" in review.describe(decision)
    assert review.review_counts(project).items_reviewed == 0


def test_comments_on_items_and_cells(project):
    review.comment(project, HEART, "check the valve names", "Ada")
    review.comment(project, HEART, "hedges", "Ada", model=MODELS[0], condition="told")
    with pytest.raises(ReviewError, match="both the model and the condition"):
        review.comment(project, HEART, "x", "Ada", model=MODELS[0])
    with pytest.raises(ReviewError, match="unknown condition"):
        review.comment(project, HEART, "x", "Ada", model=MODELS[0], condition="told-ish")
    with pytest.raises(ReviewError, match="needs some text"):
        review.comment(project, HEART, " ", "Ada")
    lines = [review.describe(d) for d in review.history(project, HEART)]
    assert "Ada: commented: check the valve names" in lines[0]
    assert f"commented {MODELS[0]} · told: hedges" in lines[1]
    assert review.review_counts(project).comments == 2


def test_undo_last_takes_back_the_newest_decision_in_force(project):
    first = review.comment(project, HEART, "one", "Ada")
    second = review.comment(project, HEART, "two", "Grace")
    assert review.last_undoable(project, HEART).id == second.id
    assert review.last_undoable(project, HEART, "Ada").id == first.id
    review.undo(project, second.id, "Grace")
    assert review.last_undoable(project, HEART).id == first.id
    with pytest.raises(ReviewError, match="no decision by Linus"):
        review.last_undoable(project, HEART, "Linus")


def test_the_results_table_averages_the_reviewers_score(project):
    from labeler.analysis import results_table
    from labeler.results import results_frame

    def told(model: str) -> float:
        table = results_table(results_frame(counted_results(project)))
        told = {row.model: row.values["told"] for row in table}[model]
        assert told is not None
        return told / 100  # the table is in %

    # told for MODELS[0]: heart 6/7, cell 1/2 (mitochondria; nucleolus is not the nucleus),
    # lung 2/3 (alveoli of alveolus + bronchiole), and the excluded figure 1 (the project's
    # numbers count every item; only the export leaves excluded ones out)
    before = (6 / 7 + 1 / 2 + 2 / 3 + 1) / 4
    assert told(MODELS[0]) == pytest.approx(before)
    review.override(
        project, HEART, MODELS[0], "told", "incorrect", "guessed from the subject", "Ada"
    )
    assert told(MODELS[0]) == pytest.approx((0 + 1 / 2 + 2 / 3 + 1) / 4)
    assert told(MODELS[1]) == pytest.approx(before)
