"""The report's audits kept between reports: each item's share, valid while its inputs are.

``labeler report`` audits every answer — the shuffled-key control scores each answer
against another item's key, the consensus audit merges each item's names into the
scorer's classes and scores them against the key. That work is per item
(:func:`labeler.analysis.shuffled_pair_scores`, :func:`labeler.analysis.consensus_records`),
so :class:`AuditCache` keeps each item's value in the store's audit cache
(:mod:`labeler.store.audit_cache`) with what it was computed from, fingerprinted as the
score cache fingerprints a cell (:mod:`labeler.scoring.fingerprint`):

* the digest of its inputs' content (the answers' names, the key scored against — for the
  shuffled-key control the *other* item's key, so a re-pairing is a changed input);
* the lexicon fingerprint of the components those names reach, and the digest of the
  whole lexicon it was last checked against (the same state shortcut as decision 0019);
* the rules version, and the audit's own version (its ``kind``).

A value is reused when all are the current ones; the rest are computed in one batch
and stored back, in one transaction. The report is a reading command: when the
database refuses the write (read-only, locked), the values are used unstored
(``docs/decisions/0026-audit-cache.md``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TypeVar

from labeler.analysis import AuditInputs, ItemValue
from labeler.lexicon import Lexicon
from labeler.scoring import DEFAULT_RULES, scoring_version
from labeler.scoring.fingerprint import LexiconPrints, digest, prints
from labeler.store import Project
from labeler.store.audit_cache import AuditRow

In = TypeVar("In", bound=AuditInputs)


class AuditCache:
    """A project's kept audit values (:class:`labeler.analysis.AuditKeeper`).

    Reads every kept value of the current rules version once (one query), on first use.
    ``computed`` counts, per kind, the items whose value the last :meth:`kept` computed;
    ``stored`` turns False when the database refused a write.
    """

    def __init__(self, project: Project) -> None:
        self.table = project.audit_cache
        self.rules = scoring_version(DEFAULT_RULES)
        self._rows: dict[tuple[str, str], AuditRow] | None = None
        self.computed: dict[str, int] = {}
        self.stored = True

    def kept(
        self,
        kind: str,
        inputs: Mapping[str, In],
        compute: Callable[[Mapping[str, In], Lexicon | None], dict[str, ItemValue]],
        lexicon: Lexicon | None,
    ) -> dict[str, ItemValue]:
        """Every item's value of ``kind``: kept where still valid, else computed and stored."""
        if self._rows is None:
            self._rows = self.table.rows(self.rules)
        lexicon_prints = prints(Lexicon() if lexicon is None else lexicon)
        state = lexicon_prints.state
        out: dict[str, ItemValue] = {}
        missing: dict[str, In] = {}
        signatures: dict[str, str] = {}
        confirmed: list[tuple[str, str, str]] = []
        for item_id, given in inputs.items():
            signature = signatures[item_id] = digest([given.signature()])
            row = self._rows.get((kind, item_id))
            if row is not None and row.inputs_fp == signature:
                if row.lexicon_state == state:
                    out[item_id] = json.loads(row.value_json)
                    continue
                if row.lexicon_fp == _lexicon_fp(lexicon_prints, given):
                    out[item_id] = json.loads(row.value_json)
                    confirmed.append((state, kind, item_id))
                    continue
            missing[item_id] = given
        self.computed[kind] = len(missing)
        fresh = compute(missing, lexicon) if missing else {}
        rows = [
            AuditRow(
                item_id,
                kind,
                signatures[item_id],
                _lexicon_fp(lexicon_prints, given),
                state,
                json.dumps(fresh[item_id], ensure_ascii=False, separators=(",", ":")),
            )
            for item_id, given in missing.items()
        ]
        stored = self.table.put_many(self.rules, rows)
        self.stored = self.stored and stored and self.table.confirm(self.rules, confirmed)
        out.update(fresh)
        return out


def _lexicon_fp(lexicon_prints: LexiconPrints, given: AuditInputs) -> str:
    """The lexicon fingerprint of one item's audit: the components its key and names reach."""
    return lexicon_prints.cell(lexicon_prints.item((), given.key), given.names())
