"""The answer key: label phrases, markers and leader-line anchors from printed text."""

from labeler.harvest.anchors import LeaderIndex
from labeler.harvest.fragments import Fragment, fragments_from_spans, merge_on_lines
from labeler.harvest.group import LabelGroup, group_labels, join_lines
from labeler.harvest.markers import excluded_reason, marker_letter

__all__ = [
    "Fragment",
    "LabelGroup",
    "LeaderIndex",
    "excluded_reason",
    "fragments_from_spans",
    "group_labels",
    "join_lines",
    "marker_letter",
    "merge_on_lines",
]
