"""The pairwise harvest loops as they were before the near-linear rewrite: the test oracle.

``merge_on_lines`` and ``group_labels`` now skip lines and groups that can no longer take the
next one; these are the original every-pair versions, kept only so the tests can hold the fast
ones to the same result on generated and real pages. Not imported by the package.
"""

from __future__ import annotations

from collections.abc import Sequence

from labeler.harvest.fragments import Fragment, _same_direction
from labeler.harvest.group import LEADER_MARGIN, LabelGroup, _continues, attach_suffixes
from labeler.harvest.markers import excluded_reason, marker_letter
from labeler.pdf.geometry import union


def merge_on_lines(pieces: Sequence[Fragment]) -> list[Fragment]:
    ordered = sorted(pieces, key=lambda f: (round(f.extent(f.down)[1]), f.extent(f.direction)[0]))
    merged: list[Fragment] = []
    for piece in ordered:
        for line in merged:
            if not _same_direction(line, piece):
                continue
            size = max(line.size, piece.size)
            lv = line.extent(line.down)
            pv = piece.extent(line.down)
            if abs(lv[1] - pv[1]) > 0.35 * size and abs(sum(lv) - sum(pv)) / 2 > 0.35 * size:
                continue
            gap = piece.extent(line.direction)[0] - line.extent(line.direction)[1]
            if -0.3 * size <= gap <= 0.6 * size:
                line.text = f"{line.text} {piece.text}"
                line.bbox = union([line.bbox, piece.bbox])
                line.size = size
                line.parts.extend(piece.parts)
                break
        else:
            merged.append(piece)
    return merged


def group_lines(fragments: Sequence[Fragment], leaders=None) -> list[LabelGroup]:
    """The grouping loop only (before texts, leaders and anchors are filled in)."""
    ordered = sorted(attach_suffixes(fragments), key=lambda f: (f.bbox[1], f.bbox[0]))
    groups: list[LabelGroup] = []
    for line in ordered:
        leader = line.leader
        if leader is None and leaders is not None:
            leader = leaders.leader_at(line.bbox, LEADER_MARGIN * line.size)
        marker = marker_letter(line.text)
        excluded = None if marker else excluded_reason(line.text)
        target = None
        if not marker and not excluded:
            target = next((g for g in reversed(groups) if _continues(g, line, leader)), None)
        if target is None:
            groups.append(LabelGroup([line], marker=marker, excluded=excluded, leader=leader))
        else:
            target.lines.append(line)
            target.leader = target.leader or leader
    return groups
