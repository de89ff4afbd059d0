"""The expert rules' small word tables: spelling, adjective forms, heads, context.

Each table is short on purpose and every entry is a fact a biology grader
would assert without hesitation. A table that grew by itself (every noun with
its adjective) would start merging parts; see ``docs/decisions/0009``.
"""

from __future__ import annotations

import re

#: Whole-word British → US spellings the patterns below do not cover.
BRITISH_WORDS: dict[str, str] = {
    "grey": "gray",
    "centre": "center",
    "centres": "centers",
    "fibre": "fiber",
    "fibres": "fibers",
    "metre": "meter",
    "litre": "liter",
    "calibre": "caliber",
    "sulphur": "sulfur",
    "sulphate": "sulfate",
    "mould": "mold",
    "moulds": "molds",
    "ageing": "aging",
    "foetal": "fetal",
}

#: Words where ``oe`` is not the British digraph (``oe → e`` would be a misspelling).
_OE_KEEP = frozenset({"toe", "toes", "shoe", "shoes", "oboe", "poem", "poet", "does", "goes"})
_OUR = re.compile(r"(?<=\w{2})our(s?)$")  # colour, humour, tumours; not "four", "hour"
_AE = re.compile(r"ae(?=\w)")  # haem, caecum, anaemia; a word-final "ae" is a Latin plural
_OE = re.compile(r"oe(?=[^s\W]|s\w)")  # oesophagus, foetus, coeliac; not "toe", "toes"


def us_spelling(word: str) -> str:
    """The US spelling of one lower-case word (itself when it has no British form)."""
    if word in BRITISH_WORDS:
        return BRITISH_WORDS[word]
    if len(word) < 5:
        return word
    word = _OUR.sub(r"or\1", word)
    word = _AE.sub("e", word)
    return word if word in _OE_KEEP else _OE.sub("e", word)


#: Noun → the adjective an anatomist writes for it ("arch of the aorta" = "aortic arch").
ADJECTIVES: dict[str, str] = {
    "aorta": "aortic",
    "heart": "cardiac",
    "lung": "pulmonary",
    "kidney": "renal",
    "liver": "hepatic",
    "stomach": "gastric",
    "brain": "cerebral",
    "cerebrum": "cerebral",
    "cerebellum": "cerebellar",
    "nucleus": "nuclear",
    "mitochondrion": "mitochondrial",
    "trachea": "tracheal",
    "bronchus": "bronchial",
    "larynx": "laryngeal",
    "pharynx": "pharyngeal",
    "esophagus": "esophageal",
    "intestine": "intestinal",
    "rectum": "rectal",
    "duodenum": "duodenal",
    "pancreas": "pancreatic",
    "spleen": "splenic",
    "thorax": "thoracic",
    "abdomen": "abdominal",
    "pelvis": "pelvic",
    "uterus": "uterine",
    "ovary": "ovarian",
    "testis": "testicular",
    "femur": "femoral",
    "tibia": "tibial",
    "ulna": "ulnar",
    "humerus": "humeral",
    "sternum": "sternal",
    "skull": "cranial",
    "vertebra": "vertebral",
    "cornea": "corneal",
    "retina": "retinal",
    "atrium": "atrial",
    "ventricle": "ventricular",
    "alveolus": "alveolar",
    "placenta": "placental",
    "vein": "venous",
    "artery": "arterial",
}

#: Organs whose "of the X" only says where the part is ("apex of the heart" = "apex").
CONTEXT: frozenset[str] = frozenset(
    {
        "heart", "brain", "eye", "ear", "kidney", "lung", "lungs", "skin", "cell", "leaf",
        "flower", "plant", "stem", "root", "tooth", "stomach", "liver", "nephron", "neuron",
        "body", "human body",
    }
)  # fmt: skip

#: Head nouns that add nothing after a named muscle, bone, gland or nerve.
HEADS: frozenset[str] = frozenset(
    {"muscle", "muscles", "bone", "bones", "gland", "glands", "nerve", "nerves"}
)

#: Body regions and organs: "heart muscle", "breast bone", "cheek bone" are not the region.
REGIONS: frozenset[str] = frozenset(
    {
        "heart", "stomach", "eye", "ear", "hip", "cheek", "arm", "leg", "neck", "back", "chest",
        "thigh", "calf", "jaw", "breast", "collar", "shin", "skull", "head", "face", "hand",
        "foot", "toe", "finger", "thumb", "wrist", "ankle", "knee", "elbow", "shoulder", "tail",
        "wing", "lung", "liver", "bladder", "tongue", "lip", "nose", "gut", "body", "trunk",
        "pelvic", "chin", "brow", "rump", "flank", "groin", "cannon",
    }
)  # fmt: skip

#: Position words Latin puts last ("vena cava superior" = "superior vena cava").
LATIN_POSITIONS: frozenset[str] = frozenset(
    {
        "superior", "inferior", "anterior", "posterior", "major", "minor", "maximus", "medius",
        "minimus", "internus", "externus", "interna", "externa", "internal", "external",
        "lateralis", "medialis", "longus", "brevis", "magnus", "profundus", "superficialis",
    }
)  # fmt: skip

#: Latin plurals the suffix rules cannot reach.
IRREGULAR_PLURALS: dict[str, str] = {"vasa": "vas", "ossa": "os", "crura": "crus"}
