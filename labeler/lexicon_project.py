"""The project's global lexicon as a curator works on it: list, add, remove, import, export.

Every lexicon command of the CLI (``labeler lexicon …``) and the GUI's Lexicon view calls
these functions, so both refuse the same rows with the same messages. The rules:

* an edit that would make the lexicon contradict itself (a pair both ``same`` and
  ``distinct``) is refused before anything is written, since every score reads the lexicon;
* everything else the lint (:func:`labeler.lexicon_lint.lint_lexicon`) finds is reported,
  never refused: a curator may mean a chain of synonyms;
* a new project starts with the starter biology lexicon (:func:`create_project`) unless
  the curator opts out, so a correct "eardrum" scores against "tympanic membrane" from the
  first run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from labeler.errors import ConfigError
from labeler.lexicon import Lexicon, LexiconRow, load_starter
from labeler.lexicon_lint import LintIssue, lint_lexicon
from labeler.store import Project
from labeler.text.normalize import normalize
from labeler.text.plurals import name_forms

Row = tuple[str, str, str]


@dataclass(frozen=True)
class ImportPlan:
    """What importing a CSV would do: the new rows, how many were already there, and the lint
    of the merged lexicon (issues the import would bring in, for the curator to read)."""

    rows: tuple[Row, ...]
    already_present: int
    issues: tuple[LintIssue, ...]


def create_project(
    folder: str | Path,
    name: str | None = None,
    id_prefix: str = "ITEM",
    starter: bool = True,
    db_url: str | None = None,
) -> Project:
    """A new project (:meth:`Project.create`, in PostgreSQL with ``db_url``), with the starter
    lexicon unless ``starter`` is False. Returns the open project."""
    project = Project.create(folder, name=name, id_prefix=id_prefix, db_url=db_url)
    if starter:
        add_starter(project)
    return project


def starter_rows() -> list[Row]:
    """The shipped starter biology lexicon as plain rows."""
    return _plain(load_starter().rows())


def add_starter(project: Project) -> int:
    """Merge the starter lexicon into the project's global rows; returns how many were new.

    Into an empty lexicon the rows go straight in: the starter is consistent and lints clean
    (a test says so), and a new project should not wait for a check that cannot fail."""
    if not project.lexicon.rows():
        return project.lexicon.add_many(starter_rows())
    return len(import_rows(project, starter_rows()))


def current(project: Project) -> Lexicon:
    """The project's global lexicon (item-only additions are not part of it)."""
    return Lexicon.from_rows(project.lexicon.rows())


def list_rows(project: Project, search: str = "") -> list[LexiconRow]:
    """The global rows in insertion order; ``search`` keeps rows either of whose names
    contains it (compared as the scorer compares names)."""
    lexicon = current(project)
    return lexicon.search(search) if search else lexicon.rows()


def project_lint(project: Project) -> list[LintIssue]:
    """The lint of the project's global lexicon."""
    return lint_lexicon(current(project))


def add_row(project: Project, canonical: str, synonym: str, relation: str = "same") -> Row:
    """Add one global row; refuses duplicates and rows that contradict the lexicon."""
    edit = current(project).add(canonical, synonym, relation)  # raises: nothing written
    row = (edit.row.canonical, edit.row.synonym, edit.row.relation)
    project.lexicon.add(*row)
    return row


def remove_row(
    project: Project, canonical: str, synonym: str, relation: str | None = None
) -> list[Row]:
    """Remove the global rows that pair ``canonical`` and ``synonym`` (either way round), of
    ``relation`` or of either relation; returns the rows removed. Names are matched as the
    scorer reads them, so ``Z-line`` finds a row written ``Z line``."""

    def pairs(row: Row) -> bool:
        names = (row[0], row[1])
        return relation in (None, row[2]) and any(
            _same_name(x, canonical) and _same_name(y, synonym) for x, y in (names, names[::-1])
        )

    stored = [r for r in project.lexicon.rows() if pairs(r)]
    if not stored:
        what = f" ({relation})" if relation else ""
        raise ConfigError(f"the lexicon has no row {canonical!r} = {synonym!r}{what}")
    with project.transaction():
        for row in stored:
            project.lexicon.remove(*row)
    return stored


def plan_import(project: Project, path: str | os.PathLike[str]) -> ImportPlan:
    """Read a ``canonical,synonym,relation`` CSV against the project lexicon, writing nothing.

    Raises ``ConfigError`` naming the rows when the merged lexicon would contradict itself;
    other lint issues that the file would add are in the plan.
    """
    incoming = _plain(Lexicon.from_csv(path).rows())
    return _plan(project, incoming, Path(path).name)


def import_csv(project: Project, path: str | os.PathLike[str]) -> ImportPlan:
    """Merge a CSV into the project's global lexicon (one transaction); returns the plan done."""
    plan = plan_import(project, path)
    project.lexicon.add_many(plan.rows)
    return plan


def import_rows(project: Project, rows: list[Row]) -> list[Row]:
    """Merge plain rows (checked like an import); returns the rows that were new."""
    plan = _plan(project, rows, "the rows")
    project.lexicon.add_many(plan.rows)
    return list(plan.rows)


def export_csv(project: Project, path: str | os.PathLike[str]) -> int:
    """Write the project's global lexicon to a CSV atomically; returns the number of rows."""
    lexicon = current(project)
    lexicon.to_csv(path)
    return len(lexicon)


def _plan(project: Project, incoming: list[Row], what: str) -> ImportPlan:
    existing = current(project)
    before = {_issue_key(i) for i in lint_lexicon(existing)}
    rows = Lexicon.from_rows(incoming).rows()
    contradictions = [
        i for i in lint_lexicon([*existing.rows(), *rows]) if i.kind == "contradiction"
    ]
    if contradictions:
        listed = "; ".join(i.message for i in contradictions[:5])
        more = f" (and {len(contradictions) - 5} more)" if len(contradictions) > 5 else ""
        raise ConfigError(f"{what} would contradict the project lexicon: {listed}{more}")
    merged = existing.merge(rows)
    new = _plain(merged.rows()[len(existing) :])
    issues = tuple(i for i in lint_lexicon(merged) if _issue_key(i) not in before)
    return ImportPlan(tuple(new), len(incoming) - len(new), issues)


def _issue_key(issue: LintIssue) -> tuple[str, str, tuple[LexiconRow, ...]]:
    return (issue.kind, issue.surface, issue.rows)


def _same_name(a: str, b: str) -> bool:
    return not name_forms(normalize(a)).isdisjoint(name_forms(normalize(b)))


def _plain(rows: list[LexiconRow]) -> list[Row]:
    return [(r.canonical, r.synonym, r.relation) for r in rows]
