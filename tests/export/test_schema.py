"""results.jsonl and items.jsonl: the card's fields and types; validation refuses the rest."""

import copy
import json

import pytest

from labeler.errors import ExportError
from labeler.export.exporter import export_project
from labeler.export.schema import ITEM_NAMES, RESULT_NAMES
from labeler.export.validate import validate_items, validate_results
from labeler.prompts import CONDITIONS
from tests.export.export_fixtures import MODELS

CARD_RESULT_FIELDS = [
    "item_id",
    "model",
    "condition",
    "f1",
    "precision",
    "recall",
    "n_pred",
    "n_key",
    "predicted_names",
    "key_names",
    "subject",
    "tier",
    "unsolved_core",
    "recitable",
    "parse_ok",
]


def read_jsonl(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def exported(project, tmp_path):
    out = tmp_path / "out"
    export_project(project, out)
    return out, read_jsonl(out / "results.jsonl"), read_jsonl(out / "items.jsonl")


def is_names(v):
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def test_results_rows_have_exactly_the_card_fields_and_types(exported):
    _, results, _ = exported
    assert tuple(CARD_RESULT_FIELDS) == RESULT_NAMES
    assert len(results) == 14
    for row in results:
        assert list(row) == CARD_RESULT_FIELDS
        assert isinstance(row["item_id"], str) and row["item_id"].startswith("NALANDA-")
        assert row["model"] in MODELS
        assert row["condition"] in CONDITIONS
        for name in ("f1", "precision", "recall"):
            assert type(row[name]) is float and 0.0 <= row[name] <= 1.0
        for name in ("n_pred", "n_key"):
            assert type(row[name]) is int and row[name] >= 0
        assert is_names(row["predicted_names"]) and is_names(row["key_names"])
        assert isinstance(row["subject"], str) and row["tier"] in ("core", "extended")
        for name in ("unsolved_core", "recitable", "parse_ok"):
            assert type(row[name]) is bool


def test_results_values_come_from_the_latest_scored_responses(exported):
    _, results, items = exported
    heart = next(i["item_id"] for i in items if i["subject"].startswith("human heart"))
    cells = {(r["item_id"], r["model"], r["condition"]): r for r in results}
    full = cells[(heart, MODELS[0], "no-image")]
    assert (full["f1"], full["n_pred"], full["n_key"]) == (1.0, 4, 4)
    failed = cells[(heart, MODELS[1], "no-image")]
    assert failed["parse_ok"] is False and failed["f1"] == 0.0 and failed["predicted_names"] == []
    # rows are sorted by public number, model, then the card's condition order
    order = [
        (int(r["item_id"].split("-")[1]), r["model"], CONDITIONS.index(r["condition"]))
        for r in results
    ]
    assert order == sorted(order)


def test_items_rows_fields_and_types(exported):
    _, results, items = exported
    assert [list(r) for r in items] == [list(ITEM_NAMES)] * 3
    assert list(ITEM_NAMES) == [
        "item_id",
        "subject",
        "tier",
        "pattern",
        "n_key",
        "key_names",
        "markers",
        "synonyms",
        "alternatives",
        "key_notes",
        "distinct",
        "lexicon",
        "unsolved_core",
        "recitable",
        "mean_f1",
    ]
    for row in items:
        assert type(row["n_key"]) is int and row["n_key"] == len(row["key_names"])
        assert is_names(row["key_names"]) and row["pattern"] in ("A", "B", "C")
        assert set(row["synonyms"]) == set(row["key_names"]) == set(row["distinct"])
        assert set(row["alternatives"]) == set(row["key_names"]) == set(row["key_notes"])
        assert all(is_names(v) for v in row["alternatives"].values())
        assert all(isinstance(v, str) for v in row["key_notes"].values())
        assert all(is_names(v) for v in row["synonyms"].values())
        assert type(row["unsolved_core"]) is bool and type(row["recitable"]) is bool
        assert list(row["mean_f1"]) == list(CONDITIONS)
        for condition, value in row["mean_f1"].items():
            f1s = [
                r["f1"]
                for r in results
                if r["item_id"] == row["item_id"] and r["condition"] == condition
            ]
            assert value == (pytest.approx(sum(f1s) / len(f1s)) if f1s else None)
    by_subject = {r["subject"]: r for r in items}
    heart, cell = by_subject["human heart, frontal section"], by_subject["animal cell"]
    assert heart["markers"] is None
    assert cell["markers"] == {"A": "Nucleus", "B": "Mitochondrion"}
    assert heart["synonyms"]["Mitral valve"] == ["bicuspid valve", "left AV valve"]
    assert heart["synonyms"]["Aorta"] == ["aortic trunk"]
    assert cell["synonyms"]["Mitochondrion"] == ["powerhouse"]  # the item's own addition
    assert cell["distinct"]["Nucleus"] == ["nucleolus"]
    # exact re-scoring rows: the groups of key and predicted names, and their vetoed groups
    assert heart["lexicon"] == [
        ["aorta", "aortic trunk", "same"],
        ["mitral valve", "bicuspid valve", "same"],
        ["mitral valve", "left AV valve", "same"],
    ]
    assert cell["lexicon"] == [
        ["mitochondrion", "powerhouse", "same"],
        ["nucleus", "nucleolus", "distinct"],
    ]


def test_excluded_items_are_left_out_and_only_ready_limits(project, tmp_path):
    export_project(project, tmp_path / "all")
    subjects = {r["subject"] for r in read_jsonl(tmp_path / "all" / "items.jsonl")}
    assert "excluded figure" not in subjects and "lung alveoli" in subjects
    text = (tmp_path / "all" / "results.jsonl").read_text()
    assert "Secret part" not in text
    export_project(project, tmp_path / "ready", only_ready=True)
    ready = read_jsonl(tmp_path / "ready" / "items.jsonl")
    assert {r["subject"] for r in ready} == {"human heart, frontal section", "animal cell"}
    rows = read_jsonl(tmp_path / "ready" / "results.jsonl")
    assert {r["item_id"] for r in rows} == {r["item_id"] for r in ready}


WRONG_RESULT_VALUES = [
    ("item_id", 3),
    ("model", None),
    ("condition", ["told"]),
    ("f1", "0.5"),
    ("f1", 1),
    ("precision", True),
    ("recall", None),
    ("n_pred", 2.0),
    ("n_key", False),
    ("predicted_names", "aorta"),
    ("key_names", [1, 2]),
    ("subject", 0),
    ("tier", None),
    ("unsolved_core", 0),
    ("recitable", "yes"),
    ("parse_ok", 1),
]


@pytest.mark.parametrize(("field", "value"), WRONG_RESULT_VALUES)
def test_validation_refuses_a_wrong_type_in_every_results_field(exported, field, value):
    _, results, items = exported
    by_id = validate_items(items, "NALANDA")
    validate_results(results, by_id)  # the real export is valid
    bad = copy.deepcopy(results)
    bad[3][field] = value
    with pytest.raises(ExportError, match=rf"results.jsonl row 4.*'{field}' must be"):
        validate_results(bad, by_id)


WRONG_ITEM_VALUES = [
    ("item_id", 1),
    ("subject", None),
    ("tier", 2),
    ("pattern", ["B"]),
    ("n_key", "4"),
    ("key_names", "Aorta"),
    ("markers", {"A": 1}),
    ("synonyms", {"Aorta": "x"}),
    ("synonyms", {1: ["x"]}),
    ("distinct", []),
    ("lexicon", [["aorta", "great artery", "maybe"]]),
    ("lexicon", [["aorta", "great artery"]]),
    ("lexicon", [["aorta", 2, "same"]]),
    ("lexicon", [("aorta", "great artery", "same")]),
    ("unsolved_core", None),
    ("recitable", 1),
    ("mean_f1", {"told": "1"}),
]


@pytest.mark.parametrize(("field", "value"), WRONG_ITEM_VALUES)
def test_validation_refuses_a_wrong_type_in_every_items_field(exported, field, value):
    _, _, items = exported
    bad = copy.deepcopy(items)
    bad[0][field] = value
    with pytest.raises(ExportError, match=rf"items.jsonl row 1.*'{field}' must be"):
        validate_items(bad, "NALANDA")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(extra=1), "unexpected \\['extra'\\]"),
        (lambda r: r.pop("recall"), "missing \\['recall'\\]"),
        (lambda r: r.update(f1=1.5), "'f1' must be between 0 and 1"),
        (lambda r: r.update(f1=float("nan")), "'f1' must be float64"),
        (lambda r: r.update(condition="sideways"), "condition must be one of"),
        (lambda r: r.update(n_pred=-1), "'n_pred' must not be negative"),
        (lambda r: r.update(item_id="NALANDA-99"), "not in items.jsonl"),
        (lambda r: r.update(subject="other"), "'subject' differs from the item's"),
        (lambda r: r.update(recitable=not r["recitable"]), "'recitable' differs"),
    ],
)
def test_validation_refuses_bad_results_rows(exported, change, message):
    _, results, items = exported
    bad = copy.deepcopy(results)
    change(bad[0])
    with pytest.raises(ExportError, match=message):
        validate_results(bad, validate_items(items, "NALANDA"))


def test_validation_refuses_duplicate_cells_and_bad_item_ids(exported):
    _, results, items = exported
    with pytest.raises(ExportError, match="appears twice"):
        validate_results([*results, results[0]], validate_items(items, "NALANDA"))
    bad = copy.deepcopy(items)
    bad[0]["item_id"] = "campbell-p137-fig42-3"
    with pytest.raises(ExportError, match="item_id must look like NALANDA-N"):
        validate_items(bad, "NALANDA")
    bad = copy.deepcopy(items)
    bad[1]["mean_f1"] = {"told": 0.5}
    with pytest.raises(ExportError, match="exactly the conditions"):
        validate_items(bad, "NALANDA")
