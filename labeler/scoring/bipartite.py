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

    ``edges`` maps ``(left, right)`` to a positive strength. Ties between equally
    good matchings are broken by the arc order below (source arcs, sink arcs,
    then ``edges`` in order) and Bellman-Ford's relaxation order, so the result
    is a fixed function of the input; the arcs live in flat lists (an arc at an
    even index, its reverse right after it) because this loop is the scorer's
    hot spot whenever a name has several candidate partners.
    """
    source, sink = n_left + n_right, n_left + n_right + 1
    tails: list[int] = []
    heads: list[int] = []
    costs: list[int] = []

    def arc(u: int, v: int, c: int) -> None:
        tails.extend((u, v))
        heads.extend((v, u))
        costs.extend((c, -c))

    for left in {left for left, _ in edges}:
        arc(source, left, 0)
    for right in {right for _, right in edges}:
        arc(n_left + right, sink, 0)
    first_edge = len(tails)
    for (left, right), strength in edges.items():
        arc(left, n_left + right, -strength)
    caps = [1, 0] * (len(tails) // 2)
    arcs = list(zip(range(len(tails)), tails, heads, costs, strict=True))
    n_nodes = n_left + n_right + 2

    while True:
        # caps are fixed during one search: scan only the open arcs, in the same order
        open_arcs = [arc for arc in arcs if caps[arc[0]] > 0]
        dist: list[float] = [_UNREACHED] * n_nodes
        dist[source] = 0
        via = [-1] * n_nodes  # the arc that last improved each node
        for _ in range(n_nodes):
            changed = False
            for i, u, v, c in open_arcs:
                if dist[u] + c < dist[v]:  # an unreached tail stays infinite: never relaxes
                    dist[v] = dist[u] + c
                    via[v] = i
                    changed = True
            if not changed:
                break
        if dist[sink] == _UNREACHED:
            break
        v = sink
        while v != source:
            i = via[v]
            caps[i] -= 1
            caps[i ^ 1] += 1
            v = tails[i]
    return sorted(pair for n, pair in enumerate(edges) if caps[first_edge + 2 * n] == 0)


#: Distance of a node no augmenting path reaches.
_UNREACHED = float("inf")
