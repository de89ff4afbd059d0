"""A curator's gold set: how printed textbook labels split into name, alternatives and note.

Each row was written from biology knowledge and from how a grader reads a key,
before :func:`labeler.harvest.label_text.split_label` existed; it is never
regenerated from the code's output. The rules a grader accepts:

* a parenthesis (or "also called", "or", a slash) that gives another *name* of the
  part is an alternative: an answer using it is correct;
* a descriptive gloss, a state word ("cut", "sectioned", "enlarged"), an imaging
  or magnification remark, a numeral or a range, a bare category word ("muscle")
  is a note: it is not a name and an answer must not need it;
* "A/B valve" is name "A valve", alternative "B valve"; "Cortical (hard) bone" is
  name "Cortical bone", alternative "hard bone";
* a slash between two *different* parts (left/right, afferent/efferent, I/II) is
  not a synonym: the label is left as printed for the curator to split.
"""

from __future__ import annotations

import pytest

from labeler.harvest.label_text import split_label

# (printed label, name, alternatives, note)
GOLD: list[tuple[str, str, tuple[str, ...], str]] = [
    # the issue's own examples
    ("Tympanic membrane (eardrum)", "Tympanic membrane", ("eardrum",), ""),
    ("Periosteum (membrane covering bone)", "Periosteum", (), "membrane covering bone"),
    ("Aorta (cut)", "Aorta", (), "cut"),
    ("Mitral/bicuspid valve", "Mitral valve", ("bicuspid valve",), ""),
    ("Cortical (hard) bone", "Cortical bone", ("hard bone",), ""),
    ("Cranial nerves (I-XII)", "Cranial nerves", (), "I-XII"),
    # a synonym inside the name replaces the word before it
    ("Spongy (cancellous) bone", "Spongy bone", ("cancellous bone",), ""),
    ("Eustachian (auditory) tube", "Eustachian tube", ("auditory tube",), ""),
    ("Atrioventricular (AV) node", "Atrioventricular node", ("AV node",), ""),
    # an initialism replaces the words it abbreviates
    (
        "Endoplasmic reticulum (ER) membrane",
        "Endoplasmic reticulum membrane",
        ("ER membrane",),
        "",
    ),
    # synonyms and abbreviations at the end
    ("Sinoatrial node (SA node)", "Sinoatrial node", ("SA node",), ""),
    ("Deoxyribonucleic acid (DNA)", "Deoxyribonucleic acid", ("DNA",), ""),
    ("Red blood cells (RBCs)", "Red blood cells", ("RBCs",), ""),
    ("Left atrium (LA)", "Left atrium", ("LA",), ""),
    ("Alveoli (air sacs)", "Alveoli", ("air sacs",), ""),
    ("Scapula (shoulder blade)", "Scapula", ("shoulder blade",), ""),
    ("Oesophagus (gullet)", "Oesophagus", ("gullet",), ""),
    ("Nephron loop (loop of Henle)", "Nephron loop", ("loop of Henle",), ""),
    (
        "Pancreatic islets (islets of Langerhans)",
        "Pancreatic islets",
        ("islets of Langerhans",),
        "",
    ),
    ("Complex I (NADH dehydrogenase)", "Complex I", ("NADH dehydrogenase",), ""),
    ("Trachea (also called windpipe)", "Trachea", ("windpipe",), ""),
    ("Patella (or kneecap)", "Patella", ("kneecap",), ""),
    (
        "Mitral valve (bicuspid valve, left AV valve)",
        "Mitral valve",
        ("bicuspid valve", "left AV valve"),
        "",
    ),
    # slashes between synonyms
    ("Trachea/windpipe", "Trachea", ("windpipe",), ""),
    ("Malleus/hammer", "Malleus", ("hammer",), ""),
    ("Uterine/fallopian tube", "Uterine tube", ("fallopian tube",), ""),
    ("Tympanic membrane / eardrum", "Tympanic membrane", ("eardrum",), ""),
    # slashes between different parts: left for the curator, never synonyms
    ("Afferent/efferent arteriole", "Afferent/efferent arteriole", (), ""),
    ("Superior/inferior vena cava", "Superior/inferior vena cava", (), ""),
    ("Artery/vein", "Artery/vein", (), ""),
    ("Photosystem I/II", "Photosystem I/II", (), ""),
    # states of the specimen
    ("Epiglottis (raised)", "Epiglottis", (), "raised"),
    ("Kidney (sectioned)", "Kidney", (), "sectioned"),
    ("Heart (enlarged)", "Heart", (), "enlarged"),
    ("Stomach (cut away)", "Stomach", (), "cut away"),
    ("Femur (cross section)", "Femur", (), "cross section"),
    ("Diaphragm (relaxed)", "Diaphragm", (), "relaxed"),
    ("Lung [collapsed]", "Lung", (), "collapsed"),
    ("Aorta, cut", "Aorta", (), "cut"),
    # numerals and ranges
    ("Cervical vertebrae (C1–C7)", "Cervical vertebrae", (), "C1–C7"),
    ("Thoracic (T1–T12) vertebrae", "Thoracic vertebrae", (), "T1–T12"),
    ("Ribs (12 pairs)", "Ribs", (), "12 pairs"),
    # descriptive glosses, imaging remarks, references, category words
    ("Villi (finger-like projections)", "Villi", (), "finger-like projections"),
    (
        "Mitochondrion (site of aerobic respiration)",
        "Mitochondrion",
        (),
        "site of aerobic respiration",
    ),
    ("Ribosome (protein synthesis)", "Ribosome", (), "protein synthesis"),
    ("Pons (part of brainstem)", "Pons", (), "part of brainstem"),
    ("Pinna (see Fig. 12.3)", "Pinna", (), "see Fig. 12.3"),
    ("Red blood cell (SEM)", "Red blood cell", (), "SEM"),
    ("Muscle fibres (×400)", "Muscle fibres", (), "×400"),
    ("Deltoid (muscle)", "Deltoid", (), "muscle"),
    # both at once
    ("Trachea (windpipe, cut)", "Trachea", ("windpipe",), "cut"),
    ("Mitral/bicuspid valve (cut)", "Mitral valve", ("bicuspid valve",), "cut"),
    ("Tympanic membrane (eardrum) (cut)", "Tympanic membrane", ("eardrum",), "cut"),
    # damaged or empty brackets, stray spaces
    ("Aorta (cut", "Aorta", (), "cut"),
    ("Aorta ()", "Aorta", (), ""),
    ("  Tympanic  membrane (eardrum) ", "Tympanic membrane", ("eardrum",), ""),
    # plain names stay exactly as printed
    ("Left ventricle", "Left ventricle", (), ""),
    ("A band", "A band", (), ""),
    ("Cranial nerve II", "Cranial nerve II", (), ""),
    ("Type II alveolar cell", "Type II alveolar cell", (), ""),
    ("A-V node", "A-V node", (), ""),
]


@pytest.mark.parametrize(
    ("printed", "name", "alternatives", "note"), GOLD, ids=[g[0] for g in GOLD]
)
def test_split_matches_the_curators_gold(
    printed: str, name: str, alternatives: tuple[str, ...], note: str
) -> None:
    got = split_label(printed)
    assert (got.name, got.alternatives, got.note) == (name, alternatives, note)


def test_gold_set_is_large_and_covers_every_rule() -> None:
    assert len(GOLD) >= 40
    assert sum(bool(g[2]) for g in GOLD) >= 15  # alternatives
    assert sum(bool(g[3]) for g in GOLD) >= 15  # notes
    assert sum(not g[2] and not g[3] for g in GOLD) >= 8  # left as printed


# Whole keys: an alternative that is another label's name in the same figure is a category
# the label belongs to ("Alpha-Helix protein (Integral protein)" beside an "Integral protein"
# label), not another name of the part; as an alternative it would merge two parts.
KEY_GOLD: list[tuple[list[str], list[tuple[str, tuple[str, ...], str]]]] = [
    (
        ["Integral protein (Globular protein)", "Alpha-Helix protein (Integral protein)"],
        [
            ("Integral protein", ("Globular protein",), ""),
            ("Alpha-Helix protein", (), "Integral protein"),
        ],
    ),
    (
        ["Gingiva (gum)", "Pulp cavity (contains blood vessels and nerves)", "Root canal"],
        [
            ("Gingiva", ("gum",), ""),
            ("Pulp cavity", (), "contains blood vessels and nerves"),
            ("Root canal", (), ""),
        ],
    ),
    (
        ["Aorta (cut)", "Artery (aorta)"],
        [("Aorta", (), "cut"), ("Artery", (), "aorta")],
    ),
]


@pytest.mark.parametrize(("printed", "expected"), KEY_GOLD, ids=[k[0][0] for k in KEY_GOLD])
def test_split_of_a_whole_key_matches_the_curators_gold(printed, expected) -> None:
    from labeler.harvest.label_text import split_labels

    assert [(t.name, t.alternatives, t.note) for t in split_labels(printed)] == expected
