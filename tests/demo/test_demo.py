"""The demo project a fresh install opens: real figures and the sample book, keyed and scored."""

import hashlib
import re

import pytest

from labeler.data import data_file
from labeler.demo import DEMO_CONDITIONS, REAL_FIGURES, build_demo_project
from labeler.results import load_results
from labeler.samples.book import layout
from labeler.slot_results import slot_results
from tests.paths import EXTERNAL_FIGURES

# What each real figure names, from the figures themselves (an anatomist's reading of the
# printed labels), written before the demo was run: the key must hold at least these.
PRINTED = {
    "long bone": {
        "Articular cartilage",
        "Epiphyseal plate",
        "Medullary cavity",
        "Periosteum",
        "Marrow",
        "Blood vessels",
    },
    "cell membrane": {"Cholesterol", "Glycoprotein", "Glycolipid", "Phospholipid bilayer"},
    "animal cell": {
        "Nucleus",
        "Nucleolus",
        "Mitochondria",
        "Golgi apparatus",
        "Lysosome",
        "Centrosome",
        "Ribosomes",
        "Peroxisome",
    },
    "human ear": {
        "Malleus",
        "Incus",
        "Stapes",
        "Cochlea",
        "Tympanic membrane",
        "Auricle",
        "Eustachian tube",
    },
    "tooth": {"Enamel", "Dentin", "Pulp cavity", "Cementum", "Root canal", "Gingiva", "Crown"},
}
LICENSES = data_file("figures/LICENSES.md")


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    project = build_demo_project(tmp_path_factory.mktemp("demo") / "demo")
    yield project
    project.close()


def test_real_figures_come_first_erased_keyed_and_credited(demo):
    items = demo.items.list()
    real = items[: len(REAL_FIGURES)]
    assert [i.subject for i in real] == [f.subject for f in REAL_FIGURES]
    credits = LICENSES.read_text().split("Attribution lines to show")[1].split("SHA-256")[0]
    lines = {line[2:].strip() for line in credits.splitlines() if line.startswith("- ")}
    for item, figure in zip(real, REAL_FIGURES, strict=True):
        names = {e.name for e in demo.items.key(item.id)}
        assert PRINTED[figure.subject] <= names, (figure.subject, PRINTED[figure.subject] - names)
        assert item.status == "ready"
        source = demo.sources.get(item.source_id)
        assert source.licence == figure.licence
        assert source.attribution in lines  # the line LICENSES.md gives, exactly
    methods = {i.subject: i.erase_method for i in real}
    assert methods["long bone"] == "vector-text" and methods["cell membrane"] == "outline"
    assert "ocr" in methods["tooth"] and "ocr" in methods["human ear"]


def test_the_sample_book_is_still_there_and_everything_is_scored(demo):
    items = demo.items.list()
    sample = items[len(REAL_FIGURES) :]
    figures = layout()
    assert [i.subject for i in sample] == [f.spec.subject for f in figures]
    for item, figure in zip(sample, figures, strict=True):
        assert sorted(e.name for e in demo.items.key(item.id)) == sorted(figure.spec.key_names)
        assert item.status == "ready"
    markers = {e.marker: e.name for e in demo.items.key(sample[2].id)}
    assert markers == figures[2].spec.marker_names and sample[2].pattern == "C"
    assert "ocr" in sample[5].erase_method  # the raster plate
    cells = load_results(demo)
    assert len(cells) == len(items) * len(DEMO_CONDITIONS)  # the card's four and both slot ones
    assert len(slot_results(demo)) == len(items) * 2  # every demo item has slots
    assert {c.status for c in cells} == {"ok"}
    assert any(c.f1 > 0 for c in cells)  # cell subjects share words, so the prior scores
    assert len(demo.lexicon.rows()) > 400
    assert all(s.licence != "not-redistributable" for s in demo.sources.all())


def test_the_shipped_figures_are_the_shared_files_with_their_licences_verbatim():
    assert LICENSES.read_bytes() == (EXTERNAL_FIGURES / "LICENSES.md").read_bytes()
    listed = dict(
        (name, digest)
        for digest, name in re.findall(r"^([0-9a-f]{64})  (\S+)$", LICENSES.read_text(), re.M)
    )
    assert {f.file for f in REAL_FIGURES} <= set(listed)
    for name, digest in listed.items():
        assert hashlib.sha256(data_file(f"figures/{name}").read_bytes()).hexdigest() == digest
