"""Scoring thousands of answers at once without paying the garbage collector for it.

A bulk pass (opening the review matrix, ``labeler score``) allocates hundreds of
thousands of container objects — answers, scores, the scorer's memo tables —
that nearly all stay alive, so every allocation-triggered collection re-walks a
growing live set for nothing: a fifth of the pass's time. Collection resumes
afterwards as it was (also on error). Re-enabling it would at once run the full
collection the pass postponed (a tenth of a second over the caches a pass
fills), so the survivors are first frozen — moved out of the collector's view —
and then handed back to the oldest generation, where any cycle made meanwhile is
collected at the next full collection instead of right away.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Hold the cyclic garbage collector for the duration of a bulk pass."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            if gc.get_freeze_count() == 0:  # nobody else froze objects: ours to thaw
                gc.freeze()
                gc.enable()
                gc.unfreeze()
            else:
                gc.enable()
