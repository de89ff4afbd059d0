"""User-facing errors.

Anything raised as a :class:`LabelerError` carries a message written for the
curator; the CLI prints it without a traceback and the GUI shows it in a dialog.
Anything else escaping is a bug.
"""


class LabelerError(Exception):
    """An error the user can act on; its message says what went wrong and what to do."""


class DocumentError(LabelerError):
    """A source document is missing, unreadable, encrypted, empty or not a document."""


class PasswordRequired(DocumentError):
    """An encrypted PDF needs a password, or the one given is wrong.

    A subclass so that callers can react (the GUI asks for the password and
    retries) without parsing the message, which stays free of any one front
    end's wording: the CLI adds its ``--password`` hint itself.
    """


class ProjectError(LabelerError):
    """A project folder is missing, not a project, or from a newer Labeler."""


class SourceMissing(ProjectError):
    """A source document is neither at its recorded path nor kept in the project."""


class DuplicateItem(ProjectError):
    """The figure is already an item: same source document, page and (nearly) the same region."""

    def __init__(self, message: str, existing_id: str) -> None:
        super().__init__(message)
        self.existing_id = existing_id


class EditConflict(ProjectError):
    """Someone else changed the item since it was read: the edit was not written."""


class ConfigError(LabelerError):
    """A configuration file (models.toml, lexicon CSV …) is invalid."""


class ExportError(LabelerError):
    """An export failed validation; nothing was written."""


class DisplayError(LabelerError):
    """Qt cannot open a window here (e.g. system libraries of its platform plugin are missing)."""
