"""The command line as a user runs it (a real subprocess)."""

import subprocess
import sys


def labeler(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "labeler", *args], capture_output=True, text=True, cwd=cwd
    )


def test_init_creates_project_and_refuses_twice(tmp_path):
    out = labeler("init", str(tmp_path / "p"), "--id-prefix", "bio")
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "p" / "project.sqlite").is_file()
    again = labeler("init", str(tmp_path / "p"))
    assert again.returncode == 2
    assert again.stderr.startswith("labeler: error:") and "already" in again.stderr
    assert "Traceback" not in again.stderr


def test_add_item_erases_harvests_and_stores_a_figure(tmp_path):
    import json

    from labeler.demo import SAMPLE_BOOK
    from labeler.samples.book import layout
    from labeler.store import Project

    heart = layout()[0]
    labeler("init", str(tmp_path / "p"))
    clip = ",".join(str(v) for v in heart.clip)
    out = labeler(
        "add-item",
        str(tmp_path / "p"),
        "--pdf",
        str(SAMPLE_BOOK),
        "--page",
        "1",
        "--clip",
        clip,
        "--subject",
        "human heart",
        "--json",
    )
    assert out.returncode == 0, out.stderr
    item = json.loads(out.stdout)
    assert sorted(e["name"] for e in item["key"]) == sorted(heart.spec.key_names)
    assert item["pattern"] == "B" and item["subject"] == "human heart"
    assert all(e["anchor"] for e in item["key"])
    with Project.open(tmp_path / "p") as project:
        stored = project.items.get(item["id"])
        assert project.assets.read(stored.question_asset).startswith(b"\x89PNG")
        assert [s.page_count for s in project.sources.all()] == [8]


def test_add_item_says_what_it_stored_in_one_line(tmp_path):
    from labeler.demo import SAMPLE_BOOK
    from labeler.samples.book import layout

    labeler("init", str(tmp_path / "p"))
    out = labeler("add-item", str(tmp_path / "p"), "--pdf", str(SAMPLE_BOOK), "--page", "1")
    assert out.returncode == 0, out.stderr
    (line,) = out.stdout.splitlines()
    assert line.startswith("it-") and "6 labels (vector-text), page 1 clip " in line
    assert set(line.split(" -> ")[1].split(", ")) == set(layout()[0].spec.key_names)


def test_add_item_reports_bad_document_without_traceback(tmp_path):
    labeler("init", str(tmp_path / "p"))
    bad = tmp_path / "broken.pdf"
    bad.write_bytes(b"%PDF-1.7\n garbage that is not a pdf body")
    out = labeler("add-item", str(tmp_path / "p"), "--pdf", str(bad), "--page", "1")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "broken.pdf" in out.stderr


def test_add_item_with_a_bad_curated_key_stores_nothing(tmp_path):
    import pytest

    from labeler.curation import add_item_from_document
    from labeler.demo import SAMPLE_BOOK
    from labeler.errors import LabelerError
    from labeler.samples.book import layout
    from labeler.store import KeyEntry, NewItem, Project

    heart = layout()[0]
    with Project.create(tmp_path / "p") as project:
        with pytest.raises(LabelerError, match="needs a name or a marker"):
            add_item_from_document(
                project,
                SAMPLE_BOOK,
                1,
                heart.clip,
                item=NewItem(key=[KeyEntry("Aorta"), KeyEntry(" ")]),
            )
        assert project.items.list() == [] and project.sources.all() == []
        item = add_item_from_document(
            project, SAMPLE_BOOK, 1, heart.clip, item=NewItem(key=[KeyEntry("Aorta")])
        )
        assert [e.name for e in project.items.key(item.id)] == ["Aorta"]
