"""Publishing a project: items.jsonl, results.jsonl, the dataset card, public IDs, import.

Modules, one job each: :mod:`~labeler.export.ids` (public numbering),
:mod:`~labeler.export.schema` (the published fields), :mod:`~labeler.export.rows`
and :mod:`~labeler.export.items` (building rows; :mod:`~labeler.export.terms` their
lexicon terms), :mod:`~labeler.export.card` (README.md), :mod:`~labeler.export.validate`,
:mod:`~labeler.export.writer` (atomic folder swap), :mod:`~labeler.export.exporter` (the
whole export) and :mod:`~labeler.export.importer` (published files back into a project).
This package imports nothing eagerly so ``labeler.results`` can use the IDs.
"""
