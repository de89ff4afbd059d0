"""A lenient, linear-time reader for the JSON-like values inside a model's answer.

Models write JSON the way people write it: single quotes and ``None`` (Python literals),
unquoted keys, ``//`` and ``/* */`` comments, trailing commas, prose around it, several blocks,
and answers cut off at the output limit. :func:`read_values` reads every top-level ``{…}`` /
``[…]`` in the text in ONE pass with an explicit stack (no recursion, so no
``RecursionError``), and never invents structure: an entry that was still open when the text
ended is dropped, not completed, and each value records which repairs reading it took.

Hostile output is bounded, not just survived: nesting deeper than :data:`MAX_DEPTH` makes that
whole value unreadable and is skipped at C speed, and reading stops after :data:`MAX_TOKENS`
tokens (a real answer has a few thousand), so the cost is linear in the text and capped.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

#: An answer nests three levels (object, list, label); anything past this is not an answer.
MAX_DEPTH = 32
#: A 200-label answer is ~2,000 tokens; a model looping to a 32k-token output limit, ~25,000.
MAX_TOKENS = 50_000

#: What starting a top-level value costs, in tokens: a flood of ``{}`` stays cheap.
VALUE_COST = 10

_OPEN = re.compile(r"[\[{]")
_TOKEN = re.compile(
    r"""[ \t\r\n]*(?:
      (?P<punct>[{}\[\]:,])
    | "(?P<dq>[^"\\]*(?:\\.[^"\\]*)*)(?P<dq_end>"?)
    | '(?P<sq>[^'\\]*(?:\\.[^'\\]*)*)(?P<sq_end>'?)
    | (?P<comment>//|/\*)
    | (?P<fence>```)
    | (?P<word>[^\s{}\[\]:,"'/`](?:[^\n{}\[\]:,"'`]*[^\s{}\[\]:,"'`])?)
    | (?P<other>.)
    | (?P<end>\Z)
    )""",
    re.S | re.X,
)
_DECODER = json.JSONDecoder(strict=False)  # models put raw newlines and tabs inside strings
_KIND = {"dq_end": "dq", "sq_end": "sq"}  # a string's last group is its closing quote
_SKIP = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[{]+|[\]}]+')
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")
_LITERALS: dict[str, object] = {
    "null": None,
    "None": None,
    "true": True,
    "True": True,
    "false": False,
    "False": False,
}


@dataclass
class Value:
    """One top-level value: where it starts, whether the text ended inside it, what was mended.

    ``line_start`` says the value begins its line (or follows a ``:``), which is how a
    deliberate answer array differs from a bracketed aside in prose.
    """

    value: object
    start: int
    line_start: bool
    cut: bool = False
    repairs: set[str] = field(default_factory=set)


@dataclass
class Reading:
    """Everything :func:`read_values` found, and whether a limit stopped it."""

    values: list[Value]
    too_deep: int = 0
    token_limit: bool = False


_Container = dict[str, object] | list[object]  # a JSON object or array being read


@dataclass
class _Frame:
    container: _Container
    key: str | None = None  # obj: the key read so far
    colon: bool = False  # obj: the key's ':' was seen
    comma: bool = False  # the last token was ','


def read_values(text: str) -> Reading:
    """Every top-level ``{…}``/``[…]`` value in ``text``, in order (see module docstring)."""
    strict = _strict(text)
    if strict is not None:
        return Reading([strict])
    reading = Reading([])
    pos, budget = 0, MAX_TOKENS
    while True:
        opening = _OPEN.search(text, pos)
        if opening is None:
            return reading
        start = opening.start()
        value = Value(None, start, _opens_line(text, start))
        pos, budget, deep = _read_one(text, start, budget - VALUE_COST, value)
        if deep:
            reading.too_deep += 1
        elif value.value:  # an empty {} or [] is never an answer
            reading.values.append(value)
        if budget <= 0:
            reading.token_limit = True
            return reading


def _strict(text: str) -> Value | None:
    """The whole text as standard JSON, at C speed: the common case needs no repair."""
    stripped = text.strip()
    if stripped[:1] not in ("{", "["):
        return None
    try:
        return Value(json.loads(stripped), 0, True)
    except (ValueError, RecursionError):
        return None


def _opens_line(text: str, start: int) -> bool:
    """Whether only blanks, or a ``label:``-style lead-in, precede ``start`` on its line."""
    before = text[max(0, start - 200) : start]
    line = before[before.rfind("\n") + 1 :]
    return not line.strip() or line.rstrip().endswith(":")


def _read_one(text: str, pos: int, budget: int, out: Value) -> tuple[int, int, bool]:
    """Read the value opening at ``pos`` into ``out``; returns (next pos, budget, too deep)."""
    stack: list[_Frame] = []
    while budget > 0:
        budget -= 1
        match = _TOKEN.match(text, pos)
        assert match is not None  # the pattern always matches (``other`` / ``end``)
        pos = match.end()
        kind = _KIND.get(match.lastgroup or "", match.lastgroup)
        if kind in ("end", "fence"):
            _unwind(stack, out)
            return pos, budget, False
        if kind == "punct":
            ch = match.group("punct")
            if ch in "{[":
                if len(stack) >= MAX_DEPTH:
                    end, budget = _skip(text, pos, len(stack) + 1, budget)
                    return end, budget, True
                stack.append(_Frame({} if ch == "{" else []))
            elif ch in "}]":
                if _close(stack, ch, out):
                    return pos, budget, False
            elif ch == ":":
                top = stack[-1]
                if isinstance(top.container, dict) and top.key is not None:
                    top.colon = True
            else:
                stack[-1].comma = True
                _reset_key(stack[-1])
            continue
        if kind == "comment":
            out.repairs.add("comments removed")
            pos = _end_of_comment(text, match)
            continue
        if kind == "other":
            continue
        if kind == "word":
            pos = _end_of_word(match, pos)
            if pos == len(text):
                continue  # a word the text ended inside: dropped like a cut string
        scalar = _scalar(match, pos, out)
        if scalar is _CUT:
            continue  # a string the text ended inside: dropped, never completed
        _add(stack[-1], scalar, out)
    _unwind(stack, out)
    return pos, budget, False


_CUT = object()


def _end_of_comment(text: str, match: re.Match[str]) -> int:
    """Past the comment opening at ``match`` (``str.find``, not a per-character pattern)."""
    line = match.group("comment") == "//"
    end = text.find("\n" if line else "*/", match.end())
    if end < 0:
        return len(text)
    return end if line else end + 2


def _end_of_word(match: re.Match[str], end: int) -> int:
    """Where a bare word really ends: before a ``//`` or ``/*`` comment it runs into.

    The word pattern is one character-class run (fast on any input), so comments are split
    off here instead of by a per-character lookahead.
    """
    text, start = match.string, match.start("word")
    cuts = [i for i in (text.find("//", start, end), text.find("/*", start, end)) if i >= 0]
    if not cuts:
        return end
    return start + len(text[start : min(cuts)].rstrip())


def _scalar(match: re.Match[str], end: int, out: Value) -> object:
    kind = _KIND.get(match.lastgroup or "", match.lastgroup)
    if kind == "dq":
        if not match.group("dq_end"):
            return _CUT
        return _decode(match.group("dq"), out)
    if kind == "sq":
        if not match.group("sq_end"):
            return _CUT
        out.repairs.add("single-quoted strings")
        return _decode_single(match.group("sq"), out)
    word = match.string[match.start("word") : end]
    if word in _LITERALS:
        if word[0].isupper():
            out.repairs.add("Python literals")
        return _LITERALS[word]
    if _NUMBER.fullmatch(word):
        return float(word) if any(c in word for c in ".eE") else int(word)
    out.repairs.add("unquoted keys or words")
    return word


def _decode(body: str, out: Value) -> str:
    """A JSON string body; raw control characters are allowed, a bad escape keeps the text."""
    if "\\" not in body:
        return body  # nothing to decode: the common case, at no cost
    try:
        text: str = _DECODER.decode(f'"{body}"')
        return text
    except json.JSONDecodeError:
        out.repairs.add("invalid escapes kept as written")
        return body


def _decode_single(body: str, out: Value) -> str:
    """A Python single-quoted string body, read with JSON's escapes plus ``\\'``."""
    if "\\" not in body:
        return body
    return _decode(body.replace("\\'", "'").replace('"', '\\"').replace('\\\\"', '\\"'), out)


def _add(top: _Frame, scalar: object, out: Value) -> None:
    if isinstance(top.container, list):
        _check_comma(top, out)
        top.container.append(scalar)
    elif top.colon and top.key is not None:
        top.container[top.key] = scalar
        _reset_key(top)
    else:
        if top.key is None:
            _check_comma(top, out)
        top.key = scalar if isinstance(scalar, str) else str(scalar)  # its value follows ':'
    top.comma = False


def _check_comma(frame: _Frame, out: Value) -> None:
    """A second entry with no ``,`` before it: read anyway, and say so."""
    if frame.container and not frame.comma:
        out.repairs.add("missing commas")


def _reset_key(frame: _Frame) -> None:
    frame.key, frame.colon = None, False


def _close(stack: list[_Frame], ch: str, out: Value) -> bool:
    """Close the innermost container of ``ch``'s kind; True when the top level closed."""
    want = dict if ch == "}" else list
    depth = next(
        (i for i in range(len(stack) - 1, -1, -1) if type(stack[i].container) is want), None
    )
    if depth is None:
        out.repairs.add("mismatched brackets")
        return False
    if depth != len(stack) - 1:
        out.repairs.add("mismatched brackets")
    if stack[-1].comma:
        out.repairs.add("trailing commas")
    while len(stack) > depth:
        frame = stack.pop()
        if not stack:
            out.value = frame.container
            return True
        _attach(stack[-1], frame.container, out)
    return False


def _attach(parent: _Frame, container: _Container, out: Value) -> None:
    if isinstance(parent.container, list):
        _check_comma(parent, out)
        parent.container.append(container)
    elif parent.key is not None:
        parent.container[parent.key] = container
        _reset_key(parent)
    parent.comma = False


def _unwind(stack: list[_Frame], out: Value) -> None:
    """The text ended inside ``stack``: keep containers held by a key, drop cut list entries."""
    if not stack:
        return
    out.cut = True
    out.repairs.add("cut off before its closing brackets")
    while stack:
        frame = stack.pop()
        if not stack:
            out.value = frame.container
        elif isinstance(stack[-1].container, dict):
            _attach(stack[-1], frame.container, out)


def _skip(text: str, pos: int, depth: int, budget: int) -> tuple[int, int]:
    """The end of a value nested past :data:`MAX_DEPTH`, found without building it.

    Runs of brackets count as one step, so a flood of ``{`` or ``[[[…]]]`` costs a few steps.
    """
    if text.count("}", pos) + text.count("]", pos) < depth:
        return len(text), budget  # it never closes
    for match in _SKIP.finditer(text, pos):
        budget -= 1
        if budget <= 0:
            return len(text), budget
        run = match.group()
        if run[0] in "{[":
            depth += len(run)
        elif run[0] in "}]":
            depth -= len(run)
            if depth <= 0:
                return match.end() + depth, budget  # stop at the bracket that closed it
    return len(text), budget
