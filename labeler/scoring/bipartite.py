"""Maximum bipartite matching that prefers stronger edges.

The scorer must match one-to-one and *maximally*: a greedy pass can strand a
key name (pred A takes key X although A could also take Y, the only key pred B
fits), which under-scores a correct answer. Successive shortest augmenting
paths on costs ``-strength`` give a matching of maximum size, and among those
the one with the largest total strength. Graphs are tiny (tens of names), so a
plain Bellman-Ford per augmentation is ample; callers skip this entirely when
no name has more than one candidate partner.
"""

from __future__ import annotations

from collections.abc import Mapping


def max_matching(
    edges: Mapping[tuple[int, int], int], n_left: int, n_right: int
) -> list[tuple[int, int]]:
    """Pairs ``(left, right)`` of a maximum matching with maximum total edge weight.

    ``edges`` maps ``(left, right)`` to a positive strength.
    """
    source, sink = n_left + n_right, n_left + n_right + 1
    # residual capacity and cost per directed arc
    cap: dict[tuple[int, int], int] = {}
    cost: dict[tuple[int, int], int] = {}

    def arc(u: int, v: int, c: int) -> None:
        cap[(u, v)], cap[(v, u)] = 1, 0
        cost[(u, v)], cost[(v, u)] = c, -c

    lefts = {left for left, _ in edges}
    rights = {right for _, right in edges}
    for left in lefts:
        arc(source, left, 0)
    for right in rights:
        arc(n_left + right, sink, 0)
    for (left, right), strength in edges.items():
        arc(left, n_left + right, -strength)

    while True:
        dist = {source: 0}
        prev: dict[int, int] = {}
        for _ in range(n_left + n_right + 2):
            changed = False
            for (u, v), c in cap.items():
                if c > 0 and u in dist and dist[u] + cost[(u, v)] < dist.get(v, 1 << 30):
                    dist[v] = dist[u] + cost[(u, v)]
                    prev[v] = u
                    changed = True
            if not changed:
                break
        if sink not in dist:
            break
        v = sink
        while v != source:
            u = prev[v]
            cap[(u, v)] -= 1
            cap[(v, u)] += 1
            v = u
    return sorted((left, right) for (left, right) in edges if cap[(left, n_left + right)] == 0)
