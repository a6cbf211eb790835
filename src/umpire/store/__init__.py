"""Saves: games in SQLite (stdlib sqlite3, WAL), with export, import and verify."""

from umpire.store.sqlite import GameInfo, Store, default_db_path
from umpire.store.verify import verify_export

__all__ = ["GameInfo", "Store", "default_db_path", "verify_export"]
