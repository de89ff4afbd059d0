"""``labeler score`` on a published export reproduces it: per-item lexicon rows and flags."""

import json
import shutil

from labeler.cli import main
from labeler.export.exporter import export_project


def test_rescoring_a_stale_export_restores_its_scores_and_flags(project, tmp_path, capsys):
    out = tmp_path / "out"
    export_project(project, out)
    published = (out / "results.jsonl").read_bytes()
    rows = [json.loads(line) for line in published.decode().splitlines()]
    assert {r["unsolved_core"] for r in rows} == {True, False}  # both flags occur
    assert {r["recitable"] for r in rows} == {True, False}
    stale = [
        {**r, "f1": 0.0, "unsolved_core": not r["unsolved_core"], "recitable": not r["recitable"]}
        for r in rows
    ]
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in stale)
    (out / "results.jsonl").write_text(text, encoding="utf-8")

    assert main(["score", str(out / "results.jsonl"), "--out", str(tmp_path / "re.jsonl")]) == 0
    assert "per-item lexicon rows" in capsys.readouterr().err
    # byte-identical: same scores (project and item-only synonyms), same flags, same row shape
    assert (tmp_path / "re.jsonl").read_bytes() == published

    # without items.jsonl the project's synonyms are unknown and the scores differ
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(out / "results.jsonl", alone / "results.jsonl")
    assert main(["score", str(alone / "results.jsonl"), "--out", str(tmp_path / "bare.jsonl")]) == 0
    bare = [json.loads(line) for line in (tmp_path / "bare.jsonl").read_text().splitlines()]
    assert [r["f1"] for r in bare] != [r["f1"] for r in rows]


def test_lexicon_csv_is_layered_over_the_item_rows(project, tmp_path):
    out = tmp_path / "out"
    export_project(project, out)
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    blind = next(r for r in rows if r["condition"] == "blind")  # "valve" is not in the key
    assert blind["f1"] < 1
    csv = tmp_path / "extra.csv"
    csv.write_text("canonical,synonym,relation\nright ventricle,valve,same\n", encoding="utf-8")
    args = ["score", str(out / "results.jsonl"), "--lexicon", str(csv)]
    assert main([*args, "--out", str(tmp_path / "re.jsonl")]) == 0
    again = [json.loads(line) for line in (tmp_path / "re.jsonl").read_text().splitlines()]
    same_blind = next(r for r in again if r["condition"] == "blind")
    assert same_blind["f1"] > blind["f1"]  # the CSV row counts
    told = [r for r in again if r["condition"] == "told"]
    assert told == [r for r in rows if r["condition"] == "told"]  # item rows still apply
