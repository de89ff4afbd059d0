"""Alternatives printed with a key name score as that name, are published, and come back.

End to end through a real project: printed labels are split by harvest's rule,
stored, answered, scored by ``labeler.results``, exported, imported into a
fresh project and exported again.
"""

from __future__ import annotations

import json

import pytest

from labeler.curation import edit_entry
from labeler.export.exporter import export_project
from labeler.export.importer import import_items, import_results
from labeler.harvest.label_text import split_label
from labeler.results import load_results, project_lexicon, score_cell
from labeler.store import KeyEntry, NewItem, NewResponse, Project

PRINTED = {
    "ear": "Tympanic membrane (eardrum)",
    "vessel": "Aorta (cut)",
    "valve": "Mitral/bicuspid valve",
    "bone": "Cortical (hard) bone",
}
# (item, model, condition, answer): every one a plain correct answer
ANSWERS = [
    ("ear", "m/one", "told", "eardrum"),
    ("ear", "m/two", "told", "tympanic membrane"),
    ("vessel", "m/one", "told", "aorta"),
    ("valve", "m/one", "told", "bicuspid valve"),
    ("valve", "m/two", "told", "Mitral valve"),
    ("bone", "m/one", "told", "hard bone"),
    ("bone", "m/two", "told", "cortical bone"),
]


def entry(printed: str) -> KeyEntry:
    text = split_label(printed)
    return KeyEntry(text.name, alternatives=text.alternatives, note=text.note, origin="vector")


@pytest.fixture
def project(tmp_path):
    with Project.create(tmp_path / "proj", name="Textbook keys", id_prefix="KEYS") as p:
        ids = {}
        for subject, printed in PRINTED.items():
            ids[subject] = p.items.add(
                NewItem(subject=subject, status="ready", key=[entry(printed)])
            ).id
        for n, (subject, model, condition, answer) in enumerate(ANSWERS):
            p.responses.record(
                NewResponse(
                    ids[subject],
                    model,
                    condition,
                    f"hash-{n}",
                    status="ok",
                    labels=[{"name": answer}],
                    parse_ok=True,
                )
            )
        p.ids = ids  # type: ignore[attr-defined]
        yield p


def test_plain_correct_answers_to_split_keys_score_one(project):
    cells = load_results(project)
    assert len(cells) == len(ANSWERS)
    assert {(c.predicted_names[0], c.f1) for c in cells} == {(a[3], 1.0) for a in ANSWERS}
    assert {c.key_names for c in cells} == {
        ("Tympanic membrane",),
        ("Aorta",),
        ("Mitral valve",),
        ("Cortical bone",),
    }


def test_a_wrong_part_still_scores_zero_and_an_alternative_counts_only_for_its_item(project):
    ear = project_lexicon(project, project.ids["ear"])
    assert score_cell(["malleus"], ["Tympanic membrane"], ear).f1 == 0.0
    bone = project_lexicon(project, project.ids["bone"])
    assert score_cell(["hard bone"], ["Cortical bone"], bone).f1 == 1.0
    assert score_cell(["hard bone"], ["Cortical bone"], project_lexicon(project)).f1 == 0.0


def test_removing_an_alternative_rescores_the_answer_that_used_it(project):
    item = project.ids["bone"]
    [bone] = project.items.key(item)
    project.items.set_key(item, [edit_entry(bone, alternatives=[])])
    scores = {c.predicted_names[0]: c.f1 for c in load_results(project, [item])}
    assert scores == {"hard bone": 0.0, "cortical bone": 1.0}


def read(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_export_publishes_clean_names_alternatives_and_notes(project, tmp_path):
    export_project(project, tmp_path / "out")
    items = {r["subject"]: r for r in read(tmp_path / "out" / "items.jsonl")}
    ear, vessel = items["ear"], items["vessel"]
    assert ear["key_names"] == ["Tympanic membrane"]
    assert ear["alternatives"] == {"Tympanic membrane": ["eardrum"]}
    assert ear["key_notes"] == {"Tympanic membrane": ""}
    assert "eardrum" in ear["synonyms"]["Tympanic membrane"]
    assert ["Tympanic membrane", "eardrum", "same"] in ear["lexicon"]
    assert vessel["key_names"] == ["Aorta"] and vessel["key_notes"] == {"Aorta": "cut"}
    assert items["valve"]["alternatives"] == {"Mitral valve": ["bicuspid valve"]}
    results = read(tmp_path / "out" / "results.jsonl")
    assert [r["f1"] for r in results] == [1.0] * len(ANSWERS)
    card = (tmp_path / "out" / "README.md").read_text(encoding="utf-8")
    assert "`alternatives`" in card and "`key_notes`" in card


def test_round_trip_restores_alternatives_and_notes_and_gives_identical_files(project, tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    export_project(project, first)
    with Project.create(tmp_path / "fresh", name="Textbook keys", id_prefix="KEYS") as fresh:
        assert len(import_items(fresh, first / "items.jsonl").created) == len(PRINTED)
        imported = import_results(fresh, first / "results.jsonl")
        assert (imported.imported, imported.score_differs, imported.key_differs) == (7, 0, [])
        keys = {fresh.items.get(i).subject: k for i, k in fresh.items.keys().items()}
        assert keys["ear"] == [KeyEntry("Tympanic membrane", alternatives=("eardrum",))]
        assert keys["vessel"] == [KeyEntry("Aorta", note="cut")]
        # the alternatives are the key's, not copied into the item's lexicon as well
        assert fresh.lexicon.item_rows() == {}
        export_project(fresh, second)
    for name in ("items.jsonl", "results.jsonl", "README.md"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_an_export_from_before_alternatives_still_imports(project, tmp_path):
    export_project(project, tmp_path / "out")
    rows = read(tmp_path / "out" / "items.jsonl")
    old = tmp_path / "old-items.jsonl"
    lines = []
    for row in rows:
        del row["alternatives"], row["key_notes"]
        lines.append(json.dumps(row))
    old.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with Project.create(tmp_path / "fresh", id_prefix="KEYS") as fresh:
        assert len(import_items(fresh, old).created) == len(PRINTED)
        keys = {fresh.items.get(i).subject: k for i, k in fresh.items.keys().items()}
        assert keys["vessel"] == [KeyEntry("Aorta")]
        # the alternative was only in the lexicon rows then: it still scores, as an item row
        assert keys["ear"] == [KeyEntry("Tympanic membrane")]
        ear = next(i.id for i in fresh.items.list() if i.subject == "ear")
        assert ("Tympanic membrane", "eardrum", "same") in fresh.lexicon.rows(ear)
