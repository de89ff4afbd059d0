"""The decode settings behind the published answers, per model, for the dataset card.

Each response stores what it was asked with (``settings_json``: provider, provider model
and decode settings, see ``labeler.runs.runner``). The card lists every distinct set per
published model with how many exported answers used it, so a reader sees a model that was
run with two settings ("mixed routes") instead of one silently averaged row. ``base_url``
is left out: it names a private endpoint, not a setting anyone needs to reproduce.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from labeler.store import Project

PRIVATE_SETTINGS = frozenset({"base_url"})


@dataclass(frozen=True)
class DecodeSetting:
    """One model's settings as stored, and how many exported answers were asked with them."""

    model: str
    settings: tuple[tuple[str, str], ...]  # (name, JSON value), sorted by name; () unrecorded
    n_responses: int


def decode_settings(project: Project, response_ids: Iterable[int]) -> list[DecodeSetting]:
    """Per model, every distinct stored settings set among the given responses, sorted."""
    counts: Counter[tuple[str, tuple[tuple[str, str], ...]]] = Counter()
    stored = project.responses.settings_counts(sorted(set(response_ids)))
    for (model, settings_json), n in stored.items():  # one parse per distinct stored set
        shown = sorted((k, json.dumps(v)) for k, v in json.loads(settings_json).items())
        counts[(model, tuple(kv for kv in shown if kv[0] not in PRIVATE_SETTINGS))] += n
    return [DecodeSetting(m, s, n) for (m, s), n in sorted(counts.items())]
