"""The expert fuzzy level compares a prediction only with key texts of its own bucket.

``contrast.typo_bucket`` is sound only if every pair :func:`contrast.typo_close` accepts
has equal buckets: then skipping the other pairs changes no score. Pairs are drawn as a
name and a slip of it (a letter inserted, dropped, changed or two swapped, a word added
or dropped) over words dense in numerals, roman numerals, single letters, contrast words
and morphemes, so many of them are typo-close and many are close calls.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from labeler.scoring import score_names
from labeler.scoring.contrast import typo_bucket, typo_close

WORDS = [
    "structure", "1714", "1734", "17", "ii", "iii", "iv", "x", "a", "b", "type", "artery",
    "arterys", "vein", "left", "right", "osteoblast", "osteoclast", "molar", "premolar",
    "nucleus", "nucleolus", "ileum", "ilium", "cell", "celll", "", "mitochondrion",
]  # fmt: skip
LETTERS = "aeilnorstuvx1279 "


@st.composite
def slipped(draw: st.DrawFn) -> tuple[str, str]:
    words = draw(st.lists(st.sampled_from(WORDS) | st.text(LETTERS, max_size=6), max_size=4))
    text = " ".join(words)
    other = list(text)
    for _ in range(draw(st.integers(1, 2))):
        kind = draw(st.sampled_from(["insert", "drop", "change", "swap", "word"]))
        at = draw(st.integers(0, len(other)))
        if kind == "insert":
            other.insert(at, draw(st.sampled_from(LETTERS)))
        elif kind == "drop" and at < len(other):
            del other[at]
        elif kind == "change" and at < len(other):
            other[at] = draw(st.sampled_from(LETTERS))
        elif kind == "swap" and at + 1 < len(other):
            other[at], other[at + 1] = other[at + 1], other[at]
        elif kind == "word":
            other.extend(" " + draw(st.sampled_from(WORDS)))
    return text, "".join(other)


@settings(max_examples=1500, deadline=None)
@given(slipped())
def test_typo_close_names_share_a_bucket(pair):
    a, b = pair
    if typo_close(a, b):
        assert typo_bucket(a) == typo_bucket(b), (a, b)


def test_buckets_keep_typos_and_part_numbers_apart():
    assert typo_bucket("structure 1714") != typo_bucket("structure 1734")
    assert typo_bucket("type ii cell") != typo_bucket("type iii cell")
    assert typo_bucket("mitochondrian") == typo_bucket("mitochondrion")
    assert typo_bucket("arterys wall") == typo_bucket("artery wall")  # a slip in a contrast word
    # the scorer still finds the typo, and still refuses the different part number
    assert score_names(["type 2 pneumocite"], ["type 2 pneumocyte"]).matches[0].how == "fuzzy"
    assert score_names(["structure 1734"], ["structure 1714"]).f1 == 0.0
    assert score_names(["structure 1734"], ["structure 1714"], rules="card").f1 == 1.0
