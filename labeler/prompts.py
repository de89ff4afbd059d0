"""The four prompts, byte-identical to the dataset card ("Prompts — verbatim, as sent").

A condition's score is only reproducible with the exact text that was sent, so these
strings are copied character for character from the card and a test compares them
with the card's code blocks. The card's code-block content is taken without the final
line break (the closing fence's line end). ``no-image`` sends the ``told`` text on
purpose: the prompt is held constant and only the image is removed.
"""

from __future__ import annotations

CONDITIONS: tuple[str, ...] = ("blind", "told", "desc", "no-image")

_BLIND = """\
You are an expert biology educator labeling a scientific diagram.
You are shown one biology diagram. Its parts are indicated by leader lines / arrows
(the printed labels have been erased). First work out what the diagram depicts, then
identify and name EVERY part that a leader line or arrow points to.

Rules:
- Use the single most specific, standard biology term for each part.
- Base your answer only on the image; do not invent parts.
- Output ONLY valid JSON (no markdown, no prose) in exactly this shape:
{
  "diagram_is": "<what the whole diagram depicts>",
  "labels": [ {"name": "<term>", "location_hint": "<where in image>"} ]
}"""

_TOLD = """\
You are an expert biology educator labeling a scientific diagram.
You are shown a diagram of: {subject}. Its parts are indicated by leader lines / arrows
(the printed labels have been erased). Identify and name EVERY part that a leader line
or arrow points to.

Rules:
- Use the single most specific, standard biology term for each part.
- Base your answer only on the image; do not invent parts.
- Output ONLY valid JSON (no markdown, no prose) in exactly this shape:
{
  "diagram_is": "<what the whole diagram depicts>",
  "labels": [ {"name": "<term>", "location_hint": "<where in image>"} ]
}"""

_DESC = """\
You are an expert biology educator labeling a scientific diagram.
You are shown a detailed, magnified educational diagram of {subject} — a biology
illustration drawn in a schematic / sectional style typical of a biology textbook.
Several of its distinct component structures, regions and parts are individually picked
out by leader lines or arrows (the printed labels have been erased). Study the whole
diagram carefully, then identify and name EVERY part that a leader line or arrow
points to.

Rules:
- Use the single most specific, standard biology term for each part.
- Base your answer only on the image; do not invent parts.
- Output ONLY valid JSON (no markdown, no prose) in exactly this shape:
{
  "diagram_is": "<what the whole diagram depicts>",
  "labels": [ {"name": "<term>", "location_hint": "<where in image>"} ]
}"""

_TEMPLATES = {"blind": _BLIND, "told": _TOLD, "desc": _DESC, "no-image": _TOLD}


def build_prompt(condition: str, subject: str) -> str:
    """The exact prompt text for ``condition``; ``subject`` fills ``{subject}`` verbatim.

    Plain replacement, not ``str.format``: the JSON schema in the prompt has braces.
    """
    try:
        template = _TEMPLATES[condition]
    except KeyError:
        raise ValueError(f"unknown condition {condition!r}; expected one of {CONDITIONS}") from None
    return template.replace("{subject}", subject)


def needs_image(condition: str) -> bool:
    """Whether the question image is attached: every condition except ``no-image``."""
    if condition not in CONDITIONS:
        raise ValueError(f"unknown condition {condition!r}; expected one of {CONDITIONS}")
    return condition != "no-image"
