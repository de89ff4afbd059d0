"""Shared test set-up: Qt runs offscreen; every test gets its own temp folders."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
