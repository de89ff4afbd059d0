"""The dataset card's front matter and body, and loading the export with datasets and pandas."""

import json
import re

import pandas as pd
import pytest
import yaml

from labeler.export.exporter import export_project
from labeler.export.schema import RESULT_FIELDS
from labeler.prompts import CONDITIONS, build_prompt


@pytest.fixture
def export_dir(project, tmp_path):
    out = tmp_path / "export"
    export_project(project, out)
    return out


def front_matter(card: str) -> dict:
    match = re.match(r"---\n(.*?)\n---\n", card, re.DOTALL)
    assert match, "the card must start with YAML front matter"
    return yaml.safe_load(match.group(1))


def test_front_matter_declares_the_rows_exactly(export_dir):
    meta = front_matter((export_dir / "README.md").read_text(encoding="utf-8"))
    assert meta["license"] == "cc-by-nc-4.0"
    assert meta["task_categories"] == ["visual-question-answering"]
    assert meta["language"] == ["en"] and "no-image-control" in meta["tags"]
    assert meta["pretty_name"] == "Heart figures"
    features = meta["dataset_info"]["features"]
    rows = [json.loads(x) for x in (export_dir / "results.jsonl").read_text().splitlines()]
    assert [f["name"] for f in features] == list(rows[0])
    declared = {f["name"]: f.get("dtype") or f"sequence:{f['sequence']}" for f in features}
    assert declared == {
        "item_id": "string", "model": "string", "condition": "string",
        "f1": "float64", "precision": "float64", "recall": "float64",
        "n_pred": "int64", "n_key": "int64",
        "predicted_names": "sequence:string", "key_names": "sequence:string",
        "subject": "string", "tier": "string",
        "unsolved_core": "bool", "recitable": "bool", "parse_ok": "bool",
    }  # fmt: skip
    split = meta["dataset_info"]["splits"][0]
    assert split == {
        "name": "train",
        "num_examples": len(rows),
        "num_bytes": (export_dir / "results.jsonl").stat().st_size,
    }
    assert meta["configs"] == [
        {"config_name": "default", "data_files": [{"split": "train", "path": "results.jsonl"}]},
        {"config_name": "items", "data_files": [{"split": "train", "path": "items.jsonl"}]},
    ]


def test_card_body_counts_table_and_verbatim_prompts(export_dir):
    card = (export_dir / "README.md").read_text(encoding="utf-8")
    assert "**14 scored responses** across 2 models,\n4 conditions, and 3 benchmark items" in card
    assert (
        "| `results.jsonl` | One row per (item, model, condition) — 14 rows (config `default`) |"
        in card
    )
    for condition in CONDITIONS:
        assert "```\n" + build_prompt(condition, "{subject}") + "\n```" in card
    table = card.split("## Results")[1].split("##")[0]
    header = "| Model | blind | told | desc | no-image | grounded | recited |"
    assert header in table
    lines = [
        x for x in table.splitlines() if x.startswith("| openai/") or x.startswith("| google/")
    ]
    assert len(lines) == 2
    # gpt-4o: heart no-image 1.0, cell no-image 1.0 -> 100.0%
    assert lines[[x.startswith("| openai/gpt-4o") for x in lines].index(True)].split(" | ")[4] == (
        "100.0%"
    )
    for field in RESULT_FIELDS:
        assert f"| `{field.name}` |" in card


def test_datasets_loads_the_export_offline_with_the_declared_features(
    export_dir, tmp_path, monkeypatch
):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf" / "datasets"))
    import datasets

    # in case datasets was imported earlier in the session (it reads these at import)
    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_OFFLINE", True)
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf" / "datasets")
    ds = datasets.load_dataset(str(export_dir), cache_dir=str(tmp_path / "hf" / "cache"))
    train = ds["train"]
    assert train.num_rows == 14
    assert list(train.features) == [f.name for f in RESULT_FIELDS]
    assert train.features["f1"] == datasets.Value("float64")
    assert train.features["n_key"] == datasets.Value("int64")
    assert train.features["parse_ok"] == datasets.Value("bool")
    assert train.features["predicted_names"] == datasets.List(datasets.Value("string"))
    first = json.loads((export_dir / "results.jsonl").read_text().splitlines()[0])
    assert train[0] == first
    items = datasets.load_dataset(str(export_dir), "items", cache_dir=str(tmp_path / "hf" / "c2"))[
        "train"
    ]
    assert items.num_rows == 3 and items.features["lexicon"] == datasets.List(
        datasets.List(datasets.Value("string"))
    )
    assert not [p for p in export_dir.rglob("*") if p.name.startswith(".") or "cache" in p.name]


def test_pandas_reads_both_files(export_dir):
    results = pd.read_json(export_dir / "results.jsonl", lines=True)
    assert list(results.columns) == [f.name for f in RESULT_FIELDS] and len(results) == 14
    assert results["f1"].dtype == "float64" and results["n_pred"].dtype == "int64"
    assert results["parse_ok"].dtype == bool
    assert results["predicted_names"].map(lambda v: isinstance(v, list)).all()
    items = pd.read_json(export_dir / "items.jsonl", lines=True)
    assert len(items) == 3 and items["item_id"].str.match(r"NALANDA-\d+$").all()
    sample = pd.read_json(export_dir / "sample" / "results.jsonl", lines=True)
    assert sample.equals(results.head(10))


def test_card_name_and_license_options_are_remembered(project, tmp_path):
    from labeler.cli import main

    project.close()
    proj, out = tmp_path / "proj", tmp_path / "card"
    argv = ["export", str(proj), "--out", str(out), "--pretty-name", "BLINDSPOT: hearts"]
    assert main([*argv, "--license", "cc-by-4.0"]) == 0
    assert main(["export", str(proj), "--out", str(out)]) == 0  # remembered
    meta = front_matter((out / "README.md").read_text(encoding="utf-8"))
    assert (meta["pretty_name"], meta["license"]) == ("BLINDSPOT: hearts", "cc-by-4.0")
    assert "# BLINDSPOT: hearts\n" in (out / "README.md").read_text(encoding="utf-8")
    assert main(["export", str(proj), "--out", str(out), "--license", " "]) == 2


def test_card_shows_an_undefined_recitation_share_as_a_dash(project, tmp_path):
    """A model scoring 0 when told but not with no image: recited is undefined, not inf%."""
    from tests.export.export_fixtures import answer

    heart = next(i for i in project.items.list() if i.subject.startswith("human heart"))
    answer(project, heart.id, "x/zero-told", "told", ["spleen"])
    answer(project, heart.id, "x/zero-told", "no-image", ["aorta"])
    export_project(project, tmp_path / "out")
    card = (tmp_path / "out" / "README.md").read_text(encoding="utf-8")
    row = next(line for line in card.splitlines() if line.startswith("| x/zero-told |"))
    assert row == "| x/zero-told | — | 0.0% | — | 40.0% | -40.0 | — |"
    assert "inf%" not in card
