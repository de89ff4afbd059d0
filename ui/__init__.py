"""Labeler's PySide6 desktop application: views over the ``labeler`` core."""
