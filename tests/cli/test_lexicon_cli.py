"""``labeler init`` and ``labeler lexicon …`` as a curator runs them."""

from __future__ import annotations

import subprocess
import sys

from labeler.cli import main
from labeler.lexicon import load_starter
from labeler.store import KeyEntry, NewItem, Project


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_init_starts_with_the_starter_lexicon_in_a_real_process(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "labeler", "init", str(tmp_path / "p")],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert f"({len(load_starter())} lexicon rows)" in out.stdout
    with Project.open(tmp_path / "p") as project:
        assert ("tympanic membrane", "eardrum", "same") in project.lexicon.rows()


def test_init_no_starter_lexicon_starts_empty(tmp_path, capsys):
    code, out, _ = run(capsys, "init", str(tmp_path / "p"), "--no-starter-lexicon")
    assert code == 0 and "(0 lexicon rows)" in out
    code, out, _ = run(capsys, "lexicon", "list", str(tmp_path / "p"))
    assert out.splitlines() == ["0 rows", "lint: 0 issue(s)"]


def test_list_search_add_remove_round_trip(tmp_path, capsys):
    folder = str(tmp_path / "p")
    run(capsys, "init", folder)
    code, out, _ = run(capsys, "lexicon", "list", folder, "--search", "eardrum")
    assert code == 0
    assert out.splitlines() == ["tympanic membrane\teardrum\tsame", "1 rows", "lint: 0 issue(s)"]

    code, out, _ = run(capsys, "lexicon", "add", folder, "cornea", "lens")
    assert code == 2  # the starter keeps cornea and lens apart
    code, out, _ = run(capsys, "lexicon", "add", folder, "stapes", "stapes bone")
    assert (code, out) == (0, "added 'stapes' = 'stapes bone' (same)\n")
    code, out, _ = run(capsys, "lexicon", "remove", folder, "stapes bone", "stapes")
    assert (code, out) == (0, "removed 'stapes' = 'stapes bone' (same)\n")
    code, _, err = run(capsys, "lexicon", "remove", folder, "stapes bone", "stapes")
    assert code == 2 and "no row" in err and "Traceback" not in err


def test_a_refused_add_prints_one_clear_line(tmp_path, capsys):
    folder = str(tmp_path / "p")
    run(capsys, "init", folder)
    code, out, err = run(capsys, "lexicon", "add", folder, "pylorus", "pyloric sphincter")
    assert code == 2 and out == ""
    assert err.startswith("labeler: error:") and "distinct" in err


def test_import_reports_lint_and_export_writes_every_row(tmp_path, capsys):
    folder = str(tmp_path / "p")
    run(capsys, "init", folder, "--no-starter-lexicon")
    csv_in = tmp_path / "in.csv"
    csv_in.write_text(
        "canonical,synonym,relation\ncornea,clear window,\nlens,clear window,\n"
        "radius,ulna,distinct\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "lexicon", "import", folder, str(csv_in))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "imported 3 new rows (0 already present)"
    assert lines[1] == "lint of the imported rows: 1 issue(s)"
    assert lines[2].startswith("  two_groups: 'clear window' is a synonym of 'cornea' and 'lens'")
    code, out, _ = run(capsys, "lexicon", "list", folder)
    assert "lint: 1 issue(s)" in out

    code, out, _ = run(capsys, "lexicon", "export", folder, str(tmp_path / "out.csv"))
    assert out == f"wrote 3 rows to {tmp_path / 'out.csv'}\n"
    assert (tmp_path / "out.csv").read_text(encoding="utf-8").splitlines() == [
        "canonical,synonym,relation",
        "cornea,clear window,same",
        "lens,clear window,same",
        "radius,ulna,distinct",
    ]


def test_import_of_a_contradiction_is_refused(tmp_path, capsys):
    folder = str(tmp_path / "p")
    run(capsys, "init", folder)
    bad = tmp_path / "bad.csv"
    bad.write_text("canonical,synonym,relation\nciliary muscle,ciliary body,same\n", "utf-8")
    code, _, err = run(capsys, "lexicon", "import", folder, str(bad))
    assert code == 2 and "contradict" in err
    with Project.open(folder) as project:
        assert len(project.lexicon.rows()) == len(load_starter())


def test_suggest_prints_related_ontology_synonyms_without_adding_them(tmp_path, capsys):
    folder = tmp_path / "p"
    run(capsys, "init", str(folder))
    with Project.open(folder) as project:
        project.items.add(NewItem(item_id="ear", key=[KeyEntry("incus"), KeyEntry("malleus")]))
        before = project.lexicon.rows()
    code, out, _ = run(capsys, "lexicon", "suggest", str(folder))
    assert code == 0
    assert "0 suggestions from the answers" in out
    assert "  incus\tincus bone\tUBERON:0001688: joins a starter group" in out
    assert "  malleus\tmalleus bone\tUBERON:0001689: joins a starter group" in out
    with Project.open(folder) as project:
        assert project.lexicon.rows() == before
