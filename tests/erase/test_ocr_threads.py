"""The OCR engine runs one onnxruntime thread per session, and reads exactly as with the default.

``labeler.erase.ocr`` sets ``intra_op_num_threads`` to 1 to save the CPU a second, spin-waiting
thread burns (issue #11, cold ``add-item``). That is only allowed because no read changes: the
same figure read by rapidocr's default engine (one thread per core) gives the same boxes, texts
and scores, bit for bit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from PIL import Image

from labeler.erase import ocr
from tests.paths import EXTERNAL_FIGURES

TOOTH = EXTERNAL_FIGURES / "openstax-ap2e-2409_Tooth.jpg"


def _default_engine() -> Any:
    """rapidocr's engine as Labeler built it before: bundled models, default threads."""
    from rapidocr import RapidOCR

    params: dict[str, Any] = {"Global.log_level": "error"}
    for section, path in ocr.bundled_model_paths().items():
        params[f"{section}.model_path"] = str(path)
    return RapidOCR(params=params)


def _raw(result: Any) -> tuple[list[list[list[float]]], list[str], list[float]]:
    return (
        np.asarray(result.boxes).tolist(),
        [str(t) for t in result.txts],
        [float(s) for s in result.scores],
    )


def test_sessions_use_one_intra_op_thread() -> None:
    engine = ocr._engine()
    rgb = np.full((64, 200, 3), 255, dtype=np.uint8)
    ocr.read_text(rgb)  # rapidocr builds each session on its first use
    for model in (engine.text_det, engine.text_cls, engine.text_rec):
        options = model.session.session.get_session_options()
        assert options.intra_op_num_threads == ocr.INTRA_OP_THREADS == 1


def test_reads_are_identical_to_the_default_thread_count() -> None:
    bgr = np.ascontiguousarray(np.asarray(Image.open(TOOTH).convert("RGB"))[:, :, ::-1])
    settings = {"box_thresh": 0.5, "unclip_ratio": 1.6}
    ours = _raw(ocr._engine()(bgr, **settings))
    default = _raw(_default_engine()(bgr, **settings))
    assert len(ours[1]) >= 8  # the tooth's labels were read at all
    assert ours == default
