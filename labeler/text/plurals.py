"""Singular candidates for the head word of a normalised name.

Anatomy mixes Latin/Greek plurals (alveolus/alveoli, atrium/atria,
vertebra/vertebrae, ganglion/ganglia, cortex/cortices, foramen/foramina,
phalanx/phalanges, testis/testes) with English ones (veins, arteries,
branches). A plural suffix is ambiguous without a dictionary (``-a`` may come
from ``-um`` or ``-on``; ``-es`` from ``-is`` or plain English), so instead of
guessing one singular we return every plausible singular. Two names are the same
up to number when their candidate sets intersect; a name always includes its
own surface, so a singular meets its plural. Only the last word (the head noun
after :func:`~labeler.text.normalize.normalize`) is inflected:
``left atria`` meets ``left atrium`` but ``atria wall`` does not meet ``atrium wall``.
"""

from __future__ import annotations

from functools import lru_cache

#: (plural suffix, singular suffix), Latin and Greek first.
_CLASSICAL: tuple[tuple[str, str], ...] = (
    ("i", "us"),  # alveoli, nuclei, bronchi, villi, fungi
    ("a", "um"),  # atria, cilia, flagella, ova, bacteria
    ("a", "on"),  # ganglia, mitochondria, spermatozoa
    ("ae", "a"),  # vertebrae, larvae, fibulae
    ("ices", "ex"),  # cortices, apices
    ("ices", "ix"),  # appendices, matrices, cervices
    ("yces", "yx"),  # calyces
    ("ina", "en"),  # foramina, lumina
    ("nges", "nx"),  # phalanges, larynges, pharynges
    ("es", "is"),  # testes, axes, pelves
    ("ides", "is"),  # epididymides
    ("ata", "a"),  # stomata
    ("ora", "us"),  # corpora
    ("era", "us"),  # viscera (viscus), genera
)

_IRREGULAR = {"teeth": "tooth", "feet": "foot", "mice": "mouse", "lice": "louse", "men": "man"}

_PLURAL_LAST_LETTERS = ("a", "e", "i", "s")

# Words ending like these are singular and must not lose their final "s".
_SINGULAR_S = ("ss", "us", "is", "ys", "as")


def _english(word: str) -> set[str]:
    found: set[str] = set()
    if word.endswith("ies") and len(word) > 4:
        found.add(word[:-3] + "y")  # arteries, capillaries, ovaries
    if word.endswith("ves") and len(word) > 4:
        found.update((word[:-3] + "f", word[:-3] + "fe"))  # leaves, halves
    if word.endswith(("ses", "xes", "zes", "ches", "shes")) and len(word) > 4:
        found.add(word[:-2])  # sinuses, processes, branches
    if word.endswith("s") and not word.endswith(_SINGULAR_S) and len(word) > 3:
        found.add(word[:-1])  # veins, valves, chambers
    return found


@lru_cache(maxsize=100_000)
def singular_forms(word: str) -> frozenset[str]:
    """``word`` itself plus every singular it may be the plural of."""
    if not word.endswith(_PLURAL_LAST_LETTERS) and word not in _IRREGULAR:
        return frozenset((word,))  # no plural suffix ends in another letter
    found = {word}
    if word in _IRREGULAR:
        found.add(_IRREGULAR[word])
    for plural, singular in _CLASSICAL:
        if word.endswith(plural) and len(word) > len(plural) + 1:
            found.add(word[: -len(plural)] + singular)
    found |= _english(word)
    return frozenset(found)


@lru_cache(maxsize=200_000)
def name_forms(normalized: str) -> frozenset[str]:
    """Every singular reading of a normalised name (head word = last word)."""
    if not normalized:
        return frozenset()
    stem, _, head = normalized.rpartition(" ")
    prefix = f"{stem} " if stem else ""
    return frozenset(prefix + form for form in singular_forms(head))
