"""Read a model's answer the way a grader reads it.

The card asks for one JSON object, but real answers come as Python literals, with comments
or unquoted keys, keyed by marker letter, as a bare array, as JSON lines, as markdown lists
and tables, cut off at the output limit, after a ``<think>`` draft, or as a draft followed by a
corrected block. A scorer that cannot read these makes capable models look incapable (§8 of
the readout-limit paper), so every form a person can read is read here, in linear time.

Three rules keep this honest. The FINAL answer is scored, never a draft (``<think>``
reasoning and earlier blocks are skipped, and the notes say so). Nothing is invented: an entry
the text ended inside is dropped, not completed. Every repair is written into ``notes``,
which the runner stores with the answer. ``status`` is what the answer is: ``ok`` when names
(or a well-formed empty list) were read, ``refused`` for a plain-text decline with no names,
``truncated`` when the provider hit its limit, ``parse_error`` when nothing could be read.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field

from labeler.runs.parse_lenient import MAX_DEPTH, MAX_TOKENS, Value, read_values
from labeler.runs.parse_lines import MAX_LINES, read_lines
from labeler.status import ResponseStatus

NAME_KEYS = ("name", "label", "term", "part", "structure")
HINT_KEYS = ("location_hint", "location", "hint", "position", "where")
MARKER_KEYS = ("marker", "letter", "number")  # "number": the slot prompts' field
LIST_KEYS = ("labels", "parts", "structures")
DIAGRAM_KEYS = ("diagram_is", "diagram", "subject")

#: Longer than this is a paragraph or a flood, not a part's name (real ones are under 80).
MAX_NAME_CHARS = 300

_THINK_OPEN = re.compile(r"<(think|thinking|reasoning)>", re.I)
_THINK_CLOSE = re.compile(r"</(?:think|thinking|reasoning)>", re.I)
#: A marker as a key or field: ``A``, ``(B)``, ``C.``, ``4``, ``Label 4``; group 1 is the marker.
_MARKER_KEY = re.compile(r"^\s*(?:(?:label|marker)\s*)?\(?([A-Za-z]\d?|\d{1,2})\)?[.:]?\s*$", re.I)
_PLACEHOLDER = re.compile(r"^<[^<>]*>$")  # the prompt's own "<term>" echoed back
_SURROGATE = re.compile("[\ud800-\udfff]")
_DECLINE = re.compile(
    r"\b(?:I\s*(?:'|’|\sa)m\s+(?:sorry|unable|not\s+able)"
    r"|I\s+(?:can(?:'|’)?t|cannot|can\s+not|could(?:n(?:'|’)t|\s+not)|won(?:'|’)t|am\s+unable)"
    r"|sorry\b|I\s+apologi[sz]e|unable\s+to\s+(?:see|view|identify|process|access|analy[sz]e))",
    re.I,
)
#: Only the opening of an answer is searched for a decline (one is never buried in a essay).
_DECLINE_WINDOW = 2_000


@dataclass(frozen=True)
class Label:
    """One named part; ``location_hint`` is the model's own words for where it is.

    ``marker`` is the letter the answer's structure attaches to the name (a ``labels``
    object keyed by letter, a ``marker`` field, a table column); a letter written inside the
    name (``B: aorta``) stays in the name for the scorer to read.
    """

    name: str
    location_hint: str = ""
    marker: str = ""


@dataclass(frozen=True)
class ParsedAnswer:
    """The answer as read; ``error`` says why it is not ``ok``, ``notes`` how it was read."""

    diagram_is: str | None
    labels: list[Label] = field(default_factory=list)
    parse_ok: bool = False
    error: str | None = None
    status: ResponseStatus = ResponseStatus.PARSE_ERROR
    notes: tuple[str, ...] = ()


def parse_answer(raw: str, truncated: bool = False) -> ParsedAnswer:
    """Read ``raw``; with ``truncated`` (the provider hit its output limit) the finished
    names are kept, the cut one dropped, and the status is ``truncated``."""
    if not raw or not raw.strip():
        return _result(None, [], [], truncated, "empty answer")
    notes: list[str] = []
    final = _final_text(raw, notes)
    found = _from_values(final, notes)
    if found is None:
        found = _from_lines(final, truncated, notes)
    if found is None:
        if _DECLINE.search(final, 0, _DECLINE_WINDOW):
            said = " ".join(final.split())[:100]
            why = f"model declined in plain text: {said!r}"
            return _result(None, [], notes, truncated, why, ResponseStatus.REFUSED)
        return _result(None, [], notes, truncated, "no answer found: no JSON with labels, no list")
    diagram_is, labels, lost = found
    if lost and not labels:
        return _result(diagram_is, [], notes, truncated, f"no name could be read: {lost}")
    return _result(diagram_is, labels, notes, truncated, None)


def _result(
    diagram_is: str | None,
    labels: list[Label],
    notes: list[str],
    truncated: bool,
    error: str | None,
    failed: ResponseStatus = ResponseStatus.PARSE_ERROR,
) -> ParsedAnswer:
    """The answer with its status: ``truncated`` wins, then ``failed`` when there is an error."""
    notes_ = tuple(_clean(n) for n in notes)
    if truncated:
        why = "answer was truncated" + (f" ({_clean(error)})" if error else "")
        return ParsedAnswer(diagram_is, labels, False, why, ResponseStatus.TRUNCATED, notes_)
    if error is not None:
        return ParsedAnswer(diagram_is, labels, False, _clean(error), failed, notes_)
    return ParsedAnswer(diagram_is, labels, True, None, ResponseStatus.OK, notes_)


def _final_text(raw: str, notes: list[str]) -> str:
    """The text after the model's reasoning: a ``<think>`` draft is never the answer."""
    closes = deque(_THINK_CLOSE.finditer(raw), maxlen=1)
    if closes:
        close = closes[0]
        notes.append(
            f"scored only the text after {close.group()}; the reasoning before it"
            f"{' (with a draft answer)' if _has_value(raw[: close.start()]) else ''} was not read"
        )
        return raw[close.end() :]
    opening = _THINK_OPEN.search(raw)
    if opening is not None:
        notes.append(f"the reasoning after <{opening.group(1)}> never closed; it was not read")
        return raw[: opening.start()]
    return raw


def _has_value(text: str) -> bool:
    return "{" in text or "[" in text


#: (diagram_is, labels, what was lost on the way: "" when nothing was)
Found = tuple[str | None, list[Label], str]


def _from_values(text: str, notes: list[str]) -> Found | None:
    """The answer among the JSON-like values in ``text``: the last answer object wins."""
    reading = read_values(text)
    if reading.too_deep:
        notes.append(f"ignored {reading.too_deep} value(s) nested deeper than {MAX_DEPTH} levels")
    if reading.token_limit:
        notes.append(f"stopped reading after {MAX_TOKENS:,} tokens")
    objects = [(v, obj) for v in reading.values if (obj := _answer_object(v.value)) is not None]
    if objects:
        if len(objects) > 1:
            notes.append(
                f"scored the last of {len(objects)} answer blocks; the earlier ones are drafts"
            )
        value, obj = objects[-1]
        _note_repairs(value, notes)
        diagram_is = next(
            (_clean(obj[k]) for k in DIAGRAM_KEYS if isinstance(obj.get(k), str)), None
        )
        key = next(k for k in LIST_KEYS if isinstance(obj.get(k), (list, dict)))
        labels, lost = _labels(obj[key], notes)
        return diagram_is, labels, _with_cut(lost, value)
    arrays = [v for v in reading.values if _is_label_array(v)]
    if arrays:
        if len(arrays) > 1:
            notes.append(f"scored the last of {len(arrays)} arrays; the earlier ones are drafts")
        notes.append("read a bare array of labels (no 'labels' object)")
        _note_repairs(arrays[-1], notes)
        labels, lost = _labels(arrays[-1].value, notes)
        return None, labels, _with_cut(lost, arrays[-1])
    entries = [v for v in reading.values if isinstance(v.value, dict) and not v.cut]
    entries = [v for v in entries if _name_of(v.value) is not None]
    if entries:
        notes.append(f"read {len(entries)} separate label objects (no 'labels' list)")
        for entry in entries:
            _note_repairs(entry, notes)
        return None, *_labels([e.value for e in entries], notes)
    return None


def _answer_object(value: object) -> dict | None:
    """The outermost object holding a ``labels`` list or object, searched breadth-first."""
    queue = deque([value])
    while queue:
        node = queue.popleft()
        if isinstance(node, dict):
            if any(isinstance(node.get(k), (list, dict)) for k in LIST_KEYS):
                return node
            queue.extend(v for v in node.values() if isinstance(v, (dict, list)))
        elif isinstance(node, list):
            queue.extend(v for v in node if isinstance(v, (dict, list)))
    return None


def _is_label_array(value: Value) -> bool:
    """A list of names or label objects; a list of strings must open its line (not an aside)."""
    items = value.value
    if not isinstance(items, list) or not items:
        return False
    if not all(isinstance(e, str) or _name_of(e) is not None for e in items):
        return False
    return value.line_start or any(isinstance(e, dict) for e in items)


def _note_repairs(value: Value, notes: list[str]) -> None:
    if value.repairs:
        notes.append("repaired: " + ", ".join(sorted(value.repairs)))


def _labels(raw: object, notes: list[str]) -> tuple[list[Label], str]:
    """Labels from a list of entries or an object keyed by marker letter (or by name)."""
    entries: list[tuple[object, str, str]]  # (entry, marker, name used as key)
    if isinstance(raw, dict):
        entries = [
            (v, _marker(k), "") if _MARKER_KEY.match(k) else (v, "", k.strip())
            for k, v in raw.items()
        ]
        if any(m for _, m, _ in entries):
            notes.append("read 'labels' as an object keyed by marker letter")
    else:
        entries = [(e, "", "") for e in raw] if isinstance(raw, list) else []
    labels: list[Label] = []
    bad: list[object] = []
    dropped = 0
    for entry, marker, key_name in entries:
        label = _label(entry, marker, key_name)
        if label is None or len(label.name) > MAX_NAME_CHARS:
            bad.append(entry)
        elif _SURROGATE.search(label.name):
            dropped += 1
        elif label.name and not _PLACEHOLDER.match(label.name):
            labels.append(label)
    lost = []
    if dropped:
        lost.append(f"dropped {dropped} name(s) holding an unpaired surrogate (not valid text)")
    if bad:
        shown = ", ".join(repr(e)[:80] for e in bad)
        lost.append(
            f"skipped {len(bad)} malformed label entr{'y' if len(bad) == 1 else 'ies'}: {shown}"
        )
    notes.extend(lost)
    return labels, "; ".join(lost)


def _with_cut(lost: str, value: Value) -> str:
    if not value.cut:
        return lost
    return "; ".join(filter(None, [lost, "the text ends inside the answer"]))


def _label(entry: object, marker: str, key_name: str) -> Label | None:
    if isinstance(entry, str):
        if key_name:  # {"Aorta": "top centre"}: the key is the name, the value its place
            return Label(key_name, _clean(entry.strip()))
        return Label(entry.strip(), "", marker)
    if not isinstance(entry, dict):
        return None
    name = _name_of(entry)
    if name is None:
        return None
    hint = next((entry[k] for k in HINT_KEYS if isinstance(entry.get(k), str)), "")
    own = next((_mark_text(entry[k]) for k in MARKER_KEYS if _mark_text(entry.get(k))), "")
    return Label(name.strip(), _clean(hint.strip()), _marker(own) or marker)


def _mark_text(value: object) -> str:
    """A marker field as text: a string, or a whole number (``"number": 3``, not a bool)."""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return ""


def _marker(text: str) -> str:
    """The bare marker (``B``) of ``(B)``, ``B.`` or ``Label B``; other text as written."""
    found = _MARKER_KEY.match(text)
    return found.group(1) if found else _clean(text)


def _name_of(entry: object) -> str | None:
    if not isinstance(entry, dict):
        return None
    return next((entry[k] for k in NAME_KEYS if isinstance(entry.get(k), str)), None)


def _from_lines(text: str, truncated: bool, notes: list[str]) -> Found | None:
    answer = read_lines(text, truncated)
    if not answer.labels:
        return None
    notes.append(f"read a {answer.form} (no JSON)")
    if answer.capped:
        notes.append(f"read only the first {MAX_LINES:,} lines")
    labels = []
    dropped = 0
    for label in answer.labels:
        if _SURROGATE.search(label.name):
            dropped += 1
        else:
            labels.append(Label(label.name, _clean(label.location_hint), label.marker))
    lost = f"dropped {dropped} name(s) holding an unpaired surrogate (not valid text)"
    if dropped:
        notes.append(lost)
    diagram_is = _clean(answer.diagram_is) if answer.diagram_is else None
    return diagram_is, labels, lost if dropped else ""


def _clean(text: str) -> str:
    """``text`` without unpaired surrogates, which no file or database can hold."""
    return _SURROGATE.sub("", text).strip()
