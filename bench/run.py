"""Runner overhead: 1,000 calls to a loopback server with 100 ms latency at concurrency 16.

The bare cost of the work is the server's latency: calls × latency ÷ concurrency.
Everything above that is the runner's own overhead (SDK client, JSON parsing,
one SQLite transaction per response, scheduling). Goal: wall time ≤ 1.15× ideal.

The server runs in its own process (tests/runs/runs_loopback.py) so that its
threads do not compete with the runner for the interpreter lock. The SDK is
imported before timing (a session imports it once); client creation, planning
and every database write are inside the timed run. The runner's CPU time per
call is printed too: on a loaded machine it, not the wall ratio, is the
figure that does not depend on what else is running.

The batch path's own overhead is measured after it (``--batch-calls``, default the
issue's 6,500): plan, build and upload the JSONL, create the job (``run_batch``), then
poll and collect it (``collect_batches``: download, parse and store every answer, one
transaction each). The loopback server answers a job's requests when it is created, in
its own process, so the runner's CPU time is the figure that is the batch path's cost.

    python bench/run.py [--calls 1000] [--latency 0.1] [--concurrency 16] [--batch-calls 6500]
"""

from __future__ import annotations

import argparse
import http.client
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from labeler.prompts import CONDITIONS  # noqa: E402
from labeler.providers.base import CallRequest  # noqa: E402
from labeler.providers.config import ModelConfig  # noqa: E402
from labeler.providers.openai_provider import chat_body  # noqa: E402
from labeler.runs.batch import collect_batches, run_batch  # noqa: E402
from labeler.runs.runner import RunOptions, RunRequest, plan_run, run  # noqa: E402
from labeler.store import KeyEntry, NewItem, Project  # noqa: E402


def make_project(folder: Path, n_items: int) -> Project:
    project = Project.create(folder)
    for i in range(n_items):
        buf = io.BytesIO()
        Image.new("RGB", (64, 48), (i % 256, (i // 256) % 256, 7)).save(buf, "PNG")
        project.items.add(
            NewItem(
                item_id=f"it{i:05d}",
                subject=f"figure {i} of the heart",
                question_png=buf.getvalue(),
                key=[KeyEntry("aorta"), KeyEntry("left ventricle")],
            )
        )
    return project


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--latency", type=float, default=0.1)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--batch-calls", type=int, default=6500, help="0: skip the batch path")
    args = parser.parse_args()
    n_items = -(-args.calls // len(CONDITIONS))
    server = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "tests" / "runs" / "runs_loopback.py"),
            "--latency",
            str(args.latency),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        url = server.stdout.readline().strip()
        os.environ["BENCH_KEY"] = "test-key"
        model = ModelConfig(
            name="bench/openai",
            provider="openai",
            model="gpt-bench",
            base_url=f"{url}/v1",
            api_key_env="BENCH_KEY",
            settings={"temperature": 0, "max_tokens": 8000},
        )
        import openai  # noqa: F401 - imported once per session, not per run

        with tempfile.TemporaryDirectory() as tmp:
            project = make_project(Path(tmp) / "p", n_items)
            bodies = [
                json.dumps(chat_body(model, CallRequest(c.prompt, c.image)))
                for c in plan_run(project, RunRequest([model], CONDITIONS)).calls
            ]
            bare = _bare_http(url, bodies, args.concurrency)
            answered: list[float] = []
            start, cpu0 = time.perf_counter(), _cpu()
            summary = run(
                project,
                RunRequest([model], CONDITIONS),
                RunOptions(
                    concurrency=args.concurrency,
                    on_progress=lambda _: answered.append(time.perf_counter()),
                ),
            )
            wall, cpu = time.perf_counter() - start, _cpu() - cpu0
            project.close()
            batch_line = (
                _bench_batch(Path(tmp) / "batch", model, args.batch_calls)
                if args.batch_calls
                else None
            )
    finally:
        server.kill()
        server.wait()
    ideal = summary.sent * args.latency / args.concurrency
    print(
        f"{summary.sent} calls ({dict((k, v) for k, v in summary.counts.items() if v)}) "
        f"at concurrency {args.concurrency}, latency {args.latency * 1000:.0f} ms"
    )
    print(f"wall {wall:.2f} s, ideal {ideal:.2f} s, ratio {wall / ideal:.3f}x (goal <= 1.15x)")
    steady = answered[-1] - answered[0]
    steady_ideal = (summary.sent - 1) * args.latency / args.concurrency
    print(
        f"start-up (plan, clients, first answer) {answered[0] - start:.2f} s; first to last "
        f"answer {steady:.2f} s = {steady / steady_ideal:.3f}x its ideal"
    )
    print(
        f"bare HTTP (same bodies, {args.concurrency} threads with http.client, no SDK, no "
        f"store): {bare:.2f} s = {bare / ideal:.3f}x ideal"
    )
    print(
        f"runner CPU {cpu:.2f} s = {cpu / summary.sent * 1000:.2f} ms per call "
        f"(the budget at this rate is {ideal / summary.sent * 1000:.2f} ms per call); "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    if batch_line:
        print(batch_line)


def _bench_batch(folder: Path, model: ModelConfig, calls: int) -> str:
    """Submit ``calls`` as one batch job and collect it; wall and CPU per phase."""
    project = make_project(folder, -(-calls // len(CONDITIONS)))
    request = RunRequest([model], CONDITIONS)
    start, cpu0 = time.perf_counter(), _cpu()
    submitted = run_batch(project, request)
    submit_wall, submit_cpu = time.perf_counter() - start, _cpu() - cpu0
    first = collect_batches(project)  # the loopback job says "in progress" once
    start, cpu0 = time.perf_counter(), _cpu()
    collected = collect_batches(project)
    collect_wall, collect_cpu = time.perf_counter() - start, _cpu() - cpu0
    project.close()
    n = submitted.submitted_calls
    assert first.stored == 0 and collected.stored == n, (first, collected)
    return (
        f"batch path, {n} calls in {len(submitted.jobs)} job(s): submit (plan, JSONL, upload, "
        f"create) {submit_wall:.2f} s wall, {submit_cpu:.2f} s CPU = "
        f"{submit_cpu / n * 1000:.2f} ms per call; collect (retrieve, download, parse, store "
        f"{collected.stored}) {collect_wall:.2f} s wall, {collect_cpu:.2f} s CPU = "
        f"{collect_cpu / n * 1000:.2f} ms per call"
    )


def _bare_http(url: str, bodies: list[str], concurrency: int) -> float:
    """Wall time of the same requests sent by plain threads: the floor on this machine."""
    host, port = url.removeprefix("http://").split(":")
    headers = {"authorization": "Bearer test-key", "content-type": "application/json"}
    chunks = [bodies[i::concurrency] for i in range(concurrency)]

    def send(chunk: list[str]) -> None:
        conn = http.client.HTTPConnection(host, int(port))
        for body in chunk:
            conn.request("POST", "/v1/chat/completions", body, headers)
            conn.getresponse().read()
        conn.close()

    threads = [threading.Thread(target=send, args=(chunk,)) for chunk in chunks]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


if __name__ == "__main__":
    main()
