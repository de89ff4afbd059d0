"""The project store: SQLite (WAL, foreign keys, migrations) plus content-addressed assets."""

from labeler.store.project import Project
from labeler.store.records import Item, KeyEntry, NewItem, NewResponse, Response, Source

__all__ = ["Item", "KeyEntry", "NewItem", "NewResponse", "Project", "Response", "Source"]
