"""The conditions an item is asked under: the card's four and the two slot conditions.

One list for every layer: the store checks a recorded answer's condition against it in code
(decision 0022: the responses table has no SQL CHECK on condition since migration 9), the
prompts build their text for it, and runs, results and exports read it from here.
"""

from __future__ import annotations

#: The dataset card's four conditions, in its order: the defaults of every run and table.
CONDITIONS: tuple[str, ...] = ("blind", "told", "desc", "no-image")
#: Numbered-slot questions: the slot image (or, for the control, no image) and the subject.
SLOT_CONDITIONS: tuple[str, ...] = ("slots", "slots-no-image")
#: Every condition a stored answer may have.
ALL_CONDITIONS: tuple[str, ...] = CONDITIONS + SLOT_CONDITIONS
