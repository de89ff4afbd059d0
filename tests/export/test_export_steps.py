"""An export reports its steps, and stopping at any of them writes nothing."""

from __future__ import annotations

import pytest

from labeler.export.exporter import EXPORT_STEPS, export_project
from labeler.store import Project
from tests.ui.factory import heart_project


class Stop(Exception):
    pass


@pytest.mark.parametrize("stop_at", EXPORT_STEPS)
def test_stopping_at_a_step_writes_nothing_and_numbers_nothing(tmp_path, stop_at):
    heart_project(tmp_path / "p").close()
    seen: list[str] = []

    def step(name: str) -> None:
        seen.append(name)
        if name == stop_at:
            raise Stop

    with Project.open(tmp_path / "p") as project:
        with pytest.raises(Stop):
            export_project(project, tmp_path / "out", step=step)
        assert project.public_ids.labels(project.id_prefix) == {}
    assert seen == list(EXPORT_STEPS[: EXPORT_STEPS.index(stop_at) + 1])
    assert not (tmp_path / "out").exists()


def test_every_step_is_reported_in_order_and_the_export_is_written(tmp_path):
    heart_project(tmp_path / "p").close()
    seen: list[str] = []
    with Project.open(tmp_path / "p") as project:
        report = export_project(project, tmp_path / "out", step=seen.append)
    assert seen == list(EXPORT_STEPS)
    assert report.n_items == 2 and (tmp_path / "out" / "results.jsonl").is_file()
