"""``labeler score`` and ``labeler report`` as a user runs them (subprocess)."""

import csv
import io
import json
from pathlib import Path

import pandas as pd
import pytest

from labeler import analysis
from labeler.lexicon import load_starter
from tests.labeler_cli import run_labeler

ROOT = Path(__file__).resolve().parents[2]
STARTER_CSV = ROOT / "labeler" / "data" / "lexicon" / "biology.csv"


def test_score_rewrites_scores_and_report_prints_the_known_table(tmp_path, results_file, generated):
    out = tmp_path / "rescored.jsonl"
    done = run_labeler("score", str(results_file), "--lexicon", str(STARTER_CSV), "--out", str(out))
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == len(generated.rows)
    for row in rows:
        want = generated.expected_f1[(row["item_id"], row["model"], row["condition"])]
        assert row["f1"] == pytest.approx(want)
        assert row["n_key"] == 4 and row["predicted_names"]  # other fields kept

    report = run_labeler("report", str(out), "--format", "csv")
    assert report.returncode == 0, report.stderr
    table = list(csv.DictReader(io.StringIO(report.stdout)))
    assert [r["model"] for r in table] == ["beta", "alpha"]  # sorted by told
    means: dict[tuple[str, str], list[float]] = {}
    for (_, model, condition), f1 in generated.expected_f1.items():
        means.setdefault((model, condition), []).append(100 * f1)
    for r in table:
        for condition in ("blind", "told", "desc", "no-image"):
            values = means.get((r["model"], condition))
            if values is None:
                assert r[condition] == ""
            else:
                assert float(r[condition]) == pytest.approx(sum(values) / len(values), abs=0.05)
    beta = table[0]
    assert beta["grounded"] == "" and beta["recited"] == ""


def test_report_rescores_with_lexicon_and_prints_markdown_and_json(results_file):
    stale = run_labeler("report", str(results_file))  # stored f1 are all 0
    assert "| alpha | 0.0% | 0.0% | 0.0% | 0.0% | +0.0 | — |" in stale.stdout
    fresh = run_labeler("report", str(results_file), "--lexicon", str(STARTER_CSV))
    assert fresh.returncode == 0, fresh.stderr
    assert fresh.stdout.splitlines()[0] == (
        "| Model | blind | told | desc | no-image | grounded | recited |"
    )
    assert "| alpha | 63.0% | 83.3% | 83.3% | 34.0% | +49.3 | 41% |" in fresh.stdout
    as_json = run_labeler(
        "report", str(results_file), "--lexicon", str(STARTER_CSV), "--format", "json"
    )
    data = {entry["model"]: entry for entry in json.loads(as_json.stdout)["models"]}
    lo, hi = data["alpha"]["ci"]["grounded"]
    assert lo <= data["alpha"]["grounded"] <= hi
    assert data["beta"]["no-image"] is None and data["beta"]["ci"]["grounded"] is None


def test_score_prints_to_stdout_without_out(results_file):
    done = run_labeler("score", str(results_file))
    assert done.returncode == 0
    assert len(done.stdout.splitlines()) == len(results_file.read_text().splitlines())


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"item_id": "a"\n', "line 1: not valid JSON"),
        ("[1, 2]\n", "line 1: expected a JSON object"),
        ('{"predicted_names": "aorta", "key_names": []}\n', "'predicted_names' must be a list"),
    ],
)
def test_bad_results_file_is_one_clear_line_and_nothing_written(tmp_path, content, message):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(content, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    done = run_labeler("score", str(bad), "--out", str(out))
    assert done.returncode == 2
    assert message in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert not out.exists()


def test_bad_lexicon_and_missing_file_are_clear_errors(tmp_path, results_file):
    lexicon = tmp_path / "lex.csv"
    lexicon.write_text("canonical,synonym,relation\na,b,maybe\n", encoding="utf-8")
    done = run_labeler("score", str(results_file), "--lexicon", str(lexicon))
    assert done.returncode == 2 and "relation must be" in done.stderr
    missing = run_labeler("report", str(tmp_path / "nope.jsonl"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr


def test_unparsed_answer_scores_zero_instead_of_failing(tmp_path):
    path = tmp_path / "r.jsonl"
    row = {
        "item_id": "I",
        "model": "m",
        "condition": "told",
        "f1": 0.5,
        "predicted_names": None,
        "key_names": ["aorta"],
        "parse_ok": False,
    }
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    done = run_labeler("score", str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["f1"] == 0.0 and json.loads(done.stdout)["n_pred"] == 0


def test_report_json_is_strict_and_carries_the_audits(tmp_path, results_file):
    rows = [json.loads(line) for line in results_file.read_text().splitlines()]
    rows += [  # a model that scores 0 when told but not without the image: recited undefined
        {**rows[0], "model": "gamma", "condition": "told", "predicted_names": ["nothing"]},
        {**rows[0], "model": "gamma", "condition": "no-image"},
    ]
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    args = ("report", str(path), "--lexicon", str(STARTER_CSV))
    done = run_labeler(*args, "--format", "json")
    assert done.returncode == 0, done.stderr

    def refuse(constant):
        raise AssertionError(f"report emitted {constant}")

    data = json.loads(done.stdout, parse_constant=refuse)
    gamma = next(m for m in data["models"] if m["model"] == "gamma")
    assert gamma["told"] == 0.0 and gamma["no-image"] > 0 and gamma["recited"] is None
    audits = data["audits"]
    assert audits["decline_rate"]["alpha"]["told"] == 0.0  # every generated answer names parts
    assert audits["shuffled_key_control"]["alpha"]["told"] == 0.0  # keys share no names
    # "no such structure" (answers naming nothing) is a consensus name absent from every key
    frame = pd.DataFrame(rows)
    names = analysis.consensus_names(frame, load_starter())
    assert audits["consensus_names"] == len(names) > 0
    want = 100 * (~names["in_key"]).mean()
    assert audits["consensus_absent_share"] == pytest.approx(want, abs=1e-3) and 0 < want < 100

    markdown = run_labeler(*args).stdout
    assert "inf" not in markdown and "| gamma | — | 0.0% | — |" in markdown
    assert "## Audits" in markdown and "Decline rate" in markdown
    assert f"Consensus names absent from the key: {want:.0f}% of {len(names)} names" in markdown
