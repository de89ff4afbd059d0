"""One runner on another machine: ``python -m tests.pg.runner_worker FOLDER MODELS LEASE``.

Opens the (PostgreSQL) project, prints ``ready``, waits for a line on stdin (so the test
starts all runners at once), runs the openai test model under two conditions with two calls
in flight, and prints how many calls it sent as one JSON line.
"""

import json
import sys

from labeler.providers.config import load_models
from labeler.runs.runner import RetryPolicy, RunOptions, RunRequest, run
from labeler.store import Project

CONDITIONS = ["told", "no-image"]


def main(folder: str, models: str, lease: float) -> None:
    with Project.open(folder) as project:
        request = RunRequest(load_models(models, only=["t/openai"]), CONDITIONS)
        options = RunOptions(
            concurrency=2, retry=RetryPolicy(base_delay_s=0.01), claim_lease_s=lease
        )
        print("ready", flush=True)
        sys.stdin.readline()
        summary = run(project, request, options)
    print(json.dumps({"sent": summary.sent, "planned": summary.planned}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], float(sys.argv[3]))
