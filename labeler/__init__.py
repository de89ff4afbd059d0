"""Labeler: build diagram-labeling benchmarks for vision-language models.

The package is the Qt-free core. Everything the GUI (``ui``) does is a call
into this package, so every capability can be driven, tested and benchmarked
headless.
"""

from labeler._pymupdf_layout import skip_layout_models

skip_layout_models()

__version__ = "0.1.0"
