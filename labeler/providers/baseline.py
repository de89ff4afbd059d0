"""``baseline/subject-prior``: an offline model that guesses from the project's own corpus.

For an item it predicts the key names most common among the *other* items whose
subject shares a word with this one (leave-one-out, so an item never sees its
own key). It needs no API, lets a fresh install produce real scored results, and
measures how guessable a dataset is from its subjects alone. It answers in the
same JSON a VLM would and goes through the same parsing and scoring.

Under ``blind`` the subject is not disclosed, so the baseline does not use it
there: it predicts the names most common across all other items. Asked a slot question it
puts the same names on the marks in an order drawn from the item's id alone: it never
sees the figure, so its slot accuracy is chance level, the floor the slot conditions are
read against.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from statistics import median

from labeler.providers.base import OK, CallRequest, CallResult, Provider
from labeler.providers.spec import ProviderSpec, no_thinking
from labeler.usage import Usage

# Words that say nothing about which parts a figure has.
_STOPWORDS = frozenset(
    re.findall(
        r"\w+",
        "a an and of the in on to with for from by as at or its it is are this that "
        "diagram figure view section structure showing shown human",
    )
)


def subject_words(subject: str) -> frozenset[str]:
    """Lower-cased content words of a subject (stop words and 1–2 letter words dropped)."""
    words = re.findall(r"[a-z0-9]+", subject.lower())
    return frozenset(w for w in words if len(w) > 2 and w not in _STOPWORDS)


class SubjectPriorBaseline(Provider):
    """Predicts from ``corpus``: item_id → (subject, key names)."""

    def __init__(self, corpus: Mapping[str, tuple[str, Sequence[str]]]) -> None:
        self._corpus = {
            item_id: (subject_words(subject), list(dict.fromkeys(names)))
            for item_id, (subject, names) in corpus.items()
        }

    def predict(self, item_id: str, use_subject: bool = True) -> list[str]:
        """The predicted names: as many as the neighbours' median key size, most common first."""
        words = self._corpus[item_id][0] if item_id in self._corpus else frozenset()
        neighbours = [
            names
            for other, (other_words, names) in self._corpus.items()
            if other != item_id and (not use_subject or words & other_words)
        ]
        if not neighbours:
            return []
        counts = Counter(name for names in neighbours for name in names)
        size = round(median(len(names) for names in neighbours))
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].lower()))
        return [name for name, _ in ranked[:size]]

    async def _send(self, request: CallRequest) -> CallResult:
        names = self.predict(request.item_id, use_subject=request.condition != "blind")
        labels: list[dict[str, object]]
        if request.marks:
            labels = [
                {"number": _number(mark), "name": name}
                for mark, name in zip(
                    _shuffled(request.marks, request.item_id), names, strict=False
                )
            ]
        else:
            labels = [{"name": name, "location_hint": ""} for name in names]
        answer = {
            "diagram_is": request.subject if request.condition != "blind" else "",
            "labels": labels,
        }
        return CallResult(OK, json.dumps(answer, ensure_ascii=False), "stop", Usage(0, 0, 0))


SPEC = ProviderSpec(
    name="baseline",
    settings={},
    required_settings=(),
    key="none",
    models=("subject-prior",),
    image_limits=None,
    image_tokens=lambda width, height: 0,
    thinking_tokens=no_thinking,
    free=True,
    client=lambda _config, corpus: SubjectPriorBaseline((corpus() if corpus else None) or {}),
    batch=None,  # offline and free: it answers at once
)


def _shuffled(marks: Sequence[str], item_id: str) -> list[str]:
    """``marks`` in an order seeded by the item id only: the same for every run, blind to
    where anything is on the figure."""
    seed = int.from_bytes(hashlib.sha256(item_id.encode("utf-8")).digest()[:8], "big")
    order = list(marks)
    random.Random(seed).shuffle(order)
    return order


def _number(mark: str) -> int | str:
    """A number as JSON writes it (``3``); a printed letter as text."""
    return int(mark) if mark.isdigit() else mark
