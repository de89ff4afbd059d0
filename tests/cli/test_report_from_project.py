"""``labeler report PROJECT``: the counted answers of a live project, with marker accuracy."""

from __future__ import annotations

import json

from labeler.status import ResponseStatus
from labeler.store import KeyEntry, NewItem, NewResponse, Project
from tests.labeler_cli import run_labeler


def labelled(item_id: str, condition: str, labels: list[tuple[str, str]]) -> NewResponse:
    return NewResponse(
        item_id,
        "m/a",
        condition,
        f"{item_id}-{condition}",
        ResponseStatus.OK,
        labels=[{"name": n, "location_hint": h} for n, h in labels],
        parse_ok=True,
    )


def test_report_on_a_project_counts_like_the_export_and_scores_markers(tmp_path):
    folder = tmp_path / "p"
    with Project.create(folder) as project:
        key = [KeyEntry("aorta", marker="A"), KeyEntry("left atrium", marker="B")]
        project.items.add(NewItem(item_id="lettered", subject="heart", key=key))
        project.items.add(NewItem(item_id="plain", subject="lung", key=[KeyEntry("trachea")]))
        record = project.responses.record
        record(labelled("lettered", "told", [("aorta", "at A"), ("left atrium", "at A")]))
        record(labelled("lettered", "no-image", [("aorta", "")]))
        record(labelled("plain", "told", [("trachea", "top")]))
        record(labelled("plain", "no-image", [("bronchus", "")]))
        project.items.update("plain", subject="the lungs")  # both plain answers go stale
    done = run_labeler("report", str(folder), "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    (model,) = data["models"]
    assert model["told"] == 100.0 and model["no-image"] == 66.667  # only "lettered" counts
    assert data["audits"]["paired_items"] == {"m/a": 1}
    # told: A is aorta (right); B is never named by letter ("at A" twice: the first wins)
    assert data["audits"]["marker_accuracy"]["m/a"]["told"] == 50.0
    assert data["audits"]["marker_accuracy"]["m/a"]["no-image"] == 0.0

    markdown = run_labeler("report", str(folder))
    assert "| m/a | — | 100.0% | — | 66.7% | +33.3 | 67% |" in markdown.stdout


def test_report_on_a_project_refuses_lexicon_rescoring_and_empty_projects(tmp_path):
    folder = tmp_path / "p"
    Project.create(folder).close()
    empty = run_labeler("report", str(folder))
    assert empty.returncode == 2 and "no counted answers" in empty.stderr
    assert "Traceback" not in empty.stderr
    lexicon = tmp_path / "lex.csv"
    lexicon.write_text("canonical,synonym,relation\naorta,main artery,same\n", encoding="utf-8")
    refused = run_labeler("report", str(folder), "--lexicon", str(lexicon))
    assert refused.returncode == 2
    assert "--lexicon rescoring works on results.jsonl" in refused.stderr


def test_report_help_reads_plainly():
    done = run_labeler("report", "--help")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())  # argparse wraps to the terminal's width
    assert "no-image ÷ told, %)" in text and "%%" not in text
    assert "results.jsonl, or a project folder" in text


def test_report_reads_the_projects_cells_once_with_slot_answers_among_them(
    tmp_path, monkeypatch, capsys
):
    """Scoring the slot answers from the report's own cells, not a second read of every cell
    (at 100k answers a read is most of the report's time): one query of the cells' columns,
    no scored-cell objects."""
    import labeler.results
    from labeler.cli import main
    from labeler.store.score_cache import ScoreCacheTable

    folder = tmp_path / "p"
    with Project.create(folder) as project:
        for n in (1, 2):
            project.items.add(
                NewItem(item_id=f"cell-{n}", subject="cell", key=[KeyEntry("Nucleus")])
            )
            project.responses.record(labelled(f"cell-{n}", "told", [("nucleus", "centre")]))
            project.responses.record(labelled(f"cell-{n}", "slots", [("nucleus", "1")]))
    reads, loads = [], []
    real = ScoreCacheTable.summary_rows

    def counting(self, rules, **options):
        reads.append(options)
        return real(self, rules, **options)

    def loading(project, item_ids=None):
        loads.append(item_ids)
        raise AssertionError("the report reads columns, not scored cells")

    monkeypatch.setattr(ScoreCacheTable, "summary_rows", counting)
    monkeypatch.setattr(labeler.results, "load_results", loading)
    assert main(["report", str(folder)]) == 0
    assert reads == [{"with_result": True}] and loads == []
    assert "| m/a | — | 100.0% |" in capsys.readouterr().out
