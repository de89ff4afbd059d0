"""One export: choose items, number them, build and validate every file, then write.

:func:`check_export` does the same in memory (no numbers stored, nothing written),
so a validation result can be shown before anyone exports.

Numbering, building, validating and writing run in one project transaction:
new public numbers are committed only if the files were written, so a failed
export changes neither the folder nor the project. Scoring happens just before,
outside the write lock.

``results.jsonl`` is streamed: its rows are made, validated, searched for private text,
summarised for the card and written to the staging folder a batch at a time
(:func:`~labeler.export.rows.result_columns`, :mod:`labeler.export.writer`), so an export
never holds every row or the file's bytes (issue #17). A problem found on the way is raised
once the file is written, and the staging folder is dropped: nothing reaches the target.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from labeler.errors import ExportError
from labeler.export.card import DEFAULT_LICENSE, CardInfo, render_card
from labeler.export.card_sections import card_facts
from labeler.export.encode import encode_columns
from labeler.export.ids import assign_public_ids, preview_public_ids, stored_public_ids
from labeler.export.images import credits, image_files, redistributable
from labeler.export.items import item_rows
from labeler.export.rows import (
    PER_ITEM,
    Columns,
    Row,
    card_flags,
    dump_jsonl,
    public_number,
    result_columns,
    rows_of,
)
from labeler.export.schema import (
    AUDIT_FILE,
    CARD_FILE,
    ITEMS_FILE,
    ITEMS_PARQUET,
    PROVENANCE_FILE,
    RESULTS_FILE,
    RESULTS_PARQUET,
    SAMPLE_FILE,
    SAMPLE_ROWS,
)
from labeler.export.settings import decode_settings
from labeler.export.slots import slot_card_section
from labeler.export.summary import ResultsSummary
from labeler.export.validate import LeakCheck, ResultsCheck, validate_items
from labeler.export.writer import Discard, Staging, staged
from labeler.prompts import CONDITIONS, SLOT_CONDITIONS, prompts_used
from labeler.results import CellColumns, cell_columns
from labeler.review import audit_rows
from labeler.scoring.bulk import collector_paused
from labeler.store import Item, Project
from labeler.text.counted import counted

MIN_TITLE_LEN = 12
MIN_ID_LEN = 8


@dataclass(frozen=True)
class ExportReport:
    """What an export wrote (or, from :func:`check_export`, would write), for the CLI and GUI.

    ``folder`` is ``None`` for a check: nothing was written anywhere.
    """

    folder: Path | None
    files: dict[str, int] = field(
        default_factory=dict
    )  # relative path -> rows (or bytes for the card)
    n_items: int = 0
    n_rows: int = 0
    n_models: int = 0
    new_ids: int = 0
    skipped_unanswered: int = 0
    skipped_stale: int = 0  # answered for an older subject or image: re-run them
    private: bool = False
    with_images: bool = False
    skipped_unlicensed: int = 0  # left out by --skip-unlicensed: their source may not be shared


@dataclass(frozen=True)
class ImageOptions:
    """``--with-images``: carry the question and answer images of redistributable items.

    ``skip_unlicensed`` leaves the other items out of the export instead of refusing it.
    """

    skip_unlicensed: bool = False


def default_folder(project: Project) -> Path:
    """``exports/<project-name>/`` under the current folder."""
    return Path("exports") / project.name


def select_items(project: Project, *, only_ready: bool = False) -> list[Item]:
    """Exported items: never ``excluded``; only ``ready`` ones with ``only_ready``."""
    items = [i for i in project.items.list() if i.status != "excluded"]
    return [i for i in items if i.status == "ready"] if only_ready else items


def check_export(
    project: Project,
    *,
    private: bool = False,
    only_ready: bool = False,
    images: ImageOptions | None = None,
    include_slots: bool = False,
) -> ExportReport:
    """Build and validate the export in memory: what it would write, or the ExportError.

    Writes nothing and assigns no public numbers (new items are given the numbers
    an export would give them, :func:`~labeler.export.ids.preview_public_ids`), so
    the GUI can show whether an export will pass before the curator asks for one.
    """
    items, skipped = _exported_items(project, only_ready, images)
    cells = cell_columns(project, [i.id for i in items])
    numbered = stored_public_ids(project)
    public = preview_public_ids(project, [i.id for i in items])
    built = _build(
        project, items, cells, public, private, images is not None, include_slots, Discard()
    )
    return _report(None, built, cells, len(public.keys() - numbered.keys()), skipped)


#: The steps of an export, in order, as :func:`export_project` reports them to ``step``.
#: Stopping (raising) at any of them writes nothing; after ``WRITING`` the export is written.
SCORING, BUILDING, WRITING = "scoring", "building", "writing"
EXPORT_STEPS = (SCORING, BUILDING, WRITING)


def export_project(
    project: Project,
    out: str | os.PathLike[str] | None = None,
    *,
    private: bool = False,
    only_ready: bool = False,
    images: ImageOptions | None = None,
    include_slots: bool = False,
    step: Callable[[str], None] | None = None,
) -> ExportReport:
    """Export the project's items and latest scored responses to ``out``.

    The card's name and license are the project settings ``pretty_name`` (default:
    the project's name) and ``license`` (default ``cc-by-nc-4.0``). The files are
    built and validated as :func:`check_export` does, then written. With ``images``
    the export also carries the items' images (:mod:`labeler.export.images`). Answers under
    the slot conditions are published only with ``include_slots`` (as extra rows with a
    ``slot_accuracy`` field, decision 0022); a plain export is exactly the card's schema.

    ``step`` is told each of :data:`EXPORT_STEPS` as it starts, so a caller can show progress
    and stop the export by raising: up to ``WRITING`` that writes nothing and assigns no
    public numbers (the GUI's Cancel).
    """
    reached = step or (lambda _: None)
    folder = Path(out) if out is not None else default_folder(project)
    items, skipped = _exported_items(project, only_ready, images)
    # scored before the write lock is taken: a run writing answers is not held up by scoring
    reached(SCORING)
    cells = cell_columns(project, [i.id for i in items])
    with project.transaction():
        reached(BUILDING)
        numbered = stored_public_ids(project)
        public = assign_public_ids(project, [i.id for i in items])
        with staged(folder) as staging:  # built into the staging folder, swapped in at the end
            built = _build(
                project, items, cells, public, private, images is not None, include_slots, staging
            )
            reached(WRITING)  # the last point to stop: the transaction rolls the numbers back
    return _report(folder, built, cells, len(public.keys() - numbered.keys()), skipped)


def _exported_items(
    project: Project, only_ready: bool, images: ImageOptions | None
) -> tuple[list[Item], int]:
    """The items to export, and how many ``--skip-unlicensed`` left out."""
    items = select_items(project, only_ready=only_ready)
    if not items:
        which = "ready " if only_ready else ""
        raise ExportError(
            f"nothing to export: the project has no {which}items that are not excluded"
        )
    if images is None:
        return items, 0
    return redistributable(project, items, skip_unlicensed=images.skip_unlicensed)


@dataclass(frozen=True)
class _Built:
    """What an export wrote (or a check would write): sizes, the results' summary, items."""

    sizes: dict[str, int]  # relative path -> bytes
    results: ResultsSummary
    items: list[Row]
    audit_rows: int | None  # None unless --private


@collector_paused()  # a bulk pass over every cell: see labeler.scoring.bulk
def _build(
    project: Project,
    items: list[Item],
    cells: CellColumns,
    public: dict[str, str],
    private: bool,
    with_images: bool,
    include_slots: bool,
    out: Staging,
) -> _Built:
    """Every file of the export, validated, written to ``out`` (ExportError on a problem)."""
    # positions in the columns of the cells that count (labeler.results.answer_counts)
    counted = [k for k, n in enumerate(cells.counts) if n]
    card = [k for k in counted if cells.condition[k] in CONDITIONS]
    flags = card_flags(cells, card)
    slots = None
    section = slot_card_section(_slot_prompts(project)) if include_slots else ""
    if include_slots:  # the slot answers read the same cells (cell_summaries' memo)
        from labeler.slot_results import slot_results  # imports pymupdf: only when asked

        scored = slot_results(project, [i.id for i in items])
        slots = {s.response_id: s.accuracy for s in scored}
        counted = card + [k for k in counted if cells.response_id[k] in slots]
    items_out = item_rows(project, items, cells, card, public, flags)
    # slot answers: the same settings + order
    decode = tuple(decode_settings(project, (cells.response_id[k] for k in card)))
    image_credits = credits(project, items) if with_images else None
    facts = card_facts(project, items, cells.left_out())
    by_id = validate_items(items_out, project.id_prefix)
    shared = {i.source_id for i in items} if with_images else set()
    leaks = LeakCheck(_private_strings(project, shared))
    streamed = _Results(ResultsCheck(by_id, slots is not None), leaks, with_images)
    sizes = {
        RESULTS_FILE: out.write(
            RESULTS_FILE,
            streamed.lines(
                result_columns(cells, counted if include_slots else card, public, flags, slots)
            ),
        )
    }
    streamed.check.done()
    info = CardInfo(
        pretty_name=project.get_meta("pretty_name") or project.name,
        id_prefix=project.id_prefix,
        license=project.get_meta("license") or DEFAULT_LICENSE,
        decode=decode,
        facts=facts,
        slots=section,
        prompts=tuple(prompts_used(project).items()),  # the card's set: the same text
    )
    text = render_card(info, streamed.summary, items_out, sizes[RESULTS_FILE], image_credits)
    files = {
        ITEMS_FILE: dump_jsonl(items_out),
        SAMPLE_FILE: dump_jsonl(streamed.sample),
        CARD_FILE: text.encode("utf-8"),
    }
    if with_images:
        files |= image_files(project, items, public, streamed.kept)
    leaks.rows(ITEMS_FILE, items_out)
    leaks.rows(SAMPLE_FILE, streamed.sample)
    for name in files.keys() - {ITEMS_FILE, SAMPLE_FILE}:
        leaks.text(name, files[name])
    leaks.done()
    audit = None
    if private:
        files[PROVENANCE_FILE] = dump_jsonl(_provenance(project, items, public))
        audit = audit_rows(project, public)  # who decided what, why
        files[AUDIT_FILE] = dump_jsonl(audit)
    sizes |= {name: out.write(name, (data,)) for name, data in files.items()}
    return _Built(sizes, streamed.summary, items_out, None if audit is None else len(audit))


class _Results:
    """results.jsonl on its way to the staging folder: each batch of rows is validated,
    searched for private text and summarised for the card, then written and dropped.

    Only the sample's first rows are kept, and every row only with images (the results
    parquet file is built from them).
    """

    def __init__(self, check: ResultsCheck, leaks: LeakCheck, keep: bool) -> None:
        self.check, self.leaks = check, leaks
        self.summary = ResultsSummary()
        self.sample: list[Row] = []
        self.kept: list[Row] = []
        self._keep = keep

    def lines(self, batches: Iterable[Columns]) -> Iterator[bytes]:
        for columns in batches:  # checked, searched and encoded as columns: no dict per row
            self.check.add_columns(columns)
            self.leaks.columns(RESULTS_FILE, columns)
            self.summary.add_columns(columns)
            wanted = SAMPLE_ROWS - len(self.sample)
            if wanted > 0:
                self.sample += rows_of({n: v[:wanted] for n, v in columns.items()})
            if self._keep:
                self.kept += rows_of(columns)
            yield encode_columns(columns, dict.fromkeys(PER_ITEM, columns["item_id"]))


def _report(
    folder: Path | None, built: _Built, cells: CellColumns, new_ids: int, skipped: int
) -> ExportReport:
    n_rows, n_items = built.results.n_rows, len(built.items)
    private = built.audit_rows is not None
    images = ITEMS_PARQUET in built.sizes
    left_out = cells.left_out()
    return ExportReport(
        folder=folder,
        files={
            RESULTS_FILE: n_rows,
            ITEMS_FILE: n_items,
            SAMPLE_FILE: min(SAMPLE_ROWS, n_rows),
            CARD_FILE: built.sizes[CARD_FILE],
            **(
                {PROVENANCE_FILE: n_items, AUDIT_FILE: built.audit_rows}
                if built.audit_rows is not None
                else {}
            ),
            **({RESULTS_PARQUET: n_rows, ITEMS_PARQUET: n_items} if images else {}),
        },
        n_items=n_items,
        n_rows=n_rows,
        n_models=len(built.results.by_model),
        new_ids=new_ids,
        skipped_unanswered=left_out.unanswered,
        skipped_stale=left_out.stale,
        private=private,
        with_images=images,
        skipped_unlicensed=skipped,
    )


def _slot_prompts(project: Project) -> dict[str, str]:
    """The slot prompts the project asks with (refused if its prompt set has none)."""
    used = prompts_used(project, SLOT_CONDITIONS)
    if not used:
        raise ExportError(
            "--include-slots: the project's prompt set has no slot prompts; add `slots` to it"
        )
    return used


def _private_strings(project: Project, shared: set[int | None]) -> list[str]:
    """Text that must never appear in a public file.

    File names are searched with their extension, stems and titles when distinctive
    (:func:`distinctive`; titles also whenever long), and internal ids only when at least
    8 characters: a bare stem or a one-word title ("biology") is ordinary text that the
    card's own prompts contain. A source in ``shared`` (its images are published, under a
    licence whose attribution names the work) keeps only its path and bytes private.
    """
    out: list[str] = []
    for s in project.sources.all():
        out += [s.path, Path(s.path).name, s.sha256]
        if s.id in shared:
            continue
        out += [t for t in (Path(s.path).stem, s.title) if distinctive(t)]
        if len(s.title) >= MIN_TITLE_LEN:
            out.append(s.title)
    out += [i.id for i in project.items.list() if len(i.id) >= MIN_ID_LEN]
    return out


def distinctive(name: str) -> bool:
    """Whether a file stem or title names one source rather than a subject: at least 8
    characters with a digit (``Atlas-2024``) or of three words or more
    (``Hidden-Publisher-Atlas``); ``anatomy_textbook`` or ``biology`` are ordinary words."""
    words = [w for w in re.split(r"[\W_]+", name) if w]
    return len(name.strip()) >= MIN_ID_LEN and (any(c.isdigit() for c in name) or len(words) >= 3)


def _provenance(project: Project, items: list[Item], public: dict[str, str]) -> list[Row]:
    """The private map back to sources, for the team only (``--private``)."""
    sources = {s.id: s for s in project.sources.all()}
    rows = []
    for item in items:
        source = sources.get(item.source_id) if item.source_id is not None else None
        rows.append(
            {
                "item_id": public[item.id],
                "internal_id": item.id,
                "source_path": source.path if source else None,
                "source_title": source.title if source else None,
                "sha256": source.sha256 if source else None,
                "page": item.page,
                "clip": list(item.clip) if item.clip else None,
            }
        )
    return sorted(rows, key=lambda r: public_number(r["item_id"]))


def report_lines(report: ExportReport) -> list[str]:
    """Human-readable summary of an export, or of a check (``folder`` None: nothing written)."""
    folder = report.folder
    written = folder is not None
    counts = (
        f"{counted(report.n_items, 'item')}, {counted(report.n_rows, 'row')}, "
        f"{counted(report.n_models, 'model')}"
    )
    lines = [f"exported {counts}" if written else f"valid: {counts} (nothing written yet)"]
    lines += [
        f"  {folder / name if folder is not None else name}"
        f"  ({count} {'bytes' if name == CARD_FILE else 'rows'})"
        for name, count in report.files.items()
    ]
    if report.new_ids:
        verb = "got" if written else "will get"
        lines.append(f"  {report.new_ids} item(s) {verb} new public IDs")
    if report.skipped_unanswered:
        lines.append(f"  {report.skipped_unanswered} cell(s) left out: API error, no answer")
    if report.skipped_stale:
        lines.append(
            f"  {report.skipped_stale} cell(s) left out: answered for an older subject or "
            "image; `labeler run` re-sends them"
        )
    if report.skipped_unlicensed:
        lines.append(
            f"  {counted(report.skipped_unlicensed, 'item')} left out: source not under a "
            "redistributable licence (`labeler sources licence` sets one)"
        )
    if report.private:
        lines.append(f"  PRIVATE: {PROVENANCE_FILE} maps public IDs to sources; do not publish")
        lines.append(f"  PRIVATE: {AUDIT_FILE} names the reviewers and their reasons")
    return lines
