"""Where the starter lexicon's ontology rows come from, and the attribution their licences ask.

Uberon (CC BY 3.0), the Cell Ontology, the Plant Ontology and the Gene Ontology (CC BY 4.0)
require attribution wherever their content is redistributed. Exported items carry lexicon rows,
so every dataset card ends with :data:`ATTRIBUTION`; the README carries the same lines.
``labeler/data/lexicon/SOURCES.md`` records the exact releases.
"""

from __future__ import annotations

#: One line per ontology: name, where it lives, licence (as the licences ask to be credited).
ONTOLOGY_CREDITS: tuple[str, ...] = (
    "Uberon multi-species anatomy ontology, obophenotype/uberon, CC BY 3.0",
    "Cell Ontology, obophenotype/cell-ontology, CC BY 4.0",
    "Plant Ontology, Planteome/plant-ontology, CC BY 4.0",
    "Gene Ontology, © Gene Ontology Consortium, CC BY 4.0",
    "Ontology for the Anatomy of the Insect SkeletoMuscular system (AISM), "
    "insect-morphology/aism, CC0 1.0 / CC BY 4.0",
)

ATTRIBUTION = (
    "\n## Attribution\n\n"
    "The lexicon rows in `items.jsonl` that come from Labeler's starter biology lexicon include "
    "exact synonyms selected (filtered and reviewed, not changed in meaning) from:\n\n"
    + "".join(f"- {line}\n" for line in ONTOLOGY_CREDITS)
)
