"""The ``labeler`` command line.

Each command group lives in its own module in this package and exposes
``register(subparsers)``, which adds its sub-commands and sets ``func`` on each.
Modules are discovered, so adding a command never edits a shared list. Heavy
imports (pymupdf, pandas, Qt) stay inside the command functions so that
``labeler --help`` is instant.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

from labeler import __version__
from labeler.errors import LabelerError, PasswordRequired


def build_parser() -> argparse.ArgumentParser:
    """The full parser, with every command module's sub-commands registered."""
    parser = argparse.ArgumentParser(
        prog="labeler",
        description="Build diagram-labeling benchmarks for vision-language models.",
    )
    parser.add_argument("--version", action="version", version=f"labeler {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):  # helpers such as _args, not command groups
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; user errors print one clear line and exit 2."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except LabelerError as exc:
        hint = "; give it with --password" if _wants_password(args, exc) else ""
        print(f"labeler: error: {exc}{hint}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("labeler: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (``labeler items list DIR | head``)
        # Python would complain again when it flushes stdout at exit; point it at nothing.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _wants_password(args: argparse.Namespace, exc: LabelerError) -> bool:
    """The core's password message names no flag; commands that take one say which."""
    return isinstance(exc, PasswordRequired) and hasattr(args, "password")
