"""The report's audits are kept per item: a second report scores nothing, an edit exactly its items.

``labeler report`` runs in-process on a real project; the audits' two per-item computations
(:func:`labeler.analysis.consensus_records`, :func:`labeler.analysis.shuffled_pair_scores`)
are wrapped where they are called (:mod:`labeler.analysis.auditing`) — still computing — to
record which items each report computed. Every report is compared with a from-scratch one: the
same project with its audit cache emptied.
"""

import sqlite3
from urllib.parse import urlsplit

import pytest

import labeler.analysis.auditing as auditing
import labeler.results.audits as audit_cache
from labeler.cli import main
from labeler.scoring import scoring_version
from labeler.scoring.rules import SCORING_VERSIONS
from labeler.store import KeyEntry, NewItem, NewResponse, Project
from tests.conftest import use_postgres

MODELS = ("lab/a", "lab/b", "lab/c")
CONDITIONS = ("told", "no-image")
KEYS = {
    "cell": ["Nucleus", "Mitochondrion", "Cell membrane"],
    "eye": ["Retina", "Lens", "Cornea"],
    "gut": ["Oesophagus", "Stomach", "Liver"],
    "heart": ["Mitral valve", "Aorta", "Left atrium"],
    "leaf": ["Stoma", "Xylem", "Phloem"],
}
#: Per item, per model: the names it answers (shared across models: consensus names; some
#: another item's key names: shuffled-key overlap; one synonym per lexicon row).
ANSWERS = {
    "cell": (["nucleus", "mitochondria"], ["Nucleus", "ribosome"], ["nuclei", "lens"]),
    "eye": (["retina", "pupil"], ["Retina", "lens", "iris"], ["cornea", "iris", "nucleus"]),
    "gut": (["gullet", "stomach"], ["oesophagus", "liver"], ["stomach", "gall bladder"]),
    "heart": (["bicuspid valve", "aorta"], ["aorta", "left atrium"], ["aortas", "stoma"]),
    "leaf": (["stomata", "xylem"], ["xylem", "phloem", "cuticle"], ["stoma", "cuticle"]),
}


def record(project, item_id, model, condition, names):
    return project.responses.record(
        NewResponse(
            item_id=item_id,
            model=model,
            condition=condition,
            request_hash=f"{item_id}{model}{condition}{names}",
            status="ok",
            parse_ok=True,
            raw_text=", ".join(names),
            labels=[{"name": n, "location_hint": None} for n in names],
        )
    )


def build(folder):
    with Project.create(folder) as project:
        project.lexicon.add("mitral valve", "bicuspid valve")
        project.lexicon.add("oesophagus", "gullet")
        for item_id, key in KEYS.items():
            project.items.add(NewItem(item_id=item_id, key=[KeyEntry(n) for n in key]))
            for model, names in zip(MODELS, ANSWERS[item_id], strict=True):
                for condition in CONDITIONS:
                    record(project, item_id, model, condition, names)
    return folder


@pytest.fixture(params=["sqlite"])
def folder(request, tmp_path, monkeypatch):
    if request.param == "postgresql":
        use_postgres(monkeypatch, request.getfixturevalue("pg_server"))
    return build(tmp_path / "p")


@pytest.fixture
def computed(monkeypatch):
    """``{kind: [items computed, per call]}`` of the audits' real per-item computations."""
    calls: dict[str, list[set[str]]] = {"consensus": [], "shuffled": []}
    for kind, name in (("consensus", "consensus_records"), ("shuffled", "shuffled_pair_scores")):
        real = getattr(auditing, name)

        def counting(inputs, lexicon=None, real=real, kind=kind):
            calls[kind].append(set(inputs))
            return real(inputs, lexicon)

        monkeypatch.setattr(auditing, name, counting)
    return calls


def report(folder, capsys, *extra):
    """Both formats' output of ``labeler report`` (in this process)."""
    outputs = []
    for fmt in ("markdown", "json"):
        assert main(["report", str(folder), "--format", fmt, *extra]) == 0
        outputs.append(capsys.readouterr().out)
    return outputs


def from_scratch(folder, capsys):
    """The report with nothing kept (what the kept values must reproduce)."""
    with Project.open(folder) as project:
        project.db.execute("DELETE FROM audit_cache")
    return report(folder, capsys)


def items_computed(calls):
    """Every item computed since the last reset, per kind; then reset."""
    out = {kind: set().union(*found) for kind, found in calls.items()}
    for found in calls.values():
        found.clear()
    return out


def other_of(item_id):
    """The item whose key ``item_id``'s answers are scored against (the report's pairing)."""
    return auditing.derangement(sorted(KEYS))[item_id]


@pytest.mark.parametrize("folder", ["sqlite", "postgresql"], indirect=True)
def test_a_second_report_reads_the_kept_values_and_computes_nothing(folder, capsys, computed):
    first = report(folder, capsys)
    assert items_computed(computed) == {"consensus": set(KEYS), "shuffled": set(KEYS)}
    with Project.open(folder) as project:
        assert project.audit_cache.count(scoring_version()) == 2 * len(KEYS)
    assert report(folder, capsys) == first
    assert items_computed(computed) == {"consensus": set(), "shuffled": set()}
    assert (
        "Consensus names absent from the key:" in first[0] and '"shuffled_key_control"' in first[1]
    )
    assert from_scratch(folder, capsys) == first


def test_a_new_answer_recomputes_its_item_only(folder, capsys, computed):
    report(folder, capsys)
    items_computed(computed)
    with Project.open(folder) as project:
        record(project, "eye", MODELS[0], "told", ["retina", "lens", "vitreous humour"])
    after = report(folder, capsys)
    assert items_computed(computed) == {"consensus": {"eye"}, "shuffled": {"eye"}}
    assert after == from_scratch(folder, capsys)


def test_a_key_edit_recomputes_its_consensus_and_the_item_paired_with_it(folder, capsys, computed):
    before = report(folder, capsys)
    items_computed(computed)
    with Project.open(folder) as project:
        project.items.set_key("leaf", [KeyEntry("Stoma"), KeyEntry("Xylem"), KeyEntry("Cuticle")])
    after = report(folder, capsys)
    paired = {i for i in KEYS if other_of(i) == "leaf"}  # scored against the leaf's key
    assert len(paired) == 1 and "leaf" not in paired
    assert items_computed(computed) == {"consensus": {"leaf"}, "shuffled": paired}
    assert after != before  # the cuticle (two models) is in the key now: one absent name less
    assert after == from_scratch(folder, capsys)


def test_a_lexicon_edit_recomputes_exactly_the_items_whose_names_it_reaches(
    folder, capsys, computed
):
    report(folder, capsys)
    items_computed(computed)
    with Project.open(folder) as project:
        project.lexicon.add("femur", "thigh bone")  # no answer or key names either
    unrelated = report(folder, capsys)
    assert items_computed(computed) == {"consensus": set(), "shuffled": set()}
    assert unrelated == from_scratch(folder, capsys)
    items_computed(computed)

    with Project.open(folder) as project:
        project.lexicon.remove("oesophagus", "gullet")  # the gut's key and its answers
    after = report(folder, capsys)
    paired = {i for i in KEYS if other_of(i) == "gut"}
    assert items_computed(computed) == {"consensus": {"gut"}, "shuffled": {"gut", *paired}}
    assert after == from_scratch(folder, capsys)


def test_after_a_lexicon_edit_kept_values_are_checked_once_then_trusted(
    folder, capsys, computed, monkeypatch
):
    checked = []
    real = audit_cache._lexicon_fp
    monkeypatch.setattr(
        audit_cache, "_lexicon_fp", lambda p, given: checked.append(given) or real(p, given)
    )
    report(folder, capsys)
    with Project.open(folder) as project:
        project.lexicon.add("femur", "thigh bone")
    checked.clear()
    items_computed(computed)
    report(folder, capsys)  # each kept value re-checked per name: valid, stamped with the state
    assert len(checked) == 2 * len(KEYS)  # the markdown report; the json one trusts the stamp
    assert items_computed(computed) == {"consensus": set(), "shuffled": set()}
    with Project.open(folder) as project:
        states = {r[0] for r in project.db.execute("SELECT lexicon_state FROM audit_cache")}
    assert len(states) == 1
    checked.clear()
    report(folder, capsys)
    assert checked == []


def test_a_new_rules_version_recomputes_every_item(folder, capsys, computed, monkeypatch):
    first = report(folder, capsys)
    items_computed(computed)
    monkeypatch.setitem(SCORING_VERSIONS, "expert", "expert-2")
    assert report(folder, capsys) == first
    assert items_computed(computed) == {"consensus": set(KEYS), "shuffled": set(KEYS)}
    with Project.open(folder) as project:
        assert project.audit_cache.count("expert-2") == project.audit_cache.count("expert-1") == 10


def test_a_new_item_re_pairs_and_recomputes_only_the_changed_pairs(folder, capsys, computed):
    report(folder, capsys)
    items_computed(computed)
    before = {i: other_of(i) for i in KEYS}
    with Project.open(folder) as project:
        project.items.add(NewItem(item_id="bone", key=[KeyEntry("Femur"), KeyEntry("Marrow")]))
        for model in MODELS:
            record(project, "bone", model, "told", ["femur", "marrow"])
    after = auditing.derangement(sorted([*KEYS, "bone"]))
    changed = {i for i in KEYS if after[i] != before[i]} | {"bone"}
    out = report(folder, capsys)
    assert items_computed(computed) == {"consensus": {"bone"}, "shuffled": changed}
    assert out == from_scratch(folder, capsys)


def test_a_locked_project_still_reports_and_keeps_nothing(folder, capsys, computed):
    first = report(folder, capsys)
    with Project.open(folder) as project:
        project.db.execute("DELETE FROM audit_cache")
    writer = sqlite3.connect(folder / "project.sqlite", isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        items_computed(computed)
        assert report(folder, capsys) == first
        assert items_computed(computed) == {"consensus": set(KEYS), "shuffled": set(KEYS)}
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    with Project.open(folder) as project:
        assert project.audit_cache.count(scoring_version()) == 0


def test_a_read_only_database_still_reports_and_keeps_nothing(
    tmp_path, capsys, computed, monkeypatch, pg_server
):
    import psycopg

    use_postgres(monkeypatch, pg_server)
    folder = build(tmp_path / "p")
    first = report(folder, capsys)  # every score cached: the report itself writes nothing else
    with Project.open(folder) as project:
        project.db.execute("DELETE FROM audit_cache")
        name = urlsplit(project.database_url or "").path.lstrip("/")
    with psycopg.connect(pg_server.url("postgres"), autocommit=True) as admin:
        admin.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
    items_computed(computed)
    assert report(folder, capsys) == first
    assert items_computed(computed) == {"consensus": set(KEYS), "shuffled": set(KEYS)}
    with Project.open(folder) as project:
        assert project.audit_cache.count(scoring_version()) == 0
