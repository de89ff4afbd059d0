"""A curator in another process: ``python -m tests.store.edit_worker FOLDER NAME ROUNDS``.

Adds ROUNDS items of its own, and ROUNDS times appends its mark to the shared item's notes
the way an editor does it: read the item (and its version), write with that version, and on
an :class:`EditConflict` read again and redo the edit. Prints one JSON line: its items, how
many conflicts it was told about.
"""

import json
import sys

from labeler.errors import EditConflict
from labeler.store import KeyEntry, NewItem, Project


def main(folder: str, name: str, rounds: int) -> None:
    conflicts = 0
    mine = []
    with Project.open(folder) as project:
        for n in range(rounds):
            item = project.items.add(NewItem(subject=f"{name}-{n}", key=[KeyEntry(f"{name}")]))
            mine.append(item.id)
            while True:
                shared = project.items.get("shared")
                try:
                    project.items.update(
                        "shared",
                        notes=f"{shared.notes} {name}{n}".strip(),
                        expected_version=shared.version,
                    )
                    break
                except EditConflict:
                    conflicts += 1
            own = project.items.get(item.id)
            project.items.set_key(
                item.id, [KeyEntry(f"{name}"), KeyEntry("edited")], expected_version=own.version
            )
    print(json.dumps({"items": mine, "conflicts": conflicts}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
