"""The card's results table is ``labeler report``'s, and the export never imports pandas."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from labeler.store import KeyEntry, NewItem, Project
from tests.export.export_fixtures import answer

ROOT = Path(__file__).resolve().parents[2]
KEY = ["aorta", "left atrium", "right ventricle"]
#: model -> condition -> the names it gives on items I0..I3 (F1 against KEY: 1, .8, .5, 0)
ANSWERS = {
    "lab/alpha": {
        "told": [KEY, KEY[:2], ["aorta"], ["spleen"]],
        "no-image": [KEY[:2], ["aorta"], ["spleen"], []],
        "blind": [KEY, KEY, KEY[:2], ["aorta"]],
    },
    "lab/beta": {  # the same told scores as alpha (a tie: by name), no no-image at all
        "told": [["aorta"], KEY[:2], KEY, ["spleen"]],
        "desc": [KEY, ["aorta"]],
    },
    "lab/gamma": {
        "told": [KEY, KEY, KEY[:2]],
        "no-image": [None, KEY, ["aorta"], KEY],  # I0 unanswered: I1, I2 pair
    },
}


def run(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=180
    )
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> tuple[Path, Path, str]:
    """A project, its export, and the ``-X importtime`` log of the export command."""
    folder = tmp_path_factory.mktemp("card") / "p"
    with Project.create(folder, name="hearts", id_prefix="HRT") as project:
        for i in range(4):
            key = [KeyEntry(name) for name in KEY]
            project.items.add(NewItem(item_id=f"I{i}", subject="heart", key=key))
        for model, by_condition in ANSWERS.items():
            for condition, answers in by_condition.items():
                for i, names in enumerate(answers):
                    if names is not None:
                        answer(project, f"I{i}", model, condition, names)
    out = folder.parent / "out"
    log = run("-X", "importtime", "-m", "labeler", "export", str(folder), "--out", str(out))
    return folder, out, log.stderr


def table_lines(text: str) -> list[str]:
    lines = text.splitlines()
    start = lines.index("| Model | blind | told | desc | no-image | grounded | recited |")
    end = next(k for k in range(start, len(lines)) if not lines[k].startswith("|"))
    return lines[start:end]


def test_the_export_imports_no_pandas(exported):
    _, out, log = exported
    imported = {line.rsplit("|", 1)[1].strip() for line in log.splitlines() if "|" in line}
    assert "labeler.export.card" in imported  # the log is the export's own
    assert not {name for name in imported if name.split(".")[0] == "pandas"}
    assert (out / "README.md").is_file()


def test_the_card_shows_the_reports_table_for_the_project_and_its_export(exported):
    folder, out, _ = exported
    card = table_lines((out / "README.md").read_text(encoding="utf-8"))
    assert card[2:] == [
        "| lab/gamma | — | 93.3% | — | 83.3% | +15.0 | 83% |",
        "| lab/alpha | 82.5% | 57.5% | — | 32.5% | +25.0 | 57% |",
        "| lab/beta | — | 57.5% | 75.0% | — | — | — |",
    ]
    for target in (folder, out / "results.jsonl"):
        report = run("-m", "labeler", "report", str(target)).stdout
        assert table_lines(report) == card
        data = json.loads(run("-m", "labeler", "report", str(target), "--format", "json").stdout)
        shown = [(m["model"], m["told"], m["recited"]) for m in data["models"]]
        assert shown == [
            ("lab/gamma", 93.333, 83.333),
            ("lab/alpha", 57.5, 56.522),
            ("lab/beta", 57.5, None),
        ]
