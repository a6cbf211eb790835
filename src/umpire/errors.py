"""Errors users can cause, each a one-line message with an optional file and line.

The CLI prints ``str(error)`` and exits with ``exit_code``; it never shows a traceback
for these.
"""

from __future__ import annotations


class UmpireError(Exception):
    """Base of every error caused by input; one line, optionally located in a file."""

    exit_code = 2

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line

    def __str__(self) -> str:
        where = ""
        if self.file is not None:
            where = f"{self.file}:{self.line}: " if self.line is not None else f"{self.file}: "
        return where + " ".join(self.message.split("\n"))


class NotationError(UmpireError):
    """Dice notation that does not parse, or exceeds the documented limits."""


class DataFileError(UmpireError):
    """A data file (table, scenario, order of battle) that is malformed."""


class TableCoverageError(DataFileError):
    """A roll table whose rows do not cover its formula's results exactly once."""


class UnknownNameError(UmpireError):
    """A name that does not exist: a table, a game, a side, a leader, a hex."""


class IllegalActionError(UmpireError):
    """An action the rules refuse; the state stays as it was."""


class IllegalChoiceError(IllegalActionError):
    """An answer to a decision that is not among its options."""


class DiceSourceError(UmpireError):
    """A dice source that cannot give a face: a script ran out, a typed face is out of range."""


class VerifyError(UmpireError):
    """An exported game whose log does not replay or whose rolls do not match its seed."""
