"""Cost: actual from reported tokens and prices; unknown stays unknown, never $0."""

from labeler.providers.base import ImagePayload
from labeler.providers.config import ModelConfig, baseline_model
from labeler.runs.cost import call_cost, estimate_call_cost, image_tokens
from labeler.usage import Usage

PRICED = ModelConfig("p", "openai", "m", price_input_per_mtok=2.5, price_output_per_mtok=10.0)
UNPRICED = ModelConfig("u", "openai", "m")


def test_actual_cost_from_tokens():
    assert call_cost(PRICED, Usage(1_000_000, 100_000)) == 2.5 + 1.0
    assert call_cost(PRICED, Usage()) is None
    assert call_cost(UNPRICED, Usage(1000, 1000)) is None
    assert call_cost(baseline_model(), Usage()) == 0.0


def test_image_tokens_follow_each_providers_rule():
    big = ImagePayload(b"", "image/png", 1568, 1000)
    assert image_tokens("anthropic", big) == 2091  # w·h / 750, rounded up
    assert image_tokens("openai", big) == 85 + 170 * 6  # 1204x768 → 3x2 tiles of 512
    assert image_tokens("gemini", ImagePayload(b"", "image/png", 300, 200)) == 258
    assert image_tokens("gemini", big) == 258 * 6  # 3x2 tiles of 768
    assert image_tokens("openai", None) == 0


def test_estimate_counts_image_and_thinking_budget():
    image = ImagePayload(b"", "image/png", 800, 600)
    with_image = estimate_call_cost(PRICED, "x" * 400, image)
    without = estimate_call_cost(PRICED, "x" * 400, None)
    assert with_image > without > 0
    gemini = ModelConfig(
        "g",
        "gemini",
        "m",
        settings={"thinking_budget": 1024},
        price_input_per_mtok=0.3,
        price_output_per_mtok=2.5,
    )
    assert estimate_call_cost(gemini, "", None) == (600 + 1024) * 2.5 / 1e6
    assert estimate_call_cost(UNPRICED, "x", image) is None
