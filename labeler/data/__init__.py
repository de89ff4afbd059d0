"""Data files shipped inside the package: the sample textbook, the starter lexicon, the example
``models.toml``, and the demo's openly licensed real figures (``figures/``, with their
``LICENSES.md``; read as ``data_file("figures/NAME")``).

They live in the package (not beside it) so a wheel or a plain ``pip install .`` carries them;
code reads them through :func:`data_file`, never through a path relative to the source tree.
"""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path

#: Names of the shipped files, relative to this package.
SAMPLE_BOOK = "sample/textbook.pdf"
STARTER_LEXICON = "lexicon/biology.csv"
MODELS_EXAMPLE = "models.example.toml"


def data_file(name: str) -> Path:
    """A real filesystem path to one shipped data file (``name`` as in the constants above).

    Installed packages are plain directories in every layout Labeler supports (wheel, editable,
    sdist), so ``as_file`` returns the file in place; it would extract a zipped install to a
    temporary file that lives for the process.
    """
    resource = files(__package__).joinpath(name)
    with as_file(resource) as path:
        if not path.is_file():
            raise FileNotFoundError(f"Labeler's data file {name} is missing from the install")
        return Path(path)
