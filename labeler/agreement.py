"""Curator agreement: how closely two curators' independent keys of one figure agree.

A key is only as good as the curator who wrote it; the way to know is a second curator keying
the same figure without seeing the first key. The second key comes either from the same
project (``labeler items add-key --curator NAME``, kept beside the item's own key) or from a
second project built from the same book (``labeler agreement A B``: items are paired by source
bytes, page and overlapping clip).

Agreement is the name-set F1 between the two keys through the *same* scorer the models face —
the item's lexicon (global rows, its own additions, its key's alternatives, and the other
key's alternatives), so "bicuspid valve" against "mitral valve" is agreement, not a dispute.
The names one key has and the other lacks are the disagreements a team resolves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from labeler.errors import LabelerError
from labeler.results import key_names, project_lexicon, score_cell
from labeler.store import Item, KeyEntry, Project
from labeler.store.records import alternative_rows
from labeler.store.reviews import CuratorKey

#: Clips of two items must overlap at least this much (intersection over union) to be one figure.
MIN_CLIP_IOU = 0.5


@dataclass(frozen=True)
class KeyComparison:
    """One figure's two keys compared: the F1 between them and the names only one has."""

    item_id: str  # in the first project
    subject: str
    first: str  # whose key: "key" (the item's own) or the first project's name
    second: str  # the other curator, or the second project's name
    f1: float
    only_first: tuple[str, ...]  # names of the first key the second does not have
    only_second: tuple[str, ...]  # names of the second key the first does not have

    @property
    def agrees(self) -> bool:
        """Whether there is nothing to resolve."""
        return not self.only_first and not self.only_second


@dataclass(frozen=True)
class Agreement:
    """Every compared figure, and the second project's items that had no counterpart."""

    comparisons: tuple[KeyComparison, ...]
    unpaired: tuple[str, ...] = ()  # ids in the second project no item of the first matched

    @property
    def mean_f1(self) -> float | None:
        """Mean key agreement over the compared figures (None: nothing compared)."""
        if not self.comparisons:
            return None
        return sum(c.f1 for c in self.comparisons) / len(self.comparisons)

    @property
    def disagreements(self) -> tuple[KeyComparison, ...]:
        """The figures whose keys differ, worst first."""
        return tuple(sorted((c for c in self.comparisons if not c.agrees), key=lambda c: c.f1))


def add_curator_key(
    project: Project, item_id: str, curator: str, names: Sequence[str]
) -> CuratorKey:
    """Store ``curator``'s independent key of the item (replacing their earlier one)."""
    project.items.get(item_id)
    curator = " ".join(curator.split())
    cleaned = [" ".join(n.split()) for n in names if n.strip()]
    if not curator:
        raise LabelerError("say whose key this is: --curator NAME")
    if not cleaned:
        raise LabelerError("a key needs at least one name")
    return project.reviews.set_curator_key(item_id, curator, cleaned)


def compare_keys(
    project: Project,
    item: Item,
    first: Sequence[KeyEntry],
    second: Sequence[KeyEntry],
    labels: tuple[str, str],
) -> KeyComparison:
    """Score ``second``'s names against ``first``'s with the item's lexicon (both keys'
    alternatives count as the same part)."""
    lexicon = project_lexicon(project, item.id).with_rows(alternative_rows(second))
    score = score_cell(key_names(second), key_names(first), lexicon)
    return KeyComparison(
        item_id=item.id,
        subject=item.subject,
        first=labels[0],
        second=labels[1],
        f1=score.f1,
        only_first=tuple(score.missed_key),
        only_second=tuple(score.unmatched_pred),
    )


def curator_agreement(project: Project, item_ids: Iterable[str] | None = None) -> Agreement:
    """Each second curator's key against the item's own key (of ``item_ids`` if given)."""
    wanted = None if item_ids is None else set(item_ids)
    second_keys = [
        ck for ck in project.reviews.curator_keys() if wanted is None or ck.item_id in wanted
    ]
    keys = project.items.keys() if second_keys else {}  # read only when there is a second key
    out = []
    for ck in second_keys:
        item = project.items.get(ck.item_id)
        second = [KeyEntry(n) for n in ck.names]
        out.append(compare_keys(project, item, keys.get(item.id, []), second, ("key", ck.curator)))
    return Agreement(tuple(out))


def project_agreement(first: Project, second: Project) -> Agreement:
    """The keys of two projects' common figures compared (the first project's lexicon scores)."""
    if first.folder.resolve() == second.folder.resolve():
        raise LabelerError("compare two different projects (the same folder was given twice)")
    pairs = pair_items(first, second)
    keys_a, keys_b = first.items.keys(), second.items.keys()
    labels = (first.name, second.name)
    out = [
        compare_keys(first, a, keys_a.get(a.id, []), keys_b.get(b.id, []), labels) for a, b in pairs
    ]
    paired = {b.id for _, b in pairs}
    unpaired = tuple(i.id for i in second.items.list() if i.id not in paired)
    return Agreement(tuple(out), unpaired)


def pair_items(first: Project, second: Project) -> list[tuple[Item, Item]]:
    """Items of the two projects that show the same figure.

    The same source document (by its bytes) and page with clips overlapping by at least
    :data:`MIN_CLIP_IOU`, best overlap first; an item without a source pairs by its id.
    """
    sha_a = {s.id: s.sha256 for s in first.sources.all()}
    sha_b = {s.id: s.sha256 for s in second.sources.all()}
    by_id = {i.id: i for i in second.items.list()}
    taken: set[str] = set()
    pairs = []
    for a in first.items.list():
        found: Item | None = None
        if a.source_id is None:
            found = by_id.get(a.id)
        else:
            best = 0.0
            for b in by_id.values():
                same = b.source_id is not None and sha_b.get(b.source_id) == sha_a[a.source_id]
                if b.id in taken or not same or b.page != a.page:
                    continue
                overlap = _iou(a.clip, b.clip)
                if overlap >= MIN_CLIP_IOU and overlap > best:
                    found, best = b, overlap
        if found is not None and found.id not in taken:
            taken.add(found.id)
            pairs.append((a, found))
    return pairs


def _iou(a: tuple[float, ...] | None, b: tuple[float, ...] | None) -> float:
    """Intersection over union of two clips; a whole page (None) only matches a whole page."""
    if a is None or b is None:
        return 1.0 if a is None and b is None else 0.0
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    inter = max(w, 0.0) * max(h, 0.0)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0
