"""Fit a question image to a provider's limits and say exactly what was sent.

An image inside the limits is sent byte for byte as stored, with its real MIME
type, so nothing is lost to re-encoding. Only an image over a limit is scaled
down (keeping its format), and the :class:`ImagePayload` records the size that
actually went out — a model can only be judged on the pixels it was given.
"""

from __future__ import annotations

import base64
import io

from PIL import Image

from labeler.providers.base import ImagePayload
from labeler.providers.spec import ImageLimits

_MIME = {"PNG": "image/png", "JPEG": "image/jpeg", "WEBP": "image/webp", "GIF": "image/gif"}


def prepare_image(data: bytes, limits: ImageLimits) -> ImagePayload:
    """The image as a provider with ``limits`` will receive it (unchanged when within them)."""
    with Image.open(io.BytesIO(data)) as img:
        img.load()
        fmt = img.format or "PNG"
        animated = getattr(img, "n_frames", 1) > 1
        if fmt not in _MIME or animated:
            return _shrink(img.convert("RGB"), "PNG", limits, force=True)
        return _shrink(img, fmt, limits, force=False, original=data)


def _shrink(
    img: Image.Image,
    fmt: str,
    limits: ImageLimits,
    force: bool,
    original: bytes | None = None,
) -> ImagePayload:
    width, height = img.size
    scale = 1.0
    if limits.max_edge is not None and max(width, height) > limits.max_edge:
        scale = limits.max_edge / max(width, height)
    if (
        not force
        and scale == 1.0
        and original is not None
        and _b64_len(original) <= limits.max_base64
    ):
        return ImagePayload(original, _MIME[fmt], width, height)
    while True:
        size = (max(1, round(width * scale)), max(1, round(height * scale)))
        out = img if size == img.size else img.resize(size, Image.Resampling.LANCZOS)
        data = _encode(out, fmt)
        if _b64_len(data) <= limits.max_base64:
            return ImagePayload(data, _MIME[fmt], size[0], size[1])
        scale *= 0.8


def _encode(img: Image.Image, fmt: str) -> bytes:
    buf = io.BytesIO()
    if fmt == "JPEG":
        img.convert("RGB").save(buf, "JPEG", quality=90)
    else:
        img.save(buf, fmt)
    return buf.getvalue()


def _b64_len(data: bytes) -> int:
    return 4 * ((len(data) + 2) // 3)


def data_url(image: ImagePayload) -> str:
    """``data:<mime>;base64,...`` as OpenAI-style image parts expect."""
    return f"data:{image.mime};base64,{base64.b64encode(image.data).decode('ascii')}"
