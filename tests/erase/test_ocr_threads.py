"""The OCR engine runs two sleeping onnxruntime threads per session, and reads exactly as with one.

``labeler.erase.ocr`` sets ``intra_op_num_threads`` to 2 with spinning off: the reads take half
the wall time at low load without the CPU a spin-waiting thread burns on a busy machine (issue
#11, cold ``add-item``). That is only allowed because no read changes: the same figure read with
one thread, or with onnxruntime's default (one per core), gives the same boxes, texts and
scores, bit for bit.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

from labeler.erase import ocr
from labeler.erase.ppocr import PpOcr
from tests.paths import EXTERNAL_FIGURES

TOOTH = EXTERNAL_FIGURES / "openstax-ap2e-2409_Tooth.jpg"


def _read(engine: PpOcr, bgr: np.ndarray) -> list[tuple[list[list[float]], str, float]]:
    lines = engine.read(bgr, box_thresh=0.5, unclip_ratio=1.6)
    return [(line.quad.tolist(), line.text, line.score) for line in lines]


def test_sessions_use_two_sleeping_intra_op_threads() -> None:
    engine = ocr._engine()
    ocr.read_text(np.asarray(Image.open(TOOTH).convert("RGB")))
    for role in ("Det", "Cls", "Rec"):
        options = engine.session(role).get_session_options()
        assert options.intra_op_num_threads == ocr.INTRA_OP_THREADS == 2
        assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"


def test_reads_are_identical_to_one_thread_and_to_the_default() -> None:
    bgr = np.ascontiguousarray(np.asarray(Image.open(TOOTH).convert("RGB"))[:, :, ::-1])
    ours = _read(ocr._engine(), bgr)
    assert len(ours) >= 8  # the tooth's labels were read at all
    for threads in (1, 0):  # 0: onnxruntime's default, one per core
        assert _read(PpOcr(ocr.bundled_model_paths(), threads=threads), bgr) == ours
