"""Leader lines in vector drawings: where each one starts and what it points at.

A leader line is a thin stroked path of straight segments (possibly a bracket
made of several). Segments whose endpoints meet are joined into one leader;
the leader belongs to the label whose box its nearest endpoint touches, and its
anchor is the endpoint farthest from that label — the part being named.
Curved or filled paths are drawing, not leaders, so a leader that touches an
outline does not wander into the drawing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from labeler.pdf.content import Drawing
from labeler.pdf.geometry import Box, Point, center, distance_to_box, union

MAX_LEADER_WIDTH = 4.0
MAX_LEADER_ITEMS = 8
JOIN_TOLERANCE = 1.5


@dataclass(frozen=True)
class Leader:
    """A connected set of leader segments: its id, its endpoints and its node points."""

    ident: int
    points: tuple[Point, ...]

    @property
    def bounds(self) -> Box:
        return union((x, y, x, y) for x, y in self.points)


def _segments(drawing: Drawing) -> list[tuple[Point, Point]] | None:
    if drawing.filled or not drawing.stroked or drawing.width > MAX_LEADER_WIDTH:
        return None
    if not 0 < len(drawing.items) <= MAX_LEADER_ITEMS:
        return None
    segs = []
    for item in drawing.items:
        if item[0] != "l":
            return None
        segs.append((tuple(item[1]), tuple(item[2])))
    return segs


class LeaderIndex:
    """All leaders of a page region, queried by label box."""

    def __init__(self, drawings: Sequence[Drawing]) -> None:
        segments: list[tuple[Point, Point]] = []
        for drawing in drawings:
            segments.extend(_segments(drawing) or ())
        parent = list(range(len(segments)))

        def find(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        buckets: dict[tuple[int, int], list[int]] = {}
        for index, seg in enumerate(segments):
            for x, y in seg:
                key = (round(x / JOIN_TOLERANCE), round(y / JOIN_TOLERANCE))
                for dx in (-1, 0, 1):
                    for dy in (-1, 0, 1):
                        for other in buckets.get((key[0] + dx, key[1] + dy), ()):
                            parent[find(other)] = find(index)
                buckets.setdefault(key, []).append(index)
        groups: dict[int, list[Point]] = {}
        for index, seg in enumerate(segments):
            groups.setdefault(find(index), []).extend(seg)
        self.leaders = [Leader(ident, tuple(points)) for ident, points in groups.items()]
        self.bounded = [(leader, leader.bounds) for leader in self.leaders]

    def leader_at(self, box: Box, margin: float) -> Leader | None:
        """The leader with an endpoint within ``margin`` of ``box`` that reaches away from it."""
        best: tuple[float, Leader] | None = None
        for leader, bounds in self.bounded:
            if distance_to_box(center(box), bounds) > margin + max(
                box[2] - box[0], box[3] - box[1]
            ):
                continue  # far away: skip the per-point distances
            near = min(distance_to_box(p, box) for p in leader.points)
            far = max(distance_to_box(p, box) for p in leader.points)
            if near <= margin and far > margin and (best is None or near < best[0]):
                best = (near, leader)
        return best[1] if best else None

    @staticmethod
    def anchor(leader: Leader, box: Box) -> Point:
        """The leader's point farthest from the label: where it points."""
        x, y = max(leader.points, key=lambda p: distance_to_box(p, box))
        return (round(x, 2), round(y, 2))
