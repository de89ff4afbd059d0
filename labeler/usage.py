"""The tokens one model call used, as one record from the provider to the runner and the store.

Each provider's SDK counts tokens its own way (OpenAI's ``completion_tokens_details``,
Gemini's ``thoughts_token_count``, Anthropic's ``usage``); the adapters map them into
:class:`Usage` so the cost, the store and the review screens read one shape.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Usage:
    """Tokens billed for one call; ``None`` where the provider did not say.

    ``output_tokens`` counts every generated token billed as output, reasoning included;
    ``reasoning_tokens`` is the part of it spent on reasoning.
    """

    input_tokens: int | None = None
    output_tokens: int | None = None
    reasoning_tokens: int | None = None
