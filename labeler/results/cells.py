"""Scored cells: every cell's latest answer with its full result (names, matches).

:func:`load_results` is the reference read (the export's numbers, every other read is
compared with it): each cell is the *latest* response of its (item, model, condition)
(responses are append-only), its result from the score cache or scored
(:mod:`labeler.results.cache`), with its item's flags and any reviewer's override.
:func:`counted_results` keeps the cells that count (:func:`labeler.results.answer_counts`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from labeler.prompts import CONDITIONS
from labeler.results.cache import _scores
from labeler.results.counts import NO_ANSWER_STATUSES, answer_counts
from labeler.results.flags import ItemFlags, item_flags
from labeler.review import effective_overrides
from labeler.scoring import MarkerScore, NameScore
from labeler.scoring.bulk import collector_paused
from labeler.store import Project


@dataclass(frozen=True, slots=True)
class ScoredCell:
    """The latest response of one cell, scored, with its item's flags.

    ``item_id`` is the internal id (as everywhere in the store); ``public_id``
    is the published ``PREFIX-N`` if the item has been numbered, else ``None``.
    """

    item_id: str
    public_id: str | None
    model: str
    condition: str
    status: str
    origin: str
    response_id: int
    parse_ok: bool
    predicted_names: tuple[str, ...]
    key_names: tuple[str, ...]
    subject: str
    tier: str
    score: NameScore
    unsolved_core: bool
    recitable: bool
    stale: bool = False  # answered for an older subject or question image
    markers: MarkerScore | None = None  # marker accuracy, for items whose key has markers
    override: float | None = None  # a reviewer's score for this answer (labeler.review)

    @property
    def answered(self) -> bool:
        """Whether the model answered at all."""
        return self.status not in NO_ANSWER_STATUSES

    @property
    def counts(self) -> bool:
        """Whether this answer counts (:func:`answer_counts`): what views, report and export use."""
        return answer_counts(self.status, self.stale)

    @property
    def marker_accuracy(self) -> float | None:
        """Share (0–1) of the key's named markers given the right name; None without markers."""
        return None if self.markers is None else self.markers.accuracy

    @property
    def f1(self) -> float:
        """The F1 that counts: a reviewer's override of this answer, else the scorer's."""
        return self.score.f1 if self.override is None else self.override

    @property
    def precision(self) -> float:
        return self.score.precision

    @property
    def recall(self) -> float:
        return self.score.recall

    @property
    def n_pred(self) -> int:
        return self.score.n_pred

    @property
    def n_key(self) -> int:
        return self.score.n_key


def load_results(project: Project, item_ids: Iterable[str] | None = None) -> list[ScoredCell]:
    """Every cell with a response (its latest), scored; optionally only for ``item_ids``.

    Flags are computed per item from that item's counted cells. Cells that do
    not count (:func:`answer_counts`) are included, marked, for the views that
    show them; use :func:`counted_results` for numbers.
    """
    with collector_paused():
        return _load_results(project, item_ids)


def counted_results(project: Project, item_ids: Iterable[str] | None = None) -> list[ScoredCell]:
    """The cells that count (:func:`answer_counts`): every number shown or published uses these."""
    return [c for c in load_results(project, item_ids) if c.counts]


def cell_raw(project: Project, response_id: int) -> str | None:
    """One answer's raw text, for a view that opens that cell (bulk reads never load it)."""
    return project.responses.raw_text(response_id)


def _load_results(project: Project, item_ids: Iterable[str] | None) -> list[ScoredCell]:
    wanted = None if item_ids is None else set(item_ids)
    items = {i.id: i for i in project.items.list() if wanted is None or i.id in wanted}
    scored = _scores(project, items)
    overrides = {rid: o.value for rid, o in effective_overrides(project).items()}
    flags = item_flags(  # the card's flags read the card's four conditions only
        (a.item_id, a.condition, overrides.get(a.id, s.score.f1))
        for a, s, stale in scored
        if answer_counts(a.status, stale) and a.condition in CONDITIONS
    )
    unflagged = ItemFlags(unsolved_core=True, recitable=False)
    public = project.public_ids.labels(project.id_prefix)
    cells = []
    for a, s, stale in scored:
        f = flags.get(a.item_id, unflagged)
        item = items[a.item_id]
        cells.append(
            ScoredCell(
                item_id=a.item_id,
                public_id=public.get(a.item_id),
                model=a.model,
                condition=a.condition,
                status=a.status,
                origin=a.origin,
                response_id=a.id,
                parse_ok=a.parse_ok,
                predicted_names=s.predicted_names,
                key_names=s.key_names,
                subject=item.subject,
                tier=item.tier,
                score=s.score,
                unsolved_core=f.unsolved_core,
                recitable=f.recitable,
                stale=stale,
                markers=s.markers,
                override=overrides.get(a.id),
            )
        )
    return cells
