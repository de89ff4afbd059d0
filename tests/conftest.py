"""Shared test set-up: Qt runs offscreen (no display on CI or developer machines)."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
