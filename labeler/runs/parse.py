"""Tolerant parsing of a model's JSON answer.

Models wrap the requested JSON in code fences, put prose around it, or leave
trailing commas; none of that should cost them their score. What must never
happen is a failed parse quietly becoming an empty answer: ``parse_ok`` is false
whenever the answer was not a complete, well-formed object, and a truncated
answer keeps the labels it finished but is still ``parse_ok`` false.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n?(.*?)(?:```|\Z)", re.S)


@dataclass(frozen=True)
class Label:
    """One named part; ``location_hint`` is the model's own words for where it is."""

    name: str
    location_hint: str = ""


@dataclass(frozen=True)
class ParsedAnswer:
    """The answer as parsed; ``error`` says why ``parse_ok`` is false."""

    diagram_is: str | None
    labels: list[Label] = field(default_factory=list)
    parse_ok: bool = False
    error: str | None = None


def parse_answer(raw: str, truncated: bool = False) -> ParsedAnswer:
    """Parse ``raw``; with ``truncated`` the result is never ``parse_ok`` (labels are salvaged)."""
    if not raw or not raw.strip():
        return ParsedAnswer(None, [], False, "empty answer")
    for text in _candidates(raw):
        for start in _object_starts(text):
            end = _matching_brace(text, start)
            if end is None:
                continue
            obj = _loads(text[start : end + 1])
            if isinstance(obj, dict) and "labels" in obj:
                answer = _from_object(obj)
                if truncated and answer.parse_ok:
                    return ParsedAnswer(
                        answer.diagram_is, answer.labels, False, "answer was truncated"
                    )
                return answer
    return _salvage(raw, truncated)


def _candidates(raw: str) -> list[str]:
    """Fenced blocks first (the model's own framing of the JSON), then the whole text."""
    blocks = [m.group(1) for m in _FENCE.finditer(raw) if "{" in m.group(1)]
    return [*blocks, raw]


def _object_starts(text: str) -> list[int]:
    return [i for i, ch in enumerate(text) if ch == "{"]


def _matching_brace(text: str, start: int) -> int | None:
    """Index of the ``}`` closing the ``{`` at ``start``, skipping strings; ``None`` if open."""
    depth = 0
    in_string = False
    escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                return i if ch == "}" else None
    return None


def _loads(text: str):
    """The decoded JSON or ``None``; ``strict=False`` because models put raw newlines and
    tabs inside strings, which is no reason to throw their answer away."""
    try:
        return json.loads(text, strict=False)
    except json.JSONDecodeError:
        pass
    try:
        return json.loads(_strip_trailing_commas(text), strict=False)
    except json.JSONDecodeError:
        return None


def _strip_trailing_commas(text: str) -> str:
    """Drop commas directly before ``}`` or ``]``, leaving string contents alone."""
    out: list[str] = []
    in_string = False
    escaped = False
    for i, ch in enumerate(text):
        if in_string:
            out.append(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = True
        elif ch == "," and text[i + 1 :].lstrip()[:1] in ("}", "]"):
            continue
        out.append(ch)
    return "".join(out)


def _from_object(obj: dict) -> ParsedAnswer:
    diagram_is = obj.get("diagram_is")
    diagram_is = diagram_is.strip() if isinstance(diagram_is, str) else None
    raw_labels = obj.get("labels")
    if not isinstance(raw_labels, list):
        return ParsedAnswer(diagram_is, [], False, "'labels' is not a list")
    labels: list[Label] = []
    malformed: list[object] = []
    for entry in raw_labels:
        label = _label(entry)
        if label is None:
            malformed.append(entry)
        elif label.name:
            labels.append(label)
    if malformed:
        # One bad entry must not cost the model its other labels, nor pass as a clean answer.
        shown = ", ".join(repr(e)[:80] for e in malformed)
        return ParsedAnswer(diagram_is, labels, False, f"malformed label(s) skipped: {shown}")
    return ParsedAnswer(diagram_is, labels, True, None)


def _label(entry) -> Label | None:
    if isinstance(entry, str):
        return Label(entry.strip())
    if isinstance(entry, dict) and isinstance(entry.get("name"), str):
        hint = entry.get("location_hint")
        return Label(entry["name"].strip(), hint.strip() if isinstance(hint, str) else "")
    return None


_DIAGRAM_IS = re.compile(r'"diagram_is"\s*:\s*"((?:[^"\\]|\\.)*)"', re.S)
_LABELS = re.compile(r'"labels"\s*:\s*\[', re.S)


def _salvage(raw: str, truncated: bool) -> ParsedAnswer:
    """Recover the complete label objects of an answer cut off mid-JSON."""
    why = "answer was truncated" if truncated else "no complete JSON object with 'labels'"
    match = _DIAGRAM_IS.search(raw)
    diagram_is = _json_string(match.group(1)).strip() if match else None
    labels: list[Label] = []
    opening = _LABELS.search(raw)
    if opening:
        pos = opening.end()
        while True:
            start = raw.find("{", pos)
            if start < 0:
                break
            end = _matching_brace(raw, start)
            if end is None:
                break
            label = _label(_loads(raw[start : end + 1]))
            if label is not None and label.name:
                labels.append(label)
            pos = end + 1
    return ParsedAnswer(diagram_is, labels, False, why)


def _json_string(body: str) -> str:
    """Decode the inside of a JSON string; a bad escape (``\\q``) keeps the raw text instead."""
    try:
        return json.loads(f'"{body}"', strict=False)
    except json.JSONDecodeError:
        return body
