"""The document jobs the curator waits for: open, erase, re-erase, add.

Each job runs on the document pool (PyMuPDF is not thread-safe), is followed by the view's
progress panel (with Cancel), and reports errors as dialogs. A job that opens an encrypted PDF
asks for its password when the core says one is needed
(:class:`~labeler.errors.PasswordRequired`) and runs again with it; the password is remembered
for the session only once it opened the document.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QInputDialog, QLineEdit, QWidget

from labeler.errors import PasswordRequired
from ui import workers
from ui.errors import interactive, show_error
from ui.progress import ProgressPanel
from ui.session import Session

OnResult = Callable[[Any], None]
OnError = Callable[[BaseException], None]


class DocumentJobs(QObject):
    """Starts document jobs for ``owner`` (the widget dialogs belong to) and tracks them."""

    def __init__(self, session: Session, progress: ProgressPanel, owner: QWidget) -> None:
        super().__init__(owner)
        self.session, self.progress, self.owner = session, progress, owner
        self._jobs: set[workers.Worker] = set()
        self.progress.cancelled.connect(self._cancelled)

    def run(
        self,
        fn: Callable[..., Any],
        args: tuple,
        on_result: OnResult,
        message: str,
        on_error: OnError | None = None,
        pass_control: bool = False,
    ) -> workers.Worker:
        """Run a job with progress and Cancel; errors are dialogs unless ``on_error`` says."""
        job = workers.Worker(fn, *args, pass_control=pass_control).deliver_to(
            self.owner,
            result=on_result,
            error=on_error or self._show,
            finished=lambda: self._jobs.discard(job),
        )
        self._jobs.add(job)
        self.progress.follow(job, message)
        self.session.status_message.emit(message)
        workers.start(job, workers.document_pool(), workers.PRIORITY_USER)
        return job

    def run_document(
        self,
        path: str,
        fn: Callable[..., Any],
        args_for: Callable[[str | None], tuple],
        on_result: OnResult,
        message: str,
        on_error: OnError | None = None,
        password: str | None = None,
        pass_control: bool = False,
    ) -> None:
        """:meth:`run` a job that opens ``path``, with its password if it is encrypted.

        ``args_for(password)`` builds the job's arguments. The password is the
        one this session already knows for ``path``; if the core says it is
        missing or wrong, the curator is asked (the error shown above the field)
        and the job runs again. It is remembered only once it opened the document.
        """
        if password is None:
            password = self.session.passwords.get(path)

        def opened(result: Any) -> None:
            if password is not None:
                self.session.passwords[path] = password
            on_result(result)

        def failed(exc: BaseException) -> None:
            if not isinstance(exc, PasswordRequired):
                (on_error or self._show)(exc)
                return
            retry = self._ask_password(exc)
            if retry is not None:
                self.run_document(
                    path, fn, args_for, on_result, message, on_error, retry, pass_control
                )

        self.run(fn, args_for(password), opened, message, failed, pass_control)

    def withdraw_all(self) -> None:
        """Drop the queued jobs (the window closes)."""
        for job in list(self._jobs):
            workers.withdraw(job, workers.document_pool())

    def _show(self, exc: BaseException) -> None:
        show_error(exc, self.owner)

    def _ask_password(self, exc: PasswordRequired) -> str | None:
        """The curator's password for the PDF ``exc`` names, or None on Cancel."""
        if not interactive():
            show_error(exc, self.owner)
            return None
        password, ok = QInputDialog.getText(
            self.owner, "Encrypted PDF", f"{exc}\n\nPassword:", QLineEdit.EchoMode.Password
        )
        return password if ok else None

    def _cancelled(self) -> None:
        """Cancel pressed: an add stopped after its store still shows up in the lists."""
        self.session.status_message.emit("Cancelled")
        self.session.items_changed.emit()
