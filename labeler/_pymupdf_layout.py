"""Keep pymupdf 2.x from loading its layout-analysis models, which Labeler never uses.

pymupdf 2.0 depends on ``pymupdf-layout`` and ``pymupdf4llm`` and imports both (``pymupdf.layout``
and ``pymupdf4llm``) unconditionally when ``pymupdf`` is first imported; that loads ONNX graph
models and costs about 0.7 s and 55 MiB in every process — a third of ``labeler erase`` on a
vector figure. pymupdf guards both imports with ``except ImportError`` and offers no switch of its
own, so we mark them as unavailable before pymupdf is imported (a ``None`` entry in
``sys.modules`` is Python's documented way to make an import raise ``ImportError``). Labeler uses
text extraction, drawings, redaction and rendering, none of which touch the layout
engine. Decision record 0013 explains why this beats pinning pymupdf < 2.

Set ``LABELER_PYMUPDF_LAYOUT=1`` to let pymupdf load its layout models (e.g. when another library
in the same process needs them).
"""

from __future__ import annotations

import os
import sys

#: Modules pymupdf imports on its own that Labeler never uses.
_UNUSED = ("pymupdf.layout", "pymupdf4llm")


def skip_layout_models() -> None:
    """Stop a later ``import pymupdf`` from loading ``pymupdf.layout`` (no-op if already loaded)."""
    if os.environ.get("LABELER_PYMUPDF_LAYOUT") == "1" or "pymupdf" in sys.modules:
        return
    for name in _UNUSED:
        sys.modules.setdefault(name, None)  # type: ignore[arg-type]
