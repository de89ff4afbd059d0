"""The shuffled-key control measures the scorer, not how much vocabulary items share.

The offline baseline (``baseline/subject-prior``) answers each item with names
from the *other* items' keys, so scored against another item's key it earns
real credit: "nucleus" is right about every cell diagram whose key has a
nucleus. That is overlap between keys (a property of the dataset), and the
control reports it separately; the control itself is what the scorer credits
beyond it, which is near zero for a sound scorer and not for one whose rules
join different parts.
"""

from __future__ import annotations

import pymupdf
import pytest

from labeler import analysis
from labeler.lexicon import Lexicon
from labeler.prompts import CONDITIONS
from labeler.providers.config import baseline_model
from labeler.results import counted_results, project_lexicon, results_frame
from labeler.runs.runner import RunRequest, run
from labeler.store import KeyEntry, NewItem, Project

# Six textbook figures; the cell diagrams share generic parts, as real ones do.
CORPUS = {
    "animal cell": ["nucleus", "cell membrane", "cytoplasm", "mitochondrion", "ribosome"],
    "plant cell": ["nucleus", "cell wall", "chloroplast", "vacuole", "cell membrane", "cytoplasm"],
    "bacterial cell": ["cell wall", "cytoplasm", "ribosome", "flagellum", "cell membrane"],
    "human heart": ["aorta", "left atrium", "right atrium", "left ventricle", "right ventricle"],
    "motor neuron": ["nucleus", "axon", "dendrite", "myelin sheath", "cell membrane"],
    "leaf cross section": ["chloroplast", "stoma", "xylem", "phloem", "cuticle"],
}

# Rows a careless import could bring in: each joins two different parts.
WRONG_ROWS = [
    ("aorta", "nucleus", "same"),
    ("left atrium", "cytoplasm", "same"),
    ("right atrium", "cell membrane", "same"),
    ("xylem", "cell wall", "same"),
    ("axon", "chloroplast", "same"),
    ("stoma", "ribosome", "same"),
    ("dendrite", "vacuole", "same"),
]


def blank_png() -> bytes:
    pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 32, 24), False)
    pix.clear_with(255)
    return pix.tobytes("png")


@pytest.fixture(scope="module")
def baseline_frame(tmp_path_factory):
    """The baseline run for real on a real project; its counted cells as a results frame."""
    folder = tmp_path_factory.mktemp("shuffle") / "p"
    with Project.create(folder, name="shuffle") as project:
        for subject, names in CORPUS.items():
            project.items.add(
                NewItem(subject=subject, question_png=blank_png(), key=[KeyEntry(n) for n in names])
            )
        summary = run(project, RunRequest([baseline_model()], CONDITIONS))
        assert summary.sent == len(CORPUS) * len(CONDITIONS)
        frame = results_frame(counted_results(project))
        lexicon = project_lexicon(project)
    return frame, lexicon


def test_the_baseline_shares_vocabulary_with_other_keys_but_earns_no_excess(baseline_frame):
    frame, lexicon = baseline_frame
    excess, overlap = analysis.shuffled_key_scores(frame, lexicon, seed=0)
    model = "baseline/subject-prior"
    # blind: the most common names of the other items, so other keys share them
    assert overlap.loc[model, "blind"] > 10
    for condition in CONDITIONS:
        assert abs(excess.loc[model, condition]) < 1.0, condition
    assert analysis.shuffled_key_control(frame, lexicon).equals(excess)


def test_a_lexicon_that_joins_different_parts_shows_up_as_excess(baseline_frame):
    frame, _ = baseline_frame
    lenient = Lexicon.from_rows(WRONG_ROWS)
    excess, overlap = analysis.shuffled_key_scores(frame, lenient, seed=0)
    _, plain_overlap = analysis.shuffled_key_scores(frame, None, seed=0)
    assert overlap.equals(plain_overlap), "overlap does not depend on the scorer"
    assert float(excess.max().max()) > 5


def test_audits_report_both_and_render_them(baseline_frame):
    frame, lexicon = baseline_frame
    audit = analysis.audits(frame, lexicon)
    model = "baseline/subject-prior"
    assert audit["shuffled_key_overlap"][model]["blind"] > 10
    assert abs(audit["shuffled_key_control"][model]["blind"]) < 1.0
    text = analysis.render_markdown(analysis.results_table(frame), audit)
    assert "Shared vocabulary — literal-name F1" in text
    assert "-0.0%" not in text


def test_literal_f1_ignores_case_and_spacing_only():
    assert analysis.literal_f1(["Cell  Membrane"], ["cell membrane"]) == 1.0
    assert analysis.literal_f1(["cell membranes"], ["cell membrane"]) == 0.0
    assert analysis.literal_f1(["aorta", "vein"], ["aorta"]) == pytest.approx(2 / 3)
    assert analysis.literal_f1([], ["aorta"]) == 0.0
