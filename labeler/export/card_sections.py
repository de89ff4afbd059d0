"""The dataset card's sections computed from the project: review, agreement, caveats, citation.

The reference card (``blindspot-dataset-card.md``) carries caveats a reader needs before trusting
a number — a failure-only item set, answers from mixed API routes — and a citation. Here they
are worked out from the data being exported rather than written by hand, so a card never
claims a caveat that does not apply or misses one that does: :func:`card_facts` gathers what
the exported rows alone do not say (review decisions, curator agreement, answers left out,
draft items), and the ``*_section`` functions render Markdown. Nothing time-dependent is
written: the citation's default year is that of the newest exported item change.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from labeler.agreement import curator_agreement
from labeler.export.rows import Row
from labeler.export.settings import DecodeSetting
from labeler.export.summary import ResultsSummary
from labeler.results import LeftOut
from labeler.review import ReviewCounts, review_counts
from labeler.store import Item, Project
from labeler.text.counted import counted


@dataclass(frozen=True)
class AgreementFigure:
    """Key agreement between curators over the exported items that have a second key."""

    n_items: int = 0
    mean_f1: float | None = None
    n_identical: int = 0  # figures whose two keys agree name for name
    curators: int = 0  # distinct second curators


@dataclass(frozen=True)
class Citation:
    """What the BibTeX entry says (project settings ``pretty_name``, ``cite_*``)."""

    title: str
    authors: str = ""  # "A and B", BibTeX's separator
    year: str = ""
    url: str = ""


@dataclass(frozen=True)
class CardFacts:
    """What the card says that the exported rows alone cannot tell."""

    review: ReviewCounts = field(default_factory=ReviewCounts)
    agreement: AgreementFigure = field(default_factory=AgreementFigure)
    stale_left_out: int = 0  # answered for an older subject or image
    unanswered_left_out: int = 0  # the call failed (api_error): no answer
    draft_items: int = 0  # exported without being marked ready
    citation: Citation | None = None


def card_facts(project: Project, items: Sequence[Item], left_out: LeftOut) -> CardFacts:
    """The card's facts for ``items``, with how many of their cells did not count."""
    ids = [i.id for i in items]
    found = curator_agreement(project, ids)
    figure = AgreementFigure(
        n_items=len({c.item_id for c in found.comparisons}),
        mean_f1=found.mean_f1,
        n_identical=sum(c.agrees for c in found.comparisons),
        curators=len({c.second for c in found.comparisons}),
    )
    newest = max((i.updated_at for i in items), default="")
    citation = Citation(
        title=project.get_meta("pretty_name") or project.name,
        authors=project.get_meta("cite_authors") or "",
        year=project.get_meta("cite_year") or newest[:4],
        url=project.get_meta("cite_url") or "",
    )
    return CardFacts(
        review=review_counts(project, ids),
        agreement=figure,
        stale_left_out=left_out.stale,
        unanswered_left_out=left_out.unanswered,
        draft_items=sum(1 for i in items if i.status != "ready"),
        citation=citation,
    )


def review_section(facts: CardFacts) -> str:
    """How much of the data a reviewer checked: counts only (who and why stay private)."""
    r, a = facts.review, facts.agreement
    lines = [
        f"- {counted(r.items_reviewed, 'item')} reviewed (approved, or key confirmed as "
        f"published) by {counted(r.reviewers, 'reviewer')}.",
        f"- {counted(r.overrides, 'answer')} scored by a reviewer instead of the scorer; "
        "those rows carry the reviewer's `f1` (precision and recall stay the scorer's).",
    ]
    if a.mean_f1 is None:
        lines.append("- Key agreement: no item was keyed independently by a second curator.")
    else:
        lines.append(
            f"- **Key agreement: {a.mean_f1:.3f}** mean name-set F1 between two curators' "
            f"independent keys of {counted(a.n_items, 'item')} "
            f"({a.n_identical:,} identical; {counted(a.curators, 'second curator')}), "
            "scored with the same scorer and lexicon as the models."
        )
    return "\n".join(lines)


def caveats_section(
    facts: CardFacts,
    results: ResultsSummary,
    items: Sequence[Row],
    decode: Sequence[DecodeSetting],
) -> str:
    """The caveats that hold for this data, numbered, or a line saying none were found."""
    found: list[str] = []
    unsolved = sum(1 for i in items if i.get("unsolved_core"))
    if items and unsolved == len(items) and results.n_rows:
        found.append(
            f"**Failure-only set** — no model solved any of the {counted(len(items), 'item')} "
            "(F1 = 1) in any condition. If items were kept *because* models failed them, "
            "scores understate ability on figures in general."
        )
    mixed = sorted({d.model for d in decode if sum(e.model == d.model for e in decode) > 1})
    if mixed:
        names = ", ".join(f"`{m}`" for m in mixed)
        found.append(
            f"**Mixed routes** — {names} answered with more than one set of settings "
            "(provider, provider model or decode settings; see *Decode settings per model*): "
            "a difference between conditions may partly be a difference of route."
        )
    present = results.conditions()
    for model in results.models:
        missing = [c for c in present if c not in results.by_model[model]]
        if missing:
            found.append(
                f"**Incomplete model** — `{model}` has no answers under "
                f"{', '.join(f'`{c}`' for c in missing)}."
            )
    if facts.stale_left_out:
        found.append(
            "**Stale answers left out** — not published: "
            f"{counted(facts.stale_left_out, 'answer')} given for an older subject or question "
            "image of its item (a re-run answers them again)."
        )
    if facts.unanswered_left_out:
        found.append(
            "**Failed calls left out** — not published: "
            f"{counted(facts.unanswered_left_out, 'cell')} whose latest call returned no answer "
            "(API error)."
        )
    if facts.review.overrides:
        found.append(
            f"**Reviewer overrides** — {counted(facts.review.overrides, 'published score')} "
            "set by a reviewer's judgement instead of the scorer (see *Review*)."
        )
    if facts.draft_items:
        found.append(
            f"**Unreviewed items** — {counted(facts.draft_items, 'item')} not marked ready "
            "by a curator."
        )
    if not found:
        return "No caveats were found in the data."
    lines = ["| # | Caveat |", "|---|---|"]
    lines += [f"| {n} | {text} |" for n, text in enumerate(found, start=1)]
    return "\n".join(lines)


def citation_section(citation: Citation | None) -> str:
    """A BibTeX ``@dataset`` entry from the project's citation settings."""
    if citation is None:
        return ""
    fields = [("title", f"{{{citation.title}}}")]
    fields += [
        (name, value)
        for name, value in (
            ("author", citation.authors),
            ("year", citation.year),
            ("url", citation.url),
        )
        if value
    ]
    width = max(len(n) for n, _ in fields)
    body = ",\n".join(f"  {n.ljust(width)} = {{{v}}}" for n, v in fields)
    return f"```bibtex\n@dataset{{{citation_key(citation)},\n{body}\n}}\n```"


def citation_key(citation: Citation) -> str:
    """``<first author's last word><year><first title word>``, lower case ASCII."""
    first_author = citation.authors.split(" and ")[0].split()[-1:] if citation.authors else []
    title = re.findall(r"[A-Za-z0-9]+", citation.title)[:1]
    parts = [*first_author, citation.year, *title]
    key = "".join(re.sub(r"[^a-z0-9]", "", p.lower()) for p in parts)
    return key or "dataset"
