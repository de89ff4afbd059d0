"""Build the starter lexicon ``labeler/data/lexicon/biology.csv`` by selection.

Run from the repository root (it is not imported by Labeler)::

    python labeler/data/lexicon/selection/build_starter.py /path/to/shared/ontology

Inputs, all beside this script and reviewed by hand:

* ``curated.csv``: rows written from anatomy (``source=curated``), including every
  ``distinct`` row;
* ``vocabulary.txt``: the names printed on textbook figures; an ontology term is a
  candidate only when its label or one of its exact synonyms is one of them;
* ``rejects.tsv``: ontology rows read and refused by a person (``id``, ``synonym``, reason).

The ontology tables (``uberon``, ``cl``, ``go-cc``, ``po``, ``aism``; never ``fbbt``, whose
fly usage collides with vertebrate names) give the exact synonyms of each candidate term. The
filter rules are in ``docs/decisions/0010-starter-lexicon.md``; each refused row is written to
``selection/refused.tsv`` with its reason so the selection can be audited. Ontology rows refused for
ambiguity, and the shared ``review.tsv`` rows, go to ``related.csv``: offered to the curator as
suggestions, never loaded as ``same`` rows.
"""

from __future__ import annotations

import csv
import sys
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from labeler.lexicon import Lexicon
from labeler.lexicon_lint import lint_lexicon
from labeler.text.normalize import normalize
from labeler.text.plurals import name_forms

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "biology.csv"
RELATED = HERE.parent / "related.csv"
ONTOLOGIES = ("uberon", "cl", "go-cc", "po", "aism")
#: Reasons of the shared rejected.tsv that mark a synonym as related, not wrong.
AMBIGUOUS = {"ambiguous", "shares_group_with_other_term", "starter_conflict"}

#: Synonyms too general to name one part on a figure.
GENERAL = {
    "organ",
    "tissue",
    "structure",
    "region",
    "part",
    "body",
    "cell",
    "system",
    "layer",
    "membrane",
    "vessel",
    "duct",
    "gland",
    "canal",
    "cavity",
    "space",
    "process",
    "segment",
    "lobe",
    "wall",
    "fluid",
    "matrix",
    "bone",
    "muscle",
    "nerve",
    "tube",
    "sac",
    "fiber",
    "fibre",
    "node",
    "plate",
    "ring",
    "organelle",
    "compartment",
    "zone",
    "area",
    "unit",
}
#: Endings of adjectives; a one-word synonym with one of them is refused unless listed below.
ADJECTIVE_ENDINGS = ("al", "ar", "ic", "ous", "ary", "eal", "ial", "ine", "oid", "ive")
NOUNS_WITH_ADJECTIVE_ENDINGS = {
    "canal",
    "vial",
    "pedal",
    "petal",
    "sepal",
    "tepal",
    "carpal",
    "tarsal",
    "metacarpal",
    "metatarsal",
    "choroid",
    "sesamoid",
    "thyroid",
    "hyoid",
    "deltoid",
    "mastoid",
    "xiphoid",
    "arachnoid",
    "adenoid",
    "uvular",
    "urine",
    "uterine",
    "intestine",
    "medulla",
    "vagina",
    "alveolar",
    "saphenous",
    "muscular",
    "molar",
    "premolar",
    "ocular",
    "pinnal",
    "navel",
    "spinal",
    "renal",
    "genital",
    "pituitary",
    "parathyroid",
    "sphenoid",
    "ethmoid",
    "vitreous",
    "branchiospine",
    "aqueous",
    "capillary",
    "ovary",
    "mammary",
    "papillary",
}
#: Words that mark ontology-internal or developmental wording a textbook label never uses.
NON_TEXTBOOK_WORDS = {
    "primordium",
    "anlage",
    "rudiment",
    "precursor",
    "embryonic",
    "fetal",
    "larval",
    "adult",
    "entity",
    "anatomical",
    "subdivision",
    "compound",
    "organism",
    "sensu",
    "pair",
    "set",
    "cluster",
    "collection",
    "portion",
    "element",
    "proper",
    "tunic",
    "intrinsic",
}


def key(name: str) -> str:
    """A name's comparison key: its normalised singular reading."""
    return min(name_forms(normalize(name)))


def read_vocabulary() -> set[str]:
    lines = (HERE / "vocabulary.txt").read_text(encoding="utf-8").splitlines()
    return {key(n) for n in (line.split("#")[0].strip() for line in lines) if n}


def read_tsv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


def read_rejects() -> dict[tuple[str, str], str]:
    rows = read_tsv(HERE / "rejects.tsv")
    return {(r["id"], key(r["synonym"])): r["reason"] for r in rows}


def refuse_reason(name: str, synonym: str, synonym_type: str) -> str | None:
    """Why one exact-synonym row may not be a ``same`` row, or ``None`` (the written rules)."""
    words = normalize(synonym).split()
    if synonym_type in {"MISSPELLING", "SYSTEMATIC"}:
        return f"type {synonym_type}"
    if len(words) == 1 and words[0] in GENERAL:
        return "too general"
    if (
        len(words) == 1
        and words[0].endswith(ADJECTIVE_ENDINGS)
        and words[0] not in NOUNS_WITH_ADJECTIVE_ENDINGS
        and len(normalize(name).split()) > 1
    ):
        return "adjective only"
    if NON_TEXTBOOK_WORDS.intersection(words) and not NON_TEXTBOOK_WORDS.intersection(
        normalize(name).split()
    ):
        return "ontology wording"
    if len(words) > 6:
        return "longer than six words"
    if any(ch.isdigit() for ch in synonym) and not any(ch.isdigit() for ch in name):
        return "code or number"
    return None


@dataclass(frozen=True)
class Selection:
    """The starter's rows (``canonical, synonym, relation, source``), the refused ontology rows
    (``id, name, synonym, reason``) and the related rows (``canonical, synonym, source, note``)."""

    rows: list[tuple[str, str, str, str]]
    refused: list[tuple[str, str, str, str]]
    related: list[tuple[str, str, str, str]]


def select(ontology_dir: Path) -> Selection:
    """Apply the written rules to the inputs; pure (writes nothing), so a test can rerun it."""
    vocabulary = read_vocabulary()
    rejects = read_rejects()
    curated = [r for r in csv.DictReader((HERE / "curated.csv").open(encoding="utf-8"))]
    curated_lexicon = Lexicon.from_rows(
        (r["canonical"], r["synonym"], r["relation"]) for r in curated
    )
    curated_group: dict[str, int] = {}
    heads: list[str] = []
    for n, group in enumerate(curated_lexicon.groups()):
        heads.append(group.canonical)
        for member in group.members:
            curated_group[key(member)] = n

    refused: list[tuple[str, str, str, str]] = []
    candidates: list[tuple[str, str, str]] = []  # (id, name, synonym)
    for ontology in ONTOLOGIES:
        terms: dict[str, list[dict[str, str]]] = defaultdict(list)
        for row in read_tsv(ontology_dir / f"{ontology}.tsv"):
            terms[row["id"]].append(row)
        for term_id, term_rows in terms.items():
            names = {key(term_rows[0]["name"])} | {key(r["synonym"]) for r in term_rows}
            if not names & vocabulary:
                continue
            for r in term_rows:
                reason = rejects.get((term_id, key(r["synonym"])))
                reason = reason or refuse_reason(r["name"], r["synonym"], r["synonym_type"])
                if reason is None:
                    a, b = curated_group.get(key(r["name"])), curated_group.get(key(r["synonym"]))
                    if a is not None and b is not None and a != b:
                        reason = "joins two curated groups"
                if reason:
                    refused.append((term_id, r["name"], r["synonym"], reason))
                else:
                    candidates.append((term_id, r["name"], r["synonym"]))

    # One surface, one term: a surface that two selected terms claim is refused for both.
    claims: dict[str, set[str]] = defaultdict(set)
    for term_id, name, synonym in candidates:
        claims[key(name)].add(term_id)
        claims[key(synonym)].add(term_id)
    selected = []
    for term_id, name, synonym in candidates:
        if len(claims[key(synonym)]) > 1 or len(claims[key(name)]) > 1:
            refused.append((term_id, name, synonym, "surface claimed by two terms"))
        elif key(name) not in curated_group and key(synonym) in curated_group:
            # The term joins a curated group: say so under that group's canonical name.
            selected.append((heads[curated_group[key(synonym)]], name, "same", term_id))
        else:
            selected.append((name, synonym, "same", term_id))

    rows: list[tuple[str, str, str, str]] = []
    seen: set[tuple[str, str]] = set()
    ordered = [(r["canonical"], r["synonym"], r["relation"], r["source"]) for r in curated]
    for name, synonym, relation, source in [*ordered, *selected]:
        if (key(name), key(synonym)) not in seen and (key(synonym), key(name)) not in seen:
            seen.add((key(name), key(synonym)))
            rows.append((name, synonym, relation, source))

    related = [
        (r[1], r[2], r[0], r[3])
        for r in sorted(refused)
        if r[3] in {"surface claimed by two terms", "joins two curated groups"}
    ]
    for row in read_tsv(ontology_dir / "review.tsv"):
        related.append((row["name"], row["synonym"], row["id"], "joins a starter group"))
    for row in read_tsv(ontology_dir / "rejected.tsv"):
        reasons = set(row["reasons"].split(";"))
        textbook = key(row["name"]) in vocabulary or key(row["synonym"]) in vocabulary
        if textbook and reasons & AMBIGUOUS and not reasons & {"abbrev", "parenthetical"}:
            note = "ontology synonym shared with another term: " + (row["note"] or row["reasons"])
            related.append((row["name"], row["synonym"], row["id"], note))
    return Selection(rows, sorted(refused), related)


def main(ontology_dir: Path) -> int:
    """Write ``biology.csv``, ``related.csv`` and ``selection/refused.tsv``; 1 if the lint fails."""
    selection = select(ontology_dir)
    rows = selection.rows
    issues = lint_lexicon(Lexicon.from_rows((c, s, r) for c, s, r, _ in rows))
    for issue in issues:
        print(f"lint: {issue.message}", file=sys.stderr)
    _write(OUT, ("canonical", "synonym", "relation", "source"), rows)
    _write(HERE / "refused.tsv", ("id", "name", "synonym", "reason"), selection.refused, "\t")
    _write(RELATED, ("canonical", "synonym", "source", "note"), selection.related)
    ontology = sum(r[3] != "curated" for r in rows)
    print(
        f"{len(rows)} rows ({ontology} from ontologies), {len(selection.refused)} refused, "
        f"{len(selection.related)} related, {len(issues)} lint issues"
    )
    return 1 if issues else 0


def _write(
    path: Path, header: tuple[str, ...], rows: Iterable[Sequence[str]], delimiter: str = ","
) -> None:
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, delimiter=delimiter, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(rows)


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "/work/shared/ontology")))
