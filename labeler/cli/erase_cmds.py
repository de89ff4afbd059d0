"""``labeler erase``: erase one figure's labels and write question/answer images and the key."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from labeler.cli._args import clip, positive_int
from labeler.errors import LabelerError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "erase",
        help="erase the printed labels of a figure; write question/answer PNGs and labels.json",
        description=(
            "Erase every printed label in a figure (vector text, outlines or raster, chosen "
            "per label) while keeping leader lines. Writes DIR/question.png, DIR/answer.png, "
            "DIR/question.pdf and DIR/labels.json."
        ),
    )
    parser.add_argument("--pdf", required=True, type=Path, help="PDF, SVG, PNG or JPEG file")
    parser.add_argument("--page", required=True, type=positive_int, help="page number, 1-based")
    parser.add_argument(
        "--clip",
        type=clip,
        help="X0,Y0,X1,Y1 in PDF points (top-left origin; default: the page's best proposed "
        "figure region, as add-item uses)",
    )
    parser.add_argument("--out", required=True, type=Path, help="output folder")
    parser.add_argument(
        "--dpi", type=positive_int, default=200, help="render resolution (default 200)"
    )
    parser.add_argument("--password", help="password of an encrypted PDF")
    parser.add_argument(
        "--mask",
        type=Path,
        metavar="FILE.json",
        help='painted strokes to erase as well: a JSON list of {"width": pt, "points": [[x, y], '
        "...]} in page points (what the Curate view's Paint tool stores)",
    )
    parser.set_defaults(func=run_erase)


def _read_mask(path: Path | None) -> list[Any]:
    """The strokes of ``--mask`` (validated by ``EraseEdits``); none without the option."""
    if path is None:
        return []
    try:
        strokes: list[Any] = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LabelerError(f"{path}: cannot read the mask file ({exc.strerror})") from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LabelerError(f"{path}: not a JSON list of strokes ({exc})") from exc
    return strokes


def run_erase(args: argparse.Namespace) -> int:
    from labeler.atomic import write_bytes, write_text
    from labeler.curation import default_clip
    from labeler.erase import erase_figure
    from labeler.erase.edits import EraseEdits
    from labeler.pdf.document import open_document

    if args.out.exists() and not args.out.is_dir():
        raise LabelerError(f"{args.out}: exists and is not a folder; choose another --out")
    edits = EraseEdits.from_json({"mask_strokes": _read_mask(args.mask)})
    doc = open_document(args.pdf, password=args.password)
    # without --clip, the figure add-item would store: a whole page would key its running
    # head, page number and body text
    region = args.clip if args.clip is not None else default_clip(doc, args.page)
    result = erase_figure(doc, args.page, clip=region, dpi=args.dpi, edits=edits)
    labels = [label.to_json() for label in result.labels]
    write_bytes(args.out / "question.png", result.question_png)
    write_bytes(args.out / "answer.png", result.answer_png)
    write_bytes(args.out / "question.pdf", result.question_pdf)
    write_text(args.out / "labels.json", json.dumps(labels, indent=2, ensure_ascii=False) + "\n")
    print(f"{len(labels)} labels ({result.method}) -> {args.out}")
    return 0
