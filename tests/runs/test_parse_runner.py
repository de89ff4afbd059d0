"""What the runner stores from the parser: the status it decides, its notes, label markers."""

from __future__ import annotations

import json

from labeler.runs.parse_lenient import MAX_TOKENS
from labeler.runs.runner import RunOptions, RunRequest, run
from tests.runs.runs_loopback import LoopbackServer, ok, truncated
from tests.runs.test_runs_runner import FAST, openai_model

THINK_KEYED = (
    '<think>\nDraft: {"labels": {"A": "Atrium"}}\nNo, A is the auricle.\n</think>\n'
    '```json\n{"diagram_is": "heart", "labels": {"A": "Left auricle", "B": {"name": "Aorta"}}}\n```'
)
DECLINE = "I'm sorry, but I can't see an image attached to your message."
HOSTILE = '{"labels": ["aorta", ' + '"a",' * 200_000  # ~800 KB, cut by the output limit


def test_run_stores_the_parsers_status_notes_and_markers(project, key_env, tmp_path):
    with LoopbackServer() as server:
        server.script("of: the human heart", ok(THINK_KEYED))
        server.script("of: the kidney", ok(DECLINE))
        server.script("of: valves", truncated(HOSTILE))
        request = RunRequest(openai_model(tmp_path, server), ["told"])
        summary = run(project, request, RunOptions(retry=FAST))
    assert summary.counts["ok"] == 1 and summary.counts["refused"] == 1
    assert summary.counts["truncated"] == 1
    rows = {r.item_id: r for r in project.responses.latest()}
    heart, kidney, valves = rows["heart"], rows["kidney"], rows["valves"]
    assert heart.labels == [
        {"name": "Left auricle", "location_hint": "", "marker": "A"},
        {"name": "Aorta", "location_hint": "", "marker": "B"},
    ]
    assert heart.parse_ok and heart.error is None
    assert "scored only the text after </think>" in heart.parse_notes
    assert "(with a draft answer) was not read" in heart.parse_notes
    assert "keyed by marker letter" in heart.parse_notes
    assert (kidney.status, kidney.labels, kidney.parse_ok) == ("refused", [], False)
    assert "declined in plain text" in kidney.error and "can't see an image" in kidney.error
    assert valves.predicted_names[0] == "aorta" and not valves.parse_ok
    assert f"stopped reading after {MAX_TOKENS:,} tokens" in valves.parse_notes
    stored = project.db.execute("SELECT labels_json FROM responses WHERE item_id = 'heart'")
    assert json.loads(stored.fetchone()[0])[0]["marker"] == "A"


def test_an_answer_read_as_sent_has_no_notes(project, key_env, tmp_path):
    with LoopbackServer() as server:
        run(project, RunRequest(openai_model(tmp_path, server), ["told"]), RunOptions(retry=FAST))
    for row in project.responses.latest():
        assert row.status == "ok" and row.parse_notes is None
        assert all("marker" not in label for label in row.labels)
