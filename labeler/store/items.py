"""Sources, items and answer keys."""

from __future__ import annotations

import builtins
import hashlib
import json
import re
import uuid
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from labeler.errors import EditConflict, LabelerError, SourceMissing
from labeler.store.assets import AssetStore
from labeler.store.clock import now
from labeler.store.database import Connection, Row, transaction
from labeler.store.records import (
    LICENCES,
    PATTERNS,
    STATUSES,
    TIERS,
    Item,
    KeyEntry,
    NewItem,
    Source,
    dumps,
)

EDITABLE_FIELDS = {"subject", "tier", "pattern", "status", "notes"}
MARKER_RE = re.compile(r"[A-Z]")


def file_sha256(path: str | Path) -> str:
    """The sha256 of a file's bytes, read once per version of the file in a process.

    Adding figures from one book (a scan accepts hundreds) asks for the same book's digest
    every time; keyed by size and modification time, a 500 MB book is read once, not per figure.
    """
    st = Path(path).stat()
    return _sha256(str(Path(path).resolve()), st.st_size, st.st_mtime_ns)


@lru_cache(maxsize=64)
def _sha256(path: str, size: int, mtime_ns: int) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class SourceTable:
    """Documents figures were taken from (private provenance)."""

    def __init__(self, db: Connection, assets: AssetStore) -> None:
        self.db = db
        self.assets = assets

    def add(
        self,
        path: str | Path,
        *,
        kind: str,
        page_count: int,
        title: str = "",
        keep_copy: bool = True,
    ) -> Source:
        """Record a document; the same bytes added twice are one source (path refreshed).

        With ``keep_copy`` (and a file no larger than :data:`MAX_SOURCE_COPY`) the project keeps
        a content-addressed copy of the bytes, which :meth:`document_path` opens when the
        original is gone. Adding the project's own copy never replaces the original's path.
        """
        path = Path(path).resolve()
        digest = file_sha256(path)
        known = self.find(digest)
        copy = known.copy_asset if known is not None else None
        if copy is None and keep_copy and path.stat().st_size <= MAX_SOURCE_COPY:
            copy = self.assets.put(path.read_bytes(), path.suffix.lstrip(".").lower() or "bin")
        own_copy = path.is_relative_to(self.assets.root.resolve())
        with transaction(self.db):
            self.db.execute(
                "INSERT INTO sources(path, sha256, kind, page_count, title, added_at, copy_asset) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(sha256) DO UPDATE SET "
                "path = CASE WHEN ? THEN sources.path ELSE excluded.path END, "
                "copy_asset = COALESCE(sources.copy_asset, excluded.copy_asset)",
                (str(path), digest, kind, page_count, title, now(), copy, own_copy),
            )
        row = self.db.execute("SELECT * FROM sources WHERE sha256 = ?", (digest,)).fetchone()
        return _source(row)

    def document_path(self, source: Source) -> Path:
        """The file to open for ``source``: the original while it is there, else the copy.

        The original is preferred so that what the curator sees (and any password they gave,
        remembered per path) stays tied to their file; when it has gone, or is no longer the
        same size as the bytes the items were cut from (edited, replaced), the project's own
        copy is opened instead.
        """
        original = Path(source.path)
        copy = self.assets.path(source.copy_asset) if source.copy_asset else None
        if copy is not None and copy.is_file():
            if original.is_file() and original.stat().st_size == copy.stat().st_size:
                return original
            return copy
        if original.is_file():
            return original
        raise SourceMissing(
            f"the source document {original.name} is not at {original.parent} any more and "
            "the project keeps no copy of it; point the project at it with: "
            "labeler sources relink DIR NEW_PATH"
        )

    def relink(self, path: str | Path) -> Source:
        """Point the source with exactly these bytes at ``path`` (a moved or renamed file)."""
        path = Path(path).resolve()
        digest = file_sha256(path)
        with transaction(self.db):
            found = self.db.execute(
                "UPDATE sources SET path = ? WHERE sha256 = ?", (str(path), digest)
            ).rowcount
        if not found:
            raise LabelerError(
                f"{path.name} is not a source of this project: no source has its bytes "
                f"(sha256 {digest[:12]}…)"
            )
        source = self.find(digest)
        assert source is not None
        return source

    def get(self, source_id: int) -> Source:
        """One source by id."""
        row = self.db.execute("SELECT * FROM sources WHERE id = ?", (source_id,)).fetchone()
        if row is None:
            raise LabelerError(f"no source with id {source_id}")
        return _source(row)

    def find(self, sha256: str) -> Source | None:
        """The source holding exactly these bytes, if the project has it."""
        row = self.db.execute("SELECT * FROM sources WHERE sha256 = ?", (sha256,)).fetchone()
        return _source(row) if row is not None else None

    def all(self) -> list[Source]:
        """Every source, oldest first."""
        return [_source(r) for r in self.db.execute("SELECT * FROM sources ORDER BY id")]

    def set_warning(self, source_id: int, warning: str) -> None:
        """Record (or clear, with ``""``) what is damaged in the source."""
        with transaction(self.db):
            self.db.execute("UPDATE sources SET warning = ? WHERE id = ?", (warning, source_id))

    def set_licence(self, source_id: int, licence: str, attribution: str = "") -> Source:
        """Record under which licence the source's figures may be shared, and its credit line.

        Every licence but public domain and ``not-redistributable`` requires attribution, so
        a CC licence without an attribution line is refused rather than exported uncredited.
        """
        attribution = check_licence(licence, attribution)
        self.get(source_id)  # a clear error for an unknown id
        with transaction(self.db):
            self.db.execute(
                "UPDATE sources SET licence = ?, attribution = ? WHERE id = ?",
                (licence, attribution, source_id),
            )
        return self.get(source_id)


def check_licence(licence: str, attribution: str) -> str:
    """The attribution, stripped, or a LabelerError saying what the licence pair lacks."""
    attribution = attribution.strip()
    if licence not in LICENCES:
        raise LabelerError(f"unknown licence {licence!r}; choose one of {', '.join(LICENCES)}")
    if "\n" in attribution:
        raise LabelerError("the attribution must be one line")
    if licence.startswith("cc-") and not attribution:
        raise LabelerError(
            f"{licence} requires an attribution: give the line to credit, e.g. "
            '--attribution ""Title" by Author, CC BY 4.0, via Wikimedia Commons"'
        )
    return attribution


#: Larger documents are not copied into the project (a 2 GB scan would double the folder).
MAX_SOURCE_COPY = 512 * 1024 * 1024


class ItemTable:
    """Items, their images and their answer keys."""

    def __init__(self, db: Connection, assets: AssetStore) -> None:
        self.db = db
        self.assets = assets

    def add(self, item: NewItem) -> Item:
        """Create an item with its images and key in one transaction."""
        pattern = item.resolved_pattern
        _check_fields({"tier": item.tier, "pattern": pattern, "status": item.status})
        item_id = item.item_id or f"it-{uuid.uuid4().hex[:12]}"
        # Assets first: a crash leaves at most an unreferenced file, never a dangling row.
        q, a, qp = (
            self._put(item.question_png, "png"),
            self._put(item.answer_png, "png"),
            self._put(item.question_pdf, "pdf"),
        )
        stamp = now()
        x0, y0, x1, y1 = item.clip if item.clip else (None, None, None, None)
        with transaction(self.db):
            self.db.execute(
                "INSERT INTO items(id, source_id, page, clip_x0, clip_y0, clip_x1, clip_y1, "
                "subject, tier, pattern, status, notes, dpi, question_asset, answer_asset, "
                "question_pdf_asset, erase_method, erase_edits, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    item_id,
                    item.source_id,
                    item.page,
                    x0,
                    y0,
                    x1,
                    y1,
                    item.subject,
                    item.tier,
                    pattern,
                    item.status,
                    item.notes,
                    item.dpi,
                    q,
                    a,
                    qp,
                    item.erase_method,
                    dumps(item.erase_edits),
                    stamp,
                    stamp,
                ),
            )
            self._write_key(item_id, item.key or ())
        return self.get(item_id)

    def get(self, item_id: str) -> Item:
        """One item by internal id."""
        row = self.db.execute("SELECT * FROM items WHERE id = ?", (item_id,)).fetchone()
        if row is None:
            raise LabelerError(f"no item with id {item_id!r}")
        return _item(row)

    def list(
        self,
        *,
        status: str | None = None,
        tier: str | None = None,
        pattern: str | None = None,
        search: str = "",
    ) -> list[Item]:
        """Items in creation order, optionally filtered."""
        sql, args = "SELECT * FROM items WHERE 1 = 1", []
        for column, value in (("status", status), ("tier", tier), ("pattern", pattern)):
            if value:
                sql += f" AND {column} = ?"
                args.append(value)
        if search:
            sql += " AND (subject LIKE ? OR notes LIKE ? OR id LIKE ?)"
            args += [f"%{search}%"] * 3
        return [_item(r) for r in self.db.execute(sql + " ORDER BY rowid", args)]

    def on_page(self, source_id: int, page: int) -> builtins.list[Item]:
        """Items cut from one page of one source, in creation order."""
        rows = self.db.execute(
            "SELECT * FROM items WHERE source_id = ? AND page = ? ORDER BY rowid", (source_id, page)
        )
        return [_item(r) for r in rows]

    def update(self, item_id: str, *, expected_version: int | None = None, **fields: str) -> Item:
        """Change editable fields (subject, tier, pattern, status, notes).

        With ``expected_version`` (the :attr:`Item.version` the editor read) the write is
        refused with :class:`EditConflict` if anyone changed the item since.
        """
        unknown = set(fields) - EDITABLE_FIELDS
        if unknown:
            raise LabelerError(f"cannot edit item field(s): {', '.join(sorted(unknown))}")
        _check_fields(fields)
        if fields:
            sets = "".join(f"{k} = ?, " for k in fields)
            with transaction(self.db):
                self._write_row(item_id, expected_version, sets, tuple(fields.values()))
        return self.get(item_id)

    def _write_row(
        self, item_id: str, expected: int | None, sets: str = "", values: tuple[Any, ...] = ()
    ) -> None:
        """``UPDATE items SET <sets> version + 1``: the one write every item change makes.

        On PostgreSQL the UPDATE also locks the row until the transaction ends, so two writes
        to one item queue up while writes to other items never wait for each other.
        """
        sql = f"UPDATE items SET {sets}updated_at = ?, version = version + 1 WHERE id = ?"
        args: tuple[Any, ...] = (*values, now(), item_id)
        if expected is not None:
            sql, args = sql + " AND version = ?", (*args, expected)
        if self.db.execute(sql, args).rowcount:
            return
        row = self.db.execute("SELECT version FROM items WHERE id = ?", (item_id,)).fetchone()
        if row is None:
            raise LabelerError(f"no item with id {item_id!r}")
        raise EditConflict(
            f"item {item_id} was changed by someone else while you edited it (you read version "
            f"{expected}, it is now version {row[0]}); your change was not saved: reload the "
            "item and make it again"
        )

    def set_images(
        self,
        item_id: str,
        *,
        question_png: bytes,
        answer_png: bytes,
        question_pdf: bytes | None,
        erase_method: str,
        erase_edits: dict[str, Any],
        expected_version: int | None = None,
    ) -> Item:
        """Replace an item's rendered images after the curator re-erased it."""
        q, a, qp = (
            self._put(question_png, "png"),
            self._put(answer_png, "png"),
            self._put(question_pdf, "pdf"),
        )
        with transaction(self.db):
            self._write_row(
                item_id,
                expected_version,
                "question_asset = ?, answer_asset = ?, question_pdf_asset = ?, "
                "erase_method = ?, erase_edits = ?, ",
                (q, a, qp, erase_method, dumps(erase_edits)),
            )
        return self.get(item_id)

    def set_warning(self, item_id: str, warning: str) -> Item:
        """Record (or clear, with ``""``) what looks damaged in the item's figure."""
        with transaction(self.db):
            self.db.execute(
                "UPDATE items SET warning = ?, version = version + 1 WHERE id = ?",
                (warning, item_id),
            )
        return self.get(item_id)

    def delete(self, item_id: str) -> None:
        """Remove an item with its key and responses."""
        with transaction(self.db):
            self.db.execute("DELETE FROM items WHERE id = ?", (item_id,))

    def key(self, item_id: str) -> builtins.list[KeyEntry]:
        """The item's answer key in order (``builtins``: ``list`` here is the method above)."""
        rows = self.db.execute(
            f"SELECT {_KEY_COLUMNS} FROM key_entries WHERE item_id = ? ORDER BY position",
            (item_id,),
        )
        return [_key_entry(*r) for r in rows]

    def keys(self) -> dict[str, builtins.list[KeyEntry]]:
        """Every item's key at once (one query; for analysis and the review matrix)."""
        out: dict[str, builtins.list[KeyEntry]] = {}
        rows = self.db.execute(
            f"SELECT item_id, {_KEY_COLUMNS} FROM key_entries ORDER BY item_id, position"
        )
        for item_id, *entry in rows:
            out.setdefault(item_id, []).append(_key_entry(*entry))
        return out

    def set_key(
        self, item_id: str, entries: Iterable[KeyEntry], *, expected_version: int | None = None
    ) -> None:
        """Replace the whole key atomically (simple, and trivially undoable).

        The key is part of its item: the write bumps the item's version, and with
        ``expected_version`` a key edited from a stale copy is refused (:class:`EditConflict`).
        """
        with transaction(self.db):
            self._write_row(item_id, expected_version)  # first: it locks the item's row
            self.db.execute("DELETE FROM key_entries WHERE item_id = ?", (item_id,))
            self._write_key(item_id, entries)

    def _write_key(self, item_id: str, entries: Iterable[KeyEntry]) -> None:
        for position, e in enumerate(entries):
            check_marker(e.marker)
            if not e.name.strip() and not e.marker:
                raise LabelerError("a key entry needs a name or a marker")
            alternatives = clean_alternatives(e.name, e.alternatives)
            x0, y0, x1, y1 = e.bbox if e.bbox else (None, None, None, None)
            ax, ay = e.anchor if e.anchor else (None, None)
            self.db.execute(
                "INSERT INTO key_entries(item_id, position, name, x0, y0, x1, y1, anchor_x, "
                "anchor_y, marker, origin, alternatives, note) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    item_id,
                    position,
                    e.name.strip(),
                    x0,
                    y0,
                    x1,
                    y1,
                    ax,
                    ay,
                    e.marker,
                    e.origin,
                    dumps(list(alternatives)),
                    " ".join(e.note.split()),
                ),
            )

    def _put(self, data: bytes | None, ext: str) -> str | None:
        return self.assets.put(data, ext) if data is not None else None


def check_marker(marker: str | None) -> None:
    """Refuse a marker that is not one capital letter A–Z (None: no marker).

    Checked where keys are written, so the GUI, the CLI and every importer share
    the rule: the prompts and the harvester only know letter markers.
    """
    if marker is not None and not (isinstance(marker, str) and MARKER_RE.fullmatch(marker)):
        raise LabelerError(f"a marker is one letter (A, B, C … Z), not {marker!r}")


def clean_alternatives(name: str, alternatives: Iterable[str]) -> tuple[str, ...]:
    """Alternatives as stored: trimmed, blanks and repeats (of each other or the name) dropped.

    An entry without a name cannot have alternatives: they are synonyms *of* the
    name, and a marker-only entry would give them nothing to match.
    """
    if isinstance(alternatives, str):
        raise LabelerError("alternatives are a list of names, not one string")
    seen = {name.strip().casefold()}
    out = []
    for alternative in alternatives:
        if not isinstance(alternative, str):
            raise LabelerError(f"an alternative is a name, not {alternative!r}")
        alternative = " ".join(alternative.split())
        if alternative and alternative.casefold() not in seen:
            seen.add(alternative.casefold())
            out.append(alternative)
    if out and not name.strip():
        raise LabelerError("a key entry with alternatives needs a name; type the name first")
    return tuple(out)


def _check_fields(fields: dict[str, str]) -> None:
    for name, allowed in (("tier", TIERS), ("pattern", PATTERNS), ("status", STATUSES)):
        if name in fields and fields[name] not in allowed:
            raise LabelerError(f"{name} must be one of {', '.join(allowed)}, not {fields[name]!r}")


def _source(row: Row) -> Source:
    return Source(**{k: row[k] for k in row.keys()})  # noqa: SIM118 - sqlite3.Row


def _item(row: Row) -> Item:
    clip = (row["clip_x0"], row["clip_y0"], row["clip_x1"], row["clip_y1"])
    return Item(
        id=row["id"],
        source_id=row["source_id"],
        page=row["page"],
        clip=None if clip[0] is None else clip,
        subject=row["subject"],
        tier=row["tier"],
        pattern=row["pattern"],
        status=row["status"],
        notes=row["notes"],
        dpi=row["dpi"],
        question_asset=row["question_asset"],
        answer_asset=row["answer_asset"],
        question_pdf_asset=row["question_pdf_asset"],
        erase_method=row["erase_method"],
        erase_edits=json.loads(row["erase_edits"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        warning=row["warning"],
        version=row["version"],
    )


#: The columns :func:`_key_entry` takes, in its order (read by position: every item's key
#: is read at once by the views, 25,000 entries at 100k answers, where lookups by name
#: and a JSON parse of each entry's usually empty alternatives were most of the read).
_KEY_COLUMNS = "name, x0, y0, x1, y1, anchor_x, anchor_y, marker, origin, alternatives, note"


def _key_entry(
    name: str,
    x0: float | None,
    y0: float | None,
    x1: float | None,
    y1: float | None,
    anchor_x: float | None,
    anchor_y: float | None,
    marker: str | None,
    origin: str,
    alternatives: str,
    note: str,
) -> KeyEntry:
    return KeyEntry(
        name=name,
        bbox=None if x0 is None else (x0, y0, x1, y1),  # type: ignore[arg-type]
        anchor=None if anchor_x is None else (anchor_x, anchor_y),  # type: ignore[arg-type]
        marker=marker,
        origin=origin,
        alternatives=() if alternatives == "[]" else tuple(json.loads(alternatives)),
        note=note,
    )
