"""The dataset card's section on the slot conditions, for an export with ``--include-slots``.

A plain export is exactly the card's schema and says nothing of slots; an export that
carries slot rows explains what was asked, how it was scored and prints the prompt verbatim
(its ``{subject}`` and ``{slots}`` fields unfilled), as the card does for its four.
"""

from __future__ import annotations

from collections.abc import Mapping

from labeler.export.schema import SLOT_FIELD


def slot_card_section(prompts: Mapping[str, str]) -> str:
    """Markdown for the card: the two slot conditions, their scoring, their prompt(s)."""
    blocks = []
    if prompts.get("slots") == prompts.get("slots-no-image"):
        blocks.append("**`slots` and `slots-no-image`** — one text, the image attached or not:")
        blocks.append("```\n" + prompts["slots"] + "\n```")
    else:
        for condition, text in prompts.items():
            blocks.append(f"**`{condition}`**:")
            blocks.append("```\n" + text + "\n```")
    prompt_text = "\n\n".join(blocks)
    return f"""
### Numbered slots (outside the card's four conditions)

Two extra conditions ask where each name belongs, not only which names: the erased figure
is shown with a small number (1…n) inside the box of each erased label, numbered in reading
order (for items with printed marker letters, the letters are the slots), and the model names
the part at every number.

| Condition | Model receives | Isolates |
|---|---|---|
| `slots` | Numbered diagram + subject name | Naming each part where the figure shows it |
| `slots-no-image` | The same prompt, **no picture** | Placing from memory alone: the control |

`{SLOT_FIELD.name}` is the share of an answer's slots whose name matches that slot's key name
(the same matcher, synonyms and alternatives as `f1`; the first name given for a number
counts, numbers the figure does not have are ignored, a number left unnamed is wrong). The
same answer's `f1` is its name-set F1, so `f1 − {SLOT_FIELD.name}` on `slots` rows is the
vocabulary a model knew but did not place. `{SLOT_FIELD.name}` is null on the four card
conditions' rows. `{{slots}}` below is replaced by the item's numbers (`1, 2, 3`).

{prompt_text}
"""
