"""An export that carries images: the ``items`` config, in parquet, with ``Image`` features.

``datasets`` picks one builder for every config of a folder (from the first config's
files), so with images both configs are parquet: ``results/`` holds the same rows as
``results.jsonl`` (kept for ``labeler score`` and ``import-results``) and ``items/``
one row per item with its question (erased) and answer (labelled) PNGs. Each parquet
file declares its Hugging Face features in its schema metadata, which is how
``datasets`` knows a ``{bytes, path}`` struct is an ``Image``; pandas reads the same
files as plain columns.

Only items whose source is under a redistributable licence may be carried
(:data:`~labeler.store.records.REDISTRIBUTABLE`); see docs/decisions/0018-image-exports.md.
"""

from __future__ import annotations

import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from labeler.errors import ExportError
from labeler.export.rows import Row, public_number
from labeler.export.schema import ITEMS_PARQUET, RESULT_FIELDS, RESULTS_PARQUET, Field
from labeler.store import Item, Project, Source
from labeler.store.records import REDISTRIBUTABLE

MAX_LISTED = 10

#: The ``items`` config's columns (the full item record stays in items.jsonl).
IMAGE_ITEM_FIELDS: tuple[Field, ...] = (
    Field("item_id", "string", "Public item code (`PREFIX-N`)"),
    Field("subject", "string", "Short factual description of the diagram"),
    Field("tier", "string", "Item tier (`core` or `extended`)"),
    Field("key_names", "list[string]", "Ground-truth names, in key order"),
    Field("question_image", "image", "The figure with its labels erased: what a model is shown"),
    Field("answer_image", "image", "The labelled original: the answer key's picture"),
    Field("licence", "string", "The source's licence, e.g. `cc-by-4.0` or `public-domain`"),
    Field("attribution", "string", "The credit line that licence asks for"),
)


@dataclass(frozen=True)
class Credit:
    """One licence and attribution line the card must show, and how many items it covers."""

    licence: str
    attribution: str
    n_items: int


def redistributable(
    project: Project, items: Sequence[Item], *, skip_unlicensed: bool
) -> tuple[list[Item], int]:
    """The items whose images may be published, and how many were left out.

    An item whose source is not under a redistributable licence (or that has no source or
    no images, e.g. imported from a published file) is refused, all of them listed, unless
    ``skip_unlicensed``.
    """
    sources = {s.id: s for s in project.sources.all()}
    refused = [i for i in items if _refusal(i, sources) is not None]
    if refused and not skip_unlicensed:
        lines = [f"  {i.id}: {_refusal(i, sources)}" for i in refused[:MAX_LISTED]]
        if len(refused) > MAX_LISTED:
            lines.append(f"  … and {len(refused) - MAX_LISTED} more")
        raise ExportError(
            f"{len(refused)} item(s) cannot carry their images:\n"
            + "\n".join(lines)
            + "\nset each source's licence with `labeler sources licence DIR SOURCE_ID "
            '--licence cc-by-4.0 --attribution "..."`, or add --skip-unlicensed to leave '
            "these items out of the export"
        )
    kept = [i for i in items if _refusal(i, sources) is None]
    if not kept:
        raise ExportError(
            "nothing to export with images: no item's source is under a redistributable "
            "licence; set one with `labeler sources licence DIR SOURCE_ID --licence ...`"
        )
    return kept, len(refused)


def _refusal(item: Item, sources: Mapping[int, Source]) -> str | None:
    source = sources.get(item.source_id) if item.source_id is not None else None
    if source is None:
        return "has no source, so no licence"
    if source.licence not in REDISTRIBUTABLE:
        return f"source {source.id} is {source.licence}"
    if item.question_asset is None or item.answer_asset is None:
        return "has no question or answer image"
    return None


def credits(project: Project, items: Sequence[Item]) -> list[Credit]:
    """Every (licence, attribution) pair the exported images fall under, sorted."""
    sources = {s.id: s for s in project.sources.all()}
    counts: dict[tuple[str, str], int] = {}
    for item in items:
        assert item.source_id is not None  # redistributable() kept only sourced items
        source = sources[item.source_id]
        key = (source.licence, source.attribution)
        counts[key] = counts.get(key, 0) + 1
    return [Credit(lic, text, n) for (lic, text), n in sorted(counts.items())]


def image_files(
    project: Project, items: Sequence[Item], public: Mapping[str, str], results: Sequence[Row]
) -> dict[str, bytes]:
    """The two parquet files of an export with images."""
    sources = {s.id: s for s in project.sources.all()}
    keys = project.items.keys()
    rows: list[Row] = []
    for item in items:
        assert item.source_id is not None and item.question_asset and item.answer_asset
        source, pid = sources[item.source_id], public[item.id]
        rows.append(
            {
                "item_id": pid,
                "subject": item.subject,
                "tier": item.tier,
                "key_names": [e.name for e in keys.get(item.id, []) if e.name],
                "question_image": _image(project, item.question_asset, f"{pid}-question.png"),
                "answer_image": _image(project, item.answer_asset, f"{pid}-answer.png"),
                "licence": source.licence,
                "attribution": source.attribution,
            }
        )
    rows.sort(key=lambda r: public_number(r["item_id"]))
    return {
        ITEMS_PARQUET: _parquet(rows, IMAGE_ITEM_FIELDS),
        RESULTS_PARQUET: _parquet(list(results), RESULT_FIELDS),
    }


def _image(project: Project, asset: str, name: str) -> dict[str, Any]:
    return {"bytes": project.assets.read(asset), "path": name}


def _parquet(rows: list[Row], fields: Sequence[Field]) -> bytes:
    """Rows as one parquet file whose metadata declares the Hugging Face features."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema([(f.name, _arrow_type(f.type)) for f in fields])
    features = {f.name: _hf_feature(f.type) for f in fields}
    schema = schema.with_metadata({"huggingface": json.dumps({"info": {"features": features}})})
    table = pa.Table.from_pylist([{f.name: r[f.name] for f in fields} for r in rows], schema)
    out = io.BytesIO()
    pq.write_table(table, out)
    return out.getvalue()


_ARROW = {"string": "string", "float64": "float64", "int64": "int64", "bool": "bool_"}


def _arrow_type(kind: str) -> Any:
    import pyarrow as pa

    if kind == "image":
        return pa.struct([("bytes", pa.binary()), ("path", pa.string())])
    if kind == "list[string]":
        return pa.list_(pa.string())
    return getattr(pa, _ARROW[kind])()


def _hf_feature(kind: str) -> dict[str, Any]:
    if kind == "image":
        return {"_type": "Image"}
    if kind == "list[string]":
        return {"_type": "List", "feature": {"_type": "Value", "dtype": "string"}}
    return {"_type": "Value", "dtype": kind}
