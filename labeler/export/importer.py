"""Published files back into a project, for review and re-scoring in the GUI.

Two steps, each one transaction (a bad file imports nothing):

* :func:`import_items` creates items from an ``items.jsonl``: subject, tier,
  pattern, the key (names, marker letters, alternatives and notes) and, as
  per-item lexicon rows, the other ``lexicon`` rows the publisher scored the
  item with. Each item keeps
  its public ID, so the project must use the same ID prefix. Items whose
  public ID the project already has are left alone.
* :func:`import_results` attaches ``results.jsonl`` rows to items by public ID
  as responses with origin ``import`` (the predicted names become the answer's
  labels). Rows naming items the project does not have are reported; they are
  refused unless the caller asks to skip them.

A published export imported into a fresh project this way exports again to
identical files.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from labeler.errors import LabelerError
from labeler.export.ids import internal_ids_by_public, parse_public_id, set_public_number
from labeler.export.untrusted import check_rows
from labeler.export.validate import READING, validate_items, validate_results
from labeler.results import key_names, project_lexicon
from labeler.scoring import score_names
from labeler.scoring.rescore import read_results
from labeler.status import ResponseStatus
from labeler.store import KeyEntry, NewItem, NewResponse, Project
from labeler.store.records import alternative_rows

MAX_LISTED = 10
IMPORT_NOTE = "imported from a published items.jsonl"


@dataclass(frozen=True)
class ItemsImport:
    """What :func:`import_items` did."""

    created: list[str] = field(default_factory=list)  # public ids
    already_present: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ResultsImport:
    """What :func:`import_results` did."""

    imported: int = 0
    unchanged: int = 0
    unknown_items: list[str] = field(default_factory=list)  # public ids, sorted
    skipped_rows: int = 0
    key_differs: list[str] = field(default_factory=list)  # public ids
    score_differs: int = 0  # rows whose published F1 differs from this project's score


def listed(ids: list[str]) -> str:
    """At most the first few ids, then how many more."""
    more = len(ids) - MAX_LISTED
    return ", ".join(ids[:MAX_LISTED]) + (f" and {more} more" if more > 0 else "")


def _check_prefix(project: Project, rows: list[dict[str, Any]], path: Path) -> None:
    prefixes = Counter(
        str(r.get("item_id", "")).rpartition("-")[0] for r in rows if isinstance(r, dict)
    )
    foreign = sorted(p for p in prefixes if p != project.id_prefix)
    if foreign:
        raise LabelerError(
            f"{path} uses public IDs {foreign[0]}-N but this project numbers items "
            f"{project.id_prefix}-N; import into a project created with "
            f"`labeler init DIR --id-prefix {foreign[0]}`"
        )


def key_entries(
    key: list[str],
    markers: dict[str, str | None] | None,
    alternatives: dict[str, list[str]] | None = None,
    notes: dict[str, str] | None = None,
) -> list[KeyEntry]:
    """A key from published names, marker letters, alternatives and notes (unnamed markers last)."""
    letters: dict[str, list[str]] = {}
    for letter, name in (markers or {}).items():
        if name is not None:
            letters.setdefault(name, []).append(letter)
    alternatives, notes = alternatives or {}, notes or {}
    entries = [
        KeyEntry(
            n,
            marker=letters[n].pop(0) if letters.get(n) else None,
            alternatives=tuple(alternatives.get(n, ())),
            note=notes.get(n, ""),
        )
        for n in key
    ]
    entries += [KeyEntry("", marker=m) for m, n in (markers or {}).items() if n is None]
    return entries


def with_key_text(row: Any) -> Any:
    """A row from before ``alternatives`` and ``key_notes`` existed, with them empty.

    Exports made before key entries had alternatives and notes stay importable;
    any other shape is left for the validator to report.
    """
    if not isinstance(row, dict) or "alternatives" in row or "key_notes" in row:
        return row
    if not isinstance(row.get("key_names"), list) or list(row).count("synonyms") != 1:
        return row
    out: dict[str, Any] = {}
    for name, value in row.items():
        out[name] = value
        if name == "synonyms":
            names = [n for n in row["key_names"] if isinstance(n, str)]
            out["alternatives"] = {n: [] for n in names}
            out["key_notes"] = {n: "" for n in names}
    return out


def import_items(project: Project, path: str | os.PathLike[str]) -> ItemsImport:
    """Create the items of a published ``items.jsonl`` (see the module docstring)."""
    path = Path(path)
    published = read_results(path)
    check_rows(published, path)
    rows = [with_key_text(row) for row in published]
    _check_prefix(project, rows, path)
    validate_items(rows, project.id_prefix, READING)
    known = internal_ids_by_public(project)
    created, present = [], []
    with project.transaction():
        for row in rows:
            public = row["item_id"]
            if public in known:
                present.append(public)
                continue
            key = key_entries(
                row["key_names"], row["markers"], row["alternatives"], row["key_notes"]
            )
            item = project.items.add(
                NewItem(
                    subject=row["subject"],
                    tier=row["tier"],
                    pattern=row["pattern"],
                    status="ready",
                    notes=IMPORT_NOTE,
                    key=key,
                )
            )
            set_public_number(project, item.id, parse_public_id(project.id_prefix, public))
            printed = set(alternative_rows(key))  # the key's own rows: kept as alternatives
            for canonical, synonym, relation in row["lexicon"]:
                if (canonical, synonym, relation) not in printed:
                    project.lexicon.add(canonical, synonym, relation, item_id=item.id)
            created.append(public)
    return ItemsImport(created=created, already_present=present)


def import_results(
    project: Project, path: str | os.PathLike[str], *, skip_unknown: bool = False
) -> ResultsImport:
    """Attach a published ``results.jsonl`` to this project's items (see the module docstring)."""
    path = Path(path)
    published = read_results(path)
    check_rows(published, path)
    _check_prefix(project, published, path)
    validate_results(published, None, READING)
    by_public = internal_ids_by_public(project)
    unknown = sorted({r["item_id"] for r in published} - set(by_public), key=_number)
    if unknown and not skip_unknown:
        raise LabelerError(
            f"{path} has results for {len(unknown)} item(s) this project does not have: "
            f"{listed(unknown)}; import their items first (`labeler import-items`) "
            "or pass --skip-unknown to import the rest"
        )
    rows = [r for r in published if r["item_id"] in by_public]
    wanted = {by_public[r["item_id"]] for r in rows}
    latest = {
        (r.item_id, r.model, r.condition): r for r in project.responses.latest(item_ids=wanted)
    }
    keys = project.items.keys()
    imported = unchanged = score_differs = 0
    key_differs: set[str] = set()
    with project.transaction():
        for row in rows:
            internal = by_public[row["item_id"]]
            names = list(key_names(keys.get(internal, ())))
            if names != row["key_names"]:
                key_differs.add(row["item_id"])
            score = score_names(row["predicted_names"], names, project_lexicon(project, internal))
            score_differs += score.f1 != row["f1"]
            previous = latest.get((internal, row["model"], row["condition"]))
            if (
                previous is not None
                and previous.predicted_names == row["predicted_names"]
                and previous.parse_ok == row["parse_ok"]
            ):
                unchanged += 1
                continue
            project.responses.record(_response(internal, row))
            imported += 1
    return ResultsImport(
        imported=imported,
        unchanged=unchanged,
        unknown_items=unknown,
        skipped_rows=len(published) - len(rows),
        key_differs=sorted(key_differs, key=_number),
        score_differs=score_differs,
    )


def _response(item_id: str, row: dict[str, Any]) -> NewResponse:
    names = row["predicted_names"]
    digest = hashlib.sha256(
        "\x1f".join(["import", row["item_id"], row["model"], row["condition"], *names]).encode()
    ).hexdigest()
    return NewResponse(
        item_id=item_id,
        model=row["model"],
        condition=row["condition"],
        request_hash=digest,
        status=ResponseStatus.OK if row["parse_ok"] else ResponseStatus.PARSE_ERROR,
        labels=[{"name": n} for n in names],
        parse_ok=row["parse_ok"],
        origin="import",
    )


def _number(public_id: str) -> tuple[int, str]:
    head, _, tail = public_id.rpartition("-")
    return (int(tail), head) if tail.isdigit() else (0, public_id)
