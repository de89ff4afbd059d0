"""Where the shared reference material lives: beside the checkout, as in CI (``../shared``)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
REFERENCE = SHARED / "reference"
EXTERNAL_FIGURES = SHARED / "external-figures"
