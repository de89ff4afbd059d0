"""A job's Cancel and its last point to stop decide one way: written results are never dropped."""

from __future__ import annotations

import pytest

from ui.workers import Cancelled, TaskControl, WorkerSignals


def test_cancel_before_commit_stops_the_job_at_commit(qapp):
    control = TaskControl(WorkerSignals())
    control.cancel()
    with pytest.raises(Cancelled):
        control.commit()
    assert control.cancelled


def test_cancel_after_commit_is_ignored_so_the_result_is_delivered(qapp):
    control = TaskControl(WorkerSignals())
    control.commit()
    control.cancel()
    assert not control.cancelled
    control.check()  # does not raise: the job's result will be delivered
