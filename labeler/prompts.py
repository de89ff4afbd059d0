"""The prompts: the card's four, byte-identical, the two slot prompts, and prompt sets.

A condition's score is only reproducible with the exact text that was sent, so the four
card strings are the card's character for character (the rules and output schema its three
texts share are written once) and a test compares them with the card's code blocks. The
card's code-block content is taken without the final line break (the closing fence's line
end). ``no-image`` sends the ``told`` text on
purpose: the prompt is held constant and only the image is removed.

The slot conditions (``slots``, ``slots-no-image``; decision 0022) are outside the card's
four and never default: their prompt is the ``told`` prompt with the smallest change that
asks what is at each numbered mark. A project may choose another domain's prompt set
(:class:`PromptSet`, a TOML file); the card's set is the default. Every stored answer keeps
the sha256 of the text it was asked with (:func:`prompt_sha256`).
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

# re-exported: callers that build prompts import the conditions from here
from labeler.conditions import ALL_CONDITIONS as ALL_CONDITIONS
from labeler.conditions import CONDITIONS as CONDITIONS
from labeler.conditions import SLOT_CONDITIONS as SLOT_CONDITIONS
from labeler.errors import LabelerError

#: The project setting (``meta`` key) holding a chosen prompt set's TOML text.
PROMPT_SET_META = "prompt_set"

# The card's three texts end alike: the rules and the one JSON output schema, which a prompt
# set's four must share too (:meth:`PromptSet.validate`); kept once so they cannot drift.
_CARD_RULES = """\
Rules:
- Use the single most specific, standard biology term for each part.
- Base your answer only on the image; do not invent parts.
- Output ONLY valid JSON (no markdown, no prose) in exactly this shape:
{
  "diagram_is": "<what the whole diagram depicts>",
  "labels": [ {"name": "<term>", "location_hint": "<where in image>"} ]
}"""

_BLIND = (
    """\
You are an expert biology educator labeling a scientific diagram.
You are shown one biology diagram. Its parts are indicated by leader lines / arrows
(the printed labels have been erased). First work out what the diagram depicts, then
identify and name EVERY part that a leader line or arrow points to.

"""
    + _CARD_RULES
)

_TOLD = (
    """\
You are an expert biology educator labeling a scientific diagram.
You are shown a diagram of: {subject}. Its parts are indicated by leader lines / arrows
(the printed labels have been erased). Identify and name EVERY part that a leader line
or arrow points to.

"""
    + _CARD_RULES
)

_DESC = (
    """\
You are an expert biology educator labeling a scientific diagram.
You are shown a detailed, magnified educational diagram of {subject} — a biology
illustration drawn in a schematic / sectional style typical of a biology textbook.
Several of its distinct component structures, regions and parts are individually picked
out by leader lines or arrows (the printed labels have been erased). Study the whole
diagram carefully, then identify and name EVERY part that a leader line or arrow
points to.

"""
    + _CARD_RULES
)

# ``told`` with the smallest change that asks for one name per mark: the parenthesis says
# what replaced the labels, the task names each mark, and the schema's entry has a number.
_SLOTS = """\
You are an expert biology educator labeling a scientific diagram.
You are shown a diagram of: {subject}. Its parts are indicated by leader lines / arrows
(the printed labels have been erased; where each was, a mark remains: {slots}). Identify
and name the part that the leader line or arrow of EVERY mark points to.

Rules:
- Use the single most specific, standard biology term for each part.
- Base your answer only on the image; do not invent parts.
- Output ONLY valid JSON (no markdown, no prose) in exactly this shape, one entry per mark:
{
  "diagram_is": "<what the whole diagram depicts>",
  "labels": [ {"number": 1, "name": "<term>"} ]
}"""

_TEMPLATES = {
    "blind": _BLIND,
    "told": _TOLD,
    "desc": _DESC,
    "no-image": _TOLD,
    "slots": _SLOTS,
    "slots-no-image": _SLOTS,
}


def _unknown(condition: str) -> ValueError:
    return ValueError(f"unknown condition {condition!r}; expected one of {ALL_CONDITIONS}")


def _fill(template: str, subject: str, slots: Sequence[str]) -> str:
    """Plain replacement, not ``str.format``: the JSON schema in the prompt has braces."""
    return template.replace("{slots}", ", ".join(slots)).replace("{subject}", subject)


def build_prompt(condition: str, subject: str, slots: Sequence[str] = ()) -> str:
    """The exact card prompt text for ``condition``; ``subject`` fills ``{subject}`` verbatim.

    ``slots`` (the marks of a slot question, ``["1", "2", …]`` or printed letters) fills
    ``{slots}`` in the two slot prompts; the card's four have no such field.
    """
    try:
        template = _TEMPLATES[condition]
    except KeyError:
        raise _unknown(condition) from None
    return _fill(template, subject, slots)


def needs_image(condition: str) -> bool:
    """Whether an image is attached: every condition except the two no-image controls."""
    if condition not in ALL_CONDITIONS:
        raise _unknown(condition)
    return condition not in ("no-image", "slots-no-image")


def is_slot_condition(condition: str) -> bool:
    """Whether ``condition`` asks a numbered-slot question (its image is the slot image)."""
    return condition in SLOT_CONDITIONS


def prompt_sha256(text: str) -> str:
    """The hash stored with every answer: the sha256 of the exact prompt text sent."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class PromptSetError(LabelerError):
    """A prompt-set file that cannot be used (the message says what to fix)."""


# The output schema: from the line that opens the JSON object to the end of the prompt.
_SCHEMA = re.compile(r"^\{\s*$.*", re.M | re.S)


@dataclass(frozen=True)
class PromptSet:
    """One template per condition; ``name`` says which domain they were written for.

    The card's set (:data:`CARD_PROMPTS`) is the default. A set from another domain is
    validated by :meth:`from_toml`: every card condition present, ``{subject}`` in every
    prompt that discloses it, and one JSON output schema shared by the four (the slot
    prompts, when given, share theirs and ask for a ``number`` per mark).
    """

    name: str
    templates: Mapping[str, str]

    def build(self, condition: str, subject: str, slots: Sequence[str] = ()) -> str:
        """The exact text sent for ``condition``; see :func:`build_prompt`."""
        if condition not in ALL_CONDITIONS:
            raise _unknown(condition)
        template = self.templates.get(condition)
        if template is None:
            raise PromptSetError(
                f"the prompt set {self.name!r} has no {condition!r} prompt; add one to its"
                " file (`labeler prompts set`) or run without that condition"
            )
        return _fill(template, subject, slots)

    @classmethod
    def from_toml(cls, text: str) -> PromptSet:
        """Read and validate a prompt-set file (see ``docs/decisions/0022``).

        The file has ``name = "..."`` and a ``[prompts]`` table keyed by condition;
        ``no-image`` may be left out (it sends ``told``'s text, as the card does) and so
        may ``slots-no-image`` (it sends ``slots``'s).
        """
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise PromptSetError(f"the prompt-set file is not valid TOML: {exc}") from None
        prompts = data.get("prompts")
        if not isinstance(prompts, dict) or not all(isinstance(v, str) for v in prompts.values()):
            raise PromptSetError(
                "a prompt-set file needs a [prompts] table of texts keyed by condition"
                f" ({', '.join(CONDITIONS)}; optionally {', '.join(SLOT_CONDITIONS)})"
            )
        templates = {k: v.strip("\n") for k, v in prompts.items()}
        templates.setdefault("no-image", templates.get("told", ""))
        if "slots" in templates:
            templates.setdefault("slots-no-image", templates["slots"])
        prompt_set = cls(str(data.get("name", "custom")), templates)
        prompt_set.validate()
        return prompt_set

    def validate(self) -> None:
        """Raise :class:`PromptSetError` naming every problem of this set."""
        problems = []
        unknown = sorted(set(self.templates) - set(ALL_CONDITIONS))
        if unknown:
            problems.append(f"unknown condition(s) {', '.join(unknown)}")
        missing = [c for c in CONDITIONS if not self.templates.get(c, "").strip()]
        if missing:
            problems.append(f"missing prompt(s) for {', '.join(missing)}")
        for condition, template in self.templates.items():
            if condition != "blind" and "{subject}" not in template:
                problems.append(f"{condition!r} does not contain {{subject}}")
        schemas = {c: _schema(t) for c, t in self.templates.items() if c in CONDITIONS}
        if any(s is None for s in schemas.values()):
            bad = [c for c, s in schemas.items() if s is None]
            problems.append(f"no JSON output schema (a line holding only '{{') in {bad}")
        elif len(set(schemas.values())) > 1:
            problems.append("the four prompts must share one JSON output schema")
        elif not all('"labels"' in (s or "") for s in schemas.values()):
            problems.append('the JSON output schema must have a "labels" list')
        for condition in SLOT_CONDITIONS:
            slot_template = self.templates.get(condition)
            if slot_template is None:
                continue
            if '"number"' not in (_schema(slot_template) or "") or "{slots}" not in slot_template:
                problems.append(f'{condition!r} must contain {{slots}} and ask for a "number"')
        if problems:
            raise PromptSetError(f"prompt set {self.name!r}: " + "; ".join(problems))


def _schema(template: str) -> str | None:
    found = _SCHEMA.search(template)
    return found.group(0).strip() if found else None


CARD_PROMPTS = PromptSet("card (biology)", dict(_TEMPLATES))


class _Settings(Protocol):
    """What the project functions here need of a project (``labeler.store.Project`` has it)."""

    def get_meta(self, key: str, default: str | None = None) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...


def use_prompt_set(project: _Settings, text: str | None) -> PromptSet:
    """Make the prompt set in ``text`` (a TOML file's content) the project's; None: the card's.

    Validated first (:meth:`PromptSet.from_toml`), so a project never holds a set it cannot
    ask with. The text itself is kept in the project, so the project is self-contained.
    Answers given under another set stay stored; the prompt hash says which text each was.
    """
    if text is None:
        project.set_meta(PROMPT_SET_META, "")
        return CARD_PROMPTS
    prompt_set = PromptSet.from_toml(text)
    project.set_meta(PROMPT_SET_META, text)
    return prompt_set


def project_prompts(project: _Settings) -> PromptSet:
    """The prompt set a project asks with: its chosen set, else the card's."""
    text = project.get_meta(PROMPT_SET_META)
    return CARD_PROMPTS if not text else PromptSet.from_toml(text)


def prompts_used(project: _Settings, conditions: Sequence[str] = CONDITIONS) -> dict[str, str]:
    """condition → template text (``{subject}`` and ``{slots}`` unfilled) the project uses.

    What a dataset card prints as "the prompts actually used"; conditions the set has
    no prompt for are left out.
    """
    prompt_set = project_prompts(project)
    return {c: prompt_set.templates[c] for c in conditions if c in prompt_set.templates}
