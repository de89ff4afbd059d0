"""An answer given for an older subject or question image is stale: never published as current."""

from labeler.export.exporter import check_export
from labeler.results import load_results
from labeler.store import KeyEntry, NewItem, NewResponse, Project

PNG_A, PNG_B = b"\x89PNG question A", b"\x89PNG question B"


def answer(project, item_id, condition):
    project.responses.record(
        NewResponse(
            item_id,
            "m/x",
            condition,
            f"h-{condition}",
            status="ok",
            parse_ok=True,
            labels=[{"name": "Aorta", "location_hint": "top"}],
        )
    )


def stale_by_condition(project):
    return {c.condition: c.stale for c in load_results(project)}


def test_changing_subject_or_image_makes_answers_stale_and_export_leaves_them_out(tmp_path):
    with Project.create(tmp_path / "p") as project:
        item = project.items.add(
            NewItem(
                subject="human heart",
                question_png=PNG_A,
                answer_png=PNG_A,
                key=[KeyEntry("Aorta")],
                status="ready",
            )
        )
        answer(project, item.id, "told")
        answer(project, item.id, "no-image")
        assert stale_by_condition(project) == {"told": False, "no-image": False}
        assert check_export(project).n_rows == 2

        # a new question image: only the answer that saw the image is stale
        project.items.set_images(
            item.id,
            question_png=PNG_B,
            answer_png=PNG_A,
            question_pdf=None,
            erase_method="vector-text",
            erase_edits={},
        )
        assert stale_by_condition(project) == {"told": True, "no-image": False}
        report = check_export(project)
        assert (report.n_rows, report.skipped_stale) == (1, 1)

        # a new subject: both prompts changed
        project.items.update(item.id, subject="mammalian heart")
        assert stale_by_condition(project) == {"told": True, "no-image": True}

        # answering again makes the cells current
        answer(project, item.id, "told")
        answer(project, item.id, "no-image")
        assert stale_by_condition(project) == {"told": False, "no-image": False}
        assert check_export(project).skipped_stale == 0
