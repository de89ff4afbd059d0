"""Group line fragments into label phrases.

pymupdf's text blocks are layout guesses and often put two labels in one block,
so labels are rebuilt from lines: a line joins the label above it when it is the
same size and direction, sits right under it (gap under half a line), is
aligned with it (left, right or centre) and does not have a leader line of its
own pointing elsewhere (a vector path, or for OCR lines one found in pixels).
Hyphenated line breaks are repaired; a gloss line such as "(membrane covering
bone)" simply joins its label. Markers, captions and
panel letters never join anything.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from labeler.harvest.anchors import Leader, LeaderIndex
from labeler.harvest.fragments import HORIZONTAL, Fragment
from labeler.harvest.markers import excluded_reason, marker_letter
from labeler.pdf.geometry import Box, Point

LINE_GAP = 0.5  # × font size: larger vertical gaps separate labels
ALIGN = 0.8  # × font size: tolerance for left/right/centre alignment
LEADER_MARGIN = 0.9  # × font size: how far from a label its leader may start
SMALL_TYPE = 0.93  # × the line above's x-height (or size): a line set in smaller type
INDENT = 0.5  # × font size: a line indented this much at both ends is centred under the one above


@dataclass
class LabelGroup:
    """One label: its lines, joined text, box, marker letter, leader and exclusion."""

    lines: list[Fragment]
    marker: str | None = None
    excluded: str | None = None
    leader: Leader | None = None
    anchor: Point | None = None
    text: str = field(default="")

    @property
    def bbox(self) -> Box:
        boxes = [f.bbox for f in self.lines]
        return (
            min(b[0] for b in boxes),
            min(b[1] for b in boxes),
            max(b[2] for b in boxes),
            max(b[3] for b in boxes),
        )

    @property
    def kind(self) -> str:
        return self.lines[0].kind


def join_lines(texts: Sequence[str]) -> str:
    """Join label lines with spaces, repairing "mem-" + "brane" into "membrane"."""
    out = ""
    for text in texts:
        text = " ".join(text.split())
        if not text:
            continue
        if out.endswith("-") and len(out) > 1 and out[-2].isalpha() and text[0].islower():
            out = out[:-1] + text
        else:
            out = f"{out} {text}" if out else text
    return out


def _aligned(a: Fragment, b: Fragment, tol: float) -> bool:
    a0, a1 = a.extent(a.direction)
    b0, b1 = b.extent(a.direction)
    return abs(a0 - b0) <= tol or abs(a1 - b1) <= tol or abs((a0 + a1) - (b0 + b1)) / 2 <= tol


def _gap_below(last: Fragment, line: Fragment) -> float:
    """How far ``line`` starts below ``last``, in ``last``'s reading frame."""
    if last.direction == HORIZONTAL:  # the common frame: the same numbers, without projections
        return line.bbox[1] - last.bbox[3]
    return line.extent(last.down)[0] - last.extent(last.down)[1]


def colour(fragment: Fragment) -> int | None:
    """The text colour of a vector line (its first span's), None for outlines and OCR."""
    if fragment.kind != "vector" or not fragment.parts:
        return None
    return getattr(fragment.parts[0][0], "color", None)


def _continues(group: LabelGroup, line: Fragment, leader: Leader | None) -> bool:
    last = group.lines[-1]
    if group.marker or (group.excluded and group.excluded != "caption"):
        return False
    if last.text.rstrip().endswith(":"):  # "Vertebral arch:" heads the labels under it
        return False
    if group.excluded and leader is not None:  # a caption's next line has no leader of its own
        return False
    size = max(last.size, line.size)
    if not -0.6 * size <= _gap_below(last, line) <= LINE_GAP * size:
        return False
    if last.kind != line.kind:
        return False
    if last.direction[0] * line.direction[0] + last.direction[1] * line.direction[1] < 0.995:
        return False
    if _unlike_type(last, line):
        return False
    a, b = colour(last), colour(line)
    if a is not None and b is not None and a != b:  # a coloured heading over black labels
        return False
    if not _aligned(last, line, ALIGN * size):
        return False
    if group.leader and leader and not _one_leader(group.leader, leader):
        return _runs_on(last, line)
    return True


#: Points: how close the ends of two lines' raster leaders must be for them to be one leader.
SAME_END = 0.5


def _one_leader(a: Leader, b: Leader) -> bool:
    """Are ``a`` and ``b`` one leader line, found once from each of two lines of a label?

    A leader leaving from between a label's two lines ("Trabecular" / "(spongy) bone" on the
    bone figure pasted small) starts as close to both, so each line finds it; found in pixels,
    each gets its own ident, but both end at the same point of the drawing. Two labels' own
    leaders end at two parts.
    """
    if a.ident == b.ident:
        return True
    if len(a.points) != 1 or len(b.points) != 1:  # vector leaders: one ident per path
        return False
    (ax, ay), (bx, by) = a.points[0], b.points[0]
    return abs(ax - bx) <= SAME_END and abs(ay - by) <= SAME_END


#: Words a line of a label cannot end on: the label goes on in the next line ("Filaments of").
_RUNS_ON_WORDS = frozenset(
    ("of", "and", "or", "the", "a", "an", "to", "for", "with", "in", "on", "at", "by", "from")
)
_BRACKETED = re.compile(r"^[(\[].*[)\]]$")


def _runs_on(last: Fragment, line: Fragment) -> bool:
    """Whether ``line`` is plainly the next line of the label ending in ``last``.

    Asked when both lines seem to have leaders of their own: a raster line's "leader" may be
    an outline of the drawing running past it (pale filaments behind a label). The typesetting
    says otherwise when the first line cannot end a label (a comma, a hyphen, a word such as
    "of"), when the second is a bracketed gloss or set in smaller type ("(Globular protein)"
    under "Integral protein"), or when it is indented at both ends under the first (a centred
    label). Stacked labels with their own leaders are none of these: same type, aligned at
    the side their leaders leave from, each a name.
    """
    words = last.text.split()
    if last.text.rstrip().endswith((",", "-")) or (words and words[-1].lower() in _RUNS_ON_WORDS):
        return True
    if _BRACKETED.match(line.text.strip()) or _smaller_type(last, line):
        return True
    a0, a1 = last.extent(last.direction)
    b0, b1 = line.extent(last.direction)
    indent = INDENT * max(last.size, line.size)
    return b0 - a0 >= indent and a1 - b1 >= indent


#: × the smaller: a line set in type this much larger than the other's is another label.
UNLIKE_TYPE = 1.35


def _unlike_type(a: Fragment, b: Fragment) -> bool:
    """Is one line set in much larger type than the other, by size and, for OCR, x-height?

    An OCR box's height measures brackets and descenders as much as type: "(membrane covering
    bone)" boxes 1.36 × as tall as "Periosteum" above it on the bone figure pasted 280 pt
    wide, with the same x-height. Equal x-heights overrule the boxes; unequal ones never split
    lines whose sizes agree (an all-capitals line's "x-height" is its cap height).
    """
    if max(a.size, b.size) <= UNLIKE_TYPE * min(a.size, b.size):
        return False
    if a.x_height and b.x_height:
        return max(a.x_height, b.x_height) > UNLIKE_TYPE * min(a.x_height, b.x_height)
    return True


def _smaller_type(last: Fragment, line: Fragment) -> bool:
    """Is ``line`` set in smaller type than ``last``: x-heights for OCR lines, sizes for text."""
    if last.x_height is not None and line.x_height is not None:
        return line.x_height <= SMALL_TYPE * last.x_height
    return last.kind == "vector" and line.size <= SMALL_TYPE * last.size


def _left_behind(group: LabelGroup, top: float) -> bool:
    """A horizontal group whose last line ends above ``top``: no later line can continue it."""
    last = group.lines[-1]
    return last.direction == HORIZONTAL and last.bbox[3] < top


def group_labels(
    fragments: Sequence[Fragment], leaders: LeaderIndex | None = None
) -> list[LabelGroup]:
    """Label groups in reading order (top to bottom, left to right).

    Each line joins the newest earlier group it continues (:func:`_continues`). Lines come in
    top-to-bottom order, so a group whose last line is horizontal and ends more than half the
    largest line height above the current line can never be continued again: it is dropped from
    the candidates, which keeps the work per line to the groups of the rows just above it
    (near-linear in the words on a page, with exactly the result of trying every group).
    """
    ordered = sorted(attach_suffixes(fragments), key=lambda f: (f.bbox[1], f.bbox[0]))
    reach = LINE_GAP * max((f.size for f in ordered), default=0.0)
    groups: list[LabelGroup] = []
    open_groups: list[LabelGroup] = []  # groups that may still be continued, oldest first
    since_sweep = survivors = 0  # sweep as in merge_on_lines: amortised constant per line
    for line in ordered:
        leader = line.leader
        if leader is None and leaders is not None:
            leader = leaders.leader_at(line.bbox, LEADER_MARGIN * line.size)
        marker = marker_letter(line.text)
        excluded = None if marker else excluded_reason(line.text)
        target = None
        if not marker and not excluded:
            since_sweep += 1
            if since_sweep > survivors:
                top = line.bbox[1] - reach
                open_groups = [g for g in open_groups if not _left_behind(g, top)]
                since_sweep, survivors = 0, len(open_groups)
            target = next((g for g in reversed(open_groups) if _continues(g, line, leader)), None)
        if target is None:
            group = LabelGroup([line], marker=marker, excluded=excluded, leader=leader)
            groups.append(group)
            if not marker and excluded in (None, "caption"):  # a caption may run on
                open_groups.append(group)
        else:
            target.lines.append(line)
            target.leader = target.leader or leader
    for group in groups:
        group.text = join_lines([f.text for f in group.lines])
        if group.leader is None and leaders:
            group.leader = leaders.leader_at(group.bbox, LEADER_MARGIN * group.lines[0].size)
        if group.leader is not None:
            group.anchor = LeaderIndex.anchor(group.leader, group.bbox)
    _mark_headings(groups)
    for group in groups:
        if not group.excluded:
            group.text = without_trailing_punctuation(group.text)
    return sorted(groups, key=lambda g: (g.bbox[1], g.bbox[0]))


#: Punctuation a name never ends with; a full stop after a short word is an abbreviation's.
_TRAILING = re.compile(r"(?:[\s,;:]|(?<=\w{4})\.+)+$")


def without_trailing_punctuation(text: str) -> str:
    """ "Carbohydrate," is "Carbohydrate": the key's names carry no trailing punctuation.

    A comma or semicolon ending a label is the typesetter's (a list run over several labels)
    or OCR reading a bracket's corner; a colon ended a heading (headings are marked before
    this). A full stop goes after a whole word ("tails.") but stays after an abbreviation of
    up to three letters ("Lig.", "n.", "sup."), where it is part of the name as printed.
    """
    return _TRAILING.sub("", text)


#: A parenthesis printed in small type right after a label ("Cranial nerves (I-XII)").
_SUFFIX = re.compile(r"^\(.*\)$")


def attach_suffixes(fragments: Sequence[Fragment]) -> list[Fragment]:
    """Join a small-type parenthesis to the label it follows on the same baseline.

    Set smaller than the label, it sits further away than the line merge's gap allows, and on
    its own it would be a name; joined, the key's splitter reads it as the label's note.
    """
    suffixes = [f for f in fragments if _SUFFIX.match(f.text.strip())]
    if not suffixes:
        return list(fragments)
    taken: set[int] = set()
    for suffix in suffixes:
        host = next(
            (
                f
                for f in fragments
                if f is not suffix
                and id(f) not in taken
                and f.direction == suffix.direction
                and suffix.size < 0.9 * f.size
                and 0 <= suffix.bbox[0] - f.bbox[2] <= 1.5 * f.size
                and abs(suffix.bbox[3] - f.bbox[3]) <= 0.5 * f.size
            ),
            None,
        )
        if host is not None:
            host.text = f"{host.text} {suffix.text}"
            host.bbox = (
                host.bbox[0],
                min(host.bbox[1], suffix.bbox[1]),
                suffix.bbox[2],
                max(host.bbox[3], suffix.bbox[3]),
            )
            host.parts.extend(suffix.parts)
            taken.add(id(suffix))
    return [f for f in fragments if id(f) not in taken]


def _mark_headings(groups: Sequence[LabelGroup]) -> None:
    """Mark coloured group headings ("Skull" over its column of labels) as not names.

    A heading has no leader of its own, is printed in a colour the figure's leader-line labels
    do not use or ends with a colon ("Vertebral arch:" over "Lamina" and "Pedicle"), and sits
    right above a label of that column. It stays printed; the curator may still add it to the
    key.
    """
    led = [colour(g.lines[0]) for g in groups if g.leader is not None and not g.excluded]
    usual = max(set(led), key=led.count) if led else None
    for group in groups:
        first = group.lines[0]
        hue = colour(first)
        if group.excluded or group.marker or group.leader is not None:
            continue
        colon = group.text.rstrip().endswith(":")
        if not colon and (usual is None or hue in (None, usual)):
            continue
        tol = ALIGN * first.size
        below = any(
            other is not group
            and other.leader is not None
            and 0 <= other.bbox[1] - group.bbox[3] <= 1.5 * first.size
            and (
                _aligned(first, other.lines[0], tol)
                # a colon heading may have its column indented under it
                or (colon and group.bbox[0] - tol <= other.bbox[0] <= group.bbox[2])
            )
            for other in groups
        )
        if below:
            group.excluded = "group heading"
