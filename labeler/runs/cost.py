"""What a call cost, and roughly what a run will cost before it is sent.

Actual cost uses the token counts the provider reported and the prices in
``models.toml``. The estimate is deliberately simple — prompt characters ÷ 4,
the provider's image token rule (its spec's ``image_tokens``), and an assumed answer
length — because its only job is to stop a curator from launching a run that costs 100×
what they expected. Without prices a model's cost is ``None`` (unknown), never 0. A call
sent through a batch API costs ``1 - batch_discount`` of the price.
"""

from __future__ import annotations

from labeler.providers import spec_for
from labeler.providers.base import ImagePayload
from labeler.providers.config import ModelConfig
from labeler.usage import Usage

# A typical answer: ~25 labels with location hints.
TYPICAL_ANSWER_TOKENS = 600


def price_factor(model: ModelConfig, batch: bool) -> float:
    """The share of the list price a call pays: 1, or ``1 - batch_discount`` in a batch."""
    return 1.0 - model.batch_discount if batch else 1.0


def call_cost(model: ModelConfig, usage: Usage, batch: bool = False) -> float | None:
    """Dollars for one call, or ``None`` when prices or token counts are missing."""
    if model.spec.free:
        return 0.0
    if model.price_input_per_mtok is None or model.price_output_per_mtok is None:
        return None
    if usage.input_tokens is None and usage.output_tokens is None:
        return None
    listed = (
        (usage.input_tokens or 0) * model.price_input_per_mtok
        + (usage.output_tokens or 0) * model.price_output_per_mtok
    ) / 1_000_000
    return listed * price_factor(model, batch)


def image_tokens(provider: str, image: ImagePayload | None) -> int:
    """The provider's published rule of thumb for one image's input tokens."""
    if image is None:
        return 0
    return spec_for(provider).image_tokens(image.width, image.height)


def estimate_call_cost(
    model: ModelConfig, prompt: str, image: ImagePayload | None, batch: bool = False
) -> float | None:
    """A rough price for one call before it is made (``None`` when prices are unknown)."""
    input_tokens = len(prompt) // 4 + image_tokens(model.provider, image)
    output = TYPICAL_ANSWER_TOKENS
    max_tokens = model.settings.get("max_tokens")
    if isinstance(max_tokens, int):
        output = min(output, max_tokens)
    output += model.spec.thinking_tokens(model.settings)
    return call_cost(model, Usage(input_tokens, output), batch)
