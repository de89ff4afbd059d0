"""Images fit each provider's limits; within limits they go out byte for byte."""

import base64
import io

import numpy as np
from PIL import Image

from labeler.providers import spec_for, specs
from labeler.providers.images import prepare_image
from tests.runs.runs_support import figure


def test_small_png_and_jpeg_pass_through_unchanged_with_real_mime():
    for fmt, mime in (("PNG", "image/png"), ("JPEG", "image/jpeg"), ("WEBP", "image/webp")):
        data = figure(fmt)
        for spec in specs().values():
            if spec.image_limits is None:  # the baseline is never sent an image
                continue
            sent = prepare_image(data, spec.image_limits)
            assert sent.data == data and sent.mime == mime
            assert (sent.width, sent.height) == (400, 300)


def test_anthropic_long_edge_is_capped_and_size_recorded():
    data = figure("PNG", size=(3000, 1200))
    sent = prepare_image(data, spec_for("anthropic").image_limits)
    assert (sent.width, sent.height) == (1568, 627)
    assert Image.open(io.BytesIO(sent.data)).size == (1568, 627)
    assert sent.mime == "image/png"
    # OpenAI scales "detail: high" itself
    assert prepare_image(data, spec_for("openai").image_limits).data == data


def test_anthropic_five_megabyte_limit_after_base64():
    noise = np.random.default_rng(0).integers(0, 255, (1500, 1500, 3), dtype=np.uint8)
    buf = io.BytesIO()
    Image.fromarray(noise).save(buf, "PNG")
    assert len(base64.b64encode(buf.getvalue())) > 5 * 1024 * 1024
    sent = prepare_image(buf.getvalue(), spec_for("anthropic").image_limits)
    assert len(base64.b64encode(sent.data)) <= 5 * 1024 * 1024
    assert Image.open(io.BytesIO(sent.data)).size == (sent.width, sent.height)
    assert sent.width < 1500


def test_unsupported_format_is_converted_to_png():
    sent = prepare_image(figure("BMP"), spec_for("gemini").image_limits)
    assert sent.mime == "image/png" and sent.data.startswith(b"\x89PNG")
