"""The matcher's bipartite step against brute force on random small graphs."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.scoring.bipartite import max_matching
from tests.scoring import reference_impl


def brute_force(edges: dict[tuple[int, int], int]) -> tuple[int, int]:
    """(size, total weight) of the best matching by trying every edge subset."""
    best = (0, 0)
    pairs = list(edges)
    for r in range(len(pairs) + 1):
        for subset in itertools.combinations(pairs, r):
            lefts = [a for a, _ in subset]
            rights = [b for _, b in subset]
            if len(set(lefts)) == r and len(set(rights)) == r:
                best = max(best, (r, sum(edges[p] for p in subset)))
    return best


EDGES = st.dictionaries(
    st.tuples(st.integers(0, 3), st.integers(0, 3)), st.integers(1, 5), max_size=9
)


@settings(max_examples=300, deadline=None)
@given(EDGES)
def test_maximum_size_then_maximum_strength(edges):
    chosen = max_matching(edges, 4, 4)
    assert len({a for a, _ in chosen}) == len(chosen) == len({b for _, b in chosen})
    assert all(pair in edges for pair in chosen)
    assert (len(chosen), sum(edges[p] for p in chosen)) == brute_force(edges)


def test_size_beats_strength():
    # one strong edge 0-0, or two weak edges 0-1 and 1-0: two matches win
    edges = {(0, 0): 5, (0, 1): 1, (1, 0): 1}
    assert max_matching(edges, 2, 2) == [(0, 1), (1, 0)]


WIDE_EDGES = st.dictionaries(
    st.tuples(st.integers(0, 7), st.integers(0, 7)), st.integers(1, 5), max_size=24
)


@settings(max_examples=500, deadline=None)
@given(WIDE_EDGES)
def test_same_matching_as_the_reference_including_ties(edges):
    # ties between equally good matchings must break exactly as before the speed work
    assert max_matching(edges, 8, 8) == reference_impl.max_matching(edges, 8, 8)
