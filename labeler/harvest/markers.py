"""What a piece of printed text is: a marker, a caption, a panel letter or a name.

Markers (pattern C in the dataset card) are single capitals printed on the
figure; the curator supplies their names. Captions, figure numbers and panel
letters belong to the page layout, not the answer key, so they are left out by
default (and left on the question image).
"""

from __future__ import annotations

import re

_MARKER = re.compile(r"^([A-Z])[.)]?$")
_CAPTION = re.compile(r"^(fig\.?|figure|table)\s*\d+", re.IGNORECASE)
_PANEL = re.compile(r"^(\([A-Za-z]\)|[a-z][.)])$")


def marker_letter(text: str) -> str | None:
    """The letter if ``text`` is a marker such as "A", "B)" or "C.", else None."""
    match = _MARKER.match(text.strip())
    return match.group(1) if match else None


def excluded_reason(text: str) -> str | None:
    """Why ``text`` is not a label ("caption", "panel") or None when it may be one."""
    text = text.strip()
    if _CAPTION.match(text):
        return "caption"
    if _PANEL.match(text):
        return "panel"
    return None
