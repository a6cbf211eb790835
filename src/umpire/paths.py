"""Questions about a path a user typed, answered without raising: a name the system refuses
(too long, not valid here, not permitted) is simply not a file, so the caller says what it
says of any unknown name, in one line, instead of a traceback."""

from __future__ import annotations

from pathlib import Path

__all__ = ["exists", "is_dir", "is_file"]


def is_file(path: str | Path) -> bool:
    """``Path(path).is_file()``, False where the system refuses the name."""
    try:
        return Path(path).is_file()
    except (OSError, ValueError):  # ENAMETOOLONG, EACCES; ValueError: an embedded NUL
        return False


def is_dir(path: str | Path) -> bool:
    """``Path(path).is_dir()``, False where the system refuses the name."""
    try:
        return Path(path).is_dir()
    except (OSError, ValueError):
        return False


def exists(path: str | Path) -> bool:
    """``Path(path).exists()``, False where the system refuses the name."""
    try:
        return Path(path).exists()
    except (OSError, ValueError):
        return False
