"""Names in an answer written as text instead of JSON: markdown lists, tables, marker lines.

Local models and chatty providers often ignore "Output ONLY valid JSON" and write
``1. **Aorta** – top centre``, ``- B: Pulmonary artery``, a markdown table, or
``Labels: cortex, medulla and pelvis``. A grader reads the names in all of these, so the
parser must too. What counts as structure and what as text follows one boundary, agreed with
``labeler/scoring``: markdown list syntax (``-``, ``*``, ``+``, ``•``, ``1.``, ``1)``) and
emphasis are structure and go; a marker written with the name (``B: …``, ``(C) …``,
``Label 4: …``) is text and stays, because the scorer strips it and marker accuracy reads it.
A description after a spaced dash, a colon or in trailing brackets is the location hint.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_BULLET = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+(?P<rest>.*)$")
_MARKER_LINE = re.compile(
    r"^\s*(?:\(?(?-i:[A-Z])\d?\)|(?-i:[A-Z])\d?(?:\s*:|\.|\s+[-–—])|"
    r"(?:label|marker|arrow|structure|part)(?:\s+\w{1,3}|\s*\d{1,3})\s*[:.)\-])\s*\S",
    re.I,
)
#: A marker written before a name, with its separator: ``B: ``, ``(C) ``, ``E) ``, ``A - ``,
#: ``D. ``, ``Label 4: ``. It is text the scorer reads, so it stays with the name.
_MARKER_PREFIX = re.compile(
    r"^\s*(?:\([A-Za-z]\d?\)\s*|(?:(?:label|marker|arrow|structure|part)(?:\s+\w{1,3}|\s*\d{1,3})"
    r"|[A-Za-z]\d?)(?:\s*[:)]|\.|\s+[-–—])\s+)",
    re.I,
)
_EMPHASIS = re.compile(r"\*\*|__|`")
_LIST_LINE = re.compile(r"^\s*(?:labels?|parts|structures|names|terms)\s*:\s*(?P<items>.+)$", re.I)
_DIAGRAM_LINE = re.compile(r"^\s*(?:diagram(?:_is| is)?|subject)\s*:\s*(?P<what>.+)$", re.I)
_DASH = re.compile(r"\s+[-–—]\s+")
_TRAILING_BRACKET = re.compile(r"^(?P<name>.*?\S)\s*\[(?P<hint>[^\[\]]*)\]\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}")
_SPLIT_ITEMS = re.compile(r"\s*[,;]\s*(?:and\s+)?|\s+and\s+")
_NAME_HEADERS = re.compile(r"^(?:structure|name|part|term|answer|label name|identified)", re.I)
_MARKER_HEADERS = re.compile(r"^(?:label|marker|letter|#|no\.?|number|arrow)$", re.I)
_HINT_HEADERS = re.compile(r"^(?:location|position|where|hint|location hint)", re.I)
#: Words a list line can start with that introduce prose, not a part.
_NOT_NAMES = frozenset({"note", "notes", "diagram", "labels", "summary", "answer", "caveat"})
#: Lines read at most: a real answer has tens, a looping model thousands.
MAX_LINES = 5_000
#: A list entry longer than this is a paragraph, and is not searched for a name at all.
MAX_LINE_CHARS = 1_000
#: A list line longer than this is a sentence, not a name.
MAX_NAME_WORDS = 10


@dataclass(frozen=True)
class TextLabel:
    """A name read from a text line; ``marker`` only when a table column gives it."""

    name: str
    location_hint: str = ""
    marker: str = ""


@dataclass(frozen=True)
class TextAnswer:
    """What the lines say: the diagram, the names, and how they were written."""

    diagram_is: str | None
    labels: list[TextLabel]
    form: str  # "markdown list", "table", "marker lines", "labels line", or "" when none
    capped: bool = False  # only the first MAX_LINES lines were read


def read_lines(text: str, truncated: bool) -> TextAnswer:
    """The names a person reads in ``text``'s lines; with ``truncated`` a cut last line goes."""
    lines = text.split("\n", MAX_LINES)
    capped = len(lines) > MAX_LINES
    if capped:
        lines = lines[:MAX_LINES]
    elif truncated and not text.endswith("\n"):
        lines = lines[:-1]  # the line the output limit cut through
    diagram_is = next((m.group("what").strip() for m in map(_DIAGRAM_LINE.match, lines) if m), None)
    for form, reader in (
        ("table", _table),
        ("markdown list", _bullets),
        ("marker lines", _marker_lines),
        ("labels line", _labels_line),
    ):
        labels = reader(lines)
        if labels:
            return TextAnswer(diagram_is, labels, form, capped)
    return TextAnswer(diagram_is, [], "", capped)


def _bullets(lines: list[str]) -> list[TextLabel]:
    found = (_BULLET.match(line) for line in lines)
    return _labels(m.group("rest") for m in found if m)


def _marker_lines(lines: list[str]) -> list[TextLabel]:
    return _labels(line for line in lines if _MARKER_LINE.match(line))


def _labels(texts: Iterable[str]) -> list[TextLabel]:
    labels = [_label(text) for text in texts]
    return [label for label in labels if label is not None]


def _label(text: str) -> TextLabel | None:
    """One list entry: marker kept with the name, the description split off as the hint."""
    if len(text) > MAX_LINE_CHARS:
        return None  # a paragraph or a flood, not a name and its hint
    text = _EMPHASIS.sub("", text).strip()
    marker, body = _split_marker(text)
    hint = ""
    bracket = _TRAILING_BRACKET.match(body)
    if bracket:
        body, hint = bracket.group("name"), bracket.group("hint").strip()
    dash = _DASH.search(body)
    head, sep, tail = body.partition(": ")
    if dash and (not sep or dash.start() < len(head)):
        body, hint = body[: dash.start()], body[dash.end() :].strip()
    elif sep:
        body, hint = head, tail.strip()
    name = (marker + body).strip().rstrip(":").strip()
    if (
        not body.strip()
        or text.endswith(":")
        or len(name.split()) > MAX_NAME_WORDS
        or name.casefold() in _NOT_NAMES
    ):
        return None  # a heading ("Chambers:") or a sentence
    return TextLabel(name, hint)


def _split_marker(text: str) -> tuple[str, str]:
    """``("B: ", "Pulmonary artery")`` for ``B: Pulmonary artery``; ``("", text)`` if none."""
    found = _MARKER_PREFIX.match(text)
    if found and found.end() < len(text):
        return text[: found.end()], text[found.end() :]
    return "", text


def _labels_line(lines: list[str]) -> list[TextLabel]:
    for line in lines:
        found = _LIST_LINE.match(line)
        if found:
            items = _SPLIT_ITEMS.split(_EMPHASIS.sub("", found.group("items")).strip().rstrip("."))
            return [TextLabel(item.strip()) for item in items if item.strip()]
    return []


def _table(lines: list[str]) -> list[TextLabel]:
    """A markdown table with a header row; names from the name-like column."""
    rows = [_cells(line) for line in lines if line.strip().startswith("|")]
    if len(rows) < 3 or not _TABLE_RULE.match("|".join(rows[1])):
        return []
    header, body = rows[0], [r for r in rows[2:] if len(r) == len(rows[0])]
    name_col = next((i for i, h in enumerate(header) if _NAME_HEADERS.match(h)), None)
    if name_col is None:
        return []
    marker_col = next((i for i, h in enumerate(header) if _MARKER_HEADERS.match(h)), None)
    hint_col = next((i for i, h in enumerate(header) if _HINT_HEADERS.match(h)), None)
    labels = []
    for row in body:
        name = _EMPHASIS.sub("", row[name_col]).strip()
        if not name:
            continue
        marker = row[marker_col] if marker_col is not None else ""
        hint = row[hint_col] if hint_col is not None else ""
        letter = marker if re.fullmatch(r"[A-Za-z]\d?", marker) else ""
        labels.append(TextLabel(name, hint, letter))
    return labels


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]
