"""`labeler export --with-images` on the real, openly licensed figures of ../shared.

Licences and attribution lines are those of ../shared/external-figures/LICENSES.md; the
figures are added the way a curator adds them (SVG as vector pages, JPEG/PNG as images).
"""

from __future__ import annotations

import io
import json

import pandas as pd
import pymupdf
import pytest
from PIL import Image

from labeler.curation import add_item_from_document
from labeler.errors import ExportError
from labeler.export.exporter import ImageOptions, export_project
from labeler.export.schema import ITEMS_PARQUET, RESULTS_PARQUET
from labeler.store import NewItem, Project
from tests.cli.test_cli import labeler
from tests.export.export_fixtures import answer
from tests.paths import EXTERNAL_FIGURES

BONE = '"Bone cross-section" by Pbroks13, CC BY 3.0, via Wikimedia Commons.'
MEMBRANE = '"Cell membrane detailed diagram" by Mariana Ruiz (LadyofHats), public domain.'
OPENSTAX = (
    "Figures from OpenStax, *Anatomy and Physiology 2e* (Rice University), CC BY 4.0, openstax.org."
)
GRAY = "Gray's Anatomy plate 329, H. V. Carter, public domain."
#: file, licence, attribution, subject (licences from LICENSES.md, read before the code ran)
FIGURES = (
    ("bone-cross-section.svg", "cc-by-3.0", BONE, "long bone, sectioned"),
    ("cell-membrane-components.svg", "public-domain", MEMBRANE, "cell membrane"),
    ("openstax-ap2e-2409_Tooth.jpg", "cc-by-4.0", OPENSTAX, "human tooth"),
    ("elbow-joint-gray329.png", "public-domain", GRAY, "elbow joint"),
)


def _unlicensed_pdf(path):
    doc = pymupdf.open()
    page = doc.new_page()
    page.draw_circle((200, 300), 80)
    page.insert_text((300, 300), "Left atrium", fontsize=10)
    doc.save(path)
    return path


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A project of the four licensed figures and one figure nobody licensed, with answers."""
    root = tmp_path_factory.mktemp("images")
    project = Project.create(root / "proj", name="Open figures", id_prefix="open")
    ids = {}
    for name, licence, credit, subject in FIGURES:
        item = add_item_from_document(
            project, EXTERNAL_FIGURES / name, 1, item=NewItem(subject=subject, dpi=72)
        )
        assert item.source_id is not None
        project.sources.set_licence(item.source_id, licence, credit)
        ids[name] = item.id
    private = add_item_from_document(
        project, _unlicensed_pdf(root / "in-house-atlas.pdf"), 1, item=NewItem(subject="heart")
    )
    for item_id in [*ids.values(), private.id]:
        answer(project, item_id, "openai/gpt-4o", "told", ["Marrow", "Enamel"])
    project.close()
    return root, ids, private.id


def _load(folder, tmp_path, config=None):
    import datasets

    cache = tmp_path / "hf" / (config or "default")
    return datasets.load_dataset(str(folder), config, cache_dir=str(cache))["train"]


def test_images_of_unlicensed_sources_are_refused_with_the_list(built, tmp_path):
    root, _ids, private_id = built
    with Project.open(root / "proj") as project, pytest.raises(ExportError) as refused:
        export_project(project, tmp_path / "out", images=ImageOptions())
    message = str(refused.value)
    assert "1 item(s) cannot carry their images" in message
    assert f"{private_id}: source 5 is not-redistributable" in message
    assert "--skip-unlicensed" in message and not (tmp_path / "out").exists()
    out = labeler("export", str(root / "proj"), "--out", str(tmp_path / "cli"), "--with-images")
    assert out.returncode != 0 and private_id in out.stderr and "Traceback" not in out.stderr


def test_with_images_both_configs_load_and_the_card_credits_every_licence(built, tmp_path):
    root, ids, private_id = built
    folder = tmp_path / "out"
    out = labeler(
        "export", str(root / "proj"), "--out", str(folder), "--with-images", "--skip-unlicensed"
    )
    assert out.returncode == 0, out.stderr
    assert "1 item left out: source not under a redistributable licence" in out.stdout

    items = _load(folder, tmp_path, "items")
    assert items.num_rows == 4
    import datasets

    assert items.features["question_image"] == datasets.Image()
    assert items.features["answer_image"] == datasets.Image()
    with Project.open(root / "proj") as project:
        originals = {
            project.items.get(i).subject: project.assets.read(project.items.get(i).answer_asset)
            for i in ids.values()
        }
    for row in items:
        question, answer_image = row["question_image"], row["answer_image"]
        assert question.size == answer_image.size and min(question.size) > 50
        buffer = io.BytesIO()
        answer_image.save(buffer, "PNG")
        original = Image.open(io.BytesIO(originals[row["subject"]]))
        assert answer_image.tobytes() == original.convert(answer_image.mode).tobytes()
    by_subject = {r["subject"]: (r["licence"], r["attribution"]) for r in items}
    assert by_subject == {s: (lic, credit) for _f, lic, credit, s in FIGURES}

    results = _load(folder, tmp_path)
    jsonl = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]
    assert results.num_rows == 4 and [dict(r) for r in results] == jsonl

    frame = pd.read_parquet(folder / ITEMS_PARQUET)
    assert sorted(frame["subject"]) == sorted(s for *_, s in FIGURES)
    first = frame.iloc[0]["question_image"]
    assert Image.open(io.BytesIO(first["bytes"])).format == "PNG"
    assert first["path"] == f"{frame.iloc[0]['item_id']}-question.png"
    assert len(pd.read_parquet(folder / RESULTS_PARQUET)) == 4

    card = (folder / "README.md").read_text()
    for credit in (BONE, MEMBRANE, OPENSTAX.replace("|", "\\|"), GRAY):
        assert credit in card
    assert "| `cc-by-3.0` |" in card and "| `public-domain` |" in card
    assert "config_name: items" in card and "Source images are not" not in card
    everything = b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file())
    assert private_id.encode() not in everything and b"in-house-atlas" not in everything


def test_a_plain_export_stays_without_images(built, tmp_path):
    root, *_ = built
    with Project.open(root / "proj") as project:
        report = export_project(project, tmp_path / "plain")
    files = sorted(str(p.relative_to(tmp_path / "plain")) for p in (tmp_path / "plain").rglob("*"))
    assert files == ["README.md", "items.jsonl", "results.jsonl", "sample", "sample/results.jsonl"]
    assert report.n_items == 5 and not report.with_images
    card = (tmp_path / "plain" / "README.md").read_text()
    assert "Source images are not\ndistributed" in card and "path: items.jsonl" in card
