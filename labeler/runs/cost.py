"""What a call cost, and roughly what a run will cost before it is sent.

Actual cost uses the token counts the provider reported and the prices in
``models.toml``. The estimate is deliberately simple — prompt characters ÷ 4,
a per-provider image token count, and an assumed answer length — because its
only job is to stop a curator from launching a run that costs 100× what they
expected. Without prices a model's cost is ``None`` (unknown), never 0.
"""

from __future__ import annotations

import math

from labeler.providers.base import ImagePayload
from labeler.providers.config import ModelConfig
from labeler.usage import Usage

# A typical answer: ~25 labels with location hints.
TYPICAL_ANSWER_TOKENS = 600


def call_cost(model: ModelConfig, usage: Usage) -> float | None:
    """Dollars for one call, or ``None`` when prices or token counts are missing."""
    if model.provider == "baseline":
        return 0.0
    if model.price_input_per_mtok is None or model.price_output_per_mtok is None:
        return None
    if usage.input_tokens is None and usage.output_tokens is None:
        return None
    return (
        (usage.input_tokens or 0) * model.price_input_per_mtok
        + (usage.output_tokens or 0) * model.price_output_per_mtok
    ) / 1_000_000


def image_tokens(provider: str, image: ImagePayload | None) -> int:
    """The providers' published rules of thumb for image input tokens."""
    if image is None:
        return 0
    w: float = image.width
    h: float = image.height
    if provider == "anthropic":
        return math.ceil(w * h / 750)
    if provider == "openai":  # detail: high — fit 2048², shortest side 768, 512-px tiles
        scale = min(1.0, 2048 / max(w, h))
        w, h = w * scale, h * scale
        scale = min(1.0, 768 / min(w, h))
        w, h = w * scale, h * scale
        return 85 + 170 * math.ceil(w / 512) * math.ceil(h / 512)
    if provider == "gemini":  # 258 tokens per 768-px tile; small images are one tile
        if max(w, h) <= 384:
            return 258
        return 258 * math.ceil(w / 768) * math.ceil(h / 768)
    return 0


def estimate_call_cost(model: ModelConfig, prompt: str, image: ImagePayload | None) -> float | None:
    """A rough price for one call before it is made (``None`` when prices are unknown)."""
    input_tokens = len(prompt) // 4 + image_tokens(model.provider, image)
    output = TYPICAL_ANSWER_TOKENS
    max_tokens = model.settings.get("max_tokens")
    if isinstance(max_tokens, int):
        output = min(output, max_tokens)
    budget = model.settings.get("thinking_budget")
    if isinstance(budget, int) and budget > 0:
        output += budget
    return call_cost(model, Usage(input_tokens, output))
