"""The published fields, in order, with their types and meanings.

One table per file drives the row builders, the validator and the dataset
card's ``dataset_info.features`` and schema tables, so they cannot drift apart.
``results.jsonl`` is exactly the dataset card's "Schema — results.jsonl".
Type names: ``string``, ``float64``, ``int64``, ``bool`` and ``list[string]``
map to Hugging Face features; the items-only types are documented in the card.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Field:
    """One published column."""

    name: str
    type: str
    description: str


RESULT_FIELDS: tuple[Field, ...] = (
    Field("item_id", "string", "Public item code (`PREFIX-N`)"),
    Field("model", "string", "Model identifier, e.g. `google/gemini-3.6-flash`"),
    Field("condition", "string", "`blind`, `told`, `desc`, or `no-image`"),
    Field("f1", "float64", "Synonym-aware name-set F1 (0–1)"),
    Field("precision", "float64", "Precision component"),
    Field("recall", "float64", "Recall component"),
    Field("n_pred", "int64", "Number of names the model predicted"),
    Field("n_key", "int64", "Number of ground-truth names"),
    Field("predicted_names", "list[string]", "The model's label list"),
    Field("key_names", "list[string]", "Ground-truth names"),
    Field("subject", "string", "Short factual description of the diagram"),
    Field("tier", "string", "Item tier (`core` or `extended`)"),
    Field("unsolved_core", "bool", "True if no model solved this item"),
    Field("recitable", "bool", "True if ≥1 model scored F1 ≥ 0.5 with no image"),
    Field("parse_ok", "bool", "Whether the model's output parsed correctly"),
)

ITEM_FIELDS: tuple[Field, ...] = (
    Field("item_id", "string", "Public item code (`PREFIX-N`)"),
    Field("subject", "string", "Short factual description of the diagram"),
    Field("tier", "string", "Item tier (`core` or `extended`)"),
    Field("pattern", "string", "Provenance pattern (`A`, `B` or `C`)"),
    Field("n_key", "int64", "Number of ground-truth names (synonymous key names count once)"),
    Field("key_names", "list[string]", "Ground-truth names, in key order"),
    Field(
        "markers",
        "map[string, string|null]|null",
        "Printed marker letter → key name (null name if the letter has none); "
        "null if the item has no markers",
    ),
    Field(
        "synonyms",
        "map[string, list[string]]",
        "Key name → every other name the scorer accepted as the same part",
    ),
    Field(
        "alternatives",
        "map[string, list[string]]",
        "Key name → the other names printed with it in the figure (`eardrum` for "
        "`Tympanic membrane (eardrum)`); scored as the same part, so also in `synonyms`",
    ),
    Field(
        "key_notes",
        "map[string, string]",
        "Key name → printed text that is not a name (`cut`, `I-XII`, a gloss); "
        "empty if none; never scored",
    ),
    Field(
        "distinct",
        "map[string, list[string]]",
        "Key name → names the scorer was told are a different part "
        "(they veto plural and fuzzy matches)",
    ),
    Field(
        "lexicon",
        "list[[string, string, string]]",
        "The lexicon rows `[canonical, synonym, relation]` (relation `same` or `distinct`) "
        "that bear on this item's key and answers; enough to re-score every row exactly",
    ),
    Field("unsolved_core", "bool", "True if no model solved this item"),
    Field("recitable", "bool", "True if ≥1 model scored F1 ≥ 0.5 with no image"),
    Field(
        "mean_f1",
        "map[string, float64|null]",
        "Condition → mean F1 (0–1) across models; null if the condition was not run",
    ),
)

RESULT_NAMES: tuple[str, ...] = tuple(f.name for f in RESULT_FIELDS)

#: The field an export made with ``--include-slots`` adds to every row (decision 0022).
SLOT_FIELD = Field(
    "slot_accuracy",
    "float64|null",
    "Under `slots` / `slots-no-image`: the share (0–1) of numbered slots given their key "
    "name; null under the card's four conditions",
)


def result_fields(slots: bool = False) -> tuple[Field, ...]:
    """The results.jsonl fields: the card's, plus ``slot_accuracy`` when slots are included."""
    return (*RESULT_FIELDS, SLOT_FIELD) if slots else RESULT_FIELDS


ITEM_NAMES: tuple[str, ...] = tuple(f.name for f in ITEM_FIELDS)

RESULTS_FILE = "results.jsonl"
ITEMS_FILE = "items.jsonl"
SAMPLE_FILE = "sample/results.jsonl"
CARD_FILE = "README.md"
PROVENANCE_FILE = "provenance.jsonl"
AUDIT_FILE = "audit.jsonl"  # --private only: the review audit trail (labeler.review)
SAMPLE_ROWS = 10
#: Written only by ``labeler export --with-images`` (labeler/export/images.py).
ITEMS_PARQUET = "items/train-00000-of-00001.parquet"
RESULTS_PARQUET = "results/train-00000-of-00001.parquet"

#: Every file an export can contain; a folder holding anything else is not an export.
EXPORT_FILES: frozenset[str] = frozenset(
    {RESULTS_FILE, ITEMS_FILE, SAMPLE_FILE, CARD_FILE, PROVENANCE_FILE, AUDIT_FILE}
    | {ITEMS_PARQUET}
    | {RESULTS_PARQUET}
)
